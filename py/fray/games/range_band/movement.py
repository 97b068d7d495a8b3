"""The movement phase: switching flight on and off, movement rolls (on the ground, flying, underwater)
and where a successful one lands, descending without a roll, and the GM's drag of a token; mount and
rider always move together (Movement, Flight, Back in Combat, Detection Rolls' close calls).

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``) and keeps the
registry of action types (``HANDLERS``)."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.maprules import below_ground_text
from fray.model import Combatant, Encounter, Position
from fray.games.base import Context, possessive
from fray.games.range_band import rules
from fray.games.range_band import areas as areas_mod
from fray.games.range_band.combatant import BANDS
from fray.games.range_band.rolls import RollSpec
from fray.games.range_band.state_edits import (tables_of, flag, able, coords, cond_off, add_duration, set_stealth, pend, prompt,
                          fall, pay_flight_cost)


def fly(ctx: Context) -> None:
    """``rb.fly {id, on}``: switch between flying and ground movement, at the beginning or end of the
    combatant's movement (its movement slot), but not both in one movement phase."""
    c = ctx.combatant()
    on = flag(ctx.action, "on", True)
    deprived = flag(ctx.action, "deprived")
    enc, t = ctx.enc, tables_of(ctx)
    z = rules.zone(enc)
    if deprived:
        if on or not c.data.get("flying"):
            raise InvalidAction("deprived", "deprived of flight applies to a flyer stopping (on: false)")
        if rules.at_engagement_altitude(c, t):
            c.data["flying"] = False
            ctx.event("flight", f"{c.name} loses their means of flight at engagement altitude", id=c.id)
        else:
            fall(ctx, c, t, "deprived of their means of flight")
        return
    if rules.underwater(enc, c):
        raise RuleViolation("Underwater Combat", "underwater, characters cannot stop 'flying': movement is 3-D already")
    if on == bool(c.data.get("flying")):
        raise RuleViolation("Flight", f"{c.name} is {'already' if on else 'not'} flying")
    if on:
        able(c, "Flight", "fly")
        if not rules.can_fly(c):
            raise RuleViolation("Flight", f"{c.name} has no flying SPD")
        if rules.is_mounted(c):
            raise RuleViolation("Flight", "a rider is not flying: the mount flies")
        if z["narrow"]:
            raise RuleViolation("Flight", "flight cannot be used in an area using narrow passage rules")
        if z["flight_ceiling"] == "none":
            raise RuleViolation("Flight", "flight is not available in this zone")
        if c.data.get("grappling"):
            raise RuleViolation("Flight", "you cannot begin flying while grappling")
    if enc.phase not in ("movement", "setup"):
        raise RuleViolation("Flight", "switch between flying and ground movement at the beginning or end of your "
                            "movement phase")
    if enc.phase == "movement":
        slots = ctx.ruleset.order_of_play(enc)
        cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
        if cur != c.id:
            raise RuleViolation("Flight", f"switch at the beginning or end of {possessive(c.name)} own movement "
                                f"(now: {enc.get(cur).name if cur and enc.get(cur) else 'nobody'}'s)")
    sw = c.data.get("fly_switch") or {}
    if enc.phase == "movement" and sw.get("round") == enc.round:
        raise RuleViolation("Flight", "switch at the beginning or end of the movement phase, but not both")
    if enc.phase == "movement":
        c.data["fly_switch"] = {"round": enc.round}
    if on:
        c.data["flying"] = True
        limit = rules.band_max(t, "engaged") or 0
        if c.position.alt > limit:
            c.position = Position(c.position.x, c.position.y, limit)
        ctx.event("flight", f"{c.name} begins flying at engagement altitude", id=c.id)
        if enc.phase == "movement":
            pay_flight_cost(ctx, c, "on taking off in the movement phase")
        if "knocked-down" in c.conditions:
            cond_off(c, "knocked-down")
            add_duration(enc, c, "minor-stunned", "before_turn", 1)
            ctx.event("flight", f"{c.name} was knocked down: minor stunned for 1 round, no longer knocked down", id=c.id)
        if c.data.get("stealth") != "low":
            set_stealth(ctx, c, "low", "flying", lock=True)
    else:
        if rules.at_engagement_altitude(c, t):
            c.data["flying"] = False
            c.position = Position(c.position.x, c.position.y, 0.0)
            ctx.event("flight", f"{c.name} lands", id=c.id)
        else:
            fall(ctx, c, t, "voluntarily stops flying above engagement altitude")


