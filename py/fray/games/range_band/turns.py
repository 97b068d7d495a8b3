"""Whose slot it is stays whose slot it is: the order of play holds only those still in the fight, so
a death, a removal or a new combatant moves every later slot by one, and ``enc.turn`` (an index)
would hand the turn to someone else without a word, and the next Next would skip a live combatant's
turn (issue 32: "The fallen keep acting", "Next never loses an action").

``KeepTurn`` is the ruleset's table of handlers: every handler but ``advance`` (range-band's own and
the core ones it lets through) runs inside ``keep_turn``, which puts ``enc.turn`` back on the same
combatant afterwards. When the one whose slot it was falls (dead, incapacitated, paralyzed) or leaves,
their slot is over: the next one in turn order has it, and in the action phase their turn begins, said
in the log. Also ``rb.roll_turn_order`` (every turn order in one tap) and ``rb.bring_back`` (the GM
returns a fallen combatant to the fight).

Part of the range-band handlers; ``actions.py`` states their conventions (all input read and checked
before the draft is edited; only ``InvalidAction`` and ``RuleViolation``)."""

from __future__ import annotations

from typing import Any, Callable

from fray.errors import InvalidAction, RuleViolation
from fray.games.base import Context, possessive
from fray.games.range_band import rules

Handler = Callable[[Context], None]
TURN_DICE = ("d6", "d8", "d10", "d12", "d20", "d100")
TURN_STATS = ("", "DEX", "INT", "SPD")


def slot_ids(ctx: Context) -> list[str]:
    return [s.combatant_id for s in ctx.ruleset.order_of_play(ctx.enc)]


def keep_turn(handler: Handler) -> Handler:
    def run(ctx: Context) -> None:
        enc = ctx.enc
        phase, rnd = enc.phase, enc.round
        before = slot_ids(ctx) if phase in ("movement", "actions") else []
        cur = before[enc.turn] if 0 <= enc.turn < len(before) else None
        handler(ctx)
        close_for_fallen(ctx)
        if cur is None or enc.phase != phase or enc.round != rnd:
            return
        after = slot_ids(ctx)
        if after == before:
            return
        if cur in after:
            enc.turn = after.index(cur)
            return
        # cur fell or left in their own slot: the slot is over, the next one still in the fight has it
        later = [x for x in before[before.index(cur) + 1:] if x in after]
        enc.turn = after.index(later[0]) if later else len(after)
        gone = enc.peek_at(cur)
        who = gone.name if gone is not None else "the acting combatant"
        if not later:
            ctx.event("turn", f"{who} is out of the fight: their {'movement' if phase == 'movement' else 'turn'} "
                      f"ends; Next goes on", id=cur)
            return
        nxt = enc.get(later[0])
        ctx.event("turn", f"{who} is out of the fight: their {'movement' if phase == 'movement' else 'turn'} "
                  f"ends, and {possessive(nxt.name)} begins", id=cur)
        if phase == "actions":
            ctx.ruleset.start_turn(ctx, nxt, ctx.ruleset.all_tables(enc))
    run.__doc__ = handler.__doc__
    return run


# Notes of the moment, with no roll of their own: a stealth attack's may-an-ally-warn paragraphs, a call for a
# detection roll, a noise that may deafen. They close when the one they are about falls, and at the end of the
# round they were raised in (``expire_notes``), each with a logged line; a fall or a teleport prompt stays
# until the GM is done with it.
MOMENT = {"warning": "the warning note of a stealth attack", "detection": "the call for a detection roll",
          "noise": "the note on a deafening noise"}


def close_for_fallen(ctx: Context) -> None:
    """A note of the moment about someone now out of the fight (dead, incapacitated, paralyzed) closes, logged:
    a stealth attack's warning note stayed open for rounds after its target died (issue 33)."""
    enc = ctx.enc
    notes = list.__iter__(dict.get(enc.state, "prompts") or [])  # only read unless one closes
    moot = []
    for p in notes:
        c = enc.peek_at(p.get("combatant", ""))
        if p.get("kind") in MOMENT and c is not None and any(x in c.conditions for x in rules.OUT):
            moot.append((p, c))
    if not moot:
        return
    refs = {p["ref"] for p, _ in moot}
    enc.state["prompts"] = [p for p in enc.state["prompts"] if p["ref"] not in refs]
    for p, c in moot:
        out = ", ".join(x for x in rules.OUT if x in c.conditions)
        ctx.event("dismiss", f"{p['ref']} closed: {c.name} is out of the fight ({out}), so {MOMENT[p['kind']]} "
                  "no longer applies", ref=p["ref"], id=c.id)


