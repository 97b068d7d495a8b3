"""The strike-rank panel's HTML (pure functions, no browser): escaping, the controls and their
names (= the engine's field paths, each with its error slot and a label), the body diagram's
injury colours and text labels, the typed-dice parser and the actions the forms build."""

from __future__ import annotations

import copy

import random

import pytest

from fray.errors import FrayError
from fray.web.widgets import ZERO_FACE
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web import panels
from fray.games.strike_rank.web.panel import (INJURY_LABEL, StrikeRankPanel, add_extra, add_fields_html, answer_action,
                                        attack_action, body_html, card_html, care_action, declare_action,
                                        last_exchange, panel_html, parse_armour, parse_dice, prompt_html,
                                        stuck_entries, weapons_text)
from fray.games.strike_rank.web.ui import StrikeRankUi
from html_checks import EVIL, tags

RS = get_ruleset("strike-rank")
PRESETS = {p["name"]: p for p in RS.presets()}


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
    html = panel_html(view, {}, log_of(h)) + card_html("c1", view, CARD_FOLDS_OPEN)
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in html


# the card's two fold-outs of GM forms as opened on the page (they are drawn once they open)
CARD_FOLDS_OPEN = StrikeRankUi(open={"care-c1": True, "fight-c1": True})


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
    assert 'class="sr-loc inj-minor" data-area="rleg"' in html
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
                 "defence": {"kind": "parry", "weapon": "medium_shield"}, "mode": "normal", "move_token": True,
                 "bonus": 10, "rolls": {"attack": 20, "location": 7, "damage": [6, 3]}}
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
    assert _ == {"rolls.location": "type one d20 roll, 1-20, not 25"}  # said by the page, before the engine
    a["rolls"]["location"] = 25
    with pytest.raises(FrayError) as e:
        h.do(a, rng)
    assert e.value.field == "rolls.location"
    assert e.value.message == "type one d20 roll, 1-20, not 25"  # and by the engine in the same words
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
    assert text.splitlines()[0] == "Broadsword, 65, 1D8+1, 2, 12, slashing, right"
    # untouched: the preset's records stay as they are (hand, ENC, knockback...)
    same = add_extra({"sr_body": "humanoid", "sr_armour": "head 3, chest 3, abdomen 3, right_arm 3, left_arm 3, "
                      "right_leg 2, left_leg 2", "sr_weapons": text}, warrior)
    assert same["weapons"] == warrior["weapons"] and same["armour"] == warrior["armour"]
    typed = add_extra({"sr_body": "humanoid", "sr_armour": "4",
                       "sr_weapons": text + "\nDagger, 40%, 1D4+2, 3, 12, impaling"}, warrior)
    assert typed["armour"] == 4
    assert typed["weapons"][0] == warrior["weapons"][0]
    assert typed["weapons"][2] == {"name": "Dagger", "skill": 40, "damage": "1D4+2", "sr": 3, "hp": 12,
                                   "type": "impaling", "hand": "right"}
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


def names_in(html: str) -> set[str]:
    return {a.get("name") for t, a in tags(html) if t in ("input", "select", "textarea") and a.get("name")}


def archer_impales(victim: str = "Human warrior") -> History:
    """The archer's dagger: a typed special (5) on the chest (12), 2D4+4 = 10 − AP 3 = 7; it sticks."""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "name": victim, "side": "party"}}, rng)
    h.do({"type": "add_combatant", "combatant": PRESETS["Archer"]}, rng)
    h.do({"type": "advance"}, rng)
    h.do(declare_action("c2", {"kind": "melee", "weapon": "dagger", "target": "c1"}), rng)
    h.do({"type": "advance"}, rng)
    a, errors = attack_action("a1", "c2", "dagger", {"target": "c1", "defence.kind": "none", "mode": "normal",
                                                     "rolls.attack": "5", "rolls.location": "12", "rolls.damage": "3 3"})
    assert errors == {}
    h.do(a, rng)
    return h


def test_circumstances_fold_out_names_the_engine_fields():
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), rng)
    h.do(declare_action("c2", {"kind": "melee", "weapon": "bite", "target": "c1"}), rng)
    h.do({"type": "advance"}, rng)
    shut = panel_html(RS.view(h.present), {}, log_of(h))
    # shut and never opened, it holds no fields: drawn when it first opens (data-fold-lazy), the
    # summary keeping its id so the keyboard's focus comes back to it
    assert ('<details class="sr-fold sr-circumstances" data-fold="circ-sr-att-a2" data-fold-lazy>'
            '<summary id="fold-circ-sr-att-a2">Circumstances</summary></details>') in shut
    assert "cover.soft" not in shut
    html = panel_html(RS.view(h.present), StrikeRankUi(open={"circ-sr-att-a2": True}), log_of(h))
    check_controls(html)
    assert ('<details class="sr-fold sr-circumstances" data-fold="circ-sr-att-a2" data-fold-drawn open>'
            '<summary id="fold-circ-sr-att-a2">Circumstances') in html
    # once drawn it stays drawn, shut again (what the GM typed in it stays)
    kept = panel_html(RS.view(h.present), StrikeRankUi(open={"circ-sr-att-a2": False}, opened={"circ-sr-att-a2"}), log_of(h))
    assert "cover.soft" in kept and 'data-fold="circ-sr-att-a2" open' not in kept
    assert {"into_melee", "free_attack", "water", "split", "multiplier", "gm_location", "location_die", "cover.soft",
            "shield_cover.weapon", "pull.drop_modifier", "pull.die_sides", "pull.bonus", "target_weapon",
            "object.name", "object.hp", "object.held", "cover.hard.head", "shield_cover.locations.chest"} <= names_in(html)
    for slot in ("cover.hard", "shield_cover.locations", "pull", "cover", "object"):
        assert f'data-error-for="{slot}"' in html
    # the fold-out's state is kept: open when the page had it open
    assert 'data-fold="circ-sr-att-a2" data-fold-drawn open' in panel_html(RS.view(h.present),
                                                                         StrikeRankUi(open={"circ-sr-att-a2": True}))


