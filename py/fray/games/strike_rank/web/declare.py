"""The declaration forms (declare, change, abort) and the SR order of the resolve phase."""

from __future__ import annotations

from typing import Any

from fray.web.blocks import Block
from fray.web.html import Markup, block, fragment, h, html
from fray.web.widgets import drawn_again, drawn_mark, drawn_since
from fray.games.strike_rank.rules import LAST_SR, metres_text
from fray.games.strike_rank.web.common import (DECLARE_KINDS, dead_ids, _btn, _check, _err, _field, _first_enemies, _fold, _fold_block, _input, _lazy_fold,
                     _names, _others, _select)

SUBMIT_LABEL = {"sr-abort": "Abort and do this"}
# Past this many combatants each declaration form is folded shut and drawn when it opens
# (the tactical-round panel's declarations do the same past a dozen)
FOLD_DECLARATIONS_FROM = 13
MORE_FLAGS = (("charge", "Charge (runs at double rate; no dodge or parry until the attack)"),
              ("charge_past", "Charge past (moves on if the blow comes first)"),
              ("mounted_charge", "Mounted charge (lance or spear, 20 m or more; the mount's SR and damage)"),
              ("mutual", "Closing on each other (the target comes too: add both rates)"),
              ("continuing", "Continuing last MR's move (up to 12 × rate)"))
MORE_KEYS = ("shots", "attacks", "split", "extra_weapon", "brace_against", "label", "sr_cost") + tuple(
    k for k, _ in MORE_FLAGS)


def more_html(pre: str, cid: str, c: dict[str, Any], names: dict[str, str], p: dict[str, Any],
              ui: dict[str, Any] | None = None) -> Markup:
    """The rarer fields of a declaration, folded away: open when the action being changed uses one.
    Shut and never opened, it holds no fields (``data-fold-lazy``: drawn when it first opens, and
    kept once drawn, so what the GM typed stays); the form reads a missing field as not used. Two
    lists and ten fields a form, so twelve declaration forms are about half the markup to parse."""
    used = any(p.get(k) not in (None, "", False, 1) for k in MORE_KEYS)
    return _lazy_fold("sr-fold sr-decl-more", f"more-{pre}", "More: shots, several attacks, charge, brace, other…",
                      lambda: _more_body(pre, cid, c, names, p), ui, default_open=used,
                      aria=f"More options for {c.get('name', '')}")


def _more_body(pre: str, cid: str, c: dict[str, Any], names: dict[str, str], p: dict[str, Any]) -> Markup:
    weapons = [("", "(none)")] + [(w["id"], w["name"]) for w in c.get("weapons", []) if w.get("usable", True)]
    others = [("", "(not bracing)")] + _others(names, cid)
    split = p.get("split")
    split_text = " ".join(str(x) for x in split) if isinstance(split, list) else ""
    flags = [_check(f"{pre}-{k}", k, label, bool(p.get(k))) for k, label in MORE_FLAGS]
    return fragment(
        h("div", {"class": "sr-row"},
          _field(pre + "-shots", "shots", "Shots (S/MR missile)", _input(pre + "-shots", "shots",
                                                                         _num(p.get("shots")), "numeric", "1")),
          _field(pre + "-attacks", "attacks", "Attacks with this weapon",
                 _input(pre + "-attacks", "attacks", _num(p.get("attacks")), "numeric", "1")),
          _field(pre + "-split", "split", "Split skill % (one each)", _input(pre + "-split", "split", split_text,
                                                                             "text", "60 50")),
          _field(pre + "-extra", "extra_weapon", "Second weapon's attack",
                 _select(pre + "-extra", "extra_weapon", weapons, p.get("extra_weapon", ""))),
          _field(pre + "-brace", "brace_against", "Brace the spear against",
                 _select(pre + "-brace", "brace_against", others, p.get("brace_against", "")))),
        h("div", {"class": "sr-row"}, flags),
        h("div", {"class": "sr-row"},
          _field(pre + "-label", "label", "Other: what", _input(pre + "-label", "label", p.get("label", "")
                                                                if p.get("kind") == "other" else "", "text",
                                                                "light a torch")),
          _field(pre + "-cost", "sr_cost", "Other: SR it takes", _input(pre + "-cost", "sr_cost",
                                                                        _num(p.get("sr_cost")), "numeric", "0"))))


