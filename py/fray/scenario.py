"""Headless scenarios: a ruleset, starting combatants and a list of actions with their dice.

Documented in docs/scenarios.md. ``run_scenario`` is what ``python -m fray replay`` and the
tests use; a scenario is the same data the page produces, so a fight played in the page and the
same fight replayed here must agree.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .errors import FrayError, InvalidAction
from .history import History
from .reducer import new_encounter


class ScenarioError(FrayError):
    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


def run_scenario(data: Any) -> tuple[History, list[dict]]:
    if not isinstance(data, dict):
        raise ScenarioError("scenario", "must be a JSON object")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise ScenarioError("ruleset", "must name a ruleset")
    try:
        enc = new_encounter(ruleset, data.get("name", "Scenario"))
    except InvalidAction as e:
        raise ScenarioError(e.field, str(e).split(": ", 1)[-1]) from None
    h = History(enc)
    events: list[dict] = []
    combatants = data.get("combatants", [])
    if not isinstance(combatants, list):
        raise ScenarioError("combatants", "must be a list")
    for i, c in enumerate(combatants):
        try:
            events += h.do({"type": "add_combatant", "combatant": c})
        except InvalidAction as e:
            # the reducer names fields inside the action ("combatant.name"); here that is combatants.N
            sub = e.field.removeprefix("combatant").removeprefix(".")
            raise ScenarioError(f"combatants.{i}" + (f".{sub}" if sub else ""), str(e).split(": ", 1)[-1]) from None
        except FrayError as e:
            raise ScenarioError(f"combatants.{i}", str(e)) from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions", "must be a list")
    for i, a in enumerate(actions):
        try:
            events += h.do(a)
        except InvalidAction as e:
            raise ScenarioError(f"actions.{i}.{e.field}", str(e).split(": ", 1)[-1]) from None
        except FrayError as e:
            raise ScenarioError(f"actions.{i}", str(e)) from None
    return h, events


def result_json(h: History, events: list[dict]) -> dict[str, Any]:
    return {"encounter": asdict(h.present), "events": events}


def lookup(data: Any, path: str) -> Any:
    """Follow a dotted path; a list step may be an index or a combatant id (``combatants.c2``)."""
    cur = data
    for step in path.split("."):
        if isinstance(cur, list):
            if step.isdigit():
                cur = cur[int(step)]
            else:
                matches = [x for x in cur if isinstance(x, dict) and x.get("id") == step]
                if not matches:
                    raise KeyError(path)
                cur = matches[0]
        elif isinstance(cur, dict):
            cur = cur[step]
        else:
            raise KeyError(path)
    return cur
