"""The GM's actions for the tactical round, as thin handlers over ``rules.py``.

Every handler reads and checks all of its input first and raises ``InvalidAction`` (cannot read)
or ``RuleViolation`` (the rules forbid it, named by the rule text's heading) before it edits the
draft encounter. Action types, fields and rolls are listed in py/fray/games/tactical_round/rules-trace.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.geometry import distance as map_distance
from fray.model import Combatant, Encounter
from fray.games.base import Context
from fray.games.tactical_round import rules
from fray.games.tactical_round.combatant import RANGED_KINDS, hp_current, weapon

MAX_DECLARED = 3


# -- small readers --------------------------------------------------------------------------------

def tables_of(ctx: Context) -> dict[str, dict[str, Any]]:
    return {k: ctx.ruleset.table(ctx.enc, k) for k in ctx.ruleset.tables}


def flag(action: dict[str, Any], key: str) -> bool:
    v = action.get(key, False)
    if not isinstance(v, bool):
        raise InvalidAction(key, "must be true or false")
    return v


def whole(action: dict[str, Any], key: str, lo: int, hi: int, default: int | None = None) -> int:
    v = action.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise InvalidAction(key, f"must be a whole number from {lo} to {hi}")
    return v


def other(ctx: Context, cid: Any, field: str, me: Combatant) -> Combatant:
    if not isinstance(cid, str) or ctx.enc.get(cid) is None:
        raise InvalidAction(field, "that combatant is no longer in this encounter")
    if cid == me.id:
        raise InvalidAction(field, f"{me.name} cannot be their own opponent")
    return ctx.enc.get(cid)


def able(c: Combatant, rule: str, what: str, field: str = "") -> None:
    for cond in rules.OUT_OF_ACTION:
        if cond in c.conditions:
            raise RuleViolation(rule, f"{c.name} is {cond} and cannot {what}", field)


def declarations(enc: Encounter, cid: str) -> list[dict[str, Any]]:
    return enc.state.get("declared", {}).get(cid, [])


def mark_done(enc: Encounter, cid: str, kinds: tuple[str, ...], phase: str | None = None) -> dict[str, Any] | None:
    """Tick off the first open declaration of these kinds (in this phase, if given); it, or None."""
    for d in declarations(enc, cid):
        if not d["done"] and d["action"] in kinds and (phase is None or d["phase"] == phase):
            d["done"] = True
            return d
    return None


def engage(a: Combatant, b: Combatant) -> None:
    for x, y in ((a, b), (b, a)):
        if y.id not in x.data["engaged_with"]:
            x.data["engaged_with"].append(y.id)


def disengage_all(enc: Encounter, c: Combatant) -> None:
    for oid in c.data.get("engaged_with", []):
        o = enc.get(oid)
        if o is not None and c.id in o.data.get("engaged_with", []):
            o.data["engaged_with"].remove(c.id)
    c.data["engaged_with"] = []


def end_engagements_of_the_fallen(ctx: Context) -> None:
    """Melee Attacks: Engaged means in melee with a foe who can still fight. A combatant out of the
    fight (dead, dying, incapacitated, unconscious: ``rules.OUT_OF_ACTION``) can neither attack nor
    Parry nor move nor Disengage, so its engagements end on both sides: the swordsman who killed the orc may move
    on without Disengaging. Looked at with ``peek`` so that an action touching nobody copies nobody."""
    enc = ctx.enc
    for seen in enc.peek():
        if not seen.data.get("engaged_with") and not seen.data.get("disengaging"):
            continue
        if rules.fallen(seen):
            c = enc.get(seen.id)
            # nor is it Disengaging: one who cannot act does nothing (its declared Disengage lapses, one
            # line; a GM's play-through read "lapses", then "Lia disengages: no longer Engaged")
            c.data["disengaging"] = False
            foes = [o.name for o in (enc.peek_at(x) for x in c.data["engaged_with"]) if o is not None]
            disengage_all(enc, c)
            if foes:
                ctx.event("condition", f"{c.name} is {rules.fallen(c)}: no longer Engaged with {', '.join(foes)}",
                          id=c.id)

def hp_events(ctx: Context, c: Combatant) -> None:
    """The HP states one change of hits brings, said as the state it ends in: a blow past two thresholds
    at once (FACTS.md: "0 or below → incapacitated; −50 or below → dying; below half → Bruised") is said
    by the worst one only, the table's last (a GM's play-through: one 30-hit blow logged "Gorbag is now
    bruised (HP -5)" before "... incapacitated", as if it had left him on his feet). The milder states
    are still set, and named in the event's ``also``."""
    changed = rules.sync_hp_conditions(c, tables_of(ctx))
    gained = [cond for cond, on in changed if on]
    for cond, on in changed:
        if on and cond != gained[-1]:
            continue
        extra = {"also": gained[:-1]} if on and len(gained) > 1 else {}
        ctx.event("condition", f"{c.name} is {'now' if on else 'no longer'} {cond} (HP {hp_current(c)})",
                  id=c.id, condition=cond, on=on, **extra)


# -- Declaration -----------------------------------------------------------------------------------

# The declared actions made on no one: the rule text names no move toward someone, and a reload, a
# readying or a Disengage has no target. A target left in the form is not theirs (a GM's play-through:
# a declaration switched from a Melee attack to a Move logged "Bran declares: Move on Orc 4").
ON_NO_ONE = ("move", "run_away", "disengage", "reload", "ready_thrown")


def declare(ctx: Context) -> None:
    """``tr.declare``: this round's actions; each lands in its phase of the sequence."""
    c, plan, acts, kinds = plan_declaration(ctx)
    t = tables_of(ctx)
    ctx.enc.state.setdefault("declared", {})[c.id] = plan
    c.data["disengaging"] = "disengage" in acts
    said = ", ".join(f"{declared_words(ctx.enc, c, kinds, d)} ({rules.phase_title(t, d['phase'])}, {d['cost']})"
                     for d in plan)
    ctx.event("declare", f"{c.name} declares: {said or 'nothing'}"
              + (" — Full + Half: −20 to both" if rules.full_and_half(plan) else ""), id=c.id, actions=plan)


def declared_words(enc: Encounter, c: Combatant, kinds: dict[str, Any], d: dict[str, Any]) -> str:
    """A declared action as the log says it: the action, with its weapon and on whom ("Melee attack
    with Scimitar on Mira"): the weapon decides the phase and, in Melee, the order (a GM's
    play-through read "Orc 1 declares: Melee attack", which left the GM to guess with what)."""
    said = kinds[d["action"]]["title"]
    if d.get("weapon") is not None:
        said += f" with {c.data['weapons'][d['weapon']]['name']}"
    target = enc.peek_at(d["target"]) if d.get("target") else None
    return said + (f" on {target.name}" if target is not None else "")


