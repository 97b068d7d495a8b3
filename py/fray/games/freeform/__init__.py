"""The free-form tracker: any stats the GM likes, turn order by an initiative number.

Not one of the three games: it is what the tracker does with no rules engine behind it, so a GM
can run a fight of any game by hand. Order: higher ``initiative`` first, then the GM's
order for ties, then the order added.
"""

from __future__ import annotations

import math
import re
from typing import Any

from fray.errors import InvalidAction
from fray.model import Encounter
from fray.games import register
from fray.games.base import Ruleset, Slot, gm_tie_break

_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9 _\-]{0,23}$")


class FreeForm(Ruleset):
    id = "freeform"
    name = "Free-form"
    summary = "Any stats; turn order by an initiative number. No rules automated."
    free_stats = True
    tie_rule = "higher initiative goes first; the GM orders equal initiative"
    conditions = {"prone": "Lying on the ground.", "stunned": "Dazed.", "down": "Out of the fight."}

    def validate_stats(self, raw: Any, prefix: str = "stats") -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise InvalidAction(prefix, "stats must be an object of name: value")
        out: dict[str, Any] = {}
        for k, v in raw.items():
            if not isinstance(k, str) or not _KEY.fullmatch(k):
                raise InvalidAction(f"{prefix}.{k}", "a stat name is 1-24 letters, digits, spaces, _ or -,"
                                    " starting with a letter")
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                raise InvalidAction(f"{prefix}.{k}", "a stat is a number or a short text")
            if isinstance(v, float) and not math.isfinite(v):
                raise InvalidAction(f"{prefix}.{k}", "a stat number must be finite")
            if isinstance(v, str):
                s = v.strip()
                try:
                    v = int(s)
                except ValueError:
                    try:
                        v = float(s)
                    except ValueError:
                        v = s
                    # "nan", "inf" or "1e999" stay text: NaN and Infinity are not JSON and a NaN
                    # never equals itself, so a save holding one could not be checked on load
                    if isinstance(v, float) and not math.isfinite(v):
                        v = s
                if isinstance(v, str) and len(v) > 40:
                    raise InvalidAction(f"{prefix}.{k}", "a text stat is at most 40 characters")
            out[k] = v
        if len(out) > 40:
            raise InvalidAction(prefix, "at most 40 stats")
        return out

    def order_of_play(self, enc: Encounter) -> list[Slot]:
        def init(c):
            v = c.stats.get("initiative", 0)
            return v if isinstance(v, (int, float)) else 0

        slots = [Slot(c.id, f"Init {init(c)}", (-init(c), gm_tie_break(enc, c.id), i, c.id), f"initiative {init(c)}",
                      tie=(-init(c),))
                 for i, c in enumerate(enc.combatants) if "down" not in c.conditions]
        slots.sort(key=lambda s: s.key)
        return slots


register(FreeForm())
