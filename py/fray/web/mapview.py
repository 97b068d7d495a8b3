"""The map as markup: a plan in metres, a side view of altitudes, and the selected token's figures.

Pure (no ``js``): positions come from the encounter and every figure from ``fray.maprules``, so
what the map shows is exactly what the rules measure. The plan's user units are metres, with
``y`` flipped (SVG y grows down, north grows up). Each token is a ``<g>`` translated to its
position, so a drag only rewrites one ``transform`` (``mapctl``) and the commit re-renders.

Tokens in the air stand on a stalk above their shadow, with the altitude written beside them
(its band, where the game measures height in bands); prone tokens are flattened; the side view
under the plan shows every height to scale. In a band game the selected token's rings and the
labels on the others are bands, not metres; a combatant the selected one cannot see is drawn
as unseen (faded, dashed), with why in its name.
"""

from __future__ import annotations

import math
from typing import Any

from ..maprules import MapView, Target, map_view
from ..model import Combatant, Encounter
from .render import esc

SIDE_COLOUR = {"party": "#2f6f9f", "foes": "#b4442c", "neutral": "#6b6b6b"}
STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
TOKEN_FRACTION = 24  # token radius = view width / this: ~44 px across on a 500 px plan
DOWN = ("dead", "unconscious", "incapacitated", "dying")
ELEV_W, ELEV_H, ELEV_GROUND = 1000.0, 170.0, 148.0


