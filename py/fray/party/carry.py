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
from .join import LOC_FLAGS, SR_CONDITIONS


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
    if enc.ruleset == "strike-rank":
        return _strike_rank(enc, c)
    if enc.ruleset == "tactical-round":
        out: dict[str, Any] = {}
        hits = int(c.data.get("hits_taken", 0))
        if hits:
            out["hits_taken"] = max(0, hits)
        lasting = list(came.get("lasting", [])) + [x for x in _critical_words(enc, c) if x not in came.get("lasting", [])]
        if lasting:
            out["lasting"] = lasting[:20]
        return out
    if enc.ruleset == "range-band":
        post = c.data.get("post_combat") or {}
        fatigue = int(came.get("fatigue", 0)) + int(c.data.get("fatigue", 0)) + int(post.get("fatigue", 0))
        trauma = int(came.get("trauma", 0)) + int(post.get("trauma", 0))
        return {k: v for k, v in (("fatigue", fatigue), ("trauma", trauma)) if v}
    return {}


def notes(enc: Encounter, c: Combatant) -> list[str]:
    """What the GM should know about a proposal, in the game's words."""
    out = []
    if enc.ruleset == "range-band":
        if not c.data.get("post_combat"):
            out.append("The battle has not been ended: no post-combat fatigue or trauma is proposed yet")
        b = c.data.get("breath") or {}
        if b.get("holding") or b.get("out"):
            out.append("Breath resets: holding breath ends with the fight")
    if enc.ruleset == "tactical-round":
        out.append("The rules give no recovery of hit points between fights: set them by hand when time passes")
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


def _strike_rank(enc: Encounter, c: Combatant) -> dict[str, Any]:
    d = c.data
    out: dict[str, Any] = {}
    if d["hp"] != d["hp_max"]:
        out["hp"] = min(d["hp"], d["hp_max"])
    locs = {}
    for l in d["locations"]:
        w = {k: True for k in LOC_FLAGS if l.get(k)}
        if l["hp"] != l["hp_max"]:
            w["hp"] = l["hp"]
        if w:
            locs[l["id"]] = w
    if locs:
        out["locations"] = locs
    weapons = {w["id"]: w["hp"] for w in d["weapons"] if w["hp"] != w.get("hp_max", w["hp"])}
    if weapons:
        out["weapons"] = weapons
    stuck = []
    for i in d.get("impaled", []):
        owner = enc.peek_at(i.get("owner", ""))
        what = f"{owner.name}'s {i['name']}" if owner is not None else str(i.get("name", "a weapon"))
        stuck.append({"weapon": what[:60], "location": i["location"]})
    if stuck:
        out["stuck"] = stuck
    conds = [x for x in SR_CONDITIONS if x in c.conditions]
    if conds:
        out["conditions"] = conds
    return out


def _critical_words(enc: Encounter, c: Combatant) -> list[str]:
    """The GM's own words on each critical this fight put on ``c`` (``tr.apply_critical``'s text)."""
    mark = f" critical on {c.name}: "
    out = []
    for e in enc.log:
        if e.kind == "critical" and mark in e.text and " — " in e.text:
            words = e.text.split(" — ", 1)[1].strip()[:200]
            if words and words not in out:
                out.append(words)
    return out
