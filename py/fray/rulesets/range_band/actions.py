"""The GM's range-band actions (``rb.*``), thin handlers over ``rules.py``.

Every handler reads and checks all of its input before it edits the draft, and raises only
``InvalidAction`` (cannot read; ``field`` is the dotted path = the form control's name) or
``RuleViolation`` (the rules forbid it; ``rule`` is the heading of the rule text). The reducer works
on a copy, so a refused action changes nothing.

Rolls are two steps. An action that calls for a roll adds a *pending roll* to
``enc.state["pending"]``: ``{ref: "R3", kind, combatant, spec (rolls.RollSpec.to_json), effect,
round, prompt}``. The GM settles it with ``rb.resolve {ref, success, by, blunder?}`` (the outcome of
their own dice) or ``rb.resolve {ref}`` with no ``success``: Fray rolls it with the default mechanic
(table ``core_roll``, assumed) under the roll name ``roll``. ``rb.dismiss {ref}`` drops one.

Prompts (judgement calls with no roll, e.g. "use the Falling rules for a short-range fall") go to
``enc.state["prompts"]`` and are cleared with ``rb.dismiss {ref}`` too.

Action types and fields are listed in ``docs/rules/range-band.md`` (section "Actions").
"""

from __future__ import annotations

from typing import Any

from ...errors import InvalidAction, RuleViolation
from ...model import Combatant, Encounter, Position
from ..base import Context
from . import rules
from . import areas as areas_mod
from .aftermath import end_battle
from .breath import breath, catch_breath, restart_breathing
from .combatant import BANDS, STEALTH, whole
from .detection import ambush, detect, noise
from .rolls import RollSpec, outcome_from_action, roll_default
from .teleport import teleport
from .state_edits import (
    tables_of, flag, pick, other, ids_list, able,
    coords, cond_on, cond_off, add_duration, set_stealth, new_ref,
    pend, prompt, unmount, knock_down, fall, use_action, take_fatigue, pay_flight_cost,
)

ACTION_SIZES = ("major", "minor", "free", "slowing", "process")
STATUSES = ("knocked-down", "minor-stunned", "major-stunned", "blinded", "deafened", "incapacitated", "paralyzed",
            "dead", "restrained", "out-of-breath")


# -- setup: turn order, zone, mounts ----------------------------------------------------------------------

def turn_order(ctx: Context) -> None:
    """``rb.turn_order {id, value, detection_tn?}``: the turn-order result the GM rolled (higher acts
    first); ``value: null`` clears it. ``detection_tn``: Visible Range & Turn Order: "If stealth is a major
    part of the beginning of a battle, the GM may allow characters to apply any +TN they can normally
    apply to a detection roll to their turn order rolls." """
    c = ctx.combatant()
    v = ctx.action.get("value")
    bonus = whole(ctx.action.get("detection_tn", 0), "detection_tn", 0, 100)
    if v is None:
        c.data["turn_value"] = None
        ctx.event("order", f"{c.name}: turn order cleared", id=c.id)
        return
    base = whole(v, "value", -1000, 1000)
    c.data["turn_value"] = base + bonus
    ctx.event("order", f"{c.name}: turn order {base + bonus}" + (f" = {base} + detection +TN {bonus} (GM allows)"
                                                                  if bonus else ""), id=c.id)


ZONE_FIELDS = {"light": rules.LIGHT, "clutter": rules.CLUTTER, "flight_ceiling": ("none",) + BANDS}
ZONE_FLAGS = ("enclosed", "underwater", "narrow", "air")


def set_zone(ctx: Context) -> None:
    """``rb.zone {light?, clutter?, enclosed?, underwater?, flight_ceiling?, narrow?, air?}``: the zone's
    settings. ``flight_ceiling``: the highest altitude band flight may reach (``none`` = no flight);
    ``narrow``: narrow passage rules (no flight); ``air``: breathable air (false: underwater or gas)."""
    z = dict(rules.zone(ctx.enc))
    said = []
    for k, v in ctx.action.items():
        if k in ("type", "rolls"):
            continue
        if k in ZONE_FIELDS:
            if v not in ZONE_FIELDS[k]:
                raise InvalidAction(k, f"must be one of {', '.join(ZONE_FIELDS[k])}")
        elif k in ZONE_FLAGS:
            if not isinstance(v, bool):
                raise InvalidAction(k, "must be true or false")
        else:
            raise InvalidAction(k, f"unknown zone setting (known: {', '.join(list(ZONE_FIELDS) + list(ZONE_FLAGS))})")
        z[k] = v
        said.append(f"{k} {v}")
    if not said:
        raise InvalidAction("light", "give at least one zone setting")
    if "underwater" in ctx.action and ctx.action["underwater"] and "air" not in ctx.action:
        z["air"] = False
    ctx.enc.state["zone"] = z
    t = tables_of(ctx)
    ctx.event("zone", "Zone: " + ", ".join(said))
    for c in ctx.enc.combatants:
        if c.data.get("flying") and not z["underwater"] and (z["narrow"] or z["flight_ceiling"] == "none"):
            fall(ctx, c, t, "flight is not possible here")
        elif rules.light_forces_low(ctx.enc, c, t) and c.data.get("stealth") != "low":
            set_stealth(ctx, c, "low", "carrying a light source", lock=True)


