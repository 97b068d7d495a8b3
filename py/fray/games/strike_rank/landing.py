"""Where a blow lands and what it does there (``sr.attack``): the hit location (mounted against
foot, hard cover), a pulled blow, armour and a parry's absorption, impaling, sticking in a shield,
knock-back, and the manoeuvres decided by an opposed roll (disarm, grapple, stun)."""

from __future__ import annotations

import math
from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.geometry import distance
from fray.model import Combatant
from fray.games.base import Context
from fray.games.strike_rank import body, rules, wounds

from fray.games.strike_rank.damage import _weapon_hp_loss, roll_damage
from fray.games.strike_rank.defence import _bool, _whole, shield_cover


LOCATION_ATTEMPTS = 5  # a critical re-rolls a location under hard cover; after five the GM places it


def mounted_vs_foot(ctx: Context, attacker: Combatant | None, target: Combatant | None, w: dict | None) -> bool:
    """"A mounted combatant rolls 1D10+10 for hit location when making melee attacks against
    combatants on foot": the attacker rides a mount that is in the fight, the target rides none and
    the weapon is not a missile. The GM's ``mounted_vs_foot`` (true or false) wins."""
    if "mounted_vs_foot" in ctx.action:
        return _bool(ctx, "mounted_vs_foot")
    if attacker is None or target is None or w is None or w["missile"]:
        return False
    rides = ctx.enc.get(attacker.data.get("mount") or "") is not None
    return rides and ctx.enc.get(target.data.get("mount") or "") is None


def location_die(ctx: Context, attacker: Combatant | None = None, target: Combatant | None = None,
                 w: dict | None = None) -> str:
    """The hit location dice: 1D20, a smaller die with a positioning bonus, or a rider's 1D10+10."""
    expr = ctx.action.get("location_die", "1D20")
    try:
        from fray.dice import parse
        lo, hi = parse(expr).minimum(), parse(expr).maximum()
    except Exception:
        raise InvalidAction("location_die", "must be dice such as 1D10 or 1D6+14") from None
    if lo < 1 or hi > 20:
        raise InvalidAction("location_die", "must stay within 1-20 (a smaller die with a positioning bonus)")
    if mounted_vs_foot(ctx, attacker, target, w):
        expr = "1D10+10"
    return expr


def location_at(target: Combatant, col: str, roll: int) -> dict | None:
    """The hit location a roll falls on, in the melee or missile column."""
    return next((l for l in target.data["locations"] if l[col][0] <= roll <= l[col][1]), None)


def hard_cover(cover: dict) -> list:
    return cover.get("hard", []) if isinstance(cover.get("hard", []), list) else []


def _pick_location(ctx: Context, attacker: Combatant, target: Combatant, w: dict, mode: str, cover: dict,
                   crit: bool) -> dict | None:
    aim = ctx.action.get("aim")
    if mode in ("aimed", "stun"):
        return body.location(target, aim)
    col = "missile" if w["missile"] else "melee"
    gm_loc = ctx.action.get("gm_location")
    if gm_loc is not None:
        # "Alternative Hit Locations": the GM may simply decide what hit location is struck.
        l = body.location(target, gm_loc)
        if l is None:
            raise InvalidAction("gm_location", f"{target.name} has no hit location {gm_loc!r}")
        ctx.event("location", f"the GM places the blow: {l['name']}")
        return l
    expr = location_die(ctx, attacker, target, w)
    hard = hard_cover(cover)
    for attempt in range(1, LOCATION_ATTEMPTS + 1):
        name = "location" if attempt == 1 else f"location_{attempt}"
        roll = ctx.dice.roll(name, expr).total
        loc = location_at(target, col, roll)
        if loc is None:
            raise RuleViolation("Damage", f"no {col} hit location for {roll}")
        ctx.event("location", f"hit location {expr} ({col}) = {roll}: {loc['name']}", roll=roll, location=loc["id"])
        if loc["id"] not in hard:
            return loc
        if not crit:
            return {"cover": True, **loc}
        ctx.event("location", "critical hit bypasses hard cover: roll again for an uncovered location")
    return None


