"""Ranged combat, fumbles, damage and hit locations, special damage, pulled blows and impales.
Docstrings quote the rule text."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.games.strike_rank import rules
from sr_helpers import (BITE, BOW, JAVELIN, KARATE, RS, SPEAR, SWORD, XBOW, actions, attack, declare, do,
                        duel, fight, fighter, loc, prompts, texts, to_phase, weapon)


@pytest.mark.parametrize("dex_sr,srs", [(2, [2, 7, 12]), (1, [1, 5, 9])])
def test_ranged_combat_s_mr_rate(dex_sr, srs):
    """Ranged Combat: "S/MR: ... the first at DEX SR, subsequent attacks take 3 SR to prepare and DEX SR to make
    (e.g. SR 2, 7, and 12, or SR 1, 5, and 9, etc.).\""""
    assert [b.total for b in rules.missile_srs(dex_sr, "S/MR", 3)] == srs


def test_ranged_combat_1_per_x_mr_reloading():
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading\""""
    enc = to_phase(duel(fighter("Ana", XBOW, side="party"), fighter("Bor", x=20)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, weapon="crossbow", ref="a1", rolls={"attack": 90})
    enc = to_phase(to_phase(enc, "end"), "declare")
    with pytest.raises(RuleViolation, match="not loaded"):
        declare(enc, "c1", kind="missile", weapon="crossbow", target="c2")
    enc, ev = declare(enc, "c1", kind="reload", weapon="crossbow")
    enc = to_phase(enc, "end")
    assert weapon(enc, "c1", "crossbow") and enc.get("c1").data["reload"]["crossbow"]["loaded"] is True
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="crossbow", target="c2")


def test_ranged_combat_thrown_split_5_sr_apart():
    """Ranged Combat: "Thrown weapons (but not bows, slings, etc.) allow for splitting the skill for multiple
    attacks 5 SR apart.\""""
    enc = to_phase(duel(fighter("Ana", JAVELIN, BOW, side="party")), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="javelin", target="c2", shots=2, split=[55, 55])
    assert [a["sr"] for a in actions(enc, "c1")] == [3, 8]
    with pytest.raises(RuleViolation, match="one attack"):
        declare(to_phase(duel(fighter("Ana", dict(BOW, rate="1/MR"), side="party")), "declare"), "c1",
                kind="missile", weapon="bow", target="c2", shots=2)


def test_ranged_combat_thrown_s_mr_at_its_rate_split_is_extra():
    """Ranged Combat: "S/MR: Multiple attacks per MR, the first at DEX SR, subsequent attacks take 3 SR to prepare
    and DEX SR to make" applies to ranged weapons generally; "Thrown weapons ... allow for splitting the skill for
    multiple attacks 5 SR apart" is an extra option (issue 10)."""
    darts = dict(JAVELIN, name="Dart", rate="S/MR")
    enc = to_phase(duel(fighter("Ana", darts, side="party")), "declare")
    at_rate, _ = declare(enc, "c1", kind="missile", weapon="dart", target="c2", shots=2)
    assert [a["sr"] for a in actions(at_rate, "c1")] == [3, 9]
    assert not any(a.get("split") for a in actions(at_rate, "c1"))
    split, _ = declare(enc, "c1", kind="missile", weapon="dart", target="c2", shots=2, split=[55, 55])
    assert [a["sr"] for a in actions(split, "c1")] == [3, 8]


@pytest.mark.parametrize("metres,text", [(60, "60%, rolled"), (100, "×0.5 beyond range 60 m = 30%")])
def test_range_halved_past_range(metres, text):
    """Range: "Up to that range, attacks are made at full skill. Past that and up to double that range, the
    attacker's skill is halved.\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=metres)), "resolve")
    enc, ev = attack(enc, weapon="bow", rolls={"attack": 90})
    assert text in texts(ev)


def test_range_past_double_misses_unless_gm_gives_5_percent():
    """Range: "Past that, attacks are assumed to miss (although the GM may give e.g. a 5% chance of a miraculous
    hit).\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=130)), "resolve")
    enc2, ev = attack(enc, weapon="bow")
    assert "assumed to miss" in texts(ev)
    enc3, ev = attack(enc, weapon="bow", miracle=True, rolls={"attack": 5, "location": 1, "damage": [1, 1]})
    assert "miraculous 5%" in texts(ev) and loc(enc3, "c2", "right_leg")["hp"] < 5


