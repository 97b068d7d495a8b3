"""The strike-rank panel's HTML (pure functions, no browser): escaping, the controls and their
names (= the engine's field paths, each with its error slot and a label), the body diagram's
injury colours and text labels, the typed-dice parser and the actions the forms build."""

from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest

from fray.errors import FrayError
from fray.history import History
from fray.reducer import new_encounter
from fray.rulesets import get_ruleset
from fray.web import panels
from fray.web.strike_rank_panel import (INJURY_LABEL, StrikeRankPanel, add_extra, add_fields_html, attack_action,
                                        body_html, card_html, declare_action, last_exchange, panel_html,
                                        parse_armour, parse_dice, weapons_text)

EVIL = '<img src=x onerror="alert(1)">&'
RS = get_ruleset("strike-rank")
PRESETS = {p["name"]: p for p in RS.presets()}


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict]]:
    p = Tags()
    p.feed(html)
    return p.tags


def fight(name: str = "Human warrior") -> History:
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "name": name, "side": "party"}}, rng)
    h.do({"type": "add_combatant", "combatant": PRESETS["Great wolf (four-legged)"]}, rng)
    h.do({"type": "advance"}, rng)
    return h


def log_of(h: History) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in h.present.log]


def test_registered_under_the_ruleset_id():
    assert isinstance(panels.panel_for("strike-rank"), StrikeRankPanel)


def test_user_text_is_escaped_everywhere():
    h = fight(EVIL)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), random.Random(1))
    view = RS.view(h.present)
    html = panel_html(view, {}, log_of(h)) + card_html("c1", view)
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in html


def check_controls(html: str) -> None:
    """Every named control has a label (or aria-label) and an error slot named like it (or, for the
    per-location boxes ``cover.hard.<id>``, like the field they make up: where App.show_error looks)."""
    ts = tags(html)
    labelled = {a.get("for") for t, a in ts if t == "label"}
    slots = {a["data-error-for"] for t, a in ts if "data-error-for" in a}
    for t, a in ts:
        if t in ("input", "select", "textarea") and a.get("name"):
            assert a.get("id") in labelled or a.get("aria-label"), a
            parts = a["name"].split(".")
            assert any(".".join(parts[:i]) in slots for i in range(len(parts), 0, -1)), a["name"]
        if t == "button":
            assert a.get("type") in ("button", "submit")
    ids = [a["id"] for t, a in ts if "id" in a]
    assert len(ids) == len(set(ids)), "duplicate ids"


def test_declare_phase_controls_are_named_by_the_engine_field_path():
    h = fight()
    view = RS.view(h.present)
    html = panel_html(view, {}, log_of(h))
    check_controls(html)
    names = {a.get("name") for t, a in tags(html) if t in ("input", "select")}
    assert {"kind", "weapon", "target", "metres", "running", "spell"} <= names
    assert 'data-form="sr-declare"' in html and "Melee Round 1: <span>Declare</span>" in html


def test_resolve_phase_attack_panel_and_order():
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), rng)
    h.do(declare_action("c2", {"kind": "melee", "weapon": "bite", "target": "c1"}), rng)
    h.do({"type": "advance"}, rng)
    view = RS.view(h.present)
    html = panel_html(view, {}, log_of(h))
    check_controls(html)
    names = {a.get("name") for t, a in tags(html) if t in ("input", "select")}
    assert {"rolls.attack", "rolls.defence", "rolls.location", "rolls.damage", "defence.kind", "defence.weapon",
            "mode", "aim", "bonus", "target"} <= names
    assert "Resolve SR 3" in html
    assert 'aria-current="step"' in html
    assert "SR 7 = DEX 3 + SIZ 2 + weapon 2" in html
    # shields are offered first for a parry
    sel = html.split('name="defence.weapon"')[1]
    assert sel.index("Medium shield") < sel.index("Broadsword")


def test_card_body_diagram_colours_and_labels():
    h = fight()
    h.do({"type": "sr.damage", "target": "c1", "location": "right_leg", "amount": 2, "armour": False},
         random.Random(1))
    view = RS.view(h.present)
    html = card_html("c1", view)
    check_controls(html)
    assert 'class="sr-body humanoid"' in html
    leg = html.split('data-loc="right_leg"')[1].split("</li>")[0]
    assert "3/5 HP" in leg and "AP 2" in leg and "minor" in leg
    assert 'class="sr-loc inj-minor" style="grid-area:rleg"' in html
    assert "HP 11/13" in html
    assert "DEX SR 3 (DEX 11)" in html and "SIZ SR 2 (SIZ 13)" in html and "damage modifier +1D4" in html
    assert "Broadsword" in html and "65%" in html
    # the quadruped is a list, every location with a text label, not colour alone
    wolf = card_html("c2", view)
    assert 'class="sr-body list"' in wolf
    assert wolf.count('class="lvl"') == len(view["combatants"]["c2"]["locations"])


@pytest.mark.parametrize("level", list(INJURY_LABEL))
def test_every_injury_level_has_a_class_and_a_word(level):
    loc = {"id": "head", "name": "Head", "type": "head", "side": "", "melee": [19, 20], "hp": 0, "hp_max": 5,
           "ap": 0, "injury": level}
    html = body_html("X", [loc])
    assert f"inj-{level}" in html
    assert f'<span class="lvl">{INJURY_LABEL[level]}</span>' in html


