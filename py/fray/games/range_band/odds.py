"""The odds of a roll specification under the default mechanic of table ``core_roll``, which is
*assumed* (the game's own core roll is not public, FACTS.md): the chance of success, of
succeeding by 10 or more, and of a blunder.

Built from the functions ``rolls.roll_default`` decides a roll with: ``dice_count`` (one die,
plus one per net Hindrance or Easing), ``kept_face`` (the die that counts) and ``judge``
(success, margin, blunder). Exact: the kept die is counted die by die (the kept die of several is
the kept die of the ones so far and the next: true of highest, lowest and the one die), so even
a d20 with three extra dice is 1,200 look-ups, not 160,000 rolls; no simulation is needed. It never
rolls and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fray.chance import Dist
from fray.games.range_band import rolls

METHOD = "exact: every face of every die counted"


@dataclass
class SpecOdds:
    success: Fraction
    by_10: Fraction  # success by 10 or more
    blunder: Fraction
    method: str
    assumed: bool  # decided by Fray's assumed default mechanic, not the game's own roll
    dice: str = ""  # "3D20, keep the highest"
    by: dict[int, Fraction] = field(default_factory=dict)  # margin of a success → chance


def kept_dist(spec: dict[str, Any], core_roll: dict[str, Any]) -> Dist:
    """The distribution of the die that counts."""
    n = rolls.sides(spec["die"])
    die = Dist.uniform(1, n)
    kept = die
    for _ in range(rolls.dice_count(spec, core_roll) - 1):
        out: dict[int, int] = {}
        for k, wk in kept.weights.items():
            for f in range(1, n + 1):
                v = rolls.kept_face([k, f], spec, core_roll)
                out[v] = out.get(v, 0) + wk
        kept = Dist(out, kept.total * n)
    return kept


def spec_odds(spec: dict[str, Any], core_roll: dict[str, Any]) -> SpecOdds:
    """``spec`` is a ``RollSpec.to_json()``; ``core_roll`` the (possibly GM-edited) table."""
    auto = spec.get("auto")
    if auto:
        ok = bool(auto.get("success"))
        by = int(auto.get("by", 0))
        one = Fraction(int(ok))
        return SpecOdds(one, one if by >= 10 else Fraction(0), Fraction(0),
                        f"settled by the rules: {auto.get('reason', '')}", False, "", {by: one} if ok else {})
    count = rolls.dice_count(spec, core_roll)
    net = int(spec["net_hindrance"])
    how = "" if count == 1 else (", keep the highest" if net > 0 else ", keep the lowest")
    kept = kept_dist(spec, core_roll)
    verdict = kept.map(lambda k: _verdict(rolls.judge(spec, core_roll, k)))
    by: dict[int, Fraction] = {}
    for (ok, margin, _), p in verdict.items():
        if ok:
            by[margin] = by.get(margin, Fraction(0)) + p
    return SpecOdds(verdict.chance(lambda v: v[0]), verdict.chance(lambda v: v[0] and v[1] >= 10),
                    verdict.chance(lambda v: v[2]), METHOD, True, f"{count}D{rolls.sides(spec['die'])}{how}",
                    dict(sorted(by.items())))


def _verdict(j: dict[str, Any]) -> tuple[bool, int, bool]:
    return bool(j["success"]), int(j["by"]), bool(j["blunder"])
