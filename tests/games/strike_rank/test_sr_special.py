"""Special attacks and circumstances. Docstrings quote the rule text."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from sr_helpers import (BOW, GRAPPLE, RAPIER, RS, SWORD, actions, attack, declare, do, duel, fighter,
                        loc, prompts, texts, to_phase, weapon)


def test_special_attacks_melee_only():
    """Special Attacks: "Most special attacks are only possible in melee." (Disarm, Push, Stun: "Melee only.")"""
    enc = to_phase(duel(fighter("Ana", BOW, side="party")), "resolve")
    for mode in ("disarm", "push", "stun"):
        with pytest.raises(RuleViolation, match="Melee only"):
            attack(enc, weapon="bow", mode=mode, aim="head", rolls={"attack": 20})


def test_aimed_attack_half_skill_chosen_location():
    """Aimed Attack (½ skill): "An attacker can halve their skill in order to choose a hit location instead of
    determining it randomly.\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mode="aimed", aim="left_arm", rolls={"attack": 20, "damage": [1, 1]})
    assert "×0.5 aimed = 30%" in texts(ev) and loc(enc, "c2", "left_arm")["hp"] == 1


@pytest.mark.parametrize("roll,faces,left", [(20, [8, 4], 11), (1, None, 12 - 22)])
def test_attack_weapon_excess_or_full_on_critical(roll, faces, left):
    """Attack Weapon (½ skill): "Any damage ... in excess of the targeted weapon's HP reduced the weapon HP. On a
    critical hit, the targeted weapon's HP is reduced by the full damage rolled.\""""
    enc = to_phase(duel(), "resolve")
    rolls = {"attack": roll, **({"damage": faces} if faces else {})}
    enc, ev = attack(enc, mode="attack_weapon", target_weapon="shield", rolls=rolls)
    assert weapon(enc, "c2", "shield")["hp"] == left and "×0.5 attack weapon" in texts(ev)


def test_attack_weapon_parrying_weapon_becomes_target():
    """Attack Weapon (½ skill): "If the parry is made with a different weapon, that weapon becomes the target
    instead. Parrying does not reduce the damage\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mode="attack_weapon", target_weapon="shield", defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 20, "defence": 50, "damage": [8, 4]})
    assert weapon(enc, "c2", "broadsword")["hp"] == 11 and weapon(enc, "c2", "shield")["hp"] == 12


def test_attack_object_held_half_unattended_full():
    """Attack Object (full or ½ skill): "Attacking a non-weapon object held or carried by another combatant is at
    half skill ... Attacking an unattended object is at full skill. A successful attack reduces the object's HP by
    the amount the rolled damage exceeds them by.\""""
    enc = to_phase(duel(), "resolve")
    _, ev = attack(enc, mode="attack_object", object={"name": "lantern", "hp": 4, "held": True},
                   rolls={"attack": 20, "damage": [5, 2]})
    assert "×0.5 held object = 30%" in texts(ev) and "lantern: 1D8+1+1D4 = 5+1+2 = 8 (typed); loses 4 HP" in texts(ev)
    _, ev = attack(enc, mode="attack_object", object={"name": "door", "hp": 10, "held": False},
                   rolls={"attack": 50, "damage": [5, 2]})
    assert "60%, rolled 50: success" in texts(ev)
    with pytest.raises(RuleViolation, match="unattended"):
        attack(enc, mode="attack_object", object={"name": "door", "hp": 10, "held": False}, defence="dodge",
               rolls={"attack": 50, "defence": 50})


@pytest.mark.parametrize("parry_roll,dropped", [(70, True), (50, False)])
def test_disarm_opposed_test(parry_roll, dropped):
    """Disarm (½ skill): "This is an opposed test of weapon skills, and the attacker's skill is halved. ... If the
    attacker wins, the defender's weapon is knocked out of their hands\""""
    enc = to_phase(duel(), "resolve")
    rolls = {"attack": 20, "defence": parry_roll, **({"disarm_distance": 3} if dropped else {})}
    enc, ev = attack(enc, mode="disarm", defence={"kind": "parry", "weapon": "broadsword"}, rolls=rolls)
    assert bool(weapon(enc, "c2", "broadsword").get("dropped")) is dropped


