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

How it is counted: time goes by whole days. Each location counts the rested days it has spent at
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
NO_RULE = {
    "tactical-round": "The tactical-round rules give no recovery of hit points between fights: set the hits taken by hand.",
    "range-band": "The range-band rules give no recovery of post-combat fatigue or trauma: set them by hand.",
}


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
    if ch["ruleset"] in NO_RULE:
        return ch, [NO_RULE[ch["ruleset"]]]
    if ch["ruleset"] != "strike-rank":
        return ch, [f"{ch['ruleset']} has no healing rules: nothing changes"]
    return _strike_rank(ch, period, rested, treatment)


def _strike_rank(ch: dict[str, Any], period: str, rested: bool, treatment: str) -> tuple[dict[str, Any], list[str]]:
    from ..rulesets import get_ruleset
    from ..rulesets.strike_rank import body, rules
    from .carry import carry_over
    from .character import check, name_of, standing

    name = name_of(ch)
    enc, c = standing(ch)
    ruleset = get_ruleset("strike-rank")
    table = ruleset.table(enc, "natural_healing")
    every = {e["injury"]: DAYS[e["period"]] for e in table["entries"]}
    hr = body.derived(ruleset, enc, c)["healing_rate"]["value"]
    bonus = int(table.get("treatment", {}).get(treatment, 0))
    rate = hr + bonus
    days = DAYS[period]
    counts: dict[str, int] = dict(ch.get("carried", {}).get("healing_days", {}))
    stuck = {s["location"] for s in ch.get("carried", {}).get("stuck", [])}
    said = [f"{PERIOD_WORDS[period].capitalize()} passes for {name}"
            + (f" (days in a season: {DAYS['season']}, assumed)" if period in DAYS_ASSUMED else "")]
    if days == 0:
        said.append("No day ends: nothing heals yet (natural healing comes at the end of each day)")
        return ch, said
    if not rested:
        said.append("Natural healing requires rest: strenuous activity, nothing heals, and the count of rested days starts again")
        out = copy.deepcopy(ch)
        out.setdefault("carried", {}).pop("healing_days", None)
        return out, said
    said.append(f"Healing Rate {hr}" + (f" + {bonus} for the healer's {treatment} Treatment" if bonus else "")
                + (f" (the healer's Treatment: {treatment}, no bonus)" if treatment not in ("none",) and not bonus else ""))
    waiting: set[str] = set()
    healed: dict[str, int] = {}
    total_healed = 0
    for _ in range(days):
        injured = [l for l in c.data["locations"] if body.loc_level(l) not in ("none", "severed")]
        for l in injured:
            level = body.loc_level(l)
            lid = l["id"]
            if level != "minor" and not (l.get("first_aid") or l.get("treated")):
                waiting.add(f"{l['name']} ({level}) will not begin healing until treated with First Aid or healed")
                counts.pop(lid, None)
                continue
            if lid in stuck:
                waiting.add(f"{l['name']} cannot heal while a weapon is stuck in it")
                counts.pop(lid, None)
                continue
            counts[lid] = counts.get(lid, 0) + 1
            if counts[lid] < every[level]:
                continue
            counts.pop(lid)
            missing = l["hp_max"] - l["hp"]
            pts = max(0, min(rate, missing))
            l["hp"] += pts
            c.data["hp"] = min(c.data["hp_max"], c.data["hp"] + pts)
            l["treated"] = True  # "healed at least partially": it goes on healing
            healed[lid] = healed.get(lid, 0) + pts
            if level == "mangled" and l["type"] in rules.LIMB_TYPES:
                l["useless"] = True  # "Mangled limbs never fully heal naturally: they remain useless."
            after = body.loc_level(l)
            if rules.injury_rank(after) < rules.injury_rank("serious"):
                l["bleeding"] = False
            if after == "none":
                l["first_aid"] = False
                l["treated"] = False
        if not injured and c.data["hp"] < c.data["hp_max"]:
            # "treat total HP as its own minor wound": it heals at the end of each day
            counts["total"] = counts.get("total", 0) + 1
            if counts["total"] >= every["minor"]:
                counts.pop("total")
                pts = min(rate, c.data["hp_max"] - c.data["hp"])
                c.data["hp"] += pts
                total_healed += pts
    _conditions_after(c, body, rules)
    for l in c.data["locations"]:
        if healed.get(l["id"]):
            said.append(f"{l['name']} heals {healed[l['id']]}: {l['hp']}/{l['hp_max']} {rules.injury_word(body.loc_level(l))}"
                        + (", and stays useless" if l.get("useless") else ""))
    if total_healed:
        said.append(f"Total HP heals {total_healed} as its own minor wound (no injured hit location)")
    said.extend(sorted(waiting))
    said.append(f"Total HP {c.data['hp']}/{c.data['hp_max']}")
    carried = carry_over(enc, c)
    if counts:
        carried["healing_days"] = {k: v for k, v in sorted(counts.items()) if v}
    carried.pop("stuck", None)
    if ch.get("carried", {}).get("stuck"):
        carried["stuck"] = copy.deepcopy(ch["carried"]["stuck"])
    out = copy.deepcopy(ch)
    out["carried"] = carried
    check(out, "character")
    return out, said


def _conditions_after(c, body, rules) -> None:
    """"If a location is healed back above an injury threshold, the injury effects end immediately":
    a head healed from maimed wakes; shock ends when no vital location is maimed or worse."""
    maimed = rules.injury_rank("maimed")
    if not any(l["type"] == "head" and rules.injury_rank(body.loc_level(l)) >= maimed for l in c.data["locations"]):
        c.drop_condition("unconscious")
    if not any(l["type"] in rules.VITAL_TYPES and rules.injury_rank(body.loc_level(l)) >= maimed
               for l in c.data["locations"]):
        c.drop_condition("incapacitated")


def set_by_hand(ch: dict[str, Any], carried: dict[str, Any]) -> dict[str, Any]:
    """The GM's own values for what the character carries (where the rules give no recovery, or to
    correct anything): checked as everything that comes in is; the input is never edited."""
    from .character import check

    out = copy.deepcopy(ch)
    out["carried"] = copy.deepcopy(carried)
    check(out, "character")
    return out
