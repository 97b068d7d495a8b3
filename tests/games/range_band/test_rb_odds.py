"""The odds of a roll specification under the assumed default mechanic (issue 12): FACTS.md: "Not public:
the core roll (how a die "on" a stat with TN, Hindrance and Easing succeeds) ... or lets an *assumed*,
documented default mechanic roll it". Checked by hand and against every face through ``roll_default``."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from fray.games import get_ruleset
from fray.games.range_band import odds, rolls
from fray.tray import DiceTray

RS = get_ruleset("range-band")
CORE = RS.tables["core_roll"]
F = Fraction


def spec(tn=10, hindrance=0, easing=0, die="d20", blunder=True):
    return rolls.RollSpec("Stealth roll", die, "DEX", tn, "High Stealth", hindrance=[("h", hindrance)] if hindrance else [],
                          easing=[("e", easing)] if easing else [], can_blunder=blunder).to_json()


def test_hindrance_keeps_the_highest_by_hand():
    """core_roll (assumed): one extra die per net Hindrance, keep the highest; success if at most the TN.
    d20 on TN 10 with 2 Hindrance: all three dice 10 or less, (1/2)³; a blunder is a 20 kept: 1 − (19/20)³."""
    o = odds.spec_odds(spec(10, hindrance=2), CORE)
    assert o.success == F(1, 8) and o.by_10 == 0
    assert o.blunder == 1 - F(19, 20) ** 3
    assert o.assumed and o.dice == "3D20, keep the highest"


def test_easing_and_succeeding_by_10_by_hand():
    """Succeeding by 10 (range-band text, Flight: "if you both rush and succeed by 10 or more"): TN 15 with
    1 Easing keeps the lower of 2d20: success 1 − (5/20)², by 10 or more when it is 5 or less: 1 − (15/20)²."""
    o = odds.spec_odds(spec(15, easing=1), CORE)
    assert o.success == F(15, 16)
    assert o.by_10 == F(7, 16)


@pytest.mark.parametrize("tn,h,e", [(10, 0, 0), (12, 1, 0), (8, 0, 2), (25, 2, 0), (3, 0, 1)])
def test_brute_force_through_roll_default(tn, h, e):
    s = spec(tn, h, e)
    n = rolls.dice_count(s, CORE)
    ok = by10 = bl = 0
    combos = list(itertools.product(range(1, 21), repeat=n))
    for faces in combos:
        r = rolls.roll_default(s, CORE, DiceTray({"r": list(faces)}), "r")
        ok += r["success"]
        by10 += r["success"] and r["by"] >= 10
        bl += r["blunder"]
    o = odds.spec_odds(s, CORE)
    assert (o.success, o.by_10, o.blunder) == (F(ok, len(combos)), F(by10, len(combos)), F(bl, len(combos)))


def test_a_spec_settled_by_the_rules():
    """Flight: "If your flying SPD is at least 20, you automatically succeed by 10 on all SPD rolls"."""
    s = {**spec(), "auto": {"success": True, "by": 10, "reason": "flying SPD 20+"}}
    o = odds.spec_odds(s, CORE)
    assert (o.success, o.by_10, o.assumed) == (1, 1, False)
