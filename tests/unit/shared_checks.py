"""Checks every ruleset's tests share: whole-round scenarios played from tests/games/<game>/scenarios/
and checked against their hand-worked ``expect`` and ``expect_view``, and the rules-trace tables (py/fray/games/<game>/rules-trace.md)'
test ids (``R::test_x``) naming tests that exist. Each ruleset's test file adds its own checks."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any, Callable

from fray.scenario import lookup, result_json, run_scenario

GAMES = pathlib.Path(__file__).resolve().parents[1] / "games"


def scenario_dir(ruleset_id: str) -> pathlib.Path:
    """A built-in game's scenarios: tests/games/<its package>/scenarios/."""
    return GAMES / ruleset_id.replace("-", "_") / "scenarios"


def all_scenario_files() -> list[pathlib.Path]:
    return sorted(GAMES.glob("*/scenarios/*.json"))


def scenario_files(ruleset_id: str) -> list[pathlib.Path]:
    return sorted(scenario_dir(ruleset_id).glob("*.json"))


def play_scenario(path: pathlib.Path, view: Callable[[Any], dict] | None = None) -> tuple[dict, Any, list, dict]:
    """Play one scenario file; returns (its data, the history, the events, the result), having
    checked every ``expect`` path (and ``expect_view`` path in ``view(present)``)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    h, events = run_scenario(data)
    result = result_json(h, events)
    if view is not None:
        result["view"] = view(h.present)
    result = json.loads(json.dumps(result))  # and it is JSON all through
    assert data["expect"], "a scenario must expect something"
    wrong = {k: (lookup(result, k), v) for k, v in data["expect"].items() if lookup(result, k) != v}
    if view is not None:
        wrong.update({f"view.{k}": (lookup(result["view"], k), v) for k, v in data.get("expect_view", {}).items()
                      if lookup(result["view"], k) != v})
    assert not wrong, wrong  # path: (what the replay gives, what the file's notes worked out)
    return data, h, events, result


def check_node_ids(doc: str, sources: dict[str, str], rows: list[tuple[str, str]]) -> None:
    """Every ``P::test_x`` a rules-trace table names is a test in the file ``P`` stands for, and
    every row names at least one test."""
    ids = re.findall(r"`([A-Z])::(test_\w+)(?:\[[^\]]*\])?`", doc)
    assert ids
    for prefix, name in ids:
        assert f"def {name}(" in sources[prefix], f"{prefix}::{name} is named in the docs but does not exist"
    for heading, tests in rows:
        assert "::test_" in tests, f"{heading!r} names no test"
