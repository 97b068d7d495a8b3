"""The round: its phases, the turn order (a row each, or one form past a dozen once the fight is on), the
roll for every missing turn order, and what stops a Next (who has no turn order, the rolls still open)."""

from __future__ import annotations

from typing import Any

from fray.web.blocks import Block
from fray.web.html import Markup, block, fragment, html
from fray.web.widgets import combatant_in as _combatant, names_in as _names
from fray.games.range_band.web.common import (ref_chip, PHASES, _btn, _err, _field, _general_err, _input,
                                              _select)
from fray.games.range_band.web.ui import RangeBandUi


TURN_DICE = ("d6", "d8", "d10", "d12", "d20", "d100")


def roll_all_html(missing: int, total: int) -> Markup:
    """One tap for every missing turn order (``rb.roll_turn_order``); each value stays typeable."""
    return html(
        '<form class="rb-roll-all rb-row" data-form="rb-roll-order" novalidate aria-label="Roll turn order for all">'
        '<button type="submit" class="primary">Roll turn order for all</button>{die}{stat}'
        '<span class="hint">{missing} of {total} without a turn order; typed ones are kept</span>{err}</form>',
        die=_field("rb-ro-die", "die", "Die", _select("rb-ro-die", "die", [(d, d) for d in TURN_DICE], "d20"),
                   hint="assumed: the rule text gives no turn-order roll"),
        stat=_field("rb-ro-stat", "stat", "Plus", _select("rb-ro-stat", "stat", [("", "nothing"), ("DEX", "DEX"),
                                                                               ("INT", "INT"), ("SPD", "SPD")], "")),
        missing=missing, total=total, err=_general_err())


def hold_html(view: dict[str, Any], ui: dict[str, Any]) -> Markup:
    """What stops a Next (issue 32): before the round starts, who has no turn order yet; during it, the rolls
    still open. The GM resolves them, skips them (logged) or goes on; nothing is dropped without a word."""
    hold = ui.hold
    phase = view.get("phase", {}).get("id", "setup")
    names = _names(view)
    if hold == "order" and phase == "setup":
        outs = {c["id"] for c in view.get("combatants", []) if c.get("out")}
        who = [t["name"] for t in view.get("turn_order", []) if t.get("value") is None and t["id"] not in outs]
        if not who:
            return Markup("")
        return html('<div class="rb-hold rb-box" role="alertdialog" aria-labelledby="rb-hold-h" id="rb-hold">'
                    '<h3 id="rb-hold-h">No turn order yet for {n}</h3><p>{who}: without a turn '
                    'order they act after everyone with one, in the order they were added.</p>'
                    '<div class="rb-row">{roll}{start}{back}</div>{err}</div>',
                    n=len(who), who=", ".join(who), roll=_btn("Roll turn order for all and start", "rb-roll-order", "primary"),
                    start=_btn("Start anyway", "rb-next-anyway", "secondary"),
                    back=_btn("Back", "rb-hold-cancel", "secondary"), err=_err("rb-hold"))
    if hold == "open" and phase in ("movement", "actions"):
        rows = []
        for p in view.get("pending", []):
            who = names.get(p.get("combatant"), "")
            rows.append(html('<li>{} {}: {} {}</li>', ref_chip(p["ref"]), who,
                             p["spec"].get("what", "roll"),
                             _btn("Resolve", "rb-hold-resolve", "small primary", aria=f"Resolve {p['ref']}",
                                  ref=p["ref"])))
        if not rows:
            return Markup("")
        return html('<div class="rb-hold rb-box" role="alertdialog" aria-labelledby="rb-hold-h" id="rb-hold">'
                    '<h3 id="rb-hold-h">Still open before Next</h3><ul class="rb-hold-list">{rows}</ul>'
                    '<div class="rb-row">{skip}{back}</div>'
                    '<p class="hint">Skipping is written in the log; nothing is rolled.</p>{err}</div>',
                    rows=fragment(rows), skip=_btn("Skip them and go on", "rb-next-skip", "secondary"),
                    back=_btn("Back", "rb-hold-cancel", "secondary"), err=_err("rb-hold"))
    return Markup("")


