"""The obscuring areas on the map (issue 9): ``MapRule.areas`` for range-band, drawn by the GM's map
(plan and side view) and the players' window. The rule sentences are the ones ``areas.py`` follows;
the geometry (a circle of the band's outer edge from the point's altitude up) is Fray's and is
checked against the table ``bands`` the sight lines read."""

from __future__ import annotations

import copy
import re

import pytest

from fray import maprules, players
from fray.reducer import apply
from fray.web import maplabels, mapview, players_render

from rb_helpers import RS, act, fight, person


def smoky(**over):
    enc = fight(person("A"), person("B", side="foes", x=30), person("C", side="foes", x=16))
    fields = {"kind": "smoke", "x": 15, "y": 4, "radius": "short", "name": "Smoke pot", **over}
    return act(enc, "area", **fields)


def test_a_marked_smoke_area_is_a_circle_of_its_band_from_the_bands_table():
    """Lack of Sight: characters "might be unable to see specific characters or areas due to such things as smoke
    clouds": the area the GM marks is on the map where the sight lines are judged: around its point, out to the
    band's outer edge (table ``bands``: short is to 10 m), from its altitude up as many metres."""
    enc = smoky(alt=3)
    [a] = maprules.rule_for("range-band").areas(enc)
    assert (a.ref, a.label, a.style) == ("A1", "Smoke pot (A1)", "haze")
    assert (a.x, a.y, a.radius, a.bottom, a.top) == (15.0, 4.0, 10.0, 3.0, 13.0)
    assert maprules.map_view(enc, None).areas == [a]


def test_the_radius_follows_the_gms_edit_of_the_bands_table():
    """FACTS: "The charts ship as *assumed* editable tables": the GM's metres for a band are the area's radius."""
    enc = smoky(radius="medium")
    bands = copy.deepcopy(RS.table(enc, "bands"))
    next(b for b in bands["entries"] if b["band"] == "medium")["max"] = 35
    enc, _ = apply(enc, {"type": "set_table", "table": "bands", "value": bands})
    assert maprules.map_view(enc, None).areas[0].radius == 35.0


def test_clearing_an_area_takes_it_off_the_map():
    """``rb.clear_area``: "the smoke clears": the map draws it no more."""
    enc = smoky()
    enc = act(enc, "area", kind="darkness", x=-5, y=0, radius="engaged")
    assert [a.ref for a in maprules.map_view(enc, None).areas] == ["A1", "A2"]
    enc = act(enc, "clear_area", area="A1")
    [left] = maprules.map_view(enc, None).areas
    assert (left.ref, left.style, left.radius) == ("A2", "dark", 2.0)
    assert 'data-area="A1"' not in mapview.map_parts(enc, None)["plan"]


@pytest.mark.parametrize("kind,style", [("smoke", "haze"), ("dense_smoke", "dense"), ("obstacle", "solid"),
                                        ("shadow", "dim"), ("darkness", "dark")])
def test_each_kind_of_table_obscuring_has_its_own_look(kind, style):
    """Table ``obscuring`` has one entry per kind (smoke, dense smoke, obstacle, shadow, darkness): each is filled
    its own way, an obstacle hatched."""
    enc = smoky(kind=kind)
    plan = mapview.map_parts(enc, None)["plan"]
    assert f'class="area area-{style}" data-area="A1"' in plan
    assert ('fill="url(#area-hatch)"' in plan) == (kind == "obstacle")
    assert ('<pattern id="area-hatch"' in plan) == (kind == "obstacle")


def test_the_plan_draws_the_area_under_the_tokens_at_its_centre_and_radius():
    """The plan's units are metres, north up (y flipped): the circle is at (15, −4), radius 10, named inside, and
    comes before the rings, tokens and labels, so it is drawn under them."""
    enc = smoky()
    plan = mapview.map_parts(enc, "c1")["plan"]
    circle = re.search(r'data-area="A1"[^>]*><title>[^<]*</title><circle cx="([^"]+)" cy="([^"]+)" r="([^"]+)"', plan)
    assert circle and tuple(map(float, circle.groups())) == (15.0, -4.0, 10.0)
    assert ">Smoke pot (A1)</text>" in plan
    at = plan.index('class="areas"')
    assert at < plan.index('class="rings"') < plan.index('class="tokens"') < plan.index('class="labels"')