def plan_declaration(ctx: Context) -> tuple[Combatant, list[dict[str, Any]], list[str], dict[str, Any]]:
    """Read and check a ``tr.declare``, changing nothing: (the declarer, the plan of each action with
    its weapon, target, cost and phase, the actions' kinds, the declared-actions table by key). The
    declaration (``declare``) and the page's "As last round" (``rules.last_declarations``) both start
    here, so the page never offers what the rules refuse."""
    c = ctx.combatant()
    t = tables_of(ctx)
    if ctx.enc.phase not in ("assessment", "declaration"):
        raise RuleViolation("Tactical Round Sequence", "actions are declared in the Declaration phase "
                            f"(now: {rules.phase_title(t, ctx.enc.phase)})")
    able(c, "Combat Actions", "act")
    raw = ctx.action.get("actions")
    if not isinstance(raw, list) or len(raw) > MAX_DECLARED:
        raise InvalidAction("actions", f"must be a list of up to {MAX_DECLARED} declared actions")
    kinds = rules.keyed(t["declared_actions"])
    plan = []
    for i, d in enumerate(raw):
        p = f"actions.{i}"
        if not isinstance(d, dict) or not isinstance(d.get("action"), str) or d["action"] not in kinds:
            raise InvalidAction(f"{p}.action", f"must be one of {', '.join(kinds)}")
        kind = d["action"]
        w_index, w = None, None
        if kind in ("ranged_attack", "melee_attack", "reload", "ready_thrown") or (
                kind.startswith("spell") and d.get("weapon") is not None):
            w_index, w = weapon(c, d.get("weapon"), f"{p}.weapon")
        target = None
        if d.get("target") is not None and kind not in ON_NO_ONE:
            target = other(ctx, d.get("target"), f"{p}.target", c).id
        cost = kinds[kind]["cost"]
        if kind == "reload":
            if w["kind"] != "missile":
                raise InvalidAction(f"{p}.weapon", f"{w['name']} is not a missile weapon (thrown: ready_thrown)")
            cost = "half" if w["quick_load"] else "full"
        if kind == "ready_thrown" and w["kind"] != "thrown":
            raise InvalidAction(f"{p}.weapon", f"{w['name']} is not a thrown weapon")
        if kind == "ranged_attack" and w["kind"] not in ("missile", "thrown"):
            raise InvalidAction(f"{p}.weapon", f"{w['name']} is not a missile or thrown weapon")
        if kind == "melee_attack" and w["kind"] in RANGED_KINDS:
            raise InvalidAction(f"{p}.weapon", f"{w['name']} is not a melee weapon")
        if kind.startswith("spell") and w is not None and w["kind"] != "spell":
            raise InvalidAction(f"{p}.weapon", f"{w['name']} is not a Bolt/Area spell")
        plan.append({"action": kind, "weapon": w_index, "target": target, "cost": cost, "done": False})
    acts = [d["action"] for d in plan]
    for i, d in enumerate(plan):
        w = c.data["weapons"][d["weapon"]] if d["action"] in ("reload", "ready_thrown") else None
        if w is not None and w["loaded"]:
            # "Missile weapons must be loaded before each attack": a loaded one has its shot to take,
            # and a reload of it throws the round away (a GM's play-through: "as last round" repeated
            # Mira's Reload with her bow loaded, and the declaration took it)
            ready = "readied" if w["kind"] == "thrown" else "loaded"
            raise RuleViolation("Reloading", f"{w['name']} is already {ready}: declare the "
                                f"{kinds.get('ranged_attack', {}).get('title', 'Ranged attack')} with it instead", f"actions.{i}.action")
    loads = {d["weapon"] for d in plan if d["action"] in ("reload", "ready_thrown")}
    # the reload's own rule before the count of actions: a Full reload with the shot is two Full
    # actions, and "at most one Full and one Half" did not say why (a GM's play-through)
    for d in plan:
        if d["action"] == "ranged_attack":
            w = c.data["weapons"][d["weapon"]]
            if d["weapon"] in loads and w["kind"] == "missile" and not w["quick_load"]:
                raise RuleViolation("Reloading", f"{w['name']} takes a {reload_cost(w)} Action to reload: it cannot "
                                    "also shoot this round (only Quick Load can)")
            if not w["loaded"] and d["weapon"] not in loads:
                raise RuleViolation("Reloading", not_loaded(w, kinds))
    costs = sorted(d["cost"] for d in plan)
    if costs.count("full") > 1 or len(costs) > 2 or (len(costs) == 2 and costs == ["full", "full"]):
        raise RuleViolation("Combat Actions", "at most one Full and one Half action (or two Half actions) a round")
    for d in plan:
        is_attack = d["action"] in ("ranged_attack", "melee_attack") or (
            d["action"].startswith("spell") and d["weapon"] is not None)
        if is_attack and "disengage" in acts:
            raise RuleViolation("Disengaging", "while Disengaging a character may Parry but cannot attack")
    moving = [a for a in acts if a == "move"]
    if moving and rules.engaged_ids(ctx.enc, c) and "disengage" in acts and "run_away" not in acts:
        raise RuleViolation("Disengaging", "a Disengaging character stops being Engaged only at the end of the Other "
                            "Actions Phase, after the Move phase: move next Round (or Run Away)")
    if moving and rules.engaged_ids(ctx.enc, c) and not {"disengage", "run_away"} & set(acts):
        raise RuleViolation("Melee Attacks", "Engaged characters cannot take Movement Actions unless they Disengage "
                            "or Run Away first")
    if "run_away" in acts and not rules.engaged_ids(ctx.enc, c):
        raise RuleViolation("Running Away", f"{c.name} is not Engaged: just move")
    if "disengage" in acts and not rules.engaged_ids(ctx.enc, c):
        # "Disengage from melee": one Engaged with no one has none (a GM's play-through: the form's
        # "as last round" offered a Disengage already done, and the declaration took it)
        raise RuleViolation("Disengaging", f"{c.name} is not engaged: nothing to disengage from",
                            f"actions.{acts.index('disengage')}.action")
    for d in plan:
        w = c.data["weapons"][d["weapon"]] if d["weapon"] is not None else None
        d["phase"] = rules.declared_phase(t, d["action"], w, ctx.enc.round, d["weapon"] in loads)
        if d["action"] in ("reload", "ready_thrown") and any(
                x["action"] == "ranged_attack" and x["weapon"] == d["weapon"] for x in plan):
            d["phase"] = "ranged_b"  # loaded just before the shot in Ranged B
    return c, plan, acts, kinds


