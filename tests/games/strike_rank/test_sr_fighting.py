"""Fighting and the resolution of an exchange: allowances, engagement, charges, the procedure and
matrices, parries of every kind, stuck weapons and knockback. Docstrings quote the rule text."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.strike_rank import rules
from sr_helpers import (AXE, BITE, BOW, FIST, KARATE, LANCE, MACE, RS, SPEAR, SWORD, actions, attack,
                        declare, do, duel, fight, fighter, loc, prompts, texts, to_phase, weapon)

HIT = {"attack": 20, "location": 1}  # a plain success (60%: special is 12 or less) on the right leg


def test_fighting_one_attack_one_parry_unlimited_dodges():
    """Fighting: "Each round, characters get one attack and one parry ... Characters have unlimited dodges, but
    each one after the first suffers a cumulative -20% penalty.\""""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor"), fighter("Cid", side="party")), "resolve")
    enc, _ = attack(enc, "c1", "c2", defence="dodge", rolls={"attack": 90, "defence": 50})
    enc, _ = attack(enc, "c3", "c2", defence="dodge", rolls={"attack": 90, "defence": 50})
    enc, ev = attack(enc, "c3", "c2", weapon="shield", defence="dodge", rolls={"attack": 90, "defence": 50})
    assert "40% → -40 = 0%" in texts(ev)
    with pytest.raises(RuleViolation, match="already attacked"):
        attack(enc, "c1", "c2", rolls={"attack": 90})


def test_fighting_second_weapon_extra_attack_or_parry():
    """Fighting: "Characters wielding a weapon and a shield, or two weapons, get an extra attack OR parry using
    the shield or second weapon.\""""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor"), fighter("Cid", side="party")), "resolve")
    miss = {"attack": 90, "defence": 90}
    enc, _ = attack(enc, "c1", "c2", defence={"kind": "parry", "weapon": "shield"}, rolls=miss)
    enc, _ = attack(enc, "c3", "c2", defence={"kind": "parry", "weapon": "broadsword"}, rolls=miss)
    with pytest.raises(RuleViolation, match="already parried"):
        attack(enc, "c3", "c2", weapon="shield", defence={"kind": "parry", "weapon": "broadsword"}, rolls=miss)


@pytest.mark.parametrize("skill,parts,ok", [(120, [60, 60], True), (100, [50, 50], True), (90, [50, 40], False),
                                            (130, [80, 40], False), (120, [70, 60], False)])
def test_fighting_splitting_skill(skill, parts, ok):
    """Fighting: "Characters with a base skill rating of 100% or higher can split their skill ... The minimum
    rating assigned is 50%\""""
    assert (rules.check_split(skill, parts) is None) == ok


def test_fighting_multipliers_before_split_then_bonuses():
    """Fighting: "Apply multipliers first, then bonuses and penalties"; "this is calculated before the skill is
    divided ... Bonuses and penalties are applied after the skill is divided.\""""
    s = rules.modified_skill(130, [0.5], None, 20, ["aimed"])
    assert s.value == 85  # 130 × ½ = 65, + 20 (not (130 + 20) × ½ = 75)
    assert rules.check_split(rules.modified_skill(150, [0.5]).value, [50, 25]) is not None  # 75%: cannot split
    assert rules.modified_skill(120, [], 60, -10).value == 50


def test_engagement_within_3_m():
    """Engagement: "For human-sized combatants, engagement range is about 3 meters or less.\""""
    from fray.games.strike_rank.combat import engaged_with
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=3), fighter("Cid", x=3.5), fighter("Dan", side="party", x=1))
    assert [c.id for c in engaged_with(enc, enc.get("c1"))] == ["c2"]


def test_disengaging_outnumbering_and_half_siz():
    """Disengaging: "If one side is outnumbered, their opponents can disengage freely ... Creatures cannot be
    outnumbered by enemies half their SIZ or less.\""""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Ben", side="party", x=1), fighter("Bor", x=2)), "declare")
    enc2, ev = do(enc, {"type": "sr.disengage", "id": "c1", "how": "outnumbered"})
    assert "disengages freely: 2 against 1" in texts(ev)
    giant = to_phase(fight(fighter("Ana", side="party", SIZ=8), fighter("Ben", side="party", x=1, SIZ=8),
                           fighter("Troll", x=2, SIZ=16)), "declare")
    with pytest.raises(RuleViolation, match="does not outnumber"):
        do(giant, {"type": "sr.disengage", "id": "c1", "how": "outnumbered"})


