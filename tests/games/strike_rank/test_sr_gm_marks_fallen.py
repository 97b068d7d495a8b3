"""A GM's play-through of the final build (6 December): Broo 2, marked dead by the GM with Condition…
at SR 3, kept his declared attack, was timed again and "acted" at SR 11, where a blow's dead lose it
at once ("Wolf 1's attack at SR 4 is lost: Wolf 1 is dead")."""
from __future__ import annotations

import pytest

from sr_helpers import actions, declare, do, duel, fighter, texts, to_phase


@pytest.mark.parametrize("condition", ["dead", "unconscious", "incapacitated"])
def test_a_combatant_the_gm_marks_fallen_loses_his_later_actions_at_once(condition):
    """"Characters who become incapacitated generally lose actions that would have resolved after they
    are incapacitated": by the GM's hand as by a blow, in the same words, at once."""
    enc = duel(fighter("Ana", side="party"), fighter("Bor", x=1.5))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": condition})
    assert [a["status"] for a in actions(enc, "c2")] == ["lost"]
    assert f"is lost: Bor is {condition}" in texts(ev)
    # taken off again, nothing comes back, and a GM's mark on one already fallen loses nothing twice
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "prone"})
    assert "is lost" not in texts(ev)


def test_a_gm_mark_that_is_not_a_fall_loses_nothing():
    enc = duel(fighter("Ana", side="party"), fighter("Bor", x=1.5))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "prone"})
    assert [a["status"] for a in actions(enc, "c2")] == ["declared"]
