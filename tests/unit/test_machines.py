"""One reducer state machine per ruleset (issue 8, item 4: "make the reducer's contract a test: a
Hypothesis state machine per ruleset (free-form, strike-rank, tactical-round, and range-band when
it exists) that generates real action types with plausible and adversarial field values, and
asserts that `apply` raises nothing but the engine's own errors, never touches its input, and that
save → load and undo-to-start round-trip").

The machine is ``reducer_machine.machine_for``; each ruleset is a ``Spec``. The plain tracker's is
here; each game's lives with the game's tests (tests/games/<game>/test_*_machine.py), built from
the core actions of ``machine_actions``. A game adds its own ``Spec`` and one ``Test...`` line.
"""

from __future__ import annotations

from fray.reducer import new_encounter
from machine_actions import CORE_FIELDS, core_actions
from reducer_machine import Spec, machine_for

# -- free-form ---------------------------------------------------------------------------------------

FREEFORM = Spec(
    ruleset="freeform",
    start=lambda: new_encounter("freeform", "Fuzz"),
    actions=core_actions("freeform"),
    fields=CORE_FIELDS,
)


TestFreeformMachine = machine_for(FREEFORM).TestCase