def test_disarm_dodge_avoids():
    """Disarm (½ skill): "the defender may also dodge to avoid the attempt entirely.\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mode="disarm", target_weapon="broadsword", defence="dodge", rolls={"attack": 20, "defence": 30})
    assert "dodges the disarm" in texts(ev)


def test_grappling_grab_immobilize_damage_break():
    """Grappling: "A successful Grapple attack grabs hold of a hit location." "Immobilize: ... An immobilized limb
    cannot be used" "Damage: ... deal 1D3 + damage modifier to the limb, bypassing any armor." "Break Hold\""""
    enc = to_phase(duel(fighter("Ana", GRAPPLE, side="party"), fighter("Bor", armour=3)), "resolve")
    enc, ev = attack(enc, weapon="grapple", mode="grapple", aim="right_arm", rolls={"attack": 20})
    assert "grappled" in enc.get("c2").conditions
    with pytest.raises(RuleViolation, match="Immobilized limbs only"):
        do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "damage", "rolls": {"resistance": 1}})
    enc, ev = do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "immobilize",
                       "rolls": {"resistance": 50}})
    assert loc(enc, "c2", "right_arm")["immobilized_by"] == "c1"
    with pytest.raises(RuleViolation):
        attack(enc, "c2", "c1", rolls={"attack": 20})
    enc, ev = do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "damage",
                       "rolls": {"resistance": 50, "damage": [2, 1]}})
    assert loc(enc, "c2", "right_arm")["hp"] == 1  # 1D3+1D4 = 3, armour 3 bypassed
    enc, ev = do(enc, {"type": "sr.grapple", "id": "c2", "target": "c1", "option": "break", "rolls": {"resistance": 51}})
    assert enc.get("c1").data["grips"]
    enc, ev = do(enc, {"type": "sr.grapple", "id": "c2", "target": "c1", "option": "break", "rolls": {"resistance": 50}})
    assert not enc.get("c1").data["grips"] and "grappled" not in enc.get("c2").conditions
    assert loc(enc, "c2", "right_arm")["immobilized_by"] == ""


def test_grappling_fumble_loses_grip_and_choke_head_only():
    """Grappling: "On a Failure, the attacker retains their grip on the target. On a Fumble, they lose their grip."
    "Choke: Immobilized head only.\""""
    enc = to_phase(duel(fighter("Ana", GRAPPLE, side="party"), fighter("Bor")), "resolve")
    enc, _ = attack(enc, weapon="grapple", mode="grapple", aim="left_leg", rolls={"attack": 20})
    with pytest.raises(RuleViolation, match="Immobilized head only"):
        do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "choke", "rolls": {"resistance": 1}})
    kept, _ = do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "immobilize",
                       "rolls": {"resistance": 80}})
    assert kept.get("c1").data["grips"]
    lost, _ = do(enc, {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "immobilize",
                       "rolls": {"resistance": 100}})
    assert not lost.get("c1").data["grips"]


def test_push_uses_str_plus_siz_parry_does_not_prevent():
    """Push: "Use the attacker's STR+SIZ instead of damage. A parry does not prevent the knockback\""""
    enc = to_phase(duel(fighter("Ana", side="party", STR=18), fighter("Bor", SIZ=10)), "resolve")
    enc, ev = attack(enc, mode="push", defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 20, "defence": 40, "knockback_dex": 1})
    assert "knocked back 7 m (STR+SIZ 31 > SIZ 10)" in texts(ev)
    assert loc(enc, "c2", "right_leg")["hp"] == 5


def test_stun_arm_disabled_then_recovers():
    """Stun (½ skill): "an opposed test between ([damage] - [AP])×5% and the target's CON×5% ... Arm: The arm is
    disabled for 1D6 MR\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mode="stun", aim="right_arm",
                     rolls={"attack": 20, "damage": [5, 2], "stun_attack": 30, "stun_resist": 70, "stun_mr": 2})
    assert "×0.5 stun" in texts(ev) and "(8 − AP 0)×5 = 40%" in texts(ev)
    assert loc(enc, "c2", "right_arm")["hp"] == 4  # "it deals no damage"
    assert RS.view(enc)["combatants"]["c2"]["locations"][4]["disabled"] is True
    enc = to_phase(enc, "end")
    enc = to_phase(to_phase(enc, "declare"), "end")
    assert RS.view(enc)["combatants"]["c2"]["locations"][4]["disabled"] is False


def test_stun_other_vitals_incapacitated_one_mr():
    """Stun (½ skill): "Other Vitals: The target is incapacitated for 1 MR, unable to act (including parry or
    dodge).\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mode="stun", aim="chest",
                     rolls={"attack": 20, "damage": [5, 2], "stun_attack": 30, "stun_resist": 70})
    assert "incapacitated" in enc.get("c2").conditions
    with pytest.raises(RuleViolation, match="incapacitated"):
        attack(to_phase(enc, "resolve"), "c1", "c2", weapon="shield", defence="dodge",
               rolls={"attack": 20, "defence": 20})
    enc = to_phase(enc, "end")
    assert "incapacitated" not in enc.get("c2").conditions


def test_circumstances_and_cover_hard_cover_prompt_and_critical_bypass():
    """Circumstances / Cover / Hard Cover: "any attack that would hit a covered location strikes the cover instead
    ... A critical hit bypasses the cover: re-roll for a hit location that is not covered.\""""
    enc = to_phase(duel(b=fighter("Bor", hp=40)), "resolve")
    cover = {"hard": ["right_leg", "left_leg"]}
    blocked, ev = attack(enc, cover=cover, rolls={"attack": 20, "location": 2, "damage": [5, 2]})
    assert prompts(blocked, "hard_cover") and loc(blocked, "c2", "right_leg")["hp"] == 14
    p = prompts(blocked, "hard_cover")[0]
    through, _ = do(blocked, {"type": "sr.answer", "prompt": p["id"], "choice": "through", "amount": 3})
    assert loc(through, "c2", "right_leg")["hp"] == 11
    crit, ev = attack(enc, cover=cover, rolls={"attack": 1, "location": 2, "location_2": 12, "knockback_dex": 1})
    assert "bypasses hard cover" in texts(ev) and loc(crit, "c2", "chest")["hp"] == 15 - 22


