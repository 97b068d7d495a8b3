"""Headless replay (issue 2, item 6): ``PYTHONPATH=py python -m fray replay FILE.json``.

Contracts: a good scenario prints JSON with the encounter and its events; a bad scenario exits
with status 2 and a message naming the field; a file that is not JSON exits 2. Every scenario
under tests/games/*/scenarios/ with an ``expect`` object replays to the values it expects.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fray.games import all_rulesets
from fray.scenario import lookup, result_json, run_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "games"


def replay(path, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    return subprocess.run([sys.executable, "-m", "fray", "replay", str(path)], input=stdin, capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)


def write(tmp_path, data, name="scenario.json") -> Path:
    p = tmp_path / name
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def test_replay_prints_the_encounter_and_events(tmp_path):
    """A good scenario exits 0 and prints {encounter, events} as JSON."""
    p = write(tmp_path, {"ruleset": "freeform", "name": "Test",
                         "combatants": [{"name": "Orc", "stats": {"initiative": 4}}],
                         "actions": [{"type": "move", "id": "c1", "x": 2, "y": 1}, {"type": "advance"}]})
    out = replay(p)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"encounter", "events"}
    assert data["encounter"]["name"] == "Test"
    assert data["encounter"]["combatants"][0]["position"] == {"x": 2.0, "y": 1.0, "alt": 0.0}
    assert [e["kind"] for e in data["events"]] == ["combatant", "move", "round"]


def test_replay_reads_standard_input():
    """``-`` reads the scenario from standard input."""
    out = replay("-", stdin=json.dumps({"ruleset": "freeform", "combatants": [{"name": "A"}]}))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["encounter"]["combatants"][0]["name"] == "A"


@pytest.mark.parametrize(
    "scenario, field",
    [
        ([], "scenario"),
        ({}, "ruleset"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"ruleset": "freeform", "name": ""}, "name"),
        ({"ruleset": "freeform", "combatants": {}}, "combatants"),
        ({"ruleset": "freeform", "combatants": ["Orc"]}, "combatants.0"),
        ({"ruleset": "freeform", "combatants": [{"name": "A"}, {"name": "B", "side": "evil"}]}, "combatants.1.side"),
        ({"ruleset": "freeform", "combatants": [{"name": "A", "stats": {"hp": [1]}}]}, "combatants.0.stats.hp"),
        ({"ruleset": "freeform", "actions": {}}, "actions"),
        ({"ruleset": "freeform", "combatants": [{"name": "A"}], "actions": [{"type": "move", "id": "c2"}]},
         "actions.0.id"),
        ({"ruleset": "freeform", "combatants": [{"name": "A"}],
          "actions": [{"type": "advance"}, {"type": "set_condition", "id": "c1", "condition": "x", "on": False}]},
         "actions.1"),
    ],
)
def test_bad_scenario_exits_2_naming_the_field(tmp_path, scenario, field):
    """A bad scenario exits 2; stderr names the field and prints no JSON on stdout."""
    p = write(tmp_path, scenario)
    out = replay(p)
    assert out.returncode == 2
    assert out.stdout == ""
    assert f"{p}: {field}: " in out.stderr


@pytest.mark.parametrize("content", ["{not json", "", "<html>", b"\xff\xfe\x00\x01"])
def test_non_json_file_exits_2(tmp_path, content):
    """A file that is not JSON (or not text at all) exits 2 with a message, not a traceback."""
    p = tmp_path / "bad.json"
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = replay(p)
    assert out.returncode == 2
    assert "is not JSON" in out.stderr
    assert "Traceback" not in out.stderr


def test_missing_file_exits_2(tmp_path):
    """A file that cannot be read exits 2 and says so."""
    out = replay(tmp_path / "nope.json")
    assert out.returncode == 2
    assert "cannot read" in out.stderr


# -- every example scenario -----------------------------------------------------------------------------

def _scenario_files() -> list[Path]:
    return sorted(p for p in SCENARIOS.glob("*/scenarios/*.json") if "expect" in json.loads(p.read_text(encoding="utf-8")))


def test_freeform_examples_exist():
    """The free-form examples this suite ships are found by the scenario sweep below."""
    names = {p.relative_to(SCENARIOS).as_posix() for p in _scenario_files()}
    assert {"freeform/scenarios/bridge_skirmish.json", "freeform/scenarios/setup_and_cleanup.json"} <= names


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.relative_to(SCENARIOS).as_posix())
def test_scenario_replays_to_what_it_expects(path):
    """Each scenario with an ``expect`` object replays, and every dotted path has its value.
    Scenarios of a ruleset not built yet are skipped, and picked up once it is registered."""
    data = json.loads(path.read_text(encoding="utf-8"))
    known = {r.id for r in all_rulesets()}
    if data.get("ruleset") not in known:
        pytest.skip(f"ruleset {data.get('ruleset')!r} is not registered yet")
    expect = data["expect"]
    assert isinstance(expect, dict) and expect, "expect must be a non-empty object of dotted path: value"
    h, events = run_scenario(data)
    result = json.loads(json.dumps(result_json(h, events)))
    wrong = {}
    for dotted, want in expect.items():
        try:
            got = lookup(result, dotted)
        except (KeyError, IndexError):
            got = "<missing>"
        if got != want:
            wrong[dotted] = {"expected": want, "got": got}
    assert not wrong, wrong


def test_cli_and_library_agree_on_an_example():
    """The command line prints exactly what run_scenario gives for the same file."""
    path = SCENARIOS / "freeform" / "scenarios" / "bridge_skirmish.json"
    out = replay(path)
    assert out.returncode == 0, out.stderr
    h, events = run_scenario(json.loads(path.read_text(encoding="utf-8")))
    assert json.loads(out.stdout) == json.loads(json.dumps(result_json(h, events)))


def test_lookup_follows_indices_and_combatant_ids():
    """``lookup`` steps into lists by index or by combatant id, and raises KeyError otherwise."""
    data = {"encounter": {"combatants": [{"id": "c1", "hp": 3}, {"id": "c4", "hp": 9}]}}
    assert lookup(data, "encounter.combatants.1.hp") == 9
    assert lookup(data, "encounter.combatants.c4.hp") == 9
    with pytest.raises(KeyError):
        lookup(data, "encounter.combatants.c2.hp")
    with pytest.raises(KeyError):
        lookup(data, "encounter.combatants.c1.hp.x")
