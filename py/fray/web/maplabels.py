"""Where the map's labels go: beside their token on one of eight sides, or on a ring, where they
overlap no other label, no token's disc and no obstacle, inside the view; and the SVG of a label
placed so.

At table density (a dozen combatants a metre or two apart) a label is tried in its fullest form
first, then shorter (the name and the distance on one line, then the initials drawn on the token
with the distance, then the initials alone). A token's label (``must``) is never left out and
never reads as a neighbour's: a spot nearer another token than its own is not taken beside the
token. With no room beside it for more than the initials, a form that still says the distance
goes further out on a clear leader line, before the initials alone are set beside it; with no
room for even those, they go further out on a leader; with no room anywhere, beside the token
over whatever is there. Before any label is made fuller, every token is given a form that names it (its name
alone, the narrowest first: over three lines, two, one; the widest names placed first, and for a few left without,
a neighbour's name moved where that makes room for both), so a full label cannot take the last room for a
name. A leader crosses no leader drawn before it, and no label covers one (a crowd
of long names read along each other's leaders), save in those last resorts. Ring and area names, and the side view's,
are still left out where they have no room (their tooltip and the panel's list say them). The
GM's map (``mapview``) and the players' (``players_render``) place theirs here.

Pure: boxes in the drawing's own units; a label's size comes from its characters (``CHAR_EM``),
generous so the drawn text fits.
"""

from __future__ import annotations

import math
from typing import Any

from .html import Markup, html
from .svgnum import fmt

CHAR_EM = 0.66  # a character's width in ems, generous for the page's sans-serif at weight 600
LINE_EM = 1.2
Line = tuple[str, list[tuple[str, str]], float]  # (css class, spans as (css class, text), font size)
SEP = "\u2002"  # between the distance and the notes on a label's second line
_SEP_SPAN = html('<tspan class="sep">{}</tspan>', SEP)
G_END = html("</g>")


def wrap_words(text: str, shortest: int = 14) -> list[str]:
    """``text`` over two lines, broken at the space that makes the longer line shortest, when it is
    longer than ``shortest`` characters and has a space to break at (else one line). Never beside a
    "·", which joins a state to what it is said of ("Goat-headed · down" stays whole). A long name
    beside a token in a crowd has room for half its width far more often than for all of it (a GM's
    play-through: "Broo 2 the Unwashed Goat-headed" got no label on the players' map, only "B2")."""
    spaces = [i for i, ch in enumerate(text) if ch == " " and text[i - 1:i] != "·" and text[i + 1:i + 2] != "·"]
    if len(text) <= shortest or not spaces:
        return [text]
    at = min(spaces, key=lambda i: max(i, len(text) - i - 1))
    return [text[:at], text[at + 1:]]


def wrap_three(text: str, longest: int = 16) -> list[str]:
    """``text`` over three lines, broken at the two spaces that make the longest line shortest, when over two it
    would still have a line longer than ``longest`` characters (else ``wrap_words``' lines). A name as long as
    "Bandit Captain Morrow the Twice-Hanged" over two lines was still wider than the gap between its token and
    the map's edge, in a crowd at one band (a GM's range-band map read "BC")."""
    two = wrap_words(text)
    spaces = [i for i, ch in enumerate(text) if ch == " " and text[i - 1:i] != "·" and text[i + 1:i + 2] != "·"]
    if len(two) < 2 or max(map(len, two)) <= longest or len(spaces) < 2:
        return two
    a, b = min(((a, b) for a in spaces for b in spaces if a < b),
               key=lambda ab: max(ab[0], ab[1] - ab[0] - 1, len(text) - ab[1] - 1))
    return [text[:a], text[a + 1:b], text[b + 1:]]


def _line_text(line: Line) -> str:
    return SEP.join(t for _, t in line[1])


def _text_box(lines: list[Line]) -> tuple[float, float, float]:
    """(width, height, padding) of a label, from its characters: generous, so the drawn text fits."""
    pad = max(ln[2] for ln in lines) * .15  # the text's halo stroke, and a hair between labels
    w = max(len(_line_text(ln)) * ln[2] * CHAR_EM for ln in lines) + 2 * pad
    h = sum(ln[2] * LINE_EM for ln in lines) + 2 * pad
    return w, h, pad


