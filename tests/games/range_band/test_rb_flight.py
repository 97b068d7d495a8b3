"""Table-driven tests straight from the rule text (shared/rules/000_da34f120076854a0.txt): Flight, Underwater
Combat, Holding Breath (FACTS.md's name for the paragraphs without a heading) and Teleportation & Combat. Every
docstring quotes the sentence it checks; the docs table (py/fray/games/range_band/rules-trace.md) lists these node ids (``F::``)
per heading."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.reducer import apply
from fray.games.range_band import rules
from rb_helpers import (RS, act, cv, fight, hind, last_pending, pending, person, preset, resolve, start, to_phase)


# == Flight ===========================================================================================

def test_switch_flight_at_start_or_end_of_movement_not_both():
    """Flight: "you may switch between flying and ground movement at the beginning or end of your movement phase
    (but not both)." """
    enc = to_phase(start(fight(preset("Winged flyer", flying=False))), "movement")
    enc = act(enc, "fly", id="c1", on=True)
    assert enc.get("c1").data["flying"] is True
    with pytest.raises(RuleViolation):
        act(enc, "fly", id="c1", on=False)
    enc = to_phase(enc, "actions")
    with pytest.raises(RuleViolation):
        act(enc, "fly", id="c1", on=False)
    two = to_phase(start(fight(person("Walker"), preset("Winged flyer", flying=False))), "movement", "c1")
    with pytest.raises(RuleViolation):
        act(two, "fly", id="c2", on=True)  # not in its own movement


def test_begin_flying_when_knocked_down_minor_stunned():
    """Flight: "If you are currently knocked-down, beginning to fly gives you a minor stunned status for 1 round, but
    you no longer count as knocked-down." """
    enc = fight(preset("Winged flyer", flying=False), person("B"))
    enc = act(enc, "knockdown", id="c1")
    enc = act(to_phase(start(enc), "movement"), "fly", id="c1", on=True)
    c = enc.get("c1")
    assert "knocked-down" not in c.conditions and "minor-stunned" in c.conditions
    assert c.data["durations"][0]["ends"] == "before_turn"


def test_flying_restrictions_low_stealth_no_group_defense_no_outnumbering():
    """Flight: "You may not use cover or participate in group defense ... You do not count for the purposes of
    outnumbering dice. Flying characters are always in Low Stealth." """
    enc = fight(preset("Winged flyer"))
    v = cv(enc, "c1")
    assert v["flying"] and v["stealth"]["level"] == "low" and v["outnumbering"]["counts"] is False
    assert v["can_use_cover"] is False and v["reminders"][0]["rule"] == "Flight"
    assert v["group_defense"]["defender"] is False and v["group_defense"]["defended"] is False
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="medium")


def test_flying_movement_roll_d10_on_flying_spd_easing_for_outnumbering():
    """Flight: "All flying movement is rolled on your flying SPD ... you use your flying SPD as the reactive +TN for
    rushing ... You roll a d10 in your movement roll instead of a d12 ... You ignore outnumbering dice in any SPD
    roll, and add 2 Easing in such a roll instead." """
    enc = to_phase(start(fight(preset("Winged flyer"))), "movement")
    enc = act(enc, "move", id="c1", x=5, rush=True, outnumbered=True)
    spec = last_pending(enc, "movement")["spec"]
    assert (spec["die"], spec["stat"], spec["stat_value"]) == ("d10", "flying SPD", 14)
    assert spec["tn"]["parts"] == [{"reason": "rushing: flying SPD as reactive +TN", "value": 14}]
    assert spec["easing"]["total"] == 2
    ground = to_phase(start(fight(person("Walker"))), "movement")
    ground = act(ground, "move", id="c1", x=5)
    assert last_pending(ground, "movement")["spec"]["die"] == "d12"


def test_ascend_short_or_medium_when_rushing_by_ten():
    """Flight: "Whenever you succeed on any flying movement roll, you may ascend a distance of short range; if you
    both rush and succeed by 10 or more, you may ascend up to medium range." (bands: short ≤ 10 m, medium ≤ 50 m)"""
    enc = to_phase(start(fight(preset("Winged flyer"))), "movement")
    with pytest.raises(RuleViolation):
        act(enc, "move", id="c1", alt=30)
    ok = resolve(act(enc, "move", id="c1", alt=10), "movement")
    assert ok.get("c1").position.alt == 10
    rushed = act(enc, "move", id="c1", alt=30, rush=True)
    assert resolve(rushed, "movement", by=10).get("c1").position.alt == 30
    assert resolve(rushed, "movement", by=4).get("c1").position.alt == 10
    assert resolve(rushed, "movement", success=False).get("c1").position.alt == 0


def test_descend_one_zone_without_a_roll():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." """
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 200}))
    enc = to_phase(start(enc), "movement")
    with pytest.raises(InvalidAction):
        act(enc, "descend", id="c1", alt=float("nan"))
    enc = act(enc, "descend", id="c1", alt=0)
    assert enc.get("c1").position.alt == 0 and not pending(enc)


