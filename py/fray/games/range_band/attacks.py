"""Attacks and grapples: the offense roll's specification with every Hindrance the text gives, what is
forbidden (mount sizes, underwater, without sight), stealth attacks and who may warn the defender, and
grapples starting and ending (Combat, Back in Combat, Melee Attacks & Extreme Mount Sizes, Underwater
Combat, Lack of Sight, Stealth Attacks). The offense roll is settled in ``resolution.py``.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``) and keeps the
registry of action types (``HANDLERS``)."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter
from fray.games.base import Context, possessive
from fray.games.range_band import rules
from fray.games.range_band.rolls import RollSpec
from fray.games.range_band.state_edits import tables_of, flag, pick, other, able, set_stealth, pend, prompt, fall, use_action


def weapon_of(ctx: Context, c: Combatant) -> dict[str, Any]:
    ws = c.data.get("weapons", [])
    i = ctx.action.get("weapon")
    if i is None:
        kind = pick(ctx.action, "kind", ("melee", "ranged", "thrown"), "melee")
        tags = ctx.action.get("tags", [])
        if not isinstance(tags, list) or any(x not in ("reach", "precise", "blast", "natural", "unarmed", "grapple")
                                             for x in tags):
            raise InvalidAction("tags", "must be a list of reach, precise, blast, natural, unarmed, grapple")
        return {"name": kind + " attack", "kind": kind, "tags": sorted(set(tags))}
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(ws):
        raise InvalidAction("weapon", f"{c.name} has no weapon {i!r}" + (f" (0 to {len(ws) - 1})" if ws else ""))
    return ws[i]


def override_of(ctx: Context, what: str) -> str | None:
    """The GM's reason for allowing ``what`` beyond engaged range (``override``), checked."""
    override = ctx.action.get("override")
    if override is not None and (not isinstance(override, str) or not override.strip() or len(override) > 120):
        raise InvalidAction("override", f"the reason for allowing this {what}: 1 to 120 characters")
    return override


def beyond_engaged(a: Combatant, d: Combatant, rng: dict[str, Any], override: str | None, what: str) -> bool:
    """Whether ``a`` and ``d`` are beyond engaged range (then only the GM's ``override`` lets ``what`` happen);
    refused when they are and no reason is given."""
    if rng["index"] == 0:
        return False
    if override is None:
        raise RuleViolation("", f"{what} needs engaged range: {d.name} is at {rng['band']} range "
                            f"({rng['why']}). The GM may allow it with a reason")
    return True


def out_of_reach(enc: Encounter, a: Combatant, d: Combatant, w: dict[str, Any], t: rules.Tables) -> str:
    """Why ``a``'s weapon ``w`` cannot reach ``d`` from where they are ("" when it can), by the rules ``attack``
    refuses by: melee needs engaged range, altitude counted ("use the greater of your horizontal or vertical
    range", Flight; a grapple excepted), and is barred by "at least 10 times the AWGT" (Melee Attacks & Extreme
    Mount Sizes); "Ranged attacks are useless underwater" save Precise thrown and blast (Underwater Combat);
    "If you are completely without sight ..., you cannot make any ranged attacks" (Lack of Sight). The attack
    form defaults its Weapon to one that reaches (a GM's play: a flyer at 31 m was offered its Talons)."""
    tags = set(w.get("tags", []))
    if w.get("kind") == "melee":
        if d.id in a.data.get("grappling", []):
            return ""
        rng = rules.range_between(a.position, d.position, t)
        if rng["index"] > 0:
            return f"{w['name']} is a melee weapon: {d.name} is at {rng['band']} range ({rng['why']})"
        ok, why, _ = rules.melee_size_check(enc, a, d, "reach" in tags)
        return "" if ok else f"{w['name']}: " + "; ".join(why)
    if (rules.underwater(enc, a) or rules.underwater(enc, d)) and not (
            (w.get("kind") == "thrown" and "precise" in tags) or "blast" in tags):
        return f"{w['name']}: ranged attacks are useless underwater"
    dark = rules.sightless(enc, a, t)
    if dark:
        return f"{w['name']}: {a.name} is completely without sight ({dark}): no ranged attacks"
    return ""


