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


def test_a_shot_declared_by_an_engaged_archer_is_said_to_be_refused_unless_she_gets_clear():
    """Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks." The shot is refused
    when its SR comes if she is still engaged; she may be clear by then, so the declaration stands, but the log
    says so at once, while the GM can still change it. Unengaged, nothing is said."""
    enc, ev = declare(to_phase(_archer_in_melee(), "declare"), "c1", kind="missile", weapon="bow", target="c3")
    assert ("Archer is engaged in melee with Bandit 1: unengaged characters can use missile weapons, so the shot at "
            "SR 3 is refused unless Archer is unengaged by then") in texts(ev)
    clear = fight(fighter("Archer", BOW, SWORD, side="party"), fighter("Bandit 1", x=12), fighter("Bandit 2", x=30))
    _, ev = declare(to_phase(clear, "declare"), "c1", kind="missile", weapon="bow", target="c3")
    assert "Archer: missile attack with Bow at Bandit 2" in texts(ev) and "engaged in melee" not in texts(ev)


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


# -- 2. Changing Actions: a declared target out of the fight forces the change ------------------------


@pytest.mark.parametrize("fallen", ["unconscious", "incapacitated"])
def test_an_attack_declared_on_a_fallen_target_cannot_go_to_another_at_its_old_sr(fallen):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR ... A
    combatant may be forced to change actions, e.g. if the target of their attack dies." Dead, unconscious or
    incapacitated ("unable to take any action"), the target is out of the fight the same way: Bandit 1's attack
    declared at Knight 2 does not go to Knight 3 at its old SR (GM play-through: it did, with no delay)."""
    enc = to_phase(fight(fighter("Bandit 1"), fighter("Knight 2", side="party", x=2),
                         fighter("Knight 3", side="party", x=9)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # SR 7, no move
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": fallen})
    ref = actions(enc, "c1")[0]["ref"]
    with pytest.raises(RuleViolation, match=f"Knight 2 is {fallen}: Bandit 1's attack must change") as refused:
        attack(enc, "c1", "c3", ref=ref, rolls={"attack": 90})
    assert refused.value.rule == "Changing Actions"
    # the change itself: delayed by DEX SR 3, the 6 m to Knight 3 (9 m off) worked out again
    changed, _ = do(enc, {"type": "sr.change", "id": "c1", "ref": ref, "kind": "melee", "weapon": "broadsword",
                          "target": "c3"})
    new = [a for a in actions(changed, "c1") if a["status"] == "declared"][0]
    assert new["text"] == ("SR 12 = SR 9 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + move 2; the change is made at SR 7) + "
                           "DEX SR 3 (changing the declared action)")
    # the blow still falls on the declared target where he lies: nothing changed, nothing forced
    enc, ev = attack(enc, "c1", "c2", ref=ref, rolls={"attack": 90})
    assert "Bandit 1 attacks Knight 2 with Broadsword" in texts(ev)


def test_the_attack_slot_puts_the_forced_change_before_the_gm_when_the_target_is_unconscious():
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies."
    Knight 2, declared on, lies unconscious: the slot holds the change (delayed by DEX SR, on the nearest standing
    foe) with Skip it, not an attack form already set on Knight 3 at the old SR; striking Knight 2 where he lies
    opens the attack form on him. Next's box says "Change the attack", as for the dead."""
    from fray.games.strike_rank.web.attack import attack_html
    from fray.games.strike_rank.web.flow import still_open_html
    from fray.games.strike_rank.web.ui import StrikeRankUi

    enc = to_phase(fight(fighter("Bandit 1"), fighter("Knight 2", side="party", x=2),
                         fighter("Knight 3", side="party", x=9)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "unconscious"})
    view = RS.view(enc)
    o = next(x for x in view["order"] if x["combatant"] == "c1")
    page = str(attack_html(view, o, StrikeRankUi()))
    assert 'data-form="sr-attack"' not in page and 'data-form="sr-change"' in page
    assert "Declared against Knight 2, who is unconscious. A forced change is delayed by DEX SR 3" in page
    assert '<option value="c3" selected' in page
    assert 'data-act="sr-skip"' in page and 'data-act="sr-strike-fallen"' in page
    assert ">Strike Knight 2 as declared</button>" in page
    page = str(attack_html(view, o, StrikeRankUi(target={o["ref"]: "c2"})))
    assert 'data-form="sr-attack"' in page and '<option value="c2" selected' in page
    box = str(still_open_html(view))
    assert "Bandit 1's attack at SR 7 was at Knight 2, who is unconscious: " in box
    assert ">Change the attack</button>" in box and "Pick another target" not in box


