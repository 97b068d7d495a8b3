"""The map's markup (fray.web.mapview): pure HTML strings, checked without a browser."""

from __future__ import annotations

import re

from fray.reducer import apply, new_encounter
from fray.rulesets import get_ruleset
from fray.web import mapview


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
    assert 'class="shadow"' in hawk and 'class="stalk"' in hawk and "↑20 m" in hawk and "flying" in hawk
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
    assert '<tr data-target="c2"><th scope="row">B &amp; B</th><td class="d" title="5.0 m">5.0 m</td>' in info
    assert "5.0 m" in mapview.map_parts(enc, "c1")["plan"]  # label on the plan too


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
    sneak = plan[plan.index('id="tok-c2"'):plan.index("</g>", plan.index('id="tok-c2"'))]
    hawk = plan[plan.index('id="tok-c3"'):plan.index("</g>", plan.index('id="tok-c3"'))]
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
