"""The map's markup (fray.web.mapview): pure HTML strings, checked without a browser."""

from __future__ import annotations

import math
import re

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.web import maplabels, maplinks, mapview
from fray.web.uistate import UiState


def _enc(ruleset="freeform", people=()):
    enc = new_encounter(ruleset, "map")
    for body, x, y, alt in people:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": alt}}})
    return enc


def test_every_combatant_has_a_token_and_names_are_escaped():
    enc = _enc(people=[({"name": "<b>Grak</b> & co", "side": "foes"}, 0, 0, 0), ({"name": "Ann", "side": "party"}, 5, 5, 0)])
    parts = mapview.map_parts(enc, None)
    plan = parts["plan"]
    assert plan.count('data-token="') == 2
    assert "<b>Grak" not in plan and "&lt;b&gt;Grak&lt;/b&gt; &amp; co" in plan
    assert "<b>Grak" not in parts["elev"]
    assert 'role="button"' in plan and 'tabindex="0"' in plan
    assert '<title>Ann, party, at 5, 5 m, altitude 0 m</title>' in plan


def test_tokens_sit_at_their_position_in_metres_north_up():
    enc = _enc(people=[({"name": "A"}, 12.5, 3, 0)])
    assert 'id="tok-c1" data-token="c1" transform="translate(12.5 -3)"' in mapview.map_parts(enc, None)["plan"]


def test_airborne_token_has_shadow_stalk_and_altitude():
    enc = _enc(people=[({"name": "Hawk"}, 0, 0, 20), ({"name": "Walker"}, 4, 0, 0)])
    plan = mapview.map_parts(enc, None)["plan"]
    hawk = plan[plan.index('id="tok-c1"'):plan.index("</g>", plan.index('id="tok-c1"'))]
    walker = plan[plan.index('id="tok-c2"'):plan.index("</g>", plan.index('id="tok-c2"'))]
    label = plan[plan.index('id="lab-c1"'):plan.index("</g></g>", plan.index('id="lab-c1"'))]
    assert 'class="shadow"' in hawk and 'class="stalk"' in hawk and "↑20 m" in label and "flying" in hawk
    assert 'class="shadow"' not in walker
    assert "Hawk 20 m" in mapview.map_parts(enc, None)["elev"]


def test_prone_token_is_flattened_and_says_so():
    enc = _enc(people=[({"name": "A"}, 0, 0, 0)])
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "prone", "on": True})
    plan = mapview.map_parts(enc, None)["plan"]
    assert 'class="token prone' in plan and '<ellipse class="disc"' in plan and "prone" in plan


def test_rings_radii_for_the_selected_token():
    p = next(p for p in get_ruleset("tactical-round").presets() if p["name"] == "Crossbowman")
    enc = _enc("tactical-round", [({**p, "side": "party"}, 0, 0, 0), ({**p, "name": "Other"}, 40, 0, 0)])
    plan = mapview.map_parts(enc, "c1")["plan"]
    assert re.findall(r'class="ring ring-band" cx="0" cy="0" r="([\d.]+)"', plan) == ["30", "60", "90", "120"]
    assert mapview.map_parts(enc, None)["plan"].count('class="ring ') == 0


def test_distance_list_and_position_form_for_the_selected_token():
    enc = _enc(people=[({"name": "A"}, 0, 0, 0), ({"name": "B & B"}, 3, 4, 0)])
    info = mapview.map_parts(enc, "c1")["info"]
    assert 'data-form="map-move" data-id="c1"' in info
    for name in ("x", "y", "alt"):
        assert f'name="{name}"' in info and f'data-error-for="{name}"' in info
    assert '<tr data-target="c2"><th scope="row">B &amp; B</th><td class="d">5.0 m</td>' in info
    assert "5.0 m" in mapview.map_parts(enc, "c1")["plan"]  # label on the plan too


