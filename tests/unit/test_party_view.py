"""The Party dialog's markup and forms (fray.web.party_view), in CPython: names escaped, the End the
fight form read back to the step the engine checks, a bad party file said in the GM's words."""

from __future__ import annotations

import json
import math

import pytest

from fray.errors import FrayError, InvalidAction
from fray.party import campaign, character
from fray.party.steps import apply_step
from fray.reducer import apply, new_encounter
from fray.web import party_view

STATS = {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 13}


def camp_and_fight():
    camp = campaign.add_character(campaign.empty(), character.new("strike-rank", {"name": "<b>Vasana</b>", "stats": STATS}, "k1"))
    enc, _ = apply(new_encounter("strike-rank"), campaign.join_action(camp, "strike-rank", ["k1"]))
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "left_leg", "amount": 11, "armour": False})
    return camp, enc


def test_names_are_escaped_and_the_summary_says_each_wound():
    camp, enc = camp_and_fight()
    html = party_view.party_html(camp, enc)
    assert "<b>" not in html and "&lt;b&gt;Vasana&lt;/b&gt;" in html
    assert "End the fight…" in html and "Add the party" not in html  # already in this fight
    assert html.count("total HP 13/13") == 1
    end = party_view.end_html(enc)
    assert "<b>" not in end and 'name="k1.hp.left_leg" value="-6"' in end


def test_the_end_form_reads_back_to_the_step_and_its_errors_name_no_field_path():
    camp, enc = camp_and_fight()
    values = {"k1.hp.left_leg": "-6", "k1.first_aid.left_leg": True, "k1.bleeding.left_leg": False, "k1.total": "2"}
    step = party_view.read_end(values, enc, "e1")
    assert step["carry"]["k1"] == {"carried": {"hp": 2, "locations": {"left_leg": {"hp": -6, "first_aid": True}}},
                                   "dead": False}
    after, _ = apply_step(camp, step)
    assert "Left leg -6/5 maimed (First Aid given)" in party_view.summary(campaign.character(after, "k1"))
    with pytest.raises(InvalidAction) as e:
        party_view.read_end({**values, "k1.total": "lots"}, enc, "e1")
    assert e.value.field == "carry.k1" and e.value.message == "Total HP must be a whole number"


def test_a_bad_party_file_is_said_with_the_characters_name_not_its_path():
    camp, _ = camp_and_fight()
    data = json.loads(campaign.dumps(camp))
    data["characters"][0]["carried"] = {"locations": {"tail": {"hp": -1}}}
    with pytest.raises(FrayError) as e:
        party_view.read_party_file(json.dumps(data))
    assert str(e.value).startswith("<b>Vasana</b>: <b>Vasana</b>'s body has no hit location “tail”")
    assert "characters.0" not in str(e.value) and "carried" not in str(e.value)


def test_the_change_form_sets_what_a_character_carries_by_hand():
    """tactical-round: no recovery rule; the GM types the hits taken after rest."""
    ch = character.new("tactical-round", {"name": "Ana", "stats": {"DEF": 20, "HP": 40}}, "k1", {"hits_taken": 15})
    camp = campaign.add_character(campaign.empty(), ch)
    html = party_view.change_html(ch)
    assert 'name="k1.hits_taken" value="15"' in html and "no recovery of hit points" in html
    step = party_view.read_change({"k1.hits_taken": "5", "k1.lasting": "Scar on the cheek\n", "k1.dead": False}, ch)
    after, said = apply_step(camp, step)
    assert campaign.character(after, "k1")["carried"] == {"hits_taken": 5, "lasting": ["Scar on the cheek"]}
    assert party_view.summary(campaign.character(after, "k1")) == "HP 35/40; Scar on the cheek"


def test_the_ticked_characters_join_in_formation_on_free_ground_away_from_the_foes():
    camp = campaign.empty()
    for i, n in enumerate(("Vasana", "Harrek", "Yanioth")):
        camp = campaign.add_character(camp, character.new("strike-rank", {"name": n, "stats": STATS}, f"k{i + 1}"))
    enc = new_encounter("strike-rank")
    for i in range(3):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": f"Broo {i}", "side": "foes", "stats": STATS,
                                                                    "position": {"x": 3 * i, "y": 0, "alt": 0}}})
    action = party_view.join_chosen(camp, enc, {"join.k1": True, "join.k2": False, "join.k3": True})
    enc, _ = apply(enc, action)
    ours = [c for c in enc.combatants if c.side == "party"]
    assert [c.name for c in ours] == ["Vasana", "Yanioth"]
    assert all(c.position.x < 0 for c in ours)  # west of the foes, on ground nobody stands on
    assert all(math.hypot(a.position.x - b.position.x, a.position.y - b.position.y) >= 3
               for i, a in enumerate(enc.combatants) for b in enc.combatants[i + 1:])
    with pytest.raises(InvalidAction) as e:
        party_view.join_chosen(camp, enc, {"join.k2": False})
    assert e.value.field == "characters"


