"""What the map measures in the strike-rank game: metres along the straight line through the air.

Read from the strike-rank engine: ``c.data["weapons"]`` (``missile``, ``range`` in metres) and
``c.stats["move"]`` (Movement, metres per SR) limited by ``body.movement_limits``; the engagement
range ``rules.ENGAGEMENT_RANGE_M``; movement delay from ``rules.movement_sr`` over the metres to
within engagement range (as ``timing`` declares a move towards a target). Engagements are derived
from positions (``combat.engaged_with``: enemies within engagement range).
"""

from __future__ import annotations

import math
from typing import Any

from fray.geometry import distance
from fray.maprules import Band, MapRule, Ring, below_ground_text
from fray.model import Combatant, Encounter, Position
from fray.games.strike_rank import body, combat, rules


class StrikeRankMap(MapRule):
    """Metres, straight line. Missile weapons: range and double range (skill halved beyond range,
    past double range a miss); movement: Movement metres per SR."""

    state_keys = ()  # it reads the combatants and the tables, nothing of the state

    def below_ground(self, enc: Encounter, c: Combatant, p: Position) -> str:
        """The map has no water (an attack states how deep its fighters stand: Underwater Combat); an
        aquatic creature swims where the GM puts it, anyone else stands on the ground."""
        if c.data.get("aquatic"):
            return ""
        return below_ground_text(c, "only an aquatic creature swims below it")

    def contact(self, enc: Encounter) -> float:
        return rules.ENGAGEMENT_RANGE_M  # enemies this near are engaged (``combat.engaged_with``)

    def missile(self, c: Combatant) -> dict[str, Any] | None:
        for w in c.data.get("weapons", []) or []:
            if isinstance(w, dict) and w.get("missile") and w.get("range"):
                return w
        return None

    def rate(self, c: Combatant) -> float:
        rate = float(c.stats.get("move", 3) or 0)
        try:
            lim = body.movement_limits(c)
        except (KeyError, TypeError):
            return rate
        if lim.get("half_rate"):
            rate /= 2
        if lim.get("max_rate") is not None:
            rate = min(rate, float(lim["max_rate"]))
        return rate

    def weapon(self, enc: Encounter, c: Combatant) -> str:
        w = self.missile(c)
        return w["name"] if w else ""

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        out: list[Ring] = []
        w = self.missile(c)
        if w:
            out.append(Ring(float(w["range"]), f"{w['name']} range {w['range']:g} m", "range"))
            out.append(Ring(2 * float(w["range"]), f"double range {2 * w['range']:g} m", "double"))
        rate = self.rate(c)
        if rate > 0:
            for k in (1, 2, 3):
                out.append(Ring(rate * k, f"{k} SR move ({rate * k:g} m)", "move"))
        return out

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        """The band and the rule from one figure: the metres still to go to engagement range, to
        the centimetre, as ``timing`` declares a move towards a target. A band measured apart said
        "out of reach" at 3.004 m beside "move delay 0 SR (within engagement range)"."""
        engaged = rules.ENGAGEMENT_RANGE_M
        rate = self.rate(c)
        to_go = rules.to_engage(metres)
        mv = rules.movement_sr(to_go, rate) if rate > 0 else None
        rule = (f"move delay {mv.total} SR (closes {rules.metres_text(to_go)} at {rate:g} m a strike rank)" if mv else
                "move delay 0 SR (within engagement range)" if rate > 0 else "cannot move")
        w = self.missile(c)
        if to_go <= 0:
            band = Band("engagement range", None, f"within {engaged:g} m")
        elif w is None:
            # a melee blow needs a move first ("must move 6m to get within melee range of an
            # opponent, the attack will be delayed by 2 SR"): within reach while one can move
            band = (Band("beyond engagement range", None, f"a move of {to_go:g} m first") if rate > 0
                    else Band("out of reach", None, f"beyond engagement range {engaged:g} m", reachable=False))
        elif metres <= w["range"] + 1e-9:
            band = Band("within range", None, f"{w['name']} range {w['range']:g} m")
        elif metres <= 2 * w["range"] + 1e-9:
            band = Band("beyond range: skill halved", None, f"{w['name']} range {w['range']:g} m")
        else:
            band = Band("past double range: a miss", None, f"double range {2 * w['range']:g} m", reachable=False)
        return band, rule

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        """Each engaged pair once (``combat.engaged_with``: enemies within engagement range), in
        the order the combatants stand in the encounter. Only the tokens in the grid cells around
        each one are measured (cells as wide as the range, two either way: a pair within range is
        never further apart than one cell, whatever the rounding), not all 40,000 pairs of a
        200-combatant fight at every load and map view (issue 11)."""
        r = rules.ENGAGEMENT_RANGE_M
        alive = [(k, c) for k, c in enumerate(enc.combatants) if "dead" not in c.conditions]
        cells: dict[tuple[int, int], list[tuple[int, Any]]] = {}
        at = {}
        for k, c in alive:
            cell = at[k] = (math.floor(c.position.x / r), math.floor(c.position.y / r))
            cells.setdefault(cell, []).append((k, c))
        out = []
        for k, c in alive:
            cx, cy = at[k]
            near = sorted((x for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)
                           for x in cells.get((cx + dx, cy + dy), ())), key=lambda x: x[0])
            for _, o in near:
                if (c.id < o.id and o.side != c.side
                        and rules.within_engagement(distance(o.position, c.position))):
                    out.append((c.id, o.id))
        return out


def move_delay_sr(metres: float, rate: float) -> int:
    """Plain strike-rank arithmetic for a GM's check: ``ceil(metres / Movement)``, at least 1 to move."""
    if metres <= 0:
        return 0
    return max(1, math.ceil(metres / rate - 1e-9)) if rate > 0 else 0
