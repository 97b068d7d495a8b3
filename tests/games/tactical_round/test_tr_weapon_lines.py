"""A weapon as one line of text (``tactical_round.weapon_lines``), the way the GM types the
weapons in the add form: read into the engine's weapon objects, written back, and a line the
engine refuses named by its number. The properties are the text's: Range Bands, "Each missile
and thrown weapon has a Base Range value"; Reloading, "The number of Rounds required to reload is
listed in the Weapon Table" and "Weapons with the Quick Load property can be reloaded as a Half
Action"."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction
from fray.games.tactical_round.combatant import check_weapons
from fray.games.tactical_round.weapon_lines import check_weapons_lines, parse_weapons, weapons_text
from tr_helpers import RS


@pytest.mark.parametrize("preset", RS.presets(), ids=lambda p: p["name"])
def test_weapon_lines_round_trip_every_ready_made_combatant(preset):
    text = weapons_text(preset.get("weapons", []))
    weapons, lines = parse_weapons(text)
    assert check_weapons(weapons, "w") == check_weapons(preset.get("weapons", []), "w")
    assert lines == list(range(1, len(weapons) + 1))


def test_weapon_lines_read_positional_numbers_flags_and_blank_lines():
    text = ("Light crossbow, 50, missile, 30, 1, quick_load, two_handed\n\n"
            "  Scimitar , 45, melee, shield=15, length=2\n"
            "Spear, 40, Thrown, 10, length=2.5, unloaded\n"
            "Heavy crossbow, 55, missile, range=40, reload=2, two-handed\n"
            "Fist, 10\n")
    weapons, lines = parse_weapons(text)
    assert lines == [1, 3, 4, 5, 6]
    assert weapons == [
        {"name": "Light crossbow", "cmb": 50, "kind": "missile", "base_range": 30, "reload": 1, "quick_load": True,
         "two_handed": True},
        {"name": "Scimitar", "cmb": 45, "kind": "melee", "shield": 15, "length": 2},
        {"name": "Spear", "cmb": 40, "kind": "thrown", "base_range": 10, "length": 2.5, "loaded": False},
        {"name": "Heavy crossbow", "cmb": 55, "kind": "missile", "base_range": 40, "reload": 2, "two_handed": True},
        {"name": "Fist", "cmb": 10},
    ]
    checked = check_weapons(weapons, "w")
    assert checked[2]["loaded"] is False and checked[4]["kind"] == "melee"
    assert weapons_text(checked).splitlines()[2] == "Spear, 40, thrown, 10, length=2.5, unloaded"


@pytest.mark.parametrize("line, words", [
    ("Crossbow, 50, missile, 30, 1, sharp", ["Line 2 (Crossbow)", "'sharp' is not a flag"]),
    ("Crossbow, 50, missile, 30, 1, 7", ["Line 2 (Crossbow)", "'7' is not a flag"]),
    ("Crossbow, 50, missile, thirty", ["Line 2 (Crossbow)", "'thirty' is not a number or a flag"]),
    ("Crossbow, 50, missile, 30, colour=red", ["Line 2 (Crossbow)", "unknown flag 'colour=red'"]),
    ("Crossbow", ["Line 2 (Crossbow)", "CMB"]),
    (", 50, melee", ["Line 2", "name"]),
])
def test_a_line_of_the_wrong_shape_is_named(line, words):
    with pytest.raises(InvalidAction) as e:
        parse_weapons("Sword, 40, melee\n" + line)
    assert e.value.field == "combatant.weapons"
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize("line, words", [
    ("Crossbow, lots, missile, 30", ["Line 3 (Crossbow): CMB", "whole number"]),
    ("Crossbow, 50, missile", ["Line 3 (Crossbow): base range", "needs a Base Range"]),
    ("Sling, 30, thrown, 20, quick_load", ["Line 3 (Sling): quick load", "only missile"]),
])
def test_the_engines_weapon_check_names_the_line(line, words):
    """Range Bands: "Each missile and thrown weapon has a Base Range value"; Reloading: "Weapons
    with the Quick Load property can be reloaded as a Half Action" (a missile weapon's): the
    engine's own check refuses a line against them, named by the line the GM typed (a blank line
    counted), at the weapons field."""
    weapons, lines = parse_weapons("Sword, 40, melee\n\n" + line)
    assert lines == [1, 3]
    with pytest.raises(InvalidAction) as e:
        check_weapons_lines(weapons, lines)
    assert e.value.field == "combatant.weapons"
    for w in words:
        assert w in str(e.value)
    check_weapons_lines(weapons[:1], lines[:1])  # the sword alone passes
