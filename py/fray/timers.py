"""Conditions with durations that expire on their own (issue 10, "Conditions with durations").

A GM puts a condition on a combatant "for 2 rounds" or "until the end of the wolf's next turn";
Fray takes it off when that time comes, as part of the action that brought it (so Undo puts it
back), and says so in the log.

Where they are kept: ``Encounter.state["timers"]``, the one key of the ruleset's state dict that
the core owns, a list of plain records::

    {"id": "c3", "condition": "stunned", "kind": "rounds", "rounds": 2, "from_round": 4}
    {"id": "c3", "condition": "blinded", "kind": "turn_end", "of": "c1", "armed": false}

Kinds:
- ``rounds``: for N rounds, the round it was set in counting as the first. Where a ruleset counts
  durations by turns (``Ruleset.round_durations_end == "before_own_turn"``, range-band: "a 1-round
  effect ends right before that character's next turn", FACTS.md) it ends right before the
  holder's turn once round ``from_round + N`` has come; otherwise (and for a holder who gets no
  turn that round) when round ``from_round + N`` begins.
- ``turn_start``: until the start of a combatant's next turn.
- ``turn_end``: until the end of a combatant's next turn: armed when that turn starts (a turn under
  way when it is set is not the "next" one), ended when the armed turn ends.
Turn kinds need a ruleset whose combatants take turns (``Ruleset.turn_of``); strike-rank runs on
strike ranks and tactical-round on phases, so there a duration is a number of rounds.

The reducer calls ``after_action`` after every handler, comparing the encounter before and after:
only the two ends of an action are seen, which is enough because every "next" moves at most one
turn (a ruleset that passes several turns in one action ends only the timers of the last).
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidAction
from .model import Combatant, Encounter

KEY = "timers"
KINDS = ("rounds", "turn_start", "turn_end")
MAX_ROUNDS = 1000  # more than any fight; a bigger number is a typing slip


def timers(enc: Encounter) -> list[dict[str, Any]]:
    return enc.state.get(KEY, [])


def of_combatant(enc: Encounter, cid: str, cond: str) -> dict[str, Any] | None:
    return next((t for t in timers(enc) if t["id"] == cid and t["condition"] == cond), None)


def parse_lasts(enc: Encounter, ruleset: Any, holder: Combatant, raw: Any) -> dict[str, Any] | None:
    """The action's ``lasts`` field: absent or null (until removed), ``{"rounds": N}``, or
    ``{"until": "turn_start" | "turn_end", "of": combatant id}``. Errors name the field."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidAction("lasts", 'must be {"rounds": N} or {"until": "turn_start" or "turn_end", "of": id}')
    if "rounds" in raw:
        if set(raw) != {"rounds"}:
            raise InvalidAction("lasts", "a number of rounds takes nothing else")
        n = raw["rounds"]
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n):
            raise InvalidAction("lasts.rounds", "must be a whole number of rounds")
        if not 1 <= n <= MAX_ROUNDS:
            raise InvalidAction("lasts.rounds", f"must be from 1 to {MAX_ROUNDS}")
        return {"id": holder.id, "kind": "rounds", "rounds": int(n), "from_round": enc.round}
    until = raw.get("until")
    if until not in ("turn_start", "turn_end") or set(raw) - {"until", "of"}:
        raise InvalidAction("lasts.until", 'must be "turn_start" or "turn_end" (or give "rounds")')
    if not ruleset.has_turns:
        raise InvalidAction("lasts.until", f"in {ruleset.name} combatants take no turns: give a number of rounds")
    of = raw.get("of", holder.id)
    if not isinstance(of, str) or enc.get(of) is None:
        raise InvalidAction("lasts.of", f"there is no combatant {of!r} in this encounter")
    return {"id": holder.id, "kind": until, "of": of, "armed": False}


def set_timer(enc: Encounter, cond: str, timer: dict[str, Any] | None) -> None:
    """Put (or replace, or with ``None`` drop) the timer of ``timer["id"]``'s ``cond``."""
    if timer is None:
        return
    keep = [t for t in timers(enc) if not (t["id"] == timer["id"] and t["condition"] == cond)]
    enc.state[KEY] = keep + [{**timer, "condition": cond}]


def drop(enc: Encounter, cid: str, cond: str) -> None:
    if KEY in enc.state:
        enc.state[KEY] = [t for t in timers(enc) if not (t["id"] == cid and t["condition"] == cond)]


def forget_combatant(enc: Encounter, cid: str) -> list[dict[str, Any]]:
    """A combatant leaves: its own timers go, and timers waiting for its turn can never end, so
    they go too (the condition stays until removed). Returns the latter, for the log."""
    if KEY not in enc.state:
        return []
    orphaned = [t for t in timers(enc) if t.get("of") == cid and t["id"] != cid]
    enc.state[KEY] = [t for t in timers(enc) if t["id"] != cid and t.get("of") != cid]
    return orphaned


def describe(enc: Encounter, t: dict[str, Any], rounds_word: str = "round") -> str:
    """What is left of a timer, for the condition's chip: "2 rounds left", "until Wolf's next turn"."""
    if t["kind"] == "rounds":
        left = t["from_round"] + t["rounds"] - enc.round
        return f"{left} {rounds_word}{'s' if left != 1 else ''} left" if left > 0 else "ends right before their next turn"
    who = enc.get(t["of"])
    name = "their" if t["of"] == t["id"] else (f"{who.name}'s" if who else "a departed combatant's")
    if t["kind"] == "turn_start":
        return f"until the start of {name} next turn"
    return f"until the end of {name} {'current' if t.get('armed') else 'next'} turn"


