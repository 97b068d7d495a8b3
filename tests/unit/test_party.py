"""The party outlives the fight (issue 35): characters, join_party, carry-over, time passes, the
campaign file. Healing tests quote the strike-rank sentences they check; each figure is worked by
hand in the docstring (Healing Rate ceil(CON/6), FACTS.md; location HP ceil(HP/3) + add)."""

from __future__ import annotations

import copy
import json

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.party import campaign, carry, character, healing
from fray.reducer import apply, new_encounter

SWORD = {"name": "Broadsword", "skill": 60, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing"}
SHIELD = {"name": "Shield", "skill": 50, "damage": "1D4", "sr": 3, "hp": 12, "shield": True, "hand": "left"}
# CON 13 + SIZ 13: total HP 13 = (13+13)/2; legs and head 5 = ceil(13/3), arms 4, chest 6; HR 3 = ceil(13/6)
SR_STATS = {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 13, "first_aid": 50}


def sr_sheet(name: str) -> dict:
    return {"name": name, "side": "party", "stats": dict(SR_STATS), "weapons": [dict(SWORD), dict(SHIELD)]}


def sr_char(cid: str, carried: dict | None = None, name: str = "Vasana") -> dict:
    return character.new("strike-rank", sr_sheet(name), cid, carried)


def loc(ch: dict, lid: str) -> dict:
    _, c = character.standing(ch)
    return next(l for l in c.data["locations"] if l["id"] == lid)


# -- characters ------------------------------------------------------------------------------------

def test_a_character_is_the_add_forms_sheet_and_comes_back_the_same_from_a_fight():
    ch = sr_char("k1")
    enc, _ = apply(new_encounter("strike-rank"), {"type": "add_combatant", "combatant": sr_sheet("Vasana")})
    taken = character.from_combatant(enc, enc.combatants[0], "k2")
    assert taken["carried"] == {} and not taken["dead"]
    # the sheet read back from the fight makes the same combatant as the add form did
    e1, c1 = character.standing(ch)
    e2, c2 = character.standing(taken)
    assert c1.data["locations"] == c2.data["locations"] and c1.data["weapons"] == c2.data["weapons"]
    assert character.sheet_of(e2, c2) == character.sheet_of(e1, c1)


def test_a_character_from_a_bestiary_template_is_unhurt_and_on_the_party_side():
    from fray import bestiary

    t = bestiary.template_of("strike-rank", {**sr_sheet("Wolf"), "side": "foes"})
    ch = character.from_template(t, "k1")
    assert ch["ruleset"] == "strike-rank" and ch["carried"] == {} and ch["sheet"]["side"] == "foes"
    assert character.from_template({"ruleset": "tactical-round", "combatant": {"name": "Ana", "stats": {"DEF": 20, "HP": 40}}},
                                   "k2")["sheet"]["side"] == "party"


def test_a_sheet_the_add_form_would_refuse_is_refused_at_its_field():
    bad = sr_sheet("Vasana")
    bad["stats"]["STR"] = 0
    with pytest.raises(InvalidAction) as e:
        character.new("strike-rank", bad, "k1")
    assert e.value.field == "character.sheet.stats.STR"


# -- a strike-rank fight and what carries ---------------------------------------------------------

def party_of_four() -> dict:
    camp = campaign.empty()
    for i, name in enumerate(("Vasana", "Harrek", "Yanioth", "Vishi"), 1):
        camp = campaign.add_character(camp, sr_char(f"k{i}", name=name))
    return camp


def test_a_party_of_four_fights_and_carries_its_wounds_out():
    """A maimed leg, a serious arm wound that had First Aid, a dented shield, one dead.

    Vasana: 11 to the left leg (5 HP): 5 − 11 = −6 ≤ −5, maimed ("Maimed (-X HP)"); total 13 − 11 = 2.
    Harrek: 6 to the right arm (4 HP): −2, serious; First Aid success (50%, rolled 40) heals 1D3 = 1:
    −1, still serious, and the location has had its First Aid. Total 13 − 6 + 1 = 8."""
    camp = party_of_four()
    enc, _ = apply(new_encounter("strike-rank"), campaign.join_action(camp, "strike-rank", ["k1", "k2", "k3", "k4"],
                                                                      {"x": 0, "y": 0}))
    assert [c.data["party"]["character"] for c in enc.combatants] == ["k1", "k2", "k3", "k4"]
    # in formation, rows of two, three metres apart, like Add ×N
    assert [(c.position.x, c.position.y) for c in enc.combatants] == [(0, 0), (3, 0), (0, -3), (3, -3)]
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "left_leg", "amount": 11, "armour": False})
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c2", "location": "right_arm", "amount": 6, "armour": False})
    enc, _ = apply(enc, {"type": "sr.first_aid", "healer": "c3", "target": "c2", "location": "right_arm",
                         "rolls": {"first_aid": 40, "heal": 1}})
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c4", "location": "chest", "amount": 20, "armour": False})
    props = {p["character"]: p for p in carry.proposals(enc)}
    assert props["k1"]["carried"]["hp"] == 2
    assert props["k1"]["carried"]["locations"]["left_leg"] == {"hp": -6, "bleeding": True}
    assert props["k2"]["carried"] == {"hp": 8, "locations": {"right_arm": {"hp": -1, "first_aid": True, "treated": True}}}
    assert props["k3"]["carried"] == {} and not props["k3"]["dead"]
    assert props["k4"]["dead"] and "marked dead" in " ".join(props["k4"]["notes"])
    before = copy.deepcopy(camp)
    after = campaign.end_fight(camp, enc, "enc-1")
    assert camp == before  # the step makes a new campaign; undo puts the old one back
    vishi = campaign.character(after, "k4")
    assert vishi["dead"] and vishi in after["characters"]  # marked, not deleted
    assert campaign.character(after, "k1")["encounters"] == ["enc-1"]
    assert after["encounters"] == [{"id": "enc-1", "name": "Encounter", "ruleset": "strike-rank"}]
    # the GM changes the proposal: the leg's bleeding was stopped by a healer off the tracker
    gm = campaign.end_fight(camp, enc, "enc-1", {"k1": {"carried": {"hp": 2, "locations": {"left_leg": {
        "hp": -6, "first_aid": True}}}}})
    assert campaign.character(gm, "k1")["carried"]["locations"]["left_leg"] == {"hp": -6, "first_aid": True}
    # and the next fight starts where this one left them; the dead are refused
    nxt, _ = apply(new_encounter("strike-rank"), campaign.join_action(gm, "strike-rank", ["k1", "k2"]))
    leg = next(l for l in nxt.combatants[0].data["locations"] if l["id"] == "left_leg")
    assert (leg["hp"], leg["first_aid"], nxt.combatants[0].data["hp"]) == (-6, True, 2)
    with pytest.raises(RuleViolation, match="Vishi is dead"):
        campaign.join_action(gm, "strike-rank", ["k4"])


