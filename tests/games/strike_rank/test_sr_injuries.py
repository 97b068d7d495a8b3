"""Injuries, death, resuscitation and healing. Docstrings quote the rule text."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.games.strike_rank import rules
from sr_helpers import (RS, attack, declare, do, duel, fighter, loc, prompts, texts, to_phase)


def hurt(enc, lid, amount, target="c2", **rolls):
    a = {"type": "sr.damage", "target": target, "location": lid, "amount": amount, "armour": False}
    if rolls:
        a["rolls"] = rolls
    return do(enc, a)


@pytest.mark.parametrize("hp,hp_max,level", [(5, 5, "none"), (1, 5, "minor"), (0, 5, "serious"), (-4, 5, "serious"),
                                             (-5, 5, "maimed"), (-9, 5, "maimed"), (-10, 5, "mangled")])
def test_injuries_levels(hp, hp_max, level):
    """Injuries: "The highest degree of injury applies; they do not stack." Serious at 0, maimed at −HP, mangled
    at −2×HP."""
    assert rules.injury_level(hp, hp_max) == level


def test_injuries_healed_above_threshold_ends_effect():
    """Injuries: "If a location is healed back above an injury threshold, the injury effects end immediately.\""""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "right_leg", 5)
    assert RS.view(enc)["combatants"]["c2"]["movement"]["can_run"] is False
    enc, _ = do(enc, {"type": "sr.heal", "target": "c2", "location": "right_leg", "points": 2})
    assert RS.view(enc)["combatants"]["c2"]["movement"]["can_run"] is True


def test_damage_less_than_location_hp_minor():
    """Damage Less than Location HP: "A location with 1+ HP has a minor wound; no special effect.\""""
    enc, ev = hurt(to_phase(duel(), "resolve"), "chest", 5)
    v = RS.view(enc)["combatants"]["c2"]
    chest = next(l for l in v["locations"] if l["id"] == "chest")
    assert chest["injury"] == "minor" and not chest["bleeding"] and v["status"] == "ok"


def test_damage_equal_arm_disabled_cannot_wield():
    """Damage Equal to Location HP: "Arm: A disabled arm cannot wield weapons or shields\""""
    enc, _ = hurt(to_phase(duel(), "resolve"), "right_arm", 4, target="c1")
    with pytest.raises(RuleViolation, match="Ana.s right arm is disabled: it cannot wield the broadsword"):
        attack(enc, rolls={"attack": 20})


def test_damage_equal_leg_cannot_run_half_rate():
    """Damage Equal to Location HP: "Leg: The combatant cannot run. If half or more of a combatants' legs are
    disabled, they also move at half rate.\""""
    enc = to_phase(duel(), "declare")
    enc, _ = hurt(enc, "right_leg", 5, target="c1")
    with pytest.raises(RuleViolation, match="cannot run"):
        declare(enc, "c1", kind="move", metres=6, running=True)
    enc, _ = declare(enc, "c1", kind="move", metres=3)
    assert enc.state["actions"][0]["sr"] == 2  # 3 m at 1.5 m/SR


def test_damage_equal_chest_bleeds_con_test_end_of_round():
    """Damage Equal to Location HP: "Chest, Abdomen: Combatant must make a CON test at the end of each MR or lose 1
    total HP to bleeding; this stops on a Special/Critical Success\""""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "chest", 6)
    assert loc(enc, "c2", "chest")["bleeding"]
    failed, ev = do(enc, {"type": "advance", "rolls": {"bleed.c2.chest": 61}})  # CON 12 × 5 = 60%
    assert failed.get("c2").data["hp"] == 6 and "loses 1 HP" in texts(ev)
    stopped, ev = do(enc, {"type": "advance", "rolls": {"bleed.c2.chest": 12}})
    assert not loc(stopped, "c2", "chest")["bleeding"] and stopped.get("c2").data["hp"] == 7


def test_the_end_of_round_bleeding_is_logged_under_the_round_that_ended():
    """Damage Equal to Location HP: "Chest, Abdomen: Combatant must make a CON test at the end of each MR or lose 1
    total HP to bleeding". At the end of MR 1, so the log holds it under MR 1, with "End of Melee Round 1"; a GM's
    play-through found both under MR 2, the round the same Next began."""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "chest", 6)
    ended = enc.round
    # the page's Next: "skip_empty", so nothing left to ask at the end of the MR begins the next at once
    after, _ = do(enc, {"type": "advance", "skip_empty": True, "rolls": {"bleed.c2.chest": 61}})
    assert after.round == ended + 1  # the one Next ended the MR and began the next
    lines = {e.text: e.round for e in after.log[len(enc.log):]}
    bleeding = [t for t in lines if "loses 1 HP" in t]
    assert bleeding and all(lines[t] == ended for t in bleeding)
    assert lines[f"End of Melee Round {ended}"] == ended