def test_defending_vs_missiles_martial_arts_parry_allowed():
    """Defending vs. Missiles: "not parried with other weapons - except for unarmed Martial Arts parries, which
    work as normal.\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", KARATE, x=10)), "resolve")
    enc, ev = attack(enc, weapon="bow", defence={"kind": "parry", "weapon": "martial_arts"},
                     rolls={"attack": 90, "defence": 40})
    assert "Bor parries with Martial arts: 50%, rolled 40: success" in texts(ev)
    assert enc.get("c2").data["round"]["parries"] == ["martial_arts"]


def test_moving_and_shooting_half_not_running():
    """Moving & Shooting: "A character can make missile attacks while moving at normal rate (but not running),
    but their skill is halved.\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=30)), "declare")
    with pytest.raises(RuleViolation, match="not running"):
        declare(enc, "c1", kind="missile", weapon="bow", target="c2", metres=3, running=True)
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2", metres=3)
    assert actions(enc, "c1")[0]["text"] == "SR 4 = DEX 3 + move 1"
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, weapon="bow", ref="a1", rolls={"attack": 90})
    assert "×0.5 moving = 30%" in texts(ev)


def test_moving_mounts_and_shooting():
    """Moving Mounts & Shooting: "A mounted character only halves their skill if the mount is running.\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=30)), "resolve")
    _, ev = attack(enc, weapon="bow", mount_running=True, rolls={"attack": 90})
    assert "×0.5 mount running = 30%" in texts(ev)
    _, ev = attack(enc, weapon="bow", rolls={"attack": 90})
    assert "mount running" not in texts(ev)


def test_shooting_into_melee_half_near_miss_hits_participant():
    """Shooting Into Melee: "Any missile attack on a combatant engaged in melee is at half skill. If the attack
    misses, but would have hit if the skill was not halved, it hits a random participant in the melee.\""""
    enc = to_phase(fight(fighter("Ana", BOW, side="party", x=30), fighter("Bor"), fighter("Cid", side="party", x=2)),
                   "resolve")
    enc, ev = attack(enc, weapon="bow", rolls={"attack": 45})
    assert "×0.5 into melee = 30%" in texts(ev)
    p = prompts(enc, "stray")[0]
    assert {o["value"] for o in p["options"]} == {"c2", "c3"}
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "c3",
                       "rolls": {"damage": [2, 1], "location": 1}})
    assert loc(enc, "c3", "right_leg")["hp"] == 1  # 1D8+1+1D2 = 2+1+1 = 4


def test_fumble_table_assumed_and_rolled():
    """Fumble Table: "Fumbles on attack, parry, and dodge tests have special results: roll on the following table
    ... if a result is not applicable, roll again\""""
    assert RS.tables["fumbles"]["assumed"] is True
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, rolls={"attack": 100, "fumble_attack": 35})
    assert "Fall prone" in texts(ev) and "prone" in enc.get("c1").conditions
    p = prompts(enc, "fumble")[0]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "reroll", "rolls": {"fumble": 5}})
    assert "Lose next parry" in texts(ev)


@pytest.mark.parametrize("str_siz,dm", [(12, "-1D4"), (13, ""), (24, ""), (25, "+1D4"), (33, "+1D6"),
                                        (41, "+2D6"), (56, "+2D6"), (57, "+3D6"), (73, "+4D6")])
def test_damage_modifier_table(str_siz, dm):
    """Damage: "Successful attacks deal damage equal to weapon damage plus (or minus) the attacker's damage
    modifier" (FACTS: ≤12 −1D4; 13-24 none; 25-32 +1D4; 33-40 +1D6; 41-56 +2D6; +1D6 per further 16)."""
    assert rules.damage_modifier(str_siz, RS.tables["damage_modifier"]) == dm


@pytest.mark.parametrize("use,expr", [("full", "1D8+1+1D4"), ("half", "1D8+1+1D2"), ("none", "1D8+1")])
def test_damage_missiles_and_damage_modifier(use, expr):
    """Damage: "Thrown missiles benefit from the full damage modifier; others (bows, slings) use half the damage
    modifier (halve the die size). Some (bellybows, blowguns, lassos) gain no damage modifier at all.\""""
    assert rules.damage_expression("1D8+1", "+1D4", dm_use=use)[0] == expr


