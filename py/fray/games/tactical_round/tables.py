"""The ruleset's tables as data, and the checks a GM-edited copy must pass.

Each table is one JSON file in ``tables/`` with ``id``, ``title``, ``source``, ``assumed`` and an
``entries`` list. A GM edit (core action ``set_table``) replaces a whole table; ``check_table``
reads it field by field so that a bad edit is refused with the dotted path of the bad value and
the encounter stays as it was.
"""

from __future__ import annotations

import os
from typing import Any

from fray.errors import InvalidAction
from fray.games.base import load_tables

FOLDER = os.path.join(os.path.dirname(__file__), "tables")
WEAPON_KINDS = ("melee", "missile", "thrown", "unarmed", "natural", "spell")

_INT = (int,)
_NUM = (int, float)
_STR = (str,)

# table id -> {field: (types, required)}; None in types means the value may be null
SCHEMAS: dict[str, dict[str, tuple[tuple, bool]]] = {
    "phases": {"id": (_STR, True), "title": (_STR, True), "note": (_STR, False), "label": (_STR, False)},
    "declared_actions": {"key": (_STR, True), "title": (_STR, True), "phase": (_STR, True), "cost": (_STR, True)},
    "range_bands": {"up_to_multiple": (_NUM, True), "modifier": (_INT, True), "label": (_STR, False)},
    "condition_modifiers": {"key": (_STR, True), "label": (_STR, True), "applies": (_STR, True),
                            "value": (_INT, True), "no_shield": ((bool,), False)},
    "cover": {"key": (_STR, True), "label": (_STR, True), "bonus": (_INT, True)},
    "critical_severity": {"key": (_STR, True), "bonus": (_INT, True)},
    "hp_thresholds": {"condition": (_STR, True), "below_fraction": (_NUM, False), "at_or_below": (_INT, False),
                      "modifier": (_INT, False)},
    "action_roll_bands": {"key": (_STR, True), "label": (_STR, True), "max": (_INT + (type(None),), True)},
    "parry_rules": {"key": (_STR, True), "value": ((bool, int, float), True)},
    "melee_reach": {"key": (_STR, True), "value": (_NUM, True)},
    "attack_results": {"kind": (_STR, True), "min": (_INT + (type(None),), True),
                       "max": (_INT + (type(None),), True), "hits": (_INT, True),
                       "critical": (_STR + (type(None),), True)},
}

# Keys the engine looks up by name: an edited table must keep them so the rules still work.
REQUIRED_KEYS = {
    "condition_modifiers": ("key", {"flanking", "on_rear", "attacker_prone", "target_prone_ranged", "target_stunned",
                                    "target_surprised", "attacker_held", "target_held", "target_held_melee", "charge",
                                    "mounted_charge", "two_weapons", "full_and_half"}),
    "cover": ("key", {"partial", "full"}),
    "declared_actions": ("key", {"move", "run_away", "spell_prepared", "ranged_attack", "melee_attack",
                                 "spell_unprepared", "reload", "ready_thrown", "disengage", "other"}),
    "parry_rules": ("key", {"two_handed_needs_shield_or_cover", "stunned_fraction"}),
    "melee_reach": ("key", {"reach_m"}),
    "phases": ("id", {"assessment", "declaration", "move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b",
                      "other"}),
}


def default_tables() -> dict[str, dict[str, Any]]:
    return load_tables(FOLDER)


def check(table_id: str, table: dict[str, Any]) -> dict[str, Any]:
    """Field-by-field check of an edited table (the base class already checked id and entries)."""
    schema = SCHEMAS.get(table_id, {})
    for i, e in enumerate(table["entries"]):
        if not isinstance(e, dict):
            raise InvalidAction(f"value.entries.{i}", "each entry is an object")
        for k, (types, required) in schema.items():
            if k not in e:
                if required:
                    raise InvalidAction(f"value.entries.{i}.{k}", "is required")
                continue
            v = e[k]
            if isinstance(v, bool) and bool not in types:
                raise InvalidAction(f"value.entries.{i}.{k}", "must be a number or text, not true/false")
            if not isinstance(v, types):
                raise InvalidAction(f"value.entries.{i}.{k}", f"has the wrong type ({type(v).__name__})")
    if table_id in REQUIRED_KEYS:
        field, keys = REQUIRED_KEYS[table_id]
        have = [e[field] for e in table["entries"]]
        missing = sorted(keys - set(have))
        if missing:
            raise InvalidAction("value.entries", f"must keep the entries {', '.join(missing)}")
        if len(set(have)) != len(have):
            raise InvalidAction("value.entries", f"names one {field} twice")
    if table_id == "phases" and [e["id"] for e in table["entries"]] != [
            "assessment", "declaration", "move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b", "other"]:
        raise InvalidAction("value.entries", "the Tactical Round Sequence keeps its order; edit titles and notes only")
    if table_id == "declared_actions":
        phases = set(REQUIRED_KEYS["phases"][1])
        for i, e in enumerate(table["entries"]):
            if e["phase"] not in phases:
                raise InvalidAction(f"value.entries.{i}.phase", f"must be one of {', '.join(sorted(phases))}")
            if e["cost"] not in ("full", "half"):
                raise InvalidAction(f"value.entries.{i}.cost", "must be full or half")
    into_melee = table.get("into_melee", "partial")
    if table_id == "cover" and (not isinstance(into_melee, str) or into_melee not in {e["key"] for e in table["entries"]}):
        raise InvalidAction("value.into_melee", "must name one of the cover entries")
    if table_id == "range_bands":
        if not table["entries"]:
            raise InvalidAction("value.entries", "needs at least one band")
        last = 0
        for i, e in enumerate(table["entries"]):
            if e["up_to_multiple"] <= last:
                raise InvalidAction(f"value.entries.{i}.up_to_multiple", "bands must go up in order")
            last = e["up_to_multiple"]
    if table_id == "action_roll_bands":
        maxes = [e["max"] for e in table["entries"]]
        if not maxes or maxes[-1] is not None or any(m is None for m in maxes[:-1]) or maxes[:-1] != sorted(maxes[:-1]):
            raise InvalidAction("value.entries", "bands go up in order and the last has max null")
    if table_id == "attack_results":
        for i, e in enumerate(table["entries"]):
            if e["kind"] != "any" and e["kind"] not in WEAPON_KINDS:
                raise InvalidAction(f"value.entries.{i}.kind", f"must be any or one of {', '.join(WEAPON_KINDS)}")
            if e["hits"] < 0:
                raise InvalidAction(f"value.entries.{i}.hits", "must be 0 or more")
    return table
