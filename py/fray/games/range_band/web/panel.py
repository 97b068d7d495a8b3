"""The range-band panel: zone settings, the round (turn order, movement phase, turns), the current
combatant's movement or actions, every pending roll as its roll specification, and on each card
stealth, flight and altitude band, mount, breath, statuses and who this combatant cannot see.

Rendering is pure (``panel_html`` here and ``card_html`` in ``range_band/card.py`` take the
ruleset's ``view()``; every piece of user text goes through ``esc``); the forms are read into
actions by ``range_band/read.py``. The handlers read a form, build one ``rb.*`` action and call
``app.dispatch(action, form)``. Every control's ``name`` is the engine's field path for that
action (``level``, ``mount``, ``x``, ``by``) beside a ``data-error-for`` slot of the same name, so
an engine error lands beside the control and the encounter is unchanged.

Rolls are two steps, as the engine keeps them: an action that calls for a roll leaves a pending
roll whose specification (die, stat, TN with its parts, Hindrance and Easing with their reasons,
blunder, what success and failure do) is shown before anyone rolls. The GM enters the result of
their own dice (success or failure, by how much) or lets Fray roll it with the default mechanic,
which is *assumed* (table ``core_roll``) and marked so.
"""

from __future__ import annotations

from typing import Any

from fray.chance import percent
from fray.errors import InvalidAction
from fray.web import odds_view
from fray.web.blocks import Block
from fray.web.panels import GamePanel
from fray.web.render import esc
from fray.games.range_band.web.ui import RangeBandUi
from fray.games.range_band.web.card import ADD_KEYS, add_extra, add_fields_html, card_html  # noqa: F401 - the card, the add form
from fray.games.range_band.web.common import (ATTACK_FLAGS, DICE, LIGHT_TEXT, MORE, MOVE_FLAGS, PHASES, ROLL_STATS, _check, _g,
                                _general_err, _id_checks, _preview_slot, checked_ids)
from fray.games.range_band.web.read import (act_action, area_action, attack_action, more_action, move_action,  # noqa: F401
                              resolve_action, zone_action)
from fray.web.widgets import (act_button as _btn, as_int, as_number, combatant_in as _combatant, err_slot as _err,
                      field as _field, fold_open, lazy_fold, names_in as _names, open_add_section, read_extra,
                      select as _select, text_input as _input)


# -- the roll specification ---------------------------------------------------------------------------

def spec_html(spec: dict[str, Any]) -> str:
    """A roll specification before anyone rolls: die on stat, TN and its parts, Hindrance and
    Easing with their reasons, blunder, what success and failure do."""
    tn = spec.get("tn", {})
    tn_parts = "".join(f" {'+' if p['value'] >= 0 else '−'} {esc(p['reason'])} {abs(int(p['value']))}"
                       for p in tn.get("parts", []))
    rows = [f'<li class="rb-tn"><span class="k">TN</span> <strong class="rb-tn-value">{esc(tn.get("total"))}</strong>'
            f' = {esc(spec.get("stat"))} {esc(spec.get("stat_value"))}{tn_parts}</li>']
    for key, label in (("hindrance", "Hindrance"), ("easing", "Easing")):
        part = spec.get(key, {})
        reasons = ", ".join(f"+{int(p['count'])} {esc(p['reason'])}" for p in part.get("parts", []))
        rows.append(f'<li class="rb-{key}"><span class="k">{label}</span> '
                    f'<strong class="rb-{key}-value">{esc(part.get("total", 0))}</strong>'
                    + (f" ({reasons})" if reasons else "") + "</li>")
    rows.append(f'<li class="rb-blunder">{"can blunder" if spec.get("can_blunder") else "cannot blunder"}'
                + ("; a blind roll: the GM rolls it unseen" if spec.get("blind") else "") + "</li>")
    if spec.get("auto"):
        rows.append(f'<li class="rb-auto">{esc(spec["auto"].get("reason", ""))}</li>')
    if spec.get("success"):
        rows.append(f'<li class="rb-success"><span class="k">Success</span> {esc(spec["success"])}</li>')
    if spec.get("failure"):
        rows.append(f'<li class="rb-failure"><span class="k">Failure</span> {esc(spec["failure"])}</li>')
    rows += [f'<li class="rb-note">{esc(n)}</li>' for n in spec.get("notes", [])]
    return (f'<p class="rb-spec-head"><strong>{esc(spec.get("what", "Roll"))}</strong>: '
            f'<span class="rb-die">{esc(spec.get("die"))} on {esc(spec.get("stat"))}</span>'
            f' <span class="rule">({esc(spec.get("rule", ""))})</span></p>'
            f'<ul class="rb-spec" aria-label="Roll specification">{"".join(rows)}</ul>')


def pending_html(view: dict[str, Any]) -> str:
    names = _names(view)
    out = []
    for n, p in enumerate(view.get("pending", [])):
        ref = p["ref"]
        pre = f"rb-res-{ref}"
        who = names.get(p.get("combatant"), p.get("combatant", ""))
        prompt = p.get("prompt", "")
        head = prompt if prompt.startswith(who) else f"{who}: {prompt}"
        outcome = (f'<fieldset class="rb-outcome"><legend>The GM\'s result</legend>'
                   f'<label class="rb-check" for="{pre}-s"><input type="radio" id="{pre}-s" name="success" '
                   f'value="yes"> Success</label>'
                   f'<label class="rb-check" for="{pre}-f"><input type="radio" id="{pre}-f" name="success" '
                   f'value="no"> Failure</label>{_err("success")}</fieldset>'
                   + _field(f"{pre}-by", "by", "By how much", _input(f"{pre}-by", "by", "0"))
                   + _check(f"{pre}-bl", "blunder", "Blunder"))
        out.append(
            f'<form class="rb-pending rb-box" data-form="rb-resolve" data-ref="{esc(ref)}" novalidate '
            f'aria-label="Pending roll {esc(ref)}: {esc(p["spec"].get("what", ""))}">'
            f'<h4><span class="rb-ref">{esc(ref)}</span> {esc(head)}</h4>'
            f'{spec_html(p["spec"])}'
            f'<div class="rb-row">{outcome}</div>'
            f'<div class="rb-row rb-buttons"><button type="submit" class="primary">Apply result</button>'
            f'{_field(f"{pre}-dice", "rolls.roll", "Dice for Fray (blank = Fray rolls)", _input(f"{pre}-dice", "rolls.roll", "", placeholder="e.g. 7 12"), cls="rb-dice")}'
            f'{_btn("Let Fray roll (assumed default)", "rb-roll", "secondary", ref=ref)}'
            f'{_btn("Dismiss", "rb-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref)}</div>'
            f'{odds_view.slot()}'
            # said once, on the first roll to settle: every "Let Fray roll" button says "assumed" too
            + (ASSUMED_HINT if n == 0 else "") + f'{_general_err()}</form>')
    for p in view.get("prompts", []):
        if p.get("kind") in NOTE_KINDS:
            continue  # a note with no roll: one folded line (notes_html), never a box of its own
        ref = p["ref"]
        done = _btn("Done", "rb-dismiss", "secondary", aria=f"Done with {ref}", ref=ref)
        out.append(f'<div class="rb-prompt rb-box" role="note"><p><span class="rb-ref">{esc(ref)}</span> '
                   f'{esc(names.get(p.get("combatant"), ""))}: {esc(p.get("text", ""))}</p>{done}{_err("ref")}</div>')
    if not out:
        return ""
    return f'<section class="rb-rolls" aria-labelledby="rb-rolls-h"><h3 id="rb-rolls-h">Rolls to settle</h3>{"".join(out)}</section>'


ASSUMED_HINT = ('<p class="hint rb-assumed-once">Fray\'s rolls use the default mechanic of table core_roll, '
                '<span class="badge assumed">assumed</span>: not in the published rules. The log says so in full '
                'once, then "assumed mechanic" on each roll it made.</p>')

# the engine's notes of the moment (turns.MOMENT): no roll, so they never stand in the way of what happens now
NOTE_KINDS = ("warning", "detection", "noise")


