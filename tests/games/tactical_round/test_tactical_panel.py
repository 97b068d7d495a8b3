"""The tactical-round panel's HTML (pure functions, no browser): escaping, the controls and their
names (= the engine's field paths, each with its error slot), the typed-dice parser."""

from __future__ import annotations

import json
import re

import pytest

from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web import panels
from fray.games.tactical_round.web.panel import (DEFAULT_KINDS, attack_html, FOLD_DECLARATIONS_FROM, TacticalPanel, card_html, panel_html, parse_dice)
from html_checks import EVIL, tags

RS = get_ruleset("tactical-round")


def names(html: str) -> set[str]:
    return {a["name"] for t, a in tags(html) if t in ("input", "select", "textarea") and a.get("name")}


def error_slots(html: str) -> set[str]:
    return {a["data-error-for"] for _, a in tags(html) if a.get("data-error-for")}


def encounter(phase_steps: int = 2, parry: bool = True, attack: bool = False):
    presets = RS.presets()
    h = History(new_encounter("tactical-round", "T"))
    for p in (presets[0], presets[2], presets[1]):
        h.do({"type": "add_combatant", "combatant": dict(p)})
    h.do({"type": "edit_combatant", "id": "c2", "changes": {"name": EVIL}})
    for _ in range(phase_steps):
        h.do({"type": "advance"})
    if attack:
        h.do({"type": "tr.declare", "id": "c3", "actions": [{"action": "ranged_attack", "weapon": 0, "target": "c2"}]})
        if parry:
            h.do({"type": "tr.parry", "id": "c1", "amount": 20, "against": ["c2"]})
        for _ in range(3):
            h.do({"type": "advance"})
        h.do({"type": "tr.attack", "id": "c3", "target": "c2", "line_of_sight": True, "rolls": {"attack": [45]}})
    return h


def test_registered_under_the_ruleset_id():
    assert isinstance(panels.panel_for("tactical-round"), TacticalPanel)


def test_user_text_is_escaped_everywhere():
    h = encounter(attack=True)
    view = RS.view(h.present)
    html = panel_html(view, {}, DEFAULT_KINDS) + "".join(card_html(view, c.id) for c in h.present.combatants)
    assert "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" in html


def test_stepper_lists_every_phase_and_marks_the_current_one():
    view = RS.view(encounter(phase_steps=2).present)  # Declaration
    html = panel_html(view, {}, DEFAULT_KINDS)
    lis = re.findall(r'<li class="([^"]*)"( aria-current="step")?><span class="n">\d+</span> ([^<]+)</li>', html)
    assert [x[2] for x in lis] == ["Assessment", "Declaration", "Move", "Spell A", "Ranged A", "Melee", "Ranged B",
                                   "Spell B", "Other Actions"]
    assert [x[2] for x in lis if x[1]] == ["Declaration"]
    assert lis[0][0] == "past" and lis[1][0] == "current"


def test_declaration_forms_name_the_engine_fields():
    view = RS.view(encounter(phase_steps=2).present)
    html = panel_html(view, {}, DEFAULT_KINDS)
    forms = re.findall(r'<form class="tr-form tr-declare".*?</form>', html)
    assert len(forms) == 3
    for f in forms:
        want = {"id"} | {f"actions.{i}.{k}" for i in range(2) for k in ("action", "weapon", "target")}
        assert names(f) == want
        assert want - {"id"} <= error_slots(f)
        assert 'data-form="tr-declare"' in f


def _crowd(n: int):
    presets = RS.presets()
    h = History(new_encounter("tactical-round", "T"))
    for i in range(n):
        h.do({"type": "add_combatant", "combatant": dict(presets[i % len(presets)], name=f"Fighter {i}")})
    for _ in range(2):  # Declaration
        h.do({"type": "advance"})
    h.do({"type": "tr.declare", "id": "c1", "actions": [{"action": "melee_attack", "weapon": 0, "target": "c2"}]})
    return h


