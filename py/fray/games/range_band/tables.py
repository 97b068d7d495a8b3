"""Checks a GM-edited range-band table must pass before ``set_table`` accepts it.

Every table is one JSON file in ``tables/`` with ``id``, ``title``, ``source``, ``assumed`` and
``entries``. The assumed ones (FACTS.md: not public) are ``bands`` (metres), ``visible_range``,
``core_roll``, ``fatigue``, ``trauma`` and ``turn_actions``; an edit must keep the shape the rules read,
and a bad value is refused with its dotted path (``value.entries.3.range``).
"""

from __future__ import annotations

import json
import os
from typing import Any

from fray.errors import InvalidAction
from fray.games.range_band.combatant import BANDS

LIGHT = ("none", "low", "medium", "high")
CLUTTER = ("low", "medium", "high")
STEALTH = ("low", "medium", "high")
RANGES = ("none",) + BANDS


def _int(v: Any, path: str, lo: int = -1000, hi: int = 100000) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise InvalidAction(path, f"must be a whole number from {lo} to {hi}")
    return v


def _one_of(v: Any, path: str, choices: tuple[str, ...]) -> str:
    if v not in choices:
        raise InvalidAction(path, f"must be one of {', '.join(choices)}")
    return v


def _entries(table: dict[str, Any]) -> list[dict[str, Any]]:
    for i, e in enumerate(table["entries"]):
        if not isinstance(e, dict):
            raise InvalidAction(f"value.entries.{i}", "each entry is an object")
    return table["entries"]


