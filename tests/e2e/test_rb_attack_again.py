"""Range band, a GM playing whole fights: after an attack the Weapon field went back to the first one (the
Rider's lance) though the rider shoots his crossbow again, and an ordinary miss was drawn as an error
(red). FACTS.md, the core roll: a failed offense roll is one of its results; the attack form keeps each
attacker's weapon and shows the miss as a result."""

from __future__ import annotations

from gestures import new_encounter, photograph, rb_start
from playwright.sync_api import expect
from test_range_band import BADGE, RIDER, add, advance, attack, gm_result

BEAR = "Large creature"
ERROR_RED = "rgb(138, 28, 28)"  # .field-error's and the old fail result's colour


def shot(page, name: str) -> None:
    """With FRAY_SHOTS set, the attack form photographed at a tablet's and a laptop's size."""
    photograph(page, name, scroll_to="form[data-form=rb-attack]")


def test_the_weapon_stays_and_a_miss_is_a_result_not_an_error(page, open_app):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Archers at the ford", "range-band", BADGE)
    add(page, RIDER)                          # c1: a lance (melee) first, then a crossbow
    add(page, BEAR, x=2, side="foes")         # c2, engaged: the lance reaches it (the form offers one that reaches)
    rb_start(page, "Start anyway")
    advance(page, "Movement phase")
    advance(page, "Action phase")
    form = page.locator("form[data-form=rb-attack]")
    weapon = form.get_by_label("Weapon")
    expect(weapon).to_have_value("0")  # the lance, as listed
    attack(page, BEAR, "Crossbow")
    gm_result(page, "R1", success=False, by=3)
    result = form.locator(".rb-result")
    expect(result).to_contain_text("offense roll failed")
    # a miss is a result: said as one, not drawn or announced as an error
    expect(result).to_have_attribute("role", "status")
    assert result.evaluate("e => getComputedStyle(e).color") != ERROR_RED
    expect(form.locator(".rb-result.rb-result-miss")).to_have_count(1)
    # the rider shoots again: his crossbow is still chosen
    expect(weapon).to_have_value("1")
    shot(page, "rb-miss")
