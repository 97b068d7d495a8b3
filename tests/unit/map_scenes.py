"""Fights the map tests draw, shared by the unit tests and the browser's (tests/e2e puts this folder on its path)."""

from __future__ import annotations

from fray.games import get_ruleset
from fray.history import History
from fray.reducer import new_encounter

# (ready-made, name, side, x, y, altitude, more): a GM's range-band play-through (p5) at the reed ford, long names
# at one band, the dead Nag under its captain
REED_FORD = (("Rider", "Kael Stormrider of the Eastern Marches", "party", 0, 0, 0, {}),
             ("Horse", "Grey", "party", 0, 0, 0, {}), ("Winged flyer", "Wren", "party", 4, 6, 40, {}),
             ("Human scout", "Sly", "party", 6, -6, 0, {"stealth": "medium"}),
             ("Human scout", "Mark", "party", 2, 3, 0, {}),
             ("Human scout", "Sneak the Whisper in the Reeds", "foes", 30, 0, 0, {"stealth": "high"}),
             ("Human scout", "Broo 2 the Unwashed Goat-headed", "foes", 35, 5, 0, {}),
             ("Human scout", "Bandit 3", "foes", 40, -5, 0, {}),
             ("Human scout", "Bandit Captain Morrow the Twice-Hanged", "foes", 45, 0, 0, {}),
             ("Horse", "Bandit's Nag", "foes", 45, 0, 0, {}))


def reed_ford(moved: bool) -> History:
    """The reed ford fight; ``moved``: as in its round 2 (Kael on Grey 14 m east, Wren down to 10 m, Broo 2
    incapacitated)."""
    presets = {p["name"]: p for p in get_ruleset("range-band").presets()}
    h = History(new_encounter("range-band", "Reed ford"))
    for which, name, side, x, y, alt, more in REED_FORD:
        h.do({"type": "add_combatant", "combatant": {**presets[which], "name": name, "side": side, **more,
                                                      "position": {"x": x, "y": y, "alt": alt}}})
    h.do({"type": "set_condition", "id": "c10", "condition": "dead", "on": True})
    if moved:
        h.do({"type": "rb.mount", "id": "c1", "mount": "c2"})
        h.do({"type": "move", "id": "c2", "x": 14, "y": 0})
        h.do({"type": "move", "id": "c3", "x": 4, "y": 6, "alt": 10})
        h.do({"type": "set_condition", "id": "c7", "condition": "incapacitated", "on": True})
    return h
