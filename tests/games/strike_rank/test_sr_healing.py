"""Natural Healing in the encounter (``sr.natural_healing``) and First Aid's outcome, as the rule text's
Healing section says (review of issue 35's party healing: the encounter's own action differed). Docstrings
quote the text; the figures are worked by hand (the fighters have CON 12: HR ceil(12/6) = 2; First Aid 50%)."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from sr_helpers import do, duel, fighter, loc, texts, to_phase


def hurt(enc, lid, amount, target="c2"):
    return do(enc, {"type": "sr.damage", "target": target, "location": lid, "amount": amount, "armour": False})


def rest(enc, period, cid="c2", **more):
    return do(enc, {"type": "sr.natural_healing", "id": cid, "period": period, **more})


def first_aid(enc, lid, roll, heal=None, target="c2"):
    rolls = {"first_aid": roll, **({"heal": heal} if heal else {})}
    return do(enc, {"type": "sr.first_aid", "healer": "c1", "target": target, "location": lid, "rolls": rolls})


def test_a_week_heals_minor_and_serious_wounds_at_the_end_of_each_day():
    """Natural Healing: "Minor Wound (1+ HP)/Serious Wound (0 HP): Recover HP equal to HR at the end of each
    day." A week is seven days: Bor (HP 40: chest 15) with 14 to the chest is at 1/15, minor; seven days at
    HR 2 heal 14: chest 15/15, total HP 26 → 40 (the week used to heal only maimed wounds)."""
    enc, _ = hurt(to_phase(duel(b=fighter("Bor", hp=40)), "resolve"), "chest", 14)
    assert loc(enc, "c2", "chest")["hp"] == 1 and enc.get("c2").data["hp"] == 26
    enc, ev = rest(enc, "week")
    assert loc(enc, "c2", "chest")["hp"] == 15 and enc.get("c2").data["hp"] == 40
    assert "Chest heals 14 (natural healing); 15/15 unhurt" in texts(ev)


def test_total_hp_heals_as_its_own_minor_wound_over_a_week():
    """Natural Healing: "If a character is missing total HP but has no injured hit locations, treat total HP as
    its own minor wound for the purposes of healing." Bor at 5/13 total HP, no injured location: a week is seven
    days of HR 2 = 14, capped at the 8 missing: 13/13 (total HP used to heal only on a "day")."""
    enc = to_phase(duel(), "resolve")
    enc.get("c2").data["hp"] = 5
    enc, ev = rest(enc, "week")
    assert enc.get("c2").data["hp"] == 13
    assert "recovers 8 total HP as its own minor wound" in texts(ev)


def test_natural_healing_requires_rest():
    """Natural Healing: "Natural healing requires rest; strenuous activity (GM's discretion; travelling by foot
    counts, as does heavy labor and any fighting)." A chest 3/6 after a day not rested is still 3/6; rested, a
    day heals HR 2: 5/6."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "chest", 3)
    tired, ev = rest(enc, "day", rested=False)
    assert loc(tired, "c2", "chest")["hp"] == 3 and tired.get("c2").data["hp"] == 10
    assert "natural healing requires rest; nothing heals" in texts(ev)
    rested, _ = rest(enc, "day", rested=True)
    assert loc(rested, "c2", "chest")["hp"] == 5
    with pytest.raises(InvalidAction) as e:
        rest(enc, "day", rested="yes")
    assert e.value.field == "rested"


