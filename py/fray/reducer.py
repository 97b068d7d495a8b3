"""The one reducer: ``apply(encounter, action) -> (encounter, events)``.

An action is plain JSON-able data: ``{"type": "...", ...fields, "rolls": {name: dice}}``.
``apply`` makes a draft of the encounter (``fray.sharing``: what the handler reads is copied on
first read), lets the core or the ruleset edit it, appends the events to the log and returns it,
sharing with the input every combatant and ``state`` key the handler left as it was. The input is
never touched, so an error at any point leaves the caller's encounter exactly as it was.

``prepare(encounter, action, rng)`` is the same with a random source: it rolls whatever the
action needs and the GM did not type, and returns the action with every roll recorded in it.
The recorded action replays to the same result with no random source at all.
"""

from __future__ import annotations

import copy
import math
import re
from dataclasses import replace
from typing import Any

from . import gate, players, sharing, timers
from .dice import RandomSource
from .errors import Collect, FrayError, InvalidAction, RuleViolation
from .maprules import ground_check
from .model import Combatant, Encounter, LogEntry, Position
from fray.games import get_ruleset
from fray.games.base import Context, Ruleset, whole_number
from .tray import DiceTray
from .party import join as party_join

MAX_NAME = 60
MAX_NOTES = gate.MAX_TEXT
MAX_COMBATANTS = 200
# ids are c1, c2, ... and never reused; a million additions is more than any fight
MAX_NEXT_ID = 1_000_000
MAX_COORD = 100000  # metres east/west and north/south of the map's origin
MAX_ALT = 20000  # metres up or down
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
SIDES = ("party", "foes", "neutral")


def new_encounter(ruleset_id: str, name: str = "Encounter") -> Encounter:
    get_ruleset(ruleset_id)
    return Encounter(ruleset=ruleset_id, name=clean_name(name, "name"))


def clean_name(raw: Any, field: str, max_len: int = MAX_NAME) -> str:
    """A name is shown as text, never as markup (the page uses textContent), so angle brackets
    are allowed; control characters and over-long names are not."""
    if not isinstance(raw, str):
        raise InvalidAction(field, "must be text")
    name = " ".join(raw.split())
    if not name:
        raise InvalidAction(field, "must not be empty")
    if len(name) > max_len:
        raise InvalidAction(field, f"is longer than {max_len} characters")
    if _CONTROL.search(name):
        raise InvalidAction(field, "contains control characters")
    return name


def _number(raw: Any, field: str, lo: float = -100000, hi: float = 100000, unit: str = "") -> float:
    """``unit``: what the number counts ("metres"), for the GM's words when the field was left empty
    (the map's position form said "must be a number, not ''")."""
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        if isinstance(raw, str) and not raw.strip():
            raise InvalidAction(field, f"Type a number of {unit}" if unit else "Type a number")
        if isinstance(raw, str):
            try:
                raw = float(raw)
            except ValueError:
                raise InvalidAction(field, f"must be a number, not {raw!r}") from None
        else:
            raise InvalidAction(field, "must be a number")
    if raw != raw or not lo <= raw <= hi:
        raise InvalidAction(field, f"must be from {lo:g} to {hi:g}")
    return float(raw)


def _side(raw: Any, field: str) -> str:
    if raw not in SIDES:
        raise InvalidAction(field, f"must be one of {', '.join(SIDES)}")
    return raw


# -- core actions -----------------------------------------------------------------------------