def check_mount(enc: Encounter, rider: Combatant, m: Combatant, field: str) -> None:
    """A rider takes one mount; a mount takes one proper rider; nobody rides themselves."""
    if m.id == rider.id:
        raise InvalidAction(field, f"{rider.name} cannot be their own mount")
    if rider.data.get("mount") and rider.data["mount"] != m.id:
        other_m = enc.get(rider.data["mount"])
        raise InvalidAction(field, f"{rider.name} already rides {other_m.name if other_m else rider.data['mount']}: "
                            "dismount first (a rider has one mount)")
    if rider.data.get("rider"):
        raise InvalidAction(field, f"{rider.name} is carrying a rider and cannot ride")
    if m.data.get("mount"):
        raise InvalidAction(field, f"{m.name} is riding {m.data['mount']} and cannot be a mount")
    if m.data.get("rider") and m.data["rider"] != rider.id:
        raise RuleViolation("Back in Combat", f"{m.name} already carries a rider: mounts cannot carry more than "
                            "one character as a proper rider (extra characters: Carrying Characters rules)")


def do_mount(enc: Encounter, rider: Combatant, m: Combatant) -> None:
    rider.data["mount"] = m.id
    m.data["rider"] = rider.id
    rider.position = Position(m.position.x, m.position.y, m.position.alt)
    rider.data["flying"] = False  # "Characters who are riding flying mounts ... are not considered flying"
    if rider.data.get("stealth") != m.data.get("stealth"):
        low = min(rider.data.get("stealth", "low"), m.data.get("stealth", "low"), key=STEALTH.index)
        rider.data["stealth"] = m.data["stealth"] = "medium" if low == "high" else low


def mount(ctx: Context) -> None:
    """``rb.mount {id: rider, mount}``: the rider mounts (moves onto the mount's position, shares its
    stealth level; High Stealth ends: mounted characters and mounts cannot use it)."""
    rider = ctx.combatant()
    m = other(ctx, "mount")
    check_mount(ctx.enc, rider, m, "mount")
    able(rider, "Back in Combat", "mount")
    if "knocked-down" in rider.conditions:
        raise RuleViolation("Falling Off Mounts", f"{rider.name} is knocked down")
    do_mount(ctx.enc, rider, m)
    ctx.event("mount", f"{rider.name} mounts {m.name}", id=rider.id, mount=m.id)


def dismount(ctx: Context) -> None:
    """``rb.dismount {id, fall?}``: normal dismounting, or ``fall: true``: "You may voluntarily 'fall off'
    of a mount as a free action; you still suffer a knockdown." """
    rider = ctx.combatant()
    m = rules.mount_of(ctx.enc, rider)
    if m is None:
        raise RuleViolation("Back in Combat", f"{rider.name} is not mounted")
    t = tables_of(ctx)
    if flag(ctx.action, "fall"):
        knock_down(ctx, rider, t, "voluntarily falls off the mount (free action)")
    else:
        unmount(ctx, rider, "dismounts")


# -- the round's flow -------------------------------------------------------------------------------------

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
    if rules.underwater(enc):
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
            raise RuleViolation("Flight", f"switch at the beginning or end of {c.name}'s own movement "
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
    dense_smoke?}``: a movement roll. Builds the roll specification (pending ``movement``); on success
    the new position applies. Stealth consequences apply at once, "regardless of whether your movement
    roll succeeded". A mount's rider moves with it."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    able(c, "Movement", "move")
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
        raise RuleViolation("The round", "movement rolls happen in the movement phase")
    slots = ctx.ruleset.order_of_play(enc)
    cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
    if cur != c.id:
        raise RuleViolation("The round", f"the movement phase goes in turn order: now it is "
                            f"{enc.get(cur).name if cur and enc.get(cur) else 'nobody'}'s movement")
    if "knocked-down" in c.conditions and not rules.is_flying(enc, c):
        raise RuleViolation("Movement", f"{c.name} is knocked down")
    z = rules.zone(enc)
    fly = rules.is_flying(enc, c) or rules.underwater(enc)
    up = new.alt - c.position.alt
    if not fly and abs(up) > 1e-9:
        raise InvalidAction("alt", "only flying (or underwater) characters change altitude by moving")
    if fly and (up > 0 or rules.underwater(enc)):
        cap = rules.band_max(t, "medium" if rush else "short") or 0
        if abs(up) > cap + 1e-9:
            raise RuleViolation("Flight", f"a successful flying movement roll ascends up to short range "
                                f"({rules.band_max(t, 'short'):g} m); rushing and succeeding by 10 or more, medium "
                                f"({rules.band_max(t, 'medium'):g} m)")
    if fly and not rules.underwater(enc):
        ceiling = z["flight_ceiling"]
        cmax = rules.band_max(t, ceiling) if ceiling != "none" else 0
        if cmax is not None and new.alt > cmax + 1e-9:
            raise RuleViolation("Flight", f"this zone limits altitude to {ceiling} range ({cmax:g} m)")
    if unseen and rush:
        raise RuleViolation("Lack of Sight", "you cannot rush through or out of an area you can't see")
    if new.alt < 0 and not rules.underwater(enc):
        raise InvalidAction("alt", "altitude below the ground")
    fx = areas_mod.path_effects(areas_mod.areas(enc, t), c.position, new, c.data.get("vision", "normal")) \
        if enc.state.get("areas") else {"unseen": [], "obscured": [], "start": [], "enter": []}
    if fx["unseen"] and rush:
        raise RuleViolation("Lack of Sight", f"the movement goes through or out of {', '.join(a.label for a in fx['unseen'])}"
                            ", an area you can't see: you cannot rush through or out of it (a rush may only enter it)")
    spec = rules.movement_spec(enc, c, t, rush=rush, cautious=cautious, keep_high=not drop, outnumbered=outnumbered,
                               unseen_area=unseen or bool(fx["unseen"]), dense_smoke=smoke or bool(fx["obscured"]))
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
    c.data["moved"] = {"round": enc.round, "rushed": rush, "success": None,
                       "vertical": abs(up) > (rules.band_max(t, "engaged") or 0), "from": [c.position.x, c.position.y]}
    c.data["move_phase_round"] = enc.round
    effect = {"to": [new.x, new.y, new.alt], "rush": rush, "up": up}
    if spec.auto:
        apply_move(ctx, c, t, effect, {"success": True, "by": spec.auto["by"], "text": spec.auto["reason"]})
        ctx.event("move", f"{c.name}: {spec.text()}", id=c.id, spec=spec.to_json())
        return
    pend(ctx, "movement", c, spec, effect)


