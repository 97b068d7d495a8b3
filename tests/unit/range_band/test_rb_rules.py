"""Table-driven tests straight from the rule text (shared/rules/000_da34f120076854a0.txt) and the
range-band section of FACTS.md. Every docstring quotes the sentence it checks; the docs table
(docs/rules/range-band.md) lists these node ids per heading."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.model import Position
from fray.reducer import apply
from fray.rulesets.range_band import rules
from fray.rulesets.range_band.rolls import roll_default
from fray.tray import DiceTray
from rb_helpers import (RS, act, cv, fight, hind, last_pending, pending, person, preset, resolve, start,
                        to_phase)

T = RS.tables


def rider_and_horse(x=0, **rider):
    enc = fight(preset("Rider", x=x, **rider), preset("Horse", x=x), person("Foe", side="foes", x=x + 30))
    return act(enc, "mount", id="c1", mount="c2")


# == FACTS.md: AWGT, bands, the round ==============================================================

@pytest.mark.parametrize("wgt, a", [(1, 1), (20, 20), (21, 20), (30, 25), (50, 35), (51, 35), (54, 36), (600, 172)])
def test_awgt_formula(wgt, a):
    """FACTS: "AWGT: equal to WGT up to 20; of the WGT from 21 to 50 count half; of the WGT over 50 count a
    quarter (round down). A horse of 50 WGT has AWGT 35; a creature of 600 WGT has AWGT 172." """
    assert rules.awgt(wgt) == a


def test_range_is_greater_of_horizontal_and_vertical_band():
    """Flight: "When considering your range to another character, use the greater of your horizontal or vertical
    range to them." (40 m across and 40 m up are both medium, though the straight line is 56 m.)"""
    assert rules.range_between(Position(0, 0, 0), Position(5, 0, 60), T)["band"] == "long"
    assert rules.range_between(Position(0, 0, 0), Position(300, 0, 1), T)["band"] == "travel"
    assert rules.range_between(Position(0, 0, 0), Position(40, 0, 40), T)["band"] == "medium"
    assert rules.range_between(Position(0, 0, 0), Position(1, 1, 0), T)["band"] == "engaged"


def test_round_turn_order_movement_phase_then_turns():
    """FACTS: "a movement phase, then an action phase in which each character takes one turn in turn order." """
    enc = fight(person("A"), person("B"), person("C"))
    enc = act(enc, "turn_order", id="c1", value=5)
    enc = act(enc, "turn_order", id="c2", value=12)
    enc = act(enc, "turn_order", id="c3", value=9)
    enc = start(enc)
    seen = []
    for _ in range(7):
        seen.append((enc.round, enc.phase, RS.view(enc)["current"]))
        enc, _ = apply(enc, {"type": "advance"})
    assert seen == [(1, "movement", "c2"), (1, "movement", "c3"), (1, "movement", "c1"),
                    (1, "actions", "c2"), (1, "actions", "c3"), (1, "actions", "c1"), (2, "movement", "c2")]


def test_durations_end_right_before_the_same_combatants_turn():
    """FACTS: "A duration counts down when the turn order reaches the same place in a later round, so a 1-round
    effect ends right before that character's next turn." """
    enc = fight(person("A"), person("B"))
    enc = act(enc, "turn_order", id="c1", value=10)
    enc = act(enc, "turn_order", id="c2", value=5)
    enc = to_phase(start(enc), "actions", "c1")
    enc, _ = apply(enc, {"type": "advance"})  # B's turn, round 1
    enc = act(enc, "status", id="c2", status="deafened", rounds=1)
    enc = to_phase(enc, "actions", "c1")  # round 2, A's turn: B still deafened
    assert enc.round == 2 and "deafened" in enc.get("c2").conditions
    enc, _ = apply(enc, {"type": "advance"})  # B's turn in round 2: ended right before it
    assert "deafened" not in enc.get("c2").conditions


def test_turn_actions_one_major_and_one_minor_assumed():
    """FACTS: "each character takes one turn in turn order" with major, minor and free actions — how many of each is
    not in the text: table turn_actions (assumed): one major, one minor, free ones unlimited."""
    assert T["turn_actions"]["assumed"] is True
    enc = to_phase(start(fight(person("A"))), "actions")
    enc = act(act(enc, "act", id="c1", size="major", what="strike"), "act", id="c1", size="minor", what="step")
    enc = act(enc, "act", id="c1", size="free", what="drop torch")
    with pytest.raises(RuleViolation):
        act(enc, "act", id="c1", size="major", what="strike again")
    assert cv(enc, "c1")["used"]["what"] == ["major: strike", "minor: step", "free: drop torch"]


# == Rolls: specifications, the GM's outcome, the assumed default ====================================

def test_roll_spec_is_data_with_reasons_and_gm_outcome():
    """FACTS: model the roll "as a roll specification (die, stat, TN modifiers, Hindrance and Easing counts, whether
    it can blunder) ... the GM rolls and enters the result (success or failure, and by how much)". """
    enc = start(fight(person("Scout", stats={"DEX": 14, "WGT": 8}, stealth="medium")))
    enc = to_phase(enc, "actions")
    enc = act(enc, "stealth", id="c1", level="high")
    p = last_pending(enc, "enter_high")
    spec = p["spec"]
    assert (spec["die"], spec["stat"], spec["stat_value"], spec["tn"]["total"]) == ("d20", "DEX", 14, 10)
    assert spec["tn"]["parts"] == [{"reason": "50% of WGT", "value": -4}]
    assert spec["can_blunder"] is True and spec["success"] and spec["failure"]
    assert "TN 10 = DEX 14 − 50% of WGT 4" in spec["text"]
    enc = resolve(enc, "enter_high", success=True, by=3)
    assert enc.get("c1").data["stealth"] == "high"


@pytest.mark.parametrize("faces, net, success, by, blunder", [
    ([7], 0, True, 3, False), ([11], 0, False, 1, False), ([20], 0, False, 10, True),
    ([3, 12], 1, False, 2, False), ([3, 12], -1, True, 7, False)])
def test_default_mechanic_is_assumed_and_replayable(faces, net, success, by, blunder):
    """FACTS: "or lets an *assumed*, documented default mechanic roll it" — table core_roll: TN 10, one extra die per
    net Hindrance (keep the highest) or Easing (keep the lowest); blunder on the highest face."""
    assert T["core_roll"]["assumed"] is True
    spec = {"die": "d20", "net_hindrance": net, "tn": {"total": 10}, "can_blunder": True}
    out = roll_default(spec, T["core_roll"], DiceTray({"roll": faces}), "roll")
    assert (out["success"], out["by"], out["blunder"]) == (success, by, blunder)


def test_fray_rolls_when_the_gm_gives_no_outcome():
    """A pending roll settled with no outcome is rolled by the tray (roll ``roll``) and recorded, so it replays."""
    import random

    from fray.reducer import prepare
    enc = to_phase(start(fight(person("Scout", stealth="medium"))), "actions")
    enc = act(enc, "stealth", id="c1", level="high")
    ref = last_pending(enc)["ref"]
    recorded, new, _ = prepare(enc, {"type": "rb.resolve", "ref": ref}, random.Random(3))
    assert "roll" in recorded["rolls"]
    again, _ = apply(enc, recorded)
    assert again.get("c1").data["stealth"] == new.get("c1").data["stealth"]


# == Back in Combat ===================================================================================

