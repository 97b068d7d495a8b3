"""The dice tray: how rules code asks for dice without knowing where the numbers come from.

Rules code calls ``ctx.dice.roll("damage", "1D8+1")``. Each roll has a *name* that is unique
within one action. While an action is being *prepared* the tray takes any number the GM typed
(``action["rolls"][name]``) and rolls the rest from the random source; it records every roll it
handed out. The recorded rolls are stored in the action, so applying it again (replay, undo/redo,
reload) reads the same numbers and needs no random source at all: actions carry their dice.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import dice as dice_mod
from .dice import OpenEndedResult, RandomSource, RollResult
from .errors import DiceError, InvalidAction


class DiceTray:
    def __init__(self, given: Any = None, rng: RandomSource | None = None):
        if given is None:
            given = {}
        if not isinstance(given, dict):
            raise InvalidAction("rolls", "must be an object mapping roll names to dice")
        self.given: dict[str, Any] = given
        self.rng = rng
        self.used: dict[str, Any] = {}

    def _take(self, name: str, expr: str) -> Any:
        if name in self.used:
            raise RuntimeError(f"rules code asked for the roll {name!r} twice in one action")
        if self.given.get(name) is not None:
            return self.given[name]
        # a null roll is an empty box: rolled while preparing, and missing on replay (where
        # there is no random source to roll it from)
        if self.rng is None:
            raise InvalidAction(f"rolls.{name}", f"needs {expr}: roll it or type it in")
        return None

    def roll(self, name: str, expression: str) -> RollResult:
        """Roll (or read) ``expression`` under ``name``."""
        given = self._take(name, expression)
        try:
            if given is None:
                result = dice_mod.roll(expression, self.rng)  # type: ignore[arg-type]
            else:
                given, typed = _unwrap(name, given)
                result = replace(dice_mod.roll_given(expression, given), typed=typed)
        except DiceError as e:
            # typed dice are refused beside their field, whose label names the dice: the expression
            # ("(in '1D100')") only where the dice are several, to say which of them is wrong
            one = given is not None and dice_mod.parse(expression).dice_count == 1
            raise InvalidAction(f"rolls.{name}", e.message if one else str(e)) from None
        if result.dice:
            self.used[name] = _record(result.to_json(), result.typed)
        else:  # a total stood in for the dice: keep it as a total, typed or not, so it replays
            self.used[name] = result.total if result.typed else {"total": result.total, "typed": False}
        return result

    def d100(self, name: str) -> RollResult:
        """A percentile roll: 01..100, where a typed 00 means 100."""
        given = self._take(name, "D100")
        if isinstance(given, int) and not isinstance(given, bool) and given == 0:
            self.given = {**self.given, name: 100}
        elif isinstance(given, list) and given == [0]:
            self.given = {**self.given, name: [100]}
        return self.roll(name, "D100")

    def open_ended(self, name: str) -> OpenEndedResult:
        """An open-ended d100 (every d100 kept, see ``dice.roll_open_ended``)."""
        given = self._take(name, "open-ended D100")
        try:
            if given is None:
                result = dice_mod.roll_open_ended(self.rng)  # type: ignore[arg-type]
            else:
                given, typed = _unwrap(name, given)
                result = replace(dice_mod.open_ended_given(given), typed=typed)
        except DiceError as e:
            raise InvalidAction(f"rolls.{name}", e.message) from None  # beside a field labelled as the d100
        except (TypeError, ValueError) as e:
            raise InvalidAction(f"rolls.{name}", str(e)) from None
        self.used[name] = _record(result.to_json(), result.typed)
        return result


def _record(value: Any, typed: bool) -> Any:
    """How a roll is stored in the action. Typed dice stay as the GM gave them (a list of faces or
    a total); dice from the random source are marked ``{"faces": [...], "typed": false}`` so that
    a replay still says they were rolled, not typed, and rebuilds the very same log."""
    return value if typed else {"faces": value, "typed": False}


def _unwrap(name: str, given: Any) -> tuple[Any, bool]:
    """A stored roll is plain (typed by the GM) or an object with ``faces`` or ``total`` and an
    optional ``typed`` flag (true unless it says false)."""
    if not isinstance(given, dict):
        return given, True
    typed = given.get("typed", True)
    if not isinstance(typed, bool):
        raise InvalidAction(f"rolls.{name}.typed", "must be true or false")
    return given.get("faces", given.get("total")), typed