def test_a_descent_to_the_same_altitude_is_no_descent():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM's play-through: Descend, its field holding the flyer's own altitude, logged "Wren descends
    to altitude 20 m" (from 20 m to 20 m) and used up the phase. The same or a higher altitude is refused beside the
    field, in the GM's words, and nothing changes; the view starts Descend on a real descent (1 zone lower, not
    below the ground; none left: empty)."""
    enc = to_phase(start(fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 20}))), "movement")
    for alt in (20, 25):
        with pytest.raises(InvalidAction) as e:
            act(enc, "descend", id="c1", alt=alt)
        assert e.value.field == "alt" and "at altitude 20 m: to descend, give a lower altitude" in e.value.message
    assert enc.get("c1").data.get("moved") is None and enc.get("c1").position.alt == 20
    assert cv(enc, "c1")["descend_to"] == 0
    high = to_phase(start(fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 500}))), "movement")
    zone = rules.band_max(RS.all_tables(high), "long")
    assert cv(high, "c1")["descend_to"] == 500 - zone
    high = act(high, "descend", id="c1", alt=500 - zone)
    assert cv(high, "c1")["descend_to"] is None  # the phase's zone is used up: the field starts empty
    assert cv(act(to_phase(enc, "movement", rnd=1), "descend", id="c1", alt=0), "c1")["descend_to"] is None


def test_a_descent_without_a_roll_is_the_movement_unless_the_gm_lets_a_roll_follow():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." and "If vertical movement up or down is your only movement, it still counts as a movement
    phase". A flyer descended without a roll, then made its movement roll too (a GM's play-through). The text
    does not say whether a roll may follow a descent made without one; the reading followed: the descent was
    the phase's movement (a descent with a roll is the roll's own, ``rb.move`` with a lower altitude), and the
    GM may rule otherwise (``after_descent``), which the log keeps."""
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 200}))
    enc = act(to_phase(start(enc), "movement"), "descend", id="c1", alt=100)
    with pytest.raises(RuleViolation, match="descended without a roll") as e:
        act(enc, "move", id="c1", x=5, alt=100)
    assert e.value.rule == "Flight" and e.value.field == "after_descent"
    enc, events = apply(enc, {"type": "rb.move", "id": "c1", "x": 5, "alt": 100, "after_descent": True})
    assert len(pending(enc, "movement")) == 1
    assert any("The GM lets" in e["text"] and "follow its descent" in e["text"] for e in events)


def test_a_descent_alone_needs_no_movement_roll():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM sent a descent alone (no horizontal move) through the Movement roll form, got a pending
    roll, dismissed it and found the phase's roll spent. A descent alone is refused as a roll at the altitude, the
    refusal pointing to Descend (no roll); the GM who wants the roll anyway says so (``descent_roll``)."""
    enc = fight(preset("Winged flyer", position={"x": 3, "y": 4, "alt": 200}))
    enc = to_phase(start(enc), "movement")
    with pytest.raises(RuleViolation, match="needs no roll") as e:
        act(enc, "move", id="c1", x=3, y=4, alt=150)
    assert e.value.rule == "Flight" and e.value.field == "alt" and "Descend" in str(e.value)
    rolled = act(enc, "move", id="c1", x=3, y=4, alt=150, descent_roll=True)
    assert len(pending(rolled, "movement")) == 1
    assert len(pending(act(enc, "move", id="c1", x=8, y=4, alt=150), "movement")) == 1  # across and down: a roll


def test_a_movement_phase_descends_at_most_one_zone_in_all():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll": 1 zone in the phase, not 1 zone a press (two descents, or a descent and a roll's)."""
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 500}))
    enc = act(to_phase(start(enc), "movement"), "descend", id="c1", alt=350)
    with pytest.raises(RuleViolation, match="at most 1 zone"):
        act(enc, "descend", id="c1", alt=200)
    enc = act(enc, "descend", id="c1", alt=250)
    assert enc.get("c1").position.alt == 250
    with pytest.raises(RuleViolation, match="at most 1 zone"):
        apply(enc, {"type": "rb.move", "id": "c1", "x": 5, "alt": 240, "after_descent": True})
    fresh = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 500}))
    fresh = to_phase(start(fresh), "movement")
    with pytest.raises(RuleViolation, match="at most 1 zone"):
        act(fresh, "move", id="c1", x=5, alt=200)
    rolled = act(fresh, "move", id="c1", x=5, alt=300)
    assert len(pending(rolled, "movement")) == 1


def test_descend_in_ones_own_movement():
    """Flight: "During your movement phase, you may descend": the flyer's own place in the movement phase, as
    its movement roll."""
    enc = fight(person("Walker"), preset("Winged flyer", position={"x": 0, "y": 0, "alt": 40}))
    enc = act(enc, "turn_order", id="c1", value=20)
    enc = act(enc, "turn_order", id="c2", value=10)
    enc = to_phase(start(enc), "movement", "c1")
    with pytest.raises(RuleViolation, match="Walker's movement"):
        act(enc, "descend", id="c2", alt=0)
    enc = act(to_phase(enc, "movement", "c2"), "descend", id="c2", alt=0)
    assert enc.get("c2").position.alt == 0


