"""Long fights for the resume benches and tests (issue 11): ``fight(ruleset, combatants, actions)``.

A fight is played, not faked: each ruleset's presets join, two sides face each other a metre or
two apart, and then every step the GM tries the moves a table makes (declare, attack, resolve,
Next, a move, a note) in a seeded random order and keeps the first one the rules accept, with
dice rolled by ``reducer.prepare`` and recorded in the action. So the actions are real recorded
actions, the states are what the rules build, and the same seed gives the same fight.
Standard library and ``fray`` only (the page bench copies this file into Pyodide).
"""

from __future__ import annotations

import random
from typing import Any, Callable

from fray.errors import FrayError
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset


def _enemies(enc, c) -> list:
    return [o for o in enc.combatants if o.side != c.side]


def _strike_rank(enc, rnd: random.Random, settle: float = 0.8) -> list[dict]:
    rs = get_ruleset("strike-rank")
    out: list[dict] = []
    if enc.phase == "declare":
        declared = {a["combatant"] for a in enc.state.get("actions", []) if a.get("round") == enc.round}
        for c in rnd.sample(enc.combatants, len(enc.combatants)):
            if c.id in declared:
                continue
            weapons = [w for w in c.data.get("weapons", []) if not w.get("shield")]
            foes = [o for o in _enemies(enc, c) if not {"dead", "unconscious"} & set(o.conditions)]
            if weapons and foes:
                out.append({"type": "sr.declare", "id": c.id, "kind": "missile" if weapons[0].get("missile") else "melee",
                            "weapon": weapons[0]["id"], "target": rnd.choice(foes).id})
            if len(out) >= 4:
                break
    elif enc.phase == "resolve":
        acts = {a["ref"]: a for a in enc.state.get("actions", [])}
        for slot in rs.order_of_play(enc)[:3]:
            a = acts.get(slot.action_ref)
            if a and a.get("weapon") and a.get("target"):
                out.append({"type": "sr.attack", "attacker": slot.combatant_id, "target": a["target"],
                            "weapon": a["weapon"], "ref": a["ref"],
                            "defence": {"kind": rnd.choice(["dodge", "none"])}})
    return out


def _tactical_round(enc, rnd: random.Random, settle: float = 0.8) -> list[dict]:
    out: list[dict] = []
    if enc.phase == "declaration":
        declared = enc.state.get("declared", {})
        for c in [c for c in enc.combatants if c.id not in declared][:2]:
            foes = _enemies(enc, c)
            if foes:
                out.append({"type": "tr.declare", "id": c.id,
                            "actions": [{"action": "melee_attack", "weapon": 0, "target": rnd.choice(foes).id}]})
    elif enc.phase == "melee":
        # the GM reads the attack table (hits, now and then a critical), then the critical table
        for p in enc.state.get("pending", [])[:1]:
            if p.get("stage") == "attack":
                out.append({"type": "tr.apply_result", "ref": p["ref"], "hits": rnd.randint(0, 12),
                            "critical": "A" if rnd.random() < 0.15 else None})
            elif p.get("stage") == "critical":
                out.append({"type": "tr.apply_critical", "ref": p["ref"], "hits": rnd.randint(0, 6),
                            "stunned_rounds": rnd.choice([0, 0, 1]), "prone": rnd.random() < 0.2})
        if out and rnd.random() < settle:
            return out  # mostly at once (``settle``); now and then a result is left for later
        for c in rnd.sample(enc.combatants, min(3, len(enc.combatants))):
            foes = _enemies(enc, c)
            if foes:
                out.append({"type": "tr.attack", "id": c.id, "target": rnd.choice(foes).id, "weapon": 0,
                            "line_of_sight": True})
    return out


def _range_band(enc, rnd: random.Random, settle: float = 0.8) -> list[dict]:
    out: list[dict] = []
    for p in (enc.state.get("pending") or [])[:1]:
        out.append({"type": "rb.resolve", "ref": p["ref"], "success": rnd.random() < 0.5, "by": rnd.randint(0, 3)})
    if enc.phase == "actions":
        for c in rnd.sample(enc.combatants, min(3, len(enc.combatants))):
            foes = _enemies(enc, c)
            if foes and c.data.get("weapons"):
                out.append({"type": "rb.attack", "id": c.id, "target": rnd.choice(foes).id,
                            "weapon": rnd.randrange(len(c.data["weapons"]))})
    return out


# (encounter, dice, settle) -> the moves to try; ``settle``: how often a GM settles a result the
# rules wait for (tactical-round's attack and critical tables) before anything else
MOVES: dict[str, Callable[[Any, random.Random, float], list[dict]]] = {
    "strike-rank": _strike_rank, "tactical-round": _tactical_round, "range-band": _range_band,
    "freeform": lambda enc, rnd, settle: [],
}


def fight(ruleset: str, combatants: int, actions: int, seed: int = 1, settle: float = 0.8,
          hp: int | None = None) -> History:
    """``combatants`` from the presets (two sides, 1.5 m apart), then more actions up to ``actions``.
    ``settle``: the chance a result the rules wait for is settled first (0: they pile up).
    ``hp``: every combatant's total hit points instead of its preset's (strike-rank's ``hp``
    stat): a fight whose combatants do not fall keeps the same work in every round."""
    rnd = random.Random(seed)
    rs = get_ruleset(ruleset)
    presets = [p for p in rs.presets() if not p.get("mount")] if ruleset != "freeform" else \
        [{"name": "Fighter", "stats": {"initiative": 10}}]
    h = History(new_encounter(ruleset, f"{ruleset} {combatants}x{actions}"))
    for i in range(combatants):
        p = dict(presets[i % len(presets)])
        p.pop("mount", None)
        p["name"] = f"{p['name'][:40]} {i + 1}"
        p["side"] = ("party", "foes")[i % 2]
        p["position"] = {"x": (i // 2) * 2.0, "y": (i % 2) * 1.5, "alt": 0.0}
        if ruleset == "strike-rank" and next((w.get("missile") for w in p.get("weapons", [])
                                              if not w.get("shield")), False):
            # an archer stands back from the line: "Unengaged characters can use missile weapons"
            p["position"]["y"] += 10.0 if i % 2 else -10.0
        if hp is not None:
            p["stats"] = {**p.get("stats", {}), "hp": hp}
        h.do({"type": "add_combatant", "combatant": p}, rnd)
    while len(h.actions) < actions:
        tries = MOVES[ruleset](h.present, rnd, settle)
        rnd.shuffle(tries)
        c = rnd.choice(h.present.combatants)
        aside = [{"type": "move", "id": c.id, "x": c.position.x + rnd.choice([-1, 1]), "y": c.position.y},
                 {"type": "note", "text": f"Note {len(h.actions)}"}]
        # mostly the fight itself, now and then a step aside; Next when nothing else is left
        order = (aside[:1] if rnd.random() < 0.1 else []) + tries + [{"type": "advance"}] + aside
        for a in order:
            try:
                h.do(a, rnd)
                break
            except FrayError:
                continue
    return h


def played_until(ruleset: str, combatants: int, actions: int, seed: int, done: Callable[[Any], bool],
                 settle: float = 0.8) -> History:
    """The fight ``fight(...)`` plays, replayed only up to the first state ``done`` accepts (or whole)."""
    whole = fight(ruleset, combatants, actions, seed, settle)
    h = History(whole.initial)
    for a in whole.actions:
        h.do(a)
        if done(h.present):
            break
    return h
