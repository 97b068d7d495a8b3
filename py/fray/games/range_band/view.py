"""The projection the page renders for a range-band encounter.

``view(enc)`` returns (JSON-able; every list in a stable order)::

    {
      "round": 2,
      "phase": {"id": "movement" | "actions" | "setup" | "ended", "title": "Movement phase", "note": "..."},
      "phase_label": "Movement phase: Bran",     # the round bar's text, beside its "Round 2"
      "acting": [{"combatant": "c1", "name": "Bran", "label": "Movement", "explanation": "turn order 14",
                  "current": true}],                       # the phase's slots in turn order
      "current": "c1" | null,                              # whose slot it is
      "turn_order": [{"id": "c1", "name": "Bran", "value": 14}],
      "zone": {"light": "medium", "clutter": "medium", "enclosed": false, "underwater": false,
               "flight_ceiling": "travel", "narrow": false, "air": true,
               "damage_factors": {"heat": 25, "frost": 50} | null,      # underwater: % of damage taken
               "flight_allowed": true, "why_no_flight": ""},
      "combatants": [{
         "id", "name", "side", "stats": {...}, "awgt": 35, "kind": "animal",
         "stealth": {"level": "medium", "locked": ["medium"],             # cannot re-enter this round
                     "can_enter": {"low": null, "medium": null | "why not", "high": "why not"},
                     "can_maintain": null | "why not"},                # High Stealth's major action this turn
         "flying": false, "can_fly": true, "flying_spd": {"value": 12, "parts": [{"reason", "value"}]},
         "underwater_spd": {"value": 3, "parts": [...]} | null,
         "altitude": {"metres": 0.0, "band": "engaged"}, "descend_to": 0.0 | null,  # a flyer's Descend starts there
         "mount": "c2" | null, "rider": "c1" | null, "mounted_hindrance": [{"reason", "count"}],
         "breath": {"holding", "idle", "held", "limit", "every", "rolls", "out", "needs_restart",
                    "restart_points", "text"},
         "statuses": [{"name": "minor-stunned", "word": "minor stunned", "text": "...",
                       "ends": "end of their next turn" | ""}],
         "outnumbering": {"counts": false, "why": "flying characters do not count"},
         "group_defense": {"defender": bool, "defended": bool, "why": [...], "unit": ["c1", "c2"], "note": ""},
         "sightless": "" | "blinded" | "total darkness",
         "light": "none", "vision": "normal", "armor_noise": "low",
         "moved": {...} | null, "used": {"round", "major", "minor", "what"} | null,
         "sinking": "no" | "minute" | "round", "speed_class": false,
         "if_immobilized": "" | "sinks" | "rises to the surface",      # underwater, after combat
         "ambush": {"round", "unseen_by"} | null, "grappling": [...], "cannot_see": [...],
         "post_combat": {"fatigue": 1, "trauma": 0} | null,
         "fatigue": 0,                                                # taken this battle (Abilities, flight costs)
         "flight_cost": {"fatigue": 1, "parts": [{"reason", "points"}]},  # paid each movement phase in flight
         "can_use_cover": true,                                       # flyers cannot use cover
         "reminders": [{"rule": "Flight", "text": "..."}],            # what the GM applies by hand
         "traits": {... every trait, as entered ...}}],
      "pending": [{"ref": "R3", "kind": "movement", "combatant": "c1", "prompt": "...", "round": 2,
                   "spec": {"what", "die", "stat", "stat_value", "rule", "tn": {"total", "parts"},
                            "hindrance": {"total", "parts": [{"reason", "count"}]}, "easing": {...},
                            "net_hindrance", "can_blunder", "blind", "success", "failure", "auto", "notes",
                            "text"}}],
      "prompts": [{"ref": "P1", "kind": "fall", "combatant": "c3", "text": "...", "round": 2}],
      "weapon_reach": {"c2": ["", "Talons is a melee weapon: ..."]},  # the acting one's weapons: why not
      "visibility": {"c1": {"c2": {"sees": true, "hears": false, "band": "short", "why": [...],
                                   "hear_why": "..."}}},           # per observer, every other combatant
      "unseen": {"c1": ["c4"]},                                  # per observer: who it cannot see
      "areas": [{"ref": "A1", "kind": "smoke", "name": "Smoke", "x", "y", "alt", "radius": "short",
                 "metres": 10.0, "title", "blocks_sight", "movement", "light", "clutter"}],  # rb.area
      "battle_end": null | {"rounds", "wave", "proposals": [{"id", "name", "activity", "involvement",
                                                             "fatigue", "trauma"}], "note", "assumed": true},
      "assumed_tables": ["bands", "core_roll", ...],
      "choices": {"light": [...], "clutter": [...], "bands": [...], "stealth": [...], "statuses": [...],
                  "activity": [...], "involvement": [...], "action_sizes": [...]},
      "actions": ["rb.act", ...]                                 # the ruleset's action types
    }
"""

