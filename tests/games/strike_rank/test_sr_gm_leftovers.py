"""Strike-rank rules a GM's play-through left: the fallen and the prone asked to keep their feet
after a knockback, a severed-limb question put to the dead, charges and braced spears not timed
again after a move, and a declaration's movement breakdown a GM had to decode.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fray.games.strike_rank import odds  # noqa: E402
from sr_helpers import RS, attack, do, fight, fighter, prompts, texts, to_phase  # noqa: E402

GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}

# -- 1. Knockback: "The target needs to make a DEX×5% roll or fall prone" ---------------------------------


def _blow_on(condition: str | None):
    """Ana's greatsword strikes Bor (armoured: the blow barely wounds) for a rolled 14 > SIZ 13: 3 m back."""
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2, armour=10)), "resolve")
    if condition:
        enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": condition, "on": True})
    return attack(enc, weapon="greatsword", rolls={"attack": 10, "location": 10, "damage": [5, 5, 2],
                                                    "knockback_dex": 1})


@pytest.mark.parametrize("condition", ["unconscious", "incapacitated"])
def test_one_who_cannot_act_makes_no_dex_roll_and_falls(condition):
    """Knockback: "The target needs to make a DEX×5% roll or fall prone." The roll is what keeps a knocked-back
    character on his feet; the unconscious and the incapacitated ("unable to take any action") cannot make it,
    so they go down where they land, and no DEX roll is made or logged."""
    enc, ev = _blow_on(condition)
    assert "Bor is knocked back 3 m (rolled damage 14 > SIZ 13)" in texts(ev)
    assert "DEX×5" not in texts(ev)
    assert f"Bor is {condition}: no DEX roll to keep their feet; falls prone" in texts(ev)
    assert "prone" in enc.get("c2").conditions


def test_one_already_down_makes_no_dex_roll():
    """Knockback: "The target needs to make a DEX×5% roll or fall prone." One already prone has no feet to
    keep: he is knocked back along the ground, with no roll."""
    enc, ev = _blow_on("prone")
    assert "Bor is knocked back 3 m" in texts(ev)
    assert "DEX×5" not in texts(ev)
    assert "Bor is already prone: no DEX roll" in texts(ev)
    assert "prone" in enc.get("c2").conditions


def test_one_standing_still_rolls():
    """Knockback: "The target needs to make a DEX×5% roll or fall prone": a standing, conscious target rolls."""
    enc, ev = _blow_on(None)
    assert "Bor keeps their feet: DEX×5 55%: rolled 1" in texts(ev)
    assert "prone" not in enc.get("c2").conditions


def test_the_odds_of_a_push_on_one_who_cannot_act_show_no_dex_roll():
    """Push: "Use the attacker's STR+SIZ instead of damage"; Knockback: "The target needs to make a DEX×5% roll
    or fall prone." The odds the page shows for a push on the unconscious offer no chance of keeping their
    feet, and on the prone no falling."""
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2)), "resolve")
    push = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "greatsword", "mode": "push",
            "defence": {"kind": "none"}}
    standing = odds.exchange_odds(RS, enc, push).alternative("none").effect
    assert any("keeps their feet" in k for k in standing)
    for condition, shown in (("unconscious", "Knocked back 6 m, falls prone"), ("prone", "Knocked back 6 m")):
        down, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": condition, "on": True})
        effect = odds.exchange_odds(RS, down, push).alternative("none").effect
        assert shown in effect and not any("keeps their feet" in k for k in effect), effect


@pytest.mark.parametrize("condition,said", [("unconscious", "Cal is unconscious: no DEX roll; falls prone"),
                                            ("prone", "Cal is already prone: no DEX roll")])
def test_one_struck_by_a_knocked_back_body_who_cannot_act_or_is_down_makes_no_dex_test(condition, said):
    """Colliding: "If knockback causes a combatant to collide with another combatant ..., that combatant must
    also make a DEX test or fall prone." The same test as the one knocked back makes: Cal, unconscious or
    already prone, makes none."""
    enc, _ = _blow_on(None)
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Cal", x=4, y=0)})
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": condition, "on": True})
    p = prompts(enc, "collision")[0]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "combatant", "with": "c3",
                       "rolls": {"collision_dex": 1}})
    assert "Cal is struck" not in texts(ev) and "DEX×5" not in texts(ev)
    assert said in texts(ev)
    assert "prone" in enc.get("c3").conditions


# -- 2. Damage Equal to Triple Location HP: "Limb is mangled or severed" -------------------------------------


def _hurt(enc, where: str, amount: int):
    return do(enc, {"type": "sr.damage", "target": "c2", "location": where, "amount": amount})


def test_a_limb_mangled_by_the_blow_that_kills_asks_nothing_until_resuscitated():
    """Damage Equal to Triple Location HP: "Limb: Limb is mangled or severed; it is useless (as maimed) and bleeds
    1 total HP per MR." Mangled or severed, the limb is as useless and bleeds the same, and "Dead characters cannot
    do anything": the answer changes nothing for the dead, so Bor, killed by the blow, is not asked. Only healing
    tells the two apart ("Severed limbs can be re-attached by Heal Body"), and that matters once he lives again
    ("can be resuscitated and saved from death within 12 SR"): then the question is asked."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "chest", 5)  # total 13 − 5 = 8
    enc, ev = _hurt(enc, "left_arm", 12)  # arm HP 4 → −8: mangled; total −4: killed
    assert "dead" in enc.get("c2").conditions and "mangled" in texts(ev)
    assert prompts(enc, "severed") == [] and "is it severed?" not in texts(ev)
    enc, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "total", "kind": "rune", "points": 6})
    assert "Bor is resuscitated" in texts(ev)
    [p] = prompts(enc, "severed")
    assert p["text"] == "Bor's Left arm is mangled: is it severed?"


def test_an_open_severed_question_is_set_aside_when_its_combatant_dies():
    """"Limb is mangled or severed": the question stays open while Bor lives; "Dead characters cannot do anything",
    so when he dies it is set aside, said in the log, and asked again if he is resuscitated."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "left_arm", 12)  # mangled; total 13 − 12 = 1
    assert "dead" not in enc.get("c2").conditions and len(prompts(enc, "severed")) == 1
    enc, ev = _hurt(enc, "right_leg", 2)  # total −1: killed
    assert "dead" in enc.get("c2").conditions and prompts(enc, "severed") == []
    assert ("The question whether Bor's Left arm is severed is set aside: Bor is dead; it is asked again if Bor "
            "is resuscitated") in texts(ev)
    enc, _ = do(enc, {"type": "sr.heal", "target": "c2", "location": "total", "kind": "rune", "points": 6})
    assert [p["text"] for p in prompts(enc, "severed")] == ["Bor's Left arm is mangled: is it severed?"]


def test_a_limb_mangled_on_one_alive_is_still_asked():
    """"Limb is mangled or severed": the living are asked, as before."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "left_arm", 12)
    assert [p["text"] for p in prompts(enc, "severed")] == ["Bor's Left arm is mangled: is it severed?"]
