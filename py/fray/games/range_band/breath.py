"""Holding breath underwater: the breath counter, catching breath and restarting breathing (Holding Breath).

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``)."""

from __future__ import annotations

from fray.errors import RuleViolation
from fray.games.base import Context, possessive
from fray.games.range_band import rules
from fray.games.range_band.rolls import RollSpec
from fray.games.range_band.state_edits import tables_of, flag, other, cond_off, pend, use_action


def breath(ctx: Context) -> None:
    """``rb.breath {id, holding, idle?}``: "Characters decide whether they are holding their breath at the
    beginning of their turn"; ``idle`` (focused, not exerting): 8 rounds before CON rolls, rolls every 2."""
    c = ctx.combatant()
    holding = flag(ctx.action, "holding", True)
    idle = flag(ctx.action, "idle")
    b = dict(c.data.get("breath", {}))
    if not holding and not rules.breathes_here(ctx.enc, c):
        raise RuleViolation("Holding Breath", "there is no air here: the character cannot stop holding their breath")
    if holding and c.data.get("amphibious") == "breathes" and rules.underwater(ctx.enc, c):
        raise RuleViolation("Underwater Combat", f"{c.name} breathes underwater: there is no breath to hold")
    if holding and b.get("out"):
        raise RuleViolation("Holding Breath", f"{c.name} is out of breath")
    if holding and not b.get("holding") and not b.get("held"):
        b["held"] = 1  # the round in which one starts holding is the first of the 4 (until caught, it keeps counting)
    b.update(holding=holding, idle=idle if holding else False)
    c.data["breath"] = b
    ctx.event("breath", f"{c.name} {'holds their breath' + (' (idle)' if idle else '') if holding else 'breathes'}",
              id=c.id)


def catch_breath(ctx: Context) -> None:
    """``rb.catch_breath {id}``: fully catch one's breath (held breath lasts 4 rounds again, no Hindrance on the
    first CON roll): a minor action if not yet rolling on CON, a major action if rolling, 2 major actions if
    they ran out of breath (the second in the next turn: ``catching``), also once breathing has resumed
    (``ran_out``): resuming breathing is not catching one's breath."""
    c = ctx.combatant()
    enc, t = ctx.enc, tables_of(ctx)
    b = dict(c.data.get("breath", {}))
    if not rules.breathes_here(enc, c):
        raise RuleViolation("Holding Breath", "there is no air to catch one's breath")
    if b.get("needs_restart"):
        raise RuleViolation("Holding Breath", f"{possessive(c.name)} breathing must be restarted by another character")
    if b.get("out") or b.get("ran_out"):  # ran out of breath, breathing again or not: 2 major actions
        step = int(b.get("catching", 0)) + 1
        use_action(ctx, c, "major", f"catch breath ({step} of 2 major actions)", t)
        if step < 2:
            b["catching"] = step
            c.data["breath"] = b
            ctx.event("breath", f"{c.name} is catching their breath (1 of 2 major actions)", id=c.id)
            return
    elif b.get("rolls"):
        use_action(ctx, c, "major", "catch breath", t)
    else:
        use_action(ctx, c, "minor", "catch breath", t)
    b.pop("ran_out", None)  # caught: the breath is whole again
    c.data["breath"] = {**b, "holding": False, "idle": False, "held": 0, "rolls": 0, "out": False, "catching": 0,
                        "out_underwater": False}
    cond_off(c, "out-of-breath")
    if b.get("out"):
        cond_off(c, "major-stunned")  # it came from running out of breath
    ctx.event("breath", f"{c.name} catches their breath", id=c.id)


def restart_breathing(ctx: Context) -> None:
    """``rb.restart_breathing {id: helper, target}``: a process action rolled on CON with a point goal of 20
    plus the victim's AWGT; Conventional Medicine (Nature) gives a significant +TN (table constants,
    assumed +3). "Only one character at a time may attempt this assistance." """
    h = ctx.combatant()
    v = other(ctx, "target", h)
    enc, t = ctx.enc, tables_of(ctx)
    if not v.data.get("breath", {}).get("needs_restart"):
        raise RuleViolation("Holding Breath", f"{possessive(v.name)} breathing does not need restarting")
    for p in enc.state.get("pending", []):
        if p["kind"] == "restart" and p["effect"].get("target") == v.id and p["combatant"] != h.id:
            raise RuleViolation("Holding Breath", "only one character at a time may attempt this assistance")
    use_action(ctx, h, "major", f"restart {possessive(v.name)} breathing (process action)", t)
    goal = rules.const(t, "restart_goal_base") + rules.c_awgt(v)
    spec = RollSpec(f"Restart {possessive(v.name)} breathing (process, goal {goal} points)", "d20", "CON",
                    int(h.stats.get("CON", 0)), "Holding Breath",
                    success="adds the margin to the points (assumed); at the goal, breathing restarts",
                    failure="no points this time")
    if "conventional_medicine" in h.data.get("competencies", []):
        spec.tn.append(("Conventional Medicine (Nature)", rules.const(t, "conventional_medicine_tn")))
    pend(ctx, "restart", h, spec, {"target": v.id, "goal": goal})
