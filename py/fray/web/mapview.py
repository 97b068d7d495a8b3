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

At table density (a dozen combatants a metre or two apart) three things keep the plan readable:
every token's initials are its own (``token_initials``: "G1", "G2" where names share them);
tokens shrink towards half the gap to their nearest neighbour (never below half size); and the
labels (name, distance, states) and ring labels are placed where they overlap nothing, inside
the view (``maplabels``): beside the token on one of eight sides, or without the name, or not at
all. Engagement links bend round the tokens between (``maplinks``); the position form and the
distance list beside the map are ``mapinfo``'s.

Areas the game marks on the scene (``MapRule.areas``: smoke, darkness, an obstacle) are drawn
first, under the rings, tokens and labels, as translucent circles with their name along the top
edge inside; in the side view each is a band from its bottom to its top. They never push a label
away: a token label, drawn later with its halo, stays readable over any fill.
"""

from __future__ import annotations

import math
import re
from typing import Any

from ..maprules import MapArea, MapView, Target, map_view, rule_for
from ..model import Combatant, Encounter
from .html import Markup, html, trusted
from .mapinfo import info_html
from .maplabels import CHAR_EM, G_END, Line, _hits, label_svg, place_labels, wrap_three, wrap_words
from .maplinks import link_route
from .svgnum import fmt, signed

SIDE_COLOUR = {"party": "#2f6f9f", "foes": "#b4442c", "neutral": "#6b6b6b"}
STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
TOKEN_FRACTION = 24  # token radius = view width / this: ~44 px across on a 500 px plan
LABEL_FRACTION = 32  # label font unit = view width / this (the labels' size does not shrink with crowding)
DOWN = ("dead", "unconscious", "incapacitated", "dying")
ELEV_W, ELEV_H, ELEV_GROUND = 1000.0, 170.0, 148.0
ELEV_NAME = 16.0  # an area's name in the side view (map.css: .elev text.area-name)


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


def shows_everyone(enc: Encounter, view: list[float]) -> bool:
    """Does the view box hold every token whole (its disc and an airborne one's stalk)?"""
    vx, vy, vw, vh = view
    r = vw / TOKEN_FRACTION
    for c in enc.combatants:
        x, y = c.position.x, -c.position.y
        top = y - _lift(c.position.alt, r)
        if x - r < vx or x + r > vx + vw or top - r < vy or y + r > vy + vh:
            return False
    return True


def view_for(enc: Encounter, ui: Any) -> list[float]:
    """The plan's view box: the GM's own (``ui.map_view``: pan, zoom), else the fitted one
    kept from before (``ui.map_fit``) while it still shows every token, else a new fit, kept
    for next time. So the view changes only when the GM changes it, or someone would be out of
    sight."""
    v = ui.map_view
    if v:
        return list(v)
    kept = ui.map_fit
    if kept and shows_everyone(enc, kept):
        return list(kept)
    fit = fit_view(enc)
    ui.map_fit = fit
    return list(fit)


def zoom_centre(enc: Encounter, selected: str | None, own: bool, view: list[float]) -> tuple[float, float]:
    """Where the map's + and − buttons zoom (SVG units, north up: y flipped): on the selected token; on
    the GM's own view (``own``: panned or zoomed), its middle, what they look at; on the view fitted to
    everyone, the middle of those still standing (a GM's fights: + zoomed on the middle of the drawing,
    empty ground between the fight and a corpse far off)."""
    c = enc.get(selected) if selected else None
    if c is not None:
        return c.position.x, -c.position.y
    if own or not enc.combatants:
        return view[0] + view[2] / 2, view[1] + view[3] / 2
    standing = [c for c in enc.combatants if not any(x in c.conditions for x in DOWN)] or enc.combatants
    xs, ys = [c.position.x for c in standing], [c.position.y for c in standing]
    return (min(xs) + max(xs)) / 2, -(min(ys) + max(ys)) / 2


def grid_step(w: float) -> int:
    return next((s for s in STEPS if w / s <= 14), STEPS[-1])


def token_radius(view: list[float], enc: Encounter | None = None) -> float:
    """View width / 24; where tokens stand closer than that, half the gap to the nearest
    neighbour, so adjacent tokens touch instead of covering each other (at least half size)."""
    full = view[2] / TOKEN_FRACTION
    if enc is None or len(enc.combatants) < 2:
        return full
    # Only a gap under 2 × full can shrink the tokens, so each one is measured against its
    # neighbours in a grid of cells that wide, not against all the others (200 tokens: 20,000 pairs,
    # 8 ms in CPython). Tokens on the same spot (a gap of full / 4 or less) stay stacked: no size
    # helps them.
    if not full > 0:
        return full
    cell = 2 * full
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for c in enc.combatants:
        x, y = c.position.x, c.position.y
        grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append((x, y))
    least = cell
    for (i, j), here in grid.items():
        near = [p for di in (-1, 0, 1) for dj in (-1, 0, 1) for p in grid.get((i + di, j + dj), ())]
        for ax, ay in here:
            for bx, by in near:
                g = math.hypot(ax - bx, ay - by)
                if full / 4 < g < least:
                    least = g
    return max(full / 2, min(full, least / 2))


def label_unit(view: list[float]) -> float:
    return view[2] / LABEL_FRACTION


def token_initials(enc: Encounter) -> dict[str, str]:
    """Each token's initials, different from every other's: the first letters of the name's first
    two words (a number is kept whole: "Goblin 12" is "G12"); names that give the same initials
    are numbered in the order they joined ("Harald" and "Hakon": "H1", "H2")."""
    base = {c.id: initials_of(c) for c in enc.combatants}
    count: dict[str, int] = {}
    for v in base.values():
        count[v] = count.get(v, 0) + 1
    taken = {v for v in base.values() if count[v] == 1}
    out = {}
    for c in enc.combatants:
        b = base[c.id]
        if count[b] == 1:
            out[c.id] = b
            continue
        n = 1
        while f"{b}{n}" in taken:
            n += 1
        out[c.id] = f"{b}{n}"
        taken.add(out[c.id])
    return out


def _lift(alt: float, r: float) -> float:
    """How high above its shadow an airborne token is drawn: grows with altitude, capped."""
    if alt <= 0:
        return 0.0
    return r * min(3.2, 1.2 + math.log1p(alt) * 0.6)


LIFT_WAYS = ((0, -1), (.71, -.71), (-.71, -.71), (1, 0), (-1, 0), (.71, .71), (-.71, .71), (0, 1))


def lift_offsets(enc: Encounter, r: float) -> dict[str, tuple[float, float]]:
    """Where each airborne token's disc is drawn from its shadow (x, y in SVG units): up on its
    stalk, or, where that would cover another token, the first way round that covers none (a bat
    over a goblin must not hide the goblin). Tokens on the ground: (0, 0)."""
    out: dict[str, tuple[float, float]] = {}
    ground = [(c.position.x, -c.position.y) for c in enc.combatants if _lift(c.position.alt, r) == 0]
    drawn: list[tuple[float, float]] = []
    for c in sorted(enc.combatants, key=lambda c: (c.position.alt, c.id)):
        lift = _lift(c.position.alt, r)
        if not lift:
            out[c.id] = (0.0, 0.0)
            continue
        x, y = c.position.x, -c.position.y
        best = (0.0, -lift)
        for ux, uy in LIFT_WAYS:
            dx, dy = ux * lift, uy * lift
            if all(math.hypot(x + dx - gx, y + dy - gy) >= 2 * r for gx, gy in ground + drawn):
                best = (dx, dy)
                break
        out[c.id] = best
        drawn.append((x + best[0], y + best[1]))
    return out


def state_words(c: Combatant, more: Any = (), unsaid: Any = ()) -> list[str]:
    """The states said on a token: the conditions the map knows, then ``more``, the game's own
    (``MapRule.states``, by way of ``MapView.states``: range-band's statuses were never drawn); none
    in ``unsaid``, those a worse one includes (``MapRule.unsaid``: tactical-round's dying is also
    incapacitated and bruised)."""
    if "dead" in c.conditions:
        # the dead need only that word (a GM's play-through: a wolf's label read "bruised ·
        # incapacitated · dead")
        return ["dead"]
    words = [w for w in c.conditions if w in ("prone", "unconscious", "incapacitated", "dying", "stunned",
                                                "held", "surprised", "grappled", "bruised", "engaged")
             and w not in unsaid]
    words += [w for w in more if w not in words]
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
        txt += f" {signed(target.band.modifier)}"
    return txt


_ASIDE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\{[^}]*\}")  # "(single location)", "[boss]": a note, not the name


