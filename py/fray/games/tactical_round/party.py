"""tactical-round's part of the party (``fray.party.games``): hits taken and the GM's words for each
lasting critical carry from one fight to the next. The text gives no recovery of hit points."""

from __future__ import annotations

import copy
from typing import Any

from fray.errors import InvalidAction
from fray.model import Combatant, Encounter
from fray.party.join import _keys, _whole

MAX_LASTING = 20
_WEAPON_FIELDS = ("name", "cmb", "kind", "base_range", "reload", "quick_load", "two_handed", "shield", "length")
NO_RECOVERY = "The tactical-round rules give no recovery of hit points between fights: set the hits taken by hand."


def _kept(w: dict[str, Any], k: str) -> bool:
    # what the add form takes back: a melee weapon has no Base Range, and its reload (kept as 0 on the
    # combatant) is not a figure of its sheet, where a reload must be 1 to 20
    return k in w and not (k == "base_range" and w[k] is None) and not (k == "reload" and w.get("kind") != "missile")


def sheet_extra(c: Combatant) -> dict[str, Any]:
    return {"weapons": [{k: copy.deepcopy(w[k]) for k in _WEAPON_FIELDS if _kept(w, k)}
                        for w in c.data.get("weapons", [])],
            "wielding": c.data.get("wielding", 0)}


def put_carried(c: Combatant, carried: dict[str, Any], path: str) -> None:
    _keys(carried, path, ("hits_taken", "lasting"), "what a tactical-round character carries")
    if "hits_taken" in carried:
        c.data["hits_taken"] = _whole(carried["hits_taken"], f"{path}.hits_taken", 0, 10000, "Hits taken")
    lasting = carried.get("lasting", [])
    if not isinstance(lasting, list) or len(lasting) > MAX_LASTING or not all(
            isinstance(x, str) and 0 < len(x) <= 200 for x in lasting):
        raise InvalidAction(f"{path}.lasting", f"must list up to {MAX_LASTING} lasting criticals, each a short text")


def carried_note(carried: dict[str, Any]) -> str:
    lasting = carried.get("lasting", [])
    return ("Lasting: " + "; ".join(str(x) for x in lasting)) if isinstance(lasting, list) and lasting else ""


def carry_over(enc: Encounter, c: Combatant, came: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    hits = int(c.data.get("hits_taken", 0))
    if hits:
        out["hits_taken"] = max(0, hits)
    lasting = list(came.get("lasting", [])) + [x for x in _critical_words(enc, c) if x not in came.get("lasting", [])]
    if lasting:
        out["lasting"] = lasting[:MAX_LASTING]
    return out


def notes(enc: Encounter, c: Combatant) -> list[str]:
    return ["The rules give no recovery of hit points between fights: set them by hand when time passes"]


def summary(ch: dict[str, Any]) -> str:
    got = ch.get("carried") or {}
    hp = int(ch["sheet"].get("stats", {}).get("HP", 0))
    return f"HP {hp - int(got.get('hits_taken', 0))}/{hp}" + "".join(f"; {x}" for x in got.get("lasting", []))


def _critical_words(enc: Encounter, c: Combatant) -> list[str]:
    """The GM's own words on each critical this fight put on ``c`` (``tr.apply_critical``'s text)."""
    mark = f" critical on {c.name}: "
    out = []
    for e in enc.log:
        if e.kind == "critical" and mark in e.text and " — " in e.text:
            words = e.text.split(" — ", 1)[1].strip()[:200]
            if words and words not in out:
                out.append(words)
    return out
