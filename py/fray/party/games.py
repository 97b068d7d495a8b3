"""Where each game keeps its part of the party (STYLE 13: a plug-in lives in one place).

A game takes part by a module ``party`` in its ruleset package (``fray/games/<game>/party.py``)
and, for the page, one beside its panel (``fray/web/<panel>/party.py``); these modules find them
through the ruleset registry and never name a game. A game without one keeps nothing from one
fight to the next. The engine module offers:

* ``sheet_extra(c) -> dict``: the add form's game fields of a combatant, as it was added;
* ``put_carried(c, carried, path)``: carried state onto a just-made combatant, each value checked;
* ``carried_note(carried) -> str``: the line its notes get for what its card does not show;
* ``carry_over(enc, c, came) -> dict`` and ``notes(enc, c) -> list[str]``: End the fight's proposal;
* ``time_passes(ch, period, rested, treatment) -> (ch, lines)`` or ``NO_RECOVERY`` (the text's silence);
* ``summary(ch) -> str``: what the character carries, in words.

The page module offers ``fields_html(k, got, c, name)`` and ``read_fields(values, k, got, c, field)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from fray.games import get_ruleset


def _find(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise
        return None


def game(ruleset_id: str) -> ModuleType | None:
    pkg = type(get_ruleset(ruleset_id)).__module__
    return _find(pkg + ".party")


def page_part(ruleset_id: str) -> ModuleType | None:
    panel = get_ruleset(ruleset_id).panel  # its page's part sits beside the panel, in the game's folder
    return _find(panel.rpartition(".")[0] + ".party") if "." in panel else None