def weapon_reach(enc: Encounter, a: Combatant, t: rules.Tables) -> dict[str, list[str]]:
    """For each other combatant in the fight, why each of ``a``'s weapons (in order) cannot reach them ("" for
    one that can): the attack form's default Weapon and its "none can reach" line."""
    ws = a.data.get("weapons", [])
    return {d.id: [out_of_reach(enc, a, d, w, t) for w in ws] for d in enc.peek()
            if d.id != a.id and rules.able(d)}


def attack(ctx: Context) -> None:
    """``rb.attack {id, target, weapon? | kind + tags, die?, stat?, size?, aoe?, warned_by?, emits_light?,
    unexpected?, override?, roll?}``: an attack (a ``size`` action of the turn, default major: assumed) and its
    offense roll specification with every Hindrance the text gives (mounted, mount size, underwater),
    its competence, whether it is a stealth attack (the target cannot see the attacker: 3 Hindrance on
    the defense, 1 if warned), and what is forbidden (10× mount size, underwater incompetent melee,
    ranged attacks underwater or without sight, except a sightless AoE at one's own engagement; melee beyond
    engaged range, unless ``override`` gives the GM's reason, which the log keeps). The offense is a pending
    ``offense`` roll; if it succeeds against a target in High Stealth, the target's d12 stealth roll follows.
    ``roll: true``: Fray rolls the offense at once by the default mechanic (roll ``roll``, typed faces win),
    as ``rb.resolve`` would: one action, one tap, one undo."""
    a = ctx.combatant()
    d = other(ctx, "target", a, read_only=True)  # the attack itself changes nothing on its target
    enc, t = ctx.enc, tables_of(ctx)
    w = weapon_of(ctx, a)
    die = pick(ctx.action, "die", ("d6", "d10", "d12", "d20"), "d20")
    stat = pick(ctx.action, "stat", ("DEX", "CON", "INT", "SPD"), "DEX")
    aoe = flag(ctx.action, "aoe")
    size = pick(ctx.action, "size", ("major", "minor", "free"), "major")
    emits_light = flag(ctx.action, "emits_light")
    unexpected = flag(ctx.action, "unexpected")
    warned_by = ctx.action.get("warned_by")
    roll_now = flag(ctx.action, "roll")
    override = override_of(ctx, "melee attack")
    able(a, "", "attack")
    melee = w["kind"] == "melee"
    tags = set(w["tags"])
    spec = RollSpec(f"Offense roll: {w['name']} against {d.name}", die, stat, int(a.stats.get(stat, 0)), "")
    competent = True
    notes: list[str] = []
    grappling = d.id in a.data.get("grappling", [])
    rng = rules.range_between(a.position, d.position, t)
    # Melee is fought in an engagement: engaged is the band "that qualifies as a melee engagement" (Sight &
    # Visible Range), and flyers start "at engagement altitude, which enables you to enter melee engagements"
    # (Flight). Beyond it only by the GM's word, with the reason in the log.
    overridden = melee and not grappling and beyond_engaged(a, d, rng, override, "a melee attack")
    # Lack of Sight (it works out the light at the attacker only where the zone or an area is dark)
    dark = rules.sightless(enc, a, t)
    vis = rules.visibility(enc, t)  # the projection (shared with the page's view of this state)
    sees = vis[a.id][d.id]["sees"]
    if dark and not melee and not grappling:
        if not aoe:
            raise RuleViolation("Lack of Sight", f"{a.name} is completely without sight ({dark}): no ranged attacks, "
                                "except AoEs at their own engagement (offense roll automatically fails)")
        if rng["index"] > 0:
            raise RuleViolation("Lack of Sight", f"{a.name} is completely without sight ({dark}): an AoE only at their "
                                f"own engagement, and {d.name} is at {rng['band']} range ({rng['why']})")
        spec.auto = {"success": False, "by": 0, "reason": "without sight: an AoE at one's own engagement, offense "
                     "roll automatically failed"}
    if melee and not sees and not grappling:
        notes.append("cannot see the target: use the blind melee attack rules")
    elif not melee and not sees and not dark and not grappling:
        notes.append("cannot see the target: blind ranged attack rules, or attack its area with AoE rules at "
                     "50% hit chances on a successful offense roll")
    # Mounts
    if rules.is_mounted(a):
        comp = "mounted_melee" if melee else "mounted_ranged"
        if comp not in a.data.get("competencies", []):
            competent = False
            notes.append(f"mounted without Mounted {'Melee' if melee else 'Ranged'} Competency: incompetent attack")
        if not melee:
            spec.hindrance.extend(rules.mounted_hindrance(enc, a))
    if melee:
        reach_only = "reach" in tags
        ok, why, hind = rules.melee_size_check(enc, a, d, reach_only)
        if not ok:
            raise RuleViolation("Melee Attacks & Extreme Mount Sizes", "; ".join(why))
        spec.hindrance.extend(hind)
        notes.extend(why)
    # Underwater
    if rules.underwater(enc, a) or rules.underwater(enc, d):
        aquatic_ok = "precise" in tags or ("natural" in tags and a.data.get("aquatic")) or (
            ({"unarmed", "grapple"} & tags) and (a.data.get("aquatic") or a.data.get("amphibious") != "no"))
        if melee and not aquatic_ok:
            if not competent:
                raise RuleViolation("Underwater Combat", "incompetent melee attacks cannot occur underwater at all")
            spec.hindrance.append(("competent melee underwater", rules.const(t, "underwater_melee_hindrance")))
        if not melee and not ((w["kind"] == "thrown" and "precise" in tags) or "blast" in tags):
            raise RuleViolation("Underwater Combat", "ranged attacks are useless underwater (except Precise thrown "
                                "weapons, blast-only attacks and certain devices)")
        if "blast" in tags:
            notes.append("explosives underwater: full blast damage, frag damage only on direct impact")
    # Stealth attack
    stealth_attack = not grappling and (unexpected or not vis[d.id][a.id]["sees"])
    defense: dict[str, Any] | None = None
    if stealth_attack:
        warn_ok, warn_why = False, ""
        if warned_by is not None:
            warner = other(ctx, "warned_by", None, read_only=True)
            warn_ok, warn_why = warning_ok(enc, warner, d, a, t)
            if not warn_ok:
                raise RuleViolation("Stealth Attacks", warn_why, field="warned_by")
        n = rules.const(t, "warned_hindrance") if warn_ok else rules.const(t, "stealth_attack_hindrance")
        defense = {"hindrance": [{"reason": "stealth attack" + (f" (warned by {warner.name})"
                                                                 if warn_ok else ""), "count": n}]}
        notes.append(f"stealth attack: {d.name} cannot see {a.name}; +{n} Hindrance to the defense roll")
    if "precise" in tags and melee and stealth_attack:
        notes.append("Precise melee weapon: less noise in a stealth attack")
    use_action(ctx, a, size, f"attack {d.name} with {w['name']}", t)
    if overridden:
        reason = " ".join(override.split())
        notes.append(f"melee at {rng['band']} range, allowed by the GM: {reason}")
        ctx.event("override", f"The GM allows {possessive(a.name)} melee attack on {d.name} at {rng['band']} range "
                  f"({rng['why']}): {reason}", id=a.id, target=d.id, band=rng["band"], reason=reason)
    spec.notes = notes + [f"{'competent' if competent else 'incompetent'} attack"]
    spec.success = "the attack succeeds on its offense roll: roll damage by the core rules" + (
        "; the target in High Stealth then makes a d12 stealth roll" if d.data.get("stealth") == "high" else "")
    spec.failure = "the attack misses"
    effect = {"target": d.id, "weapon": w["name"], "melee": melee, "stealth_attack": stealth_attack,
              "competent": competent, "defense": defense, "aoe": aoe}
    if spec.auto:
        ctx.event("attack", f"{a.name} → {d.name}: {spec.text()}", id=a.id, target=d.id, spec=spec.to_json())
        if emits_light and a.data.get("stealth") != "low":
            set_stealth(ctx, a, "low", "the attack emits notable light", lock=True)
        return
    ref = pend(ctx, "offense", a, spec, effect, prompt=f"{a.name} attacks {d.name} with {w['name']}")
    # No warning note is left: the warner is chosen in the form before the attack is sent, so the question is the
    # preview's (``warning_question``); a GM's play-through read it under the sent roll, advising what could no
    # longer be done ("dismiss it and attack again")
    if emits_light and a.data.get("stealth") != "low":
        set_stealth(ctx, a, "low", "the attack emits notable light", lock=True)
    if roll_now:
        from fray.games.range_band.resolution import settle
        settle(ctx, next(i for i, p in enumerate(enc.state["pending"]) if p["ref"] == ref), None)


