"""range-band's part of the party (``fray.party.games``): "this is generalized as post-combat fatigue
and applied once the battle ends": the fatigue and trauma the charts propose at the end of the
battle, with the Abilities' fatigue taken during it, carry; breath does not (holding breath ends
with the fight). The text gives no rule for recovering fatigue or trauma."""

from __future__ import annotations

import copy
from typing import Any

from fray.model import Combatant, Encounter
from fray.party.join import _keys, _whole
from fray.games.range_band.combatant import traits_json

NO_RECOVERY = "The range-band rules give no recovery of post-combat fatigue or trauma: set them by hand."


def sheet_extra(c: Combatant) -> dict[str, Any]:
    return copy.deepcopy(traits_json(c))


def put_carried(c: Combatant, carried: dict[str, Any], path: str) -> None:
    _keys(carried, path, ("fatigue", "trauma"), "what a range-band character carries")
    for k in ("fatigue", "trauma"):
        if k in carried:
            _whole(carried[k], f"{path}.{k}", 0, 1000, k.capitalize())


def carried_note(carried: dict[str, Any]) -> str:
    f, t = carried.get("fatigue", 0), carried.get("trauma", 0)
    return f"Carried from the last fight: fatigue {f}, trauma {t}" if f or t else ""


def carry_over(enc: Encounter, c: Combatant, came: dict[str, Any]) -> dict[str, Any]:
    post = c.data.get("post_combat") or {}
    fatigue = int(came.get("fatigue", 0)) + int(c.data.get("fatigue", 0)) + int(post.get("fatigue", 0))
    trauma = int(came.get("trauma", 0)) + int(post.get("trauma", 0))
    return {k: v for k, v in (("fatigue", fatigue), ("trauma", trauma)) if v}


def notes(enc: Encounter, c: Combatant) -> list[str]:
    out = []
    if not c.data.get("post_combat"):
        out.append("The battle has not been ended: no post-combat fatigue or trauma is proposed yet")
    b = c.data.get("breath") or {}
    if b.get("holding") or b.get("out"):
        out.append("Breath resets: holding breath ends with the fight")
    return out


def summary(ch: dict[str, Any]) -> str:
    got = ch.get("carried") or {}
    return f"fatigue {got.get('fatigue', 0)}, trauma {got.get('trauma', 0)}"