def pulled_blow(ctx: Context) -> dict | None:
    """"Pulling Blows": the action's ``pull`` read and checked, or None."""
    pull = ctx.action.get("pull")
    if pull is not None and not isinstance(pull, dict):
        raise InvalidAction("pull", "must be {\"drop_modifier\": true, \"die_sides\": 3, \"bonus\": 0}")
    if pull:
        pull = dict(pull)
        if "drop_modifier" in pull and not isinstance(pull["drop_modifier"], bool):
            raise InvalidAction("pull.drop_modifier", "must be true or false")
        for k in ("die_sides", "bonus", "extra_bonus"):
            if pull.get(k) is not None:
                pull[k] = _whole(pull[k], f"pull.{k}")
    return pull


def _landed(ctx: Context, attacker: Combatant, w: dict, target: Combatant, pw: dict | None, cell: dict, mode: str,
            cover: dict, water: str, dkind: str, ddeg: str, decl: dict | None) -> None:
    landing = cell["damage"]
    crit = landing == "max_special"
    pull = pulled_blow(ctx)
    # -- attacking a weapon or an object: no hit location -------------------------------------------------
    if mode == "attack_weapon":
        tw = pw if dkind == "parry" else body.weapon(target, ctx.action.get("target_weapon"))
        if tw is None:
            raise InvalidAction("target_weapon", body.no_such_weapon(target))
        dmg, text, _ = roll_damage(ctx, attacker, w, landing, "damage", decl, pull)
        loss = dmg if crit else max(0, dmg - tw["hp"])
        tw["hp"] -= loss
        ctx.event("damage", f"{attacker.name} strikes {target.name}'s {tw['name']}: {text}; "
                  f"{'critical: full damage' if crit else 'excess over its HP'}: loses {loss}; HP {tw['hp']}/{tw['hp_max']}")
        return
    if mode == "attack_object":
        obj = ctx.action["object"]
        dmg, text, _ = roll_damage(ctx, attacker, w, landing, "damage", decl, pull)
        loss = dmg if crit else max(0, dmg - obj["hp"])
        ctx.event("damage", f"{attacker.name} strikes {obj.get('name', 'the object')}: {text}; loses {loss} HP "
                  f"({'critical: full damage' if crit else 'excess over its ' + str(obj['hp']) + ' HP'})", object_loss=loss)
        return
    loc = _pick_location(ctx, attacker, target, w, mode, cover, crit)
    if loc is None:
        ctx.event("location", "the GM places the blow (no uncovered location came up)")
        return
    dmg, text, st = roll_damage(ctx, attacker, w, landing, "damage", decl, pull)
    if mode == "stun":
        return _stun(ctx, attacker, target, loc, dmg, text)
    if loc.get("cover"):
        wounds.prompt(ctx, "hard_cover", target.id, f"the blow ({dmg}) strikes the hard cover over {target.name}'s "
                      f"{loc['name']}: does it penetrate? (the cover may act as armour)",
                      [{"value": "stopped", "label": "Stopped by the cover"},
                       {"value": "through", "label": "Penetrates: enter the damage that gets through"}],
                      location=loc["id"], damage=dmg)
        return
    # mounted target: "attacks that would hit the opposite side instead hit the mount"
    side = ctx.action.get("attacker_side")
    mount = ctx.enc.get(target.data.get("mount") or "")
    if mount is not None and side in ("left", "right") and loc["side"] and loc["side"] != side:
        wounds.prompt(ctx, "apply_damage", mount.id, f"{dmg} damage ({text}) strikes {mount.name} instead, the far side "
                      f"of {target.name}: fore- or hindquarters?",
                      [{"value": l["id"], "label": l["name"]} for l in mount.data["locations"]
                       if l["type"] in ("chest", "abdomen", "body")], damage=dmg, ignores_armour=False)
        return
    rolled = dmg
    through = dmg
    hit_loc = loc
    parts = [text]
    if cell["parried"] and pw is not None:
        whp, limb = parry_absorbs(target, pw, loc)
        if limb is not None:
            through = max(0, dmg - whp)
            hit_loc = limb  # "the parrying limb may take damage"
            parts.append(f"parried by {limb['name']} (weapon HP {whp}{' martial arts ×2' if pw['martial_arts'] else ''}): "
                         f"{through} through to the {limb['name']}")
        else:
            through = max(0, dmg - whp)
            parts.append(f"parried by {pw['name']} (HP {whp}): {through} through")
            spares = w["type"] == "impaling" or (w["type"] == "cut-and-thrust" and st == "impaling")
            if dmg > whp and not spares:
                loss = _weapon_hp_loss(pw, dmg, ctx.table("attack_vs_parry").get("parrying_weapon_loss", "one"))
                pw["hp"] -= loss
                parts.append(f"{pw['name']} loses {loss} HP ({pw['hp']}/{pw['hp_max']})")
            elif dmg > whp:
                parts.append(f"impaling weapons do not damage {pw['name']}")
            if pw["shield"] and sticks(w, st) and landing in ("special", "max_special"):
                return _stuck_in_shield(ctx, attacker, w, target, pw, parts, through, hit_loc)
    # armour
    ignores = cell["ignores_armour"]
    eff_ap, ap, sc_ap, scw, water_ap = armour_against(ctx, target, hit_loc, ignores, water)
    if through:
        magic = body.protection(target)
        parts.append(f"AP {eff_ap}" + (" (critical ignores armour)" if ignores and (ap or sc_ap) else "")
                     + (f" incl. magical protection {magic}" if magic else "")
                     + (f" incl. shield cover {sc_ap}" if sc_ap and not ignores else "")
                     + (" incl. 3 underwater" if water_ap else ""))
    taken = max(0, through - eff_ap)
    if scw is not None and through > sc_ap and not ignores:
        # "If the shield is penetrated by an attack, it loses 1 HP." The shield is in front of the
        # location's own armour: a blow beating the shield's AP has penetrated it.
        scw["hp"] -= 1
        parts.append(f"{scw['name']} penetrated: loses 1 HP")
    ctx.event("damage_roll", "; ".join(parts) + f" → {taken} to {hit_loc['name']}", rolled=rolled, taken=taken)
    if taken or through:
        wounds.apply_damage(ctx, target, hit_loc["id"], taken, source=f"{attacker.name}'s {w['name']}", tag="wound")
    impaled = sticks(w, st) and landing in ("special", "max_special") and taken > 0
    if impaled:
        _impale(ctx, attacker, w, target, hit_loc, decl)
    elif w["knockback"]:
        # Knockback names its exceptions (an impale; "Some attacks, like bites"): a blow that kills is
        # none of them, and the body goes back as a living target would
        resist_self = target.data["round"].get("bracing")
        _knockback(ctx, attacker, target, rolled, "damage", "rolled damage", resist_self)


