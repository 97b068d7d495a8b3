"""The map, a GM playing whole fights: "Gorp (single location)" was the token "G(" (initials come from the
name's words, not its brackets); the players' window's initials spilled over small tokens; and the map's
"+" zoomed on the middle of the drawing (with a corpse far off, on empty ground), not on the fight."""

from __future__ import annotations

import os

from playwright.sync_api import expect

from gestures import import_history, photograph
from test_players_view import open_players


def load(page, tmp_path, people: list[tuple[str, float, float, bool]], name: str = "Initials") -> None:
    """A free-form fight of ``people`` (name, x, y, dead)."""
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("freeform", name))
    for i, (who, x, y, dead) in enumerate(people):
        h.do({"type": "add_combatant", "combatant": {"name": who, "side": "foes" if i % 2 else "party",
                                                     "stats": {"initiative": 20 - i},
                                                     "position": {"x": x, "y": y, "alt": 0}}})
        if dead:
            h.do({"type": "set_condition", "id": f"c{i + 1}", "condition": "dead", "on": True})
    import_history(page, tmp_path, h, len(people), "initials")


def spills(pg, token: str, disc: str, text: str) -> list[str]:
    """The tokens whose initials are wider than the chord of the disc they are written on."""
    return pg.evaluate("""([token, disc, text]) => Array.from(document.querySelectorAll(token)).filter(g => {
        const d = g.querySelector(disc).getBBox(), t = g.querySelector(text).getBBox();
        return t.width > 0.9 * d.width;
      }).map(g => g.querySelector(text).textContent)""", [token, disc, text])


# crowded (2 m apart: the tokens shrink to touch) and wide letters
CROWD = [("Gorp (single location)", 0, 0, False), ("Mighty Warrior", 2, 0, False), ("Wild Mammoth", 4, 0, False),
         ("Goblin 12", 0, 2, False), ("Goblin 1", 2, 2, False), ("Wolf Mother", 4, 2, False),
         ("Mighty Wizard", 0, 4, False), ("Worm Man", 2, 4, False)]


def test_initials_come_from_words_and_fit_the_players_tokens(page, open_app, wait_ready, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    load(page, tmp_path, CROWD)
    expect(page.locator("#tok-c1 .initials")).to_have_text("G")
    assert spills(page, "#map-plan g.token", ".disc", ".initials") == []
    pv = open_players(page, wait_ready)
    for w, h in ((768, 1024), (1366, 900)):
        pv.set_viewport_size({"width": w, "height": h})
        expect(pv.locator('.pv-token[data-id="c1"] .pv-initial')).to_have_text("G")
        assert spills(pv, ".pv-token", ".pv-disc", ".pv-initial") == []
        if os.environ.get("FRAY_SHOTS"):
            pv.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], f"players-initials-{w}.png"))


def test_zoom_in_zooms_on_the_fight_not_the_middle_of_the_drawing(page, open_app, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    # the fight at 0..6 m; a body lies 60 m off
    load(page, tmp_path, [("Ann", 0, 0, False), ("Orc", 6, 0, False), ("Bo", 3, 4, False), ("Old corpse", 60, 40, True)],
         "Zoom")
    svg = page.locator("#map-plan")
    before = [float(v) for v in svg.get_attribute("viewBox").split()]
    page.get_by_role("button", name="Zoom in").click()
    expect(svg).not_to_have_attribute("viewBox", " ".join(str(v) for v in before))
    x, y, w, h = [float(v) for v in svg.get_attribute("viewBox").split()]
    assert w < before[2]
    # the middle of the living (3, 2): y is flipped in the drawing
    assert abs(x + w / 2 - 3) < 0.05 * w and abs(y + h / 2 + 2) < 0.05 * h, (x, y, w, h)
    # every one of them still in sight
    for cid in ("c1", "c2", "c3"):
        box, plan = page.locator(f"#tok-{cid}").bounding_box(), svg.bounding_box()
        assert plan["x"] <= box["x"] and box["x"] + box["width"] <= plan["x"] + plan["width"], cid
    photograph(page, "map-zoom-in", scroll_to="#map-plan", map_tab=True)
    # the GM's own view next: a second + zooms on what they look at, the same middle
    page.get_by_role("button", name="Zoom in").click()
    x2, y2, w2, h2 = [float(v) for v in svg.get_attribute("viewBox").split()]
    assert w2 < w and abs(x2 + w2 / 2 - (x + w / 2)) < 0.05 * w
