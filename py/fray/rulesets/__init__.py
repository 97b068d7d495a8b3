"""The registry of rulesets: ``BUILTIN`` is the one list that names them.

A ruleset is one plug-in: a sub-package (or module) of this package that owns its engine, its
tables (``tables/*.json``), its ready-made combatants, its map rule (``Ruleset.map_rule``) and
names its page panel (``Ruleset.panel``, a module of ``fray.web``). Importing it calls
``register``. Adding a game is one line in ``BUILTIN``; nothing else in the core names a game.
"""

from __future__ import annotations

from ..errors import InvalidAction
from .base import Ruleset

_REGISTRY: dict[str, Ruleset] = {}
_LOADED = False


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


# ruleset id -> the module of this package that registers it. Imported on first use, so the page
# boots with only the ruleset of the open encounter loaded (each is a few thousand lines of Python),
# and its panel with it (``fray.web.panels.panel_for``). A fresh browser's first encounter uses
# the first one present (``first_ruleset_id``).
BUILTIN = {
    "strike-rank": "strike_rank",
    "tactical-round": "tactical_round",
    "range-band": "range_band",
    "freeform": "freeform",
}

# The tracker with no rules: listed last among the games, and the ruleset of the page's stand-in
# encounter before the library is read (the lightest to import; the GM never sees it).
PLAIN = "freeform"


def _import(ruleset_id: str) -> None:
    import importlib

    module = BUILTIN.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if module is None or ruleset_id in _REGISTRY:
        return
    try:
        importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as e:  # a ruleset that is not built yet is simply absent
        if e.name != f"{__name__}.{module}":
            raise


def _load_builtin() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for ruleset_id in BUILTIN:
        _import(ruleset_id)


def get_ruleset(ruleset_id: str, field: str = "ruleset") -> Ruleset:
    if ruleset_id not in _REGISTRY:
        _import(ruleset_id)
    if ruleset_id not in _REGISTRY:
        _load_builtin()  # for the list of known ids in the message
    try:
        return _REGISTRY[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidAction(field, f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[k] for k in sorted(_REGISTRY, key=lambda k: (k == PLAIN, k))]


def first_ruleset_id() -> str:
    """The ruleset of a fresh browser's first encounter: the first of ``BUILTIN`` that loads
    (only that one is imported)."""
    for ruleset_id in BUILTIN:
        _import(ruleset_id)
        if ruleset_id in _REGISTRY:
            return ruleset_id
    raise InvalidAction("ruleset", "no ruleset is installed")
