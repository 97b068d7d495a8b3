"""The condition form (issue 10, "Conditions with durations ... with the ruleset's own conditions
offered first"): the game's conditions come first with what each does, any other by name, and
how long it lasts; turn durations are offered only where combatants take turns."""

from __future__ import annotations

import pytest

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.web import render as R
from fray.web.html import escape


def enc_of(ruleset_id, n=2):
    rs = get_ruleset(ruleset_id)
    enc = new_encounter(ruleset_id)
    presets = rs.presets()
    for i in range(n):
        c = {**presets[i % len(presets)], "name": f"<i>N{i}</i>"} if presets else {"name": f"<i>N{i}</i>"}
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    return enc, rs


@pytest.mark.parametrize("rid", ["strike-rank", "tactical-round", "range-band"])
def test_the_games_own_conditions_come_first_with_what_they_do(rid):
    enc, rs = enc_of(rid)
    html = R.condition_form(enc.combatants[0], rs.conditions, enc, rs)
    assert rs.conditions, f"{rid} names its conditions"
    first, text = next(iter(rs.conditions.items()))
    assert html.index('name="pick"') < html.index('name="condition"')
    assert f'value="{first}"' in html and escape(text) in html


@pytest.mark.parametrize("rid, turns", [("strike-rank", False), ("tactical-round", False), ("range-band", True),
                                        ("freeform", True)])
def test_turn_durations_only_where_there_are_turns(rid, turns):
    enc, rs = enc_of(rid)
    html = R.condition_form(enc.combatants[0], rs.conditions, enc, rs)
    assert ('value="turn_end"' in html) is turns and ('name="of"' in html) is turns
    assert 'value="rounds"' in html


def test_names_are_text_in_the_form():
    enc, rs = enc_of("freeform")
    html = R.condition_form(enc.combatants[0], rs.conditions, enc, rs)
    assert "<i>" not in html and "&lt;i&gt;N0" in html


def test_a_condition_already_on_cannot_be_picked_again():
    enc, rs = enc_of("tactical-round")
    name = next(iter(rs.conditions))
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": name})
    html = R.condition_form(enc.get("c1"), rs.conditions, enc, rs)
    assert f'value="{name}" disabled' in html and "(already on)" in html


@pytest.mark.parametrize("values, action", [
    ({"pick": "stunned", "condition": "", "lasts": ""}, {"condition": "stunned"}),
    ({"pick": "stunned", "condition": "Hexed", "lasts": ""}, {"condition": "Hexed"}),
    ({"condition": "prone", "lasts": "rounds", "rounds": " 3 "}, {"condition": "prone", "lasts": {"rounds": 3}}),
    ({"condition": "prone", "lasts": "rounds", "rounds": "two"}, {"condition": "prone", "lasts": {"rounds": "two"}}),
    ({"condition": "prone", "lasts": "turn_end", "of": "c2"}, {"condition": "prone",
                                                               "lasts": {"until": "turn_end", "of": "c2"}}),
])
def test_condition_action_from_the_forms_values(values, action):
    assert R.condition_action("c1", values) == {"type": "set_condition", "id": "c1", "on": True, **action}


def test_a_timed_condition_shows_what_is_left_on_its_chip():
    enc, rs = enc_of("freeform")
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "stunned", "lasts": {"rounds": 2}})
    html = R.combatant_card(enc, enc.get("c1"), rs)
    assert '<span class="cond-left">2 rounds left</span>' in html
