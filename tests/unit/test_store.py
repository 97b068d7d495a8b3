"""The autosave library (issue 2, item 5; issue 8, item 3): ``fray.web.store.Library`` over
``MemoryBackend``, which keeps the same stores and the same rules as ``static/store.js`` (the
page's IndexedDB side, tested end to end in tests/e2e/test_persistence.py). Saves, loads,
revisions, the library list rebuilt from the saves, the boot order, the migration from
localStorage, and a corrupt save kept aside under ``broken``.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict

import pytest

from fray import savefile
from fray.errors import SaveFileError
from fray.history import History
from fray.reducer import new_encounter
from fray.web.store import (Library, MemoryBackend, MissingSave, SaveResult, boot_order, entry_from_save, key_order,
                            local_items, migration_plan, new_key, reconcile)


def run(coro):
    return asyncio.run(coro)


def history(name: str = "Ford", n: int = 2, ruleset: str = "freeform") -> History:
    h = History(new_encounter(ruleset, name))
    for i in range(n):
        h.do({"type": "add_combatant", "combatant": {"name": f"Wolf {i}", "stats": {"initiative": 10 + i}}})
    return h


def same(a: History, b: History) -> bool:
    return (asdict(a.present) == asdict(b.present) and asdict(a.initial) == asdict(b.initial)
            and a.actions == b.actions and a.cursor == b.cursor)


@pytest.fixture
def lib() -> Library:
    return Library(MemoryBackend())


def names(lib: Library) -> list[str]:
    return [e["name"] for e in run(lib.entries())]


# -- saves and loads ---------------------------------------------------------------------------

def test_an_empty_library(lib):
    assert run(lib.entries()) == []
    assert run(lib.current_key()) is None
    assert run(lib.new_key()) == "e1"
    assert run(lib.raw("e1")) is None


def test_save_then_load_round_trips_the_history(lib):
    h = history()
    h.do({"type": "advance"})
    h.undo()  # a redo step must survive too
    assert run(lib.save("e1", h, 0)) == SaveResult(True, 1)
    back, rev = run(lib.load("e1"))
    assert same(back, h) and rev == 1
    assert back.can_redo and back.can_undo
    assert lib.backend.saves["e1"]["text"] == savefile.dumps(h)


def test_save_updates_the_list_and_current(lib):
    run(lib.save("e1", history("Alpha"), 0))
    run(lib.save("e2", history("Beta"), 0))
    assert run(lib.entries()) == [{"key": "e1", "name": "Alpha", "ruleset": "freeform", "rev": 1},
                                  {"key": "e2", "name": "Beta", "ruleset": "freeform", "rev": 1}]
    assert run(lib.current_key()) == "e2"
    run(lib.save("e1", history("Alpha renamed"), 1))  # saving again replaces the entry in place
    assert names(lib) == ["Alpha renamed", "Beta"]
    assert run(lib.current_key()) == "e1"


def test_the_list_is_in_creation_order_e2_before_e10(lib):
    for k in ("e10", "e2", "e1"):
        run(lib.save(k, history(k, 0), 0))
    assert [e["key"] for e in run(lib.entries())] == ["e1", "e2", "e10"]
    assert sorted(["e10", "x", "e2"], key=key_order) == ["e2", "e10", "x"]


def test_new_key_is_never_taken(lib):
    keys = []
    for _ in range(5):
        k = run(lib.new_key())
        assert k not in keys
        keys.append(k)
        run(lib.save(k, history(k, 0), 0))
    assert keys == ["e1", "e2", "e3", "e4", "e5"]
    run(lib.forget("e2"))
    k = run(lib.new_key())
    assert k not in {e["key"] for e in run(lib.entries())}
    assert new_key(["e2", "e3"]) not in {"e2", "e3"}


def test_new_key_skips_a_save_missing_from_the_list_and_the_current_key(lib):
    lib.backend.saves["e1"] = {"text": "{}", "rev": 1}
    lib.backend.metas["current"] = "e2"
    assert run(lib.new_key()) == "e3"


def test_load_of_a_missing_key_raises_missing_save_and_keeps_nothing(lib):
    with pytest.raises(MissingSave, match="no saved encounter 'e9'"):
        run(lib.load("e9"))
    assert lib.backend.broken == {}
    assert run(lib.raw("e9")) is None  # nothing to download, never an empty file


@pytest.mark.parametrize("bad", ["}{ garbage", "", '{"format": "something-else"}', "[]"])
def test_a_corrupt_save_raises_and_is_kept_under_broken(lib, bad):
    run(lib.save("e1", history(), 0))
    lib.backend.saves["e1"]["text"] = bad
    with pytest.raises(SaveFileError):
        run(lib.load("e1"))
    assert lib.backend.broken["e1"] == bad
    assert lib.backend.saves["e1"]["text"] == bad  # never overwritten behind the GM's back
    assert run(lib.raw("e1")) == (bad or None)  # an empty save is not offered as a file


def test_a_truncated_or_tampered_save_raises_with_the_path(lib):
    h = history()
    run(lib.save("e1", h, 0))
    good = lib.backend.saves["e1"]["text"]
    lib.backend.saves["e1"]["text"] = good[:-10]
    with pytest.raises(SaveFileError, match="its text goes wrong at line 1"):
        run(lib.load("e1"))
    data = json.loads(good)
    data["encounter"]["combatants"][0]["position"]["x"] = "far"
    lib.backend.saves["e1"]["text"] = json.dumps(data)
    with pytest.raises(SaveFileError) as e:
        run(lib.load("e1"))
    assert e.value.path == "encounter.combatants.0.position.x"
    assert run(lib.raw("e1")) == json.dumps(data)  # the latest broken copy is the one offered


def test_forget_drops_the_save_its_entry_and_its_broken_copy(lib):
    run(lib.save("e1", history("A"), 0))
    run(lib.save("e2", history("B"), 0))
    lib.backend.saves["e1"]["text"] = "junk"
    with pytest.raises(SaveFileError):
        run(lib.load("e1"))
    run(lib.forget("e1"))
    assert [e["key"] for e in run(lib.entries())] == ["e2"]
    assert "e1" not in lib.backend.saves and "e1" not in lib.backend.broken
    assert run(lib.load("e2"))[0].present.name == "B"


def test_a_good_load_stores_no_broken_copy(lib):
    run(lib.save("e1", history(), 0))
    run(lib.load("e1"))
    assert lib.backend.broken == {}
    assert run(lib.raw("e1")) == lib.backend.saves["e1"]["text"]


# -- revisions: two tabs (issue 8, item 3: "a revision number in the save ... never overwrite a
# newer save silently") ------------------------------------------------------------------------

def test_each_committed_write_is_one_more_revision(lib):
    h = history()
    assert run(lib.save("e1", h, 0)).rev == 1
    h.do({"type": "advance"})
    assert run(lib.save("e1", h, 1)).rev == 2
    assert run(lib.revision("e1")) == 2
    assert run(lib.load("e1"))[1] == 2


def test_a_write_over_a_newer_revision_writes_nothing():
    backend = MemoryBackend()
    tab_a, tab_b = Library(backend), Library(backend)
    run(tab_a.save("e1", history("Shared", 1), 0))
    h_b, rev_b = run(tab_b.load("e1"))
    h_b.do({"type": "note", "text": "tab B"})
    assert run(tab_b.save("e1", h_b, rev_b)) == SaveResult(True, 2)
    mine = history("Shared", 1)
    mine.do({"type": "note", "text": "tab A"})
    assert run(tab_a.save("e1", mine, 1)) == SaveResult(False, 2)  # tab A held revision 1
    assert json.loads(backend.saves["e1"]["text"])["encounter"]["log"][-1]["text"] == "tab B"
    assert backend.saves["e1"]["rev"] == 2


def test_a_new_encounter_never_takes_over_a_key_another_tab_saved():
    backend = MemoryBackend()
    run(Library(backend).save("e2", history("Theirs"), 0))
    assert run(Library(backend).save("e2", history("Mine"), 0)) == SaveResult(False, 1)
    assert json.loads(backend.saves["e2"]["text"])["encounter"]["name"] == "Theirs"


def test_a_deleted_save_reads_as_revision_0(lib):
    run(lib.save("e1", history(), 0))
    run(lib.forget("e1"))
    assert run(lib.revision("e1")) == 0
    assert run(lib.save("e1", history(), 1)) == SaveResult(False, 0)


# -- the library list is rebuilt from the saves (issue 8, item 3: "A corrupted library index ...
# Rebuild the index from the saves that exist") -----------------------------------------------

@pytest.mark.parametrize("damage", ["cleared", "garbage"])
def test_a_damaged_list_is_rebuilt_from_the_saves_and_stays_rebuilt(lib, damage):
    run(lib.save("e1", history("Alpha"), 0))
    run(lib.save("e2", history("Beta", ruleset="strike-rank", n=0), 0))
    lib.backend.entries.clear()
    if damage == "garbage":
        lib.backend.entries.update({"e1": "junk", "e2": {"key": "e2", "name": 3, "ruleset": "", "rev": 1},
                                    "e7": {"key": "e7", "name": "Ghost", "ruleset": "freeform", "rev": 1}})
    assert run(lib.entries()) == [{"key": "e1", "name": "Alpha", "ruleset": "freeform", "rev": 1},
                                  {"key": "e2", "name": "Beta", "ruleset": "strike-rank", "rev": 1}]
    assert sorted(lib.backend.entries) == ["e1", "e2"]  # repaired in storage, not only on screen
    assert run(lib.save("e2", history("Beta"), 1)).ok  # the rebuilt revision is the stored one
    assert names(lib) == ["Alpha", "Beta"]


def test_reconcile_keeps_good_entries_rebuilds_the_rest_drops_the_dead():
    entries = [{"key": "e1", "name": "A", "ruleset": "freeform", "rev": 3},
               {"key": "e2", "name": "B", "ruleset": "freeform", "rev": True},  # not a whole number
               {"key": "e9", "name": "Gone", "ruleset": "freeform", "rev": 1},
               "junk", {"key": 4}]
    good, rebuild, drop = reconcile(entries, ["e3", "e2", "e1", 7])
    assert good == [{"key": "e1", "name": "A", "ruleset": "freeform", "rev": 3}]
    assert rebuild == ["e2", "e3"] and drop == ["e9"]
    assert reconcile({}, ["e1"]) == ([], ["e1"], [])


def test_an_entry_rebuilt_from_an_unreadable_save_is_listed_by_its_key():
    assert entry_from_save("e4", "}{", 2) == {"key": "e4", "name": "e4", "ruleset": "", "rev": 2}
    assert entry_from_save("e4", None)["rev"] == 0


# -- the boot order (issue 8, item 3: "A current pointer to a missing save ... Open the next saved
# encounter instead, and offer nothing empty") --------------------------------------------------

@pytest.mark.parametrize("current, keys, expected", [
    ("e2", ["e1", "e2", "e3"], ["e2", "e1", "e3"]),
    ("e2", ["e1", "e3", "e4"], ["e3", "e4", "e1"]),  # the missing one's next, then the rest
    ("e9", ["e1", "e3"], ["e1", "e3"]),
    (None, ["e10", "e2"], ["e2", "e10"]),
    ("e1", [], []),
])
def test_boot_order(current, keys, expected):
    assert boot_order(current, keys) == expected


# -- migration from localStorage (issue 8, item 3: "migrate existing localStorage saves on first
# boot"; a "fray.index garbage or {}" hides nothing) ----------------------------------------------

def old_library(index: str) -> dict[str, str]:
    return {"fray.index": index, "fray.current": "e2",
            "fray.enc.e1": savefile.dumps(history("Alpha", 1)),
            "fray.enc.e2": savefile.dumps(history("Beta", 0)),
            "fray.enc.e10": savefile.dumps(history("Gamma", 0)),
            "fray.enc.e3": "}{ unreadable", "fray.broken.e3": "}{ unreadable",
            "fray.other": "not ours"}


@pytest.mark.parametrize("index", [
    json.dumps([{"key": "e1", "name": "Alpha listed", "ruleset": "freeform"}]),
    "not json", "{}", '"text"', "[1, {\"key\": 3}]",
])
def test_the_migration_takes_every_save_whatever_the_index_says(index):
    items = old_library(index)
    plan = migration_plan(items)
    assert [s["key"] for s in plan["saves"]] == ["e1", "e2", "e3", "e10"]
    assert {s["key"]: s["text"] for s in plan["saves"]} == {k[9:]: v for k, v in items.items()
                                                            if k.startswith("fray.enc.")}
    assert [s["name"] for s in plan["saves"]][1:] == ["Beta", "e3", "Gamma"]
    assert plan["saves"][0]["name"] == ("Alpha listed" if index.startswith("[{") else "Alpha")
    assert plan["broken"] == [{"key": "e3", "text": "}{ unreadable"}]
    assert plan["current"] == "e2"


def test_the_migration_runs_once_and_keeps_every_save():
    lib = Library(MemoryBackend())
    items = old_library("{}")
    assert run(lib.migrate(items)) is True
    assert names(lib) == ["Alpha", "Beta", "e3", "Gamma"]
    assert run(lib.current_key()) == "e2"
    h, rev = run(lib.load("e2"))
    assert h.present.name == "Beta" and rev == 1
    assert run(lib.raw("e3")) == "}{ unreadable"
    h.do({"type": "note", "text": "after the move"})
    run(lib.save("e2", h, rev))
    assert run(lib.migrate(items)) is False  # a second boot (or tab) copies nothing over it
    assert run(lib.load("e2"))[0].present.log[-1].text == "after the move"


def test_an_empty_local_storage_migrates_to_an_empty_library():
    lib = Library(MemoryBackend())
    assert run(lib.migrate({})) is True
    assert run(lib.entries()) == [] and run(lib.current_key()) is None


def test_local_items_reads_only_frays_keys():
    class Local:
        data = {"fray.index": "[]", "other": "x", "fray.enc.e1": "{}"}
        length = 3

        def key(self, i):
            return list(self.data)[i]

        def getItem(self, k):  # noqa: N802 (the Web Storage API's name)
            return self.data[k]

    assert local_items(Local()) == {"fray.index": "[]", "fray.enc.e1": "{}"}


def test_a_migration_after_a_failed_one_keeps_what_was_saved_meanwhile():
    """Issue 8, item 3: "migrate existing localStorage saves ... without losing any" (the brief),
    also when the database already holds a save of the same key (the first try failed and the
    GM carried on)."""
    lib = Library(MemoryBackend())
    run(lib.save("e1", history("Made since", 0), 0))
    assert run(lib.migrate(old_library("not json"))) is True
    assert names(lib) == ["Made since", "Beta", "e3", "Gamma", "Alpha"]
    assert run(lib.load("e1-old"))[0].present.name == "Alpha"
    assert run(lib.current_key()) == "e1"  # the database's own pointer wins


# -- the autosave handed over in two parts (issue 11: static/store.js getSplit) -----------------

def _long_fight(lib: Library) -> tuple[History, str]:
    """A fight long enough to hold checkpoints, saved: the history and its text."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import fights

    h = fights.fight("strike-rank", 6, 120, seed=8)
    run(lib.save("e1", h, 0))
    return h, lib.backend.saves["e1"]["text"]


