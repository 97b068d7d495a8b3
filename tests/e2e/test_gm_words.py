"""The words the GM reads (issue 33, §4; issue 32, point 6), in a real browser.

* A form with several bad fields shows every field's error at once, each beside its field, in the
  form's own words (its labels, never the engine's dotted path), in each game's add form.
* Picking a ready-made combatant sets every field to it (nothing left from the one picked before).
* A short fight in each game leaves no combatant, action or prompt id and no developer note on
  any screen the GM reads (``gm_words.assert_gm_words``, which the play-through suites call too).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from gestures import add_preset, new_encounter, open_add_dialog, open_all_cards
from gm_words import assert_gm_words, offending

GAMES = {
    # ruleset, badge, a ready-made combatant, two of its stats
    "strike-rank": ("Strike Rank (d100)", "Human warrior", "STR", "CON"),
    "tactical-round": ("Tactical round (CMB vs DEF)", "Orc warrior", "DEF", "HP"),
    "range-band": ("Range bands (turn order, movement phase, major/minor actions)", "Human scout", "DEX", "CON"),
}
PATH = re.compile(r"\b(?:combatant|stats|position)\.|\b\w+\.\d+\.\w+")


def _badge(page, ruleset: str) -> str:
    return GAMES[ruleset][0]


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_four_bad_fields_show_four_errors_at_once_in_the_forms_words(page, open_app, ruleset):
    badge, preset, s1, s2 = GAMES[ruleset]
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", ruleset, badge)
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=preset)
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator('[name="combatant.name"]')).to_have_value(preset)
    dlg.locator('[name="combatant.name"]').fill("")
    dlg.locator(f'[name="combatant.stats.{s1}"]').fill("abc")
    dlg.locator(f'[name="combatant.stats.{s2}"]').fill("12a")
    dlg.locator('[name="combatant.position.x"]').fill("far")
    dlg.get_by_role("button", name="Add", exact=True).click()  # one press
    want = {
        "combatant.name": "Name must not be empty",
        f"combatant.stats.{s1}": "must be a whole number, not 'abc'",
        f"combatant.stats.{s2}": "must be a whole number, not '12a'",
        "combatant.position.x": "East (x) must be a number, not 'far'",
    }
    for name, words in want.items():
        # beside its own field, saying it in the form's words
        slot = dlg.locator(f'[data-field="{name}"] [data-error-for="{name}"]')
        expect(slot).to_contain_text(words)
        expect(dlg.locator(f'[name="{name}"]')).to_have_attribute("aria-invalid", "true")
        assert not PATH.search(slot.inner_text()), slot.inner_text()
    expect(dlg.locator('[data-error-for]:not(:empty)')).to_have_count(4)
    expect(dlg.locator('[name="combatant.name"]')).to_be_focused()  # the first bad field
    assert_gm_words(page, "the add form's errors")
    dlg.get_by_role("button", name="Cancel").click()
    expect(page.locator("#combatants .card")).to_have_count(0)


def test_a_weapon_error_in_the_box_names_the_weapon_and_shows_the_types(page, open_app):
    """Strike-rank's weapons box: an error about one weapon says which in the form's words, and the
    box's hint lists the weapon types apart from the words that may follow them."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "strike-rank", GAMES["strike-rank"][0])
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label="Human warrior")
    dlg.get_by_role("button", name="Use", exact=True).click()
    weapons = dlg.get_by_label(re.compile("^Weapons, one a line"))
    expect(weapons).to_have_value(re.compile("^Broadsword"))
    label = dlg.locator('label[for="f-sr-weapons"]').inner_text()
    assert "crushing, slashing, impaling or cut-and-thrust" in label, label
    weapons.fill("Broadsword, 65, 1D8+1, 2, 12, sharp")
    dlg.get_by_role("button", name="Add", exact=True).click()
    err = dlg.locator('[data-error-for="combatant.weapons"]')
    expect(err).to_contain_text("Weapon 1: type must be one of crushing, slashing")
    assert not PATH.search(err.inner_text()), err.inner_text()


