"""What a GM met playing a whole fight of a dozen through the page (the GM's session of 5 December):
each test is one thing that slowed the GM at the table, played as the GM played it.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from playwright.sync_api import expect

from test_strip import TABLET, add_many, twelve
from test_strike_rank import new_strike_rank


UNCOVERED = """(el) => { const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit === el || el.contains(hit); }"""


def test_keep_declaring_takes_the_gm_to_the_one_who_has_not_declared(browser, open_app):
    """Twelve on a tablet, eleven declared: Next asks "Not everyone has declared"; "Keep declaring"
    opens the twelfth's declaration, far down the page, in view and with the focus in it (it left
    the GM at the top of the panel, the form to find by scrolling)."""
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    try:
        open_app(page)
        new_strike_rank(page, "Broo ambush")
        add_many(page, "Human warrior", "6", "party", "Hero")
        add_many(page, "Human warrior", "6", "foes", "Broo")
        bar = page.locator("#round-bar")
        bar.get_by_role("button", name="Start the fight").click()
        for i in range(1, 12):
            who = page.locator(f'.sr-who[data-id="c{i}"]')
            fold = who.locator("details.sr-declare-fold")
            if fold.get_attribute("open") is None:
                fold.locator("> summary").click()
            who.locator('form[data-form="sr-declare"]').get_by_role("button", name="Declare").click()
            expect(who.locator(".sr-decl")).to_have_count(1)
        page.evaluate("window.scrollTo(0, 0)")
        bar.locator("[data-act=advance]").click()
        asked = page.locator(".sr-undeclared")
        expect(asked).to_contain_text("Not declared: Broo 6 (1 of 12)")
        asked.get_by_role("button", name="Keep declaring").click()
        form = page.locator('form[data-form="sr-declare"][data-id="c12"]')
        expect(form).to_be_in_viewport()
        kind = form.locator('[name="kind"]')
        expect(kind).to_be_focused()
        # in view means seen: not under the sticky round bar and strip at the top of the page
        assert kind.evaluate(UNCOVERED), "the declaration's first field is under the sticky strip"
        form.get_by_role("button", name="Declare").click()
        expect(page.locator('.sr-who[data-id="c12"] .sr-decl')).to_have_count(1)
    finally:
        ctx.close()


def test_resolve_from_still_open_shows_the_attack_form_below_the_strip(browser, open_app):
    """Twelve on a tablet, resolution begun: Next with an attack not rolled says it is still open;
    "Resolve" beside it brings its attack form into view with the focus in it, and the GM sees that
    field (it was scrolled to the top of the page, under the sticky round bar and strip)."""
    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    try:
        open_app(page)
        twelve(page, "strike-rank")
        page.locator("#round-bar [data-act=advance]").click()
        row = page.locator(".sr-still-open li").first
        expect(row).to_be_visible()
        ref = row.get_attribute("data-ref")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        row.get_by_role("button", name="Resolve").click()
        form = page.locator(f'form[data-form="sr-attack"][data-ref="{ref}"]')
        first = form.locator("select, input, button").first
        expect(first).to_be_focused()
        assert first.evaluate(UNCOVERED), "the attack form's first field is under the sticky strip"
    finally:
        ctx.close()
