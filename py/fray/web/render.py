"""HTML for the tracker, as strings, from the encounter and its ruleset's view.

Pure functions (no ``js``), so CPython tests can check them. The markup is built with
``fray.web.html`` (``h``, ``html``): every piece of user text is escaped there (names full of HTML
show as text, never as markup), and each function returns ``Markup``. Controls carry
``data-act`` / ``data-form`` attributes; one delegated listener in ``app.py`` turns a click or
a submit into an engine call, so rendering stays one ``innerHTML`` write per region.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from .. import timers
from .blocks import Block
from .html import Markup, attrs as _attrs, fragment, h, html, trusted
from ..model import Combatant, Encounter, LogEntry
from ..reducer import NUMBERED_NAME
from fray.games.base import Ruleset, Slot, StatSpec


def memo(fn: Any) -> Any:
    """``fn`` (pure: its markup depends on its arguments alone) remembering what it made. A panel
    draws the same buttons, tick boxes and slots again at every render (hundreds in a 30-combatant
    fight), and building one on ``fray.web.html`` costs several times the f-string it replaced.
    Text and Markup of the same characters are equal keys but not the same piece: the arguments'
    types are part of the key. Arguments that cannot be a key (a list) build it every time."""
    made: dict[tuple, Any] = {}

    def remembered(*args: Any, **kw: Any) -> Any:
        try:
            key = (args, tuple(map(type, args)), tuple(kw.items()), tuple(map(type, kw.values())))
            out = made.get(key)
        except TypeError:
            return fn(*args, **kw)
        if out is None:
            out = fn(*args, **kw)
            if len(made) >= 4096:
                made.clear()
            made[key] = out
        return out

    remembered.__doc__, remembered.__name__, remembered.__wrapped__ = fn.__doc__, fn.__name__, fn  # type: ignore[attr-defined]
    return remembered


def attrs(**kw: Any) -> Markup:
    """``attrs(data_act="x", aria_label="y")`` → ` data-act="x" aria-label="y"`; False/None dropped."""
    # fray.web.html.attrs escapes every value and the names are keyword names: safe as made
    return trusted(_attrs({k.rstrip("_").replace("_", "-"): v for k, v in kw.items()}))


@memo
def button(label: Any, act: str, cls: str = "", title: str | None = None, **data: Any) -> Markup:
    """A button whose click is ``act`` (``data-act``); ``label`` is text (escaped) or Markup."""
    # A symbol (▲, ×) is not a name: a screen reader gets the title as the button's name.
    symbol = title and not any(ch.isalnum() for ch in str(label))
    at = {"type": "button", "data-act": act, "class": cls or None, "title": title,
          "aria-label": title if symbol else None}
    for k, v in data.items():
        at["data-" + k.replace("_", "-")] = str(v)  # every one written, as text (None as "None")
    return h("button", at, label)


SIDE_LABEL = {"party": "Party", "foes": "Foes", "neutral": "Neutral"}


def phase_label(enc: Encounter, view: dict[str, Any]) -> str:
    """The phase as the game names it: a view may give a label, a phase object with a title
    (tactical-round), or a strike rank being resolved (strike-rank)."""
    if view.get("phase_label"):
        return str(view["phase_label"])
    phase = view.get("phase")
    if isinstance(phase, dict) and phase.get("title"):
        return str(phase["title"])
    if enc.phase == "setup":
        return "Setting up"
    if enc.phase == "resolve" and view.get("sr"):
        return f"Resolve: SR {view['sr']}"
    return enc.phase.replace("_", " ").capitalize()


def round_bar(enc: Encounter, order: list[Slot], ruleset: Ruleset, view: dict[str, Any],
              turn_based: bool = True) -> Markup:
    phase = phase_label(enc, view)
    current = view.get("current_label", "")
    who = ""
    # "Now: X" only where the game moves one combatant at a time through ``enc.turn``; a game
    # that resolves a whole phase or strike rank shows who acts in its own panel.
    if turn_based and enc.phase != "setup" and order and 0 <= enc.turn < len(order):
        c = enc.get(order[enc.turn].combatant_id)
        who = html('<span class="now">Now: <strong>{}</strong> {}</span>', c.name if c else "?", order[enc.turn].label)
    next_label = view.get("advance_label") or ("Start the fight" if enc.phase == "setup" else "Next")
    return html(
        '<div class="round-info"><span class="round">Round {}</span><span class="phase">{}</span>{}{}</div>'
        '<div class="round-actions">{}{}</div>'
        '<p class="field-error" data-error-for="advance"></p>',
        enc.round, phase, current, who,
        button("Add combatant", "add-combatant", "secondary"), button(next_label, "advance", "primary"))


def order_list(enc: Encounter, order: list[Slot]) -> Markup:
    if not order:
        return Markup("")
    items = []
    for i, s in enumerate(order):
        c = enc.get(s.combatant_id)
        if c is None:
            continue
        cur = enc.phase != "setup" and i == enc.turn
        items.append(html(
            '<li class="{}" data-id="{}"{}><span class="slot">{}</span> <span class="who side-{}">{}</span>'
            '<span class="why">{}</span><span class="move">{}{}</span></li>',
            "current" if cur else "", c.id, attrs(aria_current="step" if cur else None), s.label, c.side, c.name,
            s.explanation,
            button("▲", "order-up", "icon", title=f"Move {c.name} earlier among ties", id=c.id),
            button("▼", "order-down", "icon", title=f"Move {c.name} later among ties", id=c.id)))
    return html('<h2 class="visually-hidden">Order of play</h2><ol class="order" aria-label="Order of play">{}</ol>'
                '<p class="field-error" data-error-for="order"></p>', Markup("").join(items))


# -- the order strip ----------------------------------------------------------------------------
# Who acts now and next and how each combatant stands, compact enough that a dozen fit above the
# cards on a tablet; an entry opens its combatant's card. Equals in the order (the same ``Slot.tie``)
# can be dragged by their grip or moved with Alt+Arrow keys: the engine's ``settle_tie``.

def strip_entries(enc: Encounter, order: list[Slot], status: dict[str, dict[str, Any]],
                  current_id: str | None, label_is_phase: bool = False,
                  waiting: list[str] | None = None) -> list[dict[str, Any]]:
    """One entry per combatant: those with a place in the order first, in it (at their first
    slot), then the rest in the encounter's order. ``up``/``down``: the equal just before / after.
    ``label_is_phase`` (``Ruleset.slot_label_is_phase``): the slots' label is the phase's, named
    once by ``strip_heading``, so no entry carries it. ``waiting`` (``Ruleset.still_to_act``): who has
    yet to act, in order; "next" is the second of them, and nobody once all have acted."""
    first: dict[str, Slot] = {}
    for s in order:
        if s.combatant_id not in first and enc.get(s.combatant_id) is not None:
            first[s.combatant_id] = s
    ids = list(first) + [c.id for c in enc.combatants if c.id not in first]
    ties: dict[tuple, list[str]] = {}
    for cid, s in first.items():
        if s.tie is not None:
            ties.setdefault(s.tie, []).append(cid)
    later = list(first)
    # the fallen act no more: never NOW or NEXT, though their slot may still be in the order (issue 33)
    out_of_it = {cid for cid, st in status.items() if (st or {}).get("level") == "out"}
    next_id = None
    if current_id in later:
        rest = [x for x in later[later.index(current_id) + 1:] if x not in out_of_it]
        next_id = rest[0] if rest else None
    elif current_id is None and enc.phase != "setup" and later:
        standing = [x for x in later if x not in out_of_it]
        next_id = standing[0] if standing else None
    if waiting is not None:
        next_id = waiting[1] if len(waiting) > 1 and waiting[0] == current_id else None
        if current_id is not None and waiting and current_id not in waiting:
            # now is one who has acted, with something of theirs still open (the game's ``acting``: a
            # tactical-round critical of their blow): next is the first still to act
            next_id = waiting[0]
    out = []
    for cid in ids:
        c = enc.get(cid)
        s = first.get(cid)
        group = ties.get(s.tie, []) if s is not None and s.tie is not None else []
        group = group if len(group) > 1 else []
        i = group.index(cid) if group else -1
        out.append({
            "id": cid, "name": c.name, "side": c.side, "label": s.label if s and not label_is_phase else "",
            "status": status.get(cid) or {"hp": None, "fraction": None, "word": "", "level": "ok", "chips": []},
            "current": cid == current_id and cid not in out_of_it, "next": cid == next_id, "in_order": s is not None,
            "group": "t" + "-".join(str(x) for x in (s.tie or ())) if group else "",
            "up": group[i - 1] if group and i > 0 else None,
            "down": group[i + 1] if group and i + 1 < len(group) else None,
        })
    return out


def drop_side(order: list[str], dragged: str, target: str) -> str:
    """Where a dragged entry goes relative to the one it is dropped on: before an entry that came
    earlier, after one that came later (so a drop always moves it onto that place)."""
    return "before" if order.index(target) < order.index(dragged) else "after"


def status_text(st: dict[str, Any]) -> str:
    """"HP 9/13, serious: abdomen": what the bar and colour say, in words."""
    parts = []
    if st.get("hp"):
        parts.append(f"HP {st['hp'][0]}/{st['hp'][1]}")
    if st.get("word"):
        parts.append(str(st["word"]))
    return ", ".join(parts)


def strip_words(st: dict[str, Any]) -> Markup:
    """``status_text`` as the strip draws it: each part whole ("15/40," "bruised"), so a narrow chip
    wraps between parts and never cuts one, and "HP" its own span, which a tablet's chip leaves to
    the bar and to readers (issue 33: "HP 15/40, bruised" was "H…" at 768 px)."""
    parts: list[Any] = [x for x in str(st.get("word") or "").split(", ") if x] if st.get("word") else []
    if st.get("hp"):
        parts.insert(0, html('<span class="strip-k">HP </span>{}/{}', st["hp"][0], st["hp"][1]))
    return Markup(" ").join(html('<span class="strip-part">{}{}</span>', x, "," if i < len(parts) - 1 else "")
                            for i, x in enumerate(parts))


def hp_bar(st: dict[str, Any]) -> Markup:
    """The HP left as a bar (an SVG rect: no style attribute under the page's policy); none
    when the game counts no HP. Its meaning is in the entry's words, so it is hidden from readers."""
    frac = st.get("fraction")
    if frac is None:
        return Markup("")
    w = round(100 * frac)
    return html('<svg class="hpbar lv-{}" viewBox="0 0 100 6" preserveAspectRatio="none" '
                'aria-hidden="true" focusable="false"><rect class="bg" width="100" height="6"></rect>'
                '<rect class="fill" width="{}" height="6"></rect></svg>', st.get("level", "ok"), w)


def chips(items: Iterable[Any], cls: str = "chip") -> Markup:
    return Markup(" ").join(html('<span class="{}">{}</span>', cls, x) for x in items)


def card_name(name: str) -> Markup:
    """A card's name in the button that opens it. One that ends in a number is drawn as its head and
    the number, as in the strip (``strip_name``): a folded card too narrow for the whole name cuts
    the head and keeps the number ("Great wolf (fo… 3", not "Great wolf (four-legged" for wolf 1 and
    wolf 3 alike). Its text, and so the button's name, is the name as it is."""
    m = NUMBERED_NAME.fullmatch(name)
    if m is None:
        return html("{}", name)
    return html('<span class="name-head">{}</span>{}<span class="name-no">{}</span>',
                m.group(1), name[m.end(1):m.start(2)], m.group(2))


# each strip entry's markup by everything it is made of (``order_strip``); bounded like the builder's memo of escaped text
_STRIP_ENTRY: dict[tuple, Markup] = {}


def strip_name(name: str) -> Markup:
    """An entry's name. One that ends in a number (``reducer.NUMBERED_NAME``, as Add ×N writes it) is
    drawn as its head and the number, so a narrow entry cuts the head and keeps the number ("Great
    wolf (f… 9", not "Great wolf (fou…" for wolf 4 and wolf 9 alike). Its text is the name as it is."""
    m = NUMBERED_NAME.fullmatch(name)
    if m is None:
        return html('<span class="strip-name">{}</span>', name)
    return html('<span class="strip-name numbered"><span class="strip-name-head">{}</span>'
                '{}<span class="strip-name-no">{}</span></span>', m.group(1), name[m.end(1):m.start(2)], m.group(2))


def strip_heading(order: list[Slot], label_is_phase: bool) -> str:
    """What the strip's title adds after "Order": the phase its slots all name, when the ruleset's
    slot label is the phase (``strip_entries``); else nothing."""
    return order[0].label if label_is_phase and order else ""


def order_strip(entries: list[dict[str, Any]], heading: str = "") -> Block | Markup:
    if not entries:
        return Markup("")
    items = []
    for e in entries:
        # an entry is made of its fields and its status alone: the same ones give the same markup
        # (200 entries at every render of a 200-combatant fight, most of them as they were)
        st = e["status"]
        key = (e["id"], e["name"], e["side"], e["label"], e["current"], e["next"], e["in_order"], e["group"],
               e["up"], e["down"], st.get("level", "ok"), st.get("word", ""), st.get("fraction"),
               tuple(st["hp"]) if st.get("hp") else None, tuple(st.get("chips", ())))
        made = _STRIP_ENTRY.get(key)
        if made is not None:
            items.append(made)
            continue
        words = status_text(st)
        whole = ", ".join(x for x in (e["name"], words, *st.get("chips", [])) if x)
        tag = "now" if e["current"] else ("next" if e["next"] else "")
        # The button's name is its visible text (name, slot, now/next, state, chips: spaces between
        # them), so voice control finds it by what it shows; the keys for equals are its description.
        keys = " ".join(k for k, v in (("Alt+ArrowUp", e["up"]), ("Alt+ArrowDown", e["down"])) if v)
        cls = " ".join(x for x in ("strip-entry", f"side-{e['side']}", f"lv-{st.get('level', 'ok')}",
                                   "current" if e["current"] else "", "next" if e["next"] else "",
                                   "" if e["in_order"] else "idle") if x)
        grip = html('<span class="strip-grip" data-drag="{}" title="Drag among equals" '
                    'aria-hidden="true">⠿</span>', e["id"]) if e["group"] else ""
        items.append(html(
            '<li class="{cls}" data-id="{id}"{li}>'
            '<button type="button" class="strip-open" id="strip-{id}" data-act="strip-open" '
            'data-id="{id}" title="{whole}"{moves}{hint}>'
            '<span class="strip-line">{name} <span class="strip-slot">{label}</span>{tag}</span> '
            '<span class="strip-line">{bar}<span class="strip-word">{words}</span> '
            '{chips}</span></button>{grip}</li>',
            cls=cls, id=e["id"], whole=whole,
            li=attrs(data_tie=e["group"] or None, aria_current="step" if e["current"] else None),
            moves=attrs(data_up=e["up"], data_down=e["down"], aria_keyshortcuts=keys or None),
            hint=attrs(aria_describedby="strip-tie-hint" if e["group"] else None),
            name=strip_name(e["name"]), label=e["label"],
            tag=html(" <span class=strip-tag>{}</span>", tag) if tag else "",
            bar=hp_bar(st), words=strip_words(st), chips=chips(st.get("chips", [])), grip=grip))
        if len(_STRIP_ENTRY) >= 4096:
            _STRIP_ENTRY.clear()
        _STRIP_ENTRY[key] = items[-1]
    # a Block (web/blocks.py): a Next moves "now" and "next" along, and only those entries are rewritten
    return Block.fragment([
        html('<h2 class="strip-title">Order{}</h2>', html(" · {}", heading) if heading else ""),
        Block('<ol class="strip" aria-label="Order of play and state">', items, "</ol>"),
        *_STRIP_TAIL])


# each one element: a Block's children are matched to the page's elements one by one
_STRIP_TAIL = (html('<p id="strip-tie-hint" class="visually-hidden">Tied with others: Alt+Up or Alt+Down moves it '
                    'among equals.</p>'), html('<p class="field-error" data-error-for="strip"></p>'))


def stat_line(c: Combatant, ruleset: Ruleset) -> Markup:
    specs: Iterable[StatSpec] = ruleset.stats
    if ruleset.free_stats:
        pairs = list(c.stats.items())
    else:
        pairs = [(s.label, c.stats.get(s.key)) for s in specs if c.stats.get(s.key) is not None]
    return Markup("").join(html('<span class="stat"><span class="k">{}</span> <span class="v">{}</span></span>', k, v)
                           for k, v in pairs)


def _timer_note(enc: Encounter, c: Combatant, cond: str, ruleset: Ruleset) -> Markup:
    t = timers.of_combatant(enc, c.id, cond)
    return html(' <span class="cond-left">{}</span>', timers.describe(enc, t, ruleset.rounds_word)) if t else Markup("")


def card_timers(enc: Encounter, c: Combatant, ruleset: Ruleset) -> tuple[Markup, ...]:
    """What a card says of its conditions' timers: the part of the card that comes from the
    encounter's timers rather than the combatant (``App.card`` keeps a card while it is the same)."""
    return tuple(_timer_note(enc, c, x, ruleset) for x in c.conditions)


def card_open(ui: Any, cid: str, current: bool) -> bool:
    """A card is open when the GM opened it, shut when the GM shut it, else open only while its
    combatant acts. The GM's choice is page state (``ui.card_open``, fray.web.uistate), never the encounter's."""
    chosen = ui.card_open.get(cid)
    return current if chosen is None else bool(chosen)


def combatant_card(enc: Encounter, c: Combatant, ruleset: Ruleset, extra_html: Markup | str = "", current: bool = False,
                   open_: bool = True, status: dict[str, Any] | None = None) -> Markup:
    """A combatant's card. Folded, it is one line (name, state, chips) whose name opens it; the
    ruleset panel's part (``extra_html``) is inside the fold, so panels need no change. A folded
    card's body is left empty, not hidden: with 200 combatants the hidden bodies were 180,000 DOM
    nodes and a thousand forms the browser style-checked on every action (issue 11), and opening a
    card is a render anyway (``ui.card_open``). ``extra_html`` is Markup (the panel's
    ``card_extra``); a plain str is text."""
    pos = c.position
    # + 0 turns a -0.0 (a knockback straight along an axis) into 0: "(10, 0) m", not "(10, -0) m"
    where = f"({pos.x + 0:g}, {pos.y + 0:g}) m" + (f", alt {pos.alt + 0:g} m" if pos.alt else "")
    st = status or {}
    words = status_text(st)
    glance = html('<span class="glance lv-{}">{}{}{}</span>', st.get("level", "ok"), hp_bar(st),
                  html("<span class=glance-word>{}</span>", words) if words else "",
                  chips(st.get("chips", []))) if st else ""
    body_id = f"card-body-{c.id}"
    head = html(
        '<article class="card side-{side}{current}{folded}" data-id="{id}" data-open="{open}" aria-label="{name}">'
        '<header><h3 class="name"><button type="button" class="card-toggle{numbered}" id="card-toggle-{id}" '
        'data-act="card-fold" data-id="{id}" aria-expanded="{open}" aria-controls="{body}">{toggle}</button></h3>'
        '{glance}<span class="side">{side_word}</span>'
        '<span class="where" title="Position on the map">{where}</span></header>',
        side=c.side, current=" current" if current else "", folded="" if open_ else " folded", id=c.id,
        open="true" if open_ else "false", name=c.name, toggle=card_name(c.name), numbered=" numbered" if NUMBERED_NAME.fullmatch(c.name) else "", body=body_id, glance=glance,
        side_word=SIDE_LABEL.get(c.side, c.side), where=where)
    tail = html('<p class="field-error" data-error-for="card-{}"></p></article>', c.id)
    if not open_:
        return html('{}<div class="card-body" id="{}" hidden></div>{}', head, body_id, tail)
    conds = Markup("").join(
        html('<li class="cond">{}{} {}</li>', ruleset.condition_word(x), _timer_note(enc, c, x, ruleset),
             button("×", "clear-condition", "icon", title=f"Remove {ruleset.condition_word(x)} from {c.name}", id=c.id,
                    condition=x))
        for x in c.conditions)
    return html(
        '{head}<div class="card-body" id="{body}"><div class="stats">{stats}</div>{extra}'
        # a condition the rules keep (strike-rank: prone on who cannot stand) is refused beside the list
        '<div class="conds-box"><ul class="conds" aria-label="Conditions of {name}">{conds}</ul>'
        '<p class="field-error" data-error-for="conditions"></p></div>'
        '{notes}<div class="card-actions">{edit}{duplicate}{condition}{remove}</div></div>{tail}',
        head=head, body=body_id, stats=stat_line(c, ruleset),
        # the panel's part of the card: Markup (or a Block) by this parameter's contract; a plain
        # str there is text, escaped
        extra=fragment(extra_html), name=c.name, conds=conds,
        notes=html("<p class=notes>{}</p>", c.notes) if c.notes else "",
        edit=button("Edit", "edit-combatant", "small", title=f"Edit {c.name}", id=c.id),
        duplicate=button("Duplicate", "duplicate-combatant", "small", title=f"Duplicate {c.name}", id=c.id),
        condition=button("Condition…", "add-condition", "small", title=f"Add a condition to {c.name}", id=c.id),
        remove=button("Remove", "remove-combatant", "small danger", title=f"Remove {c.name}", id=c.id),
        tail=tail)


def acting_line(c: Combatant | None, st: dict[str, Any] | None, holds: list[str], tag: str = "Acting",
                verb: str = "Holds") -> Markup:
    """The acting combatant's essentials, next to the panel's form for what happens now (issue 33):
    name, HP bar and the game's wound word, conditions, what it holds, and the full card one tap
    away (the order strip's own act: the card opens and comes under the head). ``tag``: what the
    form is for, in the panel's word ("Acting"; strike-rank's declarations: "Declaring"). ``verb``: "Uses"
    when ``holds`` is what its action of this phase uses (the panel's ``uses``), else "Holds"."""
    if c is None:
        return Markup("")
    st = st or {}
    words = status_text(st)
    held = html('<span class="acting-holds">{} {}</span>', verb, ", ".join(holds)) if holds else ""
    return html('<div class="acting side-{side}" role="group" aria-label="{tag} now: {name}">'
                '<span class="acting-who"><span class="acting-tag">{tag}</span> '
                '<strong class="acting-name">{name}</strong></span>'
                '<span class="acting-state">{bar}{words}{chips}</span>{held}{card}</div>',
                side=c.side, tag=tag, name=c.name, bar=hp_bar(st) if st else "",
                words=html("<span class=acting-word>{}</span>", words) if words else "",
                chips=html(" {}", chips(st.get("chips", []))) if st.get("chips") else "", held=held,
                card=button("Full card", "strip-open", "small acting-card", title=f"Open the card of {c.name}", id=c.id))


def cards_tools(enc: Encounter, ui: Any, current_id: str | None) -> Markup:
    """Open every card at once, or fold them back so that only the acting one is open: the GM's
    view, never the encounter's. Shown only when a card is folded, or more than one is open."""
    if len(enc.combatants) < 2:
        return Markup("")
    opened = sum(card_open(ui, c.id, c.id == current_id) for c in enc.combatants)
    tools = []
    if opened < len(enc.combatants):
        tools.append(button("Open all cards", "cards-open-all", "small"))
    if opened > (1 if current_id else 0):
        tools.append(button("Fold cards", "cards-fold-all", "small", title="Fold every card but the acting one's"))
    return Markup("").join(tools)


# A game's label for an attack, roll, prompt or area the GM settles later ("A3", "R4", "P1"): the
# panel shows it on that thing, and the log marks it on every line about it, the first one too.
_REF = re.compile(r"[A-Z]\d{1,4}")
REF_TITLE = ("{ref} labels one attack, roll, prompt or area: the panel shows {ref} on it while it is "
             "open, and every line of the log marked {ref} is about that same one")


def ref_text(ref: str, words: dict[str, str] | None = None) -> str:
    """A label as the screen says it: the game's word for what it names, then the label ("Attack A3",
    "Roll R1"; ``Ruleset.ref_words``), so the GM knows an attack from a roll; the label alone where the
    game names none."""
    word = (words or {}).get(ref[:1])
    return f"{word} {ref}" if word else ref


def _ref_mark(ref: str, words: dict[str, str] | None = None) -> Markup:
    said = ref_text(ref, words)
    return html('<span class="ref" title="{}">{}</span>', REF_TITLE.format(ref=said), said)


def log_text(e: LogEntry, words: dict[str, str] | None = None) -> Markup:
    """A log line's markup: its text, escaped, with the label it is about (``detail["ref"]``)
    marked where the text says it, or put in front where it does not (the attack it began);
    ``words``: the game's word before each label (``ref_text``)."""
    ref = e.detail.get("ref") if isinstance(e.detail, dict) else None
    if not isinstance(ref, str) or not _REF.fullmatch(ref):
        return fragment(e.text)
    mark = _ref_mark(ref, words)
    m = re.search(rf"(?<![\w-]){ref}(?![\w-])", e.text)
    if m is None:
        return fragment(mark, " ", e.text)
    return fragment(e.text[:m.start()], mark, e.text[m.end():])


def marked_labels(text: str, words: dict[str, str] | None = None) -> Markup:
    """A log line's text without its entry (the history list's labels), escaped, its labels marked
    as ``log_text`` marks them: a label in a log line is always that line's own (test_gm_text)."""
    out, at = [], 0
    for m in re.finditer(r"(?<![\w#./:-])(?!D\d)[A-Z]\d{1,4}(?![\w.%:-])", text):
        ref = m.group(0)
        out.append(text[at:m.start()])
        out.append(_ref_mark(ref, words))
        at = m.end()
    return fragment(out, text[at:])


def log_entries(log: list[LogEntry], limit: int = 300, words: dict[str, str] | None = None) -> list[Markup]:
    """The last ``limit`` log lines, latest first, one item each; ``words``: the game's ``ref_words``."""
    out = []
    said = tuple(sorted(words.items())) if words else ()
    for e in reversed(log[-limit:]):
        # every render draws the whole log again (300 lines), nearly all as they were
        ref = e.detail.get("ref") if isinstance(e.detail, dict) else None
        key = (e.seq, e.round, e.kind, e.text, ref if isinstance(ref, str) else None, said)
        made = _LOG_ENTRY.get(key)
        if made is None:
            # the round in words: "R1 R8 Movement roll" read as two labels (range-band's rolls are R1, R2 ...)
            if _names_its_round(e):  # "Round 1 begins" said once, not "Round 1 Round 1 begins"
                made = html('<li class="log-{}" value="{}">{}</li>', e.kind, e.seq, log_text(e, words))
            else:
                made = html('<li class="log-{}" value="{}"><span class="r">Round {}</span> {}</li>',
                            e.kind, e.seq, e.round, log_text(e, words))
            if len(_LOG_ENTRY) >= 4096:
                _LOG_ENTRY.clear()
            _LOG_ENTRY[key] = made
        out.append(made)
    return out


def _names_its_round(e: LogEntry) -> bool:
    """A line that begins with its own round ("Round 3 begins") needs no "Round 3" in front of it."""
    return e.text.startswith(f"Round {e.round} ")


# each log line's markup by everything it is made of (``log_entries``), bounded like ``_STRIP_ENTRY``
_LOG_ENTRY: dict[tuple, Markup] = {}


def log_items(log: list[LogEntry], limit: int = 300, words: dict[str, str] | None = None) -> Markup:
    return Markup("").join(log_entries(log, limit, words))


def log_added(before: list[str] | None, items: list[str], most: int = 40) -> int | None:
    """How many lines were put on top of ``before`` to make ``items`` (the rest the same, the oldest
    perhaps dropped past the limit), or None when the log changed otherwise (an undo, another
    encounter): then it is written whole."""
    if before is None:
        return None
    for k in range(0, min(most, len(items)) + 1):
        rest = items[k:]
        if rest == before[:len(rest)] and (len(rest) == len(before) or len(items) == len(before)):
            return k
    return None


def log_taken(before: list[str] | None, items: list[str], most: int = 40) -> tuple[int, int] | None:
    """An undo's change to the log: ``(k, back)`` when ``items`` is ``before`` with its ``k`` newest lines
    taken away and, at the limit, ``back`` older lines (the ones those had pushed out) returned below;
    None when the log changed otherwise (then it is added to, or written whole)."""
    if not before:
        return None
    for k in range(1, min(most + 1, len(before))):  # some line kept, else it is a whole write anyway
        rest = before[k:]
        if items[:len(rest)] == rest and len(items) - len(rest) <= k:
            return k, len(items) - len(rest)
    return None


def empty_state(enc: Encounter) -> Markup:
    return html('<div class="empty"><p>No combatants yet.</p>{}</div>',
                button("Add the first combatant", "add-combatant", "primary"))


# -- forms ------------------------------------------------------------------------------------

def field_html(name: str, label: str, value: Any, kind: str = "text", help_text: str = "",
               choices: Iterable[str] = (), required: bool = False, min_: Any = None, max_: Any = None) -> Markup:
    fid = "f-" + name.replace(".", "-")
    err = html('<p class="field-error" id="{}-err" data-error-for="{}"></p>', fid, name)
    hint = html('<small class="hint">{}</small>', help_text) if help_text else ""
    if kind == "choice":
        opts = [h("option", {"value": c, "selected": str(value) == c}, c) for c in choices]
        ctl = h("select", {"id": fid, "name": name, "aria-describedby": fid + "-err"}, opts)
    elif kind == "textarea":
        ctl = h("textarea", {"id": fid, "name": name, "rows": "2", "aria-describedby": fid + "-err"}, value or "")
    else:
        mode = "numeric" if kind in ("int", "percent") else ("decimal" if kind == "number" else None)
        ctl = h("input", {"id": fid, "name": name, "type": "text", "inputmode": mode,
                          "value": "" if value is None else str(value), "required": required,
                          "aria-describedby": fid + "-err", "autocomplete": "off"})
    return html('<div class="field" data-field="{}"><label for="{}">{}</label>{}{}{}</div>', name, fid, label, ctl, hint, err)


def combatant_form(ruleset: Ruleset, c: Combatant | None, presets: list[dict[str, Any]],
                   templates: list[dict[str, Any]] | None = None) -> Markup:
    """The add/edit form. Field names are the action's field paths, so an engine error names
    the exact input to mark. ``templates``: the GM's own (fray.bestiary), this ruleset's only."""
    editing = c is not None
    title = f"Edit {c.name}" if editing else "Add a combatant"
    parts = [html('<form class="form" data-form="{}"{} novalidate>', "edit-combatant" if editing else "add-combatant",
                  attrs(data_id=c.id if c else None)),
             html('<h2 id="dlg-title">{}</h2>', title)]
    templates = templates or []
    if not editing:
        if presets or templates:
            opts = Markup("").join(html('<option value="{}">{}</option>', i, p["name"]) for i, p in enumerate(presets))
            if presets and templates:
                opts = html('<optgroup label="{}">{}</optgroup>', ruleset.name, opts)
            if templates:
                opts += html('<optgroup label="My bestiary">{}</optgroup>', Markup("").join(
                    html('<option value="b{}">{}</option>', i, t["combatant"].get("name", "?"))
                    for i, t in enumerate(templates)))
            parts.append(html('<div class="field"><label for="f-preset">Ready-made</label>'
                              '<div class="row"><select id="f-preset" name="preset"><option value="">(none)</option>'
                              '{}</select>{}{}</div></div>', opts, button("Use", "use-preset", "small"),
                              button("My bestiary…", "bestiary", "small secondary")))
        else:
            parts.append(html("<p>{}</p>", button("My bestiary…", "bestiary", "small secondary")))
    parts.append(html('<fieldset class="grid"><legend>Who</legend>'))
    parts.append(field_html("combatant.name", "Name", c.name if c else "", required=True))
    parts.append(field_html("combatant.side", "Side", c.side if c else "foes", "choice", choices=("party", "foes", "neutral")))
    if not editing:
        parts.append(field_html("combatant.count", "How many", "1", "int",
                                help_text="2 or more are numbered: Goblin 1, Goblin 2, …"))
    parts.append(_FIELDSET_END)
    if ruleset.free_stats:
        text = "\n".join(f"{k}: {v}" for k, v in (c.stats.items() if c else [("initiative", 10)]))
        parts.append(html('<fieldset><legend>Stats</legend>'))
        parts.append(field_html("combatant.stats", "Stats, one per line as name: value", text, "textarea",
                                help_text="For example  initiative: 14  or  HP: 12"))
        parts.append(_FIELDSET_END)
    else:
        parts.append(html('<fieldset class="grid stats-grid"><legend>Stats</legend>'))
        for s in ruleset.stats:
            v = c.stats.get(s.key) if c else s.default
            parts.append(field_html(f"combatant.stats.{s.key}", s.label, v, s.kind, s.help, s.choices,
                                    s.required and s.default is None, s.min, s.max))
        parts.append(_FIELDSET_END)
    pos = c.position if c else None
    parts.append(html('<fieldset class="grid"><legend>Position (metres)</legend>'))
    # a new one's East and North start empty: the page then stands it (or the group) on free ground
    # beside the others (fray.placing), rather than everyone on (0, 0)
    parts.append(field_html("combatant.position.x", "East (x)", pos.x if pos else "", "number",
                            "" if editing else "Empty: on free ground beside the others"))
    parts.append(field_html("combatant.position.y", "North (y)", pos.y if pos else "", "number"))
    parts.append(field_html("combatant.position.alt", "Altitude", pos.alt if pos else 0, "number"))
    parts.append(_FIELDSET_END)
    if not editing and not ruleset.free_stats:
        parts.append(field_html("combatant.extra", ruleset.extra_label, "", "textarea",
                                help_text="Filled in by a ready-made combatant; edit the numbers as needed. "
                                          + ruleset.extra_empty))
    parts.append(field_html("combatant.notes", "Notes", c.notes if c else "", "textarea"))
    if not editing:
        parts.append(html('<label class="keep"><input type="checkbox" name="keep" value="yes"> Keep in my bestiary '
                          '(a template of this combatant, kept in this browser)</label>'))
    parts.append(html('<p class="field-error form-error" data-error-for="combatant"></p>'))
    parts.append(html('<div class="dlg-actions">{}<button type="submit" class="primary">{}</button></div></form>',
                      button("Cancel", "close-dialog", "secondary"), "Save" if editing else "Add"))
    return Markup("").join(parts)


_FIELDSET_END = html("</fieldset>")


def new_encounter_form(rulesets: list[Ruleset]) -> Markup:
    opts = Markup("").join(html('<option value="{}">{}: {}</option>', r.id, r.name, r.summary) for r in rulesets)
    return html(
        '<form class="form" data-form="new-encounter" novalidate><h2 id="dlg-title">New encounter</h2>{}'
        '<div class="field" data-field="ruleset"><label for="f-ruleset">Rules</label>'
        '<select id="f-ruleset" name="ruleset">{}</select>'
        '<p class="field-error" data-error-for="ruleset"></p></div>'
        '<p class="hint">The current encounter stays in the list; switch back to it at any time.</p>'
        '<div class="dlg-actions">{}<button type="submit" class="primary">Create</button></div></form>',
        field_html("name", "Name", "Encounter", required=True), opts, button("Cancel", "close-dialog", "secondary"))


def condition_form(c: Combatant, known: dict[str, str], enc: Encounter | None = None,
                   ruleset: Ruleset | None = None) -> Markup:
    """Put a condition on ``c``: the ruleset's own conditions first (with what each does), any
    other by name, and how long it lasts (fray.timers)."""
    fid = f"cond-{c.id}"
    picks = Markup("").join(
        html('<label class="pick">{} <strong>{}</strong><span class="hint">{}{}</span></label>',
             h("input", {"type": "radio", "name": "pick", "value": k, "disabled": k in c.conditions}),
             ruleset.condition_word(k) if ruleset else k, v,
             " (already on)" if k in c.conditions else "")
        for k, v in known.items())
    known_html = html('<fieldset class="field picks" data-field="pick"><legend>{}'
                      "'s conditions</legend>{}</fieldset>", ruleset.name if ruleset else "This game",
                      picks) if known else ""
    has_turns = bool(ruleset and ruleset.has_turns)
    word = ruleset.rounds_word if ruleset else "round"
    lasts = [("", "until removed"), ("rounds", f"for a number of {word}s")]
    if has_turns:
        lasts += [("turn_start", "until the start of someone's next turn"),
                  ("turn_end", "until the end of someone's next turn")]
    lasts_opts = Markup("").join(html('<option value="{}">{}</option>', v, t) for v, t in lasts)
    who = ""
    if has_turns and enc is not None:
        opts = [h("option", {"value": x.id, "selected": x.id == c.id}, x.name) for x in enc.combatants]
        who = html('<div class="field" data-field="lasts.of"><label for="{fid}-of">Whose turn</label>'
                   '<select id="{fid}-of" name="of">{opts}</select><p class="field-error" data-error-for="lasts.of"></p>'
                   '</div>', fid=fid, opts=fragment(opts))
    ends = (html(" (it ends right before its holder's turn)") if ruleset and ruleset.round_durations_end == "before_own_turn"
            else html("; it ends as the {} after the last begins", word))
    return html(
        '<form class="form" data-form="add-condition" data-id="{id}" novalidate>'
        '<h2 id="dlg-title">Condition on {name}</h2>{known}'
        '<div class="field" data-field="condition"><label for="f-condition">{other}</label>'
        '<input id="f-condition" name="condition" autocomplete="off" maxlength="40">'
        '<p class="field-error" data-error-for="condition"></p></div>'
        '<div class="field-row"><div class="field" data-field="lasts.until"><label for="{fid}-lasts">Lasts</label>'
        '<select id="{fid}-lasts" name="lasts">{lasts}</select>'
        '<p class="field-error" data-error-for="lasts.until"></p><p class="field-error" data-error-for="lasts"></p></div>'
        '<div class="field" data-field="lasts.rounds"><label for="{fid}-rounds">{Word}s</label>'
        '<input id="{fid}-rounds" name="rounds" inputmode="numeric" value="1" size="4">'
        '<p class="field-error" data-error-for="lasts.rounds"></p></div>{who}</div>'
        '<p class="hint">For a number of {word}s, the {word} it is put on counts as the first{ends}. Fray takes it off '
        'by itself and says so in the log; Undo puts it back.</p>'
        '<div class="dlg-actions">{cancel}<button type="submit" class="primary">Add</button></div></form>',
        id=c.id, name=c.name, known=known_html, other="Or another condition" if known else "Condition", fid=fid,
        lasts=lasts_opts, Word=word.capitalize(), who=who, word=word, ends=ends,
        cancel=button("Cancel", "close-dialog", "secondary"))


def condition_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    """The ``set_condition`` action of the condition form's values (the engine checks them)."""
    name = str(values.get("condition", "")).strip() or str(values.get("pick", "") or "")
    action: dict[str, Any] = {"type": "set_condition", "id": cid, "condition": name, "on": True}
    kind = values.get("lasts") or ""
    if kind == "rounds":
        raw = str(values.get("rounds", "")).strip()
        try:
            n: Any = int(raw)
        except ValueError:
            n = raw  # the engine says what is wrong with it, at the field
        action["lasts"] = {"rounds": n}
    elif kind:
        action["lasts"] = {"until": kind, "of": values.get("of") or cid}
    return action


def parse_free_stats(text: str) -> dict[str, str]:
    """``initiative: 14`` lines → dict; the engine validates names and values."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if ":" not in line:
            key, value = line.strip(), ""
        else:
            key, value = line.split(":", 1)
        out[key.strip()] = value.strip()
    return out
