"""Issue 10, "Conditions with durations that expire on their own (for N rounds, until the start or
end of someone's turn), with the ruleset's own conditions offered first and their effects
applied where the rules give one." (fray.timers)

Rules cited: range-band, FACTS.md (The round): "A duration counts down when the turn order
reaches the same place in a later round, so a 1-round effect ends right before that character's
next turn"; the range-band text: "a minor stunned status until the end of your next turn";
strike-rank: "In combat, time is divided into Melee Rounds (MR)".
"""

from __future__ import annotations

from dataclasses import asdict

import pytest

from fray.errors import InvalidAction
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset


def free_fight(*names_inits):
    h = History(new_encounter("freeform", "Timers"))
    for name, init in names_inits:
        h.do({"type": "add_combatant", "combatant": {"name": name, "stats": {"initiative": init}}})
    return h


def cond(h, cid, name, lasts=None, on=True):
    a = {"type": "set_condition", "id": cid, "condition": name, "on": on}
    if lasts is not None:
        a["lasts"] = lasts
    h.do(a)


def has(h, cid, name):
    return name in h.present.get(cid).conditions


def nxt(h, n=1):
    for _ in range(n):
        h.do({"type": "advance"})


def test_for_n_rounds_ends_as_round_from_plus_n_begins():
    """The round it is set in counts as the first: 2 rounds set in round 1 end as round 3 begins."""
    h = free_fight(("Orc", 10), ("Elf", 5))
    nxt(h)  # round 1 begins, Orc's turn
    cond(h, "c1", "stunned", {"rounds": 2})
    nxt(h, 2)  # Elf; round 2, Orc
    assert h.present.round == 2 and has(h, "c1", "stunned")
    nxt(h)  # Elf
    assert has(h, "c1", "stunned")
    nxt(h)  # round 3
    assert h.present.round == 3 and not has(h, "c1", "stunned")
    last = [e.text for e in h.present.log][-1]
    assert last == "Orc is no longer stunned (2 rounds over)"
    assert h.present.state["timers"] == []


def test_expiry_is_part_of_the_action_so_undo_brings_the_condition_back():
    h = free_fight(("Orc", 10), ("Elf", 5))
    nxt(h)
    cond(h, "c1", "stunned", {"rounds": 1})
    before = asdict(h.present)
    nxt(h, 2)
    assert not has(h, "c1", "stunned")
    h.undo()
    h.undo()
    assert asdict(h.present) == before and has(h, "c1", "stunned")


def test_until_the_start_of_someones_next_turn():
    h = free_fight(("Orc", 10), ("Elf", 5), ("Wolf", 1))
    nxt(h)  # Orc's turn
    cond(h, "c3", "prone", {"until": "turn_start", "of": "c2"})
    nxt(h)  # Elf's turn starts: the wolf gets up
    assert not has(h, "c3", "prone")
    assert h.present.log[-1].text == "Wolf is no longer prone (the start of Elf's turn)"


def test_until_the_end_of_next_turn_is_not_the_turn_under_way():
    """Set during the holder's own turn, "next turn" is the following one (range-band text:
    "a minor stunned status until the end of your next turn")."""
    h = free_fight(("Orc", 10), ("Elf", 5))
    nxt(h)  # Orc's turn, round 1
    cond(h, "c1", "dazed", {"until": "turn_end", "of": "c1"})
    nxt(h)  # Orc's turn ends: not the next one
    assert has(h, "c1", "dazed")
    nxt(h)  # round 2: Orc's next turn starts
    assert has(h, "c1", "dazed")
    nxt(h)  # it ends
    assert not has(h, "c1", "dazed")
    assert h.present.log[-1].text == "Orc is no longer dazed (the end of their turn)"


def test_a_single_combatant_s_turns_follow_each_other():
    h = free_fight(("Orc", 10))
    nxt(h)
    cond(h, "c1", "dazed", {"until": "turn_end"})
    nxt(h)  # end of this turn (not the next), start of the next
    assert has(h, "c1", "dazed")
    nxt(h)
    assert not has(h, "c1", "dazed")


def test_taking_the_condition_off_by_hand_drops_its_timer():
    h = free_fight(("Orc", 10))
    cond(h, "c1", "stunned", {"rounds": 3})
    cond(h, "c1", "stunned", on=False)
    assert h.present.state["timers"] == []


def test_a_duration_given_to_a_condition_already_on_replaces_the_old_one():
    h = free_fight(("Orc", 10))
    cond(h, "c1", "stunned")
    cond(h, "c1", "stunned", {"rounds": 2})
    assert h.present.log[-1].text == "Orc stays stunned (2 rounds left)"
    cond(h, "c1", "stunned", {"rounds": 5})
    assert [t["rounds"] for t in h.present.state["timers"]] == [5]