def test_weapon_hp_and_a_weapon_stuck_in_the_character_carry():
    """Weapon and shield HP, weapons stuck: carried; the stuck one names its owner and location."""
    ch = sr_char("k1")
    enc, _ = apply(new_encounter("strike-rank"), {"type": "join_party", "characters": [ch]})
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": "Orc", "stats": dict(SR_STATS)}})
    d = copy.deepcopy(enc.combatants[0].data)
    # as the fight leaves them (the engine's own shapes): a dented shield, a spear in the abdomen
    enc.combatants[0].data["weapons"][1]["hp"] = 7
    enc.combatants[0].data["impaled"] = [{"weapon": "spear", "owner": "c2", "name": "Spear", "location": "abdomen"}]
    got = carry.carry_over(enc, enc.combatants[0])
    assert got["weapons"] == {"shield": 7}
    assert got["stuck"] == [{"weapon": "Orc's Spear", "location": "abdomen"}]
    enc.combatants[0].data = d
    back = carry.write_back(ch, got, False, "e1")
    nxt, ev = apply(new_encounter("strike-rank"), {"type": "join_party", "characters": [back]})
    assert nxt.combatants[0].data["weapons"][1]["hp"] == 7
    assert "Stuck in: Orc's Spear (abdomen)" in nxt.combatants[0].notes


