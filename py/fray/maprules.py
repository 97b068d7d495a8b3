"""What the map measures, by each game's rule: distances, range bands, rings and engagements.

Pure engine code (no ``js``): the map pane renders what ``map_view`` returns, so the figures a
GM reads beside the map are the ones the rulesets use. Each ruleset owns a ``MapRule`` (its
``Ruleset.map_rule``, in its own package: ``games/strike_rank/maprule.py``, ...); this module
holds the interface, the geometry every game shares and ``map_view``, and names no game.

* ``combine``: how horizontal and vertical distance make one range. The metre-based games
  measure the straight line through the air (``fray.geometry``); a band game may take *the
  greater of the horizontal and the vertical band* (``greater_band``).
* ``rings``, ``band``, ``links``: the rings around the selected token, the band to each other
  combatant with the figure it drives, and the engagements drawn as links, from the ruleset's
  own data and functions.
* ``unseen`` and ``altitude``: which combatants the selected one cannot see, with why (drawn as
  unseen), and how a token's height is named (a game's altitude band; default: metres only).
* ``areas``: the features of the scene a game marks on the ground (smoke, darkness, an obstacle),
  each a circle from a bottom height to a top, drawn under the tokens; the look is one of a few
  neutral ``style`` words, so the map's CSS names no game.

A ruleset without a map rule (free-form) gets ``MapRule``: distances only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .geometry import separation
from .model import Combatant, Encounter, Position


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
    unseen: str = ""  # why the selected combatant cannot see this one ("" = it can, or the game does not say)


AREA_STYLES = ("haze", "dense", "solid", "dim", "dark", "water")  # the map's fills: light grey to black, hatched; water blue


@dataclass(frozen=True)
class MapArea:
    """A marked area of the scene: a circle of ``radius`` metres around (``x``, ``y``), from altitude
    ``bottom`` up to ``top``. ``style`` is one of ``AREA_STYLES`` (how the map fills it)."""

    ref: str
    label: str
    style: str
    x: float
    y: float
    radius: float
    bottom: float
    top: float
    note: str = ""  # what the area does, for the tooltip


@dataclass
class MapView:
    combine: str
    selected: str | None
    targets: list[Target] = field(default_factory=list)
    rings: list[Ring] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)
    weapon: str = ""  # which weapon the rings and bands are for
    altitudes: dict[str, str] = field(default_factory=dict)  # id -> altitude band name, where the game has bands
    areas: list[MapArea] = field(default_factory=list)
    states: dict[str, list[str]] = field(default_factory=dict)  # id -> the game's states (``MapRule.states``)
    lying: set[str] = field(default_factory=set)  # ids drawn lying on the ground (``MapRule.lying``)
    unsaid: dict[str, list[str]] = field(default_factory=dict)  # id -> conditions left unsaid (``MapRule.unsaid``)
    # how the list under the map heads and words the links (``MapRule.links_heading`` / ``link_text``)
    links_heading: str = "Engaged"
    link_texts: dict[tuple[str, str], str] = field(default_factory=dict)


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


def lines_of_fire(enc: Encounter, a: Combatant, targets: list[Combatant],
                  radius: float = LINE_OF_FIRE_M) -> list[list[Combatant]]:
    """``in_the_way(enc, a, b)`` for every ``b`` of ``targets``, in order: the positions are read
    once and the inner loop does arithmetic only, since a map view asks this for every pair with
    the selected token (40,000 pairs with 200 combatants, issue 11)."""
    ax, ay, az = a.position.x, a.position.y, a.position.alt
    rel = [(o, o.id, o.position.x - ax, o.position.y - ay, o.position.alt - az)
           for o in enc.combatants if o.id != a.id]
    out = []
    for b in targets:
        dx, dy, dz = b.position.x - ax, b.position.y - ay, b.position.alt - az
        length2 = dx * dx + dy * dy + dz * dz
        if length2 == 0:
            out.append([])
            continue
        found = []
        bid = b.id
        for o, oid, px, py_, pz in rel:
            if oid == bid:
                continue
            t = (px * dx + py_ * dy + pz * dz) / length2
            if not 0 < t < 1:
                continue
            if math.dist((px, py_, pz), (t * dx, t * dy, t * dz)) <= radius:
                found.append((t, oid, o))
        found.sort(key=lambda x: (x[0], x[1]))
        out.append([o for _, _, o in found])
    return out


# -- the interface a ruleset implements ----------------------------------------------------------------------------

class MapRule:
    """Free-form and the default: straight-line distances, no bands, rings or engagements."""

    combine = "straight"
    # The keys of ``Encounter.state`` this rule reads, so the page redraws the map only when one of
    # them (or a combatant, a table, the selection or the view) changed; None: it may read any.
    state_keys: "tuple[str, ...] | None" = None

    def weapon(self, enc: Encounter, c: Combatant) -> str:
        return ""

    def states(self, enc: Encounter, c: Combatant) -> list[str]:
        """The game's own states of ``c``, in the GM's words, said beside its token on the GM's map after
        the conditions the map itself knows (dead, prone, stunned, ...: ``mapview.state_words``), whose
        names a game may not share (range-band keeps "knocked-down"). Default: none."""
        return []

    def unsaid(self, enc: Encounter, c: Combatant) -> list[str]:
        """Conditions of ``c`` its token leaves unsaid because a worse one includes them (tactical-round's
        dying is also incapacitated and bruised: a token read "bruised · incapacitated · dying"). Default:
        none."""
        return []

    def lying(self, enc: Encounter, c: Combatant) -> bool:
        """Whether ``c`` lies on the ground: its token drawn flattened, on both maps. Default: prone."""
        return "prone" in c.conditions

    def seen_states(self, enc: Encounter, c: Combatant) -> list[str]:
        """Of ``states``, those the players at the table see (anyone's, or their own companions' choices), for the
        players' map (which says, of every game, who is down or prone). Default: none."""
        return []

    def rings(self, enc: Encounter, c: Combatant) -> list[Ring]:
        return []

    def band(self, enc: Encounter, c: Combatant, other: Combatant, metres: float) -> tuple[Band | None, str]:
        return None, ""

    def bands_to(self, enc: Encounter, c: Combatant, others: list[tuple[Combatant, float]]) -> list[tuple[Band | None, str]]:
        """``band`` for each ``(other, metres)`` from ``c``, in order: one call for a whole map
        view, so a rule that reads a projection of the whole fight reads it once, not once a target."""
        return [self.band(enc, c, o, m) for o, m in others]

    def links(self, enc: Encounter) -> list[tuple[str, str]]:
        return []

    # what the links are, in the game's words: in most games an engagement between the two
    links_heading = "Engaged"

    def link_text(self, enc: Encounter, a: str, b: str) -> str:
        """One link in words ("Kael rides Ash"); "": the two names, joined."""
        return ""

    def unseen(self, enc: Encounter, c: Combatant) -> dict[str, str]:
        """Combatants ``c`` cannot see: id -> why. Default: the map does not judge sight."""
        return {}

    def altitude(self, enc: Encounter, c: Combatant) -> str | None:
        """The name of ``c``'s altitude where the game measures height in bands; None: metres."""
        return None

    def areas(self, enc: Encounter) -> list[MapArea]:
        """The areas marked on the scene (smoke, darkness, ...), in the order they were marked."""
        return []

    def below_ground(self, enc: Encounter, c: Combatant, p: Position) -> str:
        """Why ``c`` may not be at ``p``, under the ground (altitude below 0 m), in the GM's words; "": it
        may (a game's diver under water). The map's ground is at 0 m, and no game here burrows: a GM's
        Altitude −5 for a walking knight was taken without a word and changed every distance."""
        return below_ground_text(c)

    def contact(self, enc: Encounter) -> float:
        """Metres within which two foes are in melee where they stand (strike-rank's engagement
        range, range-band's engaged band); 0: the game does not engage by distance. A side the GM
        adds is placed beyond it (``fray.placing``), so it does not start the fight engaged."""
        return 0.0


