"""The map at table density, in the page (issue 33 §3 "The map at table density"; §5 range-band "let the GM
drag the token on the map (or tap a destination) as the movement's target"):

* groups added through the Add dialog stand on free ground beside each other, a token apart (fray.placing),
  never on top of each other, and all in the default view;
* the GM selects several tokens (shift-click, or "Select several" and taps) and drags them together, one
  undoable step, each token's move taken as the game takes a single drag;
* with a token selected, a tap on empty ground moves it there, as a drag would.

Measured on the page as the browser drew it, with real mouse input and real touches (CDP touch events).
Set FRAY_SHOTS=dir to keep the screenshots.
"""

from __future__ import annotations

import math
import os
import re

import pytest
from gestures import new_encounter, saved
from playwright.sync_api import expect
from test_map import client_point, load_encounter, preset
from test_strip import GAMES, add_many

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 900}}
SHOTS = os.environ.get("FRAY_SHOTS", "")

DISCS = """() => [...document.querySelectorAll('#map-plan [data-token]')].map(g => {
    const r = g.querySelector('.disc').getBoundingClientRect();
    return [g.dataset.token, (r.left + r.right) / 2, (r.top + r.bottom) / 2, Math.max(r.width, r.height) / 2];
})"""


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def show_map(page) -> None:
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    expect(page.locator("#map-plan")).to_be_visible()


def overlaps(page) -> list[tuple[str, str]]:
    discs = page.evaluate(DISCS)
    return [(a[0], b[0]) for i, a in enumerate(discs) for b in discs[i + 1:]
            if math.hypot(a[1] - b[1], a[2] - b[2]) < a[3] + b[3] - 0.5]


def positions(page) -> dict[str, tuple[float, float]]:
    return {c["id"]: (c["position"]["x"], c["position"]["y"]) for c in saved(page)["encounter"]["combatants"]}


def transform_of(page, cid: str) -> tuple[float, float]:
    x, y = re.fullmatch(r"translate\((\S+) (\S+)\)", page.locator(f"#tok-{cid}").get_attribute("transform")).groups()
    return float(x), -float(y)


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["768x1024-touch", "1366x900"])
@pytest.mark.parametrize("ruleset", list(GAMES))
def test_two_groups_added_in_the_dialog_stand_apart(browser, open_app, ruleset, size):
    """Heroes ×6 then foes ×6, no position typed: every token of both groups can be told apart and tapped
    (no two discs overlap), the foes stand opposite the heroes, and all twelve are in the default view."""
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    try:
        open_app(page)
        _, ours, theirs = GAMES[ruleset]
        new_encounter(page, "Two groups", ruleset, GAMES[ruleset][0])
        add_many(page, ours, "6", "party", "Hero")
        add_many(page, theirs, "6", "foes", "Foe")
        show_map(page)
        expect(page.locator("#map [data-token]")).to_have_count(12)
        assert overlaps(page) == []
        where = positions(page)
        heroes = [where[f"c{i}"][0] for i in range(1, 7)]
        foes = [where[f"c{i}"][0] for i in range(7, 13)]
        assert min(foes) > max(heroes), where  # opposite, not on them
        plan = page.locator("#map").bounding_box()
        for cid, x, y, r in page.evaluate(DISCS):
            assert plan["x"] <= x - r and x + r <= plan["x"] + plan["width"], cid
            assert plan["y"] <= y - r and y + r <= plan["y"] + plan["height"], cid
        shot(page, f"place-{ruleset}-{size['viewport']['width']}")
    finally:
        ctx.close()
