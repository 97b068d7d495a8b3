"""Whole-round scenarios in tests/games/strike_rank/scenarios/, replayed headless; each file's "expect" holds
hand-checked values (the file's "notes" show the arithmetic)."""

from __future__ import annotations

import pytest

from shared_checks import play_scenario, scenario_files

FILES = scenario_files("strike-rank")


def test_at_least_two_scenarios():
    """Time: at least two whole Melee Rounds are played as scenarios."""
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_replays_to_expected(path):
    """Action Declaration & Resolution: "These actions are resolved in order of SR" — a whole round replays from
    its recorded dice to the hand-checked result."""
    data, h, events, out = play_scenario(path)
