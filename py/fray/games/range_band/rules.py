"""The range-band rules as pure functions over values: no dice, no editing.

``t`` is ``{table id: table}`` (the GM's edited copies included). Functions return values with how
they were reached (reasons), so the page can say "Hindrance 2 (+1 mounted, +1 mount moved on its
last turn)" and the tests can check the rule text sentence by sentence.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Any

from fray.geometry import separation
from fray.model import Combatant, Encounter, Position
from fray.games.base import counted, gm_tie_break, id_order, possessive
from fray.games.range_band import areas as areas_mod
from fray.games.range_band.combatant import BANDS, STEALTH
from fray.games.range_band.rolls import RollSpec

Tables = dict[str, dict[str, Any]]
LIGHT = ("none", "low", "medium", "high")
RANGES = ("none",) + BANDS  # a visible or audible range: "none" = not at all
CLUTTER = ("low", "medium", "high")
OUT = ("incapacitated", "dead", "paralyzed")
ZONE_DEFAULT: dict[str, Any] = {"light": "medium", "clutter": "medium", "enclosed": False, "underwater": False,
                                "flight_ceiling": "travel", "narrow": False, "air": True}


def keyed(table: dict[str, Any], field: str = "key") -> dict[str, dict[str, Any]]:
    return {e[field]: e for e in table["entries"]}


def const(t: Tables, key: str) -> int:
    return int(keyed(t["constants"])[key]["value"])


def zone(enc: Encounter) -> dict[str, Any]:
    # a fresh dict of plain values (text and true/false): read without making a draft copy it
    z = dict.get(enc.state, "zone")
    return {**ZONE_DEFAULT, **dict(dict.items(z))} if z else dict(ZONE_DEFAULT)


# -- weight ---------------------------------------------------------------------------------------

# AWGT in words wherever it reaches the GM (a GM's play-through: "AWGT 172" on a stealth button explained
# nothing). The texts never spell it out; FACTS derives it from WGT (weight) counting the heavy part less, an
# adjusted weight. The abbreviation rides along once, where a figure is first given, to find it in the rules.
AWGT_WORD = "adjusted weight"
AWGT_SAID = "adjusted weight (AWGT)"

def awgt(wgt: int) -> int:
    """AWGT (FACTS.md): WGT up to 20; of the WGT from 21 to 50 half; of the WGT over 50 a quarter
    (rounded down). 50 WGT → 35; 600 WGT → 172."""
    wgt = int(wgt)
    if wgt <= 20:
        return wgt
    if wgt <= 50:
        return int(20 + (wgt - 20) / 2)
    return int(35 + (wgt - 50) / 4)


def c_awgt(c: Combatant) -> int:
    return awgt(int(c.stats.get("WGT", 1)))


# -- range bands ----------------------------------------------------------------------------------

def bands(t: Tables) -> list[dict[str, Any]]:
    return t["bands"]["entries"]


def band_index(metres: float, t: Tables) -> int:
    for i, b in enumerate(bands(t)):
        if b.get("max") is None or metres <= float(b["max"]) + 1e-9:
            return i
    return len(bands(t)) - 1


def band_name(i: int) -> str:
    return BANDS[max(0, min(i, len(BANDS) - 1))]


def band_max(t: Tables, band: str) -> float | None:
    for b in bands(t):
        if b["band"] == band:
            return None if b.get("max") is None else float(b["max"])
    return None


def range_between(a: Position, b: Position, t: Tables) -> dict[str, Any]:
    """"When considering your range to another character, use the greater of your horizontal or
    vertical range to them." (Flight)"""
    s = separation(a, b)
    h, v = band_index(s.horizontal, t), band_index(s.vertical, t)
    i = max(h, v)
    return {"band": band_name(i), "index": i, "horizontal": band_name(h), "vertical": band_name(v),
            "metres": {"horizontal": round(s.horizontal, 2), "vertical": round(s.vertical, 2)},
            "why": f"greater of horizontal {band_name(h)} ({s.horizontal:.1f} m) and vertical {band_name(v)} "
                   f"({s.vertical:.1f} m)"}


def altitude_band(c: Combatant, t: Tables) -> str:
    return band_name(band_index(max(0.0, c.position.alt), t))


def at_engagement_altitude(c: Combatant, t: Tables) -> bool:
    return altitude_band(c, t) == "engaged"


# -- who is who -----------------------------------------------------------------------------------

def able(c: Combatant) -> bool:
    return not any(x in c.conditions for x in OUT)


def mount_of(enc: Encounter, c: Combatant) -> Combatant | None:
    m = c.data.get("mount")
    return enc.get(m) if m else None


def rider_of(enc: Encounter, c: Combatant) -> Combatant | None:
    r = c.data.get("rider")
    return enc.get(r) if r else None


def partner(enc: Encounter, c: Combatant) -> Combatant | None:
    """The other half of a mount-and-rider pair."""
    return mount_of(enc, c) or rider_of(enc, c)


def is_mounted(c: Combatant) -> bool:
    return bool(c.data.get("mount"))


def _tables(enc: Encounter) -> Tables:
    from fray.games import get_ruleset
    return get_ruleset(enc.ruleset).all_tables(enc)


