"""Settling pending rolls: ``rb.resolve`` with the GM's outcome (or the default mechanic, assumed), then what
the rules say follows, per kind of roll (``EFFECTS``: movement, offense, stealth, ambush, breath,
detection ...); ``rb.dismiss`` drops a roll or a prompt the GM settled by hand.

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``) and keeps the
registry of action types (``HANDLERS``)."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Encounter
from fray.games.base import Context, possessive
from fray.games.range_band import rules
from fray.games.range_band.attacks import close_warning
from fray.games.range_band.movement import apply_move, take_back
from fray.games.range_band.rolls import ASSUMED_AGAIN, ASSUMED_FIRST, outcome_from_action, roll_default
from fray.games.range_band.statuses import after_status
from fray.games.range_band.state_edits import tables_of, flag, cond_on, cond_off, set_stealth, pend, knock_down


def _find(enc: Encounter, ref: Any, field: str = "ref") -> tuple[str, int]:
    if not isinstance(ref, str):
        raise InvalidAction(field, "must name a pending roll (R1, R2, ...) or a prompt (P1, P2, ...)")
    for key in ("pending", "prompts"):
        # looking for it reads each entry, and edits none: in a draft, nothing is copied
        for i, p in enumerate(list.__iter__(dict.get(enc.state, key) or [])):
            if p["ref"] == ref:
                return key, i
    raise InvalidAction(field, f"there is no pending roll or prompt {ref!r}")


def dismiss(ctx: Context) -> None:
    """``rb.dismiss {ref}``: drop a pending roll or a prompt (the GM settled it by hand). ``{refs: [...]}``: several
    at once (the page's "Done all" for the notes that need no roll), one undo."""
    refs = ctx.action.get("refs")
    if refs is None:
        refs = [ctx.action.get("ref")]
    elif not isinstance(refs, list) or not refs or len(set(map(str, refs))) != len(refs):
        raise InvalidAction("refs", "must list the rolls or prompts to dismiss (P1, P2, ...), each once")
    for ref in refs:
        _find(ctx.enc, ref, "refs" if "refs" in ctx.action else "ref")  # all named before any goes
    for ref in refs:
        if not any(x.get("ref") == ref for k in ("pending", "prompts") for x in ctx.enc.state.get(k) or []):
            continue  # a warning note closed with its offense roll, dismissed together
        key, i = _find(ctx.enc, ref)
        p = ctx.enc.state[key].pop(i)
        if p.get("kind") == "offense":
            close_warning(ctx, p["ref"], "dismissed")
        c = ctx.enc.get(p["combatant"]) if p.get("kind") == "movement" else None
        if c is not None and take_back(c, p.get("effect") or {}):
            ctx.event("dismiss", f"{p['ref']} dismissed: {c.name} has not made this movement phase's movement roll",
                      ref=p["ref"], id=c.id)
            continue
        ctx.event("dismiss", f"{p['ref']} dismissed", ref=p["ref"])


def resolve(ctx: Context) -> None:
    """``rb.resolve {ref, success?, by?, blunder?}``: settle a pending roll with the GM's outcome, or (no
    ``success``) let Fray roll it by the default mechanic (roll ``roll``), then apply what the rules say."""
    key, i = _find(ctx.enc, ctx.action.get("ref"))
    if key != "pending":
        raise InvalidAction("ref", "a prompt has no roll: dismiss it when done")
    settle(ctx, i, outcome_from_action(ctx.action))


def settle(ctx: Context, i: int, out: dict[str, Any] | None) -> None:
    """Settle the ``i``-th pending roll with ``out`` (the GM's outcome), or ``None``: Fray rolls it by the default
    mechanic (roll ``roll``); then what the rules say follows. The first roll by the default mechanic in the
    encounter says in full that it is assumed, later ones in two words (``state.said_assumed``)."""
    enc, t = ctx.enc, tables_of(ctx)
    # the settled roll leaves the state as it was written and is only read: taken out uncopied
    p = list.__getitem__(enc.state["pending"], i)
    if out is not None and out["blunder"] and not p["spec"]["can_blunder"]:
        raise InvalidAction("blunder", f"{p['spec']['what']} cannot blunder")
    if out is None:
        out = roll_default(p["spec"], t["core_roll"], ctx.dice, "roll")
        out["text"] += ASSUMED_AGAIN if enc.state.get("said_assumed") else ASSUMED_FIRST
        enc.state["said_assumed"] = True
    del enc.state["pending"][i]
    c = enc.peek_at(p["combatant"]) if p["kind"] in ONLY_READ else enc.get(p["combatant"])
    ctx.event("roll", f"{p['ref']} {p['spec']['what']}: {'success' if out['success'] else 'failure'}"
              + (f" by {out['by']}" if out.get("by") is not None else "") + (" (blunder)" if out.get("blunder") else "")
              + f" — {out.get('text', '')}", ref=p["ref"], success=out["success"], by=out.get("by"),
              blunder=out.get("blunder", False))
    if p["kind"] == "offense":
        close_warning(ctx, p["ref"], "rolled")
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
                ctx.event("move", f"{possessive(c.name)} movement attempt ends early", id=c.id, ref=q["ref"])


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
    d = ctx.enc.peek_at(p["effect"]["target"])  # only read, and named in its stealth roll
    if d is None or not out["success"]:
        return
    eff = p["effect"]
    dh = sum(x["count"] for x in (eff.get("defense") or {}).get("hindrance", []))
    # the hindrance's own reason names the warner, "stealth attack (warned by Lookout)" (a GM's play-through: the
    # line said +1 and not who warned)
    why = next((x["reason"] for x in (eff.get("defense") or {}).get("hindrance", [])
                if str(x.get("reason", "")).startswith("stealth attack")), "stealth attack")
    ctx.event("attack", f"{possessive(c.name)} {eff['weapon']} succeeds on its offense roll against {d.name}"
              + (f": a {why}, +{dh} Hindrance on {possessive(d.name)} defense roll" if eff.get("stealth_attack") else "")
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
        ctx.event("stealth", f"{possessive(c.name)} ambush movement succeeds: unseen by those who could not see them, until "
                  "after their turn", id=c.id)
    else:
        c.data["ambush"] = None
        ctx.event("stealth", f"{c.name} is seen at once (ambush failed)", id=c.id)


def _eff_breath(ctx, c, p, out, t):
    b = dict(c.data.get("breath", {}))
    b["rolls"] = int(b.get("rolls", 0)) + 1
    if not out["success"]:
        b["out"] = True
        b["out_underwater"] = rules.underwater(ctx.enc, c)
        if rules.breathes_here(ctx.enc, c):
            b.update(holding=False)
            ctx.event("breath", f"{c.name} is out of breath and unavoidably resumes breathing", id=c.id)
        else:
            b.update(holding=True)
            cond_on(c, "out-of-breath")
            cond_on(c, "major-stunned")
            ctx.event("breath", f"{c.name} is out of breath with no air: functions as major stunned; 25% chance each "
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
        # breathing again is not catching one's breath: that is still 2 major actions (``rb.catch_breath``)
        b.update(needs_restart=False, out=False, holding=False, restart_points=0, ran_out=True)
        cond_off(v, "out-of-breath")
        ctx.event("breath", f"{c.name} restarts {possessive(v.name)} breathing", id=v.id)
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


# what follows these rolls changes nothing on the one who rolled (an offense roll's success is the attack's
# event and maybe the target's stealth roll), so ``resolve`` reads them without copying them
ONLY_READ = ("offense",)

EFFECTS = {
    "movement": _eff_movement, "blind_knockdown": _eff_blind_knockdown, "enter_high": _eff_enter_high,
    "attacked": _eff_attacked, "offense": _eff_offense, "ambush": _eff_ambush, "breath": _eff_breath,
    "breath_incap": _eff_breath_incap, "breath_death": _eff_breath_death, "restart": _eff_restart,
    "detection": _eff_detection,
}