def test_attack_action_reads_the_circumstances():
    base = {"target": "c2", "defence.kind": "dodge", "mode": "attack_object"}
    a, errors = attack_action("a1", "c1", "broadsword", {
        **base, "moving": True, "mount_running": False, "into_melee": "no", "free_attack": True, "water": "waist",
        "split": "50", "multiplier": "1.5", "cover.soft": True, "cover.hard.head": True, "cover.hard.chest": False,
        "cover.hard.left_arm": True, "shield_cover.weapon": "medium_shield", "shield_cover.locations.chest": True,
        "pull.drop_modifier": True, "pull.die_sides": "4", "pull.bonus": "", "object.name": "Door", "object.hp": "8",
        "object.held": False, "target_weapon": "bite", "rolls.wound.concentration": "12"})
    assert errors == {}
    assert a["moving"] is True and "mount_running" not in a and a["into_melee"] is False and a["free_attack"] is True
    assert a["water"] == "waist" and a["split"] == 50 and a["multiplier"] == 1.5
    assert a["cover"] == {"hard": ["head", "left_arm"], "soft": True}
    assert a["shield_cover"] == {"weapon": "medium_shield", "locations": ["chest"]}
    assert a["pull"] == {"drop_modifier": True, "die_sides": 4}
    assert a["object"] == {"name": "Door", "hp": 8, "held": False}
    assert "target_weapon" not in a  # only for attack weapon / disarm
    assert a["rolls"] == {"wound.concentration": 12}
    plain, _ = attack_action("a1", "c1", "broadsword", {**base, "mode": "normal", "water": "none", "into_melee": ""})
    assert not {"water", "into_melee", "cover", "pull", "object", "shield_cover"} & set(plain)
    d, _ = attack_action("a1", "c1", "broadsword", {**base, "mode": "disarm", "target_weapon": "bite"})
    assert d["target_weapon"] == "bite"
    _, errors = attack_action("a1", "c1", "broadsword", {**base, "rolls.damage": "3 x"})
    assert errors == {"rolls.damage": "type whole numbers such as 8 4, not x"}
    # Circumstances never opened hold no fields: the form reads each missing one as its drawn
    # default, so "Object is held (½)" (ticked when drawn) still halves an attack on an object
    undrawn, _ = attack_action("a1", "c1", "broadsword", dict(base))
    assert undrawn["object"]["held"] is True
    drawn_defaults = {"into_melee": "", "free_attack": False, "water": "none", "split": "", "multiplier": "",
                      "gm_location": "", "location_die": "", "defence.split": "", "defence.bonus": "",
                      "mounted_vs_foot": "", "attacker_side": "", "cover.soft": False, "shield_cover.weapon": "",
                      "pull.drop_modifier": False, "pull.die_sides": "", "pull.bonus": "", "target_weapon": "",
                      "object.name": "", "object.hp": "", "object.held": True, "cover.hard.head": False}
    assert undrawn == attack_action("a1", "c1", "broadsword", {**base, **drawn_defaults})[0]
    # the free attack on a fleeing foe (no ref): ticked when drawn, so a free attack when undrawn too
    free, _ = attack_action("", "c1", "broadsword", dict(base))
    assert free["free_attack"] is True
    assert "free_attack" not in attack_action("", "c1", "broadsword", {**base, "free_attack": False})[0]


def test_abort_beside_a_spell_in_the_order():
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c1", {"kind": "spell", "spell": "bladesharp", "target": "c2"}), rng)
    h.do({"type": "advance"}, rng)
    html = panel_html(RS.view(h.present), {}, log_of(h))
    check_controls(html)
    form = html.split('data-form="sr-abort"')[1].split("</form>")[0]
    assert 'data-ref="a1"' in form and "Abort and do this" in form
    a = declare_action("c1", {"kind": "defend", "weapon": "broadsword"})
    h.do({**a, "type": "sr.abort", "ref": "a1"}, rng)
    assert "aborts spell" in log_of(h)[-1][1]
    assert "a1" not in log_of(h)[-1][1]  # the engine's key for the action: the GM never learns it (issue 34)
    assert declare_action("c1", {"kind": "defend", "weapon": ""})["stance"] == "dodge"


def test_a_question_drawn_again_shows_what_changed_and_each_is_its_own_part_of_the_panel():
    """Rules 003, "Colliding: If knockback causes a combatant to collide with another combatant ...
    that combatant must also make a DEX test": the GM names the struck combatant from a list of
    everyone, so that list must follow a rename. A question is drawn once and kept (``questions._PROMPT_KEPT``), so the kept markup must follow any
    change of the question or of the names its lists offer; and the questions are one child each
    of the end-of-round box, so answering one rewrites only that one."""
    from fray.web.blocks import Block
    from fray.games.strike_rank.web.questions import end_html

    p = {"id": "p9", "kind": "collision", "combatant": "c1", "text": "Who is struck?",
         "options": [{"value": "yes", "label": "Struck"}]}
    first = prompt_html(p, {"c1": "Ayla", "c2": "Borin"})
    assert "Borin" in first and prompt_html(dict(p), {"c1": "Ayla", "c2": "Borin"}) == first
    renamed = prompt_html(p, {"c1": "Ayla", "c2": "Cador"})
    assert "Cador" in renamed and "Borin" not in renamed
    retold = prompt_html({**p, "text": "Who is hit?"}, {"c1": "Ayla", "c2": "Cador"})
    assert "Who is hit?" in retold and "Who is struck?" not in retold
    view = {"phase": "resolve", "combatants": {"c1": {"name": "Ayla"}, "c2": {"name": "Cador"}},
            "prompts": [p, {**p, "id": "p10", "kind": "impaled"}]}
    box = end_html(view, [])
    assert isinstance(box, Block) and len(box.children) == 3  # the heading and one form each
    assert [c.count("<form") for c in box.children] == [0, 1, 1]
    assert end_html({"phase": "resolve", "prompts": []}, []) == ""