def underwater(enc: Encounter, c: Combatant | None = None, p: Position | None = None) -> bool:
    """Underwater Combat: the whole zone when it is set underwater; else ``c`` (or the place ``p``) when
    below the surface of a water area the GM marked (``areas.water_at``). No one named: the zone's flag."""
    if zone(enc)["underwater"]:
        return True
    pos = p if p is not None else (c.position if c is not None else None)
    if pos is None or not dict.get(enc.state, "areas"):
        return False
    w = areas_mod.water_at(enc, _tables(enc), pos)
    return w is not None and w.under(pos)


def in_water(enc: Encounter, c: Combatant | None = None, p: Position | None = None) -> bool:
    """In the water: underwater, or swimming at the surface of a water area (moves in three dimensions)."""
    if zone(enc)["underwater"]:
        return True
    pos = p if p is not None else (c.position if c is not None else None)
    if pos is None or not dict.get(enc.state, "areas"):
        return False
    return areas_mod.water_at(enc, _tables(enc), pos) is not None


def below_ground(enc: Encounter, p: Position) -> str:
    """Why no one can be at ``p``, below the ground (altitude under 0 m); "": in water there (Underwater
    Combat: "much more three-dimensional", a diver goes below the surface). Flight does not: a flyer
    lands on the ground."""
    if p.alt >= 0 or in_water(enc, p=p):
        return ""
    over = next((w for w in areas_mod.waters(enc, _tables(enc)) if w.over(p)), None)
    return (f"below the bottom of {over.label}, {over.depth:g} m deep" if over else
            "no water there: only under water does a character go below it; mark a water area first")


def no_air(enc: Encounter, c: Combatant) -> bool:
    """No breathable air where ``c`` is: the zone has none (underwater, gas) or ``c`` is underwater."""
    return not zone(enc)["air"] or underwater(enc, c)


def breathes_here(enc: Encounter, c: Combatant) -> bool:
    """Underwater Combat: "Amphibious creatures can either breathe underwater ... or can hold their breath
    for far longer than any combat": those who breathe water, and anyone where there is air."""
    return c.data.get("amphibious") == "breathes" or not no_air(enc, c)


def is_flying(enc: Encounter, c: Combatant) -> bool:
    """Flying for the rules: not while underwater ("Underwater characters are not considered to be
    flying for the purpose of any other rules"), and not a rider ("not considered flying themselves")."""
    return bool(c.data.get("flying")) and not underwater(enc, c)


def mount_flying(enc: Encounter, c: Combatant) -> bool:
    m = mount_of(enc, c)
    return m is not None and is_flying(enc, m)


def airborne(enc: Encounter, c: Combatant) -> bool:
    """Flying, or riding a flying mount (mount-size melee limits are ignored between two of these)."""
    return is_flying(enc, c) or mount_flying(enc, c)


def sort_key(enc: Encounter, c: Combatant) -> tuple:
    v = c.data.get("turn_value")
    return (0 if v is not None else 1, -(v or 0), gm_tie_break(enc, c.id), *id_order(c.id))


def turn_order(enc: Encounter) -> list[Combatant]:
    """Every combatant in turn order, to read and never to edit (``Encounter.peek``): the order of
    play and the view only name and rank them, and through a draft's own list every Next copied all
    of them (issue 11)."""
    return sorted(enc.peek(), key=lambda c: sort_key(enc, c))


# -- flight -----------------------------------------------------------------------------------------

