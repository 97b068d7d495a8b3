"""How an engagement link is drawn on the plan: straight where nobody stands in its way, else
bent round the tokens between, else as a stub out of each token (the Engaged list names the pair
in words). Pure geometry in the plan's units, each route worked out once per geometry."""

from __future__ import annotations

import functools
import math

from .svgnum import fmt


def _seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """How far point ``p`` is from the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _clear(points: list[tuple[float, float]], others: list[tuple[float, float]], gap: float) -> bool:
    """True when the polyline through ``points`` keeps ``gap`` from every point of ``others``."""
    return all(_seg_dist(o, p, q) >= gap for o in others for p, q in zip(points, points[1:]))


def _bezier(a: tuple[float, float], c: tuple[float, float], b: tuple[float, float], n: int = 24
            ) -> list[tuple[float, float]]:
    return [((1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
             (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]) for t in (i / n for i in range(n + 1))]


def link_route(a: tuple[float, float], b: tuple[float, float], others: list[tuple[float, float]], r: float
               ) -> tuple[str, str]:
    """``route`` (below), worked out once for each geometry: an attack, a wound or a note redraws
    the plan with nobody moved, and routing a dozen links round a crowd again was most of drawing it
    (a 12-combatant strike-rank fight in Chromium: 16-25 ms a plan, 1.4-3.7 with the routes known)."""
    return _route(a, b, tuple(others), r)


@functools.lru_cache(maxsize=512)  # some 16 links a drawing, for the last few positions of a fight
def _route(a: tuple[float, float], b: tuple[float, float], others: tuple[tuple[float, float], ...], r: float
           ) -> tuple[str, str]:
    """How an engagement link from token ``a`` to token ``b`` (centres, SVG units) is drawn so that it
    never passes over a third token's disc (centres ``others``, radius ``r``; a GM's play-through: a
    link ran straight through the ally standing between): ``("line", "")`` when the straight line is
    clear; else ``("routed", d)``, a curve bending round the tokens between (the least bend that
    clears them, either side); else ``("stub", d)``, a short stroke out of each token towards the
    other, each stopping before any token in its way (the Engaged list names the pair in words);
    ``("none", "")`` when even that has no room."""
    gap = r * 1.15 + r / 8  # the disc's edge, its stroke and half the link's width
    # how far each token is from the straight line: a curve bent by ``off`` stays within ``off`` of
    # it (the curve lies in the triangle of its ends and control point), so only tokens that near are
    # checked against it (a crowded 200-token fight stays quick)
    away = [(_seg_dist(o, a, b), o) for o in others]
    if all(d >= gap for d, _ in away):
        return "line", ""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length > 0:
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        nx, ny = -(b[1] - a[1]) / length, (b[0] - a[0]) / length
        span = max(length, 6 * r)
        for k in range(1, 13):
            for side in (1, -1):
                off = side * span * k / 8
                c = (mx + nx * off, my + ny * off)
                pts = _bezier(a, c, b)
                if _clear(pts, [o for d, o in away if d < abs(off) + gap], gap):
                    return "routed", f"M{fmt(a[0])} {fmt(a[1])}Q{fmt(c[0])} {fmt(c[1])} {fmt(b[0])} {fmt(b[1])}"
    stubs = []
    for p, q in ((a, b), (b, a)):
        if length == 0:
            break
        ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
        want = min(length / 2, 2.2 * r)
        close = [o for o in others if math.hypot(o[0] - p[0], o[1] - p[1]) < want + gap]
        reach = 0.0  # the stub grows until a token is in its way
        for i in range(1, 12):
            d = want * i / 11
            if not _clear([p, (p[0] + ux * d, p[1] + uy * d)], close, gap):
                break
            reach = d
        if reach > r * 1.2:  # out past its own disc, where it is seen
            stubs.append(f"M{fmt(p[0])} {fmt(p[1])}L{fmt(p[0] + ux * reach)} {fmt(p[1] + uy * reach)}")
    return ("stub", "".join(stubs)) if stubs else ("none", "")