def test_disengaging_fleeing_free_attack_dodge_half():
    """Disengaging: "Fleeing ... They cannot cast spells or attack this MR. Any enemies who cannot be paired off
    ... get to make an immediate melee attack against the fleeing combatant, which cannot be parried (but may be
    dodged at ½ skill). This attack counts against the enemy's attacks that round!\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=2)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.disengage", "id": "c1", "how": "flee"})
    assert actions(enc, "c1")[0]["status"] == "lost"
    p = prompts(enc, "free_attack")[0]
    assert [o["value"] for o in p["options"]] == ["c2"]
    with pytest.raises(RuleViolation, match="cannot be parried"):
        attack(enc, "c2", "c1", free_attack=True, defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 20})
    enc, ev = attack(enc, "c2", "c1", free_attack=True, defence="dodge", rolls={"attack": 90, "defence": 50})
    assert "×0.5 fleeing = 20%" in texts(ev)
    with pytest.raises(RuleViolation, match="already attacked"):
        attack(enc, "c2", "c1", free_attack=True, rolls={"attack": 90})


def test_disengaging_free_attack_counts_against_the_enemys_declared_attack():
    """Disengaging: "get to make an immediate melee attack against the fleeing combatant ... This attack counts
    against the enemy's attacks that round!" (issue 10: a declared attack still resolved after the free one)."""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", SWORD, x=2)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    later = actions(enc, "c2")[0]
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "sr.disengage", "id": "c1", "how": "flee"})
    enc, ev = attack(enc, "c2", "c1", free_attack=True, defence="dodge", rolls={"attack": 90, "defence": 50})
    assert actions(enc, "c2")[0]["status"] == "lost"
    assert "the free attack on fleeing Ana counts against the attacks this MR" in texts(ev)
    with pytest.raises(RuleViolation, match="still has to take"):
        attack(enc, "c2", "c1", ref=later["ref"], rolls={"attack": 90})