def flying_spd(c: Combatant, underwater_only: bool = False) -> tuple[int, list[tuple[str, int]]]:
    """"Multiple sources of flying SPD stack, but only in a diminishing way. Begin with the source that
    has the highest flying SPD. Next, increase this SPD by 1/4 the sum of all other active sources'
    flying SPDs." (rounded down). ``underwater_only`` leaves out natural wings and sources that do not
    work underwater."""
    sources: list[tuple[str, int]] = []
    natural = int(c.stats.get("FSPD", 0) or 0)
    if natural and not (underwater_only and c.data.get("wing_flight", True)):
        sources.append(("natural flight", natural))
    for s in c.data.get("flight_sources", []):
        if s["active"] and s["spd"] and not (underwater_only and not s["underwater"]):
            sources.append((s["name"], int(s["spd"])))
    if not sources:
        return 0, []
    sources.sort(key=lambda x: -x[1])
    best = sources[0]
    rest = sum(v for _, v in sources[1:])
    parts = [(f"{best[0]} (highest)", best[1])]
    if rest:
        parts.append((f"1/4 of {' + '.join(f'{n} {v}' for n, v in sources[1:])}", rest // 4))
    return best[1] + rest // 4, parts


def flight_cost(c: Combatant) -> tuple[int, list[tuple[str, int]]]:
    """Flight: "Creatures may also list a specific amount of fatigue inflicted by flying, or there may be a charge
    cost for flight devices or Abilities ... All normal flight costs must be paid at the beginning of the movement
    phase." The fatigue part: the creature's own (``flight_fatigue``, with natural flying SPD) and each active
    source's ``fatigue``. Charges of devices are the device's rules."""
    parts = []
    if int(c.stats.get("FSPD", 0) or 0) and int(c.data.get("flight_fatigue", 0) or 0):
        parts.append(("flying (the creature's own)", int(c.data["flight_fatigue"])))
    for src in c.data.get("flight_sources", []):
        if src.get("active") and src.get("fatigue"):
            parts.append((src["name"], int(src["fatigue"])))
    return sum(n for _, n in parts), parts


def can_fly(c: Combatant) -> bool:
    return flying_spd(c)[0] > 0


def underwater_spd(c: Combatant) -> tuple[int, list[tuple[str, int]]]:
    """Underwater Combat: amphibious species use their full SPD (plus any bonus); others reduce it to
    25% (at least 1); an active non-wing source of flying SPD adds 1/4 of its flying SPD."""
    spd = int(c.stats.get("SPD", 0))
    if c.data.get("amphibious", "no") != "no":
        parts = [("SPD (amphibious: full)", spd)]
        if c.data.get("swim_bonus"):
            parts.append(("amphibious SPD bonus", int(c.data["swim_bonus"])))
    else:
        parts = [("25% of SPD " + str(spd) + " (at least 1)", max(1, spd // 4))]
    fly, _ = flying_spd(c, underwater_only=True)
    if fly:
        parts.append(("1/4 of flying SPD " + str(fly), fly // 4))
    return sum(v for _, v in parts), parts


def sinking(c: Combatant) -> str:
    """"If you are carrying at least 25% of your own body weight, you will sink in water at a rate of
    short range once per minute; if at least 50%, you sink short range every round instead.\""""
    wgt = int(c.stats.get("WGT", 1))
    carried = int(c.data.get("carried", 0))
    if carried * 2 >= wgt:
        return "round"
    if carried * 4 >= wgt:
        return "minute"
    return "no"


# -- stealth ----------------------------------------------------------------------------------------

def stealth_block(enc: Encounter, c: Combatant, level: str, t: Tables) -> str | None:
    """Why ``c`` cannot be in ``level`` right now (None: it can). Size, mounts, flight, light, locks."""
    if level == "low":
        return None
    size = keyed(t["size_stealth"])
    a = c_awgt(c)
    pair = partner(enc, c)
    if level == "high":
        if is_mounted(c) or c.data.get("rider"):
            return "Mounted characters and mounts cannot use High Stealth"
        if a >= int(size["no_high_from"]["value"]):
            return f"{AWGT_SAID} {a}: creatures of {AWGT_WORD} {size['no_high_from']['value']} or more cannot use High Stealth"
    if a >= int(size["no_medium_from"]["value"]):
        return f"{AWGT_SAID} {a}: creatures of {AWGT_WORD} {size['no_medium_from']['value']} or more cannot use Medium Stealth either"
    if c.data.get("flying") and not underwater(enc, c):
        return "Flying characters are always in Low Stealth (Flight)"
    if pair is not None and level == "medium":
        pa = c_awgt(pair)
        if pa >= int(size["no_medium_from"]["value"]):
            return f"mount and rider share a stealth level, and {pair.name} ({AWGT_WORD} {pa}) cannot use Medium Stealth"
        if pair.data.get("flying") and not underwater(enc, pair):
            return f"mount and rider share a stealth level, and {pair.name} is flying"
    if light_forces_low(enc, c, t):
        return f"carrying a {c.data['light']} light source reverts to Low Stealth (Light Sources)"
    lock = c.data.get("locks", {}).get(level)
    if lock == enc.round:
        return (f"lost this round through its own movement or action: cannot re-enter {level.capitalize()} "
                "Stealth this round")
    if pair is not None and pair.data.get("locks", {}).get(level) == enc.round:
        return f"{pair.name} is prevented from re-entering {level.capitalize()} Stealth this round (shared level)"
    return None


def light_forces_low(enc: Encounter, c: Combatant, t: Tables) -> bool:
    """"All light sources cause a character carrying them to revert to Low Stealth", except a dim
    light source in a High Light environment."""
    light = c.data.get("light", "none")
    if light == "none":
        return False
    entry = keyed(t["light_sources"]).get(light, {})
    return not (entry.get("keeps_stealth_in_high_light") and zone(enc)["light"] == "high")


def counts_for_outnumbering(enc: Encounter, c: Combatant) -> tuple[bool, str]:
    """Back in Combat, Flight, High Stealth & Groups: who does not count for outnumbering dice."""
    if is_mounted(c):
        return False, "mounted characters do not count (their mounts do)"
    if is_flying(enc, c):
        return False, "flying characters do not count"
    if c.data.get("stealth") == "high":
        return False, "characters in High Stealth do not count"
    if not able(c):
        return False, "out of the fight"
    return True, "counts"


def group_defense(enc: Encounter, c: Combatant) -> dict[str, Any]:
    """Can ``c`` take part in group defense, as defender and as defended; mount and rider are one unit."""
    why_not_defender, why_not_defended = [], []
    if is_flying(enc, c):
        why_not_defender.append("flying: no group defense")
        why_not_defended.append("flying: no group defense")
    if c.data.get("stealth") == "high":
        why_not_defender.append("High Stealth: cannot defend others (can still be defended)")
    amb = c.data.get("ambush")
    if amb and amb.get("round") == enc.round:
        why_not_defender.append("used ambush movement this round")
        why_not_defended.append("used ambush movement this round")
    pair = partner(enc, c)
    unit = sorted([c.id, pair.id]) if pair else [c.id]
    return {"defender": not why_not_defender, "defended": not why_not_defended,
            "why": why_not_defender + [w for w in why_not_defended if w not in why_not_defender],
            "unit": unit, "note": "mount and rider are one character for group defense: defend both or neither"
            if pair else ""}


# -- light, sight and sound -------------------------------------------------------------------------

class Sight:
    """What the sight and sound rules need about one encounter, computed once: band limits, the chart as
    a dict, the light at each combatant's place, the band between two places. ``visibility`` builds one
    for all 132 pairs of a 12-combatant fight; single questions build their own."""

    def __init__(self, enc: Encounter, t: Tables):
        self.enc, self.t = enc, t
        self.z = zone(enc)
        self.maxes = [None if b.get("max") is None else float(b["max"]) for b in bands(t)]
        self.chart = {(e["light"], e["clutter"], e["stealth"]): e["range"] for e in t["visible_range"]["entries"]}
        self.srcs = keyed(t["light_sources"])
        self.carriers = [c for c in enc.peek() if c.data.get("light", "none") in self.srcs]
        self.size = keyed(t["size_stealth"])
        self.noise = keyed(t["noise"])
        self.areas = areas_mod.areas(enc, t)  # obscuring areas (smoke, obstacles, shadow, darkness)
        self.dark_areas = any(a.entry.get("light") == "none" for a in self.areas)
        self._light: dict[str, tuple[str, str]] = {}

    def _bi(self, m: float) -> int:
        for i, mx in enumerate(self.maxes):
            if mx is None or m <= mx + 1e-9:
                return i
        return len(self.maxes) - 1

    def idx(self, a: Position, b: Position) -> int:
        """The greater of the horizontal and the vertical band, as an index into BANDS."""
        h = self._bi(math.hypot(a.x - b.x, a.y - b.y))
        v = self._bi(abs(a.alt - b.alt))
        return h if h > v else v

    def light_at(self, pos: Position) -> tuple[str, str]:
        z = self.z["light"]
        level, why = LIGHT.index(z), f"zone {z} light"
        if self.areas:
            local, where = areas_mod.local_light(self.areas, pos)
            if local is not None and LIGHT.index(local) < level:
                level, why = LIGHT.index(local), f"{local} light {where}"
        dark = level == 0
        for c in self.carriers:
            kind = c.data["light"]
            d = self.idx(c.position, pos)
            entry = self.srcs[kind]
            casts = entry.get("casts", []) + (entry.get("dark_casts", []) if dark else [])
            for cast in casts:
                lv = LIGHT.index(cast["light"])
                if lv > level and d <= BANDS.index(cast["to"]):
                    level, why = lv, f"{possessive(c.name)} {kind} light ({cast['light']} to {cast['to']})"
        return LIGHT[level], why

    def light_of(self, c: Combatant) -> tuple[str, str]:
        if c.id not in self._light:
            self._light[c.id] = self.light_at(c.position)
        return self._light[c.id]


def light_at(enc: Encounter, pos: Position, t: Tables) -> tuple[str, str]:
    """The light level at a place: the zone's, raised by any light source carried nearby."""
    return Sight(enc, t).light_at(pos)


def chart_range(t: Tables, light: str, clutter: str, stealth: str) -> str:
    for e in t["visible_range"]["entries"]:
        if e["light"] == light and e["clutter"] == clutter and e["stealth"] == stealth:
            return e["range"]
    return "none"


def sightless(enc: Encounter, c: Combatant, t: Tables, sight: Sight | None = None) -> str:
    """Why ``c`` is completely without sight ("" if it has sight): blinded, or total darkness where it is
    with no sense that works in the dark."""
    if "blinded" in c.conditions:
        return "blinded"
    if c.data.get("vision") in ("echolocation", "darkeye", "clairvoyance"):
        return ""
    if sight is None and zone(enc)["light"] != "none" and not enc.state.get("areas"):
        return ""
    s = sight or Sight(enc, t)
    if s.z["light"] != "none" and not s.dark_areas:
        return ""
    return "total darkness" if s.light_of(c)[0] == "none" else ""


def visible_range(enc: Encounter, observer: Combatant, target: Combatant, t: Tables, band_index_: int,
                  sight: Sight | None = None) -> tuple[str, list[str]]:
    """The range at which ``observer`` can see ``target`` (Sight & Visible Range), with reasons."""
    s = sight or Sight(enc, t)
    light, why_light = s.light_of(target)
    reasons = [f"light at {target.name}: {light} ({why_light})"]
    vision = observer.data.get("vision", "normal")
    stealth = target.data.get("stealth", "low")
    if vision == "shadow" and light == "low":
        light = "medium"
        reasons.append("shadow vision: Low Light seen as Medium Light")
    elif vision == "echolocation" and light == "none":
        reach = BANDS.index(observer.data.get("echolocation_band", "long"))
        if band_index_ <= reach:
            light = "low"
            reasons.append(f"echolocation: total darkness seen as Low Light to {BANDS[reach]} range")
    elif vision in ("darkeye", "clairvoyance") and light == "none":
        light = "low"
        reasons.append(f"{vision}: sees in total darkness (as Low Light, assumed)")
    if vision == "thermal" and stealth == "high":
        stealth = "medium"
        reasons.append("thermal vision removes the effects of High Stealth")
    clutter = s.z["clutter"]
    if s.areas:
        clutter, where = areas_mod.local_clutter(s.areas, target.position, clutter)
        if where:
            reasons.append(f"{clutter} clutter {where}")
    rng = s.chart.get((light, clutter, stealth), "none")
    reasons.append(f"chart: {light} light, {clutter} clutter, {stealth} stealth → {rng}")
    if stealth == "low" and rng != "none":
        a = c_awgt(target)
        start, every = int(s.size["visible_plus_from"]["value"]), int(s.size["visible_plus_every"]["value"])
        if a >= start:
            plus = 1 + (a - start) // every
            new = RANGES[min(len(RANGES) - 1, RANGES.index(rng) + plus)]
            reasons.append(f"{AWGT_SAID} {a}: visible {counted(plus, 'range')} further in Low Stealth → {new}")
            rng = new
    veh = target.data.get("vehicle", "none")
    if veh == "huge":
        rng = "travel"
        reasons.append("larger than a vehicle: visible at travel range")
    elif veh == "aircraft" and target.data.get("flying"):
        rng = "travel"
        reasons.append("aircraft in flight: visible at travel range")
    elif veh != "none" and light != "none":
        v = "long" if target.data.get("vehicle_stealth") else "travel"
        if RANGES.index(v) > RANGES.index(rng):
            rng = v
            reasons.append(f"vehicle: visible at {v} range regardless of clutter")
    return rng, reasons


def audible_range(enc: Encounter, listener: Combatant, target: Combatant, t: Tables,
                  sight: Sight | None = None) -> tuple[str, str]:
    """Sound: movement noise by armour; High Stealth one range less; animals and Adlet one range more."""
    veh = target.data.get("vehicle", "none")
    if veh == "aircraft" and target.data.get("flying"):
        return "travel", "aircraft in flight: audible at travel range"
    if veh in ("vehicle", "aircraft", "huge") and zone(enc)["light"] != "none":
        return "long", "vehicles are always audible at long range"
    species = target.data.get("species", "")
    if target.data.get("vision") == "echolocation" and species and listener.data.get("species") == species:
        band = target.data.get("echolocation_band", "long")
        return band, f"active echolocation: audible exactly at its range ({band}) to the same species"
    moved = target.data.get("moved") or {}
    if moved.get("round") != enc.round:
        return "none", f"{target.name} is not notably moving"
    noise_table = sight.noise if sight else keyed(t["noise"])
    armour = target.data.get("armor_noise", "low")
    noise = noise_table[armour]["audible"]
    i = RANGES.index(noise)
    why = f"{armour} noise: {noise}"
    if target.data.get("stealth") == "high":
        i -= 1
        why += ", High Stealth −1 range"
    if listener.data.get("kind") == "animal" or listener.data.get("hears_far"):
        i += 1
        why += ", animal/Adlet hearing +1 range"
    i = max(0, min(i, len(RANGES) - 1))
    return RANGES[i], why


def can_see(enc: Encounter, observer: Combatant, target: Combatant, t: Tables,
            sight: Sight | None = None) -> tuple[bool, list[str]]:
    """Does ``observer`` see ``target``, and why (the projection the stealth rules run on)."""
    if observer.id == target.id:
        return True, ["self"]
    if target.id in observer.data.get("grappling", ()):
        return True, ["grappling: always counts as seeing (Lack of Sight)"]
    if any(x in observer.conditions for x in OUT):
        return False, [f"{observer.name} is out of the fight"]
    s = sight or Sight(enc, t)
    dark = sightless(enc, observer, t, s)
    if dark:
        return False, [f"{observer.name} is completely without sight ({dark})"]
    if target.id in observer.data.get("cannot_see", ()):
        return False, [f"{observer.name} cannot see {target.name} (smoke, cloaking or the like: the GM's call)"]
    d = s.idx(observer.position, target.position)
    if s.areas:
        ar = areas_mod.sight_block(s.areas, observer.position, target.position, d, observer.data.get("vision", "normal"),
                                   BANDS.index(observer.data.get("echolocation_band", "long")))
        if ar is not None:
            return False, [area_reason(ar)]
    amb = target.data.get("ambush")
    if amb and amb.get("round") == enc.round and observer.id in amb.get("unseen_by", []) and \
            observer.data.get("vision") not in ("darkeye", "clairvoyance", "thermal"):
        return False, [f"ambush movement: {target.name} is not seen until after their turn"]
    rng, reasons = visible_range(enc, observer, target, t, d, s)
    seen = rng != "none" and d <= BANDS.index(rng)
    reasons.append(f"at {BANDS[d]} range; visible {'up to ' + rng if rng != 'none' else 'at no range'}")
    return seen, reasons


def _vision_class(vision: str, light: str, stealth: str) -> str:
    """The vision that ``visible_range`` actually applies to a target in ``light`` and ``stealth``: a sense
    that changes nothing here (shadow vision in Medium Light, thermal against Low Stealth) sees as normal
    vision does, with the same reasons, so their answers are computed once."""
    if (vision == "shadow" and light == "low") or (vision == "thermal" and stealth == "high") or (
            vision in ("echolocation", "darkeye", "clairvoyance") and light == "none"):
        return vision
    return "normal"


def area_reason(ar: "areas_mod.Area") -> str:
    return f"{ar.label} blocks the line of sight ({ar.kind.replace('_', ' ')}: Lack of Sight)"


SIGHT_TABLES = ("bands", "visible_range", "light_sources", "size_stealth", "noise", "obscuring")
_MEMO: dict[tuple, tuple[tuple, dict[str, dict[str, Any]]]] = {}
MEMO_SIZE = 16


def _ids(v: Any) -> tuple:
    return tuple(v) if isinstance(v, (list, tuple)) else ()


SIGHT_DATA = ("stealth", "light", "vision", "echolocation_band", "armor_noise", "kind", "hears_far", "species",
              "vehicle", "vehicle_stealth", "flying")  # plain values of c.data the projection reads


def sight_key(enc: Encounter, t: Tables) -> tuple:
    """Everything the visibility projection reads, as one hashable value: two states with the same key
    have the same projection. Tables by identity (states never change a table in place; an edit is a new
    object, and the memo keeps the objects alive so an identity cannot be reused while it is cached).
    Read without copying (``Encounter.peek``, ``dict.get``): asking in a draft costs no copy."""
    z = zone(enc)
    parts = [enc.round, z["light"], z["clutter"], tuple(id(t[k]) for k in SIGHT_TABLES),
             tuple((a["ref"], a["kind"], a["x"], a["y"], a.get("alt", 0.0), a["radius"])
                   for a in list.__iter__(dict.get(enc.state, "areas") or []))]
    for c in enc.peek():
        d = c.data
        p = c.position
        amb = d.get("ambush")
        mv = d.get("moved")
        g, cs = d.get("grappling"), d.get("cannot_see")
        parts.append((c.id, c.name, p.x, p.y, p.alt, tuple(c.conditions), c.stats.get("WGT", 1),
                      tuple(map(d.get, SIGHT_DATA)), tuple(g) if g else (), tuple(cs) if cs else (),
                      (amb.get("round"), _ids(amb.get("unseen_by"))) if amb else None,
                      mv.get("round") if mv else None))
    return tuple(parts)


def visibility(enc: Encounter, t: Tables) -> dict[str, dict[str, Any]]:
    """Who sees and hears whom, for every observer: ``{observer: {target: {sees, hears, band, why, hear_why}}}``.

    The same answers as ``can_see`` and ``audible_range`` pair by pair, computed once for the whole fight:
    the band between every two combatants, the light at each, and the visible range of each target per
    kind of vision are shared by all the observers (the page asks for this on every render). A state
    whose sight inputs (``sight_key``) equal a recent one's gets that projection again: most actions
    (rolls, prompts, turns) change nothing anyone sees. The result is shared and read-only."""
    key = sight_key(enc, t)
    hit = _MEMO.get(key)
    if hit is not None:
        return hit[1]
    out = _visibility(enc, t)
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = (tuple(t[k] for k in SIGHT_TABLES), out)
    return out


def _visibility(enc: Encounter, t: Tables) -> dict[str, dict[str, Any]]:
    s = Sight(enc, t)
    cs = list(enc.peek())  # reads only: in a draft, copies no combatant
    n = len(cs)
    fin = [m for m in s.maxes if m is not None]  # the bands' outer edges, nearest first; travel has none

    def band(m: float) -> int:
        return bisect_left(fin, m - 1e-9)

    idx = [[0] * n for _ in range(n)]
    for i in range(n):
        pi = cs[i].position
        for j in range(i + 1, n):
            pj = cs[j].position
            h, v = band(math.hypot(pi.x - pj.x, pi.y - pj.y)), band(abs(pi.alt - pj.alt))
            idx[i][j] = idx[j][i] = h if h > v else v
    rnd = enc.round
    light = [s.light_of(c)[0] for c in cs]
    stealth = [c.data.get("stealth", "low") for c in cs]
    ambush = [(c.data.get("ambush") or {}) for c in cs]
    ambush = [a.get("unseen_by", ()) if a and a.get("round") == rnd else None for a in ambush]
    seen_cache: dict[tuple, tuple[bool, list[str]]] = {}
    range_cache: dict[tuple, tuple[str, list[str]]] = {}
    hear_cache: dict[tuple, tuple[str, str]] = {}
    out: dict[str, dict[str, Any]] = {}
    for i, o in enumerate(cs):
        row: dict[str, Any] = {}
        deaf = "deafened" in o.conditions
        vision = o.data.get("vision", "normal")
        grappling = o.data.get("grappling", ())
        blocked = o.data.get("cannot_see", ())
        out_of_fight = any(x in o.conditions for x in OUT)
        dark = "" if out_of_fight else sightless(enc, o, t, s)
        keen = o.data.get("kind") == "animal" or bool(o.data.get("hears_far"))
        species = o.data.get("species", "")
        echo = BANDS.index(o.data.get("echolocation_band", "long")) if vision == "echolocation" else 0
        ambush_proof = vision in ("darkeye", "clairvoyance", "thermal")
        di = idx[i]
        for j, c in enumerate(cs):
            if i == j:
                continue
            d = di[j]
            cid = c.id
            if cid in grappling:
                sees, why = True, ["grappling: always counts as seeing (Lack of Sight)"]
            elif out_of_fight:
                sees, why = False, [f"{o.name} is out of the fight"]
            elif dark:
                sees, why = False, [f"{o.name} is completely without sight ({dark})"]
            elif cid in blocked:
                sees, why = False, [f"{o.name} cannot see {c.name} (smoke, cloaking or the like: the GM's call)"]
            elif s.areas and (ar := areas_mod.sight_block(s.areas, o.position, c.position, d, vision, echo)):
                sees, why = False, [area_reason(ar)]
            elif ambush[j] is not None and o.id in ambush[j] and not ambush_proof:
                sees, why = False, [f"ambush movement: {c.name} is not seen until after their turn"]
            else:
                vc = _vision_class(vision, light[j], stealth[j])
                key = (j, vc, (d, echo) if vc == "echolocation" else -1, d)
                hit = seen_cache.get(key)
                if hit is None:
                    rk = key[:3]
                    base = range_cache.get(rk)
                    if base is None:
                        base = range_cache[rk] = visible_range(enc, o, c, t, d, s)
                    rng, reasons = base
                    hit = seen_cache[key] = (rng != "none" and d <= BANDS.index(rng), reasons + [
                        f"at {BANDS[d]} range; visible {'up to ' + rng if rng != 'none' else 'at no range'}"])
                sees, why = hit  # shared by the pairs with the same answer: the view is read-only
            if deaf:
                hears, hwhy = False, "deafened"
            else:
                hk = (j, keen, species)
                h = hear_cache.get(hk)
                if h is None:
                    h = hear_cache[hk] = audible_range(enc, o, c, t, s)
                rng_h, hwhy = h
                hears = rng_h != "none" and d <= RANGES.index(rng_h) - 1
            row[cid] = {"sees": sees, "hears": hears, "why": why, "hear_why": hwhy, "band": BANDS[d]}
        out[o.id] = row
    return out


# -- mounts and melee -------------------------------------------------------------------------------

def mount_moved(enc: Encounter, m: Combatant) -> str:
    """What the mount did on its last turn: "none", "moved" or "rushed"."""
    mv = m.data.get("moved") or {}
    if not mv or mv.get("round") is None:
        return "none"
    last = m.data.get("move_phase_round", 0)
    if mv["round"] < last:
        return "none"
    return "rushed" if mv.get("rushed") else "moved"


def mounted_hindrance(enc: Encounter, rider: Combatant) -> list[tuple[str, int]]:
    """Back in Combat: "Your ranged attacks receive 1 Hindrance ... while you are mounted; this is
    increased to 2 Hindrance if the mount moved on its last turn, or 3 Hindrance if the mount was
    rushing." The same applies to slowing actions rolled on DEX."""
    m = enc.peek_at(rider.data["mount"]) if rider.data.get("mount") else None  # only looked at
    if m is None:
        return []
    parts = [("mounted", 1)]
    did = mount_moved(enc, m)
    if did == "moved":
        parts.append(("mount moved on its last turn", 1))
    elif did == "rushed":
        parts.append(("mount rushed on its last turn", 2))
    return parts


def melee_size_check(enc: Encounter, a: Combatant, d: Combatant, reach_only: bool) -> tuple[bool, list[str], list[tuple[str, int]]]:
    """Melee Attacks & Extreme Mount Sizes, and the 2× rule of Back in Combat.

    Returns (allowed, reasons, Hindrance for the attacker's offense roll)."""
    why: list[str] = []
    hind: list[tuple[str, int]] = []
    am, dm = mount_of(enc, a), mount_of(enc, d)
    if airborne(enc, a) and airborne(enc, d):
        return True, ["both flying (or on flying mounts): mount-size melee limits are ignored"], []
    if dm is not None and am is None and not is_flying(enc, a) and c_awgt(dm) >= 2 * c_awgt(a):
        hind.append((f"{possessive(d.name)} mount ({AWGT_WORD} {c_awgt(dm)}) is at least double "
                     f"{possessive(a.name)} {c_awgt(a)}", 1))
    # the 10x rule: a mount against a character, or two mounts
    if am is None and dm is None:
        return True, why, hind
    if am is not None and dm is not None:
        big, small = (am, dm) if c_awgt(am) >= c_awgt(dm) else (dm, am)
        small_rider = d if small is dm else a
        small_w = c_awgt(small) + (c_awgt(small_rider) if reach_only else 0)
        small_fly = is_flying(enc, small)
        label = f"{possessive(small.name)} {AWGT_WORD} {c_awgt(small)}" + (f" + rider {c_awgt(small_rider)} (Reach)" if reach_only else "")
    else:
        big = am or dm
        small = d if am is not None else a
        small_w = c_awgt(small) * (2 if reach_only else 1)
        small_fly = airborne(enc, small)
        label = f"{possessive(small.name)} {AWGT_WORD} {c_awgt(small)}" + (" doubled (Reach)" if reach_only else "")
    if small_fly:
        why.append("the smaller character/mount is flying: the mount-size rules do not apply")
        return True, why, hind
    if c_awgt(big) >= 10 * small_w:
        why.append(f"{possessive(big.name)} {AWGT_WORD} {c_awgt(big)} is at least 10 times {label}: "
                   "no melee attacks either way")
        return False, why, hind
    return True, why, hind


# -- movement roll ----------------------------------------------------------------------------------

def movement_spec(enc: Encounter, c: Combatant, t: Tables, rush: bool = False, cautious: bool = False,
                  keep_high: bool = True, outnumbered: bool = False, unseen_area: bool = False,
                  dense_smoke: bool = False, swim: bool | None = None) -> RollSpec:
    """The movement roll: d12 on SPD; flying: d10 on flying SPD; underwater: d10 on underwater SPD
    (``swim``: the movement is in water, from or to below the surface; None: ``c`` is underwater now)."""
    uw = underwater(enc, c) if swim is None else swim
    fly = is_flying(enc, c)
    if uw:
        value, parts = underwater_spd(c)
        spec = RollSpec("Movement roll (underwater)", "d10", "underwater SPD", value, "Underwater Combat",
                        notes=["underwater SPD = " + " + ".join(f"{r} {v}" for r, v in parts)])
    elif fly:
        value, parts = flying_spd(c)
        spec = RollSpec("Movement roll (flying)", "d10", "flying SPD", value, "Flight",
                        notes=["flying SPD = " + " + ".join(f"{r} {v}" for r, v in parts),
                               "unaffected by rough terrain; encumbrance does not affect TN or flying SPD"])
    else:
        spec = RollSpec("Movement roll", "d12", "SPD", int(c.stats.get("SPD", 0)), "")
    if rush:
        if fly:
            reactive = value if not dense_smoke else value // 2
            spec.tn.append(("rushing: flying SPD as reactive +TN" + (" (halved: dense smoke)" if dense_smoke else ""),
                            reactive))
            spec.notes.append("flying rush: no ground-rushing fatigue")
        else:
            spec.notes.append("rushing: add the core rules' reactive +TN" + (" (halved: dense smoke)" if dense_smoke else ""))
    if c.data.get("stealth") == "high" and keep_high:
        spec.hindrance.append(("staying in High Stealth", const(t, "high_stealth_move_hindrance")))
    if cautious:
        spec.hindrance.append(("moving cautiously through an area you can't see", const(t, "cautious_move_hindrance")))
    if outnumbered:
        if fly:
            spec.easing.append(("flying: outnumbering dice ignored, 2 Easing instead",
                                const(t, "flying_outnumbering_easing")))
        else:
            spec.notes.append("outnumbering dice apply (core rules)")
    if fly and value >= 20:
        spec.auto = {"success": True, "by": 10, "reason": "flying SPD 20+: automatically succeeds by 10"}
        spec.can_blunder = False
        if value >= 21:
            spec.notes.append("flying SPD 21+: may follow the Speed Class rules (Vehicle Combat)")
    if unseen_area:
        spec.notes.append("through an area you can't see: no rushing through or out of it")
    spec.success = "moves" + ("; may ascend up to short range (medium if rushing and succeeding by 10+)"
                              if fly or uw else "")
    spec.failure = "does not complete the movement"
    return spec


def stealth_spec(c: Combatant, die: str, what: str, t: Tables, hindrance: list[tuple[str, int]] | None = None) -> RollSpec:
    """High Stealth: "a d20 roll on DEX, with a -TN equal to 50% of your WGT"; other stealth rolls
    use the same TN with other dice. The text does not say how an odd WGT rounds: down (assumed, said)."""
    wgt = int(c.stats.get("WGT", 1))
    spec = RollSpec(what, die, "DEX", int(c.stats.get("DEX", 0)), "High Stealth",
                    tn=[(f"(half of WGT {wgt}, rounded down, assumed)", -(wgt // 2))])
    for h in hindrance or []:
        spec.hindrance.append(h)
    return spec


def breath_limit(c: Combatant, t: Tables, idle: bool) -> tuple[int, int]:
    """Rounds of breath before CON rolls, and how often the rolls come (Holding Breath)."""
    base = int(c.data.get("breath_rounds", const(t, "breath_rounds")))
    if idle:
        return max(base, const(t, "breath_rounds_idle")), const(t, "breath_every_idle")
    return base, 1


def fall_prompt(c: Combatant, t: Tables, why: str) -> dict[str, Any]:
    band = altitude_band(c, t)
    dist = "short-range" if band in ("engaged", "short") else f"{band}-range"
    return {"kind": "fall", "combatant": c.id, "text": f"{c.name} falls ({why}): use the Falling rules for a "
            f"{dist} fall; knocked down regardless of injury", "band": band}


def fatigue_for(t: Tables, table: str, key_field: str, key: str, rounds: int) -> int:
    tab = t[table]
    limits = list(tab.get("rounds", [4, 12, 24]))
    col = next((i for i, lim in enumerate(limits) if rounds <= lim), len(limits))
    row = keyed(tab, key_field)[key]
    vals = row["fatigue" if table == "fatigue" else "trauma"]
    return int(vals[min(col, len(vals) - 1)])


STEALTH_ORDER = STEALTH
