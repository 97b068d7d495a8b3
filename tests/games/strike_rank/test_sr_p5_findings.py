"""Strike-rank findings of a GM's fifth play-through: old questions left open, a closing pair timed at
two rates, a changed attack with no weapon, a spell's default target, smaller wording and counting.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import RS, actions, attack, declare, do, fight, fighter, knight_and_bor, prompts, texts, to_phase  # noqa: E402,F401


def test_a_rider_and_his_foe_closing_on_each_other_share_one_rate():
    """Movement: "If two combatants move to engage each other, add up their movement rates to figure out
    how many SR it takes for them to connect." A rider comes at his horse's rate (8 m) and Bor on his
    own feet (3 m): both lines close at 11 m a strike rank (a GM's play: the Broo's line said 6 m, the
    rider's own feet counted, not the horse's)."""
    enc = to_phase(knight_and_bor(30), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="lance", target="c3")
    enc, ev = declare(enc, "c3", kind="melee", weapon="broadsword", target="c2")
    knight, bor = actions(enc, "c2")[0], actions(enc, "c3")[0]
    assert "at 11 m a strike rank, closing together" in knight["note"], knight["note"]
    assert "at 11 m a strike rank, closing together" in bor["note"], bor["note"]
    assert " 6 m a strike rank" not in texts(ev)
    assert dict(bor["parts"])["move"] == dict(knight["parts"])["move"] == 3  # 27 m / 11 m, rounded up