def test_soft_cover_half_or_aim_uncovered():
    """Soft Cover: "If most of the combatant is hidden, attacks are at ½ skill; the attacker may make an aimed attack
    at an uncovered hit location instead.\""""
    enc = to_phase(duel(), "resolve")
    _, ev = attack(enc, cover={"soft": True}, rolls={"attack": 90})
    assert "×0.5 soft cover = 30%" in texts(ev)
    _, ev = attack(enc, cover={"soft": True}, mode="aimed", aim="head", rolls={"attack": 90})
    assert "soft cover" not in texts(ev) and "×0.5 aimed = 30%" in texts(ev)


def test_shields_as_cover_ap_and_penetration():
    """Shields as Cover: "granting them AP equal to ½ the shield's HP. The shield cannot be used to parry. If the
    shield is penetrated by an attack, it loses 1 HP.\""""
    enc = to_phase(duel(b=fighter("Bor", hp=30)), "resolve")
    sc = {"weapon": "shield", "locations": ["left_arm", "chest"]}
    with pytest.raises(RuleViolation, match="cannot be used to parry"):
        attack(enc, shield_cover=sc, defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 20, "defence": 20})
    enc, ev = attack(enc, shield_cover=sc, rolls={"attack": 20, "location": 12, "damage": [8, 4]})
    assert loc(enc, "c2", "chest")["hp"] == 11 - (13 - 6) and weapon(enc, "c2", "shield")["hp"] == 11


def test_underwater_combat():
    """Underwater Combat: "non-aquatic characters attack, parry, and dodge at ½ skill. Only impaling or cut-and-thrust
    weapons may be used ... Underwater opponents have an extra 3 AP (critical-proof)\""""
    enc = to_phase(duel(fighter("Ana", SWORD, RAPIER, side="party"), fighter("Bor")), "resolve")
    with pytest.raises(RuleViolation, match="Only impaling"):
        attack(enc, water="under", rolls={"attack": 20})
    enc2, ev = attack(enc, weapon="rapier", water="under", defence="dodge",
                      rolls={"attack": 20, "defence": 90, "location": 1, "damage": [6, 1]})
    assert "60% → ×0.5 in water = 30%" in texts(ev) and "40% → ×0.5 in water = 20%" in texts(ev)
    assert loc(enc2, "c2", "right_leg")["hp"] == 5 - (8 - 3)
    _, ev = attack(enc, weapon="rapier", water="waist", defence="dodge", rolls={"attack": 90, "defence": 90})
    assert "×0.5 waist-deep = 20%" in texts(ev) and "60%, rolled 90" in texts(ev)


def test_other_actions_at_dex_sr_plus_time():
    """Other Actions: "Each action takes a certain amount of time, and most are begun at DEX SR (plus any movement
    required).\""""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="other", label="draw dagger", sr_cost=2, metres=3)
    a = actions(enc, "c1")[0]
    assert a["text"] == "SR 6 = DEX 3 + move 1 + draw dagger 2"
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "advance"})
    assert actions(enc, "c1")[0]["status"] == "done" and "draw dagger done at SR 6" in texts(ev)


def test_shields_as_cover_penetrated_when_the_blow_beats_the_shield_not_the_armour_behind_it():
    """Shields as Cover: "granting them AP equal to ½ the shield's HP ... If the shield is penetrated by an attack,
    it loses 1 HP." The shield (12 HP: 6 AP) stands in front of the chest's own armour (3 AP): a blow of 8 goes
    through the shield (8 > 6), so the shield loses 1 HP, though the armour behind stops the last 2 points."""
    enc = to_phase(duel(b=fighter("Bor", hp=30, armour={"chest": 3})), "resolve")
    sc = {"weapon": "shield", "locations": ["chest"]}
    enc, ev = attack(enc, shield_cover=sc, rolls={"attack": 20, "location": 12, "damage": [5, 2]})  # 5+1+2 = 8
    assert weapon(enc, "c2", "shield")["hp"] == 11
    assert loc(enc, "c2", "chest")["hp"] == 11  # 8 − 6 − 3 < 0: nothing reaches the chest
    enc, ev = attack(to_phase(duel(b=fighter("Bor", hp=30, armour={"chest": 3})), "resolve"), shield_cover=sc,
                     rolls={"attack": 20, "location": 12, "damage": [4, 1]})  # 4+1+1 = 6: stopped by the shield
    assert weapon(enc, "c2", "shield")["hp"] == 12
