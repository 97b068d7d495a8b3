"""The registry of rulesets: ``BUILTIN`` is the one list that names them.

A ruleset is one plug-in: a sub-package (or module) of this package that owns its engine, its
tables (``tables/*.json``), its ready-made combatants, its map rule (``Ruleset.map_rule``) and
names its page panel (``Ruleset.panel``, a module of ``fray.web`` or a full module path).
Importing it calls ``register``. Adding a built-in game is one line in ``BUILTIN``; nothing else
in the core names a game.

An installed game is a Python distribution (a wheel: ``pip install`` in CPython, ``micropip`` in
the page) that declares an entry point in the group ``ENTRY_POINT_GROUP``, named by its ruleset
id: ``d20-skirmish = "fray_d20:RULESET"``. The value is a ``Ruleset`` (or a subclass of it) or a
module that calls ``register`` when imported. It is loaded, like a built-in game, the first time
its id is asked for, and it can never take a built-in game's id.
"""

from __future__ import annotations

from fray.errors import InvalidAction
from fray.games.base import Ruleset

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


# The entry point group an installed game declares itself in (its wheel's entry_points.txt).
ENTRY_POINT_GROUP = "fray.games"
# False where nothing can be installed: the page sets it from the games it keeps
# (web/games_view.py), so a page with none never reads importlib.metadata.
LOOK_FOR_INSTALLED = True


def installed_entry_points() -> dict:
    """Installed games: ruleset id -> its entry point, read afresh from the installed
    distributions each call (the page installs games while it runs). A built-in id is never
    taken by an installed game."""
    if not LOOK_FOR_INSTALLED:
        return {}
    from importlib.metadata import entry_points

    found = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in BUILTIN and ep.name not in found:
            found[ep.name] = ep
    return found


def load_entry_point(ep) -> Ruleset:
    """Import an installed game's entry point and register its ruleset; what it names must be a
    ``Ruleset`` (or its class) whose id is the entry point's name, else ``InvalidAction``."""
    try:
        target = ep.load()
    except Exception as e:  # noqa: BLE001 - a plug-in's own import error, in the GM's words
        why = str(e) or type(e).__name__
        raise InvalidAction("ruleset", f"the game {ep.name} could not be loaded: {why}") from e
    if isinstance(target, type) and issubclass(target, Ruleset):
        target = target()
    if isinstance(target, Ruleset):
        if target.id != ep.name:
            raise InvalidAction("ruleset", f"the game {ep.name} calls itself {target.id}; "
                                "the two names must be the same")
        register(target)
    elif ep.name not in _REGISTRY:  # a module that registers on import
        raise InvalidAction("ruleset", f"the game {ep.name} does not provide a set of rules")
    rs = _REGISTRY[ep.name]
    if not isinstance(rs, Ruleset) or not rs.name:
        _REGISTRY.pop(ep.name, None)
        raise InvalidAction("ruleset", f"the game {ep.name} does not provide a set of rules")
    return rs


def _import(ruleset_id: str) -> None:
    import importlib

    if not isinstance(ruleset_id, str) or ruleset_id in _REGISTRY:
        return
    module = BUILTIN.get(ruleset_id)
    if module is None:
        ep = installed_entry_points().get(ruleset_id)
        if ep is not None:
            load_entry_point(ep)
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


def game_installed(ruleset_id: object) -> bool:
    """Whether an encounter of ``ruleset_id`` can open here: a built-in game, or one loaded (the
    page loads every added game at boot). Cheap: the library list asks it of every entry. An
    entry that names no game (an unreadable save's, rebuilt from its key: "") is not said to lack one."""
    return not isinstance(ruleset_id, str) or not ruleset_id or ruleset_id in BUILTIN or ruleset_id in _REGISTRY


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
    """Every game: the built-in ones, then every installed one that loads (one that does not is
    left out here; opening it says why)."""
    _load_builtin()
    for ruleset_id, ep in installed_entry_points().items():
        if ruleset_id not in _REGISTRY:
            try:
                load_entry_point(ep)
            except InvalidAction:
                pass
    return [_REGISTRY[k] for k in sorted(_REGISTRY, key=lambda k: (k == PLAIN, k not in BUILTIN, k))]


def first_ruleset_id() -> str:
    """The ruleset of a fresh browser's first encounter: the first of ``BUILTIN`` that loads
    (only that one is imported)."""
    for ruleset_id in BUILTIN:
        _import(ruleset_id)
        if ruleset_id in _REGISTRY:
            return ruleset_id
    raise InvalidAction("ruleset", "no ruleset is installed")
