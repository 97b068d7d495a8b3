"""Issue 32 in the engine: the page's Next (``advance`` with ``ask``) never ends a living
combatant's declared action unresolved without the GM's word, actions that need no roll do
themselves in their phase, and the fallen are offered nothing and are never a default target."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.games.tactical_round import rules

from tr_helpers import BOW, KNIFE, QUICK, RS, SWORD, condition, declare, do, fight, fighter, to_phase

NEXT = {"type": "advance", "skip_empty": True, "ask": True}
GO_ON = {**NEXT, "go_on": True}


def texts(events) -> list[str]:
    return [e["text"] for e in events]


def archers():
    """Mira (party, a bow, at 0 m) and two orcs: Grak at 10 m, Uzg (an archer) at 30 m."""
    return fight(fighter("Mira", BOW, side="party"), fighter("Grak", SWORD, x=10),
                 fighter("Uzg", BOW, x=30), fighter("Bran", SWORD, side="party", x=2))


def test_next_names_an_open_ranged_attack_and_logs_the_gms_skip():
    """Issue 32: "Next must never end a live combatant's declared action without either resolving it or
    the GM choosing to skip it: say what is still open ("Mira's Ranged attack is not resolved:
    Resolve / Skip it"), and log the GM's choice." Rule text, Ranged Attacks: "To make a Ranged Attack,
    the character must have a clear Line of Sight" — the attack needs its roll, so it never does itself."""
    enc = declare(archers(), "c1", {"action": "ranged_attack", "weapon": 0, "target": "c2"})
    for cid in ("c2", "c3", "c4"):
        enc = declare(enc, cid)
    enc, _ = do(enc, NEXT)
    assert enc.phase == "ranged_a"
    with pytest.raises(RuleViolation, match="Mira's Ranged attack is not resolved: resolve it or skip it"):
        do(enc, NEXT)
    after, ev = do(enc, GO_ON)
    assert "The GM skips Mira's Ranged attack (Ranged A)" in texts(ev)
    assert (after.round, after.phase) == (2, "assessment")  # nothing else to do this round
    one, ev = do(enc, {"type": "tr.skip", "id": "c1"})  # or one at a time, from its line
    assert texts(ev) == ["The GM skips Mira's Ranged attack (Ranged A)"]
    assert one.state["declared"]["c1"][0]["skipped"] is True
    do(one, NEXT)  # nothing open now


def test_next_asks_who_has_not_declared_and_goes_on_when_told():
    """Issue 32, "Starting without setting up": "Say who has not declared and offer to go on"."""
    enc = to_phase(archers(), "declaration")
    enc = declare(enc, "c1", {"action": "move"})
    enc = condition(enc, "c3", "unconscious")  # the fallen are not asked for
    with pytest.raises(RuleViolation, match="Not declared yet: Grak and Bran. Declare, or go on without them"):
        do(enc, NEXT)
    enc, ev = do(enc, GO_ON)
    assert "The GM goes on: Grak and Bran declared nothing this round" in texts(ev)
    with pytest.raises(InvalidAction, match="only with ask"):
        do(to_phase(archers(), "declaration"), {"type": "advance", "go_on": True})


def test_a_declared_reload_loads_the_bow_in_its_phase_by_itself():
    """Rule text, Reloading: "Missile weapons must be loaded before each attack ... Reloading a missile
    weapon is a Full Action"; issue 32: "declared Reload actions ... were never resolved, with no log
    line, and every bow was still empty next round"; "Actions that need no roll (a reload, readying
    a thrown weapon, a move) resolve in their phase by themselves"."""
    empty = {**BOW, "loaded": False}
    enc = fight(fighter("Mira", empty, side="party"), fighter("Grak", SWORD, x=10),
                fighter("Uzg", empty, x=30), fighter("Bran", SWORD, side="party", x=2))
    enc = to_phase(enc, "declaration")
    bows = {cid: enc.get(cid).data["weapons"][0] for cid in ("c1", "c3")}
    assert all(not w["loaded"] for w in bows.values())
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})
    enc = declare(enc, "c3", {"action": "reload", "weapon": 0})
    enc = declare(enc, "c2")
    enc = declare(enc, "c4")
    log = []
    for _ in range(3):  # Declaration → (all done by itself: Other Actions passed over) → round 2
        enc, ev = do(enc, NEXT)
        log += texts(ev)
        if enc.round == 2:
            break
    assert (enc.round, enc.phase) == (2, "assessment")
    assert "Mira: Bow loaded (Full Action)" in log and "Uzg: Bow loaded (Full Action)" in log
    assert all(enc.get(cid).data["weapons"][0]["loaded"] for cid in ("c1", "c3"))


