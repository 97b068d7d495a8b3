"""Obscuring areas as zone data: smoke clouds, fog, dense smoke, large obstacles, shadowed and dark areas.

Lack of Sight: characters "might be unable to see specific characters or areas due to such things as
smoke clouds"; Sight & Visible Range: "Visible range is obviously overridden by large obstacles that
block sight." The GM marks such an area by a point and a band around it (``rb.area``); what each kind
does comes from table ``obscuring`` (one entry per kind, each with the sentence it follows). The
visibility projection, the movement roll and the light at a place read the areas from here, so who
sees whom stays derived and never typed.

Geometry (Fray's, the text has none): an area is a circle on the map of the band's outer edge around
its point (table ``bands``), from the point's altitude up to that many metres above it. A line of
sight is blocked when its horizontal segment comes within the circle and its altitudes overlap the
area's; so a character inside a cloud neither sees out nor is seen from outside.

Water (Underwater Combat: "underwater battles are much more three-dimensional") is an area too, of kind
``water``, outside table ``obscuring`` (it hides nobody): a circle of the band around its point, its
surface at the point's altitude and its bottom ``depth`` metres below. Who is underwater follows from
position: below the surface of a water area (or anywhere when the zone itself is set underwater). A
swimmer at the surface is in the water but breathes air.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``).
"""

from __future__ import annotations

import math
from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Encounter, Position
from fray.games.base import Context
from fray.games.range_band.combatant import BANDS

AREA_BANDS = BANDS[:-1]  # travel has no outer edge: a whole zone is the zone's own settings
MAX_AREAS = 40
MOVEMENT = ("unseen", "obscured", "none")
WATER = "water"  # the kind of a water area (not in table ``obscuring``: it does not hide anyone)
MAX_DEPTH = 20000.0


class Area:
    """One marked area, ready for the geometry: kind entry, centre, radius and height in metres."""

    __slots__ = ("ref", "name", "kind", "entry", "x", "y", "bottom", "top", "r")

    def __init__(self, raw: dict[str, Any], entry: dict[str, Any], metres: float):
        self.ref, self.name, self.kind, self.entry = raw["ref"], raw["name"], raw["kind"], entry
        self.x, self.y = float(raw["x"]), float(raw["y"])
        self.bottom = float(raw.get("alt", 0.0))
        self.top = self.bottom + metres
        self.r = metres

    @property
    def label(self) -> str:
        return f"{self.name} ({self.ref})"

    def contains(self, p: Position) -> bool:
        return (math.hypot(p.x - self.x, p.y - self.y) <= self.r + 1e-9
                and self.bottom - 1e-9 <= p.alt <= self.top + 1e-9)

    def crosses(self, a: Position, b: Position) -> bool:
        """Does the segment from ``a`` to ``b`` come within the area (either end inside counts)?"""
        if max(a.alt, b.alt) < self.bottom - 1e-9 or min(a.alt, b.alt) > self.top + 1e-9:
            return False
        dx, dy = b.x - a.x, b.y - a.y
        L2 = dx * dx + dy * dy
        s = 0.0 if L2 == 0 else max(0.0, min(1.0, ((self.x - a.x) * dx + (self.y - a.y) * dy) / L2))
        return math.hypot(a.x + s * dx - self.x, a.y + s * dy - self.y) <= self.r + 1e-9


class Water:
    """One water area: centre, radius (metres), surface altitude and depth."""

    __slots__ = ("ref", "name", "x", "y", "r", "surface", "depth")

    def __init__(self, raw: dict[str, Any], metres: float):
        self.ref, self.name = raw["ref"], raw["name"]
        self.x, self.y, self.r = float(raw["x"]), float(raw["y"]), metres
        self.surface = float(raw.get("alt", 0.0))
        self.depth = float(raw.get("depth", 0.0))

    @property
    def label(self) -> str:
        return f"{self.name} ({self.ref})"

    @property
    def bottom(self) -> float:
        return self.surface - self.depth

    def holds(self, p: Position) -> bool:
        """In the water: over it, from the bottom up to the surface (a swimmer at the surface counts)."""
        return (math.hypot(p.x - self.x, p.y - self.y) <= self.r + 1e-9
                and self.bottom - 1e-9 <= p.alt <= self.surface + 1e-9)

    def under(self, p: Position) -> bool:
        """Underwater: in the water and below its surface."""
        return self.holds(p) and p.alt < self.surface - 1e-9

    def over(self, p: Position) -> bool:
        return math.hypot(p.x - self.x, p.y - self.y) <= self.r + 1e-9