def fmt(v: float) -> str:
    """A coordinate for markup: short, stable, no exponent."""
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def bounds(enc: Encounter, pad: float = 4.0) -> tuple[float, float, float, float]:
    """The square (x0, y0, w, h) in metres that fits every token; y0 is the south edge."""
    if not enc.combatants:
        return (-10.0, -10.0, 20.0, 20.0)
    xs = [c.position.x for c in enc.combatants]
    ys = [c.position.y for c in enc.combatants]
    # Labels scale with the view, so the margin must too: a name beside an edge token is about
    # a quarter of the view wide.
    pad = max(pad, 0.3 * max(max(xs) - min(xs), max(ys) - min(ys)))
    x0, x1 = min(xs) - pad, max(xs) + pad
    y0, y1 = min(ys) - pad, max(ys) + pad
    side = max(x1 - x0, y1 - y0, 12.0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return (cx - side / 2, cy - side / 2, side, side)


def fit_view(enc: Encounter) -> list[float]:
    """The viewBox (min-x, min-y, w, h in SVG units, y flipped) that shows everyone."""
    x0, y0, w, h = bounds(enc)
    return [x0, -(y0 + h), w, h]


def grid_step(w: float) -> int:
    return next((s for s in STEPS if w / s <= 14), STEPS[-1])


def token_radius(view: list[float]) -> float:
    return view[2] / TOKEN_FRACTION


def _lift(alt: float, r: float) -> float:
    """How high above its shadow an airborne token is drawn: grows with altitude, capped."""
    if alt <= 0:
        return 0.0
    return r * min(3.2, 1.2 + math.log1p(alt) * 0.6)


def state_words(c: Combatant) -> list[str]:
    words = [w for w in c.conditions if w in ("prone", "dead", "unconscious", "incapacitated", "dying", "stunned",
                                                "held", "surprised", "grappled", "bruised", "engaged")]
    if c.position.alt > 0:
        words.insert(0, "flying")
    return words


def dist_text(target: Target, combine: str = "straight") -> str:
    """"15.6 m +0": the distance from the selected token, and the range modifier if any; in a band
    game (``combine == "band"``) the band itself."""
    if combine == "band" and target.band:
        return target.band.label
    txt = f"{target.metres:.1f} m"
    if target.band and target.band.modifier is not None:
        txt += f" {_signed(target.band.modifier)}"
    return txt


def initials_of(c: Combatant) -> str:
    """"Great wolf" → GW; a numbered one keeps its whole number ("Goblin 12" → G12, not G1 like
    Goblin 1), so the tokens of an Add ×N stay apart."""
    words = c.name.split()
    if len(words) > 1 and words[-1].isdigit():
        return (words[0][0] + words[-1]).upper()
    return "".join(w[0] for w in words[:2]).upper() or "?"


def notes_of(c: Combatant, alt_band: str | None = None) -> list[str]:
    """The words drawn beside a token: its height (its band, if the game has bands), and states
    such as prone or stunned."""
    notes = ([f"↑{alt_band}" if alt_band else f"↑{c.position.alt:g} m"] if c.position.alt > 0 else [])
    return notes + [w for w in state_words(c) if w != "flying"]


def token_label(c: Combatant, selected: bool, target: Target | None, alt_band: str | None = None,
                combine: str = "straight") -> str:
    """What a screen reader says, and the tooltip: the name, then the details."""
    p = c.position
    parts = [c.name, c.side, f"at {p.x:g}, {p.y:g} m",
             f"altitude {p.alt:g} m" + (f" ({alt_band} band)" if alt_band else "")]
    parts += state_words(c)
    if target is not None:
        if combine == "band" and target.band:
            parts.append(f"{target.band.label} range ({target.metres:.1f} m)")
        else:
            parts.append(f"{dist_text(target)} away" + (f", {target.band.label}" if target.band else ""))
        if target.unseen:
            parts.append(f"unseen: {target.unseen}")
    if selected:
        parts.append("selected")
    return ", ".join(parts)


def token_svg(c: Combatant, r: float, selected: bool, target: Target | None, alt_band: str | None = None,
              combine: str = "straight") -> str:
    p = c.position
    colour = SIDE_COLOUR.get(c.side, "#444")
    lift = _lift(p.alt, r)
    down = any(x in c.conditions for x in DOWN)
    prone = "prone" in c.conditions
    cls = "token" + (" selected" if selected else "") + (" airborne" if lift else "") + (" down" if down else "") + (
        " prone" if prone else "") + (f" side-{c.side}" if c.side in SIDE_COLOUR else "") + (
        " unseen" if target is not None and target.unseen else "")
    fs = r * 0.75
    out = [f'<g class="{cls}" id="tok-{esc(c.id)}" data-token="{esc(c.id)}" '
           f'transform="translate({fmt(p.x)} {fmt(-p.y)})" role="button" tabindex="0" '
           f'aria-pressed="{"true" if selected else "false"}">'
           # The name comes from <title>, not aria-label: the initials and name drawn on the token
           # are part of its label on screen, and an aria-label that does not repeat them word for
           # word breaks "label in name" for voice control.
           f'<title>{esc(token_label(c, selected, target, alt_band, combine))}</title>']
    if lift:
        out.append(f'<ellipse class="shadow" cx="0" cy="0" rx="{fmt(r * .8)}" ry="{fmt(r * .35)}" />'
                   f'<line class="stalk" x1="0" y1="0" x2="0" y2="{fmt(-lift)}" stroke-width="{fmt(r / 8)}" />')
    cy = -lift
    if selected:
        out.append(f'<circle class="halo" cx="0" cy="{fmt(cy)}" r="{fmt(r * 1.3)}" stroke-width="{fmt(r / 5)}" />')
    if prone:
        out.append(f'<ellipse class="disc" cx="0" cy="{fmt(cy)}" rx="{fmt(r)}" ry="{fmt(r * .55)}" fill="{colour}" '
                   f'stroke-width="{fmt(r / 8)}" />')
    else:
        out.append(f'<circle class="disc" cx="0" cy="{fmt(cy)}" r="{fmt(r)}" fill="{colour}" '
                   f'stroke-width="{fmt(r / 8)}" />')
    if down:
        d = r * .6
        out.append(f'<path class="cross" d="M{fmt(-d)} {fmt(cy - d)}L{fmt(d)} {fmt(cy + d)}M{fmt(d)} {fmt(cy - d)}'
                   f'L{fmt(-d)} {fmt(cy + d)}" stroke-width="{fmt(r / 6)}" />')
    initials = initials_of(c)
    out.append(f'<text class="initials" x="0" y="{fmt(cy + fs * .35)}" font-size="{fmt(fs)}" '
               f'text-anchor="middle" aria-hidden="true">{esc(initials)}</text>')
    out.append(f'<text class="name" x="0" y="{fmt(cy - r * 1.3)}" font-size="{fmt(fs * .7)}" text-anchor="middle" '
               f'stroke-width="{fmt(fs / 5)}" aria-hidden="true">{esc(c.name)}</text>')
    notes = notes_of(c, alt_band)
    if target is not None and target.unseen:
        notes.append("unseen")
    if notes:
        out.append(f'<text class="state" x="{fmt(r * 1.25)}" y="{fmt(cy + fs * .35)}" font-size="{fmt(fs * .85)}" '
                   f'stroke-width="{fmt(fs / 5)}" aria-hidden="true">{esc(" · ".join(notes))}</text>')
    if target is not None:
        txt = dist_text(target, combine)
        out.append(f'<text class="dist" x="0" y="{fmt(r * 1.9 if not lift else r * .9)}" font-size="{fmt(fs * .85)}" '
                   f'text-anchor="middle" stroke-width="{fmt(fs / 5)}" aria-hidden="true">{esc(txt)}</text>')
    out.append("</g>")
    return "".join(out)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def plan_svg(enc: Encounter, mv: MapView, view: list[float] | None = None) -> str:
    """The plan: grid, rings of the selected token, engagement links, tokens."""
    vx, vy, vw, vh = view or fit_view(enc)
    step = grid_step(vw)
    r = token_radius([vx, vy, vw, vh])
    # the grid covers three views each way so a pan shows grid until the next render
    gx0, gx1 = math.floor((vx - vw) / step) * step, vx + 2 * vw
    gy0, gy1 = math.floor((vy - vh) / step) * step, vy + 2 * vh
    lines = []
    gx = gx0
    while gx <= gx1:
        lines.append(f"M{fmt(gx)} {fmt(gy0)}V{fmt(gy1)}")
        gx += step
    gy = gy0
    while gy <= gy1:
        lines.append(f"M{fmt(gx0)} {fmt(gy)}H{fmt(gx1)}")
        gy += step
    parts = [f'<svg class="plan" id="map-plan" viewBox="{fmt(vx)} {fmt(vy)} {fmt(vw)} {fmt(vh)}" role="group" '
             f'aria-label="Map plan in metres, north up, grid {step} m, {len(enc.combatants)} tokens" '
             f'preserveAspectRatio="xMidYMid meet" data-grid="{step}">',
             f'<path class="map-grid" d="{"".join(lines)}" stroke-width="{fmt(vw / 600)}" />',
             f'<path class="map-axes" d="M0 {fmt(gy0)}V{fmt(gy1)}M{fmt(gx0)} 0H{fmt(gx1)}" '
             f'stroke-width="{fmt(vw / 400)}" />']
    sel = enc.get(mv.selected) if mv.selected else None
    if sel is not None and mv.rings:
        sp = sel.position
        parts.append(f'<g class="rings" transform="translate({fmt(sp.x)} {fmt(-sp.y)})" aria-hidden="true">')
        for ring in mv.rings:
            parts.append(f'<circle class="ring ring-{ring.kind}" cx="0" cy="0" r="{fmt(ring.radius)}" '
                         f'stroke-width="{fmt(vw / 300)}" data-radius="{fmt(ring.radius)}"><title>{esc(ring.label)}'
                         f'</title></circle>')
            parts.append(f'<text class="ring-label ring-{ring.kind}" x="0" y="{fmt(-ring.radius - r * .2)}" '
                         f'font-size="{fmt(r * .6)}" text-anchor="middle" stroke-width="{fmt(r / 8)}">'
                         f'{esc(ring.label)}</text>')
        parts.append("</g>")
    if mv.links:
        pos = {c.id: c.position for c in enc.combatants}
        parts.append('<g class="links" aria-hidden="true">')
        for a, b in mv.links:
            if a in pos and b in pos:
                pa, pb = pos[a], pos[b]
                parts.append(f'<line class="engaged" data-link="{esc(a)} {esc(b)}" x1="{fmt(pa.x)}" '
                             f'y1="{fmt(-pa.y)}" x2="{fmt(pb.x)}" y2="{fmt(-pb.y)}" stroke-width="{fmt(r / 4)}" />')
        parts.append("</g>")
    targets = {t.id: t for t in mv.targets}
    # airborne tokens last, so they are drawn above the ones on the ground; the selected one on top
    order = sorted(enc.combatants, key=lambda c: (c.id == mv.selected, c.position.alt > 0, c.position.alt))
    parts.append('<g class="tokens">')
    parts += [token_svg(c, r, c.id == mv.selected, targets.get(c.id), mv.altitudes.get(c.id), mv.combine)
              for c in order]
    parts.append("</g></svg>")
    return "".join(parts)


def elev_scale(enc: Encounter, view: list[float]) -> tuple[float, float, float, float]:
    """(x0, metres per unit across, alt top, units per metre up) of the side view."""
    vx, _, vw, _ = view
    top = max([c.position.alt for c in enc.combatants] + [10.0])
    top = grid_step(top / 3) * math.ceil(top / grid_step(top / 3))
    return vx, vw / ELEV_W, top, (ELEV_GROUND - 20) / top


def elevation_svg(enc: Encounter, selected: str | None, view: list[float] | None = None,
                  altitudes: dict[str, str] | None = None) -> str:
    """The side view, looking north: east across (as the plan above), altitude up, to scale."""
    view = view or fit_view(enc)
    x0, kx, top, ky = elev_scale(enc, view)
    parts = [f'<svg class="elev" id="map-elev-svg" viewBox="0 0 {fmt(ELEV_W)} {fmt(ELEV_H)}" role="group" '
             f'aria-label="Side view: altitude of each token, up to {top:g} m" preserveAspectRatio="xMidYMid meet" '
             f'data-x0="{fmt(x0)}" data-kx="{kx:.6g}" data-ky="{ky:.6g}">',
             f'<line class="ground" x1="0" y1="{fmt(ELEV_GROUND)}" x2="{fmt(ELEV_W)}" y2="{fmt(ELEV_GROUND)}" />']
    # ticks on round heights (2.5, 5, 7.5 m or 5, 10 m), at most four, never 3.33333 m
    step = next(m * 10 ** e for e in range(-1, 6) for m in (1, 2, 2.5, 5) if top / (m * 10 ** e) <= 4)
    for k in range(1, int(top / step + 1e-9) + 1):
        a = step * k
        y = ELEV_GROUND - a * ky
        parts.append(f'<line class="alt-tick" x1="0" y1="{fmt(y)}" x2="{fmt(ELEV_W)}" y2="{fmt(y)}" />'
                     f'<text class="alt-mark" x="4" y="{fmt(y - 3)}">{a:g} m</text>')
    parts.append(f'<text class="alt-mark" x="4" y="{fmt(ELEV_GROUND + 18)}">ground</text>')
    for c in sorted(enc.combatants, key=lambda c: (c.id == selected, c.position.alt)):
        p = c.position
        ex = (p.x - x0) / kx
        ey = ELEV_GROUND - max(p.alt, 0) * ky
        colour = SIDE_COLOUR.get(c.side, "#444")
        sel = " selected" if c.id == selected else ""
        band = f" ({altitudes[c.id]} band)" if altitudes and altitudes.get(c.id) and p.alt else ""
        parts.append(f'<g class="elev-token{sel}" data-elev-token="{esc(c.id)}" transform="translate({fmt(ex)} '
                     f'{fmt(ey)})"><title>{esc(c.name)}: altitude {p.alt:g} m{esc(band)}</title>'
                     f'<line class="stalk" x1="0" y1="0" x2="0" y2="{fmt(ELEV_GROUND - ey)}" />'
                     f'<circle r="12" fill="{colour}" />'
                     f'<text x="16" y="7">{esc(c.name)}{f" {p.alt:g} m" if p.alt else ""}{esc(band)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def scale_html(view: list[float]) -> str:
    step = grid_step(view[2])
    bar = max(step, grid_step(view[2] / 4))  # about a fifth of the width
    pct = bar / view[2] * 100
    return (f'<div class="map-scale" aria-label="Scale: the bar is {bar} metres">'
            # An <svg>'s width attribute, not a style attribute: the page's CSP runs no inline style.
            f'<svg class="bar" width="{pct:.2f}%" height="6" aria-hidden="true"></svg><span class="lbl">{bar} m</span>'
            f'<span class="grid-note">grid {step} m</span></div>')


def field(name: str, label: str, value: float, cid: str) -> str:
    fid = f"map-{name}"
    return (f'<div class="field" data-field="{name}"><label for="{fid}">{label}</label>'
            f'<input id="{fid}" name="{name}" type="number" step="any" inputmode="decimal" value="{value:g}" '
            f'aria-describedby="{fid}-err">'
            f'<p class="field-error" id="{fid}-err" data-error-for="{name}" role="alert"></p></div>')


def info_html(enc: Encounter, mv: MapView) -> str:
    """Beside the map: the selected token's position form and the distance list."""
    c = enc.get(mv.selected) if mv.selected else None
    if c is None:
        hint = ("Select a token (click or tap it, or Tab to it and press Enter) to see distances, range bands "
                "and rings, and to type its position.") if enc.combatants else "Add combatants to place them on the map."
        return f'<p class="hint map-hint">{hint}</p>' + links_html(enc, mv)
    p = c.position
    out = [f'<h3 class="map-sel">From <strong>{esc(c.name)}</strong></h3>',
           f'<form class="map-move" data-form="map-move" data-id="{esc(c.id)}" novalidate '
           f'aria-label="Position of {esc(c.name)}">',
           field("x", "East (x, m)", p.x, c.id), field("y", "North (y, m)", p.y, c.id),
           field("alt", "Altitude (m)", p.alt, c.id),
           '<button type="submit" class="primary">Move</button>',
           '<p class="field-error" data-error-for="position"></p></form>']
    if mv.rings:
        out.append('<p class="map-rings"><span class="k">Rings' + (f" ({esc(mv.weapon)})" if mv.weapon else "")
                   + ':</span> ' + "; ".join(esc(r.label) for r in mv.rings) + "</p>")
    if mv.targets:
        out.append(f'<table class="map-dist" aria-label="Distances from {esc(c.name)}"><thead><tr><th scope="col">'
                   'To</th><th scope="col">Distance</th><th scope="col">Band</th><th scope="col">Rule</th>'
                   '<th scope="col">Line of sight</th></tr>'
                   '</thead><tbody>')
        for t in mv.targets:
            band = t.band.label if t.band else "—"
            if t.band and t.band.modifier is not None:
                band += f" ({_signed(t.band.modifier)})"
            cls = "" if not t.band or t.band.reachable else ' class="unreachable"'
            if t.unseen:
                cls = ' class="unseen"'
            out.append(f'<tr data-target="{esc(t.id)}"{cls}><th scope="row">{esc(t.name)}</th>'
                       f'<td class="d" title="{esc(t.explain)}">{t.metres:.1f} m</td>'
                       f'<td class="band" title="{esc(t.band.note if t.band else "")}">{esc(band)}</td>'
                       f'<td class="rule">{esc(t.rule)}</td>'
                       f'<td class="los">{los_text(t)}</td></tr>')
        out.append("</tbody></table>")
        out.append('<p class="hint">The map knows where bodies stand, not walls or foliage: '
                   'line of sight and cover from terrain are the GM\'s call.</p>')
    else:
        out.append('<p class="hint">No one else on the map.</p>')
    out.append(links_html(enc, mv))
    return "".join(out)


def los_text(t: Any) -> str:
    """A prompt, not a verdict: bodies on the line may block the view or give cover. Where the game
    judges sight itself (``Target.unseen``), that comes first."""
    if getattr(t, "unseen", ""):
        return "unseen: " + esc(t.unseen)
    if not t.in_the_way:
        return "no one in the way"
    return esc(", ".join(t.in_the_way)) + " in the way: GM, line of sight? cover?"


def links_html(enc: Encounter, mv: MapView) -> str:
    if not mv.links:
        return ""
    names = {c.id: c.name for c in enc.combatants}
    items = "".join(f"<li>{esc(names.get(a, a))} ⟷ {esc(names.get(b, b))}</li>" for a, b in mv.links)
    return f'<div class="map-links"><span class="k">Engaged:</span><ul>{items}</ul></div>'


def map_parts(enc: Encounter, selected: str | None, view: list[float] | None = None) -> dict[str, Any]:
    """Every region of the map pane: ``plan``, ``elev``, ``scale``, ``info`` (HTML strings)."""
    if selected and enc.get(selected) is None:
        selected = None
    mv = map_view(enc, selected)
    v = list(view) if view else fit_view(enc)
    return {"plan": plan_svg(enc, mv, v), "elev": elevation_svg(enc, selected, v, mv.altitudes), "scale": scale_html(v),
            "info": info_html(enc, mv), "view": v}


def map_svg(enc: Encounter, selected: str | None = None) -> str:
    """The plan alone (fit to everyone), as the first version of the page called it."""
    return plan_svg(enc, map_view(enc, selected))
