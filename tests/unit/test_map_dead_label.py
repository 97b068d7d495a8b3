"""The words beside a token on the map (web/mapview.label_lines): a GM's play-through read a dead wolf's label
as "bruised · incapacitated · dead"; the dead need only "dead"."""

from __future__ import annotations

import random

from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web.mapview import label_lines, token_label

RS = get_ruleset("tactical-round")


def test_a_dead_tokens_label_says_dead_only():
    wolf = next(p for p in RS.presets() if p["name"] == "Wolf")
    h = History(new_encounter("tactical-round", "T"))
    h.do({"type": "add_combatant", "combatant": dict(wolf)}, random.Random(1))
    h.do({"type": "add_combatant", "combatant": {**wolf, "name": "Wolf 2"}}, random.Random(1))
    for cond in ("bruised", "incapacitated", "dead"):
        h.do({"type": "set_condition", "id": "c1", "condition": cond, "on": True}, random.Random(1))
    h.do({"type": "set_condition", "id": "c2", "condition": "bruised", "on": True}, random.Random(1))
    dead, hurt = h.present.get("c1"), h.present.get("c2")
    assert "dead" in dead.conditions and "incapacitated" in dead.conditions
    assert label_lines(dead, None, None, "straight", 1.0)[0][1] == ("info", [("state", "dead")], 0.7)
    assert token_label(dead, False, None).endswith("altitude 0 m, dead")
    assert label_lines(hurt, None, None, "straight", 1.0)[0][1] == ("info", [("state", "bruised")], 0.7)
