"""The map as SVG markup: a plan in metres with a grid, a scale and one token per combatant.

Pure (no ``js``): positions come from the encounter, so what the map shows is exactly what the
rules measure. Tokens in the air get a shadow on the ground and their altitude written beside
them, so height is obvious in the plan too.
"""

from __future__ import annotations

from ..model import Encounter
from .render import esc

SIDE_COLOUR = {"party": "#2f6f9f", "foes": "#b4442c", "neutral": "#6b6b6b"}


def bounds(enc: Encounter, pad: float = 4.0) -> tuple[float, float, float, float]:
    if not enc.combatants:
        return (-10.0, -10.0, 20.0, 20.0)
    xs = [c.position.x for c in enc.combatants]
    ys = [c.position.y for c in enc.combatants]
    x0, x1 = min(xs) - pad, max(xs) + pad
    y0, y1 = min(ys) - pad, max(ys) + pad
    w, h = max(x1 - x0, 10.0), max(y1 - y0, 10.0)
    return (x0, y0, w, h)


def map_svg(enc: Encounter, selected: str | None = None) -> str:
    x0, y0, w, h = bounds(enc)
    step = 1 if max(w, h) <= 20 else 5 if max(w, h) <= 100 else 25
    lines = []
    gx = int(x0 // step) * step
    while gx <= x0 + w:
        lines.append(f'<line x1="{gx}" y1="{-(y0 + h)}" x2="{gx}" y2="{-y0}" />')
        gx += step
    gy = int(y0 // step) * step
    while gy <= y0 + h:
        lines.append(f'<line x1="{x0}" y1="{-gy}" x2="{x0 + w}" y2="{-gy}" />')
        gy += step
    r = max(w, h) / 40
    tokens = []
    for c in enc.combatants:
        p = c.position
        colour = SIDE_COLOUR.get(c.side, "#444")
        sel = " selected" if c.id == selected else ""
        air = ""
        if p.alt > 0:
            air = (f'<ellipse class="shadow" cx="{p.x}" cy="{-p.y}" rx="{r}" ry="{r / 2}" />'
                   f'<text class="alt" x="{p.x + r * 1.3}" y="{-p.y + r}" font-size="{r}">↑{p.alt:g} m</text>')
        tokens.append(
            f'<g class="token{sel}" data-act="select-token" data-id="{esc(c.id)}" role="button" tabindex="0" '
            f'aria-label="{esc(c.name)} at {p.x:g}, {p.y:g} m, altitude {p.alt:g} m">{air}'
            f'<circle cx="{p.x}" cy="{-p.y - min(p.alt, 3 * r)}" r="{r}" fill="{colour}" />'
            f'<text x="{p.x}" y="{-p.y - min(p.alt, 3 * r) - r * 1.3}" font-size="{r}" text-anchor="middle">'
            f'{esc(c.name)}</text></g>')
    scale = (f'<g class="scale"><line x1="{x0 + 1}" y1="{-y0 - 1}" x2="{x0 + 1 + step}" y2="{-y0 - 1}" />'
             f'<text x="{x0 + 1}" y="{-y0 - 1.3}" font-size="{r}">{step} m</text></g>')
    return (f'<svg class="plan" viewBox="{x0} {-(y0 + h)} {w} {h}" role="img" aria-label="Map of the fight, '
            f'{len(enc.combatants)} combatants" preserveAspectRatio="xMidYMid meet">'
            f'<g class="grid" stroke-width="{w / 500}">{"".join(lines)}</g>{scale}{"".join(tokens)}</svg>')
