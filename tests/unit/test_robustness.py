"""Bad input from outside (an edited file, a damaged autosave, a GM's table edit) is refused with
its path and never becomes the open encounter (issue 2: "a malformed or foreign file gets a clear
message and the current encounter is untouched"). Found by review; each case once slipped through."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import asdict

import pytest

from fray import savefile
from fray.errors import InvalidAction, SaveFileError
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.tray import DiceTray
from fray.web.store import Library, MemoryBackend

RS = get_ruleset("strike-rank")


def warriors() -> History:
    h = History(new_encounter("strike-rank", "t"))
    h.do({"type": "add_combatant", "combatant": RS.presets()[0]})
    h.do({"type": "add_combatant", "combatant": {**RS.presets()[0], "name": "Bor"}})
    h.do({"type": "advance"})
    return h


def test_a_file_whose_rules_state_the_rules_cannot_read_is_refused():
    data = savefile.dump_history(warriors())
    del data["history"]
    data["encounter"]["state"]["actions"] = "bogus"
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data)
    assert e.value.path == "encounter" and "cannot read" in str(e.value)


def test_next_id_must_be_past_every_combatant_id():
    data = savefile.dump_history(warriors())
    del data["history"]
    data["encounter"]["next_id"] = 1
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data)
    assert e.value.path == "encounter.next_id" and "more than 2" in str(e.value)


def test_json_nested_too_deep_is_a_save_file_error():
    with pytest.raises(SaveFileError):
        savefile.loads("[" * 50000)


def test_any_failure_loading_an_autosave_keeps_it_aside(monkeypatch):
    """Not only the engine's own errors: an action this version cannot apply (a bug, a change
    between versions) must not cost the GM the save."""
    store = MemoryBackend()
    lib = Library(store)
    raw = savefile.dumps(warriors())
    store.saves["e1"] = {"text": raw, "rev": 1}

    def broken(*_, **__):
        raise KeyError("weapons")

    monkeypatch.setattr(savefile, "loads", broken)
    monkeypatch.setattr(savefile, "loads_split", broken)  # the page's autosave comes in two parts
    with pytest.raises(SaveFileError) as e:
        asyncio.run(lib.load("e1"))
    assert "KeyError" in str(e.value)
    assert store.broken["e1"] == raw and store.saves["e1"]["text"] == raw


def test_new_key_skips_a_save_missing_from_the_index():
    store = MemoryBackend()
    store.saves["e1"] = {"text": "{}", "rev": 1}
    assert asyncio.run(Library(store).new_key()) == "e2"


def test_a_table_edit_the_rules_cannot_use_is_refused_and_changes_nothing():
    enc = warriors().present
    table = copy.deepcopy(RS.tables["dex_sr"])
    table["entries"][2]["sr"] = "x"
    before = asdict(enc)
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "set_table", "table": "dex_sr", "value": table})
    # refused by the table check itself since issue 8: a field of another kind than the default's
    assert e.value.field == "value.entries.2.sr" and "must be a number" in str(e.value)
    assert asdict(enc) == before


def test_a_rolled_total_without_faces_replays():
    tray = DiceTray({"dmg": {"total": 7, "typed": False}})
    assert tray.roll("dmg", "2D6").total == 7
    again = DiceTray(tray.used).roll("dmg", "2D6")
    assert (again.total, again.typed) == (7, False)
