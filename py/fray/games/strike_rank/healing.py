"""Natural Healing, day by day: the one implementation of the rule, used by the encounter's
``sr.natural_healing`` (``care.natural_healing``) and by time passing between fights
(``party.time_passes``; ``fray.party.healing`` states the readings where the text is silent).

"Natural healing depends on a character's Healing Rate. Minor wounds will heal if left alone; more
serious injuries will not begin healing naturally until treated with First Aid or healed at least
partially. [...] Each hit location heals separately."
* "Minor Wound (1+ HP)/Serious Wound (0 HP): Recover HP equal to HR at the end of each day."
* "Maimed (-X HP): Recover HP equal to HR at the end of each week."
* "Mangled (-2X HP): Recover HP equal to HR at the end of each season. Mangled limbs never fully
  heal naturally: they remain useless."
* "If a character is missing total HP but has no injured hit locations, treat total HP as its own
  minor wound for the purposes of healing. Thus, injured hit locations heal first."

Each location counts the rested days it has spent toward its level's period (``counts``, kept by
the caller: the encounter's ``healing_days``, the party's ``carried.healing_days``); when they
reach it the location recovers the rate and starts counting again, so seven single days heal a
maimed location as one week does. Resting is the caller's: a day not rested heals nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fray.model import Combatant
from fray.party.healing import DAYS  # days in each period; the season's 56 is *assumed*
from fray.games.strike_rank import body, rules


@dataclass
class Rested:
    """What some rested days did: points each location healed (by id), its level before the first
    day, the total HP healed as its own minor wound, and why a location did not heal."""

    healed: dict[str, int] = field(default_factory=dict)
    level_before: dict[str, str] = field(default_factory=dict)
    total_healed: int = 0
    waiting: set[str] = field(default_factory=set)


def every(table: dict[str, Any]) -> dict[str, int]:
    """Days between two recoveries at each injury level, from the ``natural_healing`` table."""
    return {e["injury"]: DAYS.get(e["period"], 1) for e in table["entries"]}


def rest_days(c: Combatant, days: int, rate: int, every_days: dict[str, int], counts: dict[str, int],
              stuck: set[str]) -> Rested:
    """``days`` rested days for ``c`` at ``rate`` (HR + treatment), healing its locations and total
    HP in place; ``counts`` (rested days toward each location's period, "total" for total HP) is
    updated in place. A location with a weapon in ``stuck`` does not heal ("The injured location
    cannot be healed while the weapon is stuck in."); a severed limb does not heal naturally."""
    out = Rested()
    for _ in range(days):
        injured = [l for l in c.data["locations"] if body.loc_level(l) not in ("none", "severed")]
        for l in injured:
            level = body.loc_level(l)
            lid = l["id"]
            if level != "minor" and not (l.get("first_aid") or l.get("treated")):
                out.waiting.add(f"{l['name']} ({level}) will not begin healing until treated with First Aid or healed")
                counts.pop(lid, None)
                continue
            if lid in stuck:
                out.waiting.add(f"{l['name']} cannot heal while a weapon is stuck in it")
                counts.pop(lid, None)
                continue
            counts[lid] = counts.get(lid, 0) + 1
            if counts[lid] < every_days.get(level, 1):
                continue
            counts.pop(lid)
            pts = max(0, min(rate, l["hp_max"] - l["hp"]))
            out.level_before.setdefault(lid, level)
            # "When a location's HP are healed, a corresponding amount of total HP are healed."
            l["hp"] += pts
            c.data["hp"] = min(c.data["hp_max"], c.data["hp"] + pts)
            l["treated"] = True  # "healed at least partially": it goes on healing
            out.healed[lid] = out.healed.get(lid, 0) + pts
            if level == "mangled" and l["type"] in rules.LIMB_TYPES:
                l["useless"] = True  # "Mangled limbs never fully heal naturally: they remain useless."
            after = body.loc_level(l)
            if rules.injury_rank(after) < rules.injury_rank("serious"):
                l["bleeding"] = False
            if after == "none":
                l["first_aid"] = False
                l["treated"] = False
        if not injured and c.data["hp"] < c.data["hp_max"]:
            # "treat total HP as its own minor wound": it heals at the end of each day
            counts["total"] = counts.get("total", 0) + 1
            if counts["total"] >= every_days.get("minor", 1):
                counts.pop("total")
                pts = min(rate, c.data["hp_max"] - c.data["hp"])
                c.data["hp"] += pts
                out.total_healed += pts
    return out
