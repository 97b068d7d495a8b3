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
from gestures import add_preset, card, import_history, mouse_drag, new_encounter, rb_start, saved
from playwright.sync_api import expect
from test_map import client_point, load_encounter, preset
from test_range_band import SCOUT, add
from test_strip import GAMES, add_many

from fray.history import History
from fray.reducer import new_encounter as engine_encounter
from fray.games import get_ruleset

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


# -- several tokens at once, and a tap for a destination ------------------------------------------------------

def touch_drag(page, a: tuple[float, float], b: tuple[float, float]) -> None:
    """A finger on the screen through the browser's input pipeline (pointerType "touch")."""
    (sx, sy), (tx, ty) = a, b
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": sx, "y": sy}]})
    for i in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": sx + (tx - sx) * i / 8, "y": sy + (ty - sy) * i / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def near(page, cid: str, x: float, y: float, slack: float = 0.25) -> None:
    """The token is drawn at (x, y) metres, to the drag's precision (a pixel is about 0.1 m here)."""
    expect(page.locator(f"#tok-{cid}")).to_have_attribute("transform", re.compile(r"translate\("))
    got = transform_of(page, cid)
    assert abs(got[0] - x) <= slack and abs(got[1] - y) <= slack, (cid, got, (x, y))


def actions_count(page) -> int:
    return len(saved(page)["history"]["actions"])


GROUPED = re.compile(r"\bgrouped\b")