def _num(v: Any) -> str:
    return "" if v in (None, "", 1) else str(v)


def in_hand(c: dict[str, Any], missile: bool) -> str:
    """The weapon a melee (``missile``: missile) attack starts on: the one ``c`` last declared such an attack
    with, else the first such usable weapon carried, a shield last ("" when none). A GM's play: Change… to a
    melee attack left the Weapon on "(none)" and the change was refused."""
    usable = [w for w in c.get("weapons", []) if w.get("usable", True) and bool(w.get("missile")) == missile]
    ids = {w["id"] for w in usable}
    last = next((a["weapon"] for a in reversed(c.get("declared", [])) if a.get("weapon") in ids
                 and a.get("kind") in ("melee", "missile")), "")
    return last or next((w["id"] for w in sorted(usable, key=lambda w: bool(w.get("shield")))), "")


def declare_form(cid: str, c: dict[str, Any], names: dict[str, str], form: str = "sr-declare",
                 ref: str = "", preset: dict[str, Any] | None = None, enemy: str | None = None,
                 ui: dict[str, Any] | None = None, dead: frozenset[str] = frozenset(), submit: str = "") -> Markup:
    """Kind, weapon, target, metres, running, spell, and folded under "More" every other field of
    ``sr.declare`` (shots, several attacks, a second weapon, charges, bracing, closing, an Other
    action's label and SR cost) → one ``sr.declare`` (or ``sr.change``, ``sr.abort``); ``submit``: its
    button's words, when they must say more than "Change" (a change that loses the attack)."""
    p = preset or {}
    pre = f"sr-{form}-{cid}" + (f"-{ref}" if ref else "")
    # only what the combatant can still do: a weapon an injury (or anything else) has put out of use
    # is not offered, nor an attack when they cannot fight, a move when they cannot move, a run
    # when they cannot run (the card says why)
    usable = [w for w in c.get("weapons", []) if w.get("usable", True)]
    weapons = [(w["id"], f'{w["name"]} SR {w["melee_sr"]["value"]}') for w in usable]
    kinds = offered_kinds(c)
    # the dead are no target ("A combatant may be forced to change actions, e.g. if the target of
    # their attack dies"); the unconscious and incapacitated can still be struck
    targets = [("", "(none)")] + [(o, n) for o, n in names.items() if o != cid and o not in dead]
    # a spell cast on the caster, his weapon or missile, is the only action aimed at oneself: "(self)" is offered
    # while the Action is a spell, hidden otherwise (the page shows it as Action becomes a spell; a GM's play:
    # a melee attack's Target offered "Ayla (self)")
    on_self = any(s.get("cast_on") in ("self", "ally") for s in c.get("spells", []))
    if enemy is None:
        enemy = ""  # no enemy known: "(none)", never an ally or the fallen by default (issue 32)
    # an archer's first weapon is its bow: offer the missile attack with it, not a melee one
    first = (usable or [{}])[0]
    kind = "missile" if first.get("missile") else "melee"
    # a crossbow not yet loaded again (rate 1/2MR, 1/3MR) cannot shoot this MR: its declaration
    # starts at the reload the rules ask for, not at a shot the engine refuses ("spend the MR
    # reloading", Ranged Combat)
    if kind == "missile" and not first.get("loaded", True):
        kind = "reload"
    if kind not in dict(kinds):
        kind = kinds[0][0]
    mv = c.get("movement") or {}
    if form == "sr-change" and p.get("kind") in ("melee", "missile"):
        # the change box is drawn again as its Action changes: an attack lists the weapons it is made with (a
        # GM's play: a change to a melee attack offered the Composite bow)
        shoots = p["kind"] == "missile"
        weapons = [(w["id"], f'{w["name"]} SR {w["melee_sr"]["value"]}') for w in usable
                   if bool(w.get("missile")) == shoots]
    melee_w, missile_w = in_hand(c, False), in_hand(c, True)
    if p.get("weapon"):
        weapon = p["weapon"]
    elif "weapon" in p:
        # a change or an abort of an action with no weapon (a dodge, a move): an attack starts on the weapon
        # in hand; a defence stays as declared ("(none)": the dodge), the page filling it if Action becomes
        # an attack (``data-melee-weapon``, ``StrikeRankPanel.on_change``)
        weapon = {"melee": melee_w, "missile": missile_w}.get(p.get("kind", kind), "")
    else:
        weapon = weapons[0][0] if weapons else ""
    spells = [("", "(none)")] + [(s["id"], f'{s["name"]} SR {s["sr"]["value"]}') for s in c.get("spells", [])]
    # whom each spell starts on (the assumed ``spells`` table: Bladesharp and Speedart on the caster, his
    # weapon or missile; a GM's play had them start on a foe): the page sets the Target as one is picked
    on = {s["id"]: {"self": cid, "ally": cid, "foe": enemy}.get(s.get("cast_on", ""), "") for s in c.get("spells", [])}
    spell_targets = " ".join(f"{k}={v}" for k, v in on.items() if v)
    target = p.get("target", on.get(p.get("spell", ""), "") or enemy if p.get("kind") == "spell" else enemy)
    who = c["name"]
    # the GM names an action by who and when, never by its id
    title = ((f"Abort this action of {who} and" if form == "sr-abort" else f"Change {_at_sr(p)} of {who}") if ref
             else f"Declare for {who}")
    return h(
        "form", {"class": "sr-declare", "data-form": form, "data-id": cid, "data-ref": ref or None, "novalidate": True,
                 "aria-label": title, "data-melee-weapon": melee_w or None, "data-missile-weapon": missile_w or None,
                 "data-missile-weapons": " ".join(w["id"] for w in usable if w.get("missile")) or None,
                 "data-spell-targets": spell_targets or None},
        h("div", {"class": "sr-row"},
          _field(pre + "-kind", "kind", "Action", _select(pre + "-kind", "kind", kinds, p.get("kind", kind))),
          _field(pre + "-weapon", "weapon", "Weapon", _select(pre + "-weapon", "weapon", [("", "(none)")] + weapons,
                                                              weapon)),
          _field(pre + "-target", "target", "Target", _target_select(pre + "-target", targets, target,
                                                                     (cid, c["name"]) if on_self else None,
                                                                     p.get("kind", kind) == "spell")),
          _field(pre + "-metres", "metres", "Metres", _input(pre + "-metres", "metres", p.get("metres", ""),
                                                             "decimal", "from map")),
          _field(pre + "-spell", "spell", "Spell", _select(pre + "-spell", "spell", spells, p.get("spell", "")))
          if len(spells) > 1 else None,
          _check(pre + "-running", "running", "Running", bool(p.get("running"))) if mv.get("can_run", True) else
          html('<p class="hint sr-cannot">Cannot run: {}</p>', "; ".join(mv.get("why", [])))),
        h("p", {"class": "hint sr-cannot"}, c["cannot_fight"]) if c.get("cannot_fight") else None,
        more_html(pre, cid, c, names, p, ui),
        h("div", {"class": "sr-row sr-actions"},
          h("button", {"type": "submit", "class": "primary"},
            submit or SUBMIT_LABEL.get(form, "Change" if ref else "Declare"))),
        _err("sr"))