def sticks(w: dict, special_type: str) -> bool:
    """Whether a special hit with ``w`` leaves the weapon stuck ("Impaling: ... and the weapon
    impales the target"; "If a shield parries an impale ... the weapon is stuck in the shield"). A
    natural or unarmed attack is no weapon to stick: a bite or a claw deals impaling special damage
    and comes away (the wolf does not leave its bite in a shield)."""
    return special_type == "impaling" and not (w["natural"] or w["unarmed"])


def parry_absorbs(target: Combatant, pw: dict, loc: dict) -> tuple[int, dict | None]:
    """"Parry: attack damage reduced by weapon HP": the HP a parry takes off a blow, and the limb
    the rest strikes for an unarmed parry ("Unarmed parries use the HP of the bodypart used ... the
    parrying limb may take damage"; "Martial Arts parries are treated as having weapon HP equal to
    twice the location HP"), or None when it goes on to the hit location."""
    if pw["unarmed"] or pw["martial_arts"]:
        limb = (body.hand_location(target, pw) or [loc])[0]
        return limb["hp_max"] * (2 if pw["martial_arts"] else 1), limb
    return pw["hp"], None


def armour_against(ctx: Context, target: Combatant, hit_loc: dict, ignores: bool, water: str
                   ) -> tuple[int, int, int, dict | None, int]:
    """The AP a blow meets at a location: (effective AP, the location's AP, shield cover AP, the
    covering shield, underwater AP). "The location's armor points (AP) are deducted from the
    damage"; a shield as cover grants "AP equal to ½ the shield's HP"; a critical ignores armour;
    underwater opponents "have an extra 3 AP (critical-proof)"."""
    ap = hit_loc["ap"]
    shield_cov = shield_cover(ctx)
    sc_ap = 0
    scw = None
    if hit_loc["id"] in shield_cov.get("locations", []):
        scw = body.weapon(target, shield_cov.get("weapon"))
        if scw is None or not scw["shield"]:
            raise InvalidAction("shield_cover.weapon", "name the defender's shield")
        if len(shield_cov.get("locations", [])) > max(1, scw["cover"]):
            raise RuleViolation("Shields as Cover", f"{scw['name']} covers at most {scw['cover']} locations")
        sc_ap = scw["hp"] // 2
    water_ap = 3 if water == "under" else 0  # "an extra 3 AP (critical-proof)"
    # "Critical Hit: ... ignores armor (but not magical protection)"
    eff_ap = (0 if ignores else ap + sc_ap) + water_ap + body.protection(target)
    return eff_ap, ap, sc_ap, scw, water_ap