@pytest.mark.browser_context_args(viewport=LAPTOP["viewport"])
def test_strike_rank_shift_click_a_group_drag_it_and_tap_a_destination(page, open_app, tmp_path):
    """By mouse at 1366×900: Shift-click makes a group, a drag of one of them moves both (ONE action, ONE
    Undo), a click on the ground moves the selected token there, and a click on it again lets it go."""
    open_app(page)
    load_encounter(page, tmp_path, "strike-rank", [
        (preset("strike-rank", "Archer", name="Ayla", side="party"), 0, 0, 0),
        (preset("strike-rank", "Human warrior", name="Grak"), 9, 0, 0),
        (preset("strike-rank", "Human warrior", name="Brun"), 12, 0, 0),
    ])
    page.locator("#tok-c2").click()
    page.locator("#tok-c3").click(modifiers=["Shift"])
    for cid in ("c2", "c3"):
        expect(page.locator(f"#tok-{cid}")).to_have_class(GROUPED)
        expect(page.locator(f"#tok-{cid}")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#tok-c1")).not_to_have_class(GROUPED)
    before = actions_count(page)
    mouse_drag(page, client_point(page, 9, 0), client_point(page, 9, 6))
    expect(page.locator("#log")).to_contain_text("Grak and Brun move together")
    near(page, "c2", 9, 6)
    near(page, "c3", 12, 6)
    near(page, "c1", 0, 0)
    assert actions_count(page) == before + 1  # one step in the history for the whole group
    shot(page, "group-strike-rank-1366")
    page.locator("#btn-undo").click()
    expect(page.locator("#tok-c2")).to_have_attribute("transform", "translate(9 0)")
    expect(page.locator("#tok-c3")).to_have_attribute("transform", "translate(12 0)")

    # a click on one token alone: the group is over; a click on the ground moves that token there
    page.locator("#tok-c1").click()
    expect(page.locator("#tok-c2")).not_to_have_class(GROUPED)
    expect(page.locator("#map-info .map-tap")).to_contain_text("Tap or click the ground to move Ayla there")
    page.mouse.click(*client_point(page, 0, 8))
    expect(page.locator("#log li").first).to_contain_text("Ayla moves to")
    near(page, "c1", 0, 8)
    expect(page.locator("#tok-c1")).to_have_attribute("aria-pressed", "true")  # still selected
    # a click on the selected token lets it go: a click on the ground then moves nobody
    page.locator("#tok-c1").click()
    expect(page.locator("#tok-c1")).to_have_attribute("aria-pressed", "false")
    n = actions_count(page)
    page.mouse.click(*client_point(page, 5, -6))
    expect(page.locator("#map-info .map-hint")).to_be_visible()
    assert actions_count(page) == n


@pytest.mark.browser_context_args(**TABLET)
def test_tactical_round_select_several_by_touch_in_the_move_phase(page, open_app, tmp_path):
    """On a tablet, by touch: "Select several", tap two heroes, drag one with a finger: both move, and in the
    Move phase each one's declared Move is done, as a single drag marks it; one Undo puts both back. Then a
    tap on a hero and a tap on the ground moves that hero there."""
    open_app(page)
    rs = get_ruleset("tactical-round")
    sword = next(p for p in rs.presets() if p["name"] == "Swordsman with shield")
    orc = next(p for p in rs.presets() if p["name"] == "Orc warrior")
    h = History(engine_encounter("tactical-round", "Move phase"))
    for body, x in ((dict(sword, name="Mira", side="party"), 0), (dict(sword, name="Bran", side="party"), 3),
                    (dict(orc, name="Grak", side="foes"), 20)):
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": 0, "alt": 0}}})
    while h.present.phase != "declaration":
        h.do({"type": "advance"})
    for cid, act in (("c1", "move"), ("c2", "move"), ("c3", "move")):
        h.do({"type": "tr.declare", "id": cid, "actions": [{"action": act}]})
    while h.present.phase != "move":
        h.do({"type": "advance", "skip_empty": True, "ask": True})
    import_history(page, tmp_path, h, 3, "group")
    page.locator("#tab-map").tap()
    several = page.get_by_role("button", name="Select several")
    several.tap()
    expect(several).to_have_attribute("aria-pressed", "true")
    page.locator("#tok-c1").tap()
    page.locator("#tok-c2").tap()
    expect(page.locator("#tok-c1")).to_have_class(GROUPED)
    expect(page.locator("#tok-c2")).to_have_class(GROUPED)
    before = actions_count(page)
    touch_drag(page, client_point(page, 0, 0), client_point(page, 0, 6))
    expect(page.locator("#log")).to_contain_text("Mira and Bran move together")
    expect(page.locator("#log")).to_contain_text("Mira's Move is done")
    expect(page.locator("#log")).to_contain_text("Bran's Move is done")
    near(page, "c1", 0, 6, 0.4)
    near(page, "c2", 3, 6, 0.4)
    assert actions_count(page) == before + 1
    shot(page, "group-tactical-round-768")
    # Undo and the toggle by mouse: in Chromium's emulated touch, a tap after this CDP finger drag may give no
    # click (a second one does); not known yet whether a real tablet does so (closing note of 5 December)
    page.locator("#btn-undo").click()
    expect(page.locator("#tok-c1")).to_have_attribute("transform", "translate(0 0)")
    expect(page.locator("#tok-c2")).to_have_attribute("transform", "translate(3 0)")

    several.click()  # off: a tap picks one token again
    expect(several).to_have_attribute("aria-pressed", "false")
    page.locator("#tok-c3").tap()
    expect(page.locator("#tok-c1")).not_to_have_class(GROUPED)
    page.touchscreen.tap(*client_point(page, 14, 4))
    expect(page.locator("#log li").first).to_contain_text("Grak's Move is done")
    near(page, "c3", 14, 4, 0.4)


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["768x1024-touch", "1366x900"])
def test_range_band_a_tap_on_the_ground_is_the_movers_movement_roll(browser, open_app, size):
    """Issue 33 §5: "let the GM drag the token on the map (or tap a destination) as the movement's target, with
    the roll as today". In the movement phase, with nothing selected, a tap on the ground is the mover's
    movement roll to there (its form shows the spot); a group dragged with the mover in it: the mover's roll,
    and the others placed by the GM."""
    ctx = browser.new_context(**size)
    page = ctx.new_page()
    try:
        open_app(page)
        new_encounter(page, "Cave mouth", "range-band", GAMES["range-band"][0])
        add(page, SCOUT)                                  # c1, the first to move
        add(page, "Large creature", x=18, side="foes")    # c2
        add(page, SCOUT, x=3)                             # c3
        rb_start(page, "Start anyway")
        expect(page.locator("#round-bar .phase")).to_contain_text("Movement")
        form = page.locator('form[data-form="rb-move"][data-id="c1"]')
        expect(form).to_be_attached()
        show_map(page)
        touch = size is TABLET
        spot = client_point(page, 0, 7)
        if touch:
            page.touchscreen.tap(*spot)
        else:
            page.mouse.click(*spot)
        expect(page.locator(".rb-pending")).to_have_count(1)  # the movement roll, to settle under Rolls
        assert abs(float(form.locator('[name="y"]').input_value()) - 7) <= 0.4
        assert abs(float(form.locator('[name="x"]').input_value())) <= 0.4

        # a group with the mover in it: the mover's part is its movement roll, the other one is placed
        expect(page.locator("#tok-c1")).to_have_attribute("aria-pressed", "true")  # the mover, as after a drag
        if touch:
            page.get_by_role("button", name="Select several").tap()
            page.locator("#tok-c3").tap()
        else:
            page.locator("#tok-c3").click(modifiers=["Shift"])
        expect(page.locator("#tok-c1")).to_have_class(GROUPED)
        expect(page.locator("#tok-c3")).to_have_class(GROUPED)
        a, b = client_point(page, 3, 0), client_point(page, 3, -5)
        touch_drag(page, a, b) if touch else mouse_drag(page, a, b)
        expect(page.locator("#log li").first).to_contain_text("Human scout moves to")
        near(page, "c3", 3, -5, 0.4)
        assert abs(float(form.locator('[name="y"]').input_value()) + 5) <= 0.4  # the mover's roll, to (0, -5)
        shot(page, f"group-range-band-{size['viewport']['width']}")
    finally:
        ctx.close()


