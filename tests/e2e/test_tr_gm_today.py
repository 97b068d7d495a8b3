"""Tactical round, what a GM's play-through found on today's build: the attack form's Attacker changed
away and back lost the weapon (the Mage's declared Fire Bolt came back as "(the wielded one)", his Staff,
and the attack was refused "Staff attacks in Melee, not in Spell A"); on a laptop the sticky round bar
covered the top of the attack form when the page went to it.

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import re
import sys

import pytest
from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_tactical_round import apply_result, newest_log, pending  # noqa: E402
from test_tr_play_left import attack, load_melee  # noqa: E402
from tr_fights import LAPTOP, ORC, SWORDSMAN, TABLET, body, open_fight  # noqa: E402


def load_spell(page, tmp_path, **opening) -> None:
    """The Mage (Staff in hand, Fire Bolt his second weapon) at 0 m, his Fire Bolt declared on Orc A
    10 m north; Bran the swordsman 2 m east, Orc B 4 m east; the fight stands in Spell A. ``opening``:
    ``open_fight``'s ``open_app`` and ``size``."""
    bolt = {"type": "tr.declare", "id": "c1", "actions": [{"action": "spell_prepared", "weapon": 1, "target": "c2"}]}
    open_fight(page, tmp_path, "The bolt", [body("Apprentice mage", "Mage", 0, 0, "party"), body(ORC, "Orc A", 0, 10),
                                            body(SWORDSMAN, "Bran", 2, 0, "party"), body(ORC, "Orc B", 4, 0)],
               ["declaration", bolt, "spell_a"], file="bolt", **opening)


def test_the_declared_weapon_comes_back_with_its_attacker(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): each declared action is made in its phase, "Spell A" the
    prepared spells; the Mage's declared Fire Bolt is his attack there. The GM looks at another Attacker
    and back: the Fire Bolt is still the Weapon, and the attack goes with it."""
    load_spell(page, tmp_path, open_app=open_app, size=LAPTOP)
    form = page.locator("form[data-form=tr-attack]")
    weapon = form.locator("[name=weapon]")
    expect(form.locator("[name=id]")).to_have_value("c1")
    expect(weapon).to_have_value("c1:1")
    form.locator("[name=id]").select_option("c3")
    expect(weapon).to_have_value("")  # Bran declared nothing here: the one in his hand
    form.locator("[name=id]").select_option("c1")
    expect(weapon).to_have_value("c1:1")  # the declared Fire Bolt, back with him
    form.locator("[name=id]").select_option("c3")
    form.locator("[name=weapon]").select_option("c3:0")
    form.locator("[name=id]").select_option("c1")
    form.locator("[name=id]").select_option("c3")
    expect(weapon).to_have_value("c3:0")  # the GM's own choice for Bran stands too
    form.locator("[name=id]").select_option("c1")
    photograph(page, "tr-weapon-comes-back", scroll_to="form[data-form=tr-attack]")
    form.get_by_label("Open-ended d100").fill("50")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Mage attacks Orc A with Fire Bolt")


def heading_below_the_bar(page) -> None:
    """The attack form's heading wholly on screen, below the sticky round bar, once the page has scrolled."""
    bar = page.locator("#round-bar").bounding_box()
    head = page.locator(".tr-attack-box > summary").bounding_box()
    assert head["y"] >= bar["y"] + bar["height"], f"the round bar {bar} covers the attack form's heading {head}"
    assert head["y"] + head["height"] <= page.viewport_size["height"]


