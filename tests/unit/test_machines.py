"""One reducer state machine per ruleset (issue 8, item 4: "make the reducer's contract a test: a
Hypothesis state machine per ruleset (free-form, strike-rank, tactical-round, and range-band when
it exists) that generates real action types with plausible and adversarial field values, and
asserts that `apply` raises nothing but the engine's own errors, never touches its input, and that
save → load and undo-to-start round-trip").

The machine is ``reducer_machine.machine_for``; each ruleset here is a ``Spec``. To add one, write
its ``Spec`` and one ``Test...`` line at the bottom (range-band took exactly that).
"""

from __future__ import annotations

import json
import os
import sys

from hypothesis import strategies as st

from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.games.strike_rank import timing
from reducer_machine import JUNK, Spec, machine_for

sys.path[:0] = [os.path.join(os.path.dirname(__file__), "..", "games", d) for d in ("strike_rank", "tactical_round", "range_band")]
import test_properties as core  # noqa: E402
import test_rb_property as rbp  # noqa: E402
import test_sr_property as srp  # noqa: E402

IDS = st.sampled_from(["c1", "c2", "c3", "c4", "c9"])
CORE_FIELDS = ("id", "combatant", "changes", "x", "y", "alt", "condition", "on", "lasts", "text", "name", "order", "table",
               "value", "rolls", "before", "after")

# The GM's own order among equals (issue 10, "The GM settles ties") and many of one kind ("Add ×N",
# "Duplicate"): plausible ids, so most of them meet real combatants, equals or not.
TIES = st.builds(lambda a, where, b: {"type": "settle_tie", "id": a, where: b}, IDS,
                 st.sampled_from(["before", "after"]), IDS)
COPIES = st.builds(lambda i: {"type": "duplicate_combatant", "id": i}, IDS)


def add_many(ruleset_id: str) -> st.SearchStrategy:
    """Add ×N of one of the ruleset's ready-made combatants (free-form: a plain one)."""
    presets = get_ruleset(ruleset_id).presets() or [{"name": "Goblin", "stats": {"initiative": 12}}]
    return st.builds(lambda p, n: {"type": "add_combatant", "combatant": {**p, "count": n}},
                     st.sampled_from(presets), st.one_of(st.integers(1, 4), st.sampled_from([0, 201, "many", "3"])))


def core_actions(ruleset_id: str) -> st.SearchStrategy:
    """The core actions every ruleset takes, plus a table edit of one of its own tables."""
    rs = get_ruleset(ruleset_id)
    tables = sorted(rs.tables)
    edits = st.builds(lambda t, note: {"type": "set_table", "table": t, "value": {**rs.tables[t], "gm_note": note}},
                      st.sampled_from(tables), st.text(max_size=10)) if tables else st.nothing()
    resets = st.builds(lambda t: {"type": "set_table", "table": t, "value": None}, st.sampled_from(tables)) \
        if tables else st.nothing()
    return st.one_of(core.actions, edits, resets, TIES, TIES, COPIES, add_many(ruleset_id))


# -- free-form ---------------------------------------------------------------------------------------

FREEFORM = Spec(
    ruleset="freeform",
    start=lambda: new_encounter("freeform", "Fuzz"),
    actions=core_actions("freeform"),
    fields=CORE_FIELDS,
)


# -- strike-rank -----------------------------------------------------------------------------------