ONE_TURN_ORDER_FORM_FROM = 13


def round_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> Block:
    phase = view.get("phase", {}).get("id", "setup")
    steps = fragment(html('<li class="{}"{}>{}</li>', "current" if pid == phase else "",
                          Markup(" aria-current=step") if pid == phase else "", t) for pid, t in PHASES)
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
        fallen: Markup | str = ""
        if outs.get(cid):
            # issue 32: the fallen stay in the order, greyed, with no form; the GM removes them or brings them back
            note = "out of the fight: " + ", ".join(outs[cid])
            nm = names.get(cid, cid)
            fallen = html('<span class="rb-fallen-acts">{}{}</span>',
                          _btn("Bring back", "rb-bring-back", "small secondary", aria=f"Bring {nm} back into the fight",
                               id=cid),
                          _btn("Remove", "remove-combatant", "small secondary", aria=f"Remove {nm} from the fight",
                               id=cid))
        fid = f"rb-to-{cid}"
        who = names.get(cid, cid)
        if one_form:
            tail = html('<span class="rb-to-value">{}</span></li>',
                        "turn " + str(t.get("value")) if t.get("value") is not None else "no turn order")
        else:
            tail = html('<form class="rb-to" data-form="rb-turn-order" data-id="{cid}" novalidate>'
                        '<label for="{fid}" class="visually-hidden">Turn order of {who}</label>{input}'
                        '<button type="submit" class="small" aria-label="Set the turn order of {who}">Set'
                        '</button>{err}</form></li>', cid=cid, fid=fid, who=who,
                        input=_input(fid, "value", t.get("value"), placeholder="turn"), err=_err("value"))
        order_rows.append(html(
            '<li class="rb-slot{cur}{idle}{fallen_cls}" data-id="{cid}"{aria}><span class="who">{who}</span>'
            '<span class="why">{note}</span>{fallen}{tail}',
            cur=" current" if cur else "", idle="" if slot or phase == "setup" else " idle",
            fallen_cls=" fallen" if outs.get(cid) else "", cid=cid, aria=Markup(" aria-current=step") if cur else "",
            who=who, note=note, fallen=fallen, tail=tail))
    one: Markup | Block | str = ""
    if one_form:
        one = html('<form class="rb-to rb-to-one" data-form="rb-turn-order" novalidate '
                   'aria-label="Set a turn order">{err}{who}{value}<button type="submit">Set the turn order</button></form>',
                   err=_general_err(),
                   who=_field("rb-to-id", "id", "Combatant",
                              _select("rb-to-id", "id", [(t["id"], names.get(t["id"], t["id"])) for t in turn_order], "")),
                   value=_field("rb-to-value", "value", "Turn order",
                                _input("rb-to-value", "value", None, placeholder="turn")))
    hint = ('Type each turn-order result (higher acts first), or roll them all at once; set the zone, then start '
            'the round.' if phase == "setup" else view.get("phase", {}).get("note", ""))
    missing = [t for t in turn_order if t.get("value") is None and not outs.get(t["id"])]
    if missing:
        one = roll_all_html(len(missing), len(turn_order)) + one
    # a Block (web/blocks.py): a Next rewrites the two rows whose turn it was and is, not all of them
    rows = block("ol", {"class": "rb-order", "aria-label": "Turn order"}, order_rows)
    if phase != "setup":
        # issue 33: on a tablet the order strip above already lists all fourteen; the list (where the GM types a
        # turn order, brings back or removes the fallen) is folded there, one tap away; open on a laptop
        ui = ui or RangeBandUi()
        key = "rb-order"
        is_open = ui.folds.get(key, not ui.narrow)
        summary = html('<summary>Turn order list ({}): set a value, bring back or remove the fallen</summary>',
                       len(turn_order))
        rows = block("details", {"class": "rb-order-fold rb-keep", "data-fold": key, "open": bool(is_open)},
                     [summary, rows, one])
        one = ""
    return block("div", {"class": "rb-round rb-box", "id": "rb-round"}, [
        html('<ol class="rb-steps" aria-label="Phases">{}</ol>', steps), html('<p class="hint">{}</p>', hint),
        rows, one])