def test_a_ready_made_combatant_sets_every_field(page, open_app):
    """The Human scout picked after the Winged flyer has no Flying SPD (issue 33 §4)."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "range-band", GAMES["range-band"][0])
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label="Winged flyer")
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator('[name="combatant.stats.FSPD"]')).to_have_value("14")
    dlg.locator('[name="combatant.notes"]').fill("typed for the flyer")
    dlg.locator('[name="combatant.position.x"]').fill("12")
    dlg.get_by_label("Ready-made").select_option(label="Human scout")
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator('[name="combatant.name"]')).to_have_value("Human scout")
    expect(dlg.locator('[name="combatant.stats.FSPD"]')).to_have_value("0")
    expect(dlg.locator('[name="combatant.notes"]')).to_have_value("")
    expect(dlg.locator('[name="combatant.position.x"]')).to_have_value("")  # free ground (issue 33)
    expect(dlg.get_by_label("Starts flying")).not_to_be_checked()
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()


def test_the_scan_names_what_it_finds():
    """The scan itself: it finds each kind of developer word, and passes the GM's own words."""
    for bad in ("Change a5 of Broo 1", "(c7 before c10)", "GM answers p4 (fumble): keep",
                "criteria are not in the excerpt (FACTS.md)", "weapons.0.type: must be one of",
                "combatant.name: must not be empty", "go on without them (rule: Tactical Round Sequence)"):
        assert offending(bad), bad
    for good in ("SR 7 = DEX 3 + SIZ 2 + weapon 2", "Broo 6 moves 6 m", "Round 2", "1D8+1", "A2 critical on",
                 "R1 Movement roll", "HP 11/13", "c. 3 m", "Weapon 1: type must be one of crushing",
                 "two Half actions) a round (see “Combat Actions” in the rules)"):
        assert not offending(good), (good, offending(good))


# -- a short fight in each game, scanned at every screen ----------------------------------------

def _scan_everything(page, where: str) -> None:
    open_all_cards(page)
    assert_gm_words(page, where)


def test_a_short_strike_rank_fight_shows_no_developer_words(page, open_app):
    from test_strike_rank import advance, attack, declare

    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "strike-rank", GAMES["strike-rank"][0])
    add_preset(page, "Human warrior", "party")
    add_preset(page, "Great wolf (four-legged)", at=(3, 0))  # within engagement range (3 m)
    _scan_everything(page, "setting up")
    advance(page, "Declare")
    declare(page, "c1", "broadsword", "c2", "SR 7")
    declare(page, "c2", "bite", "c1", "SR 3")
    _scan_everything(page, "declared")
    advance(page, "Resolve SR 3")
    _scan_everything(page, "resolving")
    attack(page, "parry", {"attack": "20", "defence": "90", "location": "1", "damage": "3 1"}, "medium_shield")
    _scan_everything(page, "after the bite")
    advance(page, "Resolve SR 7")
    attack(page, "dodge", {"attack": "20", "defence": "90", "location": "3", "damage": "2 1"})
    _scan_everything(page, "after the sword")
    advance(page, "Declare")
    _scan_everything(page, "round 2")