def initials_of(c: Combatant) -> str:
    """The first letters of the name's first two words, a number kept whole ("Goblin 12": "G12"). Words
    only: what is in brackets is a note beside the name, and a bracket or a dash no letter (a GM's
    fights: "Gorp (single location)" was "G(")."""
    words = [w for w in (re.sub(r"\W", "", x) for x in _ASIDE.sub(" ", c.name).split()) if w]
    if not words:  # the whole name in brackets: its words
        words = [w for w in (re.sub(r"\W", "", x) for x in c.name.split()) if w]
    return "".join(w if w.isdigit() else w[0] for w in words[:2]).upper() or "?"


def notes_of(c: Combatant, alt_band: str | None = None, more: Any = (), unsaid: Any = ()) -> list[str]:
    """The words drawn beside a token: its height (its band, if the game has bands), and states
    such as prone or stunned (``more``: the game's own, ``state_words``)."""
    notes = ([f"↑{alt_band}" if alt_band else f"↑{c.position.alt:g} m"] if c.position.alt > 0 else
             [f"↓{-c.position.alt:g} m"] if c.position.alt < 0 else [])  # a swimmer under the surface
    return notes + [w for w in state_words(c, more, unsaid) if w != "flying"]


def token_label(c: Combatant, selected: bool, target: Target | None, alt_band: str | None = None,
                combine: str = "straight", more: Any = (), unsaid: Any = ()) -> str:
    """What a screen reader says, and the tooltip: the name, then the details."""
    p = c.position
    parts = [c.name, c.side, f"at {p.x:g}, {p.y:g} m",
             f"altitude {p.alt:g} m" + (f" ({alt_band} band)" if alt_band else "")]
    parts += state_words(c, more, unsaid)
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




