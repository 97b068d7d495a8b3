"""A GM's sixth play-through of tactical-round: what it found, each checked against the rule text."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.tactical_round import rules
from fray.reducer import apply
from tr_helpers import BOW, SWORD, declare, fight, fighter


def _mira_reloaded():
    """Round 1: Mira, her bow empty, declares Reload alone; at Round 2's Declaration it is loaded."""
    enc = fight(fighter("Mira", {**BOW, "loaded": False}, side="party"), fighter("Orc", SWORD, x=8))
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})
    for _ in range(12):  # the page's Next: the declared reload does itself as Other Actions begins
        enc, _ = apply(enc, {"type": "advance", "ask": True, "go_on": True})
        if enc.phase == "declaration":
            break
    assert enc.round == 2 and enc.get("c1").data["weapons"][0]["loaded"]
    return enc


def test_a_reload_of_a_loaded_weapon_is_refused_beside_its_action():
    """Reloading: "Missile weapons must be loaded before each attack." A loaded bow has its shot to
    take: a Reload of it is refused, beside the row's Action, in the GM's words, and changes nothing."""
    enc = _mira_reloaded()
    with pytest.raises(RuleViolation) as e:
        apply(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": "reload", "weapon": 0}]})
    assert e.value.field == "actions.0.action"
    assert str(e.value).startswith("Bow is already loaded: declare the Ranged attack with it instead")


def test_as_last_round_offers_the_shot_a_reload_was_for():
    """Reloading: "Missile weapons must be loaded before each attack": last round's Reload was for
    this round's shot, so "as last round" offers the shot with that weapon on the nearest enemy, says
    so, and the declaration takes it."""
    enc = _mira_reloaded()
    rows, why = rules.last_declarations_checked(enc)["c1"]
    assert rows == [{"action": "ranged_attack", "weapon": 0, "target": "c2"}]
    assert why == "Bow is loaded now, so its Ranged attack is offered (last round: Reload a missile weapon)"
    apply(enc, {"type": "tr.declare", "id": "c1", "actions": rows})