def test_damage_location_hp_armour_and_total():
    """Damage: "The location's armor points (AP) are deducted from the damage, and any remaining damage is deducted
    from the location's HP and the target's total HP.\""""
    enc = to_phase(duel(b=fighter("Bor", armour={"chest": 3})), "resolve")
    assert [l["hp_max"] for l in enc.get("c2").data["locations"]] == [5, 5, 5, 6, 4, 4, 5]
    enc, ev = attack(enc, rolls={"attack": 20, "location": 12, "damage": [5, 2]})  # 8 − 3 = 5
    assert loc(enc, "c2", "chest")["hp"] == 1 and enc.get("c2").data["hp"] == 8


def test_mounted_hit_locations_1d10_plus_10_and_far_side():
    """Mounted Hit Locations: "A mounted combatant rolls 1D10+10 for hit location when making melee attacks against
    combatants on foot. ... attacks that would hit the opposite side instead hit the mount\""""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, mounted_vs_foot=True, rolls={"attack": 20, "location": 3, "damage": [1, 1]})
    assert "1D10+10 (melee) = 13: Right arm" in texts(ev)
    horse = fight(fighter("Horse", BITE, body="quadruped", SIZ=25))
    horse, _ = do(horse, {"type": "add_combatant", "combatant": fighter("Rider", side="party", mount="c1")})
    horse, _ = do(horse, {"type": "add_combatant", "combatant": fighter("Bor")})
    horse = to_phase(horse, "resolve")
    horse, ev = attack(horse, "c3", "c2", attacker_side="right", rolls={"attack": 20, "location": 5, "damage": [1, 1]})
    p = prompts(horse, "apply_damage")[0]
    assert p["combatant"] == "c1" and {o["value"] for o in p["options"]} == {"hindquarters", "forequarters"}


def test_mounted_hit_locations_derived_from_the_riders_mount():
    """Mounted Hit Locations: "A mounted combatant rolls 1D10+10 for hit location when making melee attacks against
    combatants on foot." Fray sees the rider's mount (``mount``) and the target's lack of one; the GM's
    ``mounted_vs_foot`` still wins either way, and a missile attack keeps its 1D20."""
    enc = fight(fighter("Horse", BITE, body="quadruped", SIZ=25, side="party"))
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Rider", SWORD, BOW, side="party", mount="c1")})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Bor")})
    enc = to_phase(enc, "resolve")
    _, ev = attack(enc, "c2", "c3", rolls={"attack": 20, "location": 3, "damage": [1, 1]})
    assert "1D10+10 (melee) = 13: Right arm" in texts(ev)
    _, ev = attack(enc, "c2", "c3", mounted_vs_foot=False, rolls={"attack": 20, "location": 3, "damage": [1, 1]})
    assert "1D20 (melee) = 3" in texts(ev)
    _, ev = attack(enc, "c3", "c2", rolls={"attack": 20, "location": 3, "damage": [1, 1]})  # on foot vs a rider
    assert "1D20 (melee) = 3" in texts(ev)


def test_alternative_hit_locations_gm_decides_or_smaller_die():
    """Alternative Hit Locations: "rolling a smaller die (with a bonus to account for positioning) or simply
    deciding what hit location is struck.\""""
    enc = to_phase(duel(), "resolve")
    _, ev = attack(enc, gm_location="head", rolls={"attack": 20, "damage": [1, 1]})
    assert "the GM places the blow: Head" in texts(ev)
    _, ev = attack(enc, location_die="1D6+14", rolls={"attack": 20, "location": 6, "damage": [1, 1]})
    assert "= 20: Head" in texts(ev)
    with pytest.raises(InvalidAction):
        attack(enc, location_die="1D30", rolls={"attack": 20})


@pytest.mark.parametrize("wtype,expr", [("slashing", "2D6+2+1D4"), ("impaling", "2D6+2+1D4"),
                                        ("crushing", "1D6+1+2D4")])
def test_special_damage_by_type(wtype, expr):
    """Special Damage: "Crushing: Double damage modifier (+1D6 becomes +2D6, etc.). Impaling: Weapon base damage is
    doubled (1D6+1 becomes 2D6+2, etc.) ... Slashing: Weapon base damage is doubled\""""
    assert rules.damage_expression("1D6+1", "+1D4", landing="special", special_type=wtype)[0] == expr