def _stuck_in_shield(ctx, attacker, w, target, shield, parts, through, hit_loc) -> None:
    """"If a shield parries an impale ... the weapon is stuck in the shield." Even if damage got through.
    A shot leaves its arrow or bolt there, not the bow ("Parrying Missile Weapons": the missile weapon
    is not damaged by a parry), so the shooter keeps the launcher; only the weapon that struck counts
    towards the shield's stuck ENC. Only a melee attacker still has the weapon in hand to pull
    ("Impale": "A melee attacker can make a weapon skill test at half rating to immediately free
    the weapon"): a thrown weapon stays in the shield, out of its thrower's reach."""
    table = ctx.table("stuck_weapons")
    shot = w["missile"] and not w["thrown"]
    name = shot_name(w)
    shield["stuck"].append({"weapon": w["id"], "owner": attacker.id, "name": name,
                            "enc": table.get("missile_enc", 0.1) if shot else w["enc"], "attempts": 0})
    if not shot:
        w["stuck_in"] = {"combatant": target.id, "shield": shield["id"], "name": f"{target.name}'s {shield['name']}"}
    total = body.stuck_enc(shield)
    parts.append(f"{name} sticks in {shield['name']} (stuck ENC {total:g}: "
                 f"{rules.stuck_effect_text(total, table)})")
    ctx.event("damage_roll", "; ".join(parts))
    if through:
        taken = max(0, through - body.armour_points(target, hit_loc))
        wounds.apply_damage(ctx, target, hit_loc["id"], taken, source=f"{attacker.name}'s {w['name']}", tag="wound")
    if w["missile"]:
        return
    wounds.prompt(ctx, "unstick", attacker.id, f"{attacker.name} may pull {w['name']} out of {shield['name']} now "
                  "at half weapon skill, or let it go",
                  [{"value": "pull", "label": "Pull now (½ skill; Pull d100)"},
                   {"value": "hold", "label": "Hold on to it"}, {"value": "let_go", "label": "Let go"}],
                  weapon=w["id"], owner=attacker.id, holder=target.id, shield=shield["id"])


def shot_name(w: dict) -> str:
    """What sticks when ``w`` impales: the weapon itself, or for a shot its missile, not the bow."""
    return w["name"] if not w["missile"] or w["thrown"] else f"missile from {w['name']}"


def _impale(ctx: Context, attacker: Combatant, w: dict, target: Combatant, loc: dict, decl: dict | None) -> None:
    # a shot leaves its missile in the wound, not the bow: only a melee or thrown weapon is itself stuck
    name = shot_name(w)
    target.data["impaled"].append({"weapon": w["id"], "owner": attacker.id, "name": name, "location": loc["id"],
                                   "location_name": loc["name"], "damage": w["damage"], "attempts": 0,
                                   "held": not w["missile"]})
    if not w["missile"] or w["thrown"]:
        w["stuck_in"] = {"combatant": target.id, "location": loc["id"], "name": f"{target.name}'s {loc['name']}"}
    ctx.event("impale", f"{name} impales {target.name}'s {loc['name']} and is stuck; no knockback")
    if not w["missile"]:
        wounds.prompt(ctx, "unstick", attacker.id, f"{attacker.name} may free {w['name']} now at half weapon skill, "
                      "hold on (neither can move or disengage), or let go",
                      [{"value": "pull", "label": "Free it now (½ skill; Pull d100)"},
                       {"value": "hold", "label": "Hold on"}, {"value": "let_go", "label": "Let go"}],
                      weapon=w["id"], owner=attacker.id, holder=target.id, location=loc["id"])