def test_damage_equal_head_con_test_unconscious_minutes():
    """Damage Equal to Location HP: "Head: Combatant must make a CON test or be knocked unconscious for 1 minute per
    point of damage dealt\""""
    enc = to_phase(duel(), "resolve")
    ok, _ = hurt(enc, "head", 6, **{"gm.con_head": 60})
    assert "unconscious" not in ok.get("c2").conditions
    ko, _ = hurt(enc, "head", 6, **{"gm.con_head": 61})
    assert "unconscious" in ko.get("c2").conditions and ko.get("c2").data["unconscious_minutes"] == 6


def test_damage_double_vitals_shock_and_maimed_arm():
    """Damage Equal to Double Location HP: "Vitals: CON test or become incapacitated by shock until healed";
    "Arm: Arm cannot wield weapons or shields, cannot attack or parry, cannot hold objects.\""""
    enc = to_phase(duel(b=fighter("Bor", hp=30)), "resolve")
    enc, ev = hurt(enc, "abdomen", 20, **{"gm.con_shock": 61})
    assert "incapacitated" in enc.get("c2").conditions
    assert RS.view(enc)["combatants"]["c2"]["movement"]["can_stand"] is False  # "Abdomen: Cannot stand or walk."
    enc, _ = do(enc, {"type": "sr.heal", "target": "c2", "location": "abdomen", "kind": "rune", "points": 15})
    assert "incapacitated" not in enc.get("c2").conditions


def test_damage_double_legs_cannot_stand():
    """Damage Equal to Double Location HP: "Leg: If half or more of a combatant's legs are maimed, they cannot stand
    (crawl at 1m rate ...)\""""
    enc = to_phase(duel(b=fighter("Bor", hp=40)), "resolve")
    enc, _ = hurt(enc, "right_leg", 28)
    v = RS.view(enc)["combatants"]["c2"]["movement"]
    assert v["can_stand"] is False and v["can_run"] is False


def test_damage_triple_limb_mangled_severed_prompt_and_bleeds():
    """Damage Equal to Triple Location HP: "Limb: Limb is mangled or severed; it is useless (as maimed) and bleeds
    1 total HP per MR.\""""
    enc = to_phase(duel(b=fighter("Bor", hp=40)), "resolve")
    enc, _ = hurt(enc, "left_arm", 39)  # arm HP 13: −26 mangled
    p = prompts(enc, "severed")[0]
    enc, _ = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "severed"})
    assert RS.view(enc)["combatants"]["c2"]["locations"][5]["injury"] == "severed"
    hp = enc.get("c2").data["hp"]
    enc, ev = do(enc, {"type": "advance"})
    assert enc.get("c2").data["hp"] == hp - 1


def test_damage_triple_vitals_instant_death():
    """Damage Equal to Triple Location HP: "Vitals: Instant death (decapitation, etc.).\""""
    enc = to_phase(duel(b=fighter("Bor", hp=40)), "resolve")
    enc, ev = hurt(enc, "head", 42)
    # mangled vitals are a fatal injury that can still be healed within 12 SR ("Resuscitation")
    assert "dead" in enc.get("c2").conditions and "mangled Head" in texts(ev)


def test_death_at_zero_total_hp_cannot_act():
    """Death: "A character reduced to 0 total HP or below is killed. ... Dead characters cannot do anything\""""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "right_leg", 4)
    enc, _ = hurt(enc, "left_leg", 4)
    enc, _ = hurt(enc, "right_arm", 3)
    assert "dead" not in enc.get("c2").conditions
    enc, ev = hurt(enc, "left_arm", 2)  # total 13 − 13 = 0
    assert "dead" in enc.get("c2").conditions
    with pytest.raises(RuleViolation, match="dead"):
        attack(enc, "c2", "c1", rolls={"attack": 20})


def test_resuscitation_within_12_sr():
    """Resuscitation: "A fatally injured character ... can be resuscitated and saved from death within 12 SR (1 full
    MR). Fatal injuries ... must be healed, usually by magic.\""""
    enc = to_phase(duel(b=fighter("Bor", hp=6)), "resolve")  # locations 2 (arms 1, chest 3)
    enc, _ = hurt(enc, "chest", 6, **{"gm.con_shock": 1})
    assert enc.get("c2").data["resuscitate_by"] == {"round": 2, "sr": 1}
    saved, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "chest", "kind": "rune", "points": 6})
    assert "dead" not in saved.get("c2").conditions and "resuscitated" in texts(ev)
    late = to_phase(enc, "end")             # end of MR 1
    late = to_phase(late, "declare")        # MR 2
    late = to_phase(late, "end")            # end of MR 2: the 12 SR are over
    assert late.get("c2").data["resuscitate_by"] is None
    late, _ = do(late, {"type": "sr.heal", "target": "c2", "location": "chest", "kind": "rune", "points": 6})
    assert "dead" in late.get("c2").conditions