# -- Natural Healing ------------------------------------------------------------------------------

def test_maimed_heals_hr_a_week_then_serious_hr_a_day():
    """"Maimed (-X HP): Recover HP equal to HR at the end of each week." then "Minor Wound (1+ HP)/
    Serious Wound (0 HP): Recover HP equal to HR at the end of each day."

    Left leg 5 HP at −6 (maimed), First Aid given, total 2, HR 3. A day: the week has not ended,
    nothing heals (day 1 of 7 counted). A week more: at the end of day 7 the leg recovers 3: −3,
    serious, total 5; day 8 ends it serious: +3, 0, total 8. Left at 0/5 serious, total 8."""
    ch = sr_char("k1", {"hp": 2, "locations": {"left_leg": {"hp": -6, "first_aid": True}}})
    day, said = healing.time_passes(ch, "day")
    assert day["carried"]["locations"]["left_leg"]["hp"] == -6 and day["carried"]["hp"] == 2
    assert day["carried"]["healing_days"] == {"left_leg": 1}
    week, said = healing.time_passes(day, "week")
    assert week["carried"]["locations"]["left_leg"]["hp"] == 0 and week["carried"]["hp"] == 8
    assert "Left leg heals 6: 0/5 serious" in said
    # seven days one at a time are the same as one week
    d = ch
    for _ in range(8):
        d, _ = healing.time_passes(d, "day")
    assert d["carried"] == week["carried"]


def test_a_serious_arm_with_first_aid_heals_hr_a_day_and_never_past_what_it_lost():
    """"Recover HP equal to HR at the end of each day"; "When a location's HP are healed, a
    corresponding amount of total HP are healed. Neither healing amount can exceed the amount of HP
    the location was missing."

    Right arm 4 HP at −1 (serious, First Aid), total 8, HR 3: a day: 2/4 minor, total 11; the next
    day it was missing 2: heals 2, not 3: 4/4, total 13 (and the arm's First Aid mark goes with the
    wound)."""
    ch = sr_char("k1", {"hp": 8, "locations": {"right_arm": {"hp": -1, "first_aid": True}}})
    day, _ = healing.time_passes(ch, "day")
    assert day["carried"] == {"hp": 11, "locations": {"right_arm": {"hp": 2, "first_aid": True, "treated": True}}}
    week, said = healing.time_passes(day, "week")
    assert week["carried"] == {} and "Right arm heals 2: 4/4 unhurt" in said


def test_a_serious_wound_without_first_aid_does_not_begin_healing_but_a_minor_one_does():
    """"Minor wounds will heal if left alone; more serious injuries will not begin healing naturally
    until treated with First Aid or healed at least partially."

    Right arm −1 (serious, no First Aid), head 3/5 (minor), total 13 − 5 − 2 = 6, HR 3. A day: the
    head heals 2 (all it lost): 5/5, total 8; the arm stays −1."""
    ch = sr_char("k1", {"hp": 6, "locations": {"right_arm": {"hp": -1}, "head": {"hp": 3}}})
    day, said = healing.time_passes(ch, "day")
    assert day["carried"]["locations"] == {"right_arm": {"hp": -1}} and day["carried"]["hp"] == 8
    assert any("will not begin healing until treated with First Aid" in s for s in said)


