"""What the page shows: ``StrikeRank.view(enc)`` returns this JSON-able dict.

Shape (every ``text`` is a ready-made breakdown for the UI; ids are the engine's ids)::

    {
      "ruleset": "strike-rank",
      "round": 2,                     # Melee Round number
      "phase": "resolve",             # setup | declare | resolve | end
      "sr": 7,                        # strike rank being resolved (0 while declaring)
      "order": [                      # pending actions of this MR in resolution order
        {"ref": "a3", "combatant": "c1", "name": "Vasana", "sr": 7, "kind": "melee",
         "text": "SR 7 = DEX 3 + SIZ 2 + weapon 2", "target": "c2", "weapon": "broadsword",
         "dm_from": "",               # whose damage modifier the blow carries, when not the attacker's
         "current": true}             # true when it resolves at the current SR
      ],
      "order_key": "SR, then higher DEX first, then the GM's order for ties, then the order they joined the fight",
      "prompts": [                    # open questions for the GM; answer with sr.answer
        {"id": "p1", "kind": "impaled", "combatant": "c2", "text": "...",
         "options": [{"value": "yes", "label": "..."}], "data": {...}, "round": 1}
      ],
      "combatants": {
        "c1": {
          "name": "Vasana", "side": "party", "conditions": ["prone"],
          "status": "ok",             # ok | unconscious | incapacitated | dead
          "cannot_act": "",           # why they can take no action ("Vasana is dead"), "" when they can
          "at": [0.0, 3.0],           # x, y on the map (m)
          "hp": {"current": 9, "max": 13, "text": "HP 13 ..."},
          "derived": {                # each {"value": ..., "text": "DEX SR 3 (DEX 11)"}
            "dex_sr": {...}, "siz_sr": {...}, "damage_modifier": {...}, "healing_rate": {...}},
          "movement": {"rate": 3, "can_run": true, "half_rate": false, "can_stand": true,
                       "max_rate": null,  # 1 (crawl, stagger) or 0 (an immobilized leg) when limited
                       "why": ["a disabled leg: cannot run"]},
          "cannot_fight": "",         # or why not: "Vasana's chest is maimed: cannot fight (...)"
          "locations": [
            {"id": "left_arm", "name": "Left arm", "type": "arm", "side": "left",
             "melee": [16, 18], "missile": [18, 19], "hp": 1, "hp_max": 4, "ap": 3,
             "injury": "minor",       # none | minor | serious | maimed | mangled | severed
             "disabled": false, "bleeding": false, "first_aid_used": false,
             "impaled_by": [], "immobilized_by": ""}
          ],
          "weapons": [
            {"id": "broadsword", "name": "Broadsword", "skill": 65, "damage": "1D8+1",
             "sr": 2, "hp": 12, "hp_max": 12, "type": "slashing", "usable": true, "why_not": "",
             "held": "right hand",      # or "left hand", "both hands", a natural weapon's location
             "stuck": [], "loaded": true, "melee_sr": {"value": 7, "text": "SR 7 = DEX 3 + SIZ 2 + weapon 2"}}
          ],
          "spells": [{"id": "bladesharp", "name": "Bladesharp", "type": "battle", "sr": {...},
                      "cast_on": "self"}],  # self / ally / foe ("" unknown): the assumed ``spells`` table
          "declared": [ {"ref": "a1", "kind": "melee", "sr": 7, "round": 2, "status": "declared",
                         "text": "SR 7 = ...", "target": "c2", "weapon": "broadsword", ...} ],
          "round": {"attacks": [...], "parries": [...], "dodges": 0, "next_dodge_penalty": 0, ...},
          "no_defence": null,         # or {"rule": "Charging", "text": "..."}: no dodge or parry now
          "pending": ["p1"],          # prompt ids about this combatant
          "stuck_weapons": [{"where": "Chest", "in": "body", "name": "Spear", "owner": "c1",
                             "weapon": "spear"}],  # in the body or a shield; ids for sr.unstick
          "resuscitate_by": null      # or {"round": 3, "sr": 7}: last chance to resuscitate
        }
      }
    }
"""