def test_healing_location_and_total_capped_by_missing():
    """Healing: "When a location's HP are healed, a corresponding amount of total HP are healed. Neither healing
    amount can exceed the amount of HP the location was missing.\""""
    enc, _ = hurt(to_phase(duel(), "resolve"), "chest", 2)
    enc, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "chest", "kind": "rune", "points": 5})
    assert loc(enc, "c2", "chest")["hp"] == 6 and enc.get("c2").data["hp"] == 13 and "heals 2" in texts(ev)


@pytest.mark.parametrize("roll,heal_dice,healed", [(2, [2], 5), (8, [1, 2], 3), (40, [3], 3), (60, None, 0)])
def test_first_aid_results(roll, heal_dice, healed):
    """First Aid: "Success heals 1D3 HP, Special heals 2D3 HP, Critical heals 1D3+3 HP.\" (First Aid 50%)"""
    enc, _ = hurt(to_phase(duel(b=fighter("Bor", hp=30)), "resolve"), "chest", 8)
    rolls = {"first_aid": roll, **({"heal": heal_dice} if heal_dice else {})}
    enc, ev = do(enc, {"type": "sr.first_aid", "healer": "c1", "target": "c2", "location": "chest", "rolls": rolls})
    assert loc(enc, "c2", "chest")["hp"] == 11 - 8 + healed


def test_first_aid_once_per_injury_and_stops_bleeding():
    """First Aid: "An injured hit location can be treated with First Aid once, until it is injured again." "Maimed
    (-X HP): Stops bleeding." "Mangled (-2X HP): Special or Critical stops bleeding.\""""
    enc, _ = hurt(to_phase(duel(b=fighter("Bor", hp=30)), "resolve"), "chest", 22, **{"gm.con_shock": 1})
    enc, _ = do(enc, {"type": "sr.first_aid", "healer": "c1", "target": "c2", "location": "chest",
                      "rolls": {"first_aid": 40}})
    assert not loc(enc, "c2", "chest")["bleeding"]
    with pytest.raises(RuleViolation, match="once"):
        do(enc, {"type": "sr.first_aid", "healer": "c1", "target": "c2", "location": "chest", "rolls": {"first_aid": 1}})
    enc2, _ = hurt(to_phase(duel(b=fighter("Bor", hp=30)), "resolve"), "left_arm", 27)  # arm 9: −18 mangled
    enc2, _ = do(enc2, {"type": "sr.first_aid", "healer": "c1", "target": "c2", "location": "left_arm",
                        "rolls": {"first_aid": 40}})
    assert loc(enc2, "c2", "left_arm")["bleeding"]


def test_magical_healing_thresholds():
    """Magical Healing: "Heal only heals minor or serious wounds" "A 2-point Heal battle magic spell can stop
    bleeding (a mangled limb requires a 6-point Heal spell)."."""
    enc, _ = hurt(to_phase(duel(b=fighter("Bor", hp=30)), "resolve"), "left_arm", 27)
    weak, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "left_arm", "points": 4})
    assert loc(weak, "c2", "left_arm")["bleeding"] and loc(weak, "c2", "left_arm")["hp"] == -18
    strong, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "left_arm", "points": 6})
    assert not loc(strong, "c2", "left_arm")["bleeding"] and "only heals minor or serious" in texts(ev)


@pytest.mark.parametrize("period,level_damage,healed", [("day", 3, 2), ("week", 3, 3), ("day", 6, 0)])
def test_natural_healing_rate_and_period(period, level_damage, healed):
    """Natural Healing: "Minor Wound (1+ HP)/Serious Wound (0 HP): Recover HP equal to HR at the end of each day."
    "more serious injuries will not begin healing naturally until treated" (CON 12: HR 2; a week is seven days: a
    chest 3/6 heals 2, then 1, to 6/6)."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "chest", level_damage)
    enc, ev = do(enc, {"type": "sr.natural_healing", "id": "c2", "period": period})
    assert loc(enc, "c2", "chest")["hp"] == 6 - level_damage + healed


def test_natural_healing_total_hp_only():
    """Natural Healing: "If a character is missing total HP but has no injured hit locations, treat total HP as its
    own minor wound\""""
    enc = to_phase(duel(), "resolve")
    enc.get("c2").data["hp"] = 9
    enc, ev = do(enc, {"type": "sr.natural_healing", "id": "c2", "period": "day"})
    assert enc.get("c2").data["hp"] == 11


@pytest.mark.parametrize("roll,bonus", [(2, 3), (8, 2), (40, 1), (70, 0)])
def test_treatment_adds_hr(roll, bonus):
    """Treatment: "a Success grants +1 HR, a Special Success grants +2 HR, and a Critical Success grants +3 HR.\""""
    enc, _ = hurt(to_phase(duel(b=fighter("Bor", hp=40)), "resolve"), "chest", 10)
    enc, ev = do(enc, {"type": "sr.natural_healing", "id": "c2", "period": "day", "healer": "c1",
                       "rolls": {"treatment": roll}})
    assert loc(enc, "c2", "chest")["hp"] == 15 - 10 + 2 + bonus  # CON 12: HR 2


