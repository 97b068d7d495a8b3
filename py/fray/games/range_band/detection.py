"""Detection rolls, ambush rolls and noise (Combat Stealth: Detection Rolls, Ambush Movement, Sound).

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``)."""

from __future__ import annotations

from fray.errors import InvalidAction, RuleViolation
from fray.games.base import Context, counted
from fray.games.range_band import rules
from fray.games.range_band.combatant import BANDS, whole
from fray.games.range_band.rolls import RollSpec
from fray.games.range_band.state_edits import tables_of, flag, pick, ids_list, add_duration, pend, prompt


def detect(ctx: Context) -> None:
    """``rb.detect {id, observers?, die?}``: "resolved by a detection roll by everyone who may or may not see
    the stealthy character. By default, this detection roll is a d20 on INT, and is a blind roll; the die
    may be altered by the GM." One pending blind roll per observer (default: every opponent)."""
    c = ctx.combatant()
    chosen = ids_list(ctx, "observers", c)
    for o in chosen:
        if not rules.able(o):
            raise InvalidAction("observers", f"{o.name} is out of the fight and makes no detection roll")
    obs = chosen or [o for o in ctx.enc.combatants if o.side != c.side and rules.able(o)]
    die = pick(ctx.action, "die", ("d6", "d10", "d12", "d20"), "d20")
    if not obs:
        raise InvalidAction("observers", "nobody to make a detection roll")
    for o in obs:
        spec = RollSpec(f"Detection roll: does {o.name} see {c.name}?", die, "INT", int(o.stats.get("INT", 0)),
                        "Detection Rolls", blind=True, success=f"{o.name} sees {c.name}",
                        failure=f"{o.name} does not see {c.name}")
        pend(ctx, "detection", o, spec, {"target": c.id})


def ambush(ctx: Context) -> None:
    """``rb.ambush {id}``: Ambush Movement, after a successful movement of at least short range. Needs the
    round begun in High Stealth, not flying; the d20 stealth roll has 2 Hindrance if the move rushed."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    start = enc.state.get("round_start", {}).get(c.id, {})
    if start.get("stealth") != "high":
        raise RuleViolation("Ambush Movement", "to use ambush movement you must begin a round already in High Stealth")
    if rules.is_flying(enc, c) or start.get("flying"):
        raise RuleViolation("Ambush Movement", "ambush movement cannot be utilized while flying")
    mv = c.data.get("moved") or {}
    if mv.get("round") != enc.round or not mv.get("success"):
        raise RuleViolation("Ambush Movement", "you must succeed on a movement roll this round first")
    if BANDS.index(mv.get("band", "engaged")) < BANDS.index("short"):
        raise RuleViolation("Ambush Movement", "the movement must move you at least short range")
    hind = [("rushed during the movement", rules.const(t, "ambush_rush_hindrance"))] if mv.get("rushed") else []
    spec = rules.stealth_spec(c, "d20", "Stealth roll (ambush movement)", t, hind)
    spec.rule = "Ambush Movement"
    spec.success = "those who could not see you at the start of the round do not see you until after your turn"
    spec.failure = "seen at once at the range your stealth level gives"
    pend(ctx, "ambush", c, spec, {"unseen_by": list(start.get("unseen_by", []))})


def noise(ctx: Context) -> None:
    """``rb.noise {id: source, audible?: band, deafen?: bool, deafen_rounds?}``: a sound unrelated to movement.
    "If any rule describes an action making noise, but no audible range is given, consider the audible range
    to be medium"; animals and Adlet hear it one range further. A noise audible at travel range in an
    enclosed zone "may deafen characters for 1 round" (``deafen: true`` applies it; a given duration is
    doubled in such a place)."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    band = pick(ctx.action, "audible", BANDS, "medium")
    deafen = flag(ctx.action, "deafen")
    rounds = whole(ctx.action.get("deafen_rounds", 1), "deafen_rounds", 1, 100)
    heard = []
    for o in enc.peek():  # only looks: copies no combatant
        if o.id == c.id or "deafened" in o.conditions:
            continue
        reach = BANDS.index(band) + (1 if o.data.get("kind") == "animal" or o.data.get("hears_far") else 0)
        if rules.range_between(c.position, o.position, t)["index"] <= reach:
            heard.append(o)
    ctx.event("noise", f"A noise from {c.name}, audible at {band} range: heard by "
              + (", ".join(o.name for o in heard) or "nobody"), id=c.id, heard=[o.id for o in heard])
    if band == "travel" and rules.zone(enc)["enclosed"]:
        if deafen:
            n = rounds * 2 if "deafen_rounds" in ctx.action else 1
            for o in enc.combatants:
                if o.id != c.id:
                    add_duration(enc, o, "deafened", "before_turn", n)
            ctx.event("condition", f"Everyone in the enclosed zone is deafened for {counted(n, 'round')}")
        else:
            prompt(ctx, "noise", c, "a travel-range noise in an enclosed zone may deafen characters for 1 round (a "
                   "rule's own deafening duration is doubled here): set deafen if it does")
    elif deafen:
        raise RuleViolation("Sound", "only a noise audible at travel range, in an enclosed zone, deafens by this rule")
