"""Distances on the map (fray.geometry): separation kept in parts, each ruleset's combine rule,
and range bands looked up by their upper limit in metres."""

from __future__ import annotations

import math

import pytest

from fray.geometry import Separation, band_of, distance, separation
from fray.model import Position


def test_separation_splits_horizontal_and_vertical():
    """A 3-4-5 triangle on the ground, 12 m of altitude between them."""
    s = separation(Position(0, 0, 0), Position(3, 4, 12))
    assert s == Separation(5.0, 12.0)
    assert s.straight == 13.0
    assert s.explain() == "13.0 m = √(5.0² across + 12.0² up)"


def test_separation_is_symmetric_and_zero_for_the_same_place():
    """Distance does not depend on who measures, and is zero to oneself."""
    a, b = Position(-2, 7, 30), Position(5, -1, 10)
    assert separation(a, b) == separation(b, a)
    assert separation(a, a) == Separation(0.0, 0.0)


def test_explain_on_flat_ground_shows_only_the_metres():
    """With no altitude difference the explanation is just the distance."""
    assert separation(Position(0, 0, 5), Position(0, 2.5, 5)).explain() == "2.5 m"


def test_straight_vs_horizontal_distance():
    """``straight`` goes through the air; ``horizontal`` ignores altitude."""
    a, b = Position(0, 0, 0), Position(6, 8, 24)
    assert distance(a, b) == distance(a, b, "straight") == 26.0
    assert distance(a, b, "horizontal") == 10.0
    assert math.isclose(distance(Position(1, 1, 0), Position(2, 2, 1)), math.sqrt(3))


def test_unknown_distance_rule_raises():
    """A misspelt rule is an error, not a silent default."""
    with pytest.raises(ValueError, match="unknown distance rule 'manhattan'"):
        distance(Position(), Position(1, 1), "manhattan")


BANDS = [{"id": "close", "max": 2}, {"id": "short", "max": 10}, {"id": "medium", "max": 50}, {"id": "far", "max": None}]


@pytest.mark.parametrize("metres, band", [(0, "close"), (2, "close"), (2.01, "short"), (10, "short"),
                                          (49.9, "medium"), (50, "medium"), (50.1, "far"), (1e6, "far")])
def test_band_of_picks_the_first_band_covering_the_distance(metres, band):
    """A band's ``max`` is inclusive; ``None`` means no limit."""
    assert band_of(metres, BANDS)["id"] == band


def test_band_of_beyond_every_limited_band_is_none():
    """Without an unlimited band, a distance past the last one has no band."""
    assert band_of(51, BANDS[:3]) is None
    assert band_of(0, []) is None
