"""The one reducer (issue 2, item 3: "One reducer").

Contracts: ``apply(encounter, action) -> (encounter, events)`` over plain JSON-able actions; errors
by cause (InvalidAction names the field, RuleViolation names the rule); the input encounter is
never edited, not even when the action fails; actions carry their dice, so ``prepare`` records
the rolls and ``apply`` replays them with no random source.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from names import TEST_RULESET
from fray.errors import InvalidAction, RuleViolation
from fray.model import Position
from fray.reducer import MAX_NAME, apply, new_encounter, prepare


def add(enc, name="Orc", **fields):
    new, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": name, **fields}})
    return new


@pytest.fixture
def two():
    """A free-form encounter with an orc (c1, initiative 12) and a hero (c2, initiative 15)."""
    enc = new_encounter("freeform", "Bridge")
    enc = add(enc, "Orc", side="foes", stats={"initiative": 12, "hp": 9})
    enc = add(enc, "Hero", side="party", stats={"initiative": 15, "hp": 14})
    return enc


def apply_unchanged(enc, action):
    """Apply and check the input encounter did not change, whatever happened."""
    before = asdict(enc)
    try:
        return apply(enc, action)
    finally:
        assert asdict(enc) == before, "apply edited its input encounter"


# -- core actions ----------------------------------------------------------------------------------

def test_add_combatant_assigns_stable_ids_and_logs(two):
    """Each new combatant gets the next id (c1, c2, ...) and a log line saying who joined."""
    assert [(c.id, c.name, c.side) for c in two.combatants] == [("c1", "Orc", "foes"), ("c2", "Hero", "party")]
    assert two.next_id == 3
    assert two.combatants[0].stats == {"initiative": 12, "hp": 9}
    assert [e.text for e in two.log] == ["Orc joins the fight (foes)", "Hero joins the fight (party)"]
    assert [e.seq for e in two.log] == [1, 2]


def test_add_combatant_with_position_notes_and_string_stats():
    """A free-form stat typed as "12" is stored as the number 12; position and notes are kept."""
    enc = add(new_encounter("freeform"), "Scout", notes="hides", stats={"init": "12", "move": "1.5", "kit": "bow"},
              position={"x": 3, "y": -4, "alt": 2})
    c = enc.combatants[0]
    assert c.stats == {"init": 12, "move": 1.5, "kit": "bow"}
    assert c.position == Position(3.0, -4.0, 2.0)
    assert c.notes == "hides"


def test_ids_are_not_reused_after_removal(two):
    """Removing c2 and adding again gives c3: an id always means the same combatant in the log."""
    enc, _ = apply(two, {"type": "remove_combatant", "id": "c2"})
    enc = add(enc, "Troll")
    assert [c.id for c in enc.combatants] == ["c1", "c3"]


def test_edit_combatant_changes_the_named_fields(two):
    """Editing name, side, notes and stats changes exactly those; free-form stats are replaced."""
    enc, events = apply_unchanged(two, {"type": "edit_combatant", "id": "c1",
                                        "changes": {"name": "Orc chief", "side": "neutral", "notes": "angry",
                                                    "stats": {"initiative": 13}}})
    c = enc.get("c1")
    assert (c.name, c.side, c.notes, c.stats) == ("Orc chief", "neutral", "angry", {"initiative": 13})
    assert enc.get("c2") == two.get("c2")
    assert events == [{"kind": "combatant", "text": "Orc chief: edited name, side, notes, stats",
                       "detail": {"id": "c1"}}]


def test_remove_combatant_also_drops_it_from_the_gm_order(two):
    """A removed combatant leaves the list and the GM's tie order."""
    enc, _ = apply(two, {"type": "reorder", "order": ["c2", "c1"]})
    enc, events = apply(enc, {"type": "remove_combatant", "id": "c1"})
    assert [c.id for c in enc.combatants] == ["c2"]
    assert enc.order_override == ["c2"]
    assert events[0]["text"] == "Orc leaves the fight"


def test_move_sets_position_and_keeps_unspecified_axes(two):
    """Moving gives x, y in metres; an axis not given stays where it was."""
    enc, _ = apply(two, {"type": "move", "id": "c1", "x": 5, "y": 2.5, "alt": 3})
    enc, events = apply(enc, {"type": "move", "id": "c1", "x": -1})
    assert enc.get("c1").position == Position(-1.0, 2.5, 3.0)
    assert events[0]["detail"] == {"id": "c1", "x": -1.0, "y": 2.5, "alt": 3.0}
    assert events[0]["text"] == "Orc moves to (-1, 2.5) m, altitude 3 m"


