"""A GM's play-through, strike-rank at 768x1024 with a dozen combatants: "no "Great wolf", "Bandit
2/3/4" or dead "Knight 1" labels on the GM's map; with Knight 3 selected, "8.8 m" appears by token B1
with no name, while "Bandit 3 7.8 m" sits over the B1/B3 pair; the players' window also drops Bandit
4 and Great wolf labels". Every token has a label naming it (its name, or the initials on its disc)
beside its own token, or further out on a leader line to it; no label is a distance alone.

Measured on the page as the browser drew it, at a tablet's size and a laptop's. Screenshots go to
$FRAY_SHOTS (if set).
"""

from __future__ import annotations

import math
import sys
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from test_map import DESKTOP, preset, select
from gestures import import_history, photograph
from fray.history import History
from fray.reducer import new_encounter

SHOTS = Path(os.environ["FRAY_SHOTS"]) if os.environ.get("FRAY_SHOTS") else None
WARRIOR, WOLF, GORP = "Human warrior", "Great wolf (four-legged)", "Gorp (single location)"

# c1..c12: two knights and a squire in the thick of four bandits, a great wolf and Gorp; an archer
# and a crossbowman a little way off
CROWD = [
    (WARRIOR, "Knight 1", "party", 0, 0), (WARRIOR, "Knight 2", "party", 0, 2), (WARRIOR, "Knight 3", "party", -2, 1),
    ("Archer", "Archer", "party", -6, 0), (WARRIOR, "Bandit 1", "foes", 2, 1), (WARRIOR, "Bandit 2", "foes", 2, 3),
    (WARRIOR, "Bandit 3", "foes", 2.5, -.5), (WARRIOR, "Bandit 4", "foes", 3.5, 1.5), (WOLF, "Great wolf", "foes", 1, -2),
    (GORP, "Gorp", "foes", -2, -2), ("Crossbowman", "Crossbowman", "foes", 8, 4), (WARRIOR, "Bandit 5", "foes", 5, -3),
]

# each drawn token label: its words, its text's box and whether it has a leader line; each disc's box
DRAWN = """() => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const labels = {};
    for (const g of document.querySelectorAll('#map-plan .token-label')) {
        const texts = [...g.querySelectorAll('text')];
        const bs = texts.map(box);
        labels[g.dataset.labelFor] = {words: texts.map(t => t.textContent).join(' '), leader: !!g.querySelector('.leader'),
            box: [Math.min(...bs.map(b => b[0])), Math.min(...bs.map(b => b[1])), Math.max(...bs.map(b => b[2])),
                  Math.max(...bs.map(b => b[3]))]};
    }
    const discs = {};
    for (const t of document.querySelectorAll('#map-plan [data-token]')) discs[t.dataset.token] = box(t.querySelector('.disc'));
    const initials = {};
    for (const t of document.querySelectorAll('#map-plan [data-token]')) initials[t.dataset.token] = t.querySelector('.initials').textContent;
    return {labels, discs, initials};
}"""


def load_crowd(page, tmp_path, dead: tuple[str, ...] = ("c1",)) -> None:
    h = History(new_encounter("strike-rank", "Ambush at the ford"))
    for which, name, side, x, y in CROWD:
        h.do({"type": "add_combatant", "combatant": {**preset("strike-rank", which, name=name, side=side),
                                                      "position": {"x": x, "y": y, "alt": 0}}})
    for cid in dead:
        h.do({"type": "set_condition", "id": cid, "condition": "dead"})
    import_history(page, tmp_path, h, len(CROWD), "crowd")


def _gap(box, disc) -> float:
    """How far a label's box is from the edge of a token's disc (0 where they touch or overlap)."""
    cx, cy, r = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 2
    dx, dy = max(box[0] - cx, 0, cx - box[2]), max(box[1] - cy, 0, cy - box[3])
    return max(math.hypot(dx, dy) - r, 0)