def test_how_a_distance_and_its_band_were_reached_is_written_not_a_tooltip():
    """Found playing on a tablet: how a distance was reached (across and up) and why a band is what it is
    were only tooltips, which an iPad never shows. With one of the two aloft, the cells say it in words; on
    level ground the metres are the whole story (twelve rows of "greater of horizontal short and vertical
    engaged" hid the list)."""
    enc = _enc(people=[({"name": "A"}, 0, 0, 0), ({"name": "Flier"}, 4, 0, 3), ({"name": "Walker"}, 0, 5, 0)])
    info = mapview.map_parts(enc, "c1")["info"]
    flier = re.search(r'<tr data-target="c2">.*?</tr>', info).group(0)
    assert '<small class="how">5.0 m = √(4.0² across + 3.0² up)</small>' in flier
    walker = re.search(r'<tr data-target="c3">.*?</tr>', info).group(0)
    assert "how" not in walker and "title=" not in walker
    p = next(p for p in get_ruleset("range-band").presets())
    enc = _enc("range-band", [({**p, "side": "party"}, 0, 0, 0), (p, 3, 0, 12), (p, 0, 4, 0)])
    info = mapview.map_parts(enc, "c1")["info"]
    aloft = re.search(r'<tr data-target="c2"[^>]*>.*?</tr>', info).group(0)
    # "Range between two characters is the greater of the horizontal and the vertical band": said
    assert re.search(r'<td class="band">[^<]+<small class="how">greater of horizontal [^<]*vertical', aloft), aloft
    assert "how" not in re.search(r'<tr data-target="c3"[^>]*>.*?</tr>', info).group(0)


def test_nothing_selected_gives_a_hint_and_no_form():
    enc = _enc(people=[({"name": "A"}, 0, 0, 0)])
    info = mapview.map_parts(enc, None)["info"]
    assert "map-move" not in info and "Select a token" in info
    assert "map-move" not in mapview.map_parts(enc, "gone")["info"]


def test_engagement_links_are_drawn():
    p = next(p for p in get_ruleset("strike-rank").presets() if p["name"] == "Human warrior")
    enc = _enc("strike-rank", [({**p, "side": "party"}, 0, 0, 0), (p, 2, 0, 0)])
    parts = mapview.map_parts(enc, None)
    assert 'class="engaged" data-link="c1 c2"' in parts["plan"]
    assert "Engaged:" in parts["info"]


def test_view_box_follows_the_stored_view_and_fit_covers_everyone():
    enc = _enc(people=[({"name": "A"}, -50, 0, 0), ({"name": "B"}, 50, 20, 0)])
    x0, y0, w, h = mapview.fit_view(enc)
    assert x0 < -50 and x0 + w > 50 and y0 < -20 and y0 + h > 0 and w == h
    assert 'viewBox="1 2 30 30"' in mapview.map_parts(enc, None, [1, 2, 30, 30])["plan"]
    assert "grid 5 m" in mapview.map_parts(enc, None, [1, 2, 30, 30])["scale"]


def test_line_of_sight_column_names_bodies_in_the_way_as_text():
    """Issue 5: line-of-sight prompts come from the positions; the names stay text."""
    enc = _enc(people=[({"name": "Archer"}, 0, 0, 0), ({"name": "<i>Orc</i>"}, 10, 0, 0),
                       ({"name": "Ann"}, 20, 0, 0)])
    info = mapview.map_parts(enc, "c1")["info"]
    row = re.search(r'<tr data-target="c3".*?</tr>', info).group(0)
    assert "&lt;i&gt;Orc&lt;/i&gt; in the way: GM, line of sight? cover?" in row
    near = re.search(r'<tr data-target="c2".*?</tr>', info).group(0)
    assert "no one in the way" in near


class _SightRule:
    """A game that judges sight and names altitudes by band (the MapRule hooks ``unseen`` and
    ``altitude``), standing in for any such ruleset."""

    combine = "band"

    def weapon(self, enc, c):
        return ""

    def rings(self, enc, c):
        from fray.maprules import Ring
        return [Ring(10.0, "short (to 10 m)", "band")]

    def band(self, enc, c, other, metres):
        from fray.maprules import Band
        return Band("short" if metres <= 10 else "medium"), ""

    def links(self, enc):
        return []

    def unseen(self, enc, c):
        return {o.id: "too dark" for o in enc.combatants if o.name == "Sneak"}

    def altitude(self, enc, c):
        return "short" if c.position.alt > 2 else None


