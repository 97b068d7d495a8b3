"""The screen at table density (issue 10, "The screen"): the order strip, folding cards, the GM's
tie order, Add ×N and Duplicate, in each game, driven through the real page.

"At 768×1024, 12 combatants' order and state fit on one screen without scrolling" and "the acting
combatant's card opens, others are one line until opened": checked on a touch tablet context.
Set FRAY_SHOTS=dir to keep the screenshots (768×1024 and 1366×900 of each game's 12-combatant fight).
"""

from __future__ import annotations

import os
import re
import sys

import pytest
from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import card, new_encounter, open_add_dialog  # noqa: E402

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": True}
LAPTOP = {"width": 1366, "height": 900}
SHOTS = os.environ.get("FRAY_SHOTS", "")

GAMES = {
    "strike-rank": ("Strike Rank (d100)", "Human warrior", "Great wolf (four-legged)"),
    "tactical-round": ("Tactical round (CMB vs DEF)", "Swordsman with shield", "Orc warrior"),
    "range-band": ("Range bands (turn order, movement phase, major/minor actions)", "Human scout", "Large creature"),
}


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def add_many(page, preset: str, count: str, side: str | None = None, name: str | None = None) -> None:
    """Add ×N through the dialog: a ready-made combatant and How many."""
    before = page.locator("#combatants .card").count()
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=preset)
    dlg.get_by_role("button", name="Use", exact=True).click()
    if name:
        dlg.locator('[name="combatant.name"]').fill(name)
    if side:
        dlg.locator('[name="combatant.side"]').select_option(side)
    dlg.get_by_label("How many").fill(count)
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(before + int(count))


def strip_names(page) -> list[str]:
    return page.locator("#order-strip li.strip-entry .strip-name").all_inner_texts()


def badge_of(page) -> str:
    return page.locator("#ruleset-badge").inner_text()


def twelve(page, ruleset: str) -> None:
    """A 12-combatant fight of ``ruleset`` (6 of one kind for the party, 6 of another against
    them), started to the point where someone acts."""
    badge, ours, theirs = GAMES[ruleset]
    new_encounter(page, "Twelve", ruleset, badge)
    add_many(page, ours, "6", "party", "Hero")
    add_many(page, theirs, "6", "foes", "Foe")
    expect(page.locator("#order-strip li.strip-entry")).to_have_count(12)
    bar = page.locator("#round-bar")
    bar.get_by_role("button", name=re.compile("Start the fight|Next")).first.click()
    if ruleset == "strike-rank":
        forms = page.locator('form[data-form="sr-declare"]')
        expect(forms).to_have_count(12)
        for i in range(12):
            forms.nth(i).locator("button[type=submit]").click()
        expect(page.locator(".sr-decl")).to_have_count(12)
        bar.get_by_role("button", name="Next").click()
    elif ruleset == "tactical-round":
        # two declare a melee attack on each other; Next passes the phases in which nobody acts
        for cid, target in (("c1", "c7"), ("c7", "c1"), ("c2", "c8")):
            form = page.locator(f'form[data-form=tr-declare][data-id="{cid}"]')
            form.locator('[name="actions.0.action"]').select_option("melee_attack")
            form.locator('[name="actions.0.weapon"]').select_option("0")
            form.locator('[name="actions.0.target"]').select_option(target)
            form.locator("button[type=submit]").click()
            expect(page.locator("#log li").first).to_contain_text("declares: Melee attack")
        for _ in range(4):  # Declaration (everyone declares), then on to the first phase with an action
            if "Melee" in page.locator("#round-bar .phase").inner_text():
                break
            bar.get_by_role("button", name="Next").click()
            page.wait_for_timeout(0)
        expect(page.locator("#round-bar .phase")).to_contain_text("Melee")
    expect(page.locator("#order-strip li.strip-entry[aria-current=step]")).to_have_count(1)


def in_view(page, selector: str) -> bool:
    """The element's box lies wholly inside the viewport as it is (nothing scrolled)."""
    return page.evaluate("""(sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
    }""", selector)


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_twelve_fit_on_a_tablet_with_the_acting_card(browser, open_app, ruleset):
    """The strip and the acting combatant's open card are both on screen at 768×1024, unscrolled."""
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    try:
        open_app(page)
        twelve(page, ruleset)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("scrollY") == 0
        shot(page, f"tablet-{ruleset}")
        assert in_view(page, "#order-strip ol.strip"), "the order strip does not fit the screen"
        current = page.locator("#order-strip li.strip-entry[aria-current=step]")
        cid = current.get_attribute("data-id")
        acting = page.locator(f'#combatants article[data-id="{cid}"]')
        expect(acting).to_have_attribute("data-open", "true")
        assert in_view(page, f'#combatants article[data-id="{cid}"] header'), "the acting card is off screen"
        # everyone else is one line
        expect(page.locator("#combatants article.card[data-open=true]")).to_have_count(1)
        # the strip sticks: scrolled down, it is still at the top
        page.mouse.wheel(0, 1500)
        page.wait_for_function("scrollY > 100")
        assert page.evaluate("document.getElementById('order-strip').getBoundingClientRect().top") < 200
    finally:
        ctx.close()


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_laptop_strip_beside_the_cards(page, open_app, ruleset):
    page.set_viewport_size(LAPTOP)
    open_app(page)
    twelve(page, ruleset)
    strip = page.locator("#order-strip").bounding_box()
    cards = page.locator("#combatants").bounding_box()
    assert strip["x"] + strip["width"] <= cards["x"], "the strip is not beside the cards"
    shot(page, f"laptop-{ruleset}")
