"""``join_party``: characters into an encounter, in formation, each linked to its character and
carrying what its last fight left on it.

``{"type": "join_party", "characters": [character, ...], "position"?: {x, y, alt}}``: one action, one
undo, all of them or none. Each is added exactly as ``add_combatant`` adds its sheet (so the sheet
meets the add form's checks), placed in rows like Add ×N, then its carried state is put on it
and checked against the body the engine just made: a wound on a hit location that body does not
have, a weapon it does not carry, more HP than it has, are refused at their field. The link is
``Combatant.data["party"] = {"character": id, "came_with": carried}``; ``carry`` reads it at
the end of the fight.

Carried state, per game (only what differs from unhurt is kept; each game's ``party`` module reads it):

* strike-rank: ``hp`` (total HP now); ``locations``: ``{location id: {hp, bleeding, first_aid,
  treated, useless, severed}}``; ``weapons``: ``{weapon id: HP now}`` (weapons and shields);
  ``stuck``: ``[{weapon, location}]`` (weapons stuck in the character, by name: their owners
  stayed in the other fight); ``conditions``: ``unconscious`` / ``incapacitated`` (a maimed head,
  shock: "until healed"); ``healing_days``: rested days counted toward each location's next
  Natural Healing (``healing``).
* tactical-round: ``hits_taken``; ``lasting``: the GM's words for each lasting critical.
* range-band: ``fatigue`` and ``trauma`` (post-combat fatigue and trauma as the GM set them).
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import InvalidAction, RuleViolation
from ..model import Combatant
from fray.games.base import Context

MAX_PARTY = 50
FORMATION_STEP = 3  # as Add ×N (reducer.FORMATION_STEP): a token's width apart at the default zoom


def _whole(raw: Any, path: str, lo: int, hi: int, what: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InvalidAction(path, f"{what} must be a whole number")
    if not lo <= raw <= hi:
        raise InvalidAction(path, f"{what} must be from {lo} to {hi}, not {raw}")
    return raw


def _flag(raw: Any, path: str) -> bool:
    if not isinstance(raw, bool):
        raise InvalidAction(path, "must be true or false")
    return raw


def _keys(raw: Any, path: str, allowed: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, f"must be {what}")
    for k in raw:
        if k not in allowed:
            raise InvalidAction(f"{path}.{k}", f"is not part of {what}")
    return raw


def join_party(ctx: Context) -> None:
    from ..reducer import _add_combatant, _position  # (the reducer imports this module)

    chars = ctx.action.get("characters")
    if not isinstance(chars, list) or not chars:
        raise InvalidAction("characters", "choose at least one character")
    if len(chars) > MAX_PARTY:
        raise InvalidAction("characters", f"at most {MAX_PARTY} characters at once")
    enc = ctx.enc
    linked = {c.data.get("party", {}).get("character") for c in enc.peek() if isinstance(c.data.get("party"), dict)}
    seen: set[str] = set()
    for i, ch in enumerate(chars):
        p = f"characters.{i}"
        if not isinstance(ch, dict) or not isinstance(ch.get("sheet"), dict):
            raise InvalidAction(p, "must be a character with its sheet")
        name = ch["sheet"].get("name") if isinstance(ch["sheet"].get("name"), str) else "this character"
        if ch.get("ruleset") != enc.ruleset:
            raise InvalidAction(p, f"{name} is a {ch.get('ruleset')} character; this encounter plays {enc.ruleset}")
        cid = ch.get("id")
        if not isinstance(cid, str) or not cid:
            raise InvalidAction(f"{p}.id", "a character needs its id")
        if cid in linked or cid in seen:
            raise RuleViolation("the party", f"{name} is already in this fight")
        seen.add(cid)
        if ch.get("dead", False) is not False:
            raise RuleViolation("the party", f"{name} is dead")
    origin = _position(ctx.action["position"], "position") if ctx.action.get("position") is not None else None
    per_row = math.ceil(math.sqrt(len(chars)))
    for i, ch in enumerate(chars):
        p = f"characters.{i}"
        sheet = {k: v for k, v in ch["sheet"].items() if k not in ("position", "count")}
        sheet.setdefault("side", "party")
        carried = ch.get("carried", {})
        if not isinstance(carried, dict):
            raise InvalidAction(f"{p}.carried", "must be what the character carries from the last fight")
        note = carried_note(enc.ruleset, carried)
        if note:
            sheet["notes"] = (str(sheet.get("notes", "")).rstrip() + "\n" + note).strip()
        if origin is not None:
            row, col = divmod(i, per_row)
            sheet["position"] = {"x": origin.x + col * FORMATION_STEP, "y": origin.y - row * FORMATION_STEP,
                                 "alt": origin.alt}
        sub = Context(enc, {"type": "add_combatant", "combatant": sheet}, ctx.dice, ctx.ruleset, ctx.events)
        try:
            _add_combatant(sub)
        except InvalidAction as e:
            raise InvalidAction(p + "." + e.field.replace("combatant", "sheet", 1), e.message) from None
        c = enc.combatants[-1]
        put_carried(enc.ruleset, c, carried, f"{p}.carried")
        c.data["party"] = {"character": ch["id"], "came_with": carried}
        ctx.event("party", f"{c.name} joins from the party" + (f" ({note})" if note else ""), id=c.id,
                  character=ch["id"])


def carried_note(ruleset: str, carried: dict[str, Any]) -> str:
    """The line a combatant's notes get for what it carries that its card does not show itself."""
    from .games import game

    g = game(ruleset)
    return g.carried_note(carried) if g is not None else ""


def put_carried(ruleset: str, c: Combatant, carried: dict[str, Any], path: str) -> None:
    """Put ``carried`` on the just-made ``c``, checking each value against it (the game's own part)."""
    from .games import game

    g = game(ruleset)
    if g is not None:
        g.put_carried(c, carried, path)
    elif carried:
        raise InvalidAction(path, "this game keeps nothing from one fight to the next")