def test_charging_cannot_defend_if_attacked_first():
    """Charging: "if the opponent does attack first, the charging combatant would not be able to dodge or parry.\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=9)), "declare")
    enc, ev = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2", charge=True)
    assert actions(enc, "c1")[0]["text"] == "SR 8 = DEX 3 + SIZ 2 + weapon 2 + move 1"
    with pytest.raises(RuleViolation, match="charging combatant"):
        attack(enc, "c2", "c1", defence="dodge", rolls={"attack": 20, "defence": 20})


def test_mounted_charge_lance_sr_and_mount_damage_bonus():
    """Mounted Charge & Lance: "the attack's SR is the weapon's SR + the SR required for the movement (ignoring
    DEX SR and SIZ SR), and the attack uses the mount's damage bonus instead of the rider's.\""""
    enc = fight(fighter("Horse", BITE, side="party", STR=25, SIZ=25, move=8, body="quadruped"))
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Knight", LANCE, side="party", mount="c1")})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Bor", x=30)})
    enc = before = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="lance", target="c3", metres=24, mounted_charge=True)
    a = actions(enc, "c2")[0]
    assert a["text"] == "SR 3 = weapon 1 + move 2 (mounted charge: no DEX or SIZ SR)"
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, "c2", "c3", weapon="lance", ref=a["ref"], rolls={"attack": 20, "location": 1,
                                                                          "damage": [1, 1, 1]})
    assert "1D10+1+2D6" in texts(ev) and "damage modifier of Horse" in texts(ev)
    with pytest.raises(RuleViolation, match="at least 20 m"):
        declare(before, "c2", kind="melee", weapon="lance", target="c3", metres=12, mounted_charge=True)


def test_bracing_for_a_charge():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement ... the
    attack uses the charger's ... damage bonus ... The bracing combatant cannot dodge or use the spear ot parry.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party"), fighter("Bor", STR=20, x=9)), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1", charge=True)  # 6 m running: 1 SR
    enc, _ = declare(enc, "c1", kind="melee", weapon="spear", brace_against="c2")
    a = actions(enc, "c1")[0]
    assert a["text"] == "SR 2 = weapon 1 + charge 1 (braced: no DEX or SIZ SR)"
    enc = to_phase(enc, "resolve")
    with pytest.raises(RuleViolation, match="cannot dodge or use the spear"):
        attack(enc, "c2", "c1", defence={"kind": "parry", "weapon": "spear"}, rolls={"attack": 20, "defence": 20})
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=a["ref"], rolls={"attack": 20, "location": 1, "damage": [1, 1]})
    assert "1D8+1+1D6" in texts(ev)


def test_charging_past_before_or_after_target():
    """Charging Past: "If their attack resolves before the earliest SR that the target could attack, the attacker
    can keep moving freely. Otherwise, the target gets an attack as if the charger were fleeing.\""""
    enc = to_phase(duel(fighter("Ana", side="party", DEX=19), fighter("Bor", x=6)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2", charge=True, charge_past=True)
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")  # SR 7
    enc = to_phase(enc, "resolve")  # Ana: 0 + 2 + 2 + 1 = SR 5
    enc1, ev = attack(enc, ref="a1", rolls={"attack": 90})
    assert "keeps moving freely" in texts(ev)
    slow = to_phase(duel(fighter("Ana", side="party", DEX=5), fighter("Bor", x=6, DEX=19)), "declare")
    slow, _ = declare(slow, "c1", kind="melee", weapon="broadsword", target="c2", charge=True, charge_past=True)
    slow = to_phase(slow, "resolve")  # Ana SR 10; Bor could attack at 0 + 2 + 2 = 4
    slow, ev = attack(slow, ref="a1", rolls={"attack": 90})
    assert prompts(slow, "free_attack")


def test_attacks_and_defenses_one_attack():
    """Attacks & Defenses: "Combatants get one attack and one parry.\""""
    enc = to_phase(duel(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    with pytest.raises(RuleViolation, match="already has an attack"):
        declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")


def test_two_weapons_each_full_sr():
    """Fighting with Two Weapons: "a character with two weapons, each with SR 6, would attack at SR 6 and 12\""""
    six = dict(SWORD, sr=4)
    other = dict(AXE, sr=4)
    enc = to_phase(duel(fighter("Ana", six, other, side="party", DEX=19)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2", extra_weapon="axe")
    assert [(a["sr"], a["weapon"]) for a in actions(enc, "c1")] == [(6, "broadsword"), (12, "axe")]


@pytest.mark.parametrize("skill,roll,degree", [
    (60, 3, "critical"), (60, 4, "special"), (60, 12, "special"), (60, 13, "success"), (60, 60, "success"),
    (60, 61, "failure"), (60, 97, "failure"), (60, 98, "fumble"), (60, 100, "fumble"), (9, 1, "special"),
    (10, 1, "critical"), (5, 5, "success"), (150, 96, "failure"), (150, 100, "fumble"), (0, 5, "success"),
    (50, 97, "fumble"), (50, 96, "failure"), (25, 1, "critical"), (25, 2, "special")])
def test_procedure_degrees_of_success(skill, roll, degree):
    """Procedure: "the degrees of success are compared to find the result" (FACTS: critical ≤ skill/20, special ≤
    skill/5, 01-05 succeed, 96-00 fail, fumble ≥ 100 − (100 − skill)/20, rounded)."""
    assert rules.degree_of_success(skill, roll) == degree


@pytest.mark.parametrize("table,attack_deg,defence,damage,parried,ignores", [
    ("attack_vs_parry", "critical", "success", "max_special", True, True),
    ("attack_vs_parry", "critical", "critical", "normal", True, False),
    ("attack_vs_parry", "special", "success", "special", True, False),
    ("attack_vs_parry", "success", "success", "normal", True, False),
    ("attack_vs_parry", "success", "failure", "normal", False, False),
    ("attack_vs_parry", "failure", "critical", "none", False, False),
    ("attack_vs_dodge", "critical", "success", "special", False, True),
    ("attack_vs_dodge", "special", "special", "none", False, False),
    ("attack_vs_dodge", "success", "failure", "normal", False, False),
    ("attack_vs_dodge", "success", "success", "none", False, False),
])
def test_procedure_matrices(table, attack_deg, defence, damage, parried, ignores):
    """Procedure: "See the Attack vs. Parry and Attack vs. Dodge Matrixes." "Critical Hit: Special damage, ignores
    armor" "Parry: Attack damage reduced by weapon HP." "Deflected: Attack deals no damage.\""""
    cell = rules.matrix_cell(RS.tables[table], attack_deg, defence)
    assert (cell["damage"], cell["parried"], cell["ignores_armour"]) == (damage, parried, ignores)


def test_procedure_parry_reduces_by_weapon_hp_and_damages_it():
    """Procedure: "Parry: Attack damage reduced by weapon HP." (FACTS: the parrying weapon loses HP if exceeded)"""
    enc = to_phase(duel(), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 20, "defence": 40, "location": 1, "damage": [8, 4]})  # 13 vs HP 12
    assert weapon(enc, "c2", "shield")["hp"] == 11
    assert loc(enc, "c2", "right_leg")["hp"] == 4  # 1 through


def test_procedure_gm_edited_matrix_wins():
    """Procedure: the matrices are tables; a GM-edited "Attack vs. Parry" table wins over the default."""
    t = {**RS.tables["attack_vs_parry"]}
    t["entries"] = [dict(e, parried=False) if (e["attack"], e["defence"]) == ("success", "success") else e
                    for e in t["entries"]]
    enc = to_phase(duel(), "resolve")
    enc, _ = do(enc, {"type": "set_table", "table": "attack_vs_parry", "value": t})
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 20, "defence": 40, "location": 1, "damage": [2, 1]})
    assert loc(enc, "c2", "right_leg")["hp"] == 1  # 4 damage, not parried


def test_unarmed_parry_uses_limb_hp_and_limb_takes_damage():
    """Unarmed Parries: "Unarmed parries use the HP of the bodypart used (usually arm ...) as the weapon HP; thus,
    the parrying limb may take damage. Any AP on the hit location will reduce this damage as usual.\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", FIST, armour={"right_arm": 1})), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "fist"},
                     rolls={"attack": 20, "defence": 30, "location": 1, "damage": [7, 1]})  # 9 vs arm HP 4
    assert loc(enc, "c2", "right_arm")["hp"] == 0  # 5 through − AP 1 = 4
    assert loc(enc, "c2", "right_leg")["hp"] == 5


def test_unarmed_martial_arts_parry_double_hp():
    """Unarmed Parries: "Martial Arts parries are treated as having weapon HP equal to twice the location HP.\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", KARATE)), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "martial_arts"},
                     rolls={"attack": 20, "defence": 30, "location": 1, "damage": [7, 1]})  # 9 vs 8
    assert loc(enc, "c2", "right_arm")["hp"] == 3