def test_a_band_game_labels_bands_draws_unseen_tokens_and_altitude_bands(monkeypatch):
    from fray import maprules

    enc = _enc(people=[({"name": "Eye"}, 0, 0, 0), ({"name": "Sneak"}, 8, 0, 0), ({"name": "Hawk"}, 30, 0, 6)])
    monkeypatch.setattr(maprules, "rule_for", lambda rid: _SightRule())
    parts = mapview.map_parts(enc, "c1")
    plan, info, elev = parts["plan"], parts["info"], parts["elev"]
    def token_and_label(cid):  # the token's group, and its label in the labels layer
        tok = plan[plan.index(f'id="tok-{cid}"'):plan.index("</g>", plan.index(f'id="tok-{cid}"'))]
        lab = plan[plan.index(f'id="lab-{cid}"'):plan.index("</g></g>", plan.index(f'id="lab-{cid}"'))]
        return tok + lab

    sneak, hawk = token_and_label("c2"), token_and_label("c3")
    classes = {m[1]: m[0].split() for m in re.findall(r'<g class="([^"]*)" id="tok-(c\d)"', plan)}
    assert "unseen" in classes["c2"] and "unseen" not in classes["c3"] and "unseen" not in classes["c1"]
    assert "unseen: too dark" in sneak and ">short<" in sneak        # the band, not "8.0 m"
    assert "↑short" in hawk and ">medium<" in hawk and "altitude 6 m (short band)" in hawk
    assert '<tr data-target="c2" class="unseen">' in info and "unseen: too dark" in info
    assert "(short band)" in elev


def test_metre_games_keep_metres_and_judge_no_sight():
    enc = _enc(people=[({"name": "A"}, 0, 0, 0), ({"name": "B"}, 8, 0, 4)])
    plan = mapview.map_parts(enc, "c1")["plan"]
    assert "8.9 m" in plan and "unseen" not in plan and "↑4 m" in plan


# -- the map at table density (issue 10) ---------------------------------------------------------

MELEE = [("Harald Fairhair", 0, 0, 0), ("Hakon Fairhair", 1.5, .5, 0), ("Astrid", -1.5, .8, 0), ("Ulf", .5, -1.6, 0),
         ("Great wolf", 2.5, 2, 0), ("Grey wolf", 3, -.5, 0), ("Goblin", 1, 2.2, 0), ("Goblin", -.8, 2.4, 0),
         ("Goblin", 2, 3.6, 0), ("Goblin archer", 12, 8, 0), ("Bandit chief", -6, -5, 0), ("Bat", 1.2, 1.2, 9)]


def _melee(ruleset="freeform"):
    return _enc(ruleset, [({"name": n, "side": "party" if i < 4 else "foes"}, x, y, a)
                          for i, (n, x, y, a) in enumerate(MELEE)])


def _boxes(enc, selected):
    mv = mapview.map_view(enc, selected)
    view = mapview.fit_view(enc)
    r = mapview.token_radius(view, enc)
    labels, rings = mapview.layout(enc, mv, view, r)
    return view, r, labels, rings


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_issue_10_labels_of_twelve_adjacent_tokens_never_overlap():
    """Issue 10, The map at table density: "Names and distances overlap on adjacent tokens ("HaraGreat wolf",
    "20.020.1 m") ... Labels must never overlap (place them, or show them on selection)". Twelve combatants
    within a few metres, with and without a selection: no two label boxes (ring labels included) overlap, none
    covers a token, each lies inside the view; the selected token's label is always placed whole."""
    for ruleset in ("freeform", "strike-rank", "range-band"):
        enc = _melee(ruleset) if ruleset == "freeform" else _sr_or_rb(ruleset)
        for selected in (None, "c1", "c7"):
            view, r, labels, rings = _boxes(enc, selected)
            boxes = [p["box"] for p in labels.values()] + [p["box"] for p in rings.values()]
            assert len(labels) >= 6, (ruleset, selected, len(labels))  # most are placed, not all dropped
            for i, a in enumerate(boxes):
                assert view[0] <= a[0] and a[2] <= view[0] + view[2] and view[1] <= a[1] and a[3] <= view[1] + view[3]
                for b in boxes[i + 1:]:
                    assert not _overlap(a, b), (ruleset, selected, a, b)
            lifts = mapview.lift_offsets(enc, r)
            discs = [(c.position.x + lifts[c.id][0] - r, -c.position.y + lifts[c.id][1] - r,
                      c.position.x + lifts[c.id][0] + r, -c.position.y + lifts[c.id][1] + r) for c in enc.combatants]
            for a in boxes:
                assert not any(_overlap(a, d) for d in discs)
            if selected:
                assert labels[selected]["variant"] == 0  # its name and notes, whole
    # and the markup holds exactly the placed labels: one name line per label placed with one
    enc = _melee()
    view, r, labels, _ = _boxes(enc, "c1")
    plan = mapview.map_parts(enc, "c1")["plan"]
    assert plan.count('<text class="name"') == sum(1 for p in labels.values() if p["lines"][0][0] == "name")