def test_mounted_ranged_hindrance_by_what_the_mount_did():
    """Back in Combat: "Your ranged attacks receive 1 Hindrance in their offense roll while you are mounted; this is
    increased to 2 Hindrance if the mount moved on its last turn, or 3 Hindrance if the mount was rushing." """
    enc = rider_and_horse()
    enc = to_phase(start(enc), "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    assert hind(last_pending(enc, "offense")["spec"]) == {"mounted": 1}
    enc = to_phase(enc, "movement", "c2")
    enc = act(enc, "move", id="c2", x=10)
    enc = resolve(enc, "movement")
    enc = to_phase(enc, "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    spec = last_pending(enc, "offense")["spec"]
    assert hind(spec) == {"mounted": 1, "mount moved on its last turn": 1} and spec["hindrance"]["total"] == 2
    assert "+1 mounted, +1 mount moved on its last turn" in spec["text"]
    enc = to_phase(enc, "movement", "c2")
    enc = act(enc, "move", id="c2", x=20, rush=True)
    enc = resolve(enc, "movement")
    enc = to_phase(enc, "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    assert last_pending(enc, "offense")["spec"]["hindrance"]["total"] == 3


def test_mount_that_stood_still_last_turn_gives_only_mounted_hindrance():
    """Back in Combat: "2 Hindrance if the mount moved on its last turn" — a move two rounds ago does not count."""
    enc = rider_and_horse()
    enc = to_phase(start(enc), "movement", "c2")
    enc = resolve(act(enc, "move", id="c2", x=5), "movement")
    enc = to_phase(enc, "movement", "c2", rnd=2)  # round 2, the horse's movement: it does not move
    enc, _ = apply(enc, {"type": "advance"})
    enc = to_phase(enc, "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    assert hind(last_pending(enc, "offense")["spec"]) == {"mounted": 1}


def test_mounted_slowing_dex_action_same_hindrance():
    """Back in Combat: "The same Hindrance applies to any slowing action that requires a roll on DEX, if done while
    mounted. You may still do slowing actions even if the mount made a movement roll this round." """
    enc = rider_and_horse()
    enc = to_phase(start(enc), "movement", "c2")
    enc = resolve(act(enc, "move", id="c2", x=5), "movement")
    enc = to_phase(enc, "actions", "c1")
    enc = act(enc, "act", id="c1", size="slowing", what="reload crossbow", dex_roll=True)
    assert hind(last_pending(enc, "slowing")["spec"]) == {"mounted": 1, "mount moved on its last turn": 1}


def test_mounted_attacks_incompetent_without_competency():
    """Back in Combat: "All ranged attacks while mounted are incompetent attacks unless you have Mounted Ranged
    Competency" and "All melee attacks while mounted are incompetent attacks unless you have Mounted Melee
    Competency". The Rider preset has Mounted Melee only."""
    enc = to_phase(start(rider_and_horse()), "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    assert last_pending(enc, "offense")["effect"]["competent"] is False
    enc = act(enc, "attack", id="c1", target="c3", weapon=0, size="free")
    assert last_pending(enc, "offense")["effect"]["competent"] is True


def test_unmounted_attacker_against_big_mount_gets_hindrance():
    """Back in Combat: "If an unmounted, non-flying enemy makes a melee attack against you, and the AWGT of your mount
    is at least double their own AWGT, they must add 1 Hindrance to their offense roll." (horse AWGT 35 ≥ 2 × 8)"""
    enc = to_phase(start(rider_and_horse()), "actions")
    enc = act(enc, "attack", id="c3", target="c1")
    assert list(hind(last_pending(enc, "offense")["spec"]).values()) == [1]
    big = fight(preset("Rider"), preset("Horse"), person("Ogre", side="foes", stats={"WGT": 20}))
    big = act(big, "mount", id="c1", mount="c2")
    big = act(big, "attack", id="c3", target="c1")
    assert hind(last_pending(big, "offense")["spec"]) == {}  # 35 < 2 × 20


def test_mount_and_rider_one_for_group_defense_not_for_outnumbering():
    """Back in Combat: "Mounted characters do not count for the purpose of outnumbering dice ... (though their mounts
    do). Mount and rider together function as one character for the purposes of group defense"."""
    enc = rider_and_horse()
    rider, horse = cv(enc, "c1"), cv(enc, "c2")
    assert rider["outnumbering"]["counts"] is False and horse["outnumbering"]["counts"] is True
    assert rider["group_defense"]["unit"] == horse["group_defense"]["unit"] == ["c1", "c2"]


def test_mount_and_rider_move_together_on_the_map():
    """Back in Combat: mount and rider are one place on the map — dragging either token (core ``move``) moves both,
    and a flying mount's descent takes its rider down."""
    enc = rider_and_horse()
    enc, _ = apply(enc, {"type": "move", "id": "c2", "x": 12, "y": 3})
    assert (enc.get("c1").position.x, enc.get("c1").position.y) == (12, 3)
    enc, _ = apply(enc, {"type": "move", "id": "c1", "x": 4})
    assert enc.get("c2").position.x == 4
    sky = fight(preset("Rider"), preset("Winged flyer", side="party", name="Griffon", position={"x": 0, "y": 0, "alt": 40}))
    sky = act(sky, "mount", id="c1", mount="c2")
    sky = act(to_phase(start(sky), "movement", "c2"), "descend", id="c2", alt=5)
    assert sky.get("c1").position.alt == 5


def test_removing_a_mount_unmounts_its_rider():
    """A combatant who leaves the fight leaves no one mounted on nothing (nor grappling nothing)."""
    enc, _ = apply(rider_and_horse(), {"type": "remove_combatant", "id": "c2"})
    assert enc.get("c1").data["mount"] is None and cv(enc, "c1")["outnumbering"]["counts"] is True


def test_mount_carries_one_proper_rider():
    """Back in Combat: "Mounts cannot carry more than one character as a proper rider." """
    enc = rider_and_horse()
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": person("Second")})
    with pytest.raises(RuleViolation) as e:
        act(enc, "mount", id="c4", mount="c2")
    assert e.value.rule == "Back in Combat"


@pytest.mark.parametrize("action, field", [
    ({"type": "rb.mount", "id": "c1", "mount": "c1"}, "mount"),
    ({"type": "rb.mount", "id": "c1", "mount": "c9"}, "mount"),
])
def test_bad_mount_input_names_the_field(action, field):
    """Issue: "a mount that is its own rider ... gets a clear error at the field and changes nothing"."""
    enc = fight(preset("Rider"), preset("Horse"))
    with pytest.raises(InvalidAction) as e:
        apply(enc, action)
    assert e.value.field == field


def test_rider_on_two_mounts_refused_at_the_field():
    """Issue: "a rider on two mounts" is refused with the field, and nothing changes."""
    enc = fight(preset("Rider"), preset("Horse"), preset("Horse", name="Pony"))
    enc = act(enc, "mount", id="c1", mount="c2")
    before = enc.to_dict()
    with pytest.raises(InvalidAction) as e:
        act(enc, "mount", id="c1", mount="c3")
    assert e.value.field == "mount" and "already rides Horse" in str(e.value)
    assert enc.to_dict() == before
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "edit_combatant", "id": "c1", "changes": {"riding": "c3"}})
    assert e.value.field == "changes.riding"
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "add_combatant", "combatant": {**preset("Rider"), "riding": "c9"}})
    assert e.value.field == "combatant.riding"
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "edit_combatant", "id": "c3", "changes": {"riding": "c3"}})
    assert e.value.field == "changes.riding"
    ok, _ = apply(enc, {"type": "add_combatant", "combatant": {**preset("Rider"), "riding": "c3"}})
    assert ok.get("c4").data["mount"] == "c3" and ok.get("c3").data["rider"] == "c4"
    with pytest.raises(RuleViolation):
        apply(enc, {"type": "add_combatant", "combatant": {**preset("Rider"), "riding": "c2"}})


# == Falling Off Mounts ===============================================================================

def test_mount_knocked_down_throws_rider():
    """Falling Off Mounts: "If your mount is incapacitated or knocked down, you are also knocked down; you are no
    longer considered mounted." """
    enc = act(rider_and_horse(), "knockdown", id="c2")
    assert "knocked-down" in enc.get("c1").conditions and enc.get("c1").data["mount"] is None
    enc = act(rider_and_horse(), "status", id="c2", status="incapacitated")
    assert "knocked-down" in enc.get("c1").conditions and enc.get("c1").data["mount"] is None


def test_knocked_down_rider_leaves_mount_and_400_wgt_fall():
    """Falling Off Mounts: "Anything which knocks you down will also remove you from your mount" and "If you are
    falling off an animal of at least 400 WGT, you must proceed through the Falling rules for a short-range fall"."""
    enc = act(rider_and_horse(), "knockdown", id="c1")
    assert enc.get("c1").data["mount"] is None and not enc.state.get("prompts")
    big = fight(preset("Rider"), preset("Large creature", side="party"))
    big = act(act(big, "mount", id="c1", mount="c2"), "knockdown", id="c1")
    assert "short-range fall" in big.state["prompts"][-1]["text"]


def test_voluntary_fall_off_is_a_knockdown():
    """Falling Off Mounts: "You may voluntarily "fall off" of a mount as a free action; you still suffer a knockdown." """
    enc = act(rider_and_horse(), "dismount", id="c1", fall=True)
    assert "knocked-down" in enc.get("c1").conditions and enc.get("c1").data["mount"] is None
    enc = act(rider_and_horse(), "dismount", id="c1")
    assert "knocked-down" not in enc.get("c1").conditions


# == Melee Attacks & Extreme Mount Sizes ==============================================================

def test_ten_times_awgt_forbids_melee_both_ways():
    """Melee Attacks & Extreme Mount Sizes: "If the AWGT of your mount is at least 10 times the AWGT of another
    character, you and that character cannot make melee attacks against one another at all." (172 ≥ 10 × 8)"""
    enc = fight(preset("Rider"), preset("Large creature", side="party"), person("Imp", side="foes", stats={"WGT": 8}))
    enc = act(enc, "mount", id="c1", mount="c2")
    for a, d in (("c1", "c3"), ("c3", "c1")):
        with pytest.raises(RuleViolation) as e:
            act(enc, "attack", id=a, target=d)
        assert e.value.rule == "Melee Attacks & Extreme Mount Sizes"


