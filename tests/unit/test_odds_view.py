"""web/odds_view: the shared parts of the odds as the page shows them (pure, CPython): the slot,
the bars, the head line, "no odds". Each game's own renderer lives in its folder
(games/<game>/web/odds.py) and is tested in tests/games/<game>/ (test_*_odds_html.py). Every
piece of text is escaped and nothing carries an inline style (the page's
Content-Security-Policy runs none)."""

from __future__ import annotations

from pathlib import Path

from fray.web import odds_view
from fray.web.html import Markup, h

HOSTILE = '<img src=x onerror="alert(1)">'


def test_the_slot_is_where_refresh_writes_as_markup_and_as_a_plain_string():
    slot = odds_view.slot()
    assert slot == '<div class="odds" data-odds><p class="hint">Working out the odds…</p></div>'
    assert h("form", None, slot) == f"<form>{slot}</form>"  # the builder takes it as markup
    assert "<b>" + slot + "</b>" == f"<b>{slot}</b>"  # a panel still adding strings: nothing escaped


def test_bars_are_svg_attributes_with_escaped_titles():
    svg = odds_view.bars([(HOSTILE, 0.25), ("two", 0.5)], HOSTILE, 100, 20)
    assert isinstance(svg, Markup) and "style=" not in svg and "<img" not in svg
    assert svg.startswith('<svg class="odds-bars" viewBox="0 0 100 20" width="100" height="20" role="img" '
                          'aria-label="&lt;img')
    # the taller bar fills the height less 2 px; the other is half of it
    assert '<rect x="50.5" y="2.0" width="49.0" height="18.0"><title>two: 50%</title></rect>' in svg
    assert 'y="11.0" width="49.0" height="9.0"' in svg
    assert odds_view.bars([], "none") == ""


def test_head_none_and_notes_escape_their_text():
    assert odds_view.head(HOSTILE) == ('<p class="odds-head"><strong>Odds before rolling</strong> <span class='
                                       '"odds-method" title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;">exact'
                                       '</span></p>')
    assert "<img" not in odds_view.none_box(HOSTILE) and "No odds: &lt;img" in odds_view.none_box(HOSTILE)
    assert odds_view.notes([HOSTILE]) == '<ul class="odds-notes"><li>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</li></ul>'
    assert odds_view.notes([]) == ""


def test_no_game_renderer_is_left_here():
    """Issue 34: the page finds a game's odds renderer through the game (its panel's ``odds`` hook,
    drawn by games/<game>/web/odds.py), never in a list of games here."""
    text = (Path(odds_view.__file__)).read_text(encoding="utf-8")
    for name in ("exchange_html", "open_ended_html", "spec_html", "strike_rank", "tactical_round", "range_band",
                 "esc("):
        assert name not in text
