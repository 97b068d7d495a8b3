"""What the map measures, by each game's rule: distances, range bands, rings and engagements.

Pure engine code (no ``js``): the map pane renders what ``map_view`` returns, so the figures a
GM reads beside the map are the ones the rulesets use. Each ruleset has a ``MapRule``:

* ``combine``: how horizontal and vertical distance make one range. The metre-based games
  (strike-rank, tactical-round) measure the straight line through the air (``fray.geometry``);
  the range-band game takes *the greater of the horizontal and the vertical band* (FACTS.md,
  range-band), done by ``greater_band``.
* the range band to each other combatant and the rings around the selected one come from the
  ruleset's own data and functions, read where the ruleset engines keep them:

  - strike-rank: ``c.data["weapons"]`` (``missile``, ``range`` in metres) and ``c.stats["move"]``
    (Movement, metres per SR) limited by ``body.movement_limits``; the engagement range
    ``rules.ENGAGEMENT_RANGE_M``; movement delay from ``rules.movement_sr`` over the metres to
    within engagement range (as ``timing`` declares a move towards a target).
  - tactical-round: ``c.data["weapons"]`` (``kind``, ``base_range``) and ``c.data["wielding"]``;
    the ``range_bands`` table (the GM's edited copy wins) through ``rules.range_band``.
  - free-form: distances only.

Engagements (drawn as links): strike-rank derives them from positions (``combat.engaged_with``:
enemies within engagement range); tactical-round stores them in ``c.data["engaged_with"]``
(ids, kept on both sides; read through ``rules.engaged_ids``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .geometry import separation
from .model import Combatant, Encounter, Position

# The range-band game's bands in metres, nearest first. The band names are the game's (FACTS.md);
# the metre limits are not published: *assumed* defaults so the map can place a token in a band.
RANGE_BAND_GAME_BANDS: dict[str, Any] = {
    "id": "map_range_bands",
    "title": "Range bands by distance (range-band game)",
    "source": "band names: FACTS.md (range-band); metre limits assumed",
    "assumed": True,
    "entries": [
        {"label": "engaged", "max": 2},
        {"label": "short", "max": 10},
        {"label": "medium", "max": 50},
        {"label": "long", "max": 250},
        {"label": "travel", "max": None},
    ],
}


@dataclass(frozen=True)
class Band:
    """A range band: its name, its CMB/skill modifier if the game has one, and why."""

    label: str
    modifier: int | None = None
    note: str = ""
    reachable: bool = True


@dataclass(frozen=True)
class Ring:
    """A circle around the selected token: ``radius`` metres, labelled for the GM."""

    radius: float
    label: str
    kind: str  # range | double | move | band


@dataclass
class Target:
    """One other combatant as seen from the selected one."""

    id: str
    name: str
    metres: float
    explain: str
    band: Band | None = None
    rule: str = ""  # the ruleset figure this distance drives ("move delay 2 SR", "range −25")
    in_the_way: list[str] = field(default_factory=list)  # names of bodies on the line between


@dataclass
class MapView:
    combine: str
    selected: str | None
    targets: list[Target] = field(default_factory=list)
    rings: list[Ring] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    weapon: str = ""  # which weapon the rings and bands are for


# -- combining horizontal and vertical ------------------------------------------------------------

def band_index(metres: float, bands: list[dict[str, Any]]) -> int:
    """Index of the first band whose ``max`` (``None`` = no limit) covers ``metres``."""
    for i, b in enumerate(bands):
        if b.get("max") is None or metres <= b["max"] + 1e-9:
            return i
    return len(bands) - 1


def greater_band(horizontal: float, vertical: float, bands: list[dict[str, Any]]) -> dict[str, Any]:
    """"Range between two characters is the greater of the horizontal and the vertical band."""
    return bands[max(band_index(horizontal, bands), band_index(vertical, bands))]


