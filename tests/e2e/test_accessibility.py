"""Accessibility, checked by axe-core (an npm dev dependency, injected from node_modules: no
request leaves the page) on the screens a GM uses, at laptop and tablet size.

Issue 3 and 4: "every control has an accessible name", by touch and keyboard. axe checks names,
labels, landmarks, contrast, ARIA use and keyboard reach of scrollable regions."""

from __future__ import annotations

from pathlib import Path

import pytest
from gestures import add_combatant, add_preset, new_encounter, new_freeform  # noqa: E402
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"laptop": {"width": 1366, "height": 900}, "tablet": {"width": 768, "height": 1024}}


def violations(page) -> list[dict]:
    # Evaluated by the test harness, not added as a <script>: the page's CSP refuses inline
    # scripts, and axe is no part of the page.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;void 0")
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']}))
        .violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                               nodes: v.nodes.slice(0, 3).map(n => n.html.slice(0, 200))}))""")


def show_map(page) -> None:
    if page.viewport_size["width"] < 900:
        page.locator("#tab-map").click()
    expect(page.locator("#map-pane")).to_be_visible()


@pytest.fixture(params=list(SIZES))
def sized(request, page):
    page.set_viewport_size(SIZES[request.param])
    return page


def test_free_form_tracker_and_add_dialog(sized, open_app):
    page = sized
    open_app(page)
    new_freeform(page, "Axe check")
    add_combatant(page, "<b>Grak</b>", "initiative: 12")
    add_combatant(page, "Ann", "initiative: 9", side="party")
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    assert violations(page) == []
    page.locator("#round-bar").get_by_role("button", name="Add combatant").click()
    expect(page.locator("#dlg")).to_be_visible()
    assert violations(page) == []


def test_strike_rank_resolve_with_the_attack_panel_and_map(sized, open_app):
    page = sized
    open_app(page)
    new_encounter(page, "Axe duel", "strike-rank", "Strike Rank (d100)")
    add_preset(page, "Human warrior", side="party")
    add_preset(page, "Great wolf (four-legged)")
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    for form in page.locator('form[data-form="sr-declare"]').all():
        form.locator("button[type=submit]").click()
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    expect(page.locator('form[data-form="sr-attack"]')).to_be_visible()
    assert violations(page) == []
    show_map(page)
    page.locator("#tok-c1").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tok-c1")).to_have_attribute("aria-pressed", "true")
    assert violations(page) == []


def test_tactical_round_declaration_and_map_selection(sized, open_app):
    page = sized
    open_app(page)
    new_encounter(page, "Axe ford", "tactical-round", "Tactical round (CMB vs DEF)")
    add_preset(page, "Swordsman with shield")
    add_preset(page, "Crossbowman")
    page.locator('#round-bar [data-act="advance"]').click()
    expect(page.locator("#round-bar")).to_contain_text("Assessment")
    page.locator('#round-bar [data-act="advance"]').click()
    expect(page.locator("#round-bar")).to_contain_text("Declaration")
    assert violations(page) == []
    show_map(page)
    page.locator("#tok-c2").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tok-c2")).to_have_attribute("aria-pressed", "true")
    assert violations(page) == []


def test_range_band_pending_roll_cards_and_map(sized, open_app):
    page = sized
    open_app(page)
    new_encounter(page, "Axe ambush", "range-band", "Range bands (turn order, movement phase, major/minor actions)")
    add_preset(page, "Human scout")
    add_preset(page, "Rider")
    add_preset(page, "Winged flyer")
    assert violations(page) == []  # setup: zone settings open, turn order fields, card forms
    page.locator('#round-bar [data-act="advance"]').click()
    expect(page.locator("#rb-hold")).to_be_visible()
    assert violations(page) == []  # who has no turn order yet, as a dialog with its choices
    page.locator("#rb-hold").get_by_role("button", name="Start anyway").click()
    expect(page.locator("#round-bar")).to_contain_text("Movement phase")
    page.locator('form[data-form="rb-move"]').get_by_role("button", name="Movement roll").click()
    expect(page.locator(".rb-pending")).to_be_visible()
    assert violations(page) == []  # a roll specification with the GM's result fields
    show_map(page)
    page.locator("#tok-c1").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#tok-c1")).to_have_attribute("aria-pressed", "true")
    assert violations(page) == []
