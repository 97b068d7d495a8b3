"""The tactical-round panel: phase stepper, declarations, the attack, the GM's table entry, and
DEF / parry / cover / HP / weapons on each card.

Rendering is pure (``panel_html``, ``card_html`` take the ruleset's ``view()`` and plain data,
return HTML strings; every piece of user text goes through ``esc``). The handlers read a form,
build one ``tr.*`` action and call ``app.dispatch(action, form)``. Every control's ``name`` is the
engine's field path for that action (``amount``, ``rolls.attack``, ``actions.1.weapon``) next to a
``data-error-for`` slot of the same name, so an engine error lands beside the control.

Dice are typed ("98 40", "98, 40" = an open-ended d100 that rolled 98 then 40) or left blank,
in which case Fray rolls them. A typed entry that is not whole numbers shows an error at that
field and changes nothing.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from fray.errors import InvalidAction
from fray.web import odds_view
from fray.web.blocks import Block
from fray.web.panels import GamePanel
from fray.web.render import esc
from fray.games.tactical_round.web.ui import TacticalRoundUi
from fray.web.widgets import (ZERO_FACE, ZeroFace, act_button as _btn, as_int, as_number, check, combatant_in as _combatant,
                      err_slot as _err, field as _field, fold_extra, fold_open, fold_summary, general_err, lazy_fold, names_in as _names,
                      open_add_section, parse_faces, read_extra, select as _select, split_lines,
                      text_input as _input)

FLAGS = (("flanking", "Flanking"), ("on_rear", "On rear"), ("charge", "Charge"), ("mounted", "Mounted"),
         ("two_weapons", "Two weapons"))
ATTACK_PHASES = ("move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b")
COVER_KINDS = ("none", "partial", "full")
DEFAULT_KINDS = [
    {"key": "move", "title": "Move"}, {"key": "run_away", "title": "Run Away"},
    {"key": "spell_prepared", "title": "Cast a prepared or instant spell"},
    {"key": "ranged_attack", "title": "Ranged attack"}, {"key": "melee_attack", "title": "Melee attack"},
    {"key": "spell_unprepared", "title": "Cast an unprepared spell"},
    {"key": "reload", "title": "Reload a missile weapon"}, {"key": "ready_thrown", "title": "Ready a thrown weapon"},
    {"key": "disengage", "title": "Disengage"}, {"key": "other", "title": "Other action"},
]
DECLARE_ROWS = 2  # at most one Full + one Half, or two Half
# Past this many declarers each declaration is a fold-out, one line (name and what is declared),
# whose form is drawn when it first opens: 200 open forms were 96,000 elements, written on the
# Next into the phase and removed on the Next out of it (10 s at 200 combatants).
FOLD_DECLARATIONS_FROM = 13
# Attacks awaiting the table shown whole; the ones after them wait as one-line fold-outs
PENDING_SHOWN = 3


# -- small pure helpers --------------------------------------------------------------------------

def parse_dice(text: str) -> list[int] | None:
    """"98 40" / "98,40" → [98, 40]; blank → None (Fray rolls). Raises ValueError otherwise."""
    return parse_faces(text, signed=True)


def _general_err() -> str:
    return general_err("tr")


def _check(fid: str, name: str, label: str, checked: bool = False, value: str = "") -> str:
    return check(fid, name, label, checked, "tr-check", value)


# the fallen (rules.OUT_OF_ACTION): no forms, never a default target (issue 32)
FALLEN = ("incapacitated", "dying", "unconscious", "dead")
BY_NEXT = ("move", "disengage", "reload", "ready_thrown")  # actions.BY_THEMSELVES_ON_LEAVING + _ON_ENTRY
ATTACK_KINDS = ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")


def _out_of_action(c: dict[str, Any]) -> bool:
    return any(x["name"] in FALLEN for x in c.get("conditions", []))


# -- the panel above the cards ------------------------------------------------------------------

def map_ranges(enc: Any, tables: dict[str, Any], attacker_id: str | None) -> dict[str, Any] | None:
    """Distances on the map from the attacker to everyone else and the range band of each of the
    attacker's ranged weapons (missile, thrown, spell): {"attacker", "rows": [{"target", "metres",
    "bands": [{"weapon", "label", "modifier"}]}]} (label None: beyond 4x, cannot attack)."""
    from fray.geometry import distance
    from fray.maprules import in_the_way
    from fray.games.tactical_round import rules

    a = enc.get(attacker_id) if attacker_id else None
    if a is None:
        return None
    ranged = [w for w in a.data.get("weapons", []) if w.get("kind") in ("missile", "thrown", "spell")]
    if not ranged:
        return None
    rows = []
    for b in enc.combatants:
        if b.id == a.id:
            continue
        d = round(distance(a.position, b.position), 2)
        bands = []
        for w in ranged:
            e = rules.range_band(d, w.get("base_range") or 0, tables)
            bands.append({"weapon": w["name"], "label": e["label"] if e else None,
                          "modifier": e["modifier"] if e else None})
        rows.append({"target": b.name, "metres": d, "bands": bands,
                     "in_the_way": [o.name for o in in_the_way(enc, a, b)]})
    return {"attacker": a.name, "rows": rows}


def ranges_html(ranges: dict[str, Any] | None) -> str:
    if not ranges:
        return ""
    items = []
    for r in ranges["rows"]:
        bands = "; ".join(
            f'{b["weapon"]}: {b["label"]} ({b["modifier"]:+d})' if b["label"] else f'{b["weapon"]}: beyond 4× Base Range'
            for b in r["bands"])
        # "must have a clear Line of Sight": bodies on the line are put to the GM, never decided
        los = (f' — {esc(", ".join(r["in_the_way"]))} in the way: line of sight?'
               if r.get("in_the_way") else "")
        items.append(f'<li><strong>{esc(r["target"])}</strong> {r["metres"]:g} m — {esc(bands)}{los}</li>')
    # folded, after the Attack button (issue 33: the list of eleven pushed the dice field below the
    # fold); the chosen target's band is in the odds already
    return (f'<details class="tr-ranges"><summary>Range bands from the map, from {esc(ranges["attacker"])} '
            f'({len(items)})</summary><ul>{"".join(items)}</ul></details>')


def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               kinds: list[dict[str, Any]] | None = None, ranges: dict[str, Any] | None = None) -> str:
    if not view or "phases" not in view:
        return ""
    ui = ui or TacticalRoundUi()
    phase = view["phase"]["id"]
    # a Block (web/blocks.py), one child per part: a Next through the phases that show the
    # declarations rewrites the stepper and the acting list, not the thirty forms (55,000 nodes)
    parts = [*stepper_parts(view), open_html(view, ui), over_html(view), acting_html(view)]
    if phase in ("setup", "assessment", "declaration"):
        parts.append(declare_html(view, kinds or DEFAULT_KINDS, ui))
    parts.append(pending_html(view, ui))
    pre = ui.attack or next_attack(view)
    # shut once nobody has an attack left in the phase: open, it offered the first combatant's weapon,
    # which the rules forbid now ("No odds: Broadsword attacks in Melee, not in Ranged A")
    parts.append(attack_html(view, pre, open_=phase in ATTACK_PHASES and bool(pre.get("id")), ranges=ranges))
    return Block('<section class="tr-panel" aria-label="Tactical round">', parts, "</section>")


def next_attack(view: dict[str, Any]) -> dict[str, Any]:
    """The first open attack of this phase (attacker, weapon, target), to prefill the attack form."""
    for s in view.get("acting", []):
        if s.get("done"):
            continue
        ref = s.get("action", "")
        if ref.startswith("strike:"):
            return {"id": s["combatant"], "weapon": None, "target": ref.split(":", 1)[1]}
        if ":" in ref:
            c = _combatant(view, s["combatant"]) or {}
            ds = c.get("declared", [])
            i = int(ref.split(":")[1])
            d = ds[i] if i < len(ds) else {}
            if d.get("action") in ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared"):
                return {"id": s["combatant"], "weapon": d.get("weapon"), "target": d.get("target") or ""}
    return {}


def still_open(view: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the page's Next would stop at: the open declared actions of this phase of the living
    (combatant, index, declaration), and, in the Declaration phase, who standing has not declared."""
    phase = view["phase"]["id"]
    if phase == "declaration":
        return [], [c for c in view.get("combatants", []) if not _out_of_action(c) and not c.get("has_declared")]
    out = []
    for c in view.get("combatants", []):
        if _out_of_action(c):
            continue
        for i, d in enumerate(c.get("declared", [])):
            # a move, a disengage, a reload, readying a thrown weapon: the page's Next resolves them by
            # itself (actions.leave_phase), so they are never "not resolved" and get no Skip it
            if not d.get("done") and d.get("phase") == phase and d.get("action") not in BY_NEXT:
                out.append({"c": c, "i": i, "d": d})
    return out, []


