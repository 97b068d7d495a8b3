"""Dice in the games' notation (issue 2, item 3: "Dice").

Each test names the contract it checks: the notation that must parse, the operations the rules
need (double the dice, halve a die, maximise), an explicit random source, results that keep every
die, a GM's physical dice typed in, clear errors, and the open-ended d100.
"""

from __future__ import annotations

import random

import pytest

from fray.dice import (
    Die,
    DiceExpr,
    Term,
    open_ended_given,
    parse,
    roll,
    roll_given,
    roll_open_ended,
)
from fray.errors import DiceError


class ScriptedRng:
    """A random source that hands out the given faces in order and records what was asked."""

    def __init__(self, faces):
        self.faces = list(faces)
        self.asked: list[tuple[int, int]] = []

    def randint(self, a, b):
        self.asked.append((a, b))
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        return face


# -- notation -------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, terms, lo, hi",
    [
        ("1D6+1", [(1, 1, 6), (1, 1, 0)], 2, 7),
        ("2D6+2", [(1, 2, 6), (1, 2, 0)], 4, 14),
        ("1D3", [(1, 1, 3)], 1, 3),
        ("1D10+10", [(1, 1, 10), (1, 10, 0)], 11, 20),
        ("D100", [(1, 1, 100)], 1, 100),
        ("-1D4", [(-1, 1, 4)], -4, -1),
        ("1D8+1+1D4", [(1, 1, 8), (1, 1, 0), (1, 1, 4)], 3, 13),
        ("2d6-1", [(1, 2, 6), (-1, 1, 0)], 1, 11),
        (" 1 D 6 + 1 ", [(1, 1, 6), (1, 1, 0)], 2, 7),
        ("3", [(1, 3, 0)], 3, 3),
        ("1D6-1D4", [(1, 1, 6), (-1, 1, 4)], -3, 5),
    ],
)
def test_notation_parses_to_signed_terms_with_min_and_max(text, terms, lo, hi):
    """Every notation the issue lists parses to its signed terms; min/max follow the signs
    (a subtracted die is lowest at its highest face)."""
    expr = parse(text)
    assert [(t.sign, t.count, t.sides) for t in expr.terms] == terms
    assert expr.minimum() == lo
    assert expr.maximum() == hi


@pytest.mark.parametrize(
    "text, canonical",
    [("1d6+1", "1D6+1"), ("D100", "1D100"), ("-1D4", "-1D4"), ("1D8 + 1 + 1D4", "1D8+1+1D4"), ("2D6-1", "2D6-1")],
)
def test_expression_prints_in_canonical_notation_and_reparses(text, canonical):
    """str(expr) is the games' upper-case notation and parses back to the same expression."""
    expr = parse(text)
    assert str(expr) == canonical
    assert parse(str(expr)) == expr


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("1D", "cannot read"),
        ("D", "cannot read"),
        ("2X6", "cannot read"),
        ("1D6+", "cannot read"),
        ("1D6 2", "missing + or -"),
        ("1D6 1D4", "missing + or -"),
        ("0D6", "at least one die"),
        ("1D0", "1 to 1000 sides"),
        ("1D1001", "1 to 1000 sides"),
        ("201D6", "at most 200 dice"),
        ("1D6*2", "cannot read"),
        ("<b>1D6</b>", "cannot read"),
    ],
)
def test_malformed_expression_raises_dice_error_naming_the_input(bad, fragment):
    """A malformed expression raises DiceError; the message says what is wrong and quotes the input."""
    with pytest.raises(DiceError) as info:
        parse(bad)
    assert fragment in str(info.value)
    assert info.value.expression == bad
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [None, 6, ["1D6"]])
def test_non_text_expression_raises_dice_error(bad):
    """Only text is a dice expression."""
    with pytest.raises(DiceError, match="must be text"):
        parse(bad)


# -- operations the rules need ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "text, doubled",
    [("1D8+1", "2D8+1"), ("2D6+2", "4D6+2"), ("1D8+1+1D4", "2D8+1+2D4"), ("-1D4", "-2D4"), ("3", "3")],
)
def test_doubled_dice_doubles_every_die_and_keeps_constants(text, doubled):
    """Special damage doubles the weapon's dice, never its constant bonus."""
    assert str(parse(text).doubled_dice()) == doubled


@pytest.mark.parametrize("text, halved", [("1D4", "1D2"), ("1D6", "1D3"), ("2D6", "2D3"), ("-1D4", "-1D2"), ("1D3", "1D1")])
def test_halved_die_halves_each_die_size(text, halved):
    """A halved damage modifier halves the die's size (1D4 → 1D2, 1D6 → 1D3, 2D6 → 2D3)."""
    assert str(parse(text).halved_die()) == halved


def test_halving_a_one_sided_die_raises():
    """A D1 has no half: the error names the expression."""
    with pytest.raises(DiceError, match="one-sided"):
        parse("1D1").halved_die()