def test_a_save_cut_where_its_checkpoints_begin_loads_the_same_and_reads_them_only_when_needed(lib):
    """The page hands Python its autosave up to the checkpoints and the rest on demand: at boot the
    two thirds of a long fight's text that are checkpoints never cross into Python. The history is
    the one a whole load gives, its text the same byte for byte, and the rest is read once, when
    the present is checked (or undo first needs a checkpoint)."""
    h, text = _long_fight(lib)
    assert savefile.SPLIT_AT.search(text) and '"checkpoints":[{' in text
    back, _ = run(lib.load("e1", check=False))
    assert lib.backend.rest_asked == 0
    assert same(back, h) and back.present_unchecked
    back.check_present()
    assert lib.backend.rest_asked == 1
    assert savefile.dumps(back) == text
    while back.can_undo:  # undo across the load reaches the start, through every checkpoint
        back.undo()
    assert asdict(back.present) == asdict(h.initial) and lib.backend.rest_asked == 1
    # a load that checks at once (a journal follows, or the caller asks) reads the whole text now
    again, _ = run(lib.load("e1", check=True))
    assert lib.backend.rest_asked == 1 and same(again, h)


def test_a_cut_in_the_wrong_place_is_read_as_the_whole_text(lib):
    """The cut's pattern can stand inside the encounter too (free-form stats named "cursor" and
    "checkpoints"): the head then ends inside the encounter, the quick parse refuses it, and the
    whole text is read, giving the same history a load of the whole text gives."""
    h = History(new_encounter("freeform", "Ford"))
    h.do({"type": "add_combatant", "combatant": {"name": "Odd", "stats": {"initiative": 10, "cursor": 3,
                                                                          "checkpoints": 2}}})
    run(lib.save("e1", h, 0))
    text = lib.backend.saves["e1"]["text"]
    assert savefile.SPLIT_AT.search(text).start() < text.index(',"history":')  # the first match is in it
    back, _ = run(lib.load("e1", check=False))
    assert lib.backend.rest_asked == 1  # read at once, whole
    assert same(back, h) and savefile.dumps(back) == text


