"""The header at a tablet's and a laptop's size (a GM's play-through: at 768x1024 the range-band game's name,
the longest, wrapped under the encounter list): for every game the name sits on the encounter list's row,
right of it, within the page and clear of the tools and of Tracker / Map.

``FRAY_SHOTS=DIR`` writes the header of each game at each size there, to look at."""

from __future__ import annotations

import os

import pytest
from gestures import new_encounter
from playwright.sync_api import expect

GAMES = {"strike-rank": "Strike Rank (d100)", "tactical-round": "Tactical round (CMB vs DEF)",
         "range-band": "Range bands (turn order, movement phase, major/minor actions)"}
SIZES = ((768, 1024), (1366, 900))

# where the badge stands against the encounter list, the page, and whatever is right of it on that row
PLACE = """() => {
  const box = id => document.getElementById(id).getBoundingClientRect();
  const b = box("ruleset-badge"), s = box("encounter-select");
  const right = [...document.querySelectorAll(".tools, .pane-nav")].map(e => e.getBoundingClientRect())
    .filter(r => r.width > 0 && r.bottom > b.top && r.top < b.bottom);
  return {beside: b.left >= s.right, sameRow: b.top < s.bottom && b.bottom > s.top,
          inPage: b.right <= document.documentElement.clientWidth,
          clear: right.every(r => r.left >= b.right || r.right <= b.left)};
}"""


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_games_name_sits_beside_the_encounter_list(page, open_app, ruleset):
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    new_encounter(page, "Ford ambush at the old mill", ruleset, GAMES[ruleset])
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        expect(page.locator("#ruleset-badge")).to_be_visible()
        if os.environ.get("FRAY_SHOTS"):
            page.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], f"header-{ruleset}-{w}.png"),
                            clip={"x": 0, "y": 0, "width": w, "height": 140})
        assert page.evaluate(PLACE) == {"beside": True, "sameRow": True, "inPage": True, "clear": True}, (w, ruleset)
