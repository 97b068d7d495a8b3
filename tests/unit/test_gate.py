"""One gate (issue 8, item 2: "One gate: the loader accepts exactly what the actions accept").

Issue 8: "Today an imported or autosaved file can hold what no action could create: side
"villains", control characters in names, a 100,000-character note (actions allow 2,000),
`next_id` −5, 10,000 combatants (actions stop at 200), NaN and Infinity, tables nested deeper
than the loader itself later accepts." and "Make every value that enters (typed, imported,
autosaved, replayed) pass the same checks, with the same messages naming the path; numbers must
be finite everywhere; one depth and size limit."

Each case below is refused by the action *and* by the loader, with the same message, the path
differing only by where the value sits (``combatant.name`` in the action,
``encounter.combatants.0.name`` in the file).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict

import pytest

from fray import gate, savefile
from fray.errors import InvalidAction, RuleViolation, SaveFileError
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.savefile import dump_history, dumps, load_data, loads


def one_orc() -> History:
    h = History(new_encounter("freeform", "Ford"))
    h.do({"type": "add_combatant", "combatant": {"name": "Orc", "stats": {"initiative": 9}}})
    return h


def file_without_history(h: History) -> dict:
    data = dump_history(h)
    del data["history"]
    return data


def refused_by_file(edit) -> SaveFileError:
    data = file_without_history(one_orc())
    edit(data["encounter"])
    with pytest.raises(SaveFileError) as e:
        load_data(json.loads(json.dumps(data)))
    return e.value


def refused_by_action(action) -> InvalidAction:
    enc = one_orc().present
    before = asdict(enc)
    with pytest.raises(InvalidAction) as e:
        apply(enc, action)
    assert asdict(enc) == before
    return e.value


def c0(enc: dict) -> dict:
    return enc["combatants"][0]


# (what the issue names, edit of the saved combatant, the same value as an add_combatant field)
SAME_CHECKS = [
    ('side "villains"', "side", "villains"),
    ("control characters in names", "name", "Orc\x07"),
    ("a 100,000-character note (actions allow 2,000)", "notes", "n" * 100_000),
    ("a name longer than the actions allow", "name", "x" * 61),
]


@pytest.mark.parametrize("why, key, value", SAME_CHECKS, ids=[c[0] for c in SAME_CHECKS])
def test_the_loader_refuses_what_the_action_refuses_with_the_same_message(why, key, value):
    """Issue 8: the loader must accept exactly what actions accept, "with the same messages naming the path"."""
    from_file = refused_by_file(lambda enc: c0(enc).__setitem__(key, value))
    from_action = refused_by_action({"type": "add_combatant", "combatant": {"name": "Elf", key: value}})
    assert from_file.path == f"encounter.combatants.0.{key}"
    assert from_action.field == f"combatant.{key}"
    assert str(from_file).split(": ", 1)[1] == from_action.message


def test_a_name_with_spaces_no_action_writes_is_refused():
    """Names are stored as clean_name writes them (one space between words); a file with other
    spacing could not have been made by an action."""
    e = refused_by_file(lambda enc: c0(enc).__setitem__("name", "  Orc "))
    assert e.path == "encounter.combatants.0.name"


@pytest.mark.parametrize("next_id", [-5, 0, 10**12])
def test_next_id_must_be_sane(next_id):
    """Issue 8: "`next_id` −5" is accepted today."""
    e = refused_by_file(lambda enc: enc.__setitem__("next_id", next_id))
    assert e.path == "encounter.next_id" and "whole number from 1 to" in str(e)


def test_a_combatant_id_no_action_makes_is_refused():
    e = refused_by_file(lambda enc: c0(enc).__setitem__("id", "boss"))
    assert e.path == "encounter.combatants.0.id"


def test_a_condition_no_action_makes_is_refused():
    e = refused_by_file(lambda enc: c0(enc).__setitem__("conditions", ["Prone"]))
    assert e.path == "encounter.combatants.0.conditions.0"


def test_ten_thousand_combatants_are_refused_at_once(monkeypatch):
    """Issue 8: "Importing 10,000 combatants freezes the page for 80–120 s ... The gate (item 2)
    refuses it at once." and "10,000 combatants (actions stop at 200)"."""
    data = file_without_history(one_orc())
    orc = c0(data["encounter"])
    data["encounter"]["combatants"] = [{**orc, "id": f"c{i + 1}", "position": {"x": i % 100, "y": i // 100, "alt": 0}}
                                       for i in range(10_000)]
    data["encounter"]["next_id"] = 10_001
    text = json.dumps(data)

    def map_rules_called(*a, **k):
        raise AssertionError("the rules were asked about 10,000 combatants")

    monkeypatch.setattr(savefile, "check_readable", map_rules_called)
    t0 = time.perf_counter()
    with pytest.raises(SaveFileError) as e:
        loads(text)
    assert time.perf_counter() - t0 < 5.0  # was 80-120 s in the page; about 0.1 s here
    assert e.value.path == "encounter.combatants" and "at most 200" in str(e.value)


def test_two_hundred_combatants_still_load():
    """The limit is the actions' own: 200 combatants made by actions save and load."""
    h = History(new_encounter("freeform"))
    for i in range(200):
        h.do({"type": "add_combatant", "combatant": {"name": f"Rat {i}", "position": {"x": i, "y": 0}}})
    with pytest.raises(RuleViolation):
        h.do({"type": "add_combatant", "combatant": {"name": "One too many"}})
    assert len(loads(dumps(h)).present.combatants) == 200


# -- numbers must be finite everywhere ------------------------------------------------------------

def test_nan_in_a_table_edit_is_refused_by_the_action():
    """Issue 8: "a NaN typed into a table edit (`"gm_note": NaN`) is accepted; the next reload says
    the save "does not match what its history replays to" ... and opens a fresh encounter"."""
    h = History(new_encounter("strike-rank"))
    from fray.games import get_ruleset

    table = dict(get_ruleset("strike-rank").tables["dex_sr"], gm_note=float("nan"))
    with pytest.raises(InvalidAction) as e:
        h.do({"type": "set_table", "table": "dex_sr", "value": table})
    assert e.value.field == "value.gm_note" and "finite" in str(e.value)
    assert h.cursor == 0


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_anywhere_in_a_file_are_refused_with_their_path(bad):
    """Issue 8: "NaN and Infinity" in a file; "Infinity makes Export write non-standard JSON"."""
    h = one_orc()
    h.do({"type": "set_condition", "id": "c1", "condition": "prone"})
    text = dumps(h).replace('"detail":{"id":"c1","condition":"prone"}',
                            f'"detail":{{"id":"c1","condition":"prone","x":{bad}}}', 1)
    assert bad in text
    with pytest.raises(SaveFileError) as e:
        loads(text)
    assert e.value.path.endswith(".detail.x") and "finite" in str(e.value)


def test_nan_in_a_replayed_action_is_refused_with_its_path():
    data = dump_history(one_orc())
    data["history"]["actions"][0]["combatant"]["stats"]["luck"] = float("nan")
    with pytest.raises(SaveFileError) as e:
        load_data(data)
    assert e.value.path == "history.actions.0.combatant.stats.luck" and "finite" in str(e.value)


def test_nothing_the_engine_saves_is_nan_or_infinity():
    """Export must write standard JSON: the saved text parses with NaN and Infinity refused."""
    h = one_orc()
    h.do({"type": "move", "id": "c1", "x": 1e5, "y": -1e5})

    def refuse(name):
        raise AssertionError(f"{name} in the save")

    json.loads(dumps(h), parse_constant=refuse)


# -- one depth limit ------------------------------------------------------------------------------

def nested(depth: int):
    v: list = []
    for _ in range(depth - 1):
        v = [v]
    return v


def test_a_table_edit_nested_too_deep_is_refused_by_the_action_as_by_the_loader():
    """Issue 8: "a table edit nested 45 deep is accepted, then refused on reload"."""
    from fray.games import get_ruleset

    table = dict(get_ruleset("strike-rank").tables["dex_sr"], gm_note=nested(45))
    h = History(new_encounter("strike-rank"))
    with pytest.raises(InvalidAction) as e:
        h.do({"type": "set_table", "table": "dex_sr", "value": table})
    assert "nested too deeply" in str(e.value) and e.value.field.startswith("value.gm_note")
    # and the deepest the action allows saves and loads again
    for depth in range(45, 0, -1):
        try:
            h.do({"type": "set_table", "table": "dex_sr", "value": dict(table, gm_note=nested(depth))})
            break
        except InvalidAction:
            continue
    assert depth == gate.MAX_DEPTH - 2  # action > value > gm_note > the lists
    assert asdict(loads(dumps(h)).present) == asdict(h.present)


def test_json_depth_is_checked_before_parsing(monkeypatch):
    """Issue 8, item 4: "Arrays nested 100,000 deep in an imported file overflow the JavaScript
    stack in Pyodide ... CPython raises a clean RecursionError, so the unit tests cannot see it:
    check the depth before parsing". Here the parser must not even be called."""
    def parser_called(*a, **k):
        raise AssertionError("json.loads was called on a 100,000-deep text")

    monkeypatch.setattr(gate.json, "loads", parser_called)
    for text in ["[" * 100_000 + "]" * 100_000, "[" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000]:
        with pytest.raises(SaveFileError) as e:
            savefile.loads(text)
        assert "nested" in str(e.value) and "deep" in str(e.value)


def test_brackets_inside_strings_do_not_count():
    h = one_orc()
    h.do({"type": "note", "text": '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[ \\" {{{{'})
    assert gate.json_depth('{"a": "[[[\\"[[["}') == 1
    assert loads(dumps(h)).present.log[-1].text.startswith("[[[[")


def test_the_table_edit_form_checks_depth_before_parsing(monkeypatch):
    """The web layer's JSON boxes (table edit, a combatant's extra fields) parse through the gate."""
    monkeypatch.setattr(gate.json, "loads", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed")))
    with pytest.raises(InvalidAction) as e:
        gate.parse_json("[" * 100_000, "value")
    assert e.value.field == "value"


# -- one size limit --------------------------------------------------------------------------------

def test_an_overlong_text_anywhere_in_an_action_is_refused():
    e = refused_by_action({"type": "advance", "label": "x" * (gate.MAX_TEXT + 1)})
    assert e.field == "label" and f"longer than {gate.MAX_TEXT}" in str(e)


def test_an_overlong_text_in_ruleset_data_is_refused_on_load():
    e = refused_by_file(lambda enc: c0(enc)["data"].__setitem__("scrawl", "x" * (gate.MAX_TEXT + 1)))
    assert e.path == "encounter.combatants.0.data.scrawl"


def test_a_huge_number_is_refused():
    e = refused_by_action({"type": "note", "text": "hi", "n": 10**400})
    assert e.field == "n" and "too large" in str(e)


def test_gate_values():
    gate.check_value({"a": [1, 2.5, "x", None, True, {"b": []}]})
    for bad in [math.nan, math.inf, -math.inf]:
        with pytest.raises(InvalidAction):
            gate.check_value({"a": [bad]})
    with pytest.raises(InvalidAction) as e:
        gate.check_value({"a": {1: 2}}, "p")
    assert e.value.field == "p.a" and "keys must be text" in str(e.value)
