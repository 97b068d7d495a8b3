"""Dice in the games' own notation, rolled from a random source that is passed in.

An expression is a sum of terms: ``1D6+1``, ``2D6+2``, ``1D3``, ``1D10+10``, ``D100``, ``-1D4``,
``1D8+1+1D4``. A term is ``NdS`` (N defaults to 1) or a whole number, each with a sign.

A roll never reaches for a global generator: ``roll(expr, rng)`` takes any object with
``randint(a, b)`` (``random.Random`` does). A GM's physical dice are just another source of
numbers: ``roll_given(expr, faces)`` checks the typed faces against the expression and builds
the same ``RollResult``. A result keeps every die so the log can show how a total was reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Protocol, Sequence

from .errors import DiceError


class RandomSource(Protocol):
    """Anything that can pick a whole number from a..b inclusive (``random.Random`` can)."""

    def randint(self, a: int, b: int) -> int: ...


@dataclass(frozen=True)
class Term:
    """One signed term of an expression: ``count`` dice of ``sides`` faces, or a constant."""

    sign: int
    count: int
    sides: int  # 0 means a constant whose value is ``count``

    @property
    def is_dice(self) -> bool:
        return self.sides > 0

    def text(self) -> str:
        body = f"{self.count}D{self.sides}" if self.is_dice else str(self.count)
        return body


@dataclass(frozen=True)
class DiceExpr:
    """A parsed expression. Immutable; the operations return new expressions."""

    terms: tuple[Term, ...]

    def __str__(self) -> str:
        out = ""
        for i, t in enumerate(self.terms):
            if t.sign < 0:
                out += "-"
            elif i:
                out += "+"
            out += t.text()
        return out or "0"

    @property
    def dice_terms(self) -> tuple[Term, ...]:
        return tuple(t for t in self.terms if t.is_dice)

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.dice_terms)

    def minimum(self) -> int:
        return sum(t.sign * (t.count if t.is_dice else t.count) for t in self.terms if t.sign > 0) + sum(
            t.sign * (t.count * t.sides if t.is_dice else t.count) for t in self.terms if t.sign < 0
        )

    def maximum(self) -> int:
        return sum(t.sign * (t.count * t.sides if t.is_dice else t.count) for t in self.terms if t.sign > 0) + sum(
            t.sign * (t.count if t.is_dice else t.count) for t in self.terms if t.sign < 0
        )

    def plus(self, other: "DiceExpr | str") -> "DiceExpr":
        """Sum of two expressions (a weapon's damage plus a damage modifier)."""
        other = parse(other) if isinstance(other, str) else other
        return DiceExpr(self.terms + other.terms)

    def doubled_dice(self) -> "DiceExpr":
        """Double the number of every die, keep constants (special damage: "double the dice")."""
        return DiceExpr(tuple(Term(t.sign, t.count * 2, t.sides) if t.is_dice else t for t in self.terms))

    def halved_die(self) -> "DiceExpr":
        """Halve each die's size (1D4 → 1D2, 1D6 → 1D3, 2D6 → 2D3), for a halved damage modifier."""
        terms = []
        for t in self.terms:
            if t.is_dice:
                if t.sides < 2:
                    raise DiceError(str(self), "a one-sided die cannot be halved")
                terms.append(Term(t.sign, t.count, t.sides // 2))
            else:
                terms.append(Term(t.sign, t.count // 2, 0))
        return DiceExpr(tuple(terms))

    def maximised(self) -> "DiceExpr":
        """Every die at its highest face, folded into a constant."""
        total = self.maximum()
        return DiceExpr((Term(1 if total >= 0 else -1, abs(total), 0),))


# At most six digits a number: the dice of these games are small, and a longer string of digits
# would only be a typo (or run into Python's limit on converting long digit strings).
_TERM = re.compile(r"([+-])?\s*(?:(\d{0,6})\s*[dD]\s*(\d{1,6})|(\d{1,6}))(?!\d)\s*")
MAX_DICE = 200
MAX_SIDES = 1000


def parse(expression: str) -> DiceExpr:
    """Parse the games' notation; raise ``DiceError`` naming what is wrong."""
    if not isinstance(expression, str):
        raise DiceError(repr(expression), "a dice expression must be text such as 1D6+1")
    text = expression.strip()
    if not text:
        raise DiceError(expression, "the dice expression is empty")
    pos = 0
    terms: list[Term] = []
    while pos < len(text):
        m = _TERM.match(text, pos)
        if not m or m.end() == pos:
            rest = text[pos:] if len(text) - pos <= 20 else text[pos:pos + 17] + "..."
            raise DiceError(expression, f"cannot read {rest!r}; write dice as 1D6, 2D6+2 or D100")
        sign_txt, count_txt, sides_txt, const_txt = m.groups()
        if terms and sign_txt is None:
            raise DiceError(expression, f"missing + or - before {m.group(0).strip()!r}")
        sign = -1 if sign_txt == "-" else 1
        if sides_txt is not None:
            count = int(count_txt) if count_txt else 1
            sides = int(sides_txt)
            if count < 1:
                raise DiceError(expression, "a die term needs at least one die")
            if sides < 1 or sides > MAX_SIDES:
                raise DiceError(expression, f"a die must have 1 to {MAX_SIDES} sides")
            if count > MAX_DICE:
                raise DiceError(expression, f"at most {MAX_DICE} dice in one term")
            terms.append(Term(sign, count, sides))
        else:
            terms.append(Term(sign, int(const_txt), 0))
        pos = m.end()
    return DiceExpr(tuple(terms))


@dataclass(frozen=True)
class Die:
    """One die as rolled: its size and the face that came up, and the sign of its term."""

    sides: int
    face: int
    sign: int = 1


@dataclass(frozen=True)
class RollResult:
    """A rolled expression: keeps every die, the constant part, and whether a GM typed it."""

    expression: str
    dice: tuple[Die, ...]
    constant: int
    total: int
    typed: bool = False

    def breakdown(self) -> str:
        """``2D6+2 = 3+5+2 = 10``: how the total was reached, for the log, in the expression's own
        order (``1D8+1+1D4 = 6+1+2``), so each number sits under the term it came from."""
        parts = []
        dice = list(self.dice)
        try:
            terms = parse(self.expression).terms
        except DiceError:
            terms = ()
        if self.typed and not dice and any(t.sides for t in terms):
            # a total typed for the dice, said once as what it is (a GM read "1D10+1+1D6 = 3 = 3 (typed)")
            return f"{self.expression} = {self.total} (typed total)"
        if sum(t.count for t in terms if t.sides) == len(dice) and dice:
            for t in terms:
                if t.sides:
                    for d in dice[:t.count]:
                        parts.append(("-" if d.sign < 0 else "+") + str(d.face))
                    dice = dice[t.count:]
                elif t.count:
                    parts.append(("-" if t.sign < 0 else "+") + str(t.count))
        else:  # a typed total kept as one number (no dice), or an expression that no longer parses
            for d in self.dice:
                parts.append(("-" if d.sign < 0 else "+") + str(d.face))
            if self.constant:
                parts.append(("-" if self.constant < 0 else "+") + str(abs(self.constant)))
        body = "".join(parts).lstrip("+") or "0"
        src = " (typed)" if self.typed else ""
        return f"{self.expression} = {body} = {self.total}{src}"

    def faces(self) -> list[int]:
        return [d.face for d in self.dice]

    def to_json(self) -> list[int]:
        """The form an action carries: the faces in order (constants are in the expression)."""
        return self.faces()


def _whole_numbers(given: Any, text: str) -> list[int]:
    """Typed faces as whole numbers. Text is refused outright (``"35"`` is not the dice 3 and 5)
    and so is a fraction (a die never shows 2.5), rather than being read digit by digit or cut."""
    if isinstance(given, (str, bytes)):
        raise DiceError(text, "a typed roll must be numbers, not text")
    try:
        items = list(given)
    except TypeError:
        raise DiceError(text, "a typed roll must be a list of whole numbers") from None
    if any(isinstance(f, bool) for f in items):
        raise DiceError(text, "a typed roll must be numbers")
    faces = []
    for f in items:
        if isinstance(f, float) and not f.is_integer():
            raise DiceError(text, f"a typed roll must be whole numbers, not {f}")
        try:
            faces.append(int(f))
        except (TypeError, ValueError, OverflowError):
            raise DiceError(text, "a typed roll must be a list of whole numbers") from None
    return faces


def _build(expr: DiceExpr, faces: Sequence[int], typed: bool) -> RollResult:
    dice = []
    i = 0
    constant = 0
    for t in expr.terms:
        if t.is_dice:
            for _ in range(t.count):
                dice.append(Die(t.sides, faces[i], t.sign))
                i += 1
        else:
            constant += t.sign * t.count
    total = sum(d.sign * d.face for d in dice) + constant
    return RollResult(str(expr), tuple(dice), constant, total, typed)


def roll(expression: "str | DiceExpr", rng: RandomSource) -> RollResult:
    """Roll with an explicit random source."""
    expr = parse(expression) if isinstance(expression, str) else expression
    if rng is None:
        raise DiceError(str(expr), "no dice were given and there is nothing to roll them with")
    faces = [rng.randint(1, t.sides) for t in expr.dice_terms for _ in range(t.count)]
    return _build(expr, faces, typed=False)


def one_die_message(sides: int, typed: Any) -> str:
    """What a GM reads beside a field for one die that was typed wrong: "type one d100 roll, 1-100,
    not 150" (a GM's play-through read "type whole numbers such as 8 4, not abc" and "(in '1D100')")."""
    return f"type one d{sides} roll, 1-{sides}, not {typed}"


def roll_given(expression: "str | DiceExpr", given: "Iterable[int] | int") -> RollResult:
    """Build a result from a GM's physical dice.

    ``given`` is either every face in order (``[3, 5]`` for ``2D6+2``) or, where the expression
    has a single die, just that face as an ``int``. A typed total for several dice is accepted as
    a single number too, when it is reachable; it is then kept as one pseudo-die so the log stays
    honest about what was typed.
    """
    expr = parse(expression) if isinstance(expression, str) else expression
    text = str(expr)
    if isinstance(given, bool):
        raise DiceError(text, "a typed roll must be numbers")
    if isinstance(given, int):
        if expr.dice_count == 1:
            given = [given]
        else:
            lo, hi = expr.minimum(), expr.maximum()
            if not lo <= given <= hi:
                raise DiceError(text, f"a total of {given} cannot come from {text} ({lo} to {hi})")
            return RollResult(text, (), given, given, typed=True)
    faces = _whole_numbers(given, text)
    one = expr.dice_terms[0].sides if expr.dice_count == 1 else None
    if one is not None and (len(faces) != 1 or not 1 <= faces[0] <= one):
        # one die: said as the GM rolls it ("one d100 roll, 1-100"), not as die 1 of an expression
        typed = f"{len(faces)} numbers" if len(faces) != 1 else faces[0]
        raise DiceError(text, one_die_message(one, typed))
    if len(faces) != expr.dice_count:
        raise DiceError(text, f"{text} needs {expr.dice_count} {'die' if expr.dice_count == 1 else 'dice'}, "
                              f"{len(faces)} typed")
    i = 0
    for t in expr.dice_terms:
        for _ in range(t.count):
            if not 1 <= faces[i] <= t.sides:
                raise DiceError(text, f"die {i + 1} shows {faces[i]}, but a D{t.sides} shows 1 to {t.sides}")
            i += 1
    return _build(expr, faces, typed=True)


def d100_face(value: int) -> int:
    """A d100 typed as 00 means 100."""
    return 100 if value == 0 else value


@dataclass(frozen=True)
class OpenEndedResult:
    """An open-ended d100 (tactical-round): 96-100 roll again and add; 01-05 roll again and
    subtract (and a subtracted 96-100 keeps going). Keeps every d100 rolled."""

    rolls: tuple[int, ...]
    total: int
    typed: bool = False

    def breakdown(self) -> str:
        if len(self.rolls) == 1:
            body = str(self.rolls[0])
        else:
            first = self.rolls[0]
            sign = "-" if first <= 5 else "+"
            body = str(first) + "".join(f"{sign}{r}" for r in self.rolls[1:])
        return f"open-ended D100 = {body} = {self.total}" + (" (typed)" if self.typed else "")

    def to_json(self) -> list[int]:
        return list(self.rolls)


def _open_total(rolls: Sequence[int]) -> int:
    first = rolls[0]
    rest = sum(rolls[1:])
    return first - rest if first <= 5 and len(rolls) > 1 else first + rest


def _open_check(rolls: Sequence[int], expr: str = "open-ended D100") -> None:
    if not rolls:
        raise DiceError(expr, "at least one d100 is needed")
    for r in rolls:
        if not 1 <= r <= 100:
            raise DiceError(expr, f"a d100 shows 1 to 100, not {r}")
    first = rolls[0]
    needs_more = first >= 96 or first <= 5
    if needs_more and len(rolls) == 1:
        raise DiceError(expr, f"{first} is open-ended: roll again and type both")
    if not needs_more and len(rolls) > 1:
        raise DiceError(expr, f"{first} is not open-ended: type one roll")
    for i in range(1, len(rolls)):
        cont = rolls[i] >= 96
        last = i == len(rolls) - 1
        if cont and last:
            raise DiceError(expr, f"{rolls[i]} keeps the roll open: roll again and type it too")
        if not cont and not last:
            raise DiceError(expr, f"{rolls[i]} ends the roll; {len(rolls) - i - 1} extra value{'' if len(rolls) - i - 1 == 1 else 's'} typed")


def roll_open_ended(rng: RandomSource, limit: int = 20) -> OpenEndedResult:
    if rng is None:
        raise DiceError("open-ended D100", "no dice were given and there is nothing to roll them with")
    rolls = [rng.randint(1, 100)]
    if rolls[0] >= 96 or rolls[0] <= 5:
        while len(rolls) < limit:
            r = rng.randint(1, 100)
            rolls.append(r)
            if r < 96:
                break
    return OpenEndedResult(tuple(rolls), _open_total(rolls))


def open_ended_given(given: "Iterable[int] | int") -> OpenEndedResult:
    rolls = _whole_numbers([given] if isinstance(given, int) else given, "open-ended D100")
    rolls = [d100_face(r) for r in rolls]
    _open_check(rolls)
    return OpenEndedResult(tuple(rolls), _open_total(rolls), typed=True)