def reload_cost(w: dict[str, Any]) -> str:
    return "Multi-Round" if w["reload"] > 1 else "Full"


def not_loaded(w: dict[str, Any], kinds: dict[str, Any]) -> str:
    """What declaring a shot with an empty weapon needs, as Reloading says it: "Reloading a missile
    weapon is a Full Action or a Multi-Round Action, depending on the weapon. Weapons with the Quick
    Load property can be reloaded as a Half Action, allowing the character to attack in the same
    Round. Readying a thrown weapon is always a Half Action." The hint is what the rules then take
    (a GM's play-through: a bow without Quick Load was told to "declare the reload ... too", and the
    reload with the shot was refused)."""
    if w["kind"] == "thrown":
        return f"{w['name']} is not readied: declare {kinds['ready_thrown']['title']} with the throw (a Half Action)"
    reload = kinds["reload"]["title"]
    if w["quick_load"]:
        return f"{w['name']} is not loaded: declare {reload} with the shot (Quick Load: a Half Action)"
    return (f"{w['name']} is not loaded: without Quick Load its reload is a {reload_cost(w)} Action, so the shot "
            f"waits for {'a later' if w['reload'] > 1 else 'next'} round: declare {reload} alone")


def resolve(ctx: Context) -> None:
    """``tr.resolve``: the GM ticks off a declared action the engine does not play itself."""
    c = ctx.combatant()
    open_here = [d for d in declarations(ctx.enc, c.id) if not d["done"] and d["phase"] == ctx.enc.phase]
    if not open_here:
        raise RuleViolation("Tactical Round Sequence", f"{c.name} has no open declared action in this phase")
    open_here[0]["done"] = True
    ctx.event("resolve", f"{c.name}: {open_here[0]['action'].replace('_', ' ')} done", id=c.id)


# -- Parrying, Cover ---------------------------------------------------------------------------------

def parry(ctx: Context) -> None:
    """``tr.parry``: move CMB into DEF for this round against the opponent faced."""
    c = ctx.combatant()
    t = tables_of(ctx)
    amount = whole(ctx.action, "amount", 0, 1000)
    against = ctx.action.get("against", [])
    if isinstance(against, str):
        against = [against]
    if not isinstance(against, list):
        raise InvalidAction("against", "must name the opponent (or, with a shield, a list of opponents)")
    foes = [other(ctx, x, f"against.{i}", c).id for i, x in enumerate(against)]
    if amount == 0:
        c.data["parry"] = None
        ctx.event("parry", f"{c.name} does not Parry", id=c.id)
        return
    limit, why = rules.parry_limit(c, t)
    if limit == 0:
        raise RuleViolation("Parrying", f"{c.name} cannot Parry ({why})")
    if amount > limit:
        raise RuleViolation("Parrying", f"{c.name} can Parry with at most {limit} ({why})")
    if not foes:
        raise InvalidAction("against", "name the opponent faced")
    if len(set(foes)) > 1 and not rules.has_shield(c):
        raise RuleViolation("Parrying", "a character can only Parry attacks from a single opponent per Round "
                            "(a shield parries all opponents on its side)")
    used = c.data.get("parried") or {}
    if used.get("round") == ctx.enc.round and not rules.has_shield(c) and set(foes) - set(used.get("ids", [])):
        who = ", ".join(ctx.enc.get(x).name for x in used["ids"] if ctx.enc.get(x) is not None)
        raise RuleViolation("Parrying", f"{c.name} already Parried {who} this Round: a character can only Parry "
                            "attacks from a single opponent per Round (a shield parries all on its side)")
    c.data["parry"] = {"amount": amount, "against": sorted(set(foes), key=foes.index)}
    names = ", ".join(ctx.enc.get(x).name for x in c.data["parry"]["against"])
    ctx.event("parry", f"{c.name} Parries {amount} against {names}: CMB −{amount}, DEF +{amount}", id=c.id,
              amount=amount, against=c.data["parry"]["against"])


COVER_KINDS = ("none", "partial", "full")


def set_cover(c: Combatant, kind: str, against: str) -> None:
    if kind == "none":
        c.data["cover"].pop(against, None)
    else:
        c.data["cover"][against] = kind


def read_cover(ctx: Context, c: Combatant) -> tuple[str, str]:
    kind = ctx.action.get("cover")
    if kind not in COVER_KINDS:
        raise InvalidAction("cover", "must be none, partial or full")
    against = ctx.action.get("against", "all")
    if against != "all":
        against = other(ctx, against, "against", c).id
    return kind, against


def cover(ctx: Context) -> None:
    """``tr.cover``: Cover against one attacker (a direction) or all."""
    c = ctx.combatant()
    kind, against = read_cover(ctx, c)
    set_cover(c, kind, against)
    who = "everyone" if against == "all" else ctx.enc.get(against).name
    ctx.event("cover", f"{c.name}: {kind} Cover against {who}", id=c.id, cover=kind, against=against)


def dive_for_cover(ctx: Context) -> None:
    """``tr.dive_for_cover``: a Free Action at any time: drop Prone, or get behind Cover within 1.5 m."""
    c = ctx.combatant()
    able(c, "Diving for Cover", "dive for cover")
    if ctx.action.get("aware") is not True:
        raise RuleViolation("Diving for Cover", "only a character who is aware of an incoming attack may dive "
                            "(confirm with aware: true)")
    to = ctx.action.get("to")
    if to == "prone":
        if "prone" in c.conditions:
            raise RuleViolation("Diving for Cover", f"{c.name} is already Prone")
        c.conditions.append("prone")
        ctx.event("cover", f"{c.name} dives Prone (Free Action)", id=c.id)
        return
    if to != "cover":
        raise InvalidAction("to", "must be prone or cover")
    kind, against = read_cover(ctx, c)
    if kind == "none":
        raise InvalidAction("cover", "diving for cover means partial or full")
    new_pos = None
    if "x" in ctx.action or "y" in ctx.action:
        from fray.reducer import _position
        new_pos = _position({"x": ctx.action.get("x", c.position.x), "y": ctx.action.get("y", c.position.y),
                             "alt": ctx.action.get("alt", c.position.alt)}, "position")
        metres = map_distance(c.position, new_pos)
    else:
        metres = ctx.action.get("distance", 0)
        if isinstance(metres, bool) or not isinstance(metres, (int, float)) or metres < 0:
            raise InvalidAction("distance", "must be the metres to the cover")
    if metres > 1.5 + 1e-9:
        raise RuleViolation("Diving for Cover", f"the cover is {metres:.1f} m away; only cover within 1.5 m")
    if new_pos is not None:
        c.position = new_pos
    set_cover(c, kind, against)
    who = "everyone" if against == "all" else ctx.enc.get(against).name
    ctx.event("cover", f"{c.name} dives behind {kind} Cover against {who} ({metres:.1f} m, Free Action)", id=c.id)


