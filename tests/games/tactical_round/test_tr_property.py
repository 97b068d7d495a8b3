"""Property test (STYLE 11): any sequence of tactical-round actions, valid or not, never edits the
encounter it is given, fails only with the engine's own errors, replays to the same state from
the recorded dice, and keeps the invariants below."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fray.errors import FrayError
from fray.reducer import apply, prepare
from tr_helpers import RS, fight

IDS = ["c1", "c2", "c3", "c4", "c9"]
PHASES = {"setup", "assessment", "declaration", "move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b", "other"}
DECLARABLE = ["move", "run_away", "spell_prepared", "ranged_attack", "melee_attack", "spell_unprepared", "reload",
              "ready_thrown", "disengage", "other"]


def start():
    return fight(*RS.presets()[:4], RS.presets()[4])


ids = st.sampled_from(IDS)
weapon = st.one_of(st.none(), st.integers(-1, 3))
declared = st.fixed_dictionaries({"action": st.sampled_from(DECLARABLE), "weapon": weapon,
                                  "target": st.one_of(st.none(), ids)})
# ``goto`` is not an action: the test advances to that phase, so attacks meet their phase often
goto = st.builds(lambda p: {"goto": p}, st.sampled_from(["declaration", "move", "spell_a", "ranged_a", "melee",
                                                         "ranged_b", "other"]))
pairs = st.permutations(["c1", "c2", "c3", "c4", "c5"]).map(lambda p: p[:2])
attacks = st.builds(lambda g, ab, w, f, r, d: {"goto": g, "then": {
                        "type": "tr.attack", "id": ab[0], "target": ab[1], "weapon": w, "flanking": f, "on_rear": r,
                        "distance": d, "line_of_sight": True}},
                    st.sampled_from(["melee", "melee", "ranged_a", "ranged_b", "spell_a", "move"]), pairs, st.one_of(st.none(), st.none(), weapon), st.booleans(), st.booleans(),
                    st.one_of(st.none(), st.integers(0, 200)))
# a hit and its result: "LAST" stands for the newest pending attack, whatever its number
results = st.builds(lambda ab, h, c, ch, stun, prone: {"goto": "melee", "then": [
    {"type": "tr.attack", "id": ab[0], "target": ab[1]},
    {"type": "tr.apply_result", "ref": "LAST", "hits": h, "critical": c},
    {"type": "tr.apply_critical", "ref": "LAST", "hits": ch, "stunned_rounds": stun, "prone": prone}]},
    pairs, st.integers(0, 60), st.sampled_from([None, "A", "E"]), st.integers(0, 40), st.integers(0, 2), st.booleans())
actions = st.one_of(
    goto, goto, goto, attacks, attacks, attacks, results, results,
    st.just({"type": "advance"}),
    st.builds(lambda i, ds: {"goto": "declaration", "then": {"type": "tr.declare", "id": i, "actions": ds}},
              ids, st.lists(declared, max_size=2)),
    st.builds(lambda i: {"goto": "move", "then": {"type": "tr.run_away", "id": i}}, ids),
    st.builds(lambda i, a, t: {"type": "tr.parry", "id": i, "amount": a, "against": t}, ids, st.integers(-5, 80),
              st.one_of(ids, st.lists(ids, max_size=3))),
    st.builds(lambda i, k, t: {"type": "tr.cover", "id": i, "cover": k, "against": t}, ids,
              st.sampled_from(["none", "partial", "full", "huge"]), st.sampled_from(IDS + ["all"])),
    st.builds(lambda n, h, c: {"type": "tr.apply_result", "ref": f"A{n}", "hits": h, "critical": c},
              st.integers(1, 3), st.integers(0, 60), st.sampled_from([None, "A", "C", "E", "Z"])),
    st.builds(lambda n, h, s, p: {"type": "tr.apply_critical", "ref": f"A{n}", "hits": h, "stunned_rounds": s,
                                  "prone": p}, st.integers(1, 6), st.integers(0, 30), st.integers(0, 3), st.booleans()),
    st.builds(lambda i, h: {"type": "tr.adjust_hp", "id": i, "hits": h}, ids, st.integers(-30, 60)),
    st.builds(lambda i, w: {"goto": "other", "then": {"type": "tr.reload", "id": i, "weapon": w}}, ids, weapon),
    st.builds(lambda i: {"type": "tr.run_away", "id": i}, ids),
    st.builds(lambda i, x: {"type": "tr.move", "id": i, "x": x, "y": 0}, ids, st.integers(-20, 20)),
    st.builds(lambda i, w: {"type": "tr.wield", "id": i, "weapon": w}, ids, weapon),
    st.builds(lambda i, to, x: {"type": "tr.dive_for_cover", "id": i, "aware": True, "to": to, "cover": "partial",
                                "x": x}, ids, st.sampled_from(["prone", "cover"]), st.floats(-3, 3)),
    st.builds(lambda i, c, on: {"type": "set_condition", "id": i, "condition": c, "on": on}, ids,
              st.sampled_from(["stunned", "held", "surprised", "prone"]), st.booleans()),
    st.builds(lambda i: {"type": "tr.resolve", "id": i}, ids),
    st.builds(lambda n: {"type": "tr.dismiss", "ref": f"A{n}"}, st.integers(1, 4)),
)


def check_invariants(enc) -> None:
    tables = RS.all_tables(enc)
    from fray.games.tactical_round import rules
    from fray.games.tactical_round.combatant import hp_current, hp_max

    assert enc.phase in PHASES
    for c in enc.combatants:
        for other in c.data["engaged_with"]:
            assert other != c.id
            o = enc.get(other)
            assert o is None or c.id in o.data["engaged_with"], "engagement is mutual"
        managed = set(rules.hp_managed(tables))
        assert sorted(set(c.conditions) & managed) == sorted(rules.hp_conditions(hp_current(c), hp_max(c), tables))
        assert c.data["hits_taken"] >= 0
        p = c.data["parry"]
        if p is not None:
            assert p["amount"] > 0 and p["against"] and c.id not in p["against"]
        for w in c.data["weapons"]:
            assert isinstance(w["loaded"], bool) and 0 <= w["reload_progress"] <= max(w["reload"], 1)
        assert 0 <= c.data["wielding"] < max(len(c.data["weapons"]), 1)
    refs = [p["ref"] for p in enc.state.get("pending", [])]
    assert len(refs) == len(set(refs))
    for cid, ds in enc.state.get("declared", {}).items():
        assert enc.get(cid) is not None and all(d["phase"] in PHASES for d in ds)
    v = RS.view(enc)
    json.dumps(v)
    if enc.phase == "melee":
        keys = [s.key for s in RS.order_of_play(enc)]
        assert keys == sorted(keys)


def one_step(enc, action, rng):
    before = asdict(enc)
    try:
        recorded, new, _ = prepare(enc, action, rng)
    except FrayError:
        assert asdict(enc) == before, f"a failed {action['type']} edited its input"
        return enc
    assert asdict(enc) == before, f"{action['type']} edited its input"
    replayed, _ = apply(enc, recorded)
    assert asdict(replayed) == asdict(new), "the recorded action replays to the same state"
    check_invariants(new)
    return new


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, min_size=5, max_size=50), st.integers(0, 2**32 - 1))
def test_random_actions_keep_invariants(seq, seed):
    rng = random.Random(seed)
    enc = start()
    for action in seq:
        if "goto" in action:
            for _ in range(9):
                if enc.phase == action["goto"]:
                    break
                enc, _ = apply(enc, {"type": "advance"})
                check_invariants(enc)
            steps = action.get("then", [])
        else:
            steps = action
        for step in steps if isinstance(steps, list) else [steps]:
            if step.get("ref") == "LAST":
                pend = enc.state.get("pending") or [{"ref": "A0"}]
                step = {**step, "ref": pend[-1]["ref"]}
            enc = one_step(enc, step, rng)