def below_ground_text(c: Combatant, why: str = "") -> str:
    """The refusal of an altitude below the ground, beside the Altitude field."""
    return (f"{c.name} cannot go below the ground: the ground is at altitude 0 m"
            + (f" ({why})" if why else "") + ". Type 0 or more.")


def ground_check(enc: Encounter, c: Combatant, p: Position, field: str) -> None:
    """Refuse ``p`` for ``c`` where it is below the ground and the game puts no one there
    (``MapRule.below_ground``): as an error on ``field``, the Altitude the GM typed."""
    if p.alt >= 0:
        return
    why = rule_for(enc.ruleset).below_ground(enc, c, p)
    if why:
        from .errors import InvalidAction
        raise InvalidAction(field, why)


def scene_areas(enc: Encounter, rule: MapRule | None = None) -> list[MapArea]:
    """``rule.areas``, kept to what the map can draw: a ruleset's data not in the shape expected
    draws no areas rather than no map."""
    rule = rule or rule_for(enc.ruleset)
    try:
        got = rule.areas(enc)
    except (KeyError, TypeError, AttributeError, ValueError):
        return []
    return [a for a in got if a.style in AREA_STYLES and a.radius > 0
            and all(math.isfinite(v) for v in (a.x, a.y, a.radius, a.bottom, a.top))]


