"""One whole attack exchange in one action (``sr.attack``).

Procedure, as the text gives it: 1. the defender decides whether to parry or dodge (``defence``
in the action); 2. the attacker tests the weapon skill (roll ``attack``); 3. the defender tests
the weapon or Dodge (roll ``defence``). The degrees are compared on the Attack vs Parry or Attack
vs Dodge table; then hit location (``location``), damage (``damage``), armour, the wound. Every
number comes through the dice tray under a fixed name, so the action carries its dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.geometry import distance
from fray.model import Combatant
from fray.games.base import Context, whole_number
from fray.games.strike_rank import body, rules, timing, wounds

MODES = ("normal", "aimed", "attack_weapon", "attack_object", "disarm", "stun", "push", "grapple")
WATER = ("none", "waist", "armpits", "under")
DEFENCE_VERB = {"parry": "parries", "dodge": "dodges"}
MATRIX = {"parry": "attack_vs_parry", "dodge": "attack_vs_dodge", "none": "attack_undefended"}  # table by defence


def _num(ctx: Context, key: str, default: float, lo: float, hi: float) -> float:
    v = ctx.action.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise InvalidAction(key, f"must be a number from {lo:g} to {hi:g}")
    return v


def _bool(ctx: Context, key: str) -> bool:
    v = ctx.action.get(key, False)
    if not isinstance(v, bool):
        raise InvalidAction(key, "must be true or false")
    return v


def engaged_with(enc, c: Combatant) -> list[Combatant]:
    """Enemies within engagement range ("adjacent combatants are engaged"), to read and never to edit
    (``Encounter.peek``): every missile attack asks, and through a draft's own list each ask copied
    every combatant (issue 11)."""
    return [o for o in enc.peek() if o.id != c.id and o.side != c.side and "dead" not in o.conditions
            and distance(o.position, c.position) <= rules.ENGAGEMENT_RANGE_M]


def _stance_check(ctx: Context, defender: Combatant, kind: str) -> None:
    r = defender.data["round"]
    if r.get("charging"):
        if not r.get("charge_attacked"):
            raise RuleViolation("Charging", "if the opponent does attack first, the charging combatant would not be "
                                "able to dodge or parry")
    elif r.get("running") and not r.get("fleeing"):
        raise RuleViolation("Movement", "Running characters cannot dodge or parry.")
    if r.get("lost_defence"):
        raise RuleViolation("Fumble Table", f"{defender.name} lost this defence to a fumble")
    for cond in ("dead", "unconscious", "incapacitated"):
        if cond in defender.conditions:
            raise RuleViolation("Injuries", f"{defender.name} is {cond} and cannot {kind}")


def defence_skill(ctx: Context, attacker: Combatant, defender: Combatant, weapon: dict, free_attack: bool,
                  water: str) -> tuple[str, dict | None, rules.Skill | None]:
    """Which defence, with which weapon, at what skill (multipliers, then split, then penalties)."""
    d = ctx.action.get("defence", {"kind": "none"})
    if isinstance(d, str):
        d = {"kind": d}
    if not isinstance(d, dict) or d.get("kind") not in ("parry", "dodge", "none"):
        raise InvalidAction("defence.kind", "must be parry, dodge or none")
    kind = d["kind"]
    if kind == "none":
        return "none", None, None
    _stance_check(ctx, defender, kind)
    mults, why = [], []
    surprised = "surprised" in defender.conditions and ctx.enc.round == 1
    if surprised:
        mults.append(0.5), why.append("surprised")
    aquatic = defender.data.get("aquatic")
    if water in ("under", "armpits") and not aquatic:
        mults.append(0.5), why.append("in water")
    r = defender.data["round"]
    if kind == "dodge":
        if free_attack:
            mults.append(0.5), why.append("fleeing")
        if water == "waist" and not aquatic:
            mults.append(0.5), why.append("waist-deep")
        n = r["dodges"]
        # "unlimited dodges, but each one after the first suffers a cumulative -20% penalty"
        bonus = -20 * n + _whole(d.get("bonus", 0), "defence.bonus")
        return "dodge", None, rules.modified_skill(defender.stats.get("dodge", 0), mults, None, bonus, why)
    if free_attack:
        raise RuleViolation("Disengaging", "the attack on a fleeing combatant cannot be parried (but may be dodged at ½)")
    if body.chest_maimed(defender):
        raise RuleViolation("Damage Equal to Double Location HP", body.can_fight(defender))
    pw = body.usable_weapon(defender, d.get("weapon"), "defence.weapon")
    if r.get("bracing") == pw["id"]:
        raise RuleViolation("Bracing for a Charge", "The bracing combatant cannot dodge or use the spear to parry.")
    cover = shield_cover(ctx)
    if cover.get("weapon") == pw["id"]:
        raise RuleViolation("Shields as Cover", "a shield used as cover cannot be used to parry")
    if weapon["missile"] and not (pw["shield"] or pw["martial_arts"]):
        raise RuleViolation("Defending vs. Missiles", "Ranged attacks can be dodged or parried with a shield, but not "
                            "parried with other weapons")
    if any(l.get("immobilized_by") for l in body.hand_location(defender, pw)):
        raise RuleViolation("Grappling", "An immobilized limb cannot be used")
    _check_parry_allowance(defender, pw, surprised)
    if pw["shield"]:
        eff = rules.stuck_effect(body.stuck_enc(pw), ctx.table("stuck_weapons"))
        if eff == "half":
            mults.append(0.5), why.append("weapons stuck in the shield")
    split = d.get("split")
    if split is not None:
        split = _whole(split, "defence.split")
        bad = rules.check_split(rules.modified_skill(pw["skill"], mults).value, [split])
        if bad:
            raise RuleViolation("Fighting", bad)
        used = r["split_used"].get("parry:" + pw["id"], 0)
        if used + split > rules.modified_skill(pw["skill"], mults).value:
            raise RuleViolation("Fighting", "the split parries exceed the skill")
    return "parry", pw, rules.modified_skill(pw["skill"], mults, split, _whole(d.get("bonus", 0), "defence.bonus"), why)


def _whole(raw: Any, path: str) -> int:
    """A typed modifier: a whole number ("", "A1", a list or Infinity are not)."""
    v = whole_number(raw, path)
    if not -1000 <= v <= 1000:
        raise InvalidAction(path, f"must be from -1000 to 1000, not {v}")
    return v


def shield_cover(ctx: Context) -> dict[str, Any]:
    """"Shields as Cover": ``{"weapon": shield id, "locations": [hit location ids]}`` or nothing."""
    cov = ctx.action.get("shield_cover")
    if not cov:
        return {}
    if not isinstance(cov, dict):
        raise InvalidAction("shield_cover", 'must be {"weapon": shield, "locations": [hit locations]}')
    locs = cov.get("locations", [])
    if not isinstance(locs, list) or not all(isinstance(x, str) for x in locs):
        raise InvalidAction("shield_cover.locations", "must be a list of hit location ids")
    return cov


def _holds_two(c: Combatant) -> bool:
    held = [w for w in c.data["weapons"] if not w["natural"] and not w["missile"] and not body.weapon_usable(c, w)]
    return len({body.held_in(c, w) for w in held}) >= 2 or (len(held) >= 2 and any(w["shield"] for w in held))


def _check_parry_allowance(c: Combatant, pw: dict, surprised: bool) -> None:
    """"Each round, characters get one attack and one parry" plus one extra attack OR parry with
    a second weapon or shield; surprised characters "can parry with both"."""
    r = c.data["round"]
    if ("split_parry" in r and pw["id"] in r.get("split_parry", [])):
        return
    parries = r["parries"]
    extra_free = _holds_two(c) and len(r["attacks"]) <= 1
    if not parries:
        return
    if len(parries) == 1 and extra_free and pw["id"] not in parries:
        return
    used = [(body.weapon(c, p) or {}).get("name", p) for p in parries]
    raise RuleViolation("Attacks & Defenses", f"{c.name} has already parried this MR ({', '.join(used)}); "
                        "dodges are unlimited")


def _check_attack_allowance(ctx: Context, c: Combatant, w: dict, split: int | None, free_attack: bool) -> None:
    r = c.data["round"]
    if split is not None:
        # "Multiple attacks each require their full SR"; the split parts share the skill. The skill
        # is checked once multiplied ("the multiplier may allow or disallow dividing the skill").
        return
    atk = r["attacks"]
    if not atk:
        return
    if w["natural"] and w["id"] not in atk:
        return  # "Creatures with multiple natural attacks have their own attack routines"
    if len(atk) == 1 and atk[0] != w["id"] and _holds_two(c) and len(r["parries"]) <= 1:
        return
    raise RuleViolation("Attacks & Defenses", f"{c.name} has already attacked this MR"
                        + (" (the free attack on a fleeing enemy counts)" if free_attack else ""))


def _free_attack_counts(ctx: Context, attacker: Combatant, fleeing: Combatant) -> None:
    """"This attack counts against the enemy's attacks that round!": the declared attacks it leaves no room
    for are lost."""
    r = attacker.data["round"]
    made = list(r["attacks"])
    pending = sorted(timing.actions_where(ctx.enc, lambda x: x["combatant"] == attacker.id and x["attack"]
                                          and x["status"] == "declared" and x["round"] == ctx.enc.round),
                     key=lambda x: x["sr"])
    for a in pending:
        w = body.weapon(attacker, a.get("weapon")) or {}
        try:
            _check_attack_allowance(ctx, attacker, w, a.get("split", [None])[a.get("index", 0)]
                                    if a.get("split") else None, True)
        except RuleViolation:
            a["status"] = "lost"
            ctx.event("lost", f"{timing.open_text(ctx.enc, a)} is lost: the free attack on fleeing "
                      f"{fleeing.name} counts against the attacks this MR", ref=a["ref"])
            continue
        r["attacks"].append(w.get("id"))
    r["attacks"] = made


@dataclass
class Plan:
    """An exchange as decided before any die: who attacks whom with what, at what skill, against
    which defence at what skill (``plan_attack``). ``past_range`` is set (the range in metres) for a
    shot past double range that is assumed to miss; the skills are then not worked out."""

    attacker: Combatant
    target: Combatant
    weapon: dict[str, Any]
    mode: str
    water: str
    free_attack: bool
    split: int | None
    decl: dict[str, Any] | None
    past_range: float | None = None
    base: int = 0
    mults: list[float] = field(default_factory=list)
    why_m: list[str] = field(default_factory=list)
    bonus: int = 0
    into_melee: bool = False
    cover: dict[str, Any] = field(default_factory=dict)
    skill: rules.Skill | None = None
    dkind: str = "none"
    pw: dict[str, Any] | None = None
    dskill: rules.Skill | None = None


def plan_attack(ctx: Context) -> Plan:
    """Read and check an ``sr.attack`` and work out both skills, changing nothing: the attack
    itself (``attack``) and the odds before it (``odds.py``) both start here."""
    enc = ctx.enc
    a = ctx.action
    attacker = ctx.combatant("attacker")
    target = ctx.combatant("target")
    if attacker.id == target.id:
        raise InvalidAction("target", "a combatant cannot attack themself")
    why = body.can_act(attacker)
    if why:
        raise RuleViolation("Action Declaration & Resolution", why)
    if body.chest_maimed(attacker):
        raise RuleViolation("Damage Equal to Double Location HP", body.can_fight(attacker))
    if "surprised" in attacker.conditions and enc.round == 1:
        raise RuleViolation("Aborting Actions", "Characters who are taken by surprise cannot take actions in the first "
                            "Melee Round")
    if attacker.data["round"].get("fleeing"):
        raise RuleViolation("Disengaging", "a fleeing combatant cannot attack this MR")
    w = body.usable_weapon(attacker, a.get("weapon"), "weapon")
    mode = a.get("mode", "normal")
    if mode not in MODES:
        raise InvalidAction("mode", f"must be one of {', '.join(MODES)}")
    if mode in ("disarm", "push", "stun", "grapple") and w["missile"]:
        raise RuleViolation({"disarm": "Disarm (½ skill)", "push": "Push", "stun": "Stun (½ skill)",
                             "grapple": "Grappling"}[mode], "Melee only.")
    water = a.get("water", "none")
    if water not in WATER:
        raise InvalidAction("water", f"must be one of {', '.join(WATER)}")
    if water == "under" and not attacker.data.get("aquatic"):
        if w["missile"] and "bellybow" not in w["name"].lower():
            raise RuleViolation("Underwater Combat", "no throwing or missile weapons may be used underwater")
        if not w["missile"] and w["type"] not in ("impaling", "cut-and-thrust"):
            raise RuleViolation("Underwater Combat", "Only impaling or cut-and-thrust weapons may be used")
    free_attack = _bool(ctx, "free_attack")
    split = a.get("split")
    decl = None
    if a.get("ref"):
        decl = next(iter(timing.actions_where(enc, lambda x: x["ref"] == a["ref"])), None)
        if decl is None:
            raise InvalidAction("ref", "that action is no longer declared")
        if decl.get("weapon") and decl["weapon"] != w["id"]:
            declared = next((x["name"] for x in attacker.data.get("weapons", []) if x.get("id") == decl["weapon"]),
                            "another weapon")
            raise RuleViolation("Changing Actions", f"that attack was declared with {declared}: use Change… to "
                                                    f"attack with {w['name']}")
        if split is None and decl.get("split"):
            split = decl["split"][decl.get("index", 0)]
    if split is not None and (isinstance(split, bool) or not isinstance(split, int)):
        raise InvalidAction("split", "must be a whole number")
    if decl is None or split is not None:
        # a declared attack was checked when declared (several shots, split attacks, a second weapon)
        _check_attack_allowance(ctx, attacker, w, split, free_attack)
    # -- the attacker's skill: multipliers first, then the split, then bonuses -----------------------
    mults: list[float] = []
    why_m: list[str] = []

    def half(reason: str) -> None:
        mults.append(0.5)
        why_m.append(reason)

    aim = a.get("aim")
    if mode in ("aimed", "stun"):
        half("aimed" if mode == "aimed" else "stun")
        if body.location(target, aim) is None:
            raise InvalidAction("aim", f"{target.name} has no hit location {aim!r}")
    elif mode in ("attack_weapon", "disarm"):
        half(mode.replace("_", " "))
    elif mode == "attack_object":
        obj = a.get("object")
        if not isinstance(obj, dict) or not isinstance(obj.get("hp"), int):
            raise InvalidAction("object", "name the object and its HP: {\"name\": ..., \"hp\": 8, \"held\": true}")
        if obj.get("held", True):
            half("held object")
    missile_range = None
    if w["missile"]:
        rng_m = a.get("range_m")
        if rng_m is None:
            rng_m = distance(attacker.position, target.position)
        elif isinstance(rng_m, bool) or not isinstance(rng_m, (int, float)) or rng_m < 0:
            raise InvalidAction("range_m", "must be metres")
        missile_range = rng_m
        if rng_m > 2 * w["range"]:
            if not _bool(ctx, "miracle"):
                return Plan(attacker, target, w, mode, water, free_attack, split, decl, past_range=rng_m)
        elif rng_m > w["range"]:
            half(f"beyond range {w['range']:g} m")
        if decl and decl.get("moving") or _bool(ctx, "moving"):
            half("moving")
        if _bool(ctx, "mount_running"):
            half("mount running")
        if decl and decl.get("running"):
            raise RuleViolation("Moving & Shooting", "not while running")
    into_melee = a.get("into_melee")
    if into_melee is None:
        into_melee = w["missile"] and any(o.id != attacker.id for o in engaged_with(enc, target))
    if w["missile"] and into_melee:
        half("into melee")
    cover = a.get("cover") or {}
    if not isinstance(cover, dict):
        raise InvalidAction("cover", "must be {\"hard\": [locations], \"soft\": true}")
    if cover.get("soft") and not (mode in ("aimed", "stun") and aim not in cover.get("hard", [])):
        half("soft cover")
    if water in ("under", "armpits") and not attacker.data.get("aquatic"):
        half("in water")
    m = a.get("multiplier")
    if m is not None:
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not 0 < m <= 4:
            raise InvalidAction("multiplier", "must be a number above 0, at most 4")
        mults.append(m), why_m.append("GM")
    bonus = a.get("bonus", 0)
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        raise InvalidAction("bonus", "must be a whole number")
    base = w["skill"]
    if split is not None:
        # "this is calculated before the skill is divided, and the multiplier may allow or disallow
        # dividing the skill"
        whole = rules.modified_skill(base, mults).value
        used = attacker.data["round"]["split_used"].get(w["id"], 0)
        bad = rules.check_split(whole, [split]) or (
            "the split attacks exceed the skill" if used + split > whole else None)
        if bad:
            raise RuleViolation("Fighting", bad)
    if w["missile"] and missile_range is not None and missile_range > 2 * w["range"]:
        skill = rules.Skill(5, ("past double range: GM's miraculous 5%",))
    else:
        skill = rules.modified_skill(base, mults, split, bonus, why_m)
    dkind, pw, dskill = defence_skill(ctx, attacker, target, w, free_attack, water)
    if mode == "attack_object" and not a["object"].get("held", True) and dkind != "none":
        raise RuleViolation("Attack Object (full or ½ skill)", "an unattended object cannot be defended")
    return Plan(attacker, target, w, mode, water, free_attack, split, decl, None, base, mults, why_m, bonus,
                bool(into_melee), cover, skill, dkind, pw, dskill)


def attack(ctx: Context) -> None:
    enc = ctx.enc
    a = ctx.action
    p = plan_attack(ctx)
    attacker, target, w = p.attacker, p.target, p.weapon
    if p.past_range is not None:
        timing.mark_done(ctx, a.get("ref"), attacker.id, True)
        attacker.data["round"]["attacks"].append(w["id"])
        ctx.event("attack", f"{attacker.name} shoots {w['name']} at {target.name} at {p.past_range:g} m, past double "
                  f"range ({2 * w['range']:g} m): assumed to miss")
        _unload(attacker, w)
        return
    mode, water, free_attack, split, decl = p.mode, p.water, p.free_attack, p.split, p.decl
    base, mults, why_m, bonus, into_melee, cover = p.base, p.mults, p.why_m, p.bonus, p.into_melee, p.cover
    skill, dkind, pw, dskill = p.skill, p.dkind, p.pw, p.dskill
    # -- timing ---------------------------------------------------------------------------------------
    decl = timing.mark_done(ctx, a.get("ref"), attacker.id, True)
    if decl and decl.get("moving") and not w["missile"] and timing.moves_token(ctx):
        # the movement in the attack's SR ("must move 6m to get within melee range") ends at the target
        went = timing.close_in(attacker, target)
        if went:
            ctx.event("move", f"{attacker.name} closes {went:g} m to {target.name}", id=attacker.id,
                      x=attacker.position.x, y=attacker.position.y)
    if decl and decl.get("charge"):
        attacker.data["round"]["charge_attacked"] = True
    if decl and decl.get("charge_past"):
        _charge_past(ctx, attacker, target)
    # -- rolls ------------------------------------------------------------------------------------------
    ar = ctx.dice.d100("attack").total
    adeg = rules.degree_of_success(skill.value, ar)
    text = f"{attacker.name} attacks {target.name} with {w['name']}: {skill.text()}, rolled {ar}: {adeg}"
    ddeg = "none"
    dr = None
    if dkind != "none":
        dr = ctx.dice.d100("defence").total
        ddeg = rules.degree_of_success(dskill.value, dr)
        text += f"; {target.name} {DEFENCE_VERB[dkind]}{' with ' + pw['name'] if pw else ''}: {dskill.text()}, rolled {dr}: {ddeg}"
    r_att, r_def = attacker.data["round"], target.data["round"]
    r_att["attacks"].append(w["id"])
    r_att["fought"] = True
    if free_attack:
        _free_attack_counts(ctx, attacker, target)
    if split is not None:
        r_att["split_used"][w["id"]] = r_att["split_used"].get(w["id"], 0) + split
    if dkind == "parry":
        r_def["parries"].append(pw["id"])
        r_def["fought"] = True
        sp = (ctx.action.get("defence") or {}).get("split")
        if sp is not None:
            r_def["split_used"]["parry:" + pw["id"]] = r_def["split_used"].get("parry:" + pw["id"], 0) + sp
            r_def.setdefault("split_parry", []).append(pw["id"])
    elif dkind == "dodge":
        r_def["dodges"] += 1
    if w["missile"]:
        _unload(attacker, w)
    cell = rules.matrix_cell(ctx.table(MATRIX[dkind]), adeg, ddeg)
    ctx.event("attack", text + f" → {cell['damage'].replace('_', ' ')}" + (" (parried)" if cell["parried"] else ""),
              attacker=attacker.id, target=target.id, attack_roll=ar, attack_skill=skill.value, attack_degree=adeg,
              defence=dkind, defence_degree=ddeg, result=cell["damage"], parried=cell["parried"])
    if dkind in ("parry", "dodge"):
        wounds.interrupt_casting(ctx, target, DEFENCE_VERB[dkind], "concentration_defence")
        if any(x["kind"] == "reload" and x["status"] == "declared" for x in timing.actions_of(enc, target.id)):
            r_def["reload_interrupted"] = True
    # -- fumbles ----------------------------------------------------------------------------------------
    if adeg == "fumble":
        _fumble(ctx, attacker, "fumble_attack")
        if w["missile"] and into_melee:
            friends = [o for o in engaged_with(enc, target) if o.side == attacker.side]
            wounds.prompt(ctx, "stray", attacker.id, f"{attacker.name}'s fumbled shot hits a friendly melee participant",
                          [{"value": o.id, "label": o.name} for o in friends] or [{"value": "none", "label": "No friend there"}],
                          weapon=w["id"], attacker=attacker.id)
    if ddeg == "fumble":
        _fumble(ctx, target, "fumble_defence")
    if w["missile"] and into_melee and adeg in ("failure", "fumble") and adeg != "fumble":
        unhalved = rules.modified_skill(base, [x for x, y in zip(mults, why_m) if y != "into melee"], split, bonus)
        if ar <= unhalved.value and ar < 96:
            others = [o for o in engaged_with(enc, target)] + [target]
            wounds.prompt(ctx, "stray", attacker.id, f"{attacker.name}'s shot missed only because of the melee: it hits a "
                          "random participant", [{"value": o.id, "label": o.name} for o in others],
                          weapon=w["id"], attacker=attacker.id)
    # -- what the parry does to the attacking weapon ----------------------------------------------------
    if dkind == "parry" and cell["attacking_weapon_damage"] != "none":
        _parry_strikes_back(ctx, attacker, w, target, pw, cell["attacking_weapon_damage"])
    # -- special attacks --------------------------------------------------------------------------------
    if mode == "disarm":
        return _disarm(ctx, attacker, w, target, pw, dkind, ddeg, skill, ar, dr if dkind != "none" else None)
    if mode == "grapple":
        return _grapple(ctx, attacker, target, cell, dkind, pw)
    if mode == "push":
        if adeg in rules.SUCCESSES and (cell["damage"] != "none" or cell["parried"]):
            # "A parry does not prevent the knockback"
            _knockback(ctx, attacker, target, attacker.stats.get("STR", 0) + attacker.stats.get("SIZ", 0), "push",
                       "STR+SIZ")
        return
    if cell["damage"] == "none":
        return
    _landed(ctx, attacker, w, target, pw, cell, mode, cover, water, dkind, ddeg, decl)


def _unload(c: Combatant, w: dict) -> None:
    if w["rate"].startswith("1/") and w["rate"] != "1/MR":
        x = int(w["rate"][2:-2])
        c.data["reload"][w["id"]] = {"loaded": x <= 1, "mr": 0, "need": x - 1}


def _fumble(ctx: Context, c: Combatant, name: str) -> None:
    roll = ctx.dice.d100(name).total
    res = rules.fumble_result(ctx.table("fumbles"), roll)
    ctx.event("fumble", f"{c.name} fumbles: {roll} → {res['result']}", roll=roll, effect=res.get("effect", ""))
    fumble_effect(c, res)
    # "Roll twice and apply both" is applied when the GM answers (its two rolls are typed there or
    # rolled by Fray): the page's "Apply it" rolls them (issue 32: it rolled nothing and logged "keep")
    wounds.prompt(ctx, "fumble", c.id, f"{c.name}'s fumble: {res['result']}. Not applicable? roll again.",
                  [{"value": "keep", "label": "Apply it"}, {"value": "reroll", "label": "Not applicable: roll again"}],
                  result=res["result"])


def fumble_entry(ctx: Context, result: str) -> dict[str, Any]:
    """The fumble table's row a question names by its result ("Roll twice and apply both")."""
    return next((e for e in ctx.table("fumbles")["entries"] if e.get("result") == result), {})