def test_strenuous_activity_stops_natural_healing_and_restarts_the_count():
    """"Natural healing requires rest; strenuous activity (GM's discretion; travelling by foot counts,
    as does heavy labor and any fighting)."

    Head 3/5: a day of travel heals nothing. A maimed leg 6 days into its week, then a day on foot:
    its count starts again, so the next rested day does not end its week."""
    ch = sr_char("k1", {"hp": 11, "locations": {"head": {"hp": 3}}})
    tired, said = healing.time_passes(ch, "day", rested=False)
    assert tired["carried"] == ch["carried"] and any("requires rest" in s for s in said)
    leg = sr_char("k2", {"hp": 2, "locations": {"left_leg": {"hp": -6, "first_aid": True}},
                         "healing_days": {"left_leg": 6}})
    walked, _ = healing.time_passes(leg, "day", rested=False)
    assert "healing_days" not in walked["carried"]
    rested, _ = healing.time_passes(walked, "day")
    assert rested["carried"]["locations"]["left_leg"]["hp"] == -6
    assert healing.time_passes(leg, "day")[0]["carried"]["locations"]["left_leg"]["hp"] == -3


def test_treatment_adds_to_the_healing_rate_by_its_result():
    """"a Success grants +1 HR, a Special Success grants +2 HR, and a Critical Success grants +3 HR".

    Head 1/5 (minor), total 9, HR 3: a day with a Special Treatment heals up to 3 + 2 = 5; the head
    lost only 4: 5/5, total 13. With a Success: 3 + 1 = 4: 5/5 as well; with a failure: 3: 4/5,
    total 12. Chest 6 HP at 0 (serious, First Aid), total 7: a Critical gives 3 + 3 = 6: 6/6;
    without a healer 3: 3/6."""
    ch = sr_char("k1", {"hp": 9, "locations": {"head": {"hp": 1}}})
    assert healing.time_passes(ch, "day", treatment="special")[0]["carried"] == {}
    assert healing.time_passes(ch, "day", treatment="success")[0]["carried"] == {}
    failed, said = healing.time_passes(ch, "day", treatment="failure")
    assert failed["carried"] == {"hp": 12, "locations": {"head": {"hp": 4, "treated": True}}}
    chest = sr_char("k2", {"hp": 7, "locations": {"chest": {"hp": 0, "first_aid": True}}})
    assert healing.time_passes(chest, "day", treatment="critical")[0]["carried"] == {}
    assert healing.time_passes(chest, "day")[0]["carried"]["locations"]["chest"]["hp"] == 3


def test_total_hp_without_an_injured_location_heals_as_its_own_minor_wound_and_locations_first():
    """"If a character is missing total HP but has no injured hit locations, treat total HP as its
    own minor wound for the purposes of healing. Thus, injured hit locations heal first."

    Total 5/13, head 4/5 (minor), HR 3. Day 1: the head heals 1 (all it lost), total 6; the total
    does not heal on its own while a location is injured. Day 2: no injured location: total heals
    3 as a minor wound: 9. Day 3: 12. Day 4: 13."""
    ch = sr_char("k1", {"hp": 5, "locations": {"head": {"hp": 4}}})
    d1, _ = healing.time_passes(ch, "day")
    assert d1["carried"] == {"hp": 6}
    d2, said = healing.time_passes(d1, "day")
    assert d2["carried"] == {"hp": 9} and any("as its own minor wound" in s for s in said)
    assert healing.time_passes(d2, "day")[0]["carried"] == {"hp": 12}
    assert healing.time_passes(ch, "week")[0]["carried"] == {}


def test_a_mangled_limb_heals_hr_a_season_and_stays_useless():
    """"Mangled (-2X HP): Recover HP equal to HR at the end of each season. Mangled limbs never fully
    heal naturally: they remain useless."

    Left arm 4 HP at −9 (≤ −2 × 4, mangled; First Aid given), total 1, HR 3. A week: nothing (a
    season is 56 days, assumed). A season: the end of day 56 heals 3: −6 (maimed), total 4; its
    week (day 63) is not reached. Three more seasons heal it whole: it stays useless."""
    ch = sr_char("k1", {"hp": 1, "locations": {"left_arm": {"hp": -9, "first_aid": True, "useless": True}}})
    assert healing.time_passes(ch, "week")[0]["carried"]["locations"]["left_arm"]["hp"] == -9
    season, said = healing.time_passes(ch, "season")
    arm = season["carried"]["locations"]["left_arm"]
    assert arm["hp"] == -6 and arm["useless"] and season["carried"]["hp"] == 4
    assert any("stays useless" in s for s in said) and any("assumed" in s for s in said)
    # healed whole by later seasons, the limb is still useless
    for _ in range(3):
        season, _ = healing.time_passes(season, "season")
    assert season["carried"]["locations"]["left_arm"] == {"useless": True}