def test_set_condition_on_and_off_lower_cased(two):
    """Conditions are switched on and off by name, stored lower-case, each with a log line."""
    enc, _ = apply(two, {"type": "set_condition", "id": "c1", "condition": "Prone"})
    assert enc.get("c1").conditions == ["prone"]
    enc, events = apply(enc, {"type": "set_condition", "id": "c1", "condition": "prone", "on": False})
    assert enc.get("c1").conditions == []
    assert events[0]["text"] == "Orc is no longer prone"


def test_note_adds_a_log_line_only(two):
    """A note is a log line; nothing else changes."""
    enc, events = apply(two, {"type": "note", "text": "  Bridge is slippery  "})
    assert events == [{"kind": "note", "text": "Bridge is slippery", "detail": {}}]
    assert enc.log[-1].text == "Bridge is slippery" and enc.log[-1].seq == 3
    assert enc.combatants == two.combatants


def test_rename_encounter(two):
    """Renaming the encounter changes its name and logs it."""
    enc, _ = apply(two, {"type": "rename_encounter", "name": "Ambush  at\tthe ford"})
    assert enc.name == "Ambush at the ford"


def test_reorder_sets_the_gm_tie_order_and_freeform_order_follows_initiative_then_it(two):
    """Free-form order is higher initiative first; the GM's order settles ties only."""
    rs_order = lambda e: [s.combatant_id for s in __import__("fray.games", fromlist=["x"]).get_ruleset(
        "freeform").order_of_play(e)]
    assert rs_order(two) == ["c2", "c1"]
    enc, _ = apply(two, {"type": "edit_combatant", "id": "c1", "changes": {"stats": {"initiative": 15}}})
    assert rs_order(enc) == ["c1", "c2"]  # a tie: order added
    enc, _ = apply(enc, {"type": "reorder", "order": ["c2", "c1"]})
    assert enc.order_override == ["c2", "c1"]
    assert rs_order(enc) == ["c2", "c1"]


def test_advance_starts_round_then_walks_turns_then_next_round(two):
    """advance: setup → round 1 begins; then each turn; after the last turn the next round."""
    enc, events = apply(two, {"type": "advance"})
    assert (enc.phase, enc.round, enc.turn) == ("turns", 1, 0)
    assert events[0]["text"] == "Round 1 begins"
    enc, events = apply(enc, {"type": "advance"})
    assert (enc.round, enc.turn, events) == (1, 1, [])
    enc, events = apply(enc, {"type": "advance"})
    assert (enc.round, enc.turn) == (2, 0)
    assert events[0]["text"] == "Round 2 begins"
    assert enc.log[-1].round == 2