def check_every_token_named(page, selected: str | None) -> None:
    got = page.evaluate(DRAWN)
    names = {f"c{i}": n for i, (_, n, _, _, _) in enumerate(CROWD, 1)}
    missing = [names[c] for c in names if c not in got["labels"]]
    assert missing == [], f"no label for {missing} (selected: {selected})"
    for cid, lab in got["labels"].items():
        # its name or the initials on its own disc, never a distance alone
        assert names[cid] in lab["words"] or lab["words"].split()[0] == got["initials"][cid], (cid, lab["words"])
        if lab["leader"]:
            continue
        mine = _gap(lab["box"], got["discs"][cid])
        nearer = [names[o] for o, d in got["discs"].items() if o != cid and _gap(lab["box"], d) < mine - 1]
        assert nearer == [], f"{names[cid]}'s label \"{lab['words']}\" is nearer {nearer} than its own token"


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}, DESKTOP], ids=["768x1024", "1366x900"])
def test_every_token_in_a_crowd_has_its_own_label(page, open_app, tmp_path, size):
    page.set_viewport_size(size)
    open_app(page)
    load_crowd(page, tmp_path)
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    for selected in (None, "c3"):
        if selected:
            select(page, selected)
        check_every_token_named(page, selected)
        if SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.locator("#map-pane").screenshot(
                path=str(SHOTS / f"crowd-{size['width']}x{size['height']}-{selected or 'none'}.png"))


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}, DESKTOP], ids=["768x1024", "1366x900"])
def test_the_fallen_in_a_crowd_are_named_at_fit_all(page, open_app, tmp_path, size):
    """A GM's tablet, the ambush half won: six lie dead among the living, Bandit 5 is selected and the map
    fitted to all. The dead Bandit 1 and Bandit 4 were labelled "B1" and "B4", the initials under their
    crosses: every fallen token's label says its name (dimmer than the standing's, but named)."""
    page.set_viewport_size(size)
    open_app(page)
    dead = ("c1", "c5", "c6", "c7", "c8", "c9")
    load_crowd(page, tmp_path, dead)
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    select(page, "c12")
    page.get_by_role("button", name="Fit all").click()
    expect(page.locator("#map-plan .token-label.down")).to_have_count(len(dead))
    got = page.evaluate(DRAWN)
    names = {f"c{i}": n for i, (_, n, _, _, _) in enumerate(CROWD, 1)}
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#map-pane").screenshot(path=str(SHOTS / f"crowd-dead-{size['width']}x{size['height']}.png"))
    assert {c: got["labels"][c]["words"] for c in dead if names[c] not in got["labels"][c]["words"]} == {}
    check_every_token_named(page, "c12")


def test_the_players_window_names_every_token_in_a_crowd(page, open_app, tmp_path, wait_ready):
    from test_players_view import open_players

    page.set_viewport_size(DESKTOP)
    open_app(page)
    load_crowd(page, tmp_path)
    pv = open_players(page, wait_ready)
    expect(pv.locator(".pv-token")).to_have_count(len(CROWD))
    named = pv.evaluate("() => [...document.querySelectorAll('.pv-labels [data-label-for]')].map(g => "
                        "[g.dataset.labelFor, g.textContent])")
    initials = dict(pv.evaluate("() => [...document.querySelectorAll('.pv-token')].map(t => "
                                "[t.dataset.id, t.querySelector('.pv-initial').textContent])"))
    names = {f"c{i}": n for i, (_, n, _, _, _) in enumerate(CROWD, 1)}
    assert sorted(c for c, _ in named) == sorted(names), named
    for cid, words in named:
        assert names[cid] in words or words == initials[cid], (cid, words)
    if SHOTS:
        pv.screenshot(path=str(SHOTS / "crowd-players.png"))


# twelve long names in the same crowd (a GM's play-through: the labels crossed each other on their leaders)
LONG = ["Gorp the Unwashed", "Sir Reginald of the Long Spear", "Brother Anselm the Grey", "Mad Meg of Hollow Hill",
        "Ulfric Stormborn the Younger", "Captain Ysolde Ashgrave", "Old Tom Ferryman of the Ford",
        "Harrow Blackhand the Bandit Chief", "Wenna Quickfingers", "Great Wolf of the Northern Wood",
        "Dame Petronella Vance", "Fenwick the Crossbowman"]
RB_BODY = {"party": "Human scout", "foes": "Human scout"}