def waters(enc: Encounter, t: dict[str, dict[str, Any]]) -> list[Water]:
    """The encounter's water areas, in the order they were marked."""
    return [Water(a, band_metres(t, a["radius"])) for a in (dict.get(enc.state, "areas") or []) if a["kind"] == WATER]


def water_at(enc: Encounter, t: dict[str, dict[str, Any]], p: Position) -> Water | None:
    """The water area ``p`` is in (surface or below), if any."""
    for w in waters(enc, t):
        if w.holds(p):
            return w
    return None


def kinds(t: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["key"]: e for e in t["obscuring"]["entries"]}


def band_metres(t: dict[str, dict[str, Any]], band: str) -> float:
    for b in t["bands"]["entries"]:
        if b["band"] == band and b.get("max") is not None:
            return float(b["max"])
    return 0.0


def areas(enc: Encounter, t: dict[str, dict[str, Any]]) -> list[Area]:
    """The encounter's areas whose kind the table still knows, in the order they were marked."""
    ks = kinds(t)
    return [Area(a, ks[a["kind"]], band_metres(t, a["radius"])) for a in enc.state.get("areas", []) if a["kind"] in ks]


def sight_block(zone_areas: list[Area], a: Position, b: Position, band_index: int, vision: str,
                echo_reach: int) -> Area | None:
    """The first area that blocks the sight line from ``a`` to ``b`` (None: nothing does).

    Not at engaged range for kinds that say so ("all characters are visible at engaged range unless
    ... total darkness, blinding, or advanced cloaking"), not for echolocation within its reach where
    the kind is fog or smoke ("Echolocation is also unaffected by fog and smoke")."""
    for ar in zone_areas:
        e = ar.entry
        if not e.get("blocks_sight"):
            continue
        if band_index == 0 and e.get("engaged_sees"):
            continue
        if vision == "echolocation" and e.get("echolocation_sees") and band_index <= echo_reach:
            continue
        if ar.crosses(a, b):
            return ar
    return None


def path_effects(zone_areas: list[Area], a: Position, b: Position, vision: str) -> dict[str, list[Area]]:
    """What a movement from ``a`` to ``b`` passes: Lack of Sight's "movement through an area you can't see"
    (``unseen``: you cannot rush through or out of it, but "You can use a rush to enter it") and highly
    obscured areas (``obscured``: rushing through or out of it gives half its reactive +TN).

    ``out``: the areas the movement goes through or out of (not the ones it only enters); ``start``: the
    unseen areas the mover stands in when the movement begins (they lack sight there)."""
    out: dict[str, list[Area]] = {"unseen": [], "obscured": [], "start": [], "enter": []}
    for ar in zone_areas:
        mv = ar.entry.get("movement", "none")
        if mv == "none" or (vision == "echolocation" and ar.entry.get("echolocation_sees")):
            continue
        starts, ends = ar.contains(a), ar.contains(b)
        if not ar.crosses(a, b):
            continue
        through = starts or not ends  # out of it, or in and out again; only entering is allowed a rush
        if mv == "unseen" and starts:
            out["start"].append(ar)
        (out[mv] if through else out["enter"]).append(ar)
    return out


def local_light(zone_areas: list[Area], p: Position) -> tuple[str | None, str]:
    """The darkest light an area imposes at ``p`` (None: no area sets the light there)."""
    order = ("none", "low", "medium", "high")
    best, why = None, ""
    for ar in zone_areas:
        lv = ar.entry.get("light")
        if lv and ar.contains(p) and (best is None or order.index(lv) < order.index(best)):
            best, why = lv, f"inside {ar.label}"
    return best, why


def local_clutter(zone_areas: list[Area], p: Position, clutter: str) -> tuple[str, str]:
    """The clutter at ``p``: the zone's, or an area's where it is higher."""
    order = ("low", "medium", "high")
    why = ""
    for ar in zone_areas:
        cl = ar.entry.get("clutter")
        if cl and ar.contains(p) and order.index(cl) > order.index(clutter):
            clutter, why = cl, f"inside {ar.label}"
    return clutter, why


# -- the GM's actions --------------------------------------------------------------------------------