def test_many_declarations_fold_and_draw_a_form_only_once_opened():
    """FACTS, "Tactical Round Sequence, in order: Assessment, Declaration, Move, ...": everyone
    declares in the Declaration phase; past a dozen the forms fold, one line each that still says
    what was declared, and only an opened one holds its form."""
    few = panel_html(RS.view(_crowd(FOLD_DECLARATIONS_FROM - 1).present), {}, DEFAULT_KINDS)
    assert len(re.findall(r'<form class="tr-form tr-declare"', few)) == FOLD_DECLARATIONS_FROM - 1
    assert "tr-decl-fold" not in few

    view = RS.view(_crowd(20).present)
    shut = panel_html(view, {}, DEFAULT_KINDS)
    assert len(re.findall(r'<details class="tr-decl-fold tr-lazy"', shut)) == 20
    assert len(re.findall(r'data-fold-lazy', shut)) == 20
    assert "tr-declare" not in re.sub(r'class="tr-decl-forms[^"]*"', "", shut.replace("tr-declarations", ""))
    c1 = re.search(r'<details class="tr-decl-fold tr-lazy" data-fold="decl-c1".*?</details>', shut).group(0)
    assert "Fighter 0" in c1 and "Melee attack" in c1
    assert "nothing declared" in re.search(r'data-fold="decl-c2".*?</details>', shut).group(0)

    opened = panel_html(view, TacticalRoundUi(decl_open={"c5"}, decl_drawn={"c5", "c7"}), DEFAULT_KINDS)
    forms = re.findall(r'<form class="tr-form tr-declare" data-form="tr-declare" data-id="(c\d+)"', opened)
    assert forms == ["c5", "c7"]
    assert re.search(r'data-fold="decl-c5" data-id="c5" open>', opened)
    assert re.search(r'data-fold="decl-c7" data-id="c7">', opened)  # drawn, shut again: keeps its form
    assert len(re.findall(r'data-fold-lazy', opened)) == 18


def test_a_cards_cover_damage_and_run_away_are_drawn_when_they_first_open():
    """Issue 11, "one action (apply, autosave, re-render) at 30 combatants p95 <= 50 ms": the acting
    combatant's card is drawn again on every Next; its cover, damage / heal and running-away forms
    (70 of its 200 elements) hold no field until their fold-out first opens, and keep their form
    once opened (what the GM typed stays)."""
    from fray.games.tactical_round.web.panel import CARD_FOLDS

    view = RS.view(encounter(phase_steps=5).present)
    cid = view["combatants"][0]["id"]
    drawn = card_html(view, cid)  # no page to read: everything drawn
    assert 'data-form="tr-cover"' in drawn and 'data-form="tr-hp"' in drawn
    shut = card_html(view, cid, TacticalRoundUi())
    assert 'data-form="tr-cover"' not in shut and 'data-form="tr-hp"' not in shut
    assert 'data-form="tr-parry"' in shut or "Cannot parry" in shut, "the parry stays drawn"
    for what in ("cover", "hp"):
        fold = re.search(rf'<details [^>]*data-fold="tr-{what}-{cid}"[^>]*>.*?</details>', shut).group(0)
        assert "data-fold-lazy" in fold and f'id="fold-tr-{what}-{cid}"' in fold and "<form" not in fold
    assert re.search(r'<summary[^>]*>Cover: ', shut), "the summary still says the cover taken"
    opened = card_html(view, cid, TacticalRoundUi(card_open={f"tr-hp-{cid}"}, card_drawn={f"tr-hp-{cid}"}))
    assert 'data-form="tr-hp"' in opened and 'data-form="tr-cover"' not in opened
    assert re.search(rf'data-fold="tr-hp-{cid}" open>', opened)
    kept = card_html(view, cid, TacticalRoundUi(card_drawn={f"tr-hp-{cid}"}))
    assert 'data-form="tr-hp"' in kept and re.search(rf'data-fold="tr-hp-{cid}">', kept)
    assert all(f"{p}{cid}" in drawn for p in CARD_FOLDS if p != "tr-run-")


def test_attack_form_fields_and_flags():
    view = RS.view(encounter(phase_steps=5).present)  # Ranged A
    # nobody declared an attack: no open Attack panel (a GM's play-through: an empty one in the Move phase); folded,
    # the attack no one declared, the GM's call, on one whose weapon attacks in this phase (test_tr_gm_today.py)
    panel = str(panel_html(view, {}, DEFAULT_KINDS))
    assert '<details class="tr-box tr-attack-box" open' not in panel
    assert "Nobody declared an attack in Ranged A" in panel
    html = attack_html(view, {})  # as the quick attack of a slot, or a declared attack, draws it
    form = re.search(r'<form class="tr-form tr-attack".*?</form>', html).group(0)
    assert names(form) == {"id", "weapon", "target", "distance", "flanking", "on_rear", "charge", "mounted",
                           "two_weapons", "line_of_sight", "rolls.attack"}
    assert {"id", "weapon", "target", "distance", "rolls.attack", "line_of_sight"} <= error_slots(form)
    assert "Roll and attack" not in form  # one button (issue 33)
    # every visible control has a label
    ids = {a["id"] for t, a in tags(form) if t in ("input", "select") and a.get("type") != "hidden"}
    labelled = {a["for"] for t, a in tags(form) if t == "label" and a.get("for")}
    assert ids <= labelled