def test_reach_doubles_the_smaller_awgt():
    """Melee Attacks & Extreme Mount Sizes: "If the prospective attacker would solely be using melee weapons with the
    Reach tag, consider the smaller character's AWGT to be double its actual value"."""
    enc = fight(preset("Rider"), preset("Large creature", side="party"), person("Imp", side="foes", stats={"WGT": 10}))
    enc = act(enc, "mount", id="c1", mount="c2")  # 172 ≥ 10 × 10 but < 10 × 20
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c3", target="c1")
    act(enc, "attack", id="c3", target="c1", kind="melee", tags=["reach"])


def test_two_mounts_compare_mount_awgt_and_reach_adds_rider():
    """Melee Attacks & Extreme Mount Sizes: "For melee attacks between two mounted characters ... use the AWGT of the
    mounts in both cases; in the case of a Reach weapon attack, combine the smaller mount's AWGT with the AWGT of its
    rider." (172 vs a 17-WGT pony: 10 × 17 = 170; with Reach 17 + 8 = 25.)"""
    enc = fight(preset("Rider"), preset("Large creature", side="party"), preset("Rider", side="foes", name="Jockey"),
                preset("Horse", side="foes", name="Pony", stats={**preset("Horse")["stats"], "WGT": 17}))
    enc = act(act(enc, "mount", id="c1", mount="c2"), "mount", id="c3", mount="c4")
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c3", target="c1")
    act(enc, "attack", id="c3", target="c1", kind="melee", tags=["reach"])


def test_mount_size_rules_do_not_apply_to_flyers():
    """Melee Attacks & Extreme Mount Sizes: "These rules do not apply if the smaller character/mount is flying." and
    Flight: "Two characters who are both flying (or on flying mounts) ignore all melee attack restrictions based on
    mount size." """
    enc = fight(preset("Rider"), preset("Large creature", side="party"), preset("Winged flyer"))
    enc = act(enc, "mount", id="c1", mount="c2")
    act(enc, "attack", id="c3", target="c1")  # the small flyer may attack


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


# == Lack of Sight ====================================================================================

def test_blinded_no_ranged_attacks_except_aoe_auto_failed():
    """Lack of Sight: "If you are completely without sight ... you cannot make any ranged attacks, except for AoEs
    targeted at your own engagement with an automatically failed offense roll. All melee attacks must use the blind
    melee attack rules." """
    enc = act(fight(preset("Human scout"), person("Foe", side="foes", x=1)), "status", id="c1", status="blinded")
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c1", target="c2", weapon=0)
    enc2, events = apply(enc, {"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 0, "aoe": True})
    assert events[-1]["detail"]["spec"]["auto"]["success"] is False
    enc3 = act(enc, "attack", id="c1", target="c2", weapon=1)
    assert "blind melee attack rules" in " ".join(last_pending(enc3, "offense")["spec"]["notes"])


def test_cannot_see_a_target_blind_ranged_attack_rules():
    """Lack of Sight: "If you generally have sight but cannot see a specific character, you may still make targeted
    ranged attacks against them according to the blind ranged attack rules" and "If you have sight but cannot see a
    whole area, you may attack that area using AoE rules, with 50% hit chances"."""
    enc = fight(preset("Human scout"), person("Foe", side="foes", x=30))
    enc = act(enc, "cannot_see", id="c1", target="c2")
    enc = act(enc, "attack", id="c1", target="c2", weapon=0)
    notes = " ".join(last_pending(enc, "offense")["spec"]["notes"])
    assert "blind ranged attack rules" in notes and "50% hit chances" in notes


def test_grappling_counts_as_seeing():
    """Lack of Sight: "you always count as "seeing" a character you are grappling with for the purposes of all attack
    rules." and Stealth Attacks: "Attacks between characters who are already grappling with each other are never
    considered to be stealth attacks, even if one or both characters are blinded." """
    enc = act(fight(person("A"), person("B", side="foes", x=1)), "grapple", id="c1", target="c2")
    enc = act(enc, "status", id="c2", status="blinded")
    enc = act(enc, "attack", id="c1", target="c2")
    assert last_pending(enc, "offense")["effect"]["stealth_attack"] is False
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is True


def test_moving_without_sight_knockdown_roll_or_cautious():
    """Lack of Sight: "you must roll d12 on DEX to avoid a knockdown if you lack sight at the beginning of your movement
    (ending your movement attempt early). You may add 2 Hindrance to your movement roll to proceed cautiously,
    removing the risk of a knockdown." and "you cannot rush through or out of it"."""
    enc = act(to_phase(start(fight(person("A"))), "movement"), "status", id="c1", status="blinded")
    risky = act(enc, "move", id="c1", x=5)
    spec = last_pending(risky, "blind_knockdown")["spec"]
    assert (spec["die"], spec["stat"]) == ("d12", "DEX")
    fallen = resolve(risky, "blind_knockdown", success=False)
    assert "knocked-down" in fallen.get("c1").conditions and not pending(fallen, "movement")
    careful = act(enc, "move", id="c1", x=5, cautious=True)
    assert not pending(careful, "blind_knockdown")
    assert hind(last_pending(careful, "movement")["spec"]) == {"moving cautiously through an area you can't see": 2}
    with pytest.raises(RuleViolation):
        act(enc, "move", id="c1", x=5, rush=True, unseen_area=True)


def test_sightless_actions_on_unwilling_need_dex_roll():
    """Lack of Sight: "you cannot use any Abilities ... that target a specific character or object at greater than
    engagement range. Anything that affects an unwilling non-grappling character at engagement range requires a d20
    roll on DEX ... If such an action already involves a DEX roll, 3 Hindrance is added instead." """
    enc = act(fight(person("A"), person("B", side="foes", x=1), person("C", side="foes", x=30)), "status", id="c1",
              status="blinded")
    with pytest.raises(RuleViolation):
        act(enc, "act", id="c1", size="major", what="hex", target="c3")
    e1 = act(enc, "act", id="c1", size="major", what="shove", target="c2", unwilling=True)
    assert last_pending(e1, "action")["spec"]["die"] == "d20"
    e2 = act(enc, "act", id="c1", size="major", what="trip", target="c2", unwilling=True, dex_roll=True)
    assert hind(last_pending(e2, "action")["spec"]) == {"without sight (the action already rolls DEX)": 3}


def test_attacked_by_unseen_is_stealth_attack_and_no_warning_benefit_when_sightless():
    """Lack of Sight: "Whenever you are attacked by a character you can't see, the attack is a stealth attack ... If you
    are completely without sight, you gain no benefit from being warned of a stealth attack." """
    enc = fight(person("A", side="foes"), person("B"), person("Ally", x=2))
    enc = act(enc, "status", id="c2", status="blinded")
    enc = act(enc, "attack", id="c1", target="c2")
    p = last_pending(enc, "offense")
    assert p["effect"]["stealth_attack"] is True and p["effect"]["defense"]["hindrance"][0]["count"] == 3
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c1", target="c2", warned_by="c3")


# == Combat Stealth / Sight & Visible Range ===========================================================

def test_combat_stealth_is_sight_and_sound():
    """Combat Stealth: "Evading notice by the enemy has two elements: sight and sound." — the projection gives both,
    per observer."""
    enc = fight(person("Sneak", stealth="medium", armor_noise="medium"), person("Guard", side="foes", x=8))
    enc = to_phase(start(enc), "movement", "c1")
    enc = resolve(act(enc, "move", id="c1", x=1), "movement")
    v = RS.view(enc)["visibility"]["c2"]["c1"]
    assert (v["sees"], v["hears"]) == (True, True)
    assert v["hear_why"] == "medium noise: short"


def test_visible_range_from_light_clutter_and_stealth_chart():
    """Sight & Visible Range: "Your visible range at which you can be seen is determined by the amount of light and
    clutter in the zone, as well as your own stealth level." (chart assumed: medium light, medium clutter: Low →
    medium, Medium → short, High → engaged)"""
    assert T["visible_range"]["assumed"] is True
    for level, want_seen_at_20m in (("low", True), ("medium", False)):
        enc = fight(person("Watcher", side="foes"), person("Sneak", x=20, stealth=level))
        assert RS.view(enc)["visibility"]["c1"]["c2"]["sees"] is want_seen_at_20m
    assert rules.chart_range(T, "medium", "medium", "high") == "engaged"
    assert rules.chart_range(T, "none", "low", "low") == "none"


def test_visibility_projection_gives_reasons_per_observer():
    """Issue: "from light, clutter, stealth level, vision type, light carried, size and distance band the engine
    computes for every observer which combatants it can see and hear, with the reason." """
    enc = fight(person("A"), person("B", side="foes", x=20, stealth="medium"))
    v = RS.view(enc)["visibility"]
    assert set(v) == {"c1", "c2"} and v["c1"]["c2"]["band"] == "medium"
    assert any("chart: medium light, medium clutter, medium stealth → short" in r for r in v["c1"]["c2"]["why"])
    assert RS.view(enc)["unseen"] == {"c1": ["c2"], "c2": []}


# == Low Stealth ======================================================================================

def test_low_stealth_free_and_rushing_or_light_revert():
    """Low Stealth: "You may revert to Low Stealth as a free action in any circumstance. Characters rushing or flying
    are in Low Stealth. You also revert to Low Stealth if you emit notable light"."""
    enc = to_phase(start(fight(person("A", stealth="medium"), person("B", stealth="medium"),
                               person("C", stealth="medium"))), "movement")
    assert act(enc, "stealth", id="c1", level="low").get("c1").data["stealth"] == "low"
    assert act(enc, "move", id="c1", x=5, rush=True).get("c1").data["stealth"] == "low"
    with pytest.raises(RuleViolation):
        act(enc, "move", id="c2", x=5)  # the movement phase goes in turn order
    assert act(enc, "light", id="c3", light="moderate").get("c3").data["stealth"] == "low"
    shot = act(enc, "attack", id="c2", target="c1", kind="ranged", emits_light=True)
    assert shot.get("c2").data["stealth"] == "low"


# == Medium Stealth ===================================================================================

def test_medium_stealth_free_no_roll_and_lock_after_own_revert():
    """Medium Stealth: "you may leave Low Stealth and enter Medium Stealth as a free action. No roll is required." and
    "If you revert to Low Stealth as a result of your own movement or action, you cannot reenter Medium Stealth in the
    same round." """
    enc = to_phase(start(fight(person("A"))), "movement")
    enc = act(enc, "stealth", id="c1", level="medium")
    assert enc.get("c1").data["stealth"] == "medium" and not pending(enc)
    enc = act(enc, "move", id="c1", x=5, rush=True)
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="medium")
    enc = to_phase(enc, "movement", rnd=2)  # next round
    act(enc, "stealth", id="c1", level="medium")


def test_mount_and_rider_share_stealth_level():
    """Medium Stealth: "Mounted characters and mounts always share a stealth level; if the rider enters Medium Stealth,
    the mount does as well. If either one reverts to Low Stealth or is prevented from reentering Medium Stealth, the
    same applies to the other." """
    enc = rider_and_horse()
    enc = act(enc, "stealth", id="c1", level="medium")
    assert enc.get("c2").data["stealth"] == "medium"
    enc = to_phase(start(enc), "movement", "c2")
    enc = act(enc, "move", id="c2", x=5, rush=True)
    assert enc.get("c1").data["stealth"] == "low"
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="medium")


