"""An attack late in a long fight copies no more than one early in it (issue 36).

``state["actions"]`` holds every Melee Round's declared actions, all fight long. A draft copies
what a handler reads (``fray.sharing``), and the attack's check for a caster to interrupt
("A character who takes damage, parries, or dodges while casting a spell must make an INT×3% test
or be interrupted"), the loss of an incapacitated combatant's actions, the search for the action
being changed and the look for spells still being cast read them all: each attack of the twelfth
Melee Round copied some 120 actions (and pickled each), garbage that grew with the fight and that
the page's memory never gave back. They now read without copying and copy only what they edit.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fray import sharing
from fray.history import History

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import fights  # noqa: E402


def test_an_attack_copies_as_little_in_the_twelfth_melee_round_as_in_the_first(monkeypatch):
    h = fights.fight("strike-rank", 12, 400, hp=400)
    made = [0]
    own = sharing.Copies.own

    def counting(self, v, depth):
        made[0] += 1
        return own(self, v, depth)

    monkeypatch.setattr(sharing.Copies, "own", counting)
    again = History(h.initial)
    per_attack: dict[int, list[int]] = {}
    for a in h.actions:
        made[0] = 0
        again.do(a)
        if a["type"] == "sr.attack":
            per_attack.setdefault(again.present.round, []).append(made[0])
    first, last = min(per_attack), max(per_attack)
    assert last >= 10, per_attack.keys()  # a long fight: many rounds of actions in state["actions"]
    assert max(per_attack[last]) <= max(per_attack[first]) + 2, (per_attack[first], per_attack[last])
    assert again.present == h.present or repr(again.present) == repr(h.present)