@pytest.mark.parametrize("text, top", [("1D6+1", 7), ("2D6+2", 14), ("1D8+1+1D4", 13), ("-1D4", -1), ("1D6-1D4", 5)])
def test_maximised_is_a_constant_at_the_highest_total(text, top):
    """Maximised damage is every die at its top face: a constant equal to the maximum."""
    m = parse(text).maximised()
    assert m.dice_count == 0
    assert m.minimum() == m.maximum() == top
    assert roll(m, ScriptedRng([])).total == top


def test_plus_adds_a_damage_modifier():
    """Weapon damage plus a damage modifier is the sum of both expressions."""
    assert str(parse("1D8+1").plus("1D4")) == "1D8+1+1D4"
    assert str(parse("1D8+1").plus("-1D4")) == "1D8+1-1D4"


def test_operations_return_new_expressions():
    """Expressions are values: operations never edit the one they are called on."""
    e = parse("1D6+1")
    e.doubled_dice(), e.halved_die(), e.maximised(), e.plus("1D4")
    assert e == DiceExpr((Term(1, 1, 6), Term(1, 1, 0)))


# -- rolling with an explicit random source ------------------------------------------------------------

def test_same_seed_gives_the_same_roll():
    """A roll takes its random source: the same seed replays the same dice."""
    a = [roll("1D8+1+1D4", random.Random(7)).faces() for _ in range(3)]
    b = [roll("1D8+1+1D4", random.Random(7)).faces() for _ in range(3)]
    assert a == b
    many = {tuple(roll("3D6", random.Random(s)).faces()) for s in range(20)}
    assert len(many) > 1, "different seeds should give different dice"


def test_roll_uses_the_rng_given_not_a_global_one():
    """Seeding the module-level generator has no effect on a roll with its own source."""
    random.seed(1)
    a = roll("10D10", random.Random(99)).faces()
    random.seed(2)
    b = roll("10D10", random.Random(99)).faces()
    assert a == b


def test_scripted_rng_gives_the_expected_breakdown():
    """A fake source with fixed faces: the result keeps every die in order, with its size and sign."""
    rng = ScriptedRng([3, 5])
    r = roll("2D6+2", rng)
    assert rng.asked == [(1, 6), (1, 6)]
    assert r.dice == (Die(6, 3), Die(6, 5))
    assert r.constant == 2
    assert r.total == 10
    assert r.typed is False
    assert r.breakdown() == "2D6+2 = 3+5+2 = 10"


def test_mixed_sum_keeps_each_die_and_subtracts_negative_terms():
    """1D8+1-1D4 with faces 6 and 3: the D4 is kept with its minus sign and subtracted."""
    rng = ScriptedRng([6, 3])
    r = roll("1D8+1-1D4", rng)
    assert rng.asked == [(1, 8), (1, 4)]
    assert r.dice == (Die(8, 6, 1), Die(4, 3, -1))
    assert r.total == 4
    assert r.breakdown() == "1D8+1-1D4 = 6+1-3 = 4"  # in the formula's order (issue 10)
    assert r.to_json() == [6, 3]


def test_negative_single_die():
    """-1D4 rolls a D4 and subtracts it."""
    r = roll("-1D4", ScriptedRng([4]))
    assert r.total == -4
    assert r.breakdown() == "-1D4 = -4 = -4"


def test_rolled_totals_stay_within_min_and_max():
    """Over many seeds, every total lies between the expression's minimum and maximum, and both
    ends are reached."""
    expr = parse("1D3+1D4-1")
    totals = {roll(expr, random.Random(s)).total for s in range(400)}
    assert min(totals) == expr.minimum() == 1
    assert max(totals) == expr.maximum() == 6


# -- typed physical dice -------------------------------------------------------------------------------

def test_typed_faces_build_the_same_result_as_a_roll_but_marked_typed():
    """A GM's physical dice build the same RollResult as the random source would, flagged typed."""
    typed = roll_given("2D6+2", [3, 5])
    rolled = roll("2D6+2", ScriptedRng([3, 5]))
    assert typed.dice == rolled.dice and typed.total == rolled.total == 10
    assert typed.typed is True
    assert typed.breakdown() == "2D6+2 = 3+5+2 = 10 (typed)"


def test_typed_single_die_as_a_plain_number():
    """Where the expression has one die, the GM may type just its face."""
    r = roll_given("1D10+10", 7)
    assert r.dice == (Die(10, 7),)
    assert r.total == 17


def test_typed_total_for_several_dice_is_accepted_when_reachable():
    """A single typed number for several dice is a total; it must be reachable."""
    r = roll_given("2D6+2", 11)
    assert r.total == 11 and r.typed
    assert r.dice == ()
    for bad in (3, 15):
        with pytest.raises(DiceError, match="cannot come from 2D6\\+2 \\(4 to 14\\)"):
            roll_given("2D6+2", bad)