def apply_move(ctx: Context, c: Combatant, t: rules.Tables, effect: dict[str, Any], out: dict[str, Any]) -> None:
    enc = ctx.enc
    mv = dict(c.data.get("moved") or {"round": enc.round, "rushed": effect.get("rush", False)})
    mv["success"] = out["success"]
    if not out["success"]:
        c.data["moved"] = mv
        ctx.event("move", f"{c.name} fails the movement roll and stays put", id=c.id)
        return
    x, y, alt = effect["to"]
    up = float(effect.get("up", 0))
    short = rules.band_max(t, "short") or 0
    note = ""
    climb = abs(up) if rules.underwater(enc) else up
    if climb > short + 1e-9 and not (effect.get("rush") and out.get("by", 0) >= 10):
        alt = c.position.alt + (short if up > 0 else -short)
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
    from ...reducer import CORE_ACTIONS
    CORE_ACTIONS["move"](ctx)
    c = ctx.combatant()
    p = follow(ctx.enc, c)
    if p is not None:
        ctx.event("move", f"{p.name} moves with {c.name}", id=p.id)


def remove(ctx: Context) -> None:
    """The core ``remove_combatant``, then no one keeps pointing at the one who left: its rider or mount is
    unmounted, grapples and sight marks end, its pending rolls and prompts go."""
    from ...reducer import CORE_ACTIONS
    gone = ctx.combatant().id
    CORE_ACTIONS["remove_combatant"](ctx)
    enc = ctx.enc
    for c in enc.combatants:
        d = c.data
        if d.get("mount") == gone:
            d["mount"] = None
        if d.get("rider") == gone:
            d["rider"] = None
        d["grappling"] = [x for x in d.get("grappling", []) if x != gone]
        d["cannot_see"] = [x for x in d.get("cannot_see", []) if x != gone]
        if d.get("ambush"):
            d["ambush"] = {**d["ambush"], "unseen_by": [x for x in d["ambush"].get("unseen_by", []) if x != gone]}
    for key in ("pending", "prompts"):
        if key in enc.state:
            enc.state[key] = [p for p in enc.state[key] if p.get("combatant") != gone
                              and (p.get("effect") or {}).get("target") != gone]
    if "round_start" in enc.state:
        enc.state["round_start"] = {k: {**v, "unseen_by": [x for x in v.get("unseen_by", []) if x != gone]}
                                    for k, v in enc.state["round_start"].items() if k != gone}


