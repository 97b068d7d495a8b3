"""Range-band's odds as a roll specification shows them (games/range_band/web/odds.py, pure,
CPython): the assumed mechanic said so, every text escaped."""

from __future__ import annotations

from fray.games import get_ruleset
from fray.games.range_band import odds as rb_odds, rolls
from fray.games.range_band.web import odds as odds_html
from fray.web.html import Markup


def test_spec_odds_say_the_mechanic_is_assumed():
    core = get_ruleset("range-band").tables["core_roll"]
    spec = rolls.RollSpec("Stealth roll", "d20", "DEX", 10, "High Stealth").to_json()
    html = odds_html.spec_html(rb_odds.spec_odds(spec, core))
    assert isinstance(html, Markup)
    assert "with Fray\u2019s assumed roll" in html and "Default roll mechanic (when Fray rolls)" in html and "Success 50%" in html
    assert html.startswith('<div class="odds-box odds-spec"><p class="odds-head"><strong>Odds</strong> <span '
                           'class="odds-assumed" title="The rules give no dice for this roll.')
