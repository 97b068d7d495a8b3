"""Tactical-round's odds as the attack form shows them (games/tactical_round/web/odds.py, pure,
CPython): the open-ended total's spread as bars, the GM's bands, no inline style."""

from __future__ import annotations

from fray.games.tactical_round import odds as tr_odds
from fray.games.tactical_round.web import odds as odds_html
from fray.web.html import Markup
from tr_helpers import RS, SWORD, declare, fight, fighter, to_phase


def _odds(notes=()):
    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, DEF=30))
    enc = to_phase(declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"}), "melee")
    o = tr_odds.attack_odds(RS, enc, {"type": "tr.attack", "id": "c1", "target": "c2"})
    o.notes.extend(notes)
    return o


def test_open_ended_total_renders_its_spread():
    html = odds_html.open_ended_html(_odds())
    assert isinstance(html, Markup)
    assert "open-ended d100 + 20" in html and "Middle 90%" in html and "<svg" in html and "style=" not in html


def test_a_note_is_text_and_no_odds_say_why():
    html = odds_html.open_ended_html(_odds(["<script>x</script>"]))
    assert "<script>" not in html and "&lt;script&gt;x" in html
    none = odds_html.open_ended_html(tr_odds.AttackOdds(error="Bor <is> gone"))
    assert none == '<div class="odds-box"><p class="odds-none">No odds: Bor &lt;is&gt; gone</p></div>'


def test_a_band_reads_in_words():
    assert [odds_html.band_range(*b) for b in ((None, None), (None, 50), (76, None), (51, 75))] == [
        "any", "50 or less", "76 or more", "51 to 75"]