def test_quick_attack_prefills_the_form():
    view = RS.view(encounter(phase_steps=5).present)
    html = panel_html(view, TacticalRoundUi(attack={"id": "c3", "weapon": 0, "target": "c2"}), DEFAULT_KINDS)
    form = re.search(r'<form class="tr-form tr-attack".*?</form>', html).group(0)
    assert '<option value="c3" selected>' in form
    assert '<option value="c3:0" selected>' in form
    assert re.search(r'name="target">.*<option value="c2" selected>', form)


def test_pending_attack_shows_total_breakdown_and_result_entry():
    view = RS.view(encounter(attack=True).present)
    html = panel_html(view, {}, DEFAULT_KINDS)
    box = re.search(r'<article class="tr-pending" data-ref="A1".*?</article>', html).group(0)
    assert '<strong class="tr-total-value">55</strong>' in box
    assert "55 = roll 45 + CMB 50 − DEF 40 (DEF 25 + shield 15)" in box
    assert names(box) == {"ref", "hits", "critical", "rolls.critical"}
    assert {"hits", "critical", "rolls.critical"} <= error_slots(box)
    assert all(f'<option value="{s}">' in box for s in "ABCDE")
    assert 'data-act="tr-dismiss"' in box


def test_critical_stage_form():
    h = encounter(attack=True)
    h.do({"type": "tr.apply_result", "ref": "A1", "hits": 5, "critical": "C", "rolls": {"critical": [50]}})
    html = panel_html(RS.view(h.present), {}, DEFAULT_KINDS)
    box = re.search(r'<article class="tr-pending critical".*?</article>', html).group(0)
    assert names(box) == {"ref", "hits", "stunned_rounds", "dies_in", "prone", "kills", "text"}
    assert '<strong class="tr-total-value">70</strong>' in box  # d100 50 + severity C 20


def test_card_shows_def_parry_cover_hp_weapons():
    h = encounter(attack=True)
    h.do({"type": "tr.apply_result", "ref": "A1", "hits": 25, "critical": None})
    view = RS.view(h.present)
    sword = card_html(view, "c1")
    assert '<strong class="tr-def-value">70</strong>' in sword
    assert "DEF 70 = DEF 30 + shield 20 + parry 20" in sword
    assert "CMB 35 (of 55)" in sword
    assert 'data-form="tr-parry"' in sword and 'name="amount"' in sword
    assert re.search(r'name="against\.\d" value="c2" checked', sword)  # shield: a list of opponents
    assert 'data-form="tr-cover"' in sword and 'data-act="tr-dive-prone"' in sword
    assert 'data-act="tr-dive-cover"' in sword and 'data-form="tr-hp"' in sword and 'data-act="tr-heal"' in sword
    orc = card_html(view, "c2")
    assert '<strong class="tr-hp-value">15</strong> / 40' in orc
    assert "Bruised" in orc
    xbow = card_html(view, "c3")
    assert "Light crossbow" in xbow and "empty" in xbow and 'data-act="tr-reload"' in xbow
    # the crossbowman carries no shield: one opponent, a select
    assert '<select id="tr-c3-pa-against" name="against">' in xbow
    for html in (sword, orc, xbow):
        assert {"amount", "cover", "hits"} <= error_slots(html)


def test_engaged_card_offers_running_away_with_named_rolls():
    h = encounter(phase_steps=2)
    h.do({"type": "tr.declare", "id": "c2", "actions": [{"action": "melee_attack", "weapon": 0, "target": "c1"}]})
    for _ in range(4):
        h.do({"type": "advance"})
    h.do({"type": "tr.attack", "id": "c2", "target": "c1", "rolls": {"attack": [50]}})
    view = RS.view(h.present)
    html = card_html(view, "c1")
    assert "Engaged with" in html and "Engaged: Engaged" not in html  # issue 10: said once
    form = re.search(r'<form class="tr-form tr-run".*?</form>', html).group(0)
    assert names(form) == {"rolls.flee", "rolls.athletics.c2"}
    assert {"rolls.flee", "rolls.athletics.c2"} <= error_slots(form)


@pytest.mark.parametrize("text,want", [("", None), ("  ", None), ("98 40", [98, 40]), ("98,40", [98, 40]),
                                        ("98, 40 ,3", [98, 40, 3]), ("-5", [-5]), ("07", [7])])
def test_parse_dice(text, want):
    assert parse_dice(text) == want