# -- 3. the fallen are asked nothing: a dead defender's fumble --------------------------------------


def test_a_defender_killed_through_a_fumbled_parry_is_asked_no_fumble():
    """Fumble Table: "Fumbles on attack, parry, and dodge tests have special results"; Death: "Dead characters
    cannot do anything". Bor fumbles his parry and Ana's blow kills him: no fumble is rolled for the dead and no
    question about it is put to the GM (GM play-through: "a dead bandit's fumble" waited for an answer)."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2, hp=3)), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 20, "defence": 100, "location": 1, "damage": [8, 4], "fumble_defence": 35})
    assert "dead" in enc.get("c2").conditions
    assert prompts(enc, "fumble") == []
    assert "Bor fumbles:" not in texts(ev)
    assert "Bor fumbled the parry but is dead: no fumble to roll" in texts(ev)
    assert "prone" not in enc.get("c2").conditions  # the fumble's "Fall prone" was not applied


def test_a_defender_who_fumbles_and_stands_is_still_asked():
    """Fumble Table: "Fumbles on attack, parry, and dodge tests have special results: roll on the following table
    when they occur": one still standing after the blow rolls on it and is asked, as before."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2, hp=30)), "resolve")
    enc, ev = attack(enc, defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 20, "defence": 100, "location": 1, "damage": [1, 1], "fumble_defence": 35})
    assert "Bor fumbles: 35" in texts(ev)
    assert [p["combatant"] for p in prompts(enc, "fumble")] == ["c2"]


def test_an_open_fumble_question_goes_when_its_combatant_falls():
    """Death: "Dead characters cannot do anything"; "Characters who become incapacitated generally lose actions".
    Bor's fumbled parry is still unanswered when Cid's blow kills him: the question about it is set aside, with a
    line in the log, and nothing is asked for the dead."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2, hp=3), fighter("Cid", side="party", x=4)),
                   "resolve")
    enc, _ = attack(enc, defence={"kind": "parry", "weapon": "broadsword"},
                    rolls={"attack": 90, "defence": 100, "fumble_defence": 35})
    assert [p["combatant"] for p in prompts(enc, "fumble")] == ["c2"]
    enc, ev = attack(enc, "c3", "c2", rolls={"attack": 20, "location": 1, "damage": [8, 4]})
    assert "dead" in enc.get("c2").conditions
    assert prompts(enc, "fumble") == []
    assert "The question on Bor's fumble is set aside: Bor is dead" in texts(ev)


# -- 4. Knockback: a killing blow knocks back too ---------------------------------------------------

GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def test_a_killing_blow_still_knocks_back():
    """Knockback: "If the rolled damage of an attack (before AP is deducted, etc.) is higher than the target's SIZ,
    the target is knocked back 1 meter for every 5 points of damage (or part thereof)." The text's only exceptions
    are impales and attacks like bites; a blow that kills is none of them. Bor, killed by 22 points, is knocked
    back 5 m and his token moves straight away from Ana as a living target's does; the dead make no DEX roll to
    keep their feet ("Dead characters cannot do anything")."""
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2, hp=3)), "resolve")
    enc, ev = attack(enc, weapon="greatsword", rolls={"attack": 10, "location": 10, "damage": [8, 8, 4]})
    assert "dead" in enc.get("c2").conditions
    assert "Bor is knocked back 5 m (rolled damage 22 > SIZ 13)" in texts(ev)
    assert "DEX×5" not in texts(ev) and "prone" not in enc.get("c2").conditions
    p = prompts(enc, "collision")[0]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})
    assert (enc.get("c2").position.x, enc.get("c2").position.y) == (7, 0)
    assert "Bor is knocked back 5 m to (7, 0) m" in texts(ev)
