"""A game's stylesheet is the game's (issue 34: "The page finds a game's panel, stylesheet and odds
renderer through the game object, never by a string or a regex"): the page links none, each
game's is a file of its folder that its ruleset names, and an installed game's travels in its
wheel. Applying it is the page's (tests/e2e/test_game_style.py, test_plugin_game.py)."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from names import ROOT
from fray.games import BUILTIN, get_ruleset
from fray.games.base import Ruleset
from fray.web import game_style


def test_the_page_links_no_games_stylesheet_and_static_holds_none():
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    linked = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    assert linked and all(href.startswith("./static/") for href in linked)  # the page's own, never a game's folder
    assert not any(re.search(r"strike|tactical|range|d20", href) for href in linked), linked
    for ruleset_id in BUILTIN:
        rs = get_ruleset(ruleset_id)
        if rs.stylesheet:
            text = game_style.stylesheet_text(rs)
            # none of a game's rules is left in a stylesheet of the page's own
            first = re.search(r"^(\.[a-z0-9-]+)", text, re.M).group(1)
            for css in (ROOT / "static").glob("*.css"):
                assert not re.search(rf"^{re.escape(first)}\b", css.read_text(encoding="utf-8"), re.M), css


def test_the_example_wheel_ships_its_stylesheet(d20_wheel):
    with zipfile.ZipFile(d20_wheel) as z:
        assert ".d20-panel" in z.read("fray_d20/style.css").decode("utf-8")
        assert "fray_d20/style.css," in z.read("fray_d20-0.1.0.dist-info/RECORD").decode("utf-8")


def test_an_installed_games_stylesheet_is_read_from_where_pip_put_it(d20_installed, d20_site):
    assert Path(game_style.stylesheet_path(d20_installed)) == d20_site / "fray_d20" / "style.css"
    assert ".d20-panel" in game_style.stylesheet_text(d20_installed)


class _Named(Ruleset):
    id = "style-test"
    name = "Style test"
    panel = "fray.games.strike_rank.web.panel"
    stylesheet = "no-such.css"


def test_a_stylesheet_the_package_does_not_hold_is_an_error_not_an_empty_style():
    game_style.forget(_Named.id)
    with pytest.raises(OSError):
        game_style.stylesheet_text(_Named())
    game_style.forget(_Named.id)
