"""Fray's reducer contract (tests/unit/reducer_machine.py) on the installed d20 game: real
actions with plausible and junk values; apply raises only the engine's errors, never edits its
input, and save → load and undo-to-start round-trip. Run with Fray's tests/unit on sys.path."""

from __future__ import annotations

from hypothesis import strategies as st
from reducer_machine import Spec, machine_for

from fray.reducer import new_encounter

IDS = st.sampled_from(["c1", "c2", "c3", "c9"])


def start():
    from fray.history import History
    import random

    h = History(new_encounter("d20-skirmish", "Fuzz"))
    for name, hp in (("Bryn", 12), ("Goblin", 5), ("Wolf", 8)):
        h.do({"type": "add_combatant", "combatant": {"name": name, "stats": {"hp": hp, "defence": 12}}}, random.Random(1))
    return h.present


def d20_down_leave_the_order(before, after, events, action):
    from fray.games import get_ruleset

    order = [s.combatant_id for s in get_ruleset("d20-skirmish").order_of_play(after)]
    assert not any("down" in c.conditions and c.id in order for c in after.combatants)


ACTIONS = st.one_of(
    st.just({"type": "advance"}),
    st.builds(lambda a, t, r, d: {"type": "d20.attack", "attacker": a, "target": t, "rolls": {"attack": r, "damage": d}},
              IDS, IDS, st.integers(1, 20), st.integers(1, 6)),
    st.builds(lambda a, t: {"type": "d20.attack", "attacker": a, "target": t}, IDS, IDS),
    st.builds(lambda i, hp: {"type": "edit_combatant", "id": i, "changes": {"stats": {"hp": hp}}}, IDS,
              st.integers(1, 20)),
    st.builds(lambda n: {"type": "add_combatant", "combatant": {"name": n, "stats": {"hp": 4}}}, st.sampled_from(["Rat", "Bat"])),
    st.builds(lambda i: {"type": "duplicate_combatant", "id": i}, IDS),
)

D20 = Spec(ruleset="d20-skirmish", start=start, actions=ACTIONS,
           fields=("attacker", "target", "rolls", "id", "changes", "combatant"),
           checks=(d20_down_leave_the_order,))

TestD20Machine = machine_for(D20).TestCase