def test_prompts_carry_their_dice_and_escape_text():
    p = {"id": "p7", "kind": "impaled", "combatant": "c1", "text": EVIL,
         "options": [{"value": "yes", "label": EVIL}]}
    html = prompt_html(p, {"c1": EVIL})
    check_controls(html)
    assert "<img" not in html
    assert names_in(html) == {"rolls.impale_damage"}
    assert 'data-choice="dismiss"' in html
    assert names_in(prompt_html({**p, "kind": "hard_cover"}, {})) == {"amount"}
    assert names_in(prompt_html({**p, "kind": "collision"}, {"c1": "A"})) == {
        "with", "rolls.collision_dex", "rolls.collision", "rolls.collision_location"}
    a, errors = answer_action("p7", "yes", {"rolls.impale_damage": "2", "amount": "", "with": ""})
    assert a == {"type": "sr.answer", "prompt": "p7", "choice": "yes", "apply": True, "rolls": {"impale_damage": 2}} \
        and not errors
    _, errors = answer_action("p7", "yes", {"rolls.impale_damage": "two"})
    assert set(errors) == {"rolls.impale_damage"}


def test_impale_prompt_answered_with_typed_dice_and_unstick_form():
    h = archer_impales(EVIL)
    view = RS.view(h.present)
    assert [p["kind"] for p in view["prompts"]] == ["unstick"]
    html = panel_html(view, {}, log_of(h)) + card_html("c1", view)
    check_controls(html)
    assert "<img" not in html
    assert stuck_entries("c1", view) == [{"where": "Chest", "name": "Dagger", "in": "body", "owner": "c2",
                                          "weapon": "dagger", "owner_name": "Archer"}]
    form = html.split('data-form="sr-unstick"')[1].split("</form>")[0]
    assert 'data-owner="c2"' in form and 'data-weapon="dagger"' in form
    assert {"id", "method", "rolls.test", "rolls.impale_damage"} == names_in(form + ">")
    rng = random.Random(2)
    h.do(answer_action(view["prompts"][0]["id"], "let_go", {})[0], rng)
    a, _ = care_action("sr-unstick", "c1", {"id": "c1", "method": "con", "rolls.test": "95"}, "c2", "dagger")
    assert a == {"type": "sr.unstick", "id": "c1", "holder": "c1", "owner": "c2", "weapon": "dagger", "method": "con",
                 "rolls": {"test": 95}}
    h.do(a, rng)
    assert "(attempt 1)" in log_of(h)[-1][1]
    h.do({"type": "advance"}, rng)  # end of the round: "did they move or fight?"
    p = next(p for p in RS.view(h.present)["prompts"] if p["kind"] == "impaled")
    h.do(answer_action(p["id"], "yes", {"rolls.impale_damage": "2"})[0], rng)
    chest = next(l for l in RS.view(h.present)["combatants"]["c1"]["locations"] if l["id"] == "chest")
    assert chest["hp"] == -3  # 7 from the blow, then half of 2 + 2


def test_card_healing_fight_fold_outs_and_their_actions():
    h = fight(EVIL)
    view = RS.view(h.present)
    html = card_html("c1", view, CARD_FOLDS_OPEN)
    check_controls(html)
    assert "<img" not in html
    for form, fields in (("sr-heal", {"kind", "location", "points", "reattach"}),
                         ("sr-natural-healing", {"period", "rested", "healer", "rolls.treatment"}),
                         ("sr-first-aid", {"healer", "location", "rolls.first_aid", "rolls.heal"}),
                         ("sr-disengage", {"how"}),
                         ("sr-grapple", {"target", "option", "substitute", "rolls.resistance", "rolls.damage",
                                         "rolls.throw_dex", "rolls.throw_damage", "rolls.throw_location"})):
        part = html.split(f'data-form="{form}"')[1].split("</form>")[0]
        assert names_in("<form " + part + ">") == fields, form
    assert '<option value="total">Total HP only</option>' in html
    # disengage / grapple only while declaring or resolving
    h2 = History(new_encounter("strike-rank", "t"))
    h2.do({"type": "add_combatant", "combatant": PRESETS["Human warrior"]}, random.Random(1))
    assert "sr-disengage" not in card_html("c1", RS.view(h2.present), StrikeRankUi(open={"fight-c1": True}))
    heal, _ = care_action("sr-heal", "c1", {"kind": "rune", "location": "total", "points": "3", "reattach": False})
    assert heal == {"type": "sr.heal", "target": "c1", "location": "total", "points": 3, "kind": "rune"}
    nat, _ = care_action("sr-natural-healing", "c1", {"period": "week", "healer": "", "rolls.treatment": "10"})
    assert nat == {"type": "sr.natural_healing", "id": "c1", "period": "week"}  # no healer: no treatment roll
    nat, _ = care_action("sr-natural-healing", "c1", {"period": "day", "healer": "c1", "rolls.treatment": "10"})
    assert nat["healer"] == "c1" and nat["rolls"] == {"treatment": 10}
    nat, _ = care_action("sr-natural-healing", "c1", {"period": "day", "rested": False, "healer": ""})
    assert nat == {"type": "sr.natural_healing", "id": "c1", "period": "day", "rested": False}  # "requires rest"
    g, _ = care_action("sr-grapple", "c1", {"target": "c2", "option": "throw", "substitute": "60",
                                            "rolls.resistance": "10", "rolls.throw_dex": ""})
    assert g == {"type": "sr.grapple", "id": "c1", "target": "c2", "option": "throw", "substitute": 60,
                 "rolls": {"resistance": 10}}
    d, _ = care_action("sr-disengage", "c1", {"how": "flee"})
    assert d == {"type": "sr.disengage", "id": "c1", "how": "flee"}
    # each is an action the engine takes
    rng = random.Random(4)
    h.do({"type": "sr.damage", "target": "c1", "location": "left_arm", "amount": 2, "armour": False}, rng)
    h.do(care_action("sr-heal", "c1", {"kind": "heal", "location": "left_arm", "points": "2"})[0], rng)
    assert next(l for l in RS.view(h.present)["combatants"]["c1"]["locations"] if l["id"] == "left_arm")["hp"] == 4
    with pytest.raises(FrayError):
        h.do(care_action("sr-grapple", "c1", {"target": "c2", "option": "immobilize"})[0], rng)


