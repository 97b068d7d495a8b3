"""The words the GM reads (issue 33, §4): every bad field of a form at once, and the engine's
field paths put in the form's own words."""

from __future__ import annotations

import pytest

from fray import reducer
from fray.errors import InvalidAction, InvalidFields
from fray.games import get_ruleset
from fray.web.words import field_message, path_words


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round", "range-band"])
def test_add_combatant_names_every_bad_field_at_once(ruleset):
    """An empty name, two stats that are not numbers and a position that is not a number: one
    refusal naming all four, in the form's order, and the encounter unchanged."""
    rs = get_ruleset(ruleset)
    p = dict(rs.presets()[0])
    first, second = [s.key for s in rs.stats][:2]
    p.update(name="", stats={**p["stats"], first: "abc", second: "12a"}, position={"x": "far", "y": 0})
    enc = reducer.new_encounter(ruleset, "x")
    with pytest.raises(InvalidFields) as e:
        reducer.apply(enc, {"type": "add_combatant", "combatant": p})
    assert [x.field for x in e.value.errors] == [
        "combatant.name", f"combatant.stats.{first}", f"combatant.stats.{second}", "combatant.position.x"]
    assert e.value.field == "combatant.name"  # itself the first, for callers that show one
    assert enc.combatants == []


def test_one_bad_field_is_a_plain_invalid_action():
    rs = get_ruleset("strike-rank")
    p = dict(rs.presets()[0], name="")
    with pytest.raises(InvalidAction) as e:
        reducer.apply(reducer.new_encounter("strike-rank", "x"), {"type": "add_combatant", "combatant": p})
    assert type(e.value) is InvalidAction and e.value.field == "combatant.name"


def test_a_bad_weapon_comes_with_the_bad_stats():
    rs = get_ruleset("strike-rank")
    p = dict(rs.presets()[0])
    p.update(stats={**p["stats"], "SIZ": -5}, weapons=[dict(p["weapons"][0], type="sharp")])
    with pytest.raises(InvalidFields) as e:
        reducer.apply(reducer.new_encounter("strike-rank", "x"), {"type": "add_combatant", "combatant": p})
    assert [x.field for x in e.value.errors] == ["combatant.stats.SIZ", "combatant.weapons.0.type"]


@pytest.mark.parametrize("path, shown_at, label, message, said", [
    ("combatant.name", "combatant.name", "Name", "is longer than 60 characters", "Name is longer than 60 characters"),
    ("combatant.name", "combatant.name", "Name", "must not be empty", "Name must not be empty"),
    ("combatant.position.x", "combatant.position.x", "East (x)", "must be a number, not 'far'",
     "East (x) must be a number, not 'far'"),
    ("combatant.stats.STR", "combatant.stats.STR", "STR", "STR must be a whole number", "STR must be a whole number"),
    ("combatant.weapons.0.type", "combatant.extra", "Weapons and data (JSON)", "must be one of crushing, slashing",
     "Weapon 1: type must be one of crushing, slashing"),
    ("combatant.weapons.0.type", "combatant.weapons", "Weapons", "must be one of crushing, slashing",
     "Weapon 1: type must be one of crushing, slashing"),
    ("changes.weapons.2.skill", "combatant.weapons", "Weapons", "Skill must be a whole number",
     "Weapon 3: Skill must be a whole number"),
    ("value.entries.2.sr", "value.entries.2", "", "must be a whole number, not 'three'",
     "SR must be a whole number, not 'three'"),
])
def test_field_message_in_the_forms_words(path, shown_at, label, message, said):
    assert field_message(path, message, label, shown_at) == said


def test_path_words():
    assert path_words("combatant.weapons.0.type") == "Weapon 1: type"
    assert path_words("combatant.position.x") == "Position east (x)"
    assert path_words("first_aid") == "First aid"
    assert path_words("") == ""


# -- a typed d100 of 0 (issue 32, point 6) --------------------------------------------------------

