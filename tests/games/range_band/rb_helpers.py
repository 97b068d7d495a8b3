"""Helpers for the range-band tests: build a fight, step the round, settle rolls."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

RS = get_ruleset("range-band")
PRESETS = {p["name"]: p for p in RS.presets()}


def person(name: str = "Ana", side: str = "party", x: float = 0, y: float = 0, alt: float = 0, **traits: Any) -> dict:
    stats = {"DEX": 12, "CON": 10, "INT": 10, "SPD": 10, "WGT": 8}
    stats.update(traits.pop("stats", {}))
    return {"name": name, "side": side, "stats": stats, "position": {"x": x, "y": y, "alt": alt}, **traits}


def preset(key: str, x: float = 0, y: float = 0, alt: float = 0, **over: Any) -> dict:
    p = dict(PRESETS[key])
    return {**p, "position": {"x": x, "y": y, "alt": alt}, **over}


def fight(*combatants: dict, zone: dict | None = None):
    enc = new_encounter("range-band", "Test")
    for c in combatants:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": c})
    if zone:
        enc, _ = apply(enc, {"type": "rb.zone", **zone})
    return enc


def do(enc, action: dict[str, Any], **fields: Any):
    return apply(enc, {**action, **fields})


def act(enc, type_: str, **fields: Any):
    enc, _ = apply(enc, {"type": "rb." + type_, **fields})
    return enc


def start(enc):
    """From setup to round 1's movement phase."""
    enc, _ = apply(enc, {"type": "advance"})
    return enc


def to_phase(enc, phase: str, who: str | None = None, limit: int = 60, rnd: int | None = None):
    """Advance until ``phase`` (and ``who``'s slot, and round ``rnd``, if given)."""
    for _ in range(limit):
        if enc.phase == phase and (who is None or current(enc) == who) and (rnd is None or enc.round == rnd):
            return enc
        enc, _ = apply(enc, {"type": "advance"})
    raise AssertionError(f"never reached {phase} {who}")


def current(enc) -> str | None:
    return RS.view(enc)["current"]


def pending(enc, kind: str | None = None) -> list[dict]:
    return [p for p in enc.state.get("pending", []) if kind is None or p["kind"] == kind]


def last_pending(enc, kind: str | None = None) -> dict:
    ps = pending(enc, kind)
    assert ps, f"no pending {kind}"
    return ps[-1]


def resolve(enc, kind: str | None = None, success: bool = True, by: int = 0, **extra: Any):
    p = last_pending(enc, kind)
    enc, events = apply(enc, {"type": "rb.resolve", "ref": p["ref"], "success": success, "by": by, **extra})
    return enc


def hind(spec: dict) -> dict[str, int]:
    return {p["reason"]: p["count"] for p in spec["hindrance"]["parts"]}


def cv(enc, cid: str) -> dict:
    return next(c for c in RS.view(enc)["combatants"] if c["id"] == cid)


def snapshot(enc) -> dict[str, Any]:
    return asdict(enc)


def rider_and_horse(x: float = 0, **rider: Any):
    """A Rider on its Horse, and a Foe 30 m off."""
    enc = fight(preset("Rider", x=x, **rider), preset("Horse", x=x), person("Foe", side="foes", x=x + 30))
    return act(enc, "mount", id="c1", mount="c2")
