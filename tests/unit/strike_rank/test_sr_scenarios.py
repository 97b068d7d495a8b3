"""Whole-round scenarios in tests/scenarios/strike-rank/, replayed headless; each file's "expect" holds
hand-checked values (the file's "notes" show the arithmetic)."""

from __future__ import annotations

import json
import pathlib

import pytest

from fray.scenario import lookup, result_json, run_scenario

FOLDER = pathlib.Path(__file__).resolve().parents[2] / "scenarios" / "strike-rank"
FILES = sorted(FOLDER.glob("*.json"))


def test_at_least_two_scenarios():
    """Time: at least two whole Melee Rounds are played as scenarios."""
    assert len(FILES) >= 2


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_replays_to_expected(path):
    """Action Declaration & Resolution: "These actions are resolved in order of SR" — a whole round replays from
    its recorded dice to the hand-checked result."""
    data = json.loads(path.read_text(encoding="utf-8"))
    h, events = run_scenario(data)
    out = json.loads(json.dumps(result_json(h, events)))
    assert data["expect"], "a scenario must expect something"
    wrong = {k: (lookup(out, k), v) for k, v in data["expect"].items() if lookup(out, k) != v}
    assert not wrong, wrong
