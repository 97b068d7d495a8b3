"""Table-driven tests straight from the rule text (shared/rules/000_da34f120076854a0.txt): Lack of Sight, Combat
Stealth and the stealth levels, Detection Rolls, Large Creatures & Vehicles, Ambush Movement, Stealth Attacks, other
vision, Light Sources, Sound, and the obscuring areas. Every docstring quotes the sentence it checks; the docs table
(py/fray/games/range_band/rules-trace.md) lists these node ids (``V::``) per heading."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.model import Position
from fray.reducer import apply
from fray.games.range_band import rules
from rb_helpers import (RS, act, cv, fight, hind, last_pending, pending, person, preset, resolve, rider_and_horse,
                        start, to_phase)

T = RS.tables


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
    assert (p["die"], p["stat"], p["tn"]["parts"]) == ("d20", "DEX", [{"reason": "(half of WGT 9, rounded down, assumed)", "value": -4}])
    assert enc.get("c1").data["used"]["major"] == 1
    assert resolve(enc, "enter_high", success=False).get("c1").data["stealth"] == "medium"


def test_stealth_tn_says_what_is_halved_and_how():
    """High Stealth: "This is a d20 roll on DEX, with a -TN equal to 50% of your WGT." A GM read "TN 11 = DEX 14 - 50%
    of WGT 3" and could not tell whether WGT was 3 or 6: the TN says the number taken off first, then of what it is
    half (WGT, not AWGT) and how it was rounded (the text does not say: down, assumed), on the roll and in the
    preview."""
    from fray.games.range_band.web.rolls import preview_html, spec_html
    enc = to_phase(start(fight(person("A", stats={"DEX": 14, "WGT": 7}, stealth="medium"))), "actions")
    rolled = act(enc, "stealth", id="c1", level="high")
    spec = last_pending(rolled, "enter_high")["spec"]
    said = "TN 11 = DEX 14 − 3 (half of WGT 7, rounded down, assumed)"
    assert said in spec["text"]
    assert "− 3 (half of WGT 7, rounded down, assumed)" in str(spec_html(spec))
    ahead = preview_html({"pending": [last_pending(rolled, "enter_high")], "prompts": [], "events": [], "error": None},
                         RS.tables["core_roll"], {"c1": "A"})
    assert "− 3 (half of WGT 7, rounded down, assumed)" in str(ahead)


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


def test_maintain_high_stealth_not_offered_once_the_major_action_is_spent():
    """High Stealth: "You must also maintain High Stealth as a major action on every turn ... If you do a different
    major action, you revert to Medium Stealth." A GM's play-through (p6): after Sneak's stealth attack (his major
    action) "Maintain High Stealth (major)" was still offered, and its own preview said "Would be refused: ... has
    already used 1 major action". Once the turn's major action is spent, neither maintaining nor entering High
    Stealth (a major action too) is offered: each says why, in the GM's words."""
    from fray.games.range_band.web.turn import actions_html

    def turn_of(enc, cid):
        view = RS.view(enc)
        return view, next(c for c in view["combatants"] if c["id"] == cid)

    enc = to_phase(start(fight(person("Sneak", stealth="high"), person("Mark", stealth="medium"),
                               person("B", side="foes", x=5))), "actions", "c1")
    view, c = turn_of(enc, "c1")
    assert 'data-act="rb-maintain"' in str(actions_html(view, c))
    attacked = act(enc, "act", id="c1", size="major", what="attack")
    view, c = turn_of(attacked, "c1")
    drawn = str(actions_html(view, c))
    assert 'data-act="rb-maintain"' not in drawn
    assert "Maintain High Stealth (major): Sneak has already used 1 major action this turn" in drawn
    # the same for entering High Stealth from Medium with the major action spent
    enc = to_phase(attacked, "actions", "c2")
    view, c = turn_of(act(enc, "act", id="c2", size="major", what="draw a bow"), "c2")
    drawn = str(actions_html(view, c))
    assert 'data-level="high"' not in drawn and "Enter High Stealth (stealth roll, major): Mark has already used" in drawn


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
    with pytest.raises(RuleViolation) as e:
        act(enc, "stealth", id="c1", level="high", start=True)
    # said once, the rule as the pointer (a GM's play-through read "... cannot use High Stealth (High Stealth) (see
    # "High Stealth" in the rules)")
    from fray.web.words import rule_message
    assert rule_message(str(e.value), e.value.rule) == ("Mounted characters and mounts cannot use High Stealth "
                                                          "(see “High Stealth” in the rules)")


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


