"""Property tests (issue 2, "Tests": random action sequences round-trip through JSON and undo back
to the start; STYLE habit 11).

For any sequence of core actions on the free-form ruleset, valid or not:
* ``apply`` never edits the encounter it is given, whether it succeeds or raises;
* a failing action raises only InvalidAction or RuleViolation;
* the saved history round-trips: ``loads(dumps(h))`` has the same present and the same actions;
* undoing everything returns exactly the initial encounter;
* log sequence numbers strictly increase.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fray.errors import InvalidAction, RuleViolation
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.savefile import dumps, loads

ids = st.sampled_from(["c1", "c2", "c3", "c4", "c9", "", 7])
names = st.one_of(st.sampled_from(["Orc", "<b>Elf</b>", "  Big  Troll ", "", "A\x00B", "x" * 61, "Ünïcødé ✓"]),
                  st.text(max_size=12))
sides = st.sampled_from(["party", "foes", "neutral", "villains"])
stat_values = st.one_of(st.integers(-50, 50), st.floats(allow_nan=True, allow_infinity=True),
                        st.sampled_from(["12", " 7 ", "1.5", "axe", "nan", "inf", "-Infinity", "1e999", ""]),
                        st.booleans(), st.none())
stat_keys = st.one_of(st.sampled_from(["initiative", "hp", "AC", "1bad", "hp\n", "x" * 30]), st.text(max_size=6))
stats = st.dictionaries(stat_keys, stat_values, max_size=3)
coords = st.one_of(st.integers(-200, 200), st.floats(-1e3, 1e3, allow_nan=False), st.sampled_from([float("nan"), 1e9, "3", "far"]))
positions = st.fixed_dictionaries({}, optional={"x": coords, "y": coords, "alt": coords})

good_add = st.builds(lambda n, s, st_: {"type": "add_combatant", "combatant": {"name": n, "side": s, "stats": st_}},
                    st.sampled_from(["Orc", "Elf", "<i>Imp</i>"]), st.sampled_from(["party", "foes"]),
                    st.dictionaries(st.sampled_from(["initiative", "hp", "luck"]), stat_values, max_size=2))
actions = st.one_of(
    good_add,
    good_add,  # weighted: most interesting sequences need a few combatants
    st.builds(lambda n, s, st_, pos: {"type": "add_combatant",
                                      "combatant": {"name": n, "side": s, "stats": st_, **({"position": pos} if pos else {})}},
              names, sides, stats, st.one_of(st.none(), positions)),
    st.builds(lambda i, ch: {"type": "edit_combatant", "id": i, "changes": ch}, ids,
              st.fixed_dictionaries({}, optional={"name": names, "side": sides, "notes": st.text(max_size=8),
                                                  "stats": stats})),
    st.builds(lambda i: {"type": "remove_combatant", "id": i}, ids),
    st.builds(lambda i, p: {"type": "move", "id": i, **p}, ids, positions),
    st.builds(lambda i, c, on: {"type": "set_condition", "id": i, "condition": c, "on": on}, ids,
              st.sampled_from(["prone", "Stunned", "down", "", "x" * 41]), st.sampled_from([True, False, "yes"])),
    # with a duration (fray.timers): plausible ones and the kinds of slip a form or a file can make
    st.builds(lambda i, c, lasts: {"type": "set_condition", "id": i, "condition": c, "lasts": lasts}, ids,
              st.sampled_from(["prone", "stunned", "dazed"]),
              st.one_of(st.builds(lambda n: {"rounds": n}, st.sampled_from([1, 2, 3, 0, -1, 1.5, "2", 10**6])),
                        st.builds(lambda u, o: {"until": u, "of": o}, st.sampled_from(["turn_start", "turn_end", "x"]),
                                  ids),
                        st.sampled_from([None, "2 rounds", {"rounds": 1, "of": "c1"}, {}]))),
    st.builds(lambda t: {"type": "note", "text": t}, st.one_of(st.text(max_size=20), st.none())),
    st.builds(lambda n: {"type": "rename_encounter", "name": n}, names),
    st.builds(lambda o: {"type": "reorder", "order": o}, st.lists(ids, max_size=4)),
    st.builds(lambda t, v: {"type": "set_table", "table": t, "value": v}, st.sampled_from(["hits", 3]),
              st.sampled_from([None, {"entries": []}])),
    st.just({"type": "advance"}),
    st.sampled_from([{"type": "fly"}, {}, {"type": "advance", "rolls": 5}]),
)

def _not_json(name):
    raise AssertionError(f"the save file holds {name}, which is not JSON")


SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])




@SETTINGS
@given(st.lists(actions, max_size=25))
def test_apply_never_mutates_its_input_and_fails_only_by_cause(seq):
    """Whatever the action, apply leaves its input as it was and raises only the two causes."""
    enc = new_encounter("freeform")
    for a in seq:
        a = json.loads(json.dumps(a))
        before = asdict(enc)
        try:
            new, events = apply(enc, a)
        except (InvalidAction, RuleViolation):
            assert asdict(enc) == before
            continue
        assert asdict(enc) == before
        assert new is not enc
        assert len(new.log) == len(enc.log) + len(events)
        enc = new


@SETTINGS
@given(st.lists(actions, max_size=25), st.data())
def test_history_round_trips_through_json_and_undoes_to_the_start(seq, data):
    """loads(dumps(h)) has the same present and actions; undoing everything gives the initial
    encounter exactly; log sequence numbers strictly increase."""
    h = History(new_encounter("freeform"))
    initial = asdict(h.present)
    for a in seq:
        try:
            h.do(json.loads(json.dumps(a)))
        except (InvalidAction, RuleViolation):
            pass
    undo_some = data.draw(st.integers(0, len(h.actions)), label="undo before saving")
    for _ in range(undo_some):
        h.undo()

    text = dumps(h)
    json.loads(text, parse_constant=_not_json)  # the browser's JSON.parse refuses NaN and Infinity
    back = loads(text)
    assert asdict(back.present) == asdict(h.present)
    assert back.actions == h.actions
    assert back.cursor == h.cursor

    seqs = [e.seq for e in back.present.log]
    assert all(a < b for a, b in zip(seqs, seqs[1:]))

    while back.undo():
        pass
    assert asdict(back.present) == initial
    while h.redo():
        pass
    seqs = [e.seq for e in h.present.log]
    assert seqs == list(range(1, len(seqs) + 1))
