"""A combatant's weapons and per-fight state, read from the ``add_combatant`` object.

``c.data`` of a tactical-round combatant (plain JSON):

* ``weapons``: list of weapons, each ``{name, cmb, kind, base_range, reload, quick_load, two_handed,
  shield, length, loaded, loaded_round, reload_progress}``. ``shield`` is the DEF bonus of a
  shield carried with this weapon (0 = no shield); ``length`` orders the Melee phase (longer first);
  ``loaded``/``loaded_round`` say whether a missile weapon is loaded (a thrown weapon readied) and
  in which round (0 = before the fight), which picks Ranged A or Ranged B.
* ``wielding``: index of the weapon in hand (parry, default attack, shield).
* ``hits_taken``: damage so far; current HP = HP stat - hits_taken, so editing the HP stat keeps
  the wounds.
* ``parry``: ``{amount, against: [ids]}`` for this round, or null.
* ``cover``: ``{attacker id or "all": "partial" | "full"}``, per direction.
* ``engaged_with``: ids this combatant is in melee with (kept on both sides).
* ``disengaging``: true from a Disengage until the end of Other Actions.
* ``stunned_rounds``: how many more ends of Other Actions until Stunned wears off.
* ``run_away``: this round's Running Away outcome ``{round, vs: {attacker id: win|lose|tie}, struck: [ids]}``,
  and ``away: true`` once the runner has moved away (no strikes after that).
* ``parried``: ``{round, ids}``: the opponents whose attacks the parry has already counted against this Round
  (without a shield it cannot then be turned on another opponent).
* ``reloaded``: ``{weapon index (text): round}`` of the last reload (or readying) of each weapon: one a Round.
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.model import Combatant
from fray.games.tactical_round.tables import WEAPON_KINDS

RANGED_KINDS = ("missile", "thrown", "spell")
MAX_WEAPONS = 12


def _int(raw: Any, path: str, lo: int, hi: int, default: int | None = None) -> int:
    if raw is None and default is not None:
        return default
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InvalidAction(path, f"must be a whole number from {lo} to {hi}")
    if not lo <= raw <= hi:
        raise InvalidAction(path, f"must be from {lo} to {hi}, not {raw}")
    return raw


def _num(raw: Any, path: str, lo: float, hi: float) -> float:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or raw != raw or not lo <= raw <= hi:
        raise InvalidAction(path, f"must be a number from {lo:g} to {hi:g}")
    return raw


def _bool(raw: Any, path: str, default: bool) -> bool:
    if raw is None:
        return default
    if not isinstance(raw, bool):
        raise InvalidAction(path, "must be true or false")
    return raw


WEAPON_FIELDS = ("name", "cmb", "kind", "base_range", "reload", "quick_load", "two_handed", "shield", "length",
                 "loaded")


def check_weapon(raw: Any, path: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, "a weapon is an object with name, cmb and kind")
    for k in raw:
        if k not in WEAPON_FIELDS + ("loaded_round", "reload_progress"):
            raise InvalidAction(f"{path}.{k}", f"unknown weapon field (known: {', '.join(WEAPON_FIELDS)})")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 40:
        raise InvalidAction(f"{path}.name", "must be text of 1 to 40 characters")
    if "cmb" not in raw:
        raise InvalidAction(f"{path}.cmb", "CMB is required")
    cmb = _int(raw.get("cmb"), f"{path}.cmb", -100, 500)
    kind = raw.get("kind", "melee")
    if kind not in WEAPON_KINDS:
        raise InvalidAction(f"{path}.kind", f"must be one of {', '.join(WEAPON_KINDS)}")
    base_range = None
    if kind in RANGED_KINDS:
        if raw.get("base_range") is None:
            raise InvalidAction(f"{path}.base_range", f"a {kind} weapon needs a Base Range in metres")
        base_range = _num(raw["base_range"], f"{path}.base_range", 0.5, 10000)
    elif raw.get("base_range") is not None:
        raise InvalidAction(f"{path}.base_range", f"a {kind} weapon has no Base Range")
    reload = _int(raw.get("reload"), f"{path}.reload", 1, 20, 1)
    quick_load = _bool(raw.get("quick_load"), f"{path}.quick_load", False)
    if quick_load and kind != "missile":
        raise InvalidAction(f"{path}.quick_load", "only missile weapons have Quick Load")
    shield = raw.get("shield", 0)
    if shield is False or shield is None:
        shield = 0
    if shield is True:
        raise InvalidAction(f"{path}.shield", "give the shield's DEF bonus as a number (0 = no shield)")
    shield = _int(shield, f"{path}.shield", 0, 100)
    two_handed = _bool(raw.get("two_handed"), f"{path}.two_handed", False)
    if shield and two_handed:
        raise InvalidAction(f"{path}.shield", "a two-handed weapon leaves no hand for a shield")
    length = _num(raw.get("length", 0), f"{path}.length", 0, 100)
    loaded = _bool(raw.get("loaded"), f"{path}.loaded", True) if kind in ("missile", "thrown") else True
    return {
        "name": " ".join(name.split()), "cmb": cmb, "kind": kind, "base_range": base_range,
        "reload": reload if kind == "missile" else 0, "quick_load": quick_load, "two_handed": two_handed,
        "shield": shield, "length": length, "loaded": loaded,
        "loaded_round": _int(raw.get("loaded_round"), f"{path}.loaded_round", 0, 100000, 0),
        "reload_progress": _int(raw.get("reload_progress"), f"{path}.reload_progress", 0, 20, 0),
    }


def check_weapons(raw: Any, path: str) -> list[dict[str, Any]]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidAction(path, "must be a list of weapons")
    if len(raw) > MAX_WEAPONS:
        raise InvalidAction(path, f"at most {MAX_WEAPONS} weapons")
    return [check_weapon(w, f"{path}.{i}") for i, w in enumerate(raw)]


EXTRA_FIELDS = ("weapons", "wielding", "hits_taken")


def fill(c: Combatant, extra: dict[str, Any], prefix: str, keep: bool) -> None:
    """Read the ruleset fields of ``extra`` into ``c.data``; ``keep`` keeps fight state (edits)."""
    for k in extra:
        if k not in EXTRA_FIELDS:
            raise InvalidAction(f"{prefix}.{k}", f"unknown field (tactical-round takes {', '.join(EXTRA_FIELDS)})")
    data = dict(c.data) if keep else {}
    if "weapons" in extra or not keep:
        old = data.get("weapons", [])
        weapons = check_weapons(extra.get("weapons"), f"{prefix}.weapons")
        if keep:  # an edited weapon list keeps what is loaded where the weapon stayed the same kind
            for i, w in enumerate(weapons):
                if i < len(old) and old[i]["kind"] == w["kind"] and "loaded" not in extra["weapons"][i]:
                    w.update(loaded=old[i]["loaded"], loaded_round=old[i]["loaded_round"],
                             reload_progress=old[i]["reload_progress"])
        data["weapons"] = weapons
    n = len(data["weapons"])
    if "wielding" in extra or not keep:
        data["wielding"] = _int(extra.get("wielding"), f"{prefix}.wielding", 0, max(n - 1, 0), 0)
    if data["wielding"] >= max(n, 1):
        data["wielding"] = 0
    if "hits_taken" in extra or not keep:
        data["hits_taken"] = _int(extra.get("hits_taken"), f"{prefix}.hits_taken", -1000, 10000, 0)
    for k, v in (("parry", None), ("cover", {}), ("engaged_with", []), ("disengaging", False),
                 ("stunned_rounds", 0), ("run_away", None), ("reloaded", {}), ("parried", None)):
        data.setdefault(k, v)
    c.data = data


def wielded(c: Combatant) -> dict[str, Any] | None:
    ws = c.data.get("weapons", [])
    i = c.data.get("wielding", 0)
    return ws[i] if 0 <= i < len(ws) else None


def weapon(c: Combatant, index: Any, field: str = "weapon") -> tuple[int, dict[str, Any]]:
    ws = c.data.get("weapons", [])
    if index is None:
        index = c.data.get("wielding", 0)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(ws):
        raise InvalidAction(field, f"{c.name} has no weapon {index!r} (weapons 0 to {len(ws) - 1})"
                            if ws else f"{c.name} has no weapons")
    return index, ws[index]


def hp_max(c: Combatant) -> int:
    return int(c.stats.get("HP", 1))


def hp_current(c: Combatant) -> int:
    return hp_max(c) - int(c.data.get("hits_taken", 0))
