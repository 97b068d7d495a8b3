"""Shared fixtures for the engine's unit tests.

``dice_ruleset`` registers a tiny test-only ruleset whose one action rolls dice through the tray,
so the reducer, history and save-file tests can check "roll first, then apply" without depending
on a real game's ruleset.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fray import games
from fray.errors import RuleViolation
from fray.games.base import Context, Ruleset, StatSpec

from names import D20, D20_ID, ROOT, TEST_RULESET  # noqa: F401


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
    rs = games.register(DiceTestRuleset())
    try:
        yield rs
    finally:
        games._REGISTRY.pop(TEST_RULESET, None)


# The example fourth game (issue 34): built as a wheel from its folder, and installed as pip installs
# it, for the tests that need it installed (test_installed_games.py, test_conformance.py).


@pytest.fixture(scope="session")
def d20_wheel(tmp_path_factory) -> Path:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import build_wheel
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return build_wheel.build(D20, tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def d20_site(d20_wheel, tmp_path_factory) -> Path:
    """A folder where ``pip install --target`` put the example wheel (nothing else is in it)."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps",
                    "--disable-pip-version-check", "--target", str(target), str(d20_wheel)], check=True)
    return target


@pytest.fixture(scope="session")
def d20_installed(d20_site):
    """The example game installed in this Python: ``d20_site`` on sys.path, so the registry finds the
    game through its entry point, as where pip installed it. Forgotten after."""
    import importlib

    from fray.web import game_style, panels

    target = str(d20_site)
    sys.path.insert(0, target)
    importlib.invalidate_caches()
    try:
        yield games.get_ruleset(D20_ID)
    finally:
        sys.path.remove(target)
        importlib.invalidate_caches()
        games._REGISTRY.pop(D20_ID, None)
        panels._LOADED.pop(D20_ID, None)
        game_style.forget(D20_ID)
        for m in [m for m in sys.modules if m.split(".")[0] == "fray_d20"]:
            del sys.modules[m]


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