def test_typed_faces_read_00_and_100_as_a_hundred_and_refuse_a_lone_0():
    """"00" and "100" are a d100's hundred; a lone "0" was taken for 100 (a fumble) with no word
    said: now it is refused, with what to type instead."""
    from fray.web.widgets import ZERO_FACE, ZeroFace, parse_faces

    assert parse_faces("00") == [100]
    assert parse_faces("100") == [100]
    assert parse_faces("98 00") == [98, 100]
    for zero in ("0", "98 0", "+0"):
        with pytest.raises(ZeroFace):
            parse_faces(zero, signed=True)
    assert "00 or 100" in ZERO_FACE


def test_a_typed_0_is_refused_at_its_field_in_each_game():
    from fray.games.range_band.web.read import resolve_action
    from fray.games.strike_rank.web.parse import attack_action
    from fray.games.tactical_round.web.panel import parse_dice as tr_dice
    from fray.web.widgets import ZERO_FACE, ZeroFace

    # strike-rank: the attack form names the field; "00" is sent as 100
    _, errors = attack_action("a1", "c1", "w1", {"rolls.attack": "0", "defence.kind": "none"})
    assert errors == {"rolls.attack": ZERO_FACE}
    action, errors = attack_action("a1", "c1", "w1", {"rolls.attack": "00", "defence.kind": "none"})
    assert errors == {} and action["rolls"]["attack"] == 100
    # tactical-round: the open-ended d100's reader
    with pytest.raises(ZeroFace):
        tr_dice("0")
    assert tr_dice("00 40") == [100, 40]
    # range-band: Dice for Fray
    with pytest.raises(InvalidAction) as e:
        resolve_action("R1", {"rolls.roll": "0"}, roll=True)
    assert e.value.field == "rolls.roll" and e.value.message == ZERO_FACE
    assert resolve_action("R1", {"rolls.roll": "00"}, roll=True)["rolls"] == {"roll": [100]}


# -- the log's words for a declaration (issue 33, §4) ----------------------------------------------

def _sr_pair():
    rs = get_ruleset("strike-rank")
    warrior, wolf = rs.presets()[0], rs.presets()[3]
    enc = reducer.new_encounter("strike-rank", "x")
    enc, _ = reducer.apply(enc, {"type": "add_combatant", "combatant": dict(warrior, position={"x": 0, "y": 0})})
    enc, _ = reducer.apply(enc, {"type": "add_combatant", "combatant": dict(wolf, position={"x": 20, "y": 0})})
    enc, _ = reducer.apply(enc, {"type": "advance"})
    return enc


def test_a_declaration_is_logged_in_words_once():
    """"Broo 6: move move at Vasana … (6 m at 3 m/SR) (6 m at 3 m/SR)": the kind said once, in
    words; the weapon by its name; the movement note once."""
    enc = _sr_pair()
    enc, ev = reducer.apply(enc, {"type": "sr.declare", "id": "c1", "kind": "move", "target": "c2", "metres": 6})
    assert ev[-1]["text"] == ("Human warrior: moves towards Great wolf (four-legged): SR 2 = move 2 (closes 6 m at 3 m "
                              "a strike rank: +2 SR)")
    enc, ev = reducer.apply(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "bite", "target": "c1"})
    assert ev[-1]["text"].startswith("Great wolf (four-legged): melee attack with Bite at Human warrior: SR 6 = ")
    assert ev[-1]["text"].count("a strike rank") == 1
    ref = enc.state["actions"][-1]["ref"]
    enc, ev = reducer.apply(enc, {"type": "sr.undeclare", "ref": ref})
    assert ev[-1]["text"] == "Great wolf (four-legged) withdraws their melee attack with Bite at SR 6"


def test_the_range_band_add_form_says_the_stealth_level():
    """"Starts in: low": the field says it is the stealth level, in the card's words."""
    from fray.games.range_band.web.card import add_fields_html

    html = add_fields_html({})
    assert "Stealth level at the start" in html and ">Low Stealth</option>" in html
    assert "Starts in<" not in html


# -- strike-rank: damage dice typed before a roll that comes out special (issue 33, §5) -------------

