"""The map, a GM playing whole fights: "Gorp (single location)" was the token "G(" (initials come from the
name's words); the players' window's initials spilled over small tokens; and "+" zoomed on the middle of
the drawing, not on the fight."""

from __future__ import annotations

from fray.model import Combatant
from fray.reducer import apply, new_encounter
from fray.web import mapview, players_render


def _who(name: str) -> Combatant:
    return Combatant(id="c1", name=name)


def test_initials_come_from_the_names_words_not_its_brackets():
    assert mapview.initials_of(_who("Gorp (single location)")) == "G"
    assert mapview.initials_of(_who("Goblin (2)")) == "G"  # a number in brackets is a note, not the name's
    assert mapview.initials_of(_who("Orc [boss] 3")) == "O3"
    assert mapview.initials_of(_who("Ann-Marie Lee")) == "AL"
    assert mapview.initials_of(_who("(Gorp)")) == "G"  # all in brackets: its words
    assert mapview.initials_of(_who("Goblin 12")) == "G12" and mapview.initials_of(_who("Great wolf")) == "GW"
    assert mapview.initials_of(_who("((")) == "?"


def test_the_players_initials_are_sized_to_their_token():
    full = players_render.R_TOKEN
    assert players_render.initials_size("G", full) == 30  # a full token's initial as before
    for text in ("MW1", "WM", "G12", "HS"):
        for r in (full, full / 2):
            size = players_render.initials_size(text, r)
            # M and W about an em wide, a digit .7, any other capital at most .82: three quarters of the disc
            ems = sum(1.05 if ch in "MW" else .7 if ch.isdigit() else .82 for ch in text)
            assert size * ems <= 1.5 * r + 1e-9, (text, r, size)


def _fight():
    enc = new_encounter("freeform", "zoom")
    for name, x, y in (("Ann", 0, 0), ("Orc", 6, 0), ("Bo", 3, 4), ("Old corpse", 60, 40)):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": name, "position": {"x": x, "y": y, "alt": 0}}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c4", "condition": "dead", "on": True})
    return enc


def test_zoom_centres_on_the_standing_then_on_what_the_gm_looks_at():
    enc = _fight()
    view = mapview.fit_view(enc)
    # the fitted view: the middle of those standing (y flipped), not of the drawing with the corpse in it
    assert mapview.zoom_centre(enc, None, False, view) == (3.0, -2.0)
    # the GM's own view (panned, zoomed): its middle
    assert mapview.zoom_centre(enc, None, True, [10.0, -20.0, 8.0, 8.0]) == (14.0, -16.0)
    # a token selected: on it
    assert mapview.zoom_centre(enc, "c2", False, view) == (6.0, 0.0)