def rule_for(ruleset_id: str) -> MapRule:
    """The open encounter's ruleset's map rule; an unknown ruleset measures distances only."""
    from .errors import FrayError
    from fray.games import get_ruleset

    try:
        return get_ruleset(ruleset_id).map_rule
    except FrayError:
        return MapRule()


def signed(n: int) -> str:
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
    if links:
        try:
            view.links_heading = rule.links_heading
            view.link_texts = {(a, b): t for a, b in links if (t := rule.link_text(enc, a, b))}
        except (KeyError, TypeError, AttributeError):
            view.link_texts = {}
    try:
        view.altitudes = {o.id: a for o in enc.combatants if (a := rule.altitude(enc, o))}
    except (KeyError, TypeError, AttributeError):
        view.altitudes = {}
    try:
        view.states = {o.id: s for o in enc.combatants if (s := rule.states(enc, o))}
        view.lying = {o.id for o in enc.combatants if rule.lying(enc, o)}
        view.unsaid = {o.id: u for o in enc.combatants if (u := rule.unsaid(enc, o))}
    except (KeyError, TypeError, AttributeError):
        view.states, view.lying = {}, {o.id for o in enc.combatants if "prone" in o.conditions}
    view.areas = scene_areas(enc, rule)
    if c is None:
        return view
    try:
        view.rings = rule.rings(enc, c)
        view.weapon = rule.weapon(enc, c)
    except (KeyError, TypeError, AttributeError):
        view.rings = []
    try:
        unseen = rule.unseen(enc, c)
    except (KeyError, TypeError, AttributeError):
        unseen = {}
    others = [o for o in enc.combatants if o.id != c.id]
    measured = [measure(c.position, o.position, rule.combine) for o in others]
    try:
        bands = rule.bands_to(enc, c, [(o, m[0]) for o, m in zip(others, measured)])
    except (KeyError, TypeError, AttributeError):  # then target by target, as the page always did
        bands = []
        for o, (metres, _) in zip(others, measured):
            try:
                bands.append(rule.band(enc, c, o, metres))
            except (KeyError, TypeError, AttributeError):
                bands.append((None, ""))
    between = lines_of_fire(enc, c, others)
    for o, (metres, explain), (band, text), way in zip(others, measured, bands, between):
        view.targets.append(Target(o.id, o.name, metres, explain, band, text, [x.name for x in way],
                                   unseen.get(o.id, "")))
    view.targets.sort(key=lambda t: (t.metres, t.id))
    return view

