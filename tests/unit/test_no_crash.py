"""Nothing crashes, whatever comes in (issue 8, item 4). One regression test per crash the issue
lists; each used to end in a Python error that is not the engine's own ("Something went wrong"
in the page) and now raises ``InvalidAction`` / ``RuleViolation`` naming the field, or works.
The Hypothesis state machines in ``test_fuzz_machines.py`` make the same contract general."""

from __future__ import annotations

import copy
from dataclasses import asdict

import pytest

from fray.errors import FrayError, InvalidAction, RuleViolation
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

SR = get_ruleset("strike-rank")
TR = get_ruleset("tactical-round")


def run(enc, *actions):
    for a in actions:
        enc, _ = apply(enc, a)
    return enc


def refused(enc, action, field: str | None = None):
    """The action raises the engine's own error and leaves the encounter as it was."""
    before = asdict(enc)
    with pytest.raises(FrayError) as e:
        apply(enc, action)
    assert asdict(enc) == before
    if field is not None:
        assert isinstance(e.value, InvalidAction), e.value
        assert e.value.field == field, e.value
    return e.value


def sr_pair(x2: float = 0):
    p = SR.presets()
    return run(new_encounter("strike-rank"),
               {"type": "add_combatant", "combatant": p[0]},
               {"type": "add_combatant", "combatant": {**p[1], "position": {"x": x2, "y": 0}}})


# -- strike-rank: a declared action whose combatant has left ---------------------------------------

def test_next_after_removing_a_combatant_whose_action_rolled_over():
    """Issue 8: "add two ready-made combatants (the second at x=30) → Next → the second declares
    Other, 36 metres (rolls over) → Next → remove the second → Next → Next: every Next now says
    "Something went wrong: 'NoneType' object has no attribute 'name'" until Undo (`timing.advance`)"."""
    enc = run(sr_pair(30), {"type": "advance"},
              {"type": "sr.declare", "id": "c2", "kind": "other", "metres": 36})
    assert enc.state["actions"][0]["round"] == 2  # rolled over into the next Melee Round
    enc = run(enc, {"type": "advance"}, {"type": "remove_combatant", "id": "c2"})
    for _ in range(4):
        enc = run(enc, {"type": "advance"})
    assert enc.round == 2


def test_resolve_an_action_whose_combatant_has_left():
    """Issue 8: "the same missing-combatant pattern is in `timing.resolve`"."""
    enc = run(sr_pair(), {"type": "advance"}, {"type": "sr.declare", "id": "c2", "kind": "other"},
              {"type": "advance"}, {"type": "remove_combatant", "id": "c2"})
    e = refused(enc, {"type": "sr.resolve", "ref": "a1"})
    assert isinstance(e, RuleViolation) and "left the fight" in str(e)


def test_undeclare_an_action_whose_combatant_has_left():
    """Issue 8: "... and `timing.undeclare`"."""
    enc = run(sr_pair(), {"type": "advance"}, {"type": "sr.declare", "id": "c2", "kind": "other"},
              {"type": "remove_combatant", "id": "c2"})
    enc, events = apply(enc, {"type": "sr.undeclare", "ref": "a1"})
    assert "someone who has left the fight withdraws their other action" in events[-1]["text"]


# -- reachable from the page's forms -----------------------------------------------------------------

def test_a_weapon_whose_location_is_a_list():
    """Issue 8: "a weapon with `"location": ["head"]` in the add form (`strike_rank/body.check_weapon`)"."""
    c = copy.deepcopy(SR.presets()[0])
    c["weapons"][0]["location"] = ["head"]
    e = refused(new_encounter("strike-rank"), {"type": "add_combatant", "combatant": c})
    assert e.field.endswith(".location") and "no hit location" in str(e)


def test_a_cover_table_whose_into_melee_is_a_list():
    """Issue 8: "a tactical-round cover table with a list for `into_melee` (`tactical_round/tables.check`)"."""
    table = dict(copy.deepcopy(TR.tables["cover"]), into_melee=["partial"])
    refused(new_encounter("tactical-round"), {"type": "set_table", "table": "cover", "value": table},
            "value.into_melee")