def test_parse_dice():
    assert parse_dice("") is None and parse_dice("  ") is None
    assert parse_dice("57") == 57
    assert parse_dice("8 4") == [8, 4] and parse_dice("8,4") == [8, 4]
    for bad in ("abc", "8 x", "-3", "2.5"):
        with pytest.raises(ValueError):
            parse_dice(bad)


def test_attack_action_builds_one_exchange_and_names_bad_dice():
    a, errors = attack_action("a1", "c1", "broadsword", {
        "target": "c2", "defence.kind": "parry", "defence.weapon": "medium_shield", "mode": "normal", "aim": "",
        "bonus": "10", "rolls.attack": "20", "rolls.defence": "", "rolls.location": "7", "rolls.damage": "6 3"})
    assert errors == {}
    assert a == {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword", "ref": "a1",
                 "defence": {"kind": "parry", "weapon": "medium_shield"}, "mode": "normal", "bonus": 10,
                 "rolls": {"attack": 20, "location": 7, "damage": [6, 3]}}
    _, errors = attack_action("a1", "c1", "broadsword", {"rolls.attack": "abc", "defence.kind": "dodge"})
    assert list(errors) == ["rolls.attack"]


def test_out_of_range_typed_die_is_refused_at_its_field_and_changes_nothing():
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), rng)
    h.do({"type": "advance"}, rng)
    before = h.present
    a, _ = attack_action("a1", "c1", "broadsword", {"target": "c2", "defence.kind": "dodge", "mode": "normal",
                                                    "rolls.attack": "20", "rolls.defence": "90",
                                                    "rolls.location": "25", "rolls.damage": "6 3"})
    with pytest.raises(FrayError) as e:
        h.do(a, rng)
    assert e.value.field == "rolls.location"
    assert h.present is before


def test_last_exchange_is_the_latest_attack_and_its_aftermath():
    log = [("sr", "SR 3"), ("attack", "A hits"), ("location", "loc 1"), ("damage", "2 to leg"), ("sr", "SR 7")]
    assert last_exchange(log) == [("attack", "A hits"), ("location", "loc 1"), ("damage", "2 to leg")]
    assert last_exchange(log + [("round", "End of Melee Round 1")]) == []


def test_end_phase_prompts_are_buttons():
    view = {"ruleset": "strike-rank", "round": 1, "phase": "end", "sr": 12, "order": [], "combatants": {},
            "prompts": [{"id": "p1", "kind": "impaled", "combatant": "c1", "text": f"Pull it out? {EVIL}",
                         "options": [{"value": "yes", "label": "Yank"}, {"value": "no", "label": "Leave it"}]}]}
    html = panel_html(view, {}, [("round", "End of Melee Round 1"), ("bleeding", "X bleeds")])
    bt = [a for t, a in tags(html) if t == "button"]
    assert [(b["data-act"], b["data-prompt"], b["data-choice"]) for b in bt] == [
        ("sr-answer", "p1", "yes"), ("sr-answer", "p1", "no"), ("sr-answer", "p1", "dismiss")]
    assert "X bleeds" in html and "<img" not in html


def test_add_form_section_round_trips_a_preset_and_reads_typed_weapons():
    warrior = {k: v for k, v in PRESETS["Human warrior"].items() if k not in ("name", "side", "stats", "notes")}
    html = add_fields_html(warrior)
    for slot in ("combatant.body", "combatant.armour", "combatant.weapons"):
        assert f'data-error-for="{slot}"' in html
    text = weapons_text(warrior["weapons"])
    assert text.splitlines()[0] == "Broadsword, 65, 1D8+1, 2, 12, slashing"
    # untouched: the preset's records stay as they are (hand, ENC, knockback...)
    same = add_extra({"sr_body": "humanoid", "sr_armour": "head 3, chest 3, abdomen 3, right_arm 3, left_arm 3, "
                      "right_leg 2, left_leg 2", "sr_weapons": text}, warrior)
    assert same["weapons"] == warrior["weapons"] and same["armour"] == warrior["armour"]
    typed = add_extra({"sr_body": "humanoid", "sr_armour": "4",
                       "sr_weapons": text + "\nDagger, 40%, 1D4+2, 3, 12, impaling"}, warrior)
    assert typed["armour"] == 4
    assert typed["weapons"][0] == warrior["weapons"][0]
    assert typed["weapons"][2] == {"name": "Dagger", "skill": 40, "damage": "1D4+2", "sr": 3, "hp": 12,
                                   "type": "impaling"}
    h = History(new_encounter("strike-rank", "t"))
    h.do({"type": "add_combatant", "combatant": {"name": "W", "stats": PRESETS["Human warrior"]["stats"], **typed}})
    v = RS.view(h.present)["combatants"]["c1"]
    assert [w["name"] for w in v["weapons"]] == ["Broadsword", "Medium shield", "Dagger"]
    assert {l["ap"] for l in v["locations"]} == {4}
    assert parse_armour("") == 0 and parse_armour("head 3, Right arm 2") == {"head": 3, "right_arm": 2}
    with pytest.raises(FrayError) as e:
        h.do({"type": "add_combatant", "combatant": {"name": "X", "stats": PRESETS["Human warrior"]["stats"],
                                                     **add_extra({"sr_weapons": "Club, lots", "sr_armour": ""}, {})}})
    assert e.value.field.startswith("combatant.weapons")