def test_a_few_hours_end_no_day_and_a_stuck_weapon_stops_its_location_healing():
    """"Recover HP equal to HR at the end of each day": a few hours heal nothing. "The injured
    location cannot be healed while the weapon is stuck in.\""""
    ch = sr_char("k1", {"hp": 10, "locations": {"abdomen": {"hp": 2}}, "stuck": [{"weapon": "Orc's Spear",
                                                                                   "location": "abdomen"}]})
    hours, said = healing.time_passes(ch, "hours")
    assert hours == ch
    assert said[0].startswith("A few hours pass for ")  # not "A few hours passes" (a GM's play)
    day, said = healing.time_passes(ch, "day")
    assert said[0].startswith("A day passes for ")
    assert day["carried"]["locations"]["abdomen"]["hp"] == 2 and any("weapon is stuck" in s for s in said)


def test_games_without_a_recovery_rule_say_so_and_take_the_gms_values():
    """tactical-round and range-band: no text on recovery; time changes nothing; the GM sets it."""
    tr = character.new("tactical-round", {"name": "Ana", "stats": {"DEF": 20, "HP": 40}}, "k1", {"hits_taken": 12})
    same, said = healing.time_passes(tr, "week")
    assert same == tr and "no recovery of hit points" in said[0]
    assert healing.set_by_hand(tr, {"hits_taken": 4})["carried"] == {"hits_taken": 4}
    rb = character.new("range-band", {"name": "Ilse", "stats": {"DEX": 5, "CON": 5, "SPD": 5, "WGT": 6}}, "k2",
                       {"fatigue": 3, "trauma": 1})
    same, said = healing.time_passes(rb, "season")
    assert same == rb and "no recovery of post-combat fatigue or trauma" in said[0]


# -- range-band and tactical-round carry-over -----------------------------------------------------

def test_range_band_carries_the_post_combat_fatigue_and_trauma_the_gm_settles():
    """"this is generalized as post-combat fatigue and applied once the battle ends"."""
    camp = campaign.empty()
    for i, n in enumerate(("Ilse", "Oru"), 1):
        camp = campaign.add_character(camp, character.new(
            "range-band", {"name": n, "stats": {"DEX": 5, "CON": 5, "SPD": 5, "WGT": 6}}, f"k{i}",
            {"fatigue": 1} if i == 1 else None))
    enc, ev = apply(new_encounter("range-band"), campaign.join_action(camp, "range-band", ["k1", "k2"]))
    assert "fatigue 1" in enc.combatants[0].notes
    early = carry.proposals(enc)
    assert early[0]["carried"] == {"fatigue": 1} and "not been ended" in early[0]["notes"][0]
    enc, _ = apply(enc, {"type": "rb.end_battle", "rounds": 3, "activity": {"c1": "heavy"}, "involvement": {"c2": "front line"}})
    post = {c.id: c.data["post_combat"] for c in enc.combatants}
    props = carry.proposals(enc)
    assert props[0]["carried"]["fatigue"] == 1 + post["c1"]["fatigue"]
    assert props[1]["carried"].get("trauma", 0) == post["c2"]["trauma"]
    after = campaign.end_fight(camp, enc, "rb-1", {"k2": {"carried": {"fatigue": 2, "trauma": 2}}})
    assert campaign.character(after, "k2")["carried"] == {"fatigue": 2, "trauma": 2}
    with pytest.raises(InvalidAction) as e:
        campaign.end_fight(camp, enc, "rb-1", {"k2": {"carried": {"fatigue": -2}}})
    assert e.value.field == "changes.k2.carried.fatigue"