def wield(ctx: Context) -> None:
    """``tr.wield``: which weapon is in hand (it sets parry, shield and the default attack)."""
    c = ctx.combatant()
    i, w = weapon(c, ctx.action.get("weapon"))
    c.data["wielding"] = i
    ctx.event("wield", f"{c.name} wields {w['name']}", id=c.id, weapon=i)


# -- the attack ------------------------------------------------------------------------------------

def _distance(ctx: Context, a: Combatant, b: Combatant) -> float:
    if ctx.action.get("distance") is not None:
        d = ctx.action["distance"]
        if isinstance(d, bool) or not isinstance(d, (int, float)) or not 0 <= d <= 100000:
            raise InvalidAction("distance", "must be metres (0 or more)")
        return float(d)
    return round(map_distance(a.position, b.position), 2)


@dataclass
class AttackPlan:
    """A ``tr.attack`` as decided before the die: who, with which weapon, and both sides' parts."""

    attacker: Combatant
    target: Combatant
    weapon: dict[str, Any]
    ranged: bool
    strike: bool  # a strike at a character Running Away (in the Move phase)
    flight: dict[str, Any]
    cmb: list[rules.Part]
    notes: list[str]
    dfn: list[rules.Part]
    def_notes: list[str]

    @property
    def modifier(self) -> int:
        """What the open-ended roll is added to: CMB and modifiers less DEF."""
        return sum(v for _, v in self.cmb) - sum(v for _, v in self.dfn)


def plan_attack(ctx: Context) -> AttackPlan:
    """Read and check a ``tr.attack`` and work out CMB and DEF, changing nothing: the attack
    (``attack``) and the odds before it (``odds.py``) both start here."""
    enc = ctx.enc
    t = tables_of(ctx)
    a = ctx.combatant()
    b = other(ctx, ctx.action.get("target"), "target", a)
    wi, w = weapon(a, ctx.action.get("weapon"))
    if "dead" in b.conditions:  # the form offers the living; the incapacitated and dying may still be struck
        raise RuleViolation("Combat Actions", f"{b.name} is dead: choose another target", "target")
    flags = {k: flag(ctx.action, k) for k in ("flanking", "on_rear", "charge", "mounted", "two_weapons")}
    # each refusal of the attack form beside the field whose choice the rules forbid (the Attacker,
    # the Weapon, the Target, the Line of sight), as an unreadable field's error is
    able(a, "Combat Actions", "attack", "id")
    if a.data.get("disengaging"):
        raise RuleViolation("Disengaging", f"{a.name} is Disengaging: may Parry but cannot attack", "id")
    ranged = w["kind"] in RANGED_KINDS
    flight = b.data.get("run_away") or {}
    strike = flight.get("round") == enc.round and flight.get("vs", {}).get(a.id) in ("lose", "tie") \
        and a.id not in flight.get("struck", []) and not flight.get("away")  # strikes come before the getaway
    if enc.phase not in rules.attack_phases(w, enc.round) and not (strike and not ranged and enc.phase == "move"):
        allowed = ", ".join(rules.phase_title(t, p) for p in rules.attack_phases(w, enc.round))
        raise RuleViolation("Tactical Round Sequence", f"{w['name']} attacks in {allowed}, not in "
                            f"{rules.phase_title(t, enc.phase)}", "weapon")
    if strike and enc.phase == "move" and not ranged:
        # Running Away: the attackers who won strike at the back; on a tie at half CMB.
        if flight["vs"][a.id] == "lose":
            flags["on_rear"] = True
        else:
            flags["half_cmb"] = True
    if ranged:
        los = ctx.action.get("line_of_sight")
        if los is None:
            raise InvalidAction("line_of_sight", "confirm that the attacker can see at least part of the target")
        if los is not True:
            raise RuleViolation("Ranged Attacks", "a ranged attack needs a clear Line of Sight to the target",
                                "line_of_sight")
        if w["kind"] in ("missile", "thrown") and not w["loaded"]:
            raise RuleViolation("Reloading", f"{w['name']} is not {'readied' if w['kind'] == 'thrown' else 'loaded'}",
                                "weapon")
    dist = _distance(ctx, a, b) if ranged else None
    # Melee Attacks, reach: the page asks for the check (``check_reach``); a history saved before
    # it was asked for replays as it was played. A strike at a runner comes from an engaged foe.
    if not ranged and not strike and flag(ctx.action, "check_reach"):
        rules.melee_reach(enc, a, b, _distance(ctx, a, b), t)
    flags["full_and_half"] = rules.full_and_half(declarations(enc, a.id))
    cmb, notes = rules.attack_parts(enc, a, w, b, flags, dist, t)
    dfn, def_notes = rules.defense(enc, b, a, w, flags, t)
    return AttackPlan(a, b, w, ranged, strike, flight, cmb, notes, dfn, def_notes)