def _add_combatant(ctx: Context) -> None:
    """One combatant, or ``combatant.count`` of them numbered after the name ("Goblin 1".."Goblin N",
    going on from the highest number already in the fight), in a formation: rows of about the square
    root of N, each FORMATION_STEP metres from the next (east along a row, rows to the south), so at
    the map's default zoom every token stands a token apart and can be tapped, and none on a spot
    where someone already stands (``_formation``). All of them or none:
    one action, one undo."""
    raw = ctx.action.get("combatant")
    if not isinstance(raw, dict):
        raise InvalidAction("combatant", "must be an object with name, side and stats")
    enc, rs = ctx.enc, ctx.ruleset
    # every field's error at once (the form shows each beside its field), not one per press of Add
    collect = Collect()
    name = collect(clean_name, raw.get("name"), "combatant.name")
    side = collect(_side, raw.get("side", "foes"), "combatant.side")
    # How many names the room left ("at most 0") at its field, before the encounter-size rule
    count = collect(_count, raw.get("count"), len(enc.combatants)) or 1
    if not collect.errors and len(enc.combatants) >= MAX_COMBATANTS:
        raise RuleViolation("encounter size", f"at most {MAX_COMBATANTS} combatants")
    if not collect.errors and enc.next_id + count > MAX_NEXT_ID:
        raise RuleViolation("encounter size", f"at most {MAX_NEXT_ID - 1} combatants added in one encounter")
    stats = collect(rs.validate_stats, raw.get("stats", {}), "combatant.stats")
    notes = collect(_notes, raw.get("notes", ""), "combatant.notes")
    pos = collect(_position, raw.get("position"), "combatant.position") if raw.get("position") is not None else Position()
    extra = {k: v for k, v in raw.items() if k not in ("name", "side", "stats", "notes", "position", "count")}
    if collect.errors and extra and not rs.free_stats:
        # the ruleset's own fields (weapons, armour) read on a stand-in, so their errors come too
        # (a refusal by the rules waits for the fields to read: it is not about one field)
        probe = Combatant(id="probe", name="probe", side="foes", stats=stats or _stand_in_stats(rs, raw.get("stats")))
        try:
            collect(rs.init_combatant, copy.deepcopy(enc), probe, copy.deepcopy(extra))
        except FrayError:
            pass
    # The add form asks whether its Altitude is below the ground, as a move does; a scenario or a save's
    # history does not ask (it adds a swimmer before it marks the water the swimmer is in)
    check_ground = ctx.action.get("check_ground", False)
    if not isinstance(check_ground, bool):
        raise InvalidAction("check_ground", "must be true or false")
    collect.done()
    names = [name] if count == 1 else numbered(enc, name, count)
    spots = [pos] if count == 1 else _formation(enc, pos, count)
    for each, where in zip(names, spots):
        cid = f"c{enc.next_id}"
        c = Combatant(id=cid, name=each, side=side, stats=dict(stats), notes=notes, position=where)
        # each copy gets its own ruleset fields (weapons, body): a wound on one is not on all
        rs.init_combatant(enc, c, copy.deepcopy(extra))
        if check_ground:
            # the name typed, not "Goblin 2": the GM reads it beside the one Altitude field
            ground_check(enc, replace(c, name=name), where, "combatant.position.alt")
        enc.next_id += 1
        enc.combatants.append(c)
        ctx.event("combatant", f"{each} joins the fight ({side})", id=cid)


def _formation(enc: Encounter, pos: Position, count: int) -> list[Position]:
    """Where Add ×N stands the group: rows of about the square root of N from the typed spot, east
    along a row and rows to the south, passing over any spot where someone already stands (within
    half a step): "Orc warrior" ×3 at (0, 3) put Orc 3 on Sir Bors at (0, 0), hiding him, 0.0 m
    apart. A spot taken is skipped, not shifted, so the rows stay straight."""
    per_row = math.ceil(math.sqrt(count))
    taken = [(c.position.x, c.position.y) for c in enc.combatants]
    out: list[Position] = []
    k = 0
    while len(out) < count:
        row, col = divmod(k, per_row)
        k += 1
        x, y = pos.x + col * FORMATION_STEP, pos.y - row * FORMATION_STEP
        if any(math.hypot(x - tx, y - ty) < FORMATION_STEP / 2 for tx, ty in taken) and k < count + 4 * len(taken) + 1:
            continue
        out.append(_position({"x": x, "y": y, "alt": pos.alt}, "combatant.position"))
    return out


# Add ×N's spacing: at the default zoom (the fitted view is at least 12 m and 1.6 times the fight
# wide, tokens 1/24 of it across) three metres leaves a token's width of ground between neighbours
# for up to 16 copies (issue 33, "The map at table density": copies a metre apart overlapped and
# could not be tapped).
FORMATION_STEP = 3


def _stand_in_stats(rs: Ruleset, raw: Any) -> dict[str, Any]:
    """Stats to read a combatant's other fields against while some of its typed stats are bad:
    each good one as typed, each bad one an ordinary value inside its range."""
    raw = raw if isinstance(raw, dict) else {}
    out: dict[str, Any] = {}
    for spec in rs.stats:
        try:
            v = spec.check(raw.get(spec.key), "stats")
        except InvalidAction:
            v = spec.default
            if v is None and spec.kind in ("int", "percent"):
                v = max(spec.min if spec.min is not None else 10, min(10, spec.max if spec.max is not None else 10))
        if v is not None:
            out[spec.key] = v
    return out