def test_a_cards_fold_outs_of_gm_forms_are_drawn_once_they_open_and_kept_while_shown():
    """The care fold-out (GM damage, protection, First Aid, healing) and Disengage / grapple hold
    no forms until they first open (the page renders on that toggle, ``data-fold-lazy``), then
    keep them while the card shows them, shut again or not, so what the GM typed stays. A held
    combatant's grapple fold-out opens by itself ("Immobilize ... the target cannot act"): drawn."""
    h = fight(EVIL)
    view = RS.view(h.present)
    shut = card_html("c1", view)
    assert "<form" not in shut.split('data-fold="care-c1"')[1]
    for key in ("care-c1", "fight-c1"):
        tag = shut.split(f'data-fold="{key}"')[1].split(">")[0]
        assert "data-fold-lazy" in tag and " open" not in tag
        assert f'<summary id="fold-{key}"' in shut  # the render that draws it gives the focus back
    opened = card_html("c1", view, StrikeRankUi(open={"care-c1": True}))
    assert 'data-form="sr-damage"' in opened and 'data-form="sr-heal"' in opened
    assert 'data-form="sr-grapple"' not in opened
    assert '<summary id="fold-care-c1"' in opened
    kept = card_html("c1", view, StrikeRankUi(open={"care-c1": False, "fight-c1": False}, opened={"care-c1", "fight-c1"}))
    assert 'data-form="sr-first-aid"' in kept and 'data-form="sr-disengage"' in kept
    assert 'data-fold-lazy' not in kept.split('data-fold="care-c1"')[1].split(">")[0]
    # the panel keeps the keys of the card's fold-outs that have been open, as it does the attack
    # forms'; a key whose fold-out is no longer on the page is let go
    from fray.games.strike_rank.web.panel import opened_keys
    assert opened_keys(StrikeRankUi(opened={"care-c1", "care-gone"}),
                       {"care-c1": False, "fight-c1": True, "declare-c1-0": True, "circ-x": True,
                        "sr-order": True}) == {"care-c1", "fight-c1", "declare-c1-0", "circ-x"}
    # a fold-out drawn open by itself (a held combatant's grapple, a free attack's Circumstances)
    # and shut before any render saw it open stays drawn while its body is on the page
    assert opened_keys({}, {"fight-c1": False, "circ-sr-att-free": False, "care-c1": False},
                       {"fight-c1": False, "circ-sr-att-free": False}) == {"fight-c1", "circ-sr-att-free"}
    # a held combatant's grapple fold-out is open, so drawn, without the GM opening it
    held = copy.deepcopy(view)
    held["combatants"]["c1"]["conditions"] = [*held["combatants"]["c1"].get("conditions", []), "grappled"]
    html = card_html("c1", held)
    assert "Disengage / grapple (held)" in html and 'data-form="sr-grapple"' in html
    assert 'data-fold="fight-c1" data-fold-drawn open' in html  # marked: kept drawn once shut
    assert 'data-form="sr-damage"' not in html


