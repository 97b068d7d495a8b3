"""Issue 32, item 3: injuries are applied, not only described. Each test quotes the rule text it
checks (Injuries; Shield Parries and Impales; Movement); a refusal names the injury."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.strike_rank import body
from sr_helpers import (BITE, FIST, RS, SHIELD, SWORD, actions, attack, declare, do, duel, fight, fighter, prompts,
                        texts, to_phase, weapon)


def hurt(enc, target, lid, amount, **rolls):
    a = {"type": "sr.damage", "target": target, "location": lid, "amount": amount, "armour": False}
    if rolls:
        a["rolls"] = rolls
    return do(enc, a)


def yanioth(*weapons, **kw):
    return fighter("Yanioth", *weapons, side="party", **kw)


def usable(enc, cid, wid):
    return next(w for w in RS.view(enc)["combatants"][cid]["weapons"] if w["id"] == wid)


def test_maimed_shield_arm_cannot_parry_and_the_refusal_names_the_injury():
    """Damage Equal to Double Location HP: "Arm: Arm cannot wield weapons or shields, cannot attack or parry,
    cannot hold objects." (Yanioth parried with her shield while her left arm was maimed.)"""
    enc = to_phase(duel(yanioth(hp=20)), "resolve")
    enc, _ = hurt(enc, "c1", "left_arm", 12)  # left arm HP 6: −6, maimed
    with pytest.raises(RuleViolation, match="Yanioth's left arm is maimed: it cannot hold the shield") as e:
        attack(enc, "c2", "c1", defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 20, "defence": 20})
    assert e.value.rule == "Damage Equal to Double Location HP"
    assert usable(enc, "c1", "shield")["usable"] is False
    assert usable(enc, "c1", "broadsword")["usable"] is True  # the right hand still holds the sword


def test_disabled_arm_cannot_wield_the_shield():
    """Damage Equal to Location HP: "Arm: A disabled arm cannot wield weapons or shields\""""
    enc = to_phase(duel(yanioth()), "resolve")
    enc, _ = hurt(enc, "c1", "left_arm", 4)  # left arm HP 4: 0, serious
    with pytest.raises(RuleViolation, match="Yanioth's left arm is disabled: it cannot wield the shield") as e:
        attack(enc, "c2", "c1", defence={"kind": "parry", "weapon": "shield"}, rolls={"attack": 20, "defence": 20})
    assert e.value.rule == "Damage Equal to Location HP"


def test_a_shield_typed_without_its_hand_is_in_the_other_hand():
    """Fighting: "Characters wielding a weapon and a shield": one hand each. A sheet from before hands were asked
    for (both in the right hand, the old default) reads the shield as held in the left, so a maimed left arm
    drops the shield and a maimed right arm the sword."""
    bare = [{k: v for k, v in w.items() if k != "hand"} for w in (SWORD, SHIELD)]
    enc = to_phase(duel(yanioth(*bare, hp=20)), "resolve")
    assert [w["hand"] for w in enc.get("c1").data["weapons"]] == ["right", "right"]  # as stored before
    left, _ = hurt(enc, "c1", "left_arm", 12)
    assert usable(left, "c1", "shield")["usable"] is False and usable(left, "c1", "broadsword")["usable"] is True
    right, _ = hurt(enc, "c1", "right_arm", 12)
    assert usable(right, "c1", "shield")["usable"] is True and usable(right, "c1", "broadsword")["usable"] is False
    assert body.held_in(enc.get("c1"), {"name": "Bow", "missile": True}) == "both"  # no hand at all: its default


def test_disabled_limb_cannot_be_used_to_attack():
    """Damage Equal to Location HP: "Limb: Limbs are disabled. They cannot be used to attack.\""""
    enc = to_phase(duel(yanioth(FIST)), "resolve")
    enc, _ = hurt(enc, "c1", "right_arm", 4)
    with pytest.raises(RuleViolation, match="Yanioth's right arm is disabled: it cannot be used to attack"):
        attack(enc, "c1", "c2", weapon="fist", rolls={"attack": 20})