def test_special_damage_bonus_not_doubled_and_critical_maximised():
    """Special Damage: "Bonus points of damage (e.g. Bladesharp) are not increased"; a critical is maximised
    special damage and ignores armour (FACTS)."""
    assert rules.damage_expression("1D6+1", "", landing="special", special_type="slashing", bonus=2)[0] == "2D6+2+2"
    enc = to_phase(duel(b=fighter("Bor", armour=4, hp=30)), "resolve")
    enc, ev = attack(enc, rolls={"attack": 2, "location": 9, "wound.con_shock": 1, "knockback_dex": 1})  # critical: (2D8+2)+1D4 max = 22, AP ignored
    assert loc(enc, "c2", "abdomen")["hp"] == 10 - 22 and "critical ignores armour" in texts(ev)


def test_special_damage_cut_and_thrust_choice():
    """Special Damage: "Cut-and-Thrust: As impaling or slashing, at the attacker's option.\""""
    ct = dict(SWORD, type="cut-and-thrust")
    enc = to_phase(duel(fighter("Ana", ct, side="party"), fighter("Bor", hp=30)), "resolve")
    _, ev = attack(enc, special="slashing", rolls={"attack": 10, "location": 1, "damage": [1, 1, 1]})
    assert "impales" not in texts(ev)
    _, ev = attack(enc, special="impaling", rolls={"attack": 10, "location": 1, "damage": [1, 1, 1]})
    assert "impales" in texts(ev)


def test_pulling_blows():
    """Pulling Blows: "any die ... can be reduced to a smaller die (down to 1D3), damage modifier may be dropped
    entirely, or bonus points ... reduced down to 0. If the damage modifier is negative, it cannot be reduced or
    dropped.\""""
    assert rules.damage_expression("1D8+1", "+1D4", pull={"drop_modifier": True, "die_sides": 3, "bonus": 0})[0] == "1D3+0"
    assert rules.damage_expression("1D8+1", "+1D4", pull={"die_sides": 2})[0] == "1D3+1+1D4"
    enc = to_phase(duel(fighter("Ana", side="party", STR=5, SIZ=7)), "resolve")
    with pytest.raises(RuleViolation, match="negative damage modifier"):
        attack(enc, pull={"drop_modifier": True}, rolls={"attack": 20, "location": 1, "damage": [1, 1]})


def test_impale_stuck_pull_half_and_end_of_round():
    """Impale: "When a weapon impales a character ..., it is stuck. A melee attacker can make a weapon skill test
    at half rating to immediately free the weapon." "An impaled character suffers half the weapon's damage ...
    each MR they move or fight. The injured location cannot be healed while the weapon is stuck in.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party"), fighter("Bor", hp=30)), "resolve")
    enc, ev = attack(enc, weapon="spear", rolls={"attack": 10, "location": 1, "damage": [1, 1, 1]})
    assert enc.get("c2").data["impaled"][0]["weapon"] == "spear"
    with pytest.raises(RuleViolation, match="cannot be healed"):
        do(enc, {"type": "sr.heal", "target": "c2", "location": "right_leg", "points": 3})
    p = prompts(enc, "unstick")[0]
    failed, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "pull", "rolls": {"pull": 31}})
    assert "30%: rolled 31, failure" in texts(ev) and failed.get("c2").data["impaled"]
    freed, _ = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "pull", "rolls": {"pull": 30}})
    assert freed.get("c2").data["impaled"] == [] and not weapon(freed, "c1", "spear").get("stuck_in")
    enc = to_phase(failed, "end")
    p = prompts(enc, "impaled")[0]
    before = loc(enc, "c2", "right_leg")["hp"]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "yes", "rolls": {"impale_damage": [5]}})
    assert loc(enc, "c2", "right_leg")["hp"] == before - 3  # 1D8+1 = 6, halved = 3


def test_impale_removal_con_x3_and_breaking():
    """Impale: "The character can try to remove it with First Aid or CON×3% tests ... Breaking an impaled weapon
    does nothing, since part of it is stuck inside.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party"), fighter("Bor", hp=30)), "resolve")
    enc, _ = attack(enc, weapon="spear", rolls={"attack": 10, "location": 1, "damage": [1, 1, 1]})
    base = {"type": "sr.unstick", "id": "c2", "holder": "c2", "owner": "c1", "weapon": "spear"}
    with pytest.raises(RuleViolation, match="Breaking an impaled weapon does nothing"):
        do(enc, {**base, "method": "break"})
    enc, ev = do(enc, {**base, "method": "con", "rolls": {"test": 36}})
    assert "36%: rolled 36, success" in texts(ev) and enc.get("c2").data["impaled"] == []


