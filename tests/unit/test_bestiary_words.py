"""A bestiary file that is refused says what is wrong in the GM's words: the template by its number
and name, the field by its label, never the engine's dotted path ("templates.0 (Rat): combatant.side")."""

from __future__ import annotations

import json

import pytest

from fray import bestiary
from fray.errors import InvalidAction
from fray.web.words import bestiary_message


def refused(templates=None, text: str | None = None) -> str:
    if text is None:
        text = json.dumps({"format": "fray-bestiary", "version": 1, "templates": templates})
    with pytest.raises(InvalidAction) as e:
        bestiary.loads(text)
    return bestiary_message(e.value.field, e.value.message)


WARRIOR = {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 13}


@pytest.mark.parametrize("templates, text, said", [
    ([{"ruleset": "freeform", "combatant": {"name": "Rat", "side": "vermin"}}], None,
     "Template 1 (Rat): Side must be one of party, foes, neutral"),
    ([{"ruleset": "strike-rank", "combatant": {"name": "Broo", "stats": {**WARRIOR, "STR": "x"}}}], None,
     "Template 1 (Broo): STR must be a whole number, not 'x'"),
    ([{"ruleset": "strike-rank", "combatant": {"name": "Rat", "stats": WARRIOR}},
      {"ruleset": "strike-rank", "combatant": {"name": "Broo", "stats": WARRIOR, "weapons": [{"name": "Axe"}]}}],
     None, "Template 2 (Broo): Weapon 1:"),
    ([{"ruleset": "no such game", "combatant": {}}], None, "Template 1: there is no ruleset 'no such game'"),
    (None, "{", "The file is not JSON"),
    (None, '{"format": "a save"}', "The file is not a Fray bestiary"),
])
def test_a_refused_bestiary_file_names_template_and_field_in_words(templates, text, said):
    got = refused(templates, text)
    assert got.startswith(said), got
    assert "templates." not in got and "combatant." not in got and "stats." not in got, got