def test_parrying_natural_attacks_damages_attacking_location():
    """Parrying Natural Attacks: "If a parry against a natural or unarmed attack damages the attacker's weapon,
    it deals damage to the hit location that made the attack. As usual, this damage is reduced by any AP.\""""
    wolf = fighter("Wolf", BITE, body="quadruped", armour=2, STR=13, SIZ=13)
    enc = to_phase(duel(wolf, fighter("Bor")), "resolve")
    # failed bite vs special parry (50%: ≤10): the sword's special damage 2D8+2+1D4 strikes the wolf's head
    enc, ev = attack(enc, "c1", "c2", weapon="bite", defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 80, "defence": 8, "parry_damage": [3, 3, 2],
                            "parried_limb.con_head": 1})
    head = loc(enc, "c1", "head")
    assert head["hp"] == head["hp_max"] - (3 + 3 + 2 + 2 - 2)


def test_a_natural_weapon_does_not_parry_a_creature_dodges():
    """Unarmed Parries: "Unarmed parries use the HP of the bodypart used (usually arm, sometimes leg) as the weapon
    HP"; Parrying Natural Attacks speaks of parries *against* natural attacks; Procedure: "Defender decides whether to
    parry or dodge". No rule lets a bite parry (a wolf's bite parry also struck the sword as a weapon's would): it is
    refused, naming the rule, and nothing changes; the wolf dodges."""
    wolf = fighter("Wolf", BITE, body="quadruped", STR=13, SIZ=13, side="foes")
    enc = to_phase(duel(fighter("Ana", side="party"), wolf), "resolve")
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", defence={"kind": "parry", "weapon": "bite"},
               rolls={"attack": 80, "defence": 8})
    assert e.value.rule == "Unarmed Parries" and "Wolf cannot parry with Bite" in str(e.value)
    assert "dodge instead" in str(e.value)
    attack(enc, "c1", "c2", defence={"kind": "dodge"}, rolls={"attack": 80, "defence": 8})


def test_parrying_impaling_weapons_spares_parrying_weapon():
    """Parrying Impaling Weapons: "Most impaling weapons will not damage weapons that parry their attacks.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party"), fighter("Bor")), "resolve")
    enc, ev = attack(enc, weapon="spear", defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 20, "defence": 40, "location": 1, "damage": [8, 4]})
    assert weapon(enc, "c2", "shield")["hp"] == 12


def test_parrying_missile_weapons():
    """Parrying Missile Weapons: "a missile weapon cannot be damaged by a parry, unless it is a thrown weapon";
    Defending vs. Missiles: "not parried with other weapons\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=10)), "resolve")
    enc, ev = attack(enc, weapon="bow", defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 80, "defence": 5})  # special parry vs failed shot
    assert weapon(enc, "c1", "bow")["hp"] == 6 and "cannot be damaged by a parry" in texts(ev)
    with pytest.raises(RuleViolation, match="not parried with other weapons"):
        attack(to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Bor", x=10)), "resolve"), weapon="bow",
               defence={"kind": "parry", "weapon": "broadsword"}, rolls={"attack": 80, "defence": 5})