@pytest.mark.parametrize(
    "expr, given, fragment",
    [
        ("2D6+2", [3], "needs 2 dice, 1 typed"),
        ("2D6+2", [3, 5, 1], "needs 2 dice, 3 typed"),
        ("2D6", [7, 1], "die 1 shows 7, but a D6 shows 1 to 6"),
        ("1D8+1D4", [8, 5], "die 2 shows 5, but a D4 shows 1 to 4"),
        ("1D6", 0, "type one d6 roll, 1-6, not 0"),
        ("1D6", True, "must be numbers"),
        ("2D6", [True, 3], "must be numbers"),
        ("2D6", ["a", 3], "list of whole numbers"),
        ("2D6", None, "list of whole numbers"),
        ("2D6", "35", "not text"),
        ("1D6", [2.5], "whole numbers, not 2.5"),
    ],
)
def test_bad_typed_dice_raise_dice_error(expr, given, fragment):
    """Typed dice are checked against the expression: count, face range and type."""
    with pytest.raises(DiceError) as info:
        roll_given(expr, given)
    assert fragment in str(info.value)


# -- open-ended d100 ------------------------------------------------------------------------------------

def test_open_ended_plain_roll_stops_at_once():
    """6..95 is not open-ended: one d100 is the total."""
    rng = ScriptedRng([50])
    r = roll_open_ended(rng)
    assert r.rolls == (50,) and r.total == 50
    assert rng.faces == []


def test_open_ended_high_rolls_again_and_adds():
    """96-100 rolls again and adds; another 96-100 keeps going."""
    r = roll_open_ended(ScriptedRng([98, 97, 40]))
    assert r.rolls == (98, 97, 40)
    assert r.total == 235
    assert r.breakdown() == "open-ended D100 = 98+97+40 = 235"


def test_open_ended_low_rolls_again_and_subtracts():
    """01-05 rolls again and subtracts; a subtracted 96-100 keeps going."""
    r = roll_open_ended(ScriptedRng([3, 97, 10]))
    assert r.rolls == (3, 97, 10)
    assert r.total == -104
    assert r.breakdown() == "open-ended D100 = 3-97-10 = -104"


@pytest.mark.parametrize(
    "given, total",
    [([98, 40], 138), ([3, 97, 10], -104), ([50], 50), (50, 50), ([5, 20], -15), ([100, 0, 3], 203)],
)
def test_open_ended_typed(given, total):
    """Typed open-ended rolls: 00 means 100; totals as the rule adds or subtracts."""
    r = open_ended_given(given)
    assert r.total == total
    assert r.typed


@pytest.mark.parametrize(
    "given, fragment",
    [
        ([98], "roll again and type both"),
        ([3], "roll again and type both"),
        ([50, 10], "not open-ended"),
        ([98, 97], "keeps the roll open"),
        ([98, 40, 12], "ends the roll"),
        ([3, 10, 20], "ends the roll"),
        ([101], "1 to 100"),
        ([-4], "1 to 100"),
        ([], "at least one"),
        ("9840", "not text"),
        ([50.5], "whole numbers"),
    ],
)
def test_open_ended_typed_inconsistent_sequences_are_rejected(given, fragment):
    """A typed open-ended sequence must be one the rule could produce."""
    with pytest.raises(DiceError) as info:
        open_ended_given(given)
    assert fragment in str(info.value)


def test_open_ended_rolled_sequence_is_accepted_when_typed_back():
    """Whatever the random source produces, typing the same numbers back gives the same total."""
    for seed in range(300):
        r = roll_open_ended(random.Random(seed))
        assert open_ended_given(list(r.rolls)).total == r.total


def test_breakdown_follows_the_formula_and_one_die_is_a_die():
    """A damage breakdown reads term by term ("1D8+1+1D4 = 6+1+2"), and a count of one is "1 die" (issue 10)."""
    assert roll_given("1D8+1+1D4", [6, 2]).breakdown() == "1D8+1+1D4 = 6+1+2 = 9 (typed)"
    assert roll_given("2D6", 9).breakdown() == "2D6 = 9 (typed total)"  # a typed total stays one number
    with pytest.raises(DiceError, match="type one d8 roll, 1-8, not 2 numbers"):
        roll_given("1D8", [1, 2])


def test_a_typed_total_is_said_once():
    """A GM's play: one typed damage "3" for 1D10+1+1D6 read "1D10+1+1D6 = 3 = 3 (typed)"; a total typed for
    several dice is said once, as what it is: "1D10+1+1D6 = 3 (typed total)"."""
    assert roll_given("1D10+1+1D6", 3).breakdown() == "1D10+1+1D6 = 3 (typed total)"
    assert roll_given("1D10+1+1D6", [1, 1]).breakdown() == "1D10+1+1D6 = 1+1+1 = 3 (typed)"