@pytest.mark.parametrize("value", [{"entries": []}, None])
def test_set_table_on_freeform_is_not_applicable(two, value):
    """Free-form has no tables: editing or resetting one is an InvalidAction naming ``table``."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(two, {"type": "set_table", "table": "hit_locations", "value": value})
    assert info.value.field == "table"


# -- errors by cause -----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "action, field",
    [
        ("not an action", "action"),
        ({}, "type"),
        ({"type": 3}, "type"),
        ({"type": "fly"}, "type"),
        ({"type": "add_combatant"}, "combatant"),
        ({"type": "add_combatant", "combatant": {"name": ""}}, "combatant.name"),
        ({"type": "add_combatant", "combatant": {"name": "x" * (MAX_NAME + 1)}}, "combatant.name"),
        ({"type": "add_combatant", "combatant": {"name": 5}}, "combatant.name"),
        ({"type": "add_combatant", "combatant": {"name": "A", "side": "villains"}}, "combatant.side"),
        ({"type": "add_combatant", "combatant": {"name": "A", "stats": {"1hp": 3}}}, "combatant.stats.1hp"),
        ({"type": "add_combatant", "combatant": {"name": "A", "stats": {"hp": [3]}}}, "combatant.stats.hp"),
        ({"type": "add_combatant", "combatant": {"name": "A", "stats": {"hp": True}}}, "combatant.stats.hp"),
        ({"type": "add_combatant", "combatant": {"name": "A", "stats": []}}, "combatant.stats"),
        ({"type": "add_combatant", "combatant": {"name": "A", "notes": 4}}, "combatant.notes"),
        ({"type": "add_combatant", "combatant": {"name": "A", "position": {"x": "far"}}}, "combatant.position.x"),
        ({"type": "add_combatant", "combatant": {"name": "A", "position": {"y": 1e9}}}, "combatant.position.y"),
        ({"type": "add_combatant", "combatant": {"name": "A", "position": 3}}, "combatant.position"),
        ({"type": "add_combatant", "combatant": {"name": "A", "weapon": "axe"}}, "combatant"),
        ({"type": "edit_combatant", "id": "c1"}, "changes"),
        ({"type": "edit_combatant", "id": "c1", "changes": {}}, "changes"),
        ({"type": "edit_combatant", "id": "c9", "changes": {"name": "B"}}, "id"),
        ({"type": "edit_combatant", "changes": {"name": "B"}}, "id"),
        ({"type": "edit_combatant", "id": "c1", "changes": {"side": "x"}}, "changes.side"),
        ({"type": "edit_combatant", "id": "c1", "changes": {"stats": 5}}, "changes.stats"),
        ({"type": "remove_combatant", "id": "c9"}, "id"),
        ({"type": "move", "id": "c1", "x": float("nan")}, "x"),  # the gate names the path in the action
        ({"type": "move", "id": "c1", "alt": 1e6}, "position.alt"),
        ({"type": "move", "id": 1}, "id"),
        ({"type": "set_condition", "id": "c1"}, "condition"),
        ({"type": "set_condition", "id": "c1", "condition": "prone", "on": "yes"}, "on"),
        ({"type": "note", "text": "   "}, "text"),
        ({"type": "note", "text": None}, "text"),
        ({"type": "note", "text": "x" * 2001}, "text"),
        ({"type": "rename_encounter"}, "name"),
        ({"type": "reorder", "order": "c1,c2"}, "order"),
        ({"type": "reorder", "order": ["c1", "c7"]}, "order.1"),
        ({"type": "reorder", "order": ["c1", "c1"]}, "order"),
        ({"type": "set_table", "table": 3, "value": {"entries": []}}, "table"),
        ({"type": "advance", "rolls": [1, 2]}, "rolls"),
    ],
)
def test_unreadable_action_raises_invalid_action_naming_the_field(two, action, field):
    """An action that cannot be read raises InvalidAction whose ``field`` is the dotted path of the
    bad input; the encounter passed in is unchanged."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(two, action)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")


@pytest.mark.parametrize(
    "setup, action, rule",
    [
        ([], {"type": "set_condition", "id": "c1", "condition": "prone", "on": False}, "conditions"),
        ([{"type": "set_condition", "id": "c1", "condition": "prone"}],
         {"type": "set_condition", "id": "c1", "condition": "PRONE"}, "conditions"),
    ],
)
def test_forbidden_action_raises_rule_violation_naming_the_rule(two, setup, action, rule):
    """A readable action the rules forbid raises RuleViolation with ``rule`` set; nothing changes."""
    enc = two
    for a in setup:
        enc, _ = apply(enc, a)
    with pytest.raises(RuleViolation) as info:
        apply_unchanged(enc, action)
    assert info.value.rule == rule
    assert f"(rule: {rule})" in str(info.value)


def test_encounter_size_is_a_rule(monkeypatch):
    """More than MAX_COMBATANTS is forbidden by the rules (RuleViolation), not unreadable."""
    import fray.reducer as reducer

    monkeypatch.setattr(reducer, "MAX_COMBATANTS", 2)
    enc = add(add(new_encounter("freeform"), "A"), "B")
    with pytest.raises(RuleViolation) as info:
        apply_unchanged(enc, {"type": "add_combatant", "combatant": {"name": "C"}})
    assert info.value.rule == "encounter size"


def test_errors_are_value_errors():
    """Both error families are ValueErrors, so a caller can catch "bad input" in one place."""
    assert issubclass(InvalidAction, ValueError) and issubclass(RuleViolation, ValueError)


def test_unknown_ruleset_is_invalid():
    """An encounter for a ruleset that is not registered cannot be created."""
    with pytest.raises(InvalidAction) as info:
        new_encounter("no-such-game")
    assert info.value.field == "ruleset"
    assert "freeform" in str(info.value)