def test_a_quick_load_reload_is_done_before_the_shot_in_ranged_b_and_a_thrown_knife_is_readied():
    """Rule text, Reloading: "Weapons with the Quick Load property can be reloaded as a Half Action,
    allowing the character to attack in the same Round" and "Readying a thrown weapon is always a
    Half Action"."""
    enc = fight(fighter("Mira", {**QUICK, "loaded": False}, side="party"),
                fighter("Grak", {**KNIFE, "loaded": False}, x=3))
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0}, {"action": "ranged_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "ready_thrown", "weapon": 0})
    enc, ev = do(enc, NEXT)
    assert enc.phase == "ranged_b"
    assert "Mira: Light crossbow loaded (Half Action, Quick Load)" in texts(ev)
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2", "weapon": 0, "line_of_sight": True,
                      "rolls": {"attack": [40]}})
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 3})  # Next stops at a result not entered
    enc, ev = do(enc, NEXT)
    assert "Grak readies Knife (Half Action)" in texts(ev)
    assert enc.get("c2").data["weapons"][0]["loaded"]


def test_the_fallen_are_offered_nothing_and_their_declared_action_lapses_in_the_log():
    """Issue 32, "The fallen keep acting": "Dead, incapacitated and unconscious combatants get no forms
    and are never a default target"; FACTS.md, Hit points: "0 or below → incapacitated"."""
    enc = archers()
    for cid in ("c1", "c2", "c3", "c4"):
        enc = declare(enc, cid, {"action": "melee_attack", "weapon": 0, "target": "c1" if cid != "c1" else "c2"}) \
            if cid in ("c2", "c4") else declare(enc, cid)
    enc, _ = do(enc, NEXT)
    assert enc.phase == "melee"
    enc, _ = do(enc, {"type": "tr.adjust_hp", "id": "c2", "hits": 40})  # Grak to 0 HP: incapacitated
    assert "incapacitated" in enc.get("c2").conditions
    assert [s.combatant_id for s in RS.order_of_play(enc)] == ["c4"]
    for cond in ("dead", "unconscious"):
        assert [s.combatant_id for s in RS.order_of_play(condition(enc, "c4", cond))] == []
    with pytest.raises(RuleViolation, match="Bran's Melee attack"):
        do(enc, NEXT)  # Grak's attack is not asked about: it lapses
    enc, _ = do(enc, {"type": "tr.skip", "id": "c4"})
    enc, ev = do(enc, NEXT)
    assert "Grak is incapacitated: the declared Melee attack lapses" in texts(ev)


def test_the_default_target_is_the_nearest_living_enemy_never_an_ally():
    """Issue 32: "A default target is the nearest living enemy on the map, never an ally"."""
    enc = archers()  # Mira at 0 m; Bran (ally) 2 m, Grak 10 m, Uzg 30 m
    assert rules.default_target(enc, "c1") == "c2"
    assert rules.default_target(condition(enc, "c2", "dead"), "c1") == "c3"
    assert rules.default_target(enc, "c3") == "c4"  # Uzg at 30 m: Bran (28 m) is nearer than Mira
    gone = condition(condition(enc, "c2", "dead"), "c3", "incapacitated")
    assert rules.default_target(gone, "c1") == ""


def test_moving_the_token_in_the_move_phase_marks_the_mover_done():
    """Issue 32: "moving a token in the Move phase marks that mover done"; a Move left alone is done
    where the token stands as the phase ends (it needs no roll)."""
    enc = archers()
    enc = declare(enc, "c1", {"action": "move"})
    enc = declare(enc, "c4", {"action": "move"})
    enc = declare(enc, "c2")
    enc = declare(enc, "c3")
    enc, _ = do(enc, NEXT)
    assert enc.phase == "move"
    enc, ev = do(enc, {"type": "move", "id": "c1", "x": 4, "y": 1})  # the token dragged on the map
    assert "Mira's Move is done" in texts(ev)
    assert [d["done"] for d in enc.state["declared"]["c1"]] == [True]
    enc, ev = do(enc, NEXT)
    assert "Bran's Move is done: the token stands at (2, 0) m" in texts(ev)


def test_a_next_of_a_saved_history_goes_on_and_names_what_it_leaves():
    """A history saved before ``ask`` replays as it was played, and still no action goes silently."""
    enc = declare(archers(), "c1", {"action": "ranged_attack", "weapon": 0, "target": "c2"})
    enc = to_phase(enc, "ranged_a")
    enc, ev = do(enc, {"type": "advance"})
    assert "Next leaves Mira's Ranged attack unresolved" in texts(ev)
