"""Strike-rank: what a GM's sixth play-through found, through the page. Fights are loaded ready-made from a
save file. Screenshots: /tmp/sr-p6-*.png.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from test_map import preset
from test_strike_rank_table import LAPTOP, TABLET, WARRIOR, load_fight, melee

HORSE = {"name": "Kick", "skill": 40, "damage": "1D8", "sr": 3, "type": "crushing", "natural": True, "location": "right_leg"}


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


def _open_change(page, who: str):
    page.locator("summary", has_text="Strike rank order").click()
    page.get_by_role("button", name=re.compile(rf"^Change .* of {who}$")).first.click()
    return page.locator("form[data-form=sr-change]")


def test_the_change_box_opened_quotes_no_cost_before_anything_is_changed(page, open_app, tmp_path):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A GM's
    play: Bolt's Change…, opened with nothing touched, said "Changing now to Broo archer costs DEX SR 3…" of the very
    target and shot he declared. Nothing changed, no cost is quoted; a new Target set, its cost is."""
    page.set_viewport_size(TABLET)
    open_app(page)
    people = [(preset("strike-rank", "Crossbowman", name="Bolt", side="party"), 0.0, 0.0),
              (_warrior("Broo archer", "foes"), 30.0, 0.0), (_warrior("Broo 2", "foes"), 20.0, 4.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}, {"type": "sr.declare", "id": "c1", "kind": "missile",
                                         "weapon": "heavy_crossbow", "target": "c2"}, {"type": "advance"}])
    change = _open_change(page, "Bolt")
    cost = page.locator(".sr-change-cost")
    expect(cost).to_have_text("Nothing is changed yet: change the action, weapon or target to see what it costs.")
    page.screenshot(path="/tmp/sr-p6-change-untouched-768.png")
    change.locator('[name="target"]').select_option(label="Broo 2")
    expect(cost).to_contain_text("Changing now to Broo 2 costs DEX SR")


def test_a_change_to_a_melee_attack_offers_melee_weapons_and_no_self(page, open_app, tmp_path):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR."; Melee:
    "Generally, any participant in a melee can attack any other". A GM's play: Ayla's Change… to a melee attack still
    offered "Composite bow" as the weapon and "Ayla (self)" as a target (there for her Speedart). A melee attack
    lists melee weapons and others only; a spell keeps "(self)"."""
    page.set_viewport_size(TABLET)
    open_app(page)
    people = [(preset("strike-rank", "Archer", name="Ayla", side="party"), 0.0, 0.0),
              (_warrior("Broo", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}, {"type": "sr.declare", "id": "c1", "kind": "missile",
                                         "weapon": "composite_bow", "target": "c2"}, {"type": "advance"}])
    change = _open_change(page, "Ayla")
    weapon, target = change.locator('[name="weapon"] option'), change.locator('[name="target"] option:not([hidden])')
    change.locator('[name="kind"]').select_option("melee")
    expect(weapon).to_have_count(2)
    expect(change.locator('[name="weapon"]')).to_have_value("dagger")
    expect(weapon).to_have_text(["(none)", re.compile(r"^Dagger SR \d+$")])
    expect(target).to_have_text(["(none)", "Broo"])
    page.screenshot(path="/tmp/sr-p6-change-melee-768.png")
    change.locator('[name="kind"]').select_option("spell")
    expect(target).to_have_text(["(none)", "Ayla (self)", "Broo"])


def test_a_declared_melee_attack_offers_no_self(page, open_app, tmp_path):
    """Melee: "Generally, any participant in a melee can attack any other": Ayla's declaration of an attack offers no
    "Ayla (self)" Target (her Speedart, cast on herself, does)."""
    page.set_viewport_size(LAPTOP)
    open_app(page)
    people = [(preset("strike-rank", "Archer", name="Ayla", side="party"), 0.0, 0.0),
              (_warrior("Broo", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}])
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    target = form.locator('[name="target"]')
    form.locator('[name="kind"]').select_option("melee")
    expect(target.locator("option:not([hidden])")).to_have_text(["(none)", "Broo"])
    form.locator('[name="kind"]').select_option("spell")
    expect(target.locator("option:not([hidden])")).to_have_text(["(none)", "Ayla (self)", "Broo"])
    form.locator('[name="spell"]').select_option("speedart")
    expect(target).to_have_value("c1")
    form.locator('[name="kind"]').select_option("melee")
    expect(target.locator("option:not([hidden])")).to_have_text(["(none)", "Broo"])
    expect(target).to_have_value("")


def test_the_warhorses_parry_only_with_a_kick_reads_dodge_only(page, open_app, tmp_path):
    """Unarmed Parries: "Unarmed parries use the HP of the bodypart used (usually arm, sometimes leg) as the weapon
    HP"; Attack weapon: "The target can defend normally, either parrying or dodging". A GM's play: the Warhorse's
    declaration read "Parry / dodge only with Kick" (a kick does not parry). Declared in the page, it reads "Dodge
    only", and why."""
    page.set_viewport_size(TABLET)
    open_app(page)
    people = [(_warrior("Warhorse", "party", weapons=[HORSE]), 0.0, 0.0), (_warrior("Broo", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}])
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    form.locator('[name="kind"]').select_option("defend")
    form.get_by_role("button", name="Declare").click()
    decl = page.locator('.sr-who[data-id="c1"] .sr-decl')
    expect(decl).to_contain_text("Dodge only")
    expect(decl).to_contain_text("(Kick is a natural weapon, which does not parry)")
    expect(decl).not_to_contain_text("with Kick")
    page.screenshot(path="/tmp/sr-p6-horse-dodge-768.png")