def label_lines(c: Combatant, target: Target | None, alt_band: str | None, combine: str, unit: float,
                initials: str | None = None, more: Any = (), unsaid: Any = ()) -> list[list[Line]]:
    """The label's variants, fullest first: the name over the distance from the selected token (or
    its band) and the token's notes (height, prone, unseen, ...); then the two on one line; then the
    initials drawn on the token with the distance and notes; then the initials alone. Each names
    its token: a distance never stands alone, where it would be read as a neighbour's. A fallen
    token's initials are under its cross, so its label names it to the last (its name alone, at the
    smaller size): in a tablet's fitted crowd the dead read "B1" and "B4", and no disc said whose."""
    info: list[tuple[str, str]] = []
    if target is not None:
        info.append(("dist", dist_text(target, combine)))
    notes = notes_of(c, alt_band, more, unsaid)
    if target is not None and target.unseen:
        notes.append("unseen")
    if notes:
        info.append(("state", " · ".join(notes)))
    short = initials or initials_of(c)
    name: list[Line] = [("name", [("", c.name)], unit * .75)]
    # a long name over two lines: half as wide, so it finds room beside its token in a crowd before the
    # initials are all that is left (a GM's map read "OM" for a long name with room to spare)
    broken: list[Line] = [("name", [("", part)], unit * .75) for part in wrap_words(c.name)]
    # a name too long for even two lines in a crowd: over three, narrower still, before the initials
    thirds: list[Line] = [("name", [("", part)], unit * .75) for part in wrap_three(c.name)]
    alone: list[Line] = [("name", [("", short)], unit * .75)]
    down = any(x in c.conditions for x in DOWN)
    state = [part for part in info if part[0] == "state"]

    def said(lines: list[Line], more: list[tuple[str, str]]) -> list[Line]:
        return lines + [("info", more, unit * .7)] if more else lines

    # fullest first; a wrapped form only where the name does break
    full = [said(name, info), [("info", [("name", c.name)] + info, unit * .7)]] if info else [name]
    if len(broken) > 1:
        full.append(said(broken, info))
    if down:
        # the fallen's initials are under the cross: named to the last, and "dead" said to the last (a GM's
        # play-through: a long-named dead's label, out on a leader, had lost its "dead" line)
        last = [said(name, state)] + ([said(broken, state)] if len(broken) > 1 else [])
        return list(_unique(full + last))
    three = [thirds] if len(thirds) > 2 else []
    if not info:
        return list(_unique(full + three + [alone])) if short != c.name else full + three
    # the name alone (one line, then two, then three) before the initials with the rest: a label says whose it is
    return list(_unique(full + [name] + ([broken] if len(broken) > 1 else []) + three
                        + [[("info", [("name", short)] + info, unit * .7)], alone]))


def says(c: Combatant, variant: list[Line]) -> int:
    """How much a form of ``c``'s label says, for ``place_labels``' ``tiers``: 0 its name and the rest, 1 its
    name, 2 its initials and the rest, 3 its initials."""
    spans = [span for _, line, _ in variant for span in line]
    named = c.name in " ".join(t for _, t in spans)
    rest = any(k in ("dist", "state") for k, _ in spans)
    return (0 if rest else 1) if named else (2 if rest else 3)


def _unique(variants: list[list[Line]]) -> Any:
    """Each variant once, in order (the fallen's name over its state is already the full form when the
    state is all it says)."""
    seen: list[list[Line]] = []
    for v in variants:
        if v not in seen:
            seen.append(v)
            yield v