def test_a_bad_save_handed_over_in_two_parts_is_kept_whole_under_broken(lib):
    """Whatever fails in the load, what is kept for download is the whole stored text, both parts;
    a checkpoint that is wrong is refused when it is first read, with the path a whole load gives."""
    _, text = _long_fight(lib)
    data = json.loads(text)
    data["encounter"]["combatants"][0]["position"]["x"] = "far"
    bad = json.dumps(data, separators=(",", ":"), ensure_ascii=False)  # as the autosave writes it
    assert savefile.SPLIT_AT.search(bad)
    lib.backend.saves["e1"]["text"] = bad
    with pytest.raises(SaveFileError) as e:
        run(lib.load("e1", check=False))
    assert e.value.path == "encounter.combatants.0.position.x"
    assert lib.backend.broken["e1"] == bad
    data = json.loads(text)
    data["history"]["checkpoints"][0]["at"] = "x"
    lib.backend.saves["e1"]["text"] = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    back, _ = run(lib.load("e1", check=False))  # the head is sound: the checkpoints are read later
    with pytest.raises(SaveFileError) as e:
        back.check_present()
    assert e.value.path == "history.checkpoints.0.at"
    with pytest.raises(SaveFileError) as whole:
        savefile.loads(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    assert whole.value.path == e.value.path


def test_a_save_said_to_be_past_the_limit_is_measured_whole(lib):
    """The page's length counts as JavaScript counts (a character outside the BMP is two): a save it
    says is past the limit is not refused on that word, ``loads`` measures the whole text and
    refuses it only if it truly is."""
    h, text = _long_fight(lib)
    cut = savefile.SPLIT_AT.search(text).end()
    back = savefile.loads_split(text[:cut], lambda: text[cut:], savefile.MAX_FILE_BYTES + 1)
    assert same(back, h)