def _count(raw: Any, present: int) -> int:
    """How many to add: a whole number from 1 up to what the encounter-size gate still allows."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return 1
    n = whole_number(raw, "combatant.count", "How many")
    room = MAX_COMBATANTS - present
    if n < 1:
        raise InvalidAction("combatant.count", f"How many must be at least 1, not {n}")
    if n > room:
        raise InvalidAction("combatant.count", f"How many must be at most {room}: an encounter holds at most "
                                               f"{MAX_COMBATANTS} combatants and this one has {present}")
    return n


# a name that ends in a number ("Goblin 3"): what Add ×N writes and numbers on from, and what the
# order strip keeps whole when it cuts a name (web/render.strip_name)
NUMBERED_NAME = re.compile(r"^(.*\S)\s+(\d+)$")


def numbered(enc: Encounter, name: str, count: int) -> list[str]:
    """``count`` names "name 1", "name 2", ... starting after the highest "name N" in the fight
    (a second "Add ×3 Goblin" gives Goblin 4..6); a name that already ends in a number goes on
    from it ("Goblin 2" → Goblin 3, 4)."""
    m = NUMBERED_NAME.match(name)
    base = m.group(1) if m else name
    taken = [int(mm.group(2)) for c in enc.combatants if (mm := NUMBERED_NAME.match(c.name)) and mm.group(1) == base]
    if m:
        taken.append(int(m.group(2)))
    start = max(taken, default=0) + 1
    out = [f"{base} {start + i}" for i in range(count)]
    for each in out:
        clean_name(each, "combatant.name")  # the number must still fit the name's length limit
    return out


def _duplicate(ctx: Context) -> None:
    """Another one like this combatant, as it stands (stats, ruleset fields, wounds, conditions),
    named with the next number ("Goblin" → "Goblin 2"), at ``position`` if the action gives one (the
    page: free ground beside the original, ``fray.placing.beside``), else a metre east; its ties to
    others (engagements, a mount, grapples) are the original's alone (``Ruleset.on_duplicate``)."""
    c = ctx.combatant()
    enc = ctx.enc
    if len(enc.combatants) >= MAX_COMBATANTS:
        raise RuleViolation("encounter size", f"at most {MAX_COMBATANTS} combatants")
    if enc.next_id >= MAX_NEXT_ID:
        raise RuleViolation("encounter size", f"at most {MAX_NEXT_ID - 1} combatants added in one encounter")
    m = NUMBERED_NAME.match(c.name)
    base = m.group(1) if m else c.name
    taken = [int(mm.group(2)) for x in enc.combatants if (mm := NUMBERED_NAME.match(x.name)) and mm.group(1) == base]
    name = f"{base} {max(taken + [1]) + 1}"
    name = clean_name(name, "id")
    twin = copy.deepcopy(c)
    twin.id = f"c{enc.next_id}"
    twin.name = name
    at = ctx.action.get("position")
    twin.position = (_position(at, "position") if at is not None else
                     _position({"x": c.position.x + 1, "y": c.position.y, "alt": c.position.alt}, "id"))
    ctx.ruleset.on_duplicate(enc, c, twin)
    enc.next_id += 1
    enc.combatants.append(twin)
    ctx.event("combatant", f"{name} joins the fight ({twin.side}), a copy of {c.name}", id=twin.id, copy_of=c.id)