@pytest.mark.browser_context_args(viewport=LAPTOP["viewport"])
def test_a_duplicate_stands_beside_its_original(page, open_app):
    """Duplicate on a card: the copy stood a metre east, under the original's token; now a token apart."""
    open_app(page)
    new_encounter(page, "Copies", "strike-rank", GAMES["strike-rank"][0])
    add_preset(page, "Human warrior", "foes")
    for _ in range(3):
        card(page, "Human warrior").get_by_role("button", name="Duplicate").click()
    expect(page.locator("#map [data-token]")).to_have_count(4)
    assert overlaps(page) == []


@pytest.mark.browser_context_args(viewport=LAPTOP["viewport"])
def test_range_band_the_maps_position_form_is_the_movers_movement_roll_too(page, open_app):
    """The rule text moves by movement rolls in the movement phase (Flight: "You roll a d10 in your movement
    roll instead of a d12"; Ambush Movement: "you must succeed on a movement roll that moves you at least
    short range"), and a drag of the mover is its movement roll (issue 33). A GM's play-through: the map's
    position form moved the mover during its movement with no roll. It is now the same movement roll as the
    card's Movement roll; anyone else, or outside the movement phase, the form still places (the GM's say)."""
    open_app(page)
    new_encounter(page, "Ford", "range-band", GAMES["range-band"][0])
    add(page, SCOUT)                                  # c1, the first to move
    add(page, "Large creature", x=18, side="foes")    # c2
    rb_start(page, "Start anyway")
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement")
    show_map(page)
    page.locator("#tok-c1").click()
    pos = page.locator('form[data-form="map-move"][data-id="c1"]')
    pos.get_by_label("North (y, m)").fill("6")
    pos.get_by_label("North (y, m)").press("Enter")
    expect(page.locator('.rb-pending[data-ref="R1"]')).to_contain_text("Movement roll")
    expect(page.locator("#log li").first).not_to_contain_text("moves to")  # nothing moved before the roll
    card_form = page.locator('form[data-form="rb-move"][data-id="c1"]')
    expect(card_form.locator('[name="y"]')).to_have_value("6")
    page.locator('.rb-pending[data-ref="R1"]').get_by_label("Success", exact=True).check()
    page.locator('.rb-pending[data-ref="R1"]').get_by_role("button", name="Apply result").click()
    expect(page.locator("#log")).to_contain_text("Human scout moves to (0, 6) m")
    # someone else than the mover: the GM places them, no roll
    page.locator("#tok-c2").click()
    other = page.locator('form[data-form="map-move"][data-id="c2"]')
    other.get_by_label("East (x, m)").fill("16")
    other.get_by_role("button", name="Move").click()
    expect(page.locator("#log li").first).to_contain_text("Large creature moves to (16, 0) m")
    expect(page.locator(".rb-pending")).to_have_count(0)