SR = get_ruleset("strike-rank")
SR_REFS = st.sampled_from(["a1", "a2", "a3", "a4", "a5"])
SR_MORE = st.one_of(
    st.builds(lambda c, r: {"type": "sr.undeclare", "id": c, "ref": r}, IDS, SR_REFS),
    st.builds(lambda c, r, k: {"type": "sr.change", "id": c, "ref": r, "kind": k}, IDS, SR_REFS,
              st.sampled_from(["other", "move", "melee"])),
    st.builds(lambda c, r, k: {"type": "sr.abort", "id": c, "ref": r, "kind": k}, IDS, SR_REFS,
              st.sampled_from(["other", "defend"])),
    st.builds(lambda r: {"type": "sr.resolve", "ref": r}, SR_REFS),
    # the GM's "Skip it" for an attack Next will not end by itself (issue 32)
    st.builds(lambda r: {"type": "sr.skip", "ref": r}, SR_REFS),
    st.builds(lambda r: {"type": "sr.skip", "ref": r}, SR_REFS),
    st.builds(lambda c, p, h, r: {"type": "sr.natural_healing", "id": c, "period": p, **({"healer": h} if h else {}),
                                  **({} if r is None else {"rested": r})},
              IDS, st.sampled_from(["day", "week", "season"]), st.one_of(st.none(), IDS),
              st.sampled_from([None, True, False])),
    st.builds(lambda c, t: {"type": "sr.grapple", "attacker": c, "target": t, "option": "immobilize"}, IDS, IDS),
    st.builds(lambda c, p, r: {"type": "sr.protection", "target": c, "points": p, "reason": r}, IDS,
              st.integers(-1, 31), st.sampled_from(["", "Protection 2", "<b>x</b>"])),
    st.builds(lambda c, o, w: {"type": "sr.unstick", "holder": c, "owner": o, "weapon": w}, IDS, IDS,
              st.sampled_from(["broadsword", "bite", "spear"])),
    st.builds(lambda a, t, b, sc, pull, rolls: {"type": "sr.attack", "attacker": a, "target": t,
                                                "weapon": "broadsword", "defence": {"kind": "dodge", "bonus": b},
                                                "shield_cover": sc, "pull": pull, "rolls": rolls},
              IDS, IDS, st.integers(-20, 20), st.sampled_from([None, {"weapon": "shield", "locations": ["chest"]}]),
              st.sampled_from([None, {"drop_modifier": True}, {"die_sides": 3, "bonus": 0}]),
              st.fixed_dictionaries({}, optional={"attack": st.integers(1, 100), "defence": st.integers(1, 100),
                                                  "location": st.integers(1, 20), "damage": st.integers(1, 9)})),
)
SR_WEAPONS = {"c1": ["broadsword", "shield", "grapple"], "c2": ["bite"], "c3": ["bow", "spear"]}
SR_DEFENCE = {"c1": ["broadsword", "shield"], "c2": ["bite"], "c3": ["spear"]}


@st.composite
def sr_attack(draw) -> dict:
    """An attack as the page makes one: the attacker's own weapon, a defence the target has."""
    a, t = draw(st.permutations(["c1", "c2", "c3"]))[:2]
    kind = draw(st.sampled_from(["none", "dodge", "parry", "parry"]))
    defence = {"kind": kind}
    if kind == "parry":
        defence["weapon"] = draw(st.sampled_from(SR_DEFENCE[t]))
    if draw(st.booleans()):
        defence["bonus"] = draw(st.integers(-40, 40))
    if kind == "parry" and draw(st.booleans()):
        defence["split"] = draw(st.integers(1, 60))
    action = {"type": "sr.attack", "attacker": a, "target": t, "weapon": draw(st.sampled_from(SR_WEAPONS[a])),
              "defence": defence,
              "rolls": draw(st.fixed_dictionaries({}, optional={
                  "attack": st.integers(1, 100), "defence": st.integers(1, 100), "location": st.integers(1, 20),
                  "damage": st.lists(st.integers(1, 8), min_size=1, max_size=3)}))}
    if draw(st.booleans()):
        action["move_token"] = True  # as the page's attack form sends it (issue 32)
    if draw(st.booleans()):
        action["mounted_vs_foot"] = draw(st.booleans())
    if draw(st.booleans()):
        action["attacker_side"] = draw(st.sampled_from(["left", "right"]))
    for k, v in draw(st.dictionaries(st.sampled_from(["mode", "aim", "shield_cover", "pull", "special"]),
                                     st.just(None), max_size=2)).items():
        action[k] = draw({"mode": st.sampled_from(["normal", "aimed", "stun", "push", "disarm", "attack_weapon"]),
                          "aim": st.sampled_from(["head", "chest", "right_arm", "forequarters"]),
                          "shield_cover": st.just({"weapon": "shield", "locations": ["chest", "left_arm"]}),
                          "pull": st.sampled_from([{"drop_modifier": True}, {"die_sides": 3, "bonus": 0}]),
                          "special": st.sampled_from(["impaling", "slashing", "crushing"])}[k])
    return action