def open_html(view: dict[str, Any], ui: dict[str, Any]) -> str:
    """After a Next that stopped (``ui.asked`` is this round and phase): what is still open,
    each with Resolve and Skip it, and one button to go on (issue 32: "say what is still open
    ("Mira's Ranged attack is not resolved: Resolve / Skip it"), and log the GM's choice")."""
    if ui.asked != [view.get("round"), view["phase"]["id"]]:
        return ""
    actions, undeclared = still_open(view)
    if not actions and not undeclared:
        return ""
    rows = []
    if undeclared:
        who = ", ".join(c["name"] for c in undeclared)
        rows.append(f'<p>Not declared yet: <strong>{esc(who)}</strong>.</p>')
        go = _btn("Go on without them" if len(undeclared) > 1 else f"Go on without {undeclared[0]['name']}",
                  "tr-go-on", "secondary")
    else:
        items = []
        for x in actions:
            c, i, d = x["c"], x["i"], x["d"]
            what = f'{c["name"]}\'s {d.get("title", d["action"])}'
            if d["action"] in ATTACK_KINDS:
                res = _btn("Resolve", "tr-quick-attack", "primary", aria=f"Resolve: {what}", id=c["id"],
                           weapon="" if d.get("weapon") is None else d["weapon"], target=d.get("target") or "")
            else:
                res = _btn("Resolve", "tr-resolve", "primary", aria=f"Resolve: {what}", id=c["id"])
            items.append(f'<li><span>{esc(what)} is not resolved:</span> {res}'
                         f'{_btn("Skip it", "tr-skip", "secondary", aria=f"Skip {what}", id=c["id"], index=i)}</li>')
        rows.append(f'<ul class="tr-open-list">{"".join(items)}</ul>')
        go = _btn("Skip all and go on" if len(actions) > 1 else "Skip it and go on", "tr-go-on", "secondary")
    return (f'<section class="tr-box tr-open tr-scope" id="tr-open" role="alert" aria-label="Still open">{_general_err()}'
            f'{"".join(rows)}<div class="tr-actions">{go}</div></section>')


def stepper_html(view: dict[str, Any]) -> str:
    return "".join(stepper_parts(view))


def stepper_parts(view: dict[str, Any]) -> list[str]:
    """The phases of the round, and the one now: two elements."""
    cur = view["phase"]["index"]
    items = []
    for i, p in enumerate(view["phases"]):
        state = "current" if p["current"] else ("past" if 0 <= cur and i < cur else "")
        aria = ' aria-current="step"' if p["current"] else ""
        items.append(f'<li class="{state}"{aria}><span class="n">{i + 1}</span> {esc(p["title"])}</li>')
    note = view["phase"].get("note", "")
    return [f'<nav class="tr-stepper" id="tr-stepper" aria-label="Phases of round {esc(view["round"])}"><ol>{"".join(items)}</ol></nav>',
            f'<h2 class="tr-phase-now"><strong>Round {esc(view["round"])}: {esc(view["phase"]["title"])}</strong>'
            f'<span class="tr-phase-note">{" — " + esc(note) if note else ""}</span></h2>']


def acting_html(view: dict[str, Any]) -> str:
    acting = view.get("acting", [])
    phase = view["phase"]["id"]
    if phase == "setup":
        return ""
    if not acting:
        return '<p class="tr-acting-none hint">Nobody acts in this phase. Use the Next button to go on.</p>'
    names = _names(view)
    items = []
    for n, s in enumerate(acting):
        cid = s["combatant"]
        c = _combatant(view, cid) or {}
        ref = s.get("action", "")
        decl = None
        if ref and ":" in ref and not ref.startswith("strike:"):
            i = int(ref.split(":")[1])
            ds = c.get("declared", [])
            decl = ds[i] if i < len(ds) else None
        sim = s.get("simultaneous_with") or []
        sim_names = []
        for r in sim:
            oid = r.split(":")[0]
            if oid in names:
                sim_names.append(names[oid])
        badges = ""
        if s.get("done"):
            badges += '<span class="tr-badge done">done</span>'
        if sim:
            badges += f'<span class="tr-badge sim">simultaneous with {esc(", ".join(sim_names))}</span>'
        quick = []
        if not s.get("done") and phase != "declaration":
            kind = decl["action"] if decl else ("strike" if ref.startswith("strike:") else "")
            if kind in ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared", "strike"):
                target = decl.get("target") if decl else ref.split(":", 1)[1]
                weapon = decl.get("weapon") if decl else None
                quick.append(_btn("Attack", "tr-quick-attack", "primary", aria=f"Attack: {c.get('name', cid)}",
                                  id=cid, weapon="" if weapon is None else weapon, target=target or ""))
            if kind == "move":
                # nothing to press: what the Move phase asks of the GM, where the form would be (issue 33)
                badges += '<span class="tr-how hint">drag its token on the map; Next leaves it where it stands</span>'
            # a declared reload, readying, move or disengage does itself in its phase (issue 32)
            if decl and kind not in ("reload", "ready_thrown", "move", "disengage"):
                if kind not in ATTACK_KINDS:
                    quick.append(_btn("Done", "tr-resolve", "secondary", aria=f"Mark done: {c.get('name', cid)}",
                                      id=cid))
                quick.append(_btn("Skip", "tr-skip", "secondary", aria=f"Skip: {c.get('name', cid)}", id=cid,
                                  index=ref.split(":")[1]))
        tie = (_btn("▲", "order-up", "icon", aria=f"Move {c.get('name', cid)} earlier among ties", id=cid)
               + _btn("▼", "order-down", "icon", aria=f"Move {c.get('name', cid)} later among ties", id=cid)) \
            if phase == "melee" and sim else ""
        items.append(
            f'<li class="tr-slot{" done" if s.get("done") else ""}" data-id="{esc(cid)}">'
            f'<span class="who side-{esc(c.get("side", "neutral"))}">{esc(s.get("name", cid))}</span>'
            f'<span class="why">{esc(s.get("explanation", ""))}</span>{badges}'
            f'<span class="tr-quick">{"".join(quick)}{tie}</span></li>')
    return (f'<div class="tr-scope tr-acting-wrap">{_general_err()}'
            f'<ol class="tr-acting" aria-label="Who acts in {esc(view["phase"]["title"])}">{"".join(items)}</ol>'
            '</div>')


def over_html(view: dict[str, Any]) -> str:
    """Once all in an attack phase have acted, nobody is marked "now" (``Ruleset.still_to_act``):
    the panel says so at its top, before the results still waiting, and points to Next (issue 33)."""
    acting = view.get("acting", [])
    if view["phase"]["id"] in ("setup", "assessment", "declaration") or not acting \
            or not all(s.get("done") for s in acting):
        return ""
    title = esc(view["phase"]["title"])
    if view.get("pending"):
        return (f'<p class="tr-acting-over hint" role="status">Everyone in {title} has acted: apply the results '
                'waiting below, then use the Next button to go on.</p>')
    return f'<p class="tr-acting-over hint" role="status">Everyone in {title} has acted. Use the Next button to go on.</p>'



