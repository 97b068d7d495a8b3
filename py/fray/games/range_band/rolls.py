"""Roll specifications: every roll the rules call for, built as data before anyone rolls.

The game's core roll is not public (FACTS.md), so the engine never decides by itself how a die
"on" a stat succeeds. It builds a ``RollSpec``: the die (d6, d10, d12, d20), the stat it is rolled
on and its value, the TN modifiers with their reasons, the Hindrance and Easing counts with their
reasons ("+1 mounted", "+1 mount moved on its last turn"), whether it can blunder, and what
success and failure do. The page shows it before anything is rolled; the GM then either enters
the outcome (success or failure, and by how much) or lets Fray roll it with the default mechanic
of table ``core_roll`` (*assumed*, editable; see ``roll_default``).

A spec can also be settled by a rule before any die: ``auto`` (flying SPD 20+: "automatically
succeed by 10 on all SPD rolls") or ``impossible``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fray.errors import InvalidAction

DICE = ("d6", "d10", "d12", "d20", "d100")
Part = tuple[str, int]


def tn_part(reason: str, value: int) -> str:
    """One TN part as the GM reads it after the stat: "+ rushing 6" (what it is, then how much), or, for a reason
    that says in brackets how the number was reached, the number first: "− 3 (half of WGT 7, rounded down,
    assumed)" (a GM read "− 50% of WGT 3" as a WGT of 3)."""
    sign = "+" if value >= 0 else "−"
    return f" {sign} {abs(value)} {reason}" if reason.startswith("(") else f" {sign} {reason} {abs(value)}"


@dataclass
class RollSpec:
    """One roll the rules call for, as data."""

    what: str  # "Movement roll", "Stealth roll (enter High Stealth)"
    die: str  # d6 | d10 | d12 | d20 | d100
    stat: str  # DEX | CON | INT | SPD | flying SPD | underwater SPD | % (a plain chance)
    stat_value: int
    rule: str  # the heading of the rule text
    tn: list[Part] = field(default_factory=list)
    hindrance: list[Part] = field(default_factory=list)
    easing: list[Part] = field(default_factory=list)
    can_blunder: bool = True
    blind: bool = False  # a blind roll: the GM rolls it unseen (detection rolls)
    success: str = ""
    failure: str = ""
    auto: dict[str, Any] | None = None  # {"success": bool, "by": int, "reason": str}
    notes: list[str] = field(default_factory=list)

    @property
    def tn_total(self) -> int:
        return self.stat_value + sum(v for _, v in self.tn)

    @property
    def hindrance_total(self) -> int:
        return sum(n for _, n in self.hindrance)

    @property
    def easing_total(self) -> int:
        return sum(n for _, n in self.easing)

    def text(self) -> str:
        """"d20 on DEX: TN 10 = DEX 14 − 4 (half of WGT 8, rounded down, assumed); Hindrance 3 (+1 mounted, +2 mount rushed)"."""
        if self.stat == "%":
            return f"{self.die}: {self.stat_value}% chance (happens on {self.stat_value} or less)"
        tn = f"TN {self.tn_total} = {self.stat} {self.stat_value}" + "".join(tn_part(r, v) for r, v in self.tn)
        out = f"{self.die} on {self.stat}: {tn}"
        if self.hindrance:
            out += f"; Hindrance {self.hindrance_total} (" + ", ".join(f"+{n} {r}" for r, n in self.hindrance) + ")"
        if self.easing:
            out += f"; Easing {self.easing_total} (" + ", ".join(f"+{n} {r}" for r, n in self.easing) + ")"
        if not self.can_blunder:
            out += "; cannot blunder"
        if self.auto:
            out += f"; {self.auto['reason']}"
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "what": self.what, "die": self.die, "stat": self.stat, "stat_value": self.stat_value, "rule": self.rule,
            "tn": {"total": self.tn_total, "parts": [{"reason": r, "value": v} for r, v in self.tn]},
            "hindrance": {"total": self.hindrance_total, "parts": [{"reason": r, "count": n} for r, n in self.hindrance]},
            "easing": {"total": self.easing_total, "parts": [{"reason": r, "count": n} for r, n in self.easing]},
            "net_hindrance": self.hindrance_total - self.easing_total,
            "can_blunder": self.can_blunder, "blind": self.blind, "success": self.success, "failure": self.failure,
            "auto": dict(self.auto) if self.auto else None, "notes": list(self.notes), "text": self.text(),
        }


def spec_from_json(d: dict[str, Any]) -> RollSpec:
    return RollSpec(
        what=d["what"], die=d["die"], stat=d["stat"], stat_value=int(d["stat_value"]), rule=d["rule"],
        tn=[(p["reason"], int(p["value"])) for p in d["tn"]["parts"]],
        hindrance=[(p["reason"], int(p["count"])) for p in d["hindrance"]["parts"]],
        easing=[(p["reason"], int(p["count"])) for p in d["easing"]["parts"]],
        can_blunder=bool(d["can_blunder"]), blind=bool(d.get("blind")), success=d.get("success", ""),
        failure=d.get("failure", ""), auto=d.get("auto"), notes=list(d.get("notes", [])))