def descend(ctx: Context) -> None:
    """``rb.descend {id, alt}``: "During your movement phase, you may descend any distance equivalent to
    1 zone (long range) with or without a roll." Not underwater ("just as difficult to descend as to
    ascend": use ``rb.move``)."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    if not rules.is_flying(enc, c):
        raise RuleViolation("Flight", f"{c.name} is not flying" + (" (underwater: descending takes a movement roll)"
                                                                     if rules.underwater(enc) else ""))
    if enc.phase != "movement":
        raise RuleViolation("Flight", "descend during your movement phase")
    from ...reducer import _number
    alt = _number(ctx.action.get("alt"), "alt", -20000, 20000)
    if alt > c.position.alt:
        raise InvalidAction("alt", "descending goes down")
    if c.position.alt - alt > (rules.band_max(t, "long") or 0) + 1e-9:
        raise RuleViolation("Flight", f"descend at most 1 zone (long range, {rules.band_max(t, 'long'):g} m)")
    c.position = Position(c.position.x, c.position.y, float(alt))
    follow(ctx.enc, c)
    c.data["moved"] = {"round": enc.round, "rushed": False, "success": True, "vertical": True, "band": "vertical"}
    c.data["move_phase_round"] = enc.round
    ctx.event("move", f"{c.name} descends to altitude {alt:g} m (no roll needed)", id=c.id)


def stealth(ctx: Context) -> None:
    """``rb.stealth {id, level}``: Low (free, any time), Medium (free, from Low, no roll), High (a major
    action from Medium: a pending d20 stealth roll on DEX, −TN 50% of WGT). ``start: true`` in setup:
    "the GM may allow any characters who wish to start a battle in High Stealth to do so without rolling"."""
    c = ctx.combatant()
    level = pick(ctx.action, "level", STEALTH)
    start = flag(ctx.action, "start")
    enc, t = ctx.enc, tables_of(ctx)
    cur = c.data.get("stealth", "low")
    if level == cur:
        raise RuleViolation("Combat Stealth", f"{c.name} is already in {level.capitalize()} Stealth")
    if level == "low":
        set_stealth(ctx, c, "low", "reverts as a free action")
        return
    why = rules.stealth_block(enc, c, level, t)
    if why:
        raise RuleViolation("Large Creatures & Vehicles" if "AWGT" in why else "Combat Stealth", why)
    if level == "medium":
        set_stealth(ctx, c, "medium", "free action, no roll" if cur == "low" else "reverts")
        return
    if cur != "medium" and not start:
        raise RuleViolation("High Stealth", "to enter High Stealth you must already be in Medium Stealth")
    if not start and enc.phase != "actions":
        raise RuleViolation("High Stealth", "the stealth roll is a major action: make it in your turn")
    if c.data.get("grappling"):
        raise RuleViolation("High Stealth", "cannot re-enter High Stealth while grappling")
    if start:
        if enc.phase != "setup":
            raise RuleViolation("High Stealth", "starting in High Stealth without a roll is for the start of a battle")
        set_stealth(ctx, c, "high", "starts the battle in High Stealth (GM allows, no roll)")
        return
    use_action(ctx, c, "major", "stealth roll (enter High Stealth)", t)
    spec = rules.stealth_spec(c, "d20", "Stealth roll (enter High Stealth)", t)
    spec.success, spec.failure = "enters High Stealth", "stays in Medium Stealth"
    pend(ctx, "enter_high", c, spec, prompt=f"{c.name} tries to enter High Stealth")


def maintain(ctx: Context) -> None:
    """``rb.maintain_stealth {id}``: "You must also maintain High Stealth as a major action on every turn;
    this does not require further stealth rolls." Without it, the turn's end reverts to Medium."""
    c = ctx.combatant()
    if c.data.get("stealth") != "high":
        raise RuleViolation("High Stealth", f"{c.name} is not in High Stealth")
    use_action(ctx, c, "major", "maintain High Stealth", tables_of(ctx))
    c.data["maintained_round"] = ctx.enc.round
    ctx.event("stealth", f"{c.name} maintains High Stealth (major action)", id=c.id)


def act(ctx: Context) -> None:
    """``rb.act {id, size, what, dex_roll?, verbal?, light?, target?, unwilling?, fatigue?}``: any other action in
    the combatant's turn (``fatigue``: an Ability's fatigue cost, taken at once; not while holding breath):
    ``size`` major | minor | free | slowing | process. A slowing action with a DEX roll while mounted gets
    the mounted Hindrance (pending ``slowing``). A major action other than maintaining High Stealth
    reverts High to Medium at the end of the turn. ``light: true``: the action emits notable light (Low
    Stealth, locked for the round). ``verbal: true`` is refused while holding breath or underwater for
    non-water-breathers."""
    c = ctx.combatant()
    size = pick(ctx.action, "size", ACTION_SIZES)
    what = ctx.action.get("what", size + " action")
    if not isinstance(what, str) or not what.strip() or len(what) > 80:
        raise InvalidAction("what", "say what the action is (1 to 80 characters)")
    dex = flag(ctx.action, "dex_roll")
    verbal = flag(ctx.action, "verbal")
    light = flag(ctx.action, "light")
    unwilling = flag(ctx.action, "unwilling")
    fatigue = whole(ctx.action.get("fatigue", 0), "fatigue", 0, 100)
    target = other(ctx, "target", c) if ctx.action.get("target") is not None else None
    if unwilling and target is None:
        raise InvalidAction("unwilling", "an unwilling target: choose the target the action affects")
    enc, t = ctx.enc, tables_of(ctx)
    able(c, "The round", "act")
    if fatigue and (c.data.get("breath", {}).get("holding") or c.data.get("breath", {}).get("out")):
        raise RuleViolation("Holding Breath", "holding breath prevents voluntarily taking fatigue points until the next "
                            "turn; without breath it is impossible")
    dark = rules.sightless(enc, c, t)
    if dark and target is not None and rules.range_between(c.position, target.position, t)["index"] > 0:
        raise RuleViolation("Lack of Sight", f"{c.name} is without sight ({dark}): nothing that targets a specific "
                            "character at greater than engagement range")
    if verbal:
        if c.data.get("breath", {}).get("holding"):
            raise RuleViolation("Holding Breath", "holding breath prevents verbal actions until the next turn")
        if rules.underwater(enc) and c.data.get("amphibious") != "breathes":
            raise RuleViolation("Underwater Combat", "only characters who can naturally breathe underwater may speak "
                                "or perform verbal actions underwater")
    if size == "slowing":
        mv = c.data.get("moved") or {}
        if mv.get("round") == enc.round and mv.get("vertical"):
            raise RuleViolation("Flight", "you cannot notably change your altitude and still perform slowing actions")
    use_action(ctx, c, "major" if size == "process" else size, what, t)
    ctx.event("action", f"{c.name}: {size} action — {what}", id=c.id, size=size)
    if fatigue:
        take_fatigue(ctx, c, fatigue, f"{what}: its fatigue cost, inflicted immediately upon use")
    if light and c.data.get("stealth") != "low":
        set_stealth(ctx, c, "low", "emits notable light", lock=True)
    blind_hit = bool(dark and target is not None and unwilling and target.id not in c.data.get("grappling", []))
    if dex or blind_hit:
        spec = RollSpec(f"{size.capitalize()} action: {what}", "d20", "DEX", int(c.stats.get("DEX", 0)),
                        "Back in Combat" if size == "slowing" else "Lack of Sight",
                        hindrance=list(rules.mounted_hindrance(enc, c)) if size == "slowing" else [])
        if blind_hit:
            spec.rule = "Lack of Sight"
            if dex:
                spec.hindrance.append(("without sight (the action already rolls DEX)", 3))
            spec.notes.append("without sight: may affect a random enemy, much like a blind attack")
        pend(ctx, "slowing" if size == "slowing" else "action", c, spec, {"target": target.id if target else None})