def token_svg(c: Combatant, r: float, selected: bool, target: Target | None, alt_band: str | None = None,
              combine: str = "straight", initials: str | None = None,
              offset: tuple[float, float] | None = None, more: Any = (), lying: bool | None = None,
              unsaid: Any = ()) -> Markup:
    """One token; ``more``: the game's own states (``MapView.states``), said in its title and as classes
    (``state-high_stealth``) its stylesheet may draw; ``lying``: drawn flattened (``MapView.lying``; None: when
    prone)."""
    p = c.position
    colour = SIDE_COLOUR.get(c.side, "#444")
    lift = _lift(p.alt, r)
    cx, cy = offset if offset is not None else (0.0, -lift)
    down = any(x in c.conditions for x in DOWN)
    prone = "prone" in c.conditions if lying is None else lying
    cls = "token" + (" selected" if selected else "") + (" airborne" if lift else "") + (" down" if down else "") + (
        " prone" if prone else "") + (f" side-{c.side}" if c.side in SIDE_COLOUR else "") + (
        " unseen" if target is not None and target.unseen else "") + "".join(
        # the game's states as classes, for its stylesheet to draw on the disc: a label with no room shrinks
        # to the initials, and range-band's High Stealth token then said nothing (a GM's map)
        # (words joined by "_": "knocked-down" is the status's id, which nothing on the page says)
        f" state-{slug}" for w in more if (slug := re.sub(r"[^a-z0-9]+", "_", str(w).lower()).strip("_")))
    fs = r * 0.75
    # The name comes from <title>, not aria-label: the initials and name drawn on the token are part
    # of its label on screen, and an aria-label that does not repeat them word for word breaks
    # "label in name" for voice control.
    out = [html('<g class="{}" id="tok-{}" data-token="{}" transform="translate({} {})" role="button" tabindex="0" '
                'aria-pressed="{}"><title>{}</title>', cls, c.id, c.id, fmt(p.x), fmt(-p.y),
                "true" if selected else "false", token_label(c, selected, target, alt_band, combine, more, unsaid))]
    if lift:
        out.append(html('<ellipse class="shadow" cx="0" cy="0" rx="{}" ry="{}" />'
                        '<line class="stalk" x1="0" y1="0" x2="{}" y2="{}" stroke-width="{}" />',
                        fmt(r * .8), fmt(r * .35), fmt(round(cx, 3)), fmt(round(cy, 3)), fmt(r / 8)))
    cy = round(cy, 3)
    ccx = fmt(round(cx, 3))
    if selected:
        # a thin ring just outside the disc, its width in screen pixels (CSS): on a small
        # screen a width in metres grows into a blob
        out.append(html('<circle class="halo" cx="{}" cy="{}" r="{}" />', ccx, fmt(cy), fmt(r * 1.3)))
    if prone:
        out.append(html('<ellipse class="disc" cx="{}" cy="{}" rx="{}" ry="{}" fill="{}" stroke-width="{}" />',
                        ccx, fmt(cy), fmt(r), fmt(r * .55), colour, fmt(r / 8)))
    else:
        out.append(html('<circle class="disc" cx="{}" cy="{}" r="{}" fill="{}" stroke-width="{}" />',
                        ccx, fmt(cy), fmt(r), colour, fmt(r / 8)))
    if down:
        d = r * .6
        x0, x1 = round(cx - d, 3), round(cx + d, 3)
        out.append(html('<path class="cross" d="M{x0} {y0}L{x1} {y1}M{x1} {y0}L{x0} {y1}" stroke-width="{w}" />',
                        x0=fmt(x0), x1=fmt(x1), y0=fmt(cy - d), y1=fmt(cy + d), w=fmt(r / 6)))
    initials = initials or initials_of(c)
    ifs = fs * min(1.0, 2.2 / max(len(initials), 1))  # "G12" still fits on the disc
    out.append(html('<text class="initials" x="{}" y="{}" font-size="{}" text-anchor="middle" aria-hidden="true">'
                    '{}</text></g>', ccx, fmt(round(cy + ifs * .35, 3)), fmt(round(ifs, 3)), initials))
    return Markup("").join(out)


def token_label_svg(c: Combatant, label: dict[str, Any], selected: bool) -> Markup:
    """A token's label, in the labels layer above every token (so no token hides one), translated
    with its token: a drag moves both (``mapctl``). Kept out of the token's own group, whose box is
    then the disc a tap aims at."""
    p = c.position
    down = " down" if any(x in c.conditions for x in DOWN) else ""  # dimmer, as its token, but named
    return html('<g class="token-label{}{}" id="lab-{}" data-label-for="{}" transform="translate({} {})">{}</g>',
                " selected" if selected else "", down, c.id, c.id, fmt(p.x), fmt(-p.y), label_svg(label, p.x, -p.y))


def layout(enc: Encounter, mv: MapView, view: list[float], r: float
           ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Where each token's label and each ring's label go (``place_labels``): the selected token's
    first, then the rings', then the others nearest the selected first (else in the order they
    joined). Obstacles: every disc, and the scale bar drawn over the plan's lower left corner."""
    vx, vy, vw, vh = view
    unit = label_unit(view)
    targets = {t.id: t for t in mv.targets}
    initials = token_initials(enc)
    discs = {}
    lifts = lift_offsets(enc, r)
    for c in enc.combatants:
        cx, cy = c.position.x + lifts[c.id][0], -c.position.y + lifts[c.id][1]
        rr = r * 1.35 if c.id == mv.selected else r  # the halo
        discs[c.id] = (cx - rr, cy - rr, cx + rr, cy + rr)
    scale = (vx, vy + vh * .93, vx + vw * .45, vy + vh)
    obstacles = list(discs.values()) + [scale]

    def want(c: Combatant) -> dict[str, Any]:
        t = targets.get(c.id)
        variants = label_lines(c, t, mv.altitudes.get(c.id), mv.combine, unit, initials.get(c.id), mv.states.get(c.id, ()),
                               mv.unsaid.get(c.id, ()))
        x0, y0, x1, y1 = discs[c.id]
        return {"id": c.id, "cx": (x0 + x1) / 2, "cy": (y0 + y1) / 2, "r": (x1 - x0) / 2, "variants": variants,
                "own": discs[c.id], "must": True, "tiers": [says(c, v) for v in variants],
                "named": any(x in c.conditions for x in DOWN)}

    sel = enc.get(mv.selected) if mv.selected else None
    first = [{**want(sel), "first": True}] if sel is not None else []
    rings = []
    if sel is not None:
        sx, sy = sel.position.x, -sel.position.y
        for i, ring in enumerate(mv.rings):
            lines: list[Line] = [("ring", [("", ring.label)], unit * .6)]
            rings.append({"id": f"ring{i}", "cx": sx, "cy": sy, "r": ring.radius, "variants": [lines], "far": False,
                          "ring": True})
    others = [c for c in enc.combatants if sel is None or c.id != sel.id]
    if sel is not None:
        others.sort(key=lambda c: targets[c.id].metres if c.id in targets else 0.0)
    placed = place_labels(first + rings + [want(c) for c in others], obstacles, view)
    return ({k: v for k, v in placed.items() if not k.startswith("ring")},
            {k: v for k, v in placed.items() if k.startswith("ring")})


