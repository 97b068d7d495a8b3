"""Property test: any sequence of strike-rank actions, with any dice, never edits the encounter it is
given and keeps the invariants (HP within bounds, every pending action of this MR at SR 1..12, a
known phase), and the recorded actions replay to the same encounter."""

from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fray.errors import FrayError
from fray.reducer import apply, prepare
from sr_helpers import BITE, BOW, GRAPPLE, SHIELD, SPEAR, SWORD, fight, fighter

IDS = ["c1", "c2", "c3"]
WEAPONS = {"c1": ["broadsword", "shield", "grapple"], "c2": ["bite"], "c3": ["bow", "spear"]}


def base():
    return fight(fighter("Ana", SWORD, SHIELD, GRAPPLE, side="party",
                         spells=[{"name": "Heal", "type": "battle", "intensity": 2},
                                 {"name": "Big", "type": "sorcery", "manipulation": 5}]),
                 fighter("Wolf", BITE, body="quadruped", x=4, hp=9),
                 fighter("Ivo", BOW, SPEAR, side="party", x=12, hp=8))


action = st.one_of(
    st.just({"type": "advance"}),
    st.builds(lambda c, t, w, n, run: {"type": "sr.declare", "id": c, "kind": "melee", "weapon": w, "target": t,
                                       "metres": n, "running": run},
              st.sampled_from(IDS), st.sampled_from(IDS), st.sampled_from(["broadsword", "bite", "spear", "shield"]),
              st.integers(0, 40), st.booleans()),
    st.builds(lambda c, s: {"type": "sr.declare", "id": c, "kind": "spell", "spell": s},
              st.sampled_from(IDS), st.sampled_from(["heal", "big"])),
    st.builds(lambda t, n: {"type": "sr.declare", "id": "c3", "kind": "missile", "weapon": "bow", "target": t,
                            "shots": n}, st.sampled_from(IDS), st.integers(1, 3)),
    st.builds(lambda a, t, d, mode, aim: {"type": "sr.attack", "attacker": a, "target": t,
                                          "weapon": WEAPONS[a][0], "defence": d, "mode": mode, "aim": aim},
              st.sampled_from(IDS), st.sampled_from(IDS),
              st.sampled_from([{"kind": "none"}, {"kind": "dodge"}, {"kind": "parry", "weapon": "shield"},
                               {"kind": "parry", "weapon": "spear"}, {"kind": "parry", "weapon": "bite"}]),
              st.sampled_from(["normal", "aimed", "stun", "push", "grapple", "disarm"]),
              st.sampled_from(["head", "chest", "right_arm", "forequarters"])),
    st.builds(lambda c, l, n: {"type": "sr.damage", "target": c, "location": l, "amount": n},
              st.sampled_from(IDS), st.sampled_from(["head", "chest", "left_leg", "hindquarters"]), st.integers(0, 30)),
    st.builds(lambda c, l, n: {"type": "sr.heal", "target": c, "location": l, "points": n, "kind": "rune"},
              st.sampled_from(IDS), st.sampled_from(["head", "chest", "left_leg"]), st.integers(0, 10)),
    st.builds(lambda h, c, l: {"type": "sr.first_aid", "healer": h, "target": c, "location": l},
              st.sampled_from(IDS), st.sampled_from(IDS), st.sampled_from(["chest", "left_leg", "head"])),
    st.builds(lambda c, how: {"type": "sr.disengage", "id": c, "how": how},
              st.sampled_from(IDS), st.sampled_from(["outnumbered", "retreat", "flee"])),
    st.builds(lambda i, ch: {"type": "sr.answer", "prompt": f"p{i}", "choice": ch}, st.integers(1, 6),
              st.sampled_from(["dismiss", "yes", "no", "pull", "let_go", "severed", "keep", "none", "woken"])),
)


def check_invariants(enc):
    assert enc.phase in ("setup", "declare", "resolve", "end")
    for c in enc.combatants:
        d = c.data
        assert d["hp"] <= d["hp_max"]
        for l in d["locations"]:
            assert l["hp"] <= l["hp_max"]
        if d["hp"] <= 0:
            assert "dead" in c.conditions or d.get("resuscitate_by") is None
    for a in enc.state.get("actions", []):
        if a["status"] == "declared" and a["kind"] != "defend":
            assert 1 <= a["sr"] <= 12, a
            assert a["round"] >= enc.round
    if enc.phase == "resolve":
        assert 1 <= enc.state["sr"] <= 12


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(action, min_size=1, max_size=25), st.integers(0, 2 ** 32 - 1))
def test_random_sequences_keep_invariants_and_never_mutate_input(actions, seed):
    """Action Declaration & Resolution: every action resolves from its own dice; bad input leaves the encounter
    exactly as it was."""
    rng = random.Random(seed)
    enc = base()
    start = copy.deepcopy(enc)
    recorded = []
    for a in actions:
        before = copy.deepcopy(enc.to_dict())
        try:
            rec, new, _ = prepare(enc, a, rng)
        except FrayError:
            assert enc.to_dict() == before
            continue
        assert enc.to_dict() == before, f"{a['type']} edited its input"
        check_invariants(new)
        recorded.append(rec)
        enc = new
    replay = start
    for rec in recorded:
        replay, _ = apply(replay, rec)
    assert replay.to_dict() == enc.to_dict()