def test_size_limits_say_the_adjusted_weight_in_words():
    """Large Creatures & Vehicles: "Creatures of at least 80 AWGT cannot use Medium Stealth either." A GM read "AWGT
    172: creatures of at least 80 AWGT cannot use Medium Stealth" on a button: the figure is said in words, the
    abbreviation only beside the first figure, to find it in the rules."""
    enc = fight(person("Big", stats={"WGT": 600}))
    can = cv(enc, "c1")["stealth"]["can_enter"]
    assert can["medium"] == ("adjusted weight (AWGT) 172: creatures of adjusted weight 80 or more cannot use Medium "
                             "Stealth either")
    assert can["high"].startswith("adjusted weight (AWGT) 172: creatures of adjusted weight 25 or more")


def test_very_large_creatures_seen_further_in_low_stealth():
    """Large Creatures & Vehicles: "Creatures of at least 125 AWGT additionally increase their visible range in Low
    Stealth by 1 range, and another 1 range for every 25 AWGT beyond 125." (AWGT 172: +2 ranges)"""
    enc = fight(person("Watcher"), preset("Large creature", x=200))
    why = RS.view(enc)["visibility"]["c1"]["c2"]["why"]
    assert any("adjusted weight (AWGT) 172: visible 2 ranges further" in r for r in why)
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


def test_a_warned_stealth_attack_names_the_warner_in_the_log():
    """Stealth Attacks: "If the defender is successfully warned, the defense Hindrance is 1 instead of 3." A GM's
    play-through: the log's stealth-attack line said "+1 Hindrance" and not who warned."""
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=-1))
    enc = resolve(act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3"), "offense", by=2)
    assert enc.log[-1].text == ("Sneak's ranged attack succeeds on its offense roll against Mark: a stealth attack "
                                "(warned by Lookout), +1 Hindrance on Mark's defense roll")


def test_animals_and_deafened_cannot_warn():
    """Stealth Attacks: "Animals cannot warn others, nor can they be warned ... Warnings ... are impossible if either
    character is deafened." """
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20),
                person("Dog", x=20.5, kind="animal", vision="thermal"))
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3")


def test_the_warning_question_of_an_animal_target_says_the_animal_cannot_be_warned():
    """Stealth Attacks: "Animals cannot warn others, nor can they be warned." A GM's play-through: the note on Grey
    (a horse) read "No ally may warn by these sentences. Not: Kael... (animals cannot warn others, nor can they be
    warned); Wren (animals cannot ...)", as if the allies were the animals. The question says the target is an
    animal and cannot be warned, and lists no ally."""
    from fray.games.range_band.preview import preview
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Grey", x=20, kind="animal"),
                person("Kael", x=21), person("Wren", x=22))
    text = preview(enc, {"type": "rb.attack", "id": "c1", "target": "c2", "kind": "ranged"})["prompts"][0]["text"]
    assert "Grey is an animal: it cannot be warned." in text
    assert "Kael" not in text and "Wren" not in text and "Not:" not in text and "Target warned by" not in text
    deaf = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Kael", x=21))
    deaf = act(deaf, "status", id="c2", status="deafened")
    text = preview(deaf, {"type": "rb.attack", "id": "c1", "target": "c2", "kind": "ranged"})["prompts"][0]["text"]
    assert "Mark is deafened: no warning can reach them." in text and "Kael" not in text


def test_only_the_targets_allies_in_the_fight_warn():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies." A GM's play-through: "Target warned by" offered the target himself, the attacker's allies and the
    fallen. Each is refused beside the field; the target's ally still in the fight warns."""
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=21),
                person("Cutthroat", side="foes", x=-2), person("Fallen", x=22))
    enc = act(enc, "status", id="c5", status="dead")
    for who, says in (("c2", "Mark cannot warn themselves"), ("c4", "Cutthroat is not one of Mark's allies"),
                      ("c1", "Sneak is not one of Mark's allies"), ("c5", "Fallen is out of the fight (dead)")):
        with pytest.raises(RuleViolation) as e:
            act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by=who)
        assert e.value.rule == "Stealth Attacks" and e.value.field == "warned_by" and says in str(e.value)
    warned = act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3")
    assert last_pending(warned, "offense")["effect"]["defense"]["hindrance"][0]["count"] == 1


