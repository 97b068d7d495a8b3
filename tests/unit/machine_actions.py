"""What every game's reducer state machine shares (tests/unit/test_machines.py for the plain
tracker, tests/games/<game>/test_*_machine.py for each game): the core actions every ruleset takes,
with plausible and adversarial field values."""

from __future__ import annotations

import os
import sys

from hypothesis import strategies as st

from fray.games import get_ruleset

sys.path.insert(0, os.path.dirname(__file__))
import test_properties as core  # noqa: E402

IDS = st.sampled_from(["c1", "c2", "c3", "c4", "c9"])
CORE_FIELDS = ("id", "combatant", "changes", "x", "y", "alt", "condition", "on", "lasts", "text", "name", "order", "table",
               "value", "rolls", "before", "after")

# The GM's own order among equals (issue 10, "The GM settles ties") and many of one kind ("Add ×N",
# "Duplicate"): plausible ids, so most of them meet real combatants, equals or not.
TIES = st.builds(lambda a, where, b: {"type": "settle_tie", "id": a, where: b}, IDS,
                 st.sampled_from(["before", "after"]), IDS)
COPIES = st.builds(lambda i: {"type": "duplicate_combatant", "id": i}, IDS)


def add_many(ruleset_id: str) -> st.SearchStrategy:
    """Add ×N of one of the ruleset's ready-made combatants (free-form: a plain one)."""
    presets = get_ruleset(ruleset_id).presets() or [{"name": "Goblin", "stats": {"initiative": 12}}]
    return st.builds(lambda p, n: {"type": "add_combatant", "combatant": {**p, "count": n}},
                     st.sampled_from(presets), st.one_of(st.integers(1, 4), st.sampled_from([0, 201, "many", "3"])))


def core_actions(ruleset_id: str) -> st.SearchStrategy:
    """The core actions every ruleset takes, plus a table edit of one of its own tables."""
    rs = get_ruleset(ruleset_id)
    tables = sorted(rs.tables)
    edits = st.builds(lambda t, note: {"type": "set_table", "table": t, "value": {**rs.tables[t], "gm_note": note}},
                      st.sampled_from(tables), st.text(max_size=10)) if tables else st.nothing()
    resets = st.builds(lambda t: {"type": "set_table", "table": t, "value": None}, st.sampled_from(tables)) \
        if tables else st.nothing()
    return st.one_of(core.actions, edits, resets, TIES, TIES, COPIES, add_many(ruleset_id))


# -- free-form ---------------------------------------------------------------------------------------
