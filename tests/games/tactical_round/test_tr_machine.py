"""The tactical-round reducer state machine (see tests/unit/test_machines.py): its actions, its starting fight
and the invariants checked after every applied action."""

from __future__ import annotations

from hypothesis import strategies as st

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from machine_actions import CORE_FIELDS, IDS, core_actions
from reducer_machine import Spec, machine_for


TR = get_ruleset("tactical-round")
TR_DECLARABLE = ["move", "run_away", "spell_prepared", "ranged_attack", "melee_attack", "spell_unprepared", "reload",
                 "ready_thrown", "disengage", "other"]
TR_WEAPON = st.one_of(st.none(), st.integers(-1, 3))
TR_REFS = st.sampled_from(["A1", "A2", "A3"])


_TR_STARTS = [0]


def tr_start():
    """Four presets in setup; every other sequence starts in Declaration with a melee attack declared
    by each of c1, c3, c4 and a reload by c2, so that the checks' cases (someone falls with an action
    still open, a Next leaves a phase with actions open) come up in a few steps."""
    enc = new_encounter("tactical-round", "Fuzz")
    for i, p in enumerate(TR.presets()[:4]):
        if i == 1:  # c2's crossbow empty, for its reload: a loaded one's is refused (Reloading)
            p = {**p, "weapons": [{**w, "loaded": False} for w in p["weapons"]]}
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    _TR_STARTS[0] += 1
    if _TR_STARTS[0] % 2:
        return enc
    enc, _ = apply(enc, {"type": "advance"})
    enc, _ = apply(enc, {"type": "advance"})
    for cid, target in (("c1", "c3"), ("c3", "c1"), ("c4", "c2")):
        enc, _ = apply(enc, {"type": "tr.declare", "id": cid,
                             "actions": [{"action": "melee_attack", "weapon": 0, "target": target}]})
    enc, _ = apply(enc, {"type": "tr.declare", "id": "c2", "actions": [{"action": "reload", "weapon": 0}]})
    return enc


TR_ACTIONS = st.one_of(
    st.just({"type": "advance"}), st.just({"type": "advance"}), st.just({"type": "advance"}),
    # declarations that hold (the random ones below are mostly refused), so that the fallen and the
    # open actions of the checks below happen: a melee attack (weapon 0 of c1, c3, c4), a reload
    st.builds(lambda i, t: {"type": "tr.declare", "id": i, "actions": [{"action": "melee_attack", "weapon": 0,
                                                                         "target": t}]},
              st.sampled_from(["c1", "c3", "c4"]), st.sampled_from(["c1", "c2", "c3", "c4"])),
    st.just({"type": "tr.declare", "id": "c2", "actions": [{"action": "reload", "weapon": 0}]}),
    st.builds(lambda i: {"type": "tr.adjust_hp", "id": i, "hits": 60}, IDS),
    # the page's Next (issue 32): it asks, and the GM skips one or goes on
    st.builds(lambda g: {"type": "advance", "skip_empty": True, "ask": True, "go_on": g}, st.booleans()),
    st.builds(lambda i, a: {"type": "tr.skip", "id": i, **({} if a is None else {"action": a})}, IDS,
              st.one_of(st.none(), st.integers(-1, 2))),
    st.builds(lambda i, x: {"type": "move", "id": i, "x": x, "y": 1}, IDS, st.integers(-20, 20)),
    st.builds(lambda i, k: {"type": "set_condition", "id": i, "condition": k, "on": True}, IDS,
              st.sampled_from(["dead", "unconscious"])),
    st.builds(lambda i, ds: {"type": "tr.declare", "id": i, "actions": ds}, IDS,
              st.lists(st.fixed_dictionaries({"action": st.sampled_from(TR_DECLARABLE), "weapon": TR_WEAPON,
                                              "target": st.one_of(st.none(), IDS)}), max_size=2)),
    st.builds(lambda a, t, w, f, d: {"type": "tr.attack", "id": a, "target": t, "weapon": w, "flanking": f,
                                     "distance": d, "line_of_sight": True},
              IDS, IDS, TR_WEAPON, st.booleans(), st.one_of(st.none(), st.integers(0, 200))),
    st.builds(lambda r, h, c: {"type": "tr.apply_result", "ref": r, "hits": h, "critical": c}, TR_REFS,
              st.integers(0, 60), st.sampled_from([None, "A", "C", "E"])),
    st.builds(lambda r, h, s, p: {"type": "tr.apply_critical", "ref": r, "hits": h, "stunned_rounds": s, "prone": p},
              TR_REFS, st.integers(0, 30), st.integers(0, 3), st.booleans()),
    st.builds(lambda i, a, t: {"type": "tr.parry", "id": i, "amount": a, "against": t}, IDS, st.integers(-5, 80),
              st.one_of(IDS, st.lists(IDS, max_size=3))),
    st.builds(lambda i, k, t: {"type": "tr.cover", "id": i, "cover": k, "against": t}, IDS,
              st.sampled_from(["none", "partial", "full"]), st.one_of(IDS, st.just("all"))),
    st.builds(lambda i, h: {"type": "tr.adjust_hp", "id": i, "hits": h}, IDS, st.integers(-30, 60)),
    st.builds(lambda i, w: {"type": "tr.reload", "id": i, "weapon": w}, IDS, TR_WEAPON),
    st.builds(lambda i: {"type": "tr.run_away", "id": i}, IDS),
    st.builds(lambda i, x: {"type": "tr.move", "id": i, "x": x, "y": 0}, IDS, st.integers(-20, 20)),
    st.builds(lambda i, w: {"type": "tr.wield", "id": i, "weapon": w}, IDS, TR_WEAPON),
    st.builds(lambda i, to: {"type": "tr.dive_for_cover", "id": i, "aware": True, "to": to, "cover": "partial"}, IDS,
              st.sampled_from(["prone", "cover"])),
    st.builds(lambda i: {"type": "tr.resolve", "id": i}, IDS),
    st.builds(lambda r: {"type": "tr.dismiss", "ref": r}, TR_REFS),
    core_actions("tactical-round"),
)