def check(table_id: str, table: dict[str, Any]) -> dict[str, Any]:
    es = _entries(table)
    p = "value.entries"
    if table_id == "bands":
        if [e.get("band") for e in es] != list(BANDS):
            raise InvalidAction(p, f"the bands stay {', '.join(BANDS)}, nearest first; edit the metres")
        last = 0.0
        for i, e in enumerate(es):
            m = e.get("max")
            if i == len(es) - 1:
                if m is not None:
                    raise InvalidAction(f"{p}.{i}.max", "travel has no upper limit (null)")
                continue
            if isinstance(m, bool) or not isinstance(m, (int, float)) or m != m or m <= last:
                raise InvalidAction(f"{p}.{i}.max", "metres must be numbers going up, nearest band first")
            last = float(m)
    elif table_id == "visible_range":
        seen = set()
        for i, e in enumerate(es):
            key = (_one_of(e.get("light"), f"{p}.{i}.light", LIGHT), _one_of(e.get("clutter"), f"{p}.{i}.clutter", CLUTTER),
                   _one_of(e.get("stealth"), f"{p}.{i}.stealth", STEALTH))
            _one_of(e.get("range"), f"{p}.{i}.range", RANGES)
            if key in seen:
                raise InvalidAction(f"{p}.{i}", "this light, clutter and stealth level is listed twice")
            seen.add(key)
        if len(seen) != len(LIGHT) * len(CLUTTER) * len(STEALTH):
            raise InvalidAction(p, "every light × clutter × stealth level needs a range")
    elif table_id == "core_roll":
        allowed = {"success": ("at_or_under_tn", "at_or_over_tn"), "hindrance_easing": ("extra_dice", "flat"),
                   "blunder_face": ("max", "min", "none")}
        for i, e in enumerate(es):
            k = e.get("key")
            if not isinstance(k, str):  # an object or a list as a key: named here, not a TypeError below
                raise InvalidAction(f"{p}.{i}.key", "must be success, hindrance_easing, flat_step, target or blunder_face")
            if k in allowed:
                _one_of(e.get("value"), f"{p}.{i}.value", allowed[k])
            elif k in ("flat_step", "target"):
                _int(e.get("value"), f"{p}.{i}.value", 0, 1000)
            else:
                raise InvalidAction(f"{p}.{i}.key", "must be success, hindrance_easing, flat_step, target or blunder_face")
    elif table_id in ("fatigue", "trauma"):
        rounds = table.get("rounds")
        if not isinstance(rounds, list) or not rounds or any(isinstance(r, bool) or not isinstance(r, int) for r in rounds) \
                or rounds != sorted(rounds):
            raise InvalidAction("value.rounds", "battle lengths in rounds, going up")
        field, vals = ("activity", "fatigue") if table_id == "fatigue" else ("involvement", "trauma")
        names = []
        for i, e in enumerate(es):
            if not isinstance(e.get(field), str) or not e[field]:
                raise InvalidAction(f"{p}.{i}.{field}", "needs a name")
            names.append(e[field])
            v = e.get(vals)
            if not isinstance(v, list) or len(v) != len(rounds) + 1:
                raise InvalidAction(f"{p}.{i}.{vals}", f"one figure per battle length: {len(rounds) + 1}")
            for j, x in enumerate(v):
                _int(x, f"{p}.{i}.{vals}.{j}", 0, 1000)
        if not names or len(set(names)) != len(names):
            raise InvalidAction(p, f"each {field} once, at least one")
    elif table_id == "turn_actions":
        sizes = set()
        for i, e in enumerate(es):
            sizes.add(_one_of(e.get("size"), f"{p}.{i}.size", ("major", "minor", "free")))
            if e.get("per_turn") is not None:
                _int(e["per_turn"], f"{p}.{i}.per_turn", 0, 20)
        if sizes != {"major", "minor", "free"}:
            raise InvalidAction(p, "needs major, minor and free")
    elif table_id == "constants":
        keys = [e.get("key") for e in es]
        at_least_one = {"rounds_per_minute", "breath_every_idle", "breath_rounds", "breath_rounds_idle",
                        "battle_waves_rounds"}
        for i, e in enumerate(es):
            if not isinstance(e.get("key"), str) or not e["key"]:
                raise InvalidAction(f"{p}.{i}.key", "must be the name of a constant")
            _int(e.get("value"), f"{p}.{i}.value", 1 if e.get("key") in at_least_one else 0, 100000)
        with open(os.path.join(os.path.dirname(__file__), "tables", "constants.json"), encoding="utf-8") as fh:
            need = {e["key"] for e in json.load(fh)["entries"]}  # the default's keys must all stay
        missing = sorted(need - set(keys))
        if missing:
            raise InvalidAction(p, f"must keep the entries {', '.join(missing)}")
    elif table_id == "light_sources":
        keys = set()
        for i, e in enumerate(es):
            keys.add(_one_of(e.get("key"), f"{p}.{i}.key", ("dim", "moderate", "bright", "extreme")))
            for f in ("casts", "dark_casts"):
                casts = e.get(f, [])
                if not isinstance(casts, list):
                    raise InvalidAction(f"{p}.{i}.{f}", "a list of {light, to}")
                for j, c in enumerate(casts):
                    if not isinstance(c, dict):
                        raise InvalidAction(f"{p}.{i}.{f}.{j}", "an object {light, to}")
                    _one_of(c.get("light"), f"{p}.{i}.{f}.{j}.light", LIGHT)
                    _one_of(c.get("to"), f"{p}.{i}.{f}.{j}.to", BANDS)
        if keys != {"dim", "moderate", "bright", "extreme"}:
            raise InvalidAction(p, "needs dim, moderate, bright and extreme")
    elif table_id == "noise":
        keys = set()
        for i, e in enumerate(es):
            keys.add(_one_of(e.get("key"), f"{p}.{i}.key", ("low", "medium", "high")))
            _one_of(e.get("audible"), f"{p}.{i}.audible", BANDS)
        if keys != {"low", "medium", "high"}:
            raise InvalidAction(p, "needs low, medium and high")
    elif table_id == "size_stealth":
        keys = set()
        for i, e in enumerate(es):
            keys.add(_one_of(e.get("key"), f"{p}.{i}.key",
                             ("no_high_from", "no_medium_from", "visible_plus_from", "visible_plus_every")))
            _int(e.get("value"), f"{p}.{i}.value", 1, 100000)
        if len(keys) != 4:
            raise InvalidAction(p, "needs no_high_from, no_medium_from, visible_plus_from and visible_plus_every")
    elif table_id == "obscuring":
        from fray.games.range_band.areas import check_table
        check_table(table)
    return table