@pytest.mark.parametrize("lid,amount,rolls", [("right_leg", 10, {}), ("abdomen", 10, {"gm.con_shock": 1})])
def test_cannot_stand_makes_the_combatant_prone_by_itself(lid, amount, rolls):
    """Damage Equal to Double Location HP: "Leg: If half or more of a combatant's legs are maimed, they cannot
    stand (crawl at 1m rate ...)"; "Abdomen: Cannot stand or walk." (Vasana had one of two legs maimed and
    prone had to be set by hand.)"""
    enc = to_phase(duel(), "resolve")
    enc, ev = hurt(enc, "c2", lid, amount, **rolls)
    assert "prone" in enc.get("c2").conditions
    assert "Bor falls prone:" in texts(ev) and "cannot stand" in texts(ev)


def test_a_quarter_of_the_legs_maimed_half_rate_but_still_standing():
    """Damage Equal to Double Location HP: "if a quarter or more (round up), move at half rate and cannot run.\""""
    enc = to_phase(duel(b=fighter("Wolf", BITE, body="quadruped", hp=20)), "resolve")
    enc, _ = hurt(enc, "c2", "right_hind_leg", 10)  # leg HP 5: −5, maimed; one of four
    mv = RS.view(enc)["combatants"]["c2"]["movement"]
    assert mv["half_rate"] and not mv["can_run"] and mv["can_stand"]
    assert "prone" not in enc.get("c2").conditions


def test_maimed_chest_cannot_fight_but_can_use_magic_and_stagger():
    """Damage Equal to Double Location HP: "Chest: Cannot fight, cannot move faster than a stagger (1m rate), can
    use magic or First Aid.\""""
    spell = [{"name": "Heal", "type": "battle", "intensity": 2}]
    enc = to_phase(duel(yanioth(hp=30, spells=spell)), "declare")
    enc, _ = hurt(enc, "c1", "chest", 22, **{"gm.con_shock": 1})  # chest HP 11: −11, maimed; CON test passed
    with pytest.raises(RuleViolation, match="Yanioth's chest is maimed: cannot fight"):
        declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")
    enc, _ = declare(to_phase(duel(yanioth(hp=30)), "declare"), "c1", kind="move", metres=2)
    hurt_mover, _ = hurt(to_phase(duel(yanioth(hp=30)), "declare"), "c1", "chest", 22, **{"gm.con_shock": 1})
    staggered, _ = declare(hurt_mover, "c1", kind="move", metres=2)
    assert actions(staggered, "c1")[0]["sr"] == 2  # 2 m at 1 m per SR
    enc = to_phase(hurt_mover, "resolve")
    with pytest.raises(RuleViolation, match="chest is maimed: cannot fight"):
        attack(enc, "c2", "c1", defence={"kind": "parry", "weapon": "broadsword"}, rolls={"attack": 20, "defence": 20})
    enc, _ = attack(enc, "c2", "c1", defence={"kind": "dodge"}, rolls={"attack": 90, "defence": 20})


def test_an_injury_loses_the_declared_attacks_it_makes_impossible():
    """Action Declaration & Resolution: "Characters who become incapacitated generally lose actions that would
    have resolved after they are incapacitated." An arm that can no longer wield its sword loses the attack with
    it at once, with the injury named."""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = hurt(enc, "c2", "right_arm", 8)
    assert actions(enc, "c2")[0]["status"] == "lost"
    assert "Bor's attack at SR 7 is lost: Bor's right arm is maimed: it cannot hold the broadsword" in texts(ev)
    assert not RS.view(enc)["order"]


def test_maimed_head_knocked_unconscious_loses_later_actions():
    """Damage Equal to Double Location HP: "Head: Knocked unconscious until healed." and "Characters who become
    incapacitated generally lose actions that would have resolved after they are incapacitated.\""""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="move", metres=3)  # SR 1
    enc, _ = declare(enc, "c2", kind="move", metres=9)  # SR 3
    enc = to_phase(enc, "resolve")
    enc, _ = hurt(enc, "c2", "head", 10)
    assert "unconscious" in enc.get("c2").conditions and actions(enc, "c2")[0]["status"] == "lost"