def test_a_leaving_combatant_takes_its_timers_and_the_ones_waiting_for_its_turn():
    h = free_fight(("Orc", 10), ("Elf", 5))
    cond(h, "c1", "prone", {"until": "turn_start", "of": "c2"})
    cond(h, "c2", "stunned", {"rounds": 1})
    h.do({"type": "remove_combatant", "id": "c2"})
    assert h.present.state["timers"] == []
    assert has(h, "c1", "prone")
    assert h.present.log[-1].text == "Orc stays prone until removed (it was to end with Elf's turn)"


@pytest.mark.parametrize("lasts, field, words", [
    ({"rounds": 0}, "lasts.rounds", "from 1 to 1000"),
    ({"rounds": 1.5}, "lasts.rounds", "whole number"),
    ({"rounds": "two"}, "lasts.rounds", "whole number"),
    ({"rounds": True}, "lasts.rounds", "whole number"),
    ({"rounds": 2, "of": "c1"}, "lasts", "nothing else"),
    ({"until": "dawn"}, "lasts.until", "turn_start"),
    ({"until": "turn_end", "of": "c9"}, "lasts.of", "no combatant 'c9'"),
    ("2 rounds", "lasts", "must be"),
])
def test_a_bad_duration_is_refused_at_its_field_and_changes_nothing(lasts, field, words):
    h = free_fight(("Orc", 10))
    before = asdict(h.present)
    with pytest.raises(InvalidAction) as e:
        cond(h, "c1", "stunned", lasts)
    assert e.value.field == field and words in str(e.value)
    assert asdict(h.present) == before


def test_turn_durations_are_refused_where_there_are_no_turns():
    """Strike-rank: "In combat, time is divided into Melee Rounds (MR)", run by strike ranks."""
    enc = new_encounter("strike-rank")
    enc, _ = apply(enc, {"type": "add_combatant",
                         "combatant": {**get_ruleset("strike-rank").presets()[0], "name": "Harald"}})
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "set_condition", "id": "c1", "condition": "prone",
                    "lasts": {"until": "turn_end"}})
    assert e.value.field == "lasts.until" and "give a number of rounds" in str(e.value)
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "prone", "lasts": {"rounds": 2}})
    assert enc.log[-1].text == "Harald is now prone (2 melee rounds left)"


def test_only_a_condition_being_put_on_has_a_duration():
    h = free_fight(("Orc", 10))
    cond(h, "c1", "stunned")
    with pytest.raises(InvalidAction) as e:
        cond(h, "c1", "stunned", {"rounds": 1}, on=False)
    assert e.value.field == "lasts"


def test_replay_of_timed_conditions_is_exact():
    h = free_fight(("Orc", 10), ("Elf", 5))
    nxt(h)
    cond(h, "c1", "stunned", {"rounds": 1})
    cond(h, "c2", "dazed", {"until": "turn_end", "of": "c1"})
    nxt(h, 4)
    again = History.replay(h.initial, h.actions)
    assert asdict(again.present) == asdict(h.present)


def test_range_band_rounds_end_right_before_the_holders_next_turn():
    """FACTS.md (range-band, The round): "A duration counts down when the turn order reaches the
    same place in a later round, so a 1-round effect ends right before that character's next turn"."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "range_band"))
    from rb_helpers import act, fight, person, start, to_phase

    enc = fight(person("A"), person("B"))
    enc = act(enc, "turn_order", id="c1", value=10)
    enc = act(enc, "turn_order", id="c2", value=5)
    enc = to_phase(start(enc), "actions", "c1")
    enc, _ = apply(enc, {"type": "advance"})  # B's turn, round 1
    enc, _ = apply(enc, {"type": "set_condition", "id": "c2", "condition": "shaken", "lasts": {"rounds": 1}})
    enc = to_phase(enc, "actions", "c1")  # round 2, A's turn: B still shaken
    assert enc.round == 2 and "shaken" in enc.get("c2").conditions
    enc, _ = apply(enc, {"type": "advance"})  # B's turn in round 2: it ended right before it
    assert "shaken" not in enc.get("c2").conditions
    assert any(e.text == "B is no longer shaken (1 round over: it ends right before their turn)" for e in enc.log)


def test_range_band_the_movement_phase_is_nobodys_turn():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "range_band"))
    from rb_helpers import act, fight, person, start, to_phase

    enc = fight(person("A"), person("B"))
    enc = act(enc, "turn_order", id="c1", value=10)
    enc = act(enc, "turn_order", id="c2", value=5)
    enc = start(enc)  # movement phase, A moves first
    enc, _ = apply(enc, {"type": "set_condition", "id": "c2", "condition": "prone",
                         "lasts": {"until": "turn_start", "of": "c1"}})
    enc, _ = apply(enc, {"type": "advance"})  # B's movement: still nobody's turn
    assert "prone" in enc.get("c2").conditions
    enc = to_phase(enc, "actions", "c1")  # A's turn starts
    assert "prone" not in enc.get("c2").conditions


def test_tactical_round_durations_are_rounds():
    rs = get_ruleset("tactical-round")
    assert not rs.has_turns
    enc = new_encounter("tactical-round")
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**rs.presets()[0], "name": "Bera"}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "shaken", "lasts": {"rounds": 1}})
    for _ in range(40):
        if enc.round == 2:
            break
        enc, _ = apply(enc, {"type": "advance"})
    assert enc.round == 2 and "shaken" not in enc.get("c1").conditions


def test_only_the_gms_next_passes_a_turn():
    """Re-ordering ties moves the turn pointer, but nobody's turn began: the timer waits."""
    h = free_fight(("Orc", 10), ("Elf", 10))
    nxt(h)  # Orc's turn (ties: Orc first)
    cond(h, "c1", "prone", {"until": "turn_start", "of": "c2"})
    h.do({"type": "reorder", "order": ["c2", "c1"]})
    assert has(h, "c1", "prone")
    h.do({"type": "add_combatant", "combatant": {"name": "Hawk", "stats": {"initiative": 20}}})
    assert has(h, "c1", "prone")


