"""Stealth levels the GM sets: Low, Medium and High Stealth and maintaining it, touch, light sources
carried, and the GM's "cannot see" marks (Combat Stealth, High Stealth, Light Sources, Lack of Sight).
Detection, ambush and noise are in ``detection.py``.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``) and keeps the
registry of action types (``HANDLERS``)."""

from __future__ import annotations

from fray.errors import RuleViolation
from fray.games.base import Context
from fray.games.range_band import rules
from fray.games.range_band.combatant import STEALTH
from fray.games.range_band.state_edits import tables_of, flag, pick, other, set_stealth, pend, use_action


def stealth(ctx: Context) -> None:
    """``rb.stealth {id, level}``: Low (free, any time), Medium (free, from Low, no roll), High (a major
    action from Medium: a pending d20 stealth roll on DEX, −TN half of WGT, rounded down). ``start: true`` in setup:
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
        # the sentence's own heading: "Mounted characters and mounts cannot use High Stealth" is High Stealth's
        heading = ("Large Creatures & Vehicles" if rules.AWGT_WORD in why else
                   "High Stealth" if level == "high" and (rules.is_mounted(c) or c.data.get("rider")) else "Combat Stealth")
        raise RuleViolation(heading, why)
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


def touch(ctx: Context) -> None:
    """``rb.touch {id, ally}``: "If you ... are touched by an ally who is not in High Stealth, you revert to
    Medium Stealth, or to Low Stealth if the other character is Low." """
    a = ctx.combatant()
    b = other(ctx, "ally", a)
    for x, y in ((b, a), (a, b)):
        if x.data.get("stealth") == "high" and y.data.get("stealth") != "high":
            set_stealth(ctx, x, y.data.get("stealth", "low"), f"touched by {y.name}")
    ctx.event("touch", f"{a.name} touches {b.name}", id=a.id, ally=b.id)


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
    from fray.games.range_band.combatant import LIGHTS
    c.data["light"] = pick(ctx.action, "light", LIGHTS)
    t = tables_of(ctx)
    ctx.event("light", f"{c.name} carries {'no light' if c.data['light'] == 'none' else 'a ' + c.data['light'] + ' light'}",
              id=c.id)
    if rules.light_forces_low(ctx.enc, c, t) and c.data.get("stealth") != "low":
        set_stealth(ctx, c, "low", f"carrying a {c.data['light']} light source", lock=True)
