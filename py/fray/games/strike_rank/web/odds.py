"""Strike-rank's odds before rolling, as the attack form shows them: one exchange against each
defence side by side (``strike_rank.odds.ExchangeOdds``), then the chosen defence in detail
(attack result × defender result, the damage that gets through, where it lands).

The panel's ``odds`` hook returns ``exchange_html``; the slot, bars and refresh are the page's
(``fray.web.odds_view``). Pure: CPython tests call it.
"""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, h, html
from fray.web.odds_view import bars, head, none_box, notes, pc

DEGREE_SHORT = {"critical": "crit", "special": "special", "success": "success", "failure": "fail", "fumble": "fumble",
                "none": "no roll"}
LANDING = {"none": "—", "normal": "hit", "special": "spec", "max_special": "max"}  # what the blow does
WOUND_ROWS = (("minor", "Minor wound"), ("serious", "Serious wound"), ("maimed", "Maimed"),
              ("mangled", "Mangled"))


def degrees(deg: dict[str, Any]) -> str:
    """The attack's chance of each degree of success, as one line of text."""
    return " · ".join(f"{DEGREE_SHORT.get(k, k)} {pc(v)}" for k, v in deg.items() if v)


def as_rolled(skill: Any, text: str) -> str:
    """The skill as it will be rolled, with how it got there when anything changed it ("70% →
    ×0.5 into melee = 35%"): the odds beside a 70% weapon must not just say 35% (issue 33)."""
    return text if text and "→" in text else f"{skill}%"


def exchange_html(o: Any) -> Markup:
    """An exchange's odds: the alternatives side by side, then the chosen defence in detail."""
    if o.error:
        return none_box(o.error)
    alts = o.alternatives
    heads = Markup("").join(
        h("th", {"scope": "col", "class": "chosen" if a.key == o.chosen else None,
                 "aria-current": "true" if a.key == o.chosen else None},
          a.label, html(" <small>{}</small>", as_rolled(a.skill, a.skill_text)) if a.skill is not None else None)
        for a in alts)

    def row(label: str, fn) -> Markup:
        cells = [h("td", {"class": "chosen" if a.key == o.chosen else None}, fn(a)) if a.allowed
                 else html('<td class="odds-no">not allowed</td>') for a in alts]
        return h("tr", None, h("th", {"scope": "row"}, label), cells)

    rows = [row("Blow lands", lambda a: pc(a.lands))]
    if any(a.allowed and a.damage_spread for a in alts):
        rows.append(row("Damage through", lambda a: pc(a.through) if a.damage_spread else "—"))
        rows.append(row("Average damage", lambda a: f"{float(a.mean_taken):.1f}" if a.damage_spread else "—"))
        for k, label in WOUND_ROWS:
            rows.append(row(label, lambda a, k=k: pc(a.wound.get(k, 0)) if a.damage_spread else "—"))
        rows.append(row("Killed", lambda a: pc(a.killed) if a.damage_spread else "—"))
    # a special attack: what follows the blow, one row per outcome, in the order the engine met them
    effects = list(dict.fromkeys(k for a in alts if a.allowed for k in a.effect))
    for k in effects:
        rows.append(row(k, lambda a, k=k: pc(a.effect.get(k, 0))))
    if any(a.allowed and a.weapon_damaged for a in alts):
        rows.append(row("Parry hits the weapon", lambda a: pc(a.weapon_damaged)))
    why = [f"{a.label}: not allowed ({a.why})" for a in alts if not a.allowed]
    chosen = o.alternative(o.chosen)
    return h(
        "div", {"class": "odds-box"},
        head(o.method),
        html('<p class="odds-attack">{} {}: {}</p>', o.attacker, as_rolled(o.skill, o.skill_text), degrees(o.degrees))
        if o.skill is not None else None,
        html('<div class="odds-scroll" tabindex="0" role="region" aria-label="Odds for each defence">'
             '<table class="odds-alts"><thead><tr><th scope="col"><span class="visually-hidden">Defence</span></th>'
             '{}</tr></thead><tbody>{}</tbody></table></div>', heads, Markup("").join(rows)),
        notes([*why, *o.notes]),
        detail_html(chosen) if chosen is not None and chosen.allowed else None)


def detail_html(a: Any) -> Markup:
    """The chosen defence: attack result × defender result, damage spread, where damage lands."""
    defences = list(dict.fromkeys(c["defence"] for c in a.grid))
    attacks = list(dict.fromkeys(c["attack"] for c in a.grid))
    cells = {(c["attack"], c["defence"]): c for c in a.grid}
    thead = [h("th", {"scope": "col"}, DEGREE_SHORT.get(d, d)) for d in defences]
    body = []
    for at in attacks:
        tds = []
        for d in defences:
            c = cells[(at, d)]
            what = LANDING.get(c["damage"], c["damage"]) + ("·p" if c["parried"] and c["damage"] != "none" else "")
            tds.append(html('<td><span class="odds-p">{}</span> <small>{}</small></td>', pc(c["chance"]), what))
        body.append(h("tr", None, h("th", {"scope": "row"}, DEGREE_SHORT.get(at, at)), tds))
    grid = html('<table class="odds-grid"><caption>Attack (rows) × {} (columns). hit: normal '
                'damage, spec: special, max: maximised special, ·p: parried (less the weapon\'s HP), —: no damage'
                '</caption><thead><tr><th scope="col"><span class="visually-hidden">Attack</span></th>{}</tr></thead>'
                '<tbody>{}</tbody></table>', a.label.lower(), Markup("").join(thead), Markup("").join(body))
    spread: list[Markup] = []
    if a.damage_spread and a.taken:
        hurt = [(f"{v} damage", p) for v, p in a.taken.items() if v > 0]
        top = max((v for v in a.taken if v > 0), default=0)
        spread.append(html('<p class="odds-spread">Damage through armour{}: none {}{}</p>',
                           " and parry" if a.parried else "", pc(a.taken.get(0, 0)),
                           html("; 1 to {}: {}", top, bars(hurt, f"damage that gets through, 1 to {top}"))
                           if hurt else ""))
        if a.locations:
            spread.append(html('<p class="odds-locs">Wounds land on: {}</p>', " · ".join(
                f"{k} {pc(v)}" for k, v in sorted(a.locations.items(), key=lambda kv: -kv[1]))))
        if a.elsewhere:
            spread.append(html('<p class="odds-locs">{}</p>', " · ".join(f"{k} {pc(v)}" for k, v in a.elsewhere.items())))
    if a.effect:
        spread.append(html('<p class="odds-effect">What follows: {}</p>',
                           " · ".join(f"{k} {pc(v)}" for k, v in a.effect.items())))
    if a.spread_label and any(v > 0 for v in a.spread):
        vals = sorted(v for v in a.spread if v > 0)
        lo, hi = vals[0], vals[-1]
        series = [(f"{v} {a.spread_label}", a.spread.get(v, 0)) for v in range(lo, hi + 1)]
        spread.append(html('<p class="odds-spread">{}: none {}; {} to {}: {}</p>',
                           a.spread_label[:1].upper() + a.spread_label[1:], pc(a.spread.get(0, 0)), lo, hi,
                           bars(series, f"{a.spread_label}, {lo} to {hi}")))
    what = "what follows" if a.effect else "damage"
    return html('<details class="odds-detail" data-odds-fold="detail"><summary>{}: results and {}</summary>'
                '<div class="odds-scroll" tabindex="0" role="region" aria-label="Odds by result">{}</div>{}</details>',
                a.label, what, grid, Markup("").join(spread))
