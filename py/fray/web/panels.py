"""Per-ruleset additions to the page, found by ruleset id.

A panel adds what its game needs on top of the generic tracker: a section above the combatant
cards (declarations, the attack panel, the phase stepper), extra HTML inside each card (the body
diagram, DEF and parry), and handlers for its own ``data-act`` buttons and ``data-form`` forms.
Every method returns HTML strings or calls ``app.dispatch(action, scope)``; none holds state
that is not in the encounter (short-lived UI state, such as which attack panel is open, lives in
the panel's own part of ``app.ui``: the dataclass it names as ``ui_type``, reached through
``app.ui.part(panel)``, fray.web.uistate). Its routes are the names in ``ACTS`` and ``FORMS``
(fray.web.routes); a panel that declares none is offered every name.

A ruleset names its panel's module by its full path (``Ruleset.panel =
"fray.games.tactical_round.web.panel"`` in the game's own folder, ``"fray_d20.panel"`` in an
installed game's package); that module defines ``PANEL``. No list here names a game.

This is the page side of the game interface (the engine side is ``fray.games.base``):
``Panel``, the four methods the page calls on every game's panel; ``PanelHooks``, those it calls
only where the panel has them (``hook``), else doing its own default; ``GamePanel``, a base that
declares the hooks absent; ``missing``, the check a panel passes when its game is added.
"""

from __future__ import annotations

from typing import Any, Protocol


class Panel(Protocol):
    """What the page calls on every game's panel (``PANEL_METHODS``); a panel without one of these
    is refused when its game is added (``missing``). ``app`` is the page's controller: ``app.enc``,
    ``app.ruleset``, ``app.ui``, ``app.dispatch(action, scope)``, ``app.show_error(scope, error)``."""

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        """The game's section above the cards (its order of play, its forms), as HTML, drawn at
        every render from ``view`` (``Ruleset.view``). Every piece of text that came from the GM
        or a file (names, notes, weapons, conditions) is escaped."""
        ...

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        """The game's part of one combatant's open card, as HTML ("" for none); escaped as ``panel``."""
        ...

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        """A tap on a ``data-act`` button: True when it was this game's (handled, the page does
        nothing more), False to leave it to the page (Next, Add, the core buttons)."""
        ...

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        """A submitted ``data-form``: True when it was this game's. Bad input is said beside its
        field (``app.show_error``) and nothing is dispatched; good input is one ``app.dispatch``."""
        ...


class PanelHooks(Protocol):
    """What the page calls on a game's panel only when it has it (``PANEL_HOOKS``, read through
    ``hook``); each docstring says what the page does for a panel without it. ``GamePanel``
    declares them all absent, so a panel defines just those its game needs."""

    def acting(self, app: Any, view: dict[str, Any], acting: Any) -> tuple[str, Any]:
        """The essentials line's word and whom it is about: ``("Declaring", combatant)``; the order
        strip's NOW and the card open as acting follow the same answer (nobody: none of them).
        Absent: ``("Acting", acting)``, who holds the current slot."""
        ...

    def card_key(self, app: Any, combatant_id: str, view: dict[str, Any]) -> Any:
        """Everything ``card_extra`` reads, as one comparable value: the card is drawn again only
        when it changes. Absent: ``card_extra``'s own markup is the key (drawn at every render)."""
        ...

    def holds(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """What the acting combatant has in hand, for its essentials line. Absent: the name of
        every weapon in its ``data["weapons"]``."""
        ...

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """The odds of a form with a ``data-odds`` slot as it is set now, as HTML (never rolls);
        None for a form that is not this game's. Absent: no odds are worked out."""
        ...

    def map_mover(self, app: Any) -> str | None:
        """Whose move a tap on the map's empty ground is when no token is selected (a combatant
        id), or None. Absent: nobody's (the tap does nothing)."""
        ...

    def map_drop(self, app: Any, combatant_id: str, x: float, y: float, alt: float) -> bool:
        """A token dropped on the map: True when the game took it as its own action (a movement
        roll), False for the GM placing it. Absent: always the GM placing it (a ``move``)."""
        ...


PANEL_METHODS = ("panel", "card_extra", "on_act", "on_form")
PANEL_HOOKS = ("acting", "card_key", "holds", "odds", "map_mover", "map_drop")


class GamePanel:
    """A base for a game's panel: the four ``Panel`` methods must be defined by the game; the
    ``PanelHooks`` are absent (None) until it defines them, so the page's default applies. A panel
    need not derive from it (an installed game's may not): the page reads only the names."""

    acting = card_key = holds = odds = map_mover = map_drop = None
    ui_type: Any = None  # its part of the page's view state (a dataclass), if it keeps any

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        raise NotImplementedError

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        raise NotImplementedError

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        raise NotImplementedError

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        raise NotImplementedError


def hook(panel: Any, name: str) -> Any:
    """The panel's optional method ``name`` (one of ``PANEL_HOOKS``), or None where the panel has
    none or declares it absent (``GamePanel``): the caller then does the page's default."""
    return getattr(panel, name, None) if panel is not None else None


def missing(panel: Any) -> list[str]:
    """What keeps ``panel`` from being a game's panel: each ``Panel`` method it lacks or leaves to
    ``GamePanel``, each hook it has that cannot be called; [] when it conforms."""
    out = [m for m in PANEL_METHODS if not callable(getattr(panel, m, None))
           or getattr(type(panel), m, None) is getattr(GamePanel, m)]
    out += [m for m in PANEL_HOOKS if hook(panel, m) is not None and not callable(hook(panel, m))]
    return out


_LOADED: dict[str, Panel | None] = {}


def panel_module(name: str) -> str:
    """The module a ruleset's ``panel`` names: always a full module path."""
    return name


def panel_for(ruleset_id: str) -> Panel | None:
    """The panel of a ruleset, found by its id: the ruleset names its module (``Ruleset.panel``),
    which defines ``PANEL``. Imported on first use, so only the open encounter's game is loaded."""
    if ruleset_id in _LOADED:
        return _LOADED[ruleset_id]
    import importlib

    from ..errors import FrayError
    from fray.games import get_ruleset

    try:
        name = get_ruleset(ruleset_id).panel
    except FrayError:
        return None
    panel = getattr(importlib.import_module(panel_module(name)), "PANEL") if name else None
    _LOADED[ruleset_id] = panel
    return panel
