"""The strike-rank essentials line (#acting-line) beside the panel: with no action left at the SR being
resolved it names nobody acting; it said "Acting Broo 1" at "No action is left at SR 7", Broo 1's attack
waiting at SR 8. Screenshot: /tmp/sr-acting-nothing-left.png."""

from __future__ import annotations

from playwright.sync_api import expect

from test_strike_rank_table import LAPTOP, load_fight, melee, to_resolve, warriors


def test_no_one_is_acting_when_no_action_is_left_at_this_sr(page, open_app, tmp_path):
    page.set_viewport_size(LAPTOP)
    open_app(page)
    # Vasana at SR 7; Broo 1, 4 m away from Vasana (Broo 2 between), closes and strikes at SR 8
    load_fight(page, tmp_path, warriors("Vasana", "Broo 2", "Broo 1"),
               to_resolve(melee("c1", "c2"), melee("c3", "c1")))
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    line = page.locator("#acting-line")
    expect(line).to_contain_text("Acting Vasana")
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("none")
    form.locator('[name="rolls.attack"]').fill("90")  # a miss
    form.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator(".sr-nothing-left")).to_have_text("No action is left at SR 7: press Next for SR 8.")
    expect(line.locator(".acting")).to_have_count(0)
    page.screenshot(path="/tmp/sr-acting-nothing-left.png")
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 8")
    expect(line).to_contain_text("Acting Broo 1")


def test_no_one_is_now_on_the_strip_or_open_as_acting_when_no_action_is_left(page, open_app, tmp_path):
    """A GM's play-through: at "No action is left at SR 7" the strip marked Broo 1 (his attack at SR 8)
    NOW and his card opened as the acting one, while the essentials line named nobody. The line, the
    strip and the card follow one answer (the panel's ``acting``)."""
    page.set_viewport_size(LAPTOP)
    open_app(page)
    load_fight(page, tmp_path, warriors("Vasana", "Broo 2", "Broo 1"),
               to_resolve(melee("c1", "c2"), melee("c3", "c1")))
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    strip_now = page.locator("#order-strip .strip-entry.current")
    expect(strip_now).to_have_count(1)
    expect(strip_now).to_have_attribute("data-id", "c1")
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("none")
    form.locator('[name="rolls.attack"]').fill("90")  # a miss
    form.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator(".sr-nothing-left")).to_have_text("No action is left at SR 7: press Next for SR 8.")
    expect(page.locator("#order-strip .strip-entry.current")).to_have_count(0)
    expect(page.locator("#order-strip .strip-tag", has_text="now")).to_have_count(0)
    expect(page.locator(".card.current")).to_have_count(0)
    expect(page.locator('.card[data-id="c3"]')).to_have_attribute("data-open", "false")
    page.screenshot(path="/tmp/gm-fixes-sr-nothing-left.png")
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 8")
    expect(page.locator("#order-strip .strip-entry.current")).to_have_attribute("data-id", "c3")
    expect(page.locator('.card[data-id="c3"]')).to_have_attribute("data-open", "true")
