"""The players' window markup (issue 12): "It shows the order of play and who acts now, names,
the map with tokens" and "has no controls that change the encounter"."""

from __future__ import annotations

import re
from pathlib import Path

from fray.web.players_render import players_html

P = {"name": "Ford <night>", "round": 2, "phase": "turns", "phase_label": "", "wounds": "described",
     "current": "c1",
     "order": [{"id": "c1", "name": "Bran", "current": True}, {"id": "c3", "name": "Ferryman", "current": False}],
     "combatants": [{"id": "c1", "name": "Bran", "side": "party", "wounds": "hurt", "x": 0, "y": 0, "alt": 0},
                    {"id": "c3", "name": "Ferryman", "side": "neutral", "wounds": "", "x": 0, "y": 0, "alt": 0}]}


def test_order_current_names_and_tokens():
    html = players_html(P)
    assert "Ford &lt;night&gt;" in html and "Now: <strong>Bran</strong>" in html
    assert html.count('class="pv-token') == 2 and '<span class="pv-wound">hurt</span>' in html


def test_no_controls():
    assert not re.search(r"<(button|input|select|textarea|form)\b|data-act", players_html(P))


def _ground(html: str) -> dict[str, tuple[float, float]]:
    """Each token's ground point in the drawing: its group's translation."""
    return {i: (float(x), float(y)) for i, x, y in
            re.findall(r'<g class="pv-token[^"]*" data-id="([^"]+)" transform="translate\(([-\d.]+) ([-\d.]+)\)"', html)}


def _transform(html: str) -> tuple[float, float, float]:
    m = re.search(r'data-scale="([\d.]+)" data-cx="([-\d.]+)" data-cy="([-\d.]+)"', html)
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def test_every_token_stands_where_the_encounter_has_it():
    """Issue 33, "The players' map tells the truth": "tactical-round, Aldric at (8, 0) beside Tobin at
    (−6, 0); range-band, the horse Grey about 10 m from its rider Kael though both stand at (15, 0)".
    "The players' map must place every token it shows exactly where the GM's map does (same
    geometry, its own zoom)": a rider and his horse on one spot stay on one spot, and each token maps
    back to its metres through the drawing's own transform."""
    cs = [{"id": "c1", "name": "Aldric", "side": "party", "wounds": "", "x": 8, "y": 0, "alt": 0},
          {"id": "c2", "name": "Tobin", "side": "party", "wounds": "", "x": -6, "y": 0, "alt": 0},
          {"id": "c3", "name": "Kael", "side": "party", "wounds": "", "x": 15, "y": 0, "alt": 0},
          {"id": "c4", "name": "Grey", "side": "party", "wounds": "", "x": 15, "y": 0, "alt": 0},
          {"id": "c5", "name": "Orc 1", "side": "foes", "wounds": "", "x": 20, "y": 12.5, "alt": 0}]
    html = players_html(dict(P, combatants=cs, order=[{"id": c["id"], "name": c["name"], "current": False} for c in cs]))
    at = _ground(html)
    assert at["c3"] == at["c4"]
    scale, cx, cy = _transform(html)
    for c in cs:
        x, y = at[c["id"]]
        assert abs((x - 500) / scale + cx - c["x"]) < 0.01 and abs(-(y - 360) / scale + cy - c["y"]) < 0.01, c


def test_the_players_see_who_is_down_prone_or_flying():
    """Issue 33: "Dead, prone and knocked-down combatants look normal there ... show the states the
    players can see (down, prone, flying height)"."""
    cs = [{"id": "c1", "name": "Broo 1", "side": "foes", "wounds": "", "x": 0, "y": 0, "alt": 0, "states": ["down"]},
          {"id": "c2", "name": "Vasana", "side": "party", "wounds": "", "x": 6, "y": 0, "alt": 0, "states": ["prone"]},
          {"id": "c3", "name": "Hawk", "side": "party", "wounds": "", "x": 3, "y": 4, "alt": 12, "states": []}]
    html = players_html(dict(P, combatants=cs, order=[]))
    assert re.search(r'class="pv-token side-foes[^"]*down"[^>]*>.*?<path class="pv-cross"', html)
    assert re.search(r'class="pv-token side-party prone"[^>]*>.*?<ellipse class="pv-disc"', html)
    hawk = re.search(r'class="pv-token side-party airborne"[^>]*data-id="c3".*?</g>', html).group(0)
    assert '<line class="pv-stalk"' in hawk and "12 m up" in hawk


def _boxes(html: str) -> list[tuple[float, float, float, float]]:
    """Each drawn label's box, from its text's anchor, size and length (as place_labels measures)."""
    from fray.web.maplabels import CHAR_EM

    out = []
    for x, y, size, anchor, text in re.findall(
            r'<text class="pv-label" x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)" text-anchor="(\w+)"[^>]*>([^<]*)<',
            html):
        x, y, size = float(x), float(y), float(size)
        w = len(text) * size * CHAR_EM
        x0 = x - w / 2 if anchor == "middle" else (x - w if anchor == "end" else x)
        out.append((x0, y - size, x0 + w, y))
    return out


