"""What a GM's play-through of the tactical round left, in the engine: a critical waiting for its
effects was passed over by Next without a word; the declaration's log line named no weapon; the
acting row of an attack made on another target than the declared one still named the declared one."""

from __future__ import annotations

import re

from tr_helpers import RS, SWORD, declare, do, fight, fighter, next_stops_at_a1

NEXT = {"type": "advance", "skip_empty": True, "ask": True}


def texts(events) -> list[str]:
    return [e["text"] for e in events]


def melee():
    """Mira (party) and two orcs beside her, Grak and Uzg, all with swords; each declares a Melee attack."""
    enc = fight(fighter("Mira", SWORD, side="party"), fighter("Grak", SWORD, x=1), fighter("Uzg", SWORD, y=1))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = declare(enc, "c3", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc, _ = do(enc, NEXT)
    assert enc.phase == "melee"
    return enc


def with_a_critical_waiting(enc):
    """Mira's blow on Grak, and the GM's reading of the attack table: 5 hits and a critical B."""
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2", "rolls": {"attack": [60]}})
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 5, "critical": "B", "rolls": {"critical": 40}})
    assert [p["stage"] for p in enc.state["pending"]] == ["critical"]
    for cid in ("c2", "c3"):
        enc, _ = do(enc, {"type": "tr.skip", "id": cid})
    return enc


def test_next_stops_at_a_critical_waiting_for_its_effects_and_the_gm_leaves_it_in_words():
    """FACTS.md, the attack: "the GM enters the result (hits and critical severity) ... Critical
    severity adds +0 / +10 / +20 / +30 / +50 to the critical roll": the critical's effects are the GM's
    to give. A GM's play-through: Next went on with the critical still waiting, and it was missed."""
    next_stops_at_a1(with_a_critical_waiting(melee()), "A1's critical B on Grak is not applied: apply it or leave it",
                     "The GM goes on: A1's critical B on Grak is left unapplied",
                     {"type": "tr.apply_critical", "ref": "A1", "hits": 3})


def test_the_declaration_says_with_which_weapon_and_on_whom():
    """Tactical Round Sequence (FACTS.md): "Declaration" comes before "Melee (longest weapon first ...)":
    the weapon declared decides when the attack is made, so the log says it. A GM's play-through read
    "Orc 1 declares: Melee attack (Melee, full)", no weapon named."""
    enc = fight(fighter("Mira", SWORD, side="party"), fighter("Orc 1", {**SWORD, "name": "Scimitar"}, x=1))
    enc = declare(enc, "c1")
    enc, ev = do(enc, {"type": "tr.declare", "id": "c2",
                       "actions": [{"action": "melee_attack", "weapon": 0, "target": "c1"}]})
    assert texts(ev) == ["Orc 1 declares: Melee attack with Scimitar on Mira (Melee, full)"]
    enc, ev = do(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": "other"}]})
    assert texts(ev)[0].startswith("Mira declares: Other")  # no weapon, no target: nothing more said


def test_the_acting_row_says_whom_the_attack_went_to():
    """Combat Actions: each declared action is made in its phase; the attack is made on the target the
    GM chooses then (the declared one may have moved or fallen). A GM's play-through: Mira's blow went
    to Uzg, and her row still read "Melee attack → Grak ... done"."""
    enc = melee()
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c3", "rolls": {"attack": [60]}})
    row = next(s for s in RS.order_of_play(enc) if s.combatant_id == "c1")
    assert row.explanation.startswith("Melee attack → Uzg (declared: Grak) with Sword")
    assert enc.state["declared"]["c1"][0]["done"]
    same, _ = do(melee(), {"type": "tr.attack", "id": "c1", "target": "c2", "rolls": {"attack": [60]}})
    row = next(s for s in RS.order_of_play(same) if s.combatant_id == "c1")
    assert row.explanation.startswith("Melee attack → Grak with Sword")
    assert "attacked" not in same.state["declared"]["c1"][0]  # as declared: nothing more kept


def test_the_box_of_a_next_that_stopped_offers_to_apply_the_critical_or_leave_it():
    """The same stop on the page: the box says which critical waits, with Apply it / Leave it and go on, and the
    acting row of the one whose blow it was says it too."""
    from fray.games.tactical_round.web.panel import acting_html, open_html
    from fray.games.tactical_round.web.ui import TacticalRoundUi

    enc = with_a_critical_waiting(melee())
    view = RS.view(enc)
    box = str(open_html(view, TacticalRoundUi(asked=[enc.round, enc.phase])))
    assert "Attack A1&#x27;s critical B on Grak is not applied" in box or "Attack A1's critical B on Grak is not applied" in box
    assert "Apply it" in box and "Leave it and go on" in box
    row = str(acting_html(view))
    assert "Critical B on Grak to apply" in row and "has-crit" in row


def test_the_box_of_a_next_that_stopped_has_one_way_to_leave_a_critical():
    """FACTS.md, the attack: the critical's effects are the GM's to give, or to leave. A GM's play-through:
    Next's box offered both "Leave it" and "Leave it and go on" for the one critical: two buttons for one
    choice, the first leaving it without going on. One way to leave it, which says that Next goes on."""
    from fray.games.tactical_round.web.panel import open_html
    from fray.games.tactical_round.web.ui import TacticalRoundUi

    enc = with_a_critical_waiting(melee())
    box = str(open_html(RS.view(enc), TacticalRoundUi(asked=[enc.round, enc.phase])))
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", box)
    assert [b for b in buttons if "Leave" in b] == ["Leave it and go on"]
    assert 'data-act="tr-dismiss"' not in box
    assert "Apply it" in buttons
