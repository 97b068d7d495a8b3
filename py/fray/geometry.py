"""Distances on the map, by each game's rule.

Positions are metres (x east, y north) and altitude in metres. The metre-based games
(strike-rank, tactical-round) measure the straight line through the air; the range-band game
takes the greater of the horizontal and the vertical band (FACTS.md), so each ruleset names its
``combine`` rule and this module does the arithmetic once for all of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .model import Position


@dataclass(frozen=True)
class Separation:
    """How far apart two positions are, kept in parts so a GM can see where a figure came from."""

    horizontal: float
    vertical: float

    @property
    def straight(self) -> float:
        return math.hypot(self.horizontal, self.vertical)

    def explain(self) -> str:
        if self.vertical == 0:
            return f"{self.horizontal:.1f} m"
        return (f"{self.straight:.1f} m = √({self.horizontal:.1f}² across + {self.vertical:.1f}² up)")


def separation(a: Position, b: Position) -> Separation:
    return Separation(math.hypot(a.x - b.x, a.y - b.y), abs(a.alt - b.alt))


def distance(a: Position, b: Position, combine: str = "straight") -> float:
    """Distance in metres by a ruleset's rule: ``straight`` (3-D line) or ``horizontal``."""
    s = separation(a, b)
    if combine == "straight":
        return s.straight
    if combine == "horizontal":
        return s.horizontal
    raise ValueError(f"unknown distance rule {combine!r}")


def band_of(metres: float, bands: list[dict]) -> dict | None:
    """The first band whose ``max`` (metres, ``None`` = no limit) covers ``metres``."""
    for b in bands:
        if b.get("max") is None or metres <= b["max"]:
            return b
    return None