# the rolls of "Roll twice and apply both", typed at the GM's question or rolled by Fray
FUMBLE_TWICE = ("fumble.first", "fumble.second")


def fumble_effect(c: Combatant, res: dict[str, Any]) -> None:
    """What a fumble result does that the engine keeps track of; the rest the GM applies."""
    eff = res.get("effect")
    if eff == "lose_defence":
        c.data["round"]["lost_defence"] = True
    elif eff == "prone":
        wounds.add_condition(c, "prone")


def fumble_twice(ctx: Context, c: Combatant) -> None:
    """"Roll twice and apply both": two more rolls on the fumble table, each applied; a second
    "roll twice" among them is rolled again (the table has nothing else to give)."""
    for name in FUMBLE_TWICE:
        for k in range(4):
            roll = ctx.dice.d100(name if not k else f"{name}.{k}").total
            res = rules.fumble_result(ctx.table("fumbles"), roll)
            if res.get("effect") != "roll_twice":
                break
        ctx.event("fumble", f"{c.name}'s fumble, rolled twice: {roll} → {res['result']}", roll=roll,
                  effect=res.get("effect", ""))
        fumble_effect(c, res)


def _special_type(ctx: Context, w: dict) -> str:
    t = w["type"]
    if t == "cut-and-thrust":
        # "As impaling or slashing, at the attacker's option."
        t = ctx.action.get("special", "impaling")
        if t not in ("impaling", "slashing"):
            raise InvalidAction("special", "a cut-and-thrust weapon deals impaling or slashing special damage")
    return t