# == High Stealth =====================================================================================

def test_high_stealth_needs_medium_and_a_major_action_roll():
    """High Stealth: "In order to enter High Stealth, you must already be in Medium Stealth, and you must make a
    stealth roll as a major action. This is a d20 roll on DEX, with a -TN equal to 50% of your WGT." """
    enc = to_phase(start(fight(person("A", stats={"WGT": 9}))), "actions")
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="high")
    enc = act(act(enc, "stealth", id="c1", level="medium"), "stealth", id="c1", level="high")
    p = last_pending(enc, "enter_high")["spec"]
    assert (p["die"], p["stat"], p["tn"]["parts"]) == ("d20", "DEX", [{"reason": "50% of WGT", "value": -4}])
    assert enc.get("c1").data["used"]["major"] == 1
    assert resolve(enc, "enter_high", success=False).get("c1").data["stealth"] == "medium"


def test_high_stealth_movement_hindrance_or_revert_and_lock():
    """High Stealth: "To remain in High Stealth, you must add 3 Hindrance to movement rolls. You may attempt a movement
    roll without adding this Hindrance, but the movement immediately reverts you to Medium Stealth. Rushing also
    reverts you to Low Stealth ... You cannot enter High Stealth in the same round that you lost it due to movement." """
    enc = to_phase(start(fight(person("A", stealth="high"))), "movement")
    keep = act(enc, "move", id="c1", x=5)
    assert hind(last_pending(keep, "movement")["spec"]) == {"staying in High Stealth": 3}
    assert keep.get("c1").data["stealth"] == "high"
    drop = act(enc, "move", id="c1", x=5, drop_high_stealth=True)
    assert drop.get("c1").data["stealth"] == "medium" and hind(last_pending(drop, "movement")["spec"]) == {}
    drop = to_phase(drop, "actions")
    with pytest.raises(RuleViolation):
        act(drop, "stealth", id="c1", level="high")
    assert act(enc, "move", id="c1", x=5, rush=True).get("c1").data["stealth"] == "low"


def test_high_stealth_maintained_as_major_action_each_turn():
    """High Stealth: "You must also maintain High Stealth as a major action on every turn; this does not require further
    stealth rolls. If you do a different major action, you revert to Medium Stealth." """
    enc = to_phase(start(fight(person("A", stealth="high"), person("B"))), "actions", "c1")
    kept = act(enc, "maintain_stealth", id="c1")
    kept, _ = apply(kept, {"type": "advance"})
    assert kept.get("c1").data["stealth"] == "high"
    lost = act(enc, "act", id="c1", size="major", what="attack")
    lost, _ = apply(lost, {"type": "advance"})
    assert lost.get("c1").data["stealth"] == "medium"


def test_attacked_in_high_stealth_d12_roll():
    """High Stealth: "If you are attacked during High Stealth, you must make a d12 stealth roll immediately after the
    attack, reverting to Medium Stealth if failed. This applies for any attack that succeeds on its offense roll ...
    except for AoEs that miss you due to hit chance rolls." """
    enc = fight(person("Foe", side="foes"), person("Sneak", x=1, stealth="high"))
    enc = resolve(act(enc, "attack", id="c1", target="c2"), "offense", success=True)
    p = last_pending(enc, "attacked")["spec"]
    assert (p["die"], p["stat"]) == ("d12", "DEX")
    assert resolve(enc, "attacked", success=False).get("c2").data["stealth"] == "medium"
    missed = resolve(act(fight(person("Foe", side="foes"), person("Sneak", x=1, stealth="high")), "attack", id="c1",
                         target="c2"), "offense", success=True, aoe_missed=True)
    assert not pending(missed, "attacked")


def test_grapple_or_touch_reverts_high_stealth():
    """High Stealth: "If you enter any grapple or are touched by an ally who is not in High Stealth, you revert to
    Medium Stealth, or to Low Stealth if the other character is Low." """
    enc = fight(person("Sneak", stealth="high"), person("Loud"), person("Quiet", stealth="medium"))
    assert act(enc, "touch", id="c2", ally="c1").get("c1").data["stealth"] == "low"
    assert act(enc, "touch", id="c3", ally="c1").get("c1").data["stealth"] == "medium"
    assert act(enc, "grapple", id="c2", target="c1").get("c1").data["stealth"] == "low"


def test_start_battle_in_high_stealth_without_rolling():
    """High Stealth: "the GM may allow any characters who wish to start a battle in High Stealth to do so without
    rolling"."""
    enc = act(fight(person("A")), "stealth", id="c1", level="high", start=True)
    assert enc.get("c1").data["stealth"] == "high" and not pending(enc)


def test_high_stealth_no_group_defense_defender_no_outnumbering_not_mounted():
    """High Stealth: "When in High Stealth, you cannot participate in group defense as a defender, and you do not count
    for outnumbering dice." and "Mounted characters and mounts cannot use High Stealth." """
    v = cv(fight(person("A", stealth="high")), "c1")
    assert v["group_defense"]["defender"] is False and v["group_defense"]["defended"] is True
    assert v["outnumbering"]["counts"] is False
    enc = act(rider_and_horse(), "stealth", id="c1", level="medium")
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="high", start=True)


# == Detection Rolls ==================================================================================

def test_detection_roll_d20_int_blind_per_observer():
    """Detection Rolls: "Such situations are resolved by a detection roll by everyone who may or may not see the
    stealthy character. By default, this detection roll is a d20 on INT, and is a blind roll; the die may be altered
    by the GM." """
    enc = fight(person("Sneak", stealth="medium"), person("G1", side="foes"), person("G2", side="foes"))
    enc = act(enc, "detect", id="c1")
    ps = pending(enc, "detection")
    assert [p["combatant"] for p in ps] == ["c2", "c3"]
    assert all((p["spec"]["die"], p["spec"]["stat"], p["spec"]["blind"]) == ("d20", "INT", True) for p in ps)
    assert pending(act(enc, "detect", id="c1", die="d12"), "detection")[-1]["spec"]["die"] == "d12"
    enc = resolve(enc, "detection", success=False)
    assert "c1" in enc.get("c3").data["cannot_see"]