@pytest.mark.parametrize("text", ["98 4O", "x", "9.5", "98;40", "--3"])
def test_parse_dice_refuses(text):
    with pytest.raises(ValueError):
        parse_dice(text)


def test_handlers_ignore_what_is_not_theirs():
    p = TacticalPanel()
    assert p.on_act(None, "undo", None) is False
    assert p.on_form(None, "add-combatant", None, {}) is False
    assert p.on_form(None, "note", None, {}) is False


def test_empty_view_renders_nothing():
    assert panel_html({}, {}) == ""
    assert card_html({"combatants": []}, "c9") == ""


def test_range_bands_from_the_map():
    from fray.games.tactical_round.rules import map_ranges
    from fray.games.tactical_round.web.forms import ranges_html

    h = encounter(phase_steps=0)
    h.do({"type": "move", "id": "c2", "x": 50, "y": 0})  # 50 m: light crossbow (30 m) 2x band, heavy (40 m) 2x
    h.do({"type": "move", "id": "c1", "x": 0, "y": 130})  # 130 m: beyond 4x light, 4x heavy
    tables = RS.all_tables(h.present)
    r = map_ranges(h.present, tables, "c3")
    rows = {x["target"]: x for x in r["rows"]}
    assert rows[EVIL]["metres"] == 50
    assert [b["modifier"] for b in rows[EVIL]["bands"]] == [-25, -25]
    assert [b["modifier"] for b in rows[RS.presets()[0]["name"]]["bands"]] == [None, -75]
    html = ranges_html(r)
    assert "beyond 4× Base Range" in html and "<img" not in html
    assert map_ranges(h.present, tables, "c2") is not None  # the orc's throwing spear
    h2 = History(new_encounter("tactical-round", "W"))
    h2.do({"type": "add_combatant", "combatant": dict(RS.presets()[4])})  # wolf: no ranged weapon
    assert map_ranges(h2.present, RS.all_tables(h2.present), "c1") is None


def test_attack_form_prefills_the_next_open_attack_of_the_phase():
    h = encounter(phase_steps=2)
    h.do({"type": "tr.declare", "id": "c3", "actions": [{"action": "ranged_attack", "weapon": 1, "target": "c2"}]})
    for _ in range(3):
        h.do({"type": "advance"})  # Ranged A
    html = panel_html(RS.view(h.present), {}, DEFAULT_KINDS)
    form = re.search(r'<form class="tr-form tr-attack".*?</form>', html).group(0)
    assert '<option value="c3" selected>' in form and '<option value="c3:1" selected>' in form
    assert '<details class="tr-box tr-attack-box" open>' in html


def test_range_list_puts_bodies_on_the_line_to_the_gm():
    """Ranged Attacks: "the character must have a clear Line of Sight to the target": a body
    standing on the line between shooter and target is named as a question for the GM."""
    from fray.games.tactical_round.rules import map_ranges
    from fray.games.tactical_round.web.forms import ranges_html

    h = encounter(phase_steps=0)
    h.do({"type": "move", "id": "c3", "x": 0, "y": 0})
    h.do({"type": "move", "id": "c2", "x": 40, "y": 0})
    h.do({"type": "move", "id": "c1", "x": 20, "y": 0.5})  # between the crossbowman and the orc
    r = map_ranges(h.present, RS.all_tables(h.present), "c3")
    rows = {x["target"]: x for x in r["rows"]}
    assert rows[EVIL]["in_the_way"] == [RS.presets()[0]["name"]]
    assert rows[RS.presets()[0]["name"]]["in_the_way"] == []
    assert "in the way: line of sight?" in ranges_html(r)


# -- the add form's weapons section (one weapon a line; the lines are read by weapon_lines) --------

from fray.errors import InvalidAction  # noqa: E402
from fray.games.tactical_round.weapon_lines import weapons_text  # noqa: E402
from fray.games.tactical_round.web.panel import add_extra, add_fields_html, fold_weapons  # noqa: E402
from fray.games.tactical_round.web.ui import TacticalRoundUi