def declare_html(view: dict[str, Any], kinds: list[dict[str, Any]], ui: dict[str, Any] | None = None) -> str:
    """The declaration forms. ``ui.decl_open``: the ids whose fold-out the page shows open
    now; ``ui.decl_drawn``: those whose form has been drawn (opened once this phase: shut
    again, it keeps what the GM chose in it)."""
    ui = ui or TacticalRoundUi()
    names = _names(view)
    forms = []
    declarers = [c for c in view.get("combatants", []) if not _out_of_action(c)]
    folded = len(declarers) >= FOLD_DECLARATIONS_FROM
    is_open = ui.decl_open
    drawn = ui.decl_drawn
    for c in declarers:
        cid = c["id"]
        decl = c.get("declared", [])
        if folded and cid not in drawn:
            forms.append(_decl_fold(c, decl, False, lazy=True) + "</details>")
            continue
        rows = []
        others = [("", "(no target)")] + [(k, v) for k, v in names.items() if k != cid]
        weapons = [("", "(no weapon)")] + [(str(w["index"]), w["name"]) for w in c.get("weapons", [])]
        actions = [("", "(none)")] + [(k["key"], k["title"]) for k in kinds]
        for i in range(DECLARE_ROWS):
            d = decl[i] if i < len(decl) else {}
            base = f"tr-{cid}-decl-{i}"
            rows.append(
                f'<fieldset class="tr-decl-row"><legend>Action {i + 1}</legend>'
                + _field(base + "-action", f"actions.{i}.action", "Action",
                         _select(base + "-action", f"actions.{i}.action", actions, d.get("action", "")))
                + _field(base + "-weapon", f"actions.{i}.weapon", "Weapon",
                         _select(base + "-weapon", f"actions.{i}.weapon", weapons,
                                 "" if d.get("weapon") is None else d.get("weapon")))
                + _field(base + "-target", f"actions.{i}.target", "Target",
                         _select(base + "-target", f"actions.{i}.target", others, d.get("target") or ""))
                + "</fieldset>")
        said = ""
        if decl:
            said = "<ul class=\"tr-declared\">" + "".join(
                f'<li>{esc(d["title"])} · {esc(d["phase_title"])} · {esc(d["cost"])}'
                f'{" ✓" if d.get("done") else ""}</li>' for d in decl) + "</ul>"
            if c.get("full_and_half"):
                said += '<p class="hint">Full + Half: −20 to the attack rolls</p>'
        form = (f'<form class="tr-form tr-declare" data-form="tr-declare" data-id="{esc(cid)}" novalidate '
                f'aria-label="Declare for {esc(c["name"])}">'
                f'{"" if folded else "<h3>" + esc(c["name"]) + "</h3>"}{said}{_general_err()}'
                f'<input type="hidden" name="id" value="{esc(cid)}">{_err("id")}{_err("actions")}'
                f'<div class="tr-decl-rows">{"".join(rows)}</div>'
                f'<button type="submit" class="primary">Declare for {esc(c["name"])}</button></form>')
        forms.append(_decl_fold(c, decl, cid in is_open) + form + "</details>" if folded else form)
    if not forms:
        return ""
    # one child per form: a declaration rewrites its declarer's form only
    return Block('<details class="tr-box tr-declarations" open>', [
        '<summary>Declarations</summary>',
        '<p class="hint">At most one Full and one Half action (or two Half). Each action lands in its phase.</p>',
        Block(f'<div class="tr-decl-forms{" tr-decl-folded" if folded else ""}">', forms, "</div>")], "</details>")


def _decl_fold(c: dict[str, Any], decl: list[dict[str, Any]], open_: bool, lazy: bool = False) -> str:
    """The opening of one folded declaration, down to its summary: the name and what is declared,
    so the GM reads the round at a glance and opens only the one to change. ``lazy``: drawn
    without its form; the page's toggle listener (App.on_toggle) renders when it opens."""
    cid = c["id"]
    said = "; ".join(f'{d["title"]} ({d["cost"]}){" ✓" if d.get("done") else ""}' for d in decl) or "nothing declared"
    return (fold_open("tr-decl-fold tr-lazy", f"decl-{cid}", open_, lazy, f' data-id="{esc(cid)}"')
            + fold_summary(f'<strong>{esc(c["name"])}</strong> <span class="hint">{esc(said)}</span>',
                           f"fold-decl-{cid}", f'Declarations of {c["name"]}'))


def attack_html(view: dict[str, Any], pre: dict[str, Any], open_: bool = True,
                ranges: dict[str, Any] | None = None) -> str:
    combatants = view.get("combatants", [])
    living = [c for c in combatants if not _out_of_action(c)]
    attacker = pre.get("id") or (living[0]["id"] if living else "")
    who = [(c["id"], c["name"]) for c in living]  # the fallen attack nobody (issue 32)
    groups = ""
    for c in living:
        opts = "".join(
            f'<option value="{esc(c["id"])}:{w["index"]}"'
            f'{" selected" if c["id"] == attacker and str(pre.get("weapon", "")) == str(w["index"]) else ""}>'
            f'{esc(w["name"])} (CMB {w["cmb_now"]}, {esc(w["state"])})</option>' for w in c.get("weapons", []))
        groups += f'<optgroup label="{esc(c["name"])}">{opts}</optgroup>'
    # the default target: the declared one while they stand, else the nearest living enemy on the
    # map (``pre["nearest"]``, from ``rules.default_target``), never an ally (issues 10 and 32)
    side = next((c.get("side") for c in combatants if c["id"] == attacker), None)
    others = [c for c in combatants if c["id"] != attacker]
    standing = {c["id"] for c in others if not _out_of_action(c) and c.get("side") != side}
    target = pre.get("target") if pre.get("target") in standing else ""
    target = target or pre.get("nearest") or next((c["id"] for c in others if c["id"] in standing), "")
    targets = [(c["id"], c["name"]) for c in others]
    flags = "".join(_check(f"tr-att-{k}", k, label, bool(pre.get(k))) for k, label in FLAGS)
    flags += _check("tr-att-los", "line_of_sight", "Line of sight (ranged)", bool(pre.get("line_of_sight", False)))
    body = (
        f'<form class="tr-form tr-attack" data-form="tr-attack" novalidate aria-label="Attack">{_general_err()}'
        '<div class="tr-grid">'
        + _field("tr-att-id", "id", "Attacker", _select("tr-att-id", "id", who, attacker))
        + _field("tr-att-weapon", "weapon", "Weapon",
                 _select("tr-att-weapon", "weapon", [("", "(the wielded one)")], "" if pre.get("weapon") in (None, "")
                         else f'{attacker}:{pre.get("weapon")}', groups))
        + _field("tr-att-target", "target", "Target", _select("tr-att-target", "target", targets, target))
        + "</div>"
        + f'<fieldset class="tr-flags"><legend>Circumstances</legend>{flags}{_err("line_of_sight")}</fieldset>'
        # the dice where the eye goes after the circumstances, the distance beside them (issue 33: the
        # range-band list pushed the dice field down, and the form ended 9 px above a laptop's bottom)
        + '<div class="tr-grid tr-roll-row">'
        + _field("tr-att-roll", "rolls.attack", "Open-ended d100",
                 _input("tr-att-roll", "rolls.attack", "", "text", "e.g. 98 40"),
                 "Every d100 rolled (98 40); blank: Fray rolls", "tr-roll")
        + _field("tr-att-distance", "distance", "Distance (m)", _input("tr-att-distance", "distance", "", "decimal"),
                 "blank: from the map", "tr-distance")
        + "</div>"
        # one button (issue 33: "two buttons "Attack" and "Roll and attack""): blank dice, Fray rolls
        + '<div class="tr-actions odds-beside"><button type="submit" class="primary">Attack</button>'
        + odds_view.slot() + "</div>" + ranges_html(ranges) + "</form>")
    return (f'<details class="tr-box tr-attack-box"{" open" if open_ else ""}>'
            f'<summary>Attack</summary>{body}</details>')