def test_close_call_after_a_stealthy_move_prompts_a_detection_roll():
    """Detection Rolls: "The rules for visible range may not provide enough clarity on occasions when ranges are too
    close to call." — a stealthy character ending its move one band beyond an opponent's sight gets a prompt."""
    enc = fight(person("Sneak", stealth="medium", x=0), person("Guard", side="foes", x=40))
    enc = to_phase(start(enc), "movement", "c1")
    enc = resolve(act(enc, "move", id="c1", x=20), "movement")  # medium range; visible at short
    p = enc.state["prompts"][-1]
    assert p["kind"] == "detection" and p["observers"] == ["c2"]


# == High Stealth & Groups ============================================================================

def test_high_stealth_groups_can_still_be_defended():
    """High Stealth & Groups: "You do not count in regards to outnumbering dice while you are in High Stealth. You
    cannot participate in group defense as a defender, but can still be defended." """
    gd = cv(fight(person("A", stealth="high")), "c1")["group_defense"]
    assert (gd["defender"], gd["defended"]) == (False, True)


# == Large Creatures & Vehicles =======================================================================

@pytest.mark.parametrize("wgt, high, medium", [(24, True, True), (30, False, True), (200, False, True),
                                              (400, False, False)])
def test_large_creatures_stealth_limits(wgt, high, medium):
    """Large Creatures & Vehicles: "Creatures of at least 25 AWGT cannot use High Stealth. Creatures of at least 80
    AWGT cannot use Medium Stealth either." (WGT 24 → AWGT 22, 30 → 25, 200 → 72, 400 → 122)"""
    enc = fight(person("Big", stats={"WGT": wgt}))
    can = cv(enc, "c1")["stealth"]["can_enter"]
    assert (can["high"] is None, can["medium"] is None) == (high, medium)
    if not medium:
        with pytest.raises(RuleViolation) as e:
            act(enc, "stealth", id="c1", level="medium")
        assert e.value.rule == "Large Creatures & Vehicles"


def test_very_large_creatures_seen_further_in_low_stealth():
    """Large Creatures & Vehicles: "Creatures of at least 125 AWGT additionally increase their visible range in Low
    Stealth by 1 range, and another 1 range for every 25 AWGT beyond 125." (AWGT 172: +2 ranges)"""
    enc = fight(person("Watcher"), preset("Large creature", x=200))
    why = RS.view(enc)["visibility"]["c1"]["c2"]["why"]
    assert any("AWGT 172: visible 2 range(s) further" in r for r in why)
    assert RS.view(enc)["visibility"]["c1"]["c2"]["sees"] is True  # medium → travel


def test_vehicles_visible_and_audible_at_long():
    """Large Creatures & Vehicles: "Regardless of clutter, vehicles are always visible and audible at long range, at
    any light level above No Light. They are visible at travel range unless they are using vehicle stealth ...
    Aircraft in flight are always visible and audible at travel range." """
    enc = fight(person("Watcher"), person("Cart", x=200, vehicle="vehicle", vehicle_stealth=True),
                zone={"clutter": "high", "light": "low"})
    v = RS.view(enc)["visibility"]["c1"]["c2"]
    assert v["sees"] is True and v["hears"] is True
    dark = fight(person("Watcher"), person("Cart", x=200, vehicle="vehicle"), zone={"light": "none"})
    assert RS.view(dark)["visibility"]["c1"]["c2"]["sees"] is False


# == Visible Range & Turn Order =======================================================================

def test_detection_tn_may_apply_to_turn_order():
    """Visible Range & Turn Order: "If stealth is a major part of the beginning of a battle, the GM may allow characters
    to apply any +TN they can normally apply to a detection roll to their turn order rolls." """
    enc = act(fight(person("A")), "turn_order", id="c1", value=9, detection_tn=3)
    assert enc.get("c1").data["turn_value"] == 12


# == Ambush Movement ==================================================================================

def ambush_setup():
    enc = fight(person("Sneak", stealth="high", x=0), person("Guard", side="foes", x=30))
    enc = to_phase(start(enc), "movement", "c1")
    return enc


def test_ambush_needs_high_stealth_at_round_start_and_a_short_move():
    """Ambush Movement: "To use ambush movement, you must begin a round already in High Stealth. Next, you must succeed
    on a movement roll that moves you at least short range. Finally, make a d20 stealth roll, with 2 Hindrance if you
    rushed during your movement"."""
    enc = ambush_setup()
    with pytest.raises(RuleViolation):
        act(enc, "ambush", id="c1")
    moved = resolve(act(enc, "move", id="c1", x=25), "movement")
    moved = act(moved, "ambush", id="c1")
    p = last_pending(moved, "ambush")["spec"]
    assert (p["die"], p["stat"], p["hindrance"]["total"]) == ("d20", "DEX", 0)
    rushed = resolve(act(enc, "move", id="c1", x=25, rush=True), "movement")
    assert last_pending(act(rushed, "ambush", id="c1"), "ambush")["spec"]["hindrance"]["total"] == 2
    late = fight(person("Sneak", x=0, stealth="medium"), person("Guard", side="foes", x=30))
    late = to_phase(start(late), "movement", "c1")
    with pytest.raises(RuleViolation):
        act(resolve(act(late, "move", id="c1", x=25), "movement"), "ambush", id="c1")


def test_ambush_keeps_sneak_unseen_until_after_their_turn():
    """Ambush Movement: "if successful, all other characters who could not see you at the beginning of the round do not
    begin to see you until after your turn this round, regardless of your movement." """
    enc = ambush_setup()
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is False
    enc = resolve(act(enc, "move", id="c1", x=29), "movement")
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is True  # engaged: seen, without the ambush
    enc = resolve(act(enc, "ambush", id="c1"), "ambush")
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is False
    enc = act(to_phase(enc, "actions", "c1"), "attack", id="c1", target="c2")
    assert last_pending(enc, "offense")["effect"]["stealth_attack"] is True
    enc, _ = apply(enc, {"type": "advance"})
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is True


def test_ambush_not_while_flying_and_no_group_defense_that_round():
    """Ambush Movement: "Ambush movement cannot be utilized while flying, even if you began on the ground in High
    Stealth. Characters cannot participate in group defense (as either defenders or defended) in the same round that
    they used ambush movement." """
    flyer = fight(person("Glider", stealth="high", stats={"FSPD": 12}), person("Guard", side="foes", x=30))
    flyer = act(to_phase(start(flyer), "movement", "c1"), "fly", id="c1", on=True)
    flyer = resolve(act(flyer, "move", id="c1", x=25), "movement")
    with pytest.raises(RuleViolation):
        act(flyer, "ambush", id="c1")
    enc = ambush_setup()
    enc = resolve(act(resolve(act(enc, "move", id="c1", x=25), "movement"), "ambush", id="c1"), "ambush")
    gd = cv(enc, "c1")["group_defense"]
    assert gd["defender"] is False and gd["defended"] is False


def test_ambush_no_effect_on_darkeye_or_thermal():
    """Ambush Movement: "It has no effect against darkeye or clairvoyance, nor against senses that remove the effects of
    High Stealth, such as thermal vision." """
    enc = fight(person("Sneak", stealth="high"), person("Seer", side="foes", x=30, vision="darkeye"))
    enc = to_phase(start(enc), "movement", "c1")
    enc = resolve(act(resolve(act(enc, "move", id="c1", x=29), "movement"), "ambush", id="c1"), "ambush")
    assert RS.view(enc)["visibility"]["c2"]["c1"]["sees"] is True


# == Stealth Attacks ==================================================================================

def test_stealth_attack_three_hindrance_one_if_warned():
    """Stealth Attacks: "3 Hindrance is added to the defense roll against a stealth attack." and "If the defender is
    successfully warned, the defense Hindrance is 1 instead of 3." """
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=-1))
    enc = act(enc, "attack", id="c1", target="c2", kind="ranged")
    assert last_pending(enc, "offense")["effect"]["defense"]["hindrance"][0]["count"] == 3
    enc = act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3", size="free")
    assert last_pending(enc, "offense")["effect"]["defense"]["hindrance"][0]["count"] == 1


def test_animals_and_deafened_cannot_warn():
    """Stealth Attacks: "Animals cannot warn others, nor can they be warned ... Warnings ... are impossible if either
    character is deafened." """
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20),
                person("Dog", x=20.5, kind="animal", vision="thermal"))
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3")