def test_damage_typed_for_a_normal_blow_when_it_comes_out_special_says_what_to_type():
    """Special Attacks (slashing): "weapon damage doubled". The GM typed the damage dice of an
    ordinary blow (1D8+1+1D4: 2 dice) before rolling; the attack came out special (2D8+2+1D4: 3
    dice). The refusal says what the result asks for, in order, and that a total will do; the
    encounter is unchanged; then three dice, or the total, are taken."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "strike_rank"))
    from sr_helpers import attack, duel, to_phase

    enc = to_phase(duel(), "resolve")
    rolls = {"attack": 5, "location": 13}
    with pytest.raises(InvalidAction) as e:
        attack(enc, rolls={**rolls, "damage": [5, 3]})
    assert e.value.field == "rolls.damage"
    assert e.value.message.startswith("The blow is special") and "weapon damage doubled" in e.value.message
    assert "the damage is 2D8+2+1D4. Typed 5 3 for 1D8+1+1D4: roll 1D8 more, or type the total" in e.value.message
    after, ev = attack(enc, rolls={**rolls, "damage": [5, 2, 3]})
    assert any("= 5+2+2+3 = 12" in x["text"] for x in ev), [x["text"] for x in ev]
    after, ev = attack(enc, rolls={**rolls, "damage": 12})
    assert any("12" in x["text"] and x["kind"] == "damage_roll" for x in ev)


def test_an_instruction_is_not_given_the_label_as_its_subject():
    assert field_message("rolls.attack", "type whole numbers such as 8 4, not x", "Attack d100",
                         "rolls.attack") == "type whole numbers such as 8 4, not x"
    assert field_message("rolls.attack", "No die shows 0", "Attack d100", "rolls.attack") == "No die shows 0"
    assert field_message("combatant.name", "must not be empty", "Name", "combatant.name") == "Name must not be empty"


def test_how_many_is_named_with_the_other_bad_fields():
    rs = get_ruleset("strike-rank")
    p = dict(rs.presets()[0], name="", count="many")
    with pytest.raises(InvalidFields) as e:
        reducer.apply(reducer.new_encounter("strike-rank", "x"), {"type": "add_combatant", "combatant": p})
    assert [x.field for x in e.value.errors] == ["combatant.name", "combatant.count"]


def test_a_stat_named_by_a_number_is_not_a_list_item():
    """The free-form stat "9" is named as typed, not as "Stat 10"."""
    said = field_message("combatant.stats.9", "a stat name is 1-24 letters", "Stats", "combatant.stats")
    assert said == "9: a stat name is 1-24 letters"


def _shown_text(markup: str) -> str:
    """What a GM reads of some markup: its text and its labels' words, without what a box holds (a
    table's rows as a file writes them) or the attributes."""
    import re
    markup = re.sub(r"<textarea[^>]*>.*?</textarea>", " ", str(markup), flags=re.S)
    return re.sub(r"<[^>]+>", " ", markup)


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round", "range-band", "freeform"])
def test_the_add_form_and_the_tables_say_no_json_and_no_plural_in_brackets(ruleset):
    """A GM's report: labels said "(JSON)" (the add form's box of weapons, the tables' "As JSON"), and
    "action(s)" sat on screen. A GM reads what the box holds ("as written in a Fray file") and a
    count in its own number ("1 major action")."""
    from fray.web.render import combatant_form
    from fray.web.tables_view import tables_form

    rs = get_ruleset(ruleset)
    shown = _shown_text(combatant_form(rs, None, rs.presets())) + _shown_text(
        tables_form(rs, reducer.new_encounter(ruleset, "x")))
    for panel in ("range_band.web.card", "strike_rank.web.add_form", "tactical_round.web.add_form"):
        import importlib
        shown += _shown_text(importlib.import_module(f"fray.games.{panel}").add_fields_html({}))
    assert "JSON" not in shown
    assert "(s)" not in shown


def test_counts_on_screen_say_their_own_number():
    from fray.games.base import counted
    assert [counted(n, "round") for n in (1, 2)] == ["1 round", "2 rounds"]
    assert counted(1, "major action") == "1 major action"