def test_vertical_movement_blocks_slowing_actions():
    """Flight: "If vertical movement up or down is your only movement, it still counts as a movement phase; you cannot
    notably change your altitude and still perform slowing actions." """
    enc = to_phase(start(fight(preset("Winged flyer"))), "movement")
    enc = resolve(act(enc, "move", id="c1", alt=10), "movement")
    enc = to_phase(enc, "actions")
    with pytest.raises(RuleViolation):
        act(enc, "act", id="c1", size="slowing", what="aim")


def test_knockdown_while_flying_is_minor_stunned_until_end_of_next_turn():
    """Flight: "When flying, anything that would normally inflict a knockdown instead gives you a minor stunned status
    until the end of your next turn. If you are at engagement altitude, you may choose to immediately stop flying
    and suffer a knockdown rather than being stunned." """
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 20}), person("B"))
    enc = to_phase(start(enc), "actions", "c2")
    enc = act(enc, "knockdown", id="c1")
    c = enc.get("c1")
    assert "minor-stunned" in c.conditions and "knocked-down" not in c.conditions
    enc = to_phase(enc, "actions", "c1")  # round 2, its next turn
    assert "minor-stunned" in enc.get("c1").conditions
    enc, _ = apply(enc, {"type": "advance"})
    assert "minor-stunned" not in enc.get("c1").conditions
    with pytest.raises(RuleViolation):
        act(fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 20})), "knockdown", id="c1", stop_flying=True)
    low = act(fight(preset("Winged flyer")), "knockdown", id="c1", stop_flying=True)
    assert "knocked-down" in low.get("c1").conditions and not low.get("c1").data["flying"]


def test_grapple_while_flying_both_fall_and_no_takeoff_while_grappling():
    """Flight: "You cannot begin flying while grappling; if you grapple or are grappled while flying, both you and the
    attacker immediately fall." """
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 1}), person("B"))
    enc = act(enc, "grapple", id="c2", target="c1")
    assert enc.get("c1").data["flying"] is False and enc.state["prompts"][-1]["kind"] == "fall"
    ground = act(fight(preset("Winged flyer", flying=False), person("B")), "grapple", id="c2", target="c1")
    with pytest.raises(RuleViolation):
        act(ground, "fly", id="c1", on=True)


def test_mismatched_grapple_larger_flyer_keeps_flying():
    """Flight: "The only exception to these rules is a mismatched grapple in which the larger character is flying, and
    whose flight method can tolerate the encumbrance of the other character's weight." """
    big = preset("Large creature", flying=True, stats={**preset("Large creature")["stats"], "FSPD": 10})
    enc = act(fight(big, person("B")), "grapple", id="c1", target="c2", mismatched_flying_ok=True)
    assert enc.get("c1").data["flying"] is True


def test_rider_on_flying_mount_is_not_flying_and_falls_when_knocked_down():
    """Flight: "Characters who are riding flying mounts must follow normal mounted combat rules, and are not considered
    flying themselves. For example, if they suffer a knockdown, they are knocked off the mount (and fall)"."""
    enc = fight(preset("Rider"), preset("Winged flyer", side="party", name="Griffon"))
    enc = act(enc, "mount", id="c1", mount="c2")
    assert cv(enc, "c1")["flying"] is False
    enc = act(enc, "knockdown", id="c1")
    assert enc.get("c1").data["mount"] is None and "knocked-down" in enc.get("c1").conditions
    assert "fall" in enc.state["prompts"][-1]["text"]


def test_flying_spd_20_auto_success_by_10():
    """Flight: "If your flying SPD is at least 20, you automatically succeed by 10 on all SPD rolls; you no longer
    blunder SPD rolls. If it is 21 or greater, you are eligible to follow the Speed Class rules"."""
    fast = preset("Winged flyer", stats={**preset("Winged flyer")["stats"], "FSPD": 21})
    enc = to_phase(start(fight(fast)), "movement")
    enc = act(enc, "move", id="c1", x=8, alt=9)
    assert not pending(enc, "movement") and enc.get("c1").position.x == 8
    assert cv(enc, "c1")["speed_class"] is True


@pytest.mark.parametrize("status", ["incapacitated", "paralyzed"])
def test_falling_from_flight(status):
    """Flight: "You can fall from flight if you are paralyzed, incapacitated, killed, deprived of your means of flight,
    or voluntarily stop flying at greater than engagement altitude." """
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 30}))
    enc = act(enc, "status", id="c1", status=status)
    assert enc.get("c1").data["flying"] is False and "medium-range fall" in enc.state["prompts"][-1]["text"]
    assert enc.get("c1").position.alt == 0 and enc.state["prompts"][-1]["from_alt"] == 30
    stop = act(to_phase(start(fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 30}))), "movement"),
               "fly", id="c1", on=False)
    assert stop.state["prompts"][-1]["kind"] == "fall"
    dep = act(fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 30})), "fly", id="c1", on=False,
              deprived=True)
    assert dep.state["prompts"][-1]["kind"] == "fall"


