"""What the tactical-round panel, its forms and its cards share: the circumstances of an attack,
the phases with attacks, who has fallen, the typed-dice parser and the small controls."""

from __future__ import annotations

from typing import Any

from fray.web.widgets import check, general_err, parse_faces

FLAGS = (("flanking", "Flanking"), ("on_rear", "On rear"), ("charge", "Charge"), ("mounted", "Mounted"),
         ("two_weapons", "Two weapons"))
ATTACK_PHASES = ("move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b")
COVER_KINDS = ("none", "partial", "full")
DEFAULT_KINDS = [
    {"key": "move", "title": "Move"}, {"key": "run_away", "title": "Run Away"},
    {"key": "spell_prepared", "title": "Cast a prepared or instant spell"},
    {"key": "ranged_attack", "title": "Ranged attack"}, {"key": "melee_attack", "title": "Melee attack"},
    {"key": "spell_unprepared", "title": "Cast an unprepared spell"},
    {"key": "reload", "title": "Reload a missile weapon"}, {"key": "ready_thrown", "title": "Ready a thrown weapon"},
    {"key": "disengage", "title": "Disengage"}, {"key": "other", "title": "Other action"},
]
DECLARE_ROWS = 2  # at most one Full + one Half, or two Half
# Past this many declarers each declaration is a fold-out, one line (name and what is declared),
# whose form is drawn when it first opens: 200 open forms were 96,000 elements, written on the
# Next into the phase and removed on the Next out of it (10 s at 200 combatants).
FOLD_DECLARATIONS_FROM = 13
# Attacks awaiting the table shown whole; the ones after them wait as one-line fold-outs
PENDING_SHOWN = 3


# -- small pure helpers --------------------------------------------------------------------------

def parse_dice(text: str) -> list[int] | None:
    """"98 40" / "98,40" → [98, 40]; blank → None (Fray rolls). Raises ValueError otherwise."""
    return parse_faces(text, signed=True)


def _general_err() -> str:
    return general_err("tr")


def _check(fid: str, name: str, label: str, checked: bool = False, value: str = "") -> str:
    return check(fid, name, label, checked, "tr-check", value)


# the fallen (rules.OUT_OF_ACTION): no forms, never a default target (issue 32)
FALLEN = ("incapacitated", "dying", "unconscious", "dead")
BY_NEXT = ("move", "disengage", "reload", "ready_thrown")  # actions.BY_THEMSELVES_ON_LEAVING + _ON_ENTRY
ATTACK_KINDS = ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")


def _out_of_action(c: dict[str, Any]) -> bool:
    return any(x["name"] in FALLEN for x in c.get("conditions", []))