# -- the input is never edited ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "action",
    [
        {"type": "edit_combatant", "id": "c1", "changes": {"stats": {"hp": 1}, "notes": "x"}},
        {"type": "move", "id": "c2", "x": 9, "y": 9},
        {"type": "set_condition", "id": "c2", "condition": "stunned"},
        {"type": "remove_combatant", "id": "c1"},
        {"type": "reorder", "order": ["c2"]},
        {"type": "advance"},
        {"type": "note", "text": "hello"},
    ],
)
def test_successful_apply_returns_a_new_encounter_and_leaves_the_input_alone(two, action):
    """The reducer works on a copy: the returned encounter differs, the input is as it was."""
    new, _ = apply_unchanged(two, action)
    assert new is not two
    assert asdict(new) != asdict(two)


def test_edit_failing_midway_leaves_the_input_alone(two):
    """An edit whose first change is valid and second is not still leaves the input untouched."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(two, {"type": "edit_combatant", "id": "c1", "changes": {"name": "New", "side": "bad"}})
    assert info.value.field == "changes.side"
    assert two.get("c1").name == "Orc"


def test_the_returned_encounter_shares_what_the_action_left_alone(two):
    """Issue 11: "Make an action copy only what it changes ... so history memory is proportional
    to what changed". Encounters are never edited once made, so the new one shares every
    combatant the action did not change with the input, and the changed one is a new object."""
    before = asdict(two)
    new, _ = apply(two, {"type": "note", "text": "n"})
    assert all(a is b for a, b in zip(new.combatants, two.combatants))
    assert new.state is two.state and new.tables is two.tables
    moved, _ = apply(new, {"type": "move", "id": "c2", "x": 7})
    assert moved.combatants[0] is two.combatants[0]
    assert moved.combatants[1] is not two.combatants[1] and moved.combatants[1].position.x == 7
    assert asdict(two) == before


# -- names are text -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "<b>Orc</b> & \"Co\"", "O'Brien &amp; <i>"])
def test_names_full_of_html_are_kept_as_text(name):
    """Names are shown with textContent, so markup is kept verbatim (not stripped or escaped)."""
    enc = add(new_encounter("freeform", name), name)
    assert enc.name == name
    assert enc.combatants[0].name == name
    assert enc.log[-1].text == f"{name} joins the fight (foes)"


@pytest.mark.parametrize("bad", ["Orc\x00", "Or\x07c", "\x1b[31mOrc", "Orc\x7f", "A\x08B"])
def test_control_characters_in_names_are_rejected(two, bad):
    """A name with control characters is an InvalidAction on the name field."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(two, {"type": "add_combatant", "combatant": {"name": bad}})
    assert info.value.field == "combatant.name"
    assert "control characters" in str(info.value)
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(two, {"type": "rename_encounter", "name": bad})
    assert info.value.field == "name"


def test_freeform_stats_stay_json_numbers_or_text():
    """Free-form stats are finite numbers or short text: "nan"/"inf"/"1e999" stay text, a non-finite
    number is refused, and a stat name cannot end in a line break (all would break the save file)."""
    enc = add(new_encounter("freeform"), "A", stats={"luck": "nan", "reach": "inf", "far": "1e999", "hp": " 7 "})
    assert enc.combatants[0].stats == {"luck": "nan", "reach": "inf", "far": "1e999", "hp": 7}
    for bad, field in [({"hp": float("nan")}, "combatant.stats.hp"), ({"hp": float("-inf")}, "combatant.stats.hp"),
                       ({"hp\n": 3}, "combatant.stats.hp\n"), ({"hp": "9" * 5000}, "combatant.stats.hp")]:
        with pytest.raises(InvalidAction) as info:
            apply_unchanged(enc, {"type": "add_combatant", "combatant": {"name": "B", "stats": bad}})
        assert info.value.field == field


def test_whitespace_in_names_is_folded():
    """Runs of spaces, tabs and line breaks in a name fold to single spaces and are trimmed."""
    enc = add(new_encounter("freeform"), "  Big \t\n Orc ")
    assert enc.combatants[0].name == "Big Orc"


def test_actions_and_results_are_json(two):
    """Actions and the resulting encounter and events are plain JSON data."""
    action = {"type": "move", "id": "c1", "x": 1, "y": 2}
    new, events = apply(two, json.loads(json.dumps(action)))
    assert json.loads(json.dumps(asdict(new))) == asdict(new)
    assert json.loads(json.dumps(events)) == events


