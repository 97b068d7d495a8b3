"""``move_group``: several tokens the GM drags together on the map (issue 33, "place copies in a formation a
token apart (and let the GM drag the group)"), one action and one Undo, each token's move taken as the game
takes a single drag."""

from __future__ import annotations

import os
import sys

import pytest

from fray.errors import InvalidAction
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "games", "tactical_round"))
from tr_helpers import SWORD, declare, fight, fighter  # noqa: E402

NEXT = {"type": "advance", "skip_empty": True, "ask": True}


def _three(ruleset: str) -> History:
    h = History(new_encounter(ruleset, "Group"))
    body = {**get_ruleset(ruleset).presets()[0], "name": "Orc", "side": "foes", "count": 3}
    h.do({"type": "add_combatant", "combatant": body})
    return h


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round", "range-band"])
def test_a_group_moves_in_one_action_and_one_undo_puts_it_back(ruleset):
    h = _three(ruleset)
    before = [(c.position.x, c.position.y) for c in h.present.combatants]  # (0, 0) (3, 0) (0, -3)
    events = h.do({"type": "move_group", "moves": [{"id": "c1", "x": 10, "y": 5, "alt": 0},
                                                   {"id": "c2", "x": 13, "y": 5, "alt": 0},
                                                   {"id": "c3", "x": 10, "y": 2, "alt": 0}]})
    assert [(c.position.x, c.position.y) for c in h.present.combatants] == [(10, 5), (13, 5), (10, 2)]
    assert events[0]["text"] == "Orc 1, Orc 2 and Orc 3 move together"
    assert sum(1 for e in events if "moves to" in e["text"]) == 3  # each one's own move, in the log
    assert h.undo()
    assert [(c.position.x, c.position.y) for c in h.present.combatants] == before


def test_all_or_none():
    """A bad spot for one token moves nobody, and names that token's field."""
    h = _three("strike-rank")
    enc = h.present
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "move_group", "moves": [{"id": "c1", "x": 1, "y": 1}, {"id": "c2", "x": "far"}]})
    assert e.value.field == "moves.1.position.x"
    for bad, field in (({"moves": []}, "moves"), ({"moves": [{"id": "c9"}]}, "moves.0.id"),
                       ({"moves": [{"id": "c1"}, {"id": "c1"}]}, "moves.1.id"), ({"moves": ["c1"]}, "moves.0"),
                       ({"moves": [{"id": ["c1"]}]}, "moves.0.id")):
        with pytest.raises(InvalidAction) as e:
            apply(enc, {"type": "move_group", **bad})
        assert e.value.field == field


def test_tactical_round_a_group_moved_in_the_move_phase_marks_each_mover_done():
    """Rule text (issue 32's reading of Tactical Round Sequence, Move phase): "moving a token in the Move phase
    marks that mover done" — for each token of a group as for one."""
    enc = fight(fighter("Mira", SWORD, side="party"), fighter("Bran", SWORD, side="party", x=3),
                fighter("Grak", SWORD, x=20))
    enc = declare(enc, "c1", {"action": "move"})
    enc = declare(enc, "c2", {"action": "move"})
    enc = declare(enc, "c3")
    enc, _ = apply(enc, NEXT)
    assert enc.phase == "move"
    enc, ev = apply(enc, {"type": "move_group", "moves": [{"id": "c1", "x": 5, "y": 0, "alt": 0},
                                                          {"id": "c2", "x": 8, "y": 0, "alt": 0}]})
    texts = [e["text"] for e in ev]
    assert "Mira's Move is done" in texts and "Bran's Move is done" in texts
    assert [d["done"] for d in enc.state["declared"]["c1"]] == [True]
    assert [d["done"] for d in enc.state["declared"]["c2"]] == [True]


def test_range_band_a_rider_in_the_group_stays_on_the_mount():
    """Range-band keeps mount and rider in one place ("move with" the other, as a single drag does)."""
    rs = get_ruleset("range-band")
    h = History(new_encounter("range-band", "Ride"))
    h.do({"type": "add_combatant", "combatant": {**rs.presets()[0], "name": "Grey", "side": "party"}})
    h.do({"type": "add_combatant", "combatant": {**rs.presets()[0], "name": "Kael", "side": "party",
                                                 "riding": "c1"}})
    h.do({"type": "add_combatant", "combatant": {**rs.presets()[0], "name": "Tam", "side": "party",
                                                 "position": {"x": 3, "y": 0}}})
    h.do({"type": "move_group", "moves": [{"id": "c1", "x": 10, "y": 4, "alt": 0},
                                          {"id": "c3", "x": 13, "y": 4, "alt": 0}]})
    at = {c.name: (c.position.x, c.position.y) for c in h.present.combatants}
    assert at == {"Grey": (10, 4), "Kael": (10, 4), "Tam": (13, 4)}