@pytest.mark.parametrize("line, words", [
    ("Crossbow, lots, missile, 30", ["Line 3 (Crossbow): CMB", "whole number"]),
    ("Crossbow, 50, laser, 30", ["Line 3 (Crossbow): kind", "must be one of"]),
    ("Crossbow, 50, missile", ["Line 3 (Crossbow): base range", "needs a Base Range"]),
    ("Pike, 50, melee, 4", ["Line 3 (Pike): base range", "has no Base Range"]),
    ("Great sword, 50, melee, two_handed, shield=10", ["Line 3 (Great sword): shield", "no hand for a shield"]),
    ("Sling, 30, thrown, 20, quick_load", ["Line 3 (Sling): quick load", "only missile"]),
])
def test_the_engines_weapon_check_is_named_by_line_and_nothing_changes(line, words):
    values = {"combatant.extra": '{"wielding": 0}', "tr_weapons": "Sword, 40, melee\n\n" + line}
    before = dict(values)
    with pytest.raises(InvalidAction) as e:
        fold_weapons(values)
    assert e.value.field == "combatant.weapons"
    for w in words:
        assert w in str(e.value)
    assert values == before


def test_fold_merges_into_the_json_box_and_keeps_its_other_fields():
    xbow = next(p for p in RS.presets() if p["name"] == "Crossbowman")
    extra = {"weapons": xbow["weapons"], "wielding": 2, "hits_taken": 5}
    box = json.dumps(extra)
    # untouched lines: the box's weapons as they were
    same = {"combatant.extra": box, "tr_weapons": weapons_text(xbow["weapons"])}
    fold_weapons(same)
    assert json.loads(same["combatant.extra"]) == extra
    # typed lines replace the weapons only
    typed = {"combatant.extra": box, "tr_weapons": "Arbalest, 60, missile, 50, 3, two_handed\nDagger, 25, melee"}
    fold_weapons(typed)
    got = json.loads(typed["combatant.extra"])
    assert got["wielding"] == 2 and got["hits_taken"] == 5
    assert got["weapons"] == [{"name": "Arbalest", "cmb": 60, "kind": "missile", "base_range": 50, "reload": 3,
                               "two_handed": True}, {"name": "Dagger", "cmb": 25, "kind": "melee"}]
    # emptied lines: no weapons; an empty box stays empty
    gone = {"combatant.extra": box, "tr_weapons": "  \n"}
    fold_weapons(gone)
    assert "weapons" not in json.loads(gone["combatant.extra"])
    empty = {"combatant.extra": "", "tr_weapons": ""}
    fold_weapons(empty)
    assert empty["combatant.extra"] == ""
    # a box that is not JSON is left for the app to name
    bad = {"combatant.extra": "{nope", "tr_weapons": "Dagger, 25, melee"}
    fold_weapons(bad)
    assert bad["combatant.extra"] == "{nope"
    assert add_extra({"tr_weapons": weapons_text(xbow["weapons"])}, extra) == extra


def test_typed_weapons_are_what_the_engine_adds():
    values = {"combatant.extra": "", "tr_weapons": "Light crossbow, 50, missile, 30, 1, quick_load, two_handed\n"
                                                   "Short sword, 30, melee, length=1"}
    fold_weapons(values)
    h = History(new_encounter("tactical-round", "T"))
    h.do({"type": "add_combatant", "combatant": {"name": "X", "stats": {"DEF": 20, "HP": 30, "Athletics": 10},
                                                 **json.loads(values["combatant.extra"])}})
    ws = h.present.combatants[0].data["weapons"]
    assert [(w["name"], w["kind"], w["base_range"], w["reload"], w["quick_load"]) for w in ws] == [
        ("Light crossbow", "missile", 30, 1, True), ("Short sword", "melee", None, 0, False)]


def test_add_section_html_is_filled_escaped_and_has_its_error_slot():
    html = add_fields_html({"weapons": [{"name": EVIL, "cmb": 1, "kind": "melee"}]})
    assert "<img" not in html and "&lt;img" in html
    assert names(html) == {"tr_weapons"} and error_slots(html) == {"combatant.weapons"}
    assert 'for="f-tr-weapons"' in html and 'aria-describedby="f-tr-weapons-hint"' in html
    assert "quick_load" in html and "shield=15" in html and "length=3" in html
    assert "<textarea" in add_fields_html({}) and "<textarea" in add_fields_html({"weapons": "junk"})


def test_add_form_submit_folds_the_lines_then_leaves_the_adding_to_the_app():
    values = {"combatant.name": "X", "combatant.extra": "", "tr_weapons": "Dagger, 25, melee"}
    assert TacticalPanel().on_form(None, "add-combatant", None, values) is False
    assert json.loads(values["combatant.extra"]) == {"weapons": [{"name": "Dagger", "cmb": 25, "kind": "melee"}]}


