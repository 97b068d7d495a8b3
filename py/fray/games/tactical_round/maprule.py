"""What the map measures in the tactical-round game: metres along the straight line through the air.

Read from the tactical-round engine: ``c.data["weapons"]`` (``kind``, ``base_range``) and
``c.data["wielding"]``; the ``range_bands`` table (the GM's edited copy wins) through
``rules.range_band``. Engagements are stored in ``c.data["engaged_with"]`` (ids, kept on both
sides).
"""

from __future__ import annotations

from typing import Any

from fray.maprules import Band, MapRule, Ring, signed
from fray.model import Combatant, Encounter
from fray.games.tactical_round import rules


class TacticalRoundMap(MapRule):
    """Metres, straight line. A ranged weapon's Base Range ×1..×4 with the range-band modifiers."""

    state_keys = ()  # it reads the combatants and the tables, nothing of the state

    def ranged(self, c: Combatant) -> dict[str, Any] | None:
        ws = [w for w in c.data.get("weapons", []) or [] if isinstance(w, dict)]
        i = c.data.get("wielding", 0)
        if isinstance(i, int) and 0 <= i < len(ws) and ws[i].get("base_range"):
            return ws[i]
        return next((w for w in ws if w.get("base_range")), None)

    def bands(self, enc: Encounter) -> list[dict[str, Any]]:
        from fray.games import get_ruleset
        return get_ruleset(enc.ruleset).table(enc, "range_bands")["entries"]

    def weapon(self, enc: Encounter, c: Combatant) -> str:
        w = self.ranged(c)
        return w["name"] if w else ""

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        w = self.ranged(c)
        if not w:
            return []
        return [Ring(float(w["base_range"]) * e["up_to_multiple"],
                     f"×{e['up_to_multiple']:g} {signed(int(e['modifier']))}", "band") for e in self.bands(enc)]

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        if other.id in (c.data.get("engaged_with") or []):
            engaged = Band("engaged", None, "in melee")
        else:
            engaged = None
        w = self.ranged(c)
        if not w:
            return engaged, ""
        tables = {"range_bands": {"entries": self.bands(enc)}}
        e = rules.range_band(round(metres, 2), float(w["base_range"]), tables)
        if e is None:
            last = self.bands(enc)[-1]["up_to_multiple"]
            band = Band("out of range", None, f"over {last:g}× Base Range {w['base_range']:g} m", reachable=False)
            return engaged or band, f"{w['name']}: cannot attack"
        band = Band(e.get("label", ""), int(e["modifier"]), f"{w['name']} Base Range {w['base_range']:g} m")
        return engaged or band, f"range modifier {signed(int(e['modifier']))}"

    def unsaid(self, enc: Encounter, c: Combatant) -> list[str]:
        """The Hit Point states a worse one includes, as the strip leaves them (``rules.shown_conditions``)."""
        from fray.games import get_ruleset
        shown = rules.shown_conditions(c, get_ruleset(enc.ruleset).all_tables(enc))
        return [x for x in c.conditions if x not in shown]

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        out = set()
        for c in enc.combatants:
            for oid in c.data.get("engaged_with", []) or []:
                if enc.get(oid) is not None and oid != c.id:
                    out.add(tuple(sorted((c.id, oid))))
        return sorted(out)
