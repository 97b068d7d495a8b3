"""Names the unit tests share with their conftest, in a plain module: ``from conftest import``
would resolve to whichever conftest was imported last (tests/games has one too)."""

from pathlib import Path

TEST_RULESET = "test-dice"
ROOT = Path(__file__).resolve().parents[2]
D20 = ROOT / "examples" / "fray-d20"
D20_ID = "d20-skirmish"