def test_stealth_attack_warning_is_a_gm_prompt_saying_the_criteria_are_not_in_the_excerpt():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies. The following criteria must be met:" — the criteria themselves are not in the excerpt (FACTS.md), so
    the warning is the GM's call, with the sentences the text does give applied ("Animals cannot warn others ...
    Techs and sentients may warn each other ... impossible if either character is deafened")."""
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=21),
                person("Dog", x=19, kind="animal"), person("Deaf", x=22), person("Far", x=200))
    enc = act(enc, "status", id="c5", status="deafened")
    hit = act(enc, "attack", id="c1", target="c2", kind="ranged")
    p = [x for x in hit.state["prompts"] if x["kind"] == "warning"][-1]
    assert p["combatant"] == "c2"
    assert "criteria for a warning are not in the excerpt (FACTS.md)" in p["text"]
    assert "Allies who may warn: Lookout (cannot see Sneak), Far (cannot see Sneak)." in p["text"]
    assert "Dog (animals cannot warn others, nor can they be warned)" in p["text"]
    assert "Deaf (warnings are impossible if either character is deafened)" in p["text"]
    warned = act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3")
    assert last_pending(warned, "offense")["effect"]["defense"]["hindrance"][0]["count"] == 1
    assert "Warned by Lookout (who cannot see Sneak): 1 Hindrance" in warned.state["prompts"][-1]["text"]
    seen = act(fight(person("A"), person("B", side="foes", x=1)), "attack", id="c1", target="c2")
    assert not seen.state.get("prompts"), "not a stealth attack: nothing to warn of"


def test_unexpected_attack_from_supposed_ally_is_stealth_attack():
    """Stealth Attacks: "Stealth attack rules can also be applied in the case of unexpected attacks from characters
    thought to be allies." """
    enc = act(fight(person("Traitor"), person("Friend", x=1)), "attack", id="c1", target="c2", unexpected=True)
    assert last_pending(enc, "offense")["effect"]["stealth_attack"] is True


# == Shadow Vision, Echolocation, Cloaking, & Other Vision ============================================

def test_shadow_vision_sees_low_light_as_medium_not_darkness():
    """Shadow Vision: "characters with shadow vision see in Low Light environments as if it were Medium Light instead ...
    it has no effect in total darkness." """
    enc = fight(person("Sneak", stealth="high", x=8), person("Human", side="foes"),
                person("Dwarf", side="foes", vision="shadow"), zone={"light": "low", "clutter": "low"})
    v = RS.view(enc)["visibility"]
    assert v["c2"]["c1"]["sees"] is False and v["c3"]["c1"]["sees"] is True
    dark = fight(person("Sneak", x=1), person("Dwarf", side="foes", vision="shadow"), zone={"light": "none"})
    assert RS.view(dark)["visibility"]["c2"]["c1"]["sees"] is False


def test_echolocation_sees_darkness_as_low_light_to_one_zone():
    """Echolocation: "can "see" in total darkness as if it was Low Light, to a maximum distance of 1 zone away." """
    enc = fight(person("Target", x=5), preset("Large creature"), person("Far", x=400), zone={"light": "none"})
    v = RS.view(enc)["visibility"]["c2"]
    assert v["c1"]["sees"] is True and v["c3"]["sees"] is False
    assert cv(enc, "c2")["sightless"] == "" and cv(enc, "c1")["sightless"] == "total darkness"


def test_echolocation_audible_to_same_species_at_its_range():
    """Echolocation: "Active echolocation is audible at the same distance, but only to creatures of the same species;
    if desired, a character can reduce the maximum range of their echolocation "sight" to likewise reduce its audible
    range to others." """
    bat = {"vision": "echolocation", "species": "cave bat", "echolocation_band": "medium"}
    enc = fight(person("Bat A", **bat), person("Bat B", side="foes", x=40, species="Cave  Bat"),
                person("Man", side="foes", x=40))
    v = RS.view(enc)["visibility"]
    assert v["c2"]["c1"]["hears"] is True and v["c3"]["c1"]["hears"] is False
    near = act(enc, "zone", light="medium")
    near, _ = apply(near, {"type": "edit_combatant", "id": "c1", "changes": {"echolocation_band": "short"}})
    assert RS.view(near)["visibility"]["c2"]["c1"]["hears"] is False


# == Light Sources ====================================================================================

def test_light_sources_cast_light_and_reveal_the_carrier():
    """Light Sources: "All light sources cause a character carrying them to revert to Low Stealth" and "moderate light
    sources cast Medium Light out to short range (and Low Light out to medium range in totally dark environments)". """
    enc = fight(person("Torch", light="moderate"), person("Near", x=8), person("Mid", x=40), person("Far", x=100),
                person("Watcher", side="foes", x=9), zone={"light": "none"})
    assert rules.light_at(enc, Position(8, 0, 0), T)[0] == "medium"
    assert rules.light_at(enc, Position(40, 0, 0), T)[0] == "low"
    assert rules.light_at(enc, Position(100, 0, 0), T)[0] == "none"
    v = RS.view(enc)["visibility"]["c5"]
    assert v["c2"]["sees"] is True and v["c4"]["sees"] is False
    with pytest.raises(RuleViolation):
        act(enc, "stealth", id="c1", level="medium")


def test_dim_light_keeps_stealth_in_high_light():
    """Light Sources: "Dim light sources do not cause a character to revert to Low Stealth if they are in a High Light
    environment." """
    enc = fight(person("Candle", light="dim"), zone={"light": "high"})
    assert act(enc, "stealth", id="c1", level="medium").get("c1").data["stealth"] == "medium"


# == Sound ============================================================================================

def test_movement_noise_by_armour_high_stealth_and_animals():
    """Sound: "unarmored characters or characters in Low noise armor are heard at engaged range, Medium noise armor at
    short range, and High noise armor at medium range. Characters in High Stealth reduce this by one range. Animals
    and Adlet will normally hear characters at the next longer range. Characters who are not notably moving do not
    make movement noise, and deafened characters cannot hear sounds." """
    enc = fight(person("Knight", armor_noise="high", x=0), person("Man", side="foes", x=30),
                person("Dog", side="foes", kind="animal", x=60), zone={"light": "none"})
    assert RS.view(enc)["visibility"]["c2"]["c1"]["hears"] is False  # not moving
    enc = to_phase(start(enc), "movement", "c1")
    enc = resolve(act(enc, "move", id="c1", x=1), "movement")
    v = RS.view(enc)["visibility"]
    assert v["c2"]["c1"]["hears"] is True and v["c3"]["c1"]["hears"] is True  # medium; dog at long
    deaf = act(enc, "status", id="c2", status="deafened")
    assert RS.view(deaf)["visibility"]["c2"]["c1"]["hears"] is False
    assert rules.audible_range(enc, enc.get("c2"), enc.get("c1"), T)[0] == "medium"


def test_noise_default_medium_and_enclosed_travel_deafens():
    """Sound: "If any rule describes an action making noise, but no audible range is given, consider the audible range
    to be medium" and "Any noise with a normal (non-animal) audible range of travel may deafen characters for 1 round,
    if both the source and characters are within an indoor, underground, or otherwise enclosed zone"."""
    enc = fight(person("Door"), person("Near", x=40), person("Far", x=100))
    _, events = apply(enc, {"type": "rb.noise", "id": "c1"})
    assert events[0]["detail"]["heard"] == ["c2"]
    boom = act(act(enc, "zone", enclosed=True), "noise", id="c1", audible="travel", deafen=True)
    assert "deafened" in boom.get("c2").conditions
    with pytest.raises(RuleViolation):
        act(enc, "noise", id="c1", audible="travel", deafen=True)


# == Post-Combat Fatigue & Trauma =====================================================================

def test_end_battle_proposes_fatigue_and_trauma_from_assumed_charts():
    """Post-Combat Fatigue & Trauma: "Once the battle is over, the GM will consider the activity level of each character,
    and use the chart below to assign fatigue based on the length of the battle." and "the GM will assign trauma based
    on the length of the battle and the involvement of the character"."""
    assert T["fatigue"]["assumed"] and T["trauma"]["assumed"]
    enc = start(fight(person("A"), person("B")))
    enc = act(enc, "end_battle", activity={"c1": "heavy", "c2": "idle"}, involvement={"c1": "front line"}, rounds=6)
    props = {p["id"]: p for p in enc.state["battle_end"]["proposals"]}
    assert (props["c1"]["fatigue"], props["c1"]["trauma"]) == (2, 1)
    assert (props["c2"]["fatigue"], props["c2"]["trauma"]) == (0, 1)
    assert enc.phase == "ended"
    with pytest.raises(RuleViolation):
        apply(enc, {"type": "advance"})


def test_end_battle_24_round_rule_and_bad_input():
    """Post-Combat Fatigue & Trauma: "The only exceptions are truly extended battles lasting more than 2 minutes
    (24 rounds), in which post-combat fatigue might be assigned between waves of action." """
    enc = start(fight(person("A")))
    with pytest.raises(RuleViolation):
        act(enc, "end_battle", rounds=10, wave=True)
    wave = act(enc, "end_battle", rounds=30, wave=True)
    assert wave.phase != "ended" and "between waves" in wave.state["battle_end"]["note"]
    with pytest.raises(InvalidAction) as e:
        act(enc, "end_battle", activity={"c1": "frantic"})
    assert e.value.field == "activity.c1"


# == Tables are data ==================================================================================