def _sr_or_rb(ruleset):
    presets = get_ruleset(ruleset).presets()
    people = []
    for i, (n, x, y, a) in enumerate(MELEE):
        p = {k: v for k, v in presets[i % len(presets)].items() if k != "flying"}
        people.append(({**p, "name": n, "side": "party" if i < 4 else "foes"}, x, y, a))
    return _enc(ruleset, people)


def test_issue_10_every_token_has_its_own_initials():
    """Issue 10: "repeated initials make tokens indistinguishable ... every token is distinguishable": names that
    share initials are numbered, a number in the name is kept, and nothing is left the same."""
    enc = _melee()
    got = mapview.token_initials(enc)
    assert len(set(got.values())) == len(got)
    assert [got[f"c{i}"] for i in (1, 2, 7, 8, 9)] == ["HF1", "HF2", "G1", "G2", "G3"]
    assert got["c5"] == "GW1" and got["c6"] == "GW2" and got["c10"] == "GA"
    enc = _enc(people=[({"name": "Goblin 1"}, 0, 0, 0), ({"name": "Guard"}, 2, 0, 0), ({"name": "Gnoll"}, 4, 0, 0),
                       ({"name": "Goblin 12"}, 6, 0, 0)])
    assert mapview.token_initials(enc) == {"c1": "G1", "c2": "G2", "c3": "G3", "c4": "G12"}
    assert '>G12</text>' in mapview.map_parts(enc, None)["plan"]


def test_issue_10_adjacent_tokens_shrink_so_they_do_not_cover_each_other():
    """Tokens a metre or two apart touch instead of stacking; never below half size."""
    enc = _melee()
    view = mapview.fit_view(enc)
    r = mapview.token_radius(view, enc)
    assert view[2] / 48 <= r < view[2] / 24
    far = _enc(people=[({"name": "A"}, 0, 0, 0), ({"name": "B"}, 40, 0, 0)])
    assert mapview.token_radius(mapview.fit_view(far), far) == mapview.fit_view(far)[2] / 24


def _token_radius_against_every_pair(view, enc):
    """``token_radius`` as it was before its grid (issue 11): every pair of tokens measured."""
    import math

    full = view[2] / 24
    if len(enc.combatants) < 2:
        return full
    pts = [(c.position.x, c.position.y) for c in enc.combatants]
    gaps = [math.hypot(ax - bx, ay - by) for i, (ax, ay) in enumerate(pts) for bx, by in pts[i + 1:]]
    gaps = [g for g in gaps if g > full / 4]
    return max(full / 2, min(full, min(gaps) / 2)) if gaps else full


def test_issue_11_token_size_from_near_neighbours_only_is_the_same():
    """Issue 10's "adjacent tokens touch instead of covering each other" rule, worked out from each
    token's neighbours in a grid (issue 11: a map of 200 redrawn on every Next): the same radius as
    measuring every pair, on maps sparse, crowded, stacked and wide."""
    import random

    rnd = random.Random(11)
    for trial in range(400):
        n = rnd.choice([0, 1, 2, 5, 30, 120])
        w = rnd.choice([3, 20, 100, 800])
        people = [({"name": f"T{i}"}, rnd.choice([rnd.uniform(-w, w), float(rnd.randint(-3, 3))]),
                   rnd.uniform(-w, w) if rnd.random() < .7 else 0.0, 0) for i in range(n)]
        enc = _enc(people=people)
        view = [0.0, 0.0, rnd.choice([4.0, 24.0, 120.0, 600.0]), 10.0]
        assert mapview.token_radius(view, enc) == _token_radius_against_every_pair(view, enc), trial