def _turn_key(enc: Encounter, ruleset: Any) -> tuple[Any, ...]:
    return (enc.round, enc.phase, enc.turn, ruleset.turn_of(enc))


# Only these actions pass a turn. Re-ordering ties, adding a faster combatant or taking one out
# moves the turn pointer too, but nobody's turn ended or began: a timer waits for the GM's Next.
TURN_PASSING = ("advance",)


def after_action(before: Encounter, after: Encounter, ruleset: Any, event: Any, action_type: Any = "advance") -> None:
    """End the timers whose time came with this action (``event(kind, text, **detail)`` logs)."""
    if not after.state.get(KEY) or action_type not in TURN_PASSING:
        return
    had_turns = ruleset.has_turns
    b = _turn_key(before, ruleset) if had_turns else (before.round,)
    a = _turn_key(after, ruleset) if had_turns else (after.round,)
    new_round = after.round > before.round
    ended: str | None = None
    started: str | None = None
    if had_turns and b != a and (b[3] != a[3] or new_round or b[1] != a[1]):
        ended, started = b[3], a[3]
    # whose turns come in this round's action phase (range-band: a holder out of the fight has none)
    acting = ({s.combatant_id for s in ruleset.order_of_play(after)}
              if had_turns and ruleset.round_durations_end == "before_own_turn" and a[1] != b[1] else None)
    keep: list[dict[str, Any]] = []
    gone: list[tuple[dict[str, Any], str]] = []
    for t in timers(after):
        c = after.get(t["id"])
        if c is None or t["condition"] not in c.conditions:
            continue  # the condition was taken off some other way: nothing left to time
        why = _ends(t, after, ruleset, new_round, ended, started, acting)
        if why is None:
            if t["kind"] == "turn_end" and started == t["of"] and not t.get("armed"):
                t = {**t, "armed": True}
            keep.append(t)
        else:
            gone.append((t, why))
    after.state[KEY] = keep
    for t, why in gone:
        c = after.get(t["id"])
        assert c is not None
        c.drop_condition(t["condition"])
        event("condition", f"{c.name} is no longer {ruleset.condition_word(t['condition'])} ({why})", id=c.id,
              condition=t["condition"],
              on=False)


def _ends(t: dict[str, Any], enc: Encounter, ruleset: Any, new_round: bool, ended: str | None,
          started: str | None, acting: set[str] | None = None) -> str | None:
    """Why ``t`` ends now, or None. ``acting``: when a new phase just began, who has a turn in it."""
    kind = t["kind"]
    if kind == "rounds":
        due = t["from_round"] + t["rounds"]
        n = t["rounds"]
        span = f"{n} {ruleset.rounds_word}{'s' if n != 1 else ''} over"
        if ruleset.round_durations_end == "before_own_turn" and ruleset.has_turns:
            if enc.round >= due and started == t["id"]:
                return f"{span}: it ends right before their turn"
            if enc.round >= due and acting is not None and enc.phase == "actions" and t["id"] not in acting:
                # no turn of theirs comes this round (out of the fight): it ends as the turns begin
                return f"{span}: they have no turn in round {enc.round}"
            if enc.round > due and new_round:
                return f"{span}: they had no turn in round {due}"
            return None
        return span if new_round and enc.round >= due else None
    who = enc.get(t["of"])
    whose = "their" if t["of"] == t["id"] else f"{who.name}'s" if who else "that"
    if kind == "turn_start":
        return f"the start of {whose} turn" if started == t["of"] else None
    if kind == "turn_end":
        return f"the end of {whose} turn" if ended == t["of"] and t.get("armed") else None
    return None


def check_state(enc: Encounter) -> str | None:
    """What is wrong with ``state["timers"]`` of an encounter read from a file (None: nothing), so
    that a hand-edited or damaged save is refused at load instead of breaking every later action."""
    ts = enc.state.get(KEY)
    if ts is None:
        return None
    if not isinstance(ts, list):
        return "must be a list"
    seen = set()
    for i, t in enumerate(ts):
        if not isinstance(t, dict) or t.get("kind") not in KINDS:
            return f"{i}: must be a timer with a kind of {', '.join(KINDS)}"
        want = {"id", "condition", "kind"} | ({"rounds", "from_round"} if t["kind"] == "rounds" else {"of", "armed"})
        if set(t) != want:
            return f"{i}: a {t['kind']} timer has exactly the fields {', '.join(sorted(want))}"
        c = enc.get(t["id"]) if isinstance(t["id"], str) else None
        if c is None:
            return f"{i}.id: names no combatant"
        if not isinstance(t["condition"], str) or t["condition"] not in c.conditions:
            return f"{i}.condition: {c.name} has no such condition"
        if (t["id"], t["condition"]) in seen:
            return f"{i}: times {c.name}'s {t['condition']} twice"
        seen.add((t["id"], t["condition"]))
        if t["kind"] == "rounds":
            for k, lo in (("rounds", 1), ("from_round", 1)):
                v = t[k]
                if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= 1_000_000:
                    return f"{i}.{k}: must be a whole number from {lo}"
        else:
            if not isinstance(t["of"], str) or enc.get(t["of"]) is None:
                return f"{i}.of: names no combatant"
            if not isinstance(t["armed"], bool):
                return f"{i}.armed: must be true or false"
    return None
