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
from fray.games.base import Context, whole_number  # noqa: F401  (re-exported)
from fray.games.strike_rank import body, movement, rules, timing, wounds
# The parts of an attack, each in its own module; their names stay importable from here.
from fray.games.strike_rank.damage import (  # noqa: F401
    MoreDice, _dm_of, _parry_strikes_back, _special_type, _typed_faces, _typed_too_few, _weapon_hp_loss,
    damage_dice, extra_dice_text, fill_special, roll_damage)
from fray.games.strike_rank.defence import (  # noqa: F401
    _bool, _check_attack_allowance, _check_parry_allowance, _free_attack_counts, _holds_two, _num, _stance_check,
    _whole, defence_skill, engaged_with, held_in_melee, shield_cover)
from fray.games.strike_rank.landing import (  # noqa: F401
    LOCATION_ATTEMPTS, _disarm, _grapple, _impale, _knockback, _landed, _pick_location, _skill_test, _stun,
    _stuck_in_shield, armour_against, hard_cover, location_at, location_die, mounted_vs_foot, opposed,
    parry_absorbs, pulled_blow, sticks)

MODES = ("normal", "aimed", "attack_weapon", "attack_object", "disarm", "stun", "push", "grapple")
WATER = ("none", "waist", "armpits", "under")
DEFENCE_VERB = {"parry": "parries", "dodge": "dodges"}
MATRIX = {"parry": "attack_vs_parry", "dodge": "attack_vs_dodge", "none": "attack_undefended"}  # table by defence


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
    if "dead" in target.conditions:
        # Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their
        # attack dies" (the form offers the living; an unconscious foe may still be struck)
        raise RuleViolation("Changing Actions", f"{target.name} is dead: choose another target")
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
    if w["missile"]:
        # "Unengaged characters can use missile weapons": a shooter in a melee is refused, not halved
        # (the half of "Shooting Into Melee" is for the target's melee). A foe who cannot fight (fallen,
        # or a maimed chest) makes no attacks and parries nothing: no melee holds her there.
        held = held_in_melee(enc, attacker)
        if held:
            raise RuleViolation("Ranged Combat", f"Unengaged characters can use missile weapons: {held}. Disengage "
                                                 "first, or change to a melee attack")
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
        was = enc.peek_at(decl.get("target") or "")
        out = body.can_act(was) if was is not None and was.id != target.id else None
        if out:
            # "A combatant may be forced to change actions, e.g. if the target of their attack dies",
            # and a change "delays action by the combatant's DEX SR": the blow does not go to
            # another foe at the old SR, as if nothing had changed. The unconscious and the
            # incapacitated ("unable to take any action") are out of the fight as the dead are; the
            # blow may still fall on them where they lie, as declared
            raise RuleViolation("Changing Actions", f"{out}: {attacker.name}'s attack must change. Use "
                                                    f"Change… to attack {target.name}: delayed by DEX SR, with the "
                                                    "movement to the new target worked out again")
        if was is not None and was.id != target.id:
            # "Once resolution begins, changes come at a cost": "Changing your declared action during a MR delays
            # action by the combatant's DEX SR". Another target than declared is a change (a GM's play: Harrek,
            # declared on Broo 1, struck Broo 2 at his SR with nothing logged); the text frees no switch
            raise RuleViolation("Changing Actions", f"{target.name} was not declared: {attacker.name}'s attack was "
                                f"declared against {was.name}; changing the target delays it by DEX SR "
                                f"{timing.dex_sr(ctx, attacker)}: change the attack to strike {target.name}",
                                field="target")
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
    if decl and decl.get("bracing"):
        movement.meet_charge(ctx, attacker, target)
    if decl and decl.get("moving") and not w["missile"] and timing.moves_token(ctx):
        # the movement in the attack's SR ("must move 6m to get within melee range") ends at the target,
        # and covers no more than its move SRs allow (a GM's fight: an attacker dragged 13 m off jumped
        # them at its old SR)
        steed = timing.ridden_by(ctx.enc, attacker)  # not a spot taken: he rides it
        went = movement.close_in(attacker, target, movement.movement_allows(ctx, decl, attacker, target),
                                 others=[o for o in ctx.enc.peek() if steed is None or o.id != steed.id])
        if went:
            ctx.event("move", f"{attacker.name} closes {rules.metres_text(went)} to {target.name}", id=attacker.id,
                      x=attacker.position.x, y=attacker.position.y)
            timing.carry_mount(ctx, attacker)
        short = rules.to_engage(distance(attacker.position, target.position))
        if short:
            ctx.event("move", f"{attacker.name} is still {rules.metres_text(short)} short of {target.name}'s reach "
                      f"after the movement of SR {decl['sr']} ({decl.get('note') or 'no move SR'}): the GM rules "
                      "whether the blow lands", id=attacker.id)
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
        # "If reloading is interrupted, it must be begun from scratch": a defence anywhere in the reloading MR
        # interrupts it, said once, where it is known: at the reloading's SR when that is still to come, else here
        reloading = [x for x in timing.actions_of(enc, target.id) if x["kind"] == "reload"]
        if reloading and not r_def.get("reload_interrupted"):
            r_def["reload_interrupted"] = {"by": dkind, "weapon": pw["name"] if pw else "", "sr": enc.state.get("sr", 0)}
            if all(x["status"] == "done" for x in reloading):
                ctx.event("reload", f"{target.name}'s reloading is interrupted by the {dkind}: it begins again")
    # -- fumbles ----------------------------------------------------------------------------------------
    if adeg == "fumble":
        _fumble(ctx, attacker, "fumble_attack")
        if w["missile"] and into_melee:
            friends = [o for o in engaged_with(enc, target) if o.side == attacker.side]
            wounds.prompt(ctx, "stray", attacker.id, f"{attacker.name}'s fumbled shot hits a friendly melee participant",
                          [{"value": o.id, "label": o.name} for o in friends] or [{"value": "none", "label": "No friend there"}],
                          weapon=w["id"], attacker=attacker.id)
    if w["missile"] and into_melee and adeg in ("failure", "fumble") and adeg != "fumble":
        unhalved = rules.modified_skill(base, [x for x, y in zip(mults, why_m) if y != "into melee"], split, bonus)
        if ar <= unhalved.value and ar < 96:
            others = [o for o in engaged_with(enc, target)] + [target]
            wounds.prompt(ctx, "stray", attacker.id, f"{attacker.name}'s shot missed only because of the melee: it hits a "
                          "random participant", [{"value": o.id, "label": o.name} for o in others],
                          weapon=w["id"], attacker=attacker.id)
    _blow(ctx, p, cell, adeg, ar, ddeg, dr)
    if ddeg == "fumble":
        # after the blow: one it fells rolls nothing and is asked nothing ("Dead characters cannot do
        # anything"; the unconscious and the incapacitated are "unable to take any action")
        down = next((c for c in body.FALLEN if c in target.conditions), None)
        if down:
            ctx.event("fumble", f"{target.name} fumbled the {dkind} but is {down}: no fumble to roll")
        else:
            _fumble(ctx, target, "fumble_defence")


def _blow(ctx: Context, p: Plan, cell: dict, adeg: str, ar: int, ddeg: str, dr: int | None) -> None:
    """What the exchange's result does: to the attacking weapon, a special attack's own effect, or
    the blow that lands."""
    attacker, target, w, mode, decl = p.attacker, p.target, p.weapon, p.mode, p.decl
    dkind, pw, skill = p.dkind, p.pw, p.skill
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
    _landed(ctx, attacker, w, target, pw, cell, mode, p.cover, p.water, dkind, ddeg, decl)


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
                      "fleeing (no parry, dodge at ½)", [{"value": "attack", "label": "Attack (a free attack)"},
                                                        {"value": "decline", "label": "Decline"}], fleeing=attacker.id)