def _dm_of(ctx: Context, c: Combatant, decl: dict | None) -> tuple[str, str]:
    src = c
    if decl and decl.get("dm_from"):
        src = ctx.enc.get(decl["dm_from"]) or c
    return body.derived(ctx.ruleset, ctx.enc, src)["damage_modifier"]["value"], src.name


def damage_dice(ctx: Context, c: Combatant, w: dict, landing: str, decl: dict | None = None,
                pull: dict | None = None, dm_use: str | None = None) -> tuple[str, str, bool, str, str]:
    """The dice of a blow before they are rolled: expression, how it was built, maximised or not,
    the special damage type, and whose damage modifier it carries if not the attacker's."""
    dm, whose = _dm_of(ctx, c, decl)
    st = _special_type(ctx, w)
    try:
        expr, note, maxed = rules.damage_expression(w["damage"], dm, dm_use=dm_use or w["dm"], landing=landing,
                                                     special_type=st, bonus=w["bonus"], pull=pull)
    except ValueError as e:
        raise RuleViolation("Pulling Blows", str(e)) from None
    extra = f"; damage modifier of {whose}" if whose != c.name else ""
    return expr, note, maxed, st, extra


def roll_damage(ctx: Context, c: Combatant, w: dict, landing: str, name: str, decl: dict | None = None,
                pull: dict | None = None, dm_use: str | None = None) -> tuple[int, str, str]:
    """Total, breakdown, special type. Maximised damage needs no dice."""
    expr, note, maxed, st, extra = damage_dice(ctx, c, w, landing, decl, pull, dm_use)
    why = "; ".join(x for x in (note, extra.removeprefix("; ")) if x)  # no "(; ..." when there is no note
    if maxed:
        from fray.dice import parse
        total = parse(expr).maximum()
        return total, f"{expr} maximised = {total} ({why})" if why else f"{expr} maximised = {total}", st
    ordinary = damage_dice(ctx, c, w, "normal", decl, pull, dm_use)[0] if landing == "special" else ""
    given = ctx.dice.given.get(name)
    if ordinary and isinstance(given, int) and not isinstance(given, bool):
        # one number typed for a blow of one die is that die's face, not the total of the special's
        # dice (1D8 typed 7, then a special 2D8: a 7 read as the total would roll nothing more)
        from fray.dice import parse
        more = _typed_too_few(ctx, name, expr, why, landing, [given], ordinary) \
            if parse(ordinary).dice_count == 1 else None
        if more is not None:
            raise more
    try:
        r = ctx.dice.roll(name, expr)
    except InvalidAction as e:
        raise (_typed_too_few(ctx, name, expr, why, landing, _typed_faces(given), ordinary) or e) from None
    return r.total, r.breakdown() + (f" ({why})" if why else ""), st


