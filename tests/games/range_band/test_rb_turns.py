"""The round's slots stay with their combatants (issue 32): a death or a removal never hands a turn to
someone else, the fallen get no slot and can be brought back, Next skips an open roll only when the
GM names it (and logs it), and every turn order can be rolled at once (turns.py).

The round (FACTS.md): "a movement phase, then an action phase in which each character takes one turn in
turn order"."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.reducer import apply
from rb_helpers import (RS, act, current, fight, hind, last_pending, pending, person, resolve, rider_and_horse, start,
                        to_phase)


def three():
    enc = fight(person("Ana"), person("Bo", side="foes"), person("Cy"))
    for cid, v in (("c1", 20), ("c2", 15), ("c3", 10)):
        enc = act(enc, "turn_order", id=cid, value=v)
    return enc


def test_a_death_earlier_in_the_order_leaves_the_turn_with_whoever_has_it():
    """The round: "each character takes one turn in turn order". Bo kills Ana (before Bo in the order):
    it is still Bo's turn, and Cy's turn still comes after it."""
    enc = to_phase(start(three()), "actions", "c2")
    enc = act(enc, "status", id="c1", status="dead")
    assert current(enc) == "c2"
    enc, events = apply(enc, {"type": "advance"})
    assert current(enc) == "c3" and enc.phase == "actions"
    assert "Cy's turn" in [e["text"] for e in events]


def test_removing_a_combatant_or_adding_one_keeps_the_turn():
    """The round: the GM removing Ana or adding a newcomer mid-turn does not move Bo's turn to another."""
    enc = to_phase(start(three()), "actions", "c2")
    gone, _ = apply(enc, {"type": "remove_combatant", "id": "c1"})
    assert current(gone) == "c2"
    more, _ = apply(enc, {"type": "add_combatant", "combatant": person("Ace")})
    more = act(more, "turn_order", id="c4", value=30)
    assert current(more) == "c2"


def test_the_acting_combatant_falling_ends_their_turn_and_the_next_one_begins_said_in_the_log():
    """The round: a combatant out of the fight takes no turn; when Bo falls in Bo's own turn, the turn passes
    to Cy (whose turn begins, logged), and when the last one falls, Next goes on to the next round."""
    enc = to_phase(start(three()), "actions", "c2")
    enc, events = apply(enc, {"type": "rb.status", "id": "c2", "status": "incapacitated"})
    assert current(enc) == "c3"
    assert any("Bo is out of the fight" in e["text"] and "Cy's begins" in e["text"] for e in events)
    assert "c2" not in [s.combatant_id for s in RS.order_of_play(enc)]
    enc = act(enc, "status", id="c3", status="dead")
    assert current(enc) is None
    enc, _ = apply(enc, {"type": "advance"})
    assert (enc.round, enc.phase, current(enc)) == (2, "movement", "c1")


def test_the_fallen_are_brought_back_by_the_gm():
    """The round: the GM brings a fallen combatant back (a revived death from lack of air is "revivable"); they
    take their turns again."""
    enc = act(three(), "status", id="c2", status="dead")
    with pytest.raises(RuleViolation):
        act(enc, "bring_back", id="c1")
    enc, events = apply(enc, {"type": "rb.bring_back", "id": "c2"})
    assert "dead" not in enc.get("c2").conditions and "back in the fight" in events[0]["text"]
    enc = to_phase(start(enc), "actions", "c2")
    assert current(enc) == "c2"


def test_next_skips_an_open_roll_only_when_the_gm_names_it_and_logs_it():
    """The round: Next never drops a declared movement silently; ``advance {skip}`` names the rolls the GM skips,
    each logged; an unknown one is refused and nothing changes."""
    enc = to_phase(start(three()), "movement", "c1")
    enc = act(enc, "move", id="c1", x=5)
    ref = last_pending(enc, "movement")["ref"]
    with pytest.raises(InvalidAction):
        apply(enc, {"type": "advance", "skip": ["R99"]})
    kept, _ = apply(enc, {"type": "advance"})
    assert [p["ref"] for p in pending(kept)] == [ref]  # a plain Next drops nothing
    enc, events = apply(enc, {"type": "advance", "skip": [ref]})
    assert not pending(enc) and current(enc) == "c2"
    assert any(e["detail"].get("ref") == ref and "skipped by the GM" in e["text"] for e in events)



