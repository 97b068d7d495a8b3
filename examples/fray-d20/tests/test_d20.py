"""d20 Skirmish's own tests, run against the INSTALLED game: the registry must find it through its
entry point (``pip install`` of the wheel, tests/unit/test_installed_games.py runs this file in a
Python where it is installed). Each rule test quotes RULES.txt beside this folder."""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.history import History
from fray.reducer import new_encounter
from fray.games import all_rulesets, get_ruleset
from fray.scenario import lookup, result_json, run_scenario
from fray.web.panels import panel_for

HERE = Path(__file__).resolve().parent
GAME = "d20-skirmish"


def fight(*stats):
    h = History(new_encounter(GAME, "Test"))
    for i, s in enumerate(stats):
        h.do({"type": "add_combatant", "combatant": {"name": f"C{i + 1}", "stats": s}}, random.Random(0))
    return h


def test_the_installed_game_is_found_through_its_entry_point():
    import fray_d20

    assert "site-packages" in fray_d20.__file__ or os.environ.get("FRAY_D20_INSTALLED") in fray_d20.__file__
    rs = get_ruleset(GAME)
    assert rs is fray_d20.RULESET and rs.name == "d20 Skirmish"
    assert GAME in [r.id for r in all_rulesets()]
    panel = panel_for(GAME)
    assert panel is not None and type(panel).__module__ == "fray_d20.panel"


def test_initiative_is_a_d20_plus_the_bonus_highest_first():
    """Rule 1: "every combatant rolls a d20 and adds their Initiative bonus. The highest total acts
    first"."""
    h = fight({"hp": 5, "initiative": 4}, {"hp": 5, "initiative": 0})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 16}})
    enc = h.present
    assert [c.data["init"] for c in enc.combatants] == [14, 16]
    assert [s.combatant_id for s in get_ruleset(GAME).order_of_play(enc)] == ["c2", "c1"]


def test_equal_totals_are_the_gms_to_order():
    """Rule 1: "equal totals act in the order the GM decides"."""
    h = fight({"hp": 5}, {"hp": 5})
    h.do({"type": "advance", "rolls": {"init.c1": 12, "init.c2": 12}})
    h.do({"type": "settle_tie", "id": "c2", "before": "c1"})
    assert [s.combatant_id for s in get_ruleset(GAME).order_of_play(h.present)] == ["c2", "c1"]


def test_one_who_joins_rolls_when_the_next_round_begins():
    """Rule 1: "A combatant who joins a fight already under way rolls when the next round begins"."""
    h = fight({"hp": 5}, {"hp": 5})
    h.do({"type": "advance", "rolls": {"init.c1": 12, "init.c2": 8}})
    h.do({"type": "add_combatant", "combatant": {"name": "Late", "stats": {"hp": 5, "initiative": 1}}})
    assert h.present.get("c3").data["init"] is None
    h.do({"type": "advance"})
    h.do({"type": "advance"})
    h.do({"type": "advance", "rolls": {"init.c3": 19}})
    assert h.present.round == 2 and h.present.get("c3").data["init"] == 20
    assert get_ruleset(GAME).order_of_play(h.present)[0].combatant_id == "c3"


def test_an_attack_that_equals_the_defence_hits_and_one_below_misses():
    """Rule 3: "If the total equals or beats the target's Defence, the attack hits"."""
    h = fight({"hp": 10, "attack": 3, "initiative": 10, "damage": "1D6"}, {"hp": 10, "defence": 15})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1}})
    h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 11}})
    assert h.present.get("c2").data["hp"] == 10 and "misses" in h.present.log[-1].text
    h.undo()
    h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 12, "damage": 4}})
    assert h.present.get("c2").data["hp"] == 6


