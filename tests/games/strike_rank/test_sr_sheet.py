"""The combatant sheet, presets, the view and table editing: the contract the page relies on."""

from __future__ import annotations

import json

from dataclasses import asdict

import pytest

from fray.errors import InvalidAction
from fray.reducer import apply, new_encounter
from sr_helpers import BITE, RS, SWORD, do, duel, fight, fighter, loc, to_phase


@pytest.mark.parametrize("patch,field", [
    ({"stats": {**fighter("x")["stats"], "SIZ": "abc"}}, "combatant.stats.SIZ"),
    ({"stats": {**fighter("x")["stats"], "SIZ": -3}}, "combatant.stats.SIZ"),
    ({"weapons": [dict(SWORD, damage="1D")]}, "combatant.weapons.0.damage"),
    ({"weapons": [dict(SWORD, type="sharp")]}, "combatant.weapons.0.type"),
    ({"weapons": [dict(SWORD, missile=True, rate="2/MR", range=30)]}, "combatant.weapons.0.rate"),
    ({"weapons": [dict(BITE, location="tail")]}, "combatant.weapons.0.location"),
    ({"body": "octopus"}, "combatant.body"),
    ({"body": [{"name": "Blob", "melee": [1, 19]}]}, "combatant.body"),
    ({"armour": {"wing": 2}}, "combatant.armour.wing"),
    ({"spells": [{"name": "X", "type": "divine"}]}, "combatant.spells.0.type"),
    ({"wings": 2}, "combatant.wings"),
])
def test_combatant_validation_names_the_field(patch, field):
    """Combat: a bad field of the combatant form is refused with its dotted path; the encounter is untouched."""
    enc = new_encounter("strike-rank")
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "add_combatant", "combatant": {**fighter("Ana"), **patch}})
    assert e.value.field == field
    assert enc.combatants == []


def test_custom_body_plan_from_data():
    """Alternative Hit Locations: any list of locations (a single-location creature) works from data."""
    blob = fighter("Blob", dict(BITE, location="body"),
                   body=[{"name": "Body", "type": "body", "melee": [1, 20], "hp": 11, "ap": 1}])
    enc = fight(blob)
    assert [(l["id"], l["hp_max"], l["ap"]) for l in enc.get("c1").data["locations"]] == [("body", 11, 1)]


def test_presets_load_and_cover_three_kinds():
    """Presets: a human warrior (sword and shield), an archer (S/MR bow) and non-humanoid creatures, from data."""
    enc = new_encounter("strike-rank")
    for p in RS.presets():
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    bodies = {c.data["body"] for c in enc.combatants}
    assert {"body_humanoid", "body_quadruped", "body_single"} <= bodies
    rates = {w["rate"] for c in enc.combatants for w in c.data["weapons"]}
    assert "S/MR" in rates and any(w["shield"] for w in enc.combatants[0].data["weapons"])


def test_edit_combatant_recomputes_and_keeps_wounds():
    """Damage: an edit of stats recomputes derived values and location HP but keeps the current wounds."""
    enc = to_phase(duel(), "resolve")
    enc, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 2, "armour": False})
    enc, _ = do(enc, {"type": "edit_combatant", "id": "c2", "changes": {"stats": {"hp": 19, "DEX": 16}}})
    c = enc.get("c2")
    assert loc(enc, "c2", "chest")["hp_max"] == 8 and loc(enc, "c2", "chest")["hp"] == 6
    assert c.data["hp"] == 17
    assert RS.view(enc)["combatants"]["c2"]["derived"]["dex_sr"]["value"] == 1


def test_overrides_win_over_derived():
    """Damage: DEX SR, SIZ SR and damage modifier come from the tables but the GM may override them."""
    enc = fight(fighter("Ana", dex_sr=0, siz_sr=0, dm="+2D6"))
    d = RS.view(enc)["combatants"]["c1"]["derived"]
    assert (d["dex_sr"]["value"], d["siz_sr"]["value"], d["damage_modifier"]["value"]) == (0, 0, "+2D6")


def test_view_shape_is_json_and_documented_keys():
    """Action Declaration & Resolution: the view lists the order of resolution and each combatant's derived values."""
    enc = to_phase(duel(), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"})
    v = RS.view(enc)
    json.dumps(v)
    assert set(v) >= {"ruleset", "round", "phase", "sr", "order", "order_key", "prompts", "combatants"}
    c = v["combatants"]["c1"]
    assert set(c) >= {"name", "side", "conditions", "status", "hp", "derived", "movement", "locations", "weapons",
                      "spells", "declared", "round", "pending", "resuscitate_by"}
    assert v["order"][0]["text"] == "SR 7 = DEX 3 + SIZ 2 + weapon 2"
    assert c["weapons"][0]["melee_sr"]["text"] == "SR 7 = DEX 3 + SIZ 2 + weapon 2"
    assert c["derived"]["damage_modifier"]["text"] == "damage modifier +1D4 (STR+SIZ 26)"


def test_set_table_validates_rows():
    """Fumble Table: the GM may replace the table, but its rows must keep the fields the rules read."""
    enc = new_encounter("strike-rank")
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "set_table", "table": "fumbles", "value": {"entries": [{"min": 1}]}})
    assert e.value.field == "value.entries.0"


def test_one_exchange_is_deterministic_and_leaves_its_input():
    """Procedure: one whole exchange (attack, parry, table, location, damage, injury) replays to
    the same result from the same dice. (Its speed is measured by `make bench`, never asserted.)"""
    enc = to_phase(duel(), "resolve")
    action = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
              "defence": {"kind": "parry", "weapon": "shield"},
              "rolls": {"attack": 20, "defence": 40, "location": 12, "damage": [8, 4]}}
    before = asdict(enc)
    first, _ = apply(enc, action)
    second, _ = apply(enc, action)
    assert asdict(enc) == before
    assert asdict(first) == asdict(second)
    assert asdict(first) != before