def test_bleeding_con_tests_listed_for_the_gm_before_the_round_ends():
    """Damage Equal to Location HP: "Chest, Abdomen: Combatant must make a CON test at the end of each MR or lose 1
    total HP to bleeding": the view lists each test with its roll name, so the GM can type it on the Next that ends
    the MR; a mangled limb "bleeds 1 total HP per MR" with no test and is not listed."""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "abdomen", 5)
    tests = RS.view(enc)["bleed_tests"]
    assert tests == [{"combatant": "c2", "name": "Bor", "location": "abdomen", "location_name": "Abdomen",
                      "roll": "bleed.c2.abdomen", "chance": 60}]
    arm = loc(enc, "c2", "left_arm")  # a made-up state: a mangled arm (3 × its HP) on someone still alive
    arm.update(hp=-2 * arm["hp_max"], bleeding=True)
    assert [t["location"] for t in RS.view(enc)["bleed_tests"]] == ["abdomen"]


def test_injury_none_reads_unhurt_in_the_log():
    """Injuries: the degree of injury "none" is the card's "unhurt"; the log uses the same word (issue 10:
    "Right arm 4/4 none" where the card says "unhurt")."""
    enc = to_phase(duel(b=fighter("Bor", armour=6)), "resolve")
    _, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "right_arm", "amount": 4, "armour": True})
    assert "Right arm 4/4 unhurt" in texts(ev) and " none" not in texts(ev)


def test_a_bleeding_test_typed_out_of_range_is_said_as_one_d100_roll():
    """A GM's play-through: 150 typed for the bleeding CON test (one d100) read "die 1 shows 150, but a D100
    shows 1 to 100 (in '1D100')". Beside the field it says one d100 roll, 1-100, and nothing changes."""
    enc = to_phase(duel(), "resolve")
    enc, _ = hurt(enc, "chest", 6)
    with pytest.raises(InvalidAction) as e:
        do(enc, {"type": "advance", "rolls": {"bleed.c2.chest": 150}})
    assert e.value.field == "rolls.bleed.c2.chest"
    assert e.value.message == "type one d100 roll, 1-100, not 150"
    with pytest.raises(InvalidAction) as e:
        do(enc, {"type": "advance", "rolls": {"bleed.c2.chest": [8, 4]}})
    assert e.value.message == "type one d100 roll, 1-100, not 2 numbers"


def test_the_log_says_what_the_gm_decided_not_the_questions_kind():
    """A GM's report: the log said "GM answers (severed, Bor): Severed", the question's own name in brackets.
    Damage Equal to Triple Location HP: "Limb is mangled or severed": the GM's ruling reads as one, in words;
    a question set aside says what it was about."""
    enc = to_phase(duel(b=fighter("Bor", hp=40)), "resolve")
    enc, _ = hurt(enc, "left_arm", 39)
    p = prompts(enc, "severed")[0]
    cut, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "severed"})
    said = [e["text"] for e in ev if e["kind"] == "answer"]
    assert said == ["The GM rules Bor's left arm severed"]
    kept, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "mangled"})
    assert [e["text"] for e in ev if e["kind"] == "answer"] == ["The GM rules Bor's left arm mangled but still attached"]
    _, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "dismiss"})
    assert [e["text"] for e in ev if e["kind"] == "answer"] == ["The GM sets aside the question on a mangled limb (Bor)"]
    assert not any("GM answers" in e.text or "(severed" in e.text for e in cut.log)


def test_every_question_kind_has_its_answers_in_words():
    """Every question strike-rank puts to the GM, and each of its fixed answers, has its sentence."""
    import re
    from pathlib import Path
    from fray.games.strike_rank.care import ANSWER_WORDS, QUESTION_WORDS

    src = "".join(p.read_text() for p in (Path(__file__).parents[3] / "py/fray/games/strike_rank").glob("*.py"))
    kinds = set(re.findall(r'prompt\(ctx, "(\w+)"', src))
    assert kinds and kinds <= set(ANSWER_WORDS) and kinds <= set(QUESTION_WORDS)