def expire_notes(ctx: Context) -> None:
    """At the end of a round, the notes of the moment raised in it that the GM left open expire, logged in one
    line (they need no roll, so they never hold up a Next)."""
    enc = ctx.enc
    old = [p for p in list.__iter__(dict.get(enc.state, "prompts") or [])
           if p.get("kind") in MOMENT and int(p.get("round", 0)) < enc.round]
    if not old:
        return
    refs = {p["ref"] for p in old}
    enc.state["prompts"] = [p for p in enc.state["prompts"] if p["ref"] not in refs]
    said = []
    for p in old:
        c = enc.peek_at(p.get("combatant", ""))
        # named by what it is and whom it is about, not by its label: the panel no longer shows it
        said.append(f"{MOMENT[p['kind']]}{f' ({c.name})' if c else ''}")
    left = "left as they were" if len(said) > 1 else "left as it was"
    ctx.event("dismiss", f"End of round {enc.round - 1}: {'; '.join(said)} expired, {left} (no roll "
              "was asked)", refs=sorted(refs))


class KeepTurn(dict):
    """The ruleset's handlers, each looked up through ``keep_turn`` (and the core ones too, but Next)."""

    def get(self, key: Any, default: Any = None) -> Any:
        h = dict.get(self, key)
        if h is None:
            from fray.reducer import CORE_ACTIONS
            h = CORE_ACTIONS.get(key)
        if h is None:
            return default
        return h if key == "advance" else keep_turn(h)


# -- the GM's actions ----------------------------------------------------------------------------------

def roll_turn_order(ctx: Context) -> None:
    """``rb.roll_turn_order {die?, stat?, all?}``: every combatant without a turn-order value (``all``: every
    combatant) gets one, rolled through the dice tray (``turn.<id>``: the GM's typed faces win), plus the
    stat if one is named. The rule text gives no turn-order roll: the die (d20) is Fray's assumption,
    and each value stays typeable (``rb.turn_order``). A rider keeps its own value (it has no movement
    slot; its turn is its own)."""
    enc = ctx.enc
    die = ctx.action.get("die", "d20")
    if die not in TURN_DICE:
        raise InvalidAction("die", f"must be one of {', '.join(TURN_DICE)}")
    stat = ctx.action.get("stat", "") or ""
    if stat not in TURN_STATS:
        raise InvalidAction("stat", f"must be one of {', '.join(x for x in TURN_STATS if x)} or none")
    every = ctx.action.get("all", False)
    if not isinstance(every, bool):
        raise InvalidAction("all", "must be true or false")
    # the fallen take no turn ("each character takes one turn in turn order"; a GM's play-through: the dead horse
    # was given one)
    who = [c for c in enc.peek() if rules.able(c) and (every or c.data.get("turn_value") is None)]
    if not who:
        raise RuleViolation("", "everyone in the fight already has a turn order (type a value to change one)")
    said = []
    for each in who:
        c = enc.get(each.id)
        r = ctx.dice.roll(f"turn.{c.id}", f"1D{die[1:]}")
        bonus = int(c.stats.get(stat, 0)) if stat else 0
        c.data["turn_value"] = r.total + bonus
        said.append(f"{c.name} {r.total + bonus}")
    ctx.event("order", f"Turn order rolled ({die}{' + ' + stat if stat else ''}, assumed): " + ", ".join(said),
              ids=[c.id for c in who])


def bring_back(ctx: Context) -> None:
    """``rb.bring_back {id}``: the GM brings a fallen combatant back into the fight (a revived death from lack
    of air, a misread roll): dead, incapacitated and paralyzed come off, with the log saying so."""
    c = ctx.combatant()
    off = [x for x in rules.OUT if x in c.conditions]
    if not off:
        raise RuleViolation("", f"{c.name} is still in the fight")
    from fray.games.range_band.state_edits import cond_off
    for x in off:
        cond_off(c, x)
    ctx.event("condition", f"{c.name} is back in the fight (no longer {', '.join(off)})", id=c.id, on=False)
