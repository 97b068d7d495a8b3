"""Strike-rank rules a GM found wrong while playing whole fights: an archer shooting from inside a
melee, a blow switched away from a fallen target, a dead defender's fumble question, no knockback
on a killing blow.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fray.errors import RuleViolation  # noqa: E402
from fray.games.strike_rank import odds  # noqa: E402
from sr_helpers import (BOW, JAVELIN, RS, SWORD, actions, attack, declare, do, fight, fighter, prompts,  # noqa: E402
                        texts, to_phase)

# -- 1. Ranged Combat: "Unengaged characters can use missile weapons" ---------------------------------


def _archer_in_melee():
    """Archer (bow, and a sword at her side) with Bandit 1 2 m off (engaged), Bandit 2 30 m off."""
    return fight(fighter("Archer", BOW, SWORD, side="party"), fighter("Bandit 1", x=2), fighter("Bandit 2", x=30))


@pytest.mark.parametrize("target", ["c2", "c3"])
def test_an_engaged_archer_cannot_shoot(target):
    """Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks." (GM play-through:
    an archer engaged with a bandit shot him at her full 60%.) Engaged with Bandit 1, she can shoot neither him
    nor Bandit 2 further off; the refusal says why in the text's words, and nothing changes."""
    enc = to_phase(_archer_in_melee(), "resolve")
    with pytest.raises(RuleViolation, match="Unengaged characters can use missile weapons: Archer is engaged in "
                                            "melee with Bandit 1") as refused:
        attack(enc, "c1", target, weapon="bow", rolls={"attack": 90})
    assert refused.value.rule == "Ranged Combat"
    # she may still fight the melee with her sword
    enc, ev = attack(enc, "c1", "c2", weapon="broadsword", rolls={"attack": 90})
    assert "Archer attacks Bandit 1 with Broadsword: 60%" in texts(ev)


def test_an_engaged_thrower_cannot_throw_either():
    """Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks. ... Thrown weapons (but
    not bows, slings, etc.) allow for splitting the skill": a thrown weapon is a missile weapon of the same
    paragraph, and the engaged cannot throw it either."""
    enc = to_phase(fight(fighter("Hurler", JAVELIN, SWORD, side="party"), fighter("Bandit 1", x=2)), "resolve")
    with pytest.raises(RuleViolation, match="Unengaged characters can use missile weapons: Hurler is engaged"):
        attack(enc, "c1", "c2", weapon="javelin", rolls={"attack": 98})


def test_the_odds_of_an_engaged_archers_shot_say_it_cannot_be_made():
    """Ranged Combat: "Unengaged characters can use missile weapons": the attack form's odds come from the same
    plan as the shot, so they say it cannot be made, and why, instead of 60%."""
    enc = to_phase(_archer_in_melee(), "resolve")
    o = odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "bow",
                                     "defence": {"kind": "dodge"}})
    assert o.skill is None
    assert "Unengaged characters can use missile weapons: Archer is engaged in melee with Bandit 1" in o.error


def test_a_foe_down_beside_the_archer_does_not_hold_her_in_melee():
    """Fighting: "Melee combat takes place between characters engaged in melee, within striking distance of each
    other. Combatants make attacks and try to parry or dodge." A foe lying unconscious beside her makes no attacks
    and parries nothing: the archer is unengaged and shoots the bandit 30 m off at full skill."""
    enc = to_phase(_archer_in_melee(), "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "unconscious"})
    enc, ev = attack(enc, "c1", "c3", weapon="bow", rolls={"attack": 90})
    assert "Archer attacks Bandit 2 with Bow: 60%, rolled 90" in texts(ev)


def test_an_unengaged_archer_still_shoots_into_melee_at_half():
    """Shooting Into Melee: "Any missile attack on a combatant engaged in melee is at half skill." Unchanged: the
    archer 30 m off shoots Bandit 1, who is engaged with her friend, at half skill."""
    enc = to_phase(fight(fighter("Archer", BOW, side="party", x=-30), fighter("Bandit 1", x=2),
                         fighter("Knight", side="party")), "resolve")
    enc, ev = attack(enc, "c1", "c2", weapon="bow", rolls={"attack": 90})
    assert "×0.5 into melee = 30%" in texts(ev)