def test_issue_11_labels_placed_again_for_the_same_inputs_are_the_same_answer():
    """Issue 11, one action's re-render: a Next that moves nobody asks ``place_labels`` the same
    question; it is answered from the last answers (``PLACED_KEPT`` of them), and a changed input
    (a label's text, a disc, the view) is placed afresh."""
    enc = _melee()
    view = mapview.fit_view(enc)
    maplabels._PLACED.clear()
    first = mapview.map_parts(enc, None, view)
    kept = dict(maplabels._PLACED)
    assert kept and len(kept) <= maplabels.PLACED_KEPT
    again = mapview.map_parts(enc, None, view)
    assert again == first and all(maplabels._PLACED[k] is v for k, v in kept.items())
    wanted = [{"id": "a", "cx": 0.0, "cy": 0.0, "r": 1.0, "variants": [[("name", [("name", "Abc")], 1.0)]]}]
    one = maplabels.place_labels(wanted, [], [-10.0, -10.0, 20.0, 20.0])
    assert one == maplabels._place_labels(wanted, [], [-10.0, -10.0, 20.0, 20.0])
    wanted[0]["variants"] = [[("name", [("name", "A much longer name")], 1.0)]]
    other = maplabels.place_labels(wanted, [], [-10.0, -10.0, 20.0, 20.0])
    assert other == maplabels._place_labels(wanted, [], [-10.0, -10.0, 20.0, 20.0]) and other != one
    for i in range(3 * maplabels.PLACED_KEPT):
        maplabels.place_labels(wanted, [], [-10.0 - i, -10.0, 20.0, 20.0])
    assert len(maplabels._PLACED) == maplabels.PLACED_KEPT


def test_issue_10_the_view_changes_only_when_the_gm_changes_it():
    """Issue 10: "the map re-zooms itself after a drag (grid 10 m → 5 m) ... the view only changes when the GM
    changes it". The first fit is kept while every token is in sight; a token off the edge fits again; the
    GM's own pan or zoom always wins; "Fit all" (forgetting both) fits tight again."""
    enc = _enc(people=[({"name": "A"}, 0, 0, 0), ({"name": "B"}, 30, 10, 0)])
    ui = UiState()
    first = mapview.view_for(enc, ui)
    assert mapview.grid_step(first[2]) == 5
    enc, _ = apply(enc, {"type": "move", "id": "c2", "x": 8, "y": 2, "alt": 0})  # a drag closer in
    assert mapview.view_for(enc, ui) == first and mapview.fit_view(enc) != first
    enc, _ = apply(enc, {"type": "move", "id": "c2", "x": 200, "y": 2, "alt": 0})  # off the edge: fit again
    wider = mapview.view_for(enc, ui)
    assert wider != first and mapview.shows_everyone(enc, wider)
    ui.map_view = [0, 0, 10, 10]  # the GM zoomed
    assert mapview.view_for(enc, ui) == [0, 0, 10, 10]
    ui.map_view = ui.map_fit = None
    assert mapview.view_for(enc, ui) == mapview.fit_view(enc)


def test_issue_10_side_view_names_only_those_in_the_air_and_the_selected():
    """Issue 10: "the side view is unreadable with 12 combatants": those on the ground are one line of
    markers (named on hover, counted), the selected one and every flyer are named, no two names overlapping."""
    enc = _melee()
    elev = mapview.map_parts(enc, "c3")["elev"]
    assert "Bat 9 m" in elev and ">Astrid</text>" in elev and ">Ulf</text>" not in elev
    assert "11 on the ground" in elev and "<title>Ulf: altitude 0 m</title>" in elev


def test_issue_10_selection_halo_is_a_thin_ring():
    """Issue 10: "on a tablet the selection halo is a large blob": the halo has no width in metres (the style
    sheet draws it 3 px wide at any zoom) and sits just outside the disc."""
    enc = _melee()
    plan = mapview.map_parts(enc, "c1")["plan"]
    halo = re.search(r'<circle class="halo"[^>]*>', plan).group(0)
    assert "stroke-width" not in halo


def test_issue_10_a_flyer_is_not_drawn_over_another_token():
    """Every token distinguishable: the bat 9 m above the melee stands on its stalk where its disc covers no
    other token's."""
    enc = _melee()
    view = mapview.fit_view(enc)
    r = mapview.token_radius(view, enc)
    lifts = mapview.lift_offsets(enc, r)
    bat = next(c for c in enc.combatants if c.name == "Bat")
    bx, by = bat.position.x + lifts[bat.id][0], -bat.position.y + lifts[bat.id][1]
    assert lifts[bat.id] != (0.0, 0.0)
    for c in enc.combatants:
        if c.id != bat.id:
            assert ((c.position.x - bx) ** 2 + (-c.position.y - by) ** 2) ** .5 >= 2 * r