# -- actions carry their dice ---------------------------------------------------------------------------------

@pytest.fixture
def dice_enc(dice_ruleset):
    enc = new_encounter(TEST_RULESET)
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": "Target", "stats": {"hp": 20}}})
    return enc


class ScriptedRng:
    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


def test_prepare_records_the_rolls_in_the_action(dice_enc):
    """prepare rolls what the action needs from the source given and records it under its name."""
    recorded, new, events = prepare(dice_enc, {"type": "hit", "target": "c1"}, ScriptedRng([4, 6]))
    assert recorded == {"type": "hit", "target": "c1", "rolls": {"dmg": {"faces": [4, 6], "typed": False}}}
    assert new.get("c1").stats["hp"] == 10
    assert events[0]["detail"]["faces"] == [4, 6]
    assert json.loads(json.dumps(recorded)) == recorded


def test_recorded_action_replays_to_the_same_result_without_rng(dice_enc):
    """apply(recorded action) needs no random source and gives exactly what prepare gave."""
    for seed in range(20):
        recorded, new, events = prepare(dice_enc, {"type": "hit", "target": "c1"}, random.Random(seed))
        again, events_again = apply(dice_enc, recorded)
        assert asdict(again) == asdict(new)
        assert events_again == events
        assert events[0]["detail"]["typed"] is False and "(typed)" not in events[0]["text"]


def test_stored_roll_object_keeps_its_typed_flag(dice_enc):
    """A stored roll may be ``{"faces": [...], "typed": bool}``; the flag is honoured and checked."""
    _, ev = apply(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": {"faces": [1, 2], "typed": False}}})
    assert ev[0]["detail"]["typed"] is False
    _, ev = apply(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": {"faces": [1, 2]}}})
    assert ev[0]["detail"]["typed"] is True
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": {"faces": [1, 2], "typed": "no"}}})
    assert info.value.field == "rolls.dmg.typed"


def test_missing_roll_without_rng_is_invalid_action_naming_the_roll(dice_enc):
    """Applying an action that needs dice it does not carry names ``rolls.dmg``."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(dice_enc, {"type": "hit", "target": "c1"})
    assert info.value.field == "rolls.dmg"
    assert "2D6" in str(info.value)


def test_typed_rolls_are_used_as_typed(dice_enc):
    """Dice a GM typed are used as they are, marked typed, and not re-rolled by prepare."""
    class NoRng:
        def randint(self, a, b):
            raise AssertionError("a typed roll must not be re-rolled")

    recorded, new, events = prepare(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": [2, 3]}}, NoRng())
    assert new.get("c1").stats["hp"] == 15
    assert events[0]["detail"]["typed"] is True
    assert "(typed)" in events[0]["text"]
    again, _ = apply(dice_enc, recorded)
    assert asdict(again) == asdict(new)


def test_typed_total_for_two_dice(dice_enc):
    """A typed total for 2D6 is used as the total."""
    new, events = apply(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": 9}})
    assert new.get("c1").stats["hp"] == 11
    assert events[0]["detail"]["total"] == 9


@pytest.mark.parametrize("given", [[7, 1], [3], 13, "35", [True, 2]])
def test_bad_typed_roll_is_invalid_action_naming_the_roll(dice_enc, given):
    """A typed roll that does not fit 2D6 names ``rolls.dmg``, and the encounter stays as it was."""
    with pytest.raises(InvalidAction) as info:
        apply_unchanged(dice_enc, {"type": "hit", "target": "c1", "rolls": {"dmg": given}})
    assert info.value.field == "rolls.dmg"


def test_typed_d100_of_00_means_100(dice_enc):
    """A percentile die typed as 00 reads as 100."""
    new, _ = apply(dice_enc, {"type": "pct", "target": "c1", "rolls": {"pct": 0}})
    assert new.get("c1").data["pct"] == 100


def test_ruleset_rule_violation_names_its_rule(dice_enc):
    """A ruleset's own RuleViolation reaches the caller with its rule name; nothing changes."""
    enc, _ = apply(dice_enc, {"type": "set_condition", "id": "c1", "condition": "down"})
    with pytest.raises(RuleViolation) as info:
        apply_unchanged(enc, {"type": "hit", "target": "c1", "rolls": {"dmg": [1, 1]}})
    assert info.value.rule == "Down combatants"
