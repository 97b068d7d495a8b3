"""Strike-rank: what a GM's sixth play-through found, through the page. Fights are loaded ready-made from a
save file. Screenshots: /tmp/sr-p6-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from test_map import preset
from test_strike_rank_table import LAPTOP, TABLET, WARRIOR, load_fight, melee

HORSE = {"name": "Kick", "skill": 40, "damage": "1D8", "sr": 3, "hp": 0, "type": "crushing"}


def _warrior(name: str, side: str, **over) -> dict:
    return preset("strike-rank", WARRIOR, name=name, side=side, **over)


def _rider_at_his_blow(page, tmp_path, size) -> None:
    """A knight on his warhorse (c1, c2) against a broo on foot (c3), at the knight's blow (SR 8)."""
    page.set_viewport_size(size)
    people = [(_warrior("Warhorse", "party", weapons=[HORSE]), 0.0, 0.0),
              (_warrior("Kaldan", "party", mount="c1"), 0.0, 0.0), (_warrior("Broo", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}, melee("c2", "c3"), {"type": "advance"}])


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["tablet", "laptop"])
def test_a_riders_location_field_says_the_d10_it_takes(page, open_app, tmp_path, size):
    """Mounted Hit Locations: "A mounted combatant rolls 1D10+10 for hit location when making melee attacks against
    combatants on foot." A GM's play: the field read "Location d20", the 20 typed was refused ("type one d10 roll,
    1-10, not 20"). The field says the dice it takes (1D10+10) and what to type (the d10); the d10's 3 lands on 13."""
    open_app(page)
    _rider_at_his_blow(page, tmp_path, size)
    form = page.locator("form[data-form=sr-attack]")
    field = form.locator('[name="rolls.location"]')
    expect(form.locator('label[for="%s"]' % field.get_attribute("id"))).to_have_text("Location 1D10+10")
    expect(field).to_have_attribute("placeholder", "the d10: 1-10")
    page.screenshot(path=f"/tmp/sr-p6-rider-location-{size['width']}.png")
    form.locator('[name="defence.kind"]').select_option("none")
    form.locator('[name="rolls.attack"]').fill("20")
    field.fill("3")
    form.locator('[name="rolls.damage"]').fill("1 1")
    form.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator("#log")).to_contain_text("hit location 1D10+10 (melee) = 13")


def test_a_location_on_foot_is_the_d20(page, open_app, tmp_path):
    """FACTS.md: "Hit locations (humanoid), d20": the plain roll, the foot soldier's
    attack form says so."""
    page.set_viewport_size(LAPTOP)
    open_app(page)
    people = [(_warrior("Ana", "party"), 0.0, 0.0), (_warrior("Bor", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}, melee("c1", "c2"), {"type": "advance"}])
    field = page.locator('form[data-form=sr-attack] [name="rolls.location"]')
    expect(page.locator('label[for="%s"]' % field.get_attribute("id"))).to_have_text("Location d20")
    expect(field).to_have_attribute("placeholder", "blank = roll")
