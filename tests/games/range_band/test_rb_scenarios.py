"""Whole-round scenarios (STYLE 11): hand-made fights in tests/games/range_band/scenarios/, played through the same
reducer as the page and ``python -m fray replay``. Each file's ``expect`` maps a dotted path (``fray.scenario.lookup``
in ``{"encounter", "events"}``) to the value worked out by hand in its ``notes``; ``expect_view`` does the same in
``view()``; ``expect_hindrance`` gives each roll specification's Hindrance total by reference, and
``expect_stealth_attacks`` the defense Hindrance of each stealth attack that succeeded on its offense roll."""

from __future__ import annotations

import pytest

from rb_helpers import RS
from shared_checks import play_scenario, scenario_files

FILES = scenario_files("range-band")


def test_there_are_whole_round_scenarios():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    data, h, events, result = play_scenario(path, RS.view)
    specs = {e["detail"]["ref"]: e["detail"]["spec"] for e in events if e["kind"] == "roll_needed"}
    for ref, total in data.get("expect_hindrance", {}).items():
        assert specs[ref]["hindrance"]["total"] == total, ref
    stealth = {e["detail"]["ref"]: e["detail"]["defense_hindrance"] for e in events
               if e["kind"] == "attack" and e["detail"].get("stealth_attack")}
    assert stealth == data.get("expect_stealth_attacks", {})
