"""Helpers for the tactical-round tests: build a fight, step to a phase, act with fixed dice."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

RS = get_ruleset("tactical-round")

SWORD = {"name": "Sword", "cmb": 50, "kind": "melee", "length": 2}
SWORD_SHIELD = {"name": "Sword", "cmb": 50, "kind": "melee", "length": 2, "shield": 15}
SPEAR = {"name": "Spear", "cmb": 40, "kind": "melee", "length": 3, "two_handed": True}
FIST = {"name": "Fist", "cmb": 30, "kind": "unarmed"}
BITE = {"name": "Bite", "cmb": 40, "kind": "natural", "length": 1}
BOW = {"name": "Bow", "cmb": 45, "kind": "missile", "base_range": 10, "reload": 1, "two_handed": True}
QUICK = {"name": "Light crossbow", "cmb": 45, "kind": "missile", "base_range": 10, "reload": 1, "quick_load": True}
HEAVY = {"name": "Heavy crossbow", "cmb": 55, "kind": "missile", "base_range": 20, "reload": 2}
KNIFE = {"name": "Knife", "cmb": 35, "kind": "thrown", "base_range": 5}
BOLT = {"name": "Fire Bolt", "cmb": 40, "kind": "spell", "base_range": 30}


def fighter(name: str, *weapons: dict, DEF: int = 20, HP: int = 40, Athletics: int = 0, side: str = "foes",
            x: float = 0, y: float = 0) -> dict[str, Any]:
    return {"name": name, "side": side, "stats": {"DEF": DEF, "HP": HP, "Athletics": Athletics},
            "weapons": [dict(w) for w in weapons], "position": {"x": x, "y": y}}


def fight(*combatants: dict[str, Any]):
    enc = new_encounter("tactical-round", "Test")
    for c in combatants:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    return enc


def do(enc, action: dict[str, Any], **rolls: Any):
    """Apply an action with the given dice; ``athletics_c2=[50]`` becomes roll ``athletics.c2``."""
    if rolls:
        action = {**action, "rolls": {k.replace("_c", ".c"): v for k, v in rolls.items()}}
    new, events = apply(enc, action)
    return new, events


def to_phase(enc, phase: str):
    """Advance until ``phase`` (at least one step if already there is not wanted: call twice)."""
    for _ in range(20):
        if enc.phase == phase:
            return enc
        enc, _ = apply(enc, {"type": "advance"})
    raise AssertionError(f"never reached {phase}")


def declare(enc, cid: str, *actions: dict[str, Any]):
    enc = to_phase(enc, "declaration") if enc.phase not in ("assessment", "declaration") else enc
    enc, _ = apply(enc, {"type": "tr.declare", "id": cid, "actions": list(actions)})
    return enc


def attack(enc, cid: str, target: str, roll: Any = 50, **fields: Any):
    """Attack with a fixed open-ended roll; return (encounter, the pending entry / event detail)."""
    enc, events = apply(enc, {"type": "tr.attack", "id": cid, "target": target, **fields,
                              "rolls": {"attack": roll}})
    ev = next(e for e in events if e["kind"] == "attack")
    return enc, ev


def condition(enc, cid: str, name: str, on: bool = True):
    enc, _ = apply(enc, {"type": "set_condition", "id": cid, "condition": name, "on": on})
    return enc


def parts(ev, key: str) -> dict[str, int]:
    return {p["label"]: p["value"] for p in ev["detail"][key]}


def snapshot(enc) -> dict[str, Any]:
    return asdict(enc)


def next_stops_at_a1(enc, asked: str, left: str, settle: dict[str, Any]) -> None:
    """The page's Next in Melee stops at A1 waiting for the GM (``asked``: the refusal, a regular expression);
    the GM's go-on leaves it, logged (``left``), and Next goes on; once ``settle`` (the GM's entry) is applied,
    Next has nothing to stop for; a Next of a history saved before (no ``ask``) leaves A1 waiting, as played."""
    import pytest

    from fray.errors import RuleViolation

    NEXT = {"type": "advance", "skip_empty": True, "ask": True}
    with pytest.raises(RuleViolation, match=asked):
        apply(enc, NEXT)
    after, ev = apply(enc, {**NEXT, "go_on": True})
    assert left in [e["text"] for e in ev]
    assert after.state["pending"] == [] and after.phase != "melee"
    settled, _ = apply(enc, settle)
    moved, _ = apply(settled, NEXT)
    assert moved.phase != "melee"
    bare, _ = apply(enc, {"type": "advance"})
    assert [p["ref"] for p in bare.state["pending"]] == ["A1"]