def _typed_faces(given: Any) -> list | None:
    faces = given.get("faces") if isinstance(given, dict) else given
    return faces if isinstance(faces, list) else None


class MoreDice(InvalidAction):
    """Damage dice typed before the roll for an ordinary blow, and the blow came out special
    ("2D10+1D6 needs 3 dice, 2 typed"): the result is known, only some dice are missing (issue 33,
    §5). The encounter is unchanged, as with any refusal; the error carries what the page needs to
    ask for ONLY the extra dice and send the action again with every die in it:

    * ``rolled``: the dice handed out so far (the attack, the defence, the location: rolled by Fray
      or typed), to be given again so the same exchange comes out;
    * ``typed``: the faces the GM typed; ``extra``: the sides of each missing die, in order;
    * ``slots``: the special's dice in order, each an index into ``typed`` (>= 0) or the missing
      die ``-1 - j`` (``extra[j]``): ``fill_special`` builds the faces from them;
    * ``expr``, ``why``: the special's damage and how it was built; ``said``: the exchange so far."""

    def __init__(self, field: str, message: str, *, expr: str, why: str, typed: list, extra: list[int],
                 slots: list[int], rolled: dict, said: list[str]):
        super().__init__(field, message)
        self.expr, self.why, self.typed, self.extra, self.slots = expr, why, typed, extra, slots
        self.rolled, self.said = rolled, said

    def pending(self) -> dict[str, Any]:
        """The plain data the page keeps while it asks for the extra dice."""
        return {"expr": self.expr, "why": self.why, "typed": self.typed, "extra": self.extra, "slots": self.slots,
                "rolled": self.rolled, "said": self.said, "need": extra_dice_text(self.extra)}