def test_a_short_tactical_round_fight_shows_no_developer_words(page, open_app):
    from test_tactical_round import advance_to, apply_result, declare, new_tactical, pending, quick_attack

    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_tactical(page, "Words")
    for p in ("Swordsman with shield", "Orc warrior"):
        add_preset(page, p)
    _scan_everything(page, "setting up")
    advance_to(page, "Assessment", 1)
    advance_to(page, "Declaration")
    declare(page, "c1", [("melee_attack", "0", "c2")], "Swordsman with shield declares")
    declare(page, "c2", [("melee_attack", "0", "c1")], "Orc warrior declares")
    _scan_everything(page, "declared")
    advance_to(page, "Melee")
    form = quick_attack(page, "c2", "98 40")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(pending(page, "A1")).to_be_visible()
    _scan_everything(page, "a result waits")
    apply_result(page, "A1", 12, "B", "61")
    _scan_everything(page, "a critical waits")
    # Next stops on the Swordsman's open attack (the "still open" box): its words are scanned too,
    # then the GM goes on without it.
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".tr-open")).to_be_visible()
    _scan_everything(page, "an attack still open")
    page.locator(".tr-open").get_by_role("button", name=re.compile("^(Go on|Skip)")).last.click()
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Assessment")
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    _scan_everything(page, "round 2")


def test_a_short_range_band_fight_shows_no_developer_words(page, open_app):
    from test_range_band import BADGE, add, attack, gm_result, move

    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "range-band", BADGE)
    add(page, "Human scout")
    add(page, "Amphibious swimmer", x=5, side="foes")
    _scan_everything(page, "setting up")
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator("#rb-hold")).to_be_visible()
    _scan_everything(page, "who has no turn order yet")
    page.locator("#rb-hold").get_by_role("button", name="Start anyway").click()  # in the order added
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement phase")
    move(page, x=3)
    gm_result(page, "R1", True, 2)
    _scan_everything(page, "after a move")
    page.locator("#round-bar [data-act=advance]").click()
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator("#round-bar .phase")).to_contain_text("Action")
    _scan_everything(page, "actions")
    if page.locator("form[data-form=rb-attack]").count():
        attack(page, "Amphibious swimmer", "Knife")
        _scan_everything(page, "an attack waits")


def test_a_typed_d100_of_0_is_refused_and_00_is_a_hundred(page, open_app):
    """Issue 32, point 6: a typed "0" counted as 100 (a fumble) with no note; now the field says
    what to type, nothing changes, and "00" is taken as 100."""
    from test_strike_rank import advance, declare

    from gestures import saved

    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "strike-rank", GAMES["strike-rank"][0])
    add_preset(page, "Human warrior", "party")
    add_preset(page, "Great wolf (four-legged)", at=(3, 0))  # within engagement range (3 m)
    advance(page, "Declare")
    declare(page, "c1", "broadsword", "c2", "SR 7")
    declare(page, "c2", "bite", "c1", "SR 3")
    advance(page, "Resolve SR 3")
    before = saved(page)["history"]["actions"]
    form = page.locator("form[data-form=sr-attack]")
    form.locator('[name="defence.kind"]').select_option("dodge")
    for k, v in (("attack", "0"), ("defence", "50"), ("location", "1"), ("damage", "3 1")):
        form.locator(f'[name="rolls.{k}"]').fill(v)
    form.get_by_role("button", name="Roll the exchange").click()
    expect(form.locator('[data-error-for="rolls.attack"]')).to_contain_text("type 00 or 100 for a d100's hundred")
    assert saved(page)["history"]["actions"] == before
    form.locator('[name="rolls.attack"]').fill("00")
    form.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator("#log")).to_contain_text("fumble")
    attack = [a for a in saved(page)["history"]["actions"] if a["type"] == "sr.attack"][-1]
    assert attack["rolls"]["attack"] in (100, [100])  # as typed: the hundred, never 0


def test_help_names_the_buttons_and_tabs_the_page_shows(page, open_app):
    """Help said "Press Next to start" where the button says Start the fight, and sent a laptop's
    GM to a Map tab that is not shown at that size."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Words", "strike-rank", GAMES["strike-rank"][0])
    start = page.locator("#round-bar [data-act=advance]")
    expect(start).to_have_text("Start the fight")
    html = page.evaluate("() => fetch('./static/help/quickstart.html').then(r => r.text())")
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "Press Start the fight" in said, said[:400]
    assert "Press Next to start" not in said
    if not page.locator("#tab-map").is_visible():
        assert "The Map tab" not in said