from __future__ import annotations

from typing import Any

from fray.model import Encounter
from fray.games.base import Slot, counted
from fray.games.range_band import (actions as actions_mod, attacks as attacks_mod, movement as movement_mod, rules,
                                   state_edits)
from fray.games.range_band.statuses import STATUSES, word as status_word
from fray.games.range_band.combatant import BANDS, STEALTH, traits_json

CONDITION_TEXT = {
    "knocked-down": "On the ground; knocked off any mount",
    "minor-stunned": "Minor stunned (flyers knocked down: until the end of their next turn)",
    "major-stunned": "Major stunned (out of breath without air functions as this)",
    "blinded": "Completely without sight: no ranged attacks (except AoE at own engagement); blind melee rules",
    "deafened": "Cannot hear; cannot warn or be warned",
    "incapacitated": "Out of the fight; a flyer falls, a mount throws its rider",
    "paralyzed": "A flyer falls",
    "dead": "Dead (from lack of air: revivable)",
    "restrained": "Only high precision teleportation escapes",
    "out-of-breath": "Cannot breathe: major stunned, 25% chance each round of becoming incapacitated",
}

PHASES = {
    "setup": ("Setup", "Add combatants, set the zone and turn order, then start the round."),
    "movement": ("Movement phase", "Each combatant's movement in turn order; switch flight at its start or end."),
    "actions": ("Action phase", "Each combatant's turn in turn order: major, minor and free actions."),
    "ended": ("Battle over", "Post-combat fatigue and trauma proposed from the (assumed) charts."),
}


def _ends_text(d: dict[str, Any]) -> str:
    if d["ends"] == "before_turn":
        return f"ends right before their turn in round {d['round']}"
    return "ends at the end of their next turn" if int(d["turns"]) == 1 else f"ends after {d['turns']} more turns"


# the last visibility's "unseen" (who does not see whom), with that visibility: ``rules.visibility``
# hands out the very same projection while nothing anyone sees changed, so most renders ask again
# for the same answer (at 200 combatants 40,000 pairs, some 11 ms of CPython a render)
_UNSEEN: list[tuple[dict, dict[str, list[str]]]] = []


def unseen_of(vis: dict[str, dict[str, Any]]) -> dict[str, list[str]]:
    """For each observer, whom it does not see, sorted. Shared and read-only, as ``vis`` is."""
    if _UNSEEN and _UNSEEN[0][0] is vis:
        return _UNSEEN[0][1]
    out = {o: sorted(k for k, v in row.items() if not v["sees"]) for o, row in vis.items()}
    _UNSEEN[:] = [(vis, out)]
    return out


def view(enc: Encounter, t: rules.Tables, slots: list[Slot]) -> dict[str, Any]:
    z = rules.zone(enc)
    current = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) and enc.phase in ("movement", "actions") \
        else None
    title, note = PHASES.get(enc.phase, (enc.phase, ""))
    cur_name = enc.get(current).name if current else ""
    vis = rules.visibility(enc, t)
    area_kinds = rules.areas_mod.kinds(t)
    no_flight = "narrow passage rules" if z["narrow"] else ("no flight in this zone" if z["flight_ceiling"] == "none"
                                                            else "")
    return {
        "round": enc.round,
        "phase": {"id": enc.phase, "title": title, "note": note},
        # the round bar and the players' window already say "Round N" beside it
        "phase_label": title + (f": {cur_name}" if cur_name else ""),
        "acting": [{**s.to_json(), "name": enc.get(s.combatant_id).name, "current": s.combatant_id == current}
                   for s in slots],
        "current": current,
        "turn_order": [{"id": c.id, "name": c.name, "value": c.data.get("turn_value")} for c in rules.turn_order(enc)],
        "zone": {**z, "damage_factors": {"heat": 25, "frost": 50} if z["underwater"] else None,
                 "flight_allowed": not no_flight, "why_no_flight": no_flight},
        "combatants": [combatant_view(enc, c, t) for c in enc.combatants],
        "offenses": last_offenses(enc),
        # the acting combatant's weapons against each other combatant: the attack form's default Weapon
        "weapon_reach": attacks_mod.weapon_reach(enc, enc.get(current), t) if current and enc.phase == "actions"
        else {},
        "pending": [dict(p) for p in enc.state.get("pending", [])],
        "prompts": [dict(p) for p in enc.state.get("prompts", [])],
        "visibility": vis,
        "unseen": unseen_of(vis),
        "areas": [{**a, "title": ar.entry.get("title", a["kind"]), "metres": ar.r,
                   "blocks_sight": bool(ar.entry.get("blocks_sight")), "movement": ar.entry.get("movement", "none"),
                   "light": ar.entry.get("light"), "clutter": ar.entry.get("clutter")}
                  for a, ar in zip([a for a in enc.state.get("areas", []) if a["kind"] in area_kinds], rules.areas_mod.areas(enc, t))]
        + [{**a, "title": f"water, {w.depth:g} m deep", "metres": w.r, "blocks_sight": False, "movement": "none",
            "light": None, "clutter": None}
           for a, w in zip([a for a in enc.state.get("areas", []) if a["kind"] == rules.areas_mod.WATER],
                           rules.areas_mod.waters(enc, t))],
        "battle_end": enc.state.get("battle_end"),
        "assumed_tables": sorted(k for k, v in t.items() if v.get("assumed")),
        "choices": {"light": list(rules.LIGHT), "clutter": list(rules.CLUTTER), "bands": list(BANDS),
                    "stealth": list(STEALTH), "statuses": list(STATUSES),
                    "activity": [e["activity"] for e in t["fatigue"]["entries"]],
                    "involvement": [e["involvement"] for e in t["trauma"]["entries"]],
                    "action_sizes": list(actions_mod.ACTION_SIZES),
                  "area_kinds": [{"key": k, "title": e.get("title", k)} for k, e in area_kinds.items()]
                  + [{"key": rules.areas_mod.WATER, "title": "Water (give its depth)"}],
                  "area_bands": list(rules.areas_mod.AREA_BANDS)},
        "actions": sorted(actions_mod.HANDLERS),
    }