def _target_select(fid: str, targets: list[tuple[str, str]], target: str, me: tuple[str, str] | None,
                   spell: bool) -> Markup:
    """The Target drop-down; ``me``: the caster's own "(self)" option, second, hidden unless the Action is a
    spell (``StrikeRankPanel.on_change`` shows or hides it as the Action changes)."""
    if me is None:
        return _select(fid, "target", targets, target)
    mine = h("option", {"value": me[0], "selected": target == me[0], "data-self": "yes", "hidden": not spell,
                        "disabled": not spell}, f"{me[1]} (self)")
    return h("select", {"id": fid, "name": "target"},
             *[h("option", {"value": v, "selected": target == v}, t) for v, t in targets[:1]], mine,
             *[h("option", {"value": v, "selected": target == v}, t) for v, t in targets[1:]])


def offered_kinds(c: dict[str, Any]) -> list[tuple[str, str]]:
    """The kinds of action the declaration form offers ``c``: a melee or missile attack only with a
    usable weapon of that kind and while they can fight ("Chest: Cannot fight"); a move only if
    they can move at all (an immobilized leg "prevents movement"); a reload only with a weapon that
    needs one."""
    ws = [w for w in c.get("weapons", []) if w.get("usable", True)]
    fight = not c.get("cannot_fight")
    can = {"melee": fight and any(not w.get("missile") or w.get("thrown") for w in ws),
           "missile": fight and any(w.get("missile") for w in ws),
           "move": (c.get("movement") or {}).get("max_rate") != 0,
           "reload": any(str(w.get("rate", "")).startswith("1/") and w.get("rate") != "1/MR"
                         for w in c.get("weapons", []))}
    return [(k, label) for k, label in DECLARE_KINDS if can.get(k, True)]


