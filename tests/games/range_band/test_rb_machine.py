"""The range-band reducer state machine (see tests/unit/test_machines.py): its actions, its starting fight
and the invariants checked after every applied action."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from fray.games import get_ruleset
from machine_actions import CORE_FIELDS, core_actions
from reducer_machine import JUNK, Spec, machine_for
import test_rb_property as rbp  # noqa: E402


# -- range-band: its own property test's actions, in the machine -------------------------------------

def _rb_slots(enc) -> list[str]:
    return [s.combatant_id for s in get_ruleset("range-band").order_of_play(enc)]


def _rb_out(c) -> list[str]:
    from fray.games.range_band.rules import OUT
    return [x for x in OUT if x in c.conditions]


def rb_fallen_offered_no_action(before, after, events, action) -> None:
    """Issue 32, "The fallen keep acting": a dead, incapacitated or paralyzed combatant has no slot in the order
    of play, so never the movement or the turn (the panel's forms go to that slot's combatant only)."""
    for cid in _rb_slots(after):
        c = after.get(cid)
        assert c is not None and not _rb_out(c), f"{cid} is {_rb_out(c)} and is offered a slot after {action.get('type')}"


def rb_no_declared_action_dropped(before, after, events, action) -> None:
    """Issue 32, "Next never loses an action": an open roll of a combatant still in the fight leaves only with an
    event naming it (resolved, dismissed, skipped at Next, ended early); and the slot stays with its combatant
    when anything but Next happens (a death or a removal elsewhere must not hand the turn to another)."""
    said = {e["detail"].get("ref") for e in events}
    now = {p["ref"] for p in after.state.get("pending", [])}
    for p in before.state.get("pending", []):
        c = after.get(p["combatant"])
        if p["ref"] in now or c is None or _rb_out(c):
            continue
        assert p["ref"] in said, f"open roll {p['ref']} of {c.name} vanished without an event ({action.get('type')})"
    if action.get("type") == "advance" or (before.phase, before.round) != (after.phase, after.round):
        return
    if before.phase not in ("movement", "actions"):
        return
    was, now_slots = _rb_slots(before), _rb_slots(after)
    cur = was[before.turn] if 0 <= before.turn < len(was) else None
    if cur is not None and cur in now_slots:
        assert now_slots[after.turn] == cur if 0 <= after.turn < len(now_slots) else False, (
            f"{action.get('type')} moved the slot from {cur} to another combatant")


RB = get_ruleset("range-band")
RB_IDS = st.sampled_from(["c1", "c2", "c3", "c4", "c5", "c6"])
# near the map's edges (reducer.MAX_COORD, MAX_ALT), where an offset or a cut-back climb can go off it
RB_EDGE_X = st.one_of(st.integers(-60, 60), st.sampled_from([99990, 99999, 100000, -100000, -99995]))
RB_EDGE_ALT = st.one_of(st.integers(0, 60), st.sampled_from([19990, 19995, 20000, 15, 35]))
RB_KEYS = st.one_of(st.sampled_from([{"a": 1}, ["success"], [], {}, 3, None, True, "", "rounds_per_minute"]), JUNK)


@st.composite
def rb_table_key(draw) -> dict:
    """A GM's table edit whose entry key is an object, a list, a number or missing (issue 32, item 8)."""
    tid = draw(st.sampled_from(["core_roll", "constants", "obscuring", "light_sources", "noise", "size_stealth"]))
    value = json.loads(json.dumps(RB.tables[tid]))
    entries = value["entries"]
    i = draw(st.integers(0, len(entries) - 1))
    entries[i]["key"] = draw(RB_KEYS)
    return {"type": "set_table", "table": tid, "value": value}


RB_MORE = st.one_of(
    # teleports that bring others along (issue 32: one brought along landed off the map)
    st.builds(lambda i, x, a, b, att, r, p, sz: {"type": "rb.teleport", "id": i, "x": x, "alt": a, "bring": b,
                                                 "attached": att, "range": r, "precision": p, "size": sz},
              RB_IDS, RB_EDGE_X, RB_EDGE_ALT, st.lists(RB_IDS, max_size=3, unique=True),
              st.lists(RB_IDS, max_size=2, unique=True), st.sampled_from(["engaged", "short", "medium", "long"]),
              st.sampled_from(["low", "medium", "high"]), st.sampled_from(["minor", "major"])),
    # the GM's drag of a token, flights and climbs, and their rolls settled: moves while a roll is pending
    st.builds(lambda i, x, a: {"type": "move", "id": i, "x": x, "alt": a}, RB_IDS, RB_EDGE_X, RB_EDGE_ALT),
    st.builds(lambda i, a, r: {"type": "rb.move", "id": i, "alt": a, "rush": r}, RB_IDS,
              st.one_of(st.integers(0, 60), st.sampled_from([19995, 20000, 20010])), st.booleans()),
    st.builds(lambda i: {"type": "rb.fly", "id": i, "on": True}, RB_IDS),
    st.builds(lambda i, a: {"type": "rb.descend", "id": i, "alt": a}, RB_IDS, st.integers(-20, 60)),
    st.builds(lambda r, s, b: {"type": "rb.resolve", "ref": r, "success": s, "by": b}, rbp.refs, st.booleans(),
              st.integers(0, 12)),
    # melee beyond engaged range, with and without the GM's reason; a sightless AoE
    st.builds(lambda a, t, w, o, aoe: {"type": "rb.attack", "id": a, "target": t, "weapon": w, "aoe": aoe,
                                       **({"override": o} if o is not None else {})},
              RB_IDS, RB_IDS, st.integers(0, 1), st.sampled_from([None, "charged", "", " ", "x" * 121]), st.booleans()),
    # malformed keys: table entries and area kinds that are objects or lists
    rb_table_key(),
    st.builds(lambda k, x: {"type": "rb.area", "kind": k, "x": x, "y": 0, "radius": "short"}, RB_KEYS,
              st.integers(-20, 20)),
)

def rb_invariants(before, after, events, action) -> None:
    """Range-band's own invariants after every applied action (``test_rb_property.check_invariants``): mount and
    rider stand in one place, point at each other and share a stealth level; flyers are in Low Stealth; refs are
    unique; the phase is one of the game's."""
    rbp.check_invariants(after)


RANGE_BAND = Spec(
    ruleset="range-band",
    start=rbp.start,
    actions=st.one_of(rbp.actions, core_actions("range-band"), RB_MORE),
    fields=CORE_FIELDS + ("target", "weapon", "kind", "tags", "warned_by", "ref", "success", "by", "mount", "fall", "on",
                          "deprived", "rush", "level", "start", "size", "what", "status", "rounds", "ends", "light",
                          "audible", "range", "precision", "activity", "involvement", "wave", "ally", "holding", "bring",
                          "attached", "radius", "override"),
    ids=("c1", "c2", "c3", "c4", "c5", "c6", "c9"),
    phases=("movement", "actions"),
    checks=(rb_fallen_offered_no_action, rb_no_declared_action_dropped, rb_invariants),
)


TestRangeBandMachine = machine_for(RANGE_BAND).TestCase