def test_attack_form_default_target_is_an_enemy_not_an_ally():
    """Issue 10: "default targets are allies (both rulesets)": the Crossbowman's (party) attack form defaults to
    the Orc warrior (foes), not the Swordsman beside him."""
    view = RS.view(encounter(phase_steps=5).present)
    html = panel_html(view, TacticalRoundUi(attack={"id": "c3"}), DEFAULT_KINDS)
    form = re.search(r'<form class="tr-form tr-attack".*?</form>', html).group(0)
    sel = re.search(r'name="target".*?</select>', form).group(0)
    assert re.search(r'<option value="([^"]*)" selected', sel).group(1) == "c2"


def test_add_form_names_only_this_games_fields():
    """Issue 10: the tactical-round add form's JSON hint spoke of "armour, body", which this game does not have
    (DEF is a stat); it names weapons, the one in hand and hits taken."""
    from fray.web.render import combatant_form

    html = combatant_form(RS, None, RS.presets())
    assert "armour" not in html.lower() and "Weapons, the one in hand and hits taken, as written in a Fray file" in html


def test_results_past_the_first_three_wait_as_lines_drawn_when_opened():
    """FACTS: "the engine computes and shows the total, and the GM enters the result (hits and
    critical severity)". The first attacks awaiting it are shown whole; the ones after wait one line each (who, whom, the total) and
    carry their result form only once opened."""
    from fray.games.tactical_round.web.panel import PENDING_SHOWN, pending_html

    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    import fights

    # a GM who leaves every result for later: the attacks awaiting the table pile up
    h = fights.played_until("tactical-round", 6, 120, 3, lambda enc: len(RS.view(enc).get("pending", [])) >= 6,
                            settle=0)
    view = RS.view(h.present)
    refs = [p["ref"] for p in view["pending"]]
    assert len(refs) >= 6
    html = pending_html(view, {})
    assert len(re.findall(r'<article class="tr-pending"', html)) == PENDING_SHOWN
    folds = re.findall(r'<details class="tr-pending-fold tr-lazy" data-fold="pending-([^"]+)" data-fold-lazy>', html)
    assert folds == refs[PENDING_SHOWN:]
    assert f"Awaiting the attack table ({len(refs)})" in html
    line = re.search(rf'data-fold="pending-{refs[4]}".*?</details>', html).group(0)
    assert str(view["pending"][4]["total"]) in line and "tr-result" not in line
    drawn = pending_html(view, TacticalRoundUi(pending_open={refs[4]}, pending_drawn={refs[4], refs[5]}))
    assert len(re.findall(r'data-form="tr-result"', drawn)) == PENDING_SHOWN + 2
    assert re.search(rf'data-fold="pending-{refs[4]}" open>', drawn)
    assert re.search(rf'data-fold="pending-{refs[5]}">', drawn)


def test_the_fallen_get_no_forms_and_a_stopped_next_says_what_is_open():
    """Issue 32: "Dead, incapacitated and unconscious combatants get no forms and are never a default
    target"; "say what is still open ("Mira's Ranged attack is not resolved: Resolve / Skip it")"."""
    h = encounter(phase_steps=2)
    h.do({"type": "tr.declare", "id": "c3", "actions": [{"action": "ranged_attack", "weapon": 0, "target": "c2"}]})
    h.do({"type": "set_condition", "id": "c1", "condition": "unconscious"})
    h.do({"type": "advance", "skip_empty": True, "ask": True, "go_on": True})  # Ranged A
    view = RS.view(h.present)
    card = card_html(view, "c1")
    assert "tr-parry" not in card and "tr-cover" not in card and 'data-act="tr-wield"' not in card
    assert "Out of the fight" in card and 'data-form="tr-hp"' in card  # healing brings them back
    html = panel_html(view, TacticalRoundUi(asked=[view["round"], "ranged_a"]), DEFAULT_KINDS)
    form = re.search(r'<form class="tr-form tr-attack".*?</form>', html).group(0)
    attackers = re.search(r'<select id="tr-att-id".*?</select>', form).group(0)
    assert 'value="c1"' not in attackers
    box = re.search(r'<section class="tr-box tr-open.*?</section>', html).group(0)
    assert "Crossbowman&#x27;s Ranged attack is not resolved:" in box
    assert 'data-act="tr-skip"' in box and ">Resolve<" in box and "Skip it and go on" in box
    assert "tr-open" not in panel_html(view, {}, DEFAULT_KINDS)  # only after a Next that stopped


