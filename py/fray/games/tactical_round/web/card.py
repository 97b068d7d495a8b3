"""Inside each combatant's card: HP and DEF, conditions, weapons (reload, wield), the parry, and
cover, damage / heal and running away in fold-outs drawn when they first open."""

from __future__ import annotations

from typing import Any, Callable

from fray.web.render import esc
from fray.web.widgets import (act_button as _btn, combatant_in as _combatant, err_slot as _err, field as _field,
                              lazy_fold, names_in as _names, select as _select, text_input as _input)

from .common import COVER_KINDS, _check, _general_err, _out_of_action


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
    return lazy_fold("tr-more tr-lazy", key, summary, body, key in ui.get("tr_card_open", ()),
                     key in ui.get("tr_card_drawn", ()))