def hatch_defs(pid: str, step: float, width: float) -> Markup:
    """The diagonal hatching an obstacle (``solid``) is filled with, ``step`` user units apart."""
    return html('<defs><pattern id="{pid}" patternUnits="userSpaceOnUse" width="{s}" height="{s}" '
                'patternTransform="rotate(45)"><rect class="area-hatch-bg" width="{s}" height="{s}" />'
                '<line class="area-hatch-line" x1="0" y1="0" x2="0" y2="{s}" stroke-width="{w}" />'
                '</pattern></defs>', pid=pid, s=fmt(step), w=fmt(width))


def area_title(a: MapArea) -> str:
    return f"{a.label}: {a.note}, {a.radius:g} m around {a.x:g}, {a.y:g} m, from {a.bottom:g} to {a.top:g} m up"


def area_names(areas: list[Any], size: float, obstacles: list[tuple[float, float, float, float]],
               view: list[float], flip: float = -1.0, scale: float = 1.0, ox: float = 0.0, oy: float = 0.0
               ) -> dict[str, dict[str, Any]]:
    """Where each area's name goes (``areas``: ``MapArea``s, or anything with their ``ref``,
    ``label``, ``x``, ``y``, ``radius``): on its edge, top first, then round it (``place_labels``'
    ring placement), placed after every token and label, which are ``obstacles``: a name that has
    no room is left out (the area's tooltip and the panel's list still say it), never over a label.
    ``flip``, ``scale``, ``ox``, ``oy``: from metres to the drawing's units."""
    wanted = [{"id": a.ref, "cx": ox + a.x * scale, "cy": oy + flip * a.y * scale, "r": a.radius * scale,
               "variants": [[("area-name", [("", a.label)], size)]], "far": False, "ring": True} for a in areas]
    return place_labels(wanted, obstacles, view)


def name_svg(p: dict[str, Any], cls: str) -> Markup:
    """An area's placed name: centred in its box, in the area's own group."""
    x0, y0, x1, _ = p["box"]
    size = p["lines"][0][2]
    text = p["lines"][0][1][0][1]
    return html('<text class="{}" x="{}" y="{}" font-size="{}" text-anchor="middle" stroke-width="{}">{}</text>',
                cls, fmt(round((x0 + x1) / 2, 3)), fmt(round(y0 + p["pad"] + size * .95, 3)), fmt(round(size, 3)),
                fmt(round(size / 4, 3)), text)


def areas_svg(areas: list[MapArea], unit: float, stroke: float, names: dict[str, dict[str, Any]]) -> Markup:
    """The plan's areas: one circle each (metres, y flipped) and its name where ``area_names`` put it."""
    if not areas:
        return Markup("")
    out = [hatch_defs("area-hatch", unit * .9, unit * .22) if any(a.style == "solid" for a in areas) else None,
           html('<g class="areas" aria-hidden="true">')]
    for a in areas:
        fill = html(' fill="url(#area-hatch)"') if a.style == "solid" else ""
        name = name_svg(names[a.ref], "area-name") if a.ref in names else ""
        out.append(html('<g class="area area-{}" data-area="{}" data-x="{}" data-y="{}" data-r="{}"><title>{}</title>'
                        '<circle cx="{}" cy="{}" r="{}" stroke-width="{}"{} />{}</g>',
                        a.style, a.ref, fmt(a.x), fmt(a.y), fmt(a.radius), area_title(a),
                        fmt(a.x), fmt(-a.y), fmt(a.radius), fmt(stroke), fill, name))
    out.append(G_END)
    return Markup("").join(out)


