"""Beside the map: the selected token's position form, its distance list (distance, band, rule and
line of sight to each other token; with one of the two aloft, how each was reached, in words) and
who is engaged with whom. Pure: markup from the encounter and ``fray.maprules``' view of it."""

from __future__ import annotations

from typing import Any

from ..maprules import MapView
from ..model import Encounter
from .html import Markup, h, html
from .svgnum import signed


def field(name: str, label: str, value: float, cid: str) -> Markup:
    return html('<div class="field" data-field="{name}"><label for="map-{name}">{label}</label>'
                '<input id="map-{name}" name="{name}" type="number" step="any" inputmode="decimal" value="{value:g}" '
                'aria-describedby="map-{name}-err">'
                '<p class="field-error" id="map-{name}-err" data-error-for="{name}" role="alert"></p></div>',
                name=name, label=label, value=value)


def info_html(enc: Encounter, mv: MapView) -> Markup:
    """Beside the map: the selected token's position form and the distance list."""
    c = enc.get(mv.selected) if mv.selected else None
    if c is None:
        hint = ("Select a token (click or tap it, or Tab to it and press Enter) to see distances, range bands "
                "and rings, and to type its position.") if enc.combatants else "Add combatants to place them on the map."
        return html('<p class="hint map-hint">{}</p>', hint) + links_html(enc, mv)
    p = c.position
    out = [html('<h3 class="map-sel">From <strong>{name}</strong></h3>'
                '<form class="map-move" data-form="map-move" data-id="{id}" novalidate aria-label="Position of {name}">',
                name=c.name, id=c.id),
           field("x", "East (x, m)", p.x, c.id), field("y", "North (y, m)", p.y, c.id),
           field("alt", "Altitude (m)", p.alt, c.id),
           html('<button type="submit" class="primary">Move</button>'
                '<p class="field-error" data-error-for="position"></p></form>'
                '<p class="hint map-tap">Tap or click the ground to move {name} there; tap {name} again '
                '(or Escape) to let go. Shift-click, or Select several, picks tokens to drag together.</p>',
                name=c.name)]
    if mv.rings:
        out.append(html('<p class="map-rings"><span class="k">Rings{}:</span> {}</p>',
                        f" ({mv.weapon})" if mv.weapon else "", "; ".join(r.label for r in mv.rings)))
    if mv.targets:
        out.append(html('<table class="map-dist" aria-label="Distances from {}"><thead><tr><th scope="col">'
                        'To</th><th scope="col">Distance</th><th scope="col">Band</th><th scope="col">Rule</th>'
                        '<th scope="col">Line of sight</th></tr>'
                        '</thead><tbody>', c.name))
        for t in mv.targets:
            band = t.band.label if t.band else "—"
            if t.band and t.band.modifier is not None:
                band += f" ({signed(t.band.modifier)})"
            cls = None if not t.band or t.band.reachable else "unreachable"
            if t.unseen:
                cls = "unseen"
            # with one of the two aloft, how the distance and the band were reached, in words under
            # each (across and up; the greater band): as tooltips, as they were, a tablet never
            # showed them; on level ground the metres say it all, and twelve rows of it hid the list
            other = enc.get(t.id)
            aloft = other is not None and other.position.alt != p.alt
            out.append(h("tr", {"data-target": t.id, "class": cls}, h("th", {"scope": "row"}, t.name),
                         h("td", {"class": "d"}, f"{t.metres:.1f} m",
                           h("small", {"class": "how"}, t.explain) if aloft else None),
                         h("td", {"class": "band"}, band,
                           h("small", {"class": "how"}, t.band.note) if aloft and t.band and t.band.note else None),
                         h("td", {"class": "rule"}, t.rule), h("td", {"class": "los"}, los_text(t))))
        out.append(html("</tbody></table>"
                        '<p class="hint">The map knows where bodies stand, not walls or foliage: '
                        'line of sight and cover from terrain are the GM\'s call.</p>'))
    else:
        out.append(html('<p class="hint">No one else on the map.</p>'))
    out.append(links_html(enc, mv))
    return Markup("").join(out)


def los_text(t: Any) -> str:
    """A prompt, not a verdict: bodies on the line may block the view or give cover. Where the game
    judges sight itself (``Target.unseen``), that comes first. Text: escaped where it is written."""
    if getattr(t, "unseen", ""):
        return "unseen: " + t.unseen
    if not t.in_the_way:
        return "no one in the way"
    return ", ".join(t.in_the_way) + " in the way: GM, line of sight? cover?"


def links_html(enc: Encounter, mv: MapView) -> Markup:
    if not mv.links:
        return Markup("")
    names = {c.id: c.name for c in enc.combatants}
    items = [h("li", None, mv.link_texts.get((a, b)) or f"{names.get(a, a)} ⟷ {names.get(b, b)}")
             for a, b in mv.links]
    return html('<div class="map-links"><span class="k">{}:</span><ul>{}</ul></div>', mv.links_heading,
                Markup("").join(items))