def test_a_parry_starts_against_a_standing_enemy_never_an_ally():
    """Issue 32, "The fallen keep acting": "A default target is the nearest living enemy on the map, never an
    ally"; found playing by hand: Lia's parry "Against" started on Bran, her own side, and listed the fallen
    Orc archer among the first."""
    sword = next(p for p in RS.presets() if any(w.get("shield") for w in p.get("weapons", [])))
    h = History(new_encounter("tactical-round", "T"))
    h.do({"type": "add_combatant", "combatant": {**sword, "name": "Lia", "side": "party"}})  # c1
    h.do({"type": "add_combatant", "combatant": {**sword, "name": "Bran", "side": "party"}})  # c2
    h.do({"type": "add_combatant", "combatant": {**sword, "name": "Orc 1", "side": "foes"}})  # c3
    h.do({"type": "add_combatant", "combatant": {**sword, "name": "Orc 2", "side": "foes"}})  # c4
    h.do({"type": "set_condition", "id": "c3", "condition": "incapacitated"})
    html = card_html(RS.view(h.present), "c1")
    sel = re.search(r'<select id="tr-c1-pa-against".*?</select>', html, re.S)
    boxes = re.findall(r'id="tr-c1-pa-\d+"[^>]*value="(c\d+)"|value="(c\d+)"[^>]*id="tr-c1-pa-\d+"', html)
    # and only the living foes (a GM's play-through: Orc 2's list offered Axe orc, an ally, and the dead
    # Orc 1): "A character can only Parry attacks from a single opponent per Round, and only attacks
    # from the opponent they are facing"
    if sel:
        opts = re.findall(r'<option value="(c\d+)"( selected)?', sel.group(0))
        assert opts == [("c4", " selected")]
    else:  # a shield parries several: tick boxes
        assert [a or b for a, b in boxes] == ["c4"]
    h.do({"type": "set_condition", "id": "c1", "condition": "dead"})
    html = card_html(RS.view(h.present), "c4")  # Orc 2: Bran, not its ally Orc 1 nor the dead Lia
    boxes = re.findall(r'id="tr-c4-pa-\d+"[^>]*value="(c\d+)"|value="(c\d+)"[^>]*id="tr-c4-pa-\d+"', html)
    sel = re.search(r'<select id="tr-c4-pa-against".*?</select>', html, re.S)
    got = re.findall(r'<option value="(c\d+)"', sel.group(0)) if sel else [a or b for a, b in boxes]
    assert got == ["c2"]


def test_the_acting_line_names_the_weapon_declared_for_this_phase():
    """Issue 33: in Ranged A the acting line said "Holds Broadsword" (the weapon in hand) while the
    swordsman threw his dagger, the weapon he declared ("Ranged Attack ... thrown weapons", declared
    for the Ranged phase). What it uses now is what its open action of this phase uses."""
    h = encounter(phase_steps=2)
    h.do({"type": "tr.declare", "id": "c1", "actions": [{"action": "ranged_attack", "weapon": 1, "target": "c2"}]})
    panel = TacticalPanel()
    assert panel.uses(None, "c1", RS.view(h.present)) == []  # declaring: nothing used yet
    for _ in range(3):
        h.do({"type": "advance"})  # Ranged A
    view = RS.view(h.present)
    assert view["phase"]["id"] == "ranged_a"
    assert panel.uses(None, "c1", view) == ["Dagger"]
    assert panel.holds(None, "c1", view) == ["Broadsword"]  # what it holds is another thing
    assert panel.uses(None, "c3", view) == []  # declared nothing for this phase


def test_a_declaration_starts_on_last_rounds_until_this_rounds_is_made():
    """FACTS.md, tactical-round: a Declaration phase every round; the form offers the last declaration (selected,
    and said so), and once declared this round shows this round's."""
    from fray.games.tactical_round import rules

    h = encounter(phase_steps=2)
    h.do({"type": "tr.declare", "id": "c1", "actions": [{"action": "melee_attack", "weapon": 0, "target": "c2"}]})
    for _ in range(9):  # to round 2's Declaration
        h.do({"type": "advance"})
    assert (h.present.round, h.present.phase) == (2, "declaration")
    view = RS.view(h.present)
    html = panel_html(view, {}, DEFAULT_KINDS, last=rules.last_declarations(h.present))
    form = re.search(r'<form class="tr-form tr-declare" data-form="tr-declare" data-id="c1".*?</form>', html).group(0)
    assert re.search(r'name="actions.0.action".*?<option value="melee_attack" selected>', form, re.S)
    assert re.search(r'name="actions.0.target".*?<option value="c2" selected>', form, re.S)
    assert "As last round: change it, or Declare." in form
    other = re.search(r'<form class="tr-form tr-declare" data-form="tr-declare" data-id="c2".*?</form>', html).group(0)
    assert "As last round" not in other and '<option value="" selected>(none)' in other  # declared nothing before