def last_offenses(enc: Encounter) -> dict[str, dict[str, Any]]:
    """Each attacker's latest settled offense roll this round, read from the round's log (its "roll needed"
    line and the roll that settled it), for the attack form to say beside itself what it came to, as the
    movement form does (a GM's report: an attack's result showed only in the log). An attacker whose newest
    offense roll still waits under Rolls has none: the result shown is never an older attack's."""
    out: dict[str, dict[str, Any] | None] = {}
    settled: dict[str, Any] = {}
    for e in reversed(enc.log):
        if e.round != enc.round:
            break
        d = e.detail
        if e.kind == "roll" and d.get("ref"):
            settled[d["ref"]] = d
        elif e.kind == "roll_needed" and d.get("id") and d["id"] not in out:
            spec = d.get("spec") or {}
            what = str(spec.get("what", ""))
            if not what.startswith("Offense roll"):
                continue
            r = settled.get(d.get("ref"))
            out[d["id"]] = None if r is None else {
                "what": what.removeprefix("Offense roll: "), "success": bool(r.get("success")), "by": r.get("by"),
                "blunder": bool(r.get("blunder")),
                "then": spec.get("success" if r.get("success") else "failure") or ""}
    return {k: v for k, v in out.items() if v is not None}


def reminders(enc: Encounter, c, t: rules.Tables) -> list[dict[str, str]]:
    """What the text says about this combatant's situation that the GM applies by hand, with its heading."""
    out = []
    if rules.is_mounted(c):
        out.append({"rule": "Back in Combat", "text": "may draw and put away items from the mount's inventory with "
                    "inventory actions; these rules assume a saddle"})
    if rules.is_flying(enc, c):
        out.append({"rule": "Flight", "text": "no cover, no group defense; flight costs are paid at the beginning "
                    "of the movement phase; begin your turn in an engagement before bypassing group defense"})
    if rules.underwater(enc, c):
        out.append({"rule": "Underwater Combat", "text": "counts 5 times heavier for pseudogravity; Abilities that "
                    "cannot be used while flying cannot be used underwater"})
    if c.data.get("breath", {}).get("holding"):
        out.append({"rule": "Holding Breath", "text": "no verbal actions and no voluntary fatigue until the next turn"})
    if c.data.get("stealth") == "high":
        out.append({"rule": "High Stealth", "text": "maintain it as a major action this turn; +3 Hindrance to "
                    "movement rolls to keep it"})
    if rules.sightless(enc, c, t):
        out.append({"rule": "Lack of Sight", "text": "no Abilities needing sight or targeting beyond engagement "
                    "range; blind melee attack rules"})
    return out


def _water(enc: Encounter, c, t: rules.Tables) -> dict[str, Any] | None:
    """The water area ``c`` is in: its name and how deep below its surface ``c`` is (0: at the surface);
    ``{"none": True}`` when below the ground with no water there (counts as on the ground)."""
    w = rules.areas_mod.water_at(enc, t, c.position) if enc.state.get("areas") else None
    if w is not None:
        return {"name": w.label, "below": round(w.surface - c.position.alt, 2), "depth": w.depth}
    if c.position.alt < 0 and not rules.zone(enc)["underwater"]:
        return {"none": True}
    return None