def test_tables_carry_source_and_assumed_flag_and_edits_are_checked():
    """FACTS: "The charts ship as *assumed* editable tables." — every table has title, source, assumed; set_table
    checks an edit field by field and the rules use it."""
    for tid, tab in T.items():
        assert tab["title"] and tab["source"] and isinstance(tab["assumed"], bool), tid
    assert {k for k, v in T.items() if v["assumed"]} >= {"bands", "visible_range", "core_roll", "fatigue", "trauma"}
    enc = fight(person("A"), person("B", x=20))
    bad = {**T["bands"], "entries": [dict(e) for e in T["bands"]["entries"]]}
    bad["entries"][1]["max"] = "far"
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "set_table", "table": "bands", "value": bad})
    assert e.value.field == "value.entries.1.max"
    consts = {**T["constants"], "entries": [{**e, "value": 0} if e["key"] == "rounds_per_minute" else e
                                            for e in T["constants"]["entries"]]}
    with pytest.raises(InvalidAction):
        apply(enc, {"type": "set_table", "table": "constants", "value": consts})
    wide = {**T["bands"], "entries": [dict(e) for e in T["bands"]["entries"]]}
    wide["entries"][1]["max"] = 25
    enc, _ = apply(enc, {"type": "set_table", "table": "bands", "value": wide})
    assert RS.view(enc)["visibility"]["c1"]["c2"]["band"] == "short"


# == The page's contract ==============================================================================

def test_presets_cover_the_issue_and_join_cleanly():
    """Issue: "ready-made combatants (a human scout, a rider and a horse, a winged flyer, an amphibious swimmer, a large
    creature)"."""
    names = [p["name"] for p in RS.presets()]
    assert names == ["Human scout", "Rider", "Horse", "Winged flyer", "Amphibious swimmer", "Large creature"]
    enc = fight(*[preset(n) for n in names])
    enc = act(enc, "mount", id="c2", mount="c3")
    v = {c["name"]: c for c in RS.view(enc)["combatants"]}
    assert v["Winged flyer"]["flying"] and v["Large creature"]["awgt"] == 172 and v["Horse"]["awgt"] == 35
    assert v["Human scout"]["stealth"]["level"] == "medium" and v["Rider"]["mount"] == "c3"