def test_seven_rested_days_heal_a_maimed_location_as_a_week_and_a_day_of_labour_starts_again():
    """Natural Healing: "Maimed (-X HP): Recover HP equal to HR at the end of each week." Bor's right leg (5 HP)
    takes 10: −5, maimed; First Aid (rolled 40 of 50%: success) treats it. Six single days leave it at −5; the
    seventh heals HR 2: −3. Six days, then one not rested ("requires rest"), then one more: still −5."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "right_leg", 10)
    enc, _ = first_aid(enc, "right_leg", 40)
    start = enc
    for _ in range(6):
        enc, _ = rest(enc, "day")
    assert loc(enc, "c2", "right_leg")["hp"] == -5
    seventh, _ = rest(enc, "day")
    assert loc(seventh, "c2", "right_leg")["hp"] == -3 and seventh.get("c2").data["hp"] == 5
    broken, _ = rest(enc, "day", rested=False)
    broken, _ = rest(broken, "day")
    assert loc(broken, "c2", "right_leg")["hp"] == -5
    week, _ = rest(start, "week")
    assert loc(week, "c2", "right_leg")["hp"] == -3


def test_a_failed_first_aid_does_not_treat_a_serious_wound():
    """First Aid: "Minor Wound (1+ HP)/Serious Wound (0 HP): Stops bleeding; Success heals 1D3 HP" (nothing for a
    failure); Natural Healing: "more serious injuries will not begin healing naturally until treated with First
    Aid". Bor's chest (6 HP) takes 6: 0/6, serious. First Aid rolled 90 of 50%: failure, no effect; a day heals
    nothing. The wound was not treated, so First Aid may be tried again: rolled 40, success, 1D3 rolled 2: 2/6;
    then a day heals HR 2: 4/6."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "chest", 6)
    enc, ev = first_aid(enc, "chest", 90)
    assert "rolled 90, failure: no effect; the chest is not treated and First Aid may be tried again" in texts(ev)
    chest = loc(enc, "c2", "chest")
    assert chest["hp"] == 0 and not chest.get("treated") and not chest["first_aid"]
    waited, ev = rest(enc, "day")
    assert loc(waited, "c2", "chest")["hp"] == 0
    assert "Chest (serious) will not begin healing until treated with First Aid" in texts(ev)
    enc, ev = first_aid(enc, "chest", 40, heal=[2])
    assert loc(enc, "c2", "chest")["hp"] == 2 and "rolled 40, success: treated" in texts(ev)
    enc, _ = rest(enc, "day")
    assert loc(enc, "c2", "chest")["hp"] == 4


def test_a_fumbled_first_aid_does_not_treat_either_and_a_success_is_once_until_injured_again():
    """First Aid: "An injured hit location can be treated with First Aid once, until it is injured again." A
    fumble (rolled 99 of 50%) leaves the serious chest untreated; a success treats it, and then a second try is
    refused until a new injury."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "chest", 6)
    enc, ev = first_aid(enc, "chest", 99)
    assert "fumble: no effect" in texts(ev) and not loc(enc, "c2", "chest").get("treated")
    enc, _ = first_aid(enc, "chest", 40, heal=[1])
    with pytest.raises(RuleViolation, match="once"):
        first_aid(enc, "chest", 40, heal=[1])
    enc, _ = hurt(enc, "chest", 1)
    enc, _ = first_aid(enc, "chest", 40, heal=[1])
    assert loc(enc, "c2", "chest")["hp"] == 1


def test_a_new_injury_to_a_treated_location_is_untreated_again():
    """First Aid: "An injured hit location can be treated with First Aid once, until it is injured again."
    Natural Healing: "more serious injuries will not begin healing naturally until treated with First Aid or
    healed at least partially." Bor's left leg (5 HP) takes 8: −3, a serious wound; First Aid (rolled 40 of 50%) treats
    it and heals 1D3 rolled 1: −2. A new blow of 2 (−4): the leg is injured again, so the treatment no longer stands: the card no longer
    says treated, and natural healing waits for First Aid again (a GM found the leg still marked treated)."""
    enc, _ = hurt(to_phase(duel(), "resolve"), "left_leg", 8)
    enc, _ = first_aid(enc, "left_leg", 40, heal=[1])
    assert loc(enc, "c2", "left_leg")["treated"] is True
    enc, _ = hurt(enc, "left_leg", 2)
    leg = loc(enc, "c2", "left_leg")
    assert leg["hp"] == -4 and not leg.get("treated") and not leg["first_aid"]
    _, ev = rest(enc, "day")
    assert "Left leg (serious) will not begin healing until treated with First Aid" in texts(ev)
