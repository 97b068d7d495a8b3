"""Property test (STYLE 11): any sequence of range-band actions, valid or not, never edits the encounter
it is given, fails only with the engine's own errors (never KeyError/TypeError), replays to the same state
from the recorded dice, and keeps the invariants below."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fray.errors import FrayError
from fray.reducer import apply, prepare
from rb_helpers import RS, fight, preset

GOOD = st.sampled_from(["c1", "c2", "c3", "c4", "c5", "c6"])
ids = st.one_of(GOOD, GOOD, GOOD, GOOD, st.sampled_from(["c9", "", 3, None]))
junk = st.sampled_from([None, -3, 0, 7, 1.5, "x", "heavy", True, [], {}, "high", "medium", "low", "short", "R1"])
num = st.one_of(st.integers(-20, 300), st.sampled_from([0.5, "12", "far", None, float("nan")]))
bands = st.sampled_from(["engaged", "short", "medium", "long", "travel", "none", "huge"])


def start():
    return fight(preset("Human scout"), preset("Rider", x=3), preset("Horse", x=3), preset("Winged flyer", x=10),
                 preset("Amphibious swimmer", x=20), preset("Large creature", x=40))


refs = st.builds(lambda n: f"R{n}", st.integers(1, 8))
actions = st.one_of(
    st.just({"type": "advance"}), st.just({"type": "advance"}), st.just({"type": "advance"}),
    st.builds(lambda i, v: {"type": "rb.turn_order", "id": i, "value": v}, ids, num),
    st.builds(lambda k, v: {"type": "rb.zone", k: v}, st.sampled_from(["light", "clutter", "underwater", "air",
                                                                      "narrow", "flight_ceiling", "enclosed", "bogus"]),
              st.one_of(junk, st.booleans(), bands)),
    st.builds(lambda i, m: {"type": "rb.mount", "id": i, "mount": m}, ids, ids),
    st.builds(lambda i, f: {"type": "rb.dismount", "id": i, "fall": f}, ids, st.one_of(st.booleans(), junk)),
    st.builds(lambda i, on, d: {"type": "rb.fly", "id": i, "on": on, "deprived": d}, ids, st.booleans(),
              st.sampled_from([False, False, True])),
    st.builds(lambda i, x, a, r, h: {"type": "rb.move", "id": i, "x": x, "alt": a, "rush": r, "drop_high_stealth": h},
              ids, st.one_of(st.integers(-20, 300), num), st.one_of(st.just(0), st.just(0), st.integers(-20, 80), junk),
              st.booleans(), st.booleans()),
    st.builds(lambda i, x, r: {"type": "rb.move", "id": i, "x": x, "rush": r}, GOOD, st.integers(-50, 50),
              st.booleans()),
    st.builds(lambda i, a: {"type": "rb.descend", "id": i, "alt": a}, ids, num),
    st.builds(lambda i, lv, s: {"type": "rb.stealth", "id": i, "level": lv, "start": s}, ids,
              st.sampled_from(["low", "medium", "high", "ultra"]), st.booleans()),
    st.builds(lambda i: {"type": "rb.maintain_stealth", "id": i}, ids),
    st.builds(lambda i, s, d, v, tg, u, f: {"type": "rb.act", "id": i, "size": s, "what": "x", "dex_roll": d,
                                            "verbal": v, "target": tg, "unwilling": u, "fatigue": f}, ids,
              st.sampled_from(["major", "minor", "free", "slowing", "process", "huge"]), st.booleans(), st.booleans(),
              st.one_of(st.none(), ids), st.booleans(), st.one_of(st.just(0), st.integers(-1, 3), junk)),
    st.builds(lambda a, t, w, k, tags, wb: {"type": "rb.attack", "id": a, "target": t, "weapon": w, "kind": k,
                                            "tags": tags, "warned_by": wb}, ids, ids,
              st.one_of(st.none(), st.integers(-1, 3), junk), st.sampled_from(["melee", "ranged", "thrown", "spell"]),
              st.one_of(st.lists(st.sampled_from(["reach", "precise", "blast", "bad"]), max_size=2), junk),
              st.one_of(st.none(), ids)),
    st.builds(lambda a, t: {"type": "rb.grapple", "id": a, "target": t}, ids, ids),
    st.builds(lambda a, t: {"type": "rb.release", "id": a, "target": t}, ids, ids),
    st.builds(lambda a, t: {"type": "rb.touch", "id": a, "ally": t}, ids, ids),
    st.builds(lambda i, s: {"type": "rb.knockdown", "id": i, "stop_flying": s}, ids, st.booleans()),
    st.builds(lambda i, s, on, r, e: {"type": "rb.status", "id": i, "status": s, "on": on, "rounds": r, "ends": e},
              ids, st.sampled_from(["knocked-down", "minor-stunned", "blinded", "deafened", "incapacitated", "bad"]),
              st.booleans(), st.one_of(st.none(), st.integers(-1, 3)), st.sampled_from(["before_turn", "after_turn", 5])),
    st.builds(lambda i, t, on: {"type": "rb.cannot_see", "id": i, "target": t, "on": on}, ids, ids, st.booleans()),
    st.builds(lambda i, lt: {"type": "rb.light", "id": i, "light": lt}, ids,
              st.sampled_from(["none", "dim", "moderate", "bright", "extreme", "laser"])),
    st.builds(lambda i: {"type": "rb.detect", "id": i}, ids),
    st.builds(lambda i, b, d: {"type": "rb.noise", "id": i, "audible": b, "deafen": d}, ids, bands, st.booleans()),
    st.builds(lambda i: {"type": "rb.ambush", "id": i}, ids),
    st.builds(lambda i, h, idle: {"type": "rb.breath", "id": i, "holding": h, "idle": idle}, ids, st.booleans(),
              st.booleans()),
    st.builds(lambda i: {"type": "rb.catch_breath", "id": i}, ids),
    st.builds(lambda i, t: {"type": "rb.restart_breathing", "id": i, "target": t}, ids, ids),
    st.builds(lambda i, x, a, r, p: {"type": "rb.teleport", "id": i, "x": x, "alt": a, "range": r, "precision": p},
              ids, num, st.one_of(st.integers(0, 60), junk), bands, st.sampled_from(["low", "medium", "high", "x"])),
    st.builds(lambda r, s, b: {"type": "rb.resolve", "ref": r, "success": s, "by": b}, refs,
              st.one_of(st.booleans(), junk), st.one_of(st.integers(-2, 15), junk)),
    st.builds(lambda r, s, b: {"type": "rb.resolve", "ref": r, "success": s, "by": b}, refs, st.booleans(),
              st.integers(0, 12)),
    st.builds(lambda r: {"type": "rb.resolve", "ref": r}, refs),
    st.builds(lambda r, f: {"type": "rb.resolve", "ref": r, "rolls": {"roll": f}}, refs,
              st.one_of(st.lists(st.integers(-1, 25), max_size=4), junk)),
    st.builds(lambda r: {"type": "rb.dismiss", "ref": r}, refs),
    st.builds(lambda k, x, r: {"type": "rb.area", "kind": k, "x": x, "y": 0, "radius": r},
              st.sampled_from(["smoke", "dense_smoke", "obstacle", "shadow", "darkness", "gas"]),
              st.one_of(st.integers(-20, 60), num), bands),
    st.builds(lambda a: {"type": "rb.clear_area", "area": a}, st.sampled_from(["A1", "A2", "A9", 3, None])),
    st.builds(lambda a, v, w: {"type": "rb.end_battle", "activity": a, "involvement": v, "wave": w},
              st.one_of(st.dictionaries(st.sampled_from(["c1", "c2", "c9"]), st.sampled_from(["idle", "heavy", "x"]),
                                        max_size=2), junk),
              st.one_of(st.dictionaries(st.sampled_from(["c1", "c3"]), st.sampled_from(["witness", "x"]), max_size=1),
                        junk), st.booleans()),
    st.builds(lambda i, ch: {"type": "edit_combatant", "id": i, "changes": ch}, ids,
              st.fixed_dictionaries({}, optional={"riding": st.one_of(ids, junk), "stealth": junk, "flying": junk,
                                                  "stats": st.dictionaries(st.sampled_from(["WGT", "FSPD", "SPD"]), junk,
                                                                           max_size=2),
                                                  "vision": junk, "weapons": junk})),
    st.builds(lambda i: {"type": "remove_combatant", "id": i}, ids),
    st.builds(lambda i, x, a: {"type": "move", "id": i, "x": x, "alt": a}, ids, num, st.one_of(st.integers(0, 40), junk)),
)


def check_invariants(enc) -> None:
    ids_ = {c.id for c in enc.combatants}
    for c in enc.combatants:
        d = c.data
        assert d["stealth"] in ("low", "medium", "high")
        assert d.get("mount") in ids_ or d.get("mount") is None, "no mount that left the fight"
        assert d.get("rider") in ids_ or d.get("rider") is None
        assert set(d.get("grappling", [])) <= ids_
        if d.get("mount") in ids_:
            m = enc.get(d["mount"])
            assert (m.position.x, m.position.y, m.position.alt) == (c.position.x, c.position.y, c.position.alt)
            assert m.data.get("rider") == c.id, "mount and rider point at each other"
            assert m.data["stealth"] == d["stealth"], "mount and rider share a stealth level"
            assert d["stealth"] != "high"
        if d.get("rider") in ids_:
            assert enc.get(d["rider"]).data.get("mount") == c.id
        if d.get("flying") and not enc.state.get("zone", {}).get("underwater"):
            assert d["stealth"] == "low", "flying characters are always in Low Stealth"
    refs_ = [p["ref"] for p in enc.state.get("pending", []) + enc.state.get("prompts", [])]
    assert len(refs_) == len(set(refs_))
    assert enc.phase in ("setup", "movement", "actions", "ended")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(actions, max_size=25), st.integers(0, 10 ** 6))
def test_random_actions_keep_invariants(seq, seed):
    enc = start()
    rng = random.Random(seed)
    for a in seq:
        before = json.dumps(asdict(enc), sort_keys=True, default=str)
        frozen = json.dumps(a, sort_keys=True, default=str)
        try:
            recorded, new, _ = prepare(enc, a, rng)
        except FrayError:
            assert json.dumps(asdict(enc), sort_keys=True, default=str) == before
            continue
        assert json.dumps(a, sort_keys=True, default=str) == frozen, "the action is not edited"
        assert json.dumps(asdict(enc), sort_keys=True, default=str) == before, "apply never edits its input"
        again, _ = apply(enc, recorded)
        assert asdict(again) == asdict(new), "the recorded action replays to the same state"
        enc = new
        check_invariants(enc)
        json.dumps(RS.view(enc))