def test_tactical_round_carries_hits_taken_and_lasting_criticals():
    """Hit points: current HP = HP − hits taken, carried into the next fight."""
    ch = character.new("tactical-round", {"name": "Ana", "stats": {"DEF": 20, "HP": 40}}, "k1")
    camp = campaign.add_character(campaign.empty(), ch)
    enc, _ = apply(new_encounter("tactical-round"), campaign.join_action(camp, "tactical-round", ["k1"]))
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 15})
    p = carry.proposals(enc)[0]
    assert p["carried"] == {"hits_taken": 15} and "no recovery of hit points" in p["notes"][0]
    after = campaign.end_fight(camp, enc, "tr-1", {"k1": {"carried": {"hits_taken": 15, "lasting": ["Broken left arm"]}}})
    nxt, _ = apply(new_encounter("tactical-round"), campaign.join_action(after, "tactical-round", ["k1"]))
    assert nxt.combatants[0].data["hits_taken"] == 15 and "Lasting: Broken left arm" in nxt.combatants[0].notes


# -- the one gate ---------------------------------------------------------------------------------

def test_bad_input_is_refused_at_its_field_and_nothing_changes():
    camp = party_of_four()
    before = copy.deepcopy(camp)
    # a wound on a location its body does not have
    with pytest.raises(InvalidAction) as e:
        campaign.set_carried(camp, "k1", {"locations": {"tail": {"hp": -1}}})
    assert e.value.field == "character.carried.locations.tail" and "has no hit location “tail”" in e.value.message
    # a negative period
    with pytest.raises(InvalidAction) as e:
        campaign.time_passes(camp, -1)
    assert e.value.field == "period" and "forwards" in e.value.message
    # a character of another game into an encounter
    tr = character.new("tactical-round", {"name": "Ana", "stats": {"DEF": 20, "HP": 40}}, "k9")
    camp2 = campaign.add_character(camp, tr)
    with pytest.raises(InvalidAction) as e:
        campaign.join_action(camp2, "strike-rank", ["k1", "k9"])
    assert "Ana is a tactical-round character" in e.value.message
    enc = new_encounter("strike-rank")
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "join_party", "characters": [tr]})
    assert e.value.field == "characters.0" and enc.combatants == []
    # more HP than the location has; a weapon the character does not carry; the same one twice
    for bad, field in (({"locations": {"head": {"hp": 9}}}, "character.carried.locations.head.hp"),
                       ({"weapons": {"axe": 3}}, "character.carried.weapons.axe"),
                       ({"hp": "lots"}, "character.carried.hp")):
        with pytest.raises(InvalidAction) as e:
            campaign.set_carried(camp, "k1", bad)
        assert e.value.field == field
    joined, _ = apply(enc, campaign.join_action(camp, "strike-rank", ["k1"]))
    with pytest.raises(RuleViolation, match="already in this fight"):
        apply(joined, campaign.join_action(camp, "strike-rank", ["k1"]))
    assert camp == before


def test_the_campaign_file_round_trips_and_a_bad_file_names_its_field():
    camp = party_of_four()
    enc, _ = apply(new_encounter("strike-rank"), campaign.join_action(camp, "strike-rank", ["k1"]))
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "left_leg", "amount": 11, "armour": False})
    camp = campaign.end_fight(camp, enc, "enc-1")
    camp, _ = campaign.time_passes(camp, "day", {"k1": {"rested": True, "treatment": "success"}})
    text = campaign.dumps(camp)
    assert campaign.loads(text) == camp
    data = json.loads(text)
    data["characters"][0]["carried"]["locations"]["wing"] = {"hp": -1}
    with pytest.raises(InvalidAction) as e:
        campaign.loads(json.dumps(data))
    assert e.value.field == "characters.0 (Vasana).carried.locations.wing"
    data = json.loads(text)
    data["version"] = 2
    with pytest.raises(InvalidAction, match="newer than this Fray reads"):
        campaign.loads(json.dumps(data))
    data = json.loads(text)
    data["encounters"] = []
    with pytest.raises(InvalidAction, match="does not list"):
        campaign.loads(json.dumps(data))
    with pytest.raises(InvalidAction) as e:
        campaign.time_passes(camp, "day", {"k1": {"treatment": "superb"}})
    assert e.value.field == "who.k1.treatment"