# -- attacks ---------------------------------------------------------------------------------------------

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


def attack(ctx: Context) -> None:
    """``rb.attack {id, target, weapon? | kind + tags, die?, stat?, size?, aoe?, warned_by?, emits_light?,
    unexpected?}``: an attack (a ``size`` action of the turn, default major: assumed) and its
    offense roll specification with every Hindrance the text gives (mounted, mount size, underwater),
    its competence, whether it is a stealth attack (the target cannot see the attacker: 3 Hindrance on
    the defense, 1 if warned), and what is forbidden (10× mount size, underwater incompetent melee,
    ranged attacks underwater or without sight). The offense is a pending ``offense`` roll; if it succeeds
    against a target in High Stealth, the target's d12 stealth roll follows."""
    a = ctx.combatant()
    d = other(ctx, "target", a)
    enc, t = ctx.enc, tables_of(ctx)
    w = weapon_of(ctx, a)
    die = pick(ctx.action, "die", ("d6", "d10", "d12", "d20"), "d20")
    stat = pick(ctx.action, "stat", ("DEX", "CON", "INT", "SPD"), "DEX")
    aoe = flag(ctx.action, "aoe")
    size = pick(ctx.action, "size", ("major", "minor", "free"), "major")
    emits_light = flag(ctx.action, "emits_light")
    unexpected = flag(ctx.action, "unexpected")
    warned_by = ctx.action.get("warned_by")
    able(a, "Combat", "attack")
    melee = w["kind"] == "melee"
    tags = set(w["tags"])
    spec = RollSpec(f"Offense roll: {w['name']} against {d.name}", die, stat, int(a.stats.get(stat, 0)), "Combat")
    competent = True
    notes: list[str] = []
    grappling = d.id in a.data.get("grappling", [])
    # Lack of Sight (it works out the light at the attacker only where the zone or an area is dark)
    dark = rules.sightless(enc, a, t)
    vis = rules.visibility(enc, t)  # the projection (shared with the page's view of this state)
    sees = vis[a.id][d.id]["sees"]
    if dark and not melee and not grappling:
        if not aoe:
            raise RuleViolation("Lack of Sight", f"{a.name} is completely without sight ({dark}): no ranged attacks, "
                                "except AoEs at their own engagement (offense roll automatically fails)")
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
    if rules.underwater(enc):
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
            warner = other(ctx, "warned_by", d)
            warn_ok, warn_why = warning_ok(enc, warner, d, a, t)
            if not warn_ok:
                raise RuleViolation("Stealth Attacks", warn_why)
        n = rules.const(t, "warned_hindrance") if warn_ok else rules.const(t, "stealth_attack_hindrance")
        defense = {"hindrance": [{"reason": "stealth attack" + (f" (warned by {enc.get(warned_by).name})"
                                                                 if warn_ok else ""), "count": n}]}
        notes.append(f"stealth attack: {d.name} cannot see {a.name}; +{n} Hindrance to the defense roll")
    if "precise" in tags and melee and stealth_attack:
        notes.append("Precise melee weapon: less noise in a stealth attack")
    use_action(ctx, a, size, f"attack {d.name} with {w['name']}", t)
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
    pend(ctx, "offense", a, spec, effect, prompt=f"{a.name} attacks {d.name} with {w['name']}")
    if stealth_attack:
        prompt(ctx, "warning", d, warning_prompt(enc, a, d, enc.get(warned_by) if warn_ok else None, vis, t))
    if emits_light and a.data.get("stealth") != "low":
        set_stealth(ctx, a, "low", "the attack emits notable light", lock=True)


