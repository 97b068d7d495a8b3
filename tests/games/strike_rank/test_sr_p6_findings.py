"""Strike-rank findings of a GM's sixth play-through (the engine's words; the page's: tests/e2e/test_sr_p6_findings.py).

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import RS, XBOW, attack, declare, fight, fighter, texts, to_phase  # noqa: E402
from fray.reducer import apply  # noqa: E402

HEAVY = {**XBOW, "name": "Heavy crossbow", "rate": "1/3MR"}


def test_a_reload_of_two_melee_rounds_says_how_many_are_done():
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading". A GM's
    play: the log said "Bolt reloads Heavy crossbow: 1/2 MR", which reads like a rate. A 1/3MR crossbow takes two MRs
    of reloading; after the first the log says "1 of 2 Melee Rounds done", as the refusal to shoot says "(1 of 2
    done)"."""
    enc = to_phase(fight(fighter("Bolt", HEAVY, side="party"), fighter("Bor", x=30)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="heavy_crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, weapon="heavy_crossbow", ref="a1", rolls={"attack": 90})
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, _ = declare(enc, "c1", kind="reload", weapon="heavy_crossbow")
    said = []
    enc = to_phase(enc, "resolve")
    while enc.phase != "end":
        enc, ev = apply(enc, {"type": "advance"})
        said += ev
    assert "Bolt is reloading Heavy crossbow: 1 of 2 Melee Rounds done" in texts(said)
    assert "1/2 MR" not in texts(said)


KICK = {"name": "Kick", "skill": 40, "damage": "1D8", "sr": 3, "type": "crushing", "natural": True, "location": "right_leg"}


def test_a_parry_only_declared_with_a_natural_weapon_is_a_dodge_and_says_so():
    """Unarmed Parries: "Unarmed parries use the HP of the bodypart used (usually arm, sometimes leg) as the weapon
    HP" (a kick or a bite is no parry: rules edition .5); Attacks & Defenses: "The target can defend normally, either
    parrying or dodging". A GM's play: the Warhorse's declaration read "Parry / dodge only with Kick". A parry
    declared with a natural weapon is the dodge it will be: "Dodge only", the log saying why; a parry with a
    broadsword reads "Parry only, with Broadsword"."""
    from fray.games.strike_rank.web.declare import action_label

    enc = to_phase(fight(fighter("Warhorse", KICK, side="party"), fighter("Bor", x=2)), "declare")
    enc, ev = declare(enc, "c1", kind="defend", stance="parry", weapon="kick")
    rec = [a for a in enc.state["actions"] if a["combatant"] == "c1"][0]
    assert rec["stance"] == "dodge" and not rec.get("weapon")
    assert "Warhorse: defends: defence: a dodge, resolved on the attacker's SR (Kick is a natural weapon, which does " \
           "not parry)" in texts(ev)
    enc, _ = declare(enc, "c2", kind="defend", stance="parry", weapon="broadsword")
    view = RS.view(enc)
    names = {"c1": "Warhorse", "c2": "Bor"}
    horse, bor = view["combatants"]["c1"], view["combatants"]["c2"]
    assert action_label(horse["declared"][0], names, horse) == "Dodge only"
    assert action_label(bor["declared"][0], names, bor) == "Parry only, with Broadsword"
