"""Statuses with durations and knockdowns, and what follows from them: a flyer who is incapacitated falls,
a mount that is throws its rider (Statuses, Flight, Falling Off Mounts).

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and
checked before the draft is edited; only ``InvalidAction`` and ``RuleViolation``) and keeps the
registry of action types (``HANDLERS``)."""

from __future__ import annotations

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant
from fray.games.base import Context, counted
from fray.games.range_band import rules
from fray.games.range_band.combatant import whole
from fray.games.range_band.state_edits import tables_of, flag, pick, cond_on, cond_off, add_duration, knock_down, fall


STATUSES = ("knocked-down", "minor-stunned", "major-stunned", "blinded", "deafened", "incapacitated", "paralyzed",
            "dead", "restrained", "out-of-breath")
# The names a save keeps are hyphenated; the screen and the log say them as the rule text does ("If you are
# currently knocked down", "a minor stunned status", "functions as major stunned", "out of breath").
WORDS = {"knocked-down": "knocked down", "minor-stunned": "minor stunned", "major-stunned": "major stunned",
         "out-of-breath": "out of breath"}


def word(status: str) -> str:
    """A status in the GM's words (``WORDS``)."""
    return WORDS.get(status, status)


def knockdown(ctx: Context) -> None:
    """``rb.knockdown {id, stop_flying?}``: anything that inflicts a knockdown. Flying: minor stunned until the
    end of the next turn (or, at engagement altitude, ``stop_flying: true`` to land knocked down);
    underwater: immune, but removed from a mount; mounted: knocked off (a fall from a 400+ WGT or flying
    mount); a mount knocked down throws its rider."""
    c = ctx.combatant()
    knock_down(ctx, c, tables_of(ctx), "", stop_flying=flag(ctx.action, "stop_flying"))  # not "knocked down (knockdown)"


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
            raise RuleViolation("", f"{c.name} is not {word(st)}")
        ctx.event("condition", f"{c.name} is no longer {word(st)}", id=c.id, condition=st, on=False)
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
        raise RuleViolation("", f"{c.name} is already {word(st)}")
    ctx.event("condition", f"{c.name} is now {word(st)}" + (f" for {counted(rounds, 'round')}" if rounds else ""), id=c.id,
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
