"""The round: its phases, the turn order (a row each, or one form past a dozen once the fight is on), the
roll for every missing turn order, and what stops a Next (who has no turn order, the rolls still open)."""

from __future__ import annotations

from typing import Any

from fray.web.blocks import Block
from fray.web.render import esc
from fray.games.range_band.web.common import PHASES, _general_err
from fray.web.widgets import (act_button as _btn, combatant_in as _combatant, err_slot as _err, field as _field,
                              fold_open, names_in as _names, select as _select, text_input as _input)


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
    hold = ui.get("rb_hold")
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
        ui = ui or {}
        key = "rb-order"
        is_open = ui.get("rb_folds", {}).get(key, not ui.get("rb_narrow"))
        summary = (f'<summary>Turn order list ({len(turn_order)}): set a value, bring back or remove the '
                   'fallen</summary>')
        rows = Block(fold_open("rb-order-fold rb-keep", key, is_open), [summary, rows, one], "</details>")
        one = ""
    return Block('<div class="rb-round rb-box" id="rb-round">', [
        f'<ol class="rb-steps" aria-label="Phases">{steps}</ol>', f'<p class="hint">{esc(hint)}</p>',
        rows, one], "</div>")
