"""Long names on the maps, what a GM's play-through found: on the players' window a dead "Broo 2 the Unwashed
Goat-headed" had no label at all, only the "B2" under his cross; on the GM's map a long-named dead's label sat
far off on a leader without its "dead"; range-band's map said "OM" for "Old Man of the Mountain" with room for
his name a step out; a selected token in a crowd read its initials alone. A label falls back to the initials
only where no form that names its token has room, beside it or out on a clear leader."""

from __future__ import annotations

import re

import pytest

from fray import players
from fray.games import get_ruleset
from fray.history import History
from fray.maprules import map_view
from fray.reducer import new_encounter
from fray.web import mapview as MV
from fray.web import players_render as PR
from map_scenes import reed_ford

BROO = "Broo 2 the Unwashed Goat-headed"
NAMES = ["Spearmaiden Vasana", "Broo 1", "Spearmaiden", "Broo 3", "Far Broo 1", "Far Broo 2", "Harmast Barefoot",
         "Broo 4", "Yelmalio Sunspear", "Far Broo 3", "Windlord Orlanthsson", "Broo 5", "Storm Bull Berserker",
         "Far Broo 4"]


def _players_labels(enc) -> dict[str, str]:
    rs = get_ruleset(enc.ruleset)
    svg = str(PR.map_svg(players.project(enc, rs.view(enc), rs.order_of_play(enc))))
    out = {}
    for cid, inner in re.findall(r'data-label-for="(c\d+)">(.*?)</g></g>', svg):
        out[cid] = " ".join(re.sub(r"<[^>]+>", " ", inner).split())
    return out


@pytest.mark.parametrize("cols, where", [(4, 3), (4, 0), (5, 4), (5, 10), (7, 1), (7, 12)])
def test_the_players_map_names_a_long_named_fallen_and_says_down(cols, where):
    """Fourteen in rows of ``cols`` two metres apart, the dead Broo 2 the Unwashed Goat-headed at ``where``: his
    label names him and says "· down", as a short name's does."""
    names = list(NAMES)
    names[where] = BROO
    h = History(new_encounter("freeform", "Melee Round 4"))
    for i, name in enumerate(names):
        h.do({"type": "add_combatant", "combatant": {
            "name": name, "side": "foes" if "Broo" in name else "party", "stats": {"HP": 3, "max HP": 12},
            "position": {"x": (i % cols) * 2.0, "y": (i // cols) * 2.0, "alt": 0.0}}})
    broo = f"c{where + 1}"
    h.do({"type": "set_condition", "id": broo, "condition": "dead", "on": True})
    got = _players_labels(h.present)
    assert sorted(got) == sorted(c.id for c in h.present.combatants)
    assert got[broo] == f"{BROO} · down"


def _preset(ruleset: str, which: str, **over) -> dict:
    return {**next(p for p in get_ruleset(ruleset).presets() if p["name"] == which), **over}


def _gm_labels(enc, selected: str | None) -> dict[str, str]:
    view = MV.fit_view(enc)
    placed, _ = MV.layout(enc, map_view(enc, selected), view, MV.token_radius(view, enc))
    return {k: " ".join(t for _, spans, _ in p["lines"] for _, t in spans) for k, p in placed.items()}


# the crowd of tests/e2e/test_map_crowd_labels.py, every one a long name
SPOTS = [(0, 0), (0, 2), (-2, 1), (-6, 0), (2, 1), (2, 3), (2.5, -.5), (3.5, 1.5), (1, -2), (-2, -2), (8, 4), (5, -3)]
LONG = ["Gorp the Unwashed", "Sir Reginald of the Long Spear", "Brother Anselm the Grey", "Mad Meg of Hollow Hill",
        "Ulfric Stormborn the Younger", "Captain Ysolde Ashgrave", "Old Tom Ferryman of the Ford",
        "Harrow Blackhand the Bandit Chief", "Wenna Quickfingers", "Great Wolf of the Northern Wood",
        "Dame Petronella Vance", "Fenwick the Crossbowman"]


@pytest.mark.parametrize("ruleset, body", [("strike-rank", "Human warrior"), ("range-band", "Human scout")])
@pytest.mark.parametrize("selected", [None, "c3", "c12"])
def test_in_a_crowd_of_long_names_the_selected_and_the_fallen_are_named(ruleset, body, selected):
    """The selected token's label names it (it read "BA"); each fallen one's names it and says "dead" (a long
    name on a leader had lost its "dead")."""
    h = History(new_encounter(ruleset, "Crowd of long names"))
    for i, ((x, y), name) in enumerate(zip(SPOTS, LONG)):
        h.do({"type": "add_combatant", "combatant": {**_preset(ruleset, body, name=name, side="party" if i < 4 else "foes"),
                                                      "position": {"x": x, "y": y, "alt": 0}}})
    dead = ("c1", "c5", "c8")
    for cid in dead:
        h.do({"type": "set_condition", "id": cid, "condition": "dead", "on": True})
    got = _gm_labels(h.present, selected)
    assert sorted(got) == sorted(c.id for c in h.present.combatants)
    if selected:
        assert h.present.get(selected).name in got[selected]
    for cid in dead:
        assert h.present.get(cid).name in got[cid] and got[cid].endswith("dead"), got[cid]


def test_a_long_name_with_room_a_step_out_is_not_cut_to_its_initials():
    """Range-band: Old Man of the Mountain beside two scouts, Scout 1 selected: the room beside him is taken,
    but a step out there is room for his name and band, on a leader; his label read "OM short"."""
    rs = "range-band"
    h = History(new_encounter(rs, "Old Man"))
    for (x, y), name in zip([(0, 0), (2, 1), (2, -1), (15, 5)], ["Old Man of the Mountain", "Scout 1", "Scout 2",
                                                               "Scout 3"]):
        h.do({"type": "add_combatant", "combatant": {**_preset(rs, "Human scout", name=name,
                                                               side="party" if name.startswith("Old") else "foes"),
                                                      "position": {"x": x, "y": y, "alt": 0}}})
    assert _gm_labels(h.present, "c2")["c1"].startswith("Old Man of the Mountain")


@pytest.mark.parametrize("moved", [False, True])
@pytest.mark.parametrize("selected", [None, "c3", "c6"])
def test_a_cluster_of_long_names_at_one_band_is_named_not_initialled(moved, selected):
    """Range-band's map in a GM's play-through (p5, 1366x900): Sneak the Whisper in the Reeds, Bandit 3 and Bandit
    Captain Morrow the Twice-Hanged, at one band beside the dead Nag and the incapacitated Broo 2, read "ST", "B3"
    and "BC" in one crowded spot: the fallen's and the first tokens' fullest labels took the room first. Every
    token's label names it (over two lines, or out on a leader), as tactical-round's map does."""
    enc = reed_ford(moved).present
    got = _gm_labels(enc, selected)
    assert sorted(got) == sorted(c.id for c in enc.combatants)
    unnamed = {c.name: got[c.id] for c in enc.combatants if c.name not in got[c.id]}
    assert not unnamed, unnamed