# where a label may go around its disc, nearest first: the side, and the direction (in radii) of
# the point of the box that touches the disc's surroundings
SPOTS = (("above", 0, -1), ("below", 0, 1), ("right", 1, 0), ("left", -1, 0),
         ("above-right", 1, -1), ("below-right", 1, 1), ("above-left", -1, -1), ("below-left", -1, 1))


def _spot(ux: float, uy: float, cx: float, cy: float, d: float, w: float, h: float
          ) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1) of a label of size w × h at distance ``d`` from a disc's centre."""
    ax, ay = cx + ux * d, cy + uy * d
    x0 = ax - w / 2 if ux == 0 else (ax if ux > 0 else ax - w)
    y0 = ay - h / 2 if uy == 0 else (ay if uy > 0 else ay - h)
    return (x0, y0, x0 + w, y0 + h)


def _candidates(want: dict[str, Any], d: float, w: float, h: float):
    """(side, ux, uy, box) to try, in order. A ring's label sits on the ring itself (its halo keeps
    it readable over the line), top first, then round the ring every 15°: a ring larger than the
    view still has its label on the arc that shows."""
    if want.get("ring"):
        for k in range(24):
            a = math.radians(90 + (k + 1) // 2 * 15 * (1 if k % 2 else -1))
            x, y = want["cx"] + want["r"] * math.cos(a), want["cy"] - want["r"] * math.sin(a)
            yield "above", 0, 0, (x - w / 2, y - h / 2, x + w / 2, y + h / 2)
        return
    for kind, ux, uy in SPOTS:
        yield kind, ux, uy, _spot(ux, uy, want["cx"], want["cy"], d, w, h)


def _hits(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Boxes:
    """Boxes bucketed on a square grid, so asking whether a box hits any of them looks at the
    ones in the cells it covers, not at all of them: at 200 tokens ``place_labels`` tried each
    spot against 400 boxes, 400,000 tests a map (100 ms a render in the page). The answer is the
    same as testing every box: two boxes that overlap share a cell. A box over many cells (an
    area, the scale bar on a small view) is kept aside and tested every time."""

    MAX_CELLS = 64

    def __init__(self, view: list[float], like: list[tuple[float, float, float, float]] | None = None) -> None:
        # cells about the size of a typical box held (``like``: the obstacles, mostly token
        # discs), so a crowd of small tokens spreads over many cells; never finer than 1/256 of the view
        sizes = sorted(max(b[2] - b[0], b[3] - b[1]) for b in like or () if all(map(math.isfinite, b)))
        typical = sizes[len(sizes) // 2] if sizes else max(view[2], view[3]) / 24
        self.cell = max(typical, max(view[2], view[3]) / 256, 1e-9)
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        self.wide: list[tuple[float, float, float, float]] = []
        self.all: list[tuple[float, float, float, float]] = []

    def _span(self, b: tuple[float, ...]) -> tuple[int, int, int, int]:
        c = self.cell
        try:
            return math.floor(b[0] / c), math.floor(b[1] / c), math.floor(b[2] / c), math.floor(b[3] / c)
        except (OverflowError, ValueError):  # not a finite box: one of the wide ones
            return 0, 0, 10 ** 9, 10 ** 9

    def add(self, b: tuple[float, float, float, float]) -> None:
        self.all.append(b)
        i0, j0, i1, j1 = self._span(b)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > self.MAX_CELLS:
            self.wide.append(b)
            return
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                self.cells.setdefault((i, j), []).append(b)

    def remove(self, b: tuple[float, float, float, float]) -> None:
        """Forget ``b`` (the very box added, by identity)."""
        def drop(boxes: list[tuple[float, float, float, float]]) -> None:
            for k, o in enumerate(boxes):
                if o is b:
                    del boxes[k]
                    return
        drop(self.all)
        drop(self.wide)
        i0, j0, i1, j1 = self._span(b)
        if (i1 - i0 + 1) * (j1 - j0 + 1) <= self.MAX_CELLS:
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    drop(self.cells.get((i, j), []))

    def near(self, box: tuple[float, ...]) -> list[tuple[float, float, float, float]]:
        """The boxes held here that overlap ``box``."""
        i0, j0, i1, j1 = self._span(box)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > self.MAX_CELLS:
            return [o for o in self.all if _hits(box, o)]
        seen: dict[int, tuple[float, float, float, float]] = {id(o): o for o in self.wide if _hits(box, o)}
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                for o in self.cells.get((i, j), ()):
                    if _hits(box, o):
                        seen[id(o)] = o
        return list(seen.values())

    def hits(self, box: tuple[float, ...], skip: Any = None) -> bool:
        """Whether ``box`` overlaps a box held here other than ``skip`` (by identity)."""
        for o in self.wide:
            if o is not skip and _hits(box, o):
                return True
        i0, j0, i1, j1 = self._span(box)
        if (i1 - i0 + 1) * (j1 - j0 + 1) > self.MAX_CELLS:  # a box as large as the view: ask them all
            return any(o is not skip and _hits(box, o) for o in self.all)
        cells = self.cells
        for i in range(i0, i1 + 1):
            for j in range(j0, j1 + 1):
                for o in cells.get((i, j), ()):
                    if o is not skip and _hits(box, o):
                        return True
        return False


# ``place_labels``' last answers, by the text of their inputs: a Next that moved nobody and changed no
# label asks the same again (two thirds of a range-band map's drawing at 30 tokens)
_PLACED: dict[str, dict[str, dict[str, Any]]] = {}
PLACED_KEPT = 8


def place_labels(wanted: list[dict[str, Any]], obstacles: list[tuple[float, float, float, float]],
                 view: list[float]) -> dict[str, dict[str, Any]]:
    """``_place_labels``, the same inputs answered from ``_PLACED`` (its answers are only read)."""
    key = repr((wanted, obstacles, view))  # floats' repr is exact: equal text, equal inputs
    got = _PLACED.pop(key, None)
    if got is None:
        got = _place_labels(wanted, obstacles, view)
        while len(_PLACED) >= PLACED_KEPT:
            del _PLACED[next(iter(_PLACED))]
    _PLACED[key] = got  # the most recent last
    return got


def _place_labels(wanted: list[dict[str, Any]], obstacles: list[tuple[float, float, float, float]],
                  view: list[float]) -> dict[str, dict[str, Any]]:
    """Place labels in order (the first wins a contested spot) so that no two overlap, none covers
    an obstacle (a token's disc, the scale bar) and each lies inside the view. ``wanted``: dicts
    with ``id``, the disc ``cx``, ``cy``, ``r``, ``variants`` (lists of lines, fullest first), and
    optionally ``own`` (its own disc, not an obstacle to it), ``far`` (False: only right beside
    the disc), ``tiers`` (``fullest``), ``named`` (its shortest form names it too) and ``must`` (a token's label: never left out, see the module's docstring). Returns
    id → {"variant", "spot", "box", "lines", "pad"} for those that found room."""
    vx, vy, vw, vh = view
    blocked = _Boxes(view, obstacles)
    placed = _Boxes(view, obstacles)
    for o in obstacles:
        blocked.add(o)
    # every token's disc, to tell whose a label beside it reads as
    discs = _Boxes(view, obstacles)
    centre: dict[int, tuple[float, float, float]] = {}
    for want in wanted:
        if want.get("own") is not None and not want.get("ring"):
            discs.add(want["own"])
            centre[id(want["own"])] = (want["cx"], want["cy"], want["r"])

    # the leader lines drawn so far (``_leader``), by the label's id: a label placed later neither covers one
    # nor draws its own across one (a crowd of long names: "Gorp the Unwashed" and "Brother Anselm the Grey"
    # were read along each other's leaders)
    leaders: dict[str, tuple[float, float, float, float]] = {}

    def on_a_leader(box: tuple[float, ...], skip: str) -> bool:
        return any(_through(*seg, box) for k, seg in leaders.items() if k != skip)

    def inside(box: tuple[float, ...]) -> bool:
        return vx <= box[0] and vy <= box[1] and box[2] <= vx + vw and box[3] <= vy + vh

    def nearer_another(want: dict[str, Any], box: tuple[float, ...]) -> bool:
        """Whether the label's box is nearer another token's disc than its own (it would be read as
        that token's): "Bandit 3 7.8 m" over the gap between Bandit 1 and Bandit 3."""
        own = want["own"]
        # clearly nearer its own: the drawn glyphs sit inside the box, so a box halfway between two
        # tokens is read as either's
        mine = _gap(box, want["cx"], want["cy"], want["r"]) + want["r"] / 2
        reach = (box[0] - mine, box[1] - mine, box[2] + mine, box[3] + mine)
        for o in discs.near(reach):
            if o is not own and id(o) in centre and not stacked(want, o) and _gap(box, *centre[id(o)]) < mine:
                return True
        return False

    def stacked(want: dict[str, Any], o: tuple[float, ...]) -> bool:
        """Whether the disc ``o`` stands on the token's own spot (a rider on the mount): no label
        beside either can tell them apart, nor need to."""
        ox, oy, _ = centre[id(o)]
        return math.hypot(ox - want["cx"], oy - want["cy"]) <= want["r"] / 4

    def leader_crosses(want: dict[str, Any], box: tuple[float, ...], strict: int = 2) -> bool:
        """Whether the leader from the token to a label set off from it would pass over another
        token's disc (and so read as that token's), or through another label (``strict`` 2: either;
        1: a disc; 0: neither)."""
        if strict <= 0:
            return False
        cx, cy = want["cx"], want["cy"]
        bx, by = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
        span = (min(cx, bx), min(cy, by), max(cx, bx), max(cy, by))
        for o in discs.near(span):
            if o is want["own"] or id(o) not in centre or stacked(want, o):
                continue
            ox, oy, r = centre[id(o)]
            dx, dy = bx - cx, by - cy
            t = max(0.0, min(1.0, ((ox - cx) * dx + (oy - cy) * dy) / (dx * dx + dy * dy or 1.0)))
            if math.hypot(cx + t * dx - ox, cy + t * dy - oy) < r:
                return True
        if strict < 2:
            return False
        if any(_through(cx, cy, bx, by, o) for o in placed.near(span)):
            return True
        seg = _leader(cx, cy, want["r"], box)
        return seg is not None and any(_crosses(seg, other) for k, other in leaders.items() if k != want["id"])

    def found_at(want: dict[str, Any], vi: int, lines: list[Line], d: float, gap: float, kind: str,
                 box: tuple[float, float, float, float], pad: float) -> dict[str, Any]:
        return {"variant": vi, "spot": kind, "box": box, "lines": lines, "pad": pad,
                "disc": (want["cx"], want["cy"], want["r"]), "far": d > want["r"] + gap}

    def free(want: dict[str, Any], box: tuple[float, ...]) -> bool:
        return (inside(box) and not blocked.hits(box, want.get("own")) and not placed.hits(box)
                and not on_a_leader(box, want["id"]))

    def beside(want: dict[str, Any], variants: list[tuple[int, list[Line]]]) -> dict[str, Any] | None:
        """The fullest of ``variants`` that has room beside the token (or a step out, on a leader)."""
        tell = want.get("must") and want.get("own") is not None
        for vi, lines in variants:
            w, h, pad = _text_box(lines)
            gap = max(pad, want["r"] * .15) if want.get("far", True) else pad
            for d in ((want["r"] + gap, 2 * want["r"] + gap) if want.get("far", True) else (want["r"] + gap,)):
                for kind, ux, uy, box in _candidates(want, d, w, h):
                    if not free(want, box):
                        continue  # a label never runs off the edge of the map, nor covers another
                    if tell and (nearer_another(want, box) if d <= want["r"] + gap else leader_crosses(want, box)):
                        continue  # beside: read as its own token's; further out: its leader says whose
                    return found_at(want, vi, lines, d, gap, kind, box, pad)
        return None

    def on_leader(want: dict[str, Any], variants: list[tuple[int, list[Line]]],
                  stricts: tuple[int, ...]) -> dict[str, Any] | None:
        """The fullest of ``variants`` further out from the token (``FURTHER``), its leader as clear
        as ``stricts`` asks in turn (``leader_crosses``)."""
        for strict in stricts:
            for vi, lines in variants:
                w, h, pad = _text_box(lines)
                gap = max(pad, want["r"] * .15)
                for k in FURTHER:
                    d = k * want["r"] + gap
                    for kind, box in _round(want["cx"], want["cy"], d, w, h):
                        if free(want, box) and not leader_crosses(want, box, strict):
                            return found_at(want, vi, lines, d, gap, kind, box, pad)
        return None

    out: dict[str, dict[str, Any]] = {}

    def put(want: dict[str, Any], found: dict[str, Any] | None) -> None:
        if found:
            placed.add(found["box"])
            out[want["id"]] = found
            if found["far"] or "-" in found["spot"]:  # as label_svg draws it
                seg = _leader(want["cx"], want["cy"], want["r"], found["box"])
                if seg is not None:
                    leaders[want["id"]] = seg

    every = [list(enumerate(want["variants"])) for want in wanted]
    # the first (the selected token's label) whole; then each token's shortest label kept beside it,
    # so that a full label placed earlier cannot take the last room by a later token; then, in
    # order, each label as full as the room left allows (its own short one given up while it looks)
    lead = [i for i, want in enumerate(wanted) if want.get("first")]

    def fullest(want: dict[str, Any], variants: list[tuple[int, list[Line]]]) -> dict[str, Any] | None:
        """A fuller form beside the token, else out on a clear leader, before a shorter one beside it:
        a label that says more (the name, the distance, the notes) is what the GM reads it for (a GM's
        map read "OM" beside a long name with room for it a step out, and a selected token in a crowd
        its initials alone). ``tiers`` (one a variant, in order) groups forms that say as much: a name
        over two lines beside its token before the same on one line out on a leader."""
        fuller, shortest = variants[:-1], variants[-1:]
        if not want.get("must") or not fuller:
            return beside(want, fuller) or beside(want, shortest)
        tiers = want.get("tiers") or [0] * len(want["variants"])
        groups: dict[Any, list[tuple[int, list[Line]]]] = {}
        for vi, lines in fuller:
            groups.setdefault(tiers[vi], []).append((vi, lines))
        for group in groups.values():
            found = beside(want, group) or on_leader(want, group, (2,))
            if found:
                return found
        return beside(want, shortest)

    for i in lead:
        put(wanted[i], fullest(wanted[i], every[i]))
    def shortest_forms(want: dict[str, Any]) -> list[tuple[int, list[Line]]]:
        """The forms of the last tier, the shortest last (a fallen's name and "dead" on one line, over two)."""
        tiers = want.get("tiers") or [0] * len(want["variants"])
        return [(i, v) for i, v in enumerate(want["variants"]) if tiers[i] == tiers[-1]][-2:]

    for i, want in enumerate(wanted):
        if want.get("must") and want["id"] not in out:
            # a label named to the last (``named``: the fallen's, whose initials are under a cross) with no room
            # beside it goes out on a clear leader with the names below, before the fuller labels take the room
            put(want, beside(want, every[i][-1:]))
    # every token named before any label is made fuller: each whose label is still its initials takes the least
    # form that names it (its name alone, over two lines first), beside it or out on a clear leader, so that a
    # fuller label placed after cannot take the last room for a name (a GM's range-band map: the fallen's and the
    # first tokens' full labels left "ST", "B3" and "BC" in one crowded spot)
    def names_of(i: int) -> list[tuple[int, list[Line]]]:
        """The forms that name token ``i``, the narrowest first: its name alone over three lines, two, one; a
        fallen's, its name and state (a fallen long name in a crowd was left a leader through other labels)."""
        want, tiers = wanted[i], wanted[i].get("tiers")
        if not want.get("must") or want.get("first") or not tiers or want.get("own") is None:
            return []
        forms = shortest_forms(want) if want.get("named") else [(vi, v) for vi, v in every[i] if tiers[vi] == 1]
        return sorted(forms, key=lambda v: _text_box(v[1])[0])

    def named(i: int) -> bool:
        got = out.get(wanted[i]["id"])
        return got is not None and (wanted[i].get("tiers") or [0] * len(every[i]))[got["variant"]] <= 1

    def lift(want: dict[str, Any]) -> dict[str, Any] | None:
        """``want``'s label taken off the map (returned, to put back)."""
        kept = out.pop(want["id"], None)
        if kept:
            placed.remove(kept["box"])
            leaders.pop(want["id"], None)
        return kept

    def take(want: dict[str, Any], names: list[tuple[int, list[Line]]]) -> dict[str, Any] | None:
        return beside(want, names) or on_leader(want, names, (2,))

    unnamed = [(i, names_of(i)) for i in range(len(wanted)) if not named(i) and names_of(i)]
    # the widest of those names first: the hardest to find room for takes it before the narrower ones
    unnamed.sort(key=lambda u: -_text_box(u[1][0][1])[0])
    for i, names in unnamed:
        kept = lift(wanted[i])
        put(wanted[i], take(wanted[i], names) or kept)
    # one still unnamed: a near token's name moved to make room, kept where both then have one. Only for a few (a
    # cluster at one band): in a packed crowd most names have no room however they are moved, and each try is a
    # search round two tokens
    left = [(i, names) for i, names in unnamed if not named(i)]
    for i, names in left if len(left) <= REPAIRS else ():
        want = wanted[i]
        near = sorted((j for j in range(len(wanted)) if j != i and wanted[j]["id"] in out and names_of(j)),
                      key=lambda j: math.hypot(wanted[j]["cx"] - want["cx"], wanted[j]["cy"] - want["cy"]))
        for j in near[:6]:
            mine, theirs = lift(want), lift(wanted[j])
            got = take(want, names)
            if got:
                put(want, got)
                again = take(wanted[j], names_of(j))
                if again:
                    put(wanted[j], again)
                    break
                lift(want)
            put(want, mine)
            put(wanted[j], theirs)
    for i, want in enumerate(wanted):
        if want.get("first"):
            continue
        kept = out.pop(want["id"], None)
        if kept:
            placed.remove(kept["box"])
            leaders.pop(want["id"], None)
        # a label that says more (the distance, the notes) goes out on a clear leader before the
        # initials alone are set beside the token; a name kept rather than its initials
        found = fullest(want, every[i])
        tiers = want.get("tiers")
        if found and kept and tiers and tiers[kept["variant"]] <= 1 < tiers[found["variant"]]:
            found = None
        put(want, found or kept)
    # a token's label with no room beside its token: the shortest form further out, on a leader;
    # else beside it over what is there
    for want in wanted:
        if want["id"] in out or not want.get("must"):
            continue
        vi = len(want["variants"]) - 1
        lines = want["variants"][vi]
        w, h, pad = _text_box(lines)
        gap = max(pad, want["r"] * .15)
        # the shortest forms, the leader clear of every token and label; else through a label; else through
        # anything
        found = on_leader(want, shortest_forms(want), (2, 1, 0) if want.get("own") is not None else (0,))
        if found is None:  # beside it, over another label rather than over a token
            d = want["r"] + gap
            spots = [(kind, box) for kind, ux, uy, box in _candidates(want, d, w, h) if inside(box)]
            if not spots:  # wider than the room between the token and the edge: moved in, on a leader
                spots = [(kind, _within(box, view)) for kind, ux, uy, box in _candidates(want, d, w, h)]
            clear = [(kind, box) for kind, box in spots if not blocked.hits(box, want.get("own"))]
            if clear or spots:
                kind, box = (clear or spots)[0]
                found = found_at(want, vi, lines, d, gap, kind, box, pad)
                # moved in from beside the token: a leader says whose it is
                found["far"] = found["far"] or not any(box == b for _, _, _, b in _candidates(want, d, w, h))
        put(want, found)
    return out


def _within(box: tuple[float, float, float, float], view: list[float]) -> tuple[float, float, float, float]:
    """``box`` moved the least that puts it inside the view (its left or top edge, if wider)."""
    vx, vy, vw, vh = view
    dx = max(vx - box[0], min(0.0, vx + vw - box[2]))
    dy = max(vy - box[1], min(0.0, vy + vh - box[3]))
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


# how many tokens still without their name after every name was placed have a neighbour's moved to make room
REPAIRS = 4

# how far out (in radii) a token's label goes on a leader when there is no room beside the token
FURTHER = (3, 4, 5, 6, 8)


def _round(cx: float, cy: float, d: float, w: float, h: float):
    """(side, box) of a label of size w × h at distance ``d`` from (cx, cy), every 22.5° from
    straight up: further out, a gap between two tokens is narrower than the eight sides."""
    for k in range(16):
        a = math.radians(90 - k * 22.5)
        ux, uy = math.cos(a), -math.sin(a)
        ax, ay = cx + ux * d, cy + uy * d
        across = "right" if ux > .3 else "left" if ux < -.3 else ""
        up = "above" if uy < -.3 else "below" if uy > .3 else ""
        x0 = ax if across == "right" else ax - w if across == "left" else ax - w / 2
        y0 = ay if up == "below" else ay - h if up == "above" else ay - h / 2
        yield "-".join(x for x in (up, across) if x) or "above", (x0, y0, x0 + w, y0 + h)


def _leader(cx: float, cy: float, r: float, box: tuple[float, ...]) -> tuple[float, float, float, float] | None:
    """The leader line from the disc at (cx, cy) of radius r to the nearest point of ``box``, from the disc's
    edge (as ``label_svg`` draws it); None when the box touches the disc."""
    bx, by = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    d = math.hypot(bx - cx, by - cy)
    if d <= r:
        return None
    return cx + (bx - cx) * r / d, cy + (by - cy) * r / d, bx, by


def _crosses(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether the segments ``a`` and ``b`` (x0, y0, x1, y1) cross each other."""
    def side(px: float, py: float, qx: float, qy: float, rx: float, ry: float) -> float:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)
    d1, d2 = side(b[0], b[1], b[2], b[3], a[0], a[1]), side(b[0], b[1], b[2], b[3], a[2], a[3])
    d3, d4 = side(a[0], a[1], a[2], a[3], b[0], b[1]), side(a[0], a[1], a[2], a[3], b[2], b[3])
    return d1 * d2 < 0 and d3 * d4 < 0


def _through(x0: float, y0: float, x1: float, y1: float, box: tuple[float, ...]) -> bool:
    """Whether the segment (x0, y0)-(x1, y1) passes through the inside of ``box`` (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    return t0 < t1


def _gap(box: tuple[float, ...], cx: float, cy: float, r: float) -> float:
    """How far the box is from the edge of the disc at (cx, cy) of radius r (0 where they overlap)."""
    dx = max(box[0] - cx, 0.0, cx - box[2])
    dy = max(box[1] - cy, 0.0, cy - box[3])
    return max(math.hypot(dx, dy) - r, 0.0)


def label_svg(p: dict[str, Any], ox: float, oy: float) -> Markup:
    """A placed label's text, in the coordinates of its token's group (origin ``ox``, ``oy``)."""
    x0, y0, x1, _ = p["box"]
    pad, spot = p["pad"], p["spot"]
    if spot in ("above", "below"):
        x, anchor = (x0 + x1) / 2, "middle"
    elif spot.endswith("left"):
        x, anchor = x1 - pad, "end"
    else:
        x, anchor = x0 + pad, "start"
    out = [html('<g class="label label-{}" aria-hidden="true">', spot)]
    cx, cy, r = p.get("disc", (0.0, 0.0, 0.0))
    if p.get("far") or "-" in spot:
        # a label set off from its token (on a diagonal, or a step out) gets a leader to it, so it
        # is not read as a neighbour's
        bx, by = min(max(cx, x0), x1), min(max(cy, p["box"][1]), p["box"][3])
        d = math.hypot(bx - cx, by - cy)
        if d > r:
            sx, sy = cx + (bx - cx) * r / d, cy + (by - cy) * r / d
            out.append(html('<line class="leader" x1="{}" y1="{}" x2="{}" y2="{}" />', fmt(round(sx - ox, 3)),
                            fmt(round(sy - oy, 3)), fmt(round(bx - ox, 3)), fmt(round(by - oy, 3))))
    top = y0 + pad
    for cls, spans, size in p["lines"]:
        base = top + size * .95
        top += size * LINE_EM
        if len(spans) == 1 and not spans[0][0]:
            inner: Any = spans[0][1]
        else:  # the distance and the notes stay separate spans: styles and tests tell them apart
            inner = _SEP_SPAN.join(html('<tspan class="{}">{}</tspan>', k, t) for k, t in spans)
        out.append(html('<text class="{}" x="{}" y="{}" font-size="{}" text-anchor="{}" stroke-width="{}">{}</text>',
                        cls, fmt(round(x - ox, 3)), fmt(round(base - oy, 3)), fmt(round(size, 3)), anchor,
                        fmt(round(size / 4, 3)), inner))
    out.append(G_END)
    return Markup("").join(out)
