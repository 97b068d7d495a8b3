"""Range-band's obscuring areas on the map (issue 9: "draw range-band's obscuring areas on the map").

The GM marks a smoke cloud through the panel's own form; its circle is drawn in the GM's plan at its
centre with the band's radius (measured on screen through the plan's own transform), in the side
view as a band, and in the players' window under the tokens, without the foe it hides; clearing it
takes it off both. Screenshots of both windows at 1366x900 and 768x1024 go to test-results/map-areas.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from pathlib import Path

from gestures import new_encounter, rb_mark_area
from playwright.sync_api import expect
from test_players_view import add_rb as add, open_players

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "map-areas"
BADGE = "Range bands (turn order, movement phase, major/minor actions)"
SIZES = ({"width": 1366, "height": 900}, {"width": 768, "height": 1024})

# centre, radius and size on screen of an element of the plan, and where a plan point lands
GEOMETRY = """([sel, x, y]) => {
  const el = document.querySelector(sel);
  const m = el.getScreenCTM(), b = el.getBoundingClientRect();
  const p = new DOMPoint(x, -y).matrixTransform(m);
  return {cx: b.x + b.width / 2, cy: b.y + b.height / 2, w: b.width, px: p.x, py: p.y, scale: m.a};
}"""


def shoot(page, pv, stem: str, ref: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        page.set_viewport_size(size)
        pv.set_viewport_size(size)
        tag = f"{size['width']}x{size['height']}"
        if page.locator("#tab-map").is_visible():
            page.locator("#tab-map").click()  # narrow screen: the map is a tab
        expect(page.locator(f"#map-plan [data-area={ref}] circle")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"{stem}-gm-{tag}.png"))
        page.locator("#map-pane").screenshot(path=str(SHOTS / f"{stem}-gm-map-{tag}.png"))
        pv.screenshot(path=str(SHOTS / f"{stem}-players-{tag}.png"))
        if page.locator("#tab-map").is_visible():
            page.locator("#tab-tracker").click()


def test_a_smoke_area_is_drawn_in_the_gm_map_and_the_players_window_and_cleared(page, open_app, wait_ready):
    page.set_viewport_size(SIZES[0])
    open_app(page)
    new_encounter(page, "Smoke at the ford", "range-band", BADGE)
    add(page, "Human scout", "Wren", "party", 0)
    add(page, "Rider", "Outrider", "foes", 30)
    pv = open_players(page, wait_ready)
    expect(pv.locator(".pv-token")).to_have_count(2)
    expect(pv.locator(".pv-area")).to_have_count(0)

    areas = page.locator("details.rb-areas")
    areas.locator("summary").click()
    mark = rb_mark_area(page, "smoke", "15", "3", "short", "Smoke pot")
    mark.get_by_role("button", name="Mark the area").click()
    expect(page.locator(".rb-area-list")).to_contain_text("Smoke pot")

    # the GM's plan: a smoke-grey circle around (15, 3) m, 10 m across to its edge (table bands: short)
    circle = page.locator("#map-plan [data-area=A1] circle")
    expect(circle).to_have_count(1)
    expect(page.locator("#map-plan [data-area=A1]")).to_have_class("area area-haze")
    expect(page.locator("#map-plan [data-area=A1] text")).to_have_text("Smoke pot (A1)")
    g = page.evaluate(GEOMETRY, ["#map-plan [data-area=A1] circle", 15, 3])
    assert abs(g["cx"] - g["px"]) < 1.5 and abs(g["cy"] - g["py"]) < 1.5, g
    assert abs(g["w"] / 2 - 10 * g["scale"]) < 1.5, g
    # under the tokens: the areas come before the tokens and their labels in the drawing
    order = page.evaluate("""() => [...document.querySelectorAll('#map-plan > g')].map(g => g.getAttribute('class'))""")
    assert order.index("areas") < order.index("tokens") < order.index("labels"), order
    # the side view: a band from the ground (its altitude, 0 m) up
    expect(page.locator("#map-elev-svg [data-area=A1] rect")).to_have_count(1)
    band = page.evaluate("""() => {
      const r = document.querySelector('#map-elev-svg [data-area=A1] rect');
      const svg = document.querySelector('#map-elev-svg');
      return {bottom: +r.getAttribute('y') + +r.getAttribute('height'), x: +r.getAttribute('x'),
              w: +r.getAttribute('width'), x0: +svg.dataset.x0, kx: +svg.dataset.kx};
    }""")
    assert abs(band["bottom"] - 148) < .05, band  # mapview.ELEV_GROUND: the ground line
    assert abs(band["x"] - (5 - band["x0"]) / band["kx"]) < .05 and abs(band["w"] - 20 / band["kx"]) < .05, band

    # the players' window: the smoke is seen; the foe behind it is not, and leaves no trace
    pv_area = pv.locator(".pv-area[data-area=A1]")
    expect(pv_area).to_have_count(1)
    expect(pv_area).to_have_class("pv-area area-haze")
    expect(pv_area.locator("text")).to_have_text("Smoke pot (A1)")
    expect(pv.locator(".pv-token")).to_have_count(1)
    assert "Outrider" not in pv.content() and 'data-id="c2"' not in pv.content()
    # Wren's ground point: the token group's translation (its disc is drawn from there)
    cx, cy = pv.locator(".pv-token[data-id=c1]").evaluate(
        "g => { const m = g.transform.baseVal.consolidate().matrix; return [m.e, m.f]; }")
    ax, ay = float(pv_area.locator("circle").get_attribute("cx")), float(pv_area.locator("circle").get_attribute("cy"))
    assert ax > cx and ay < cy, "east of Wren and a little north"

    shoot(page, pv, "smoke", "A1")
    page.set_viewport_size(SIZES[0])

    page.get_by_role("button", name="Clear Smoke pot (A1)").click()
    expect(page.locator("#map-plan [data-area]")).to_have_count(0)
    expect(page.locator("#map-elev-svg [data-area]")).to_have_count(0)
    expect(pv.locator(".pv-area")).to_have_count(0)
    expect(pv.locator(".pv-token")).to_have_count(2)  # the smoke is gone: the party sees the outrider again

    # every kind its own look: an obstacle hatched, darkness dark, dense smoke and shadow between
    if not areas.evaluate("d => d.open"):
        areas.locator("summary").click()  # with no area left the fold-out closes
    for kind, x, y, radius in (("obstacle", 15, -9, "engaged"), ("darkness", 30, 6, "engaged"),
                               ("dense_smoke", 6, 8, "engaged"), ("shadow", -4, -6, "engaged")):
        rb_mark_area(page, kind, str(x), str(y), radius, "").get_by_role("button", name="Mark the area").click()
    plan = page.locator("#map-plan")
    for ref, style in (("A2", "solid"), ("A3", "dark"), ("A4", "dense"), ("A5", "dim")):
        expect(plan.locator(f"[data-area={ref}]")).to_have_class(f"area area-{style}")
        expect(pv.locator(f".pv-area[data-area={ref}]")).to_have_class(f"pv-area area-{style}")
    expect(plan.locator("[data-area=A2] circle")).to_have_attribute("fill", "url(#area-hatch)")
    expect(pv.locator(".pv-area[data-area=A2] circle")).to_have_attribute("fill", "url(#pv-area-hatch)")
    shoot(page, pv, "kinds", "A2")