def test_parrying_with_hafted_weapons():
    """Parrying with Hafted Weapons: "Most hafted weapons ... will not damage weapons that they parry; but they
    should inflict damage when parrying natural attacks.\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", MACE)), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "mace"}, rolls={"attack": 80, "defence": 5})
    assert weapon(enc, "c1", "broadsword")["hp"] == 12 and "hafted" in texts(ev)
    wolf = fighter("Wolf", BITE, body="quadruped", STR=13, SIZ=13)
    enc2 = to_phase(duel(wolf, fighter("Bor", MACE)), "resolve")
    enc2, ev = attack(enc2, "c1", "c2", weapon="bite", defence={"kind": "parry", "weapon": "mace"},
                      rolls={"attack": 80, "defence": 5, "parry_damage": [1, 1, 1],
                             "parried_limb.con_head": 1})  # crushing special: 1D8+2+2D4
    assert "1D8+2+2D4" in texts(ev)
    assert loc(enc2, "c1", "head")["hp"] < loc(enc2, "c1", "head")["hp_max"]


def test_shield_parries_and_impales_stuck_enc():
    """Shield Parries and Impales: "If a shield parries an impale ... the weapon is stuck in the shield ... ENC 1
    to 2: Shield used at half skill. ENC over 2 ...: Shield cannot be used.\""""
    enc = to_phase(fight(fighter("Ana", dict(SPEAR, enc=2), side="party"), fighter("Bor"),
                         fighter("Cid", side="party")), "resolve")
    enc, ev = attack(enc, weapon="spear", defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 10, "defence": 40, "location": 1, "damage": [1, 1, 1]})
    assert weapon(enc, "c2", "shield")["stuck"][0]["weapon"] == "spear"
    assert RS.view(enc)["combatants"]["c2"]["stuck_weapons"] == [
        {"where": "Shield", "in": "shield", "name": "Spear", "owner": "c1", "weapon": "spear"}]
    assert prompts(enc, "unstick")
    assert loc(enc, "c2", "right_leg")["hp"] == 5  # special impale parried: 2D8+2+1D4 = 5 < HP 12
    assert [rules.stuck_effect(e, RS.tables["stuck_weapons"]) for e in (0.5, 1, 2, 2.5)] == \
        ["none", "half", "half", "unusable"]
    # the next parry with the shield (next MR: one parry per MR) is at half skill (ENC 2)
    enc = to_phase(to_phase(to_phase(enc, "end"), "declare"), "resolve")
    enc, ev = attack(enc, "c3", "c2", defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 90, "defence": 90})
    assert "50% → ×0.5 weapons stuck in the shield = 25%" in texts(ev)


def test_shield_stuck_over_enc_2_refusal_cites_shield_parries_and_impales():
    """Shield Parries and Impales: "ENC over 2 (or attacker is holding on to weapon): Shield cannot be used."
    (issue 10: "The stuck-shield refusal cites the wrong heading.")"""
    enc = to_phase(fight(fighter("Ana", dict(SPEAR, enc=3), side="party"), fighter("Bor"),
                         fighter("Cid", side="party")), "resolve")
    enc, _ = attack(enc, weapon="spear", defence={"kind": "parry", "weapon": "shield"},
                    rolls={"attack": 10, "defence": 40, "location": 1, "damage": [1, 1, 1]})
    enc = to_phase(to_phase(to_phase(enc, "end"), "declare"), "resolve")
    with pytest.raises(RuleViolation, match="cannot be used") as parry:
        attack(enc, "c3", "c2", defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 90, "defence": 90})
    assert parry.value.rule == "Shield Parries and Impales"
    with pytest.raises(RuleViolation) as hit:
        attack(enc, "c2", "c1", weapon="shield", rolls={"attack": 90})
    assert hit.value.rule == "Shield Parries and Impales"


def test_shield_stuck_weapon_pulled_with_str_x3_auto_after_5():
    """Shield Parries and Impales: "pulling a weapon out of a shield takes a full MR ... and requires a STR×3%
    test ... After 5 attempts, the weapon is pulled out automatically.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party"), fighter("Bor")), "resolve")
    enc, _ = attack(enc, weapon="spear", defence={"kind": "parry", "weapon": "shield"},
                    rolls={"attack": 10, "defence": 40, "location": 1, "damage": [1, 1, 1]})
    for i in range(4):
        enc, ev = do(enc, {"type": "sr.unstick", "id": "c2", "holder": "c2", "owner": "c1", "weapon": "spear",
                           "method": "str", "rolls": {"test": 90}})
        assert "39%" in texts(ev)
    enc, ev = do(enc, {"type": "sr.unstick", "id": "c2", "holder": "c2", "owner": "c1", "weapon": "spear",
                       "method": "str", "rolls": {"test": 90}})
    assert "after 5 failed attempts" in texts(ev)
    assert weapon(enc, "c2", "shield")["stuck"] == []


