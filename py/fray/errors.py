"""Errors by cause, each carrying the input that caused it.

Two families matter to a GM at the table:

* ``InvalidAction``: the action (or a stat, or a file) cannot be *read*: a field is missing,
  has the wrong type, or names a combatant who is not there. ``field`` is the dotted path.
* ``RuleViolation``: the action can be read but the *rules forbid it*. ``rule`` names the rule
  (ideally the heading of the rule text).

Both are ``ValueError`` so callers that only care "was it bad?" can catch one thing. The reducer
raises them before it touches anything, so the encounter is unchanged.
"""

from __future__ import annotations


class FrayError(ValueError):
    """Base of every error the engine raises on purpose."""


class DiceError(FrayError):
    """A dice expression or a typed-in roll that cannot be used."""

    def __init__(self, expression: str, message: str):
        self.expression = expression
        shown = expression if len(expression) <= 40 else expression[:37] + "..."
        super().__init__(f"{message} (in {shown!r})")


class InvalidAction(FrayError):
    """The input cannot be read: names the offending field."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class RuleViolation(FrayError):
    """The input is well formed but the rules forbid it: names the rule."""

    def __init__(self, rule: str, message: str):
        self.rule = rule
        super().__init__(f"{message} (rule: {rule})")


class SaveFileError(FrayError):
    """A saved file or autosave that cannot be loaded: names the path inside the file."""

    def __init__(self, path: str, message: str):
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)