def _notes(raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise InvalidAction(field, "must be text")
    if len(raw) > MAX_NOTES:
        raise InvalidAction(field, f"is longer than {MAX_NOTES} characters")
    return raw


def _position(raw: Any, field: str) -> Position:
    if not isinstance(raw, dict):
        raise InvalidAction(field, "must be an object with x, y and alt in metres")
    return Position(
        x=_number(raw.get("x", 0), f"{field}.x", -MAX_COORD, MAX_COORD, "metres"),
        y=_number(raw.get("y", 0), f"{field}.y", -MAX_COORD, MAX_COORD, "metres"),
        alt=_number(raw.get("alt", 0), f"{field}.alt", -MAX_ALT, MAX_ALT, "metres"),
    )


def _edit_combatant(ctx: Context) -> None:
    c = ctx.combatant()
    changes = ctx.action.get("changes")
    if not isinstance(changes, dict) or not changes:
        raise InvalidAction("changes", "must be an object with the fields to change")
    said = []
    extra = {}
    for k, v in changes.items():
        if k == "name":
            c.name = clean_name(v, "changes.name")
        elif k == "side":
            c.side = _side(v, "changes.side")
        elif k == "notes":
            c.notes = _notes(v, "changes.notes")
        elif k == "position":
            c.position = _position(v, "changes.position")
            ground_check(ctx.enc, c, c.position, "changes.position.alt")
        elif k == "stats":
            if not isinstance(v, dict):
                raise InvalidAction("changes.stats", "must be an object of name: value")
            merged = v if ctx.ruleset.free_stats else {**c.stats, **v}
            c.stats = ctx.ruleset.validate_stats(merged, "changes.stats")
        else:
            extra[k] = v
        said.append(k)
    ctx.ruleset.on_stats_changed(ctx.enc, c, extra)
    ctx.event("combatant", f"{c.name}: edited {', '.join(said)}", id=c.id)


def _remove_combatant(ctx: Context) -> None:
    c = ctx.combatant()
    ctx.enc.combatants = [x for x in ctx.enc.combatants if x.id != c.id]
    ctx.enc.order_override = [x for x in ctx.enc.order_override if x != c.id]
    ctx.event("combatant", f"{c.name} leaves the fight", id=c.id)
    for t in timers.forget_combatant(ctx.enc, c.id):
        holder = ctx.enc.get(t["id"])
        if holder is not None:
            ctx.event("condition", f"{holder.name} stays {ctx.ruleset.condition_word(t['condition'])} until removed "
                                   "(it was to end with "
                                   f"{c.name}'s turn)", id=holder.id, condition=t["condition"])


def _move(ctx: Context) -> None:
    c = ctx.combatant()
    old = c.position
    new = _position({"x": ctx.action.get("x", old.x), "y": ctx.action.get("y", old.y),
                     "alt": ctx.action.get("alt", old.alt)}, "position")
    ground_check(ctx.enc, c, new, "position.alt")
    c.position = new
    ctx.event("move", f"{c.name} moves to ({new.x:g}, {new.y:g}) m, altitude {new.alt:g} m", id=c.id,
              x=new.x, y=new.y, alt=new.alt)


def _move_group(ctx: Context) -> None:
    """``move_group {moves: [{id, x, y, alt}, ...]}``: several tokens the GM moved together on the map
    (issue 33, "let the GM drag the group"), as ONE action, so one Undo puts the whole group back. Each
    token's move is the game's own ``move``, as a drag of that one token would be (tactical-round: a
    Move in the Move phase is done; range-band: mount and rider stay together). All or none."""
    raw = ctx.action.get("moves")
    if not isinstance(raw, list) or not raw:
        raise InvalidAction("moves", "must list the tokens to move, each with where to")
    if len(raw) > MAX_COMBATANTS:
        raise InvalidAction("moves", f"at most {MAX_COMBATANTS} tokens")
    seen: set[str] = set()
    names: list[str] = []
    move = handler_for(ctx.ruleset, "move")
    for i, m in enumerate(raw):
        if not isinstance(m, dict):
            raise InvalidAction(f"moves.{i}", "must say which token and where to")
        cid = m.get("id")
        if not isinstance(cid, str) or ctx.enc.get(cid) is None:
            raise InvalidAction(f"moves.{i}.id", "that combatant is no longer in this encounter")
        if cid in seen:
            raise InvalidAction(f"moves.{i}.id", f"{ctx.enc.get(cid).name} is moved twice")
        seen.add(cid)
        names.append(ctx.enc.get(cid).name)
    ctx.event("move", f"{_listed(names)} move together", ids=sorted(seen))
    for i, m in enumerate(raw):
        one = {"type": "move", **{k: m[k] for k in ("id", "x", "y", "alt") if k in m}}
        try:
            move(Context(ctx.enc, one, ctx.dice, ctx.ruleset, ctx.events))
        except InvalidAction as e:
            raise InvalidAction(f"moves.{i}.{e.field}", e.message) from None


def _listed(names: list[str]) -> str:
    """"Orc 1, Orc 2 and Orc 3"; past four, "Orc 1, Orc 2, Orc 3 and 3 more"."""
    if len(names) > 4:
        return f"{', '.join(names[:3])} and {len(names) - 3} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _set_condition(ctx: Context) -> None:
    c = ctx.combatant()
    cond = ctx.action.get("condition")
    cond = clean_name(cond, "condition", 40).lower()
    on = ctx.action.get("on", True)
    if not isinstance(on, bool):
        raise InvalidAction("on", "must be true or false")
    lasts = ctx.action.get("lasts")
    if not on and lasts is not None:
        raise InvalidAction("lasts", "only a condition being put on has a duration")
    timer = timers.parse_lasts(ctx.enc, ctx.ruleset, c, lasts)
    said = ctx.ruleset.condition_word(cond)  # the log's words, not the name a save keeps
    if on and cond not in c.conditions:
        c.conditions.append(cond)
        timers.set_timer(ctx.enc, cond, timer)
        ctx.event("condition", f"{c.name} is now {said}" + _lasting(ctx, timer), id=c.id, condition=cond)
    elif on and timer is not None:  # already on: the GM gives (or changes) how long it lasts
        timers.set_timer(ctx.enc, cond, timer)
        ctx.event("condition", f"{c.name} stays {said}" + _lasting(ctx, timer), id=c.id, condition=cond)
    elif not on and cond in c.conditions:
        c.conditions.remove(cond)
        timers.drop(ctx.enc, c.id, cond)
        ctx.event("condition", f"{c.name} is no longer {said}", id=c.id, condition=cond)
    else:
        raise RuleViolation("conditions", f"{c.name} is {'already' if on else 'not'} {said}")


def _lasting(ctx: Context, timer: dict[str, Any] | None) -> str:
    return f" ({timers.describe(ctx.enc, timer, ctx.ruleset.rounds_word)})" if timer else ""


def _note(ctx: Context) -> None:
    text = _notes(ctx.action.get("text"), "text").strip()
    if not text:
        raise InvalidAction("text", "must not be empty")
    ctx.event("note", text)


def _rename(ctx: Context) -> None:
    ctx.enc.name = clean_name(ctx.action.get("name"), "name")
    ctx.event("encounter", f"Encounter renamed to {ctx.enc.name}")


def _reorder(ctx: Context) -> None:
    order = ctx.action.get("order")
    if not isinstance(order, list) or not all(isinstance(x, str) for x in order):
        raise InvalidAction("order", "must be a list of combatant ids")
    for i, cid in enumerate(order):
        if ctx.enc.get(cid) is None:
            raise InvalidAction(f"order.{i}", "that combatant is no longer in this encounter")
    if len(set(order)) != len(order):
        raise InvalidAction("order", "names a combatant twice")
    ctx.enc.order_override = list(order)
    ctx.event("order", "The GM reorders ties: " + ", ".join(ctx.enc.get(x).name for x in order))


def _settle_tie(ctx: Context) -> None:
    """The GM orders equals: ``id`` goes just ``before`` (or ``after``) another combatant that the
    rules rank the same (``Slot.tie``: same SR and DEX, same weapon length and CMB, same turn-order
    value). Anyone else is refused, naming the rule that orders them. The GM's order of the whole
    tie group is recorded in ``order_override``, which every ruleset's key reads just before its id."""
    c = ctx.combatant()
    where = "before" if "before" in ctx.action else "after"
    other = ctx.combatant(where)
    if other.id == c.id:
        raise InvalidAction(where, f"{c.name} cannot move {where} themselves")
    order = ctx.ruleset.order_of_play(ctx.enc)
    mine = [s for s in order if s.combatant_id == c.id]
    theirs = [s for s in order if s.combatant_id == other.id]
    if not mine:
        raise RuleViolation("order of play", f"{c.name} has no place in the order of play now")
    if not theirs:
        raise RuleViolation("order of play", f"{other.name} has no place in the order of play now")
    tie = next((s.tie for s in mine if s.tie is not None and any(t.tie == s.tie for t in theirs)), None)
    if tie is None:
        raise RuleViolation("order of play", f"{c.name} ({mine[0].label}) and {other.name} ({theirs[0].label}) "
                                             f"are not equals, so the rules order them, not the GM "
                                             f"({ctx.ruleset.tie_rule})")
    group: list[str] = []
    for s in order:
        if s.tie == tie and s.combatant_id not in group:
            group.append(s.combatant_id)
    group.remove(c.id)
    group.insert(group.index(other.id) + (where == "after"), c.id)
    ctx.enc.order_override = [x for x in ctx.enc.order_override if x not in group] + group
    ctx.event("order", f"The GM settles a tie: {c.name} acts {where} {other.name} "
                       f"({' then '.join(ctx.enc.get(x).name for x in group)})", id=c.id, order=group)


def _set_table(ctx: Context) -> None:
    table_id = ctx.action.get("table")
    if not isinstance(table_id, str):
        raise InvalidAction("table", "must name a table")
    if table_id not in ctx.ruleset.tables:
        raise InvalidAction("table", f"{ctx.ruleset.name} has no table {table_id!r}")
    value = ctx.action.get("value")
    if value is None:
        ctx.enc.tables.pop(table_id, None)
        ctx.event("table", f"Table \u201c{ctx.ruleset.tables[table_id].get('title', table_id)}\u201d reset to the default",
                  table=table_id)
        return
    ctx.enc.tables[table_id] = ctx.ruleset.check_table(table_id, value)
    # A table can be well formed and still hold values the rules cannot use ("x" for a strike
    # rank): ask the rules for what the page will ask them before accepting the edit.
    try:
        ctx.ruleset.view(ctx.enc)
        ctx.ruleset.order_of_play(ctx.enc)
    except Exception as e:  # noqa: BLE001 - any failure means the edit cannot be used
        detail = str(e) if isinstance(e, FrayError) else f"{type(e).__name__}: {e}"
        raise InvalidAction("value", f"the rules cannot use this table ({detail})") from None
    ctx.event("table", f"Table \u201c{ctx.ruleset.tables[table_id].get('title', table_id)}\u201d edited by the GM",
              table=table_id)


def _advance(ctx: Context) -> None:
    ctx.ruleset.advance(ctx)


CORE_ACTIONS = {
    "add_combatant": _add_combatant,
    "edit_combatant": _edit_combatant,
    "remove_combatant": _remove_combatant,
    "move": _move,
    "move_group": _move_group,
    "set_condition": _set_condition,
    "note": _note,
    "rename_encounter": _rename,
    "reorder": _reorder,
    "settle_tie": _settle_tie,
    "duplicate_combatant": _duplicate,
    "set_table": _set_table,
    "advance": _advance,
    **players.ACTIONS,  # the players' view settings (fray.players)
    "join_party": party_join.join_party,  # characters into the fight (fray.party)
}


def handler_for(ruleset: Ruleset, action_type: Any):
    if not isinstance(action_type, str):
        raise InvalidAction("type", "every action needs a type")
    h = ruleset.actions.get(action_type) or CORE_ACTIONS.get(action_type)
    if h is None:
        raise InvalidAction("type", f"{ruleset.name} has no action {action_type!r}")
    return h


def _run(encounter: Encounter, action: Any, rng: RandomSource | None) -> tuple[Encounter, list[dict], dict]:
    if not isinstance(action, dict):
        raise InvalidAction("action", "an action is an object with a type")
    # the one gate: typed, replayed and imported actions alike (finite numbers, depth, text size)
    gate.check_value(action)
    ruleset = get_ruleset(encounter.ruleset)
    handler = handler_for(ruleset, action.get("type"))
    tray = DiceTray(action.get("rolls"), rng)
    draft, copies = sharing.draft(encounter)
    try:
        ctx = Context(draft, action, tray, ruleset)
        handler(ctx)
        ruleset.after_action(ctx)
        timers.after_action(encounter, draft, ruleset, ctx.event, action.get("type"))  # durations that ran out
        sharing.settle(draft, encounter, copies)
    finally:
        copies.release()  # settled or refused: the copies are let go now, not at the next collection
    seq = len(draft.log)
    rounds = getattr(ctx.events, "rounds", ())  # each event's own round (games.base.Events)
    for i, ev in enumerate(ctx.events):
        seq += 1
        draft.log.append(LogEntry(seq, rounds[i] if i < len(rounds) else draft.round, ev["kind"], ev["text"],
                                  ev.get("detail", {})))
    recorded = {k: v for k, v in action.items() if k != "rolls"}
    if tray.used:
        recorded["rolls"] = tray.used
    return draft, ctx.events, recorded


def apply(encounter: Encounter, action: dict[str, Any]) -> tuple[Encounter, list[dict]]:
    """Apply an action that carries its dice. Deterministic; the input is never edited."""
    new, events, _ = _run(encounter, action, None)
    return new, events


def prepare(encounter: Encounter, action: dict[str, Any], rng: RandomSource) -> tuple[dict, Encounter, list[dict]]:
    """Roll what the action needs and the GM did not type; return the recorded action and result."""
    new, events, recorded = _run(encounter, action, rng)
    return recorded, new, events