class _EveryBox(maplabels._Boxes):
    """``maplabels._Boxes`` as it was before its grid (issue 11): each question asks every box."""

    def add(self, b):
        self.all.append(b)

    def remove(self, b):
        self.all[:] = [o for o in self.all if o is not b]

    def near(self, box):
        return [o for o in self.all if maplabels._hits(box, o)]

    def hits(self, box, skip=None):
        return any(o is not skip and maplabels._hits(box, o) for o in self.all)


def _place_labels_testing_every_box(wanted, obstacles, view, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(maplabels, "_Boxes", _EveryBox)
        return maplabels._place_labels(wanted, obstacles, view)


def test_issue_11_labels_placed_on_a_grid_are_the_ones_testing_every_box_gives(monkeypatch):
    """The grid only skips boxes that cannot overlap: crowds of every density, big and tiny
    obstacles, a box as large as the view, give the very placements of the brute-force search."""
    import random

    rnd = random.Random(3)
    for trial in range(60):
        view = [rnd.uniform(-50, 0), rnd.uniform(-50, 0), rnd.uniform(5, 120), rnd.uniform(5, 120)]
        n = rnd.choice([3, 20, 80, 200])
        discs, wanted = [], []
        for i in range(n):
            cx = view[0] + rnd.uniform(0, view[2])
            cy = view[1] + rnd.uniform(0, view[3])
            r = rnd.uniform(0.2, 2.5) * view[2] / 60
            disc = (cx - r, cy - r, cx + r, cy + r)
            discs.append(disc)
            name = "W" * rnd.randint(1, 14)
            lines = [("name", [("name", name)], r * 0.9)]
            full = lines + [("band", [("m", "12 m"), ("band", "short")], r * 0.7)]
            wanted.append({"id": f"c{i}", "cx": cx, "cy": cy, "r": r, "own": disc, "far": rnd.random() < .8,
                           "must": rnd.random() < .5, "first": i == 0 and trial % 2 == 0,
                           "variants": [full, lines][:rnd.randint(1, 2)]})
        obstacles = list(discs)
        if trial % 5 == 0:
            obstacles.append((view[0] - 1, view[1] - 1, view[0] + view[2] + 1, view[1] + view[3] / 10))
        if trial % 7 == 0:
            obstacles.append((view[0], view[1], view[0] + view[2], view[1] + view[3]))
        got = maplabels.place_labels(wanted, obstacles, view)
        assert got == _place_labels_testing_every_box(wanted, obstacles, view, monkeypatch), trial
    assert maplabels._Boxes([0, 0, 10, 10]).hits((0, 0, 1, 1)) is False


def _link_points(el: str) -> list[tuple[float, float]]:
    """The points an engagement link's markup passes through (a curve sampled finely)."""
    if el.startswith("<line"):
        v = {k: float(x) for k, x in re.findall(r'\b(x1|y1|x2|y2)="([-\d.]+)"', el)}
        return [(v["x1"] + (v["x2"] - v["x1"]) * t / 50, v["y1"] + (v["y2"] - v["y1"]) * t / 50) for t in range(51)]
    d = re.search(r'\bd="([^"]+)"', el).group(1)
    pts: list[tuple[float, float]] = []
    for cmd, nums in re.findall(r"([MLQ])([^MLQ]*)", d):
        n = [float(x) for x in nums.split()]
        if cmd == "Q":
            a, c, b = pts[-1], (n[0], n[1]), (n[2], n[3])
            pts += [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
                     (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]) for t in (i / 200 for i in range(1, 201))]
        elif cmd == "L":
            a, b = pts[-1], (n[0], n[1])
            pts += [(a[0] + (b[0] - a[0]) * t / 50, a[1] + (b[1] - a[1]) * t / 50) for t in range(1, 51)]
        else:
            pts.append((n[0], n[1]))
    return pts