def test_range_band_a_holder_out_of_the_fight_is_not_held_a_round_longer():
    """FACTS.md: "a 1-round effect ends right before that character's next turn" - a holder with
    no turn that round (incapacitated) is freed as the round's turns begin, not a round later."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "range_band"))
    from rb_helpers import act, fight, person, start, to_phase

    enc = fight(person("A"), person("B"))
    enc = act(enc, "turn_order", id="c1", value=10)
    enc = act(enc, "turn_order", id="c2", value=5)
    enc = to_phase(start(enc), "actions", "c2")  # B's turn, round 1
    enc, _ = apply(enc, {"type": "set_condition", "id": "c2", "condition": "paralyzed", "lasts": {"rounds": 1}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c2", "condition": "incapacitated"})
    enc = to_phase(enc, "actions", rnd=2)
    assert enc.round == 2 and "paralyzed" not in enc.get("c2").conditions
    assert any("they have no turn in round 2" in e.text for e in enc.log)


def test_tactical_round_a_timed_stun_lasts_as_long_as_the_gm_said():
    """The ruleset's own end of round takes Stunned off after its rounds; a stun the GM gave a
    duration is the timer's to end."""
    rs = get_ruleset("tactical-round")
    enc = new_encounter("tactical-round")
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**rs.presets()[0], "name": "Bera"}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "stunned", "lasts": {"rounds": 3}})
    for _ in range(80):
        if enc.round == 3:
            break
        enc, _ = apply(enc, {"type": "advance"})
    assert enc.round == 3 and "stunned" in enc.get("c1").conditions
    for _ in range(80):
        if enc.round == 4:
            break
        enc, _ = apply(enc, {"type": "advance"})
    assert "stunned" not in enc.get("c1").conditions


@pytest.mark.parametrize("timers_value, path", [
    ([{"id": "c1"}], "encounter.state.timers.0"),
    ("xy", "encounter.state.timers"),
    ([{"id": "c1", "condition": "stunned", "kind": "rounds", "rounds": 2}], "encounter.state.timers.0"),
    ([{"id": "c9", "condition": "stunned", "kind": "rounds", "rounds": 2, "from_round": 1}], "encounter.state.timers.0.id"),
    ([{"id": "c1", "condition": "prone", "kind": "rounds", "rounds": 2, "from_round": 1}], "encounter.state.timers.0.condition"),
    ([{"id": "c1", "condition": "stunned", "kind": "rounds", "rounds": "2", "from_round": 1}], "encounter.state.timers.0.rounds"),
    ([{"id": "c1", "condition": "stunned", "kind": "turn_end", "of": "c7", "armed": False}], "encounter.state.timers.0.of"),
])
def test_a_save_with_broken_timers_is_refused_at_load(timers_value, path):
    import json

    from fray import savefile
    from fray.errors import SaveFileError

    h = free_fight(("Orc", 10))
    cond(h, "c1", "stunned", {"rounds": 2})
    data = savefile.dump_history(h)
    del data["history"]  # the file as the encounter stands (no actions to replay)
    data["encounter"]["state"]["timers"] = timers_value
    with pytest.raises(SaveFileError) as e:
        savefile.loads(json.dumps(data))
    assert e.value.field == path if hasattr(e.value, "field") else path in str(e.value)
