"""Encounter state as plain values.

The state is a tree of dataclasses holding only JSON-able data, so that it saves, loads and
compares as JSON. An encounter is never edited once made: the reducer works on a draft
(``fray.sharing``) that copies what the action reads, and the new encounter shares with the old
one every combatant and every key of ``state`` and ``tables`` the action left as it was. A
property test checks that the input stays unchanged.

Ruleset-specific state lives in ``Combatant.data`` (hit locations, weapons, per-round choices)
and ``Encounter.state`` (declarations, the current strike rank or phase, pending prompts), both
plain dicts that the ruleset owns and documents.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterator

SCHEMA_VERSION = 3


@dataclass
class Position:
    """Where a combatant stands on the map: metres east (x) and north (y), altitude in metres."""

    x: float = 0.0
    y: float = 0.0
    alt: float = 0.0


@dataclass
class Combatant:
    """One participant in the fight."""

    id: str
    name: str
    side: str = "foes"
    stats: dict[str, Any] = field(default_factory=dict)
    notes: str = ""
    conditions: list[str] = field(default_factory=list)
    position: Position = field(default_factory=Position)
    data: dict[str, Any] = field(default_factory=dict)

    def stat(self, key: str, default: Any = None) -> Any:
        return self.stats.get(key, default)

    def add_condition(self, cond: str) -> bool:
        """Put ``cond`` on (once); whether it was not on before."""
        if cond in self.conditions:
            return False
        self.conditions.append(cond)
        return True

    def drop_condition(self, cond: str) -> bool:
        """Take ``cond`` off; whether it was on."""
        if cond not in self.conditions:
            return False
        self.conditions.remove(cond)
        return True


@dataclass
class LogEntry:
    """One line of the log: what happened, in which round, with the dice and breakdowns."""

    seq: int
    round: int
    kind: str
    text: str
    detail: dict[str, Any] = field(default_factory=dict)


# Encounter.index_of's memo: the last few combatant lists it read whole, each with the index of
# every id in it then. The lists are held (never compared by id() alone, which a new list reuses).
_WHERE: list[tuple[list, dict[str, int]]] = []
_WHERE_KEEP = 4


@dataclass
class Encounter:
    """The whole fight."""

    ruleset: str
    name: str = "Encounter"
    combatants: list[Combatant] = field(default_factory=list)
    round: int = 1
    phase: str = "setup"
    turn: int = 0
    order_override: list[str] = field(default_factory=list)
    tables: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    next_id: int = 1

    def get(self, combatant_id: str) -> Combatant | None:
        i = self.index_of(combatant_id)
        return self.combatants[i] if i >= 0 else None

    def index_of(self, combatant_id: str) -> int:
        # Where each id stood in this very list when it was last read whole (``_WHERE``): a hit is
        # checked against the list as it is now, so a list edited since (a combatant added, removed
        # or moved, in a draft or not) costs only the scan it always cost. Without it, drawing a
        # 200-combatant fight looked each combatant up by a scan of all of them (a status, who is
        # engaged with whom): a fifth of a tactical-round Next's Python in CPython. Ids are text and
        # unique in an encounter (the reducer numbers them; the loader refuses any other).
        lst = self.combatants
        if type(combatant_id) is not str:  # a malformed action's id (a list, a number): ids are text
            return -1
        for held, where in _WHERE:
            if held is lst:
                i = where.get(combatant_id)
                # list's own reads: in a draft (fray.sharing) reading the others' ids copies nothing
                if i is not None and i < len(lst) and list.__getitem__(lst, i).id == combatant_id:
                    return i
                break
        where = {}
        for i, c in enumerate(list.__iter__(lst)):
            where.setdefault(c.id, i)
        _WHERE[:] = [(lst, where)] + [e for e in _WHERE if e[0] is not lst][:_WHERE_KEEP - 1]
        return where.get(combatant_id, -1)

    def peek(self) -> Iterator[Combatant]:
        """Every combatant as it stands, to read and never to edit. In a draft (``fray.sharing``) this
        copies nothing: the list holds the handler's copy of each combatant it has read (with its
        edits) and the original of every other, which nobody has edited. So a rule that only looks
        (who sees whom, who may warn) costs no copies; a handler that edits uses ``combatants`` or
        ``get``, which hand out the copy."""
        return list.__iter__(self.combatants)

    def peek_at(self, combatant_id: str) -> Combatant | None:
        """One combatant as it stands, to read and never to edit (as ``peek``): a mount whose last
        move sets a rider's Hindrance, the target of an attack that changes nothing on it."""
        i = self.index_of(combatant_id)
        return list.__getitem__(self.combatants, i) if i >= 0 else None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

