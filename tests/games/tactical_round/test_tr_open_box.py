"""The tactical-round "still open" box after a Next that stopped (issue 32) names only what the engine's
Next stopped for: never an action that Next resolves by itself."""

from __future__ import annotations

from fray.games.tactical_round.web.ui import TacticalRoundUi
from fray.games.tactical_round import actions
from fray.games.tactical_round.web.panel import BY_NEXT, open_html


def _c(name: str, action: str, title: str) -> dict:
    return {"id": name.lower(), "name": name, "conditions": [],
            "declared": [{"action": action, "title": title, "phase": "move", "done": False}]}


def test_a_move_that_next_resolves_by_itself_is_not_offered_as_not_resolved():
    """"Next must never end a live combatant's declared action without either resolving it or the GM choosing
    to skip it" (issue 32): a Move resolves by itself as Next leaves the Movement phase (actions.leave_phase),
    so when Next stops for Bran's Run Away, the box lists only that, not Ana's Move with a Skip it that would
    throw her move away. (Two branches met here: the box listed every open action of the phase.)"""
    view = {"round": 1, "phase": {"id": "move"},
            "combatants": [_c("Ana", "move", "Move"), _c("Bran", "run_away", "Run Away")]}
    box = open_html(view, TacticalRoundUi(asked=[1, "move"]))
    assert "Bran&#x27;s Run Away is not resolved" in box or "Bran's Run Away is not resolved" in box
    assert "Ana" not in box
    assert "Skip it and go on" in box


def test_the_page_knows_the_same_actions_the_engine_resolves_by_itself():
    assert set(BY_NEXT) == set(actions.BY_THEMSELVES_ON_LEAVING) | set(actions.BY_THEMSELVES_ON_ENTRY)