def test_free_attack_on_a_fleeing_enemy_opens_an_attack_panel():
    """Disengaging: fleeing gives "enemies ... an immediate melee attack (no parry, dodge at ½)":
    the prompt offers each enemy an "attacks now" button; the panel then opens an attack with
    free_attack ticked and no declared action, and the engine takes it."""
    h = fight()
    h.do({"type": "sr.disengage", "id": "c1", "how": "flee"}, random.Random(5))
    view = RS.view(h.present)
    p = next(p for p in view["prompts"] if p["kind"] == "free_attack")
    html = prompt_html(p, {"c1": "Human warrior", "c2": "Great wolf (four-legged)"})
    button = next(a for t, a in tags(html) if a.get("data-act") == "sr-free-attack")
    assert (button["data-attacker"], button["data-target"]) == ("c2", "c1")
    free = {"attacker": "c2", "target": "c1", "prompt": p["id"]}
    panel = panel_html(view, StrikeRankUi(free=free), log_of(h))
    form = panel.split('data-form="sr-attack"')[1].split("</form>")[0]
    assert 'data-attacker="c2"' in form and 'data-ref=""' in form
    check = next(a for t, a in tags("<form " + form + ">") if a.get("name") == "free_attack")
    assert "checked" in check
    weapon = form.split('data-weapon="')[1].split('"')[0]
    a, errors = attack_action("", "c2", weapon, {"target": "c1", "defence.kind": "dodge", "free_attack": True,
                                                 "rolls.attack": "30", "rolls.defence": "90",
                                                 "rolls.location": "5", "rolls.damage": "4"})
    assert not errors and a["free_attack"] is True and "ref" in a and not a["ref"]
    events = h.do(a)
    attack_line = next(e["text"] for e in events if e["kind"] == "attack")
    assert "dodges: 35% → ×0.5 fleeing = 18%" in attack_line
    # without the prompt (answered or undone) the panel shows no free attack
    h.undo()
    h.undo()
    assert 'data-form="sr-attack"' not in panel_html(RS.view(h.present), StrikeRankUi(free=free), log_of(h))


def _selected(html: str, name: str) -> str:
    sel = html.split(f'name="{name}"')[1].split("</select>")[0]
    return sel.split(" selected")[0].rsplit('value="', 1)[1].split('"')[0]


def _options(html: str, name: str) -> list[str]:
    sel = html.split(f'name="{name}"')[1].split("</select>")[0]
    return [x.split('"')[0] for x in sel.split('value="')[1:]]


def test_default_targets_are_enemies_not_allies():
    """Issue 10: "default targets are allies": the declare form and the attack panel default to another side."""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    for name, side in (("Ana", "party"), ("Cid", "party"), ("Wolf", "foes")):
        preset = PRESETS["Great wolf (four-legged)" if side == "foes" else "Human warrior"]
        h.do({"type": "add_combatant", "combatant": {**preset, "name": name, "side": side}}, rng)
    h.do({"type": "advance"}, rng)
    html = panel_html(RS.view(h.present), {}, log_of(h))
    ana = html.split('data-form="sr-declare" data-id="c1"')[1]
    assert _selected(ana, "target") == "c3"
    wolf = html.split('data-form="sr-declare" data-id="c3"')[1]
    assert _selected(wolf, "target") == "c1"


def test_archer_preset_declares_a_missile_attack_and_the_error_names_the_label():
    """Issue 10: "the archer preset defaults to a melee attack with its bow, and the error then names
    "kind 'missile'" instead of the on-screen label"."""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": PRESETS["Archer"]}, rng)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "side": "party"}}, rng)
    h.do({"type": "advance"}, rng)
    html = panel_html(RS.view(h.present), {}, log_of(h))
    archer = html.split('data-form="sr-declare" data-id="c1"')[1]
    assert _selected(archer, "kind") == "missile" and _selected(archer, "weapon") == "composite_bow"
    with pytest.raises(FrayError, match="declare a Missile attack"):
        h.do(declare_action("c1", {"kind": "melee", "weapon": "composite_bow", "target": "c2"}), rng)


def test_parry_list_against_missiles_only_shields_and_a_used_shield_is_not_the_default():
    """Defending vs. Missiles: "Ranged attacks can be dodged or parried with a shield, but not parried with other
    weapons"; issue 10: "After a shield parry, the next attack on the same defender still defaults to "Parry with
    Medium shield", and the refusal shows an internal id"."""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "side": "party"}}, rng)
    # the archers 30 m off: "Unengaged characters can use missile weapons"
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Archer"], "position": {"x": 30, "y": 0}}}, rng)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Archer"], "name": "Archer 2",
                                                 "position": {"x": 30, "y": 4}}}, rng)
    h.do({"type": "advance"}, rng)
    for cid in ("c2", "c3"):
        h.do(declare_action(cid, {"kind": "missile", "weapon": "composite_bow", "target": "c1"}), rng)
    h.do({"type": "advance"}, rng)
    html = panel_html(RS.view(h.present), {}, log_of(h))
    form = html.split('data-form="sr-attack"')[1]
    assert _options(form, "defence.weapon") == ["medium_shield"]
    assert _selected(form, "defence.kind") == "parry"
    first = next(o for o in RS.view(h.present)["order"] if o.get("current"))
    h.do({"type": "sr.attack", "attacker": first["combatant"], "target": "c1", "weapon": "composite_bow",
          "ref": first["ref"], "defence": {"kind": "parry", "weapon": "medium_shield"},
          "rolls": {"attack": 90, "defence": 90}}, rng)
    html = panel_html(RS.view(h.present), {}, log_of(h))
    form = html.split('data-form="sr-attack"')[1]
    assert _selected(form, "defence.kind") == "dodge"
    second = next(o for o in RS.view(h.present)["order"] if o.get("current"))
    with pytest.raises(FrayError) as refused:
        h.do({"type": "sr.attack", "attacker": second["combatant"], "target": "c1", "weapon": "composite_bow",
              "ref": second["ref"], "defence": {"kind": "parry", "weapon": "medium_shield"},
              "rolls": {"attack": 90, "defence": 90}}, rng)
    assert "(Medium shield)" in str(refused.value) and "medium_shield" not in str(refused.value)


# -- issue 10: every declaration and attack field of the engine has a control --------------------------