def _knockback(ctx: Context, attacker: Combatant, target: Combatant, amount: int, what: str, label: str,
               bracing: Any = False) -> None:
    siz = target.stats.get("SIZ", 0)
    resist, rlabel = siz, f"SIZ {siz}"
    if bracing:
        resist, rlabel = siz + target.stats.get("STR", 0), f"STR+SIZ {siz + target.stats.get('STR', 0)} (bracing)"
    mount = ctx.enc.get(target.data.get("mount") or "")
    ride_ok = None
    # "Dead characters cannot do anything", the unconscious and incapacitated are "unable to take any
    # action": no Ride test to stay mounted, no DEX roll to keep their feet
    down = body.no_footing_roll(target)
    dead = down == "dead"
    if mount is not None and amount > resist and down in body.FALLEN:
        ride_ok = False  # as a failed Ride test: "the rider uses their own SIZ"
    elif mount is not None and amount > resist:
        ok, _, text = _skill_test(ctx, target.stats.get("ride", 0), "ride")
        ride_ok = ok
        ctx.event("knockback", f"{target.name} is mounted: Ride {text}")
        if ok:
            resist += mount.stats.get("SIZ", 0)
            rlabel += f" + mount SIZ {mount.stats.get('SIZ', 0)}"
    metres = rules.knockback_metres(amount, resist)
    if not metres:
        return
    ctx.event("knockback", f"{target.name} is knocked back {metres} m ({label} {amount} > {rlabel})",
              metres=metres, id=target.id)
    if ride_ok is False:
        if not dead:
            wounds.add_condition(target, "prone")
        ctx.event("knockback", f"{target.name} is knocked off {mount.name}")
    if dead:
        ctx.event("knockback", f"{target.name} is dead: no DEX roll; the body falls where it lands")
    elif down == "prone":
        ctx.event("knockback", f"{target.name} is already prone: no DEX roll; knocked back along the ground")
    elif down and "prone" in target.conditions:
        # lying already (a GM's play: "is unconscious: no DEX roll; falls prone" of one prone)
        ctx.event("knockback", f"{target.name} is {down}: no DEX roll; already prone")
    elif down:
        # "make a DEX×5% roll or fall prone": one who can make no roll does not keep their feet
        wounds.add_condition(target, "prone")
        ctx.event("knockback", f"{target.name} is {down}: no DEX roll to keep their feet; falls prone")
    else:
        ok, _, text = _skill_test(ctx, target.stats.get("DEX", 0) * rules.test_multiplier(
            ctx.table("characteristic_tests"), "DEX"), "knockback_dex")
        if ok:
            ctx.event("knockback", f"{target.name} keeps their feet: DEX×5 {text}")
        else:
            wounds.add_condition(target, "prone")
            ctx.event("knockback", f"{target.name} falls prone: DEX×5 {text}")
    # "knocked back": straight away from the attacker, the way the blow pushed; the token moves when
    # the GM has said whether it struck anyone on the way (``care.answer``), a mount ridden well too
    dx, dy = target.position.x - attacker.position.x, target.position.y - attacker.position.y
    away = math.hypot(dx, dy)
    movers = [target.id] + ([mount.id] if ride_ok and mount is not None else [])
    wounds.prompt(ctx, "collision", target.id, f"{target.name} is knocked back {metres} m: does it collide with "
                  "someone or something?",
                  [{"value": "none", "label": "No collision"},
                   {"value": "combatant", "label": "Another combatant (≤ twice SIZ): DEX test or prone"},
                   {"value": "solid", "label": "A creature or solid object (3 m or more: 1D6 per 5 m to both)"}],
                  metres=metres, attacker=attacker.id, movers=movers,
                  away=[round(dx / away, 6), round(dy / away, 6)] if away > 1e-9 else None)


def _skill_test(ctx: Context, chance: int, name: str) -> tuple[bool, str, str]:
    roll = ctx.dice.d100(name).total
    deg = rules.degree_of_success(chance, roll)
    return rules.is_success(deg), deg, f"{chance}%: rolled {roll}, {deg}"


def opposed(a_skill: int, a_roll: int, d_skill: int, d_roll: int) -> str:
    """Winner of an opposed test: the better degree; equal successes go to the higher roll that
    still succeeds; two failures: nobody ("attacker"/"defender"/"none")."""
    da, dd = rules.degree_of_success(a_skill, a_roll), rules.degree_of_success(d_skill, d_roll)
    ra, rd = rules.DEGREES.index(da), rules.DEGREES.index(dd)
    if not rules.is_success(da) and not rules.is_success(dd):
        return "none"
    if ra != rd:
        return "attacker" if ra < rd else "defender"
    return "attacker" if a_roll > d_roll else "defender"