def warning_ok(enc: Encounter, warner: Combatant, defender: Combatant, attacker: Combatant,
               t: rules.Tables) -> tuple[bool, str]:
    """Stealth Attacks: who may warn whom. (The text's list of criteria is not in the excerpt; these
    are the sentences it does give.)"""
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
    head = (f"Stealth attack on {defender.name}: may an ally warn them? The text's criteria for a warning are not in "
            f"the excerpt (FACTS.md), so this is the GM's call. What the text gives, applied: {WARNING_GIVEN}.")
    if warned_by is not None:
        sees = vis.get(warned_by.id, {}).get(attacker.id, {}).get("sees")
        return (head + f" Warned by {warned_by.name}" + ("" if sees else f" (who cannot see {attacker.name})")
                + ": 1 Hindrance on the defense instead of 3, if the missing criteria allow it.")
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
            + " If one does, choose them in \"Target warned by\" (once the roll is sent: dismiss it and attack again).")


def grapple(ctx: Context) -> None:
    """``rb.grapple {id, target, mismatched_flying_ok?}``: a grapple starts. Flying: "if you grapple or are
    grappled while flying, both you and the attacker immediately fall", except a mismatched grapple in
    which the larger character is flying and can carry the other. High Stealth reverts (to Low if the
    other character is Low)."""
    a = ctx.combatant()
    d = other(ctx, "target", a)
    exception = flag(ctx.action, "mismatched_flying_ok")
    enc, t = ctx.enc, tables_of(ctx)
    able(a, "Combat", "grapple")
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
        raise RuleViolation("Combat", f"{a.name} is not grappling {d.name}")
    a.data["grappling"] = [x for x in a.data["grappling"] if x != d.id]
    d.data["grappling"] = [x for x in d.data.get("grappling", []) if x != a.id]
    ctx.event("grapple", f"{a.name} and {d.name} are no longer grappling", id=a.id, target=d.id)


def touch(ctx: Context) -> None:
    """``rb.touch {id, ally}``: "If you ... are touched by an ally who is not in High Stealth, you revert to
    Medium Stealth, or to Low Stealth if the other character is Low." """
    a = ctx.combatant()
    b = other(ctx, "ally", a)
    for x, y in ((b, a), (a, b)):
        if x.data.get("stealth") == "high" and y.data.get("stealth") != "high":
            set_stealth(ctx, x, y.data.get("stealth", "low"), f"touched by {y.name}")
    ctx.event("touch", f"{a.name} touches {b.name}", id=a.id, ally=b.id)


def knockdown(ctx: Context) -> None:
    """``rb.knockdown {id, stop_flying?}``: anything that inflicts a knockdown. Flying: minor stunned until the
    end of the next turn (or, at engagement altitude, ``stop_flying: true`` to land knocked down);
    underwater: immune, but removed from a mount; mounted: knocked off (a fall from a 400+ WGT or flying
    mount); a mount knocked down throws its rider."""
    c = ctx.combatant()
    knock_down(ctx, c, tables_of(ctx), "knockdown", stop_flying=flag(ctx.action, "stop_flying"))


def status(ctx: Context) -> None:
    """``rb.status {id, status, on?, rounds?, ends?}``: a status with a duration. ``ends``: ``before_turn``
    (default: ends right before this combatant's turn ``rounds`` rounds later) or ``after_turn`` (until the
    end of its ``rounds``-th next turn). Incapacitated or paralyzed flyers fall; a mount incapacitated
    throws its rider (knocked down)."""
    c = ctx.combatant()
    st = pick(ctx.action, "status", STATUSES)
    on = flag(ctx.action, "on", True)
    enc, t = ctx.enc, tables_of(ctx)
    if not on:
        if not cond_off(c, st):
            raise RuleViolation("Statuses", f"{c.name} is not {st}")
        ctx.event("condition", f"{c.name} is no longer {st}", id=c.id, condition=st, on=False)
        return
    rounds = ctx.action.get("rounds")
    if ctx.action.get("ends") is not None and rounds is None:
        pick(ctx.action, "ends", ("before_turn", "after_turn"))
        raise InvalidAction("ends", "when a duration ends needs its length: give the rounds")
    if st == "knocked-down":
        knock_down(ctx, c, t, "status set by the GM")
        return
    if rounds is not None:
        rounds = whole(rounds, "rounds", 1, 1000)
        add_duration(enc, c, st, pick(ctx.action, "ends", ("before_turn", "after_turn"), "before_turn"), rounds)
    elif not cond_on(c, st):
        raise RuleViolation("Statuses", f"{c.name} is already {st}")
    ctx.event("condition", f"{c.name} is now {st}" + (f" for {rounds} round(s)" if rounds else ""), id=c.id,
              condition=st, on=True)
    after_status(ctx, c, st, t)


def after_status(ctx: Context, c: Combatant, st: str, t: rules.Tables) -> None:
    enc = ctx.enc
    if st in ("incapacitated", "paralyzed", "dead"):
        if rules.is_flying(enc, c):
            fall(ctx, c, t, f"{st} while flying")
        r = rules.rider_of(enc, c)
        if r is not None:
            knock_down(ctx, r, t, f"their mount {c.name} is {st}")