def test_zone_limits_flight():
    """Flight: "Flight may not be available in certain zones, or may be limited in altitude ... Flight cannot be used in
    any area that is using narrow passage rules"."""
    enc = to_phase(start(fight(preset("Winged flyer", flying=False))), "movement")
    with pytest.raises(RuleViolation):
        act(act(enc, "zone", narrow=True), "fly", id="c1", on=True)
    low = act(act(enc, "zone", flight_ceiling="engaged"), "fly", id="c1", on=True)
    with pytest.raises(RuleViolation):
        act(low, "move", id="c1", alt=5)


def test_flying_spd_sources_stack_diminishing():
    """Flight: "Multiple sources of flying SPD stack, but only in a diminishing way. Begin with the source that has the
    highest flying SPD. Next, increase this SPD by 1/4 the sum of all other active sources' flying SPDs." """
    enc = fight(person("Mage", stats={"FSPD": 8}, flight_sources=[
        {"name": "boots", "spd": 12}, {"name": "spell", "spd": 6}, {"name": "broken", "spd": 30, "active": False}]))
    v = cv(enc, "c1")["flying_spd"]
    assert v["value"] == 12 + (8 + 6) // 4
    assert v["parts"][0] == {"reason": "boots (highest)", "value": 12}


def test_bad_flying_spd_and_wgt_refused_at_the_field():
    """Issue: "Bad input (a WGT of "heavy", a flying SPD of −3 ...) gets a clear error at the field"."""
    enc = fight()
    for stats, field in (({"WGT": "heavy"}, "combatant.stats.WGT"), ({"FSPD": -3}, "combatant.stats.FSPD")):
        with pytest.raises(InvalidAction) as e:
            apply(enc, {"type": "add_combatant", "combatant": person(stats=stats)})
        assert e.value.field == field
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "add_combatant", "combatant": person(flight_sources=[{"name": "x", "spd": -3}])})
    assert e.value.field == "combatant.flight_sources.0.spd"


# == Underwater Combat ================================================================================

def test_underwater_spd_quarter_or_full_for_amphibious_plus_flying_bonus():
    """Underwater Combat: "Other characters must reduce their SPD to 25% (or at least 1)"; amphibious species "use
    their full SPD when moving, often with an additional SPD bonus"; "you may add 1/4 of your flying SPD as a bonus
    ... This does not include natural wing-based flight"."""
    enc = fight(person("Walker", stats={"SPD": 10}), preset("Amphibious swimmer"), preset("Winged flyer"),
                person("Boots", stats={"SPD": 2}, flight_sources=[{"name": "boots", "spd": 12}]), zone={"underwater": True})
    assert [cv(enc, c)["underwater_spd"]["value"] for c in ("c1", "c2", "c3", "c4")] == [2, 12, 1, 1 + 3]


def test_underwater_movement_roll_and_knockdown_immunity():
    """Underwater Combat: "Use the Flight rules ... Underwater characters are not considered to be flying for the
    purpose of any other rules. They are immune to knockdowns ... anything that would inflict a knockdown will still
    remove an underwater character from their mount"."""
    enc = fight(preset("Rider"), preset("Horse"), zone={"underwater": True})
    enc = act(enc, "mount", id="c1", mount="c2")
    enc = act(enc, "knockdown", id="c1")
    assert "knocked-down" not in enc.get("c1").conditions and enc.get("c1").data["mount"] is None
    sw = to_phase(start(fight(preset("Amphibious swimmer"), zone={"underwater": True})), "movement")
    sw = act(sw, "move", id="c1", alt=-8)
    spec = last_pending(sw, "movement")["spec"]
    assert (spec["die"], spec["stat"], spec["stat_value"]) == ("d10", "underwater SPD", 12)
    with pytest.raises(RuleViolation):
        act(sw, "fly", id="c1", on=False)


def test_underwater_descent_as_hard_as_ascent():
    """Underwater Combat: "it is just as difficult to descend as to ascend"."""
    enc = to_phase(start(fight(preset("Amphibious swimmer"), zone={"underwater": True})), "movement")
    with pytest.raises(RuleViolation):
        act(enc, "move", id="c1", alt=-30)
    with pytest.raises(RuleViolation):
        act(enc, "descend", id="c1", alt=-30)


def _pond(*combatants, depth=6):
    """A fight with a water area (A1) 20 m round at (0, 0), its surface at altitude 0 and ``depth`` m deep."""
    enc = fight()
    enc = act(enc, "area", kind="water", x=0, y=0, radius="medium", depth=depth, name="Pond")
    for c in combatants:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    return enc


def test_water_area_makes_who_is_underwater_follow_from_position():
    """Underwater Combat: "Because underwater battles are much more three-dimensional, they can be resolved similarly
    to a battle in which all characters are flying." Water is a marked area (surface and depth), so some
    combatants are underwater and some not: the swimmer 3 m down is, the scout on the bank is not."""
    enc = _pond(preset("Amphibious swimmer", alt=-3), preset("Human scout", x=60))
    assert rules.underwater(enc, enc.get("c1")) and not rules.underwater(enc, enc.get("c2"))
    assert cv(enc, "c1")["underwater"] and not cv(enc, "c2")["underwater"]
    assert cv(enc, "c1")["underwater_spd"]["value"] == 12 and cv(enc, "c2")["underwater_spd"] is None
    assert not rules.underwater(enc)  # the zone itself is not underwater