@pytest.mark.parametrize("damage,siz,metres", [(12, 12, 0), (13, 12, 3), (15, 12, 3), (16, 12, 4), (30, 25, 6)])
def test_knockback_metres(damage, siz, metres):
    """Knockback: "If the rolled damage ... is higher than the target's SIZ, the target is knocked back 1 meter for
    every 5 points of damage (or part thereof).\""""
    assert rules.knockback_metres(damage, siz) == metres


def test_knockback_in_exchange_dex_roll_and_collision():
    """Knockback: "The target needs to make a DEX×5% roll or fall prone"; "Colliding: ... knocked back at least 3m
    ... take 1D6 damage per 5m to a random melee hit location.\""""
    enc = to_phase(duel(fighter("Ana", MACE, side="party", STR=18), fighter("Bor", SIZ=10, hp=20)), "resolve")
    enc, ev = attack(enc, weapon="mace", rolls={"attack": 20, "location": 1, "damage": [8, 4], "knockback_dex": 60})
    assert "knocked back 3 m" in texts(ev) and "prone" in enc.get("c2").conditions  # 15 > SIZ 10; DEX 55% fails
    p = prompts(enc, "collision")[0]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "solid",
                       "rolls": {"collision": 4, "collision_location": 12}})
    assert "collision 1D6 = 4" in texts(ev)


def test_knockback_bracing_and_impale_none():
    """Knockback: "Bracing: A defender who is bracing uses STR + SIZ instead of SIZ"; "If the attack impales the
    target, there is no knockback.\""""
    enc = to_phase(duel(fighter("Ana", SPEAR, side="party", STR=18), fighter("Bor", SIZ=8)), "resolve")
    enc, ev = attack(enc, weapon="spear", rolls={"attack": 10, "location": 9, "damage": [5, 5, 4]})
    assert "impales" in texts(ev) and "knocked back" not in texts(ev)


def test_knockback_mounted_ride_test():
    """Knockback: "Mounted Knockback: ... on a Success, they add their mount's SIZ to their SIZ ...; on a Failure,
    the rider ... if knocked back, is knocked off their mount.\""""
    enc = fight(fighter("Horse", BITE, body="quadruped", SIZ=25))
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Rider", side="party", mount="c1", SIZ=10, hp=20)})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Bor", MACE, side="party", STR=18)})
    enc = to_phase(enc, "resolve")
    hit = {"attack": 20, "location": 1, "damage": [8, 4]}
    ok, ev = attack(enc, "c3", "c2", weapon="mace", rolls={**hit, "ride": 30})
    assert "knocked back" not in texts(ev)
    bad, ev = attack(enc, "c3", "c2", weapon="mace", rolls={**hit, "ride": 80, "knockback_dex": 1})
    assert "knocked off Horse" in texts(ev)


@pytest.mark.parametrize("skill,roll,degree", [
    (480, 96, "failure"), (480, 97, "failure"), (600, 99, "failure"), (600, 100, "fumble"),
    (1200, 96, "failure"), (2000, 100, "fumble"), (600, 95, "special"), (2000, 95, "critical")])
def test_procedure_96_00_fail_even_for_a_multiplied_skill(skill, roll, degree):
    """Procedure: "the degrees of success are compared to find the result" (FACTS: "01-05 always succeed, 96-00
    always fail"; "a roll of 00 (100) is always a fumble"; "Skills above 100 still fail on 96-00"). A 300% skill
    doubled by a GM multiplier is 600%: its special range (≤ 120) must not swallow 96-00."""
    assert rules.degree_of_success(skill, roll) == degree


