"""Engine workloads, run the same way in CPython and inside Pyodide in the page.

``WORKLOADS`` maps a name to a function ``(seed) -> ops`` that does a fixed amount of engine work
and returns how many operations it did; bench/run.py times each one in both interpreters and
reports ops/s and the ratio. Standard library and ``fray`` only, because the same file is copied
into the page's file system.

Hook: a later bench adds a workload with ``@workload("strike_rank_exchange")`` (one strike-rank
attack exchange, replayed from a scenario with its dice) and it is measured in both places with
no change to run.py.
"""

from __future__ import annotations

import random
import time
from typing import Callable

WORKLOADS: dict[str, Callable[[int], int]] = {}


def workload(name: str):
    def deco(fn: Callable[[int], int]) -> Callable[[int], int]:
        WORKLOADS[name] = fn
        return fn
    return deco


DICE = ["1D6+1", "2D6+2", "1D3", "1D10+10", "D100", "-1D4", "1D8+1+1D4"]


@workload("dice_1000")
def dice_rolls(seed: int = 1) -> int:
    """1000 rolls of the games' expressions, parsed each time, from a seeded random.Random."""
    from fray.dice import roll

    rng = random.Random(seed)
    for i in range(1000):
        roll(DICE[i % len(DICE)], rng)
    return 1000


def freeform_actions(seed: int = 1, n: int = 200) -> list[dict]:
    """``n`` free-form actions: 12 combatants join, then moves, conditions, stat edits, notes, turns."""
    rng = random.Random(seed)
    actions: list[dict] = []
    for i in range(12):
        actions.append({"type": "add_combatant", "combatant": {
            "name": f"Fighter {i + 1}", "side": ("party", "foes")[i % 2],
            "stats": {"initiative": rng.randint(1, 20), "HP": rng.randint(5, 30)},
            "position": {"x": rng.randint(0, 40), "y": rng.randint(0, 40), "alt": 0}}})
    conds_on: set[tuple[str, str]] = set()
    while len(actions) < n:
        cid = f"c{rng.randint(1, 12)}"
        k = len(actions) % 5
        if k == 0:
            actions.append({"type": "move", "id": cid, "x": rng.randint(0, 40), "y": rng.randint(0, 40)})
        elif k == 1:
            cond = rng.choice(["prone", "stunned"])
            on = (cid, cond) not in conds_on
            conds_on ^= {(cid, cond)}
            actions.append({"type": "set_condition", "id": cid, "condition": cond, "on": on})
        elif k == 2:
            actions.append({"type": "edit_combatant", "id": cid, "changes": {"stats": {"HP": rng.randint(0, 30)}}})
        elif k == 3:
            actions.append({"type": "note", "text": f"Round note {len(actions)}"})
        else:
            actions.append({"type": "advance"})
    return actions


@workload("reducer_200")
def reducer_actions(seed: int = 1) -> int:
    """200 free-form actions through History.do (the reducer plus the undo stack)."""
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("freeform", "Bench"))
    for a in freeform_actions(seed):
        h.do(a)
    return 200


_SR_BASE: list = []


@workload("strike_rank_exchange")
def strike_rank_exchange(seed: int = 1, n: int = 50) -> int:
    """``n`` strike-rank attack exchanges, each from the same declare-phase encounter (a Human
    warrior and a Great wolf): declare (SR and breakdown), advance to its SR, then one sr.attack
    with its dice typed in (attack and dodge d100 on the tables, location d20, damage with the
    damage modifier, armour, a serious wound that bleeds)."""
    from fray.history import History
    from fray.reducer import new_encounter
    from fray.games import get_ruleset

    if not _SR_BASE:
        presets = {p["name"]: p for p in get_ruleset("strike-rank").presets()}
        h = History(new_encounter("strike-rank", "Bench"))
        h.do({"type": "add_combatant", "combatant": {**presets["Human warrior"], "side": "party"}})
        h.do({"type": "add_combatant", "combatant": presets["Great wolf (four-legged)"]})
        h.do({"type": "advance"})
        _SR_BASE.append(h.present)
    for i in range(n):
        h = History(_SR_BASE[0])
        h.do({"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"})
        h.do({"type": "advance"})
        h.do({"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword", "ref": "a1",
              "defence": {"kind": "dodge"}, "rolls": {"attack": 20 + i % 10, "defence": 90, "location": 10,
                                                     "damage": [6, 3]}})
    return n


