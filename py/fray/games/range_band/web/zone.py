"""The zone (light, clutter, flight ceiling, enclosed, underwater, air) and the obscuring areas and water
marked in it, each form beside what is set."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, html
from fray.games.range_band.web.common import (ref_chip, LIGHT_TEXT, _btn, _check, _field, _g, _general_err, _input,
                                              _select)


def zone_html(view: dict[str, Any], open_: bool = False) -> Markup:
    z = view.get("zone", {})
    ch = view.get("choices", {})
    bands = ch.get("bands", ["engaged", "short", "medium", "long", "travel"])
    summary = (f'{LIGHT_TEXT.get(z.get("light"), z.get("light"))}, {z.get("clutter")} clutter'
               + (", enclosed" if z.get("enclosed") else "") + (", underwater" if z.get("underwater") else "")
               + (", no air" if not z.get("air", True) and not z.get("underwater") else "")
               + (f", flight to {z.get('flight_ceiling')}" if z.get("flight_allowed") else
                  f", no flight ({z.get('why_no_flight')})"))
    dmg = z.get("damage_factors")
    body = html(
        '<div class="rb-grid">{light}{clutter}{ceiling}</div><div class="rb-row">{checks}</div>{water}'
        '<p class="hint">Who sees whom comes from light, clutter and stealth level through the visible-range '
        'chart <span class="badge assumed">assumed</span> (Tables to edit it).</p>'
        '<div class="rb-row"><button type="submit" class="primary">Set zone</button></div>{err}',
        light=_field("rb-z-light", "light", "Light", _select("rb-z-light", "light",
                     [(x, LIGHT_TEXT.get(x, x)) for x in ch.get("light", LIGHT_TEXT)], z.get("light"))),
        clutter=_field("rb-z-clutter", "clutter", "Clutter", _select("rb-z-clutter", "clutter",
                       [(x, x) for x in ch.get("clutter", ("low", "medium", "high"))], z.get("clutter"))),
        ceiling=_field("rb-z-ceiling", "flight_ceiling", "Flight ceiling", _select("rb-z-ceiling", "flight_ceiling",
                       [("none", "no flight")] + [(b, b) for b in bands], z.get("flight_ceiling"))),
        checks=fragment(_check("rb-z-enclosed", "enclosed", "Enclosed (indoor, underground)", bool(z.get("enclosed"))),
                        _check("rb-z-underwater", "underwater", "Underwater", bool(z.get("underwater"))),
                        _check("rb-z-narrow", "narrow", "Narrow passage", bool(z.get("narrow"))),
                        _check("rb-z-air", "air", "Breathable air", bool(z.get("air", True)))),
        water=html('<p class="hint">Underwater: heat does {}% damage, frost {}%; no knockdowns; '
                   'SPD 25% unless amphibious.</p>', dmg["heat"], dmg["frost"]) if dmg else "",
        err=_general_err())
    return html('<details class="rb-zone rb-box"{open}><summary>Zone: <span class="rb-zone-summary">{summary}</span>'
                '</summary><form data-form="rb-zone" novalidate aria-label="Zone settings">{body}</form></details>',
                open=Markup(" open") if open_ else "", summary=summary, body=body)


def areas_html(view: dict[str, Any], open_: bool = False) -> Markup:
    """Obscuring areas (zone data): the marked ones with a Clear button each, and the form to mark one."""
    ch = view.get("choices", {})
    areas = view.get("areas", [])
    rows = [html('<li class="rb-area" data-ref="{ref}">{chip} <strong>{name}</strong> '
                 '<span class="rb-area-what">{title}, to {radius} range ({m} m) around ({x}, {y}) m{alt}</span>{clear}'
                 '</li>', ref=a["ref"], chip=ref_chip(a["ref"]), name=a["name"], title=a["title"], radius=a["radius"], m=_g(a["metres"]),
                 x=_g(a["x"]), y=_g(a["y"]), alt=f', from altitude {_g(a["alt"])} m' if a.get("alt") else "",
                 clear=_btn("Clear", "rb-clear-area", "small secondary", aria=f"Clear {a['name']} ({a['ref']})",
                            area=a["ref"]))
            for a in areas]
    kinds = [(k["key"], k["title"]) for k in ch.get("area_kinds", [])]
    bands = [(b, b) for b in ch.get("area_bands", ("engaged", "short", "medium", "long"))]
    form = html(
        '<form data-form="rb-area" novalidate aria-label="Mark an obscuring area"><div class="rb-grid">{fields}</div>'
        '<div class="rb-row"><button type="submit" class="secondary">Mark the area</button></div>'
        '<p class="hint">What each kind does to sight and movement: Obscuring areas, in Tables (Lack of Sight); who sees '
        'whom follows at once. Water: who is below its surface is underwater (Underwater Combat).</p>{err}</form>',
        fields=fragment(
            _field("rb-ar-kind", "kind", "What", _select("rb-ar-kind", "kind", kinds)),
            _field("rb-ar-x", "x", "Centre east (x, m)", _input("rb-ar-x", "x", "", "decimal")),
            _field("rb-ar-y", "y", "Centre north (y, m)", _input("rb-ar-y", "y", "", "decimal")),
            _field("rb-ar-r", "radius", "Out to", _select("rb-ar-r", "radius", bands, "short"),
                   hint="a band around the point (its metres: Range bands in metres, in Tables, assumed)"),
            _field("rb-ar-alt", "alt", "From altitude (m)", _input("rb-ar-alt", "alt", "0", "decimal"),
                   hint="water: its surface"),
            _field("rb-ar-depth", "depth", "Water depth (m)", _input("rb-ar-depth", "depth", "", "decimal"),
                   hint="water only: below its surface is underwater"),
            _field("rb-ar-name", "name", "Name (optional)", _input("rb-ar-name", "name", "", "text", "e.g. smoke grenade"))),
        err=_general_err())
    summary = ("Obscuring areas and water: " + f"{len(areas)} marked"
               + (" (" + ", ".join(a["name"] for a in areas) + ")" if areas else " (smoke, fog, obstacles, darkness)"))
    # open while setting up with areas marked; in the fight its summary names them, and the round comes first
    setup = view.get("phase", {}).get("id", "setup") == "setup"
    return html('<details class="rb-areas rb-box"{open}><summary>{summary}</summary>'
                '<ul class="rb-area-list" aria-label="Marked areas">{rows}</ul>{form}</details>',
                open=Markup(" open") if open_ or (areas and setup) else "", summary=summary, rows=fragment(rows),
                form=form)