@st.composite
def sr_declare_more(draw) -> dict:
    """A declaration as the page's "More" fold-out makes one (issue 10): shots, several attacks with a
    split, a second weapon, charges, bracing, closing, continuing, an Other action's label and SR cost."""
    c, t = draw(st.permutations(["c1", "c2", "c3"]))[:2]
    kind = draw(st.sampled_from(["melee", "missile", "move", "other", "reload"]))
    a: dict = {"type": "sr.declare", "id": c, "kind": kind, "target": t}
    if kind in ("melee", "missile", "reload"):
        a["weapon"] = draw(st.sampled_from(SR_WEAPONS[c]))
    if draw(st.booleans()):
        a["metres"] = draw(st.integers(0, 40))
    extra = {"shots": st.integers(1, 4), "attacks": st.integers(1, 3),
             "split": st.lists(st.integers(40, 120), min_size=1, max_size=3),
             "extra_weapon": st.sampled_from(["broadsword", "shield", "grapple", "bite", "spear"]),
             "brace_against": st.sampled_from(["c1", "c2", "c3"]), "label": st.sampled_from(["Light a torch", ""]),
             "sr_cost": st.integers(-1, 40), "charge": st.booleans(), "charge_past": st.booleans(),
             "mounted_charge": st.booleans(), "mutual": st.booleans(), "continuing": st.booleans()}
    for k in draw(st.lists(st.sampled_from(sorted(extra)), max_size=3, unique=True)):
        a[k] = draw(extra[k])
    return a


def sr_start():
    """test_sr_property's three fighters, standing within reach of each other (engaged at 3 m)."""
    return srp.fight(srp.fighter("Ana", srp.SWORD, srp.SHIELD, srp.GRAPPLE, side="party",
                                 spells=[{"name": "Heal", "type": "battle", "intensity": 2},
                                         {"name": "Big", "type": "sorcery", "manipulation": 5}]),
                     srp.fighter("Wolf", srp.BITE, body="quadruped", x=1, hp=9),
                     srp.fighter("Ivo", srp.BOW, srp.SPEAR, side="party", x=2, hp=8))


def sr_injuries_applied(before, after, events, action) -> None:
    """Issue 32: injuries are applied, not only described. An action that leaves a combatant unable to
    stand ("If half or more of a combatant's legs are maimed, they cannot stand"; "Abdomen: Cannot stand
    or walk") leaves them prone; one that changes a combatant's injuries leaves no declared attack with a
    weapon they can no longer use; and no natural attack is ever stuck in a shield or a wound."""
    from fray.games.strike_rank import body as srb

    for c in after.combatants:
        if not c.data.get("locations"):
            continue
        for w in c.data["weapons"]:
            assert not (w["natural"] and w.get("stuck_in")), f"{c.name}'s {w['name']} is stuck in {w['stuck_in']}"
            assert all(not (before.get(s["owner"]) and (srb.weapon(before.get(s["owner"]), s["weapon"]) or {})
                            .get("natural")) for s in w.get("stuck", [])), f"a natural attack is stuck in {w['name']}"
        was = before.get(c.id)
        if was is None or "dead" in c.conditions or action.get("type") in ("edit_combatant", "set_condition"):
            continue
        if srb.cannot_stand(c) and not srb.cannot_stand(was):
            assert "prone" in c.conditions, f"{c.name} cannot stand ({srb.cannot_stand(c)}) but is not prone"
        if [srb.loc_level(l) for l in c.data["locations"]] != [srb.loc_level(l) for l in was.data["locations"]]:
            for a in after.state.get("actions", []):
                w = srb.weapon(c, a.get("weapon")) if a.get("weapon") else None
                if a["combatant"] == c.id and a["status"] == "declared" and a.get("attack") and w is not None:
                    assert srb.weapon_usable(c, w) is None, f"{c.name} keeps {a['ref']} with unusable {w['name']}"


FALLEN = ("dead", "unconscious", "incapacitated")


def _fallen(enc, cid: str) -> bool:
    c = enc.get(cid) if isinstance(cid, str) else None
    return c is not None and any(x in c.conditions for x in FALLEN)


