"""Time passes between fights: strike-rank Natural Healing and Treatment, on a character.

The rule text (strike-rank, Healing, Natural Healing): "Natural healing depends on a character's
Healing Rate. Minor wounds will heal if left alone; more serious injuries will not begin healing
naturally until treated with First Aid or healed at least partially. Natural healing requires rest;
strenuous activity (GM's discretion; travelling by foot counts, as does heavy labor and any
fighting). Each hit location heals separately."

* "Minor Wound (1+ HP)/Serious Wound (0 HP): Recover HP equal to HR at the end of each day."
* "Maimed (-X HP): Recover HP equal to HR at the end of each week."
* "Mangled (-2X HP): Recover HP equal to HR at the end of each season. Mangled limbs never fully
  heal naturally: they remain useless."
* "If a character is missing total HP but has no injured hit locations, treat total HP as its own
  minor wound for the purposes of healing. Thus, injured hit locations heal first."
* Treatment: "a Success grants +1 HR, a Special Success grants +2 HR, and a Critical Success grants
  +3 HR" (the ``natural_healing`` table's ``treatment``).
* "When a location's HP are healed, a corresponding amount of total HP are healed. Neither healing
  amount can exceed the amount of HP the location was missing."

How it is counted (``fray.games.strike_rank.healing.rest_days``, the one implementation, which the
encounter's own "Heal naturally" uses too): time goes by whole days. Each location counts the rested days it has spent at
its injury level ("healing_days"); when they reach its level's period (a day, a week, a season)
it recovers HR (+ treatment) and starts counting again, so seven single days heal a maimed
location as one week does. A location heals once per day at most, at the rate of its level as
the day ends. A day that was not rested counts for nothing and starts every count again
("Natural healing requires rest"). A few hours end no day: nothing heals. The days in a week
(7) come from the calendar; the days in a season (56: eight weeks, the Gloranthan season) are
*assumed*, as the text does not say, and kept here as data (``DAYS``).

Readings where the text is silent, said so to the GM in the result:
* a location with a weapon stuck in it does not heal ("The injured location cannot be healed
  while the weapon is stuck in.");
* a severed limb does not heal naturally (it needs re-attaching, Regenerate or Regrow Limb), and
  as it never will, it does not hold back the total HP's own healing;
* a location still bleeding heals as any other; the text stops bleeding only by First Aid or magic.

tactical-round and range-band: their texts give no rule for recovering hit points, fatigue or
trauma between fights. Time passing changes nothing there, says so, and the GM sets the values
by hand (``set_by_hand``).
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import InvalidAction

PERIODS = ("hours", "day", "week", "season")
PERIOD_WORDS = {"hours": "a few hours", "day": "a day", "week": "a week", "season": "a season"}
# days each period is; the season's 56 is assumed (eight weeks of seven days, Glorantha's calendar)
DAYS = {"hours": 0, "day": 1, "week": 7, "season": 56}
DAYS_ASSUMED = ("season",)
TREATMENT = ("none", "fumble", "failure", "success", "special", "critical")
def check_period(period: Any, field: str = "period") -> str:
    if isinstance(period, (int, float)) and not isinstance(period, bool) and period < 0:
        raise InvalidAction(field, "time only passes forwards: choose a few hours, a day, a week or a season")
    if period not in PERIODS:
        raise InvalidAction(field, "choose a few hours, a day, a week or a season")
    return period


def time_passes(ch: dict[str, Any], period: Any, rested: Any = True, treatment: Any = "none") -> tuple[dict[str, Any], list[str]]:
    """The character after ``period`` (``PERIODS``), rested or not, with a healer's Treatment result
    (``TREATMENT``; "none" = no healer); and what happened, in the GM's words. The input is never
    edited; a bad value raises ``InvalidAction`` at its field before anything changes."""
    from .character import name_of

    check_period(period)
    if not isinstance(rested, bool):
        raise InvalidAction("rested", "must be yes or no")
    if treatment not in TREATMENT:
        raise InvalidAction("treatment", "choose no healer, or the healer's First Aid result: "
                            "fumble, failure, success, special or critical")
    name = name_of(ch)
    if ch.get("dead"):
        return ch, [f"{name} is dead: time heals nothing"]
    from .games import game

    g = game(ch["ruleset"])
    if g is None or not hasattr(g, "time_passes"):
        return ch, [getattr(g, "NO_RECOVERY", "This game has no rules for healing between fights: nothing changes")]
    return g.time_passes(ch, period, rested, treatment)


def set_by_hand(ch: dict[str, Any], carried: dict[str, Any]) -> dict[str, Any]:
    """The GM's own values for what the character carries (where the rules give no recovery, or to
    correct anything): checked as everything that comes in is; the input is never edited."""
    from .character import check

    out = copy.deepcopy(ch)
    out["carried"] = copy.deepcopy(carried)
    check(out, "character")
    return out