from __future__ import annotations

from typing import Any

from fray.model import Encounter
from fray.games.strike_rank import body, care, defence, rules, timing


def combatant_view(rs, enc: Encounter, c, declared: list | None = None, pending: list | None = None) -> dict[str, Any]:
    """One combatant's part of the view. ``declared`` (their actions of this round on) and
    ``pending`` (the ids of the questions about them) when the caller has sorted them out already."""
    d = body.derived(rs, enc, c)
    dsr, ssr = d["dex_sr"]["value"], d["siz_sr"]["value"]
    status = next((s for s in ("dead", "incapacitated", "unconscious") if s in c.conditions), "ok")
    lim = body.movement_limits(c)
    rate = c.stats.get("move", 3)
    loc_names = {l["id"]: l["name"] for l in c.data["locations"]}
    impaled: dict[str, list[str]] = {}
    for i in c.data["impaled"]:
        impaled.setdefault(i["location"], []).append(i["name"])
    locs = [{"id": l["id"], "name": l["name"], "type": l["type"], "side": l["side"], "melee": l["melee"],
             "missile": l["missile"], "hp": l["hp"], "hp_max": l["hp_max"], "ap": l["ap"],
             "injury": body.loc_level(l), "disabled": body.limb_disabled(l), "bleeding": l["bleeding"],
             "first_aid_used": l["first_aid"], "impaled_by": impaled.get(l["id"], []),
             "immobilized_by": l.get("immobilized_by", "")} for l in c.data["locations"]]
    weapons = []
    parry_table = rs.table(enc, "attack_vs_parry")
    for w in c.data["weapons"]:
        why = body.weapon_usable(c, w) or ""
        msr = rules.missile_srs(dsr, w["rate"] or "1/MR")[0] if w["missile"] else rules.melee_sr(dsr, ssr, w["sr"])
        rl = c.data["reload"].get(w["id"])
        weapons.append({"id": w["id"], "name": w["name"], "skill": w["skill"], "damage": w["damage"], "sr": w["sr"],
                        "hp": w["hp"], "hp_max": w["hp_max"], "type": w["type"], "missile": w["missile"],
                        "rate": w["rate"], "range": w["range"], "shield": w["shield"], "martial_arts": w["martial_arts"],
                        "natural": w["natural"], "usable": not why, "held": held_text(c, w),
                        # whether it parries at all: not a bite, nor a bow unless the GM's table says so
                        "parries": defence.can_parry_with(w, parry_table),
                        "why_not": why, "stuck": [s["name"] for s in w["stuck"]],
                        "loaded": rl is None or rl.get("loaded", True),
                        "melee_sr": {"value": msr.total, "text": msr.text()}})
    spells = []
    spell_table = rs.table(enc, "spells") if c.data["spells"] else {}
    for s in c.data["spells"]:
        b = rules.spell_sr(dsr if c.stats.get("DEX", 0) > 0 else 1, s)
        spells.append({**{k: s[k] for k in ("id", "name", "type", "intensity", "manipulation", "boost")},
                       "sr": {"value": b.total, "text": b.text()},
                       "cast_on": rules.cast_on(spell_table, s["name"])})
    r = c.data["round"]
    return {
        "name": c.name, "side": c.side, "conditions": list(c.conditions), "status": status,
        # why they can take no action now ("" when they can): the page offers them no form
        "cannot_act": body.can_act(c) or "",
        "at": [c.position.x, c.position.y],  # where they stand on the map: the nearest enemy is the default target
        # the mount ridden, when it is in the fight ("" on foot): a rider's blow at one on foot rolls 1D10+10
        "rides": c.data.get("mount") if enc.get(c.data.get("mount") or "") is not None else "",
        "hp": {"current": c.data["hp"], "max": c.data["hp_max"], "text": c.data.get("hp_text", "")},
        "derived": d,
        "movement": {"rate": rate, **{k: lim[k] for k in ("can_run", "half_rate", "can_stand", "max_rate")},
                     "why": lim["why"]},
        # why the combatant cannot attack or parry ("Chest: Cannot fight"), or "": the forms offer neither
        "cannot_fight": body.can_fight(c) or "",
        "locations": locs, "weapons": weapons, "spells": spells,
        "declared": [dict(a, text=timing.shown_text(a)) for a in (declared if declared is not None else
                                       (a for a in enc.state.get("actions", [])
                                        if a["combatant"] == c.id and a["round"] >= enc.round))],
        # why the rules allow no dodge or parry now (a charge not yet struck...), "" when they do: the
        # attack form's default defence is then None, the refusal's words beside it
        "no_defence": _refusal(defence.defence_barred(c)),
        # whom a charge not yet struck is at: another's attack finds the charger running (``running_charger``)
        "charging_at": defence.charged_at(enc, c),
        "running_charger": _refusal(defence.running_charger(c)) if r.get("charging") else None,
        "round": {**r, "next_dodge_penalty": -20 * r.get("dodges", 0), "parries_left": defence.parries_left(c)},
        "pending": (list(pending) if pending is not None else
                    [p["id"] for p in enc.state.get("prompts", []) if p["combatant"] == c.id]),
        # every weapon stuck in this combatant's body or shields, with exact ids for sr.unstick
        "stuck_weapons": ([{"where": loc_names.get(i["location"], i["location"]), "in": "body", "name": i["name"],
                            "owner": i["owner"], "weapon": i["weapon"]} for i in c.data["impaled"]]
                          + [{"where": w["name"], "in": "shield", "name": s["name"], "owner": s["owner"],
                              "weapon": s["weapon"]} for w in c.data["weapons"] for s in w["stuck"]]),
        "resuscitate_by": c.data.get("resuscitate_by"),
        "unconscious_minutes": c.data.get("unconscious_minutes", 0),
        "protection": dict(c.data.get("protection") or {}),  # sr.protection: magical, not ignored by a critical
    }


