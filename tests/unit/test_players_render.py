"""The players' window markup (issue 12): "It shows the order of play and who acts now, names,
the map with tokens" and "has no controls that change the encounter"."""

from __future__ import annotations

import re

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
