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


def test_tokens_on_one_spot_stand_apart():
    xs = re.findall(r'<circle cx="([\d.]+)"', players_html(P))
    assert len(set(xs)) == 2


def _boxes(html: str) -> list[tuple[float, float, float, float]]:
    """Each drawn label's box, from its text's anchor, size and length (as place_labels measures)."""
    from fray.web.mapview import CHAR_EM

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