def test_swimmer_dives_and_surfaces_in_a_water_area_with_an_underwater_roll():
    """Underwater Combat: "Use the Flight rules found above, except that it is just as difficult to descend as to
    ascend": a swimmer at the surface dives 3 m with a d10 roll on underwater SPD, and comes back up."""
    enc = to_phase(start(_pond(preset("Amphibious swimmer"))), "movement")
    enc = act(enc, "move", id="c1", x=2, alt=-3)
    spec = last_pending(enc, "movement")["spec"]
    assert (spec["die"], spec["stat"]) == ("d10", "underwater SPD")
    enc = resolve(enc, "movement", success=True, by=2)
    assert (enc.get("c1").position.x, enc.get("c1").position.alt) == (2, -3)
    assert rules.underwater(enc, enc.get("c1"))
    enc = to_phase(enc, "movement", "c1", rnd=2)
    enc = resolve(act(enc, "move", id="c1", alt=0), "movement", success=True)
    assert enc.get("c1").position.alt == 0 and not rules.underwater(enc, enc.get("c1"))


def test_no_diving_below_the_ground_or_the_bottom():
    """Underwater Combat is where altitude goes below the surface: outside water a move below the ground is
    refused (a flyer too), and in water not below its bottom ("simply use normal underwater horizontal movement along the
    bottom")."""
    enc = to_phase(start(_pond(preset("Amphibious swimmer", alt=-3), preset("Human scout", x=60), depth=4)),
                   "movement", "c1")
    with pytest.raises(InvalidAction, match="bottom of Pond"):
        act(enc, "move", id="c1", alt=-5)
    enc = to_phase(enc, "movement", "c2")
    with pytest.raises(InvalidAction, match="only flying, swimming or underwater"):
        act(enc, "move", id="c2", x=61, alt=-1)
    fly = to_phase(start(fight(preset("Winged flyer", flying=True, alt=2))), "movement")
    with pytest.raises(InvalidAction, match="below the ground"):
        act(fly, "move", id="c1", alt=-1)


def test_water_breather_is_not_asked_to_hold_breath_others_are():
    """Underwater Combat: "Amphibious creatures can either breathe underwater (such as Therbolgites and anthrosaurs)
    ... Other organic creatures are in danger of drowning if they remain underwater"; Holding Breath: "Characters
    decide whether they are holding their breath at the beginning of their turn"."""
    enc = _pond(preset("Amphibious swimmer", alt=-3), person("Diver", x=1, alt=-3), person("Bank", x=60))
    with pytest.raises(RuleViolation, match="breathes underwater"):
        act(enc, "breath", id="c1", holding=True)
    enc = to_phase(start(enc), "actions", "c2")
    assert enc.get("c2").data["breath"]["holding"]  # underwater, not breathing is not a choice
    enc = to_phase(enc, "actions", "c1")
    assert not enc.get("c1").data.get("breath", {}).get("holding")
    assert not enc.get("c3").data.get("breath", {}).get("holding")


@pytest.mark.parametrize("carried, rate", [(0, "no"), (2, "minute"), (5, "round")])
def test_sinking_by_carried_weight(carried, rate):
    """Underwater Combat: "If you are carrying at least 25% of your own body weight, you will sink in water at a rate
    of short range once per minute; if at least 50%, you sink short range every round instead." (WGT 8)"""
    enc = fight(person(carried=carried), zone={"underwater": True})
    assert cv(enc, "c1")["sinking"] == rate
    assert cv(enc, "c1")["if_immobilized"] == ("rises to the surface" if rate == "no" else "sinks")


def test_underwater_melee_hindrance_and_exceptions():
    """Underwater Combat: "Competent melee attacks must add 3 Hindrance to their offense rolls when underwater, and
    incompetent melee attacks cannot occur at all. These restrictions are ignored for attacks made entirely with
    weapons that have the Precise tag, natural weapons of aquatic animals, and unarmed or grappling attacks from
    aquatic or amphibious characters." """
    enc = fight(person("Diver", weapons=[{"name": "Axe", "kind": "melee", "tags": []}]), preset("Amphibious swimmer"),
                zone={"underwater": True})
    enc = act(enc, "attack", id="c1", target="c2", weapon=0)
    assert hind(last_pending(enc, "offense")["spec"]) == {"competent melee underwater": 3}
    enc = act(enc, "attack", id="c2", target="c1", weapon=0)  # Precise trident
    assert hind(last_pending(enc, "offense")["spec"]) == {}
    enc = act(enc, "attack", id="c2", target="c1", weapon=1, size="free")  # amphibious grapple
    assert hind(last_pending(enc, "offense")["spec"]) == {}
    mounted = fight(preset("Rider", competencies=[]), preset("Horse"), person("Foe", side="foes"),
                    zone={"underwater": True})
    mounted = act(mounted, "mount", id="c1", mount="c2")
    with pytest.raises(RuleViolation):
        act(mounted, "attack", id="c1", target="c3", weapon=0)  # incompetent melee


