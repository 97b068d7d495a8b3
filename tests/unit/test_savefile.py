"""The JSON save format (issue 2, item 3: "JSON save format"; item 5: "a malformed or foreign file
gets a clear message and the current encounter is untouched").

Contracts: ``loads(dumps(h))`` gives the same present, actions, cursor and initial encounter;
every malformed variant raises SaveFileError whose ``path`` is the exact dotted path of the
first bad thing; loading never touches the History the GM already has.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import asdict

import pytest

from names import TEST_RULESET
from fray.errors import SaveFileError
from fray.history import History
from fray.model import SCHEMA_VERSION
from fray.reducer import new_encounter
from fray.savefile import FORMAT, dump_history, dumps, loads
from fray.savewords import describe


def sample_history() -> History:
    h = History(new_encounter("freeform", "Ford <b>ambush</b>"))
    for a in [
        {"type": "add_combatant", "combatant": {"name": "Orc", "stats": {"initiative": 12, "hp": 9, "kit": "axe"},
                                                "position": {"x": 1.5, "y": -2, "alt": 0}}},
        {"type": "add_combatant", "combatant": {"name": "Elf", "side": "party", "notes": "scout"}},
        {"type": "reorder", "order": ["c2", "c1"]},
        {"type": "set_condition", "id": "c1", "condition": "prone"},
        {"type": "advance"},
        {"type": "move", "id": "c2", "x": 3, "y": 4, "alt": 1},
        {"type": "note", "text": "Rain ✓ — «wet»"},
    ]:
        h.do(a)
    h.undo()
    return h


def same(a: History, b: History) -> None:
    assert asdict(a.present) == asdict(b.present)
    assert asdict(a.initial) == asdict(b.initial)
    assert a.actions == b.actions
    assert a.cursor == b.cursor


def test_round_trip_keeps_present_history_and_cursor():
    """A saved history loads back equal: present, initial, actions and cursor (with redo left)."""
    h = sample_history()
    back = loads(dumps(h))
    same(back, h)
    assert back.can_redo
    back.redo()
    h.redo()
    assert asdict(back.present) == asdict(h.present)


def test_round_trip_with_rolled_dice(dice_ruleset):
    """A history whose actions rolled dice loads back: the recorded dice replay to the saved log."""
    h = History(new_encounter(TEST_RULESET))
    h.do({"type": "add_combatant", "combatant": {"name": "T", "stats": {"hp": 60}}})
    for seed in range(4):
        h.do({"type": "hit", "target": "c1"}, random.Random(seed))
    h.do({"type": "hit", "target": "c1", "rolls": {"dmg": [6, 6]}})
    same(loads(dumps(h)), h)


def test_save_is_versioned_json():
    """The file says what it is and which schema wrote it."""
    data = json.loads(dumps(sample_history()))
    assert data["format"] == FORMAT == "fray-encounter"
    assert data["schema"] == SCHEMA_VERSION


def test_a_file_without_history_loads_as_a_fresh_history():
    """A file with only an encounter gives a history starting at it, with nothing to undo."""
    data = dump_history(sample_history())
    del data["history"]
    h = loads(json.dumps(data))
    assert asdict(h.present) == data["encounter"]
    assert not h.can_undo and not h.can_redo


def _set(data, path, value):
    keys = path.split(".")
    cur = data
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur[k]
    last = keys[-1]
    if value is DELETE:
        if isinstance(cur, list):
            del cur[int(last)]
        else:
            del cur[last]
    elif isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


DELETE = object()


@pytest.mark.parametrize(
    "path, value, where, fragment",
    [
        ("schema", SCHEMA_VERSION + 1, "schema", "newer Fray"),
        ("schema", 0, "schema", "unknown schema"),
        # issue 8: 'A schema of "1" or 1.0 should say "schema must be the whole number 1", not "missing"'
        ("schema", "1", "schema", "must be the whole number 1"),
        ("schema", 1.0, "schema", "must be the whole number 1"),
        ("schema", DELETE, "schema", "missing schema"),
        ("schema", True, "schema", "must be the whole number 1"),
        ("encounter", DELETE, "encounter", "must be an object"),
        ("encounter", [], "encounter", "must be an object"),
        ("encounter.name", DELETE, "encounter.name", "is missing"),
        ("encounter.round", "1", "encounter.round", "whole number"),
        ("encounter.round", True, "encounter.round", "whole number"),
        ("encounter.round", 0, "encounter.round", "from 1 to"),
        ("encounter.ruleset", "chess", "encounter.ruleset", "unknown ruleset 'chess'"),
        ("encounter.ruleset", 5, "encounter.ruleset", "ruleset id"),
        ("encounter.combatants", {}, "encounter.combatants", "a list"),
        ("encounter.combatants.0", "Orc", "encounter.combatants.0", "must be an object"),
        ("encounter.combatants.0.position.x", "far", "encounter.combatants.0.position.x", "a number"),
        ("encounter.combatants.0.position.x", None, "encounter.combatants.0.position.x", "a number"),
        ("encounter.combatants.0.position.x", True, "encounter.combatants.0.position.x", "a number"),
        ("encounter.combatants.0.position.x", 1e9, "encounter.combatants.0.position.x", "from -100000 to 100000"),
        ("encounter.combatants.0.position.alt", DELETE, "encounter.combatants.0.position.alt", "is missing"),
        ("encounter.combatants.1.position", [0, 0, 0], "encounter.combatants.1.position", "an object"),
        ("encounter.combatants.1.id", "c1", "encounter.combatants.1.id", "used twice"),
        ("encounter.combatants.1.name", "", "encounter.combatants.1.name", "must not be empty"),
        ("encounter.combatants.1.conditions", ["prone", 3], "encounter.combatants.1.conditions.1", "text"),
        ("encounter.combatants.0.stats.hp", [1], "encounter.combatants.0.stats.hp", "number or a short text"),
        ("encounter.combatants.0.data", {"x": {1, 2}}, "encounter.combatants.0.data.x", "not JSON"),
        ("encounter.order_override.0", "c9", "encounter.order_override.0", "names no combatant"),
        ("encounter.order_override.1", 2, "encounter.order_override.1", "combatant id"),
        ("encounter.tables", {"hit_locations": {"entries": []}}, "encounter.tables.hit_locations", "no table"),
        ("encounter.log.0.seq", "1", "encounter.log.0.seq", "whole number"),
        ("encounter.log.2", None, "encounter.log.2", "must be an object"),
        ("history", [], "history", "initial, actions and cursor"),
        ("history.initial", DELETE, "history.initial", "must be an object"),
        ("history.initial.ruleset", "chess", "history.initial.ruleset", "unknown ruleset"),
        ("history.actions", {}, "history.actions", "a list"),
        ("history.cursor", 99, "history.cursor", "from 0 to 7"),
        ("history.cursor", -1, "history.cursor", "from 0 to 7"),
        ("history.cursor", "6", "history.cursor", "from 0 to 7"),
        ("history.cursor", DELETE, "history.cursor", "from 0 to 7"),
        ("history.actions.3.id", "c9", "history.actions.3.id", "that combatant is no longer in this encounter"),
        ("history.actions.0.combatant.name", "", "history.actions.0.combatant.name", "must not be empty"),
        ("history.actions.5", {"type": "teleport"}, "history.actions.5.type", "no action 'teleport'"),
        ("history.actions.2.order", ["c1", "c1"], "history.actions.2.order", "twice"),
        # replays, but not to the saved encounter: an edited file
        ("encounter.name", "Edited by hand", "encounter", "does not match what its history replays to"),
        ("encounter.combatants.0.stats.hp", 99, "encounter", "does not match"),
        ("history.cursor", 7, "encounter", "does not match"),
        ("history.actions.5.x", 8, "encounter", "does not match"),
    ],
)
def test_malformed_file_names_the_exact_path(path, value, where, fragment):
    """Each malformed variant raises SaveFileError whose ``path`` is the first bad field."""
    data = dump_history(sample_history())
    data = copy.deepcopy(data)
    _set(data, path, value)
    text = json.dumps(data, default=list)
    if path == "encounter.combatants.0.data":  # a set is not JSON: feed the data in directly
        from fray.savefile import load_data

        with pytest.raises(SaveFileError) as info:
            load_data(data)
    else:
        with pytest.raises(SaveFileError) as info:
            loads(text)
    assert info.value.path == where
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"{where}: ")


def test_history_initial_ruleset_must_match():
    """A history whose start is another ruleset than its present is rejected at that path."""
    from fray.games import register
    from fray.games.freeform import FreeForm

    class Other(FreeForm):
        id = "other-freeform"

    register(Other())
    try:
        data = dump_history(sample_history())
        data["history"]["initial"]["ruleset"] = "other-freeform"
        with pytest.raises(SaveFileError) as info:
            loads(json.dumps(data))
        assert info.value.path == "history.initial.ruleset"
    finally:
        from fray import games

        games._REGISTRY.pop("other-freeform", None)


NOT_A_SAVE = "it is not a Fray encounter file (the kind the toolbar's Export writes)"


@pytest.mark.parametrize(
    "text, said",
    [("", NOT_A_SAVE + "; the file is empty"), ("{", NOT_A_SAVE + "; its text goes wrong at line 1, column 2"),
     ("<html></html>", NOT_A_SAVE + "; its text goes wrong at line 1, column 1"), ("[1, 2]", NOT_A_SAVE),
     ("null", NOT_A_SAVE), ('"fray"', NOT_A_SAVE), ('{"name": "left-pad", "version": "1.0.0"}', NOT_A_SAVE),
     ('{"format": "something-else", "schema": 3}', NOT_A_SAVE),
     ('{"format": "fray-bestiary", "version": 1, "templates": []}',
      "it is a Fray bestiary file, not a Fray encounter file: import it in My bestiary"),
     ('{"format": "fray-campaign", "version": 1}',
      "it is a Fray party file, not a Fray encounter file: import it in Party, with Import a party")],
)
def test_not_a_fray_file(text, said):
    """A file that is not a save at all is refused whole (path ""), in the GM's words: what it is not,
    the kind of file the page wanted, and where a text that is not JSON goes wrong, never the parser's
    "not JSON: Expecting value" (a GM's import of a broken file); another Fray file is named, with
    where it goes."""
    with pytest.raises(SaveFileError) as info:
        loads(text)
    assert info.value.path == ""
    assert describe(info.value, text) == said


def test_oversized_file_is_refused(monkeypatch):
    """A file over the size limit is refused before parsing."""
    import fray.savefile as sf

    monkeypatch.setattr(sf, "MAX_FILE_BYTES", 100)
    with pytest.raises(SaveFileError, match="larger than"):
        sf.loads(dumps(sample_history()))


def test_a_failed_load_leaves_the_current_history_untouched():
    """Loading a bad file raises and the History the GM has keeps its present, actions and cursor."""
    current = sample_history()
    before = (asdict(current.present), copy.deepcopy(current.actions), current.cursor, asdict(current.initial))
    data = json.loads(dumps(current))
    data["history"]["actions"][3]["id"] = "c9"
    data["encounter"]["combatants"][0]["name"] = "Tampered"
    with pytest.raises(SaveFileError):
        loads(json.dumps(data))
    assert (asdict(current.present), current.actions, current.cursor, asdict(current.initial)) == before