def declare_html(view: dict[str, Any], ui: Any = None,
                 kept: dict[str, Any] | None = None) -> Block | Markup:
    """Each combatant's declarations and the form for the next one. A form closes once it has
    declared (its fold-out is keyed by the number of declarations, so a new one starts shut) and
    the next combatant's form is the one in view; "Declare another" opens it again.

    A Block (web/blocks.py), one child per combatant, so a declaration rewrites its declarer's
    part only. With ``kept`` (the panel's, from render to render), a combatant's part is not even
    built again while all it is made of is the same (``declare_row_key``)."""
    names = _names(view)
    folds = ui.open if ui else {}
    opened = ui.opened if ui else ()
    many = len(view.get("combatants", {})) >= FOLD_DECLARATIONS_FROM
    rows = []
    enemies = _first_enemies(view)
    # with many combatants each form waits shut, but the first who can act and has declared nothing
    # yet starts open: declaring down the list is one tap (Declare) each, not two (issue 33, §5)
    up = next_to_declare(view) if many else None
    dead = dead_ids(view)
    for cid, c in view.get("combatants", {}).items():
        key = declare_row_key(cid, c, names, enemies[cid], folds, opened if many else None, opened, cid == up, dead)
        held = kept.get(cid) if kept is not None else None
        if held is not None and held[0] == key:
            rows.append(held[1])
            drawn_again(held[2])  # its fold-outs are on the page as they were drawn
            continue
        mark = drawn_mark()
        row = _declare_row(cid, c, names, key[2], ui, many, cid == up, dead)
        if kept is not None:
            kept[cid] = (key, row, drawn_since(mark))
        rows.append(row)
    if kept is not None:
        for cid in [k for k in kept if k not in view.get("combatants", {})]:
            del kept[cid]
    if not rows:
        return html('<p class="hint">No combatants yet.</p>')
    return block("div", {"class": "sr-declare-list"}, [
        html('<p class="hint">Declare each combatant\'s actions, then press <strong>Next</strong> to resolve them by '
             'strike rank.</p>'), *rows])


def next_to_declare(view: dict[str, Any]) -> str | None:
    """The first combatant, in the list's order, who can act and has declared nothing yet."""
    return next((cid for cid, c in view.get("combatants", {}).items() if c.get("status", "ok") == "ok"
                 and not any(a.get("status") == "declared" for a in c.get("declared", []))), None)