def test_stealth_attack_warning_is_a_gm_prompt_saying_the_criteria_are_not_in_the_excerpt():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies. The following criteria must be met:" — the criteria themselves are not in the excerpt (FACTS.md), so
    the warning is the GM's call, with the sentences the text does give applied ("Animals cannot warn others ...
    Techs and sentients may warn each other ... impossible if either character is deafened")."""
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=21),
                person("Dog", x=19, kind="animal"), person("Deaf", x=22), person("Far", x=200))
    enc = act(enc, "status", id="c5", status="deafened")
    from fray.games.range_band.preview import preview
    attack = {"type": "rb.attack", "id": "c1", "target": "c2", "kind": "ranged"}
    p = [x for x in preview(enc, attack)["prompts"] if x["kind"] == "warning"][-1]
    assert p["combatant"] == "c2"
    assert "The published rules do not give the criteria for a warning, so this is the GM's call" in p["text"]
    assert "FACTS" not in p["text"] and "excerpt" not in p["text"]  # the GM reads rules, not our notes
    assert "Allies who may warn: Lookout (cannot see Sneak), Far (cannot see Sneak)." in p["text"]
    assert "Dog (animals cannot warn others, nor can they be warned)" in p["text"]
    assert "Deaf (warnings are impossible if either character is deafened)" in p["text"]
    warned = act(enc, "attack", id="c1", target="c2", kind="ranged", warned_by="c3")
    assert last_pending(warned, "offense")["effect"]["defense"]["hindrance"][0]["count"] == 1
    assert "Warned by Lookout (who cannot see Sneak): 1 Hindrance" in preview(enc, {**attack, "warned_by": "c3"})[
        "prompts"][-1]["text"]
    seen = act(fight(person("A"), person("B", side="foes", x=1)), "attack", id="c1", target="c2")
    assert not seen.state.get("prompts"), "not a stealth attack: nothing to warn of"


def test_the_warning_note_comes_before_the_offense_roll_never_after():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies." The warner is chosen in the attack's form ("Target warned by"), so the question is the preview's:
    an attack sent, rolled at once or left for the GM's own dice ("Offense roll"), leaves no note. A GM's
    play-through read "may an ally warn them? ... (once the roll is sent: dismiss it and attack again)" under the
    sent roll."""
    from fray.games.range_band.preview import preview
    enc = fight(person("Sneak", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=21))
    attack = {"type": "rb.attack", "id": "c1", "target": "c2", "kind": "ranged"}
    before = preview(enc, attack)
    assert "may an ally warn them?" in before["prompts"][0]["text"]
    assert "before the attack is sent" in before["prompts"][0]["text"] and "dismiss it" not in before["prompts"][0]["text"]
    rolled, events = apply(enc, {**attack, "roll": True, "rolls": {"roll": [15]}})
    assert not rolled.state.get("prompts") and not rolled.state.get("pending")
    assert not any("may an ally warn" in e["text"] for e in events)
    sent, events = apply(enc, attack)  # the two-step path: the GM rolls their own dice
    assert last_pending(sent, "offense") and not sent.state.get("prompts")
    assert not any("may an ally warn" in e["text"] for e in events)
    seen = fight(person("Bandit", side="foes"), person("Mark", x=20))  # no stealth attack, no question
    assert not preview(seen, attack)["prompts"]


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
    for f in sorted(pathlib.Path(__file__).resolve().parent.glob("scenarios/*.json")):
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


def test_the_views_unseen_is_who_does_not_see_whom_and_is_worked_out_once_per_projection():
    """Combat Stealth: the card names who cannot see this combatant (``view["unseen"]``). It is derived
    from the remembered projection (``rules.visibility``) and remembered with it (issue 11: at 200
    combatants, 40,000 pairs a render): for each state, the answer is the one read off the projection
    afresh, and asking again for the same projection gives the very same answer."""
    from fray.games.range_band import view as view_mod

    enc = fight(person("A"), person("B", side="foes", x=30, stealth="medium"), preset("Large creature", x=60))
    last = None
    for step in ({"type": "rb.area", "kind": "smoke", "x": 15, "y": 0, "radius": "engaged"},
                 {"type": "rb.stealth", "id": "c2", "level": "low"}, {"type": "rb.clear_area", "area": "A1"},
                 {"type": "rb.status", "id": "c1", "status": "blinded"}):
        enc, _ = apply(enc, step)
        v = RS.view(enc)
        fresh = {o: sorted(k for k, x in row.items() if not x["sees"]) for o, row in v["visibility"].items()}
        assert v["unseen"] == fresh
        assert view_mod.unseen_of(v["visibility"]) is v["unseen"]
        assert RS.view(enc)["unseen"] is v["unseen"], "the same projection: the same answer"
        if last is not None and last != fresh:
            assert v["unseen"] is not last
        last = v["unseen"]
    assert RS.view(enc)["unseen"]["c1"] == ["c2", "c3"], "blinded: sees no one"


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