def sides(die: str) -> int:
    return int(die[1:])


def _setting(table: dict[str, Any], key: str, default: Any) -> Any:
    for e in table.get("entries", []):
        if e.get("key") == key:
            return e.get("value", default)
    return default


def dice_count(spec: dict[str, Any], core_roll: dict[str, Any]) -> int:
    """How many dice the default mechanic rolls: one, plus one per net Hindrance or Easing."""
    net = int(spec["net_hindrance"])
    mode = _setting(core_roll, "hindrance_easing", "extra_dice")
    return 1 + abs(net) if mode == "extra_dice" else 1


def kept_face(faces: list[int], spec: dict[str, Any], core_roll: dict[str, Any]) -> int:
    """The die that counts: the highest with net Hindrance, the lowest otherwise (extra dice), or
    the one die (flat steps)."""
    net = int(spec["net_hindrance"])
    if _setting(core_roll, "hindrance_easing", "extra_dice") == "extra_dice":
        return max(faces) if net > 0 else min(faces)
    return faces[0]


def judge(spec: dict[str, Any], core_roll: dict[str, Any], kept: int) -> dict[str, Any]:
    """Success, margin and blunder of a kept die under the default mechanic (and the flat shift)."""
    n_sides = sides(spec["die"])
    net = int(spec["net_hindrance"])
    shift = 0
    if _setting(core_roll, "hindrance_easing", "extra_dice") != "extra_dice":
        shift = net * int(_setting(core_roll, "flat_step", 2))
    tn = int(spec["tn"]["total"])
    if _setting(core_roll, "success", "at_or_under_tn") == "at_or_under_tn":
        success = kept + shift <= tn
        by = abs(tn - (kept + shift))
    else:  # "at_or_over_tn": the die plus the TN must reach the table's target
        target = int(_setting(core_roll, "target", 11))
        total = kept - shift + tn
        success = total >= target
        by = abs(total - target)
    face = _setting(core_roll, "blunder_face", "max")
    blunder = bool(spec["can_blunder"]) and not success and (
        (face == "max" and kept == n_sides) or (face == "min" and kept == 1))
    return {"success": success, "by": by, "blunder": blunder, "shift": shift, "tn": tn}


def roll_default(spec: dict[str, Any], core_roll: dict[str, Any], tray, name: str) -> dict[str, Any]:
    """Roll a spec with the default mechanic (table ``core_roll``, assumed) through the dice tray.

    The tray takes typed faces (``rolls[name]``: the kept die first is not required, all dice in any
    order) or rolls them, and records them in the action so a replay gives the same outcome."""
    n_sides = sides(spec["die"])
    r = tray.roll(name, f"{dice_count(spec, core_roll)}D{n_sides}")
    faces = r.faces() or [r.total]
    kept = kept_face(faces, spec, core_roll)
    j = judge(spec, core_roll, kept)
    shift, tn = j["shift"], j["tn"]
    return {"success": j["success"], "by": j["by"], "blunder": j["blunder"], "faces": faces, "kept": kept,
            "typed": r.typed,
            "text": f"rolled {'/'.join(map(str, faces))} (kept {kept}) against TN {tn}"
                    + (f", shift {shift:+d}" if shift else ""), "assumed": True}


# What a roll by the default mechanic says of itself: in full the first time in an encounter, then in two words
# (a 14-combatant round printed the whole sentence on every roll line of the log; issue 33).
ASSUMED_FIRST = " (default mechanic, assumed: not in the published rules; later rolls by it say \"assumed mechanic\")"
ASSUMED_AGAIN = " (assumed mechanic)"


def outcome_from_action(action: dict[str, Any]) -> dict[str, Any] | None:
    """The GM's entered outcome ``{success: bool, by: n, blunder?: bool}``, or ``None`` to let Fray roll."""
    raw = action.get("success")
    if raw is None:
        return None
    if not isinstance(raw, bool):
        raise InvalidAction("success", "must be true (success) or false (failure)")
    by = action.get("by", 0)
    if isinstance(by, bool) or not isinstance(by, int) or not 0 <= by <= 1000:
        raise InvalidAction("by", "by how much: a whole number from 0")
    blunder = action.get("blunder", False)
    if not isinstance(blunder, bool):
        raise InvalidAction("blunder", "must be true or false")
    if blunder and raw:
        raise InvalidAction("blunder", "a blunder is a failure")
    return {"success": raw, "by": by, "blunder": blunder, "text": "entered by the GM"}