def declare_row_key(cid: str, c: dict[str, Any], names: dict[str, str], enemy: str,
                    folds: dict[str, bool], opened: Any = None, more_opened: Any = None, up: bool = False,
                    dead: frozenset[str] = frozenset()) -> tuple:
    """Everything one combatant's declaration part is made of: their view (the same object while
    nothing of theirs changed, ``Ruleset.view_kept``), every name (the target and bracing lists),
    the default target, the state of its two fold-outs and, with many combatants (``opened``:
    the fold-outs drawn so far), whether its form has been drawn; ``more_opened``: whether its "More"
    fold-out has been drawn (games/strike_rank/web/panel.py keeps the keys of those drawn)."""
    n = len([a for a in c.get("declared", []) if a.get("status") == "declared"])
    fold, more = _fold_key(cid, n, up), f"more-sr-sr-declare-{cid}"
    return (c, names, enemy, folds.get(fold), folds.get(more), more in (more_opened or ()),
            None if opened is None else fold in opened, up, dead)


def _fold_key(cid: str, n: int, up: bool) -> str:
    """A declaration fold-out's key: by the number declared (a new one starts as it should), and
    apart for the next to declare, whose fold-out starts open where the same one shut stayed shut."""
    return f"declare-{cid}-{n}" + ("-up" if up else "")


def _declare_row(cid: str, c: dict[str, Any], names: dict[str, str], enemy: str, ui: dict[str, Any] | None,
                 many: bool = False, up: bool = False, dead: frozenset[str] = frozenset()) -> Markup:
    """One combatant's part of the declarations: what they declared, and the form for the next.
    ``many`` (FOLD_DECLARATIONS_FROM or more combatants): the form's fold-out starts shut (but for
    ``up``, the first still to declare) and holds no form until it first opens (the page's toggle listener draws it then), so the Next
    into a new round writes thirty one-line fold-outs, not thirty forms."""
    decl = [a for a in c.get("declared", []) if a.get("status") == "declared"]
    items = [html('<li class="sr-decl">{} <span class="sr-what">{}</span> '
                  '<span class="sr-text">{}</span> {}</li>', sr_badge(a), action_label(a, names, c, dead), a["text"],
                  _btn("Undeclare", "sr-undeclare", "small secondary", f'Undeclare {_at_sr(a)} of {c["name"]}',
                       ref=a["ref"], id=cid))
             for a in decl]
    status = html(' <span class="sr-status">{}</span>', c["status"]) if c.get("status") != "ok" else Markup("")
    if c.get("status", "ok") != "ok":
        # the dead, unconscious and incapacitated act no more (issue 32: "the dead got full declare
        # forms"); the card's conditions bring them back
        return html('<div class="sr-who sr-fallen" data-id="{}"><h3>{}{}</h3><p class="hint">{}: no actions.</p></div>',
                    cid, c["name"], status, c.get("cannot_act") or c["name"] + " cannot act")
    key = _fold_key(cid, len(decl), up)
    # ``up``: the next to declare, open (and drawn) though the others wait shut
    shown = ui.open.get(key) if ui else None
    drawn = not many or (up and shown is not False) or shown or (key in ui.opened if ui else False)
    form = declare_form(cid, c, names, enemy=enemy, ui=ui, dead=dead) if drawn else ""
    summary = f'Declare another action for {c["name"]}' if decl else f'Declare for {c["name"]}'
    return h("div", {"class": "sr-who", "data-id": cid},
             html("<h3>{}{}</h3>", c["name"], status),
             html('<ul class="sr-decls" aria-label="Declared by {}">{}</ul>', c["name"], fragment(items)),
             _fold("sr-fold sr-declare-fold", key, summary, form, ui,
                   default_open=not decl and (not many or up), lazy=not drawn))