def plan_svg(enc: Encounter, mv: MapView, view: list[float] | None = None) -> Markup:
    """The plan: grid, rings of the selected token, engagement links, tokens."""
    vx, vy, vw, vh = view or fit_view(enc)
    step = grid_step(vw)
    r = token_radius([vx, vy, vw, vh], enc)
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
    parts = [html('<svg class="plan" id="map-plan" viewBox="{} {} {} {}" role="group" '
                  'aria-label="Map plan in metres, north up, grid {} m, {} tokens" '
                  'preserveAspectRatio="xMidYMid meet" data-grid="{}">',
                  fmt(vx), fmt(vy), fmt(vw), fmt(vh), step, len(enc.combatants), step),
             # the grid is numbers and path letters only (fmt), and a new one each view: not text to escape
             # (and to keep in escape's memo of names)
             html('<path class="map-grid" d="{}" stroke-width="{}" />', trusted("".join(lines)), fmt(vw / 600)),
             html('<path class="map-axes" d="M0 {y0}V{y1}M{x0} 0H{x1}" stroke-width="{w}" />',
                  y0=fmt(gy0), y1=fmt(gy1), x0=fmt(gx0), x1=fmt(gx1), w=fmt(vw / 400))]
    sel = enc.get(mv.selected) if mv.selected else None
    targets = {t.id: t for t in mv.targets}
    labels, ring_labels = layout(enc, mv, [vx, vy, vw, vh], r)
    if mv.areas:  # names last: every disc and every placed label is in their way, so none is covered
        lifts = lift_offsets(enc, r)
        taken = [(c.position.x + lifts[c.id][0] - r, -c.position.y + lifts[c.id][1] - r,
                  c.position.x + lifts[c.id][0] + r, -c.position.y + lifts[c.id][1] + r) for c in enc.combatants]
        taken += [p["box"] for p in labels.values()] + [p["box"] for p in ring_labels.values()]
        taken.append((vx, vy + vh * .93, vx + vw * .45, vy + vh))  # the scale bar
        names = area_names(mv.areas, label_unit([vx, vy, vw, vh]) * .55, taken, [vx, vy, vw, vh])
        parts.append(areas_svg(mv.areas, label_unit([vx, vy, vw, vh]), vw / 300, names))
    if sel is not None and mv.rings:
        sp = sel.position
        parts.append(html('<g class="rings" transform="translate({} {})" aria-hidden="true">', fmt(sp.x), fmt(-sp.y)))
        for i, ring in enumerate(mv.rings):
            parts.append(html('<circle class="ring ring-{}" cx="0" cy="0" r="{}" stroke-width="{}" data-radius="{}">'
                              '<title>{}</title></circle>', ring.kind, fmt(ring.radius), fmt(vw / 300),
                              fmt(ring.radius), ring.label))
            rl = ring_labels.get(f"ring{i}")
            if rl is not None:
                x0, y0, x1, y1 = rl["box"]
                size = rl["lines"][0][2]
                parts.append(html('<text class="ring-label ring-{}" x="{}" y="{}" font-size="{}" text-anchor="middle" '
                                  'stroke-width="{}">{}</text>', ring.kind, fmt(round((x0 + x1) / 2 - sp.x, 3)),
                                  fmt(round(y0 + rl["pad"] + size * .95 + sp.y, 3)), fmt(round(size, 3)),
                                  fmt(round(size / 4, 3)), ring.label))
        parts.append(G_END)
    if mv.links:
        pos = {c.id: c.position for c in enc.combatants}
        lifted = lift_offsets(enc, r)
        discs = {c.id: (c.position.x + lifted[c.id][0], -c.position.y + lifted[c.id][1]) for c in enc.combatants}
        parts.append(html('<g class="links" aria-hidden="true">'))
        for a, b in mv.links:
            if a in pos and b in pos:
                pa, pb = pos[a], pos[b]
                others = [xy for cid, xy in discs.items() if cid not in (a, b)]
                kind, d = link_route((pa.x, -pa.y), (pb.x, -pb.y), others, r)
                if kind == "line":
                    parts.append(html('<line class="engaged" data-link="{} {}" x1="{}" y1="{}" x2="{}" y2="{}" '
                                      'stroke-width="{}" />', a, b, fmt(pa.x), fmt(-pa.y), fmt(pb.x), fmt(-pb.y),
                                      fmt(r / 4)))
                elif kind != "none":  # bent round the tokens between, or a stub out of each token
                    # d: path letters and numbers only (link_route, through fmt)
                    parts.append(html('<path class="engaged {}" data-link="{} {}" d="{}" stroke-width="{}" />',
                                      kind, a, b, trusted(d), fmt(r / 4)))
        parts.append(G_END)
    # the fallen first, under the standing (a GM's play-through: a dead creature's cross hid the scout who
    # stood where it fell); airborne tokens after, above the ones on the ground; the selected one on top
    order = sorted(enc.combatants, key=lambda c: (c.id == mv.selected, not any(x in c.conditions for x in DOWN),
                                                  c.position.alt > 0, c.position.alt))
    initials = token_initials(enc)
    lifts = lift_offsets(enc, r)
    parts.append(html('<g class="tokens">'))
    parts += [token_svg(c, r, c.id == mv.selected, targets.get(c.id), mv.altitudes.get(c.id), mv.combine,
                        initials[c.id], lifts[c.id], mv.states.get(c.id, ()), c.id in mv.lying,
                        mv.unsaid.get(c.id, ())) for c in order]
    parts.append(html('</g><g class="labels" aria-hidden="true">'))
    parts += [token_label_svg(c, labels[c.id], c.id == mv.selected) for c in order if c.id in labels]
    parts.append(html("</g></svg>"))
    return Markup("").join(parts)


def elev_scale(enc: Encounter, view: list[float]) -> tuple[float, float, float, float]:
    """(x0, metres per unit across, alt top, units per metre up) of the side view."""
    vx, _, vw, _ = view
    top = max([c.position.alt for c in enc.combatants] + [10.0])
    top = grid_step(top / 3) * math.ceil(top / grid_step(top / 3))
    return vx, vw / ELEV_W, top, (ELEV_GROUND - 20) / top