def move(ctx: Context) -> None:
    """``rb.move {id, x?, y?, alt?, rush?, cautious?, drop_high_stealth?, outnumbered?, unseen_area?,
    dense_smoke?, after_descent?, descent_roll?}``: a movement roll. Builds the roll specification (pending ``movement``); on success
    the new position applies. Stealth consequences apply at once, "regardless of whether your movement
    roll succeeded". A mount's rider moves with it."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    able(c, "", "move")
    rush = flag(ctx.action, "rush")
    cautious = flag(ctx.action, "cautious")
    drop = flag(ctx.action, "drop_high_stealth")
    outnumbered = flag(ctx.action, "outnumbered")
    unseen = flag(ctx.action, "unseen_area")
    smoke = flag(ctx.action, "dense_smoke")
    new = coords(ctx, c)
    if rules.is_mounted(c):
        raise RuleViolation("Back in Combat", f"{c.name} is mounted: move the mount")
    if enc.phase != "movement":
        raise RuleViolation("", "movement rolls happen in the movement phase")
    slots = ctx.ruleset.order_of_play(enc)
    cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
    if cur != c.id:
        raise RuleViolation("", f"the movement phase goes in turn order: now it is "
                            f"{enc.get(cur).name if cur and enc.get(cur) else 'nobody'}'s movement")
    # one movement phase a combatant each round ("it still counts as a movement phase"), so one roll: a GM's
    # repeated press stacked nine pending rolls. Only a roll's record has "from"; a descent without a roll
    # ("with or without a roll") leaves the horizontal movement roll to make
    last = c.data.get("moved") or {}
    if last.get("round") == enc.round and "from" in last:
        raise RuleViolation("", f"{c.name} has made this round's movement roll already: one movement roll "
                            "in each movement phase (Undo takes it back)")
    # Flight: "you may descend any distance equivalent to 1 zone (long range) with or without a roll" and "If
    # vertical movement up or down is your only movement, it still counts as a movement phase". The text does
    # not say whether a roll may follow a descent made without one (a GM's play-through did both): the reading
    # followed is that such a descent was the phase's movement (descending with a roll is the roll's own: a
    # lower altitude in it), and the GM may rule otherwise, asked on the page once the flyer has descended
    after_descent = flag(ctx.action, "after_descent")
    if last.get("round") == enc.round and last.get("descent") and not after_descent:
        raise RuleViolation("Flight", f"{c.name} descended without a roll this movement phase, and vertical movement "
                            "that is the only movement \"still counts as a movement phase\": the descent was "
                            f"{possessive(c.name)} movement. The GM may let a movement roll follow it",
                            field="after_descent")
    if "knocked-down" in c.conditions and not rules.is_flying(enc, c):
        raise RuleViolation("", f"{c.name} is knocked down")
    z = rules.zone(enc)
    # Underwater Combat: "resolved similarly to a battle in which all characters are flying", "just as
    # difficult to descend as to ascend"; who is underwater follows from position (areas.Water)
    swim = rules.underwater(enc, c) or rules.underwater(enc, p=new)
    flying = rules.is_flying(enc, c)
    in3d = flying or swim or (rules.in_water(enc, c) and rules.in_water(enc, p=new))
    up = new.alt - c.position.alt
    if not in3d and abs(up) > 1e-9:
        raise InvalidAction("alt", "only flying, swimming or underwater characters change altitude by moving")
    if flying and not swim and up < 0:
        descent_left(enc, c, t, -up)
    if in3d and (up > 0 or swim):
        cap = rules.band_max(t, "medium" if rush else "short") or 0
        if abs(up) > cap + 1e-9:
            raise RuleViolation("Underwater Combat" if swim else "Flight",
                                f"a successful {'underwater' if swim else 'flying'} movement roll "
                                f"{'ascends or descends' if swim else 'ascends'} up to short range "
                                f"({rules.band_max(t, 'short'):g} m); rushing and succeeding by 10 or more, medium "
                                f"({rules.band_max(t, 'medium'):g} m)")
    if flying and not swim:
        ceiling = z["flight_ceiling"]
        cmax = rules.band_max(t, ceiling) if ceiling != "none" else 0
        if cmax is not None and new.alt > cmax + 1e-9:
            raise RuleViolation("Flight", f"this zone limits altitude to {ceiling} range ({cmax:g} m)")
    if unseen and rush:
        raise RuleViolation("Lack of Sight", "you cannot rush through or out of an area you can't see")
    if why := rules.below_ground(enc, new):
        raise InvalidAction("alt", below_ground_text(c, why))
    # a descent alone sent as a movement roll spent the phase's roll on what needs none (a GM's play-through then
    # dismissed the roll): pointed to Descend, unless the GM wants the roll (descent_roll)
    across = abs(new.x - c.position.x) > 1e-9 or abs(new.y - c.position.y) > 1e-9
    if flying and not swim and up < 0 and not across and not flag(ctx.action, "descent_roll"):
        raise RuleViolation("Flight", "a descent alone (up to 1 zone) needs no roll, \"with or without a "
                            "roll\": use Descend below, or tick \"Roll for the descent anyway\"", field="alt")
    fx = areas_mod.path_effects(areas_mod.areas(enc, t), c.position, new, c.data.get("vision", "normal")) \
        if enc.state.get("areas") else {"unseen": [], "obscured": [], "start": [], "enter": []}
    if fx["unseen"] and rush:
        raise RuleViolation("Lack of Sight", f"the movement goes through or out of {', '.join(a.label for a in fx['unseen'])}"
                            ", an area you can't see: you cannot rush through or out of it (a rush may only enter it)")
    spec = rules.movement_spec(enc, c, t, rush=rush, cautious=cautious, keep_high=not drop, outnumbered=outnumbered,
                               unseen_area=unseen or bool(fx["unseen"]), dense_smoke=smoke or bool(fx["obscured"]),
                               swim=swim)
    for a in fx["unseen"]:
        spec.notes.append(f"through or out of {a.label}: an area you can't see")
    for a in fx["obscured"]:
        spec.notes.append(f"through or out of {a.label}: highly obscured, a rush gives half its reactive +TN, "
                          "no knockdown risk")
    for a in fx["enter"]:
        spec.notes.append(f"enters {a.label}")
    lacks_sight = rules.sightless(enc, c, t) or (f"standing in {fx['start'][0].label}" if fx["start"] else "")
    if lacks_sight and not cautious:
        pend(ctx, "blind_knockdown", c, RollSpec(
            "Avoid a knockdown (moving without sight)", "d12", "DEX", int(c.stats.get("DEX", 0)), "Lack of Sight",
            success="keeps their feet", failure="knocked down; the movement attempt ends early"))
    stealth = c.data.get("stealth", "low")
    if rush and stealth != "low":
        set_stealth(ctx, c, "low", "rushing", lock=True)
    elif stealth == "high" and drop:
        set_stealth(ctx, c, "medium", "moved without the High Stealth Hindrance", lock=True)
    if after_descent and last.get("round") == enc.round and last.get("descent"):
        ctx.event("override", f"The GM lets {possessive(c.name)} movement roll follow its descent without a roll (Flight: "
                  "\"with or without a roll\")", id=c.id)
    # what a dismissed roll gives back (resolution.dismiss): a roll never resolved was no movement roll
    before = {k: (dict(v) if isinstance(v, dict) else v) for k in MOVE_RECORD for v in [c.data.get(k)]}
    c.data["moved"] = {"round": enc.round, "rushed": rush, "success": None,
                       "vertical": abs(up) > (rules.band_max(t, "engaged") or 0), "from": [c.position.x, c.position.y]}
    c.data["move_phase_round"] = enc.round
    if flying and not swim and up < 0:  # counted when declared: a pending roll's descent is spoken for
        c.data["descended"] = {"round": enc.round, "m": descended(enc, c) - up}
    effect = {"to": [new.x, new.y, new.alt], "rush": rush, "up": up, "swim": swim, "before": before}
    if spec.auto:
        apply_move(ctx, c, t, effect, {"success": True, "by": spec.auto["by"], "text": spec.auto["reason"]})
        ctx.event("move", f"{c.name}: {spec.text()}", id=c.id, spec=spec.to_json())
        return
    pend(ctx, "movement", c, spec, effect)


# a combatant's record of this movement phase, which a movement roll writes when declared
MOVE_RECORD = ("moved", "move_phase_round", "descended")


def take_back(c: Combatant, effect: dict[str, Any]) -> bool:
    """A movement roll dismissed without being resolved was never made: the combatant's movement record goes back
    to what it was before it (no roll this phase, its declared descent no longer spoken for). False for a roll
    of a save older than the record (nothing to give back)."""
    before = effect.get("before")
    if not isinstance(before, dict):
        return False
    for k in MOVE_RECORD:
        c.data[k] = before.get(k)
    return True


def apply_move(ctx: Context, c: Combatant, t: rules.Tables, effect: dict[str, Any], out: dict[str, Any]) -> None:
    enc = ctx.enc
    mv = dict(c.data.get("moved") or {"round": enc.round, "rushed": effect.get("rush", False)})
    mv["success"] = out["success"]
    mv["by"], mv["blunder"] = out.get("by"), bool(out.get("blunder"))  # the page shows the result (issue 32)
    if not out["success"]:
        c.data["moved"] = mv
        ctx.event("move", f"{c.name} {'blunders' if mv['blunder'] else 'fails'} the movement roll and stays put",
                  id=c.id)
        return
    x, y, alt = effect["to"]
    up = float(effect.get("up", 0))
    short = rules.band_max(t, "short") or 0
    note = ""
    climb = abs(up) if effect.get("swim", rules.underwater(enc)) else up
    if climb > short + 1e-9 and not (effect.get("rush") and out.get("by", 0) >= 10):
        # short range from where the climb was declared (declared altitude − climb), not from where the
        # token is now (the GM may have dragged it while the roll was pending): between the two
        # altitudes of the declaration, so on the map as both are
        alt = float(alt) - up + (short if up > 0 else -short)
        note = (f" ({'ascends' if up > 0 else 'descends'} only short range, {short:g} m: medium needs a rush "
                "succeeding by 10 or more)")
    start = Position(c.position.x, c.position.y, c.position.alt)
    c.position = Position(float(x), float(y), float(alt))
    mv["band"] = rules.range_between(start, c.position, t)["band"]
    c.data["moved"] = mv
    follow(enc, c)
    ctx.event("move", f"{c.name} moves to ({c.position.x:g}, {c.position.y:g}) m, altitude {c.position.alt:g} m"
              + note, id=c.id, x=c.position.x, y=c.position.y, alt=c.position.alt)
    close_calls(ctx, c, t)


def close_calls(ctx: Context, c: Combatant, t: rules.Tables) -> None:
    """Detection Rolls: "The rules for visible range may not provide enough clarity on occasions when ranges
    are too close to call." After a stealthy character moves, every opponent who does not see it but is only
    one band beyond its visible range gets a prompt to call for a detection roll (``rb.detect``)."""
    if c.data.get("stealth", "low") == "low":
        return
    enc = ctx.enc
    sight = rules.Sight(enc, t)
    close = []
    for o in enc.peek():  # only looks: copies no combatant
        if o.side == c.side or o.id == c.id or not rules.able(o):
            continue
        seen, _ = rules.can_see(enc, o, c, t, sight)
        if seen or rules.sightless(enc, o, t, sight) or c.id in o.data.get("cannot_see", []):
            continue
        d = sight.idx(o.position, c.position)
        rng, _ = rules.visible_range(enc, o, c, t, d, sight)
        if rng != "none" and d == BANDS.index(rng) + 1:
            close.append(o)
    if close:
        prompt(ctx, "detection", c, f"{c.name} is just beyond the visible range of "
               f"{', '.join(o.name for o in close)}: too close to call? Call for a detection roll (d20 on INT, blind)",
               observers=[o.id for o in close])


def follow(enc: Encounter, c: Combatant) -> Combatant | None:
    """Mount and rider stand in one place: the other one follows ``c``."""
    p = rules.partner(enc, c)
    if p is not None:
        p.position = Position(c.position.x, c.position.y, c.position.alt)
    return p


def map_move(ctx: Context) -> None:
    """The core ``move`` (the GM drags a token), with mount and rider kept together: dragging either moves
    both. No roll: the GM's override, as in every ruleset."""
    from fray.reducer import CORE_ACTIONS
    CORE_ACTIONS["move"](ctx)
    c = ctx.combatant()
    p = follow(ctx.enc, c)
    if p is not None:
        ctx.event("move", f"{p.name} moves with {c.name}", id=p.id)