def test_a_bite_parried_by_a_shield_does_not_stick():
    """Shield Parries and Impales: "If a shield parries an impale (special or critical hit with impaling weapon),
    the weapon is stuck in the shield." A bite is no weapon: the wolf's jaws do not stay in the shield (issue 32:
    "Bite sticks in Target shield" and the bite was unusable for the rest of the fight)."""
    enc = to_phase(duel(fighter("Wolf", BITE, body="quadruped", side="party"), fighter("Bor")), "resolve")
    enc, ev = attack(enc, weapon="bite", defence={"kind": "parry", "weapon": "shield"},
                     rolls={"attack": 5, "defence": 40, "location": 1, "damage": [9, 9, 2]})
    assert "sticks in" not in texts(ev) and not prompts(enc, "unstick")
    assert weapon(enc, "c2", "shield")["stuck"] == [] and not weapon(enc, "c1", "bite").get("stuck_in")
    assert usable(enc, "c1", "bite")["usable"] is True


def test_a_special_bite_deals_impaling_damage_but_is_not_stuck_in_the_wound():
    """Special Damage: "Impaling: Weapon base damage is doubled ... and the weapon impales the target." A natural
    attack doubles its dice but leaves nothing stuck in the wound."""
    enc = to_phase(duel(fighter("Wolf", BITE, body="quadruped", side="party"), fighter("Bor", hp=30)), "resolve")
    enc, ev = attack(enc, weapon="bite", rolls={"attack": 5, "location": 1, "damage": [3, 3, 2]})
    assert "2D10" in texts(ev)
    assert enc.get("c2").data["impaled"] == [] and not prompts(enc, "unstick")


def test_a_resolved_move_puts_the_token_where_it_went():
    """Movement: "Characters can move freely at their normal Movement rate during a MR." A move toward a target
    ends at engagement range ("about 3 meters or less") on the straight line to it."""
    enc = to_phase(duel(yanioth(x=0, y=0), fighter("Broo", x=12, y=0)), "declare")
    enc, _ = declare(enc, "c1", kind="move", target="c2")  # 12 m less 3 m: 9 m, 3 SR
    enc = to_phase(enc, "resolve")
    moved, ev = do(enc, {"type": "sr.resolve", "ref": "a1", "move_token": True})
    assert (moved.get("c1").position.x, moved.get("c1").position.y) == (9, 0)
    assert "Yanioth finishes moving 9 m toward Broo" in texts(ev)
    # the same action without move_token, as a save made before replays it: the token stays
    kept, _ = do(enc, {"type": "sr.resolve", "ref": "a1"})
    assert kept.get("c1").position.x == 0


def test_a_move_without_a_target_asks_the_gm_where_it_ends():
    """Movement: a move with no target has no line to follow: the GM is asked where it ends."""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="move", metres=6)
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "advance", "move_token": True})
    p = prompts(enc, "move_end")
    assert p and "drag the token" in p[0]["text"]