def elev_depth(enc: Encounter) -> float:
    """How far below the ground (a water surface at 0 m) the side view reaches: the deepest swimmer, on a round
    figure; 0 when nobody is under the surface."""
    deep = -min([c.position.alt for c in enc.combatants] + [0.0])
    return grid_step(deep / 2) * math.ceil(deep / grid_step(deep / 2)) if deep > 0 else 0.0


def elev_areas_svg(areas: list[MapArea], x0: float, kx: float, ky: float, ground: float = ELEV_GROUND) -> Markup:
    """The side view's areas: each a band across its circle's width, from its bottom to its top
    (cut to the drawing: a cloud taller than the view goes off its top)."""
    if not areas:
        return Markup("")
    out = [hatch_defs("elev-hatch", 14.0, 3.0) if any(a.style == "solid" for a in areas) else None,
           html('<g class="areas" aria-hidden="true">')]
    named: list[tuple[float, float, float, float]] = []
    for a in areas:
        left, right = max((a.x - a.radius - x0) / kx, -10.0), min((a.x + a.radius - x0) / kx, ELEV_W + 10)
        y_top = max(ground - a.top * ky, -10.0)
        y_bottom = min(ground - a.bottom * ky, ELEV_H + 10)
        if right <= left or y_bottom <= y_top:
            continue  # off the side view
        fill = html(' fill="url(#elev-hatch)"') if a.style == "solid" else ""
        name = ""
        # the name inside the band's top, where it fits the band and no other area's name
        w = len(a.label) * ELEV_NAME * CHAR_EM
        mid, y = (max(left, 0) + min(right, ELEV_W)) / 2, max(y_top, 0) + ELEV_NAME + 2
        box = (mid - w / 2, y - ELEV_NAME, mid + w / 2, y + 2)
        if w <= min(right, ELEV_W) - max(left, 0) and not any(_hits(box, b) for b in named):
            named.append(box)
            name = html('<text class="area-name" x="{}" y="{}" text-anchor="middle">{}</text>',
                        fmt(round(mid, 2)), fmt(round(y, 2)), a.label)
        out.append(html('<g class="area area-{}" data-area="{}"><title>{}</title>'
                        '<rect x="{}" y="{}" width="{}" height="{}"{} />{}</g>', a.style, a.ref, area_title(a),
                        fmt(round(left, 2)), fmt(round(y_top, 2)), fmt(round(right - left, 2)),
                        fmt(round(y_bottom - y_top, 2)), fill, name))
    out.append(G_END)
    return Markup("").join(out)