def warning_question(enc: Encounter, action: dict[str, Any], t: rules.Tables) -> str | None:
    """The "may an ally warn them?" question of an attack ``action`` not yet sent (the preview's), or None when it
    would not be a stealth attack: asked while "Target warned by" can still be chosen."""
    a, d = enc.peek_at(action.get("id")), enc.peek_at(action.get("target"))
    if a is None or d is None or d.id in a.data.get("grappling", []):
        return None
    vis = rules.visibility(enc, t)
    if not (action.get("unexpected") is True or not vis.get(d.id, {}).get(a.id, {}).get("sees")):
        return None
    warner = enc.peek_at(action.get("warned_by")) if action.get("warned_by") else None
    return warning_prompt(enc, a, d, warner, vis, t)


def close_warning(ctx: Context, offense: str, why: str) -> None:
    """The warning note of the stealth attack whose offense roll ``offense`` is made or dismissed closes, logged:
    "If one does, choose them in Target warned by" no longer applies to that roll."""
    notes = list(list.__iter__(dict.get(ctx.enc.state, "prompts") or []))  # read uncopied (the draft's read copies)
    moot = [p for p in notes if p.get("kind") == "warning" and p.get("offense") == offense]
    if not moot:
        return
    gone = {p["ref"] for p in moot}
    ctx.enc.state["prompts"] = [p for p in notes if p["ref"] not in gone]  # the others shared, as they were
    for p in moot:
        # the line names only its own label (a roll's R-label here would be a code the GM cannot look up)
        ctx.event("dismiss", f"{p['ref']} closed: the offense roll it was about is {why}, so the warning note no "
                  "longer applies", ref=p["ref"])


