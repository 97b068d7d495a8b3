"""Tactical-round's odds before rolling, as the attack form shows them: the spread of the
open-ended d100 total against the target's DEF (``tactical_round.odds.AttackOdds``), and, with
the GM's attack table loaded, the chance of each of its bands.

The panel's ``odds`` hook returns ``open_ended_html``; the slot, bars and refresh are the page's
(``fray.web.odds_view``). Pure: CPython tests call it.
"""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, h, html
from fray.web.odds_view import bars, head, none_box, notes, pc


def open_ended_html(o: Any) -> Markup:
    """The open-ended total's spread and the GM's bands."""
    if o.error:
        return none_box(o.error)
    lo, med, hi = o.quantile(0.05), o.quantile(0.5), o.quantile(0.95)
    step = 10
    start, stop = (o.quantile(0.01) // step) * step, (o.quantile(0.99) // step + 1) * step
    buckets = []
    for b in range(start, stop, step):
        buckets.append((f"total {b} to {b + step - 1}", o.totals.chance(lambda v, b=b: b <= v < b + step)))
    sign = "+" if o.modifier >= 0 else "−"
    parts = [
        head(o.method),
        html('<p>Total = open-ended d100 {} {} <small>({})</small></p>', sign, abs(o.modifier), o.breakdown),
        html('<p>Middle 90%: <strong>{}</strong> to <strong>{}</strong>, half the time {} or more · '
             'total 1+: {} · 100+: {}</p>', lo, hi, med, pc(o.at_least(1)), pc(o.at_least(100))),
        bars(buckets, f"attack total from {start} to {stop - 1}, in steps of {step}", 240, 32),
        html('<p class="odds-axis"><span>{}</span><span>{}</span></p>', start, stop - 1),
    ]
    if o.table_loaded:
        rows = [html('<tr><td>{}</td><td>{} hits{}</td><td>{}</td></tr>', band_range(b["min"], b["max"]), b["hits"],
                     html(", critical {}", b["critical"]) if b.get("critical") else "", pc(b["chance"]))
                for b in o.bands]
        if o.unmatched:
            rows.append(html('<tr><td>no row</td><td>the GM enters it</td><td>{}</td></tr>', pc(o.unmatched)))
        parts.append(html('<table class="odds-bands"><caption>The GM\'s attack table</caption><thead><tr>'
                          '<th scope="col">Total</th><th scope="col">Result</th><th scope="col">Chance</th></tr>'
                          '</thead><tbody>{}</tbody></table>', Markup("").join(rows)))
    else:
        parts.append(html('<p class="hint">No attack table loaded: the GM reads the total on their own table.</p>'))
    parts.append(notes(o.notes))
    return h("div", {"class": "odds-box"}, parts)


def band_range(lo: Any, hi: Any) -> str:
    """A band of the attack table, in words ("51 to 75", "76 or more")."""
    if lo is None and hi is None:
        return "any"
    if lo is None:
        return f"{hi} or less"
    if hi is None:
        return f"{lo} or more"
    return f"{lo} to {hi}"