def test_the_attack_forms_heading_shows_below_the_sticky_round_bar(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): in Melee each declared attack is made in its turn, from the
    attack form. A GM's play-through on a laptop (1366x900): pressing a row's Attack, or applying a result,
    brought the form up with its heading under the sticky round bar."""
    load_melee(page, tmp_path, open_app=open_app, size=LAPTOP)
    form = page.locator("form[data-form=tr-attack]")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the GM among the cards below
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")).click()
    expect(form.get_by_label("Open-ended d100")).to_be_focused()
    heading_below_the_bar(page)
    photograph(page, "tr-attack-under-bar", full_page=False)
    attack(page, "c1", "c2", "60")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    apply_result(page, "A1", 5)
    expect(pending(page, "A1")).to_have_count(0)
    page.locator('.tr-slot[data-id="c2"]').get_by_role("button", name=re.compile("^Attack")).click()
    expect(form.locator("[name=id]")).to_have_value("c2")
    expect(form.get_by_label("Open-ended d100")).to_be_focused()
    heading_below_the_bar(page)
    # a critical applied from Next's box: once it is settled, the form for the next blow is in view
    attack(page, "c2", "c1", "60")
    apply_result(page, "A2", 5, "B", "40")
    crit = page.locator('article.tr-pending.critical[data-ref="A2"]')
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#round-bar [data-act=advance]").click()
    page.locator(".tr-open").get_by_role("button", name=re.compile("^Apply")).click()
    expect(crit.get_by_label("Extra hits")).to_be_focused()
    crit.get_by_label("Extra hits").fill("3")
    crit.get_by_role("button", name=re.compile("^Apply")).click()
    expect(crit).to_have_count(0)
    expect(form.locator("[name=id]")).to_have_value("c3")
    heading_below_the_bar(page)


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["768x1024", "1366x900"])
def test_the_acting_line_names_whose_critical_is_open(page, open_app, tmp_path, size):
    """FACTS.md, the attack: "the GM enters the result (hits and critical severity) ... Critical severity adds
    +0 / +10 / +20 / +30 / +50 to the critical roll." While the critical of Mira's blow waits for its effects,
    the line beside the form is about her ("Critical Mira"), not Grak, who acts after: a GM's play-through
    read "Acting" of the next archer while applying the critical. Once it is applied, the line goes on to
    Grak."""
    from test_tr_play_left import load_melee

    load_melee(page, tmp_path, open_app=open_app, size=size)
    attack(page, "c1", "c2", "60")
    apply_result(page, "A1", 5, "B", "40")
    line = page.locator("#acting-line .acting")
    expect(line.locator(".acting-name")).to_have_text("Mira")
    expect(line.locator(".acting-tag")).to_have_text("Critical")
    expect(page.locator('#order-strip li.strip-entry[data-id="c1"] .strip-tag')).to_have_text("now")
    expect(page.locator('#order-strip li.strip-entry[data-id="c2"] .strip-tag')).to_have_text("next")
    if os.environ.get("FRAY_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], f"tr-critical-acting-{size['width']}.png"))
    crit = page.locator('article.tr-pending.critical[data-ref="A1"]')
    crit.get_by_role("button", name="Apply critical").click()
    expect(crit).to_have_count(0)
    expect(line.locator(".acting-name")).to_have_text("Grak")
    expect(line.locator(".acting-tag")).to_have_text("Acting")


def test_next_stops_at_an_attack_waiting_for_its_result_and_an_undeclared_attack_can_be_made(page, open_app,
                                                                                             tmp_path):
    """FACTS.md, the attack: "the engine computes and shows the total, and the GM enters the result (hits and
    critical severity)": Next stops at an attack whose result is not entered, as at a critical, and the GM
    enters it or leaves it in words. Running Away: "If the attackers win, they may strike at the fleeing
    character": an attack no one declared is the GM's to make; once all who declared have acted, the Attack
    form stays, folded, and says why (it was gone, with no word)."""
    from test_tr_play_left import load_melee

    load_melee(page, tmp_path, open_app=open_app, size=TABLET)
    attack(page, "c1", "c2", "60")
    expect(pending(page, "A1")).to_have_count(1)
    for cid in ("c2", "c3", "c4"):
        page.locator(f'.tr-slot[data-id="{cid}"]').get_by_role("button", name=re.compile("^Skip")).click()
        expect(page.locator(f'.tr-slot[data-id="{cid}"]')).to_contain_text("done")
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    expect(box).to_contain_text("Attack A1, Mira's attack on Grak, has no result")
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")
    box.get_by_role("button", name="Enter the result of Attack A1").click()
    expect(pending(page, "A1").get_by_label("Hits")).to_be_focused()
    # everyone who declared has acted: the form for an attack no one declared, folded, with why
    undeclared = page.locator("details.tr-undeclared")
    expect(undeclared).to_have_count(1)
    expect(page.locator(".tr-undeclared-why")).to_contain_text("Everyone who declared an attack in Melee has made it")
    undeclared.locator("summary").click()
    form = page.locator("form[data-form=tr-attack]")  # once the GM chooses in it, it is the GM's attack form
    form.locator("[name=id]").select_option("c3")
    form.locator("[name=target]").select_option("c1")
    form.get_by_label("Open-ended d100").fill("44")
    photograph(page, "tr-undeclared-attack")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Uzg attacks Mira")
    page.locator("#round-bar [data-act=advance]").click()
    expect(box).to_contain_text("Attack A2, Uzg's attack on Mira, has no result")
    box.get_by_role("button", name="Leave them and go on").click()
    expect(page.locator("#log")).to_contain_text("The GM goes on: Attack A1, Mira's attack on Grak, is left without a result")
    expect(page.locator(".tr-stepper li.current")).not_to_contain_text("Melee")
