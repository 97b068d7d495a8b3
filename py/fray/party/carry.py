"""What a fight leaves on each character: proposed at "End the fight", for the GM to change.

``carry_over(enc, c)`` reads one linked combatant as the fight left it and proposes what carries,
per game (the shapes ``join`` documents). The GM changes any of it; ``write_back`` then puts it on
the character, through the same check as everything else that comes in.

* strike-rank: each hit location's HP with its injury level, bleeding, First Aid already given ("An
  injured hit location can be treated with First Aid once, until it is injured again"), a limb
  left useless, a severed one, weapons stuck in the character, each weapon's and shield's HP, total
  HP, and the conditions that last "until healed". Rested days toward Natural Healing start again:
  "strenuous activity (... any fighting)".
* tactical-round: the hits taken (current HP = HP − hits taken) and the lasting criticals, proposed
  from the GM's own words on each critical this fight put on the combatant.
* range-band: "this is generalized as post-combat fatigue and applied once the battle ends": the
  fatigue and trauma "End the battle" proposed from the charts, with the fatigue Abilities and
  flight cost during it, added to what the character came in with; holding breath ends with the
  fight (breath is not carried).

A combatant that died is proposed dead: the character is kept, marked so, never deleted.
"""

from __future__ import annotations

import copy
from typing import Any

from ..model import Combatant, Encounter
from .games import game


def linked(enc: Encounter) -> list[Combatant]:
    """The combatants of ``enc`` that came from a character, in the order of the fight's list: one
    per character, the one that joined (a duplicate made of it in the fight copies its data, the
    link with it, but is another combatant, not the character)."""
    out, seen = [], set()
    for c in enc.peek():
        link = c.data.get("party")
        kid = link.get("character") if isinstance(link, dict) else None
        if isinstance(kid, str) and kid not in seen:
            seen.add(kid)
            out.append(c)
    return out


def carry_over(enc: Encounter, c: Combatant) -> dict[str, Any]:
    """What ``c`` carries out of ``enc``, per its game (see the module's docstring)."""
    came = (c.data.get("party") or {}).get("came_with") or {}
    g = game(enc.ruleset)
    return g.carry_over(enc, c, came) if g is not None else {}


def notes(enc: Encounter, c: Combatant) -> list[str]:
    """What the GM should know about a proposal, in the game's words."""
    g = game(enc.ruleset)
    out = list(g.notes(enc, c)) if g is not None else []
    if "dead" in c.conditions:
        out.append(f"{c.name} died: the character is kept, marked dead")
    return out


def proposals(enc: Encounter) -> list[dict[str, Any]]:
    """"End the fight": per linked combatant, what would carry, for the GM to see and change."""
    return [{"combatant": c.id, "character": c.data["party"]["character"], "name": c.name,
             "carried": carry_over(enc, c), "dead": "dead" in c.conditions, "notes": notes(enc, c)}
            for c in linked(enc)]


def write_back(ch: dict[str, Any], carried: dict[str, Any], dead: bool, encounter_id: str | None = None) -> dict[str, Any]:
    """The character with what it carries now (checked as everything that comes in is)."""
    from .character import check

    out = copy.deepcopy(ch)
    out["carried"] = copy.deepcopy(carried)
    out["dead"] = bool(dead) if isinstance(dead, bool) else dead
    if encounter_id and encounter_id not in out.setdefault("encounters", []):
        out["encounters"].append(encounter_id)
    check(out, "character")
    return out