def cannot_see(ctx: Context) -> None:
    """``rb.cannot_see {id, target, on?}``: the GM marks that ``id`` cannot see ``target`` for a reason the
    map does not know (a smoke cloud, a cloaking device). The visibility projection uses it."""
    c = ctx.combatant()
    o = other(ctx, "target", c)
    on = flag(ctx.action, "on", True)
    cur = [x for x in c.data.get("cannot_see", []) if x != o.id]
    c.data["cannot_see"] = cur + ([o.id] if on else [])
    ctx.event("sight", f"{c.name} {'cannot' if on else 'can again'} see {o.name}", id=c.id, target=o.id)


def carry_light(ctx: Context) -> None:
    """``rb.light {id, light}``: the light source carried (none, dim, moderate, bright, extreme). Carrying
    one reverts to Low Stealth (a dim one not in High Light)."""
    c = ctx.combatant()
    from .combatant import LIGHTS
    c.data["light"] = pick(ctx.action, "light", LIGHTS)
    t = tables_of(ctx)
    ctx.event("light", f"{c.name} carries {'no light' if c.data['light'] == 'none' else 'a ' + c.data['light'] + ' light'}",
              id=c.id)
    if rules.light_forces_low(ctx.enc, c, t) and c.data.get("stealth") != "low":
        set_stealth(ctx, c, "low", f"carrying a {c.data['light']} light source", lock=True)


# -- resolution --------------------------------------------------------------------------------------------

def _find(enc: Encounter, ref: Any, field: str = "ref") -> tuple[str, int]:
    if not isinstance(ref, str):
        raise InvalidAction(field, "must name a pending roll (R1, R2, ...) or a prompt (P1, P2, ...)")
    for key in ("pending", "prompts"):
        for i, p in enumerate(enc.state.get(key, [])):
            if p["ref"] == ref:
                return key, i
    raise InvalidAction(field, f"there is no pending roll or prompt {ref!r}")


def dismiss(ctx: Context) -> None:
    """``rb.dismiss {ref}``: drop a pending roll or a prompt (the GM settled it by hand)."""
    key, i = _find(ctx.enc, ctx.action.get("ref"))
    p = ctx.enc.state[key].pop(i)
    ctx.event("dismiss", f"{p['ref']} dismissed", ref=p["ref"])


def resolve(ctx: Context) -> None:
    """``rb.resolve {ref, success?, by?, blunder?}``: settle a pending roll with the GM's outcome, or (no
    ``success``) let Fray roll it by the default mechanic (roll ``roll``), then apply what the rules say."""
    key, i = _find(ctx.enc, ctx.action.get("ref"))
    if key != "pending":
        raise InvalidAction("ref", "a prompt has no roll: dismiss it when done")
    enc, t = ctx.enc, tables_of(ctx)
    p = enc.state["pending"][i]
    out = outcome_from_action(ctx.action)
    if out is not None and out["blunder"] and not p["spec"]["can_blunder"]:
        raise InvalidAction("blunder", f"{p['spec']['what']} cannot blunder")
    if out is None:
        out = roll_default(p["spec"], t["core_roll"], ctx.dice, "roll")
    enc.state["pending"].pop(i)
    c = enc.get(p["combatant"])
    ctx.event("roll", f"{p['ref']} {p['spec']['what']}: {'success' if out['success'] else 'failure'}"
              + (f" by {out['by']}" if out.get("by") is not None else "") + (" (blunder)" if out.get("blunder") else "")
              + f" — {out.get('text', '')}", ref=p["ref"], success=out["success"], by=out.get("by"),
              blunder=out.get("blunder", False))
    if c is None:
        return
    EFFECTS.get(p["kind"], lambda *a: None)(ctx, c, p, out, t)


def _eff_movement(ctx, c, p, out, t):
    apply_move(ctx, c, t, p["effect"], out)


def _eff_blind_knockdown(ctx, c, p, out, t):
    if not out["success"]:
        knock_down(ctx, c, t, "moving without sight")
        for q in list(ctx.enc.state.get("pending", [])):
            if q["kind"] == "movement" and q["combatant"] == c.id:
                ctx.enc.state["pending"].remove(q)
                ctx.event("move", f"{c.name}'s movement attempt ends early", id=c.id)


def _eff_enter_high(ctx, c, p, out, t):
    if out["success"]:
        why = rules.stealth_block(ctx.enc, c, "high", t)
        if why:
            raise RuleViolation("High Stealth", why)
        set_stealth(ctx, c, "high", "stealth roll succeeded")
        c.data["maintained_round"] = ctx.enc.round


def _eff_attacked(ctx, c, p, out, t):
    if not out["success"] and c.data.get("stealth") == "high":
        set_stealth(ctx, c, "medium", "failed the stealth roll after being attacked")


def _eff_offense(ctx, c, p, out, t):
    d = ctx.enc.get(p["effect"]["target"])
    if d is None or not out["success"]:
        return
    eff = p["effect"]
    dh = sum(x["count"] for x in (eff.get("defense") or {}).get("hindrance", []))
    ctx.event("attack", f"{c.name}'s {eff['weapon']} succeeds on its offense roll against {d.name}"
              + (f": a stealth attack, +{dh} Hindrance on {d.name}'s defense roll" if eff.get("stealth_attack") else "")
              + ("" if eff.get("competent", True) else " (incompetent attack)"), id=c.id, target=d.id,
              stealth_attack=bool(eff.get("stealth_attack")), defense_hindrance=dh, ref=p["ref"])
    if flag(ctx.action, "aoe_missed"):
        return  # "except for AoEs that miss you due to hit chance rolls"
    if d.data.get("stealth") == "high":
        spec = rules.stealth_spec(d, "d12", "Stealth roll after being attacked", t)
        spec.success = "stays in High Stealth"
        spec.failure = "reverts to Medium Stealth"
        pend(ctx, "attacked", d, spec)