def test_underwater_ranged_attacks_useless_except_precise_thrown_and_blast():
    """Underwater Combat: "Ranged attacks are useless underwater, with the exceptions of thrown weapons with the
    Precise tag, ranged attacks consisting entirely of blast damage, and certain specific devices." """
    enc = fight(preset("Human scout"), preset("Winged flyer"), zone={"underwater": True})
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c1", target="c2", weapon=0)
    act(enc, "attack", id="c2", target="c1", weapon=1)
    act(enc, "attack", id="c1", target="c2", kind="ranged", tags=["blast"])


def test_underwater_damage_factors_and_speech():
    """Underwater Combat: "Underwater creatures take 25% damage from heat, and 50% damage from frost." and "Only
    characters who can naturally breathe underwater may speak or perform verbal actions while underwater." """
    enc = fight(person("Diver"), preset("Amphibious swimmer"), zone={"underwater": True})
    assert RS.view(enc)["zone"]["damage_factors"] == {"heat": 25, "frost": 50}
    with pytest.raises(RuleViolation):
        act(enc, "act", id="c1", size="minor", what="shout", verbal=True)
    act(enc, "act", id="c2", size="minor", what="shout", verbal=True)


# == Holding Breath ===================================================================================

def breath_fight(**traits):
    enc = fight(person("Diver", stats={"CON": 11}, **traits), zone={"underwater": True})
    return start(enc)


def test_breath_four_rounds_then_con_rolls_with_growing_hindrance():
    """Holding Breath: "Characters can hold their breath without issue for 20 seconds (4 rounds); after that, they
    must begin rolling d6 on CON at the beginning of every turn, with 1 Hindrance for every time they have previously
    rolled." """
    enc = breath_fight()
    rolls = []
    for rnd in range(1, 8):
        enc = to_phase(enc, "actions")
        assert enc.round == rnd
        ps = pending(enc, "breath")
        if ps:
            rolls.append((rnd, ps[-1]["spec"]["die"], ps[-1]["spec"]["stat"], ps[-1]["spec"]["hindrance"]["total"]))
            enc = resolve(enc, "breath", success=True)
        enc, _ = apply(enc, {"type": "advance"})
    assert rolls == [(5, "d6", "CON", 0), (6, "d6", "CON", 1), (7, "d6", "CON", 2)]


def test_idle_breath_eight_rounds_rolls_every_two():
    """Holding Breath: "If a character is idle and focused on holding their breath, the initial duration before CON
    rolls is increased to 8 rounds, and the CON rolls need only occur every 2 rounds." """
    enc = breath_fight()
    enc = to_phase(enc, "actions")
    enc = act(enc, "breath", id="c1", holding=True, idle=True)
    seen = []
    for rnd in range(1, 13):
        enc = to_phase(enc, "actions")
        if pending(enc, "breath"):
            seen.append(enc.round)
            enc = resolve(enc, "breath", success=True)
        enc, _ = apply(enc, {"type": "advance"})
    assert seen == [9, 11]


def test_out_of_breath_without_air_major_stunned_and_25_percent():
    """Holding Breath: "Once one of these rolls is failed, the character is "out of breath" ... If they cannot, they
    function as major-stunned, and have a 25% chance of becoming incapacitated every round." """
    enc = breath_fight(breath_rounds=1)
    enc = to_phase(enc, "actions")
    enc, _ = apply(enc, {"type": "advance"})
    enc = to_phase(enc, "actions")  # round 2: held 2 > 1
    enc = resolve(enc, "breath", success=False)
    c = enc.get("c1")
    assert "major-stunned" in c.conditions and c.data["breath"]["out"]
    enc, _ = apply(enc, {"type": "advance"})
    enc = to_phase(enc, "actions")
    p = last_pending(enc, "breath_incap")["spec"]
    assert (p["die"], p["stat_value"], p["can_blunder"]) == ("d100", 25, False)
    with pytest.raises(InvalidAction) as e:
        resolve(enc, "breath_incap", success=False, blunder=True)
    assert e.value.field == "blunder"
    enc = resolve(enc, "breath_incap", success=True)
    assert "incapacitated" in enc.get("c1").conditions


def test_out_of_breath_with_air_resumes_breathing():
    """Holding Breath: "if there is air available, they will unavoidably resume breathing." """
    enc = start(fight(person("Gasser", breath_rounds=1), zone={"air": False}))
    enc = to_phase(enc, "actions")
    enc, _ = apply(enc, {"type": "advance"})
    enc = to_phase(enc, "actions")
    enc = act(enc, "zone", air=True)
    enc = resolve(enc, "breath", success=False)
    assert enc.get("c1").data["breath"]["holding"] is False and "major-stunned" not in enc.get("c1").conditions


def test_holding_breath_prevents_verbal_actions():
    """Holding Breath: "Characters decide whether they are holding their breath at the beginning of their turn, and
    this prevents them from performing verbal actions"."""
    enc = to_phase(start(fight(person("A"))), "actions")
    enc = act(enc, "breath", id="c1", holding=True)
    with pytest.raises(RuleViolation):
        act(enc, "act", id="c1", size="minor", what="cast", verbal=True)