def warning_ok(enc: Encounter, warner: Combatant, defender: Combatant, attacker: Combatant,
               t: rules.Tables) -> tuple[bool, str]:
    """Stealth Attacks: who may warn whom. (The text's list of criteria is not in the excerpt; these
    are the sentences it does give.) "warned by one of their allies": not the defender, nor the attacker (an
    unexpected attack from one thought an ally), nor another side, nor one out of the fight (a GM's play-through:
    "Target warned by" offered the target, the attacker's allies and the fallen)."""
    if warner.id == defender.id:
        return False, f"{defender.name} cannot warn themselves: the defender is \"warned by one of their allies\""
    if warner.id == attacker.id or warner.side != defender.side:
        return False, (f"{warner.name} is not one of {possessive(defender.name)} allies: the defender is \"warned by one of "
                       "their allies\"")
    if not rules.able(warner):
        out = ", ".join(x for x in rules.OUT if x in warner.conditions)
        return False, f"{warner.name} is out of the fight ({out}) and cannot warn anyone"
    if warner.data.get("kind") == "animal" or defender.data.get("kind") == "animal":
        return False, "animals cannot warn others, nor can they be warned"
    if "deafened" in warner.conditions or "deafened" in defender.conditions:
        return False, "warnings are impossible if either character is deafened"
    if rules.sightless(enc, defender, t):
        return False, "a defender completely without sight gains no benefit from being warned"
    return True, ""


WARNING_GIVEN = ("animals cannot warn or be warned; techs and sentients may warn each other; warnings are not "
                 "verbal actions but are impossible if either character is deafened; Sign Language cannot be used; "
                 "a defender completely without sight gains no benefit; a warned defender takes 1 Hindrance instead "
                 "of 3")


