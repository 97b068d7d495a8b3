"""Range band, findings of a GM's play-through: the Movement roll pressed again for the same combatant stacked
pending rolls R1-R9; the stealth buttons said "AWGT 172" to a GM who never learnt the abbreviation.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

import os

from gestures import new_encounter, rb_start
from playwright.sync_api import expect
from test_range_band import BADGE, SCOUT, add, advance, move

BEAR = "Large creature"


def shot(page, name: str) -> None:
    """With FRAY_SHOTS set, the panel photographed at a tablet's and a laptop's size."""
    if not os.environ.get("FRAY_SHOTS"):
        return
    was = page.viewport_size
    for w, h in ((768, 1024), (1366, 900)):
        page.set_viewport_size({"width": w, "height": h})
        page.locator(".rb-acting").scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], f"{name}-{w}.png"))
    page.set_viewport_size(was)


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
