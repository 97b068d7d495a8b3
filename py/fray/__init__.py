"""Fray: an offline combat tracker and rules engine for tabletop role-playing games.

The engine is pure Python (standard library only). It runs the same in CPython (tests, the
command line) and in Pyodide (the page). Nothing here imports ``js`` or ``pyscript``: the
browser layer lives in ``fray.web``.
"""

__version__ = "0.1.0"

# The edition of the rules as this engine plays them, written into every save ("rules"). Change it
# whenever a change makes recorded actions end differently (the replay hashes in tests/golden/ move):
# a save of another edition whose history no longer replays to its encounter then opens as it
# stands, with Undo starting there, instead of being refused as edited or corrupted
# (savefile._load_history; tests/unit/test_rules_edition.py).
RULES_EDITION = "2026-12-05.13"  # .13: strike-rank: a closing move ends 1.5 m (half Add ×N's step) from anyone else, not 1 m; .12: strike-rank: the log says what the GM decided in words ("The GM rules Grak's left arm severed"), not "GM answers (severed, …)"; a walker is refused below the ground (altitude under 0 m; range-band: but in water; strike-rank: but an aquatic creature); counts in the log say their own number ("for 2 rounds", "1 major action"), not "round(s)"; .11: Add ×N passes over a spot someone stands on (every game); strike-rank: a knockback moves the token (and a mount that shared it) straight away from the attacker once the GM answers the collision question (into a combatant: a body's width short of them; a solid object: where the GM puts it); .10: strike-rank: an attack whose declared target died is refused against another foe at its old SR (a forced change, delayed by DEX SR); engaged (shooting into melee, disengaging, the map) is within the reach a melee attack needs no move for; two combatants declaring to close on each other add their Movement rates in both declarations; a melee declared on a foe less than a half decimetre beyond engagement range has nothing to move (no move SR); a shot parried by a shield leaves its missile in the shield (ENC 0.1), not the bow or crossbow, and no pull-out prompt; .9: range-band: a knockdown off a mount is logged "knocked down" once (the unmounting line gives no reason of its own); .8: strike-rank: a close of less than a decimetre moves no token; .7: tactical-round: the fallen (dead, dying, incapacitated, unconscious) are Engaged with no one, on both sides; .6: an attack on the dead is refused (strike-rank, tactical-round); .5: strike-rank: a natural weapon (bite, claw) no longer parries, and a move closing on a foe ends beside anyone already on its spot; range-band statuses and the core conditions a game names are logged in the GM's words ("knocked down", not "knocked-down"); .4: a new injury ends a location's First Aid treatment (it heals naturally only once treated again); .3: Natural Healing by rested days
