"""Movement once declared: where a closing move ends, and a declared attack's movement worked out again
when its attacker or its target no longer stands where the declaration was made, or the attacker's
Movement rate changed (a knockback, a maimed leg, a token the GM moved on the map).

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import math

from sr_helpers import actions, attack, declare, do, fight, fighter, texts, to_phase


def _apart(enc, a: str, b: str) -> float:
    p, q = enc.get(a).position, enc.get(b).position
    return math.hypot(p.x - q.x, p.y - q.y)


def test_a_closing_attacker_stops_a_spot_clear_of_another_foe_not_a_metre_from_him():
    """Engagement: "For human-sized combatants, engagement range is about 3 meters or less" and "anyone who moves
    adjacent to a melee or an enemy becomes engaged". A GM's fight: Yanioth closed on Broo and stopped at 3.0 m
    from him, 1 m from Orlanth who stood on her line, inside his reach as if on top of him. The closing ends
    within engagement range of Broo and at least a spot's width (half Add ×N's step, as Add ×N judges a spot
    taken) from everyone else."""
    enc = fight(fighter("Yanioth", side="party", x=0, y=0), fighter("Broo", x=10, y=0), fighter("Orlanth", x=8, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", rolls={"attack": 90}, move_token=True)
    assert _apart(enc, "c1", "c2") <= 3.0 + 1e-6, texts(ev)
    assert _apart(enc, "c1", "c3") >= 1.5 - 0.02, (enc.get("c1").position, texts(ev))  # 1.5 m: Add ×N's step / 2
