"""The odds of a ``tr.attack`` before the roll: the distribution of the open-ended total (d100 +
CMB and modifiers − DEF) and, where the GM has loaded an attack table, the chance of each of its
bands.

Built from the attack's own code: ``actions.plan_attack`` works out CMB, every modifier and DEF
(parry, shield, cover) exactly as the attack will; ``fray.chance.open_ended_d100`` counts every
chain of d100s as ``dice.roll_open_ended`` rolls them (to its limit of 20), and each total is
looked up with ``actions.lookup_result``, the function the attack uses. Exact: each chance is a
``Fraction``. It never rolls and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fray.chance import Dist, open_ended_d100
from fray.errors import FrayError
from fray.model import Encounter
from fray.tray import DiceTray
from fray.games.base import Context
from fray.games.tactical_round import actions, rules

METHOD = "exact: every chain of open-ended d100s (to the engine's limit of 20) is counted"
SPAN = 400  # totals this far beyond the roll's usual 1..100 are grouped ("N or more")


@dataclass
class AttackOdds:
    attacker: str = ""
    target: str = ""
    weapon: str = ""
    modifier: int = 0  # CMB and modifiers less DEF
    breakdown: str = ""  # "roll open-ended d100 + CMB 55 − DEF 40 (DEF 25 + shield 15)"
    low: int = 0  # totals at or below this are counted together
    high: int = 0  # and at or above this
    totals: Dist | None = None  # the attack total
    bands: list[dict[str, Any]] = field(default_factory=list)  # {label, min, max, hits, critical, chance}
    unmatched: Fraction = Fraction(0)  # totals no row of the GM's table covers
    table_loaded: bool = False
    method: str = METHOD
    notes: list[str] = field(default_factory=list)
    error: str = ""

    def at_least(self, total: int) -> Fraction:
        return self.totals.chance(lambda v: v >= total) if self.totals else Fraction(0)

    def quantile(self, q: float) -> int:
        """The smallest total reached with at least chance ``q`` of rolling it or less."""
        run = Fraction(0)
        for v, p in self.totals.items():
            run += p
            if run >= Fraction(q).limit_denominator(1000):
                return v
        return self.high


def attack_odds(ruleset: Any, enc: Encounter, action: dict[str, Any]) -> AttackOdds:
    act = {k: v for k, v in action.items() if k != "rolls"}
    ctx = Context(enc, act, DiceTray({}, None), ruleset)
    try:
        p = actions.plan_attack(ctx)
    except FrayError as e:
        # "No odds: Broadsword attacks in Melee, not in Ranged A": the reason, without the engine's
        # "(rule: Tactical Round Sequence)" (issue 33: read as developer text)
        rule = getattr(e, "rule", "")
        return AttackOdds(error=str(e).removesuffix(f" (rule: {rule})") if rule else str(e))
    t = actions.tables_of(ctx)
    mod = p.modifier
    entries = t["attack_results"]["entries"]
    # group the far tails, but never across a boundary of the GM's table: every band stays exact
    bounds = [e["min"] for e in entries if e.get("min") is not None] + \
             [e["max"] + 1 for e in entries if e.get("max") is not None]
    low = min([1 + mod - SPAN] + [b - 1 for b in bounds])
    high = max([100 + mod + SPAN] + bounds)
    roll = open_ended_d100(low - mod, high - mod)
    totals = Dist({v + mod: w for v, w in roll.weights.items()}, roll.total)
    _, text = rules.explain_total("open-ended d100", 0, p.cmb, p.dfn)  # the attack's own breakdown
    out = AttackOdds(p.attacker.name, p.target.name, p.weapon["name"], mod, text.split(" = ", 1)[1],
                     low, high, totals, table_loaded=bool(entries),
                     notes=p.notes + p.def_notes)
    if entries:
        found = totals.map(lambda v: _row(t, p.weapon["kind"], v))
        for i, e in enumerate(entries):
            if e["kind"] not in ("any", p.weapon["kind"]):
                continue
            out.bands.append({"min": e.get("min"), "max": e.get("max"), "hits": e.get("hits", 0),
                              "critical": e.get("critical"), "label": e.get("label", ""), "chance": found.p(i)})
        out.unmatched = found.p(None)
    return out


def _row(t: dict[str, Any], kind: str, total: int) -> int | None:
    e = actions.lookup_result(t, kind, total)
    if e is None:
        return None
    return next(i for i, x in enumerate(t["attack_results"]["entries"]) if x is e)