def pending_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The attacks awaiting the GM's table result. The first ``PENDING_SHOWN`` are shown whole;
    each further one is a one-line fold-out (who, whom, the total) whose form is drawn when it
    opens (``ui.pending_open``, ``ui.pending_drawn``, as for the declarations)."""
    pend = view.get("pending", [])
    if not pend:
        return ""
    ui = ui or TacticalRoundUi()
    names = _names(view)
    sev = view.get("severities", [])
    out = []
    for i, p in enumerate(pend):
        if i >= PENDING_SHOWN:
            out.append(_pending_fold(p, names, ui, lambda p=p: _pending_article(p, names, sev)))
            continue
        out.append(_pending_article(p, names, sev))
    n = len(pend)
    title = "Awaiting the attack table" + (f" ({n})" if n > PENDING_SHOWN else "")
    # one child per result waiting: applying one removes its article, not all of them
    return Block('<section class="tr-box tr-pending-list" aria-label="Awaiting the GM">',
                 [f'<h3>{title}</h3>', *out], "</section>")


def _pending_fold(p: dict[str, Any], names: dict[str, str], ui: dict[str, Any], article: Any) -> str:
    ref = p["ref"]
    drawn = ref in ui.pending_drawn
    total = f'total {p["total"]}' if p["stage"] == "attack" else f'critical {p.get("critical", "")}'
    line = (f'{esc(ref)}: {esc(names.get(p["attacker"], p["attacker"]))} → '
            f'{esc(names.get(p["target"], p["target"]))} <span class="hint">{esc(total)}</span>')
    return (fold_open("tr-pending-fold tr-lazy", f"pending-{ref}", ref in ui.pending_open, not drawn)
            + fold_summary(line, f"fold-pending-{ref}") + (article() if drawn else "") + "</details>")


def _pending_article(p: dict[str, Any], names: dict[str, str], sev: list[Any]) -> str:
    """One attack awaiting the GM: its total and breakdown, and the form for the table's result
    (or, once a critical is named, for its effects)."""
    ref = p["ref"]
    head = (f'{esc(ref)}: {esc(names.get(p["attacker"], p["attacker"]))} → {esc(names.get(p["target"], p["target"]))}'
            f' with {esc(p["weapon"])}')
    notes = "".join(f"<li>{esc(n)}</li>" for n in p.get("notes", []))
    notes = f'<ul class="tr-notes">{notes}</ul>' if notes else ""
    fid = f"tr-{ref}"
    if p["stage"] == "attack":
        crit_opts = [("", "none")] + [(s, s) for s in sev]
        form = (
            f'<form class="tr-form" data-form="tr-result" data-ref="{esc(ref)}" novalidate '
            f'aria-label="Result of {esc(ref)}">{_general_err()}'
            f'<input type="hidden" name="ref" value="{esc(ref)}">{_err("ref")}<div class="tr-grid">'
            + _field(fid + "-hits", "hits", "Hits", _input(fid + "-hits", "hits", "0"))
            + _field(fid + "-crit", "critical", "Critical", _select(fid + "-crit", "critical", crit_opts, ""))
            + _field(fid + "-croll", "rolls.critical", "Critical d100",
                     _input(fid + "-croll", "rolls.critical", "", "text"), "blank: Fray rolls")
            + '</div><div class="tr-actions"><button type="submit" class="primary">Apply result</button>'
            + _btn("Dismiss", "tr-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref)
            + "</div></form>")
        return (
            f'<article class="tr-pending" data-ref="{esc(ref)}" aria-label="Attack {esc(ref)}">'
            f'<h4>{head}</h4><p class="tr-total">Total <strong class="tr-total-value">{esc(p["total"])}</strong></p>'
            f'<p class="tr-breakdown">{esc(p["text"])}</p>{notes}{form}</article>')
    else:
        form = (
            f'<form class="tr-form" data-form="tr-critical" data-ref="{esc(ref)}" novalidate '
            f'aria-label="Critical effects of {esc(ref)}">{_general_err()}'
            f'<input type="hidden" name="ref" value="{esc(ref)}">{_err("ref")}<div class="tr-grid">'
            + _field(fid + "-chits", "hits", "Extra hits", _input(fid + "-chits", "hits", "0"))
            + _field(fid + "-stun", "stunned_rounds", "Stunned rounds", _input(fid + "-stun", "stunned_rounds", "0"))
            + "</div>"
            + _check(fid + "-prone", "prone", "Knocked prone")
            + _field(fid + "-text", "text", "Effect (text)", _input(fid + "-text", "text", "", "text"))
            + '<div class="tr-actions"><button type="submit" class="primary">Apply critical</button>'
            + _btn("Dismiss", "tr-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref)
            + "</div></form>")
    return (
        f'<article class="tr-pending critical" data-ref="{esc(ref)}" aria-label="Critical {esc(ref)}">'
        f'<h4>{head}: critical {esc(p.get("critical", ""))}</h4>'
        f'<p class="tr-total">Critical roll <strong class="tr-total-value">{esc(p.get("critical_roll", ""))}</strong></p>'
        f'<p class="tr-breakdown">{esc(p.get("critical_text", ""))}</p>{form}</article>')


# -- inside each card --------------------------------------------------------------------------

def card_html(view: dict[str, Any], cid: str, ui: dict[str, Any] | None = None) -> str:
    """A combatant's card: conditions, weapons, parry; cover, damage / heal and running away in
    fold-outs drawn when they first open (``ui``: ``tr_card_open`` and ``tr_card_drawn``, from
    ``TacticalRoundPanel._lazy_folds``; None: all drawn). Shut, they were 70 of the 200 elements of
    the acting combatant's card, drawn again on every Next."""
    c = _combatant(view, cid)
    if c is None:
        return ""
    names = _names(view)
    # whom a parry is against: the standing enemies first, then allies and the fallen (issue 32: a
    # parry's "Against" started on an ally, as the default targets did)
    def _rank(k: str) -> int:
        o = _combatant(view, k) or {}
        return (0 if o.get("side") != c.get("side") and "neutral" not in (o.get("side"), c.get("side")) else 1) + (
            2 if _out_of_action(o) else 0)
    others = sorted(((k, v) for k, v in names.items() if k != cid), key=lambda kv: _rank(kv[0]))
    hp = c["hp"]
    state = []
    cond_names = [x["name"] for x in c["conditions"]]
    for key, label in (("dying", "Dying"), ("incapacitated", "Incapacitated"), ("bruised", "Bruised")):
        if key in cond_names:
            state.append(f'<span class="tr-badge hp-{key}">{label}</span>')
    p = f"tr-{cid}"
    out = ['<div class="tr-card">']
    out.append(f'<p class="tr-hp">HP <strong class="tr-hp-value">{esc(hp["current"])}</strong>'
               f' / {esc(hp["max"])} {"".join(state)}</p>')
    out.append(f'<p class="tr-def">DEF <strong class="tr-def-value">{esc(c["def"]["total"])}</strong>'
               f' <small>{esc(c["def"]["text"])}</small></p>')
    conds = [x for x in c["conditions"]]
    if conds:
        items = []
        for x in conds:
            extra = f' ({c["stunned_rounds"]} round{"s" if c["stunned_rounds"] != 1 else ""})' \
                if x["name"] == "stunned" and c.get("stunned_rounds") else ""
            title = x["name"].capitalize()
            text = x["text"] or ""
            if text.lower().startswith(x["name"].lower()):
                # the text already says it ("Engaged with Grak"): not "Engaged: Engaged with Grak"
                items.append(f'<li><strong>{esc(text)}{esc(extra)}</strong></li>')
                continue
            items.append(f'<li><strong>{esc(title)}{esc(extra)}</strong>'
                         f'{": " + esc(text) if text else ""}</li>')
        out.append(f'<ul class="tr-conds" aria-label="Conditions">{"".join(items)}</ul>')
    down = _out_of_action(c)
    # weapons
    ws = []
    for w in c["weapons"]:
        cmb = f'CMB {w["cmb_now"]}' + (f' (of {w["cmb"]})' if w["cmb_now"] != w["cmb"] else "")
        btns = ""
        if down:
            pass  # the fallen are offered nothing (issue 32)
        elif w["kind"] in ("missile", "thrown") and not w["loaded"]:
            label = "Ready" if w["kind"] == "thrown" else "Reload"
            btns += _btn(label, "tr-reload", "", aria=f"{label} {w['name']}", id=cid, weapon=w["index"])
        if not w["wielded"] and not down:
            btns += _btn("Wield", "tr-wield", "secondary", aria=f"Wield {w['name']}", id=cid, weapon=w["index"])
        ws.append(f'<li class="{"wielded" if w["wielded"] else ""}"><span class="wn">{esc(w["name"])}'
                  f'{" (in hand)" if w["wielded"] else ""}</span> <span class="wc">{esc(cmb)}</span> '
                  f'<span class="ws">{esc(w["state"])}</span>{btns}</li>')
    out.append(f'<div class="tr-scope tr-weapons">{_general_err()}<ul aria-label="Weapons">{"".join(ws)}</ul></div>')
    # parry
    par = c["parry"]
    now = (f'Parrying {par["amount"]} against {", ".join(names.get(x, x) for x in par["against"])}'
           if par["amount"] else "No parry")
    shield = any(w["shield"] and w["wielded"] for w in c["weapons"])
    if shield and others:
        against = ('<fieldset class="tr-against"><legend>Against</legend>'
                   + "".join(_check(f"{p}-pa-{i}", f"against.{i}", n, oid in par["against"], oid)
                             for i, (oid, n) in enumerate(others))
                   + f'{_err("against")}</fieldset>')
    else:
        sel = par["against"][0] if par["against"] else (others[0][0] if others else "")
        against = _field(f"{p}-pa-against", "against", "Against", _select(f"{p}-pa-against", "against", others, sel))
    if down:
        # issue 32: the fallen get no forms; the GM brings them back by healing (below) or removes them
        out.append('<p class="tr-now-line tr-fallen">Out of the fight: no actions. Heal to bring them back, '
                   'or remove them from the fight.</p>')
    elif c["can_parry"]:
        out.append(
            f'<form class="tr-form tr-parry" data-form="tr-parry" data-id="{esc(cid)}" novalidate '
            f'aria-label="Parry for {esc(c["name"])}">{_general_err()}'
            f'<p class="tr-now-line">{esc(now)} · {esc(par["why"])}</p><div class="tr-grid">'
            + _field(f"{p}-pa-amount", "amount", "Parry (CMB → DEF)",
                     _input(f"{p}-pa-amount", "amount", par["amount"] or ""))
            + against + '</div><div class="tr-actions"><button type="submit">Parry</button></div></form>')
    else:
        out.append(f'<p class="tr-now-line">Cannot parry: {esc(par["why"])}</p>')
    # cover
    covers = ", ".join(f'{x["type"]} (+{x["bonus"]}) against {"everyone" if x["against"] == "all" else names.get(x["against"], x["against"])}'
                       for x in c["cover"]) or "none"
    if not down:
        out.append(_card_fold("cover", cid, f"Cover: {esc(covers)}", ui, lambda: (
        f'<form class="tr-form tr-cover" data-form="tr-cover" data-id="{esc(cid)}" novalidate '
        f'aria-label="Cover for {esc(c["name"])}">{_general_err()}<div class="tr-grid">'
        + _field(f"{p}-cv-cover", "cover", "Cover", _select(f"{p}-cv-cover", "cover", [(k, k) for k in COVER_KINDS], "partial"))
        + _field(f"{p}-cv-against", "against", "Against", _select(f"{p}-cv-against", "against",
                                                                      [("all", "everyone")] + others, "all"))
        + '</div><div class="tr-actions"><button type="submit">Set cover</button>'
        + _btn("Dive behind it", "tr-dive-cover", "secondary", aria=f"{c['name']} dives behind cover (Free Action)", id=cid)
        + _btn("Dive prone", "tr-dive-prone", "secondary", aria=f"{c['name']} dives prone (Free Action)", id=cid)
        + "</div></form>")))
    # hp
    out.append(_card_fold("hp", cid, "Damage / heal", ui, lambda: (
        f'<form class="tr-form tr-hpform" data-form="tr-hp" data-id="{esc(cid)}" novalidate '
        f'aria-label="Damage or heal {esc(c["name"])}">{_general_err()}'
        + _field(f"{p}-hp-hits", "hits", "Hits", _input(f"{p}-hp-hits", "hits", ""))
        + '<div class="tr-actions"><button type="submit">Damage</button>'
        + _btn("Heal", "tr-heal", "secondary", aria=f"Heal {c['name']}", id=cid)
        + "</div></form>")))
    # running away
    if c["engaged_with"] and not down:
        rows = "".join(_field(f"{p}-ra-{oid}", f"rolls.athletics.{oid}", f"{names.get(oid, oid)}'s Athletics d100",
                              _input(f"{p}-ra-{oid}", f"rolls.athletics.{oid}", "", "text"))
                       for oid in c["engaged_with"])
        ra = c.get("run_away")
        res = ""
        if ra:
            res = "<p class=\"tr-now-line\">" + esc("; ".join(f"{names.get(k, k)}: {v}" for k, v in ra["vs"].items())) + "</p>"
        out.append(_card_fold("run", cid, "Run away", ui, lambda: (
            f'{res}<form class="tr-form tr-run" data-form="tr-run-away" data-id="{esc(cid)}" novalidate '
            f'aria-label="Run away: {esc(c["name"])}">{_general_err()}{_err("attackers")}<div class="tr-grid">'
            + _field(f"{p}-ra-flee", "rolls.flee", "Flee d100", _input(f"{p}-ra-flee", "rolls.flee", "", "text"),
                     "blank: Fray rolls")
            + rows + '</div><div class="tr-actions"><button type="submit">Run away</button></div></form>')))
    out.append("</div>")
    return "".join(out)