def test_a_skipped_movement_roll_leaves_no_record_that_it_was_made():
    """Back in Combat: "Your ranged attacks receive 1 Hindrance in their offense roll while you are mounted; this is
    increased to 2 Hindrance if the mount moved on its last turn, or 3 Hindrance if the mount was rushing." A roll
    skipped at Next was never rolled, yet the mount's movement record stayed: its rider's shot took 3 Hindrance for
    a rush that never happened (and the mover was heard moving). Skipped, the movement roll leaves no record, as a
    dismissed one: the log says it was not made and that the mount does not move."""
    enc = to_phase(start(rider_and_horse()), "movement", "c2")
    enc = act(enc, "move", id="c2", x=20, rush=True)
    enc, events = apply(enc, {"type": "advance", "skip": [last_pending(enc, "movement")["ref"]]})
    said = [e["text"] for e in events]
    assert "R1 Horse: Movement roll skipped by the GM at Next (not rolled); Horse has not made this movement " \
           "phase's movement roll" in said[0] and "Horse does not move" in said
    assert (enc.get("c2").data.get("moved") or {}).get("round") != enc.round
    enc = act(to_phase(enc, "actions", "c1"), "attack", id="c1", target="c3", weapon=1)
    assert hind(last_pending(enc, "offense")["spec"]) == {"mounted": 1}


def test_a_movement_passed_without_a_move_is_said_in_the_log():
    """The round: "a movement phase, then an action phase in which each character takes one turn in turn order". Next
    on the Hermit's movement logged nothing (tactical-round says "declared nothing this round" on a pass): a
    movement slot passed without a movement roll or a descent says so; one that moved, or failed its roll, does
    not say it again."""
    enc = to_phase(start(three()), "movement", "c1")
    enc, events = apply(enc, {"type": "advance"})
    assert [e["text"] for e in events] == ["Ana does not move"] and events[0]["kind"] == "skip"
    assert current(enc) == "c2"
    enc = act(enc, "move", id="c2", x=5)
    enc, _ = apply(enc, {"type": "rb.resolve", "ref": last_pending(enc, "movement")["ref"], "success": False, "by": 2})
    enc, events = apply(enc, {"type": "advance"})
    assert not any("does not move" in e["text"] for e in events)

def test_roll_turn_order_gives_the_fallen_none():
    """The round: "each character takes one turn in turn order"; Statuses: the dead and the incapacitated cannot act.
    A GM's play-through: "Turn order rolled ... Bandit's Nag 14" gave the dead horse a turn order. Rolling for all
    rolls for those in the fight only, and says nothing of the fallen."""
    enc = fight(person("Ana"), person("Nag", side="foes"), person("Cy", side="foes"))
    enc = act(enc, "status", id="c2", status="dead")
    enc, events = apply(enc, {"type": "rb.roll_turn_order", "all": True, "rolls": {"turn.c1": [17], "turn.c3": [5]}})
    assert enc.get("c2").data.get("turn_value") is None
    assert events[0]["text"] == "Turn order rolled (d20, assumed): Ana 17, Cy 5"
    with pytest.raises(RuleViolation, match="everyone in the fight already has a turn order"):
        act(enc, "roll_turn_order")


def test_roll_turn_order_for_all_who_have_none_typed_faces_win():
    """The round ("turn order"): one action rolls every missing turn order (die assumed d20), the GM's typed
    faces win, a typed value is kept, and with everyone set it is refused."""
    enc = fight(person("Ana"), person("Bo"), person("Cy"))
    enc = act(enc, "turn_order", id="c2", value=3)
    enc, events = apply(enc, {"type": "rb.roll_turn_order", "rolls": {"turn.c1": [17], "turn.c3": [5]}})
    assert [enc.get(c).data["turn_value"] for c in ("c1", "c2", "c3")] == [17, 3, 5]
    assert "assumed" in events[0]["text"]
    with pytest.raises(RuleViolation):
        act(enc, "roll_turn_order")
    enc, _ = apply(enc, {"type": "rb.roll_turn_order", "all": True, "stat": "DEX", "rolls": {
        "turn.c1": [1], "turn.c2": [2], "turn.c3": [3]}})
    assert [enc.get(c).data["turn_value"] for c in ("c1", "c2", "c3")] == [13, 14, 15]
    with pytest.raises(InvalidAction):
        act(enc, "roll_turn_order", die="d7")