def attack(ctx: Context) -> None:
    """``tr.attack``: open-ended d100 + CMB + modifiers − DEF; the GM then enters the result."""
    enc = ctx.enc
    t = tables_of(ctx)
    p = plan_attack(ctx)
    a, b, w, ranged, strike, flight = p.attacker, p.target, p.weapon, p.ranged, p.strike, p.flight
    cmb, notes, dfn, def_notes = p.cmb, p.notes, p.dfn, p.def_notes
    roll = ctx.dice.open_ended("attack")
    body = roll.breakdown().split(" = ")[1]
    total, text = rules.explain_total(body, roll.total, cmb, dfn)
    # -- all checks passed: edit the draft
    if w["kind"] in ("missile", "thrown"):
        w["loaded"] = False
        w["reload_progress"] = 0
    if not ranged and not rules.fallen(b):  # a blow at the fallen engages no one (end_engagements_of_the_fallen)
        engage(a, b)
    if any(label == "parry" for label, _ in dfn):  # the parry has been used against this opponent this Round
        used = b.data.get("parried") or {}
        ids = used.get("ids", []) if used.get("round") == enc.round else []
        b.data["parried"] = {"round": enc.round, "ids": ids + ([a.id] if a.id not in ids else [])}
    if strike and enc.phase == "move":
        flight.setdefault("struck", []).append(a.id)
    else:
        made = mark_done(enc, a.id, ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared"), enc.phase)
        if made is not None and made.get("target") != b.id:
            # made on another than the declared one: the acting row says on whom (order.order_of_play)
            made["attacked"] = b.id
    ref = f"A{enc.state.get('next_ref', 1)}"
    enc.state["next_ref"] = enc.state.get("next_ref", 1) + 1
    entry = {"ref": ref, "stage": "attack", "attacker": a.id, "target": b.id, "weapon": w["name"],
             "kind": w["kind"], "total": total, "text": text, "round": enc.round, "phase": enc.phase,
             "notes": notes + def_notes}
    ctx.event("attack", f"{a.name} attacks {b.name} with {w['name']}: {text}", ref=ref, attacker=a.id, target=b.id,
              total=total, roll=roll.to_json(), cmb=[{"label": k, "value": v} for k, v in cmb],
              defense=[{"label": k, "value": v} for k, v in dfn], notes=notes + def_notes)
    found = lookup_result(t, w["kind"], total)
    if found is None:
        enc.state.setdefault("pending", []).append(entry)
        return
    _apply_result(ctx, entry, found["hits"], found["critical"], source="the GM's attack table")


def lookup_result(t: dict[str, Any], kind: str, total: int) -> dict[str, Any] | None:
    for e in t["attack_results"]["entries"]:
        if e["kind"] in ("any", kind) and (e["min"] is None or total >= e["min"]) and (
                e["max"] is None or total <= e["max"]):
            return e
    return None


def pending(ctx: Context, stage: str) -> dict[str, Any]:
    ref = ctx.action.get("ref")
    for p in ctx.enc.state.get("pending", []):
        if p["ref"] == ref:
            if p["stage"] != stage:
                raise RuleViolation("Combat Actions", f"{ref} awaits its {p['stage']} entry, not a {stage} result")
            return p
    raise InvalidAction("ref", f"there is no pending attack {ref!r}")


def _apply_result(ctx: Context, entry: dict[str, Any], hits: int, critical: str | None, source: str) -> None:
    t = tables_of(ctx)
    sev = rules.keyed(t["critical_severity"])
    if critical is not None and critical not in sev:
        raise InvalidAction("critical", f"must be null or one of {', '.join(sev)}")
    target = ctx.enc.get(entry["target"])
    crit = None
    if critical is not None:
        crit = ctx.dice.d100("critical")
    pend = ctx.enc.state.setdefault("pending", [])
    pend[:] = [p for p in pend if p["ref"] != entry["ref"]]
    if target is None:  # removed from the fight meanwhile
        ctx.event("result", f"{entry['ref']}: the target has left the fight", ref=entry["ref"])
        return
    target.data["hits_taken"] += hits
    text = f"{entry['ref']} ({source}): {target.name} takes {hits} hits (HP {hp_current(target)})"
    if crit is not None:
        bonus = int(sev[critical]["bonus"])
        ctotal = crit.total + bonus
        ctext = f"critical {critical}: {ctotal} = d100 {crit.total} + severity {bonus}"
        text += f"; {ctext}"
        pend.append({**entry, "stage": "critical", "critical": critical, "critical_roll": ctotal,
                     "critical_text": ctext})
    ctx.event("result", text, ref=entry["ref"], hits=hits, critical=critical,
              critical_roll=(crit.total + int(sev[critical]["bonus"])) if crit else None)
    hp_events(ctx, target)


def apply_result(ctx: Context) -> None:
    """``tr.apply_result``: the GM's reading of the attack table: hits and critical severity."""
    entry = pending(ctx, "attack")
    hits = whole(ctx.action, "hits", 0, 1000, 0)
    critical = ctx.action.get("critical")
    if critical is not None and not isinstance(critical, str):
        raise InvalidAction("critical", "must be null or a severity key")
    _apply_result(ctx, entry, hits, critical, source="GM")


def apply_critical(ctx: Context) -> None:
    """``tr.apply_critical``: the GM's reading of the critical table: extra hits, Stunned, Prone,
    and death: at once (``kills``) or at the end of a later round (``dies_in`` rounds; the critical
    tables are the GM's, not in the rule text, and theirs say when a wound kills)."""
    entry = pending(ctx, "critical")
    hits = whole(ctx.action, "hits", 0, 1000, 0)
    stunned = whole(ctx.action, "stunned_rounds", 0, 100, 0)
    prone = flag(ctx.action, "prone")
    kills = flag(ctx.action, "kills")
    dies_in = whole(ctx.action, "dies_in", 0, 100, 0)
    if kills and dies_in:
        raise InvalidAction("dies_in", "a critical that kills at once does not also kill later: leave one of them")
    text = ctx.action.get("text", "")
    if not isinstance(text, str) or len(text) > 300:
        raise InvalidAction("text", "must be text of up to 300 characters")
    target = ctx.enc.get(entry["target"])
    ctx.enc.state["pending"] = [p for p in ctx.enc.state["pending"] if p["ref"] != entry["ref"]]
    if target is None:
        ctx.event("critical", f"{entry['ref']}: the target has left the fight", ref=entry["ref"])
        return
    target.data["hits_taken"] += hits
    # the HP after, as an attack's hits are logged (a GM's play-through read "5 hits" with the card at 2/30)
    said = [f"{hits} hits (HP {hp_current(target)})"] if hits else []
    if stunned:
        target.data["stunned_rounds"] = max(int(target.data.get("stunned_rounds", 0)), stunned)
        if "stunned" not in target.conditions:
            target.conditions.append("stunned")
        said.append(f"Stunned {stunned} round{'s' if stunned > 1 else ''}")
    if prone and "prone" not in target.conditions:
        target.conditions.append("prone")
        said.append("Prone")
    if kills and "dead" not in target.conditions:
        target.conditions.append("dead")
        said.append("killed")
    if dies_in and "dead" not in target.conditions:
        # the round it is dealt counts as the first, as a duration of N rounds does (fray.timers)
        target.data["dies_at_round"] = ctx.enc.round + dies_in - 1
        # the round said, and how it was counted (a GM's play-through read "Dies in 2" in round 1 as
        # "dies at the end of round 2" and could not tell whether this round counted)
        said.append(f"dies at the end of round {ctx.enc.round + dies_in - 1} (dies in {dies_in} "
                    f"round{'s' if dies_in > 1 else ''}, this one the first)")
    ctx.event("critical", f"{entry['ref']} critical on {target.name}: {', '.join(said) or 'no effect'}"
              + (f" — {text}" if text else ""), ref=entry["ref"], hits=hits, stunned_rounds=stunned, prone=prone,
              # only when given: the events of a critical recorded before these fields stay the same bytes
              **({"kills": True} if kills else {}), **({"dies_in": dies_in} if dies_in else {}))
    hp_events(ctx, target)


def dismiss(ctx: Context) -> None:
    """``tr.dismiss``: drop a pending entry (the GM resolved it off the tracker)."""
    ref = ctx.action.get("ref")
    pend = ctx.enc.state.get("pending", [])
    if not any(p["ref"] == ref for p in pend):
        raise InvalidAction("ref", f"there is no pending attack {ref!r}")
    ctx.enc.state["pending"] = [p for p in pend if p["ref"] != ref]
    ctx.event("result", f"{ref} dismissed by the GM", ref=ref)


def adjust_hp(ctx: Context) -> None:
    """``tr.adjust_hp``: hits by hand (positive) or healing (negative); thresholds follow."""
    c = ctx.combatant()
    hits = whole(ctx.action, "hits", -10000, 10000)
    if c.data["hits_taken"] + hits < 0:
        raise RuleViolation("hit points", f"{c.name} cannot heal above maximum HP")
    c.data["hits_taken"] += hits
    ctx.event("hp", f"{c.name} {'takes' if hits >= 0 else 'heals'} {abs(hits)} (HP {hp_current(c)})", id=c.id,
              hits=hits)
    hp_events(ctx, c)


# -- Reloading -------------------------------------------------------------------------------------

def reload(ctx: Context) -> None:
    """``tr.reload``: a Full, Multi-Round or (Quick Load) Half Action; a thrown weapon is readied."""
    c = ctx.combatant()
    able(c, "Reloading", "reload")
    i, w = weapon(c, ctx.action.get("weapon"))
    do_reload(ctx, c, i, w)


def do_reload(ctx: Context, c: Combatant, i: int, w: dict[str, Any]) -> None:
    """One reload (or readying) of weapon ``i``: by the GM's button or, declared, by itself in its phase."""
    if w["kind"] not in ("missile", "thrown"):
        raise InvalidAction("weapon", f"{w['name']} is not a missile or thrown weapon")
    if w["loaded"]:
        raise RuleViolation("Reloading", f"{w['name']} is already {'readied' if w['kind'] == 'thrown' else 'loaded'}")
    done_in = c.data.setdefault("reloaded", {})
    if done_in.get(str(i)) == ctx.enc.round:
        # one reload action per weapon a Round: a Multi-Round reload takes its Rounds, and a Quick Load
        # weapon is reloaded once (a Half Action) to shoot again in the same Round
        raise RuleViolation("Reloading", f"{w['name']} was already {'readied' if w['kind'] == 'thrown' else 'reloaded'} "
                            "this Round" + (f" (a Multi-Round Action: {w['reload']} Rounds)"
                                            if w["kind"] == "missile" and not w["quick_load"] and w["reload"] > 1 else ""))
    done_in[str(i)] = ctx.enc.round
    if w["kind"] == "thrown":
        w.update(loaded=True, loaded_round=ctx.enc.round)
        mark_done(ctx.enc, c.id, ("ready_thrown",))
        ctx.event("reload", f"{c.name} readies {w['name']} (Half Action)", id=c.id, weapon=i)
        return
    if w["quick_load"]:
        need, how = 1, "Half Action, Quick Load"
    else:
        need, how = w["reload"], ("Full Action" if w["reload"] == 1 else f"Multi-Round Action, {w['reload']} rounds")
    w["reload_progress"] += 1
    if w["reload_progress"] >= need:
        w.update(loaded=True, loaded_round=ctx.enc.round, reload_progress=0)
        said = "loaded"
    else:
        said = f"reloading {w['reload_progress']}/{need}"
    mark_done(ctx.enc, c.id, ("reload",))
    ctx.event("reload", f"{c.name}: {w['name']} {said} ({how})", id=c.id, weapon=i)


# -- Melee, Disengaging, Running Away, moving -------------------------------------------------------

def run_away(ctx: Context) -> None:
    """``tr.run_away``: opposed Athletics, fleeing against each attacker engaged with them."""
    enc = ctx.enc
    t = tables_of(ctx)
    c = ctx.combatant()
    able(c, "Running Away", "run away")
    if enc.phase != "move":
        raise RuleViolation("Tactical Round Sequence", "Running Away is a movement: it resolves in the Move phase")
    engaged = rules.engaged_ids(enc, c)
    if not engaged:
        raise RuleViolation("Running Away", f"{c.name} is not Engaged: just move")
    raw = ctx.action.get("attackers", engaged)
    if not isinstance(raw, list) or not raw:
        raise InvalidAction("attackers", "must list the attackers engaged with the runner")
    foes = []
    for i, x in enumerate(raw):
        o = other(ctx, x, f"attackers.{i}", c)
        if o.id not in engaged:
            raise InvalidAction(f"attackers.{i}", f"{o.name} is not engaged with {c.name}")
        foes.append(o)
    fh = rules.full_and_half(declarations(enc, c.id))

    def athletics(who: Combatant, name: str) -> tuple[int, str]:
        r = ctx.dice.open_ended(name)
        parts = [("Athletics", int(who.stats.get("Athletics", 0)))] + rules.condition_penalty(who, t)
        if who is c and fh:
            parts.append((rules.mod_label(t, "full_and_half"), rules.mod(t, "full_and_half")))
        total = r.total + sum(v for _, v in parts)
        _, band = rules.action_band(total, t)
        return total, f"{total} = roll {r.breakdown().split(' = ')[1]}{rules.signed(parts)} ({band['label']})"

    mine, my_text = athletics(c, "flee")
    results = {}
    lines = [f"{c.name} runs away: {my_text}"]
    fell = []
    if rules.action_band(mine, t)[0] == 0:
        fell.append(c)
    for o in foes:
        theirs, text = athletics(o, f"athletics.{o.id}")
        if rules.action_band(theirs, t)[0] == 0:
            fell.append(o)
        results[o.id] = rules.opposed(mine, theirs, t)
        lines.append(f"{o.name} {text}: {c.name} {'wins' if results[o.id] == 'win' else 'loses' if results[o.id] == 'lose' else 'ties'}")
    c.data["run_away"] = {"round": enc.round, "vs": results, "struck": []}
    for x in fell:  # any Critical Failure trips and falls Prone
        if "prone" not in x.conditions:
            x.conditions.append("prone")
        lines.append(f"{x.name} trips and falls Prone (Critical Failure)")
    for o in foes:
        if results[o.id] == "win" and c not in fell:
            for x, y in ((c, o), (o, c)):
                if y.id in x.data["engaged_with"]:
                    x.data["engaged_with"].remove(y.id)
    mark_done(enc, c.id, ("run_away",))
    ctx.event("run_away", "; ".join(lines), id=c.id, results=results)


def move(ctx: Context) -> None:
    """``tr.move``: a Movement Action; refused while Engaged unless Running Away let them go."""
    c = ctx.combatant()
    able(c, "Melee Attacks", "move")
    flight = c.data.get("run_away") or {}
    fled = flight.get("round") == ctx.enc.round
    if rules.engaged_ids(ctx.enc, c) and not fled:
        raise RuleViolation("Melee Attacks", "Engaged characters cannot take Movement Actions unless they "
                            "Disengage (free at the end of Other Actions) or Run Away first")
    if fled and "prone" in c.conditions and rules.engaged_ids(ctx.enc, c):
        raise RuleViolation("Running Away", f"{c.name} tripped and fell Prone: cannot get away")
    from fray.maprules import ground_check
    from fray.reducer import _position
    old = c.position
    new = _position({"x": ctx.action.get("x", old.x), "y": ctx.action.get("y", old.y),
                     "alt": ctx.action.get("alt", old.alt)}, "position")
    ground_check(ctx.enc, c, new, "position.alt")
    c.position = new
    if fled:
        disengage_all(ctx.enc, c)
        c.data["run_away"] = {**flight, "away": True}  # got away: the attackers' strikes are gone
    mark_done(ctx.enc, c.id, ("move", "run_away"))
    ctx.event("move", f"{c.name} moves to ({new.x:g}, {new.y:g}) m" + (" and gets away" if fled else ""), id=c.id,
              x=new.x, y=new.y, alt=new.alt)


def map_move(ctx: Context) -> None:
    """The core ``move`` (a token dragged on the map, or its position typed): in the Move phase it is
    the mover's declared Move, which is then done (issue 32: "moving a token in the Move phase marks
    that mover done"). At any other time the GM is only placing the token."""
    from fray.reducer import CORE_ACTIONS

    CORE_ACTIONS["move"](ctx)
    c = ctx.combatant()
    if ctx.enc.phase != "move" or rules.fallen(c):
        return
    for d in declarations(ctx.enc, c.id):
        if not d["done"] and d["action"] == "move" and d["phase"] == "move":
            d["done"] = True
            ctx.event("resolve", f"{c.name}'s Move is done", id=c.id)
            return


# -- what a Next asks of the phase it leaves and does in the one it enters ------------------------

# Declared actions that need no roll: a reload or a readied thrown weapon happens as its phase
# begins (before a shot in Ranged B); a Move or a Disengage, if the GM has not moved the token, is
# done where the token stands as its phase ends (issue 32: "Actions that need no roll (a reload,
# readying a thrown weapon, a move) resolve in their phase by themselves").
BY_THEMSELVES_ON_ENTRY = ("reload", "ready_thrown")
BY_THEMSELVES_ON_LEAVING = ("move", "disengage")


def title_of(t: dict[str, Any], d: dict[str, Any]) -> str:
    return rules.keyed(t["declared_actions"]).get(d["action"], {}).get("title", d["action"].replace("_", " "))


def open_in(enc: Encounter, phase: str) -> list[tuple[Combatant, int, dict[str, Any]]]:
    """Every declared action of this phase not yet resolved, with its combatant (read only:
    ``Encounter.peek``, so a Next copies only whom it changes) and index."""
    out = []
    for c in enc.peek():
        for i, d in enumerate(declarations(enc, c.id)):
            if not d["done"] and d["phase"] == phase:
                out.append((c, i, d))
    return out


def resolve_by_itself(ctx: Context, t: dict[str, Any], c: Combatant, d: dict[str, Any]) -> None:
    if d["action"] in BY_THEMSELVES_ON_ENTRY:
        w = c.data["weapons"][d["weapon"]] if d.get("weapon") is not None and d["weapon"] < len(
            c.data["weapons"]) else None
        if w is None:
            d["done"] = True
            ctx.event("resolve", f"{c.name}'s {title_of(t, d)}: the weapon is gone", id=c.id)
            return
        c = ctx.enc.get(c.id)  # the draft's own copy, to edit
        w = c.data["weapons"][d["weapon"]]
        try:
            do_reload(ctx, c, d["weapon"], w)
        except RuleViolation as e:  # loaded already, or reloaded this Round by the GM's button
            d["done"] = True
            ctx.event("resolve", f"{c.name}'s {title_of(t, d)}: nothing to do ({str(e).rsplit(' (rule:', 1)[0]})",
                      id=c.id)
        d["done"] = True
        return
    d["done"] = True
    if d["action"] == "move":
        ctx.event("resolve", f"{c.name}'s Move is done: the token stands at ({c.position.x:g}, {c.position.y:g}) m",
                  id=c.id)
    elif not c.data.get("disengaging"):
        ctx.event("resolve", f"{c.name} Disengages: free of melee at the end of Other Actions", id=c.id)
    # else the round's end, in this same Next, says it once: "disengages: no longer Engaged" (a GM's
    # play-through read both lines for the one event)


def enter_phase(ctx: Context, t: dict[str, Any]) -> None:
    for c, _, d in open_in(ctx.enc, ctx.enc.phase):
        if d["action"] in BY_THEMSELVES_ON_ENTRY and not rules.fallen(c):
            resolve_by_itself(ctx, t, c, d)


def leave_phase(ctx: Context, t: dict[str, Any], mode: str) -> None:
    """Before a Next leaves the phase: no declared action of a living combatant ends unresolved
    without a word in the log (issue 32: "Next must never end a live combatant's declared action
    without either resolving it or the GM choosing to skip it"). ``mode`` "ask" (the page's Next):
    what is open stops the Next, named; "go_on": the GM skips it, one log line each; "": a Next
    of a history saved before: it goes on and the log names what is left unresolved. Leaving the
    Declaration phase, the page's Next also asks about whoever standing has not declared. The
    fallen's actions lapse, said in the log."""
    enc = ctx.enc
    leave_pending(ctx, mode)
    if enc.phase == "declaration":
        if not mode:
            return
        declared = enc.state.setdefault("declared", {})
        missing = [c for c in enc.peek() if c.id not in declared and not rules.fallen(c)]
        if missing and mode == "ask":
            raise RuleViolation("Tactical Round Sequence", f"Not declared yet: {_names(missing)}. Declare, or go on "
                                f"without {'them' if len(missing) > 1 else missing[0].name}")
        for c in missing:
            declared[c.id] = []
        if missing:
            ctx.event("skip", f"The GM goes on: {_names(missing)} declared nothing this round",
                      ids=[c.id for c in missing])
        return
    still = []
    for c, i, d in open_in(enc, enc.phase):
        down = rules.fallen(c)
        if down:
            d["done"] = True
            ctx.event("resolve", f"{c.name} is {down}: the declared {title_of(t, d)} lapses", id=c.id)
        elif d["action"] in BY_THEMSELVES_ON_LEAVING or (mode and d["action"] in BY_THEMSELVES_ON_ENTRY):
            resolve_by_itself(ctx, t, c, d)
        else:
            still.append((c, i, d))
    if still and mode == "ask":
        said = _names_list([f"{c.name}'s {title_of(t, d)}" for c, _, d in still])
        one = len(still) == 1
        raise RuleViolation("Tactical Round Sequence", f"{said} {'is' if one else 'are'} not resolved: resolve "
                            f"{'it' if one else 'each'} or skip {'it' if one else 'them'}")
    for c, i, d in still:
        if mode:
            skip_one(ctx, t, c, d)
        else:
            d["done"] = True
            ctx.event("skip", f"Next leaves {c.name}'s {title_of(t, d)} unresolved", id=c.id)


def critical_words(enc: Encounter, p: dict[str, Any]) -> str:
    """A critical waiting for its effects, as the log and Next's question say it: "A1's critical B on Grak"."""
    target = enc.peek_at(p["target"])
    return f"{p['ref']}'s critical {p.get('critical', '')} on {target.name if target is not None else 'someone gone'}"


def result_words(enc: Encounter, p: dict[str, Any]) -> str:
    """An attack waiting for its table result, as the log and Next's question say it: "A1, Mira's
    attack on Grak"."""
    a, b = enc.peek_at(p["attacker"]), enc.peek_at(p["target"])
    return (f"{p['ref']}, {a.name if a is not None else 'someone gone'}'s attack on "
            f"{b.name if b is not None else 'someone gone'}")


def results_words(enc: Encounter, ps: list[dict[str, Any]]) -> str:
    """Several attacks waiting for their results: "A1 (Mira on Grak) and A2 (Grak on Mira)"."""
    def who(cid: str) -> str:
        c = enc.peek_at(cid)
        return c.name if c is not None else "someone gone"
    return _names_list([f"{p['ref']} ({who(p['attacker'])} on {who(p['target'])})" for p in ps])


def leave_pending(ctx: Context, mode: str) -> None:
    """The page's Next stops at what waits for the GM's reading of a table (FACTS.md: "the engine
    computes and shows the total, and the GM enters the result (hits and critical severity)"): an
    attack rolled whose result is not entered, and a critical whose effects are not (a GM's
    play-throughs: Next went on, and the blow, then the critical, was never read); "go_on": the GM
    leaves them, said in the log. A Next of a history saved before (no ``mode``) leaves them waiting,
    as it was played."""
    if not mode:
        return
    enc = ctx.enc
    waiting = enc.state.get("pending", [])
    results = [p for p in waiting if p["stage"] == "attack"]
    crits = [p for p in waiting if p["stage"] == "critical"]
    if not results and not crits:
        return
    if mode == "ask":
        said = []
        if len(results) == 1:
            said.append(f"{result_words(enc, results[0])}, has no result: enter it from the attack table or leave it")
        elif results:
            said.append(f"{results_words(enc, results)} have no result: enter each from "
                        f"the attack table or leave them")
        if crits:
            one = len(crits) == 1
            said.append(f"{_names_list([critical_words(enc, p) for p in crits])} {'is' if one else 'are'} not "
                        f"applied: apply {'it' if one else 'each'} or leave {'it' if one else 'them'}")
        raise RuleViolation("Tactical Round Sequence", "; ".join(said))
    for p in results:
        ctx.event("skip", f"The GM goes on: {result_words(enc, p)}, is left without a result", ref=p["ref"])
    for p in crits:
        ctx.event("skip", f"The GM goes on: {critical_words(enc, p)} is left unapplied", ref=p["ref"])
    left = {p["ref"] for p in results + crits}
    enc.state["pending"] = [p for p in waiting if p["ref"] not in left]


def _names(cs: list[Combatant]) -> str:
    return _names_list([c.name for c in cs])


def _names_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def skip_one(ctx: Context, t: dict[str, Any], c: Combatant, d: dict[str, Any]) -> None:
    d["done"] = True
    d["skipped"] = True
    ctx.event("skip", f"The GM skips {c.name}'s {title_of(t, d)} ({rules.phase_title(t, d['phase'])})", id=c.id)


def skip(ctx: Context) -> None:
    """``tr.skip``: the GM chooses not to resolve a declared action of this phase (``action``: its
    index in the declaration; default the first open one). The log says so."""
    c = ctx.combatant()
    t = tables_of(ctx)
    mine = declarations(ctx.enc, c.id)
    idx = ctx.action.get("action")
    if idx is None:
        idx = next((i for i, d in enumerate(mine) if not d["done"] and d["phase"] == ctx.enc.phase), None)
        if idx is None:
            raise RuleViolation("Tactical Round Sequence", f"{c.name} has no open declared action in this phase")
    if isinstance(idx, bool) or not isinstance(idx, int) or not 0 <= idx < len(mine):
        raise InvalidAction("action", f"{c.name} has no declared action {idx!r}")
    d = mine[idx]
    if d["done"]:
        raise RuleViolation("Tactical Round Sequence", f"{c.name}'s {title_of(t, d)} is already resolved")
    if d["phase"] != ctx.enc.phase:
        raise RuleViolation("Tactical Round Sequence", f"{c.name}'s {title_of(t, d)} belongs to "
                            f"{rules.phase_title(t, d['phase'])}, not {rules.phase_title(t, ctx.enc.phase)}")
    skip_one(ctx, t, c, d)


HANDLERS = {
    "tr.declare": declare,
    "tr.resolve": resolve,
    "tr.parry": parry,
    "tr.cover": cover,
    "tr.dive_for_cover": dive_for_cover,
    "tr.wield": wield,
    "tr.attack": attack,
    "tr.apply_result": apply_result,
    "tr.apply_critical": apply_critical,
    "tr.dismiss": dismiss,
    "tr.adjust_hp": adjust_hp,
    "tr.reload": reload,
    "tr.run_away": run_away,
    "tr.move": move,
    "tr.skip": skip,
    "move": map_move,  # a token moved on the map: in the Move phase, the mover's declared Move
}
