"""What the tactical-round panel, its forms and its cards share: the circumstances of an attack,
the phases with attacks, who has fallen, the typed-dice parser and the small controls."""

from __future__ import annotations

from typing import Any

from fray.web import widgets
from fray.web.html import Markup, attrs, fragment, trusted
from fray.web.widgets import parse_faces

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


# -- the shared controls, as Markup -----------------------------------------------------------------
# The controls every game's forms use (fray.web.widgets) still put their markup together by hand:
# each escapes every text it is given, so what they return is passed as markup here, in this one
# place. What they take as markup (a field's control, a select's option groups, a fold-out's
# summary and body) reaches them only through ``_markup``, which escapes a plain string: text
# given where markup goes comes out as text. Once widgets is built with the builder these are
# plain calls to it.

def _markup(x: Any) -> Markup:
    return x if isinstance(x, Markup) else fragment(x)  # a plain string is text: escaped


def _btn(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    return trusted(widgets.act_button(label, act, cls, aria, **data))  # widgets escapes every text


def _err(name: str) -> Markup:
    return trusted(widgets.err_slot(name))  # widgets escapes the name


def _input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return trusted(widgets.text_input(fid, name, value, mode, placeholder))  # widgets escapes every text


def _select(fid: str, name: str, options: Any, selected: Any = None, groups: Any = "") -> Markup:
    # widgets escapes every value and label; the groups are markup only when made as Markup
    return trusted(widgets.select(fid, name, options, selected, _markup(groups)))


def _field(fid: str, name: str, label: str, control: Any, hint: str = "", cls: str = "") -> Markup:
    # widgets escapes the label and hint; the control is markup only when made as Markup
    return trusted(widgets.field(fid, name, label, _markup(control), hint, cls))


def _check(fid: str, name: str, label: str, checked: bool = False, value: str = "") -> Markup:
    return trusted(widgets.check(fid, name, label, checked, "tr-check", value))  # widgets escapes every text


def _general_err() -> Markup:
    return trusted(widgets.general_err("tr"))  # a constant prefix


def fold_open(cls: str, key: str, open_: bool, lazy: bool = False, more: dict[str, Any] | None = None) -> Markup:
    """The opening tag of a fold-out (``widgets.fold_open``); ``more``: further attributes, escaped."""
    return trusted(widgets.fold_open(cls, key, open_, lazy, attrs(more)))  # widgets escapes cls and key


def fold_summary(content: Any, sid: str = "", aria: str = "") -> Markup:
    # widgets escapes the id and label; the content is markup only when made as Markup
    return trusted(widgets.fold_summary(_markup(content), sid, aria))


def lazy_fold(cls: str, key: str, summary: Any, body: Any, open_: bool, drawn: bool) -> Markup:
    # widgets escapes cls and key; summary and body are markup only when made as Markup. The body
    # goes in as a plain str: widgets adds it to its other pieces with +, and a plain str added to
    # Markup would be escaped
    return trusted(widgets.lazy_fold(cls, key, _markup(summary), lambda: str(_markup(body())), open_, drawn))


# the fallen (rules.OUT_OF_ACTION): no forms, never a default target (issue 32)
FALLEN = ("incapacitated", "dying", "unconscious", "dead")
BY_NEXT = ("move", "disengage", "reload", "ready_thrown")  # actions.BY_THEMSELVES_ON_LEAVING + _ON_ENTRY
ATTACK_KINDS = ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")


def _out_of_action(c: dict[str, Any]) -> bool:
    return any(x["name"] in FALLEN for x in c.get("conditions", []))