# -- steps and undo -------------------------------------------------------------------------------

def test_each_step_is_one_undoable_change_and_a_replay_of_the_steps_gives_the_same_campaign():
    from fray.party.steps import Steps, apply_step, settle

    s = Steps()
    s.apply({"type": "add_character", "character": sr_char("k1")})
    enc, _ = apply(new_encounter("strike-rank"), campaign.join_action(s.present, "strike-rank", ["k1"]))
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "head", "amount": 2, "armour": False})
    # a combatant of the fight kept as a character, as the fight left it
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**sr_sheet("Orc"), "side": "foes"}})
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 3, "armour": False})
    s.apply({"type": "add_character", "character": character.from_combatant(enc, enc.combatants[1],
                                                                             campaign.next_id(s.present))})
    assert campaign.character(s.present, "k2")["carried"] == {"hp": 10, "locations": {"chest": {"hp": 3}}}
    said = s.apply(settle(enc, "e1"))
    assert said == ["Vasana comes out of Encounter"]
    assert campaign.character(s.present, "k1")["carried"] == {"hp": 11, "locations": {"head": {"hp": 3}}}
    s.apply({"type": "time_passes", "period": "day"})
    healed = copy.deepcopy(s.present)
    assert campaign.character(healed, "k1")["carried"] == {}  # head lost 2, HR 3: whole
    assert s.undo() and campaign.character(s.present, "k1")["carried"]["hp"] == 11
    assert s.redo() and s.present == healed
    # nothing changes on a refused step
    for bad, field in (({"type": "time_passes", "period": -3}, "period"),
                       ({"type": "set_carried", "id": "k1", "carried": {"locations": {"tail": {"hp": 1}}}},
                        "character.carried.locations.tail"),
                       ({"type": "end_fight", "encounter": {"id": "e2", "name": "x", "ruleset": "range-band"},
                         "carry": {"k1": {"carried": {}, "dead": False}}}, "carry.k1"),
                       ({"type": "fly"}, "type")):
        with pytest.raises(InvalidAction) as e:
            s.apply(bad)
        assert e.value.field == field and s.present == healed
    # the steps alone replay to the same campaign
    camp = campaign.empty()
    for _, step in s.done:
        camp, _ = apply_step(camp, step)
    assert camp == healed


def test_a_duplicate_of_a_party_member_is_not_the_character_and_the_fights_save_replays():
    """The save of a fight the party joined loads and replays to the same encounter."""
    from fray import savefile
    from fray.history import History

    camp = party_of_four()
    h = History(new_encounter("strike-rank"))
    h.do(campaign.join_action(camp, "strike-rank", ["k1", "k2"], {"x": 6, "y": 6}))
    h.do({"type": "duplicate_combatant", "id": "c1"})
    h.do({"type": "sr.damage", "target": "c3", "location": "head", "amount": 2, "armour": False})
    props = carry.proposals(h.present)
    assert [(p["combatant"], p["character"]) for p in props] == [("c1", "k1"), ("c2", "k2")]
    assert props[0]["carried"] == {}  # the wound is on the duplicate, not on Vasana
    again = savefile.loads(savefile.dumps(h))
    assert again.present == h.present



@pytest.mark.parametrize("carried", [
    {"stuck": [{"weapon": "Spear", "location": [1]}]}, {"stuck": "spear"}, {"locations": []},
    {"locations": {"head": {"hp": 1.5}}}, {"locations": {"head": {"bleeding": "yes"}}}, {"healing_days": {"head": True}},
    {"conditions": [["dead"]]}, {"weapons": {"broadsword": None}}, {"hp": None}, {"fatigue": 2},
])
def test_junk_carried_state_is_refused_with_the_engines_own_error_and_nothing_changes(carried):
    from fray.errors import FrayError

    enc = new_encounter("strike-rank")
    ch = {"id": "k1", "ruleset": "strike-rank", "sheet": sr_sheet("Vasana"), "carried": carried}
    with pytest.raises(FrayError):
        apply(enc, {"type": "join_party", "characters": [ch]})
    assert enc.combatants == []