def test_weapon_and_shield_hp_and_a_stuck_weapon_are_changed_by_hand():
    """The Change form shows each weapon's and shield's own HP and each weapon stuck in the
    character; the GM types a new HP (out of range: refused, in the GM's words) or unticks a weapon
    pulled out."""
    sword = {"name": "Broadsword", "skill": 60, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing"}
    shield = {"name": "Shield", "skill": 50, "damage": "1D4", "sr": 3, "hp": 12, "shield": True, "hand": "left"}
    ch = character.new("strike-rank", {"name": "Vasana", "stats": STATS, "weapons": [sword, shield]}, "k1",
                       {"weapons": {"shield": 7}, "stuck": [{"weapon": "Orc's Spear", "location": "abdomen"}]})
    camp = campaign.add_character(campaign.empty(), ch)
    html = party_view.change_html(ch)
    assert 'name="k1.weapon.shield" value="7"' in html and 'name="k1.weapon.broadsword" value="12"' in html
    assert 'name="k1.stuck.0" checked' in html and "Orc&#x27;s Spear stuck in the abdomen" in html
    base = {"k1.weapon.shield": "7", "k1.weapon.broadsword": "12", "k1.stuck.0": True, "k1.dead": False}
    with pytest.raises(InvalidAction) as e:
        apply_step(camp, party_view.read_change({**base, "k1.weapon.shield": "20"}, ch))
    assert e.value.message == "Shield HP must be from 0 to 12, not 20"
    assert party_view.at_character(e.value.field, "k1") == "k1.weapon.shield"
    assert party_view.at_character("carry.k3.carried.weapons.shield") == "k3.weapon.shield"
    assert party_view.at_character("carry.k3.carried.hp") == "carry.k3"
    with pytest.raises(InvalidAction) as e:
        party_view.read_change({**base, "k1.weapon.broadsword": "dented"}, ch)
    assert e.value.field == "k1.weapon.broadsword" and e.value.message == "Broadsword HP must be a whole number"
    after, _ = apply_step(camp, party_view.read_change({**base, "k1.weapon.shield": "9", "k1.weapon.broadsword": "10",
                                                        "k1.stuck.0": False}, ch))
    assert campaign.character(after, "k1")["carried"] == {"weapons": {"shield": 9, "broadsword": 10}}
    after, _ = apply_step(camp, party_view.read_change({**base, "k1.weapon.shield": "12"}, ch))
    assert campaign.character(after, "k1")["carried"] == {"stuck": [{"weapon": "Orc's Spear", "location": "abdomen"}]}


def test_a_character_is_made_from_a_ready_made_combatant_or_a_bestiary_template():
    from fray.games import get_ruleset

    presets = get_ruleset("strike-rank").presets()
    mine = [{"ruleset": "strike-rank", "combatant": {"name": "<i>Gorakiki</i>", "side": "party", "stats": STATS}}]
    html = party_view.make_html(presets, mine, "Strike Rank")
    assert "&lt;i&gt;Gorakiki&lt;/i&gt;" in html and '<option value="b0">' in html and "Human warrior" in html
    assert party_view.make_html([], [], "Strike Rank") == ""
    ch = character.from_template(party_view.template_for("b0", presets, mine, "strike-rank"), "k1")
    assert ch["sheet"]["name"] == "<i>Gorakiki</i>" and ch["carried"] == {}
    warrior = character.from_template(party_view.template_for("0", presets, mine, "strike-rank"), "k2")
    assert warrior["sheet"]["name"] == presets[0]["name"] and warrior["ruleset"] == "strike-rank"
    for bad in ("b7", "", "x"):
        with pytest.raises(InvalidAction) as e:
            party_view.template_for(bad, presets, mine, "strike-rank")
        assert e.value.field == "template"
