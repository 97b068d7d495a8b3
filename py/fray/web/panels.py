"""Per-ruleset additions to the page, found by ruleset id.

A panel adds what its game needs on top of the generic tracker: a section above the combatant
cards (declarations, the attack panel, the phase stepper), extra HTML inside each card (the body
diagram, DEF and parry), and handlers for its own ``data-act`` buttons and ``data-form`` forms.
Every method returns HTML strings or calls ``app.dispatch(action, scope)``; none holds state
that is not in the encounter (short-lived UI state, such as which attack panel is open, lives in
``app.ui``).

A ruleset names its panel's module (``Ruleset.panel = "tactical_round_panel"``, a module of
this package, or a full path such as ``"fray_d20.panel"`` for an installed game whose panel lives
in its own package); that module defines ``PANEL``. No list here names a game.
"""

from __future__ import annotations

from typing import Any, Protocol


class Panel(Protocol):
    def panel(self, app: Any, view: dict[str, Any]) -> str: ...

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str: ...

    def on_act(self, app: Any, act: str, el: Any) -> bool: ...

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool: ...


_LOADED: dict[str, Panel | None] = {}

PANEL_METHODS = ("panel", "card_extra", "on_act", "on_form")


def panel_module(name: str) -> str:
    """The module a ruleset's ``panel`` names: a dotted name is a full module path (an installed
    game's own package), a plain one a module of ``fray.web``."""
    return name if "." in name else f"{__package__}.{name}"  # ruleset id -> its panel, once imported


def panel_for(ruleset_id: str) -> Panel | None:
    """The panel of a ruleset, found by its id: the ruleset names its module (``Ruleset.panel``),
    which defines ``PANEL``. Imported on first use, so only the open encounter's game is loaded."""
    if ruleset_id in _LOADED:
        return _LOADED[ruleset_id]
    import importlib

    from ..errors import FrayError
    from ..rulesets import get_ruleset

    try:
        name = get_ruleset(ruleset_id).panel
    except FrayError:
        return None
    panel = getattr(importlib.import_module(panel_module(name)), "PANEL") if name else None
    _LOADED[ruleset_id] = panel
    return panel
