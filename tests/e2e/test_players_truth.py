"""Issue 33, "The players' map tells the truth": "The players' window drew tokens far from where they
stand: tactical-round, Aldric at (8, 0) beside Tobin at (−6, 0); range-band, the horse Grey about
10 m from its rider Kael though both stand at (15, 0) ... Dead, prone and knocked-down combatants
look normal there. The players' map must place every token it shows exactly where the GM's map does
(same geometry, its own zoom), and show the states the players can see (down, prone, flying height)."

Must show: "after moves in each game, every token of the players' window stands where the GM map has
it (compared through each map's own transform, within a pixel), and a dead or prone one looks so."
"""

from __future__ import annotations


import pytest
from playwright.sync_api import expect

from test_map import DESKTOP, preset
from test_players_view import open_players

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
from gestures import import_history  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402

# (preset, name, side, x, y, alt): a dozen, two on one spot, one flying, spread as at a table
PEOPLE = {
    "strike-rank": [("Human warrior", "Aldric", "party", 8, 0, 0), ("Archer", "Tobin", "party", -6, 0, 0),
                    ("Human warrior", "Broo 1", "foes", 12, 3, 0), ("Human warrior", "Broo 2", "foes", 14, 3, 0)],
    "tactical-round": None,
    "range-band": [("Rider", "Kael", "party", 15, 0, 0), ("Horse", "Grey", "party", 15, 0, 0),
                   ("Winged flyer", "Harpy", "foes", 25, 10, 12), ("Human scout", "Scout", "party", -5, 4, 0),
                   ("Human scout", "Bandit 1", "foes", 30, -4, 0)],
}


def _people(ruleset: str) -> list:
    if PEOPLE[ruleset] is not None:
        return PEOPLE[ruleset]
    names = [p["name"] for p in __import__("fray.games", fromlist=["get_ruleset"]).get_ruleset(ruleset).presets()]
    return [(names[0], "Aldric", "party", 8, 0, 0), (names[0], "Tobin", "party", -6, 0, 0),
            (names[-1], "Orc 1", "foes", 12, 3, 0), (names[-1], "Orc 2", "foes", 13, 3, 0)]


def load(page, tmp_path, ruleset: str) -> list:
    people = _people(ruleset)
    h = History(new_encounter(ruleset, "Truth"))
    for which, name, side, x, y, alt in people:
        h.do({"type": "add_combatant", "combatant": {**preset(ruleset, which, name=name, side=side),
                                                      "position": {"x": x, "y": y, "alt": alt}}})
    h.do({"type": "set_condition", "id": "c3", "condition": "dead"})  # down: a cross, greyed
    h.do({"type": "set_condition", "id": "c2", "condition": "prone"})
    for i in range(1, len(people) + 1):  # all shown (range-band hides whom the party cannot see)
        h.do({"type": "players.hide", "id": f"c{i}", "hidden": False})
    import_history(page, tmp_path, h, len(people), ruleset)
    return people


def gm_metres(page) -> dict[str, tuple[float, float]]:
    """Each token's ground point on the GM's plan, in metres (its translate is x, -y)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#map-plan [data-token]')].map(g => {
        const t = g.transform.baseVal.consolidate().matrix; return [g.dataset.token, [t.e, -t.f]]; }))""")


def players_points(pv) -> dict:
    """Each players' token's ground point on the screen, and where the metres say it should be, through
    the players' drawing's own transform (data-scale, data-cx, data-cy: W/2 + (x - cx) * scale ...)."""
    return pv.evaluate("""() => {
        const svg = document.querySelector('.pv-svg');
        const s = +svg.dataset.scale, cx = +svg.dataset.cx, cy = +svg.dataset.cy;
        const vb = svg.viewBox.baseVal, ctm = svg.getScreenCTM();
        const screen = (x, y) => { const q = new DOMPoint(x, y).matrixTransform(ctm); return [q.x, q.y]; };
        return Object.fromEntries([...svg.querySelectorAll('.pv-token')].map(g => {
            const t = g.transform.baseVal.consolidate().matrix;
            return [g.dataset.id, {drawn: screen(t.e, t.f), cls: g.getAttribute('class'),
                                   toMetres: [(t.e - vb.width / 2) / s + cx, -(t.f - vb.height / 2) / s + cy],
                                   scale: s, vb: [vb.width, vb.height], cx, cy}];
        }));
    }""")


