"""Table-driven tests straight from the rule text (shared/rules/000_da34f120076854a0.txt) and the
range-band section of FACTS.md: the round, roll specifications, mounts (Back in Combat, Falling Off Mounts,
Melee Attacks & Extreme Mount Sizes), Post-Combat Fatigue & Trauma, the tables and the page's contract. Flight,
water, breath and teleportation are in test_rb_flight.py; sight, stealth, light and sound in test_rb_sight.py.
Every docstring quotes the sentence it checks; the docs table (py/fray/games/range_band/rules-trace.md) lists these node ids
per heading."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.model import Position
from fray.reducer import apply
from fray.games.range_band import rules
from fray.games.range_band.rolls import roll_default
from fray.tray import DiceTray
from rb_helpers import (RS, act, cv, fight, hind, last_pending, pending, person, preset, resolve, rider_and_horse,
                        start, to_phase)

T = RS.tables


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


def test_one_movement_roll_in_each_movement_phase():
    """FACTS: "a movement phase, then an action phase in which each character takes one turn in turn order", and
    Flight: "If vertical movement up or down is your only movement, it still counts as a movement phase": each
    combatant has one movement phase a round, so one movement roll (a GM pressed Movement roll 9 times and got
    R1-R9). A second is refused while the first is pending and after it is settled; next round it is allowed."""
    enc = to_phase(start(fight(person("A"), person("B"))), "movement", "c1")
    enc = act(enc, "move", id="c1", x=5)
    assert len(pending(enc, "movement")) == 1
    with pytest.raises(RuleViolation, match="one movement roll in each movement phase"):
        act(enc, "move", id="c1", x=6)
    enc = resolve(enc, "movement", success=False)
    with pytest.raises(RuleViolation, match="A has made this round's movement roll"):
        act(enc, "move", id="c1", x=6)
    enc = to_phase(enc, "movement", "c1", rnd=2)
    enc = act(enc, "move", id="c1", x=6)
    assert len(pending(enc, "movement")) == 1


def test_a_dismissed_movement_roll_is_not_the_phases_movement_roll():
    """FACTS: "a movement phase, then an action phase in which each character takes one turn in turn order": one
    movement roll in a movement phase, but a roll the GM dismissed (never resolved) was not made. A GM sent a
    descent through the Movement roll form, dismissed it, and was told the flyer "has made this round's movement
    roll already". Dismissed, the roll leaves the flyer as it was: no roll, no descent spoken for."""
    enc = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 200}))
    enc = to_phase(start(enc), "movement")
    before = dict(enc.get("c1").data)
    rolled = act(enc, "move", id="c1", x=0, alt=150, descent_roll=True)
    enc = act(rolled, "dismiss", ref=last_pending(rolled, "movement")["ref"])
    assert not pending(enc, "movement")
    for key in ("moved", "descended", "move_phase_round"):
        assert enc.get("c1").data.get(key) == before.get(key)
    enc = act(enc, "descend", id="c1", alt=100)  # the whole zone is there still
    assert enc.get("c1").position.alt == 100
    walker = to_phase(start(fight(person("A"))), "movement")
    walker = act(walker, "move", id="c1", x=5)
    walker = act(walker, "dismiss", ref=last_pending(walker, "movement")["ref"])
    walker = act(walker, "move", id="c1", x=6)
    assert len(pending(walker, "movement")) == 1


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
    assert spec["tn"]["parts"] == [{"reason": "(half of WGT 8, rounded down, assumed)", "value": -4}]
    assert spec["can_blunder"] is True and spec["success"] and spec["failure"]
    assert "TN 10 = DEX 14 − 4 (half of WGT 8, rounded down, assumed)" in spec["text"]
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
    enc, _ = apply(enc, {"type": "move", "id": "c3", "x": 1})  # the foe closes to engaged range: melee needs it
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    assert last_pending(enc, "offense")["effect"]["competent"] is False
    enc = act(enc, "attack", id="c1", target="c3", weapon=0, size="free")
    assert last_pending(enc, "offense")["effect"]["competent"] is True