def measure(a: Position, b: Position, combine: str = "straight") -> tuple[float, str]:
    """Metres between two positions by the rule, with how it was reached."""
    s = separation(a, b)
    if combine == "straight":
        return s.straight, s.explain()
    if combine == "horizontal":
        return s.horizontal, f"{s.horizontal:.1f} m across"
    if combine == "band":
        # a band game still shows metres; the band itself comes from greater_band
        return max(s.horizontal, s.vertical), f"{s.horizontal:.1f} m across, {s.vertical:.1f} m up"
    raise ValueError(f"unknown distance rule {combine!r}")


# The map knows bodies, not walls or foliage: a combatant this close to the line between two
# others is flagged for the GM (line of sight, cover, "shooting into melee"); terrain is theirs.
LINE_OF_FIRE_M = 1.0


def in_the_way(enc: Encounter, a: Combatant, b: Combatant, radius: float = LINE_OF_FIRE_M) -> list[Combatant]:
    """Combatants standing within ``radius`` metres of the straight line from ``a`` to ``b``
    (in three dimensions, strictly between the two), nearest to ``a`` first."""
    ax, ay, az = a.position.x, a.position.y, a.position.alt
    dx, dy, dz = b.position.x - ax, b.position.y - ay, b.position.alt - az
    length2 = dx * dx + dy * dy + dz * dz
    if length2 == 0:
        return []
    found = []
    for o in enc.combatants:
        if o.id in (a.id, b.id):
            continue
        px, py_, pz = o.position.x - ax, o.position.y - ay, o.position.alt - az
        t = (px * dx + py_ * dy + pz * dz) / length2
        if not 0 < t < 1:
            continue
        off = math.dist((px, py_, pz), (t * dx, t * dy, t * dz))
        if off <= radius:
            found.append((t, o))
    return [o for _, o in sorted(found, key=lambda x: (x[0], x[1].id))]


# -- per-ruleset rules ----------------------------------------------------------------------------

class MapRule:
    """Free-form and the default: straight-line distances, no bands, rings or engagements."""

    combine = "straight"

    def weapon(self, enc: Encounter, c: Combatant) -> str:
        return ""

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        return []

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        return None, ""

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        return []


def _sr():
    from .rulesets.strike_rank import body, combat, rules  # noqa: F401  (absent ruleset: ImportError)
    return body, combat, rules


class StrikeRankMap(MapRule):
    """Metres, straight line. Missile weapons: range and double range (skill halved beyond range,
    past double range a miss); movement: Movement metres per SR."""

    def missile(self, c: Combatant) -> dict[str, Any] | None:
        for w in c.data.get("weapons", []) or []:
            if isinstance(w, dict) and w.get("missile") and w.get("range"):
                return w
        return None

    def rate(self, c: Combatant) -> float:
        rate = float(c.stats.get("move", 3) or 0)
        try:
            body, _, _ = _sr()
            lim = body.movement_limits(c)
        except (ImportError, KeyError, TypeError):
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
        try:
            _, _, rules = _sr()
        except ImportError:
            return None, ""
        engaged = rules.ENGAGEMENT_RANGE_M
        rate = self.rate(c)
        to_go = max(0.0, round(metres - engaged, 2))
        mv = rules.movement_sr(to_go, rate) if rate > 0 else None
        rule = (f"move delay {mv.total} SR ({mv.note})" if mv else
                "move delay 0 SR (within engagement range)" if rate > 0 else "cannot move")
        w = self.missile(c)
        if metres <= engaged + 1e-9:
            band = Band("engagement range", None, f"within {engaged:g} m")
        elif w is None:
            band = Band("out of reach", None, f"beyond engagement range {engaged:g} m")
        elif metres <= w["range"] + 1e-9:
            band = Band("within range", None, f"{w['name']} range {w['range']:g} m")
        elif metres <= 2 * w["range"] + 1e-9:
            band = Band("beyond range: skill halved", None, f"{w['name']} range {w['range']:g} m")
        else:
            band = Band("past double range: a miss", None, f"double range {2 * w['range']:g} m", reachable=False)
        return band, rule

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        try:
            _, combat, _ = _sr()
        except ImportError:
            return []
        out = []
        for c in enc.combatants:
            if "dead" in c.conditions:
                continue
            for o in combat.engaged_with(enc, c):
                if c.id < o.id:
                    out.append((c.id, o.id))
        return out


