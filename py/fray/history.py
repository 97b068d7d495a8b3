"""Unlimited undo and redo over every action.

The history is the starting encounter plus the list of recorded actions (each carrying its dice)
and a cursor. The encounter at any point is the replay of the actions before the cursor; the
states are cached so undo and redo cost nothing. Saving the history saves the actions, not the
states, so an autosave stays small and a reload rebuilds the exact same encounter.
"""

from __future__ import annotations

from typing import Any

from .dice import RandomSource
from .model import Encounter
from .reducer import apply, prepare


class History:
    def __init__(self, initial: Encounter):
        self.initial = initial
        self.actions: list[dict[str, Any]] = []
        self._states: list[Encounter] = [initial]
        self.cursor = 0

    @property
    def present(self) -> Encounter:
        return self._states[self.cursor]

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.actions)

    def do(self, action: dict[str, Any], rng: RandomSource | None = None) -> list[dict]:
        """Apply ``action`` to the present (rolling missing dice if ``rng`` is given); drops redo."""
        if rng is None:
            new, events = apply(self.present, action)
            recorded = action
        else:
            recorded, new, events = prepare(self.present, action, rng)
        del self.actions[self.cursor:]
        del self._states[self.cursor + 1:]
        self.actions.append(recorded)
        self._states.append(new)
        self.cursor += 1
        return events

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        self.cursor -= 1
        return True

    def redo(self) -> bool:
        if not self.can_redo:
            return False
        self.cursor += 1
        return True

    @classmethod
    def replay(cls, initial: Encounter, actions: list[dict[str, Any]], cursor: int | None = None) -> "History":
        """Rebuild a history from its actions. Raises the reducer's errors, with ``actions.N``."""
        from .errors import FrayError, InvalidAction, RuleViolation

        h = cls(initial)
        for i, a in enumerate(actions):
            try:
                h.do(a)
            except InvalidAction as e:
                raise InvalidAction(f"actions.{i}.{e.field}", str(e).split(": ", 1)[-1]) from None
            except RuleViolation as e:
                raise InvalidAction(f"actions.{i}", str(e)) from None
            except FrayError as e:
                raise InvalidAction(f"actions.{i}", str(e)) from None
            except Exception as e:  # noqa: BLE001 - an action this version cannot apply
                raise InvalidAction(f"actions.{i}", f"cannot be applied ({type(e).__name__}: {e})") from None
        if cursor is not None:
            h.cursor = cursor
        return h
