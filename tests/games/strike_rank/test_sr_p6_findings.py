"""Strike-rank findings of a GM's sixth play-through (the engine's words; the page's: tests/e2e/test_sr_p6_findings.py).

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import XBOW, attack, declare, fight, fighter, texts, to_phase  # noqa: E402
from fray.reducer import apply  # noqa: E402

HEAVY = {**XBOW, "name": "Heavy crossbow", "rate": "1/3MR"}


def test_a_reload_of_two_melee_rounds_says_how_many_are_done():
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading". A GM's
    play: the log said "Bolt reloads Heavy crossbow: 1/2 MR", which reads like a rate. A 1/3MR crossbow takes two MRs
    of reloading; after the first the log says "1 of 2 Melee Rounds done", as the refusal to shoot says "(1 of 2
    done)"."""
    enc = to_phase(fight(fighter("Bolt", HEAVY, side="party"), fighter("Bor", x=30)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="heavy_crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, weapon="heavy_crossbow", ref="a1", rolls={"attack": 90})
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, _ = declare(enc, "c1", kind="reload", weapon="heavy_crossbow")
    said = []
    enc = to_phase(enc, "resolve")
    while enc.phase != "end":
        enc, ev = apply(enc, {"type": "advance"})
        said += ev
    assert "Bolt is reloading Heavy crossbow: 1 of 2 Melee Rounds done" in texts(said)
    assert "1/2 MR" not in texts(said)