def elevation_svg(enc: Encounter, selected: str | None, view: list[float] | None = None,
                  altitudes: dict[str, str] | None = None, areas: list[MapArea] | None = None) -> Markup:
    """The side view, looking north: east across (as the plan above), altitude up, to scale."""
    view = view or fit_view(enc)
    x0, kx, top, ky = elev_scale(enc, view)
    # a swimmer under a water surface is drawn at its depth (issue 33: it stood on the ground): the ground line
    # moves up to leave the deepest one room below it, on the same scale as the heights above
    deep, ground = elev_depth(enc), ELEV_GROUND
    if deep:
        ky = (ELEV_H - 34) / (top + deep)
        ground = 20 + top * ky
    said = f"Side view: altitude of each token, up to {top:g} m" + (
        f", down to {deep:g} m under the surface" if deep else "")
    g = fmt(round(ground, 2))
    parts = [html('<svg class="elev" id="map-elev-svg" viewBox="0 0 {} {}" role="group" aria-label="{}" '
                  'preserveAspectRatio="xMidYMid meet" data-x0="{}" data-kx="{:.6g}" data-ky="{:.6g}" data-ground="{}">',
                  fmt(ELEV_W), fmt(ELEV_H), said, fmt(x0), kx, ky, g),
             elev_areas_svg(areas or [], x0, kx, ky, ground),
             html('<line class="ground" x1="0" y1="{g}" x2="{w}" y2="{g}" />', g=g, w=fmt(ELEV_W))]
    # ticks on round heights (2.5, 5, 7.5 m or 5, 10 m), at most four, never 3.33333 m
    step = next(m * 10 ** e for e in range(-1, 6) for m in (1, 2, 2.5, 5) if top / (m * 10 ** e) <= 4)
    for k in range(1, int(top / step + 1e-9) + 1):
        a = step * k
        y = ground - a * ky
        parts.append(html('<line class="alt-tick" x1="0" y1="{y}" x2="{w}" y2="{y}" />'
                          '<text class="alt-mark" x="4" y="{y3}">{a:g} m</text>', y=fmt(y), w=fmt(ELEV_W),
                          y3=fmt(y - 3), a=a))
    if deep:
        y = ground + deep * ky
        parts.append(html('<line class="alt-tick" x1="0" y1="{y}" x2="{w}" y2="{y}" />'
                          '<text class="alt-mark" x="4" y="{y3}">−{d:g} m</text>', y=fmt(round(y, 2)), w=fmt(ELEV_W),
                          y3=fmt(round(y - 3, 2)), d=deep))
    parts.append(html('<text class="alt-mark" x="4" y="{}">ground</text>', fmt(round(ground + 18, 2))))
    # Everyone on the ground stands on one line: only the selected one and those in the air are
    # named (placed so no two names overlap, as on the plan); the rest say who they are on hover.
    spots = {}
    for c in enc.combatants:
        p = c.position
        spots[c.id] = ((p.x - x0) / kx, ground - p.alt * ky)
    aloft = sorted((c for c in enc.combatants if c.position.alt != 0 or c.id == selected),
                   key=lambda c: (c.id != selected, -abs(c.position.alt)))
    obstacles = [(ex - 12, ey - 12, ex + 12, ey + 12) for ex, ey in spots.values()]
    own = dict(zip(spots, obstacles))
    wanted = []
    for c in aloft:
        p = c.position
        band = f" ({altitudes[c.id]} band)" if altitudes and altitudes.get(c.id) and p.alt else ""
        text = f"{c.name}{f' {p.alt:g} m' if p.alt else ''}{band}"
        wanted.append({"id": c.id, "cx": spots[c.id][0], "cy": spots[c.id][1], "r": 12.0, "own": own[c.id],
                       "variants": [[("elev-name", [("", text)], 22.0)]], "far": False})
    names = place_labels(wanted, obstacles, [0.0, 0.0, ELEV_W, ELEV_H if deep else ELEV_GROUND + 2])
    on_ground = sum(1 for c in enc.combatants if c.position.alt == 0)
    if on_ground:
        parts.append(html('<text class="alt-mark ground-count" x="{}" y="{}" text-anchor="end">{} on the ground</text>',
                          fmt(ELEV_W - 4), fmt(round(ground + 18, 2)), on_ground))
    for c in sorted(enc.combatants, key=lambda c: (c.id == selected, c.position.alt)):
        p = c.position
        ex, ey = spots[c.id]
        colour = SIDE_COLOUR.get(c.side, "#444")
        sel = " selected" if c.id == selected else ""
        band = f" ({altitudes[c.id]} band)" if altitudes and altitudes.get(c.id) and p.alt else ""
        label = ""
        if c.id in names:
            label = label_svg(names[c.id], ex, ey)
        under = " under" if p.alt < 0 else ""
        title = f"{c.name}: " + (f"{-p.alt:g} m under the surface" if p.alt < 0 else f"altitude {p.alt:g} m{band}")
        parts.append(html('<g class="elev-token{}{}{}" data-elev-token="{}" transform="translate({} {})">'
                          '<title>{}</title><line class="stalk" x1="0" y1="0" x2="0" y2="{}" />'
                          '<circle r="{}" fill="{}" />{}</g>', sel, " aloft" if p.alt > 0 else "", under, c.id,
                          fmt(round(ex, 2)), fmt(round(ey, 2)), title, fmt(round(ground - ey, 2)),
                          12 if p.alt != 0 or sel else 8, colour, label))
    parts.append(html("</svg>"))
    return Markup("").join(parts)


def scale_html(view: list[float]) -> Markup:
    step = grid_step(view[2])
    bar = max(step, grid_step(view[2] / 4))  # about a fifth of the width
    pct = bar / view[2] * 100
    # An <svg>'s width attribute, not a style attribute: the page's CSP runs no inline style.
    return html('<div class="map-scale" aria-label="Scale: the bar is {bar} metres">'
                '<svg class="bar" width="{pct:.2f}%" height="6" aria-hidden="true"></svg><span class="lbl">{bar} m</span>'
                '<span class="grid-note">grid {step} m</span></div>', bar=bar, pct=pct, step=step)


def map_inputs(enc: Any, selected: str | None, v: list[float]) -> tuple[tuple, tuple]:
    """What the map is drawn from, for the page's memo (web/mapctl.py ``render``): ``plain``,
    compared with ``==``, and ``shared``, compared item by item with ``is`` (the engine shares an
    item an action left alone). A rule that may read any of ``state`` (``state_keys`` None) has
    its keys in ``plain`` and its values in ``shared``: its items would be new tuples each time,
    and no two of them are ever the same object (a range-band note redrew the map, 100 ms at 200)."""
    keys = getattr(rule_for(enc.ruleset), "state_keys", None)
    if keys is None:
        names, state = tuple(enc.state), tuple(enc.state.values())
    else:
        names, state = keys, tuple(enc.state.get(k) for k in keys)
    plain = (enc.ruleset, selected, tuple(v), names)
    shared = (*enc.combatants, None, *enc.tables.values(), None, *state)
    return plain, shared


def map_parts(enc: Encounter, selected: str | None, view: list[float] | None = None) -> dict[str, Any]:
    """Every region of the map pane: ``plan``, ``elev``, ``scale``, ``info`` (HTML strings)."""
    if selected and enc.get(selected) is None:
        selected = None
    mv = map_view(enc, selected)
    v = list(view) if view else fit_view(enc)
    return {"plan": plan_svg(enc, mv, v), "elev": elevation_svg(enc, selected, v, mv.altitudes, mv.areas), "scale": scale_html(v),
            "info": info_html(enc, mv), "view": v}


def map_svg(enc: Encounter, selected: str | None = None) -> Markup:
    """The plan alone (fit to everyone), as the first version of the page called it."""
    return plan_svg(enc, map_view(enc, selected))
