"""Shared fixtures for the engine's unit tests.

``dice_ruleset`` registers a tiny test-only ruleset whose one action rolls dice through the tray,
so the reducer, history and save-file tests can check "roll first, then apply" without depending
on a real game's ruleset.
"""

from __future__ import annotations

import pytest

from fray import rulesets
from fray.errors import RuleViolation
from fray.rulesets.base import Context, Ruleset, StatSpec

TEST_RULESET = "test-dice"


class DiceTestRuleset(Ruleset):
    """``hit``: roll ``dmg`` = 2D6 and take it off the target's ``hp``; a down target cannot be hit.
    ``pct``: a d100 stored in the target's data (checks 00 = 100)."""

    id = TEST_RULESET
    name = "Test dice"
    stats = (StatSpec("hp", "Hit points", min=0, max=999),)

    def register_actions(self) -> None:
        self.actions["hit"] = self._hit
        self.actions["pct"] = self._pct

    def _hit(self, ctx: Context) -> None:
        target = ctx.combatant("target")
        if "down" in target.conditions:
            raise RuleViolation("Down combatants", f"{target.name} is already down")
        dmg = ctx.dice.roll("dmg", "2D6")
        target.stats["hp"] = max(0, target.stats["hp"] - dmg.total)
        ctx.event("damage", f"{target.name} takes {dmg.breakdown()}", id=target.id, total=dmg.total,
                  faces=dmg.faces(), typed=dmg.typed)

    def _pct(self, ctx: Context) -> None:
        target = ctx.combatant("target")
        r = ctx.dice.d100("pct")
        target.data["pct"] = r.total
        ctx.event("roll", r.breakdown(), id=target.id)


@pytest.fixture
def dice_ruleset():
    """Register the test ruleset for one test, then remove it so no other test sees it."""
    rs = rulesets.register(DiceTestRuleset())
    try:
        yield rs
    finally:
        rulesets._REGISTRY.pop(TEST_RULESET, None)



def pytest_terminal_summary(terminalreporter):
    """The reducer state machines' counts (``make fuzz`` reports them; issue 8 asks for the figures)."""
    import sys

    machine = sys.modules.get("reducer_machine")
    if machine is None or not machine.COUNTS:
        return
    terminalreporter.section("reducer state machines")
    for ruleset, c in machine.COUNTS.items():
        terminalreporter.write_line(
            f"{ruleset}: {c['sequences']} sequences, {c['steps']} actions ({c['applied']} applied, {c['page']} of "
            f"them players' view settings or a Next skipping empty phases; {c['refused']} refused by the engine's "
            f"own errors), {c['saves']} save/load round trips")
