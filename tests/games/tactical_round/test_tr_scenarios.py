"""Whole-round scenarios (STYLE 11): hand-made fights in tests/games/tactical_round/scenarios/, played
through the same reducer as the page. Each file's ``expect`` maps a dotted path (looked up with
``fray.scenario.lookup`` in ``{"encounter": ..., "events": ...}``, as the replay sweep does) to the value
worked out by hand in its ``notes``; ``expect_view`` does the same in ``view()``; ``expect_attacks`` gives the attack totals by reference and
``expect_melee_order`` the Melee phase order."""

from __future__ import annotations

import pytest

from shared_checks import play_scenario, scenario_files
from tr_helpers import RS

FILES = scenario_files("tactical-round")


def test_there_are_whole_round_scenarios():
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    data, h, events, result = play_scenario(path, RS.view)
    totals = {e["detail"]["ref"]: e["detail"]["total"] for e in events if e["kind"] == "attack"}
    assert totals == data.get("expect_attacks", totals)
    if "expect_melee_order" in data:
        # replay up to the first attack in the Melee phase and read the order there
        from fray.history import History
        from fray.reducer import new_encounter
        hh = History(new_encounter("tactical-round"))
        for c in data["combatants"]:
            hh.do({"type": "add_combatant", "combatant": c})
        for a in data["actions"]:
            if hh.present.phase == "melee":
                break
            hh.do(a)
        assert [s["combatant"] for s in RS.view(hh.present)["acting"]] == data["expect_melee_order"]