def test_the_dead_are_offered_as_no_target():
    """A GM was offered the dead as targets: the attack and declaration forms leave them out (the incapacitated
    and dying can still be struck)."""
    h = encounter(phase_steps=2)
    h.do({"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    html = panel_html(RS.view(h.present), {}, DEFAULT_KINDS)
    attack_form = re.search(r'<form class="tr-form tr-attack".*?</form>', attack_html(RS.view(h.present), {})).group(0)
    target = re.search(r'name="target".*?</select>', attack_form).group(0)
    assert 'value="c2"' not in target and 'value="c3"' in target
    decl = re.search(r'<form class="tr-form tr-declare" data-form="tr-declare" data-id="c1".*?</form>', html).group(0)
    dtarget = re.search(r'name="actions.0.target".*?</select>', decl).group(0)
    assert 'value="c2"' not in dtarget and 'value="c3"' in dtarget


def test_the_critical_d100_is_asked_for_as_one_roll():
    """A GM's play-through (strike-rank's bleeding d100 read "type whole numbers such as 8 4"): a field of one
    die says so. The Critical d100 is one roll, 1-100; the attack's open-ended d100 may be several numbers."""
    from fray.games.tactical_round.web.common import read_rolls

    assert read_rolls({"rolls.critical": "57", "rolls.attack": "98 40"}, ("attack", "critical")) == (
        {"attack": [98, 40], "critical": [57]}, None)
    for typed, said in (("150", "150"), ("abc", "abc"), ("8 4", "8 4")):
        _, bad = read_rolls({"rolls.critical": typed}, ("critical",))
        assert (bad.field, bad.message) == ("rolls.critical", f"type one d100 roll, 1-100, not {said}")
    _, bad = read_rolls({"rolls.attack": "abc"}, ("attack",))
    assert "whole numbers separated by spaces" in bad.message


def test_a_declared_action_names_its_weapon_and_target():
    """A GM's play-through: the declared-action summary read "Ranged attack · Ranged A · full", without what
    shoots at whom. It names the weapon and the target as declared, in the form and in its folded line."""
    h = encounter(phase_steps=2)  # c1 Swordsman with shield (Broadsword, Dagger), c2 (EVIL), c3 Crossbowman
    h.do({"type": "tr.declare", "id": "c3", "actions": [{"action": "ranged_attack", "weapon": 0, "target": "c1"}]})
    html = panel_html(RS.view(h.present), {}, DEFAULT_KINDS)
    assert "<li>Ranged attack with Light crossbow → Swordsman with shield · Ranged A · full</li>" in html
    from fray.games.tactical_round.web.forms import _decl_fold, declared_what

    view = RS.view(h.present)
    c3 = next(c for c in view["combatants"] if c["id"] == "c3")
    names = {c["id"]: c["name"] for c in view["combatants"]}
    assert declared_what(c3["declared"][0], c3, names) == "Ranged attack with Light crossbow → Swordsman with shield"
    assert "Ranged attack with Light crossbow → Swordsman with shield (full)" in _decl_fold(c3, c3["declared"], False, names)


def test_line_of_sight_starts_from_the_map_for_a_ranged_attack_only():
    """A GM's play-through: the first ranged attack started with "Line of sight" unticked beside the map's "no one
    in the way", and a ticked box carried from a missile attack into a melee one. A ranged attack starts from the
    GM's last answer for the pair, else the map; a melee attack never starts ticked."""
    from fray.games.tactical_round.web.panel import sight_from

    presets = {p["name"]: p for p in RS.presets()}
    h = History(new_encounter("tactical-round", "T"))
    for name, side, x, y in (("Crossbowman", "party", 0, 0), ("Orc warrior", "foes", 0, 10),
                             ("Swordsman with shield", "party", 5, 0), ("Orc warrior", "foes", 10, 0)):
        h.do({"type": "add_combatant", "combatant": {**presets[name], "side": side,
                                                     "position": {"x": x, "y": y, "alt": 0}}})
    enc = h.present  # c1 Crossbowman (0 Light crossbow, 2 Short sword), c2 orc in the clear, c3 ally, c4 orc behind c3
    assert sight_from(enc, {}, "c1", 0, "c2") is True  # no one in the way
    assert sight_from(enc, {}, "c1", 0, "c4") is False  # the ally stands on the line: the GM says
    assert sight_from(enc, {"c1>c4": True}, "c1", 0, "c4") is True  # ... and the GM's answer stands
    assert sight_from(enc, {"c1>c2": True}, "c1", 2, "c2") is False  # a short sword needs no line of sight
    assert sight_from(enc, {}, "c3", None, "c4") is False  # the wielded broadsword: melee
