"""Range-band's odds before rolling, beside a roll specification: the chance of success, of
succeeding by 10 or more and of a blunder (``range_band.odds.SpecOdds``), saying so when the
mechanic is the assumed default.

The panel's ``odds`` hook and its roll previews return ``spec_html``; the slot and refresh are
the page's (``fray.web.odds_view``). Pure: CPython tests call it.
"""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, h, html
from fray.web.odds_view import head, pc


ASSUMED = ("The rules give no dice for this roll. These are the odds of Fray\u2019s own default, the table "
           "\u201cDefault roll mechanic (when Fray rolls)\u201d under Tables, which you can change. "
           "You can always enter the result of your own roll instead.")


def spec_html(o: Any) -> Markup:
    """A roll specification's odds."""
    # the words the GM reads: the rules give no dice for this roll, so the odds are of Fray's own
    # default, the table of that title, which the GM can change
    assumed = html(' <span class="odds-assumed" title="{}">with Fray\u2019s assumed roll</span>', ASSUMED) if o.assumed else ""
    return h("div", {"class": "odds-box odds-spec"},
             head(o.method, "Odds", assumed),
             html("<p>Success {} · by 10 or more {}{}{}</p>", pc(o.success), pc(o.by_10),
                  html(" · blunder {}", pc(o.blunder)) if o.blunder else "",
                  html(" <small>({})</small>", o.dice) if o.dice else ""))