def mark_area(ctx: Context) -> None:
    """``rb.area {kind, x, y, alt?, radius, name?, depth?}``: the GM marks an obscuring area around a point, its
    edge ``radius`` (a band: engaged, short, medium, long) away; table ``obscuring`` says what the kind does.
    Kind ``water`` (Underwater Combat) takes ``depth`` (metres, more than 0): its surface is at ``alt``."""
    from fray.reducer import _number
    from fray.games.range_band.state_edits import tables_of

    enc, t = ctx.enc, tables_of(ctx)
    ks = kinds(t)
    kind = ctx.action.get("kind")
    if not isinstance(kind, str) or (kind not in ks and kind != WATER):
        raise InvalidAction("kind", f"must be one of {', '.join([*ks, WATER])}")
    radius = ctx.action.get("radius")
    if radius not in AREA_BANDS:
        raise InvalidAction("radius", f"must be one of {', '.join(AREA_BANDS)} (a whole zone: use the zone settings)")
    x = _number(ctx.action.get("x"), "x", -100000, 100000)
    y = _number(ctx.action.get("y"), "y", -100000, 100000)
    alt = _number(ctx.action.get("alt", 0), "alt", -20000, 20000)
    depth = None
    if kind == WATER:
        depth = _number(ctx.action.get("depth"), "depth", 0, MAX_DEPTH)
        if depth <= 0:
            raise InvalidAction("depth", "how deep the water is: more than 0 m")
    title = "water" if kind == WATER else ks[kind].get("title", kind)
    name = ctx.action.get("name") or ("Water" if kind == WATER else title.split(" (")[0])
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise InvalidAction("name", "must be text of 1 to 40 characters")
    have = enc.state.get("areas", [])
    if len(have) >= MAX_AREAS:
        raise RuleViolation("Lack of Sight", f"at most {MAX_AREAS} marked areas: clear one first")
    n = int(enc.state.get("next_area", 1))
    ref = f"A{n}"
    enc.state["next_area"] = n + 1
    area = {"ref": ref, "kind": kind, "name": " ".join(name.split()), "x": x, "y": y, "alt": alt, "radius": radius}
    if depth is not None:
        area["depth"] = depth
    enc.state["areas"] = have + [area]
    ctx.event("area", f"{area['name']} ({ref}): {title}, to {radius} range around ({x:g}, {y:g}) m"
              + (f", {depth:g} m deep below its surface at altitude {alt:g} m" if depth is not None else ""),
              ref=ref, area_kind=kind)


def clear_area(ctx: Context) -> None:
    """``rb.clear_area {area}``: the smoke clears (or the GM removes a mark)."""
    ref = ctx.action.get("area")
    have = ctx.enc.state.get("areas", [])
    gone = next((a for a in have if a["ref"] == ref), None)
    if gone is None:
        raise InvalidAction("area", f"there is no marked area {ref!r}" + (
            f" (marked: {', '.join(a['ref'] for a in have)})" if have else ""))
    ctx.enc.state["areas"] = [a for a in have if a["ref"] != ref]
    ctx.event("area", f"{gone['name']} ({ref}) is cleared", ref=ref)


def check_table(table: dict[str, Any]) -> None:
    """An edit of table ``obscuring`` keeps every kind and the fields the rules read."""
    from fray.games.range_band.tables import _one_of
    p = "value.entries"
    keys = set()
    for i, e in enumerate(table["entries"]):
        keys.add(_one_of(e.get("key"), f"{p}.{i}.key", ("smoke", "dense_smoke", "obstacle", "shadow", "darkness")))
        for f in ("blocks_sight", "engaged_sees", "echolocation_sees"):
            if not isinstance(e.get(f), bool):
                raise InvalidAction(f"{p}.{i}.{f}", "must be true or false")
        _one_of(e.get("movement"), f"{p}.{i}.movement", MOVEMENT)
        if e.get("light") is not None:
            _one_of(e["light"], f"{p}.{i}.light", ("none", "low", "medium", "high"))
        if e.get("clutter") is not None:
            _one_of(e["clutter"], f"{p}.{i}.clutter", ("low", "medium", "high"))
    if len(keys) != 5 or len(table["entries"]) != 5:
        raise InvalidAction(p, "needs smoke, dense_smoke, obstacle, shadow and darkness, once each")
