"""Long words wrap (issue 8, item 5): one unbroken 1,500-character word in a combatant's notes and
in a log note, and the longest names the engine accepts (60 characters, a 40-character
condition), leave the page as wide as the viewport and the map uncovered, at laptop and tablet
size, in the tracker, the strike-rank panel, the attack form, the edit dialog and the map pane.

``FRAY_SHOTS=DIR`` writes a screenshot of each step there, to look at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gestures import first_card, new_encounter, open_add_dialog
from playwright.sync_api import expect

SIZES = {"laptop": {"width": 1366, "height": 900}, "tablet": {"width": 768, "height": 1024}}
WORD = "Grrr" * 375  # 1,500 characters, no space
NAME = "Aelfthryth" * 6  # 60: the longest name the engine accepts
CONDITION = "Overwhelmedbyfearandtremblingandshaking"  # 39 (a condition may have 40)
SHOTS = os.environ.get("FRAY_SHOTS")

# Every laid-out element outside the map's clipped plan and SVG whose content is wider than its
# box, or whose box reaches past the viewport. Form controls scroll their own text by design, and
# so does a card's weapons table (its figures never wrap; its weapon names do).
OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("svg, .map, .visually-hidden, input, textarea, select, option")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    // text cut on purpose with an ellipsis (a name in the order strip, whose entry's accessible
    // name and card hold it whole) is not an overflow
    // and a box made to scroll sideways (the weapons table, the odds table) scrolls, it does not overflow
    const cs = getComputedStyle(el);
    const cut = cs.textOverflow === "ellipsis" || cs.overflowX === "auto" || cs.overflowX === "scroll";
    const wide = el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && !el.matches(".sr-weapons") && !cut;
    if (wide || r.right > vw + 1 || r.left < -1)
      out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)} scroll ${el.scrollWidth}/${el.clientWidth}`);
  }
  return out.slice(0, 12);
}"""

# Whatever is painted at a grid of points over the map belongs to the map (or a token on it).
MAP_COVERED = """() => {
  const m = document.getElementById("map").getBoundingClientRect(), out = [];
  for (const fx of [0.1, 0.5, 0.9]) for (const fy of [0.1, 0.5, 0.9]) {
    const x = m.left + fx * m.width, y = m.top + fy * m.height;
    if (y < 0 || y > innerHeight) continue;
    const el = document.elementFromPoint(x, y);
    if (el && !el.closest("#map, #map-scale")) out.push(`${el.tagName}.${el.className} at ${fx},${fy}`);
  }
  return out;
}"""


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}-top.png"))


def fits(page, where: str) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"{where}: the page is {width[0]} px wide in a {width[1]} px viewport"
    assert page.evaluate(OVERFLOW) == [], where


def show_map(page) -> None:
    if page.viewport_size["width"] < 900:
        page.locator("#tab-map").click()
    expect(page.locator("#map-pane")).to_be_visible()
    page.locator("#map").scroll_into_view_if_needed()
    assert page.evaluate(MAP_COVERED) == []


def open_first_card(page) -> None:
    """Cards fold (issue 10): a folded one opens when its name is tapped."""
    first = page.locator("#combatants .card").first
    if first.get_attribute("data-open") == "false":
        first.locator(".card-toggle").click()
    expect(first).to_have_attribute("data-open", "true")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_long_word_wraps_in_every_text_region(page, open_app, size):
    page.set_viewport_size(SIZES[size])
    open_app(page)
    new_encounter(page, NAME, "strike-rank", "Strike Rank (d100)")
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label="Human warrior")
    dlg.get_by_role("button", name="Use", exact=True).click()
    dlg.locator('[name="combatant.name"]').fill(NAME)
    dlg.locator('[name="combatant.side"]').select_option("party")
    dlg.locator('[name="combatant.notes"]').fill(WORD)
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label="Great wolf (four-legged)")
    dlg.get_by_role("button", name="Use", exact=True).click()
    dlg.locator('[name="combatant.name"]').fill(NAME[:-1] + "W")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#combatants .card")).to_have_count(2)
    page.locator("#note-text").fill(WORD)
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log .log-note")).to_have_count(1)
    open_first_card(page)
    first_card(page).get_by_role("button", name="Condition…").click()
    dlg = page.locator("#dlg")
    dlg.get_by_label("Condition").fill(CONDITION)
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants li.cond")).to_have_count(1)
    bar = page.locator("#round-bar")
    bar.get_by_role("button", name="Start the fight").click()
    for form in page.locator('form[data-form="sr-declare"]').all():
        form.locator("button[type=submit]").click()
    expect(page.locator(".sr-decl")).to_have_count(2)
    fits(page, "declared")
    bar.get_by_role("button", name="Next").click()
    expect(page.locator("form[data-form=sr-attack]")).to_have_count(1)
    fits(page, "attack form")
    shot(page, f"{size}-tracker")
    show_map(page)
    page.locator("#map [data-token]").last.click()  # both stand at (0, 0); the last is on top
    fits(page, "map, token selected")
    shot(page, f"{size}-map")
    if size == "tablet":
        page.locator("#tab-tracker").click()
    open_first_card(page)
    first_card(page).get_by_role("button", name="Edit").click()
    expect(page.locator("#dlg")).to_be_visible()
    fits(page, "edit dialog")
    shot(page, f"{size}-edit")
