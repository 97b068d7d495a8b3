"""The snapshot's warm-up (scripts/warmup.py, run by scripts/snapshot.mjs): it plays and draws each game's
fight through the page's pure render functions, and leaves no data of its own in the memos the
page reads (the page must start from none of them)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "bench")]

import warmup  # noqa: E402
from fray import savefile  # noqa: E402
from fray.rulesets import get_ruleset  # noqa: E402
from fray.rulesets.range_band import rules as rb_rules  # noqa: E402
from fray.web import render as R  # noqa: E402
from fray.web import widgets  # noqa: E402


def test_the_warm_up_draws_every_game_and_empties_the_memos_it_filled():
    drawn = warmup.warm(combatants=4, actions=30)
    assert set(drawn) == {"strike-rank", "tactical-round", "range-band"}
    assert all(n > 3 for n in drawn.values()), drawn
    assert not savefile._PIECES and not R._ESCAPED and not R._STRIP_ENTRY
    assert not widgets._OPTIONS and not rb_rules._MEMO
    assert "_status_memo" not in get_ruleset("strike-rank").__dict__
