"""What the page skips redrawing (web/painter.py, web/mapctl.py): each memo's key must hold all
that the markup is made of, so a skipped card or map is exactly what drawing it again would give.

Checked on played fights (bench/fights.py: the rules build every state), action by action."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from fray.history import History
from fray.maprules import rule_for
from fray.rulesets import get_ruleset
from fray.web import mapview
from fray.web.strike_rank_panel import StrikeRankPanel, card_html

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402


class _App:
    def __init__(self, ui):
        self.ui = ui


def _states(ruleset: str, n: int, actions: int):
    whole = fights.fight(ruleset, n, actions, seed=5)
    h = History(whole.initial)
    for a in whole.actions:
        h.do(a)
        yield h.present


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round"])
def test_a_map_rule_that_reads_no_state_draws_the_same_map_whatever_the_state(ruleset):
    """``MapRule.state_keys = ()``: the map is not redrawn when only ``state`` changed, so its
    markup must not depend on it (tokens, rings, bands, engagements, the table)."""
    assert rule_for(ruleset).state_keys == ()
    for k, enc in enumerate(_states(ruleset, 6, 60)):
        if k % 7:
            continue
        for sel in (None, enc.combatants[0].id if enc.combatants else None):
            assert mapview.map_parts(enc, sel) == mapview.map_parts(replace(enc, state={}), sel)


def test_a_range_band_map_reads_the_state():
    """Range-band's sight reads the state (areas, light): its map is redrawn whenever it changes."""
    assert rule_for("range-band").state_keys is None


def test_a_strike_rank_card_with_the_same_key_has_the_same_markup():
    """``StrikeRankPanel.card_key``: from one state to the next, a card whose key is equal is drawn
    the same, fold-outs open or shut (``ui["sr_open"]``)."""
    rs = get_ruleset("strike-rank")
    panel = StrikeRankPanel()
    rnd = random.Random(2)
    before: dict[str, tuple] = {}
    same = 0
    for enc in _states("strike-rank", 8, 150):
        view = rs.view(enc)
        folds = {f"{k}-{c.id}": rnd.random() < 0.3 for c in enc.combatants for k in ("care", "fight", "stuck")}
        app = _App({"sr_open": folds})
        for c in enc.combatants:
            key = panel.card_key(app, c.id, view)
            html = card_html(c.id, view, app.ui)
            if c.id in before and before[c.id][0] == key:
                same += 1
                assert before[c.id][1] == html
            before[c.id] = (key, html)
    assert same > 100  # most cards keep their key from one action to the next: the memo is used