# each token label's text box and its leader line (ends in page pixels), as drawn
LEADERS = """() => {
    const out = {};
    for (const g of document.querySelectorAll('#map-plan .token-label')) {
        const bs = [...g.querySelectorAll('text')].map(t => t.getBoundingClientRect());
        const box = [Math.min(...bs.map(b => b.left)), Math.min(...bs.map(b => b.top)),
                     Math.max(...bs.map(b => b.right)), Math.max(...bs.map(b => b.bottom))];
        let leader = null;
        const ln = g.querySelector('.leader');
        if (ln) {
            const m = ln.getScreenCTM(), p = ln.ownerSVGElement.createSVGPoint(), ends = [];
            for (const [x, y] of [[ln.x1, ln.y1], [ln.x2, ln.y2]]) {
                p.x = x.baseVal.value; p.y = y.baseVal.value;
                const q = p.matrixTransform(m); ends.push([q.x, q.y]);
            }
            leader = ends;
        }
        out[g.dataset.labelFor] = {words: [...g.querySelectorAll('text')].map(t => t.textContent).join(' '), box, leader};
    }
    return out;
}"""


def _cross(a, b, c, d) -> bool:
    """Whether the segments a-b and c-d cross (not merely touch at an end)."""
    def side(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    d1, d2, d3, d4 = side(c, d, a), side(c, d, b), side(a, b, c), side(a, b, d)
    return d1 * d2 < -1e-6 and d3 * d4 < -1e-6


def _through(a, b, box, inset: float = 1.0) -> bool:
    """Whether the segment a-b passes through the inside of ``box`` (shrunk by ``inset`` px: a glyph's edge)."""
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q <= 0:
                return False
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return t0 < t1


def check_labels_apart(got: dict, where: str) -> None:
    """No two labels overlap; no leader crosses another, nor runs through another label."""
    ids = sorted(got)
    over = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
            if min(got[a]["box"][2], got[b]["box"][2]) - max(got[a]["box"][0], got[b]["box"][0]) > 1
            and min(got[a]["box"][3], got[b]["box"][3]) - max(got[a]["box"][1], got[b]["box"][1]) > 1]
    assert over == [], f"{where}: labels overlap: {[(got[a]['words'], got[b]['words']) for a, b in over]}"
    lines = {c: got[c]["leader"] for c in ids if got[c]["leader"]}
    crossing = [(a, b) for a in lines for b in lines if a < b and _cross(*lines[a], *lines[b])]
    assert crossing == [], f"{where}: leaders cross: {[(got[a]['words'], got[b]['words']) for a, b in crossing]}"
    through = [(a, b) for a in lines for b in ids if b != a and _through(*lines[a], got[b]["box"])]
    assert through == [], f"{where}: a leader runs through a label: {[(got[a]['words'], got[b]['words']) for a, b in through]}"


def labels_as_drawn(page, selections, shot: str):
    """For each of ``selections`` in turn (None: the map as it is), that token selected, the map pane photographed
    to $FRAY_SHOTS (``shot`` with the selection in its ``{}``) and its labels as drawn (``LEADERS``):
    (selected, labels)."""
    for selected in selections:
        if selected:
            select(page, selected)
        got = page.evaluate(LEADERS)
        if SHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.locator("#map-pane").screenshot(path=str(SHOTS / f"{shot.format(selected or 'none')}.png"))
        yield selected, got


@pytest.mark.parametrize("ruleset", ["strike-rank", "range-band"])
@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}, DESKTOP], ids=["768x1024", "1366x900"])
@pytest.mark.parametrize("dead", [(), ("c1", "c5", "c8")], ids=["standing", "three-dead"])
def test_a_crowd_of_long_names_keeps_its_labels_apart(page, open_app, tmp_path, size, ruleset, dead):
    """Twelve long names ("Gorp the Unwashed", "Sir Reginald of the Long Spear", ...) in the crowd above: every
    label is drawn where no other label is, and leader lines cross neither each other nor another label, on the
    GM's map at a tablet's size and a laptop's, before and after a token is selected (its label says more).
    The selected token's label names it (it read "BA"), and a fallen one's names it and says "dead" (a long
    name out on a leader had lost its "dead")."""
    page.set_viewport_size(size)
    open_app(page)
    h = History(new_encounter(ruleset, "Crowd of long names"))
    for (which, _, side, x, y), name in zip(CROWD, LONG):
        body = preset(ruleset, which if ruleset == "strike-rank" else RB_BODY[side], name=name, side=side)
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": 0}}})
    for cid in dead:
        h.do({"type": "set_condition", "id": cid, "condition": "dead", "on": True})
    import_history(page, tmp_path, h, len(CROWD), "crowd")
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    names = {f"c{i}": n for i, n in enumerate(LONG, 1)}
    shot = f"long-{ruleset}-{size['width']}x{size['height']}-{{}}-{len(dead)}dead"
    for selected, got in labels_as_drawn(page, (None, "c3"), shot):
        assert len(got) == len(CROWD)
        check_labels_apart(got, f"{ruleset} {size['width']}x{size['height']} selected {selected}")
        if selected:
            assert names[selected] in got[selected]["words"], got[selected]["words"]
        for cid in dead:
            assert names[cid] in got[cid]["words"] and got[cid]["words"].endswith("dead"), got[cid]["words"]