def test_a_melee_attack_after_moving_ends_engaged_with_its_target():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR": when the attack resolves the attacker has covered them and stands within melee range."""
    enc = to_phase(duel(yanioth(x=0, y=0), fighter("Broo", x=0, y=10)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", rolls={"attack": 90}, move_token=True)
    assert (enc.get("c1").position.x, enc.get("c1").position.y) == (0, 7)
    assert "Yanioth closes 7 m to Broo" in texts(ev)


def test_a_close_of_less_than_a_decimetre_is_no_move_and_not_logged():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR". A GM read "Human warrior 6 closes 0 m to Great wolf 6": a foe 3.04 m off is as good as
    within melee range ("engagement range is about 3 meters or less"); nothing moves and no close is logged."""
    enc = to_phase(duel(yanioth(x=0, y=0), fighter("Broo", x=0, y=3.04)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", rolls={"attack": 90}, move_token=True)
    assert (enc.get("c1").position.x, enc.get("c1").position.y) == (0, 0)
    assert not any("closes" in t for t in texts(ev)), texts(ev)


def test_those_who_close_on_one_foe_end_beside_each_other_not_on_one_spot():
    """Movement: "For human-sized combatants, engagement range is about 3 meters or less." Three who close on
    one foe from one side (a GM's play-through: their tokens ended on one point, each hiding the others) each
    end within engagement range of it, a token's width from one another; a corpse's spot is taken too."""
    import math
    from fray.games.strike_rank import movement
    at = [(round(12 * math.cos(math.radians(a)), 2), round(12 * math.sin(math.radians(a)), 2)) for a in (0, 2, 4)]
    enc = fight(fighter("Broo", x=0, y=0), *(yanioth(x=x, y=y) for x, y in at), fighter("Corpse", x=3, y=-0.3))
    enc = to_phase(enc, "declare")
    for cid in ("c2", "c3", "c4"):
        enc, _ = declare(enc, cid, kind="move", target="c1")
    enc = to_phase(enc, "resolve")
    for ref in ("a1", "a2", "a3"):
        enc, ev = do(enc, {"type": "sr.resolve", "ref": ref, "move_token": True})
        assert "finishes moving" in texts(ev)
    spots = [(c.position.x, c.position.y) for c in enc.combatants[1:]]
    for i, (x, y) in enumerate(spots[:3]):
        assert math.hypot(x, y) <= 3.0 + 1e-6  # engaged with Broo
        for ox, oy in spots[:i] + spots[i + 1:]:
            assert math.hypot(x - ox, y - oy) >= movement.TOKEN_SPACE_M - 0.02
    # a move its metres cut short of the foe stops a step back instead, on its own line
    enc = to_phase(fight(fighter("Broo", x=0, y=0), yanioth(x=20, y=0), fighter("Orlanth", x=14, y=0)), "declare")
    enc, _ = declare(enc, "c2", kind="move", target="c1", metres=6)
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.resolve", "ref": "a1", "move_token": True})
    # Orlanth stands at 14: a spot is taken within 1.5 m (half Add ×N's step), as Add ×N judges it
    assert enc.get("c2").position.x == 15.5 and enc.get("c2").position.y == 0
    assert "Yanioth finishes moving 4.5 m toward Broo" in texts(ev)


def test_the_metres_moved_read_as_the_map_draws_them():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will be
    delayed by 2 SR". A GM read "closes 6.49 m" (a diagonal to the centimetre) and "→ Great wolf (four-legged) 3 9 m"
    (as 39 m): metres are said to the decimetre, and apart from a name that ends in a number."""
    from fray.games.strike_rank.web.declare import action_label

    enc = to_phase(duel(yanioth(x=0, y=0), fighter("Broo 3", x=6, y=6)), "declare")  # 8.49 m: 5.49 m to close
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    d = enc.state["actions"][0]
    names = {"c1": "Yanioth", "c2": "Broo 3"}
    assert action_label(d, names).endswith("→ Broo 3 (5.5 m to move)")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", rolls={"attack": 90}, move_token=True)
    assert "Yanioth closes 5.5 m to Broo 3" in texts(ev)
    assert action_label({"kind": "move", "metres": 6.04}, names) == "Move 6 m"


def test_a_bite_left_stuck_by_an_older_save_is_free_again():
    """Shield Parries and Impales: only a weapon is stuck. A save made while bites still stuck ("Bite SR 3
    (unusable)" for the rest of the fight) loads with the bite usable."""
    enc = to_phase(duel(fighter("Wolf", BITE, body="quadruped", side="party"), fighter("Bor")), "resolve")
    enc.get("c1").data["weapons"][0]["stuck_in"] = {"combatant": "c2", "shield": "shield", "name": "Bor's Shield"}
    assert usable(enc, "c1", "bite")["usable"] is True
    enc, _ = attack(enc, weapon="bite", rolls={"attack": 90})
