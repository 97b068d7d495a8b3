"""The strike-rank rules as pure functions over numbers and tables.

Nothing here touches an encounter: every function takes plain values (and the table it reads)
and returns a value that keeps how it was reached, so a test can check a rule on its own and the
log can show the breakdown ("SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from fray.dice import DiceExpr, Term, parse
from fray.games.base import ceil_div, round_half_up

DEGREES = ("critical", "special", "success", "failure", "fumble")
SUCCESSES = ("critical", "special", "success")
INJURY_LEVELS = ("none", "minor", "serious", "maimed", "mangled", "severed")
VITAL_TYPES = ("head", "chest", "abdomen", "body")
LIMB_TYPES = ("arm", "leg", "wing", "tail")
ENGAGEMENT_RANGE_M = 3.0  # "For human-sized combatants, engagement range is about 3 meters or less."
MOVE_SHOWN_M = 0.05  # metres_text rounds to the decimetre: anything less reads "0 m"
LAST_SR = 12


def to_engage(metres: float) -> float:
    """Metres still to move to be within engagement range of someone ``metres`` away ("engagement
    range is about 3 meters or less"). Less than the half decimetre the map and the log round away
    is none: a foe drawn "3.0 m" off is reached without moving (a close-in, kept to the centimetre,
    can end a few millimetres past 3 m), and "0 m to move" never costs the 1 SR of a move."""
    go = metres - ENGAGEMENT_RANGE_M
    return round(go, 2) if go >= MOVE_SHOWN_M else 0.0


def within_engagement(metres: float) -> bool:
    """Whether someone ``metres`` away is within engagement range: reached without moving
    (``to_engage``), so a melee attack, "adjacent combatants are engaged" and shooting into melee
    all agree on who is engaged."""
    return to_engage(metres) == 0.0


@dataclass(frozen=True)
class Breakdown:
    """A total that remembers its parts: ``SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2``."""

    label: str
    parts: tuple[tuple[str, int], ...]
    note: str = ""

    @property
    def total(self) -> int:
        return sum(v for _, v in self.parts)

    def text(self) -> str:
        parts = list(self.parts)
        own = ""
        if parts and str(parts[0][0]).startswith(OWN_LATER):
            # a change before the new action's own SR: that SR is where it starts, said with its parts
            end = next((i for i, p in enumerate(parts) if p[0] == CHANGING), len(parts))
            group = parts[1:end]
            inner = " + ".join(f"{k} {v}" for k, v in group).replace("+ -", "- ")
            own = (f"SR {sum(v for _, v in group)} (the new action's own: {inner}; the change is made at SR "
                   f"{str(parts[0][0])[len(OWN_LATER):]})")
            parts = parts[end:]
        body = " + ".join(([own] if own else []) + [PART_WORDS[k].format(v) if k in PART_WORDS else f"{k} {v}"
                                                    for k, v in parts]) or "0"
        body = body.replace("+ -", "- ")
        return f"{self.label} {self.total} = {body}" + (f" ({self.note})" if self.note else "")


# Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A changed
# action's breakdown says, one way, where it starts and what is added: the SR the change is made at ("SR 11 = SR 8
# (when the change is made) + DEX SR 3 (changing the declared action)"), or the new action's own SR when that is
# later ("SR 11 = SR 8 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + move 1; the change is made at SR 8) +
# DEX SR 3 (changing the declared action)"); every breakdown, first written (``timing.change``) or timed again
# (``movement``), says these parts in these words.
CHANGED_AT = "changed at SR"
CHANGING = "changing: DEX SR"
# the mark (worth 0) before the new action's own parts, when they start it: its key ends with the SR of the change
OWN_LATER = "own SR, the change made at SR "
# Aborting Actions: "the new action will be delayed by the combatant's DEX SR + the SR the action was aborted on",
# said alike: "SR 11 = SR 7 (when the action is aborted) + DEX SR 3 (aborting the action) + draw dagger 1"
ABORTED_AT = "aborted at SR"
ABORTING = "aborting: DEX SR"
PART_WORDS = {CHANGED_AT: "SR {} (when the change is made)", CHANGING: "DEX SR {} (changing the declared action)",
              ABORTED_AT: "SR {} (when the action is aborted)", ABORTING: "DEX SR {} (aborting the action)"}


def changed_parts(now: int, dex_sr: int, own: list[list[Any]], first: list[list[Any]]) -> list[list[Any]]:
    """The breakdown of an action changed at SR ``now`` by one of DEX SR ``dex_sr``, whose own breakdown is
    ``own`` and the first of whose actions (of several attacks, the first) has the breakdown ``first``:
    delayed by DEX SR from its own SR, or from ``now`` when that is later (it cannot happen earlier than
    now); a second attack keeps its full SR after the first ("Multiple attacks each take their full SR")."""
    change = [CHANGING, dex_sr]
    if sum(p[1] for p in first) >= now:
        # its own SR is where it starts (said first, with when the change is made), then the delay, then what a
        # next attack adds
        return ([[OWN_LATER + str(now), 0]] + [list(p) for p in own[:len(first)]] + [change]
                + [list(p) for p in own[len(first):]])
    # the first action's own SRs are spent by the time the change is made; what follows them (a next
    # attack) is still to come
    return [[CHANGED_AT, now], change] + [list(p) for p in own[len(first):]]


@dataclass(frozen=True)
class Skill:
    """A skill after multipliers, split and bonuses, in that order ("Apply multipliers first")."""

    value: int
    steps: tuple[str, ...] = field(default_factory=tuple)

    def text(self) -> str:
        return " → ".join(self.steps) if self.steps else str(self.value)


# -- table look-ups -----------------------------------------------------------------------------

def band(table: dict[str, Any], value: int, key: str) -> Any:
    """The entry whose min..max holds ``value`` (``None`` = open end)."""
    for e in table["entries"]:
        lo, hi = e.get("min"), e.get("max")
        if (lo is None or value >= lo) and (hi is None or value <= hi):
            return e[key]
    raise ValueError(f"{table.get('id')}: no row for {value}")


def dex_sr(dex: int, table: dict[str, Any]) -> int:
    return band(table, max(dex, 1), "sr")


def siz_sr(siz: int, table: dict[str, Any]) -> int:
    return band(table, max(siz, 1), "sr")


def damage_modifier(str_siz: int, table: dict[str, Any]) -> str:
    """``"+1D4"``, ``""`` (none) or ``"-1D4"``; above the table, +1D6 per further 16 points."""
    entries = table["entries"]
    top = max((e for e in entries if e.get("max") is not None), key=lambda e: e["max"])
    if str_siz > top["max"] and table.get("beyond"):
        extra = ceil_div(str_siz - top["max"], table["beyond"]["every"])
        base = parse(top["modifier"])
        add = parse(table["beyond"]["add"])
        t = add.terms[0]
        n = base.terms[0].count + extra * t.count if base.terms[0].sides == t.sides else None
        return f"+{n}D{t.sides}" if n else "+" + str(base.plus(f"{extra}D{t.sides}"))
    return band(table, str_siz, "modifier")


def healing_rate(con: int, divisor: int = 6) -> int:
    return max(1, ceil_div(con, divisor))


def location_hp(total_hp: int, formula: dict[str, Any]) -> int:
    """RQG-style share of total HP: ``ceil(HP/div) + add``, at least 1."""
    return max(1, ceil_div(total_hp, int(formula.get("div", 3))) + int(formula.get("add", 0)))


# -- degrees of success ---------------------------------------------------------------------------

def degree_of_success(skill: int, roll: int) -> str:
    """Critical ≤ skill/20, special ≤ skill/5, success ≤ skill (01-05 always, 96-00 never),
    fumble ≥ 100 − (100 − skill)/20 (00 always), each rounded half up (FACTS.md).

    96-00 are checked first: a skill multiplied past 480% has a special range reaching 96, and
    "96-00 always fail" (FACTS: "Skills above 100 still fail on 96-00")."""
    fumble_from = 100 - round_half_up((100 - skill) / 20)
    if roll >= 100:
        return "fumble"  # "a roll of 00 (100) is always a fumble"
    if roll >= 96:
        return "fumble" if roll >= fumble_from else "failure"
    if roll <= round_half_up(skill / 20):
        return "critical"
    if roll <= round_half_up(skill / 5):
        return "special"
    if roll <= 5:
        return "success"  # "01-05 always succeed"
    if roll >= fumble_from:
        return "fumble"
    if roll <= skill:
        return "success"
    return "failure"


def is_success(degree: str) -> bool:
    return degree in SUCCESSES


def modified_skill(base: int, multipliers: list[float] = (), split: int | None = None,
                   bonus: int = 0, reasons: list[str] = ()) -> Skill:
    """Multipliers first, then the split, then bonuses and penalties ("Modifiers to combat tests
    ... Apply multipliers first, then bonuses and penalties"; "Bonuses and penalties are applied
    after the skill is divided"). ``reasons`` name the multipliers for the breakdown."""
    steps = [f"{base}%"]
    value = base
    for i, m in enumerate(multipliers):
        value = round_half_up(value * m)
        why = reasons[i] if i < len(reasons) else ""
        steps.append(f"×{m:g}{' ' + why if why else ''} = {value}%")
    if split is not None:
        value = split
        steps.append(f"split {split}%")
    if bonus:
        value += bonus
        steps.append(f"{bonus:+d} = {value}%")
    return Skill(value, tuple(steps))


def check_split(multiplied_skill: int, parts: list[int]) -> str | None:
    """Why a split is not allowed, or None. "Characters with a base skill rating of 100% or
    higher can split ... The minimum rating assigned is 50%"."""
    if multiplied_skill < 100:
        return f"a skill of {multiplied_skill}% is below 100% and cannot be split"
    if any(p < 50 for p in parts):
        return "each part of a split skill must be at least 50%"
    if sum(parts) > multiplied_skill:
        return f"the parts ({'+'.join(map(str, parts))}) exceed the skill of {multiplied_skill}%"
    return None


def resistance_chance(active: int, passive: int, table: dict[str, Any]) -> int:
    r = table["resistance"]
    return max(r["min"], min(r["max"], r["base"] + r["per_point"] * (active - passive)))


def test_multiplier(table: dict[str, Any], test: str) -> int:
    for e in table["entries"]:
        if e["test"] == test:
            return int(e["multiplier"])
    return 5


# -- strike ranks -------------------------------------------------------------------------------

def metres_text(metres: float) -> str:
    """Metres as the GM reads them, to the decimetre as the map draws them: "6.5 m", never the
    centimetres a straight line across the map comes to ("closes 6.49 m")."""
    return f"{round(float(metres), 1):g} m"


def movement_sr(metres: float, rate: float, running: bool = False, partner_rate: float = 0,
                verb: str = "closes") -> Breakdown | None:
    """SR spent moving: 1 per Movement rate in metres, double rate running, at least 1 SR for any
    move; two combatants closing on each other add their rates (``partner_rate``: the other's
    metres per SR, already doubled if they run). Its note says it in words a GM reads at a glance:
    "closes 9 m at 3 m a strike rank: +3 SR" (``verb``: "moves" for a move toward no one)."""
    if metres <= 0:
        return None
    speed = rate * (2 if running else 1) + partner_rate
    sr = max(1, math.ceil(metres / speed - 1e-9))
    # the metres as the map and the screen say them (``metres_text``): "7.8 m" on both, not "7.82 m" here
    how = (f"{verb} {metres_text(metres)}" + (" running" if running else "") + f" at {speed:g} m a strike rank"
           + (", closing together" if partner_rate else "") + f": +{sr} SR")
    return Breakdown("move", (("move", sr),), how)


def melee_sr(dex: int, siz: int, weapon: int, move: int = 0) -> Breakdown:
    parts = [("DEX", dex), ("SIZ", siz), ("weapon", weapon)]
    if move:
        parts.append(("move", move))
    return Breakdown("SR", tuple(parts))


def missile_srs(dex: int, rate: str, shots: int = 1, move: int = 0) -> list[Breakdown]:
    """1/MR and 1/xMR: one shot at DEX SR. S/MR: first at DEX SR, each next 3 SR to prepare and
    DEX SR to make (DEX SR 2 → SR 2, 7, 12)."""
    out = []
    start = [("DEX", dex)] + ([("move", move)] if move else [])
    out.append(Breakdown("SR", tuple(start)))
    if rate == "S/MR":
        for k in range(1, shots):
            prev = out[-1]
            out.append(Breakdown("SR", prev.parts + (("prepare", 3), ("DEX", dex))))
    return out


def spell_sr(dex: int, spell: dict[str, Any], second: bool = False, move: int = 0) -> Breakdown:
    """Casting begins at DEX SR: battle magic + intensity + boost; sorcery + 2×manipulation +
    boost; spirit magic and charms finish on SR 12; rune magic at DEX SR. A second spell costs
    5 SR more to prepare."""
    kind = spell.get("type", "battle")
    parts: list[tuple[str, int]] = [("DEX", dex)]
    if move:
        parts.append(("move", move))
    if second:
        parts.append(("second spell", 5))
    boost = int(spell.get("boost", 0))
    if kind == "battle":
        parts.append(("intensity", int(spell.get("intensity", 1))))
    elif kind == "sorcery":
        parts.append(("2×manipulation", 2 * int(spell.get("manipulation", 0))))
    if boost and kind in ("battle", "sorcery"):
        parts.append(("boost", boost))
    b = Breakdown("SR", tuple(parts))
    if kind in ("spirit", "charm"):
        # "Spirits: All MR; spirit manifests on SR 12." A charm "finishes at the end of the MR".
        return Breakdown("SR", (*parts, ("rest of the MR", LAST_SR - b.total)), "manifests on SR 12")
    return b


CAST_ON = ("self", "ally", "foe")


def cast_on(table: dict[str, Any], name: str) -> str:
    """Whom the spell ``name`` is cast on by the GM's table (``spells``, assumed: the rule text says
    nothing of it): "self", "ally" or "foe", "" for a spell the table does not name."""
    key = name.strip().casefold()
    return next((e["cast_on"] for e in table.get("entries", []) if str(e.get("spell", "")).strip().casefold() == key
                 and e.get("cast_on") in CAST_ON), "")


def rolled_over(sr: int) -> tuple[int, int]:
    """(rounds later, SR then): SR 16 is SR 4 of the next MR."""
    if sr <= LAST_SR:
        return 0, sr
    return (sr - 1) // LAST_SR, (sr - 1) % LAST_SR + 1


# -- damage ---------------------------------------------------------------------------------------

def doubled(expr: str) -> str:
    """Weapon base damage doubled, dice and constants alike: 1D6+1 → 2D6+2."""
    e = parse(expr)
    return str(DiceExpr(tuple(Term(t.sign, t.count * 2, t.sides) for t in e.terms)))


def half_modifier(dm: str) -> str:
    """"halve the die size": +1D4 → +1D2, +2D6 → +2D3."""
    if not dm:
        return ""
    h = str(parse(dm).halved_die())
    return h if h.startswith("-") else "+" + h


def signed(expr: str) -> str:
    if not expr:
        return ""
    return expr if expr[0] in "+-" else "+" + expr


def damage_expression(weapon_damage: str, dm: str, *, dm_use: str = "full", landing: str = "normal",
                      special_type: str = "slashing", bonus: int = 0, pull: dict[str, Any] | None = None
                      ) -> tuple[str, str, bool]:
    """The dice to roll for a blow, a note on how they were built, and whether they are
    maximised (a critical's "maximised special").

    ``special_type``: crushing doubles the damage modifier; impaling and slashing double the weapon's
    base damage. Bonus points (Bladesharp) are never doubled. A pulled blow shrinks dice to as
    small as 1D3, drops the damage modifier (never a negative one) or cuts bonus points."""
    notes = []
    base = weapon_damage
    if dm_use == "half":
        dm = half_modifier(dm)
        if dm:
            notes.append("half damage modifier")
    elif dm_use == "none":
        dm = ""
        notes.append("no damage modifier")
    if landing in ("special", "max_special"):
        if special_type == "crushing" and dm and not dm.startswith("-"):
            dm = "+" + doubled(dm.lstrip("+"))
            notes.append("crushing: damage modifier doubled")
        elif special_type in ("impaling", "slashing"):
            base = doubled(base)
            notes.append(f"{special_type}: weapon damage doubled")
    if pull:
        if pull.get("drop_modifier") and dm:
            if dm.startswith("-"):
                raise ValueError("a negative damage modifier cannot be reduced or dropped")
            dm = ""
            notes.append("pulled: no damage modifier")
        sides = pull.get("die_sides")
        if sides:
            e = parse(base)
            base = str(DiceExpr(tuple(Term(t.sign, t.count, min(t.sides, max(3, int(sides)))) if t.is_dice
                                       else Term(t.sign, min(t.count, int(pull.get("bonus", t.count))), 0)
                                       for t in e.terms)))
            notes.append(f"pulled: dice down to D{max(3, int(sides))}")
        elif "bonus" in pull:
            e = parse(base)
            base = str(DiceExpr(tuple(t if t.is_dice else Term(t.sign, min(t.count, int(pull["bonus"])), 0)
                                      for t in e.terms)))
            notes.append("pulled: fewer bonus points")
        if "extra_bonus" in pull:
            bonus = min(bonus, int(pull["extra_bonus"]))
    expr = base + signed(dm) + (f"+{bonus}" if bonus > 0 else "")
    str(parse(expr))  # fail early on a bad expression
    if landing == "max_special":
        notes.append("critical: maximised")
    return str(parse(expr)), "; ".join(notes), landing == "max_special"


def knockback_metres(rolled_damage: int, resist: int, per: int = 5) -> int:
    """"If the rolled damage ... is higher than the target's SIZ, the target is knocked back 1 meter
    for every 5 points of damage (or part thereof)." Read as written: of the whole damage."""
    if rolled_damage <= resist:
        return 0
    return ceil_div(rolled_damage, per)


def stuck_effect(total_enc: float, table: dict[str, Any]) -> str:
    for e in table["entries"]:
        if "max_below" in e and total_enc < e["max_below"] and total_enc >= e.get("min", 0):
            return e["effect"]
        if "max" in e and e["min"] <= total_enc <= e["max"]:
            return e["effect"]
        if "above" in e and total_enc > e["above"]:
            return e["effect"]
    return "none"


def stuck_effect_text(total_enc: float, table: dict[str, Any]) -> str:
    """The table's own words for what stuck ENC does to a shield ("Shield used at half skill")."""
    eff = stuck_effect(total_enc, table)
    return next((e["text"] for e in table["entries"] if e["effect"] == eff), "No effect").lower()


# -- injuries --------------------------------------------------------------------------------------

def injury_level(hp: int, hp_max: int, severed: bool = False) -> str:
    """minor: hurt but 1+ HP; serious: 0 or less; maimed: −max or less; mangled: −2×max or less."""
    if severed:
        return "severed"
    if hp <= -2 * hp_max:
        return "mangled"
    if hp <= -hp_max:
        return "maimed"
    if hp <= 0:
        return "serious"
    if hp < hp_max:
        return "minor"
    return "none"


def injury_rank(level: str) -> int:
    return INJURY_LEVELS.index(level)


def injury_word(level: str) -> str:
    """The word the log and the card share for an injury level ("none" reads "unhurt")."""
    return "unhurt" if level == "none" else level


def matrix_cell(table: dict[str, Any], attack: str, defence: str) -> dict[str, Any]:
    for e in table["entries"]:
        if e["attack"] == attack and e["defence"] == defence:
            return e
    raise ValueError(f"{table.get('id')}: no cell for {attack} vs {defence}")


def fumble_result(table: dict[str, Any], roll: int) -> dict[str, Any]:
    return next(e for e in table["entries"] if e["min"] <= roll <= e["max"])