def _tr():
    from .rulesets.tactical_round import rules  # noqa: F401
    return rules


class TacticalRoundMap(MapRule):
    """Metres, straight line. A ranged weapon's Base Range ×1..×4 with the range-band modifiers."""

    def ranged(self, c: Combatant) -> dict[str, Any] | None:
        ws = [w for w in c.data.get("weapons", []) or [] if isinstance(w, dict)]
        i = c.data.get("wielding", 0)
        if isinstance(i, int) and 0 <= i < len(ws) and ws[i].get("base_range"):
            return ws[i]
        return next((w for w in ws if w.get("base_range")), None)

    def bands(self, enc: Encounter) -> list[dict[str, Any]]:
        from .rulesets import get_ruleset
        return get_ruleset(enc.ruleset).table(enc, "range_bands")["entries"]

    def weapon(self, enc: Encounter, c: Combatant) -> str:
        w = self.ranged(c)
        return w["name"] if w else ""

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        w = self.ranged(c)
        if not w:
            return []
        return [Ring(float(w["base_range"]) * e["up_to_multiple"],
                     f"×{e['up_to_multiple']:g} {_signed(int(e['modifier']))}", "band") for e in self.bands(enc)]

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        try:
            rules = _tr()
        except ImportError:
            return None, ""
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
        return engaged or band, f"range modifier {_signed(int(e['modifier']))}"

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        out = set()
        for c in enc.combatants:
            for oid in c.data.get("engaged_with", []) or []:
                if enc.get(oid) is not None and oid != c.id:
                    out.add(tuple(sorted((c.id, oid))))
        return sorted(out)


class RangeBandMap(MapRule):
    """The range-band game (arrives later): the greater of the horizontal and the vertical band."""

    combine = "band"

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        s = separation(c.position, other.position)
        b = greater_band(s.horizontal, s.vertical, RANGE_BAND_GAME_BANDS["entries"])
        return Band(b["label"], None, "greater of horizontal and vertical band (metre limits assumed)"), ""


RULES: dict[str, MapRule] = {
    "strike-rank": StrikeRankMap(),
    "tactical-round": TacticalRoundMap(),
    "range-band": RangeBandMap(),
}


def rule_for(ruleset_id: str) -> MapRule:
    return RULES.get(ruleset_id) or MapRule()


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def map_view(enc: Encounter, selected: str | None) -> MapView:
    """Everything the map shows beyond positions: targets from the selected token, rings, links."""
    rule = rule_for(enc.ruleset)
    try:
        links = rule.links(enc)
    except (KeyError, TypeError, AttributeError):  # a ruleset's data not in the shape expected
        links = []
    c = enc.get(selected) if selected else None
    view = MapView(rule.combine, c.id if c else None, links=links)
    if c is None:
        return view
    try:
        view.rings = rule.rings(enc, c)
        view.weapon = rule.weapon(enc, c)
    except (KeyError, TypeError, AttributeError):
        view.rings = []
    for o in enc.combatants:
        if o.id == c.id:
            continue
        metres, explain = measure(c.position, o.position, rule.combine)
        try:
            band, text = rule.band(enc, c, o, metres)
        except (KeyError, TypeError, AttributeError):
            band, text = None, ""
        view.targets.append(Target(o.id, o.name, metres, explain, band, text,
                                   [x.name for x in in_the_way(enc, c, o)]))
    view.targets.sort(key=lambda t: (t.metres, t.id))
    return view


def move_delay_sr(metres: float, rate: float) -> int:
    """Plain strike-rank arithmetic for a GM's check: ``ceil(metres / Movement)``, at least 1 to move."""
    if metres <= 0:
        return 0
    return max(1, math.ceil(metres / rate - 1e-9)) if rate > 0 else 0
