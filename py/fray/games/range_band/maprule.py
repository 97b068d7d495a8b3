"""The map's rule for the range-band game: bands instead of metres.

The ruleset's ``map_rule`` (the plug-in interface, ``games/base.py``). Range between two characters is "the greater of the horizontal and the vertical band"
(Flight; FACTS.md), the metres of each band from table ``bands`` (assumed; the GM's edit wins).
Rings: the outer edge of each band around the selected token. Links: mount and rider, and grapples.
The rule text of each target says whether the selected combatant can see it (the visibility
projection), so the map can draw the unseen ones as unseen. Areas: the obscuring areas the GM
marked (``areas.py``), with the very centre, radius and height the sight lines are judged by.
"""

from __future__ import annotations

from typing import Any

from fray.maprules import Band, MapArea, MapRule, Ring, below_ground_text
from fray.model import Combatant, Encounter, Position
from fray.games.range_band import areas as zone_areas
from fray.games.range_band import rules

# How each kind of table ``obscuring`` is filled on the map (maprules.AREA_STYLES): fog and smoke
# light grey, dense smoke darker, an obstacle hatched, shadow dim, darkness near black.
AREA_STYLE = {"smoke": "haze", "dense_smoke": "dense", "obstacle": "solid", "shadow": "dim", "darkness": "dark"}


def _tables(enc: Encounter) -> dict[str, dict[str, Any]]:
    from fray.games import get_ruleset
    rs = get_ruleset(enc.ruleset)
    return {k: rs.table(enc, k) for k in rs.tables}


class RangeBandMap(MapRule):
    """The greater of the horizontal and the vertical band; who the selected combatant can see."""

    combine = "band"

    def states(self, enc: Encounter, c: Combatant) -> list[str]:
        """Its statuses in the rule text's words ("knocked down", "minor stunned"), and High Stealth: the
        map's own list knows none of the names a save keeps (a GM's fights: no status was drawn)."""
        from fray.games.range_band.statuses import STATUSES, word

        out = [word(s) for s in STATUSES if s in c.conditions and s not in ("dead", "incapacitated")]
        if c.data.get("stealth") == "high":
            out.append("high stealth")
        return out

    def lying(self, enc: Encounter, c: Combatant) -> bool:
        # on the ground, as prone is in the other games (and prone itself, a condition the GM may set)
        return "knocked-down" in c.conditions or super().lying(enc, c)

    def seen_states(self, enc: Encounter, c: Combatant) -> list[str]:
        """Someone knocked down is seen on the ground; a stun, or a foe's stealth level, is the GM's to tell. A party
        member's High Stealth is the players' own choice (High Stealth: "the GM will not assume you are using High
        Stealth at all times, unless your party is willing to move very slowly"): their window says it of them."""
        from fray.players import PARTY

        out = ["knocked down"] if "knocked-down" in c.conditions else []
        if c.side == PARTY and c.data.get("stealth") == "high":
            out.append("high stealth")
        return out

    def contact(self, enc: Encounter) -> float:
        for b in _tables(enc)["bands"]["entries"]:
            if b.get("band") == "engaged" and isinstance(b.get("max"), (int, float)):
                return float(b["max"])  # the GM's table: melee needs engaged range
        return 0.0

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        out = []
        for b in _tables(enc)["bands"]["entries"]:
            if b.get("max") is not None:
                out.append(Ring(float(b["max"]), f"{b['band']} (to {b['max']:g} m, assumed)", "band"))
        return out

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        t = _tables(enc)
        return _band(enc, t, rules.visibility(enc, t).get(c.id, {}), c, other)

    def bands_to(self, enc: Encounter, c: Combatant, others: list[tuple[Combatant, float]]) -> list[tuple[Band | None, str]]:
        # the projection once for the whole view: asking it per target re-made its key (every
        # combatant's sight inputs) 200 times for 200 combatants (issue 11)
        t = _tables(enc)
        row = rules.visibility(enc, t).get(c.id, {})
        return [_band(enc, t, row, c, o) for o, _ in others]

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        out = set()
        for c in enc.combatants:
            m = c.data.get("mount")
            if m and enc.get(m) is not None:
                out.add(tuple(sorted((c.id, m))))
            for g in c.data.get("grappling", []) or []:
                if enc.get(g) is not None and g != c.id:
                    out.add(tuple(sorted((c.id, g))))
        return sorted(out)

    # the links are a rider on its mount and grapples: a rider is not "engaged" with its own mount
    links_heading = "Mounted and grappling"

    def link_text(self, enc: Encounter, a: str, b: str) -> str:
        ca, cb = enc.peek_at(a), enc.peek_at(b)
        if ca is None or cb is None:
            return ""
        for r, m in ((ca, cb), (cb, ca)):
            if r.data.get("mount") == m.id:
                return f"{r.name} rides {m.name}"
        return f"{ca.name} and {cb.name} are grappling"

    def unseen(self, enc: Encounter, c: Combatant) -> dict[str, str]:
        """Who ``c`` cannot see, each with the last reason (the map draws them as unseen)."""
        row = rules.visibility(enc, _tables(enc)).get(c.id, {})
        return {o: v["why"][-1] if v["why"] else "cannot see" for o, v in row.items() if not v["sees"]}

    def altitude(self, enc: Encounter, c: Combatant) -> str | None:
        """The altitude band to draw beside a token above the ground ("short"), else None."""
        return rules.altitude_band(c, _tables(enc)) if c.position.alt > 0 else None

    def below_ground(self, enc: Encounter, c: Combatant, p: Position) -> str:
        """Below the ground only in water (Underwater Combat); a flyer too lands on the ground."""
        why = rules.below_ground(enc, p)
        return below_ground_text(c, why) if why else ""

    def areas(self, enc: Encounter) -> list[MapArea]:
        """The marked obscuring areas: a circle of the band's outer edge (table ``bands``) around the
        point, from its altitude up that many metres, as ``areas.Area`` judges sight lines."""
        t = _tables(enc)
        return [MapArea(a.ref, a.label, AREA_STYLE.get(a.kind, "haze"), a.x, a.y, a.r, a.bottom, a.top,
                        a.entry.get("title", a.kind))
                for a in zone_areas.areas(enc, t)] + [
            # water (Underwater Combat): from its bottom up to its surface, blue
            MapArea(w.ref, w.label, "water", w.x, w.y, w.r, w.bottom, w.surface,
                    f"water, {w.depth:g} m deep: below its surface is underwater")
            for w in zone_areas.waters(enc, t)]


def _band(enc: Encounter, t: dict[str, dict[str, Any]], seen: dict[str, Any], c: Combatant,
          other: Combatant) -> tuple[Band, str]:
    """The band from ``c`` to ``other`` and what ``c`` sees of it (``seen``: ``c``'s row of the projection)."""
    rb = rules.range_between(c.position, other.position, t)
    row = seen.get(other.id)
    sees, why = (row["sees"], row["why"]) if row else rules.can_see(enc, c, other, t)
    text = "sees" if sees else "cannot see: " + why[-1] if why else "cannot see"
    return Band(rb["band"], None, rb["why"] + " (metre limits assumed)"), text