def test_the_side_view_draws_the_area_as_a_band_from_its_bottom_to_its_top():
    """An area stands "from its altitude up" (areas.py): in the side view it spans its circle's width (5 to 25 m
    east) from its bottom (3 m) to its top (13 m), by the side view's own scale."""
    enc = smoky(alt=3)
    parts = mapview.map_parts(enc, None)
    x0, kx, _, ky = mapview.elev_scale(enc, parts["view"])
    m = re.search(r'data-area="A1"><title>[^<]*</title><rect x="([^"]+)" y="([^"]+)" width="([^"]+)" '
                  r'height="([^"]+)"', parts["elev"])
    assert m
    x, y, w, h = map(float, m.groups())
    assert x == pytest.approx((5 - x0) / kx, abs=.01) and w == pytest.approx(20 / kx, abs=.02)
    assert y + h == pytest.approx(mapview.ELEV_GROUND - 3 * ky, abs=.02)
    assert y == pytest.approx(max(mapview.ELEV_GROUND - 13 * ky, -10.0), abs=.02)


def test_the_players_window_shows_the_smoke_but_never_a_hidden_combatant_in_it():
    """Obscuring areas are features of the scene the players see; the projection still drops "every trace of a
    hidden combatant" (players.py): C stands in the smoke, unseen by the party, and is not drawn."""
    enc = smoky()
    p = players.project(enc, RS.view(enc), RS.order_of_play(enc))
    assert p["areas"] == [{"ref": "A1", "label": "Smoke pot (A1)", "style": "haze", "x": 15.0, "y": 4.0,
                           "radius": 10.0}]
    assert [c["name"] for c in p["combatants"]] == ["A"], "B behind the smoke and C in it are unseen by the party"
    html = players_render.players_html(p)
    assert 'class="pv-area area-haze" data-area="A1"' in html and ">Smoke pot (A1)</text>" in html
    assert html.index('class="pv-areas"') < html.index('class="pv-token')
    assert "c2" not in html and "c3" not in html


# a players' token's ground point: its group's translation (the disc is drawn from it, lifted if airborne)
TOKEN_AT = r'<g class="pv-token[^"]*" data-id="[^"]+" transform="translate\(([-\d.]+) ([-\d.]+)\)"'


def test_the_players_window_circle_is_scaled_with_the_tokens():
    """The players' map is fitted to what it shows: the circle's centre and radius use the tokens' own scale."""
    enc = act(fight(person("A"), person("B", x=40)), "area", kind="obstacle", x=20, y=0, radius="short")
    p = players.project(enc, RS.view(enc), RS.order_of_play(enc))
    svg = players_render.map_svg(p)
    toks = [tuple(map(float, m)) for m in re.findall(TOKEN_AT, svg)]
    area = re.search(r'data-area="A1"><title>[^<]*</title><circle cx="([^"]+)" cy="([^"]+)" r="([^"]+)" '
                     r'fill="url\(#pv-area-hatch\)"', svg)
    assert area and len(toks) == 2
    ax, ay, ar = map(float, area.groups())
    (x1, y1), (x2, _) = sorted(toks)
    assert (ax, ay) == pytest.approx(((x1 + x2) / 2, y1), abs=.1)
    assert ar == pytest.approx((x2 - x1) * 10 / 40, abs=.1)


def pv_circle(svg: str) -> tuple[float, float, float]:
    m = re.search(r'data-area="A1"><title>[^<]*</title><circle cx="([^"]+)" cy="([^"]+)" r="([^"]+)"', svg)
    assert m
    return tuple(map(float, m.groups()))


