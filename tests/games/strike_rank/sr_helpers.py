"""Helpers for the strike-rank tests: build a fight, step to a phase, act with typed dice.

The standard fighter has HP 13 (location HP: legs 5, abdomen 5, chest 6, arms 4, head 5),
DEX 11 (DEX SR 3), SIZ 13 (SIZ SR 2), STR 13 (STR+SIZ 26: +1D4), CON 12 and no armour unless given.
"""

from __future__ import annotations

from typing import Any

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

RS = get_ruleset("strike-rank")

SWORD = {"name": "Broadsword", "skill": 60, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing", "hand": "right"}
SHIELD = {"name": "Shield", "skill": 50, "damage": "1D4", "sr": 3, "hp": 12, "type": "crushing", "shield": True,
          "shield_size": "medium", "hand": "left"}
SPEAR = {"name": "Spear", "skill": 60, "damage": "1D8+1", "sr": 1, "hp": 10, "type": "impaling", "hafted": True,
         "spear": True, "hand": "both"}
MACE = {"name": "Mace", "skill": 60, "damage": "1D8+2", "sr": 2, "hp": 10, "type": "crushing", "hafted": True,
        "hand": "right"}
AXE = {"name": "Axe", "skill": 60, "damage": "1D8+2", "sr": 2, "hp": 10, "type": "slashing", "hafted": True,
       "hand": "left"}
RAPIER = {"name": "Rapier", "skill": 60, "damage": "1D6+1", "sr": 2, "hp": 10, "type": "impaling", "hand": "right"}
FIST = {"name": "Fist", "skill": 50, "damage": "1D3", "sr": 3, "type": "crushing", "unarmed": True, "hand": "right",
        "location": "right_arm"}
KARATE = {"name": "Martial arts", "skill": 50, "damage": "1D6", "sr": 3, "type": "crushing", "unarmed": True,
          "martial_arts": True, "hand": "right", "location": "right_arm"}
BOW = {"name": "Bow", "skill": 60, "damage": "1D8+1", "hp": 6, "type": "impaling", "missile": True, "rate": "S/MR",
       "range": 60, "hand": "both"}
XBOW = {"name": "Crossbow", "skill": 60, "damage": "2D4+2", "hp": 8, "type": "impaling", "missile": True,
        "rate": "1/2MR", "range": 80, "hand": "both", "dm": "none"}
JAVELIN = {"name": "Javelin", "skill": 110, "damage": "1D10", "hp": 8, "type": "impaling", "missile": True,
           "thrown": True, "range": 20, "hand": "right", "enc": 1}
BITE = {"name": "Bite", "skill": 50, "damage": "1D10", "sr": 1, "type": "impaling", "natural": True, "location": "head",
        "knockback": False}
LANCE = {"name": "Lance", "skill": 60, "damage": "1D10+1", "sr": 1, "hp": 10, "type": "impaling", "lance": True,
         "hand": "right"}
GRAPPLE = {"name": "Grapple", "skill": 60, "damage": "1D3", "sr": 3, "type": "crushing", "unarmed": True, "hand": "right"}
STATS = {"STR": 13, "CON": 12, "SIZ": 13, "INT": 12, "POW": 11, "DEX": 11, "CHA": 10, "move": 3, "hp": 13,
         "dodge": 40, "ride": 50, "first_aid": 50}


def fighter(name: str, *weapons: dict, side: str = "foes", x: float = 0, y: float = 0, armour: Any = 0,
            **stats: Any) -> dict[str, Any]:
    extra = {k: stats.pop(k) for k in ("body", "spells", "mount", "aquatic") if k in stats}
    return {"name": name, "side": side, "stats": {**STATS, **stats}, "position": {"x": x, "y": y},
            "weapons": [dict(w) for w in (weapons or (SWORD, SHIELD))], "armour": armour, **extra}


def fight(*combatants: dict[str, Any]):
    enc = new_encounter("strike-rank")
    for c in combatants:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    return enc


def knight_and_bor(bor_x: float = 27):
    """A Knight (c2) on his Horse (c1: Movement 8, running 16 m a strike rank), and Bor (c3) ``bor_x`` m off:
    the mounted charge's fight (Mounted Charge & Lance), in setup."""
    enc = fight(fighter("Horse", side="party", STR=25, SIZ=25, move=8, body="quadruped"))
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": fighter("Knight", LANCE, side="party", mount="c1")})
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": fighter("Bor", x=bor_x)})
    return enc


def knight_charges(enc):
    """The Knight declares his mounted charge on Bor."""
    enc = to_phase(enc, "declare")
    enc, _ = apply(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "lance", "target": "c3",
                         "mounted_charge": True})
    return enc


def attack_form(enc, cid: str) -> str:
    """The attack form the page draws for ``cid``'s action in the order of play."""
    from fray.games.strike_rank.web.attack import attack_html

    view = RS.view(enc)
    return str(attack_html(view, next(o for o in view["order"] if o["combatant"] == cid)))


def duel(a=None, b=None):
    return fight(a or fighter("Ana", side="party"), b or fighter("Bor"))


def do(enc, action: dict[str, Any], **rolls: Any):
    """Apply with the given typed dice (names with dots: pass a dict as ``rolls``)."""
    a = dict(action)
    if rolls:
        a["rolls"] = {**a.get("rolls", {}), **rolls}
    return apply(enc, a)


def to_phase(enc, phase: str):
    while enc.phase != phase:
        enc, _ = apply(enc, {"type": "advance"})
    return enc


def declare(enc, cid: str, **fields: Any):
    return apply(enc, {"type": "sr.declare", "id": cid, **fields})


def attack(enc, attacker="c1", target="c2", weapon="broadsword", defence="none", rolls=None, **fields: Any):
    d = defence if isinstance(defence, dict) else {"kind": defence}
    return apply(enc, {"type": "sr.attack", "attacker": attacker, "target": target, "weapon": weapon, "defence": d,
                       "rolls": rolls or {}, **fields})


def loc(enc, cid: str, lid: str) -> dict[str, Any]:
    return next(l for l in enc.get(cid).data["locations"] if l["id"] == lid)


def weapon(enc, cid: str, wid: str) -> dict[str, Any]:
    return next(w for w in enc.get(cid).data["weapons"] if w["id"] == wid)


def texts(events) -> str:
    return "\n".join(e["text"] for e in events)


def prompts(enc, kind: str | None = None) -> list[dict[str, Any]]:
    return [p for p in enc.state.get("prompts", []) if kind is None or p["kind"] == kind]


def actions(enc, cid: str) -> list[dict[str, Any]]:
    return [a for a in enc.state.get("actions", []) if a["combatant"] == cid]