_RB_BASE: list = []


def range_band_base():
    """12 range-band combatants (the presets twice, spread over 120 m, a rider on a horse, a flyer aloft, two
    light carriers), in round 1's action phase."""
    from fray.reducer import apply, new_encounter
    from fray.games import get_ruleset

    if not _RB_BASE:
        presets = get_ruleset("range-band").presets()
        enc = new_encounter("range-band", "Bench")
        for i in range(12):
            p = dict(presets[i % len(presets)])
            p["name"] = f"{p['name']} {i + 1}"
            p["side"] = ("party", "foes")[i % 2]
            p["position"] = {"x": (i * 37) % 120, "y": (i * 53) % 90, "alt": 12.0 if p.get("flying") else 0.0}
            if i in (0, 7):
                p["light"] = "moderate"
                p.pop("stealth", None)
            enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
        enc, _ = apply(enc, {"type": "rb.mount", "id": "c2", "mount": "c3"})
        enc, _ = apply(enc, {"type": "rb.zone", "light": "low", "clutter": "medium"})
        enc, _ = apply(enc, {"type": "advance"})
        for _ in range(11):
            enc, _ = apply(enc, {"type": "advance"})
        _RB_BASE.append(enc)
    return _RB_BASE[0]


@workload("range_band_turn")
def range_band_turn(seed: int = 1, n: int = 20) -> int:
    """``n`` range-band turns, each from the same 12-combatant action phase: the rider's mounted crossbow shot
    (roll specification with its Hindrance reasons and the stealth-attack check), its resolution (the GM's
    outcome), and the visibility projection for all 12 combatants (132 observer-target pairs, light, chart,
    size, sound)."""
    from fray.reducer import apply
    from fray.games.range_band import rules
    from fray.games import get_ruleset

    rs = get_ruleset("range-band")
    base = range_band_base()
    t = rs.all_tables(base)
    for i in range(n):
        enc, _ = apply(base, {"type": "rb.attack", "id": "c2", "target": "c4", "weapon": 1})
        ref = enc.state["pending"][-1]["ref"]
        enc, _ = apply(enc, {"type": "rb.resolve", "ref": ref, "success": i % 2 == 0, "by": 2})
        rules.visibility(enc, t)
    return n


@workload("odds_strike_rank_exchange")
def odds_strike_rank_exchange(seed: int = 1, n: int = 20) -> int:
    """``n`` times the odds for one strike-rank exchange with all defender alternatives (a Human
    warrior's broadsword against another's parry with the shield, parry with the broadsword, dodge
    and no defence), as the page works them out beside the roll button. The caches of d100 degrees
    and damage dice are emptied each time, so each op is a cold one."""
    from fray.games import get_ruleset
    from fray.games.strike_rank import odds

    rs = get_ruleset("strike-rank")
    if not _SR_ODDS:
        from fray.reducer import apply, new_encounter

        presets = {p["name"]: p for p in rs.presets()}
        enc = new_encounter("strike-rank", "Bench")
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**presets["Human warrior"], "side": "party"}})
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": presets["Human warrior"]})
        _SR_ODDS.append(enc)
    enc = _SR_ODDS[0]
    action = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
              "defence": {"kind": "parry", "weapon": "medium_shield"}}
    for i in range(n):
        odds.d100_degrees.cache_clear()
        odds._dice.cache_clear()
        o = odds.exchange_odds(rs, enc, {**action, "bonus": i % 5})
        assert len(o.alternatives) >= 3 and not o.error
    return n


_SR_ODDS: list = []


def run_all(repeat: int = 5, seed: int = 1) -> dict[str, dict]:
    """Time every workload: best of ``repeat`` runs (after one warm-up), in ops per second."""
    out = {}
    for name, fn in WORKLOADS.items():
        fn(seed)
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            ops = fn(seed)
            best = min(best, time.perf_counter() - t)
        out[name] = {"ops": ops, "best_s": best, "ops_per_s": ops / best if best > 0 else None}
    return out


if __name__ == "__main__":
    import json
    print(json.dumps(run_all(), indent=1))
