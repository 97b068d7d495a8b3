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
        # the list's own iterator: in a draft (fray.sharing) reading the others' ids copies nothing
        for i, c in enumerate(self.peek()):
            if c.id == combatant_id:
                return i
        return -1

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
        for c in self.peek():
            if c.id == combatant_id:
                return c
        return None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

