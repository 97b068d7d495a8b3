"""The registry of rulesets. Each ruleset is a sub-package that registers itself here."""

from __future__ import annotations

from ..errors import InvalidAction
from .base import Ruleset

_REGISTRY: dict[str, Ruleset] = {}
_LOADED = False


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def _load_builtin() -> None:
    # Imported lazily so that importing ``fray`` stays cheap and cycles stay impossible.
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    from . import freeform  # noqa: F401
    import importlib

    for name in ("strike_rank", "tactical_round"):
        try:
            importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:  # a ruleset that is not built yet is simply absent
            if e.name != f"{__name__}.{name}":
                raise


def get_ruleset(ruleset_id: str, field: str = "ruleset") -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise InvalidAction(field, f"unknown ruleset {ruleset_id!r} (known: {known})") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[k] for k in sorted(_REGISTRY, key=lambda k: (k == "freeform", k))]
