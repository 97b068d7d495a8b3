"""Inside each combatant's card: HP and DEF, conditions, weapons (reload, wield), the parry, and
cover, damage / heal and running away in fold-outs drawn when they first open.

Built with ``fray.web.html``: every name, weapon and condition text is escaped where it meets markup."""

from __future__ import annotations

from typing import Any, Callable

from fray.web.html import Markup, fragment, h, html
from fray.web.widgets import combatant_in as _combatant, names_in as _names

from .common import (COVER_KINDS, _btn, _check, _err, _field, _general_err, _input, _out_of_action, _select,
                     lazy_fold)

# the HP badges, in the order they are shown
_HP_BADGES = tuple((key, html('<span class="tr-badge hp-{}">{}</span>', key, label))
                   for key, label in (("dying", "Dying"), ("incapacitated", "Incapacitated"), ("bruised", "Bruised")))


def card_html(view: dict[str, Any], cid: str, ui: dict[str, Any] | None = None) -> Markup:
    """A combatant's card: conditions, weapons, parry; cover, damage / heal and running away in
    fold-outs drawn when they first open (``ui``: ``tr_card_open`` and ``tr_card_drawn``, from
    ``TacticalRoundPanel._lazy_folds``; None: all drawn). Shut, they were 70 of the 200 elements of
    the acting combatant's card, drawn again on every Next."""
    c = _combatant(view, cid)
    if c is None:
        return fragment()
    names = _names(view)
    # the others, the standing enemies first, then allies and the fallen (issue 32: a parry's
    # "Against" started on an ally, as the default targets did): whom cover is against
    # (by id: looking each one up in the list made the card's cost grow with the square of the fight)
    by_id = {o["id"]: o for o in view.get("combatants", [])}

    def _rank(k: str) -> int:
        o = by_id.get(k) or {}
        return (0 if o.get("side") != c.get("side") and "neutral" not in (o.get("side"), c.get("side")) else 1) + (
            2 if _out_of_action(o) else 0)
    others = sorted(((k, v) for k, v in names.items() if k != cid), key=lambda kv: _rank(kv[0]))
    # a parry is against the living foes only: "A character can only Parry attacks from a single
    # opponent per Round, and only attacks from the opponent they are facing" (a GM's play-through:
    # Orc 2's "Against" offered Axe orc, an ally, and the dead Orc 1); "neutral" is nobody's enemy
    # and nobody's ally, so a neutral parries any who still stand
    foes = [(k, v) for k, v in others
            if not _out_of_action(by_id.get(k) or {}) and (_rank(k) == 0 or c.get("side") == "neutral")]
    hp = c["hp"]
    cond_names = [x["name"] for x in c["conditions"]]
    state = [badge for key, badge in _HP_BADGES if key in cond_names]
    p = f"tr-{cid}"
    out: list[Any] = []
    out.append(html('<p class="tr-hp">HP <strong class="tr-hp-value">{}</strong> / {} {}</p>',
                    hp["current"], hp["max"], fragment(state)))
    out.append(html('<p class="tr-def">DEF <strong class="tr-def-value">{}</strong> <small>{}</small></p>',
                    c["def"]["total"], c["def"]["text"]))
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
                items.append(html("<li><strong>{}{}</strong></li>", text, extra))
                continue
            items.append(html("<li><strong>{}{}</strong>{}</li>", title, extra, ": " + text if text else ""))
        out.append(h("ul", {"class": "tr-conds", "aria-label": "Conditions"}, items))
    down = _out_of_action(c)
    # weapons
    ws = []
    for w in c["weapons"]:
        cmb = f'CMB {w["cmb_now"]}' + (f' (of {w["cmb"]})' if w["cmb_now"] != w["cmb"] else "")
        btns = []
        if down:
            pass  # the fallen are offered nothing (issue 32)
        elif w["kind"] in ("missile", "thrown") and not w["loaded"]:
            label = "Ready" if w["kind"] == "thrown" else "Reload"
            btns.append(_btn(label, "tr-reload", "", aria=f"{label} {w['name']}", id=cid, weapon=w["index"]))
        if not w["wielded"] and not down:
            btns.append(_btn("Wield", "tr-wield", "secondary", aria=f"Wield {w['name']}", id=cid, weapon=w["index"]))
        ws.append(html('<li class="{}"><span class="wn">{}{}</span> <span class="wc">{}</span> '
                       '<span class="ws">{}</span>{}</li>', "wielded" if w["wielded"] else "", w["name"],
                       " (in hand)" if w["wielded"] else "", cmb, w["state"], fragment(btns)))
    out.append(html('<div class="tr-scope tr-weapons">{}<ul aria-label="Weapons">{}</ul></div>', _general_err(),
                    fragment(ws)))
    # parry
    par = c["parry"]
    now = (f'Parrying {par["amount"]} against {", ".join(names.get(x, x) for x in par["against"])}'
           if par["amount"] else "No parry")
    shield = any(w["shield"] and w["wielded"] for w in c["weapons"])
    if shield and foes:
        against = html('<fieldset class="tr-against"><legend>Against</legend>{}{}</fieldset>',
                       fragment(_check(f"{p}-pa-{i}", f"against.{i}", n, oid in par["against"], oid)
                                for i, (oid, n) in enumerate(foes)), _err("against"))
    else:
        # else the foe who declared an attack on her this round, whom she faces (a GM's play-through:
        # Lia's started on the first of the list, not on Orc 4, who declared his Melee attack on her)
        on_her = [k for k, _ in foes if any(d.get("target") == cid and str(d.get("action", "")).endswith("_attack")
                                            for d in (by_id.get(k) or {}).get("declared", []))]
        sel = par["against"][0] if par["against"] else (on_her or [k for k, _ in foes] or [""])[0]
        against = _field(f"{p}-pa-against", "against", "Against", _select(f"{p}-pa-against", "against", foes, sel))
    if down:
        # issue 32: the fallen get no forms; the GM brings them back by healing (below) or removes them
        out.append(html('<p class="tr-now-line tr-fallen">Out of the fight: no actions. Heal to bring them back, '
                        "or remove them from the fight.</p>"))
    elif c["can_parry"]:
        out.append(html(
            '<form class="tr-form tr-parry" data-form="tr-parry" data-id="{cid}" novalidate '
            'aria-label="Parry for {name}">{err}<p class="tr-now-line">{now} · {why}</p><div class="tr-grid">'
            '{amount}{against}</div><div class="tr-actions"><button type="submit">Parry</button></div></form>',
            cid=cid, name=c["name"], err=_general_err(), now=now, why=par["why"], against=against,
            amount=_field(f"{p}-pa-amount", "amount", "Parry (CMB → DEF)",
                          _input(f"{p}-pa-amount", "amount", par["amount"] or ""))))
    else:
        out.append(html('<p class="tr-now-line">Cannot parry: {}</p>', par["why"]))
    # cover
    covers = ", ".join(f'{x["type"]} (+{x["bonus"]}) against {"everyone" if x["against"] == "all" else names.get(x["against"], x["against"])}'
                       for x in c["cover"]) or "none"
    if not down:
        out.append(_card_fold("cover", cid, f"Cover: {covers}", ui, lambda: html(
            '<form class="tr-form tr-cover" data-form="tr-cover" data-id="{cid}" novalidate '
            'aria-label="Cover for {name}">{err}<div class="tr-grid">{cover}{against}</div>'
            '<div class="tr-actions"><button type="submit">Set cover</button>{dive}{prone}</div></form>',
            cid=cid, name=c["name"], err=_general_err(),
            cover=_field(f"{p}-cv-cover", "cover", "Cover",
                         _select(f"{p}-cv-cover", "cover", [(k, k) for k in COVER_KINDS], "partial")),
            against=_field(f"{p}-cv-against", "against", "Against",
                           _select(f"{p}-cv-against", "against", [("all", "everyone")] + others, "all")),
            dive=_btn("Dive behind it", "tr-dive-cover", "secondary",
                      aria=f"{c['name']} dives behind cover (Free Action)", id=cid),
            prone=_btn("Dive prone", "tr-dive-prone", "secondary", aria=f"{c['name']} dives prone (Free Action)",
                       id=cid))))
    # hp
    out.append(_card_fold("hp", cid, "Damage / heal", ui, lambda: html(
        '<form class="tr-form tr-hpform" data-form="tr-hp" data-id="{cid}" novalidate '
        'aria-label="Damage or heal {name}">{err}{hits}'
        '<div class="tr-actions"><button type="submit">Damage</button>{heal}</div></form>',
        cid=cid, name=c["name"], err=_general_err(),
        hits=_field(f"{p}-hp-hits", "hits", "Hits", _input(f"{p}-hp-hits", "hits", "")),
        heal=_btn("Heal", "tr-heal", "secondary", aria=f"Heal {c['name']}", id=cid))))
    # running away
    if c["engaged_with"] and not down:
        rows = fragment(_field(f"{p}-ra-{oid}", f"rolls.athletics.{oid}", f"{names.get(oid, oid)}'s Athletics d100",
                               _input(f"{p}-ra-{oid}", f"rolls.athletics.{oid}", "", "text"))
                        for oid in c["engaged_with"])
        ra = c.get("run_away")
        res = fragment()
        if ra:
            res = html('<p class="tr-now-line">{}</p>', "; ".join(f"{names.get(k, k)}: {v}" for k, v in ra["vs"].items()))
        out.append(_card_fold("run", cid, "Run away", ui, lambda: html(
            '{res}<form class="tr-form tr-run" data-form="tr-run-away" data-id="{cid}" novalidate '
            'aria-label="Run away: {name}">{err}{err_attackers}<div class="tr-grid">{flee}{rows}</div>'
            '<div class="tr-actions"><button type="submit">Run away</button></div></form>',
            res=res, cid=cid, name=c["name"], err=_general_err(), err_attackers=_err("attackers"), rows=rows,
            flee=_field(f"{p}-ra-flee", "rolls.flee", "Flee d100", _input(f"{p}-ra-flee", "rolls.flee", "", "text"),
                        "blank: Fray rolls"))))
    return h("div", {"class": "tr-card"}, out)


# a card's fold-outs drawn when they first open: their keys are these, then the combatant's id
CARD_FOLDS = ("tr-cover-", "tr-hp-", "tr-run-")


def _card_fold(what: str, cid: str, summary: str, ui: dict[str, Any] | None,
               body: Callable[[], Markup]) -> Markup:
    key = f"tr-{what}-{cid}"
    if ui is None:  # drawn (the tests', and any caller's, that has no page to read fold-outs from)
        return lazy_fold("tr-more tr-lazy", key, summary, body, False, True)
    return lazy_fold("tr-more tr-lazy", key, summary, body, key in ui.card_open,
                     key in ui.card_drawn)