def test_view_gives_the_page_everything_it_shows():
    """Issue: per combatant "its stealth level, flying and altitude band, mount, breath and statuses"; "every roll
    specification shown before rolling with its Hindrance reasons"; zone settings; who each one cannot see."""
    import json
    enc = to_phase(start(rider_and_horse()), "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    v = json.loads(json.dumps(RS.view(enc)))
    assert {"round", "phase", "phase_label", "acting", "current", "turn_order", "zone", "combatants", "pending",
            "prompts", "visibility", "unseen", "battle_end", "assumed_tables", "choices", "actions"} <= set(v)
    assert set(v["zone"]) >= {"light", "clutter", "enclosed", "underwater", "flight_ceiling"}
    c = v["combatants"][0]
    assert {"stealth", "flying", "altitude", "mount", "rider", "breath", "statuses"} <= set(c)
    assert v["pending"][0]["spec"]["hindrance"]["parts"][0] == {"reason": "mounted", "count": 1}
    assert set(v["visibility"]["c1"]) == {"c2", "c3"}


def test_map_rule_bands_unseen_and_altitude():
    """FACTS: "Range between two characters is the greater of the horizontal and the vertical band." — the map rule
    labels every other token with its band, says who the selected one cannot see, and gives altitude bands."""
    from fray.maprules import map_view
    enc = fight(person("A"), person("B", side="foes", x=20, stealth="medium"),
                preset("Winged flyer", x=5, position={"x": 5, "y": 0, "alt": 30}))
    v = map_view(enc, "c1")
    by = {t.id: t for t in v.targets}
    assert by["c2"].band.label == "medium" and by["c3"].band.label == "medium"
    assert RS.map_rule.unseen(enc, enc.get("c1")) == {"c2": "at medium range; visible up to short"}
    assert RS.map_rule.altitude(enc, enc.get("c3")) == "medium" and RS.map_rule.altitude(enc, enc.get("c1")) is None


# == Obscuring areas (Lack of Sight, Sight & Visible Range): zone data the projection reads ==========

def sees(enc, o, target):
    return RS.view(enc)["visibility"][o][target]["sees"]


def test_smoke_area_blocks_sight_into_and_through_it_but_not_at_engaged_range():
    """Lack of Sight: "they might be unable to see specific characters or areas due to such things as smoke clouds";
    Stealth Attacks: "all characters are visible at engaged range unless they can make use of total darkness,
    blinding, or advanced cloaking technology"."""
    enc = fight(person("A"), person("B", side="foes", x=30), person("C", side="foes", x=1),
                person("D", side="foes", x=16))
    assert sees(enc, "c1", "c2") and sees(enc, "c1", "c4")
    smoky = act(enc, "area", kind="smoke", x=15, y=0, radius="engaged", name="Smoke grenade")
    assert not sees(smoky, "c1", "c2"), "through the cloud"
    assert not sees(smoky, "c1", "c4") and not sees(smoky, "c4", "c1"), "into it, and out of it"
    assert sees(smoky, "c1", "c3")
    why = RS.view(smoky)["visibility"]["c1"]["c2"]["why"]
    assert why == ["Smoke grenade (A1) blocks the line of sight (smoke: Lack of Sight)"]
    assert RS.view(smoky)["unseen"]["c1"] == ["c2", "c4"]
    inside = act(act(enc, "area", kind="smoke", x=0, y=0, radius="short"), "cannot_see", id="c1", target="c3",
                 on=False)
    assert sees(inside, "c1", "c3"), "engaged inside the same cloud: still seen"
    assert not sees(inside, "c1", "c2")
    assert rules.can_see(smoky, smoky.get("c1"), smoky.get("c2"), T)[0] is False, "one pair, the same answer"
    cleared = act(smoky, "clear_area", area="A1")
    assert sees(cleared, "c1", "c2") and cleared.state["areas"] == []


def test_echolocation_sees_through_fog_and_smoke_not_through_obstacles():
    """Echolocation: "Echolocation is also unaffected by fog and smoke."; Sight & Visible Range: "Visible range is
    obviously overridden by large obstacles that block sight." """
    bat = person("Bat", vision="echolocation", echolocation_band="long")
    enc = fight(bat, person("B", side="foes", x=30), person("C", side="foes", x=1))
    assert sees(act(enc, "area", kind="smoke", x=15, y=0, radius="engaged"), "c1", "c2")
    wall = act(enc, "area", kind="obstacle", x=15, y=0, radius="engaged")
    assert not sees(wall, "c1", "c2")
    hut = act(fight(person("A"), person("C", side="foes", x=1.5)), "area", kind="obstacle", x=0.8, y=0,
              radius="engaged")
    assert not sees(hut, "c1", "c2"), "an obstacle blocks at engaged range too"


def test_dark_and_shadowed_areas_set_the_light_there():
    """Lack of Sight: "completely without sight (such as via the blinded status, total darkness ...)"; Sight &
    Visible Range: "Your visible range ... is determined by the amount of light and clutter in the zone"; Light
    Sources: a light source carried still casts its light."""
    enc = fight(person("A", x=0), person("B", side="foes", x=30, stealth="medium"), zone={"light": "high"})
    dark = act(enc, "area", kind="darkness", x=30, y=0, radius="short")
    assert cv(dark, "c2")["sightless"] == "total darkness" and cv(dark, "c1")["sightless"] == ""
    assert not sees(dark, "c1", "c2") and "none light inside" in " ".join(
        RS.view(dark)["visibility"]["c1"]["c2"]["why"])
    lit = act(dark, "light", id="c2", light="moderate")
    assert cv(lit, "c2")["sightless"] == "" and sees(lit, "c1", "c2")
    shade = act(enc, "area", kind="shadow", x=30, y=0, radius="short")
    light, why = rules.light_at(shade, shade.get("c2").position, T)
    assert light == "low" and "inside" in why
    assert rules.light_at(shade, shade.get("c1").position, T)[0] == "high"


def test_dense_smoke_adds_clutter_and_halves_the_rush_out_of_it_without_knockdown_risk():
    """Lack of Sight: "Some rules for highly obscured vision (such as dense smoke clouds) may have a similar but
    lesser effect, causing rushing through or out of it to provide only half its usual reactive +TN, with no
    knockdown risk." (high clutter inside is Fray's assumption, table obscuring)"""
    enc = fight(preset("Winged flyer", x=0, side="party"), person("B", side="foes", x=40))
    enc = act(enc, "area", kind="dense_smoke", x=0, y=0, radius="short")
    why = RS.view(enc)["visibility"]["c2"]["c1"]["why"]
    assert any("high clutter inside" in w for w in why)
    enc = to_phase(start(enc), "movement", "c1")
    out = act(enc, "move", id="c1", x=30, rush=True)
    spec = last_pending(out, "movement")["spec"]
    fs = rules.flying_spd(enc.get("c1"))[0]
    assert {p["reason"]: p["value"] for p in spec["tn"]["parts"]} == {
        "rushing: flying SPD as reactive +TN (halved: dense smoke)": fs // 2}
    assert not pending(out, "blind_knockdown")


def test_moving_through_or_out_of_smoke_no_rush_entering_may_rush_and_standing_in_it_risks_a_knockdown():
    """Lack of Sight: "Whenever you attempt movement through an area you can't see, you cannot rush through or out of
    it. You can use a rush to enter it, but not for additional distance afterward. Additionally, you must roll d12
    on DEX to avoid a knockdown if you lack sight at the beginning of your movement"."""
    enc = to_phase(start(fight(person("A"), person("B", side="foes", x=80))), "movement", "c1")
    enc = act(enc, "area", kind="smoke", x=20, y=0, radius="engaged")
    with pytest.raises(RuleViolation, match="cannot rush through or out of it"):
        act(enc, "move", id="c1", x=30, rush=True)
    entering = act(enc, "move", id="c1", x=19, rush=True)
    assert "enters Smoke cloud or fog (A1)" in last_pending(entering, "movement")["spec"]["notes"]
    walk = act(enc, "move", id="c1", x=30)
    assert not pending(walk, "blind_knockdown")
    assert "through or out of Smoke cloud or fog (A1): an area you can't see" in \
        last_pending(walk, "movement")["spec"]["notes"]
    inside = act(enc, "move", id="c1", x=20)
    inside = resolve(inside, "movement")
    inside, _ = apply(inside, {"type": "advance"})
    inside = to_phase(inside, "movement", "c1")
    risky = act(inside, "move", id="c1", x=30)
    assert last_pending(risky, "blind_knockdown")["spec"]["die"] == "d12"
    with pytest.raises(RuleViolation):
        act(inside, "move", id="c1", x=30, rush=True)
    careful = act(inside, "move", id="c1", x=30, cautious=True)
    assert not pending(careful, "blind_knockdown")


@pytest.mark.parametrize("fields, field", [
    ({"kind": "gas", "x": 0, "y": 0, "radius": "short"}, "kind"),
    ({"kind": "smoke", "x": 0, "y": 0, "radius": "travel"}, "radius"),
    ({"kind": "smoke", "x": "far", "y": 0, "radius": "short"}, "x"),
    ({"kind": "smoke", "x": 0, "y": 0, "radius": "short", "name": "n" * 41}, "name"),
])
def test_bad_area_input_names_the_field_and_changes_nothing(fields, field):
    """The page's contract: bad input gets a clear error at the field and changes nothing."""
    enc = fight(person("A"))
    with pytest.raises(InvalidAction) as e:
        act(enc, "area", **fields)
    assert e.value.field == field and "areas" not in enc.state
    with pytest.raises(InvalidAction) as e:
        act(enc, "clear_area", area="A7")
    assert e.value.field == "area"


def test_obscuring_table_is_editable_and_checked():
    """Tables are data: what each kind of area does is table obscuring (the sentences it follows in its source);
    an edit keeps every kind and the fields the rules read."""
    tab = T["obscuring"]
    assert {e["key"] for e in tab["entries"]} == {"smoke", "dense_smoke", "obstacle", "shadow", "darkness"}
    bad = {**tab, "entries": [{**tab["entries"][0], "movement": "teleport"}] + tab["entries"][1:]}
    with pytest.raises(InvalidAction) as e:
        RS.check_table("obscuring", bad)
    assert e.value.field == "value.entries.0.movement"
    thin = {**tab, "entries": [{**e, "blocks_sight": False} if e["key"] == "smoke" else e for e in tab["entries"]]}
    enc = fight(person("A"), person("B", side="foes", x=30))
    enc, _ = apply(enc, {"type": "set_table", "table": "obscuring", "value": thin})
    enc = act(enc, "area", kind="smoke", x=15, y=0, radius="engaged")
    assert sees(enc, "c1", "c2"), "the GM's edit wins"


def test_visibility_memo_is_never_stale():
    """Combat Stealth: who sees whom is derived from the state. The projection is remembered by its inputs
    (``rules.sight_key``); for every state of the scenarios and of a run of actions that change sight (moves,
    stealth, light, areas, statuses) the remembered answer equals a fresh one."""
    import json as _json
    import pathlib

    from fray.scenario import run_scenario

    states = []
    for f in sorted(pathlib.Path(__file__).resolve().parents[2].glob("scenarios/range-band/*.json")):
        h, _ = run_scenario(_json.loads(f.read_text(encoding="utf-8")))
        states += [h.state_at(k) for k in range(len(h.actions) + 1)]
    enc = fight(person("A"), person("B", side="foes", x=30, stealth="medium"), preset("Large creature", x=60))
    for step in ({"type": "rb.area", "kind": "smoke", "x": 15, "y": 0, "radius": "engaged"},
                 {"type": "rb.light", "id": "c1", "light": "bright"}, {"type": "rb.clear_area", "area": "A1"},
                 {"type": "move", "id": "c2", "x": 3, "y": 0}, {"type": "rb.status", "id": "c1", "status": "blinded"},
                 {"type": "rb.zone", "light": "none"}, {"type": "rb.stealth", "id": "c2", "level": "low"},
                 {"type": "edit_combatant", "id": "c2", "changes": {"name": "Bea", "vision": "thermal"}}):
        enc, _ = apply(enc, step)
        states.append(enc)
    for st in states:
        t = RS.all_tables(st)
        first = rules.visibility(st, t)
        assert first == rules._visibility(st, t)
        assert rules.visibility(st, t) is first, "the same inputs: the remembered projection"


# == Fatigue of specific Abilities and of flight =====================================================

def test_ability_fatigue_is_inflicted_immediately_upon_use_not_while_holding_breath():
    """Post-Combat Fatigue & Trauma: "Many Abilities used in combat have fatigue costs, and these always inflict their
    fatigue immediately upon use."; Holding Breath: holding breath "prevents them from performing verbal actions or
    voluntarily taking fatigue points until their next turn"."""
    enc = to_phase(start(fight(person("A"))), "actions")
    used = act(enc, "act", id="c1", size="major", what="Flame Burst", fatigue=2)
    assert cv(used, "c1")["fatigue"] == 2 and cv(enc, "c1")["fatigue"] == 0
    assert any("takes 2 fatigue (Flame Burst" in e.text for e in used.log)
    again = act(used, "act", id="c1", size="minor", what="Quick Ward", fatigue=1)
    assert cv(again, "c1")["fatigue"] == 3
    holding = act(enc, "breath", id="c1", holding=True)
    with pytest.raises(RuleViolation, match="fatigue"):
        act(holding, "act", id="c1", size="major", what="Flame Burst", fatigue=2)
    with pytest.raises(InvalidAction) as e:
        act(enc, "act", id="c1", size="major", what="Flame Burst", fatigue="lots")
    assert e.value.field == "fatigue"


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


def test_detection_observers_must_be_in_the_fight_and_the_die_may_be_altered():
    """Detection Rolls: "resolved by a detection roll by everyone who may or may not see the stealthy character. By
    default, this detection roll is a d20 on INT ... the die may be altered by the GM." Someone out of the fight sees
    nothing and rolls nothing: naming them is refused at the field."""
    enc = fight(person("Sneak", stealth="medium"), person("Guard", side="foes", x=20), person("Out", side="foes", x=5))
    enc = act(enc, "status", id="c3", status="incapacitated")
    with pytest.raises(InvalidAction) as e:
        act(enc, "detect", id="c1", observers=["c3"])
    assert e.value.field == "observers"
    rolled = act(enc, "detect", id="c1", observers=["c2"], die="d12")
    assert [(p["combatant"], p["spec"]["die"]) for p in pending(rolled, "detection")] == [("c2", "d12")]


@pytest.mark.parametrize("kind, fields, field", [
    ("act", {"size": "major", "what": "shove", "unwilling": True}, "unwilling"),
    ("status", {"status": "deafened", "ends": "after_turn"}, "ends"),
    ("end_battle", {"activity": {}, "involvement": {}, "rounds": 0}, "rounds"),
])
def test_options_without_what_they_qualify_are_refused_at_the_field(kind, fields, field):
    """Lack of Sight: "Anything that affects an unwilling non-grappling character" needs that character (the target);
    FACTS: a duration "counts down when the turn order reaches the same place in a later round", so when it ends needs
    its rounds; a battle lasts at least a round (Post-Combat Fatigue & Trauma: "based on the length of the battle")."""
    enc = to_phase(start(fight(person("A"), person("B", side="foes", x=1))), "actions", "c1")
    with pytest.raises(InvalidAction) as e:
        act(enc, kind, id="c1", **fields)
    assert e.value.field == field