def test_restart_breathing_process_goal_20_plus_awgt():
    """Holding Breath: "unless they ran out of breath while underwater ... their breathing must be restarted by another
    character; this is a process action rolled on CON, with a point goal equal to 20 plus the victim's AWGT.
    Conventional Medicine (Nature) provides a significant +TN to this roll." """
    enc = fight(person("Victim", breath_rounds=1), person("Medic", competencies=["conventional_medicine"]),
                zone={"underwater": True})
    enc = act(enc, "turn_order", id="c1", value=10)
    enc = to_phase(start(enc), "actions", "c1")
    enc, _ = apply(enc, {"type": "advance"})
    enc = to_phase(enc, "actions", "c1")
    enc = resolve(enc, "breath", success=False)
    enc = act(enc, "zone", underwater=False, air=True)
    enc = to_phase(enc, "actions", "c1", rnd=3)
    assert enc.get("c1").data["breath"]["needs_restart"]
    enc = to_phase(enc, "actions", "c2")
    enc = act(enc, "restart_breathing", id="c2", target="c1")
    spec = last_pending(enc, "restart")
    assert spec["effect"]["goal"] == 28 and spec["spec"]["stat"] == "CON"
    assert spec["spec"]["tn"]["parts"] == [{"reason": "Conventional Medicine (Nature)", "value": 3}]
    enc = resolve(enc, "restart", success=True, by=30)
    assert not enc.get("c1").data["breath"]["needs_restart"]


def test_incapacitated_without_air_25_percent_death_each_minute():
    """Holding Breath: "Once incapacitated, they have a 25% chance of dying every minute. Deaths from lack of air are
    revivable." (a minute = 12 rounds of 5 seconds)"""
    enc = fight(person("A"), person("Diver"), zone={"underwater": True})
    d = enc.get("c2")
    d.conditions.append("incapacitated")
    d.data["breath"].update(out=True, holding=True, incapacitated_round=1)
    enc = start(enc)
    for _ in range(40):
        if pending(enc, "breath_death"):
            break
        enc, _ = apply(enc, {"type": "advance"})
    assert enc.round == 13 and last_pending(enc, "breath_death")["spec"]["stat_value"] == 25
    enc = resolve(enc, "breath_death", success=True)
    assert "dead" in enc.get("c2").conditions


@pytest.mark.parametrize("state, size", [("fresh", "minor"), ("rolling", "major"), ("out", "major")])
def test_catch_breath_action_size(state, size):
    """Holding Breath: "The action is a minor action if they had not yet rolled on CON, a major action if they were
    rolling on CON, and 2 major actions if they ran out of breath." """
    enc = to_phase(start(fight(person("A"))), "actions")
    b = {"fresh": {"holding": True, "held": 2}, "rolling": {"holding": True, "held": 6, "rolls": 2},
         "out": {"out": True, "rolls": 3}}[state]
    enc.get("c1").data["breath"].update(b)
    enc = act(enc, "catch_breath", id="c1")
    assert enc.get("c1").data["used"][size] == 1
    if state == "out":
        assert enc.get("c1").data["breath"]["out"] is True  # one of two major actions
    else:
        assert enc.get("c1").data["breath"]["held"] == 0


def test_resuming_breathing_is_not_catching_ones_breath():
    """Holding Breath: "Characters automatically breathe without an action once they are able, but fully catching
    one's breath (and thus resetting held breath to last 4 rounds, with no Hindrance to the first CON roll) is an
    action. The action is ... 2 major actions if they ran out of breath." Out of breath with air about: the next turn
    starts with breathing resumed, but the breath is not caught (its CON rolls still count), and the second of the
    two actions is a major one, not a minor one."""
    enc = to_phase(start(fight(person("A"))), "actions")
    enc.get("c1").data["breath"].update({"out": True, "rolls": 3, "held": 6})
    enc = act(enc, "catch_breath", id="c1")
    assert enc.get("c1").data["used"]["major"] == 1 and enc.get("c1").data["breath"]["catching"] == 1
    enc = to_phase(enc, "actions", "c1", rnd=2)
    b = enc.get("c1").data["breath"]
    assert not b["out"] and b["rolls"] == 3, "breathing again, the breath not caught"
    assert "not yet caught" in cv(enc, "c1")["breath"]["text"]
    enc = act(enc, "catch_breath", id="c1")
    used = enc.get("c1").data["used"]
    assert used["major"] == 1 and not used.get("minor"), "the second of 2 major actions"
    b = enc.get("c1").data["breath"]
    assert (b["held"], b["rolls"], b["catching"]) == (0, 0, 0) and not b.get("ran_out")


# == Teleportation & Combat ===========================================================================

def test_teleport_vertical_range_equals_horizontal():
    """Teleportation & Combat: "Teleportation may be a minor action or a major action, and may vary in range; its
    vertical range is always the same as its horizontal." """
    enc = fight(person("Blinker"))
    enc = act(enc, "teleport", id="c1", x=0, y=0, alt=9, range="short", precision="high", size="minor")
    assert enc.get("c1").position.alt == 9 and enc.get("c1").data["used"]["minor"] == 1
    with pytest.raises(RuleViolation):
        act(fight(person("Blinker")), "teleport", id="c1", x=0, y=0, alt=40, range="short", precision="high")


