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

Action types and fields are listed in ``py/fray/games/range_band/rules-trace.md`` (section "Actions"). This module
has the setup (turn order, the zone, mounts), a combatant leaving, the turn's other actions (``rb.act``)
and the registry ``HANDLERS``; the rest are where a reader looks for them: ``movement.py`` (the movement
phase and flight), ``attacks.py`` (attacks, stealth attacks, grapples), ``resolution.py`` (settling rolls
and what follows), ``statuses.py``, ``combat_stealth.py``, ``detection.py`` (detection, ambush, noise),
``breath.py``, ``teleport.py``, ``areas.py`` (obscuring areas), ``aftermath.py`` (the end of the battle).
"""

from __future__ import annotations

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter, Position
from fray.games.base import Context
from fray.games.range_band import rules
from fray.games.range_band import areas as areas_mod
from fray.games.range_band.aftermath import end_battle
from fray.games.range_band.attacks import attack, grapple, release
from fray.games.range_band.breath import breath, catch_breath, restart_breathing
from fray.games.range_band.combat_stealth import cannot_see, carry_light, maintain, stealth, touch
from fray.games.range_band.combatant import BANDS, STEALTH, whole
from fray.games.range_band.detection import ambush, detect, noise
from fray.games.range_band.movement import descend, fly, map_move, move
from fray.games.range_band.resolution import dismiss, resolve
from fray.games.range_band.rolls import RollSpec
from fray.games.range_band.statuses import knockdown, status
from fray.games.range_band.teleport import teleport
from fray.games.range_band.state_edits import (
    tables_of, flag, pick, other, able, set_stealth, pend, unmount, knock_down, fall, use_action, take_fatigue,
)

ACTION_SIZES = ("major", "minor", "free", "slowing", "process")


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
    if not rules.able(m):
        # Falling Off Mounts: "If your mount is incapacitated or knocked down, you are also knocked down; you are no
        # longer considered mounted"
        out = ", ".join(x for x in rules.OUT if x in m.conditions)
        raise RuleViolation("Falling Off Mounts", f"{m.name} is out of the fight ({out}): the rider of an "
                            "incapacitated mount is no longer considered mounted")
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


# -- who is in the fight, and the turn's other actions ---------------------------------------------------

def remove(ctx: Context) -> None:
    """The core ``remove_combatant``, then no one keeps pointing at the one who left: its rider or mount is
    unmounted, grapples and sight marks end, its pending rolls and prompts go."""
    from fray.reducer import CORE_ACTIONS
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
    able(c, "", "act")
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
        if rules.underwater(enc, c) and c.data.get("amphibious") != "breathes":
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
