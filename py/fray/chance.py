"""Exact chances of the games' dice, for the odds shown before a roll. Nothing here rolls.

A ``Dist`` is a finite distribution with whole-number weights over a whole-number total, so a
sum of dice (a convolution), a mixture or a look-up of each outcome in a table stays exact: a
chance is a ``Fraction``, never a float that drifted. The dice are read by ``fray.dice`` (the
same parser the rolls use) and the open-ended d100 follows ``dice.roll_open_ended`` roll for roll,
including its limit of 20 rolls.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Hashable, Iterable

from .dice import DiceExpr, parse


class Dist:
    """Outcome → whole-number weight, out of ``total``."""

    __slots__ = ("weights", "total")

    def __init__(self, weights: dict[Any, int], total: int | None = None):
        self.weights = {k: w for k, w in weights.items() if w}
        self.total = sum(self.weights.values()) if total is None else total

    @classmethod
    def point(cls, value: Any) -> "Dist":
        return cls({value: 1}, 1)

    @classmethod
    def uniform(cls, lo: int, hi: int) -> "Dist":
        """A fair die from ``lo`` to ``hi``."""
        return cls({v: 1 for v in range(lo, hi + 1)}, hi - lo + 1)

    def __add__(self, other: "Dist") -> "Dist":
        """The sum of two independent totals (a convolution)."""
        out: dict[int, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                out[a + b] = out.get(a + b, 0) + wa * wb
        return Dist(out, self.total * other.total)

    def map(self, fn: Callable[[Any], Hashable]) -> "Dist":
        """Each outcome through ``fn`` (a table look-up, a rule); equal results merge."""
        out: dict[Any, int] = {}
        for v, w in self.weights.items():
            k = fn(v)
            out[k] = out.get(k, 0) + w
        return Dist(out, self.total)

    def chance(self, pred: Callable[[Any], bool] | None = None) -> Fraction:
        """The chance of the outcomes for which ``pred`` holds (all of them without one)."""
        w = sum(x for v, x in self.weights.items() if pred is None or pred(v))
        return Fraction(w, self.total)

    def p(self, value: Any) -> Fraction:
        return Fraction(self.weights.get(value, 0), self.total)

    def items(self) -> list[tuple[Any, Fraction]]:
        """(outcome, chance), outcomes in order where they can be ordered."""
        try:
            keys: Iterable[Any] = sorted(self.weights)
        except TypeError:
            keys = list(self.weights)
        return [(k, Fraction(self.weights[k], self.total)) for k in keys]

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.weights.items()), self.total)


def of_dice(expression: "str | DiceExpr") -> Dist:
    """The exact distribution of a dice expression (``1D8+1+1D4``, ``-1D4``, ``2D6+2``)."""
    expr = parse(expression) if isinstance(expression, str) else expression
    out = Dist.point(0)
    const = 0
    for t in expr.terms:
        if not t.is_dice:
            const += t.sign * t.count
            continue
        die = Dist({t.sign * f: 1 for f in range(1, t.sides + 1)}, t.sides)
        for _ in range(t.count):
            out = out + die
    return out + Dist.point(const) if const else out


OPEN_LIMIT = 20  # dice.roll_open_ended stops after 20 d100s


def _chain(rolls_left: int, cap: int) -> Dist:
    """The sum of the rolls that follow an open first roll: a d100, and again while it shows 96+,
    at most ``rolls_left`` more. Sums of ``cap`` or more are kept together at ``cap``."""
    final: dict[int, int] = {}
    pending = {0: 1}
    for k in range(1, rolls_left + 1):
        scale = 100 ** (rolls_left - k)
        nxt: dict[int, int] = {}
        for off, w in pending.items():
            for s in range(1, 101):
                v = off + s
                if s < 96 or k == rolls_left:
                    v = min(v, cap)
                    final[v] = final.get(v, 0) + w * scale
                elif v >= cap:  # everything after it is at least cap too: lump the whole chain
                    final[cap] = final.get(cap, 0) + w * scale
                else:
                    nxt[v] = nxt.get(v, 0) + w
        pending = nxt
        if not pending:
            break
    return Dist(final, 100 ** rolls_left)


@lru_cache(maxsize=64)
def open_ended_d100(low: int = -1000, high: int = 1000, limit: int = OPEN_LIMIT) -> Dist:
    """The open-ended d100: 96-100 roll again and add, 01-05 roll again and subtract (a subtracted
    96-100 keeps going), as ``dice.roll_open_ended`` rolls it. Exact; totals at or below ``low``
    are kept together at ``low`` and those at or above ``high`` at ``high``, so the chance of
    reaching any total between them is exact. Shared between callers: never edit the result."""
    up = _chain(limit - 1, max(1, high - 96))
    down = _chain(limit - 1, max(1, 5 - low))
    out: dict[int, int] = {}
    one = up.total  # the first roll's weight, in the chain's denominator
    for r in range(6, 96):
        v = min(max(r, low), high)
        out[v] = out.get(v, 0) + one
    for r in range(96, 101):
        for c, w in up.weights.items():
            v = min(r + c, high)
            out[v] = out.get(v, 0) + w
    for r in range(1, 6):
        for c, w in down.weights.items():
            v = max(r - c, low)
            out[v] = out.get(v, 0) + w
    return Dist(out, 100 * up.total)


def percent(x: Fraction | float) -> str:
    """A chance as the page shows it: ``37%``, ``0.4%``, ``<0.1%``, ``0%``, ``100%``."""
    f = float(x) * 100
    if f <= 0:
        return "0%"
    if f >= 100:
        return "100%"
    if f < 0.1:
        return "<0.1%"
    if f < 1:
        return f"{f:.1f}%"
    if f > 99:
        return ">99%"
    return f"{round(f):d}%"
