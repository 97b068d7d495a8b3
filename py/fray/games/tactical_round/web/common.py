"""What the tactical-round panel, its forms and its cards share: the circumstances of an attack,
the phases with attacks, who has fallen, the typed-dice parser and the small controls."""

from __future__ import annotations

from typing import Any, Iterable

from fray.dice import one_die_message
from fray.errors import InvalidAction
from fray.web import widgets
from fray.web.html import Markup
from fray.web.render import attrs
from fray.web.widgets import ZERO_FACE, ZeroFace, parse_faces

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


# the roll fields of one die, with its sides: the Critical d100 is one roll (the attack, Athletics and
# Flee d100s are open-ended: 96-100 and 01-05 roll again, so several numbers)
ONE_DIE = {"critical": 100}


def read_rolls(values: dict[str, Any], names: Iterable[str]) -> tuple[dict[str, list[int]], InvalidAction | None]:
    """The typed dice of a form's ``rolls.<name>`` fields: {name: faces}, or the first field's error."""
    out: dict[str, list[int]] = {}
    for n in names:
        sides = ONE_DIE.get(n)
        try:
            got = parse_dice(values.get(f"rolls.{n}", "") or "")
        except ZeroFace:
            return out, InvalidAction(f"rolls.{n}", ZERO_FACE)
        except ValueError as e:
            return out, InvalidAction(f"rolls.{n}", one_die_message(sides, e.args[0]) if sides else
                                      f"type the dice as whole numbers separated by spaces (not {e.args[0]!r}), "
                                      "or leave it blank to roll")
        if sides and got is not None and (len(got) != 1 or not 1 <= got[0] <= sides):
            return out, InvalidAction(f"rolls.{n}", one_die_message(sides, " ".join(map(str, got))))
        if got is not None:
            out[n] = got
    return out, None


# -- the shared controls (fray.web.widgets), with this game's classes ---------------------------------
# Each returns Markup: every text it is given is escaped, and what it takes as markup (a field's
# control, a select's option groups, a fold-out's summary and body) passes only as Markup; a plain
# string there is text, escaped.

def _btn(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    return widgets.act_button(label, act, cls, aria, **data)


def _err(name: str) -> Markup:
    return widgets.err_slot(name)


def _input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return widgets.text_input(fid, name, value, mode, placeholder)


def _select(fid: str, name: str, options: Any, selected: Any = None, groups: Any = "") -> Markup:
    return widgets.select(fid, name, options, selected, groups)


def _field(fid: str, name: str, label: str, control: Any, hint: str = "", cls: str = "") -> Markup:
    return widgets.field(fid, name, label, control, hint, cls)


def _check(fid: str, name: str, label: str, checked: bool = False, value: str = "") -> Markup:
    return widgets.check(fid, name, label, checked, "tr-check", value)


def _general_err() -> Markup:
    return widgets.general_err("tr")


def fold_open(cls: str, key: str, open_: bool, lazy: bool = False, more: dict[str, Any] | None = None) -> Markup:
    """The opening tag of a fold-out (``widgets.fold_open``); ``more``: further attributes, escaped."""
    # render.attrs writes a keyword's "_" as "-": data_id= is data-id="..."
    return widgets.fold_open(cls, key, open_, lazy, attrs(**{k.replace("-", "_"): v for k, v in (more or {}).items()}))


def fold_summary(content: Any, sid: str = "", aria: str = "") -> Markup:
    return widgets.fold_summary(content, sid, aria)


def lazy_fold(cls: str, key: str, summary: Any, body: Any, open_: bool, drawn: bool) -> Markup:
    return widgets.lazy_fold(cls, key, summary, body, open_, drawn)


# the fallen (rules.OUT_OF_ACTION): no forms, never a default target (issue 32)
FALLEN = ("incapacitated", "dying", "unconscious", "dead")
BY_NEXT = ("move", "disengage", "reload", "ready_thrown")  # actions.BY_THEMSELVES_ON_LEAVING + _ON_ENTRY
ATTACK_KINDS = ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")


def _out_of_action(c: dict[str, Any]) -> bool:
    return any(x["name"] in FALLEN for x in c.get("conditions", []))


def _dead(c: dict[str, Any]) -> bool:
    """Dead: no target to offer (the incapacitated and dying can still be struck)."""
    return any(x["name"] == "dead" for x in c.get("conditions", []))