def test_a_natural_20_hits_with_the_damage_dice_twice_and_a_natural_1_misses():
    """Rule 3: "A natural 20 always hits and is a critical hit; a natural 1 always misses". Rule 4:
    "A critical hit rolls the Damage dice twice and adds them together"."""
    h = fight({"hp": 10, "attack": -5, "initiative": 10, "damage": "1D6+1"}, {"hp": 30, "defence": 40})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1}})
    h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 20, "damage": 2, "critical": 6}})
    assert h.present.get("c2").data["hp"] == 30 - (3 + 7)
    h.undo()
    h2 = fight({"hp": 10, "attack": 30, "initiative": 10}, {"hp": 10, "defence": 1})
    h2.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1}})
    h2.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 1}})
    assert h2.present.get("c2").data["hp"] == 10 and "natural 1" in h2.present.log[-1].text


def test_one_attack_on_its_own_turn():
    """Rule 3: "On its turn a combatant may make one attack against one foe"."""
    h = fight({"hp": 10, "initiative": 10}, {"hp": 10})
    with pytest.raises(RuleViolation):
        h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 5}})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1}})
    with pytest.raises(RuleViolation, match="not C2's turn"):
        h.do({"type": "d20.attack", "attacker": "c2", "target": "c1", "rolls": {"attack": 5}})
    h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 5}})
    with pytest.raises(RuleViolation, match="already attacked"):
        h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 5}})
    with pytest.raises(InvalidAction):
        h.do({"type": "d20.attack", "attacker": "c1", "target": "c1"})


def test_at_0_hit_points_a_combatant_is_down_takes_no_turn_and_cannot_be_attacked():
    """Rule 5: "A combatant whose hit points fall to 0 or below is down: it takes no more turns and
    cannot be attacked"."""
    h = fight({"hp": 10, "initiative": 10, "damage": "1D6"}, {"hp": 3, "defence": 1}, {"hp": 5})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1, "init.c3": 2}})
    h.do({"type": "d20.attack", "attacker": "c1", "target": "c2", "rolls": {"attack": 10, "damage": 3}})
    enc = h.present
    assert "down" in enc.get("c2").conditions and enc.get("c2").data["hp"] == 0
    assert "c2" not in [s.combatant_id for s in get_ruleset(GAME).order_of_play(enc)]
    h.do({"type": "advance"})
    with pytest.raises(RuleViolation, match="down"):
        h.do({"type": "d20.attack", "attacker": "c3", "target": "c2", "rolls": {"attack": 10}})


def test_the_fallen_before_the_attacker_do_not_skip_the_next_turn():
    """Rule 2: "Each combatant takes one turn a round, in initiative order": when one who acted
    earlier falls, the next turn is still the next one in the order."""
    h = fight({"hp": 3, "initiative": 10, "defence": 1}, {"hp": 10, "damage": "1D6"}, {"hp": 5})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 5, "init.c3": 1}})
    h.do({"type": "advance"})  # c2's turn
    h.do({"type": "d20.attack", "attacker": "c2", "target": "c1", "rolls": {"attack": 10, "damage": 6}})
    rs = get_ruleset(GAME)
    assert rs.turn_of(h.present) == "c2"
    h.do({"type": "advance"})
    assert rs.turn_of(h.present) == "c3"


def test_the_panel_escapes_what_the_gm_typed():
    from fray_d20.panel import card_html, panel_html

    h = fight({"hp": 5}, {"hp": 5})
    h.do({"type": "rename_encounter", "name": "x"})
    h.do({"type": "advance", "rolls": {"init.c1": 10, "init.c2": 1}})
    view = get_ruleset(GAME).view(h.present)
    out = panel_html(view, {"c1": "<img src=x onerror=alert(1)>", "c2": "B&B"})
    assert "<img" not in out and "&lt;img" in out and "B&amp;B" in out
    assert "<" not in card_html({**view["combatants"]["c1"], "damage": "<b>"}).replace("<p", "").replace(
        "</p", "").replace("<strong", "").replace("</strong", "")


@pytest.mark.parametrize("path", sorted((HERE / "scenarios").glob("*.json")), ids=lambda p: p.stem)
def test_scenario(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    h, events = run_scenario(data)
    result = json.loads(json.dumps(result_json(h, events)))
    wrong = {k: (lookup(result, k), v) for k, v in data["expect"].items() if lookup(result, k) != v}
    assert data["expect"] and not wrong, wrong