def tr_fallen_are_offered_nothing(before, after, events, action) -> None:
    """Issue 32: "Dead, incapacitated and unconscious combatants get no forms and are never a default
    target": no slot of the phase is a fallen combatant's, and no default target is fallen or an ally."""
    from fray.games.tactical_round import rules

    for s in TR.order_of_play(after):
        c = after.get(s.combatant_id)
        assert c is not None and not rules.fallen(c), f"{c.name if c else s.combatant_id} is offered {s.explanation!r}"
    for c in after.combatants:
        t = after.get(rules.default_target(after, c.id))
        assert t is None or (not rules.fallen(t) and t.side != c.side), f"{c.name}'s default target is {t.name}"


def tr_no_declared_action_dropped_silently(before, after, events, action) -> None:
    """Issue 32: "Next must never end a live combatant's declared action without either resolving it
    or the GM choosing to skip it ... and log the GM's choice": an open declaration of a living
    combatant that is no longer open after an action has an event naming that combatant."""
    from fray.games.tactical_round import rules

    for c in before.combatants:
        if rules.fallen(c) or after.get(c.id) is None:
            continue  # the fallen's lapse; a combatant removed (its own event)
        old = before.state.get("declared", {}).get(c.id, [])
        new = after.state.get("declared", {}).get(c.id)
        for i, d in enumerate(old):
            if d["done"]:
                continue
            if new is not None and i < len(new) and new[i]["action"] == d["action"] and not new[i]["done"]:
                continue
            named = [e for e in events if c.id in (e["detail"].get("id"), e["detail"].get("attacker"))
                     or c.id in (e["detail"].get("ids") or [])]
            assert named, (f"{action.get('type')} dropped {c.name}'s {d['action']} ({d['phase']}) without a word: "
                           f"{[e['text'] for e in events]}")
TACTICAL_ROUND = Spec(
    ruleset="tactical-round",
    start=tr_start,
    actions=TR_ACTIONS,
    phases=("declaration", "move", "spell_a", "ranged_a", "melee", "ranged_b", "spell_b", "other"),
    fields=CORE_FIELDS + ("target", "weapon", "actions", "ref", "hits", "critical", "stunned_rounds", "prone",
                          "amount", "against", "cover", "to", "aware", "distance", "line_of_sight", "flanking",
                          "on_rear", "attackers", "ids", "ask", "go_on", "action"),
    checks=(tr_fallen_are_offered_nothing, tr_no_declared_action_dropped_silently),
)


TestTacticalRoundMachine = machine_for(TACTICAL_ROUND).TestCase
