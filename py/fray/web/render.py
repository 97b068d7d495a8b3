"""HTML for the tracker, as strings, from the encounter and its ruleset's view.

Pure functions (no ``js``), so CPython tests can check them. Every piece of user text goes
through ``esc`` (names full of HTML show as text, never as markup). Controls carry
``data-act`` / ``data-form`` attributes; one delegated listener in ``app.py`` turns a click or
a submit into an engine call, so rendering stays one ``innerHTML`` write per region.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, Iterable

from .. import timers
from .blocks import Block
from ..model import Combatant, Encounter, LogEntry
from ..reducer import NUMBERED_NAME
from fray.games.base import Ruleset, Slot, StatSpec


# A render escapes the same few hundred strings (names, labels, ids) thousands of times: 8,800
# calls in one strike-rank Next at 30 combatants. ``html.escape`` is five ``str.replace`` each;
# a dict look-up is one. Bounded so a long session's typed notes cannot grow it without end.
_ESCAPED: dict[str, str] = {}
_ESCAPED_MAX = 50_000


def esc(value: Any) -> str:
    s = value if type(value) is str else str(value)
    out = _ESCAPED.get(s)
    if out is None:
        out = escape(s, quote=True)
        if len(_ESCAPED) >= _ESCAPED_MAX:
            _ESCAPED.clear()
        _ESCAPED[s] = out
    return out


def attrs(**kw: Any) -> str:
    """``attrs(data_act="x", aria_label="y")`` → ` data-act="x" aria-label="y"`; False/None dropped."""
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f" {name}" if v is True else f' {name}="{esc(v)}"')
    return "".join(out)


def button(label: str, act: str, cls: str = "", title: str | None = None, **data: Any) -> str:
    extra = "".join(f' data-{esc(k.replace("_", "-"))}="{esc(v)}"' for k, v in data.items())
    # A symbol (▲, ×) is not a name: a screen reader gets the title as the button's name.
    symbol = title and not any(ch.isalnum() for ch in label)
    return (f'<button type="button" data-act="{esc(act)}"'
            f'{attrs(class_=cls or None, title=title, aria_label=title if symbol else None)}'
            f"{extra}>{esc(label)}</button>")


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
              turn_based: bool = True) -> str:
    phase = phase_label(enc, view)
    current = view.get("current_label", "")
    who = ""
    # "Now: X" only where the game moves one combatant at a time through ``enc.turn``; a game
    # that resolves a whole phase or strike rank shows who acts in its own panel.
    if turn_based and enc.phase != "setup" and order and 0 <= enc.turn < len(order):
        c = enc.get(order[enc.turn].combatant_id)
        who = f'<span class="now">Now: <strong>{esc(c.name) if c else "?"}</strong> {esc(order[enc.turn].label)}</span>'
    next_label = view.get("advance_label") or ("Start the fight" if enc.phase == "setup" else "Next")
    return (
        f'<div class="round-info"><span class="round">Round {enc.round}</span>'
        f'<span class="phase">{esc(phase)}</span>{esc(current)}{who}</div>'
        f'<div class="round-actions">'
        f'{button("Add combatant", "add-combatant", "secondary")}'
        f'{button(next_label, "advance", "primary")}</div>'
        f'<p class="field-error" data-error-for="advance"></p>'
    )


def order_list(enc: Encounter, order: list[Slot]) -> str:
    if not order:
        return ""
    items = []
    for i, s in enumerate(order):
        c = enc.get(s.combatant_id)
        if c is None:
            continue
        cur = enc.phase != "setup" and i == enc.turn
        items.append(
            f'<li class="{"current" if cur else ""}" data-id="{esc(c.id)}"{attrs(aria_current="step" if cur else None)}>'
            f'<span class="slot">{esc(s.label)}</span> <span class="who side-{esc(c.side)}">{esc(c.name)}</span>'
            f'<span class="why">{esc(s.explanation)}</span>'
            f'<span class="move">{button("▲", "order-up", "icon", title=f"Move {c.name} earlier among ties", id=c.id)}'
            f'{button("▼", "order-down", "icon", title=f"Move {c.name} later among ties", id=c.id)}</span></li>'
        )
    return (f'<h2 class="visually-hidden">Order of play</h2><ol class="order" aria-label="Order of play">{"".join(items)}</ol>'
            f'<p class="field-error" data-error-for="order"></p>')


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


def strip_words(st: dict[str, Any]) -> str:
    """``status_text`` as the strip draws it: each part whole ("15/40," "bruised"), so a narrow chip
    wraps between parts and never cuts one, and "HP" its own span, which a tablet's chip leaves to
    the bar and to readers (issue 33: "HP 15/40, bruised" was "H…" at 768 px)."""
    parts = [esc(x) for x in str(st.get("word") or "").split(", ") if x] if st.get("word") else []
    if st.get("hp"):
        parts.insert(0, f'<span class="strip-k">HP </span>{esc(st["hp"][0])}/{esc(st["hp"][1])}')
    return " ".join(f'<span class="strip-part">{x}{"," if i < len(parts) - 1 else ""}</span>'
                    for i, x in enumerate(parts))


def hp_bar(st: dict[str, Any]) -> str:
    """The HP left as a bar (an SVG rect: no style attribute under the page's policy); none
    when the game counts no HP. Its meaning is in the entry's words, so it is hidden from readers."""
    frac = st.get("fraction")
    if frac is None:
        return ""
    w = round(100 * frac)
    return (f'<svg class="hpbar lv-{esc(st.get("level", "ok"))}" viewBox="0 0 100 6" preserveAspectRatio="none" '
            f'aria-hidden="true" focusable="false"><rect class="bg" width="100" height="6"></rect>'
            f'<rect class="fill" width="{w}" height="6"></rect></svg>')


def chips(items: Iterable[str], cls: str = "chip") -> str:
    return " ".join(f'<span class="{cls}">{esc(x)}</span>' for x in items)


# each strip entry's markup by everything it is made of (``order_strip``); bounded like ``esc``'s memo
_STRIP_ENTRY: dict[tuple, str] = {}


def strip_name(name: str) -> str:
    """An entry's name. One that ends in a number (``reducer.NUMBERED_NAME``, as Add ×N writes it) is
    drawn as its head and the number, so a narrow entry cuts the head and keeps the number ("Great
    wolf (f… 9", not "Great wolf (fou…" for wolf 4 and wolf 9 alike). Its text is the name as it is."""
    m = NUMBERED_NAME.fullmatch(name)
    if m is None:
        return f'<span class="strip-name">{esc(name)}</span>'
    return (f'<span class="strip-name numbered"><span class="strip-name-head">{esc(m.group(1))}</span>'
            f'{esc(name[m.end(1):m.start(2)])}<span class="strip-name-no">{esc(m.group(2))}</span></span>')


def strip_heading(order: list[Slot], label_is_phase: bool) -> str:
    """What the strip's title adds after "Order": the phase its slots all name, when the ruleset's
    slot label is the phase (``strip_entries``); else nothing."""
    return order[0].label if label_is_phase and order else ""


def order_strip(entries: list[dict[str, Any]], heading: str = "") -> str:
    if not entries:
        return ""
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
        grip = (f'<span class="strip-grip" data-drag="{esc(e["id"])}" title="Drag among equals" '
                f'aria-hidden="true">⠿</span>') if e["group"] else ""
        items.append(
            f'<li class="{esc(cls)}" data-id="{esc(e["id"])}"'
            f'{attrs(data_tie=e["group"] or None, aria_current="step" if e["current"] else None)}>'
            f'<button type="button" class="strip-open" id="strip-{esc(e["id"])}" data-act="strip-open" '
            f'data-id="{esc(e["id"])}" title="{esc(whole)}"'
            f'{attrs(data_up=e["up"], data_down=e["down"], aria_keyshortcuts=keys or None)}'
            f'{attrs(aria_describedby="strip-tie-hint" if e["group"] else None)}>'
            f'<span class="strip-line">{strip_name(e["name"])} '
            f'<span class="strip-slot">{esc(e["label"])}</span>'
            f'{f" <span class=strip-tag>{tag}</span>" if tag else ""}</span> '
            f'<span class="strip-line">{hp_bar(st)}<span class="strip-word">{strip_words(st)}</span> '
            f'{chips(st.get("chips", []))}</span></button>{grip}</li>')
        if len(_STRIP_ENTRY) >= 4096:
            _STRIP_ENTRY.clear()
        _STRIP_ENTRY[key] = items[-1]
    # a Block (web/blocks.py): a Next moves "now" and "next" along, and only those entries are rewritten
    return Block.fragment([
        f'<h2 class="strip-title">Order{f" · {esc(heading)}" if heading else ""}</h2>',
        Block('<ol class="strip" aria-label="Order of play and state">', items, "</ol>"),
        '<p id="strip-tie-hint" class="visually-hidden">Tied with others: Alt+Up or Alt+Down moves it among equals.</p>',
        '<p class="field-error" data-error-for="strip"></p>'])


def stat_line(c: Combatant, ruleset: Ruleset) -> str:
    specs: Iterable[StatSpec] = ruleset.stats
    if ruleset.free_stats:
        pairs = list(c.stats.items())
    else:
        pairs = [(s.label, c.stats.get(s.key)) for s in specs if c.stats.get(s.key) is not None]
    return "".join(f'<span class="stat"><span class="k">{esc(k)}</span> <span class="v">{esc(v)}</span></span>'
                   for k, v in pairs)


def _timer_note(enc: Encounter, c: Combatant, cond: str, ruleset: Ruleset) -> str:
    t = timers.of_combatant(enc, c.id, cond)
    return f' <span class="cond-left">{esc(timers.describe(enc, t, ruleset.rounds_word))}</span>' if t else ""


def card_timers(enc: Encounter, c: Combatant, ruleset: Ruleset) -> tuple[str, ...]:
    """What a card says of its conditions' timers: the part of the card that comes from the
    encounter's timers rather than the combatant (``App.card`` keeps a card while it is the same)."""
    return tuple(_timer_note(enc, c, x, ruleset) for x in c.conditions)


def card_open(ui: Any, cid: str, current: bool) -> bool:
    """A card is open when the GM opened it, shut when the GM shut it, else open only while its
    combatant acts. The GM's choice is page state (``ui.card_open``, fray.web.uistate), never the encounter's."""
    chosen = ui.card_open.get(cid)
    return current if chosen is None else bool(chosen)


def combatant_card(enc: Encounter, c: Combatant, ruleset: Ruleset, extra_html: str = "", current: bool = False,
                   open_: bool = True, status: dict[str, Any] | None = None) -> str:
    """A combatant's card. Folded, it is one line (name, state, chips) whose name opens it; the
    ruleset panel's part (``extra_html``) is inside the fold, so panels need no change. A folded
    card's body is left empty, not hidden: with 200 combatants the hidden bodies were 180,000 DOM
    nodes and a thousand forms the browser style-checked on every action (issue 11), and opening a
    card is a render anyway (``ui.card_open``)."""
    pos = c.position
    where = f"({pos.x:g}, {pos.y:g}) m" + (f", alt {pos.alt:g} m" if pos.alt else "")
    st = status or {}
    words = status_text(st)
    glance = (f'<span class="glance lv-{esc(st.get("level", "ok"))}">{hp_bar(st)}'
              f'{f"<span class=glance-word>{esc(words)}</span>" if words else ""}'
              f'{chips(st.get("chips", []))}</span>') if st else ""
    body_id = f"card-body-{c.id}"
    head = (
        f'<article class="card side-{esc(c.side)}{" current" if current else ""}{"" if open_ else " folded"}" '
        f'data-id="{esc(c.id)}" data-open="{"true" if open_ else "false"}" aria-label="{esc(c.name)}">'
        f'<header><h3 class="name"><button type="button" class="card-toggle" id="card-toggle-{esc(c.id)}" '
        f'data-act="card-fold" data-id="{esc(c.id)}" aria-expanded="{"true" if open_ else "false"}" '
        f'aria-controls="{esc(body_id)}">{esc(c.name)}</button></h3>{glance}'
        f'<span class="side">{esc(SIDE_LABEL.get(c.side, c.side))}</span>'
        f'<span class="where" title="Position on the map">{esc(where)}</span></header>')
    tail = f'<p class="field-error" data-error-for="card-{esc(c.id)}"></p></article>'
    if not open_:
        return f'{head}<div class="card-body" id="{esc(body_id)}" hidden></div>{tail}'
    conds = "".join(
        f'<li class="cond">{esc(x)}{_timer_note(enc, c, x, ruleset)} '
        f'{button("×", "clear-condition", "icon", title=f"Remove {x} from {c.name}", id=c.id, condition=x)}</li>'
        for x in c.conditions)
    return (
        f'{head}<div class="card-body" id="{esc(body_id)}">'
        f'<div class="stats">{stat_line(c, ruleset)}</div>'
        f'{extra_html}'
        # a condition the rules keep (strike-rank: prone on who cannot stand) is refused beside the list
        f'<div class="conds-box"><ul class="conds" aria-label="Conditions of {esc(c.name)}">{conds}</ul>'
        f'<p class="field-error" data-error-for="conditions"></p></div>'
        f'{"<p class=notes>" + esc(c.notes) + "</p>" if c.notes else ""}'
        f'<div class="card-actions">'
        f'{button("Edit", "edit-combatant", "small", title=f"Edit {c.name}", id=c.id)}'
        f'{button("Duplicate", "duplicate-combatant", "small", title=f"Duplicate {c.name}", id=c.id)}'
        f'{button("Condition…", "add-condition", "small", title=f"Add a condition to {c.name}", id=c.id)}'
        f'{button("Remove", "remove-combatant", "small danger", title=f"Remove {c.name}", id=c.id)}'
        f'</div></div>{tail}'
    )


def acting_line(c: Combatant | None, st: dict[str, Any] | None, holds: list[str], tag: str = "Acting",
                verb: str = "Holds") -> str:
    """The acting combatant's essentials, next to the panel's form for what happens now (issue 33):
    name, HP bar and the game's wound word, conditions, what it holds, and the full card one tap
    away (the order strip's own act: the card opens and comes under the head). ``tag``: what the
    form is for, in the panel's word ("Acting"; strike-rank's declarations: "Declaring"). ``verb``: "Uses"
    when ``holds`` is what its action of this phase uses (the panel's ``uses``), else "Holds"."""
    if c is None:
        return ""
    st = st or {}
    words = status_text(st)
    held = f'<span class="acting-holds">{esc(verb)} {esc(", ".join(holds))}</span>' if holds else ""
    return (f'<div class="acting side-{esc(c.side)}" role="group" aria-label="{esc(tag)} now: {esc(c.name)}">'
            f'<span class="acting-who"><span class="acting-tag">{esc(tag)}</span> <strong class="acting-name">{esc(c.name)}</strong></span>'
            f'<span class="acting-state">{hp_bar(st) if st else ""}'
            f'{f"<span class=acting-word>{esc(words)}</span>" if words else ""}'
            f'{(" " + chips(st.get("chips", []))) if st.get("chips") else ""}</span>'
            f'{held}'
            f'{button("Full card", "strip-open", "small acting-card", title=f"Open the card of {c.name}", id=c.id)}'
            '</div>')


def cards_tools(enc: Encounter, ui: Any, current_id: str | None) -> str:
    """Open every card at once, or fold them back so that only the acting one is open: the GM's
    view, never the encounter's. Shown only when a card is folded, or more than one is open."""
    if len(enc.combatants) < 2:
        return ""
    opened = sum(card_open(ui, c.id, c.id == current_id) for c in enc.combatants)
    tools = []
    if opened < len(enc.combatants):
        tools.append(button("Open all cards", "cards-open-all", "small"))
    if opened > (1 if current_id else 0):
        tools.append(button("Fold cards", "cards-fold-all", "small", title="Fold every card but the acting one's"))
    return "".join(tools)


# A game's label for an attack, roll, prompt or area the GM settles later ("A3", "R4", "P1"): the
# panel shows it on that thing, and the log marks it on every line about it, the first one too.
_REF = re.compile(r"[A-Z]\d{1,4}")
REF_TITLE = ("{ref} labels one attack, roll, prompt or area: the panel shows {ref} on it while it is "
             "open, and every line of the log marked {ref} is about that same one")


def log_text(e: LogEntry) -> str:
    """A log line's markup: its text, escaped, with the label it is about (``detail["ref"]``)
    marked where the text says it, or put in front where it does not (the attack it began)."""
    ref = e.detail.get("ref") if isinstance(e.detail, dict) else None
    if not isinstance(ref, str) or not _REF.fullmatch(ref):
        return esc(e.text)
    mark = f'<span class="ref" title="{esc(REF_TITLE.format(ref=ref))}">{esc(ref)}</span>'
    m = re.search(rf"(?<![\w-]){ref}(?![\w-])", e.text)
    if m is None:
        return f"{mark} {esc(e.text)}"
    return esc(e.text[:m.start()]) + mark + esc(e.text[m.end():])


def marked_labels(text: str) -> str:
    """A log line's text without its entry (the history list's labels), escaped, its labels marked
    as ``log_text`` marks them: a label in a log line is always that line's own (test_gm_text)."""
    out, at = [], 0
    for m in re.finditer(r"(?<![\w#./:-])(?!D\d)[A-Z]\d{1,4}(?![\w.%:-])", text):
        ref = m.group(0)
        out.append(esc(text[at:m.start()]) + f'<span class="ref" title="{esc(REF_TITLE.format(ref=ref))}">{esc(ref)}</span>')
        at = m.end()
    return "".join(out) + esc(text[at:])


def log_entries(log: list[LogEntry], limit: int = 300) -> list[str]:
    """The last ``limit`` log lines, latest first, one item each."""
    return [f'<li class="log-{esc(e.kind)}" value="{e.seq}"><span class="r" title="Round {e.round}">R{e.round}</span> '
            f'{log_text(e)}</li>' for e in reversed(log[-limit:])]


def log_items(log: list[LogEntry], limit: int = 300) -> str:
    return "".join(log_entries(log, limit))


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


def empty_state(enc: Encounter) -> str:
    return ('<div class="empty"><p>No combatants yet.</p>'
            f'{button("Add the first combatant", "add-combatant", "primary")}</div>')


# -- forms ------------------------------------------------------------------------------------

def field_html(name: str, label: str, value: Any, kind: str = "text", help_text: str = "",
               choices: Iterable[str] = (), required: bool = False, min_: Any = None, max_: Any = None) -> str:
    fid = "f-" + name.replace(".", "-")
    err = f'<p class="field-error" id="{esc(fid)}-err" data-error-for="{esc(name)}"></p>'
    hint = f'<small class="hint">{esc(help_text)}</small>' if help_text else ""
    if kind == "choice":
        opts = "".join(f'<option value="{esc(c)}"{" selected" if str(value) == c else ""}>{esc(c)}</option>' for c in choices)
        ctl = f'<select id="{esc(fid)}" name="{esc(name)}" aria-describedby="{esc(fid)}-err">{opts}</select>'
    elif kind == "textarea":
        ctl = f'<textarea id="{esc(fid)}" name="{esc(name)}" rows="2" aria-describedby="{esc(fid)}-err">{esc(value or "")}</textarea>'
    else:
        itype = "text"
        mode = ' inputmode="numeric"' if kind in ("int", "percent") else (' inputmode="decimal"' if kind == "number" else "")
        ctl = (f'<input id="{esc(fid)}" name="{esc(name)}" type="{itype}"{mode} value="{esc("" if value is None else value)}"'
               f'{" required" if required else ""} aria-describedby="{esc(fid)}-err" autocomplete="off">')
    return f'<div class="field" data-field="{esc(name)}"><label for="{esc(fid)}">{esc(label)}</label>{ctl}{hint}{err}</div>'


def combatant_form(ruleset: Ruleset, c: Combatant | None, presets: list[dict[str, Any]],
                   templates: list[dict[str, Any]] | None = None) -> str:
    """The add/edit form. Field names are the action's field paths, so an engine error names
    the exact input to mark. ``templates``: the GM's own (fray.bestiary), this ruleset's only."""
    editing = c is not None
    title = f"Edit {c.name}" if editing else "Add a combatant"
    parts = [f'<form class="form" data-form="{"edit-combatant" if editing else "add-combatant"}"'
             f'{attrs(data_id=c.id if c else None)} novalidate>',
             f'<h2 id="dlg-title">{esc(title)}</h2>']
    templates = templates or []
    if not editing:
        if presets or templates:
            opts = "".join(f'<option value="{i}">{esc(p["name"])}</option>' for i, p in enumerate(presets))
            if presets and templates:
                opts = f'<optgroup label="{esc(ruleset.name)}">{opts}</optgroup>'
            if templates:
                opts += ('<optgroup label="My bestiary">' + "".join(
                    f'<option value="b{i}">{esc(t["combatant"].get("name", "?"))}</option>'
                    for i, t in enumerate(templates)) + "</optgroup>")
            parts.append(f'<div class="field"><label for="f-preset">Ready-made</label>'
                         f'<div class="row"><select id="f-preset" name="preset"><option value="">(none)</option>{opts}</select>'
                         f'{button("Use", "use-preset", "small")}'
                         f'{button("My bestiary…", "bestiary", "small secondary")}</div></div>')
        else:
            parts.append(f'<p>{button("My bestiary…", "bestiary", "small secondary")}</p>')
    parts.append('<fieldset class="grid"><legend>Who</legend>')
    parts.append(field_html("combatant.name", "Name", c.name if c else "", required=True))
    parts.append(field_html("combatant.side", "Side", c.side if c else "foes", "choice", choices=("party", "foes", "neutral")))
    if not editing:
        parts.append(field_html("combatant.count", "How many", "1", "int",
                                help_text="2 or more are numbered: Goblin 1, Goblin 2, …"))
    parts.append("</fieldset>")
    if ruleset.free_stats:
        text = "\n".join(f"{k}: {v}" for k, v in (c.stats.items() if c else [("initiative", 10)]))
        parts.append('<fieldset><legend>Stats</legend>')
        parts.append(field_html("combatant.stats", "Stats, one per line as name: value", text, "textarea",
                                help_text="For example  initiative: 14  or  HP: 12"))
        parts.append("</fieldset>")
    else:
        parts.append('<fieldset class="grid stats-grid"><legend>Stats</legend>')
        for s in ruleset.stats:
            v = c.stats.get(s.key) if c else s.default
            parts.append(field_html(f"combatant.stats.{s.key}", s.label, v, s.kind, s.help, s.choices,
                                    s.required and s.default is None, s.min, s.max))
        parts.append("</fieldset>")
    pos = c.position if c else None
    parts.append('<fieldset class="grid"><legend>Position (metres)</legend>')
    # a new one's East and North start empty: the page then stands it (or the group) on free ground
    # beside the others (fray.placing), rather than everyone on (0, 0)
    parts.append(field_html("combatant.position.x", "East (x)", pos.x if pos else "", "number",
                            "" if editing else "Empty: on free ground beside the others"))
    parts.append(field_html("combatant.position.y", "North (y)", pos.y if pos else "", "number"))
    parts.append(field_html("combatant.position.alt", "Altitude", pos.alt if pos else 0, "number"))
    parts.append("</fieldset>")
    if not editing and not ruleset.free_stats:
        parts.append(field_html("combatant.extra", ruleset.extra_label, "", "textarea",
                                help_text="Filled in by a ready-made combatant; edit the numbers as needed. "
                                          + ruleset.extra_empty))
    parts.append(field_html("combatant.notes", "Notes", c.notes if c else "", "textarea"))
    if not editing:
        parts.append('<label class="keep"><input type="checkbox" name="keep" value="yes"> Keep in my bestiary '
                     '(a template of this combatant, kept in this browser)</label>')
    parts.append('<p class="field-error form-error" data-error-for="combatant"></p>')
    parts.append(f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
                 f'<button type="submit" class="primary">{"Save" if editing else "Add"}</button></div></form>')
    return "".join(parts)


def new_encounter_form(rulesets: list[Ruleset]) -> str:
    opts = "".join(f'<option value="{esc(r.id)}">{esc(r.name)}: {esc(r.summary)}</option>' for r in rulesets)
    return (
        '<form class="form" data-form="new-encounter" novalidate><h2 id="dlg-title">New encounter</h2>'
        + field_html("name", "Name", "Encounter", required=True)
        + f'<div class="field" data-field="ruleset"><label for="f-ruleset">Rules</label>'
          f'<select id="f-ruleset" name="ruleset">{opts}</select>'
          f'<p class="field-error" data-error-for="ruleset"></p></div>'
        + '<p class="hint">The current encounter stays in the list; switch back to it at any time.</p>'
        + f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
          '<button type="submit" class="primary">Create</button></div></form>'
    )


def condition_form(c: Combatant, known: dict[str, str], enc: Encounter | None = None,
                   ruleset: Ruleset | None = None) -> str:
    """Put a condition on ``c``: the ruleset's own conditions first (with what each does), any
    other by name, and how long it lasts (fray.timers)."""
    fid = f"cond-{esc(c.id)}"
    picks = "".join(
        f'<label class="pick"><input type="radio" name="pick" value="{esc(k)}"{" disabled" if k in c.conditions else ""}>'
        f' <strong>{esc(k)}</strong><span class="hint">{esc(v)}{" (already on)" if k in c.conditions else ""}</span></label>'
        for k, v in known.items())
    known_html = (f'<fieldset class="field picks" data-field="pick"><legend>{esc(ruleset.name) if ruleset else "This game"}'
                  f"'s conditions</legend>{picks}</fieldset>") if known else ""
    has_turns = bool(ruleset and ruleset.has_turns)
    word = ruleset.rounds_word if ruleset else "round"
    lasts = [("", "until removed"), ("rounds", f"for a number of {word}s")]
    if has_turns:
        lasts += [("turn_start", "until the start of someone's next turn"),
                  ("turn_end", "until the end of someone's next turn")]
    lasts_opts = "".join(f'<option value="{v}">{esc(t)}</option>' for v, t in lasts)
    who = ""
    if has_turns and enc is not None:
        opts = "".join(f'<option value="{esc(x.id)}"{" selected" if x.id == c.id else ""}>{esc(x.name)}</option>'
                       for x in enc.combatants)
        who = (f'<div class="field" data-field="lasts.of"><label for="{fid}-of">Whose turn</label>'
               f'<select id="{fid}-of" name="of">{opts}</select><p class="field-error" data-error-for="lasts.of"></p></div>')
    return (
        f'<form class="form" data-form="add-condition" data-id="{esc(c.id)}" novalidate>'
        f'<h2 id="dlg-title">Condition on {esc(c.name)}</h2>'
        f'{known_html}'
        f'<div class="field" data-field="condition"><label for="f-condition">{"Or another condition" if known else "Condition"}</label>'
        f'<input id="f-condition" name="condition" autocomplete="off" maxlength="40">'
        f'<p class="field-error" data-error-for="condition"></p></div>'
        f'<div class="field-row"><div class="field" data-field="lasts.until"><label for="{fid}-lasts">Lasts</label>'
        f'<select id="{fid}-lasts" name="lasts">{lasts_opts}</select>'
        f'<p class="field-error" data-error-for="lasts.until"></p><p class="field-error" data-error-for="lasts"></p></div>'
        f'<div class="field" data-field="lasts.rounds"><label for="{fid}-rounds">{esc(word.capitalize())}s</label>'
        f'<input id="{fid}-rounds" name="rounds" inputmode="numeric" value="1" size="4">'
        f'<p class="field-error" data-error-for="lasts.rounds"></p></div>{who}</div>'
        f'<p class="hint">For a number of {esc(word)}s, the {esc(word)} it is put on counts as the first'
        + (" (it ends right before its holder's turn)" if ruleset and ruleset.round_durations_end == "before_own_turn"
           else f"; it ends as the {esc(word)} after the last begins") + '. Fray takes it off by itself and says so in the log; Undo puts it back.</p>'
        f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
        '<button type="submit" class="primary">Add</button></div></form>'
    )


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