def test_unmounted_attacker_against_big_mount_gets_hindrance():
    """Back in Combat: "If an unmounted, non-flying enemy makes a melee attack against you, and the AWGT of your mount
    is at least double their own AWGT, they must add 1 Hindrance to their offense roll." (horse AWGT 35 ≥ 2 × 8)"""
    enc = to_phase(start(rider_and_horse()), "actions")
    enc, _ = apply(enc, {"type": "move", "id": "c3", "x": 1})  # engaged range: melee needs it
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


def test_no_one_mounts_a_fallen_mount():
    """Falling Off Mounts: "If your mount is incapacitated or knocked down, you are also knocked down; you are no
    longer considered mounted." A GM's play-through: a card's "Ride (choose a mount)" offered the fallen. Mounting
    one is refused, naming the rule; nothing changes."""
    enc = fight(preset("Rider"), preset("Horse"), person("Foe", side="foes", x=30))
    enc = act(enc, "status", id="c2", status="incapacitated")
    with pytest.raises(RuleViolation) as e:
        act(enc, "mount", id="c1", mount="c2")
    assert e.value.rule == "Falling Off Mounts" and "Horse is out of the fight (incapacitated)" in str(e.value)
    assert enc.get("c1").data.get("mount") is None


def test_knocked_down_rider_leaves_mount_and_400_wgt_fall():
    """Falling Off Mounts: "Anything which knocks you down will also remove you from your mount" and "If you are
    falling off an animal of at least 400 WGT, you must proceed through the Falling rules for a short-range fall"."""
    enc = act(rider_and_horse(), "knockdown", id="c1")
    assert enc.get("c1").data["mount"] is None and not enc.state.get("prompts")
    big = fight(preset("Rider"), preset("Large creature", side="party"))
    big = act(act(big, "mount", id="c1", mount="c2"), "knockdown", id="c1")
    assert "short-range fall" in big.state["prompts"][-1]["text"]


def test_a_knockdown_off_a_mount_says_knocked_down_once():
    """Falling Off Mounts: "Anything which knocks you down will also remove you from your mount ... You are still
    grouped-up with your mount in either case." A GM read "Rider is knocked down (knockdown)" then "Rider is no longer
    mounted on Horse (knocked down)": one knockdown, said once; the unmounting says only what it adds."""
    enc, ev = apply(rider_and_horse(), {"type": "rb.knockdown", "id": "c1"})
    texts = [e["text"] for e in ev]
    assert texts == ["Rider is knocked down", "Rider is no longer mounted on Horse; still grouped-up with it"]
    assert sum(t.count("knocked down") for t in texts) == 1
    _, ev = apply(rider_and_horse(), {"type": "rb.knockdown", "id": "c2"})  # the mount: the rider falls, said why
    assert [e["text"] for e in ev][1:] == ["Rider is knocked down (their mount Horse was knocked down)",
                                            "Rider is no longer mounted on Horse; still grouped-up with it"]


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
    enc, _ = apply(enc, {"type": "move", "id": "c3", "x": 1})  # the foe closes to engaged range: melee needs it
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    v = json.loads(json.dumps(RS.view(enc)))
    assert {"round", "phase", "phase_label", "acting", "current", "turn_order", "zone", "combatants", "pending",
            "prompts", "visibility", "unseen", "battle_end", "assumed_tables", "choices", "actions"} <= set(v)
    assert set(v["zone"]) >= {"light", "clutter", "enclosed", "underwater", "flight_ceiling"}
    c = v["combatants"][0]
    assert {"stealth", "flying", "altitude", "mount", "rider", "breath", "statuses"} <= set(c)
    assert v["pending"][0]["spec"]["hindrance"]["parts"][0] == {"reason": "mounted", "count": 1}
    assert set(v["visibility"]["c1"]) == {"c2", "c3"}
    # the round bar and the players' window say "Round 1" beside the label: it does not say it again
    assert v["phase_label"].startswith("Action phase") and "Round" not in v["phase_label"]


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


# == Fatigue of specific Abilities ==================================================================

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