def test_keeping_one_of_two_wolves_named_alike_hides_that_one_only():
    """A GM's play-through: two wolves both named "Wolf"; "Keep Wolf" in the Party dialog hid both
    (combatants were matched by name). The character remembers the combatant of the fight it was kept
    from (``kept_from``), and only that one stops being offered."""
    from fray.web import party_view

    wolf = {"name": "Wolf", "side": "foes", "stats": dict(SR_STATS), "weapons": [dict(SWORD)]}
    enc, _ = apply(new_encounter("strike-rank"), {"type": "add_combatant", "combatant": wolf})
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": dict(wolf)})
    first, second = enc.combatants
    ch = character.from_combatant(enc, first, "k1", "enc-ford")
    assert ch["kept_from"] == {"encounter": "enc-ford", "combatant": first.id}
    camp = campaign.empty()
    camp["characters"].append(ch)
    out = str(party_view.party_html(camp, enc, key="enc-ford"))
    assert f'data-id="{second.id}"' in out and f'data-id="{first.id}"' not in out
    assert out.count("Keep Wolf") == 1
    # another fight's combatant of the same id is still offered
    assert str(party_view.party_html(camp, enc, key="enc-other")).count("Keep Wolf") == 2
    # a file's kept_from is checked like the rest of the character
    for bad in ({"encounter": "enc-ford"}, {"encounter": 3, "combatant": "c1"}, "c1"):
        with pytest.raises(InvalidAction) as e:
            character.check(dict(ch, kept_from=bad))
        assert e.value.field == "character.kept_from"


def test_a_character_made_from_a_template_still_stands_for_the_combatant_of_its_name():
    """Made from a template (not kept from this fight), a character names no combatant: the fight's
    combatant of its name is taken to be it and not offered to keep again."""
    from fray.web import party_view

    enc, _ = apply(new_encounter("strike-rank"), {"type": "add_combatant", "combatant": sr_sheet("Gorakiki")})
    camp = campaign.empty()
    camp["characters"].append(sr_char("k1", name="Gorakiki"))
    assert "Keep Gorakiki" not in str(party_view.party_html(camp, enc, key="enc-camp"))


def test_every_tactical_round_ready_made_combatant_can_be_kept_as_a_character():
    """Keep in party refused every tactical-round ready-made combatant: "character.sheet.weapons.0.reload:
    must be from 1 to 20, not 0" (a helper's play). A melee weapon's reload is kept as 0 on the combatant,
    and its sheet now leaves it out, as the add form does."""
    from fray.games import get_ruleset
    from fray.party import character
    from fray.reducer import apply, new_encounter

    rs = get_ruleset("tactical-round")
    for preset in rs.presets():
        enc, _ = apply(new_encounter("tactical-round", "Keep"), {"type": "add_combatant", "combatant": preset})
        c = enc.combatants[-1]
        character.check(character.from_combatant(enc, c, "k1", "e1"))  # raises InvalidAction if refused


@pytest.mark.parametrize("text, said", [
    ("{ broken", "it is not a Fray party file (the kind Export the party writes); its text goes wrong at line 1, "
                 "column 3"),
    ("", "it is not a Fray party file (the kind Export the party writes); the file is empty"),
    ('{"name": "left-pad"}', "it is not a Fray party file (the kind Export the party writes)"),
    ('{"format": "fray-encounter", "schema": 3}',
     "it is a Fray encounter file, not a Fray party file: import it with the toolbar's Import"),
])
def test_a_file_that_is_not_a_party_says_so_in_the_gms_words(text, said):
    """Import a party with a broken or other file: the GM reads what the file is not and what the picker
    wanted (a Fray party file, as Export the party writes it), not the parser's "not JSON: Expecting value"."""
    from fray.web.party_view import read_party_file
    from fray.errors import FrayError
    with pytest.raises(FrayError) as e:
        read_party_file(text)
    assert str(e.value) == said
