"""Post-Combat Fatigue & Trauma: the "End the battle" action and its assumed charts.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``)."""

from __future__ import annotations

from fray.errors import InvalidAction, RuleViolation
from fray.games.base import Context
from fray.games.range_band import rules
from fray.games.range_band.combatant import whole
from fray.games.range_band.state_edits import tables_of, flag


ACTIVITY = ("idle", "light", "moderate", "heavy")
INVOLVEMENT = ("none", "witness", "combatant", "front line")


def end_battle(ctx: Context) -> None:
    """``rb.end_battle {activity: {id: level}, involvement: {id: level}, rounds?, wave?}``: proposes
    post-combat fatigue (by activity and battle length) and trauma (by involvement and length) per
    combatant from the assumed charts, stores them in ``enc.state["battle_end"]`` and ends the battle
    (phase ``ended``). ``wave: true``: past 24 rounds, assign between waves without ending."""
    enc, t = ctx.enc, tables_of(ctx)
    acts = ctx.action.get("activity", {})
    invs = ctx.action.get("involvement", {})
    if not isinstance(acts, dict):
        raise InvalidAction("activity", "must map combatant ids to idle, light, moderate or heavy")
    if not isinstance(invs, dict):
        raise InvalidAction("involvement", "must map combatant ids to none, witness, combatant or front line")
    for field, m in (("activity", acts), ("involvement", invs)):
        for k in m:
            if enc.get(k) is None:
                raise InvalidAction(f"{field}.{k}", f"there is no combatant {k!r}")
    act_keys = [e["activity"] for e in t["fatigue"]["entries"]]
    inv_keys = [e["involvement"] for e in t["trauma"]["entries"]]
    for k, v in acts.items():
        if v not in act_keys:
            raise InvalidAction(f"activity.{k}", f"must be one of {', '.join(act_keys)}")
    for k, v in invs.items():
        if v not in inv_keys:
            raise InvalidAction(f"involvement.{k}", f"must be one of {', '.join(inv_keys)}")
    rounds = whole(ctx.action.get("rounds", enc.round), "rounds", 1, 100000)
    wave = flag(ctx.action, "wave")
    waves = rules.const(t, "battle_waves_rounds")
    if wave and rounds <= waves:
        raise RuleViolation("Post-Combat Fatigue & Trauma", f"fatigue between waves is for battles longer than "
                            f"{waves} rounds (2 minutes)")
    out = []
    for c in enc.combatants:
        a = acts.get(c.id, act_keys[min(2, len(act_keys) - 1)])
        inv = invs.get(c.id, inv_keys[min(2, len(inv_keys) - 1)])
        f = rules.fatigue_for(t, "fatigue", "activity", a, rounds)
        tr = rules.fatigue_for(t, "trauma", "involvement", inv, rounds)
        out.append({"id": c.id, "name": c.name, "activity": a, "involvement": inv, "fatigue": f, "trauma": tr})
        c.data["post_combat"] = {"fatigue": int(c.data.get("post_combat", {}).get("fatigue", 0)) + f,
                                 "trauma": int(c.data.get("post_combat", {}).get("trauma", 0)) + tr}
    enc.state["battle_end"] = {"rounds": rounds, "wave": wave, "proposals": out,
                               "note": "the party may usually take a 2-minute rest" + (
                                   f"; over {waves} rounds: post-combat fatigue may be assigned between waves"
                                   if rounds > waves else ""),
                               "assumed": True}
    if not wave:
        enc.phase = "ended"
    ctx.event("battle_end", ("Between waves" if wave else "The battle ends") + f" after {rounds} rounds: " +
              "; ".join(f"{x['name']} fatigue {x['fatigue']}, trauma {x['trauma']}" for x in out), rounds=rounds)