def test_fighting_multiplier_may_allow_or_disallow_a_split():
    """Fighting: "If a combatant's skill is being multiplied, this is calculated before the skill is divided, and
    the multiplier may allow or disallow dividing the skill." 80% × 1.5 = 120%: two parts of 60%; 120% × ½ = 60%:
    no split."""
    enc = to_phase(duel(fighter("Ana", dict(SWORD, skill=80), side="party"), fighter("Bor", hp=30)), "resolve")
    enc, ev = attack(enc, multiplier=1.5, split=60, rolls={"attack": 90})
    assert "80% → ×1.5 GM = 120% → split 60%, rolled 90" in texts(ev)
    enc, ev = attack(enc, multiplier=1.5, split=60, rolls={"attack": 90})  # the second part
    with pytest.raises(RuleViolation, match="exceed the skill"):
        attack(enc, multiplier=1.5, split=50, rolls={"attack": 90})
    big = to_phase(duel(fighter("Ana", dict(SWORD, skill=120), side="party")), "resolve")
    with pytest.raises(RuleViolation, match="below 100%"):
        attack(big, multiplier=0.5, split=60, rolls={"attack": 90})


# FACTS.md, cell by cell: (damage, parried, ignores armour, attacking weapon damaged) for defence critical / special /
# success / failure / fumble. "max" = maximised special.
_P, _N = True, False
FACTS_PARRY = {
    "critical": [("normal", _P, _N, "none"), ("max_special", _P, _P, "none"), ("max_special", _P, _P, "none"),
                 ("max_special", _N, _P, "none"), ("max_special", _N, _P, "none")],
    "special": [("normal", _P, _N, "none"), ("normal", _P, _N, "none"), ("special", _P, _N, "none"),
                ("special", _N, _N, "none"), ("special", _N, _N, "none")],
    "success": [("normal", _P, _N, "normal"), ("normal", _P, _N, "none"), ("normal", _P, _N, "none"),
                ("normal", _N, _N, "none"), ("normal", _N, _N, "none")],
    "failure": [("none", _N, _N, "special"), ("none", _N, _N, "special"), ("none", _N, _N, "normal"),
                ("none", _N, _N, "none"), ("none", _N, _N, "none")],
    "fumble": [("none", _N, _N, "special"), ("none", _N, _N, "special"), ("none", _N, _N, "normal"),
               ("none", _N, _N, "none"), ("none", _N, _N, "none")],
}
FACTS_DODGE = {
    "critical": [("none", _N), ("special", _P), ("special", _P), ("max_special", _P), ("max_special", _P)],
    "special": [("none", _N), ("none", _N), ("special", _N), ("special", _N), ("special", _N)],
    "success": [("none", _N), ("none", _N), ("none", _N), ("normal", _N), ("normal", _N)],
    "failure": [("none", _N)] * 5,
    "fumble": [("none", _N)] * 5,
}


def test_procedure_matrices_every_cell_as_facts():
    """Procedure: "See the Attack vs. Parry and Attack vs. Dodge Matrixes." Every one of the 50 cells of the shipped
    tables is FACTS.md's: "critical attack: normal (parried) / maximised special / ... a critical attack ignores
    armour unless the parry was also critical"; "success attack: normal, and the critical parry damages the
    attacking weapon"; "failed attack: ... a critical or special parry damages the attacking weapon (special
    damage), a successful parry normal"; Attack vs Dodge "critical attack: nothing / special / special / maximised
    special / maximised special (ignores armour vs a non-critical dodge)"."""
    for adeg in rules.DEGREES:
        for i, ddeg in enumerate(rules.DEGREES):
            c = rules.matrix_cell(RS.tables["attack_vs_parry"], adeg, ddeg)
            assert (c["damage"], c["parried"], c["ignores_armour"], c["attacking_weapon_damage"]) == \
                FACTS_PARRY[adeg][i], (adeg, ddeg)
            c = rules.matrix_cell(RS.tables["attack_vs_dodge"], adeg, ddeg)
            assert (c["damage"], c["ignores_armour"], c["parried"], c["attacking_weapon_damage"]) == \
                (*FACTS_DODGE[adeg][i], False, "none"), (adeg, ddeg)
    assert len(RS.tables["attack_vs_parry"]["entries"]) == len(RS.tables["attack_vs_dodge"]["entries"]) == 25