BROO = "Broo 2 the Unwashed Goat-headed"


@pytest.mark.parametrize("size", [{"width": 1024, "height": 768}, DESKTOP], ids=["1024x768", "1366x900"])
def test_the_players_window_names_a_long_named_fallen(page, open_app, tmp_path, wait_ready, size):
    """A GM's play-through: the dead "Broo 2 the Unwashed Goat-headed" got no label on the players' window at
    1024x768 and 1366x900, only the "B2" under his cross. His label names him and says "· down", as a short
    name's does, and every token in the crowd still has its own label."""
    from test_players_names import NAMES
    from test_players_view import open_players

    names = list(NAMES)
    names[3] = BROO  # Broo 2, fourth in rows of four: his label had no room inside the map beside him
    h = History(new_encounter("freeform", "Melee Round 4"))
    for i, name in enumerate(names):
        h.do({"type": "add_combatant", "combatant": {
            "name": name, "side": "foes" if "Broo" in name else "party", "stats": {"HP": 3, "max HP": 12},
            "position": {"x": (i % 4) * 2.0, "y": (i // 4) * 2.0, "alt": 0.0}}})
    h.do({"type": "set_condition", "id": "c4", "condition": "dead", "on": True})
    open_app(page)
    import_history(page, tmp_path, h, len(names), "broo")
    pv = open_players(page, wait_ready)
    pv.set_viewport_size(size)
    expect(pv.locator(".pv-token")).to_have_count(len(names))
    expect(pv.locator('[data-label-for="c4"] text')).not_to_have_count(0)
    said = pv.evaluate("() => [...document.querySelectorAll('[data-label-for=\"c4\"] text')].map(t => t.textContent).join(' ')")
    assert said == f"{BROO} · down"
    labelled = pv.evaluate("() => [...document.querySelectorAll('.pv-labels [data-label-for]')].map(g => g.dataset.labelFor)")
    assert sorted(labelled) == sorted(f"c{i}" for i in range(1, len(names) + 1))
    # drawn inside the map, where the players can read it
    inside = pv.evaluate("""() => { const s = document.querySelector('.pv-svg').getBoundingClientRect();
        const b = document.querySelector('[data-label-for="c4"]').getBoundingClientRect();
        return b.left >= s.left - 1 && b.right <= s.right + 1 && b.top >= s.top - 1 && b.bottom <= s.bottom + 1; }""")
    assert inside
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pv.screenshot(path=str(SHOTS / f"players-long-dead-{size['width']}x{size['height']}.png"))


@pytest.mark.parametrize("size", [{"width": 768, "height": 1024}, DESKTOP], ids=["768x1024", "1366x900"])
@pytest.mark.parametrize("moved", [False, True], ids=["start", "round-2"])
def test_a_range_band_cluster_of_long_names_is_named_not_initialled(page, open_app, tmp_path, size, moved):
    """A GM's range-band play-through (p5) at 1366x900: Sneak the Whisper in the Reeds, Bandit 3 and Bandit Captain
    Morrow the Twice-Hanged, at one band beside the dead Nag and the incapacitated Broo 2, read "ST", "B3" and "BC"
    in one crowded spot. Every label names its token (over two or three lines, or out on a leader), none covers
    another and no leader crosses one, before and after a token is selected, at a tablet's size and a laptop's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
    from map_scenes import reed_ford
    page.set_viewport_size(size)
    open_app(page)
    h = reed_ford(moved)
    import_history(page, tmp_path, h, 10, "reed-ford")
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    names = {c.id: c.name for c in h.present.combatants}
    shot = f"reed-ford-{size['width']}x{size['height']}-{'moved' if moved else 'start'}-{{}}"
    for selected, got in labels_as_drawn(page, (None, "c6"), shot):
        assert {c: got[c]["words"] for c in names if names[c] not in got[c]["words"]} == {}
        check_labels_apart(got, f"reed ford {size['width']}x{size['height']} selected {selected}")


# the players' window's labels as drawn: each token's label, its lines joined
PV_LABELS = """() => Object.fromEntries([...document.querySelectorAll('.pv-labels [data-label-for]')].map(g =>
    [g.dataset.labelFor, [...g.querySelectorAll('text')].map(t => t.textContent).join(' ')]))"""

LOW = {"stealth": "low"}  # a foe the party sees (range-band's automatic sight would hide a scout)

# (game, [(ready-made, name, side, x, y, altitude[, more])], the fallen): the fights of a GM's play-through (p6)
PV_CROWDS = {
    # range-band: four long and short names at one band, the Nag dead under them
    "range-band": ([("Rider", "Kael Stormrider of the Eastern Marches", "party", 0, 0, 0),
                    ("Horse", "Grey", "party", 0, 0, 0), ("Winged flyer", "Wren", "party", 4, 6, 40),
                    ("Human scout", "Sly", "party", 6, -6, 0), ("Human scout", "Mark", "party", 2, 3, 0),
                    ("Human scout", "Broo 2 the Unwashed Goat-headed", "foes", 40, 0, 0, LOW),
                    ("Human scout", "Bandit 3", "foes", 40, 0, 0, LOW),
                    ("Human scout", "Bandit Captain Morrow the Twice-Hanged", "foes", 40, 0, 0, LOW),
                    ("Horse", "Bandit's Nag", "foes", 40, 0, 0)], ("c9",)),
    # strike-rank: a rider on his warhorse, one spot, among the party and the broo
    "strike-rank": ([(WARRIOR, "Warhorse", "party", 0, 0, 0), (WARRIOR, "Sir Kaldan Stormrider of Tarsh", "party", 0, 0, 0),
                     (WARRIOR, "Spearmaiden Vasana", "party", 0, 4, 0), (WARRIOR, "Ayla", "party", -5, 1, 0),
                     (WARRIOR, "Bolt", "party", -5, -2, 0), (WARRIOR, "Harrek", "party", 1, -3, 0),
                     (WARRIOR, "Broo 1 the Goat-headed Unwashed", "foes", 2, -3, 0), (WARRIOR, "Wolf 2", "foes", 2, -4, 0),
                     (WARRIOR, "Broo 2", "foes", 11, 0, 0), (WARRIOR, "Broo 3", "foes", 12, 3, 0),
                     (WARRIOR, "Broo archer", "foes", 24, 0, 0), (WARRIOR, "Wolf 1", "foes", 2, 4, 0)], ("c12",)),
}


@pytest.mark.parametrize("game", list(PV_CROWDS))
def test_the_players_window_names_every_token_in_a_crowd_at_one_spot(page, open_app, tmp_path, wait_ready, game):
    """A GM's play-through (p6) of the merged build: the GM's map named every token, but the players' window
    (1024x700) read "BC" for "Bandit Captain Morrow the Twice-Hanged" in range-band's crowd at one band, and
    "SK" beside "Warhorse" for the rider "Sir Kaldan Stormrider of Tarsh" in strike-rank. Issue 33: "The
    players' map must place every token it shows exactly where the GM's map does": every token there is
    named, in full (its name over one, two or three lines), never by its initials."""
    from test_players_view import open_players

    people, dead = PV_CROWDS[game]
    h = History(new_encounter(game, "Crowd"))
    for which, name, side, x, y, alt, *more in people:
        h.do({"type": "add_combatant", "combatant": {**preset(game, which, name=name, side=side, **dict(*more)),
                                                      "position": {"x": x, "y": y, "alt": alt}}})
    for cid in dead:
        h.do({"type": "set_condition", "id": cid, "condition": "dead", "on": True})
    open_app(page)
    import_history(page, tmp_path, h, len(people), f"crowd-{game}")
    pv = open_players(page, wait_ready)
    pv.set_viewport_size({"width": 1024, "height": 700})
    expect(pv.locator(".pv-token")).to_have_count(len(people))
    got = pv.evaluate(PV_LABELS)
    names = {f"c{i}": p[1] for i, p in enumerate(people, 1)}
    assert {c: got.get(c) for c, n in names.items() if n not in (got.get(c) or "")} == {}
    if SHOTS:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pv.screenshot(path=str(SHOTS / f"players-crowd-{game}.png"))
    photograph(pv, f"players-crowd-{game}")  # and at a tablet's size and a laptop's
