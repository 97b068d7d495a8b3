"""Strike-rank charges a GM's play-through of today's build found: a charge met by a braced spear walked again
from the start, and a mount that can no longer run still carrying its rider's mounted charge.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import SPEAR, actions, attack, do, fight, fighter, texts, to_phase  # noqa: E402


def _braced(x: float = 16):
    """Bor charges Ana from 16 m (13 m to close, running at 6 m a strike rank: 3 SR, his SR 10); Ana braces
    her spear against him: SR 1 + 3 = 4."""
    enc = to_phase(fight(fighter("Ana", SPEAR, side="party"), fighter("Bor", x=x)), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"})
    return to_phase(enc, "resolve")


def test_a_charge_met_by_a_braced_spear_is_not_walked_again():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement (ignoring
    DEX SR and SIZ SR)": the spear strikes when the charger arrives. A GM's play: the spear disabled the charger's
    leg at SR 4 and his charge was walked again over the whole 13 m at half rate (SR 16: lost). After the brace
    the charger stands where the spear met him: his attack stays at SR 10, with no second walk, and his
    breakdown says where the charge ended."""
    enc = _braced()
    assert enc.state["sr"] == 4
    ana = actions(enc, "c1")[0]
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=ana["ref"], move_token=True,
                     rolls={"attack": 10, "location": 5, "damage": [3, 3, 1]})
    assert "Bor's Left leg is disabled" in texts(ev), texts(ev)
    assert "Bor's charge meets Ana's braced spear at SR 4: Bor closes 13 m to Ana" in texts(ev), texts(ev)
    assert round(enc.get("c2").position.x, 1) == 3.0, enc.get("c2").position
    bor = actions(enc, "c2")[0]
    assert (bor["status"], bor["sr"]) == ("declared", 10), (bor, texts(ev))
    assert "closes 13 m at 1.5 m" not in texts(ev) and "the charge is lost" not in texts(ev), texts(ev)
    assert "met by Ana's braced spear at SR 4" in bor["note"], bor
    while enc.state["sr"] < 10:
        enc, _ = do(enc, {"type": "advance"})
    enc, ev = attack(enc, "c2", "c1", ref=bor["ref"], move_token=True, rolls={"attack": 90})
    assert "Bor closes" not in texts(ev) and "short of" not in texts(ev), texts(ev)
    assert round(enc.get("c2").position.x, 1) == 3.0


def test_a_charge_met_without_moving_tokens_is_not_walked_again():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement". With
    the tokens left where they stand (a save from before the page moved them), the charge is still over once
    the spear has met it: a leg disabled after that gives the charger no distance to walk again."""
    enc = _braced()
    ana = actions(enc, "c1")[0]
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=ana["ref"],
                     rolls={"attack": 10, "location": 5, "damage": [3, 3, 1]})
    bor = actions(enc, "c2")[0]
    assert (bor["status"], bor["sr"]) == ("declared", 10), (bor, texts(ev))
    assert "Bor's charge meets Ana's braced spear at SR 4" in texts(ev), texts(ev)