def _disarm(ctx, attacker, w, target, pw, dkind, ddeg, skill, ar, dr) -> None:
    """"an opposed test of weapon skills, and the attacker's skill is halved ... the defender may
    also dodge to avoid the attempt entirely\""""
    if dkind == "dodge" and rules.is_success(ddeg):
        ctx.event("disarm", f"{target.name} dodges the disarm")
        return
    tw = pw if pw is not None else body.weapon(target, ctx.action.get("target_weapon"))
    if tw is None:
        raise InvalidAction("target_weapon", "name the weapon to knock away")
    if dkind != "parry":
        # no parry roll to oppose with: the defender tests the weapon skill
        dr = ctx.dice.d100("resist").total
    win = opposed(skill.value, ar, tw["skill"], dr)
    if win == "attacker":
        dist = ctx.dice.roll("disarm_distance", "1D6").total
        holds = w["unarmed"]  # "If the attacker used a fist or grapple attack, they can hold the weapon instead."
        tw["dropped"] = True
        ctx.event("disarm", f"{attacker.name} wins the opposed test: {tw['name']} is knocked from {target.name}'s hands"
                  + (f" and {attacker.name} holds it" if holds else f", landing {dist} m away in a random direction"))
    else:
        ctx.event("disarm", f"{target.name} keeps {tw['name']} (opposed test: {win} wins)")


def _grapple(ctx, attacker, target, cell, dkind, pw) -> None:
    if dkind == "parry" and cell["parried"] and pw is not None and not pw["unarmed"]:
        # "If a grappling attack is parried without dealing damage to the grappler, the grappler
        # instead seizes the parrying weapon"
        ctx.event("grapple", f"{attacker.name} seizes {target.name}'s {pw['name']} instead")
        wounds.prompt(ctx, "grapple_weapon", attacker.id, f"{attacker.name} holds {target.name}'s {pw['name']}: try to "
                      "pull it away (STR vs STR)?", [{"value": "pull", "label": "Pull (STR vs STR d100)"},
                                                     {"value": "release", "label": "Let go"}],
                      target=target.id, weapon=pw["id"])
        return
    if cell["damage"] == "none":
        return
    aim = ctx.action.get("aim")
    loc = body.location(target, aim) if aim else _pick_location(ctx, attacker, target, {"missile": False}, "normal", {}, False)
    if loc is None:
        raise InvalidAction("aim", f"{target.name} has no hit location {aim!r}")
    attacker.data["grips"].append({"target": target.id, "location": loc["id"]})
    wounds.add_condition(target, "grappled")
    ctx.event("grapple", f"{attacker.name} grabs {target.name}'s {loc['name']}: {target.name} cannot disengage")


def _stun(ctx, attacker, target, loc, dmg, text) -> None:
    """"an opposed test between ([damage] - [AP])×5% and the target's CON×5%\""""
    ap = body.armour_points(target, loc)
    a_sk = max(0, dmg - ap) * 5
    d_sk = target.stats.get("CON", 0) * 5
    ar = ctx.dice.d100("stun_attack").total
    dr = ctx.dice.d100("stun_resist").total
    win = opposed(a_sk, ar, d_sk, dr)
    ctx.event("stun", f"stun at {loc['name']}: {text}; ({dmg} − AP {ap})×5 = {a_sk}% rolled {ar} vs CON×5 "
              f"{d_sk}% rolled {dr}: {win} wins")
    if win != "attacker":
        return
    pts = max(0, dmg - ap)
    if loc["type"] in ("arm", "leg", "wing", "tail"):
        n = ctx.dice.roll("stun_mr", "1D6").total
        loc["disabled_mr"] = n
        ctx.event("stun", f"{target.name}'s {loc['name']} is disabled for {n} MR")
    elif loc["type"] == "head":
        target.data["stun"].append({"kind": "unconscious", "mr": max(1, pts)})
        wounds.add_condition(target, "unconscious")
        ctx.event("stun", f"{target.name} is knocked unconscious for {max(1, pts)} MR")
        wounds.lose_later_actions(ctx, target, "stunned unconscious")
    else:
        target.data["stun"].append({"kind": "incapacitated", "mr": 1})
        target.data["stun_incapacitated"] = True
        wounds.add_condition(target, "incapacitated")
        ctx.event("stun", f"{target.name} is incapacitated for 1 MR, unable to act (including parry or dodge)")
        wounds.lose_later_actions(ctx, target, "stunned")
