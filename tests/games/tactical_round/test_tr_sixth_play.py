"""A GM's sixth play-through of tactical-round: what it found, each checked against the rule text."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.tactical_round import rules
from fray.reducer import apply
from tr_helpers import BOW, RS, SWORD, declare, fight, fighter


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


def test_the_attack_form_says_who_strikes_first_in_the_melee_phase():
    """FACTS.md, the Tactical Round Sequence: "Melee (longest weapon first; tie: higher CMB; equal:
    simultaneous)". Lia's Staff (length 3) strikes before Orc 4's Scimitar (length 2): the page let
    Orc 4 attack first with no remark; now it is said, in the GM's words. Of equal length the higher
    CMB strikes first; equal ones strike together (nothing to say)."""
    from fray.games.tactical_round.order import strikes_first
    from tr_helpers import SPEAR, to_phase

    staff = {**SPEAR, "name": "Staff", "cmb": 20}
    scimitar = {**SWORD, "name": "Scimitar", "cmb": 35}
    enc = fight(fighter("Lia", staff, side="party"), fighter("Orc 4", scimitar, x=1.5),
                fighter("Orc 5", {**scimitar, "cmb": 45}, x=-1.5), fighter("Orc 6", {**scimitar, "cmb": 45}, y=1.5))
    for cid, target in (("c1", "c2"), ("c2", "c1"), ("c3", "c1"), ("c4", "c1")):
        enc = declare(enc, cid, {"action": "melee_attack", "weapon": 0, "target": target})
    enc = to_phase(enc, "melee")
    t = RS.all_tables(enc)
    assert strikes_first(enc, t, "c2") == ("Lia strikes first: Staff, length 3, is longer than Scimitar, length 2 "
                                          "(Melee: longest weapon first)")
    assert strikes_first(enc, t, "c1") == ""
    enc, _ = apply(enc, {"type": "tr.skip", "id": "c1"})  # Lia's blow left: next, the higher CMB
    assert strikes_first(enc, t, "c2") == ("Orc 5 strikes first: both weapons are length 2, and Orc 5's "
                                          "CMB 45 is higher than 35 (Melee: tie, higher CMB)")
    assert strikes_first(enc, t, "c3") == strikes_first(enc, t, "c4") == ""  # equal: simultaneous


def test_a_criticals_log_line_says_the_hp_after_and_when_it_kills_without_ambiguity():
    """FACTS.md, the attack: "the GM enters the result (hits and critical severity)"; "Hit points: 0 or below
    → incapacitated". A critical's extra hits are logged with the HP they leave, as an attack's hits are
    ("takes 7 hits (HP 33)"); its "Dies in (rounds) 2", entered in round 1, says how it was counted (the
    round dealt is the first: the GM's critical tables are not in the rule text)."""
    from tr_helpers import attack, to_phase

    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, HP=30))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc, _ = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    enc, _ = apply(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 23, "critical": "E", "rolls": {"critical": 90}})
    enc, events = apply(enc, {"type": "tr.apply_critical", "ref": "A1", "hits": 5, "dies_in": 2})
    assert enc.round == 1
    assert events[0]["text"] == ("A1 critical on Bor: 5 hits (HP 2), dies at the end of round 2 "
                                 "(dies in 2 rounds, this one the first)")
