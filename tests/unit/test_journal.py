"""The append-only autosave (issue 11: "one action (apply, autosave, re-render) at 30 combatants
p95 <= 50 ms"): ``fray.journal`` (the moves a history made between two writes) and
``fray.web.store.Library`` writing them as journal rows over ``MemoryBackend``, which keeps the
same stores and checks as ``static/store.js`` (tests/e2e/test_persistence.py drives the page).

What must hold: a load (the save, then the journal's moves) gives the very history that was
written, whatever mix of do / undo / redo / jumps made it; a journal row is checked and bumps the
revision exactly as a whole save does, so a tab never writes over another's; a row that does not
apply loses nothing (kept for download, the save and rows untouched); the journal is folded into
the save after ``JOURNAL_MAX`` rows and on ``compact``; and the moves a closing tab kept apply at
the next boot only when they follow on from what was committed.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

import pytest

from fray import journal, savefile
from fray.errors import SaveFileError
from fray.history import History
from fray.reducer import new_encounter
from fray.web import store
from fray.web.store import JOURNAL_MAX, JOURNAL_ROWS, Library, MemoryBackend, SaveResult

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402


def run(coro):
    return asyncio.run(coro)


def note(h: History, text: str) -> None:
    h.do({"type": "note", "text": text})


def fresh(n: int = 2) -> History:
    h = History(new_encounter("freeform", "Ford"))
    for i in range(n):
        h.do({"type": "add_combatant", "combatant": {"name": f"Wolf {i}", "stats": {"initiative": 10 + i}}})
    return h


def loaded_text(lib: Library, key: str = "e1") -> str:
    """What a fresh tab loads, written out whole: equal texts are equal histories."""
    other = Library(lib.backend, "reader")
    h, _ = run(other.load(key))
    return savefile.dumps(h)


# -- the moves between two looks at a history -------------------------------------------------

def test_moves_name_what_the_history_did():
    h = fresh(1)
    look = journal.Look(h)
    assert journal.moves_between(look, h) == []
    note(h, "one")
    assert journal.moves_between(look, h) == [{"move": "do", "action": h.actions[-1]}]
    look = journal.Look(h)
    h.undo()
    assert journal.moves_between(look, h) == [{"move": "undo"}]
    look = journal.Look(h)
    h.redo()
    assert journal.moves_between(look, h) == [{"move": "redo"}]
    look = journal.Look(h)
    h.go_to(0)
    assert journal.moves_between(look, h) == [{"move": "go_to", "point": 0}]


def test_a_change_after_undo_goes_back_first_then_does():
    h = fresh(2)
    note(h, "a")
    look = journal.Look(h)
    h.undo()
    h.undo()
    note(h, "b")  # drops the redo stack: History.do cuts after the cursor
    assert journal.moves_between(look, h) == [{"move": "go_to", "point": 1}, {"move": "do", "action": h.actions[-1]}]


def test_a_history_that_was_replaced_has_no_moves():
    h = fresh(2)
    look = journal.Look(h)
    h.actions, h.cursor = h.actions[:1], 1  # not something History does: only a whole save says it
    assert journal.moves_between(look, h) is None


def test_a_random_mix_of_moves_replays_to_the_same_history():
    rnd = random.Random(5)
    h = fresh(2)
    for step in range(60):
        look = journal.Look(h)
        copy = savefile.loads(savefile.dumps(h), verify=False)
        for _ in range(rnd.randint(1, 3)):
            r = rnd.random()
            if r < 0.5:
                note(h, f"n{step}")
            elif r < 0.7 and h.can_undo:
                h.undo()
            elif r < 0.8 and h.can_redo:
                h.redo()
            else:
                h.go_to(rnd.randint(0, len(h.actions)))
        moves = journal.moves_between(look, h)
        journal.apply_moves(copy, journal.loads(journal.dumps(moves), "m"), "m")
        assert savefile.dumps(copy) == savefile.dumps(h)


@pytest.mark.parametrize("bad, why", [
    ([{"move": "dance"}], "is not a move this history can make"),
    ([{"move": "undo"}], "is not a move this history can make"),  # nothing to undo at the start
    ([{"move": "go_to", "point": 99}], "there is no point 99"),
    ([{"move": "do", "action": {"type": "no_such_action"}}], "cannot be applied"),
    ([{"move": "do", "action": {"type": "note", "text": 1e400}}], "cannot be applied"),
])
def test_a_move_that_does_not_apply_names_itself(bad, why):
    h = History(new_encounter("freeform", "Ford"))
    with pytest.raises(SaveFileError, match=why) as e:
        journal.apply_moves(h, bad, "journal.2.moves")
    assert e.value.path == "journal.2.moves.0"


def test_moves_text_goes_through_the_gate():
    with pytest.raises(SaveFileError, match="not JSON"):
        journal.loads("[{", "journal.3.moves")
    with pytest.raises(SaveFileError, match="is not a list"):
        journal.loads('{"move": "undo"}', "journal.3.moves")
    with pytest.raises(SaveFileError, match="nested"):
        journal.loads("[" * 200 + "]" * 200, "journal.3.moves")


# -- the library: journal rows beside the save --------------------------------------------------

def test_the_first_write_is_whole_then_each_change_is_one_small_row():
    lib = Library(MemoryBackend(), "A")
    h = fresh(3)
    assert run(lib.write("e1", h, 0)) == SaveResult(True, 1)
    whole = lib.backend.saves["e1"]["text"]
    note(h, "The wolves circle")
    assert run(lib.write("e1", h, 1)) == SaveResult(True, 2)
    assert lib.backend.saves["e1"]["text"] == whole  # the save is not rewritten
    row = lib.backend.journal[("e1", 2)]
    assert json.loads(row["moves"]) == [{"move": "do", "action": h.actions[-1]}]
    assert len(row["moves"]) < len(whole) / 10
    assert lib.backend.entries["e1"]["rev"] == 2 and lib.backend.metas["current"] == "e1"
    assert run(lib.revision("e1")) == 2
    assert loaded_text(lib) == savefile.dumps(h)


def test_a_long_fight_loads_from_save_and_journal_exactly():
    whole = fights.fight("strike-rank", 6, 60, seed=2)
    h = History(whole.initial)
    lib = Library(MemoryBackend(), "A")
    rev = 0
    for i, a in enumerate(whole.actions):
        h.do(a)
        if i % 7 == 3:
            h.undo()
            rev = run(lib.write("e1", h, rev)).rev
            h.redo()
        rev = run(lib.write("e1", h, rev)).rev
        if i % 11 == 0:
            assert loaded_text(lib) == savefile.dumps(h)
    assert loaded_text(lib) == savefile.dumps(h) == savefile.dumps(whole)


def test_after_journal_max_rows_the_save_is_rewritten_and_the_rows_deleted():
    """Issue 11 (one action, autosave included, fast): past ``JOURNAL_ROWS`` rows a change is still
    one row (the page folds them in during the GM's next pause, ``Autosave.fold_later``); only a
    burst that never pauses reaches ``JOURNAL_MAX``, and then the write of a change is whole, so a
    load never replays more rows than that."""
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    rev = run(lib.write("e1", h, 0)).rev
    for i in range(JOURNAL_MAX):
        note(h, f"n{i}")
        rev = run(lib.write("e1", h, rev)).rev
        if i + 1 == JOURNAL_ROWS + 1:
            assert lib.journal_rows("e1") == JOURNAL_ROWS + 1  # one row more, not the whole save
    assert len(lib.backend.journal) == JOURNAL_MAX and lib.journal_rows("e1") == JOURNAL_MAX
    assert JOURNAL_ROWS < JOURNAL_MAX
    note(h, "one more")
    rev = run(lib.write("e1", h, rev)).rev
    assert lib.backend.journal == {} and lib.journal_rows("e1") == 0
    assert lib.backend.saves["e1"] == {"text": savefile.dumps(h), "rev": rev, "by": "A:%d" % lib.writes}
    assert loaded_text(lib) == savefile.dumps(h)


def test_compact_folds_the_journal_in_only_when_everything_is_committed():
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    rev = run(lib.write("e1", h, 0)).rev
    assert run(lib.compact("e1", h, rev)) is None  # no rows: nothing to fold
    note(h, "a")
    rev = run(lib.write("e1", h, rev)).rev
    note(h, "b")  # not committed yet: the writer, not the fold, writes it
    assert run(lib.compact("e1", h, rev)) is None and len(lib.backend.journal) == 1
    h.undo()  # "b" is still in the redo stack: still not committed
    assert run(lib.compact("e1", h, rev)) is None
    rev = run(lib.write("e1", h, rev)).rev
    res = run(lib.compact("e1", h, rev))
    assert res == SaveResult(True, rev + 1) and lib.backend.journal == {}
    assert loaded_text(lib) == savefile.dumps(h)


def test_a_row_over_a_newer_revision_writes_nothing():
    backend = MemoryBackend()
    tab_a, tab_b = Library(backend, "A"), Library(backend, "B")
    run(tab_a.write("e1", fresh(1), 0))
    mine, _ = run(tab_a.load("e1"))
    theirs, rev_b = run(tab_b.load("e1"))
    note(theirs, "B was here")
    assert run(tab_b.write("e1", theirs, rev_b)) == SaveResult(True, 2)
    note(mine, "A was here")
    assert run(tab_a.write("e1", mine, 1)) == SaveResult(False, 2)  # tab A held revision 1
    assert list(backend.journal) == [("e1", 2)] and "B was here" in backend.journal[("e1", 2)]["moves"]


def test_an_append_without_a_save_is_refused():
    backend = MemoryBackend()
    assert run(backend.append("e1", "[]", "x", "freeform", 0)) == {"ok": False, "rev": 0}
    assert backend.journal == {}


def test_a_lost_entry_is_rebuilt_with_the_journals_revision():
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    rev = run(lib.write("e1", h, 0)).rev
    note(h, "a")
    rev = run(lib.write("e1", h, rev)).rev
    del lib.backend.entries["e1"]
    assert run(lib.entries())[0]["rev"] == rev == 2
    assert run(lib.revision("e1")) == 2
    note(h, "b")
    assert run(lib.write("e1", h, rev)).ok  # the rebuilt revision is the stored one


def test_forget_drops_the_journal_too():
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    run(lib.write("e1", h, 0))
    note(h, "a")
    run(lib.write("e1", h, 1))
    run(lib.forget("e1"))
    assert lib.backend.journal == {} and run(lib.revision("e1")) == 0


@pytest.mark.parametrize("damage, path", [
    (lambda b: b.journal[("e1", 3)].update(moves="[{"), "journal.3.moves"),
    (lambda b: b.journal[("e1", 3)].update(moves='[{"move": "do", "action": {"type": "sr.warp"}}]'),
     "journal.3.moves.0"),
    (lambda b: b.journal.pop(("e1", 2)), "journal.3"),  # a row missing in the middle
])
def test_a_row_that_does_not_apply_is_kept_with_its_save_and_nothing_is_lost(damage, path):
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    for rev in range(3):
        if rev:
            note(h, f"n{rev}")
        run(lib.write("e1", h, rev))
    damage(lib.backend)
    save = dict(lib.backend.saves["e1"])
    rows = dict(lib.backend.journal)
    with pytest.raises(SaveFileError) as e:
        run(Library(lib.backend, "B").load("e1"))
    assert e.value.path == path
    assert lib.backend.saves["e1"] == save and lib.backend.journal == rows  # untouched
    kept = json.loads(lib.backend.broken["e1"])
    assert kept["format"] == "fray-autosave-journal" and kept["save"] == save["text"]
    assert [r["rev"] for r in kept["journal"]] == [r["rev"] for _, r in sorted(rows.items())]
    assert run(lib.raw("e1")) == lib.backend.broken["e1"]


def test_a_follower_tab_carries_on_from_a_fold():
    backend = MemoryBackend()
    tab_a, tab_b = Library(backend, "A"), Library(backend, "B")
    h = fresh(1)
    run(tab_a.write("e1", h, 0))
    note(h, "a")
    run(tab_a.write("e1", h, 1))
    theirs, rev_b = run(tab_b.load("e1"))
    assert rev_b == 2
    assert run(tab_a.compact("e1", h, 2)) == SaveResult(True, 3)
    tab_b.follow("e1", 2, 3)  # App.heard_fold: the same encounter at revision 3
    note(theirs, "B carries on")
    assert run(tab_b.write("e1", theirs, 3)) == SaveResult(True, 4)
    assert loaded_text(tab_a) == savefile.dumps(theirs)


# -- a tab that closes before its write commits -------------------------------------------------

def test_pending_is_what_is_not_committed_with_the_write_under_way():
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    run(lib.write("e1", h, 0))
    assert lib.pending("e1", h) is None  # everything committed
    note(h, "a")
    lib.in_flight["e1"] = ("A:9", 1)  # as Library.write holds it while the browser commits
    note(h, "b")
    kept = lib.pending("e1", h)
    assert kept == {"key": "e1", "base": 1, "in_flight": {"by": "A:9", "moves": 1},
                    "moves": [{"move": "do", "action": h.actions[-2]}, {"move": "do", "action": h.actions[-1]}]}
    assert Library(MemoryBackend()).pending("e1", h) is None  # never written: not said in moves


def test_kept_moves_apply_when_nothing_was_committed_after_them():
    lib = Library(MemoryBackend(), "A")
    h = fresh(1)
    run(lib.write("e1", h, 0))
    note(h, "lost in the reload")
    kept = json.loads(json.dumps(lib.pending("e1", h)))
    boot = Library(lib.backend, "B")
    h2, rev = run(boot.load("e1"))
    assert boot.recover("e1", h2, rev, kept)
    assert savefile.dumps(h2) == savefile.dumps(h)
    assert run(boot.write("e1", h2, rev)).ok and loaded_text(boot) == savefile.dumps(h)


def test_kept_moves_skip_what_the_write_under_way_committed():
    backend = MemoryBackend()
    lib = Library(backend, "A")
    h = fresh(1)
    run(lib.write("e1", h, 0))
    note(h, "a")
    real_append = backend.append
    kept: dict = {}

    async def append_then_hide(*args):
        note(h, "b")  # a tap while the browser commits "a"
        kept.update(json.loads(json.dumps(lib.pending("e1", h))))  # pagehide, synchronously
        return await real_append(*args)
    backend.append = append_then_hide
    run(lib.write("e1", h, 1))  # "a" did commit
    assert kept["in_flight"]["moves"] == 1 and len(kept["moves"]) == 2
    boot = Library(backend, "B")
    h2, rev = run(boot.load("e1"))
    assert rev == 2 and boot.recover("e1", h2, rev, kept)
    assert [e.text for e in h2.present.log[-2:]] == [e.text for e in h.present.log[-2:]]
    assert savefile.dumps(h2) == savefile.dumps(h)


def test_kept_moves_after_another_tabs_write_are_not_applied():
    backend = MemoryBackend()
    lib = Library(backend, "A")
    h = fresh(1)
    run(lib.write("e1", h, 0))
    note(h, "mine")
    kept = json.loads(json.dumps(lib.pending("e1", h)))
    other = Library(backend, "C")
    theirs, rev = run(other.load("e1"))
    note(theirs, "theirs")
    run(other.write("e1", theirs, rev))
    boot = Library(backend, "B")
    h2, rev2 = run(boot.load("e1"))
    before = savefile.dumps(h2)
    assert not boot.recover("e1", h2, rev2, kept)
    assert savefile.dumps(h2) == before
    assert not boot.recover("e2", h2, rev2, kept)  # another encounter's moves


def test_pending_name_is_per_tab():
    assert store.PENDING == "fray.pending."
