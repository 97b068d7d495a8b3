"""fray.chance: exact distributions of the games' dice, checked against brute-force enumeration of
the very functions the rolls use (``dice.roll_given``, ``dice.open_ended_given``)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from fray import dice
from fray.chance import Dist, of_dice, open_ended_d100, percent


@pytest.mark.parametrize("expr", ["1D8+1+1D4", "2D6+2", "-1D4", "1D3", "1D10+10", "2D4-1D3+2"])
def test_dice_expression_matches_every_face(expr):
    e = dice.parse(expr)
    sides = [t.sides for t in e.dice_terms for _ in range(t.count)]
    counts = Counter(dice.roll_given(e, list(f)).total for f in itertools.product(*(range(1, s + 1) for s in sides)))
    n = sum(counts.values())
    d = of_dice(expr)
    assert d.chance() == 1
    assert {v: p for v, p in d.items()} == {v: Fraction(c, n) for v, c in counts.items()}


def test_open_ended_d100_matches_the_engine_totals():
    """tactical-round (FACTS.md): "open-ended d100 (96-100 roll again and add; 01-05 roll again and
    subtract)"; a subtracted 96-100 keeps going (``dice.roll_open_ended``). Every total from -91
    to 192 comes from at most two d100s, so enumerating all pairs gives its exact chance."""
    brute: Counter = Counter()
    for a in range(1, 101):
        if 6 <= a <= 95:
            brute[dice.open_ended_given([a]).total] += 100
            continue
        for b in range(1, 101):
            if b < 96:
                brute[dice.open_ended_given([a, b]).total] += 1
    d = open_ended_d100(-400, 400)
    assert d.chance() == 1
    for v in range(-91, 193):
        assert d.p(v) == Fraction(brute.get(v, 0), 10000), v
    # hand-computed: only a first 96-100 reaches 97 or more, only a first 01-05 goes to 4 or less
    assert d.chance(lambda v: v >= 97) == Fraction(5, 100)
    assert d.chance(lambda v: v <= 4) == Fraction(5, 100)
    assert d.p(50) == Fraction(1, 100)


def test_open_ended_lumps_are_exact_at_their_edges():
    d = open_ended_d100(-50, 150)
    wide = open_ended_d100(-1000, 1000)
    assert d.p(150) == wide.chance(lambda v: v >= 150)
    assert d.p(-50) == wide.chance(lambda v: v <= -50)


def test_percent_text():
    assert [percent(x) for x in (0, Fraction(1, 2000), Fraction(4, 1000), Fraction(1, 3), Fraction(995, 1000), 1)] == \
        ["0%", "<0.1%", "0.4%", "33%", ">99%", "100%"]


def test_map_and_mean():
    d = Dist.uniform(1, 6)
    assert d.mean() == Fraction(7, 2)
    assert d.map(lambda v: v >= 5).p(True) == Fraction(1, 3)