def assert_same_places(page, pv) -> None:
    gm = gm_metres(page)
    pts = players_points(pv)
    assert set(pts) == set(gm)
    for cid, p in pts.items():
        gx, gy = gm[cid]
        w, h = p["vb"]
        want = pv.evaluate("""([x, y]) => { const q = new DOMPoint(x, y).matrixTransform(
            document.querySelector('.pv-svg').getScreenCTM()); return [q.x, q.y]; }""",
                           [w / 2 + (gx - p["cx"]) * p["scale"], h / 2 - (gy - p["cy"]) * p["scale"]])
        assert abs(want[0] - p["drawn"][0]) <= 1 and abs(want[1] - p["drawn"][1]) <= 1, (cid, want, p["drawn"])


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round", "range-band"])
def test_the_players_map_places_every_token_where_the_gm_map_has_it(page, open_app, wait_ready, tmp_path, ruleset):
    page.set_viewport_size(DESKTOP)
    open_app(page)
    people = load(page, tmp_path, ruleset)
    pv = open_players(page, wait_ready)
    pv.set_viewport_size({"width": 1280, "height": 800})
    expect(pv.locator(".pv-token")).to_have_count(len(people))
    assert_same_places(page, pv)
    # a move in the GM's window: the players' token follows to the same place
    page.locator("#tok-c4").click()
    form = page.locator('#map-info form[data-form="map-move"]')
    form.locator('[name="x"]').fill("2")
    form.locator('[name="y"]').fill("-7")
    form.get_by_role("button", name="Move").click()
    expect(pv.locator('.pv-token[data-id="c4"]')).to_have_attribute("transform", lambda v: True) if False else None
    pv.wait_for_function("""() => { const g = document.querySelector('.pv-token[data-id="c4"]');
        const svg = document.querySelector('.pv-svg'); const t = g.transform.baseVal.consolidate().matrix;
        return Math.abs((t.e - svg.viewBox.baseVal.width / 2) / +svg.dataset.scale + +svg.dataset.cx - 2) < 0.01; }""")
    assert_same_places(page, pv)
    # the dead one is down (greyed, a cross), the prone one lies flat
    expect(pv.locator('.pv-token[data-id="c3"].down .pv-cross')).to_have_count(1)
    expect(pv.locator('.pv-token[data-id="c2"].prone ellipse.pv-disc')).to_have_count(1)
    if ruleset == "range-band":
        pts = players_points(pv)
        assert pts["c1"]["drawn"] == pts["c2"]["drawn"]  # Kael on Grey: one spot, as on the GM's map
        expect(pv.locator('.pv-token[data-id="c3"] .pv-stalk')).to_have_count(1)  # the harpy flies
    pv.screenshot(path=f"/tmp/ui-map-players-{ruleset}.png")


WORDS_WHOLE = """() => [...document.querySelectorAll('#map-info table.map-dist th[scope=row]')].flatMap(th => {
    const node = th.firstChild, text = node && node.textContent || '';
    const out = []; let at = 0;
    for (const word of text.split(' ')) {
        const r = document.createRange(); r.setStart(node, at); r.setEnd(node, at + word.length);
        const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
        if (lines.size > 1) out.push(word);
        at += word.length + 1;
    }
    return out;
})"""


@pytest.mark.parametrize("size", [{"width": 1366, "height": 900}, {"width": 768, "height": 1024}])
def test_the_distance_table_never_breaks_a_name_inside_a_word(page, open_app, tmp_path, size):
    """Issue 33, "The map at table density": "The map's distance table wraps names letter by letter
    ("Ban dit 1", "Cav e bea r") at both sizes"."""
    page.set_viewport_size(size)
    open_app(page)
    h = History(new_encounter("range-band", "Names"))
    names = ["Kael", "Grey", "Cave bear", "Bandit 1", "Bandit 2", "Orc archer 1", "Swimmer", "Harpy"]
    for i, n in enumerate(names):
        h.do({"type": "add_combatant", "combatant": {**preset("range-band", "Human scout", name=n),
                                                      "position": {"x": i * 4 - 10, "y": (i % 3) * 5, "alt": 0}}})
    import_history(page, tmp_path, h, len(names), "names")
    if not page.locator("#tok-c1").is_visible():
        page.get_by_role("tab", name="Map").click()
    page.locator("#tok-c1").click()
    expect(page.locator("#map-info table.map-dist tbody tr")).to_have_count(len(names) - 1)
    assert page.evaluate(WORDS_WHOLE) == []