# a card's fold-outs drawn when they first open: their keys are these, then the combatant's id
CARD_FOLDS = ("tr-cover-", "tr-hp-", "tr-run-")


def _card_fold(what: str, cid: str, summary: str, ui: dict[str, Any] | None, body: Callable[[], str]) -> str:
    key = f"tr-{what}-{cid}"
    if ui is None:  # drawn (the tests', and any caller's, that has no page to read fold-outs from)
        return lazy_fold("tr-more tr-lazy", key, summary, body, False, True)
    return lazy_fold("tr-more tr-lazy", key, summary, body, key in ui.card_open,
                     key in ui.card_drawn)


# -- the add form's weapons section ------------------------------------------------------------------
# One weapon a line, folded into the dialog's JSON box ("combatant.extra") on submit: the box stays
# the one place the weapons live. A line the parser cannot read, or that the engine's own weapon
# check refuses, is named at the weapons field and nothing is added.

WEAPON_KINDS = ("melee", "missile", "thrown", "unarmed", "natural", "spell")
WEAPONS_HINT = ("One weapon a line: name, CMB, kind (melee, missile, thrown, unarmed, natural, spell), "
                "base range in m (missile, thrown, spell), reload rounds (missile), then flags: quick_load, "
                "two_handed, shield=15 (its DEF bonus), length=3, unloaded. "
                "For example: Light crossbow, 50, missile, 30, 1, quick_load, two_handed")
_BARE_FLAGS = {"quick_load": ("quick_load", True), "two_handed": ("two_handed", True),
               "unloaded": ("loaded", False), "loaded": ("loaded", True)}
_KEYED = {"shield": "shield", "length": "length", "range": "base_range", "base_range": "base_range",
          "reload": "reload"}


def _g(n: Any) -> str:
    return f"{n:g}" if isinstance(n, float) else str(n)


def weapons_text(weapons: Any) -> str:
    """The engine's weapons as lines ``name, CMB, kind[, base range[, reload]][, flags]``."""
    lines = []
    for w in weapons if isinstance(weapons, list) else []:
        if not isinstance(w, dict):
            continue
        kind = w.get("kind", "melee")
        cols = [str(w.get("name", "")), _g(w.get("cmb", "")), str(kind)]
        flags = []
        reload = w.get("reload")
        if w.get("base_range") is not None:
            cols.append(_g(w["base_range"]))
            if kind == "missile" and reload not in (None, ""):
                cols.append(_g(reload))
        elif kind == "missile" and reload not in (None, ""):
            flags.append(f"reload={_g(reload)}")
        flags += [f for f in ("quick_load", "two_handed") if w.get(f)]
        if w.get("shield"):
            flags.append(f"shield={_g(w['shield'])}")
        if w.get("length"):
            flags.append(f"length={_g(w['length'])}")
        if w.get("loaded") is False and kind in ("missile", "thrown"):
            flags.append("unloaded")
        lines.append(", ".join(cols + flags))
    return "\n".join(lines)