HUMANOID = [  # FACTS: location, melee d20, missile d20, HP share
    ("right_leg", (1, 4), (1, 3), 0), ("left_leg", (5, 8), (4, 6), 0), ("abdomen", (9, 11), (7, 10), 0),
    ("chest", (12, 12), (11, 15), 1), ("right_arm", (13, 15), (16, 17), -1), ("left_arm", (16, 18), (18, 19), -1),
    ("head", (19, 20), (20, 20), 0)]


@pytest.mark.parametrize("total", [1, 9, 10, 11, 12, 13, 14, 20])
def test_damage_hit_location_tables_and_location_hp(total):
    """Damage: "Attacks strike a random hit location: use the appropriate melee or missile hit location table for
    the target." (FACTS: legs 01-04/05-08, abdomen 09-11, chest 12, arms 13-15/16-18, head 19-20 in melee; missile
    01-03, 04-06, 07-10, 11-15, 16-17, 18-19, 20; location HP ceil(total HP/3), chest +1, arms −1, at least 1.)"""
    enc = fight(fighter("Bor", hp=total))
    locs = enc.get("c1").data["locations"]
    assert [(l["id"], tuple(l["melee"]), tuple(l["missile"])) for l in locs] == [h[:3] for h in HUMANOID]
    third = -(-total // 3)
    assert [l["hp_max"] for l in locs] == [max(1, third + h[3]) for h in HUMANOID]
    assert third == {1: 1, 9: 3, 10: 4, 11: 4, 12: 4, 13: 5, 14: 5, 20: 7}[total]  # ceil, not round or floor


def test_critical_ignores_armour_but_not_magical_protection():
    """Results: "Critical Hit: Special damage, ignores armor (but not magical protection)": 4 AP of armour are
    ignored, 2 points of magical protection (``sr.protection``, the GM's Protection spell) are not."""
    enc = to_phase(duel(b=fighter("Bor", armour=4, hp=30)), "resolve")
    enc, ev = do(enc, {"type": "sr.protection", "target": "c2", "points": 2, "reason": "Protection 2"})
    assert enc.get("c2").data["protection"] == {"points": 2, "reason": "Protection 2"}
    assert "magical protection 2 (Protection 2)" in texts(ev)
    crit, ev = attack(enc, rolls={"attack": 2, "location": 9, "wound.con_shock": 1, "knockback_dex": 1})
    assert loc(crit, "c2", "abdomen")["hp"] == 10 - (22 - 2)
    assert "critical ignores armour" in texts(ev) and "incl. magical protection 2" in texts(ev)
    # a normal hit meets both: 1D8+1+1D4 typed as 5+1 and 3 = 9, less 4 AP and 2 of protection
    hit, _ = attack(enc, rolls={"attack": 40, "location": 9, "damage": [5, 3], "knockback_dex": 1})
    assert loc(hit, "c2", "abdomen")["hp"] == 10 - (9 - 6)
    # GM damage with "armour stops" counts it; 0 ends it, and there is then nothing to end
    gm, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": "abdomen", "amount": 8})
    assert loc(gm, "c2", "abdomen")["hp"] == 10 - 2
    ended, ev = do(enc, {"type": "sr.protection", "target": "c2", "points": 0})
    assert "protection" not in ended.get("c2").data and "magical protection (2) ends" in texts(ev)
    with pytest.raises(InvalidAction) as e:
        do(ended, {"type": "sr.protection", "target": "c2", "points": 0})
    assert e.value.field == "points"
    for bad in (-1, 31, "2", True):
        with pytest.raises(InvalidAction) as e:
            do(enc, {"type": "sr.protection", "target": "c2", "points": bad})
        assert e.value.field == "points"


HEAVY_XBOW = {"name": "Heavy crossbow", "skill": 60, "damage": "2D6+2", "hp": 10, "type": "impaling", "missile": True,
              "rate": "1/3MR", "range": 150, "enc": 4, "hand": "both", "dm": "none"}


def test_bolt_parried_by_shield_sticks_not_the_crossbow():
    """Shield Parries and Impales: "If a shield parries an impale ... the weapon is stuck in the shield. Add up the
    total ENC of stuck weapons: ENC below 1: No effect." It is the missile that sticks: "Parrying Missile Weapons:
    Obviously, a missile weapon cannot be damaged by a parry", and under "Impale" only "A melee attacker can make a
    weapon skill test at half rating to immediately free the weapon." (GM play-through: the Heavy crossbow itself
    stuck in the Medium shield, ENC 4, and the crossbowman was disarmed for the rest of the fight.)"""
    enc = to_phase(duel(fighter("Crossbowman", HEAVY_XBOW, x=30), fighter("Knight", side="party", hp=40, armour=5)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="heavy_crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, "c1", "c2", weapon="heavy_crossbow", ref="a1",
                     defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 10, "defence": 50, "location": 12, "damage": [6, 6, 6, 6]})
    log = texts(ev)
    assert "missile from Heavy crossbow sticks in Shield (stuck ENC 0.1: no effect)" in log
    stuck = weapon(enc, "c2", "shield")["stuck"]
    assert len(stuck) == 1 and stuck[0]["enc"] < 1 and "Heavy crossbow" in stuck[0]["name"]
    assert rules.stuck_effect(stuck[0]["enc"], RS.tables["stuck_weapons"]) == "none"
    assert weapon(enc, "c2", "shield")["hp"] == 12  # "impaling weapons do not damage" the shield
    assert not weapon(enc, "c1", "heavy_crossbow").get("stuck_in")
    assert not prompts(enc, "unstick")  # the shooter has nothing in hand to pull out
    # the crossbowman keeps the crossbow and reloads it (1/3MR: the intervening MR spent reloading)
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, ev = declare(enc, "c1", kind="reload", weapon="heavy_crossbow")
    assert "does not carry" not in texts(ev)
    # the knight can still work the bolt out of his shield (STR×3%, 1 MR)
    enc, ev = do(enc, {"type": "sr.unstick", "id": "c2", "holder": "c2", "owner": "c1", "weapon": "heavy_crossbow",
                       "method": "str", "rolls": {"test": 5}})
    assert weapon(enc, "c2", "shield")["stuck"] == [] and not weapon(enc, "c1", "heavy_crossbow").get("dropped")


def test_shooting_into_melee_a_wolf_that_closed_and_bites_is_engaged():
    """Shooting Into Melee: "Any missile attack on a combatant engaged in melee is at half skill." Engagement: "For
    human-sized combatants, engagement range is about 3 meters or less." (GM play-through: the Great wolf had closed
    on Archer 2 last Melee Round, its token drawn 3.0 m off, and bit again from there with nothing to move; the
    Archer's odds with Into melee on "Auto (from the map)" said 70%, not 35%.)"""
    from fray.games.strike_rank import odds
    wolf = fighter("Great wolf", BITE, body="quadruped", x=7.3, y=2.9)
    enc = to_phase(fight(fighter("Archer", BOW, side="party", x=-20), fighter("Archer 2", side="party"), wolf),
                   "declare")
    enc, _ = declare(enc, "c3", kind="melee", weapon="bite", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "sr.attack", "attacker": "c3", "target": "c2", "weapon": "bite", "move_token": True,
                      "ref": actions(enc, "c3")[0]["ref"], "defence": {"kind": "none"}}, attack=90)
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, _ = declare(enc, "c3", kind="melee", weapon="bite", target="c2")
    assert not actions(enc, "c3")[-1]["moving"]  # the wolf bites from where it stands
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c3")
    enc = to_phase(enc, "resolve")
    shot = {"type": "sr.attack", "attacker": "c1", "target": "c3", "weapon": "bow", "defence": {"kind": "none"},
            "ref": actions(enc, "c1")[-1]["ref"]}
    o = odds.exchange_odds(RS, enc, shot)
    assert (o.skill, o.skill_text) == (30, "60% → ×0.5 into melee = 30%")
    _, ev = do(enc, shot, attack=90)
    assert "×0.5 into melee = 30%" in texts(ev)