def test_a_dozen_on_one_spot_have_labels_that_never_overlap():
    """Issue 10, the map at table density: "Labels must never overlap (place them, or show them on
    selection), every token is distinguishable": the players' map places its labels as the GM's does."""
    cs = [{"id": f"c{i}", "name": f"Goblin {i}" if i > 6 else f"Hero {i}", "side": "foes" if i > 6 else "party",
           "wounds": "", "x": (i % 3) * 1.0, "y": 0, "alt": 0} for i in range(1, 13)]
    p = dict(P, current="c7", order=[{"id": c["id"], "name": c["name"], "current": c["id"] == "c7"} for c in cs],
             combatants=cs)
    html = players_html(p)
    boxes = _boxes(html)
    assert len(boxes) >= 6  # most have room; the rest keep their name in the token's tooltip
    assert "Goblin 7" in re.findall(r'class="pv-label"[^>]*>([^<]*)<', html)  # the one acting comes first
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)
        assert 0 <= a[0] and a[2] <= 1000 and 0 <= a[1] and a[3] <= 720
    # distinct initials, as on the GM's map: G7..G12 and H1..H6
    initials = re.findall(r'class="pv-initial[^"]*"[^>]*>([^<]*)<', html)
    assert len(set(initials)) == 12 and "G12" in initials


def _fight(n: int) -> dict:
    cs = [{"id": f"c{i}", "name": f"Goblin {i}", "side": "foes", "wounds": "", "x": i, "y": 0, "alt": 0}
          for i in range(1, n + 1)]
    return {**P, "current": "c1", "combatants": cs,
            "order": [{"id": c["id"], "name": c["name"], "current": c["id"] == "c1"} for c in cs]}


def test_a_long_order_of_play_goes_into_more_columns_not_off_the_screen():
    """The players' view is "readable across a table" on a screen nobody scrolls: up to 10 rows
    stay one column of large type; more take the denser layouts of players.css, each row kept."""
    from fray.web.players_render import order_density

    def body_class(n: int) -> str:
        return re.search(r'<div class="(pv-body[^"]*)"', players_html(_fight(n))).group(1)

    assert [body_class(n) for n in (1, 10, 11, 22, 23, 45, 46, 80, 81, 200)] == [
        "pv-body", "pv-body", "pv-body dense-2", "pv-body dense-2", "pv-body dense-3", "pv-body dense-3",
        "pv-body dense-4", "pv-body dense-4", "pv-body dense-5", "pv-body dense-5"]
    assert players_html(_fight(30)).count('class="pv-slot') == 30
    assert order_density(0) == ""
    css = (Path(__file__).resolve().parents[2] / "static" / "players.css").read_text(encoding="utf-8")
    for cls in ("dense-2", "dense-3", "dense-4", "dense-5"):
        assert f".{cls} .pv-order ol {{ columns:" in css  # each class the renderer writes is styled


def _label_texts(html: str) -> dict[str, str]:
    """Each token's drawn label, its lines joined, by the token's id."""
    return {i: " ".join(re.findall(r"<text[^>]*>([^<]*)<", g)) for i, g in
            re.findall(r'<g class="pv-label-at" data-label-for="([^"]+)">(.*?)</g>', html)}


def test_every_fallen_token_is_labelled_down_even_in_a_crowd():
    """Issue 33: "show the states the players can see (down, prone, flying height)". A GM's play-through
    (strike-rank, Melee Round 4): the dead "Broo 2" and "Far Broo 2" were labelled without "· down" where
    the crowd left their full label no room, while other dead had it."""
    cs = [{"id": f"c{i}", "name": (f"Far Broo {i}" if i % 2 else f"Broo {i}") if i > 4 else f"Spearmaiden {i}",
           "side": "foes" if i > 4 else "party", "wounds": "", "x": (i % 4) * 1.0, "y": (i // 4) * 1.0, "alt": 0,
           "states": ["down"] if i in (5, 6, 9, 10, 12) else []} for i in range(1, 15)]
    p = dict(P, current="c1", order=[{"id": c["id"], "name": c["name"], "current": c["id"] == "c1"} for c in cs],
             combatants=cs)
    labels = _label_texts(players_html(p))
    down = [c for c in cs if c["states"]]
    assert all(c["id"] in labels for c in down)
    assert all(labels[c["id"]].endswith("· down") for c in down), {c["name"]: labels[c["id"]] for c in down}


def test_every_token_in_a_crowd_at_one_spot_is_named_in_full():
    """Issue 33: "The players' map must place every token it shows exactly where the GM's map does". A GM's
    play-through (p6): with four foes at one band the players' window read "BC" for "Bandit Captain Morrow the
    Twice-Hanged" where the GM's map named him: a label that is the name alone was not counted as the name, so it
    was never placed before the fuller labels took the room."""
    spot = [("Kael Stormrider of the Eastern Marches", "party", 0, 0, 0), ("Grey", "party", 0, 0, 0),
            ("Wren", "party", 4, 6, 40), ("Sly", "party", 6, -6, 0), ("Mark", "party", 2, 3, 0),
            ("Broo 2 the Unwashed Goat-headed", "foes", 40, 0, 0), ("Bandit 3", "foes", 40, 0, 0),
            ("Bandit Captain Morrow the Twice-Hanged", "foes", 40, 0, 0), ("Bandit's Nag", "foes", 40, 0, 0)]
    cs = [{"id": f"c{i}", "name": n, "side": s, "wounds": "", "x": x, "y": y, "alt": a,
           "states": ["down"] if n == "Bandit's Nag" else []} for i, (n, s, x, y, a) in enumerate(spot, 1)]
    p = dict(P, current=None, order=[{"id": c["id"], "name": c["name"], "current": False} for c in cs], combatants=cs)
    labels = {i: t.replace("&#x27;", "'") for i, t in _label_texts(players_html(p)).items()}
    assert {c["id"]: labels.get(c["id"]) for c in cs if c["name"] not in labels.get(c["id"], "")} == {}
