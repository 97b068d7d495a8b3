"""The map, the party dialog, the tables dialog and the players' window on the markup builder
(issue 34, "Markup that escapes by default"): what a GM types (a combatant's, an area's, a
character's name, a table's cell) never becomes an element, and the views hand back ``Markup``, so
their output can go into any other element as it is and is never escaped twice or not at all."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from fray import players
from fray.games import get_ruleset
from fray.party import campaign, character
from fray.reducer import apply, new_encounter
from fray.web import mapview, party_view, players_render, tables_view
from fray.web.html import Markup

from html_checks import tags

PY = Path(__file__).resolve().parents[2] / "py"
EVIL = "<img src=x onerror=alert(1)>"
SHOWN = "&lt;img src=x onerror=alert(1)&gt;"  # the same, as text
GAMES = ("strike-rank", "tactical-round", "range-band", "freeform")
# the web files converted to the builder, which must build no markup by hand
CONVERTED = ("mapview.py", "party_view.py", "tables_view.py", "players_render.py", "players_view.py", "mapctl.py",
             "library_dialogs.py", "autosave.py", "stripctl.py")


def assert_inert(out: str, where: str) -> None:
    """No element and no attribute came from the hostile text, and the text is there, escaped."""
    assert isinstance(out, Markup), f"{where}: not Markup"
    found = tags(out)
    assert not [t for t, _ in found if t == "img"], f"{where}: a hostile <img> is live"
    assert not [a for _, attrs in found for a in attrs if a.startswith("on")], f"{where}: a hostile attribute is live"
    assert SHOWN in out, f"{where}: the hostile text is not shown, so nothing was checked"


def fight(game: str):
    """Four combatants named with the hostile text: on the ground, in the air, prone, under water;
    in range-band, an area named with it too."""
    rs = get_ruleset(game)
    base = (rs.presets() or [{}])[0]
    enc = new_encounter(game, EVIL)
    for i, (x, y, alt) in enumerate([(0, 0, 0), (3, 1, 12), (1, 1, 0), (6, 0, -3)]):
        c = {**base, "name": f"{EVIL} {i}", "side": ("party", "foes")[i % 2], "position": {"x": x, "y": y, "alt": alt}}
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c3", "condition": "prone", "on": True})
    if game == "range-band":
        enc, _ = apply(enc, {"type": "rb.area", "kind": "obstacle", "x": 2, "y": 0, "radius": "short", "name": EVIL})
    return rs, enc


@pytest.mark.parametrize("game", GAMES)
def test_the_map_draws_hostile_names_as_text(game):
    rs, enc = fight(game)
    for sel in (None, "c1", "c2"):
        parts = mapview.map_parts(enc, sel)
        for key in ("plan", "elev", "info") if sel else ("plan", "elev"):
            assert_inert(parts[key], f"{game}: the map's {key}, {sel} selected")
    if game == "range-band":  # the area's name, on the plan and in the side view
        areas = mapview.map_parts(enc, None)
        assert 'data-area="A1"' in areas["plan"] and 'data-area="A1"' in areas["elev"]
        assert f"<title>{SHOWN} (A1)" in areas["plan"]


@pytest.mark.parametrize("game", GAMES)
def test_the_players_window_draws_hostile_names_as_text(game):
    rs, enc = fight(game)
    view = rs.view(enc)
    p = players.project(enc, view, rs.order_of_play(enc))
    assert_inert(players_render.players_html(p), f"{game}: the players' window")
    assert_inert(players_render.players_html({**p, "current": "c1"}), f"{game}: the players' window, c1 acting")
    assert_inert(players_render.settings_dialog(enc, view), f"{game}: the players' view dialog")


STATS = {"STR": 13, "CON": 13, "SIZ": 13, "INT": 13, "POW": 13, "DEX": 13, "CHA": 13}


def test_the_party_dialog_draws_hostile_names_as_text():
    camp = campaign.add_character(campaign.empty(), character.new("strike-rank", {"name": EVIL, "stats": STATS}, "k1"))
    camp = campaign.add_character(camp, character.new("strike-rank", {"name": EVIL + "2", "stats": STATS}, "k2"))
    enc, _ = apply(new_encounter("strike-rank"), campaign.join_action(camp, "strike-rank", ["k1"]))
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": EVIL + " kept", "stats": STATS}})
    make = party_view.make_html(get_ruleset("strike-rank").presets(), [{"combatant": {"name": EVIL}}], EVIL)
    assert_inert(make, "the Make list")
    out = party_view.party_html(camp, enc, EVIL, EVIL, "", make)
    assert_inert(out, "the party")
    assert f'<span class="who">{SHOWN}</span> <span class="hint">' in out  # in this fight
    assert f'aria-label="{SHOWN}2 joins this fight"> <span class="who">{SHOWN}2</span></label>' in out
    assert f"Keep {SHOWN} kept</button>" in out
    assert_inert(party_view.end_html(enc), "End the fight")
    assert_inert(party_view.change_html(campaign.character(camp, "k2")), "Change")
    assert_inert(party_view.time_html(camp, "strike-rank"), "Time passes")


def test_the_tables_dialog_draws_a_hostile_table_as_text():
    """A table as an installed game or a GM's edit could have it: its id, title, source, settings,
    columns and cells all hostile."""
    table = {"id": EVIL, "title": EVIL, "source": EVIL, "assumed": True, EVIL: EVIL, "yes": True,
             "entries": [{EVIL: EVIL, "n": 1, "ok": False, "more": [EVIL]}, {"n": 2}]}
    rs = SimpleNamespace(tables={EVIL: table})
    out = tables_view.tables_form(rs, SimpleNamespace(tables={}), saved=EVIL)
    assert_inert(out, "the tables dialog")
    assert f'<textarea id="t-{SHOWN}" name="value"' in out
    # each control has its label's id, the one place it was once put in by replacing text in markup
    assert f'<label for="ts-{SHOWN}-{SHOWN}">{SHOWN}</label><input id="ts-{SHOWN}-{SHOWN}" name="s.{SHOWN}"' in out
    assert f'<select id="ts-{SHOWN}-yes" name="s.yes" aria-label="yes"><option value="yes" selected>' in out


def _markup_fstrings(tree: ast.AST):
    """f-strings whose literal text opens or closes a tag: markup put together by hand."""
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
            if any(f"<{c}" in text for c in "abcdefghijklmnopqrstuvwxyz/"):
                yield node


@pytest.mark.parametrize("name", CONVERTED)
def test_the_converted_views_build_no_markup_by_hand(name):
    """No ``esc(`` and no f-string of markup: text reaches markup only through the builder."""
    tree = ast.parse((PY / "fray" / "web" / name).read_text(encoding="utf-8"))
    esc_calls = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and getattr(n.func, "id", getattr(n.func, "attr", None)) == "esc"]
    assert esc_calls == [], f"{name}: esc( at lines {esc_calls}"
    assert [n.lineno for n in _markup_fstrings(tree)] == [], f"{name}: markup built in an f-string"