def test_declaration_more_fields_reach_the_engine():
    """Ranged Combat ("S/MR: multiple shots"), Fighting with Two Weapons, Charging, Charging Past, Mounted Charge &
    Lance, Bracing for a Charge, Movement ("add up their movement rates"), Other Actions: each field the engine
    reads on ``sr.declare`` has a control in the declaration form, and is sent only with the kinds that use it."""
    h = fight()
    html = panel_html(RS.view(h.present), StrikeRankUi(open={"more-sr-sr-declare-c1": True}), log_of(h))
    check_controls(html)
    names = {a.get("name") for t, a in tags(html) if t in ("input", "select")}
    assert {"shots", "attacks", "split", "extra_weapon", "brace_against", "charge", "charge_past", "mounted_charge",
            "mutual", "continuing", "label", "sr_cost"} <= names
    melee = declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2", "attacks": "2",
                                  "split": "60, 50", "extra_weapon": "medium_shield", "charge": True,
                                  "charge_past": True, "mutual": True, "shots": "3", "label": "x"})
    assert {k: melee[k] for k in ("attacks", "split", "extra_weapon", "charge", "charge_past", "mutual")} == {
        "attacks": 2, "split": [60, 50], "extra_weapon": "medium_shield", "charge": True, "charge_past": True,
        "mutual": True}
    assert "shots" not in melee and "label" not in melee
    shot = declare_action("c1", {"kind": "missile", "weapon": "bow", "shots": "2", "attacks": "3"})
    assert shot["shots"] == 2 and "attacks" not in shot
    other = declare_action("c1", {"kind": "other", "label": "Light a torch", "sr_cost": "3", "charge": True})
    assert other == {"type": "sr.declare", "id": "c1", "kind": "other", "label": "Light a torch", "sr_cost": 3}
    brace = declare_action("c1", {"kind": "melee", "weapon": "spear", "brace_against": "c2", "mounted_charge": True})
    assert brace["brace_against"] == "c2" and brace["mounted_charge"] is True
    move = declare_action("c1", {"kind": "move", "metres": "9", "continuing": True, "mutual": True, "target": "c2"})
    assert move["continuing"] and move["mutual"] and move["metres"] == 9


def test_split_text_that_is_not_numbers_is_named_by_the_engine_at_split():
    """Fighting: split ratings are whole numbers; text passes to the engine, which names the field (no crash)."""
    h = fight()
    with pytest.raises(FrayError) as e:
        h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "attacks": "2", "split": "60 abc"}),
             random.Random(1))
    assert getattr(e.value, "field", "") == "split"


def test_a_finished_declaration_form_closes():
    """Issue 10: "a finished declaration form closes": a combatant who has declared gets a shut fold-out
    ("Declare another action for ..."), the one who has not an open one."""
    h = fight()
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), random.Random(1))
    html = panel_html(RS.view(h.present), {}, log_of(h))
    folds = {a["data-fold"]: "open" in a for t, a in tags(html) if t == "details" and "data-fold" in a}
    assert folds["declare-c1-1"] is False and folds["declare-c2-0"] is True
    assert "Declare another action for Human warrior" in html


def test_defenders_split_bonus_and_mounted_fields_reach_the_attack():
    """Fighting (a defender's split parry, bonuses), Mounted Hit Locations (``mounted_vs_foot``, the attacker's side):
    the attack panel's fields become the engine's ``defence.split``, ``defence.bonus``, ``mounted_vs_foot`` and
    ``attacker_side``; blank leaves Fray to derive the rider's 1D10+10 from the mount."""
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"}), rng)
    h.do({"type": "advance"}, rng)
    html = panel_html(RS.view(h.present), StrikeRankUi(open={"circ-sr-att-a1": True}), log_of(h))
    check_controls(html)
    names = {a.get("name") for t, a in tags(html) if t in ("input", "select")}
    assert {"defence.split", "defence.bonus", "mounted_vs_foot", "attacker_side"} <= names
    a, _ = attack_action("a1", "c1", "broadsword", {"defence.kind": "parry", "defence.weapon": "bite",
                                                    "defence.split": "50", "defence.bonus": "10",
                                                    "mounted_vs_foot": "no", "attacker_side": "left"})
    assert a["defence"] == {"kind": "parry", "weapon": "bite", "split": 50, "bonus": 10}
    assert a["mounted_vs_foot"] is False and a["attacker_side"] == "left"
    auto, _ = attack_action("a1", "c1", "broadsword", {"defence.kind": "dodge", "defence.split": "50",
                                                       "mounted_vs_foot": ""})
    assert auto["defence"] == {"kind": "dodge"} and "mounted_vs_foot" not in auto


def test_bleeding_con_tests_are_typed_fields_on_the_round_ending_next():
    """Damage Equal to Location HP: "Chest, Abdomen: Combatant must make a CON test at the end of each MR": when the
    next Next ends the MR, each test is a d100 field named by its roll (blank = Fray rolls); and the card says
    the wound instead of "ok" (issue 10: "HP 7/13 ok" while the abdomen bleeds)."""
    h = fight()
    rng = random.Random(1)
    h.do({"type": "advance"}, rng)  # resolve, nothing declared
    h.do({"type": "sr.damage", "target": "c1", "location": "abdomen", "amount": 5, "armour": False}, rng)
    view = RS.view(h.present)
    html = panel_html(view, {}, log_of(h))
    check_controls(html)
    assert 'data-form="sr-bleed"' in html and 'name="rolls.bleed.c1.abdomen"' in html
    assert "Human warrior, Abdomen: CON 60% d100" in html
    card = card_html("c1", view)
    assert "bleeding: Abdomen" in card and ">ok<" not in card
    h.do({"type": "advance", "skip_empty": True, "rolls": {"bleed.c1.abdomen": 99}}, rng)
    assert "CON×5 rolled 99" in "\n".join(t for _, t in log_of(h))


