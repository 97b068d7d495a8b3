"""The strike-rank reducer state machine (see tests/unit/test_machines.py): its actions, its starting fight
and the invariants checked after every applied action."""

from __future__ import annotations

from hypothesis import strategies as st

from fray.games import get_ruleset
from machine_actions import CORE_FIELDS, IDS, core_actions
from reducer_machine import Spec, machine_for
from fray.games.strike_rank import timing
import test_sr_property as srp  # noqa: E402


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
    # within the Target list itself: a later list's choice (the collision question's struck
    # combatant, who may be an ally) is not this form's default target
    for cid, tid in re.findall(r'id="sr-(?:sr-declare|att)-(c\d+|a\d+)[^"]*-target"(?:(?!</select>).)*?'
                               r'<option value="(c\d+)" selected', page, re.S):
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


TestStrikeRankMachine = machine_for(STRIKE_RANK).TestCase
