"""Where the map's labels go: beside their token on one of eight sides, or on a ring, where they
overlap no other label, no token's disc and no obstacle, inside the view; and the SVG of a label
placed so.

At table density (a dozen combatants a metre or two apart) a label is tried in its fullest form
first, then shorter (without the name), then not at all: a label with no room is still in the
token's tooltip and the distance list, and zooming in (or selecting the token: its label is placed
first) brings it back. The GM's map (``mapview``) and the players' (``players_render``) place
theirs here.

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
    optionally ``own`` (its own disc, not an obstacle to it) and ``far`` (False: only right beside
    the disc). Returns id → {"variant", "spot", "box", "lines", "pad"} for those that found room."""
    vx, vy, vw, vh = view
    blocked = _Boxes(view, obstacles)
    placed = _Boxes(view, obstacles)
    for o in obstacles:
        blocked.add(o)
    out: dict[str, dict[str, Any]] = {}
    for want in wanted:
        found = None
        for vi, lines in enumerate(want["variants"]):
            w, h, pad = _text_box(lines)
            gap = max(pad, want["r"] * .15) if want.get("far", True) else pad
            for d in ((want["r"] + gap, 2 * want["r"] + gap) if want.get("far", True) else (want["r"] + gap,)):
                for kind, ux, uy, box in _candidates(want, d, w, h):
                    if box[0] < vx or box[1] < vy or box[2] > vx + vw or box[3] > vy + vh:
                        continue  # a label never runs off the edge of the map
                    if blocked.hits(box, want.get("own")):
                        continue
                    if placed.hits(box):
                        continue
                    found = {"variant": vi, "spot": kind, "box": box, "lines": lines, "pad": pad,
                             "disc": (want["cx"], want["cy"], want["r"]), "far": d > want["r"] + gap}
                    break
                if found:
                    break
            if found:
                break
        if found:
            placed.add(found["box"])
            out[want["id"]] = found
    return out


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