def test_the_dead_do_not_bleed_on_their_card():
    """Damage Equal to Location HP: the Chest and Abdomen bleed, "a CON test at the end of each MR"; the dead
    make no test (timing.bleed_tests), so a killed combatant's card no longer flags the location as bleeding
    (found in play: it did), while the wound itself is still drawn."""
    h = fight()
    rng = random.Random(1)
    h.do({"type": "advance"}, rng)
    h.do({"type": "sr.damage", "target": "c1", "location": "abdomen", "amount": 5, "armour": False}, rng)
    assert "bleeding" in card_html("c1", RS.view(h.present))
    h.do({"type": "sr.damage", "target": "c1", "location": "head", "amount": 40, "armour": False}, rng)
    view = RS.view(h.present)
    assert view["combatants"]["c1"]["status"] == "dead"
    card = card_html("c1", view)
    assert "bleeding" not in card and 'data-loc="abdomen"' in card
    assert 'name="rolls.bleed.c1.abdomen"' not in panel_html(view, {}, log_of(h))
    # the order strip and a folded card's line: "dead" first, and no bleeding (found in play: they said
    # "HP 0/13, maimed: Chest, bleeding", struck through like the unconscious)
    word = RS.status(h.present, view, "c1")["word"]
    assert word.startswith("dead") and "bleeding" not in word


def test_armour_list_with_a_bare_number_is_named_in_the_forms_words():
    """Issue 10: armour "4, legs 2" named "armour.4" under the JSON box: the page now explains it under Armour
    points, and the engine's refusal of an unknown location lists the body's own location names."""
    from fray.games.strike_rank.web.panel import armour_problem

    assert "“4” has no hit location" in armour_problem("4, legs 2")
    assert armour_problem("3") == "" and armour_problem("head 3, chest 2") == ""
    h = History(new_encounter("strike-rank", "t"))
    with pytest.raises(FrayError) as e:
        h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "armour": {"legs": 2}}},
             random.Random(1))
    assert e.value.field == "combatant.armour.legs" and "Right leg" in str(e.value)


def test_a_weapon_of_someone_else_is_refused_with_card_names_not_ids():
    """Issue 10: "the refusal shows an internal id ("medium_shield")": a parry weapon the defender does not carry
    is refused with the names on the defender's card."""
    h = fight()
    rng = random.Random(1)
    h.do(declare_action("c2", {"kind": "melee", "weapon": "bite", "target": "c1"}), rng)
    h.do({"type": "advance"}, rng)
    with pytest.raises(FrayError) as e:
        h.do({"type": "sr.attack", "attacker": "c2", "target": "c1", "weapon": "bite", "ref": "a1",
              "defence": {"kind": "parry", "weapon": "no_such_shield"}}, rng)
    assert "medium_shield" not in str(e.value) and "no_such_shield" not in str(e.value)
    assert "Broadsword, Medium shield" in str(e.value)



def test_a_new_target_keeps_the_dice_and_the_attackers_fields():
    """Issue 10: "Changing the attack form's Target clears dice already typed in it": the dice, mode,
    bonus and the attacker's circumstances stay; only what belongs to the old defender goes."""
    from fray.games.strike_rank.web.attack import carried_over

    typed = {"target": "c3", "rolls.attack": "34", "rolls.damage": "8 4", "rolls.defence": "71", "mode": "aimed",
             "bonus": "10", "moving": True, "water": "waist", "aim": "head", "gm_location": "chest",
             "defence.kind": "parry", "defence.weapon": "broadsword", "defence.split": "50", "defence.bonus": "5",
             "cover.soft": True, "cover.hard.head": True, "shield_cover.weapon": "medium_shield",
             "shield_cover.locations.left_arm": True, "target_weapon": "broadsword", "attacker_side": "left",
             "split": "60", "pull.bonus": "2", "object.name": "door"}
    kept = carried_over(typed)
    assert kept == {"rolls.attack": "34", "rolls.damage": "8 4", "rolls.defence": "71", "mode": "aimed",
                    "bonus": "10", "moving": True, "water": "waist", "split": "60", "pull.bonus": "2",
                    "object.name": "door"}


def test_a_declarations_more_fold_out_is_drawn_when_it_first_opens_and_kept_once_drawn():
    """The rarer fields of a declaration (Ranged Combat's "S/MR: multiple shots", Fighting with Two
    Weapons, Charging, Bracing for a Charge, Other Actions) are folded away: shut and never opened,
    the fold-out holds no fields (the page draws them when it opens, ``data-fold-lazy``); once
    drawn they stay, shut or open, so what the GM typed in them is not lost; a declaration that
    leaves them out sends none of them."""
    h = fight()
    view = RS.view(h.present)

    def more_fields(ui):
        html = panel_html(view, ui, log_of(h))
        d = [a for t, a in tags(html) if t == "details" and a.get("data-fold") == "more-sr-sr-declare-c1"]
        assert len(d) == 1
        body = html.split('data-fold="more-sr-sr-declare-c1"', 1)[1].split("</details>", 1)[0]
        return d[0], {a.get("name") for t, a in tags(body) if t in ("input", "select")}

    shut, fields = more_fields({})
    assert "data-fold-lazy" in shut and "open" not in shut and fields == set()
    opened, fields = more_fields(StrikeRankUi(open={"more-sr-sr-declare-c1": True}))
    assert "data-fold-lazy" not in opened and "open" in opened and {"shots", "brace_against", "sr_cost"} <= fields
    again, fields = more_fields(StrikeRankUi(open={"more-sr-sr-declare-c1": False}, opened={"more-sr-sr-declare-c1"}))
    assert "open" not in again and "data-fold-lazy" not in again and {"shots", "brace_against"} <= fields
    plain = declare_action("c1", {"kind": "melee", "weapon": "broadsword", "target": "c2"})
    assert not {"shots", "attacks", "split", "extra_weapon", "brace_against", "label", "sr_cost"} & set(plain)