def parse_weapons(text: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The lines back to the engine's weapon objects, with the line number of each.

    Numbers the engine must judge (a CMB of "lots", kind "laser") pass through as typed, so its
    weapon check names them; a line whose shape is wrong raises ``InvalidAction("combatant.weapons",
    "Line N: ...")``."""
    out: list[dict[str, Any]] = []
    lines: list[int] = []
    for n, cols in split_lines(text):
        name = cols[0]
        where = f"Line {n}" + (f" ({name})" if name else "")
        if not name:
            raise InvalidAction("combatant.weapons", f"{where}: start the line with the weapon's name")
        if len(cols) < 2 or cols[1] == "":
            raise InvalidAction("combatant.weapons", f"{where}: give the CMB after the name (name, CMB, kind, ...)")
        w: dict[str, Any] = {"name": name, "cmb": as_int(cols[1])}
        if len(cols) > 2 and cols[2]:
            w["kind"] = cols[2].lower()
        numbers = ["base_range", "reload"]
        for col in cols[3:]:
            if col == "":
                if numbers:
                    numbers.pop(0)  # "Spear, 40, thrown, , , length=3": a blank keeps its place
                continue
            key, eq, val = col.partition("=")
            key = key.strip().lower().replace(" ", "_").replace("-", "_")
            if eq:
                field = _KEYED.get(key)
                if field is None:
                    raise InvalidAction("combatant.weapons", f"{where}: unknown flag {col!r} (flags: quick_load, "
                                                             "two_handed, shield=N, length=N, unloaded)")
                val = val.strip()
                w[field] = as_int(val) if field in ("shield", "reload") else as_number(val)
                if field in numbers:
                    numbers.remove(field)
            elif key in _BARE_FLAGS:
                field, v = _BARE_FLAGS[key]
                w[field] = v
            elif numbers and as_number(col) != col:
                field = numbers.pop(0)
                w[field] = as_int(col) if field == "reload" else as_number(col)
            else:
                raise InvalidAction("combatant.weapons", f"{where}: {col!r} is not a {'number or a ' if numbers else ''}"
                                                         "flag (flags: quick_load, two_handed, shield=N, length=N, "
                                                         "unloaded)")
        out.append(w)
        lines.append(n)
    return out, lines


def check_weapons_lines(weapons: Any, lines: list[int]) -> None:
    """The engine's own weapon check, its error moved to the weapons field and named by line."""
    from fray.games.tactical_round.combatant import check_weapons

    try:
        check_weapons(weapons, "weapons")
    except InvalidAction as e:
        parts = e.field.split(".")
        msg = str(e).split(": ", 1)[-1]
        if len(parts) >= 2 and parts[1].isdigit() and isinstance(weapons, list) and int(parts[1]) < len(weapons):
            i = int(parts[1])
            n = lines[i] if i < len(lines) else i + 1
            w = weapons[i]
            name = w.get("name") if isinstance(w, dict) else None
            what = {"cmb": "CMB", "base_range": "base range"}.get(parts[2], parts[2].replace("_", " ")) \
                if len(parts) > 2 else ""
            msg = f"Line {n}{f' ({name})' if name else ''}: {what + ' ' if what else ''}{msg}"
        raise InvalidAction("combatant.weapons", msg) from None


def add_fields_html(extra: dict[str, Any] | None) -> str:
    """The weapons section of the add form (its errors land on ``combatant.weapons``)."""
    text = weapons_text((extra or {}).get("weapons", []))
    rows = max(3, min(8, text.count("\n") + 2))
    return (
        '<fieldset class="tr-add"><legend>Weapons</legend>'
        '<div class="field" data-field="combatant.weapons"><label for="f-tr-weapons">Weapons, one a line</label>'
        f'<textarea id="f-tr-weapons" name="tr_weapons" rows="{rows}" spellcheck="false" autocapitalize="off" '
        f'aria-describedby="f-tr-weapons-hint">{esc(text)}</textarea>'
        f'<small class="hint" id="f-tr-weapons-hint">{esc(WEAPONS_HINT)}</small>{_err("combatant.weapons")}</div>'
        '<p class="hint">Folded into the JSON below when you press Add.</p></fieldset>')


def add_extra(values: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON box's fields with the typed weapon lines (unchanged lines keep the box's weapons)."""
    out = dict(extra or {})
    text = values.get("tr_weapons", "") or ""
    if text.strip() != weapons_text(out.get("weapons", [])).strip():
        weapons, _ = parse_weapons(text)
        if weapons:
            out["weapons"] = weapons
        else:
            out.pop("weapons", None)
    return out


def fold_weapons(values: dict[str, Any]) -> None:
    """``values["combatant.extra"]`` with the typed weapons folded in, after the engine's weapon
    check; raises ``InvalidAction("combatant.weapons", "Line N ...")`` and leaves values as they were."""
    extra = read_extra(values.get("combatant.extra", ""))
    if extra is None:
        return  # not a JSON object: the app names it at its box
    text = values.get("tr_weapons", "") or ""
    if text.strip() != weapons_text(extra.get("weapons", [])).strip():
        weapons, lines = parse_weapons(text)
    else:
        weapons = extra.get("weapons")
        lines = list(range(1, len(weapons) + 1)) if isinstance(weapons, list) else []
    if weapons:
        check_weapons_lines(weapons, lines)
    fold_extra(values, add_extra)


# -- the controller side ---------------------------------------------------------------------------

def attack_action(values: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The ``tr.attack`` the attack form describes (without dice), or why it cannot be read."""
    cid = values.get("id")
    action: dict[str, Any] = {"type": "tr.attack", "id": cid, "target": values.get("target")}
    weapon = values.get("weapon") or ""
    if weapon:
        owner, _, idx = weapon.rpartition(":")
        if owner != cid:
            return action, "that weapon belongs to someone else: choose one of the attacker's weapons"
        action["weapon"] = as_int(idx)
    for k, _ in FLAGS:
        if values.get(k):
            action[k] = True
    action["line_of_sight"] = bool(values.get("line_of_sight"))
    dist = (values.get("distance") or "").strip()
    if dist:
        action["distance"] = as_number(dist)
    return action, ""


class TacticalPanel(GamePanel):
    FORMS = ("tr-declare", "tr-attack", "tr-result", "tr-critical", "tr-parry", "tr-cover", "tr-hp", "tr-run-away",
             "add-combatant")
    ui_type = TacticalRoundUi  # its part of the page's view state (fray.web.uistate)
    ACTS = ("tr-resolve", "tr-skip", "tr-go-on", "tr-quick-attack", "tr-reload", "tr-wield", "tr-dismiss",
            "tr-dive-prone", "tr-dive-cover", "tr-heal", "add-combatant", "use-preset", "advance")

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        kinds = None
        try:
            kinds = app.ruleset.table(app.enc, "declared_actions")["entries"]
        except Exception:
            kinds = None
        ranges = None
        try:
            enc = app.enc
            who = (app.ui.part(self).attack or {}).get("id")
            if not who and view.get("phase", {}).get("id") in ("ranged_a", "ranged_b", "spell_a", "spell_b"):
                who = next_attack(view).get("id")
            ranges = map_ranges(enc, app.ruleset.all_tables(enc), who)
        except Exception:
            ranges = None  # a hint only: never let it blank the panel
        self._lazy_folds(app, view)
        odds_view.refresh_soon(app)
        if not getattr(self, "_listening", False):
            from fray.web.dom import document
            self._listening = True
            app._listen(document, "change", lambda e: self.on_change(app, e))
        ui = app.ui.part(self)
        try:
            pre = self.attack_defaults(app, view)
            if pre:
                ui = dataclasses.replace(ui, attack=pre)
        except Exception:  # noqa: BLE001 - a default only: never let it blank the panel
            pass
        return panel_html(view, ui, kinds, ranges)

    @staticmethod
    def on_change(app: Any, event: Any) -> None:
        """An Action chosen in a declaration: its Weapon starts on the one that fits it and, for an
        attack, its Target on the nearest standing enemy (``rules.declare_defaults``), so declaring
        an attack is the action and Declare, two taps, not four (issue 33). A target the GM already
        chose stays; the form is not drawn again (what else is chosen in it stays too)."""
        from fray.games.tactical_round import rules
        from fray.web.dom import data, nil, q

        t = nil(event.target)
        name = str(getattr(t, "name", "") or "") if t is not None else ""
        row, _, rest = name.removeprefix("actions.").partition(".")
        if not name.startswith("actions.") or rest != "action" or not row.isdigit():
            return
        form = nil(t.closest('form[data-form="tr-declare"]'))
        if form is None:
            return
        weapon, target = rules.declare_defaults(app.enc, data(form, "id") or "", str(t.value or ""))
        wsel = q(form, f'[name="actions.{row}.weapon"]')
        if wsel is not None:
            wsel.value = "" if weapon is None else str(weapon)
        tsel = q(form, f'[name="actions.{row}.target"]')
        if tsel is not None and target and not str(tsel.value or ""):
            tsel.value = target

    @staticmethod
    def show_below_the_bar(el: Any) -> None:
        """Scroll ``el`` to just under what sticks to the top of the page above it: the tracker's
        head (round bar, order strip, the acting line) on a tablet, the round bar on a laptop
        (scrollIntoView put it under them). Only what lies over ``el``'s column counts: on a laptop
        the strip sticks in a column of its own, and counting it put ``el`` 600 px down."""
        from fray.web.dom import by_id, document

        if el is None:
            return
        import js

        box = el.getBoundingClientRect()
        bottom = 0
        for b in (document.querySelector(".tracker-head"), by_id("round-bar"), by_id("order-strip")):
            if b is None or js.getComputedStyle(b).position != "sticky":
                continue
            r = b.getBoundingClientRect()
            if r.height > 0 and r.left < box.right and r.right > box.left:
                bottom = max(bottom, r.height)  # stuck at the top, it ends at its height
        js.window.scrollBy(0, box.top - bottom - 8)

    @staticmethod
    def attack_defaults(app: Any, view: dict[str, Any]) -> dict[str, Any]:
        """The attack form's start: the quick-attack's or the phase's next open attack, with the
        nearest living enemy as the target when none is declared or the declared one has fallen,
        and Line of sight from what the map and the GM's last answer know (issue 33: "Line of sight
        starts unticked on every ranged attack ... start it from what the map and the GM's last
        answer know"): the GM's last answer for this attacker and target, else ticked when nobody
        stands on the line between them."""
        from fray.maprules import in_the_way
        from fray.games.tactical_round import rules

        pre = dict(app.ui.part(self).attack or next_attack(view))
        if not pre.get("id"):
            return {}
        enc = app.enc
        a = enc.get(pre["id"])
        if a is None:
            return {}
        pre["nearest"] = rules.default_target(enc, a.id)
        tgt = enc.get(pre.get("target") or "")
        if tgt is None or rules.fallen(tgt) or tgt.side == a.side:
            tgt = enc.get(pre["nearest"])
        if tgt is not None and "line_of_sight" not in pre:
            said = app.ui.part(self).los.get(f"{a.id}>{tgt.id}")
            pre["line_of_sight"] = said if said is not None else not in_the_way(enc, a, tgt)
        return pre

    @staticmethod
    def _lazy_folds(app: Any, view: dict[str, Any]) -> None:
        """Which folded declarations and waiting results the page shows open now (one query, the
        open ones only: at 200 combatants reading every fold-out's state was 400 calls into the
        page), and which have had their form drawn. Outside the phases that show the declarations
        theirs are let go, so a new round starts with them all shut; a result's, once it is gone."""
        is_open = {k for k, v in app.ui.folds.items() if v}
        # a card's cover, damage / heal and running away: drawn once opened, while its combatant is here
        cards = {f"{p}{c['id']}" for c in view.get("combatants", []) for p in CARD_FOLDS}
        ui = app.ui.part(PANEL)
        ui.card_open = {k for k in is_open if k in cards}
        ui.card_drawn = (ui.card_drawn | ui.card_open) & cards
        decl = {k[len("decl-"):] for k in is_open if k.startswith("decl-")}
        pend = {k[len("pending-"):] for k in is_open if k.startswith("pending-")}
        waiting = {p["ref"] for p in view.get("pending", [])}
        ui.pending_open = pend
        ui.pending_drawn = (ui.pending_drawn | pend) & waiting
        if view.get("phase", {}).get("id") not in ("setup", "assessment", "declaration"):
            ui.decl_open, ui.decl_drawn = set(), set()
            return
        ui.decl_open = decl
        ui.decl_drawn = ui.decl_drawn | decl

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        return card_html(view, combatant_id, app.ui.part(self))

    def holds(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """The weapon in hand, for the acting combatant's essentials line (render.acting_line)."""
        c = _combatant(view, combatant_id)
        return [w["name"] for w in (c or {}).get("weapons", []) if w.get("wielded")]

    def uses(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """What it uses in this phase: the weapons (or spells) of its declared actions of this phase
        not done yet. Issue 33: the line said "Holds Broadsword" while Hero 3 threw his dagger in
        Ranged A. None outside such a phase: then the line says what it holds."""
        c = _combatant(view, combatant_id) or {}
        weapons = c.get("weapons", [])
        out: list[str] = []
        for d in c.get("declared", []):
            i = d.get("weapon")
            if d.get("done") or d.get("phase") != view["phase"]["id"] or i in (None, ""):
                continue
            i = int(i)
            if 0 <= i < len(weapons) and weapons[i]["name"] not in out:
                out.append(weapons[i]["name"])
        return out

    # -- clicks
    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act == "advance":
            # Next, passing over phases in which nobody acts, then bring the stepper into view: the
            # declarations or a pending result above may have gone, leaving the GM among the cards.
            from fray.web.dom import by_id

            if not app.dispatch({"type": "advance", "skip_empty": True, "ask": True}, by_id("round-bar")):
                # stopped: say what is open, with Resolve / Skip it and Go on (issue 32)
                app.ui.part(self).asked = [app.enc.round, app.enc.phase]
                app.render()
                box = by_id("tr-open")
                if box is not None:
                    # the box says what is open, with what to do: the same words again in the round
                    # bar, with the rule's name, added nothing (issue 33)
                    app.clear_errors(by_id("round-bar"))
                self.show_below_the_bar(box)
                return True
            app.ui.part(self).asked = None
            if True:
                stepper = by_id("tr-stepper")
                bar = by_id("round-bar")
                if stepper is not None and bar is not None and \
                        stepper.getBoundingClientRect().top < bar.getBoundingClientRect().bottom:
                    stepper.scrollIntoView(True)
            return True
        if act not in self.ACTS:
            return False
        if act in ("add-combatant", "use-preset"):
            # the generic dialog, then the one-weapon-a-line section filled from its JSON box
            open_add_section(app, act, el, "tr-add", add_fields_html)
            return True
        from fray.web.dom import data, nil
        from fray.web.forms import form_values

        cid = data(el, "id")
        form = nil(el.closest("form"))
        scope = form if form is not None else nil(el.closest(".tr-scope, article, .tr-box"))
        if act == "tr-resolve":
            app.dispatch({"type": "tr.resolve", "id": cid}, scope)
        elif act == "tr-skip":
            app.dispatch({"type": "tr.skip", "id": cid, "action": as_int(data(el, "index"))}, scope)
        elif act == "tr-go-on":
            from fray.web.dom import by_id
            if app.dispatch({"type": "advance", "skip_empty": True, "ask": True, "go_on": True}, scope):
                app.ui.part(self).asked = None
                stepper = by_id("tr-stepper")
                if stepper is not None:
                    stepper.scrollIntoView(True)
        elif act == "tr-quick-attack":
            w = data(el, "weapon")
            app.ui.part(self).attack = {"id": cid, "weapon": as_int(w) if w else None, "target": data(el, "target") or ""}
            app.render()
            from fray.web.dom import by_id
            roll = by_id("tr-att-roll")
            if roll is not None:
                roll.focus()
        elif act in ("tr-reload", "tr-wield"):
            app.dispatch({"type": "tr.reload" if act == "tr-reload" else "tr.wield", "id": cid,
                          "weapon": as_int(data(el, "weapon"))}, scope)
        elif act == "tr-dismiss":
            app.dispatch({"type": "tr.dismiss", "ref": data(el, "ref")}, scope)
        elif act == "tr-dive-prone":
            app.dispatch({"type": "tr.dive_for_cover", "id": cid, "aware": True, "to": "prone"}, scope)
        elif act == "tr-dive-cover" and form is not None:
            v = form_values(form)
            app.dispatch({"type": "tr.dive_for_cover", "id": cid, "aware": True, "to": "cover",
                          "cover": v.get("cover"), "against": v.get("against", "all")}, form)
        elif act == "tr-heal" and form is not None:
            v = form_values(form)
            hits = as_int(v.get("hits", ""))
            app.dispatch({"type": "tr.adjust_hp", "id": cid, "hits": -hits if isinstance(hits, int) else hits}, form)
        return True

    # -- submits
    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        if form_name == "add-combatant":
            if "tr_weapons" in values:
                try:
                    fold_weapons(values)
                except InvalidAction as e:
                    app.clear_errors(form)
                    app.show_error(form, e)
                    return True  # nothing added
            return False  # the generic handler adds it (stats, name, side) with these weapons
        from fray.web.dom import data

        cid = data(form, "id")
        if form_name == "tr-declare":
            self.declare(app, form, values)
        elif form_name == "tr-attack":
            self.attack(app, form, values)
        elif form_name == "tr-result":
            action: dict[str, Any] = {"type": "tr.apply_result", "ref": values.get("ref"),
                                      "hits": as_int(values.get("hits", "")), "critical": values.get("critical") or None}
            if action["critical"] is not None:
                rolls = self.rolls(app, form, values, ("critical",))
                if rolls is False:
                    return True
                if rolls:
                    action["rolls"] = rolls
            app.dispatch(action, form)
        elif form_name == "tr-critical":
            action = {"type": "tr.apply_critical", "ref": values.get("ref"), "hits": as_int(values.get("hits", "0") or "0"),
                      "stunned_rounds": as_int(values.get("stunned_rounds", "0") or "0"),
                      "prone": bool(values.get("prone"))}
            if values.get("text"):
                action["text"] = values["text"]
            app.dispatch(action, form)
        elif form_name == "tr-parry":
            from fray.web.dom import q
            amount = as_int(values.get("amount", "") or "0")
            if "against" in values:
                against: Any = values.get("against")
            else:
                against = []
                for k, v in values.items():
                    if k.startswith("against.") and v is True:
                        el = q(form, f'[name="{k}"]')
                        if el is not None:
                            against.append(el.value)
            app.dispatch({"type": "tr.parry", "id": cid, "amount": amount, "against": against}, form)
        elif form_name == "tr-cover":
            app.dispatch({"type": "tr.cover", "id": cid, "cover": values.get("cover"),
                          "against": values.get("against", "all")}, form)
        elif form_name == "tr-hp":
            app.dispatch({"type": "tr.adjust_hp", "id": cid, "hits": as_int(values.get("hits", ""))}, form)
        elif form_name == "tr-run-away":
            names = ["flee"] + [k[len("rolls."):] for k in values if k.startswith("rolls.athletics.")]
            rolls = self.rolls(app, form, values, names)
            if rolls is False:
                return True
            action = {"type": "tr.run_away", "id": cid}
            if rolls:
                action["rolls"] = rolls
            app.dispatch(action, form)
        return True

    def rolls(self, app: Any, form: Any, values: dict[str, Any], names: Any) -> dict[str, list[int]] | bool:
        """Typed dice of the form: {name: [ints]}; False (error shown) if one is not whole numbers."""
        out: dict[str, list[int]] = {}
        for n in names:
            try:
                got = parse_dice(values.get(f"rolls.{n}", "") or "")
            except ZeroFace:
                app.clear_errors(form)
                app.show_error(form, InvalidAction(f"rolls.{n}", ZERO_FACE))
                return False
            except ValueError as e:
                app.clear_errors(form)
                app.show_error(form, InvalidAction(f"rolls.{n}", f"type the dice as whole numbers separated by "
                                                                 f"spaces (not {e.args[0]!r}), or leave it blank to roll"))
                return False
            if got is not None:
                out[n] = got
        return out

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """The odds of the attack as the form is set now (never rolls)."""
        if form_name != "tr-attack":
            return None
        from fray.games.tactical_round.odds import AttackOdds, attack_odds

        action, err = attack_action(values)
        return odds_view.open_ended_html(AttackOdds(error=err) if err else attack_odds(app.ruleset, app.enc, action))

    def attack(self, app: Any, form: Any, values: dict[str, Any]) -> None:
        action, err = attack_action(values)
        if err:
            app.clear_errors(form)
            app.show_error(form, InvalidAction("weapon", err))
            return
        rolls = self.rolls(app, form, values, ("attack",))  # blank: Fray rolls
        if rolls is False:
            return
        if rolls:
            action["rolls"] = rolls
        if app.dispatch(action, form):
            app.ui.part(self).attack = None
            a = app.enc.get(action["id"])
            ws = a.data.get("weapons", []) if a is not None else []
            wi = action.get("weapon", a.data.get("wielding", 0) if a is not None else 0)
            if isinstance(wi, int) and 0 <= wi < len(ws) and ws[wi].get("kind") in ("missile", "thrown", "spell"):
                # the GM's answer for this pair: the next attack between them starts from it
                app.ui.part(self).los[f"{action['id']}>{action['target']}"] = bool(action["line_of_sight"])
            app.render()
            # the result goes in next: its Hits field takes the typing with no tap (issue 33)
            from fray.web.dom import document
            found = document.querySelectorAll("article.tr-pending input[name=hits]")
            if found.length:
                hits = found.item(found.length - 1)
                hits.focus()
                hits.select()  # the typed number replaces the 0 in it

    def declare(self, app: Any, form: Any, values: dict[str, Any]) -> None:
        rows: list[int] = []
        acts = []
        for i in range(DECLARE_ROWS):
            kind = values.get(f"actions.{i}.action") or ""
            if not kind:
                continue
            d: dict[str, Any] = {"action": kind}
            w = values.get(f"actions.{i}.weapon") or ""
            if w != "":
                d["weapon"] = as_int(w)
            t = values.get(f"actions.{i}.target") or ""
            if t:
                d["target"] = t
            rows.append(i)
            acts.append(d)

        def field_map(f: str) -> str:
            parts = f.split(".")
            if len(parts) >= 2 and parts[0] == "actions" and parts[1].isdigit() and int(parts[1]) < len(rows):
                parts[1] = str(rows[int(parts[1])])
            return ".".join(parts)

        if app.dispatch({"type": "tr.declare", "id": values.get("id"), "actions": acts}, form, field_map):
            self.to_next_declaration(app, values.get("id") or "")

    def to_next_declaration(self, app: Any, after: str) -> None:
        """After a declaration, the next form of someone who has not declared takes the focus, its
        top just under the sticky round bar (and, on a tablet, the order strip) rather than under
        them (issue 33: "the sticky round bar covers the top of the declarations"). Folded forms
        (a crowd) are left shut."""
        import js

        from fray.web.dom import data, document, q

        declared = app.enc.state.get("declared", {})
        forms = [f for f in document.querySelectorAll('form[data-form="tr-declare"]')]
        ids = [data(f, "id") for f in forms]
        later = forms[ids.index(after) + 1:] + forms[:ids.index(after)] if after in ids else forms
        nxt = next((f for f in later if data(f, "id") not in declared and f.checkVisibility()), None)
        if nxt is None:
            return
        sel = q(nxt, '[name="actions.0.action"]')
        if sel is not None:
            sel.focus(js.Object.fromEntries([["preventScroll", True]]))
        self.show_below_the_bar(nxt)


PANEL = TacticalPanel()  # found by the ruleset's ``panel = "fray.games.tactical_round.web.panel"``

__all__: list[str] = ["PANEL", "TacticalPanel", "panel_html", "card_html", "parse_dice", "parse_weapons",
                      "weapons_text", "add_fields_html", "add_extra", "fold_weapons"]