def combatant_view(enc: Encounter, c, t: rules.Tables) -> dict[str, Any]:
    fs, fparts = rules.flying_spd(c)
    us, uparts = rules.underwater_spd(c)
    b = c.data.get("breath", {})
    limit, every = rules.breath_limit(c, t, bool(b.get("idle")))
    if b.get("needs_restart"):
        btext = "breathing must be restarted by another character"
    elif b.get("out"):
        btext = "out of breath"
    elif b.get("holding"):
        btext = f"holding breath: round {b.get('held', 0)} of {limit}" + (
            f", {counted(b.get('rolls', 0), 'CON roll')} so far" if b.get("rolls") else "")
    elif b.get("ran_out"):
        btext = "breathing again, breath not yet caught (2 major actions)"
    else:
        btext = "breathing"
    durations = {d["condition"]: d for d in c.data.get("durations", [])}
    locks = sorted(k for k, v in (c.data.get("locks") or {}).items() if v == enc.round)
    counts, why = rules.counts_for_outnumbering(enc, c)
    return {
        "id": c.id, "name": c.name, "side": c.side, "stats": dict(c.stats), "awgt": rules.c_awgt(c),
        "kind": c.data.get("kind", "sentient"),
        # entering High Stealth (its stealth roll) and maintaining it are each the turn's major action: once that is
        # spent, neither is offered (a GM's play-through: "Maintain High Stealth (major)" offered after a stealth
        # attack, its own preview saying it would be refused)
        "stealth": {"level": c.data.get("stealth", "low"), "locked": locks,
                    "can_enter": {lv: rules.stealth_block(enc, c, lv, t) or (
                        state_edits.action_block(enc, c, "major", t) if lv == "high" and enc.phase == "actions" else None)
                        for lv in STEALTH},
                    "can_maintain": state_edits.action_block(enc, c, "major", t)},
        "flying": rules.is_flying(enc, c), "can_fly": fs > 0,
        "flying_spd": {"value": fs, "parts": [{"reason": r, "value": v} for r, v in fparts]},
        "underwater_spd": {"value": us, "parts": [{"reason": r, "value": v} for r, v in uparts]}
        if rules.in_water(enc, c) else None,
        "altitude": {"metres": c.position.alt, "band": rules.altitude_band(c, t)},
        # where Descend's field starts: a real descent (what is left of 1 zone this phase, down to the ground)
        "descend_to": movement_mod.descent_floor(enc, c, t) if rules.is_flying(enc, c) else None,
        "mount": c.data.get("mount"), "rider": c.data.get("rider"),
        "mounted_hindrance": [{"reason": r, "count": n} for r, n in rules.mounted_hindrance(enc, c)],
        "breath": {"holding": bool(b.get("holding")), "idle": bool(b.get("idle")), "held": int(b.get("held", 0)),
                   "limit": limit, "every": every, "rolls": int(b.get("rolls", 0)), "out": bool(b.get("out")),
                   "needs_restart": bool(b.get("needs_restart")),
                   # Underwater Combat: a water-breather underwater has no breath to hold
                   "can_hold": not (c.data.get("amphibious") == "breathes" and rules.underwater(enc, c)), "restart_points": int(b.get("restart_points", 0)),
                   "text": btext},
        "statuses": [{"name": x, "word": status_word(x), "text": CONDITION_TEXT.get(x, ""),
                      "ends": _ends_text(durations[x]) if x in durations else ""} for x in c.conditions],
        "outnumbering": {"counts": counts, "why": why},
        "group_defense": rules.group_defense(enc, c),
        "sightless": rules.sightless(enc, c, t),
        "light": c.data.get("light", "none"), "vision": c.data.get("vision", "normal"),
        "armor_noise": c.data.get("armor_noise", "low"),
        "moved": c.data.get("moved"), "used": c.data.get("used") if (c.data.get("used") or {}).get("round") == enc.round
        else None,
        "sinking": rules.sinking(c) if rules.underwater(enc, c) else "no",
        "if_immobilized": ("sinks" if rules.sinking(c) != "no" else "rises to the surface")
        if rules.underwater(enc, c) else "",
        "underwater": rules.underwater(enc, c),
        "out": [x for x in rules.OUT if x in c.conditions],  # out of the fight: no slot, no form, no default target
        "water": _water(enc, c, t),
        "speed_class": rules.is_flying(enc, c) and fs >= 21,
        "ambush": c.data.get("ambush"), "grappling": list(c.data.get("grappling", [])),
        "cannot_see": list(c.data.get("cannot_see", [])),
        "post_combat": c.data.get("post_combat"),
        "fatigue": int(c.data.get("fatigue", 0)),
        "flight_cost": {"fatigue": rules.flight_cost(c)[0],
                        "parts": [{"reason": r, "points": n} for r, n in rules.flight_cost(c)[1]]},
        "can_use_cover": not rules.is_flying(enc, c),
        "reminders": reminders(enc, c, t),
        "traits": traits_json(c),
    }