def test_every_default_target_is_the_nearest_standing_enemy():
    """A declaration's or an attack's Target starts on the nearest enemy on the map who is not dead,
    unconscious or incapacitated, never an ally (issue 10, "default targets are allies"; issue 32:
    "two adventurers' default target was the dead Broo 1"); none when no enemy stands."""
    from fray.games.strike_rank.web.common import _first_enemies, _first_enemy

    rnd = random.Random(5)
    views = [{"combatants": {}}, {"combatants": {"a": {"side": "pcs"}}},
             {"combatants": {"a": {"side": "pcs"}, "b": {"side": "pcs"}}},
             {"combatants": {"a": {"side": "pcs"}, "b": {"side": "foes", "status": "dead"}}}]
    for n in range(2, 30):
        views.append({"combatants": {f"c{i}": {"side": rnd.choice(["pcs", "foes", "beasts"]),
                                               "status": rnd.choice(["ok", "ok", "dead", "unconscious"]),
                                               "at": [rnd.randint(0, 9), rnd.randint(0, 9)]} for i in range(n)}})
    for view in views:
        cs = view["combatants"]
        got = _first_enemies(view)
        for cid, c in cs.items():
            assert got[cid] == _first_enemy(view, cid)
            far = lambda o: sum((p - q) ** 2 for p, q in zip(cs[o].get("at", [0, 0]), c.get("at", [0, 0])))  # noqa: E731
            enemies = [o for o in cs if cs[o].get("side") != c.get("side") and cs[o].get("status", "ok") == "ok"]
            assert got[cid] == (min(enemies, key=far) if enemies else "")
    assert _first_enemies(views[2]) == {"a": "", "b": ""}
    assert _first_enemies(views[3]) == {"a": "", "b": "a"}


def test_add_form_gives_each_weapon_its_hand_and_a_natural_weapon_its_location():
    """Damage Equal to Location HP: "Arm: A disabled arm cannot wield weapons or shields": the add form says which
    hand holds what (issue 32: Yanioth's shield, typed without a hand, stayed usable with her left arm maimed)."""
    typed = add_extra({"sr_weapons": "Sword, 60, 1D8+1, 2, 12, slashing\nShield, 50, 1D4, 3, 12, crushing, shield\n"
                                     "Axe, 45, 1D8+2, 2, 10, slashing, left hand\nBow, 50, 1D8+1, , 6, impaling, missile\n"
                                     "Kick, 30, 1D6, 3, , crushing, natural, Right leg", "sr_armour": ""}, {})
    assert [w.get("hand") for w in typed["weapons"]] == ["right", "left", "left", "both", None]
    assert typed["weapons"][4]["location"] == "right_leg"
    assert weapons_text(typed["weapons"]).splitlines()[1] == "Shield, 50, 1D4, 3, 12, crushing, shield, left"
    assert weapons_text(typed["weapons"]).splitlines()[4] == "Kick, 30, 1D6, 3, , crushing, natural, right leg"
    wolf = PRESETS["Great wolf (four-legged)"]
    assert weapons_text(wolf["weapons"]) == "Bite, 55, 1D10, 1, , impaling, natural, head"
    html = add_fields_html({})
    assert "the hand: right, left or both" in html and "the hit location it strikes with" in html


def test_a_parry_or_dodge_declared_alone_shows_no_strike_rank():
    """A GM's play-through: "Parry / dodge only" showed an "SR 0" badge. "Defenses must be declared
    before an attack test is rolled. They are resolved on the same SR as the attack, and do not delay
    other actions": such a declaration acts at no SR of its own, and its badge names the stance."""
    h = fight()
    h.do(declare_action("c1", {"kind": "defend", "stance": "parry", "weapon": "broadsword"}), random.Random(1))
    h.do(declare_action("c2", {"kind": "defend", "stance": "dodge"}), random.Random(1))
    html = panel_html(RS.view(h.present), {}, log_of(h))
    decls = html.split('class="sr-decls"')[1:]
    assert "SR 0" not in html
    assert '<span class="sr-badge no-sr">Parry</span>' in decls[0]
    assert '<span class="sr-badge no-sr">Dodge</span>' in decls[1]
    assert 'aria-label="Undeclare the parry of Human warrior"' in html


def test_a_one_die_field_says_one_roll_of_that_die():
    """A GM's play-through: the bleeding d100 field said "type whole numbers such as 8 4, not abc" for a single
    die. A field of one d100 or d20 (its label says which) asks for one roll of it, 1 to its sides; dice
    fields of several dice keep asking for whole numbers."""
    from fray.games.strike_rank.web.parse import _rolls

    rolls, errors = _rolls({"rolls.bleed.c2.chest": "abc", "rolls.attack": "150", "rolls.location": "8 4",
                            "rolls.defence": "00", "rolls.fumble": "0", "rolls.damage": "abc"})
    assert rolls == {"defence": 100}
    assert errors == {"rolls.bleed.c2.chest": "type one d100 roll, 1-100, not abc",
                      "rolls.attack": "type one d100 roll, 1-100, not 150",
                      "rolls.location": "type one d20 roll, 1-20, not 8 4",
                      "rolls.fumble": ZERO_FACE,
                      "rolls.damage": "type whole numbers such as 8 4, not abc"}
