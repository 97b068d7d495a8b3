"""Unlimited undo and redo over every action (issue 2, item 3: "History").

Contracts: ``do`` moves the present forward and drops any redo; ``undo``/``redo`` walk the same
states back and forth without re-rolling; there is no depth limit; ``History.replay`` of the
recorded actions rebuilds the same present, and names the failing action on error.
"""

from __future__ import annotations

import random
from dataclasses import asdict

import pytest

from names import TEST_RULESET
from fray.errors import InvalidAction
from fray.history import History
from fray.reducer import new_encounter


def add(name):
    return {"type": "add_combatant", "combatant": {"name": name}}


def test_do_undo_redo_walk_the_same_states():
    """Undo returns the exact earlier encounter; redo returns the exact later one."""
    h = History(new_encounter("freeform"))
    start = asdict(h.present)
    h.do(add("Orc"))
    after_orc = asdict(h.present)
    h.do({"type": "move", "id": "c1", "x": 4})
    after_move = asdict(h.present)
    assert h.present.get("c1").position.x == 4
    assert h.undo() and asdict(h.present) == after_orc
    assert h.undo() and asdict(h.present) == start
    assert not h.undo() and not h.can_undo
    assert h.redo() and asdict(h.present) == after_orc
    assert h.redo() and asdict(h.present) == after_move
    assert not h.redo() and not h.can_redo


def test_a_new_action_after_undo_drops_the_redo():
    """Doing something after an undo discards the undone future, like any editor."""
    h = History(new_encounter("freeform"))
    h.do(add("Orc"))
    h.do(add("Goblin"))
    h.undo()
    assert h.can_redo
    h.do(add("Troll"))
    assert not h.can_redo
    assert [c.name for c in h.present.combatants] == ["Orc", "Troll"]
    assert len(h.actions) == 2 and h.cursor == 2
    assert not h.redo()


def test_failed_action_leaves_history_untouched():
    """A bad action raises and changes neither the present, the actions nor the redo."""
    h = History(new_encounter("freeform"))
    h.do(add("Orc"))
    h.do(add("Goblin"))
    h.undo()
    before = (asdict(h.present), list(h.actions), h.cursor)
    with pytest.raises(InvalidAction):
        h.do({"type": "move", "id": "c9", "x": 1})
    assert (asdict(h.present), list(h.actions), h.cursor) == before
    assert h.can_redo


def test_unlimited_depth():
    """500 actions can all be undone back to the start and redone to the end."""
    h = History(new_encounter("freeform"))
    h.do(add("Runner"))
    for i in range(500):
        h.do({"type": "move", "id": "c1", "x": i})
    end = asdict(h.present)
    undone = 0
    while h.undo():
        undone += 1
    assert undone == 501
    assert h.present.combatants == []
    while h.redo():
        pass
    assert asdict(h.present) == end
    assert h.present.get("c1").position.x == 499


def test_replay_rebuilds_the_same_present_and_cursor():
    """Replaying the recorded actions gives the same present; a cursor keeps undone actions."""
    h = History(new_encounter("freeform"))
    for a in [add("Orc"), add("Elf"), {"type": "set_condition", "id": "c2", "condition": "prone"},
              {"type": "advance"}, {"type": "note", "text": "ouch"}]:
        h.do(a)
    h.undo()
    again = History.replay(h.initial, h.actions, h.cursor)
    assert asdict(again.present) == asdict(h.present)
    assert again.cursor == 4 and again.can_redo
    again.redo()
    h.redo()
    assert asdict(again.present) == asdict(h.present)


def test_dice_are_rolled_once_and_replayed(dice_ruleset):
    """With a random source, do() records the rolls: undo/redo and replay never roll again."""
    h = History(new_encounter(TEST_RULESET))
    h.do({"type": "add_combatant", "combatant": {"name": "T", "stats": {"hp": 50}}})
    for _ in range(5):
        h.do({"type": "hit", "target": "c1"}, random.Random(3))
    hp = h.present.get("c1").stats["hp"]
    assert hp < 50
    assert all("rolls" in a for a in h.actions[1:])
    h.undo()
    h.redo()
    assert h.present.get("c1").stats["hp"] == hp
    again = History.replay(h.initial, h.actions)
    assert asdict(again.present) == asdict(h.present)


def test_replay_names_the_failing_action():
    """A replay that cannot apply action N raises InvalidAction at ``actions.N.<field>``."""
    with pytest.raises(InvalidAction) as info:
        History.replay(new_encounter("freeform"), [add("Orc"), {"type": "move", "id": "c7"}])
    assert info.value.field == "actions.1.id"
    with pytest.raises(InvalidAction) as info:
        History.replay(new_encounter("freeform"), [add("Orc"), {"type": "set_condition", "id": "c1",
                                                                  "condition": "prone", "on": False}])
    assert info.value.field == "actions.1"
    assert "rule: conditions" in str(info.value)