def test_an_engagement_link_never_passes_over_a_third_tokens_disc():
    """A GM's play-through: links were straight lines token to token and ran through the ally standing
    between. A link whose straight line is clear stays a line; one that would cross a third token bends
    round it (the least bend, either side), or, with no way round, is a stub out of each token."""
    r = 0.4
    assert maplinks.link_route((0, 0), (4, 0), [(2, 3)], r) == ("line", "")
    kind, d = maplinks.link_route((0, 0), (4, 0), [(2, 0)], r)  # the ally right between
    assert kind == "routed" and d.startswith("M0 0Q")
    pts = _link_points(f'<path d="{d}" />')
    assert pts[0] == (0, 0) and pts[-1] == (4, 0)
    assert min(math.hypot(x - 2, y) for x, y in pts) > r
    # two between, on both sides of the line: still bent clear of both
    kind, d = maplinks.link_route((0, 0), (6, 0), [(2, 0.3), (4, -0.3), (3, 1.5)], r)
    assert kind == "routed"
    pts = _link_points(f'<path d="{d}" />')
    assert all(math.hypot(x - ox, y - oy) > r for ox, oy in [(2, 0.3), (4, -0.3), (3, 1.5)] for x, y in pts)
    # one end hemmed in by a ring of tokens: no way round; a stub out of the other token, short of the ring
    ring = [(math.cos(a * math.pi / 4), math.sin(a * math.pi / 4)) for a in range(8)]
    kind, d = maplinks.link_route((0, 0), (4, 0), ring, r)
    assert kind == "stub" and "M4 0L" in d
    for stub in ("M" + x for x in d.split("M")[1:]):
        pts = _link_points(f'<path d="{stub}" />')
        assert all(math.hypot(x - ox, y - oy) > r for ox, oy in ring for x, y in pts)
        assert math.dist(pts[0], pts[-1]) > r  # out past its own disc, where it is seen


def test_a_plan_drawn_again_with_nobody_moved_routes_no_link_again():
    """A wound, a note or a declaration redraws the plan with every token where it was: routing a dozen
    engagement links round a crowd was most of an action's time (bench, a 12-combatant strike-rank round),
    so a link is routed once for each geometry, and drawn the same."""
    p = next(p for p in get_ruleset("strike-rank").presets() if p["name"] == "Human warrior")
    enc = _enc("strike-rank", [({**p, "name": "Vasana", "side": "party"}, 0, 0, 0), ({**p, "name": "Broo"}, 2.8, 0, 0),
                               ({**p, "name": "Ally", "side": "party"}, 1.4, 0.1, 0)])
    maplinks._route.cache_clear()
    first = mapview.map_parts(enc, None)["plan"]
    routed = maplinks._route.cache_info()
    assert routed.misses >= 1 and 'class="engaged' in first
    again = mapview.map_parts(enc, None)["plan"]
    assert again == first
    assert maplinks._route.cache_info().misses == routed.misses  # nothing routed again
    # one moved: its links are routed for where it now stands
    moved = _enc("strike-rank", [({**p, "name": "Vasana", "side": "party"}, 0, 0, 0), ({**p, "name": "Broo"}, 2.8, 0, 0),
                                 ({**p, "name": "Ally", "side": "party"}, 1.4, 1.9, 0)])
    mapview.map_parts(moved, None)
    assert maplinks._route.cache_info().misses > routed.misses


def test_the_plan_draws_no_link_over_an_ally_between():
    """The plan as drawn: Vasana and the broo she fights with an ally between them."""
    p = next(p for p in get_ruleset("strike-rank").presets() if p["name"] == "Human warrior")
    enc = _enc("strike-rank", [({**p, "name": "Vasana", "side": "party"}, 0, 0, 0), ({**p, "name": "Broo"}, 2.8, 0, 0),
                               ({**p, "name": "Ally", "side": "party"}, 1.4, 0.1, 0)])
    plan = mapview.map_parts(enc, None)["plan"]
    r = mapview.token_radius(mapview.fit_view(enc), enc)
    links = re.findall(r'<(?:line|path) class="engaged[^"]*" data-link="(\w+) (\w+)"[^>]*>', plan)
    assert ("c1", "c2") in links
    for el in re.findall(r'<(?:line|path) class="engaged[^"]*"[^>]*>', plan):
        a, b = re.search(r'data-link="(\w+) (\w+)"', el).groups()
        pts = _link_points(el)
        for c in enc.combatants:
            if c.id not in (a, b):
                assert min(math.hypot(x - c.position.x, y + c.position.y) for x, y in pts) > r, (el, c.name)


