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
        self.message = message  # without the expression: beside a field whose label names the dice
        shown = expression if len(expression) <= 40 else expression[:37] + "..."
        super().__init__(f"{message} (in {shown!r})")


class InvalidAction(FrayError):
    """The input cannot be read: names the offending field."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class InvalidFields(InvalidAction):
    """Several fields of one form cannot be read: each one's ``InvalidAction``, in the form's order
    (``errors``), so the page shows every field's error at once rather than one per press. It is
    itself the first of them (``field``, ``message``), for callers that show one."""

    def __init__(self, errors: list[InvalidAction]):
        self.errors = list(errors)
        super().__init__(self.errors[0].field, self.errors[0].message)


class Collect:
    """Reads fields one after another, keeping each field's ``InvalidAction`` instead of stopping
    at the first: ``value = collect(read, *args)`` (``None`` when it failed), then ``collect.done()``
    raises them all together."""

    def __init__(self) -> None:
        self.errors: list[InvalidAction] = []

    def __call__(self, read, *args, **kwargs):
        try:
            return read(*args, **kwargs)
        except InvalidFields as e:
            self.errors.extend(e.errors)
        except InvalidAction as e:
            self.errors.append(e)
        return None

    def done(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InvalidFields(self.errors)


class RuleViolation(FrayError):
    """The input is well formed but the rules forbid it: names the rule, and ``field``, when one
    field's choice is what the rules forbid (a target out of reach), so the page says it there."""

    def __init__(self, rule: str, message: str, field: str = ""):
        self.rule = rule
        self.field = field
        # a refusal resting on nothing the rule text heads (the round, the core rules) names no rule
        super().__init__(f"{message} (rule: {rule})" if rule else message)


class SaveFileError(FrayError):
    """A saved file or autosave that cannot be loaded: names the path inside the file."""

    def __init__(self, path: str, message: str):
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)