def descended(enc: Encounter, c: Combatant) -> float:
    """Metres this flyer has descended in this round's movement phase (a descent, or a roll's declared one)."""
    d = c.data.get("descended") or {}
    return float(d.get("m", 0)) if d.get("round") == enc.round else 0.0


def descent_left(enc: Encounter, c: Combatant, t: rules.Tables, drop: float) -> None:
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll": 1 zone in all, whether in one descent, several or a roll's."""
    zone = rules.band_max(t, "long") or 0
    done = descended(enc, c)
    if done + drop > zone + 1e-9:
        raise RuleViolation("Flight", f"descend at most 1 zone (long range, {zone:g} m) in a movement phase"
                            + (f": {c.name} has descended {done:g} m already" if done else ""))


def descent_floor(enc: Encounter, c: Combatant, t: rules.Tables) -> float | None:
    """The lowest altitude a descent without a roll reaches now: 1 zone in the phase less what was descended
    already, not below the ground (0 m); None when nothing is left to descend."""
    zone = rules.band_max(t, "long") or 0
    low = round(max(c.position.alt - max(zone - descended(enc, c), 0.0), 0.0), 1)
    return low if low < c.position.alt - 1e-9 else None


def descend(ctx: Context) -> None:
    """``rb.descend {id, alt}``: "During your movement phase, you may descend any distance equivalent to
    1 zone (long range) with or without a roll." Not underwater ("just as difficult to descend as to
    ascend": use ``rb.move``)."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    if not rules.is_flying(enc, c):
        raise RuleViolation("Flight", f"{c.name} is not flying" + (" (underwater: descending takes a movement roll)"
                                                                     if rules.underwater(enc, c) else ""))
    if enc.phase != "movement":
        raise RuleViolation("Flight", "descend during your movement phase")
    slots = ctx.ruleset.order_of_play(enc)
    cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
    if cur != c.id:  # "your movement phase": the flyer's own place in it, as for its movement roll
        raise RuleViolation("Flight", f"descend during your own movement: now it is "
                            f"{enc.get(cur).name if cur and enc.get(cur) else 'nobody'}'s movement")
    from fray.reducer import _number
    alt = _number(ctx.action.get("alt"), "alt", -20000, 20000)
    if alt >= c.position.alt - 1e-9:
        # a GM's play-through: the field held the flyer's own altitude, and Descend logged a 0 m "descent" that
        # used up the phase; the same or a higher altitude is no descent
        raise InvalidAction("alt", f"{c.name} is at altitude {c.position.alt:g} m: to descend, give a lower "
                            "altitude" + (f" (down to {lowest:g} m this movement phase)"
                                          if (lowest := descent_floor(enc, c, t)) is not None else ""))
    if why := rules.below_ground(enc, Position(c.position.x, c.position.y, float(alt))):
        raise InvalidAction("alt", below_ground_text(c, why))
    drop = c.position.alt - alt
    descent_left(enc, c, t, drop)
    c.position = Position(c.position.x, c.position.y, float(alt))
    follow(ctx.enc, c)
    last = c.data.get("moved") or {}
    if not (last.get("round") == enc.round and "from" in last):  # after a roll, the roll stays the movement
        c.data["moved"] = {"round": enc.round, "rushed": False, "success": True, "vertical": True, "band": "vertical",
                           "descent": True}
    c.data["move_phase_round"] = enc.round
    c.data["descended"] = {"round": enc.round, "m": descended(enc, c) + drop}
    ctx.event("move", f"{c.name} descends to altitude {alt:g} m (no roll needed)", id=c.id)