def sr_fallen_offered_no_action(before, after, events, action) -> None:
    """The fallen are offered no action (issue 32): the engine takes no declaration or attack of one
    who was dead, unconscious or incapacitated, and the page offers them no form, nor takes them, or
    an ally, as a default target."""
    import re

    from fray.games.strike_rank.web.panel import panel_html

    kind = action.get("type")
    actor = action.get("id") if kind == "sr.declare" else action.get("attacker") if kind == "sr.attack" else None
    assert actor is None or not _fallen(before, actor), f"{kind} by the fallen {actor} was taken"
    view = SR.view(after)
    page = str(panel_html(view, {}))
    cs = view["combatants"]
    for cid, c in cs.items():
        if c["status"] != "ok":
            assert f'data-form="sr-declare" data-id="{cid}"' not in page, f"a declaration form for the {c['status']} {cid}"
            assert f'data-attacker="{cid}"' not in page, f"an attack form for the {c['status']} {cid}"
    for cid, tid in re.findall(r'id="sr-(?:sr-declare|att)-(c\d+|a\d+)[^"]*-target".*?<option value="(c\d+)" selected',
                               page, re.S):
        who = cid if cid in cs else next((o["combatant"] for o in view["order"] if o["ref"] == cid), None)
        if who is None or tid not in cs:
            continue
        declared = next((o["target"] for o in view["order"] if o["ref"] == cid), "")
        if tid == declared and cs[tid]["status"] == "ok":
            continue  # the GM's own declared target
        assert cs[tid]["status"] == "ok", f"the default target of {who} is the {cs[tid]['status']} {tid}"
        assert cs[tid]["side"] != cs[who]["side"], f"the default target of {who} is their ally {tid}"


def sr_no_action_dropped_silently(before, after, events, action) -> None:
    """No declared action of a standing combatant ends without an event naming it (issue 32: Next
    "lost" Broo 3's attack): it is resolved, changed, aborted, withdrawn or skipped by the action that
    names it, or the log names it (lost, interrupted)."""
    named = {e.get("detail", {}).get("ref") for e in events} | {
        r for e in events for r in e.get("detail", {}).get("refs", [])}
    now = {a["ref"]: a for a in after.state.get("actions", [])}
    for a in before.state.get("actions", []):
        if a["status"] != "declared" or after.get(a["combatant"]) is None or _fallen(after, a["combatant"]):
            continue
        b = now.get(a["ref"])
        if b is not None and b["status"] == "declared":
            continue
        assert a["ref"] in named or action.get("ref") == a["ref"], (
            f"{action.get('type')} ended {a['ref']} ({a['kind']} of {a['combatant']} at SR {a['sr']}) without a word")
        if action.get("type") == "advance" and action.get("ask_open") is True and a["attack"] \
                and a["round"] == before.round:
            # the page's Next ends no attack its combatant can still make: the GM resolves or skips it
            assert timing.unable(before, a), f"Next ended {a['ref']}, an attack {a['combatant']} could still make"


STRIKE_RANK = Spec(
    ruleset="strike-rank",
    start=sr_start,
    actions=st.one_of(srp.action, sr_attack(), sr_attack(), sr_declare_more(), SR_MORE, core_actions("strike-rank"),
                      st.just({"type": "advance"}),
                      # the page's Next, which asks about the attacks still open (issue 32)
                      st.just({"type": "advance", "skip_empty": True, "ask_open": True}),
                      # the end of the MR's bleeding CON tests typed by the GM, on the Next that ends it
                      st.builds(lambda r: {"type": "advance", "skip_empty": True,
                                           "rolls": {"bleed.c2.chest": r, "bleed.c1.abdomen": r}},
                                st.integers(1, 100)),
                      # the page's Resolve and Next put the tokens where moves end (issue 32)
                      st.builds(lambda r: {"type": "sr.resolve", "ref": r, "move_token": True}, SR_REFS),
                      st.just({"type": "advance", "skip_empty": True, "move_token": True})),
    phases=("declare", "resolve", "end"),
    checks=(sr_injuries_applied, sr_fallen_offered_no_action, sr_no_action_dropped_silently),
    fields=CORE_FIELDS + ("attacker", "target", "weapon", "defence", "mode", "aim", "kind", "metres", "running",
                          "spell", "shots", "ref", "location", "amount", "points", "healer", "how", "prompt", "choice",
                          "period", "shield_cover", "pull", "special", "location_die", "gm_location", "target_weapon",
                          "holder", "owner", "option", "brace_against", "free_attack", "split", "attacks",
                          "extra_weapon", "charge", "charge_past", "mounted_charge", "mutual", "continuing", "label",
                          "sr_cost", "mounted_vs_foot", "attacker_side", "skip_empty", "ask_open", "reason",
                          "move_token"),
)


# -- tactical-round --------------------------------------------------------------------------------

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
    for p in TR.presets()[:4]:
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


TestFreeformMachine = machine_for(FREEFORM).TestCase
TestStrikeRankMachine = machine_for(STRIKE_RANK).TestCase
TestTacticalRoundMachine = machine_for(TACTICAL_ROUND).TestCase
TestRangeBandMachine = machine_for(RANGE_BAND).TestCase
