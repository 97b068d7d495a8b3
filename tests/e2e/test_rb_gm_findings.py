"""Range band, findings of a GM's play-through: the Movement roll pressed again for the same combatant stacked
pending rolls R1-R9; the stealth buttons said "AWGT 172" to a GM who never learnt the abbreviation; the players'
window said nothing of a companion's High Stealth.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

from gestures import card, new_encounter, photograph, rb_start
from playwright.sync_api import expect
from test_players_view import add_rb, open_players, players_dialog
from test_range_band import BADGE, SCOUT, add, advance, attack, gm_result, move

BEAR = "Large creature"


def shot(page, name: str) -> None:
    """With FRAY_SHOTS set, the panel photographed at a tablet's and a laptop's size."""
    photograph(page, name, scroll_to=".rb-acting")


def test_a_second_movement_roll_is_refused_beside_the_button(page, open_app):
    """FACTS: "a movement phase, then an action phase"; Flight: "If vertical movement up or down is your only
    movement, it still counts as a movement phase": one movement roll a combatant in each movement phase."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Ford", "range-band", BADGE)
    add(page, SCOUT)                         # c1
    add(page, BEAR, x=60, side="foes")       # c2
    rb_start(page, "Start anyway")
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement phase")
    move(page, x=5)
    expect(page.locator('.rb-pending[data-ref="R1"]')).to_be_visible()
    move(page, x=6)
    form = page.locator("form[data-form=rb-move]")
    said = form.locator("[data-error-for][role=alert]")
    expect(said).to_have_count(1)
    expect(said).to_have_class("field-error rb-form-error")  # the form's own slot, beside the button
    expect(form.get_by_label("East (x, m)")).not_to_have_attribute("aria-invalid", "true")
    expect(said).to_contain_text("has made this round's movement roll already")
    expect(said).to_contain_text("one movement roll in each movement phase")
    expect(page.locator(".rb-pending")).to_have_count(1)
    expect(page.locator('.rb-pending[data-ref="R2"]')).to_have_count(0)
    shot(page, "rb-second-move")


def test_stealth_says_adjusted_weight_in_words(page, open_app):
    """Large Creatures & Vehicles: "Creatures of at least 25 AWGT cannot use High Stealth." The page says the
    weight in words, never the bare abbreviation."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Den", "range-band", BADGE)
    add(page, BEAR)                          # c1: the large creature acts
    add(page, SCOUT, x=60, side="foes")      # c2
    rb_start(page, "Start anyway")
    acting = page.locator(".rb-acting")
    expect(acting.locator("h3")).to_have_text(f"Movement: {BEAR}")
    advance(page, "Movement phase")
    expect(acting.locator("h3")).to_have_text(f"Movement: {SCOUT}")
    advance(page, "Action phase")
    expect(acting).to_contain_text("adjusted weight")
    assert "AWGT" not in acting.inner_text().replace("(AWGT)", "")
    card_text = page.locator("#combatants").inner_text()
    expect(page.locator("#combatants .rb-awgt").first).to_have_text("172 adjusted (AWGT)")
    assert "AWGT" not in card_text.replace("(AWGT)", "")
    shot(page, "rb-awgt")


def high_stealth_from_the_start(page, name: str) -> None:
    """The GM lets ``name`` start the battle in High Stealth without a roll (High Stealth: "the GM may allow any
    characters who wish to start a battle in High Stealth to do so without rolling")."""
    who = card(page, name)
    who.get_by_label("Stealth", exact=True).select_option("high")
    who.get_by_label("start in it (no roll)").check()
    who.get_by_role("button", name=f"Set the stealth level of {name}").click()
    expect(card(page, name).locator(".rb-stealth")).to_have_text("High Stealth")


def scouts_at_the_ford(page, open_app, *scouts):
    """A range-band fight of scouts at the ford at 1366x900, each (name, side, x), the first in High Stealth."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Reeds at the ford", "range-band", BADGE)
    for name, side, x in scouts:
        add_rb(page, SCOUT, name, side, x)
    high_stealth_from_the_start(page, scouts[0][0])


def test_the_players_see_their_companions_high_stealth_not_a_foes(page, open_app, wait_ready):
    """High Stealth: "the GM will not assume you are using High Stealth at all times, unless your party is willing to
    move very slowly": High Stealth is the players' own choice, so their window says it of a party member (the GM's
    map said "Kest high stealth", the players' window nothing); a foe's stays the GM's to tell, even when shown."""
    scouts_at_the_ford(page, open_app, ("Kest", "party", 0), ("Lurker", "foes", 4))
    high_stealth_from_the_start(page, "Lurker")
    pv = open_players(page, wait_ready)
    dlg = players_dialog(page)
    lurker = dlg.locator('li[data-id="c2"]')
    lurker.get_by_role("button", name="Show").click()  # the GM shows the foe: its stealth stays unsaid
    expect(lurker).to_contain_text("Shown, by the GM")
    dlg.get_by_role("button", name="Close").click()
    expect(pv.locator('.pv-token[data-id="c2"]')).to_have_count(1)
    expect(pv.locator('.pv-token[data-id="c1"] title')).to_have_text("Kest · high stealth")
    expect(pv.locator('.pv-token[data-id="c2"] title')).to_have_text("Lurker")
    photograph(pv, "players-stealth")


def test_maintain_high_stealth_is_not_offered_after_a_stealth_attack(page, open_app):
    """High Stealth: "You must also maintain High Stealth as a major action on every turn ... If you do a different
    major action, you revert to Medium Stealth." A GM's play-through (p6): after Sneak's stealth attack, "Maintain
    High Stealth (major)" was still offered, its own preview saying "Would be refused: ... has already used 1 major
    action". With the turn's major action spent, the panel says so in its place instead of offering it."""
    scouts_at_the_ford(page, open_app, ("Sneak", "party", 0), ("Bandit", "foes", 40))
    rb_start(page, "Start anyway")
    acting = page.locator(".rb-acting")
    advance(page, "Movement phase")
    advance(page, "Action phase: Sneak")
    maintain = acting.get_by_role("button", name="Maintain High Stealth (major)")
    expect(maintain).to_be_visible()
    attack(page, "Bandit", "Shortbow")
    gm_result(page, "R1", True, 2)
    expect(maintain).to_have_count(0)
    expect(acting.locator(".rb-why", has_text="Maintain High Stealth (major)")).to_contain_text(
        "Sneak has already used 1 major action this turn")
    shot(page, "rb-maintain-spent")
