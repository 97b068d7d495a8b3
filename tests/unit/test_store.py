"""The autosave library (issue 2, item 5): ``fray.web.store.Library`` over a storage object,
here ``MemoryStorage`` (the page passes ``localStorage``). Saves, loads, the index, new keys,
and a corrupt entry that raises ``SaveFileError`` and is kept under ``fray.broken.<key>``.
"""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from fray import savefile
from fray.errors import SaveFileError
from fray.history import History
from fray.reducer import new_encounter
from fray.web.store import CURRENT, INDEX, Library, MemoryStorage


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
    return Library(MemoryStorage())


def test_an_empty_library(lib):
    assert lib.index() == []
    assert lib.current_key() is None
    assert lib.new_key() == "e1"
    assert lib.raw("e1") is None


def test_save_then_load_round_trips_the_history(lib):
    h = history()
    h.do({"type": "advance"})
    h.undo()  # a redo step must survive too
    lib.save("e1", h)
    back = lib.load("e1")
    assert same(back, h)
    assert back.can_redo and back.can_undo
    assert lib.storage.getItem("fray.enc.e1") == savefile.dumps(h)


def test_save_updates_index_and_current(lib):
    lib.save("e1", history("Alpha"))
    lib.save("e2", history("Beta", ruleset="freeform"))
    assert lib.index() == [{"key": "e1", "name": "Alpha", "ruleset": "freeform"},
                           {"key": "e2", "name": "Beta", "ruleset": "freeform"}]
    assert lib.current_key() == "e2"
    lib.save("e1", history("Alpha renamed"))  # saving again replaces the entry in place
    assert [x["name"] for x in lib.index()] == ["Alpha renamed", "Beta"]
    assert lib.current_key() == "e1"
    assert json.loads(lib.storage.getItem(INDEX)) == lib.index()
    assert lib.storage.getItem(CURRENT) == "e1"


def test_new_key_is_never_taken(lib):
    keys = []
    for _ in range(5):
        k = lib.new_key()
        assert k not in keys
        keys.append(k)
        lib.save(k, history(k, 0))
    assert keys == ["e1", "e2", "e3", "e4", "e5"]
    lib.forget("e2")
    k = lib.new_key()
    assert k not in {x["key"] for x in lib.index()}
    lib.save(k, history("new", 0))
    assert len({x["key"] for x in lib.index()}) == 5


def test_new_key_skips_keys_out_of_sequence(lib):
    lib.save("e2", history("B", 0))
    lib.save("e3", history("C", 0))
    assert lib.new_key() not in {"e2", "e3"}


def test_load_of_a_missing_key_raises(lib):
    with pytest.raises(SaveFileError, match="no saved encounter 'e9'"):
        lib.load("e9")
    assert lib.storage.getItem("fray.broken.e9") is None


@pytest.mark.parametrize("bad", [
    "}{ garbage",
    "",
    '{"format": "something-else"}',
    "[]",
])
def test_a_corrupt_entry_raises_and_is_kept_under_broken(lib, bad):
    lib.save("e1", history())
    lib.storage.setItem("fray.enc.e1", bad)
    with pytest.raises(SaveFileError):
        lib.load("e1")
    assert lib.storage.getItem("fray.broken.e1") == bad
    assert lib.storage.getItem("fray.enc.e1") == bad  # never overwritten behind the GM's back
    assert lib.raw("e1") == bad


def test_a_truncated_or_tampered_save_raises_with_the_path(lib):
    h = history()
    lib.save("e1", h)
    good = lib.storage.getItem("fray.enc.e1")
    lib.storage.setItem("fray.enc.e1", good[:-10])
    with pytest.raises(SaveFileError, match="not JSON"):
        lib.load("e1")
    data = json.loads(good)
    data["encounter"]["combatants"][0]["position"]["x"] = "far"
    lib.storage.setItem("fray.enc.e1", json.dumps(data))
    with pytest.raises(SaveFileError) as e:
        lib.load("e1")
    assert e.value.path == "encounter.combatants.0.position.x"
    assert lib.raw("e1") == json.dumps(data)  # the latest broken copy is the one offered


def test_the_broken_copy_outlives_a_repair_and_forget(lib):
    lib.save("e1", history("A"))
    lib.save("e2", history("B"))
    lib.storage.setItem("fray.enc.e1", "junk")
    with pytest.raises(SaveFileError):
        lib.load("e1")
    lib.forget("e1")
    assert [x["key"] for x in lib.index()] == ["e2"]
    assert lib.storage.getItem("fray.enc.e1") is None
    assert lib.raw("e1") == "junk"
    # Other encounters are untouched.
    assert lib.load("e2").present.name == "B"


def test_a_good_load_stores_no_broken_copy(lib):
    lib.save("e1", history())
    lib.load("e1")
    assert lib.storage.getItem("fray.broken.e1") is None
    assert lib.raw("e1") == lib.storage.getItem("fray.enc.e1")


@pytest.mark.parametrize("raw", ["not json", "{}", '"text"', '[1, {"name": "x"}, {"key": 3}]'])
def test_a_corrupt_index_reads_as_what_is_usable(lib, raw):
    lib.storage.setItem(INDEX, raw)
    assert lib.index() == []
    assert lib.new_key() == "e1"
    lib.save("e1", history("A"))
    assert [x["key"] for x in lib.index()] == ["e1"]


def test_non_string_values_from_storage_read_as_missing():
    class JsNullStorage(MemoryStorage):
        def getItem(self, key):  # noqa: N802 (Pyodide hands JS null over as a non-str object)
            return self.data.get(key, object())

    lib = Library(JsNullStorage())
    assert lib.current_key() is None
    assert lib.index() == []
    with pytest.raises(SaveFileError):
        lib.load("e1")


def test_memory_storage_behaves_like_local_storage():
    s = MemoryStorage()
    assert s.getItem("k") is None
    s.setItem("k", 12)
    assert s.getItem("k") == "12"
    s.removeItem("k")
    s.removeItem("k")
    assert s.getItem("k") is None