def test_teleport_precision_levels():
    """Teleportation & Combat: Low precision "this includes any enemies you are grappling with ... If used, the
    teleport will attempt to bring everything attached along, and may therefore fail. You cannot use it to escape
    restraints." Medium: "You can teleport away even if an ally is touching you or if you are grappling, but you
    cannot use it to escape restraints." High: "You can teleport out of restraints"."""
    enc = act(fight(person("Blinker"), person("Foe", side="foes", x=1)), "grapple", id="c2", target="c1")
    low = act(enc, "teleport", id="c1", x=8, range="short", precision="low")
    assert low.get("c2").position.x == 9 and low.state["prompts"][-1]["kind"] == "teleport"
    med = act(enc, "teleport", id="c1", x=8, range="short", precision="medium")
    assert med.get("c2").position.x == 1 and med.get("c1").data["grappling"] == []
    tied = act(fight(person("Blinker")), "status", id="c1", status="restrained")
    for p in ("low", "medium"):
        with pytest.raises(RuleViolation):
            act(tied, "teleport", id="c1", x=5, range="short", precision=p)
    act(tied, "teleport", id="c1", x=5, range="short", precision="high")


# == Flight costs; bringing others along on a teleport ==============================================

def test_flight_costs_are_paid_at_the_beginning_of_the_movement_phase():
    """Flight: "Creatures may also list a specific amount of fatigue inflicted by flying, or there may be a charge cost
    for flight devices or Abilities ... All normal flight costs must be paid at the beginning of the movement
    phase." and "If you rush, you do not take the fatigue normal for ground rushing." """
    flyer = preset("Winged flyer", flight_fatigue=1,
                   flight_sources=[{"name": "Wind sash", "spd": 8, "fatigue": 1}])
    enc = fight(flyer, person("B", x=30))
    assert cv(enc, "c1")["flight_cost"]["fatigue"] == 2
    enc = start(enc)
    assert cv(enc, "c1")["fatigue"] == 2, "round 1's movement phase"
    enc = to_phase(enc, "movement", "c1", rnd=2)
    assert cv(enc, "c1")["fatigue"] == 4, "and round 2's"
    rush = act(enc, "move", id="c1", x=20, rush=True)
    assert "flying rush: no ground-rushing fatigue" in last_pending(rush, "movement")["spec"]["notes"]
    assert cv(rush, "c1")["fatigue"] == 4
    grounded = fight(preset("Winged flyer", flying=False, flight_fatigue=1), person("B", x=30))
    grounded = to_phase(start(grounded), "movement", "c1")
    assert cv(grounded, "c1")["fatigue"] == 0, "not flying: nothing to pay"
    up = act(grounded, "fly", id="c1", on=True)
    assert cv(up, "c1")["fatigue"] == 1, "taking off at the start of its movement pays this round's cost"


def test_teleport_brings_the_listed_characters_and_each_is_listed_once():
    """Teleportation & Combat, medium precision: "Although you do not have to bring other characters along ... you can
    choose to do so"; low precision brings "any enemies you are grappling with, any allies you are touching, and any
    allies touching you" (``attached``). A character in both lists is bad input, refused at the field."""
    enc = to_phase(start(fight(person("A"), person("B", x=1), person("C", side="foes", x=40))), "actions", "c1")
    went = act(enc, "teleport", id="c1", x=5, range="short", precision="medium", size="minor", bring=["c2"])
    assert (went.get("c1").position.x, went.get("c2").position.x) == (5, 6)
    with pytest.raises(InvalidAction) as e:
        act(enc, "teleport", id="c1", x=5, range="short", precision="low", bring=["c2"], attached=["c2"])
    assert e.value.field == "attached"


def test_teleport_parts_a_rider_from_a_mount_left_behind():
    """Teleportation & Combat, low precision: it "cannot distinguish between you and anything that is even slightly
    attached to you ... Things you are standing on do not count as attached." A rider teleporting without its mount
    leaves it, and is no longer mounted; a mount teleporting by low precision takes its rider in the saddle along;
    by medium precision, only if it brings it (else the pair is parted); brought along, they stay mounted together."""
    from rb_helpers import rider_and_horse

    enc = rider_and_horse()
    alone = act(enc, "teleport", id="c1", x=5, range="short", precision="low")
    assert (alone.get("c1").position.x, alone.get("c2").position.x) == (5, 0)
    assert alone.get("c1").data["mount"] is None and alone.get("c2").data["rider"] is None
    low = act(enc, "teleport", id="c2", x=5, range="short", precision="low")
    assert (low.get("c1").position.x, low.get("c1").data["mount"]) == (5, "c2")
    left = act(enc, "teleport", id="c2", x=5, range="short", precision="medium")
    assert left.get("c1").position.x == 0 and left.get("c1").data["mount"] is None
    both = act(enc, "teleport", id="c1", x=5, range="short", precision="medium", bring=["c2"])
    assert (both.get("c2").position.x, both.get("c1").data["mount"]) == (5, "c2")