def extra_dice_text(sides: list[int]) -> str:
    """[6] → "1D6"; [8, 4] → "1D8 then 1D4"; [6, 6] → "2D6"."""
    runs: list[list[int]] = []
    for s in sides:
        if runs and runs[-1][1] == s:
            runs[-1][0] += 1
        else:
            runs.append([1, s])
    return " then ".join(f"{n}D{s}" for n, s in runs)


def fill_special(slots: list[int], typed: list[int], extra: list[int]) -> list[int]:
    """The special's faces in its own order: the typed ones where they were, the extra ones in the gaps."""
    return [typed[i] if i >= 0 else extra[-1 - i] for i in slots]


def _typed_too_few(ctx: Context, name: str, expr: str, why: str, landing: str, faces: list | None,
                   ordinary: str) -> InvalidAction | None:
    """Damage typed for an ordinary blow (``ordinary``) when it came out special (``expr``): a
    ``MoreDice`` asking for the dice the special adds, each after the typed ones of its kind
    (1D8+1+1D4 typed 5 3 → 2D8+2+1D4 is 5, the new D8, 3). None when the typed dice are not the
    ordinary blow's (the tray's own error stands)."""
    from fray.dice import parse

    if faces is None or not ordinary:
        return None
    o_terms, s_terms = parse(ordinary).dice_terms, parse(expr).dice_terms
    if len(faces) != parse(ordinary).dice_count or len(faces) >= parse(expr).dice_count or len(o_terms) != len(s_terms):
        return None
    if any(o.sides != t.sides or o.sign != t.sign or o.count > t.count for o, t in zip(o_terms, s_terms)):
        return None
    slots: list[int] = []
    extra: list[int] = []
    i = 0
    for o, t in zip(o_terms, s_terms):
        for k in range(t.count):
            if k < o.count:
                slots.append(i)
                i += 1
            else:
                extra.append(t.sides)
                slots.append(-len(extra))
    need = extra_dice_text(extra)
    what = f"The blow is {landing.replace('_', ' ')}" + (f" ({why})" if why else "")
    typed = " ".join(str(f) for f in faces)
    rolled = {k: v for k, v in ctx.dice.used.items() if k != name}
    return MoreDice(f"rolls.{name}", f"{what}: the damage is {expr}. Typed {typed} for {ordinary}: roll {need} more, "
                                     "or type the total", expr=expr, why=why, typed=list(faces), extra=extra, slots=slots,
                    rolled=rolled, said=[e["text"] for e in ctx.events])