def test_the_dead_are_no_target():
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies";
    Death: "Dead characters cannot do anything." An attack on the dead is refused, naming the rule, and nothing
    changes; an unconscious foe can still be struck."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor"), fighter("Cai")), "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", rolls={"attack": 20, "location": 1, "damage": [2, 1]})
    assert e.value.rule == "Changing Actions" and "Bor is dead: choose another target" in str(e.value)
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": "unconscious", "on": True})
    attack(enc, "c1", "c3", rolls={"attack": 20, "location": 1, "damage": [2, 1]})


def _knocked_back_5_m(**where):
    """A GM's play-through: attack 10, parry 30, location 10, damage "8 8 4" gives "knocked back 5 m" (a
    Greatsword's 2D8+2 and the +1D4 damage modifier: 22 over SIZ 13)."""
    great = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}
    enc = to_phase(duel(fighter("Ana", great, side="party", x=0, y=0), fighter("Bor", x=where.get("x", 2),
                                                                               y=where.get("y", 0))), "resolve")
    enc, ev = attack(enc, weapon="greatsword", defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 10, "defence": 30, "location": 10, "damage": [8, 8, 4], "knockback_dex": 10,
                            "wound.con_shock": 10})
    assert "knocked back 5 m" in texts(ev)
    return enc, prompts(enc, "collision")[0]


def test_knockback_moves_the_token_straight_away_from_the_attacker():
    """Knockback: "the target is knocked back 1 meter for every 5 points of damage (or part thereof)". A GM's
    play-through: "knocked back 5 m" in the log, "No collision" answered, and the token stayed where it was.
    It moves 5 m straight away from the attacker; a diagonal blow pushes along the diagonal."""
    enc, p = _knocked_back_5_m()
    assert enc.get("c2").position.x == 2
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})
    assert (enc.get("c2").position.x, enc.get("c2").position.y) == (7, 0)
    assert "Bor is knocked back 5 m to (7, 0) m" in texts(ev)
    assert (enc.get("c1").position.x, enc.get("c1").position.y) == (0, 0)  # the attacker stays
    enc, p = _knocked_back_5_m(x=-3, y=-4)
    enc, _ = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})
    assert (enc.get("c2").position.x, enc.get("c2").position.y) == (-6, -8)


def test_knockback_into_someone_or_something_stops_short():
    """Colliding: "If knockback causes a combatant to collide with another combatant ... that combatant must
    also make a DEX test or fall prone": the one knocked back stops against them (a body's width short), not
    past them; against a solid object the GM places the token where it struck."""
    enc, p = _knocked_back_5_m()
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Cal", x=5, y=0)})
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "combatant", "with": "c3",
                       "rolls": {"collision_dex": 10}})
    assert (enc.get("c2").position.x, enc.get("c2").position.y) == (4, 0)
    enc, p = _knocked_back_5_m()
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "solid",
                       "rolls": {"collision": 4, "collision_location": 12}})
    assert enc.get("c2").position.x == 2 and "move the token on the map there" in texts(ev)


def test_a_spent_parry_is_not_the_attack_forms_default():
    """Fighting: "Each round, characters get one attack and one parry" and, "wielding a weapon and a shield
    ... an extra attack OR parry using the shield or second weapon". A GM's play-through: after the defender's
    parry was spent, each later attacker's form still started on "Parry", which the rules then refused under
    Target. Bor attacks with his sword and with his shield (the extra), then parries with the sword: his shield
    has not parried, but he has no parry left, so the form starts on Dodge; a parry asked anyway is refused
    beside Defender's choice."""
    from fray.games.strike_rank.web.attack import attack_html
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor"), fighter("Cid", side="party")), "resolve")
    miss = {"attack": 90, "defence": 90}
    enc, _ = attack(enc, "c2", "c1", defence="dodge", rolls=miss)
    enc, _ = attack(enc, "c2", "c3", weapon="shield", defence="dodge", rolls=miss)
    enc, _ = attack(enc, "c1", "c2", defence={"kind": "parry", "weapon": "broadsword"}, rolls=miss)
    view = RS.view(enc)
    assert view["combatants"]["c2"]["round"]["parries_left"] == []
    form = attack_html(view, {"ref": "a9", "combatant": "c3", "target": "c2", "weapon": "broadsword", "sr": 7,
                              "kind": "melee"})
    picked = form.split('name="defence.kind"')[1].split("</select>")[0]
    assert 'value="dodge" selected' in picked and 'value="parry" selected' not in picked
    with pytest.raises(RuleViolation, match="already parried") as refused:
        attack(enc, "c3", "c2", defence={"kind": "parry", "weapon": "shield"}, rolls=miss)
    assert refused.value.field == "defence.kind"
