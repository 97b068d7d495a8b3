"""Teleportation & Combat: range, precision and what each precision level leaves behind.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``)."""

from __future__ import annotations

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Position
from fray.games.base import Context
from fray.games.range_band import rules
from fray.games.range_band.combatant import BANDS
from fray.games.range_band.state_edits import tables_of, pick, ids_list, able, coords, prompt, use_action, fall


def landing(x: Combatant, old: Position, new: Position) -> Position:
    """Where a character brought along lands: at its offset from the teleporter, which must still be
    on the map (as the teleporter's own destination is); else the teleport is refused at the field the
    offset overflows, naming who would land off it, and nothing moves. A state the engine accepts must
    load again, and the load refuses a position off the map."""
    from fray.reducer import MAX_ALT, MAX_COORD
    at = Position(new.x + (x.position.x - old.x), new.y + (x.position.y - old.y),
                  max(0.0, new.alt + (x.position.alt - old.alt)))
    for field, v, lim in (("x", at.x, MAX_COORD), ("y", at.y, MAX_COORD), ("alt", at.alt, MAX_ALT)):
        if not -lim <= v <= lim:
            where = "altitude" if field == "alt" else f"{field} ="
            raise InvalidAction(field, f"{x.name}, brought along, would land at {where} {v:,.0f} m, off the map "
                                f"(at most {lim:,} m either way): teleport nearer")
    return at


def parted(ctx: Context, moved: list[Combatant], t: rules.Tables) -> None:
    """Mount and rider stand in one place: one teleported without the other is no longer mounted (a rider
    left in the air where its flying mount was falls)."""
    enc = ctx.enc
    ids = {x.id for x in moved}
    for x in moved:
        p = rules.partner(enc, x)
        if p is None or p.id in ids:
            continue
        rider, m = (x, p) if x.data.get("mount") == p.id else (p, x)
        rider.data["mount"] = None
        m.data["rider"] = None
        ctx.event("mount", f"{rider.name} is no longer mounted on {m.name}: the teleport parted them", id=rider.id,
                  mount=m.id)
        if rider.position.alt > 0 and not rider.data.get("flying"):
            fall(ctx, rider, t, f"left in the air where {m.name} was")


def teleport(ctx: Context) -> None:
    """``rb.teleport {id, x, y, alt, size: minor|major, range: band, precision: low|medium|high, bring?: ids,
    leave_items?}``: vertical range is always the same as horizontal. Low precision brings along everything
    attached (grappled enemies, touching allies: list them in ``attached``) and may fail (a prompt); neither
    low nor medium can escape restraints; high can leave anything behind."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    size = pick(ctx.action, "size", ("minor", "major"), "major")
    rng = pick(ctx.action, "range", BANDS)
    precision = pick(ctx.action, "precision", ("low", "medium", "high"))
    attached = ids_list(ctx, "attached", c)
    bring = ids_list(ctx, "bring", c)
    for x in attached:
        if x in bring:
            raise InvalidAction("attached", f"{x.name} is listed to be brought along already: list them once")
    new = coords(ctx, c)
    able(c, "Teleportation & Combat", "teleport")
    rb = rules.range_between(c.position, new, t)
    if rb["index"] > BANDS.index(rng):
        raise RuleViolation("Teleportation & Combat", f"the destination is at {rb['band']} range ({rb['why']}); this "
                            f"teleport reaches {rng} range, vertically as horizontally")
    if "restrained" in c.conditions and precision != "high":
        raise RuleViolation("Teleportation & Combat", f"{precision} precision cannot escape restraints")
    # who goes along is only looked at until every landing place is known to be on the map
    grappled = [g for x in c.data.get("grappling", []) if (g := enc.peek_at(x)) is not None]
    going = list(bring)
    if precision == "low":
        # a rider in the saddle is attached to its mount; the mount is what a rider sits on, which
        # "do not count as attached"
        rider = enc.peek_at(c.data["rider"]) if c.data.get("rider") else None
        for x in grappled + attached + ([rider] if rider is not None else []):
            if all(x.id != y.id for y in going):
                going.append(x)
    old = c.position
    lands = [(x, landing(x, old, new)) for x in going]
    use_action(ctx, c, size, f"teleport ({precision} precision)", t)
    c.position = new
    for x, at in lands:
        enc.get(x.id).position = at
    going = [enc.get(x.id) for x in going]
    parted(ctx, [c] + going, t)
    if precision != "low" or not going:
        for gid in list(c.data.get("grappling", [])):
            if enc.get(gid) not in going:
                g = enc.get(gid)
                c.data["grappling"].remove(gid)
                if g is not None:
                    g.data["grappling"] = [y for y in g.data.get("grappling", []) if y != c.id]
    ctx.event("teleport", f"{c.name} teleports ({precision} precision, {size} action) to ({new.x:g}, {new.y:g}) m, "
              f"altitude {new.alt:g} m" + (", bringing " + ", ".join(x.name for x in going) if going else ""),
              id=c.id, bring=[x.id for x in going])
    if precision == "low" and going:
        prompt(ctx, "teleport", c, f"Low precision teleport tries to bring {', '.join(x.name for x in going)} along "
               "and may therefore fail: the GM decides by the source's rules")
    if precision == "high" and going:
        prompt(ctx, "teleport", c, "characters brought along follow the medium precision rules (no separating them "
               "from their armour or items, nor freeing them from tight restraints)")