def _weapon_hp_loss(w: dict, dmg: int, rule: str) -> int:
    if dmg <= w["hp"]:
        return 0
    return 1 if rule == "one" else dmg - w["hp"]


def _parry_strikes_back(ctx: Context, attacker: Combatant, w: dict, defender: Combatant, pw: dict, how: str) -> None:
    """A good parry damages the attacking weapon, or the limb of a natural attack."""
    if w["missile"] and not w["thrown"]:
        ctx.event("parry", f"{w['name']} is a missile weapon: it cannot be damaged by a parry")
        return
    natural = w["natural"] or w["unarmed"]
    if pw["hafted"] and not natural:
        ctx.event("parry", f"{pw['name']} is hafted: it does not damage the weapon it parries")
        return
    landing = "special" if how == "special" else "normal"
    dmg, text, _ = roll_damage(ctx, defender, pw, landing, "parry_damage")
    if natural:
        locs = body.hand_location(attacker, w)
        if not locs:
            ctx.event("parry", f"the parry strikes {attacker.name}'s attacking limb: {text}; GM picks the location")
            return
        l = locs[0]
        ap = body.armour_points(attacker, l)
        through = max(0, dmg - ap)
        ctx.event("parry", f"{defender.name}'s parry strikes {attacker.name}'s {l['name']}: {text} − AP {ap}")
        wounds.apply_damage(ctx, attacker, l["id"], through, source="parry", tag="parried_limb")
        return
    rule = ctx.table("attack_vs_parry").get("parrying_weapon_loss", "one")
    loss = _weapon_hp_loss(w, dmg, rule)
    w["hp"] -= loss
    ctx.event("parry", f"{defender.name}'s parry strikes {attacker.name}'s {w['name']}: {text} vs weapon HP "
              f"{w['hp'] + loss}: loses {loss}; {w['name']} HP {w['hp']}/{w['hp_max']}")


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
    elif w["knockback"] and "dead" not in target.conditions:
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
    """"If a shield parries an impale ... the weapon is stuck in the shield." Even if damage got through."""
    shield["stuck"].append({"weapon": w["id"], "owner": attacker.id, "name": w["name"], "enc": w["enc"], "attempts": 0})
    w["stuck_in"] = {"combatant": target.id, "shield": shield["id"], "name": f"{target.name}'s {shield['name']}"}
    eff = rules.stuck_effect(body.stuck_enc(shield), ctx.table("stuck_weapons"))
    parts.append(f"{w['name']} sticks in {shield['name']} (stuck ENC {body.stuck_enc(shield):g}: {eff})")
    ctx.event("damage_roll", "; ".join(parts))
    if through:
        taken = max(0, through - body.armour_points(target, hit_loc))
        wounds.apply_damage(ctx, target, hit_loc["id"], taken, source=f"{attacker.name}'s {w['name']}", tag="wound")
    wounds.prompt(ctx, "unstick", attacker.id, f"{attacker.name} may pull {w['name']} out of {shield['name']} now "
                  "at half weapon skill, or let it go",
                  [{"value": "pull", "label": "Pull now (½ skill; Pull d100)"},
                   {"value": "hold", "label": "Hold on to it"}, {"value": "let_go", "label": "Let go"}],
                  weapon=w["id"], owner=attacker.id, holder=target.id, shield=shield["id"])


