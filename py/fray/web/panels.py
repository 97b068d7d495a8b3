"""Per-ruleset additions to the page, registered by ruleset id.

A panel adds what its game needs on top of the generic tracker: a section above the combatant
cards (declarations, the attack panel, the phase stepper), extra HTML inside each card (the body
diagram, DEF and parry), and handlers for its own ``data-act`` buttons and ``data-form`` forms.
Every method returns HTML strings or calls ``app.dispatch(action, scope)``; none holds state
that is not in the encounter (short-lived UI state, such as which attack panel is open, lives in
``app.ui``).
"""

from __future__ import annotations

from typing import Any, Protocol


class Panel(Protocol):
    def panel(self, app: Any, view: dict[str, Any]) -> str: ...

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str: ...

    def on_act(self, app: Any, act: str, el: Any) -> bool: ...

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool: ...


PANELS: dict[str, Panel] = {}


def register_panel(ruleset_id: str, panel: Panel) -> None:
    PANELS[ruleset_id] = panel


def panel_for(ruleset_id: str) -> Panel | None:
    if not PANELS:
        _load()
    return PANELS.get(ruleset_id)


def _load() -> None:
    import importlib

    for name in ("strike_rank_panel", "tactical_round_panel"):
        try:
            importlib.import_module(f"{__package__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{name}":
                raise