def notes_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The notes that need no roll (a stealth attack's may-an-ally-warn paragraphs, a call for a detection roll), as
    one line: folded, with Done all; each still readable and Done on its own inside. Left open they expire at the
    end of their round, logged (issue 33: three of them pushed round 2's movement form off a tablet's screen)."""
    names = _names(view)
    notes = [p for p in view.get("prompts", []) if p.get("kind") in NOTE_KINDS]
    if not notes:
        return ""
    rows = "".join(
        f'<li class="rb-note-item"><p><span class="rb-ref">{esc(p["ref"])}</span> '
        f'{esc(names.get(p.get("combatant"), ""))}: {esc(p.get("text", ""))}</p>'
        + _btn("Done", "rb-dismiss", "small secondary", aria=f"Done with {p['ref']}", ref=p["ref"]) + "</li>"
        for p in notes)
    is_open = bool(ui.folds.get("rb-notes")) if ui else False
    what = {"warning": "warning", "detection": "detection call", "noise": "noise"}
    kinds = ", ".join(dict.fromkeys(what[p["kind"]] for p in notes))
    refs = " ".join(p["ref"] for p in notes)
    return (f'<div class="rb-gm-notes rb-box" role="note">'
            + fold_open("rb-notes-fold rb-keep", "rb-notes", is_open)
            + f'<summary>{len(notes)} note{"s" if len(notes) > 1 else ""} ({esc(kinds)}), no roll needed'
            '<span class="hint"> · they expire at the end of the round</span></summary>'
            f'<ul class="rb-note-list">{rows}</ul></details>'
            + _btn("Done all", "rb-dismiss-all", "small secondary", aria=f"Done with all {len(notes)} notes",
                   refs=refs)
            + f'{_err("refs")}</div>')


# -- the panel ---------------------------------------------------------------------------------------

TURN_DICE = ("d6", "d8", "d10", "d12", "d20", "d100")


def roll_all_html(missing: int, total: int) -> str:
    """One tap for every missing turn order (``rb.roll_turn_order``); each value stays typeable."""
    return (f'<form class="rb-roll-all rb-row" data-form="rb-roll-order" novalidate aria-label="Roll turn order for all">'
            f'<button type="submit" class="primary">Roll turn order for all</button>'
            + _field("rb-ro-die", "die", "Die", _select("rb-ro-die", "die", [(d, d) for d in TURN_DICE], "d20"),
                     hint="assumed: the rule text gives no turn-order roll")
            + _field("rb-ro-stat", "stat", "Plus", _select("rb-ro-stat", "stat", [("", "nothing"), ("DEX", "DEX"),
                                                                                   ("INT", "INT"), ("SPD", "SPD")], ""))
            + f'<span class="hint">{missing} of {total} without a turn order; typed ones are kept</span>'
            + _general_err() + '</form>')


def hold_html(view: dict[str, Any], ui: dict[str, Any]) -> str:
    """What stops a Next (issue 32): before the round starts, who has no turn order yet; during it, the rolls
    still open. The GM resolves them, skips them (logged) or goes on; nothing is dropped without a word."""
    hold = ui.hold
    phase = view.get("phase", {}).get("id", "setup")
    names = _names(view)
    if hold == "order" and phase == "setup":
        outs = {c["id"] for c in view.get("combatants", []) if c.get("out")}
        who = [t["name"] for t in view.get("turn_order", []) if t.get("value") is None and t["id"] not in outs]
        if not who:
            return ""
        return (f'<div class="rb-hold rb-box" role="alertdialog" aria-labelledby="rb-hold-h" id="rb-hold">'
                f'<h3 id="rb-hold-h">No turn order yet for {len(who)}</h3><p>{esc(", ".join(who))}: without a turn '
                'order they act after everyone with one, in the order they were added.</p>'
                f'<div class="rb-row">{_btn("Roll turn order for all", "rb-roll-order", "primary")}'
                f'{_btn("Start anyway", "rb-next-anyway", "secondary")}{_btn("Back", "rb-hold-cancel", "secondary")}'
                f'</div>{_err("rb-hold")}</div>')
    if hold == "open" and phase in ("movement", "actions"):
        rows = []
        for p in view.get("pending", []):
            who = names.get(p.get("combatant"), "")
            rows.append(f'<li><span class="rb-ref">{esc(p["ref"])}</span> {esc(who)}: {esc(p["spec"].get("what", "roll"))} '
                        + _btn("Resolve", "rb-hold-resolve", "small primary", aria=f"Resolve {p['ref']}", ref=p["ref"])
                        + "</li>")
        if not rows:
            return ""
        return (f'<div class="rb-hold rb-box" role="alertdialog" aria-labelledby="rb-hold-h" id="rb-hold">'
                f'<h3 id="rb-hold-h">Still open before Next</h3><ul class="rb-hold-list">{"".join(rows)}</ul>'
                f'<div class="rb-row">{_btn("Skip them and go on", "rb-next-skip", "secondary")}'
                f'{_btn("Back", "rb-hold-cancel", "secondary")}</div>'
                '<p class="hint">Skipping is written in the log; nothing is rolled.</p>'
                f'{_err("rb-hold")}</div>')
    return ""

def zone_html(view: dict[str, Any], open_: bool = False) -> str:
    z = view.get("zone", {})
    ch = view.get("choices", {})
    bands = ch.get("bands", ["engaged", "short", "medium", "long", "travel"])
    summary = (f'{LIGHT_TEXT.get(z.get("light"), z.get("light"))}, {esc(z.get("clutter"))} clutter'
               + (", enclosed" if z.get("enclosed") else "") + (", underwater" if z.get("underwater") else "")
               + (", no air" if not z.get("air", True) and not z.get("underwater") else "")
               + (f", flight to {esc(z.get('flight_ceiling'))}" if z.get("flight_allowed") else
                  f", no flight ({esc(z.get('why_no_flight'))})"))
    dmg = z.get("damage_factors")
    body = (
        '<div class="rb-grid">'
        + _field("rb-z-light", "light", "Light", _select("rb-z-light", "light",
                 [(x, LIGHT_TEXT.get(x, x)) for x in ch.get("light", LIGHT_TEXT)], z.get("light")))
        + _field("rb-z-clutter", "clutter", "Clutter", _select("rb-z-clutter", "clutter",
                 [(x, x) for x in ch.get("clutter", ("low", "medium", "high"))], z.get("clutter")))
        + _field("rb-z-ceiling", "flight_ceiling", "Flight ceiling", _select("rb-z-ceiling", "flight_ceiling",
                 [("none", "no flight")] + [(b, b) for b in bands], z.get("flight_ceiling")))
        + '</div><div class="rb-row">'
        + _check("rb-z-enclosed", "enclosed", "Enclosed (indoor, underground)", bool(z.get("enclosed")))
        + _check("rb-z-underwater", "underwater", "Underwater", bool(z.get("underwater")))
        + _check("rb-z-narrow", "narrow", "Narrow passage", bool(z.get("narrow")))
        + _check("rb-z-air", "air", "Breathable air", bool(z.get("air", True)))
        + '</div>'
        + (f'<p class="hint">Underwater: heat does {dmg["heat"]}% damage, frost {dmg["frost"]}%; no knockdowns; '
           'SPD 25% unless amphibious.</p>' if dmg else "")
        + '<p class="hint">Who sees whom comes from light, clutter and stealth level through the visible-range '
          'chart <span class="badge assumed">assumed</span> (Tables to edit it).</p>'
        + '<div class="rb-row"><button type="submit" class="primary">Set zone</button></div>' + _general_err())
    return (f'<details class="rb-zone rb-box"{" open" if open_ else ""}><summary>Zone: <span class="rb-zone-summary">'
            f'{summary}</span></summary><form data-form="rb-zone" novalidate aria-label="Zone settings">{body}'
            f'</form></details>')


def areas_html(view: dict[str, Any], open_: bool = False) -> str:
    """Obscuring areas (zone data): the marked ones with a Clear button each, and the form to mark one."""
    ch = view.get("choices", {})
    areas = view.get("areas", [])
    rows = "".join(
        f'<li class="rb-area" data-ref="{esc(a["ref"])}"><span class="rb-ref">{esc(a["ref"])}</span> '
        f'<strong>{esc(a["name"])}</strong> <span class="rb-area-what">{esc(a["title"])}, to {esc(a["radius"])} '
        f'range ({_g(a["metres"])} m) around ({_g(a["x"])}, {_g(a["y"])}) m'
        + (f', from altitude {_g(a["alt"])} m' if a.get("alt") else "") + "</span>"
        + _btn("Clear", "rb-clear-area", "small secondary", aria=f"Clear {a['name']} ({a['ref']})", area=a["ref"])
        + "</li>" for a in areas)
    kinds = [(k["key"], k["title"]) for k in ch.get("area_kinds", [])]
    bands = [(b, b) for b in ch.get("area_bands", ("engaged", "short", "medium", "long"))]
    form = (
        '<form data-form="rb-area" novalidate aria-label="Mark an obscuring area"><div class="rb-grid">'
        + _field("rb-ar-kind", "kind", "What", _select("rb-ar-kind", "kind", kinds))
        + _field("rb-ar-x", "x", "Centre east (x, m)", _input("rb-ar-x", "x", "", "decimal"))
        + _field("rb-ar-y", "y", "Centre north (y, m)", _input("rb-ar-y", "y", "", "decimal"))
        + _field("rb-ar-r", "radius", "Out to", _select("rb-ar-r", "radius", bands, "short"),
                 hint="a band around the point (metres: table bands, assumed)")
        + _field("rb-ar-alt", "alt", "From altitude (m)", _input("rb-ar-alt", "alt", "0", "decimal"),
                 hint="water: its surface")
        + _field("rb-ar-depth", "depth", "Water depth (m)", _input("rb-ar-depth", "depth", "", "decimal"),
                 hint="water only: below its surface is underwater")
        + _field("rb-ar-name", "name", "Name (optional)", _input("rb-ar-name", "name", "", "text", "e.g. smoke grenade"))
        + '</div><div class="rb-row"><button type="submit" class="secondary">Mark the area</button></div>'
        '<p class="hint">What each kind does to sight and movement: table obscuring (Lack of Sight); who sees '
        'whom follows at once. Water: who is below its surface is underwater (Underwater Combat).</p>' + _general_err() + '</form>')
    summary = (f'Obscuring areas and water: {len(areas)} marked' + (" (" + ", ".join(esc(a["name"]) for a in areas) + ")"
                                                          if areas else " (smoke, fog, obstacles, darkness)"))
    # open while setting up with areas marked; in the fight its summary names them, and the round comes first
    setup = view.get("phase", {}).get("id", "setup") == "setup"
    return (f'<details class="rb-areas rb-box"{" open" if open_ or (areas and setup) else ""}><summary>{summary}</summary>'
            f'<ul class="rb-area-list" aria-label="Marked areas">{rows}</ul>{form}</details>')


ONE_TURN_ORDER_FORM_FROM = 13


def round_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    phase = view.get("phase", {}).get("id", "setup")
    steps = "".join(f'<li class="{"current" if pid == phase else ""}"'
                    f'{" aria-current=step" if pid == phase else ""}>{esc(t)}</li>' for pid, t in PHASES)
    acting = view.get("acting", [])
    names = _names(view)
    order_rows = []
    turn_order = view.get("turn_order", [])
    # Past a dozen, after setup, one form sets any turn order: 200 rows of a form each kept
    # Chrome's form scan (autofill) busy 150 ms after every Next, before the autosave could run.
    one_form = phase != "setup" and len(turn_order) >= ONE_TURN_ORDER_FORM_FROM
    outs = {c["id"]: c.get("out") or [] for c in view.get("combatants", [])}
    for t in turn_order:
        cid = t["id"]
        slot = next((a for a in acting if a["combatant"] == cid), None)
        cur = slot is not None and slot.get("current")
        mount = (_combatant(view, cid) or {}).get("mount")
        note = (slot.get("label", "") if slot and phase != "setup" else
                (f"rides {names.get(mount, 'its mount')}: moves with it" if phase == "movement" and mount else ""))
        fallen = ""
        if outs.get(cid):
            # issue 32: the fallen stay in the order, greyed, with no form; the GM removes them or brings them back
            note = "out of the fight: " + ", ".join(outs[cid])
            nm = names.get(cid, cid)
            fallen = (f'<span class="rb-fallen-acts">{_btn("Bring back", "rb-bring-back", "small secondary", aria=f"Bring {nm} back into the fight", id=cid)}'
                      f'{_btn("Remove", "remove-combatant", "small secondary", aria=f"Remove {nm} from the fight", id=cid)}</span>')
        fid = f"rb-to-{cid}"
        order_rows.append(
            f'<li class="rb-slot{" current" if cur else ""}{"" if slot or phase == "setup" else " idle"}'
            f'{" fallen" if outs.get(cid) else ""}" '
            f'data-id="{esc(cid)}"{" aria-current=step" if cur else ""}>'
            f'<span class="who">{esc(names.get(cid, cid))}</span>'
            f'<span class="why">{esc(note)}</span>{fallen}'
            + (f'<span class="rb-to-value">{"turn " + esc(t.get("value")) if t.get("value") is not None else "no turn order"}'
               '</span></li>' if one_form else '')
            + ('' if one_form else
            f'<form class="rb-to" data-form="rb-turn-order" data-id="{esc(cid)}" novalidate>'
            f'<label for="{fid}" class="visually-hidden">Turn order of {esc(names.get(cid, cid))}</label>'
            f'{_input(fid, "value", t.get("value"), placeholder="turn")}'
            f'<button type="submit" class="small" aria-label="Set the turn order of {esc(names.get(cid, cid))}">Set'
            f'</button>{_err("value")}</form></li>'))
    one = ""
    if one_form:
        one = (f'<form class="rb-to rb-to-one" data-form="rb-turn-order" novalidate '
               f'aria-label="Set a turn order">{_general_err()}'
               + _field("rb-to-id", "id", "Combatant",
                        _select("rb-to-id", "id", [(t["id"], names.get(t["id"], t["id"])) for t in turn_order], ""))
               + _field("rb-to-value", "value", "Turn order", _input("rb-to-value", "value", None, placeholder="turn"))
               + '<button type="submit">Set the turn order</button></form>')
    hint = ('Type each turn-order result (higher acts first), or roll them all at once; set the zone, then start '
            'the round.' if phase == "setup" else view.get("phase", {}).get("note", ""))
    missing = [t for t in turn_order if t.get("value") is None and not outs.get(t["id"])]
    if missing:
        one = roll_all_html(len(missing), len(turn_order)) + one
    # a Block (web/blocks.py): a Next rewrites the two rows whose turn it was and is, not all of them
    rows = Block('<ol class="rb-order" aria-label="Turn order">', order_rows, "</ol>")
    if phase != "setup":
        # issue 33: on a tablet the order strip above already lists all fourteen; the list (where the GM types a
        # turn order, brings back or removes the fallen) is folded there, one tap away; open on a laptop
        ui = ui or RangeBandUi()
        key = "rb-order"
        is_open = ui.folds.get(key, not ui.narrow)
        summary = (f'<summary>Turn order list ({len(turn_order)}): set a value, bring back or remove the '
                   'fallen</summary>')
        rows = Block(fold_open("rb-order-fold rb-keep", key, is_open), [summary, rows, one], "</details>")
        one = ""
    return Block('<div class="rb-round rb-box" id="rb-round">', [
        f'<ol class="rb-steps" aria-label="Phases">{steps}</ol>', f'<p class="hint">{esc(hint)}</p>',
        rows, one], "</div>")


def _targets(view: dict[str, Any], cid: str,
             positions: dict[str, tuple[float, float, float]] | None = None) -> list[tuple[str, str]]:
    """Everyone but ``cid``, the default (first) being the nearest enemy still in the fight (issue 32: never
    one's own mount, an ally or the fallen): enemies in the fight by distance, then the others in the
    fight (allies, one's own mount or rider), then the fallen, marked so."""
    import math

    me = _combatant(view, cid) or {}
    partner = {me.get("mount"), me.get("rider")} - {None}
    here = (positions or {}).get(cid)

    def far(c: dict[str, Any]) -> float:
        p = (positions or {}).get(c["id"])
        if here is None or p is None:
            return 0.0
        return max(math.hypot(p[0] - here[0], p[1] - here[1]), abs(p[2] - here[2]))

    def rank(c: dict[str, Any]) -> tuple:
        fallen = bool(c.get("out"))
        enemy = c.get("side") != me.get("side") and c["id"] not in partner
        return (fallen, not enemy, far(c))

    others = sorted((c for c in view.get("combatants", []) if c["id"] != cid), key=rank)
    return [(c["id"], c["name"] + (f' ({", ".join(c["out"])})' if c.get("out") else "")
             + (" (own mount)" if c["id"] == me.get("mount") else "")
             + (" (own rider)" if c["id"] == me.get("rider") else "")) for c in others]


def movement_html(view: dict[str, Any], c: dict[str, Any], pos: tuple[float, float, float]) -> str:
    cid = c["id"]
    pre = "rb-mv"
    x, y, alt = pos
    flags = "".join(_check(f"{pre}-{k}", k, label) for k, label in MOVE_FLAGS
                    if k != "drop_high_stealth" or c["stealth"]["level"] == "high")
    fly = ""
    if c.get("can_fly") and not view.get("zone", {}).get("underwater"):
        fly = (_btn("Land (stop flying)" if c.get("flying") else "Take off (fly)", "rb-fly", "secondary",
                    id=cid, on="false" if c.get("flying") else "true"))
    descend = ""
    if c.get("flying") and not view.get("zone", {}).get("underwater"):
        descend = (f'<form class="rb-descend" data-form="rb-descend" data-id="{esc(cid)}" novalidate '
                   f'aria-label="Descend without a roll">'
                   + _field("rb-ds-alt", "alt", "Descend to altitude (m), no roll", _input("rb-ds-alt", "alt", _g(alt),
                                                                                        "decimal"))
                   + '<button type="submit" class="secondary">Descend</button></form>')
    ambush = ""
    if c["stealth"]["level"] == "high" or (c.get("moved") or {}).get("success"):
        ambush = (f'<div class="rb-row">{_btn("Ambush movement (stealth roll)", "rb-ambush", "secondary", id=cid)}'
                  '<span class="hint">after a successful move of at least short range, begun in High Stealth</span>'
                  '</div>')
    result = ""
    mv = c.get("moved") or {}
    if mv.get("round") == view.get("round") and mv.get("success") is not None:
        by = f' by {_g(mv["by"])}' if mv.get("by") is not None else ""
        result = (f'<p class="rb-result rb-result-{"ok" if mv["success"] else "fail"}" role="status">'
                  + (f'Movement roll succeeded{by}: {esc(c["name"])} moved' if mv["success"] else
                     f'Movement roll {"BLUNDERED" if mv.get("blunder") else "failed"}{by}: {esc(c["name"])} stays put')
                  + "</p>")
    if c.get("underwater_spd"):
        spd_name, spd = "underwater SPD", c["underwater_spd"]["value"]
    elif c.get("flying"):
        spd_name, spd = "flying SPD", c["flying_spd"]["value"]
    else:
        spd_name, spd = "SPD", c["stats"].get("SPD")
    return (
        f'<div class="rb-acting rb-box" data-id="{esc(cid)}"><h3>Movement: {esc(c["name"])}</h3>{result}'
        f'<p class="hint">Movement roll on {spd_name} {esc(spd)}; drag the token on the map (or type where) to '
        'choose where to; the roll '
        'specification shows below as you choose (a preview), then under Rolls to settle. Switch flight at the start '
        'or end of the movement.</p>'
        f'<form data-form="rb-move" data-id="{esc(cid)}" novalidate aria-label="Move {esc(c["name"])}">'
        '<div class="rb-grid">'
        + _field(f"{pre}-x", "x", "East (x, m)", _input(f"{pre}-x", "x", _g(x), "decimal"))
        + _field(f"{pre}-y", "y", "North (y, m)", _input(f"{pre}-y", "y", _g(y), "decimal"))
        + _field(f"{pre}-alt", "alt", "Altitude (m)", _input(f"{pre}-alt", "alt", _g(alt), "decimal"))
        + f'</div><div class="rb-row">{flags}</div>{_preview_slot()}'
        f'<div class="rb-row"><button type="submit" class="primary">Movement roll</button>{fly}</div>'
        f'{_general_err()}</form>{descend}{ambush}{_err("rb-acting")}</div>')


def actions_html(view: dict[str, Any], c: dict[str, Any], ui: dict[str, Any] | None = None,
                 positions: dict[str, tuple[float, float, float]] | None = None) -> str:
    cid = c["id"]
    pre = "rb-at"
    weapons = c.get("traits", {}).get("weapons", [])
    w_opts = [(str(i), f'{w["name"]} ({w["kind"]}{", " + ", ".join(w["tags"]) if w.get("tags") else ""})')
              for i, w in enumerate(weapons)] or [("", "unarmed (melee)")]
    targets = _targets(view, cid, positions)
    warn = [("", "nobody")] + [t for t in targets]
    flags = "".join(_check(f"{pre}-{k}", k, label) for k, label in ATTACK_FLAGS)
    # Melee needs engaged range; beyond it the engine refuses unless the GM allows it with a reason the log keeps
    override = ('<details class="rb-override"><summary>Melee beyond engaged range? Allow it (GM)</summary>'
                + _field(f"{pre}-override", "override", "Reason (kept in the log)",
                         _input(f"{pre}-override", "override", "", "text"))
                + '</details>') if not weapons or any(w.get("kind") == "melee" for w in weapons) else ""
    attack = (
        f'<form data-form="rb-attack" data-id="{esc(cid)}" novalidate aria-label="Attack by {esc(c["name"])}">'
        '<h4>Attack</h4><div class="rb-grid">'
        + _field(f"{pre}-target", "target", "Target", _select(f"{pre}-target", "target", targets))
        + _field(f"{pre}-weapon", "weapon", "Weapon", _select(f"{pre}-weapon", "weapon", w_opts))
        + _field(f"{pre}-die", "die", "Die", _select(f"{pre}-die", "die", [(d, d) for d in DICE], "d20"),
                 hint="the core roll's die: assumed d20")
        + _field(f"{pre}-stat", "stat", "On stat", _select(f"{pre}-stat", "stat", [(s, s) for s in ROLL_STATS], "DEX"))
        + _field(f"{pre}-size", "size", "Action", _select(f"{pre}-size", "size",
                                                           [(s, s) for s in ("major", "minor", "free")], "major"))
        + _field(f"{pre}-warn", "warned_by", "Target warned by", _select(f"{pre}-warn", "warned_by", warn))
        + f'</div><div class="rb-row">{flags}</div>{override}{_preview_slot()}'
        '<div class="rb-row">'
        + _btn("Roll it (Fray's dice)", "rb-attack-roll", "primary", id=cid)
        + '<button type="submit" class="secondary">Offense roll</button>'
        '<span class="hint">Roll it: the attack and Fray\'s roll in one tap; Offense roll: for your own dice</span>'
        '</div>'
        f'{_general_err()}</form>')
    st = c["stealth"]
    stealth_btns = []
    for lv in ("low", "medium", "high"):
        if lv == st["level"]:
            continue
        why = st["can_enter"].get(lv)
        label = {"low": "Revert to Low Stealth (free)", "medium": "Enter Medium Stealth (free)",
                 "high": "Enter High Stealth (stealth roll, major)"}[lv]
        stealth_btns.append(_btn(label, "rb-stealth", "secondary", id=cid, level=lv) if not why else
                            f'<span class="rb-why">{esc(label)}: {esc(why)}</span>')
    if st["level"] == "high":
        stealth_btns.append(_btn("Maintain High Stealth (major)", "rb-maintain", "secondary", id=cid))
    other = (
        f'<form data-form="rb-act" data-id="{esc(cid)}" novalidate aria-label="Another action by {esc(c["name"])}">'
        '<h4>Other action</h4><div class="rb-grid">'
        + _field("rb-ac-size", "size", "Size", _select("rb-ac-size", "size",
                                                       [(s, s) for s in view.get("choices", {}).get(
                                                           "action_sizes", ("major", "minor", "free"))]))
        + _field("rb-ac-what", "what", "What", _input("rb-ac-what", "what", "", "text", "e.g. draw a weapon"))
        + _field("rb-ac-target", "target", "Affects", _select("rb-ac-target", "target", [("", "nobody in particular")]
                                                              + targets))
        + _field("rb-ac-fatigue", "fatigue", "Fatigue cost (Ability)", _input("rb-ac-fatigue", "fatigue", "0"),
                 hint="taken at once on use")
        + '</div><div class="rb-row">'
        + _check("rb-ac-dex", "dex_roll", "Needs a DEX roll") + _check("rb-ac-verbal", "verbal", "Verbal")
        + _check("rb-ac-light", "light", "Emits notable light")
        + _check("rb-ac-unwilling", "unwilling", "The target is unwilling") + _err("unwilling")
        + f'</div>{_preview_slot()}<div class="rb-row"><button type="submit" class="secondary">Take the action</button></div>'
        f'{_general_err()}</form>')
    detect = (
        f'<form data-form="rb-detect" data-id="{esc(cid)}" novalidate aria-label="Detection rolls against '
        f'{esc(c["name"])}"><h4>Detection rolls against {esc(c["name"])}</h4><div class="rb-grid">'
        + _field("rb-dt-die", "die", "Die (the GM may alter it)", _select("rb-dt-die", "die", [(d, d) for d in DICE],
                                                                          "d20"))
        + '</div>' + _id_checks(view, "rb-dt-o", "observers", "Who rolls (none ticked: every able opponent)", cid)
        + f'{_preview_slot()}<div class="rb-row"><button type="submit" class="secondary">Detection rolls</button></div>'
        f'{_general_err()}</form>')
    extras = []
    if st["level"] == "high" or (c.get("ambush") is None and (c.get("moved") or {}).get("success")):
        extras.append(_btn("Ambush movement (stealth roll)", "rb-ambush", "secondary", id=cid))
    b = c.get("breath", {})
    if b.get("holding") or b.get("out") or b.get("rolls"):
        extras.append(_btn("Catch breath", "rb-catch-breath", "secondary", id=cid))
    return (f'<div class="rb-acting rb-box" data-id="{esc(cid)}"><h3>Turn: {esc(c["name"])}</h3>'
            f'{_used_html(c)}{attack}'
            f'<div class="rb-row rb-stealth-row" role="group" aria-label="Stealth">{"".join(stealth_btns)}</div>'
            f'{other}<div class="rb-row">{"".join(extras)}</div>{detect}{more_html(view, c, ui)}{_err("rb-acting")}</div>')


def more_html(view: dict[str, Any], c: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The rest of a turn's actions, each a small form named by the engine's fields, in a fold-out
    drawn when it first opens (``ui``: ``lazy_state``; None: drawn). At 30 combatants its eight
    forms are some 390 elements the page would otherwise draw again on every Next of the actions
    phase, shut."""
    key = f"rb-more-{c['id']}"
    return lazy_fold("rb-more rb-lazy", key, "More actions (grapple, touch, light, noise, cloaking, teleport, "
                     "breathing)", lambda: _more_forms(view, c), *_lazy_state(ui, key))


def _lazy_state(ui: dict[str, Any] | None, key: str) -> tuple[bool, bool]:
    """(open, drawn) of a lazy fold-out, as ``RangeBandPanel.lazy_folds`` left them; no ``ui``: drawn."""
    if ui is None:
        return False, True
    return key in ui.open, key in ui.drawn


def _more_forms(view: dict[str, Any], c: dict[str, Any]) -> str:
    cid = c["id"]
    bands = view.get("choices", {}).get("bands", ["engaged", "short", "medium", "long", "travel"])
    forms = []
    for kind, (_, title, fields) in MORE.items():
        ctls = []
        for name, label, ctl in fields:
            fid = f"rb-more-{kind}-{name}"
            if ctl == "other":
                ctls.append(_field(fid, name, label, _select(fid, name, _targets(view, cid))))
            elif ctl == "light":
                ctls.append(_field(fid, name, label, _select(fid, name, [(x, x) for x in (
                    "none", "dim", "moderate", "bright", "extreme")], c.get("light", "none"))))
            elif ctl == "band":
                ctls.append(_field(fid, name, label, _select(fid, name, [(b, b) for b in bands], "medium")))
            elif ctl == "precision":
                ctls.append(_field(fid, name, label, _select(fid, name, [(x, x) for x in ("low", "medium", "high")])))
            elif ctl == "size":
                ctls.append(_field(fid, name, label, _select(fid, name, [("major", "major"), ("minor", "minor")])))
            elif ctl == "num":
                ctls.append(_field(fid, name, label, _input(fid, name, "", "decimal")))
            elif ctl == "ids":
                ctls.append(_id_checks(view, fid, name, label, cid))
            elif ctl == "text":
                ctls.append(_field(fid, name, label, _input(fid, name, "", "text")))
            else:
                ctls.append(_check(fid, name, label, ctl == "check-on") + _err(name))
        forms.append(f'<form class="rb-more-form" data-form="rb-more" data-kind="{kind}" data-id="{esc(cid)}" novalidate '
                     f'aria-label="{esc(title)}"><h4>{esc(title)}</h4><div class="rb-grid">{"".join(ctls)}</div>'
                     f'<button type="submit" class="secondary">{esc(title)}</button>{_general_err()}</form>')
    return f'<div class="rb-more-forms">{"".join(forms)}</div>'


def _used_html(c: dict[str, Any]) -> str:
    u = c.get("used")
    if not u:
        return '<p class="hint rb-used">No actions yet this turn.</p>'
    what = "; ".join(u.get("what", []))
    return (f'<p class="hint rb-used">Used: {esc(u.get("major", 0))} major, {esc(u.get("minor", 0))} minor'
            + (f" ({esc(what)})" if what else "") + "</p>")


def battle_end_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The battle's end: before it, a fold-out (drawn when it first opens: two lists per combatant)
    to end it; after it, what each combatant takes away."""
    end = view.get("battle_end")
    if end:
        rows = "".join(f'<tr><th scope="row">{esc(p["name"])}</th><td>{esc(p["activity"])}</td>'
                       f'<td>{esc(p["involvement"])}</td><td>{esc(p["fatigue"])}</td><td>{esc(p["trauma"])}</td></tr>'
                       for p in end.get("proposals", []))
        return (f'<div class="rb-end rb-box"><h3>{"Between waves" if end.get("wave") else "The battle is over"} '
                f'after {esc(end.get("rounds"))} rounds <span class="badge assumed">assumed charts</span></h3>'
                f'<table class="rb-end-table"><thead><tr><th scope="col">Who</th><th scope="col">Activity</th>'
                f'<th scope="col">Involvement</th><th scope="col">Fatigue</th><th scope="col">Trauma</th></tr></thead>'
                f'<tbody>{rows}</tbody></table><p class="hint">{esc(end.get("note", ""))}</p></div>')
    if view.get("phase", {}).get("id") == "setup":
        return ""
    return lazy_fold("rb-end rb-box rb-lazy", END_KEY, "End the battle (post-combat fatigue and trauma)",
                     lambda: _end_form(view), *_lazy_state(ui, END_KEY))


END_KEY = "rb-end"


def lazy_keys(view: dict[str, Any], drawn: Any, is_open: set[str]) -> tuple[set[str], set[str]]:
    """The lazy fold-outs (open, drawn) for this render, from those drawn so far and those open on the
    page now: drawn once opened, while the render still shows them (the acting combatant's "More
    actions" while it is their turn in the actions phase, the battle's end until it is over)."""
    here = {END_KEY} if not view.get("battle_end") and view.get("phase", {}).get("id") != "setup" else set()
    if view.get("phase", {}).get("id") == "actions" and view.get("current"):
        here.add(f"rb-more-{view['current']}")
    return is_open & here, (set(drawn) | is_open) & here


def _end_form(view: dict[str, Any]) -> str:
    ch = view.get("choices", {})
    rows = []
    for c in view.get("combatants", []):
        cid = c["id"]
        rows.append(
            f'<tr><th scope="row">{esc(c["name"])}</th><td>'
            f'<label for="rb-be-a-{esc(cid)}" class="visually-hidden">Activity of {esc(c["name"])}</label>'
            f'{_select(f"rb-be-a-{cid}", f"activity.{cid}", [(x, x) for x in ch.get("activity", [])], "moderate")}'
            f'{_err(f"activity.{cid}")}</td><td>'
            f'<label for="rb-be-i-{esc(cid)}" class="visually-hidden">Involvement of {esc(c["name"])}</label>'
            f'{_select(f"rb-be-i-{cid}", f"involvement.{cid}", [(x, x) for x in ch.get("involvement", [])], "combatant")}'
            f'{_err(f"involvement.{cid}")}</td></tr>')
    return (f'<form data-form="rb-end" novalidate aria-label="End the battle">'
            f'<table class="rb-end-table"><thead><tr><th scope="col">Who</th><th scope="col">Activity</th>'
            f'<th scope="col">Involvement</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            '<div class="rb-grid">'
            + _field("rb-be-rounds", "rounds", "Battle length (rounds)",
                     _input("rb-be-rounds", "rounds", "", placeholder=str(view.get("round", 1))),
                     hint=f"blank: {view.get('round', 1)}, the rounds played")
            + '</div><div class="rb-row">' + _check("rb-be-wave", "wave", "Between waves (battles over 24 rounds)")
            + '<button type="submit" class="secondary">End the battle</button></div>'
            '<p class="hint">Fatigue and trauma come from charts <span class="badge assumed">assumed</span>.</p>'
            f'{_general_err()}</form>')


def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               positions: dict[str, tuple[float, float, float]] | None = None) -> str:
    ui = ui or RangeBandUi()
    phase = view.get("phase", {}).get("id", "setup")
    cur = _combatant(view, view.get("current"))
    acting = ""
    if cur is not None and phase == "movement":
        acting = movement_html(view, cur, (positions or {}).get(cur["id"], (0.0, 0.0, cur["altitude"]["metres"])))
    elif cur is not None and phase == "actions":
        acting = actions_html(view, cur, ui, positions)
    # a Block (web/blocks.py), one child per part: a move rewrites the acting form and the round,
    # not the zone's and the areas' forms. What happens now (the rolls to settle, the acting
    # form) comes first, on the first screen of a tablet (issue 33); the zone, the areas and the
    # turn order (twelve rows at 12 combatants) follow.
    return Block('<section class="rb-panel" aria-labelledby="rb-h">', [
        '<h2 id="rb-h" class="visually-hidden">Range-band round</h2>', hold_html(view, ui),
        pending_html(view), notes_html(view, ui), acting,
        zone_html(view, ui.zone_open or phase == "setup"),
        areas_html(view, ui.areas_open), round_html(view, ui),
        battle_end_html(view, ui)], "</section>")


# -- the controller side ---------------------------------------------------------------------------

def preview_html(p: dict[str, Any], core_roll: dict[str, Any], names: dict[str, str]) -> str:
    """The live preview: every roll the action would leave pending, as its specification with the odds under
    the assumed default mechanic, the prompts it would raise, or why it would be refused. Nothing is sent."""
    from fray.games.range_band.odds import spec_odds

    head = '<p class="rb-preview-head"><strong>Before you send it</strong> <span class="hint">(a preview: nothing ' \
           'is sent or rolled)</span></p>'
    if p.get("error"):
        e = p["error"]
        where = f' <span class="hint">({esc(e["field"])})</span>' if e.get("field") else ""
        return head + f'<p class="rb-preview-error" role="status">Would be refused: {esc(e["message"])}{where}</p>'
    out = [head]
    pending = p.get("pending", [])
    if len(pending) > PREVIEW_FULL:
        out.append(_preview_table(pending, core_roll, names))
    for q in pending if len(pending) <= PREVIEW_FULL else ():
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        out.append(f'<div class="rb-preview-spec"><p class="hint">{esc(who)}</p>{spec_html(q["spec"])}'
                   f'{odds_view.spec_html(spec_odds(q["spec"], core_roll))}</div>')
    for q in p.get("prompts", []):
        out.append(f'<p class="rb-preview-prompt" role="note">{esc(q.get("text", ""))}</p>')
    if not p.get("pending"):
        out.append('<p class="hint rb-preview-none">No roll: ' + esc("; ".join(p.get("events", [])) or "nothing to roll")
                   + "</p>")
    return "".join(out)


# past this many rolls a preview is one table, a row per roll (a detection by every opponent is one
# roll each: at 30 combatants some fifteen specifications, 420 elements, written on every turn)
PREVIEW_FULL = 3


def _preview_table(pending: list[dict[str, Any]], core_roll: dict[str, Any], names: dict[str, str]) -> str:
    """Many rolls at once, a row each: who rolls and the roll's question, die on stat and TN with
    its parts, Hindrance and Easing with their reasons, the odds (and whether it can blunder), and
    what success and failure do with the roll's notes: once under the table when every roll says
    the same (a detection by every opponent), else in the row. Each is shown in full under Rolls to
    settle once sent."""
    from fray.games.range_band.odds import spec_odds

    def parts(part: dict[str, Any]) -> str:
        why = ", ".join(f"+{int(x['count'])} {x['reason']}" for x in part.get("parts", []))
        return esc(part.get("total", 0)) + (f" ({esc(why)})" if why else "")

    def effects(spec: dict[str, Any]) -> list[str]:
        out = []
        if spec.get("success"):
            out.append(f'<span class="k">Success</span> {esc(spec["success"])}')
        if spec.get("failure"):
            out.append(f'<span class="k">Failure</span> {esc(spec["failure"])}')
        return out + [esc(n) for n in spec.get("notes", [])]

    said = [effects(q["spec"]) for q in pending]
    shared = said[0] if all(x == said[0] for x in said) else None
    rows = []
    for q, says in zip(pending, said):
        spec = q["spec"]
        tn = spec.get("tn", {})
        tn_parts = "".join(f" {'+' if x['value'] >= 0 else '−'} {x['reason']} {abs(int(x['value']))}"
                           for x in tn.get("parts", []))
        o = spec_odds(spec, core_roll)
        odds = (f"{esc(percent(o.success))}, by 10 or more {esc(percent(o.by_10))}"
                + (f", blunder {esc(percent(o.blunder))}" if o.blunder else
                   ("" if spec.get("can_blunder") else "; cannot blunder"))
                + (f" ({esc(spec['auto'].get('reason', ''))})" if spec.get("auto") else ""))
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        does = "" if shared is not None else f'<td><ul class="rb-preview-does">{"".join(f"<li>{x}</li>" for x in says)}</ul></td>'
        rows.append(f'<tr><th scope="row">{esc(who)} <small class="rb-preview-what">{esc(spec.get("what", "Roll"))}</small></th>'
                    f'<td><span class="rb-die">{esc(spec.get("die"))} on {esc(spec.get("stat"))}</span>, TN '
                    f'<strong>{esc(tn.get("total"))}</strong> <small>(= {esc(spec.get("stat"))} '
                    f'{esc(spec.get("stat_value"))}{esc(tn_parts)}{"; blind" if spec.get("blind") else ""})</small></td>'
                    f'<td>{parts(spec.get("hindrance", {}))}</td><td>{parts(spec.get("easing", {}))}</td>'
                    f'<td>{odds}</td>{does}</tr>')
    rules = ", ".join(dict.fromkeys(q["spec"].get("rule", "") for q in pending if q["spec"].get("rule")))
    mechanic = ("settled by the rules" if all(q["spec"].get("auto") for q in pending)
                else "the odds of success under the assumed default mechanic")
    after = (f'<ul class="rb-preview-does" aria-label="What every one of these rolls does">'
             f'{"".join(f"<li>{x}</li>" for x in shared)}</ul>' if shared else "")
    return (f'<div class="rb-preview-scroll" tabindex="0" role="region" aria-label="The rolls it would leave">'
            f'<table class="rb-preview-table"><caption>{len(pending)} rolls{f" ({esc(rules)})" if rules else ""}: '
            f'{mechanic}; each roll in full under Rolls to settle once sent</caption><thead><tr>'
            f'<th scope="col">Who rolls</th><th scope="col">Roll</th><th scope="col">Hindrance</th>'
            f'<th scope="col">Easing</th><th scope="col">Success</th>'
            + ("" if shared is not None else '<th scope="col">What it does</th>')
            + f'</tr></thead><tbody>{"".join(rows)}</tbody></table>{after}</div>')


PREVIEW_FORMS = ("rb-move", "rb-attack", "rb-act", "rb-detect")


class RangeBandPanel(GamePanel):
    ui_type = RangeBandUi  # its part of the page's view state (fray.web.uistate)
    FORMS = ("rb-more", "rb-zone", "rb-turn-order", "rb-roll-order", "rb-move", "rb-descend", "rb-attack", "rb-act", "rb-resolve", "rb-stealth",
             "rb-mount", "rb-status", "rb-end", "rb-area", "rb-detect", "add-combatant")
    ACTS = ("rb-fly", "rb-roll", "rb-dismiss", "rb-stealth", "rb-maintain", "rb-ambush",
            "rb-catch-breath", "rb-dismount", "rb-fall-off", "rb-breath", "rb-status-off", "rb-knockdown", "add-combatant",
            "use-preset", "rb-clear-area", "advance", "rb-roll-order", "rb-next-anyway", "rb-next-skip", "rb-hold-cancel",
            "rb-hold-resolve", "rb-bring-back", "rb-dismiss-all", "rb-attack-roll")

    def next(self, app: Any, act: str, el: Any) -> None:
        """Next (issue 32): before the round starts with someone lacking a turn order, or while rolls are still
        open, say so and let the GM choose (``hold_html``); else on to the next slot."""
        from fray.web.dom import by_id, document

        enc = app.enc
        view = None
        if act == "advance":
            from fray.games.range_band.rules import OUT
            if enc.phase == "setup":
                if any(c.data.get("turn_value") is None and not any(x in c.conditions for x in OUT)
                       for c in enc.combatants):
                    view = "order"
            elif enc.phase in ("movement", "actions") and enc.state.get("pending"):
                view = "open"
        if view is not None:
            app.ui.part(self).hold = view
            app.render()
            box = document.getElementById("rb-hold")
            if box is not None:
                box.scrollIntoView({"block": "center"})  # "nearest" left it under the sticky round bar
                first = box.querySelector("button")
                if first is not None:
                    first.focus()
            return
        action: dict[str, Any] = {"type": "advance"}
        if act == "rb-next-skip":
            action["skip"] = [p["ref"] for p in enc.state.get("pending", [])]
        app.ui.part(self).hold = None
        app.dispatch(action, by_id("round-bar"))

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        positions = {c.id: (c.position.x, c.position.y, c.position.alt) for c in app.enc.combatants}
        self.lazy_folds(app, view)
        app.ui.part(self).folds = dict(app.ui.folds)  # the notes, the turn-order list (rb-keep)
        import js  # type: ignore[import-not-found]
        app.ui.part(self).narrow = bool(js.window.matchMedia("(max-width: 900px)").matches)  # a tablet: the strip shows
        odds_view.refresh_soon(app)
        return panel_html(view, app.ui.part(self), positions)

    @staticmethod
    def map_mover(app: Any) -> str | None:
        """Whose movement a tap on the map's empty ground is for when no token is selected (issue 33: "or tap
        a destination"): the combatant of the movement form, in the movement phase; else nobody."""
        enc = app.enc
        if enc.phase != "movement":
            return None
        slots = app.ruleset.order_of_play(enc)
        return slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None

    @staticmethod
    def map_drop(app: Any, cid: str, x: float, y: float, alt: float) -> bool:
        """A token dropped on the map in the movement phase (issue 33): the mover's (or its rider's) drop is the
        target of their movement roll, sent with the movement form's options (rush, cautious ...), as typing
        the coordinates and pressing Movement roll would; any other drop is the GM placing a token (False)."""
        from fray.web.dom import document, nil
        from fray.web.forms import form_values

        enc = app.enc
        if enc.phase != "movement":
            return False
        slots = app.ruleset.order_of_play(enc)
        cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
        c = enc.get(cid)
        if cur is None or c is None or (cid != cur and c.data.get("mount") != cur):
            return False
        form = nil(document.querySelector(f'form[data-form="rb-move"][data-id="{cur}"]'))
        values = form_values(form) if form is not None else {}
        values.update({"x": f"{x:g}", "y": f"{y:g}", "alt": f"{alt:g}"})
        if form is not None:
            for k in ("x", "y", "alt"):
                el = form.querySelector(f'[name="{k}"]')
                if el is not None:
                    el.value = values[k]
        app.dispatch(move_action(cur, values), form)
        return True

    @staticmethod
    def lazy_folds(app: Any, view: dict[str, Any]) -> None:
        """Which lazy fold-outs the page shows open now (one query, the open ones only), and which
        are drawn: once opened, while on the page. The acting combatant's "More actions" is let go
        when the turn passes, the battle's end once it is over."""
        ui = app.ui.part(PANEL)
        ui.open, ui.drawn = lazy_keys(view, ui.drawn, {k for k, v in app.ui.folds.items() if v})

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """A pending roll's odds under the assumed default mechanic (never rolls)."""
        from fray.games.range_band.odds import spec_odds
        from fray.web.dom import data

        if form_name in PREVIEW_FORMS:
            from fray.games.range_band.preview import preview
            try:
                action = self.form_action(app, form_name, form, data(form, "id"), values)
            except InvalidAction as e:
                p = {"error": {"field": e.field, "message": e.message}}
            else:
                p = preview(app.enc, action) if action else {"error": {"field": None, "message": "nothing to do"}}
            names = {c.id: c.name for c in app.enc.combatants}
            return preview_html(p, app.ruleset.table(app.enc, "core_roll"), names)
        if form_name != "rb-resolve":
            return None

        ref = data(form, "ref")
        p = next((x for x in app.enc.state.get("pending", []) if x.get("ref") == ref), None)
        if p is None:
            return None
        return odds_view.spec_html(spec_odds(p["spec"], app.ruleset.table(app.enc, "core_roll")))

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        return card_html(view, combatant_id)

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act not in self.ACTS:
            return False
        if act in ("add-combatant", "use-preset"):
            mounts = [(c.id, c.name) for c in app.enc.combatants]
            open_add_section(app, act, el, "rb-add", lambda extra: add_fields_html(extra, mounts))
            return True
        from fray.web.dom import data, nil

        if act in ("advance", "rb-next-anyway", "rb-next-skip"):
            self.next(app, act, el)
            return True
        if act == "rb-hold-cancel":
            app.ui.part(self).hold = None
            app.render()
            return True
        if act == "rb-hold-resolve":
            from fray.web.dom import document
            app.ui.part(self).hold = None
            app.render()
            f = document.querySelector(f'form.rb-pending[data-ref="{data(el, "ref") or ""}"]')
            if f is not None:
                f.scrollIntoView({"block": "start"})
                first = f.querySelector("input")
                if first is not None:
                    first.focus()
            return True
        if act == "rb-roll-order":
            from fray.web.dom import document
            form = nil(document.querySelector('form[data-form="rb-roll-order"]'))
            if form is not None:
                from fray.web.forms import form_values
                self.on_form(app, "rb-roll-order", form, form_values(form))
            else:
                app.dispatch({"type": "rb.roll_turn_order"}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-bring-back":
            app.dispatch({"type": "rb.bring_back", "id": data(el, "id")}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-dismiss-all":
            refs = (data(el, "refs") or "").split()
            app.dispatch({"type": "rb.dismiss", "refs": refs}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-attack-roll":
            form = nil(el.closest("form"))
            if form is not None:
                from fray.web.forms import form_values
                self.attack(app, form, data(el, "id") or "", form_values(form), roll=True)
            return True
        cid = data(el, "id")
        form = nil(el.closest("form"))
        scope = form if form is not None else nil(el.closest(".rb-box, .rb-card, article"))
        if act == "rb-fly":
            app.dispatch({"type": "rb.fly", "id": cid, "on": data(el, "on") == "true"}, scope)
        elif act == "rb-roll" and form is not None:
            from fray.web.forms import form_values
            try:
                action = resolve_action(data(el, "ref") or "", form_values(form), roll=True)
            except InvalidAction as e:
                app.clear_errors(form)
                app.show_error(form, e)
                return True
            app.dispatch(action, form)
        elif act == "rb-dismiss":
            app.dispatch({"type": "rb.dismiss", "ref": data(el, "ref")}, scope)
        elif act == "rb-stealth":
            app.dispatch({"type": "rb.stealth", "id": cid, "level": data(el, "level")}, scope)
        elif act == "rb-maintain":
            app.dispatch({"type": "rb.maintain_stealth", "id": cid}, scope)
        elif act == "rb-clear-area":
            app.dispatch({"type": "rb.clear_area", "area": data(el, "area")}, scope)
        elif act == "rb-ambush":
            app.dispatch({"type": "rb.ambush", "id": cid}, scope)
        elif act == "rb-catch-breath":
            app.dispatch({"type": "rb.catch_breath", "id": cid}, scope)
        elif act in ("rb-dismount", "rb-fall-off"):
            action: dict[str, Any] = {"type": "rb.dismount", "id": cid}
            if act == "rb-fall-off":
                action["fall"] = True
            app.dispatch(action, scope)
        elif act == "rb-breath":
            app.dispatch({"type": "rb.breath", "id": cid, "holding": data(el, "holding") == "true"}, scope)
        elif act == "rb-knockdown":
            app.dispatch({"type": "rb.knockdown", "id": cid}, scope)
        elif act == "rb-status-off":
            app.dispatch({"type": "rb.status", "id": cid, "status": data(el, "status"), "on": False}, scope)
        return True

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        if form_name == "add-combatant":
            return self.add(app, form, values)
        from fray.web.dom import data

        cid = data(form, "id")
        try:
            action = self.form_action(app, form_name, form, cid, values)
        except InvalidAction as e:
            app.clear_errors(form)
            app.show_error(form, e)
            return True
        if action is None:
            return True
        if form_name == "rb-attack":
            self.attack(app, form, cid or "", values, roll=False)
            return True
        if form_name == "rb-zone" and len(action) == 1:
            app.clear_errors(form)
            app.show_error(form, InvalidAction("light", "nothing changed: pick a different setting first"))
            return True
        app.dispatch(action, form)
        return True

    @staticmethod
    def attack(app: Any, form: Any, cid: str, values: dict[str, Any], roll: bool) -> None:
        """The attack form sent: with ``roll``, Fray rolls the offense at once (``rb.attack {roll}``, one tap).
        Refused for range (melee beyond engaged), the GM's reason field opens with the focus in it, so the
        reason is typed and the same button pressed again: no tap to open it, none to reach the field."""
        try:
            action = attack_action(cid, values)
        except InvalidAction as e:
            app.clear_errors(form)
            app.show_error(form, e)
            return
        if roll:
            action["roll"] = True
        if app.dispatch(action, form) or action.get("override"):
            return
        from fray.web.dom import nil
        fold = nil(form.querySelector("details.rb-override"))
        said = " ".join(str(e.textContent) for e in form.querySelectorAll("[data-error-for][role=alert]"))
        if fold is not None and "needs engaged range" in said:
            fold.open = True
            box = nil(fold.querySelector("input"))
            if box is not None:
                box.focus()

    def form_action(self, app: Any, form_name: str, form: Any, cid: str | None,
                    values: dict[str, Any]) -> dict[str, Any] | None:
        if form_name == "rb-zone":
            view = app.ruleset.view(app.enc)
            return zone_action(view.get("zone", {}), values)
        if form_name == "rb-more":
            from fray.web.dom import data
            return more_action(data(form, "kind") or "", cid or "", values)
        if form_name == "rb-turn-order":  # a row's own form (data-id), or the one form with its Combatant
            v = (values.get("value") or "").strip()
            return {"type": "rb.turn_order", "id": cid or values.get("id"), "value": as_int(v) if v else None}
        if form_name == "rb-roll-order":
            action = {"type": "rb.roll_turn_order", "die": values.get("die") or "d20"}
            if values.get("stat"):
                action["stat"] = values["stat"]
            return action
        if form_name == "rb-move":
            return move_action(cid or "", values)
        if form_name == "rb-descend":
            return {"type": "rb.descend", "id": cid, "alt": as_number(values.get("alt", ""))}
        if form_name == "rb-attack":
            return attack_action(cid or "", values)
        if form_name == "rb-act":
            action = {"type": "rb.act", "id": cid, "size": values.get("size"),
                      "what": (values.get("what") or "").strip() or f"{values.get('size')} action"}
            return act_action(cid or "", values)
        if form_name == "rb-resolve":
            return resolve_action(data_ref(form), values, roll=False)
        if form_name == "rb-stealth":
            action = {"type": "rb.stealth", "id": cid, "level": values.get("level")}
            if values.get("start"):
                action["start"] = True
            return action
        if form_name == "rb-mount":
            if not values.get("mount"):
                raise InvalidAction("mount", "choose the mount")
            return {"type": "rb.mount", "id": cid, "mount": values.get("mount")}
        if form_name == "rb-status":
            action = {"type": "rb.status", "id": cid, "status": values.get("status")}
            r = (values.get("rounds") or "").strip()
            if r:
                action["rounds"] = as_int(r)
            if r or values.get("ends") == "after_turn":
                action["ends"] = values.get("ends") or "before_turn"
            return action
        if form_name == "rb-area":
            return area_action(values)
        if form_name == "rb-detect":
            action = {"type": "rb.detect", "id": cid, "die": values.get("die") or "d20",
                      "observers": checked_ids(values, "observers")}
            return action
        if form_name == "rb-end":
            acts = {k[len("activity."):]: v for k, v in values.items() if k.startswith("activity.")}
            invs = {k[len("involvement."):]: v for k, v in values.items() if k.startswith("involvement.")}
            action = {"type": "rb.end_battle", "activity": acts, "involvement": invs}
            if values.get("wave"):
                action["wave"] = True
            r = (values.get("rounds") or "").strip()
            if r:
                action["rounds"] = as_int(r)
            return action
        return None

    def add(self, app: Any, form: Any, values: dict[str, Any]) -> bool:
        """Fold the traits section into the JSON box and add; an error in a trait lands at its control."""
        import json

        if not any(k.startswith("rb_") for k in values):
            return False  # no section (it failed to open): the generic handler adds from the JSON box
        extra = read_extra(values.get("combatant.extra", ""))
        if extra is None:
            return False  # not a JSON object: the app names it at its box
        merged = add_extra(values, extra)
        body = app.combatant_payload(values)
        body.pop("extra", None)
        body = {**merged, **body}
        section = {f"combatant.{k}" for k in ADD_KEYS}
        known = ("combatant.name", "combatant.side", "combatant.stats", "combatant.notes", "combatant.position",
                 "combatant.count")

        def to_form_field(f: str) -> str:
            f = "combatant." + f.removeprefix("combatant.")
            if f.startswith(known) or f == "combatant":
                return f
            head = ".".join(f.split(".")[:2])
            return head if head in section else "combatant.extra"

        values["combatant.extra"] = json.dumps(merged, ensure_ascii=False)
        if app.dispatch({"type": "add_combatant", "combatant": body}, form, to_form_field):
            app.close_dialog()
        return True


def data_ref(form: Any) -> str:
    from fray.web.dom import data
    return data(form, "ref") or ""


PANEL = RangeBandPanel()  # found by the ruleset's ``panel = "fray.games.range_band.web.panel"``