def action_label(a: dict[str, Any], names: dict[str, str], c: dict[str, Any] | None = None,
                 dead: frozenset[str] = frozenset()) -> str:
    """An action in the GM's words: its weapon and spell by name, never by id; an attack whose target died
    marked as the change it must be ("→ Broo 2 (dead: must change)")."""
    kind = dict(DECLARE_KINDS).get(a.get("kind", ""), a.get("kind", ""))
    if a.get("kind") == "defend":
        # "The target can defend normally, either parrying or dodging": the one declared (a GM's play: "Parry / dodge
        # only with Kick", a kick that does not parry)
        kind = "Dodge only" if a.get("stance") == "dodge" else "Parry only,"
    bits = [kind]
    if a.get("weapon"):
        wname = next((w["name"] for w in (c or {}).get("weapons", []) if w["id"] == a["weapon"]), a["weapon"])
        bits.append(f"with {wname}")
    if a.get("spell"):
        bits.append(next((str(x["name"]) for x in (c or {}).get("spells", []) if x.get("id") == a["spell"]),
                         str(a["spell"])))
    if a.get("kind") == "other" and a.get("label"):
        bits.append(f"“{a['label']}”")
    for flag, word in (("charge", "charging"), ("charge_past", "charging past"), ("mounted_charge", "mounted charge"),
                       ("bracing", "braced")):
        if a.get(flag):
            bits.append(word)
    if a.get("target"):
        bits.append(f"→ {names.get(a['target'], a['target'])}" + (
            " (dead: must change)" if a["target"] in dead and a.get("kind") in ("melee", "missile") else ""))
    if a.get("metres"):
        m = metres_text(a["metres"]) if isinstance(a["metres"], (int, float)) else str(a["metres"])
        # apart from a target's name, which may end in a number ("→ Great wolf (four-legged) 3 9 m" read as 39 m)
        bits.append(f"({m} to move)" if a.get("target") else m)
    return " ".join(bits)


def _at_sr(a: dict[str, Any]) -> str:
    """An action as the GM names it: by when it happens ("the action at SR 7"); a parry or dodge
    declared on its own by what it is, for it has no SR of its own."""
    if a.get("kind") == "defend":
        return f"the {a.get('stance') or 'parry'}"
    return f"the action at SR {a['sr']}" if a.get("sr") not in (None, "") else "the action"


def sr_badge(a: dict[str, Any]) -> Markup:
    """A declaration's badge: its strike rank, or for "Parry / dodge only" the stance, which acts at no SR
    of its own ("Defenses ... are resolved on the same SR as the attack, and do not delay other actions":
    a GM's play-through read "SR 0")."""
    if a.get("kind") == "defend":
        return html('<span class="sr-badge no-sr">{}</span>', str(a.get("stance") or "parry").capitalize())
    return html('<span class="sr-badge">SR {}</span>', a["sr"])


def order_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> Block | Markup:
    names = _names(view)
    items = []
    for o in view.get("order", []):
        cur = bool(o.get("current"))
        c = view.get("combatants", {}).get(o["combatant"], {})
        items.append(h(
            "li", {"class": "current" if cur else "", "aria-current": "step" if cur else None, "data-ref": o["ref"]},
            html('<span class="sr-badge">SR {}</span> <strong>{}</strong> <span class="sr-what">{}</span> '
                 '<span class="sr-text">{}</span>', o["sr"], o["name"], action_label(o, names, c, dead_ids(view)), o["text"]),
            _btn("Change…", "sr-change-open", "small secondary", f'Change {_at_sr(o)} of {o["name"]}',
                 ref=o["ref"], id=o["combatant"]),
            abort_html(o, c, names, ui, _first_enemies(view).get(o["combatant"], ""), dead_ids(view))
            if o.get("kind") in ABORTABLE and c else None))
    if not items:
        # said once, by the line under it (flow.nothing_left_html: "No action is left at SR 9: press
        # Next for the end of the Melee Round"); both said it, one after the other
        return Markup("")
    # folded: the order strip already shows who acts at which SR; the list keeps each action's SR
    # breakdown and its Change… and Abort controls one tap away (issue 10: with 12 combatants the
    # open list made the page ~6,300 px long)
    # A Block: a Next moves "current" down the list, and only the entries it moved are rewritten
    n = len(items)
    return _fold_block("sr-fold sr-order-fold", "sr-order",
                       f'Strike rank order: {n} action{"s" if n != 1 else ""}, breakdowns, Change… / Abort',
                       [block("ol", {"class": "sr-order", "aria-label": "Strike rank order"}, items),
                        html('<p class="hint">{}</p>', view.get("order_key", ""))], ui)