def warning_prompt(enc: Encounter, attacker: Combatant, defender: Combatant, warned_by: Combatant | None,
                   vis: dict[str, dict[str, Any]], t: rules.Tables) -> str:
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one
    of their allies. The following criteria must be met:" and the criteria are not in the excerpt (FACTS.md).
    The GM decides whether a warning is given; Fray says so, applies the sentences the text does give, and lists
    the defender's allies with what those sentences say of each (and whether each can see the attacker)."""
    head = (f"Stealth attack on {defender.name}: may an ally warn them? The published rules do not give the "
            f"criteria for a warning, so this is the GM's call. What the rules do give, applied: {WARNING_GIVEN}.")
    if warned_by is not None:
        sees = vis.get(warned_by.id, {}).get(attacker.id, {}).get("sees")
        return (head + f" Warned by {warned_by.name}" + ("" if sees else f" (who cannot see {attacker.name})")
                + ": 1 Hindrance on the defense instead of 3, if the missing criteria allow it.")
    # what rules out any warning lies with the defender: said of the defender once, not repeated of each ally (a
    # GM's play-through read "Not: Kael (animals cannot warn others ...)" as if Kael were the animal)
    if defender.data.get("kind") == "animal":
        return head + f" {defender.name} is an animal: it cannot be warned."
    if "deafened" in defender.conditions:
        return head + f" {defender.name} is deafened: no warning can reach them."
    if rules.sightless(enc, defender, t):
        return head + f" {defender.name} is completely without sight: a warning gains them nothing."
    can, cannot = [], []
    for x in enc.peek():  # only looks: copies no combatant
        if x.id in (attacker.id, defender.id) or x.side != defender.side or not rules.able(x):
            continue
        ok, why = warning_ok(enc, x, defender, attacker, t)
        if ok:
            sees = vis.get(x.id, {}).get(attacker.id, {}).get("sees")
            can.append(x.name + ("" if sees else f" (cannot see {attacker.name})"))
        else:
            cannot.append(f"{x.name} ({why})")
    return (head + (f" Allies who may warn: {', '.join(can)}." if can else " No ally may warn by these sentences.")
            + (f" Not: {'; '.join(cannot)}." if cannot else "")
            + " If one does, choose them in \"Target warned by\" before the attack is sent.")


def grapple(ctx: Context) -> None:
    """``rb.grapple {id, target, mismatched_flying_ok?, override?}``: a grapple starts. Grappling attacks are
    melee attacks ("Competent melee attacks ... These restrictions are ignored for ... unarmed or grappling
    attacks", Underwater Combat), so a grapple needs engaged range as melee does, unless ``override`` gives
    the GM's reason, which the log keeps. Flying: "if you grapple or are grappled while flying, both you
    and the attacker immediately fall", except a mismatched grapple in which the larger character is
    flying and can carry the other. High Stealth reverts (to Low if the other character is Low)."""
    a = ctx.combatant()
    d = other(ctx, "target", a)
    exception = flag(ctx.action, "mismatched_flying_ok")
    override = override_of(ctx, "grapple")
    enc, t = ctx.enc, tables_of(ctx)
    able(a, "", "grapple")
    rng = rules.range_between(a.position, d.position, t)
    if d.id not in a.data.get("grappling", []) and beyond_engaged(a, d, rng, override, "a grapple"):
        reason = " ".join((override or "").split())
        ctx.event("override", f"The GM allows {possessive(a.name)} grapple on {d.name} at {rng['band']} range "
                  f"({rng['why']}): {reason}", id=a.id, target=d.id, band=rng["band"], reason=reason)
    for x, y in ((a, d), (d, a)):
        if y.id not in x.data.get("grappling", []):
            x.data["grappling"] = x.data.get("grappling", []) + [y.id]
    ctx.event("grapple", f"{a.name} grapples {d.name}", id=a.id, target=d.id)
    if rules.is_flying(enc, a) or rules.is_flying(enc, d):
        big = a if rules.c_awgt(a) >= rules.c_awgt(d) else d
        if exception and rules.is_flying(enc, big) and rules.c_awgt(big) > rules.c_awgt(a if big is d else d):
            ctx.event("flight", f"mismatched grapple: {big.name} is larger, flying and carries the other", id=big.id)
        else:
            for x in (a, d):
                if rules.is_flying(enc, x):
                    fall(ctx, x, t, "a grapple while flying: both characters fall immediately")
    for x, y in ((a, d), (d, a)):
        if x.data.get("stealth") == "high":
            set_stealth(ctx, x, "low" if y.data.get("stealth") == "low" else "medium", "entered a grapple")


def release(ctx: Context) -> None:
    """``rb.release {id, target}``: a grapple ends."""
    a = ctx.combatant()
    d = other(ctx, "target", a)
    if d.id not in a.data.get("grappling", []):
        raise RuleViolation("", f"{a.name} is not grappling {d.name}")
    a.data["grappling"] = [x for x in a.data["grappling"] if x != d.id]
    d.data["grappling"] = [x for x in d.data.get("grappling", []) if x != a.id]
    ctx.event("grapple", f"{a.name} and {d.name} are no longer grappling", id=a.id, target=d.id)