def test_a_natural_healing_table_whose_period_is_a_list():
    """Issue 8: "a strike-rank natural_healing table with a list as `period`, accepted, after which
    every "Heal naturally" crashes (`care.natural_healing`)"."""
    table = copy.deepcopy(SR.tables["natural_healing"])
    table["entries"][0]["period"] = ["day"]
    refused(sr_pair(), {"type": "set_table", "table": "natural_healing", "value": table},
            "value.entries.0.period")


def test_natural_healing_with_a_list_as_period():
    """Issue 8: "`period` as a list"."""
    refused(sr_pair(), {"type": "sr.natural_healing", "id": "c1", "period": ["day"]}, "period")


# -- reachable with crafted actions (an imported file replays them) -----------------------------------

def sr_engaged():
    return run(sr_pair(1), {"type": "advance"})


def _parrying(enc, cid: str) -> str:
    """The first weapon of ``cid`` that parries (a bow does not, by the assumed default: the field under
    test must be the only thing wrong)."""
    return next(w["id"] for w in enc.get(cid).data["weapons"] if not w.get("missile") or w.get("thrown"))


@pytest.mark.parametrize("bonus", ["", "A1", [5], float("inf")])
@pytest.mark.parametrize("kind", ["dodge", "parry"])
def test_a_defence_bonus_that_is_not_a_whole_number(kind, bonus):
    """Issue 8: "`defence.bonus` of "", "A1", a list or Infinity (`combat.defence_skill`)"."""
    enc = sr_engaged()
    w1 = enc.get("c1").data["weapons"][0]["id"]
    w2 = _parrying(enc, "c2")
    defence = {"kind": kind, "bonus": bonus, **({"weapon": w2} if kind == "parry" else {})}
    refused(enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1, "defence": defence,
                  "rolls": {"attack": 10, "defence": 90}}, "defence.bonus")


def test_shield_cover_as_text():
    """Issue 8: "`shield_cover` as a string"."""
    enc = sr_engaged()
    w1 = enc.get("c1").data["weapons"][0]["id"]
    w2 = _parrying(enc, "c2")
    refused(enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1,
                  "defence": {"kind": "parry", "weapon": w2}, "shield_cover": "shield",
                  "rolls": {"attack": 10, "defence": 90}}, "shield_cover")


def test_pull_die_sides_as_a_list():
    """Issue 8: "`pull.die_sides` as a list"."""
    enc = sr_engaged()
    w1 = enc.get("c1").data["weapons"][0]["id"]
    refused(enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1, "defence": {"kind": "none"},
                  "pull": {"die_sides": [3]}, "rolls": {"attack": 10, "location": 10, "damage": [3]}},
            "pull.die_sides")


def test_a_tactical_round_declared_action_given_as_an_object():
    """Issue 8: "tactical-round `action` as an object"."""
    enc = run(new_encounter("tactical-round"), *({"type": "add_combatant", "combatant": p} for p in TR.presets()[:2]))
    while enc.phase != "declaration":
        enc = run(enc, {"type": "advance"})
    refused(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": {"kind": "move"}}]}, "actions.0.action")


def test_a_roll_given_as_null_during_replay():
    """Issue 8: "a roll given as null during replay (`dice.py`)"."""
    enc = sr_engaged()
    w1 = enc.get("c1").data["weapons"][0]["id"]
    refused(enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1, "defence": {"kind": "none"},
                  "rolls": {"attack": None}}, "rolls.attack")
    with pytest.raises(InvalidAction) as e:
        History.replay(enc, [{"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1,
                              "defence": {"kind": "none"}, "rolls": {"attack": None}}])
    assert e.value.field == "actions.0.rolls.attack"


def test_a_null_roll_is_rolled_when_preparing():
    """A null roll is an empty box: the page rolls it, as if it were absent."""
    import random

    enc = sr_engaged()
    w1 = enc.get("c1").data["weapons"][0]["id"]
    h = History(enc)
    h.do({"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": w1, "defence": {"kind": "none"},
          "rolls": {"attack": None}}, random.Random(1))
    assert h.actions[0]["rolls"]["attack"]["typed"] is False