def test_the_players_window_frames_an_area_whole_unless_it_is_larger_than_the_fight():
    """The players see the smoke, so a cloud beside the party is in the frame whole; a cloud larger than the whole
    fight (``long``: to 250 m) would shrink the tokens' spread to a dot, so only its centre is framed."""
    near = act(fight(person("A"), person("B", x=4)), "area", kind="smoke", x=15, y=0, radius="short")
    x, y, r = pv_circle(players_render.map_svg(players.project(near, RS.view(near), RS.order_of_play(near))))
    assert 0 <= x - r and x + r <= players_render.W and 0 <= y - r and y + r <= players_render.H
    huge = act(fight(person("A"), person("B", x=40)), "area", kind="shadow", x=20, y=0, radius="long")
    svg = players_render.map_svg(players.project(huge, RS.view(huge), RS.order_of_play(huge)))
    toks = sorted(float(m[0]) for m in re.findall(TOKEN_AT, svg))
    assert toks[1] - toks[0] == pytest.approx(min(players_render.W, players_render.H) - 2 * players_render.PAD, abs=.5)
    assert pv_circle(svg)[2] > players_render.W


def test_a_game_without_areas_draws_none():
    """The core map names no game: the default ``MapRule.areas`` is empty, and nothing of areas is drawn."""
    from fray.reducer import new_encounter
    enc = new_encounter("freeform", "plain")
    assert maprules.MapRule().areas(enc) == [] and maprules.map_view(enc, None).areas == []
    assert 'class="areas"' not in mapview.map_parts(enc, None)["plan"]
    assert players.project(enc, {}, [])["areas"] == []


def test_an_area_name_gives_way_to_token_labels():
    """Token labels stay readable: an area's name goes on its edge where no token or label is (top first, then
    round the circle), and is left out where there is no room at all."""
    [a] = maprules.map_view(smoky(), None).areas  # centre (15, 4) m, radius 10: top of the circle at y = −14
    view = [-20.0, -40.0, 70.0, 70.0]
    free = mapview.area_names([a], 1.0, [], view)["A1"]
    assert free["box"][1] < -14 < free["box"][3], "on the top of the circle"
    label_on_top = (5.0, -16.0, 25.0, -12.0)
    moved = mapview.area_names([a], 1.0, [label_on_top], view)["A1"]
    assert not maplabels._hits(moved["box"], label_on_top)
    assert mapview.area_names([a], 1.0, [tuple(view[:2]) + (view[0] + view[2], view[1] + view[3])], view) == {}


def test_the_side_view_draws_a_swimmer_at_its_depth_under_the_surface():
    """Underwater Combat: underwater battles are "much more three-dimensional ... resolved similarly to a battle in
    which all characters are flying": a swimmer 5 m under the surface of a pool is drawn 5 m below the ground line
    (the surface at 0 m), on the side view's own scale, not on the ground (issue 33); the flyer above keeps its
    height on the same scale, and the ground line says where it now is (``data-ground``)."""
    enc = fight(person("Nix", x=-25, amphibious="breathes"), person("Wren", x=4, flying=True, stats={"FSPD": 14},
                                                                       position={"x": 4, "y": 0, "alt": 8}))
    enc = act(enc, "area", kind="water", x=-25, y=0, radius="short", depth=6, name="Ford pool")
    enc, _ = apply(enc, {"type": "move", "id": "c1", "x": -25, "y": 0, "alt": -5})
    svg = mapview.map_parts(enc, None)["elev"]
    ground = float(re.search(r'data-ground="([^"]+)"', svg).group(1))
    ky = float(re.search(r'data-ky="([^"]+)"', svg).group(1))
    assert ground < mapview.ELEV_GROUND
    nix = re.search(r'data-elev-token="c1" transform="translate\(([-\d.]+) ([-\d.]+)\)"><title>([^<]*)<', svg)
    wren = re.search(r'data-elev-token="c2" transform="translate\(([-\d.]+) ([-\d.]+)\)"', svg)
    assert float(nix.group(2)) == pytest.approx(ground + 5 * ky, abs=.02) and nix.group(3) == "Nix: 5 m under the surface"
    assert float(wren.group(2)) == pytest.approx(ground - 8 * ky, abs=.02)
    assert ground + 5 * ky < mapview.ELEV_H  # inside the drawing
    assert 'class="elev-token under"' in svg and ">−5 m</text>" in svg  # the depth is marked on the scale