def _refusal(e: Any) -> dict[str, str] | None:
    """A refusal the engine would give, for the page to say before the GM asks: its rule, its words."""
    return {"rule": e.rule, "text": str(e).removesuffix(f" (rule: {e.rule})")} if e else None


def held_text(c, w: dict[str, Any]) -> str:
    """Where a weapon is: "left hand", "both hands", or the location a natural weapon strikes with."""
    if w.get("location"):
        l = body.location(c, w["location"])
        return l["name"] if l else ""
    hand = body.held_in(c, w)
    return {"right": "right hand", "left": "left hand", "both": "both hands"}.get(hand, "")


# the tables a combatant's view reads (``body.derived``): a GM's edit of one is a new object
VIEW_TABLES = ("dex_sr", "siz_sr", "damage_modifier", "natural_healing", "spells")


def combatant_views(rs, enc: Encounter, kept: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """Every combatant's view. With ``kept`` (``Ruleset.view_kept``), a combatant's view is the one
    made before when it is made of the very same things: the same combatant object, the same
    table objects, the same declared actions of this round on (each the same object) and the same
    questions about them. Each is new whenever an action changed it (``fray.sharing``)."""
    declared: dict[str, list] = {}
    for a in enc.state.get("actions", []):
        if a["round"] >= enc.round:
            declared.setdefault(a["combatant"], []).append(a)
    pending: dict[str, list] = {}
    for p in enc.state.get("prompts", []):
        pending.setdefault(p["combatant"], []).append(p["id"])
    tables = tuple(rs.table(enc, t) for t in VIEW_TABLES)
    out = {}
    for c in enc.combatants:
        made_of = (c, tables, tuple(declared.get(c.id, ())), pending.get(c.id, []))
        held = kept.get(c.id) if kept is not None else None
        if held is not None and _same(held[0], made_of):
            out[c.id] = held[1]
            continue
        cv = combatant_view(rs, enc, c, made_of[2], made_of[3])
        if kept is not None:
            kept[c.id] = (made_of, cv)
        out[c.id] = cv
    if kept is not None and len(kept) > len(out):  # gone, or another encounter's: never kept for nothing
        for cid in [k for k in kept if k not in out]:
            del kept[cid]
    return out


def _same(a: tuple, b: tuple) -> bool:
    """Made of the same objects: the combatant, each table and each declared action by identity
    (an edit makes a new one), the questions' ids by value."""
    return (a[0] is b[0] and all(x is y for x, y in zip(a[1], b[1]))
            and len(a[2]) == len(b[2]) and all(x is y for x, y in zip(a[2], b[2])) and a[3] == b[3])


def _prompt_view(rs, enc: Encounter, p: dict[str, Any]) -> dict[str, Any]:
    q = dict(p)
    if p.get("kind") == "collision":
        # whom the knocked back may strike: the living ("Dead characters cannot do anything"), the
        # first in the way suggested
        q["strikable"] = [o.id for o in enc.peek() if o.id != p.get("combatant") and "dead" not in o.conditions]
        q["in_path"] = care.in_the_way(enc, p)
        # Colliding: the one struck "must also make a DEX test", as the one knocked back does: the
        # unconscious, the incapacitated and the prone make none (``body.no_footing_roll``, the
        # engine's own test), so the page offers no DEX roll for them
        q["no_dex"] = {o.id: why for o in enc.peek() if o.id in q["strikable"]
                       for why in (body.no_footing_roll(o),) if why}
    if p.get("kind") == "fumble":
        q["effect"] = next((e.get("effect", "") for e in rs.table(enc, "fumbles")["entries"]
                            if e.get("result") == p.get("data", {}).get("result")), "")
    return q


def view(rs, enc: Encounter, kept: dict[str, Any] | None = None) -> dict[str, Any]:
    cur = enc.state.get("sr", 0)
    order = []
    by_ref = {a["ref"]: a for a in enc.state.get("actions", [])}
    for s in timing.order_of_play(enc):
        a = by_ref[s.action_ref]
        c = enc.get(s.combatant_id)
        order.append({"ref": a["ref"], "combatant": c.id, "name": c.name, "sr": a["sr"], "kind": a["kind"],
                      "text": timing.shown_text(a), "target": a["target"], "weapon": a["weapon"], "spell": a["spell"],
                      # whose damage modifier the blow carries when not the attacker's (a braced spear:
                      # the charger's; a mounted charge: the mount's)
                      "dm_from": a.get("dm_from") or "",
                      "current": enc.phase == "resolve" and a["sr"] == cur,
                      # why it can no longer happen (a dropped or broken weapon, a fall): the engine's
                      # Next loses it with this reason, so the page neither offers a form nor asks
                      "unable": timing.unable(enc, a) or "",
                      # a shot the engine refuses at its SR while the shooter is engaged, and with whom
                      "held": defence.held_in_melee(enc, c) if a["kind"] == "missile" else "",
                      # the standing foes in reach: a change of this action starts on one of them (a GM's play:
                      # Ayla's change to a melee attack started on the wolf 24 m off, not the foe beside her)
                      "engaged": [o.id for o in defence.engaged_with(enc, c) if body.can_act(o) is None]
                      if enc.phase == "resolve" else []})
    return {
        "ruleset": rs.id, "round": enc.round, "phase": enc.phase, "sr": cur, "order": order,
        "order_key": "SR, then higher DEX first, then the GM's order for ties, then the order they joined the fight",
        # a fumble's question carries its result's effect in the table ("roll_twice": the page asks for two rolls)
        "prompts": [_prompt_view(rs, enc, p) for p in enc.state.get("prompts", [])],
        # the end of the MR's bleeding CON tests, for the GM's own dice (typed on the advance that ends it)
        "bleed_tests": timing.bleed_tests(enc, rules.test_multiplier(rs.table(enc, "characteristic_tests"), "CON")),
        "combatants": combatant_views(rs, enc, kept),
    }