def _impale(ctx: Context, attacker: Combatant, w: dict, target: Combatant, loc: dict, decl: dict | None) -> None:
    # a shot leaves its missile in the wound, not the bow: only a melee or thrown weapon is itself stuck
    name = w["name"] if not w["missile"] or w["thrown"] else f"missile from {w['name']}"
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
    if mount is not None and amount > resist:
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
        wounds.add_condition(target, "prone")
        ctx.event("knockback", f"{target.name} is knocked off {mount.name}")
    ok, _, text = _skill_test(ctx, target.stats.get("DEX", 0) * rules.test_multiplier(ctx.table("characteristic_tests"), "DEX"),
                              "knockback_dex")
    if ok:
        ctx.event("knockback", f"{target.name} keeps their feet: DEX×5 {text}")
    else:
        wounds.add_condition(target, "prone")
        ctx.event("knockback", f"{target.name} falls prone: DEX×5 {text}")
    wounds.prompt(ctx, "collision", target.id, f"{target.name} is knocked back {metres} m: does it collide with "
                  "someone or something?",
                  [{"value": "none", "label": "No collision"},
                   {"value": "combatant", "label": "Another combatant (≤ twice SIZ): DEX test or prone"},
                   {"value": "solid", "label": "A creature or solid object (3 m or more: 1D6 per 5 m to both)"}],
                  metres=metres)


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