def _eff_ambush(ctx, c, p, out, t):
    if out["success"]:
        c.data["ambush"] = {"round": ctx.enc.round, "unseen_by": list(p["effect"].get("unseen_by", []))}
        ctx.event("stealth", f"{c.name}'s ambush movement succeeds: unseen by those who could not see them, until "
                  "after their turn", id=c.id)
    else:
        c.data["ambush"] = None
        ctx.event("stealth", f"{c.name} is seen at once (ambush failed)", id=c.id)


def _eff_breath(ctx, c, p, out, t):
    b = dict(c.data.get("breath", {}))
    b["rolls"] = int(b.get("rolls", 0)) + 1
    if not out["success"]:
        b["out"] = True
        b["out_underwater"] = rules.underwater(ctx.enc)
        if rules.zone(ctx.enc)["air"] or c.data.get("amphibious") == "breathes":
            b.update(holding=False)
            ctx.event("breath", f"{c.name} is out of breath and unavoidably resumes breathing", id=c.id)
        else:
            b.update(holding=True)
            cond_on(c, "out-of-breath")
            cond_on(c, "major-stunned")
            ctx.event("breath", f"{c.name} is out of breath with no air: functions as major-stunned; 25% chance each "
                      "round of becoming incapacitated", id=c.id)
    c.data["breath"] = b


def _eff_breath_incap(ctx, c, p, out, t):
    if out["success"]:
        cond_on(c, "incapacitated")
        c.data["breath"] = {**c.data.get("breath", {}), "incapacitated_round": ctx.enc.round}
        ctx.event("condition", f"{c.name} is incapacitated by lack of air", id=c.id, condition="incapacitated")
        after_status(ctx, c, "incapacitated", t)


def _eff_breath_death(ctx, c, p, out, t):
    if out["success"]:
        cond_on(c, "dead")
        ctx.event("condition", f"{c.name} dies from lack of air (revivable)", id=c.id, condition="dead")


def _eff_restart(ctx, c, p, out, t):
    v = ctx.enc.get(p["effect"]["target"])
    if v is None:
        return
    b = dict(v.data.get("breath", {}))
    if out["success"]:
        b["restart_points"] = int(b.get("restart_points", 0)) + max(1, int(out.get("by", 0)))
    if b["restart_points"] >= int(p["effect"]["goal"]):
        b.update(needs_restart=False, out=False, holding=False, held=0, rolls=0, restart_points=0)
        cond_off(v, "out-of-breath")
        ctx.event("breath", f"{c.name} restarts {v.name}'s breathing", id=v.id)
    else:
        ctx.event("breath", f"{v.name}: {b.get('restart_points', 0)} of {p['effect']['goal']} points", id=v.id)
    v.data["breath"] = b


def _eff_detection(ctx, c, p, out, t):
    target = ctx.enc.get(p["effect"]["target"])
    if target is None:
        return
    ctx.event("detect", f"{c.name} {'sees' if out['success'] else 'does not see'} {target.name} (detection roll)",
              id=c.id, target=target.id, sees=out["success"])
    cur = [x for x in c.data.get("cannot_see", []) if x != target.id]
    if not out["success"]:
        cur.append(target.id)
    c.data["cannot_see"] = cur


EFFECTS = {
    "movement": _eff_movement, "blind_knockdown": _eff_blind_knockdown, "enter_high": _eff_enter_high,
    "attacked": _eff_attacked, "offense": _eff_offense, "ambush": _eff_ambush, "breath": _eff_breath,
    "breath_incap": _eff_breath_incap, "breath_death": _eff_breath_death, "restart": _eff_restart,
    "detection": _eff_detection,
}


HANDLERS = {
    "move": map_move,
    "remove_combatant": remove,
    "rb.turn_order": turn_order,
    "rb.zone": set_zone,
    "rb.mount": mount,
    "rb.dismount": dismount,
    "rb.fly": fly,
    "rb.move": move,
    "rb.descend": descend,
    "rb.stealth": stealth,
    "rb.maintain_stealth": maintain,
    "rb.act": act,
    "rb.attack": attack,
    "rb.grapple": grapple,
    "rb.release": release,
    "rb.touch": touch,
    "rb.knockdown": knockdown,
    "rb.status": status,
    "rb.cannot_see": cannot_see,
    "rb.light": carry_light,
    "rb.detect": detect,
    "rb.noise": noise,
    "rb.ambush": ambush,
    "rb.breath": breath,
    "rb.catch_breath": catch_breath,
    "rb.restart_breathing": restart_breathing,
    "rb.teleport": teleport,
    "rb.resolve": resolve,
    "rb.dismiss": dismiss,
    "rb.area": areas_mod.mark_area,
    "rb.clear_area": areas_mod.clear_area,
    "rb.end_battle": end_battle,
}