ABORTABLE = ("spell", "reload", "other")


def abort_html(o: dict[str, Any], c: dict[str, Any], names: dict[str, str], ui: dict[str, Any] | None = None,
               enemy: str = "", dead: frozenset[str] = frozenset()) -> Markup:
    """"Abort and …" beside a prolonged action: the new action, delayed by DEX SR from now (``sr.abort``)."""
    return _fold("sr-fold sr-abort", "abort-" + str(o["ref"]), "Abort and …",
                 declare_form(o["combatant"], c, names, "sr-abort", o["ref"], {"kind": "defend"}, enemy, ui=ui,
                              dead=dead), ui,
                 aria=f'Abort {_at_sr(o)} of {o["name"]} and do something else')


def change_cost(view: dict[str, Any], c: dict[str, Any], a: dict[str, Any]) -> tuple[str, bool]:
    """What changing ``c``'s declared action ``a`` now costs, said before the GM confirms, and whether an
    attack is then surely lost. Changing Actions: "Changing your declared action during a MR delays action by
    the combatant's DEX SR. If an attack is pushed past SR 12, it is lost." Nothing comes earlier than the SR
    being resolved: the SR it gives is the earliest (a new target further off adds its movement)."""
    dsr = c.get("derived", {}).get("dex_sr", {}).get("value", 0)
    at = view.get("sr", 0) + dsr
    if a.get("kind") in ("melee", "missile") and at > LAST_SR:
        return f"changing now costs DEX SR {dsr}: SR {at}, past SR {LAST_SR}, the attack would be lost", True
    return f"changing now costs DEX SR {dsr}: SR {at} at the earliest", False


def change_preset(view: dict[str, Any], ref: str, chosen: dict[str, str] | None = None
                  ) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]] | None:
    """The voluntary Change… of the declared action ``ref``: (combatant id, its view, the action, the form's
    preset), the Action, Weapon and Target the GM set in it (``chosen``) over the declared ones; None when
    the action is no longer to come."""
    for cid, c in view.get("combatants", {}).items():
        for a in c.get("declared", []):
            if a["ref"] == ref and a.get("status") == "declared":
                # the change starts on a foe she is engaged with, if any, and its Metres from the map: the
                # declared action's own (a shot's 0 m) timed a melee attack on a foe 24 m off with no move
                engaged = next((o.get("engaged") or [] for o in view.get("order", []) if o.get("ref") == ref), [])
                preset = {**a, "metres": "" if a.get("target") or a.get("kind") != "move" else a.get("metres", "")}
                if engaged and a.get("target") not in engaged:
                    preset["target"] = engaged[0]
                return cid, c, a, {**preset, **(chosen or {})}
    return None


def change_html(view: dict[str, Any], ref: str, cost_said: str | None = None,
                chosen: dict[str, str] | None = None) -> Markup:
    """The voluntary Change… box: what the change costs said before the GM confirms (``cost_said``: the
    engine's own change worked out for what is set in it, ``attack.change_costs``' words, as the forced
    change's box says; else the least any change costs), and the declaration form."""
    found = change_preset(view, ref, chosen)
    if found is None:
        return Markup("")
    cid, c, a, preset = found
    cost, lost = change_cost(view, c, a)
    if cost_said:
        cost, lost = cost_said, cost_said.endswith("the attack would be lost")
    return html('<div class="sr-box sr-change"><h3>Change {} of {} (delayed by DEX SR)</h3>'
                '<p class="hint sr-change-cost">{}.</p>{}{}</div>',
                _at_sr(a), c["name"], cost[:1].upper() + cost[1:],
                declare_form(cid, c, _names(view), "sr-change", ref, preset, dead=dead_ids(view),
                             submit="Change: the attack is lost" if lost else ""),
                _btn("Cancel", "sr-change-cancel", "small secondary", "Cancel the change"))