def sneak_shoots():
    """Sly (High Stealth, unseen) shoots Mark in the action phase of round 1: a stealth attack with its warning note
    (as an earlier edition's save holds it)."""
    enc = fight(person("Sly", stealth="high", side="foes"), person("Mark", x=20), person("Lookout", x=21))
    for cid, v in (("c1", 20), ("c2", 15), ("c3", 10)):
        enc = act(enc, "turn_order", id=cid, value=v)
    enc = to_phase(start(enc), "actions", "c1")
    enc = act(enc, "attack", id="c1", target="c2", kind="ranged")
    # the note a save of rules edition .27 or earlier carries (an attack sent now leaves none: the question is the
    # form's preview); such notes still close and expire
    enc.state["prompts"] = [{"ref": "P1", "kind": "warning", "combatant": "c2", "round": 1,
                             "text": "Stealth attack on Mark: may an ally warn them?"}]
    return enc


def test_a_stealth_attacks_warning_note_closes_logged_when_its_target_falls():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one
    of their allies": once the defender is dead, no warning can help it. The note closed only by hand and stayed
    open for rounds after its target died (issue 33); it closes when the target falls, with a line in the log."""
    enc = sneak_shoots()
    ref = enc.state["prompts"][0]["ref"]
    enc, events = apply(enc, {"type": "rb.status", "id": "c2", "status": "dead"})
    assert not enc.state.get("prompts")
    said = [e["text"] for e in events if e["kind"] == "dismiss"]
    assert said == [f"{ref} closed: Mark is out of the fight (dead), so the warning note of a stealth attack no longer "
                    "applies"]
    # a fall prompt is not a note of the moment: it stays for the GM
    flyer = fight(person("Wing", flying=True, stats={"FSPD": 12}, position={"x": 0, "y": 0, "alt": 30}))
    flyer = act(flyer, "status", id="c1", status="dead")
    assert [p["kind"] for p in flyer.state["prompts"]] == ["fall"]


def test_notes_with_no_roll_expire_at_the_end_of_their_round_logged():
    """Detection Rolls: "The roll occurs immediately after the end of the movement or action in question", and a
    warning concerns the attack it came with: notes of the moment need no roll and must not pile up under Rolls to
    settle. Left open, they expire at the end of the round they were raised in, said in the log in one line."""
    enc = sneak_shoots()
    ref = enc.state["prompts"][0]["ref"]
    while enc.round == 1:
        enc, events = apply(enc, {"type": "advance"})
    assert not enc.state.get("prompts")
    line = [e["text"] for e in events if e["kind"] == "dismiss"]
    assert line == ["End of round 1: the warning note of a stealth attack (Mark) expired, left as it was "
                    "(no roll was asked)"]
    assert ref not in line[0]  # a label the panel no longer shows is not a name


def test_an_attack_with_roll_is_rolled_at_once_and_says_the_mechanic_is_assumed_in_full_only_the_first_time():
    """The core roll is not in the excerpt (rules README: "the core roll of the range-band game"), so Fray's roll
    uses the default mechanic of table ``core_roll``, assumed. ``rb.attack {roll: true}`` is the attack and Fray's
    roll of its offense in one action (one tap, one undo); the log says the mechanic is assumed in full the first
    time, and in two words on every later roll, so every assumed figure stays marked without the sentence on
    each line."""
    enc = fight(person("Ana"), person("Bo", side="foes", x=1))
    first, events = apply(enc, {"type": "rb.attack", "id": "c1", "target": "c2", "roll": True,
                                "rolls": {"roll": [15]}})
    assert not first.state.get("pending")
    rolled = [e["text"] for e in events if e["kind"] == "roll"]
    assert len(rolled) == 1 and rolled[0].startswith("R1 Offense roll") and "rolled 15" in rolled[0]
    assert rolled[0].endswith("(default mechanic, assumed: not in the published rules; later rolls by it say "
                              "\"assumed mechanic\")")
    again, events = apply(first, {"type": "rb.attack", "id": "c1", "target": "c2", "size": "minor", "roll": True,
                                  "rolls": {"roll": [3]}})
    rolled = [e["text"] for e in events if e["kind"] == "roll"]
    assert rolled[0].endswith("(assumed mechanic)") and "published rules" not in rolled[0]
    # the GM's own result is the GM's: no mark
    gm = act(enc, "attack", id="c1", target="c2")
    _, events = apply(gm, {"type": "rb.resolve", "ref": "R1", "success": True, "by": 2})
    assert "assumed" not in [e["text"] for e in events if e["kind"] == "roll"][0]


def test_done_all_dismisses_several_notes_in_one_action_or_none():
    """The page's "Done all" for the notes that need no roll: ``rb.dismiss {refs}`` drops them all, each logged, in
    one action (one undo); one unknown ref and nothing goes."""
    enc = sneak_shoots()
    enc.state["prompts"].append({**enc.state["prompts"][0], "ref": "P2", "combatant": "c3"})
    refs = [p["ref"] for p in enc.state["prompts"]]
    assert len(refs) == 2
    with pytest.raises(InvalidAction) as e:
        act(enc, "dismiss", refs=refs + ["P99"])
    assert e.value.field == "refs"
    for bad in ([], "P1", [refs[0], refs[0]]):
        with pytest.raises(InvalidAction):
            act(enc, "dismiss", refs=bad)
    done, events = apply(enc, {"type": "rb.dismiss", "refs": refs})
    assert not done.state.get("prompts") and [e["text"] for e in events] == [f"{r} dismissed" for r in refs]


def test_before_the_fight_the_order_of_play_is_the_turn_order_as_soon_as_it_is_rolled():
    """The round: "each character takes one turn in turn order". After "Roll turn order for all" the order strip
    kept the order the combatants were added in until the fight started (issue 33): before the fight the order of
    play is already the turn order (highest first; those without a value last), though nobody acts in it."""
    enc = fight(person("Ana"), person("Bo", side="foes"), person("Cy"))
    enc = act(enc, "turn_order", id="c3", value=18)
    enc = act(enc, "turn_order", id="c2", value=4)
    assert [s.combatant_id for s in RS.order_of_play(enc)] == ["c3", "c2", "c1"]
    assert RS.turn_of(enc) is None
    rolled, _ = apply(enc, {"type": "rb.roll_turn_order", "rolls": {"turn.c1": [20]}})
    assert [s.combatant_id for s in RS.order_of_play(rolled)] == ["c1", "c3", "c2"]


def test_a_rider_says_in_the_strip_why_it_has_no_movement_slot():
    """Back in Combat: the rider rides its mount ("Mounts cannot carry more than one character as a proper rider"),
    and the mount's movement carries it: in the movement phase the rider has no slot of its own and the strip
    greyed it at the end with no reason (issue 33). Its state says so: "moves with Horse"; in the action
    phase its turn is its own, with no such word."""
    from rb_helpers import rider_and_horse
    enc = rider_and_horse()
    for cid, v in (("c1", 12), ("c2", 10), ("c3", 8)):
        enc = act(enc, "turn_order", id=cid, value=v)
    enc = start(enc)
    assert enc.phase == "movement" and "c1" not in [s.combatant_id for s in RS.order_of_play(enc)]
    view = RS.view(enc)
    assert RS.status(enc, view, "c1")["word"] == "moves with Horse"
    assert RS.status(enc, view, "c2")["word"] == ""
    acts = to_phase(enc, "actions", "c1")
    assert RS.status(acts, RS.view(acts), "c1")["word"] == ""


def test_a_name_ending_in_s_takes_an_apostrophe_alone():
    """The log in the GM's words. A GM's play-through read "Sneak the Whisper in the Reeds's Shortbow": a name ending
    in s takes the apostrophe alone ("Reeds' Shortbow"); others "'s"."""
    enc = fight(person("Sneak the Whisper in the Reeds", side="foes"), person("Mark", x=20))
    enc = resolve(act(enc, "attack", id="c1", target="c2", kind="ranged"), "offense", by=2)
    assert enc.log[-1].text.startswith("Sneak the Whisper in the Reeds' ranged attack succeeds")
    back = resolve(act(enc, "attack", id="c2", target="c1", kind="ranged", size="free"), "offense", by=2)
    assert back.log[-1].text.startswith("Mark's ranged attack succeeds")