def test_the_fallen_are_drawn_under_the_standing():
    """A GM's play-through: a dead creature's cross, drawn after the scout who stood where it fell, hid the
    scout, on the GM's map and the players'. The fallen are drawn first, so the standing are on top."""
    enc = _enc(people=[({"name": "Scout", "side": "party"}, 2, 2, 0), ({"name": "Wolf", "side": "foes"}, 2, 2.2, 0)])
    enc, _ = apply(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    plan = mapview.map_parts(enc, None)["plan"]
    assert plan.index('data-token="c2"') < plan.index('data-token="c1"')
    from fray.players import project
    from fray.web.players_render import players_html
    rs = get_ruleset(enc.ruleset)
    view = players_html(project(enc, rs.view(enc), rs.order_of_play(enc)))
    assert view.index('data-id="c2"', view.index("<svg")) < view.index('data-id="c1"', view.index("<svg"))


# A GM's play-through, strike-rank at 768x1024 (c1..c12; Knight 1 dead)
CROWD = [("Human warrior", "Knight 1", "party", 0, 0), ("Human warrior", "Knight 2", "party", 0, 2),
         ("Human warrior", "Knight 3", "party", -2, 1), ("Archer", "Archer", "party", -6, 0),
         ("Human warrior", "Bandit 1", "foes", 2, 1), ("Human warrior", "Bandit 2", "foes", 2, 3),
         ("Human warrior", "Bandit 3", "foes", 2.5, -.5), ("Human warrior", "Bandit 4", "foes", 3.5, 1.5),
         ("Great wolf (four-legged)", "Great wolf", "foes", 1, -2), ("Gorp (single location)", "Gorp", "foes", -2, -2),
         ("Crossbowman", "Crossbowman", "foes", 8, 4), ("Human warrior", "Bandit 5", "foes", 5, -3)]


def _crowd():
    presets = {p["name"]: p for p in get_ruleset("strike-rank").presets()}
    enc = _enc("strike-rank", [({**presets[w], "name": n, "side": s}, x, y, 0) for w, n, s, x, y in CROWD])
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "dead"})
    return enc


def test_every_token_in_a_crowd_has_a_label_that_names_it_beside_its_own_token():
    """A GM's play-through: "no "Great wolf", "Bandit 2/3/4" or dead "Knight 1" labels on the GM's map;
    with Knight 3 selected, "8.8 m" appears by token B1 with no name, while "Bandit 3 7.8 m" sits over the
    B1/B3 pair". Every token gets a label; each names its token (the name, or the initials on its disc),
    never a distance alone; one beside its token is clearly nearer that token than any other, and one
    further out has a leader to it; still no two overlap."""
    enc = _crowd()
    initials = mapview.token_initials(enc)
    for selected in (None, "c3", "c5"):
        view, r, labels, rings = _boxes(enc, selected)
        assert sorted(labels) == sorted(c.id for c in enc.combatants), selected
        lifts = mapview.lift_offsets(enc, r)
        centres = {c.id: (c.position.x + lifts[c.id][0], -c.position.y + lifts[c.id][1]) for c in enc.combatants}
        for c in enc.combatants:
            p = labels[c.id]
            first = p["lines"][0][1][0][1]
            assert first in (c.name, initials[c.id]), (selected, c.name, p["lines"])
            if p["far"]:
                continue  # its leader line says whose it is
            mine = maplabels._gap(p["box"], *centres[c.id], p["disc"][2])
            for o, (ox, oy) in centres.items():
                if o != c.id:
                    assert maplabels._gap(p["box"], ox, oy, r) >= mine, (selected, c.name, o)
        boxes = [p["box"] for p in labels.values()] + [p["box"] for p in rings.values()]
        assert not any(_overlap(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]), selected
    # the selected one's label is its name and the distances stay on the others' as far as room allows
    _, _, labels, _ = _boxes(enc, "c3")
    assert labels["c3"]["variant"] == 0
    assert sum(1 for p in labels.values() if any(k == "dist" for _, spans, _ in p["lines"] for k, _ in spans)) >= 8