def _charge_past(ctx: Context, attacker: Combatant, target: Combatant) -> None:
    """"If their attack resolves before the earliest SR that the target could attack, the attacker
    can keep moving freely. Otherwise, the target gets an attack as if the charger were fleeing.\""""
    theirs = [a["sr"] for a in timing.peek_actions(ctx.enc) if a["combatant"] == target.id and a["attack"]
              and a["round"] == ctx.enc.round and a["status"] in ("declared", "done")]
    d = body.derived(ctx.ruleset, ctx.enc, target)
    best = [w["sr"] for w in target.data["weapons"] if not w["missile"]]
    earliest = min(theirs + ([d["dex_sr"]["value"] + d["siz_sr"]["value"] + min(best)] if best else []), default=99)
    cur = ctx.enc.state.get("sr", 0)
    if cur < earliest:
        ctx.event("charge", f"{attacker.name} charges past at SR {cur}, before {target.name}'s earliest SR {earliest}: "
                  "keeps moving freely")
    else:
        wounds.prompt(ctx, "free_attack", target.id, f"{attacker.name} charges past at SR {cur}, not before "
                      f"{target.name}'s earliest SR {earliest}: {target.name} gets an attack as if the charger were "
                      "fleeing (no parry, dodge at ½)", [{"value": "attack", "label": "Attack (sr.attack free_attack)"},
                                                        {"value": "decline", "label": "Decline"}], fleeing=attacker.id)
