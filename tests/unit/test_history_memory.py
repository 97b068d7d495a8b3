"""A long fight's undo history holds what undo needs, not every state it ever had (issue 36).

Holding every state, a 12-combatant fight kept some 20-30 KB more per action in Python's heap, and
the log, which every state holds whole, made each action cost more than the one before: over an
evening on a tablet the page's memory only grew. The history now holds the states after the
latest ``KEEP_STATES`` actions and, further back, every ``CHECKPOINT_EVERY``-th; undo, redo and
the history list replay the others from the nearest one below, the same way a history resumed
from a save always has. And a save no longer keeps, for the page's life, the text it wrote of
each present (the whole log) and of the state before it.
"""

from __future__ import annotations

import asyncio
import gc
from dataclasses import asdict

from fray import savefile
from fray.history import CHECKPOINT_EVERY, KEEP_STATES, History
from fray.web.store import Library, MemoryBackend
from test_resume import fight


def held(h: History) -> list[int]:
    return [k for k, s in enumerate(h._states) if s is not None]


def test_a_long_fight_holds_the_latest_states_and_the_checkpoints_only():
    h = fight(600)
    kept = held(h)
    assert set(range(600 - KEEP_STATES, 601)) <= set(kept)
    assert all(k == 0 or k % CHECKPOINT_EVERY == 0 for k in kept if k < 600 - KEEP_STATES), kept
    assert len(kept) <= KEEP_STATES + 1 + 600 // CHECKPOINT_EVERY


def test_undo_and_redo_across_the_states_let_go_are_those_of_a_full_replay():
    h = fight(400)
    full = [asdict(History.replay(h.initial, h.actions, k).present) for k in range(0, 401, 7)]
    for k in range(400, -1, -1):
        if k % 7 == 0:
            assert asdict(h.present) == full[k // 7], k
        if k:
            assert h.undo()
    assert h.cursor == 0
    while h.redo():
        if h.cursor % 7 == 0:
            assert asdict(h.present) == full[h.cursor // 7], h.cursor
    assert h.cursor == 400
    # the history list's labels far back, and a jump there and back
    assert h.label(123) == History.replay(h.initial, h.actions).label(123)
    assert h.go_to(35) and asdict(h.present) == full[5]
    assert h.go_to(400) and h.cursor == 400 and asdict(h.present) == asdict(History.replay(h.initial, h.actions).present)


def test_a_new_action_after_going_far_back_lets_go_of_the_states_replayed_on_the_way():
    h = fight(400)
    h.go_to(120)  # replays 101..119 from the checkpoint at 100
    for i in range(KEEP_STATES + 30):
        h.do({"type": "move", "id": "c1", "x": i, "y": 0})
    kept = held(h)
    assert all(k == 0 or k % CHECKPOINT_EVERY == 0 for k in kept if k < h.cursor - KEEP_STATES), kept


def test_a_save_keeps_no_text_of_the_presents_it_wrote_before():
    h = fight(300)
    lib = Library(MemoryBackend())
    rev = 0
    for i in range(40):  # a save at every change, as the autosave of a burst of clicks may do
        h.do({"type": "move", "id": "c2", "x": i, "y": 1})
        rev = asyncio.run(lib.save("e1", h, rev)).rev
    at = {k for k, _ in h._dumped}
    assert all(k % CHECKPOINT_EVERY == 0 or k >= h.cursor - 1 for k in at), sorted(at)
    # and what it wrote still loads to the same fight
    back = savefile.loads(savefile.dumps(h))
    assert asdict(back.present) == asdict(h.present) and back.cursor == h.cursor


def _drafts_alive() -> int:
    from fray.sharing import Copies, CowDict, CowList

    return sum(1 for o in gc.get_objects() if type(o) in (Copies, CowDict, CowList))


def test_an_action_leaves_no_draft_behind_for_the_cyclic_collector():
    """A draft's lazy containers and its record of copies hold each other: left as they were, each
    action's copies (and their pickles) waited for Python's cyclic collector. They are let go as
    the action is settled, or refused."""
    from fray.errors import FrayError

    h = fight(40)
    gc.collect()
    gc.disable()
    try:
        alive = _drafts_alive()  # a few, of the last actions, in the rules' own bounded caches
        h.do({"type": "move", "id": "c1", "x": 3, "y": 4})
        h.do({"type": "edit_combatant", "id": "c2", "changes": {"notes": "wary"}})
        try:
            h.do({"type": "edit_combatant", "id": "c2", "changes": {"stats": "not a table"}})
        except FrayError:
            pass
        assert _drafts_alive() <= alive
    finally:
        gc.enable()
