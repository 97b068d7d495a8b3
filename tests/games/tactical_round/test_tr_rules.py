"""Table-driven tests straight from the rule text (shared/rules/004_b263a66d4cd97a7b.txt) and the
tactical-round section of FACTS.md. Every docstring quotes the phrase it checks; the docs table
(py/fray/games/tactical_round/rules-trace.md) lists these node ids per heading."""

from __future__ import annotations

import dataclasses

import pytest

from fray.errors import InvalidAction, RuleViolation
from tr_helpers import (BITE, BOLT, BOW, FIST, HEAVY, KNIFE, QUICK, RS, SPEAR, SWORD, SWORD_SHIELD, attack,
                        condition, declare, do, fight, fighter, parts, to_phase)


def duel(a_weapons=(SWORD,), b_weapons=(SWORD,), a_def=20, b_def=20, **kw):
    """c1 attacks c2, both at the origin unless moved."""
    return fight(fighter("Ana", *a_weapons, DEF=a_def, side="party", **kw), fighter("Bor", *b_weapons, DEF=b_def))


# == Combat / Combat Actions ====================================================================

def test_combat_view_shows_phase_and_sequence():
    """Combat: "a fixed sequence of phases each round" (README) — the view names the phase and the sequence."""
    enc = to_phase(duel(), "assessment")
    v = RS.view(enc)
    assert v["phase"]["id"] == "assessment"
    assert [p["title"] for p in v["phases"]] == ["Assessment", "Declaration", "Move", "Spell A", "Ranged A",
                                                 "Melee", "Ranged B", "Spell B", "Other Actions"]


def test_combat_actions_options_are_declarable():
    """Combat Actions: "Beyond making Attack Rolls, characters in combat have several options available to them:
    trading offensive power for defense by Parrying, using the environment for Cover, pressing into melee range,
    and attacking from a distance with missile weapons or Spells." """
    enc = duel(a_weapons=(SWORD, BOW, BOLT))
    for acts in ([{"action": "melee_attack", "weapon": 0, "target": "c2"}],
                 [{"action": "ranged_attack", "weapon": 1, "target": "c2"}],
                 [{"action": "spell_prepared", "weapon": 2, "target": "c2"}],
                 [{"action": "move"}]):
        e = declare(enc, "c1", *acts)
        assert e.state["declared"]["c1"][0]["action"] == acts[0]["action"]
    assert set(RS.actions) >= {"tr.parry", "tr.cover", "tr.attack"}


@pytest.mark.parametrize("costs, ok, penalty", [
    (["melee_attack"], True, False),
    (["melee_attack", "move"], True, True),
    (["move", "other"], True, False),
    (["melee_attack", "disengage"], False, None),
])
def test_combat_actions_full_and_half(costs, ok, penalty):
    """Combat Actions (FACTS): "combining a Full and a Half action −20 to both"; two Full actions are refused."""
    enc = duel()
    acts = [{"action": a, "weapon": 0, "target": "c2"} if a == "melee_attack" else {"action": a} for a in costs]
    if not ok:
        with pytest.raises(RuleViolation):
            declare(enc, "c1", *acts)
        return
    enc = declare(enc, "c1", *acts)
    assert RS.view(enc)["combatants"][0]["full_and_half"] is penalty
    if "melee_attack" in costs:
        enc, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
        assert ("Full + Half action" in parts(ev, "cmb")) is penalty


# == Tactical Round Sequence (FACTS) ===============================================================

def test_sequence_steps_phases_and_rounds():
    """Tactical Round Sequence (FACTS): "Assessment, Declaration, Move, Spell A, Ranged A, Melee, Ranged B,
    Spell B, Other Actions" — then the next round."""
    enc = duel()
    seen = []
    for _ in range(10):
        enc, _ = do(enc, {"type": "advance"})
        seen.append((enc.round, enc.phase))
    assert seen == [(1, "assessment"), (1, "declaration"), (1, "move"), (1, "spell_a"), (1, "ranged_a"),
                    (1, "melee"), (1, "ranged_b"), (1, "spell_b"), (1, "other"), (2, "assessment")]


def test_next_skips_phases_in_which_nobody_acts():
    """Issue 10, "Fewer taps": "tactical-round's Next skips phases in which nobody acts (today 9 Nexts a round)";
    the sequence itself is unchanged and Assessment and Declaration always stop."""
    enc = duel()
    nxt = {"type": "advance", "skip_empty": True}
    enc, _ = do(enc, nxt)
    enc, _ = do(enc, nxt)
    assert (enc.round, enc.phase) == (1, "declaration")
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc, ev = do(enc, nxt)
    assert enc.phase == "melee"
    assert "Phase: Melee (nobody acts in Move, Spell A, Ranged A)" in [e["text"] for e in ev]
    enc, _ = do(enc, nxt)
    assert (enc.round, enc.phase) == (2, "assessment")
    with pytest.raises(InvalidAction, match="true or false"):
        do(enc, {"type": "advance", "skip_empty": "yes"})


@pytest.mark.parametrize("act, weapon, phase", [
    ("move", None, "move"),
    ("run_away", None, "move"),
    ("spell_prepared", None, "spell_a"),
    ("spell_unprepared", None, "spell_b"),
    ("ranged_attack", 1, "ranged_a"),
    ("melee_attack", 0, "melee"),
    ("disengage", None, "other"),
    ("other", None, "other"),
])
def test_declared_action_lands_in_its_phase(act, weapon, phase):
    """Tactical Round Sequence (FACTS): each declared action lands in its phase — "Spell A (prepared or instant
    spells), Ranged A (weapons loaded before the round ...), Melee ..., Spell B (unprepared spells), Other Actions"."""
    enc = duel(a_weapons=(SWORD, BOW))
    if act in ("run_away", "disengage"):  # both are from melee: Engaged first
        enc, _ = attack(to_phase(enc, "melee"), "c2", "c1", 50)
        enc = to_phase(to_phase(enc, "assessment"), "declaration")
    d = {"action": act}
    if weapon is not None:
        d.update(weapon=weapon, target="c2")
    enc = declare(enc, "c1", d)
    assert enc.state["declared"]["c1"][0]["phase"] == phase
    enc = to_phase(enc, phase)
    assert [s["combatant"] for s in RS.view(enc)["acting"]] == ["c1"]


def test_melee_order_longest_weapon_then_cmb_then_simultaneous():
    """Tactical Round Sequence (FACTS): "Melee (longest weapon first; tie: higher CMB; equal: simultaneous)"."""
    enc = fight(fighter("Sword50", SWORD), fighter("Spear40", SPEAR), fighter("Sword60", dict(SWORD, cmb=60)),
                fighter("Sword50b", SWORD))
    for cid in ("c1", "c2", "c3", "c4"):
        enc = declare(enc, cid, {"action": "melee_attack", "weapon": 0, "target": "c1" if cid != "c1" else "c2"})
    enc = to_phase(enc, "melee")
    acting = RS.view(enc)["acting"]
    assert [a["combatant"] for a in acting] == ["c2", "c3", "c1", "c4"]
    assert acting[2]["simultaneous_with"] == ["c4:0"] and acting[0]["simultaneous_with"] == []
    # the GM settles the order among equals without overriding length and CMB
    enc, _ = do(enc, {"type": "reorder", "order": ["c4", "c1", "c2", "c3"]})
    assert [a["combatant"] for a in RS.view(enc)["acting"]] == ["c2", "c3", "c4", "c1"]


def test_melee_order_uses_cmb_after_parry():
    """Tactical Round Sequence (FACTS): "tie: higher CMB" — the CMB left after the parry moved out of it."""
    enc = fight(fighter("A", SWORD), fighter("B", dict(SWORD, cmb=45)))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc, _ = do(enc, {"type": "tr.parry", "id": "c1", "amount": 10, "against": "c2"})
    assert [a["combatant"] for a in RS.view(to_phase(enc, "melee"))["acting"]] == ["c2", "c1"]


@pytest.mark.parametrize("rounds, stunned_after", [(1, [False]), (2, [True, False])])
def test_stunned_ends_at_end_of_other_actions(rounds, stunned_after):
    """Tactical Round Sequence (FACTS): "Other Actions (Disengage ends here; Stunned ends here)"."""
    enc = duel()
    enc, _ = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 1, "critical": "A", "rolls": {"critical": 40}})
    enc, _ = do(enc, {"type": "tr.apply_critical", "ref": "A1", "stunned_rounds": rounds})
    enc = to_phase(enc, "other")
    assert "stunned" in enc.get("c2").conditions
    for expected in stunned_after:
        enc = to_phase(to_phase(enc, "assessment"), "other")
        assert ("stunned" in enc.get("c2").conditions) is expected


def test_attack_outside_its_phase_is_refused():
    """Tactical Round Sequence (FACTS): a melee attack resolves in the Melee phase, not in Ranged A."""
    with pytest.raises(RuleViolation) as e:
        attack(to_phase(duel(), "ranged_a"), "c1", "c2")
    assert e.value.rule == "Tactical Round Sequence" and e.value.field == "weapon"  # the weapon decides the phase


def test_declare_only_in_declaration():
    """Tactical Round Sequence (FACTS): actions are declared in the "Declaration" phase."""
    enc = to_phase(duel(), "melee")
    with pytest.raises(RuleViolation):
        do(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": "move"}]})


# == The attack (FACTS) ============================================================================

def test_attack_total_and_breakdown():
    """The attack (FACTS): "open-ended d100 (96-100 roll again and add; 01-05 roll again and subtract) + CMB +
    modifiers − DEF (DEF already includes parry and cover)"."""
    enc = duel(b_weapons=(SWORD_SHIELD,), b_def=30)
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 10, "against": "c1"})
    enc, ev = attack(to_phase(enc, "melee"), "c1", "c2", [98, 40], flanking=True)
    # 98+40 + 50 + 15 − (30 + 15 + 10) = 148
    assert ev["detail"]["total"] == 148
    assert ev["text"].endswith("148 = roll 98+40 + CMB 50 + Flanking 15 − DEF 55 (DEF 30 + shield 15 + parry 10)")
    enc, ev = attack(enc, "c1", "c2", [3, 50])
    assert ev["detail"]["total"] == 3 - 50 + 50 - 55
    assert [p["ref"] for p in RS.view(enc)["pending"]] == ["A1", "A2"]


@pytest.mark.parametrize("setup, flags, label, value, where", [
    ([], {"flanking": True}, "Flanking", 15, "cmb"),
    ([], {"on_rear": True}, "On Rear", 30, "cmb"),
    ([("c1", "prone")], {}, "attacker Prone", -20, "cmb"),
    ([("c2", "stunned")], {}, "target Stunned", 20, "cmb"),
    ([("c2", "surprised")], {}, "target Surprised", 20, "cmb"),
    ([("c1", "held")], {}, "attacker Held", -30, "cmb"),
    ([("c2", "held")], {}, "melee vs Held", 30, "cmb"),
    ([("c2", "held")], {}, "target Held", -30, "defense"),
    ([], {"charge": True}, "Charge", 20, "cmb"),
    ([], {"charge": True, "mounted": True}, "mounted Charge", 40, "cmb"),
    ([], {"two_weapons": True}, "two weapons", -20, "cmb"),
])
def test_condition_modifiers(setup, flags, label, value, where):
    """The attack (FACTS): "Flanking +15 to the attacker; On Rear +30 and no shield DEF; Prone −20 CMB ...; attacks
    against a Stunned target +20; Surprised target +20; Held −30 CMB and DEF, +30 to melee attacks against; Charge +20
    (+40 mounted); two weapons −20"."""
    enc = duel()
    for cid, cond in setup:
        enc = condition(enc, cid, cond)
    enc, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50, **flags)
    assert parts(ev, where)[label] == value


def test_on_rear_removes_shield_def():
    """The attack (FACTS): "On Rear +30 and no shield DEF"."""
    enc = duel(b_weapons=(SWORD_SHIELD,))
    enc, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50, on_rear=True)
    assert "shield" not in parts(ev, "defense") and ev["detail"]["total"] == 50 + 50 + 30 - 20


def test_prone_target_def_against_ranged_only():
    """The attack (FACTS): "Prone ... +20 DEF against ranged attacks"."""
    enc = condition(duel(a_weapons=(SWORD, BOW)), "c2", "prone")
    _, ev = attack(to_phase(enc, "ranged_a"), "c1", "c2", 50, weapon=1, line_of_sight=True, distance=5)
    assert parts(ev, "defense")["target Prone vs ranged"] == 20
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert "target Prone vs ranged" not in parts(ev, "defense")


@pytest.mark.parametrize("hits, hp, conds", [
    (0, 40, []), (20, 20, []), (21, 19, ["bruised"]), (40, 0, ["bruised", "incapacitated"]),
    (89, -49, ["bruised", "incapacitated"]), (90, -50, ["bruised", "dying", "incapacitated"]),
])
def test_hp_thresholds(hits, hp, conds):
    """Hit points (FACTS): "0 or below → incapacitated; −50 or below → dying; below half → Bruised (−20)"."""
    enc = duel()
    enc, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": hits, "critical": None})
    c2 = RS.view(enc)["combatants"][1]
    assert c2["hp"]["current"] == hp
    # the rules' own set (the strip and the card say the worst alone: test_tr_gm_today.py)
    assert sorted(enc.get("c2").conditions) == conds
    assert enc.state["pending"] == []


def test_bruised_penalises_attacks_and_incapacitated_cannot_attack():
    """Hit points (FACTS): "below half → Bruised (−20)"; an incapacitated character cannot act."""
    enc = duel()
    enc, _ = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 25})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert parts(ev, "cmb")["Bruised"] == -20
    enc, _ = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 20})
    with pytest.raises(RuleViolation):
        attack(to_phase(enc, "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": -45})
    assert enc.get("c1").conditions == []


@pytest.mark.parametrize("severity, roll, total", [("A", 40, 40), ("B", 40, 50), ("C", 40, 60), ("D", 40, 70),
                                                   ("E", 40, 90)])
def test_critical_severity(severity, roll, total):
    """The attack (FACTS): "Critical severity adds +0 / +10 / +20 / +30 / +50 to the critical roll"."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 5, "critical": severity,
                      "rolls": {"critical": roll}})
    (p,) = enc.state["pending"]
    assert p["stage"] == "critical" and p["critical_roll"] == total
    enc, _ = do(enc, {"type": "tr.apply_critical", "ref": "A1", "hits": 3, "prone": True})
    assert enc.get("c2").data["hits_taken"] == 8 and "prone" in enc.get("c2").conditions
    assert enc.state["pending"] == []


def test_a_critical_can_kill_at_once_or_after_rounds():
    """The attack (FACTS): "the GM enters the result (hits and critical severity)"; the critical tables are the
    GM's (not in the rule text), and a critical result that kills, at once or "dies in N rounds", is applied: the
    dead act no more (Combat Actions: the fallen are offered no action)."""
    def critical(**effect):
        enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
        enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 5, "critical": "E", "rolls": {"critical": 90}})
        return do(enc, {"type": "tr.apply_critical", "ref": "A1", **effect})

    enc, ev = critical(kills=True)
    assert "dead" in enc.get("c2").conditions and "killed" in ev[0]["text"]
    assert RS.view(enc)["combatants"][1]["hp"]["current"] == 35  # killed with HP left: the critical did it
    enc, _ = critical(dies_in=2)
    assert "dead" not in enc.get("c2").conditions
    assert any(c["name"] == "mortally wounded" and "end of round 2" in c["text"]  # round 1 counts as the first
               for c in RS.view(enc)["combatants"][1]["conditions"])
    enc = to_phase(do(enc, {"type": "advance"})[0], "assessment")  # the end of round 1
    assert enc.round == 2 and "dead" not in enc.get("c2").conditions
    enc, ev = do(to_phase(enc, "other"), {"type": "advance"})
    assert "dead" in enc.get("c2").conditions
    assert any("Bor dies of the critical wound (end of round 2)" in e["text"] for e in ev)
    with pytest.raises(InvalidAction) as e:
        critical(kills=True, dies_in=2)
    assert e.value.field == "dies_in"


def test_gm_attack_table_gives_result():
    """The attack (FACTS): "the GM enters the result (hits and critical severity), or loads a table of their own"."""
    enc = duel()
    table = {"id": "attack_results", "title": "House table", "source": "GM", "assumed": True, "entries": [
        {"kind": "any", "min": None, "max": 99, "hits": 0, "critical": None},
        {"kind": "melee", "min": 100, "max": None, "hits": 12, "critical": "C"}]}
    enc, _ = do(enc, {"type": "set_table", "table": "attack_results", "value": table})
    enc = to_phase(enc, "melee")
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2"}, attack=90, critical=45)  # 90+50−20 = 120
    assert enc.get("c2").data["hits_taken"] == 12
    (p,) = enc.state["pending"]
    assert (p["stage"], p["critical"], p["critical_roll"]) == ("critical", "C", 65)
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2"}, attack=40)  # 70: no hits, no critical
    assert enc.get("c2").data["hits_taken"] == 12 and len(enc.state["pending"]) == 1
    with pytest.raises(InvalidAction):
        do(enc, {"type": "set_table", "table": "attack_results",
                 "value": {**table, "entries": [{"kind": "laser", "min": 0, "max": 1, "hits": 1, "critical": None}]}})


@pytest.mark.parametrize("bad, field", [
    ({"weapons": [{"name": "Sword", "cmb": "lots"}]}, "combatant.weapons.0.cmb"),
    ({"weapons": [{"name": "Sword"}]}, "combatant.weapons.0.cmb"),
    ({"weapons": [{"name": "Bow", "cmb": 40, "kind": "missile"}]}, "combatant.weapons.0.base_range"),
    ({"weapons": [{"name": "Axe", "cmb": 40, "kind": "laser"}]}, "combatant.weapons.0.kind"),
    ({"weapons": [{"name": "Axe", "cmb": 40, "shield": True}]}, "combatant.weapons.0.shield"),
    ({"weapons": [{"name": "Axe", "cmb": 40, "quick_load": True}]}, "combatant.weapons.0.quick_load"),
    ({"weapons": "sword"}, "combatant.weapons"),
    ({"armour": "plate"}, "combatant.armour"),
])
def test_combatant_weapons_are_validated(bad, field):
    """Combatants (issue 4): "CMB per weapon, DEF, HP (Body), weapons (base range ..., reload rounds, Quick Load,
    two-handed, shield, length for melee order)" — bad input names its dotted path."""
    with pytest.raises(InvalidAction) as e:
        fight({"name": "X", "stats": {"DEF": 10, "HP": 10}, **bad})
    assert e.value.field == field


def test_edit_keeps_wounds():
    """Combatants: editing the HP stat keeps the hits taken (current HP follows the new maximum)."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 15})
    enc, _ = do(enc, {"type": "edit_combatant", "id": "c2", "changes": {"stats": {"HP": 60}}})
    assert RS.view(enc)["combatants"][1]["hp"] == {"current": 45, "max": 60, "hits_taken": 15}
    enc, _ = do(enc, {"type": "edit_combatant", "id": "c2", "changes": {"stats": {"HP": 20}}})
    assert "bruised" in enc.get("c2").conditions
    with pytest.raises(InvalidAction) as e:
        do(enc, {"type": "edit_combatant", "id": "c2", "changes": {"weapons": [{"name": "S", "cmb": None}]}})
    assert e.value.field == "changes.weapons.0.cmb"


# == Parrying =======================================================================================

@pytest.mark.parametrize("amount, ok", [(1, True), (30, True), (50, True), (51, False)])
def test_parry_moves_cmb_into_def(amount, ok):
    """Parrying: "they subtract any amount up to their total CMB and add the same value to their Defense (DEF)
    for the current Round"."""
    enc = duel()
    if not ok:
        with pytest.raises(RuleViolation):
            do(enc, {"type": "tr.parry", "id": "c2", "amount": amount, "against": "c1"})
        return
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": amount, "against": "c1"})
    enc = to_phase(enc, "melee")
    _, ev = attack(enc, "c1", "c2", 50)
    assert parts(ev, "defense")["parry"] == amount
    _, ev = attack(enc, "c2", "c1", 50)
    assert ev["detail"]["total"] == 50 + 50 - amount - 20
    enc = to_phase(to_phase(enc, "assessment"), "melee")  # "for the current Round"
    _, ev = attack(enc, "c1", "c2", 50)
    assert "parry" not in parts(ev, "defense")


def test_parry_applies_to_every_attack_of_the_same_opponent():
    """Parrying: "This bonus applies against one or more incoming attacks from the same opponent the character
    is facing."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD), fighter("C", SWORD))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    enc = to_phase(enc, "melee")
    enc, ev1 = attack(enc, "c1", "c2", 50)
    enc, ev2 = attack(enc, "c1", "c2", 50)
    _, ev3 = attack(enc, "c3", "c2", 50)
    assert parts(ev1, "defense")["parry"] == parts(ev2, "defense")["parry"] == 20
    assert "parry" not in parts(ev3, "defense")


@pytest.mark.parametrize("attack_weapon, parried", [(SWORD, False), (FIST, True), (BITE, True)])
def test_unarmed_cannot_parry_armed(attack_weapon, parried):
    """Parrying: "Unarmed characters cannot Parry armed attacks, but can Parry unarmed and animal attacks."""
    enc = duel(a_weapons=(attack_weapon,), b_weapons=(FIST,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert ("parry" in parts(ev, "defense")) is parried


@pytest.mark.parametrize("attack_weapon, parried", [(SWORD, False), (BITE, True)])
def test_missile_wielder_counts_unarmed(attack_weapon, parried):
    """Parrying: "Characters wielding a missile weapon count as unarmed for the purpose of Parrying."""
    enc = duel(a_weapons=(attack_weapon,), b_weapons=(BOW,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert ("parry" in parts(ev, "defense")) is parried


@pytest.mark.parametrize("weapon, phase", [(BOW, "ranged_a"), (KNIFE, "ranged_a"), (BOLT, "spell_a")])
@pytest.mark.parametrize("shield", [False, True])
def test_ranged_parried_only_with_shield(weapon, phase, shield):
    """Parrying: "Ranged attacks from missile weapons, thrown weapons, or Spells cannot be Parried unless the
    defending character is wielding a shield."""
    enc = duel(a_weapons=(weapon,), b_weapons=(SWORD_SHIELD if shield else SWORD,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    _, ev = attack(to_phase(enc, phase), "c1", "c2", 50, line_of_sight=True, distance=3)
    assert ("parry" in parts(ev, "defense")) is shield


def test_parry_only_one_opponent_without_shield():
    """Parrying: "A character can only Parry attacks from a single opponent per Round, and only attacks from the
    opponent they are facing."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD), fighter("C", SWORD))
    with pytest.raises(RuleViolation) as e:
        do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": ["c1", "c3"]})
    assert e.value.rule == "Parrying"
    with pytest.raises(InvalidAction):
        do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": []})


def test_shield_parries_all_on_its_side():
    """Parrying: "A character wielding a shield can Parry all attacks from multiple opponents on the shield's side
    in a single Round."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD_SHIELD), fighter("C", SWORD), fighter("D", SWORD))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": ["c1", "c3"]})
    enc = to_phase(enc, "melee")
    got = [("parry" in parts(attack(enc, a, "c2", 50)[1], "defense")) for a in ("c1", "c3", "c4")]
    assert got == [True, True, False]


@pytest.mark.parametrize("cmb, limit", [(50, 25), (45, 22), (1, 0)])
def test_stunned_parries_with_half(cmb, limit):
    """Parrying: "Stunned characters can only Parry with up to half their CMB, regardless of weapon."""
    enc = condition(duel(b_weapons=(dict(SWORD, cmb=cmb),)), "c2", "stunned")
    assert RS.view(enc)["combatants"][1]["parry"]["limit"] == limit
    with pytest.raises(RuleViolation):
        do(enc, {"type": "tr.parry", "id": "c2", "amount": limit + 1, "against": "c1"})


def test_stunned_after_parrying_keeps_half():
    """Parrying: "Stunned characters can only Parry with up to half their CMB" — a parry made before the stun
    counts only up to half."""
    enc, _ = do(duel(), {"type": "tr.parry", "id": "c2", "amount": 40, "against": "c1"})
    enc = condition(enc, "c2", "stunned")
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert parts(ev, "defense")["parry"] == 25


@pytest.mark.parametrize("cond", ["incapacitated", "held", "surprised"])
def test_cannot_parry_at_all(cond):
    """Parrying: "Incapacitated, Held, or Surprised characters, or any character whose condition prevents them
    from applying their DEF, cannot Parry at all."""
    enc = condition(duel(), "c2", cond)
    with pytest.raises(RuleViolation):
        do(enc, {"type": "tr.parry", "id": "c2", "amount": 10, "against": "c1"})
    enc, _ = do(duel(), {"type": "tr.parry", "id": "c2", "amount": 10, "against": "c1"})
    enc = condition(enc, "c2", cond)
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert "parry" not in parts(ev, "defense")


def test_parry_covers_all_conscious_defence():
    """Parrying: "The word "Parry" covers all conscious defensive attempts: weapon blocks, shield deflections,
    dodges, and evasions." — one parry value, no separate dodge."""
    assert "tr.dodge" not in RS.actions and "tr.parry" in RS.actions


# == Cover ==========================================================================================

@pytest.mark.parametrize("kind, bonus", [("partial", 20), ("full", 50), ("none", 0)])
def test_cover_bonus(kind, bonus):
    """Cover: "Partial Cover (+20 DEF): hard objects covering roughly half the character's body ..." and
    "Full Cover (+50 DEF): almost entirely behind a hard object or obstacle."""
    enc, _ = do(duel(), {"type": "tr.cover", "id": "c2", "cover": kind, "against": "all"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert sum(parts(ev, "defense").values()) == 20 + bonus


def test_cover_only_against_blocked_attacks():
    """Cover: "The bonus applies only against attacks blocked by the Cover." and "It is possible to have different
    Cover types against attacks from different directions."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD), fighter("C", SWORD))
    enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "full", "against": "c1"})
    enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "partial", "against": "c3"})
    enc = to_phase(enc, "melee")
    assert attack(enc, "c1", "c2", 50)[1]["detail"]["total"] == 50 + 50 - 70
    assert attack(enc, "c3", "c2", 50)[1]["detail"]["total"] == 50 + 50 - 40


def test_cover_does_not_stack():
    """Cover: "The two types do not stack. Use whichever provides the higher bonus."""
    enc, _ = do(duel(), {"type": "tr.cover", "id": "c2", "cover": "partial", "against": "all"})
    enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "full", "against": "c1"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert parts(ev, "defense") == {"DEF": 20, "Full Cover": 50}


@pytest.mark.parametrize("weapon, phase, fields", [
    (BOW, "ranged_a", {"line_of_sight": True, "distance": 5}),
    (SPEAR, "melee", {}),
])
@pytest.mark.parametrize("covered", [False, True])
def test_cover_lets_parry_ranged_and_two_handed(weapon, phase, fields, covered):
    """Cover: "Any character benefiting from Cover, of either type, can Parry ranged attacks and two-handed weapon
    attacks as if they were wielding a shield."""
    enc = duel(a_weapons=(weapon,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    if covered:
        enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "partial", "against": "c1"})
    _, ev = attack(to_phase(enc, phase), "c1", "c2", 50, **fields)
    assert ("parry" in parts(ev, "defense")) is covered


def test_shooting_into_melee_is_partial_cover():
    """Ranged Attacks (FACTS): "Shooting into melee: engaged targets count as having Partial Cover."""
    enc = fight(fighter("Archer", BOW), fighter("B", SWORD), fighter("C", SWORD))
    enc, _ = attack(to_phase(enc, "melee"), "c3", "c2", 50)
    enc = to_phase(to_phase(enc, "assessment"), "ranged_a")
    _, ev = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    assert parts(ev, "defense")["Partial Cover (shooting into melee)"] == 20


# == Diving for Cover ===============================================================================

def test_dive_prone_free_action_any_time():
    """Diving for Cover: "A character who is aware of an incoming attack may drop Prone ... as a Free Action, at any
    time."""
    enc = to_phase(duel(a_weapons=(BOW,)), "ranged_a")
    enc, _ = do(enc, {"type": "tr.dive_for_cover", "id": "c2", "aware": True, "to": "prone"})
    _, ev = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    assert parts(ev, "defense")["target Prone vs ranged"] == 20
    with pytest.raises(RuleViolation):
        do(to_phase(duel(), "move"), {"type": "tr.dive_for_cover", "id": "c2", "to": "prone"})


@pytest.mark.parametrize("x, ok", [(1.5, True), (1.0, True), (2.0, False)])
def test_dive_behind_cover_within_reach(x, ok):
    """Diving for Cover: "or move behind any Cover within 1.5 meters" (measured on the map)."""
    enc = duel()
    action = {"type": "tr.dive_for_cover", "id": "c2", "aware": True, "to": "cover", "cover": "full",
              "against": "all", "x": x, "y": 0}
    if not ok:
        with pytest.raises(RuleViolation) as e:
            do(enc, action)
        assert e.value.rule == "Diving for Cover"
        return
    enc, _ = do(enc, action)
    assert enc.get("c2").position.x == x and enc.get("c2").data["cover"] == {"all": "full"}


# == Melee Attacks ==================================================================================

def test_melee_attack_engages():
    """Melee Attacks: "Any character who receives a melee attack becomes Engaged with the attacker."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    assert enc.get("c2").data["engaged_with"] == ["c1"] and enc.get("c1").data["engaged_with"] == ["c2"]
    assert any(c["name"] == "engaged" for c in RS.view(enc)["combatants"][1]["conditions"])


@pytest.mark.parametrize("out", ["dead", "incapacitated", "unconscious", "dying"])
def test_the_fallen_are_engaged_with_no_one(out):
    """Melee Attacks: "Any character who receives a melee attack becomes Engaged with the attacker. Engaged characters
    cannot take Movement Actions unless they Disengage or Run Away first." Engaged is a matter of two fighters; one out
    of the fight (Parrying: "Incapacitated ... cannot Parry at all"; the dead, dying and unconscious cannot act) ends the
    engagement on both sides, so the swordsman who felled the orc moves on without Disengaging; a blow at the
    fallen engages no one."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": out, "on": True})
    assert enc.get("c1").data["engaged_with"] == [] and enc.get("c2").data["engaged_with"] == []
    assert not any(c["name"] == "engaged" for c in RS.view(enc)["combatants"][0]["conditions"])
    assert "engaged" not in RS.status(enc, RS.view(enc), "c1")["chips"]  # the order strip's badge
    assert any("no longer Engaged with A" in e["text"] for e in ev)
    if out != "dead":
        enc, _ = attack(enc, "c1", "c2", 50)
        assert enc.get("c1").data["engaged_with"] == []


def test_melee_attack_has_no_range_band():
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within the reach
    of their weapon." — no range band applies within reach."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD, x=2))
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert list(parts(ev, "cmb")) == ["CMB"]


def test_the_dead_are_no_target():
    """Combat Actions (FACTS, Hit points: "0 or below → incapacitated; −50 or below → dying"): the incapacitated and
    dying can still be struck; the dead are no target: an attack on them is refused and nothing changes."""
    enc = to_phase(fight(fighter("A", SWORD, side="party"), fighter("B", SWORD, x=2), fighter("C", SWORD, y=2)),
                   "melee")
    enc = condition(enc, "c2", "dead")
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", 50)
    assert "B is dead: choose another target" in str(e.value) and e.value.field == "target"
    enc = condition(enc, "c3", "incapacitated")
    attack(enc, "c1", "c3", 50)


def test_melee_attack_only_within_reach():
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within the reach
    of their weapon." — a foe 15 m away is refused, with what to do in the GM's words; adjacent (3 m, assumed) or
    already Engaged is in reach. The page asks for the check (``check_reach``); a history saved before replays as
    it was played."""
    enc = to_phase(fight(fighter("A", SWORD), fighter("B", SWORD, x=15)), "melee")
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", 50, check_reach=True)
    assert e.value.rule == "Melee Attacks"
    assert "B is 15.0 m from A" in str(e.value) and "move closer first" in str(e.value)
    assert e.value.field == "target"  # the page says it beside the Target (a GM found it at the form's top)
    attack(enc, "c1", "c2", 50, check_reach=True, distance=3)  # the GM's own measure wins over the tokens
    attack(enc, "c1", "c2", 50)  # an attack saved before the check
    enc = to_phase(fight(fighter("A", SWORD), fighter("B", SWORD, x=3)), "melee")
    enc, _ = attack(enc, "c1", "c2", 50, check_reach=True)
    enc, _ = do(enc, {"type": "move", "id": "c2", "x": 9, "y": 0})  # the GM's override of the token
    attack(enc, "c2", "c1", 50, check_reach=True)  # Engaged: the melee goes where its fighters go
    # the reach is an assumed table (the text gives no distance): a GM whose spears reach 4 m edits it
    enc = to_phase(fight(fighter("A", SWORD), fighter("B", SWORD, x=4)), "melee")
    with pytest.raises(RuleViolation, match=r"within the weapon's reach \(3 m\)"):
        attack(enc, "c1", "c2", 50, check_reach=True)
    table = {**RS.tables["melee_reach"], "entries": [{"key": "reach_m", "value": 4}]}
    enc, _ = do(enc, {"type": "set_table", "table": "melee_reach", "value": table})
    attack(enc, "c1", "c2", 50, check_reach=True)
    with pytest.raises(InvalidAction):  # and a reach that is not a number is refused, the table as it was
        do(enc, {"type": "set_table", "table": "melee_reach",
                 "value": {**table, "entries": [{"key": "reach_m", "value": "far"}]}})


def test_engaged_cannot_move():
    """Melee Attacks: "Engaged characters cannot take Movement Actions unless they Disengage or Run Away first."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    with pytest.raises(RuleViolation) as e:
        do(enc, {"type": "tr.move", "id": "c2", "x": 10})
    assert e.value.rule == "Melee Attacks"
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    with pytest.raises(RuleViolation):
        declare(enc, "c2", {"action": "move"})
    declare(enc, "c2", {"action": "disengage"})
    assert RS.view(enc)["combatants"][1]["can_move"] is False


# == Disengaging ====================================================================================

def test_disengage_full_action_parry_no_attacks():
    """Disengaging: "A character can opt to Disengage from melee by spending a Full Action. While Disengaging, the
    character may use their CMB to Parry, but cannot make attacks of their own."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    with pytest.raises(RuleViolation):
        declare(enc, "c2", {"action": "disengage"}, {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = declare(enc, "c2", {"action": "disengage"})
    assert enc.state["declared"]["c2"][0]["cost"] == "full"
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 50, "against": "c1"})
    with pytest.raises(RuleViolation) as e:
        attack(to_phase(enc, "melee"), "c2", "c1", 50)
    assert e.value.rule == "Disengaging"


def test_disengage_ends_at_end_of_other_actions():
    """Disengaging: "The character stops being Engaged at the end of the Other Actions Phase."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc = declare(to_phase(to_phase(enc, "assessment"), "declaration"), "c2", {"action": "disengage"})
    enc = to_phase(enc, "other")
    assert enc.get("c2").data["engaged_with"] == ["c1"]
    enc, _ = do(enc, {"type": "advance"})
    assert enc.get("c2").data["engaged_with"] == [] and enc.get("c1").data["engaged_with"] == []
    do(enc, {"type": "tr.move", "id": "c2", "x": 10})


# == Running Away ===================================================================================

def runaway_setup(runner_athletics=0, chaser_athletics=0, shield=False):
    enc = fight(fighter("Runner", SWORD_SHIELD if shield else SWORD, Athletics=runner_athletics),
                fighter("Chaser", SWORD, Athletics=chaser_athletics))
    enc, _ = attack(to_phase(enc, "melee"), "c2", "c1", 50)
    enc = declare(to_phase(to_phase(enc, "assessment"), "declaration"), "c1", {"action": "run_away"})
    return to_phase(enc, "move")


@pytest.mark.parametrize("flee, chase, result", [
    (80, 20, "win"),      # partial vs failure
    (20, 80, "lose"),     # failure vs partial
    (50, 60, "tie"),      # failure vs failure
    ([100, 30], [97, 50], "tie"),  # 130 success vs 147 success
])
def test_running_away_opposed_athletics(flee, chase, result):
    """Running Away: "Running Away is a Conflicting Action, resolved with an opposed Athletics Skill Roll" (bands
    from FACTS: "≤4 critical failure, 5-74 failure, 75-99 partial, 100-174 success, 175+ outstanding")."""
    enc = runaway_setup()
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=flee, athletics_c2=chase)
    assert enc.get("c1").data["run_away"]["vs"] == {"c2": result}


@pytest.mark.parametrize("flee, chase, prone", [([3, 10], 50, ["c1"]), (50, [2, 40], ["c2"]), (50, 50, [])])
def test_running_away_critical_failure_falls_prone(flee, chase, prone):
    """Running Away: "Any character rolling a Critical Failure trips and falls Prone."""
    enc = runaway_setup()
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=flee, athletics_c2=chase)
    assert [c.id for c in enc.combatants if "prone" in c.conditions] == prone
    if "c1" in prone:
        with pytest.raises(RuleViolation):
            do(enc, {"type": "tr.move", "id": "c1", "x": 20})


def test_running_away_win_moves_away():
    """Running Away: "If the fleeing character wins, they may immediately use a Full Action to move away from
    their attackers."""
    enc = runaway_setup(runner_athletics=40)
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=60, athletics_c2=30)
    assert enc.get("c1").data["engaged_with"] == []
    with pytest.raises(RuleViolation):  # the winner is not struck
        attack(enc, "c2", "c1", 50)
    enc, _ = do(enc, {"type": "tr.move", "id": "c1", "x": 20})
    assert enc.get("c1").position.x == 20


def test_running_away_lose_struck_on_rear():
    """Running Away: "If the attackers win, they may strike at the fleeing character (gaining the On Rear bonus)
    before they can get away. The fleeing character may then move out of reach if still standing."""
    enc = runaway_setup(shield=True)
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=30, athletics_c2=80)
    assert [s["explanation"] for s in RS.view(enc)["acting"]][0].startswith("strikes at the fleeing Runner with On Rear")
    enc, ev = attack(enc, "c2", "c1", 50)
    assert parts(ev, "cmb")["On Rear"] == 30 and "shield" not in parts(ev, "defense")
    with pytest.raises(RuleViolation):  # one strike only
        attack(enc, "c2", "c1", 50)
    enc, _ = do(enc, {"type": "tr.move", "id": "c1", "x": 20})
    assert enc.get("c1").data["engaged_with"] == [] and enc.get("c2").data["engaged_with"] == []


def test_running_away_tie_half_cmb():
    """Running Away: "On a tie, the attackers may strike at the fleeing character at half their normal CMB, after
    which the fleeing character may move away."""
    enc = runaway_setup()
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=40, athletics_c2=50)
    enc, ev = attack(enc, "c2", "c1", 50)
    assert sum(parts(ev, "cmb").values()) == 25 and "On Rear" not in parts(ev, "cmb")
    do(enc, {"type": "tr.move", "id": "c1", "x": 20})


def test_running_away_needs_engagement_and_move_phase():
    """Running Away: "A desperate character may attempt to simply flee, turning their back to their attackers"."""
    with pytest.raises(RuleViolation):
        do(to_phase(duel(), "move"), {"type": "tr.run_away", "id": "c1", "rolls": {"flee": 50}})


# == Ranged Attacks =================================================================================

@pytest.mark.parametrize("los, error", [(True, None), (False, RuleViolation), (None, InvalidAction)])
def test_ranged_needs_line_of_sight(los, error):
    """Ranged Attacks: "the character must have a clear Line of Sight to the target (they can see at least part
    of it)"."""
    enc = to_phase(duel(a_weapons=(BOW,)), "ranged_a")
    fields = {} if los is None else {"line_of_sight": los}
    if error:
        with pytest.raises(error):
            attack(enc, "c1", "c2", 50, distance=5, **fields)
    else:
        attack(enc, "c1", "c2", 50, distance=5, **fields)


def test_ranged_needs_target_within_range():
    """Ranged Attacks: "the target must be within the weapon's attack range"."""
    enc = to_phase(duel(a_weapons=(BOW,)), "ranged_a")
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", 50, line_of_sight=True, distance=40.5)
    assert e.value.rule == "Range Bands" and e.value.field == "target"  # said beside the attack form's Target


# == Range Bands ====================================================================================

@pytest.mark.parametrize("distance, modifier", [(0, 0), (10, 0), (10.5, -25), (20, -25), (25, -50), (30, -50),
                                                (35, -75), (40, -75), (41, None)])
def test_range_bands(distance, modifier):
    """Range Bands: "The distance to the target determines which range band applies and what CMB modifier is
    incurred" (FACTS: up to Base +0; up to 2× −25; up to 3× −50; up to 4× −75; over 4× cannot attack)."""
    enc = to_phase(fight(fighter("A", BOW), fighter("B", SWORD, x=distance)), "ranged_a")
    if modifier is None:
        with pytest.raises(RuleViolation):
            attack(enc, "c1", "c2", 50, line_of_sight=True)
        return
    _, ev = attack(enc, "c1", "c2", 50, line_of_sight=True)  # distance from the map
    assert ev["detail"]["total"] == 50 + 45 + modifier - 20


def test_range_bands_read_off_the_map_for_every_target():
    """Range Bands: "Each missile and thrown weapon has a Base Range value. The distance to the
    target determines which range band applies and what CMB modifier is incurred" (FACTS: up to
    Base +0; up to 2× −25; up to 3× −50; up to 4× −75; over 4× cannot attack), for each ranged
    weapon against each target at its distance on the map, the distance an attack measures; and
    Ranged Attacks: "must have a clear Line of Sight to the target": who stands on the line is
    named for the GM, never decided."""
    from fray.games.tactical_round.rules import map_ranges

    enc = fight(fighter("Archer", BOW, KNIFE, SWORD), fighter("Near", SWORD, x=0, y=8),
                fighter("Far", SWORD, x=25), fighter("Between", SWORD, x=12, y=0.5))
    got = map_ranges(enc, RS.all_tables(enc), "c1")
    assert got["attacker"] == "Archer"
    rows = {r["target"]: r for r in got["rows"]}
    assert list(rows) == ["Near", "Far", "Between"]
    assert rows["Near"]["metres"] == 8 and rows["Far"]["metres"] == 25
    # the bow (Base Range 10) and the thrown knife (5); the sword is not a ranged weapon
    assert [(b["weapon"], b["modifier"]) for b in rows["Near"]["bands"]] == [("Bow", 0), ("Knife", -25)]
    assert [(b["weapon"], b["modifier"], b["label"]) for b in rows["Far"]["bands"]] == [
        ("Bow", -50, "over 2x up to 3x"), ("Knife", None, None)]  # 25 m: over 4× the knife's 5 m
    assert rows["Far"]["in_the_way"] == ["Between"] and rows["Near"]["in_the_way"] == []
    # the band an attack from the map gets is the one listed
    enc = to_phase(enc, "ranged_a")
    _, ev = attack(enc, "c1", "c3", 50, line_of_sight=True)
    assert ev["detail"]["total"] == 50 + 45 - 50 - 20
    # nobody to measure from: no attacker, or one with no ranged weapon
    assert map_ranges(enc, RS.all_tables(enc), "c2") is None
    assert map_ranges(enc, RS.all_tables(enc), None) is None and map_ranges(enc, RS.all_tables(enc), "c9") is None


# == Reloading ======================================================================================

def test_missile_must_be_loaded_before_each_attack():
    """Reloading: "Missile weapons must be loaded before each attack."""
    enc = to_phase(duel(a_weapons=(BOW,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    assert RS.view(enc)["combatants"][0]["weapons"][0]["state"] == "empty"
    with pytest.raises(RuleViolation) as e:
        attack(to_phase(enc, "ranged_b"), "c1", "c2", 50, line_of_sight=True, distance=5)
    assert e.value.rule == "Reloading"


@pytest.mark.parametrize("weapon, reloads_needed", [(BOW, 1), (HEAVY, 2)])
def test_reload_full_or_multi_round(weapon, reloads_needed):
    """Reloading: "Reloading a missile weapon is a Full Action or a Multi-Round Action, depending on the weapon."""
    enc = to_phase(duel(a_weapons=(weapon,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    with pytest.raises(RuleViolation):  # a Full reload leaves no action to shoot with
        declare(enc, "c1", {"action": "reload", "weapon": 0},
                {"action": "ranged_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})
    assert enc.state["declared"]["c1"][0] == {"action": "reload", "weapon": 0, "target": None, "cost": "full",
                                              "done": False, "phase": "other"}
    for i in range(reloads_needed):
        assert not enc.get("c1").data["weapons"][0]["loaded"]
        enc, _ = do(to_phase(enc, "other"), {"type": "tr.reload", "id": "c1", "weapon": 0})
        if i + 1 < reloads_needed:
            enc = to_phase(enc, "assessment")
    assert enc.get("c1").data["weapons"][0]["loaded"]
    enc = to_phase(enc, "ranged_a")  # loaded before this round: Ranged A
    attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)


def test_quick_load_half_action_attack_same_round_in_ranged_b():
    """Reloading: "Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character to
    attack in the same Round." — loaded this round, it shoots in Ranged B (FACTS)."""
    enc = to_phase(duel(a_weapons=(QUICK,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0}, {"action": "ranged_attack", "weapon": 0,
                                                                 "target": "c2"})
    assert [(d["phase"], d["cost"]) for d in enc.state["declared"]["c1"]] == [("ranged_b", "half"),
                                                                            ("ranged_b", "full")]
    enc, _ = do(to_phase(enc, "ranged_b"), {"type": "tr.reload", "id": "c1", "weapon": 0})
    with pytest.raises(RuleViolation):  # loaded this round: not in Ranged A
        attack(dataclasses.replace(enc, phase="ranged_a"), "c1", "c2", 50, line_of_sight=True, distance=5)
    enc, ev = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    assert parts(ev, "cmb")["Full + Half action"] == -20


def test_ready_thrown_half_action():
    """Reloading: "Readying a thrown weapon is always a Half Action."""
    enc = to_phase(duel(a_weapons=(KNIFE,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=3)
    assert RS.view(enc)["combatants"][0]["weapons"][0]["state"] == "not readied"
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    enc = declare(enc, "c1", {"action": "ready_thrown", "weapon": 0},
                  {"action": "ranged_attack", "weapon": 0, "target": "c2"})
    assert enc.state["declared"]["c1"][0]["cost"] == "half"
    enc, _ = do(to_phase(enc, "ranged_b"), {"type": "tr.reload", "id": "c1", "weapon": 0})
    attack(enc, "c1", "c2", 50, line_of_sight=True, distance=3)


@pytest.mark.parametrize("act, phase, wrong", [("spell_prepared", "spell_a", "ranged_a"),
                                               ("spell_unprepared", "spell_b", "ranged_b")])
def test_bolt_spells_ranged_but_in_spell_phase(act, phase, wrong):
    """Reloading: "Bolt and Area Attack Spells count as Ranged Attacks but are still resolved in the Spell Phase of
    the TRS rather than the Ranged Phase."""
    enc = declare(duel(a_weapons=(BOLT,)), "c1", {"action": act, "weapon": 0, "target": "c2"})
    assert enc.state["declared"]["c1"][0]["phase"] == phase
    with pytest.raises(RuleViolation):
        attack(to_phase(enc, wrong), "c1", "c2", 50, line_of_sight=True, distance=45)
    _, ev = attack(to_phase(enc, phase), "c1", "c2", 50, line_of_sight=True, distance=45)
    assert parts(ev, "cmb")["range 45 m"] == -25  # a ranged attack: range bands apply


# == Tables, presets, view =========================================================================

def test_tables_carry_source_and_assumed_flag():
    """Tables are data (STYLE 10): each table has "id", "title", "source" and an "assumed" flag."""
    for tid, t in RS.tables.items():
        assert t["id"] == tid and t["title"] and t["source"] and isinstance(t["assumed"], bool)
        RS.check_table(tid, t)


@pytest.mark.parametrize("tid, bad, field", [
    ("range_bands", {"entries": [{"up_to_multiple": 2, "modifier": 0}, {"up_to_multiple": 1, "modifier": -5}]},
     "value.entries.1.up_to_multiple"),
    ("condition_modifiers", {"entries": [{"key": "flanking", "label": "F", "applies": "attack", "value": "x"}]},
     "value.entries.0.value"),
    ("cover", {"entries": [{"key": "partial", "label": "P", "bonus": 20}]}, "value.entries"),
    ("phases", {"entries": []}, "value.entries"),
    ("range_bands", {"entries": []}, "value.entries"),
    ("cover", {"into_melee": "huge"}, "value.into_melee"),
])
def test_check_table_refuses_bad_edits(tid, bad, field):
    """Tables (FACTS): "let the GM edit every table" — a bad edit is refused with the path of the bad value."""
    with pytest.raises(InvalidAction) as e:
        RS.check_table(tid, {**RS.tables[tid], **bad})
    assert e.value.field == field


def test_edited_table_is_used():
    """Tables (FACTS): "Encode them as data ... let the GM edit every table" — an edited Flanking bonus counts."""
    t = RS.tables["condition_modifiers"]
    edited = {**t, "entries": [dict(e, value=25) if e["key"] == "flanking" else e for e in t["entries"]]}
    enc, _ = do(duel(), {"type": "set_table", "table": "condition_modifiers", "value": edited})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50, flanking=True)
    assert parts(ev, "cmb")["Flanking"] == 25


def test_presets_are_valid_combatants():
    """Presets (issue 4): ready-made combatants: a swordsman with shield, a crossbowman, an orc, a beast."""
    names = [p["name"] for p in RS.presets()]
    assert {"Swordsman with shield", "Crossbowman", "Orc warrior", "Wolf"} <= set(names)
    enc = fight(*RS.presets())
    assert len(enc.combatants) == len(names)


# == Review: discrepancies found against the rule text =============================================

def test_multi_round_reload_takes_its_rounds():
    """Reloading: "Reloading a missile weapon is a Full Action or a Multi-Round Action, depending on the weapon." and
    "The number of Rounds required to reload is listed in the Weapon Table" — a 2-round weapon cannot be reloaded
    twice in one round."""
    enc = to_phase(duel(a_weapons=(HEAVY,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    enc, _ = do(to_phase(enc, "other"), {"type": "tr.reload", "id": "c1", "weapon": 0})
    with pytest.raises(RuleViolation) as e:
        do(enc, {"type": "tr.reload", "id": "c1", "weapon": 0})
    assert e.value.rule == "Reloading"
    assert not enc.get("c1").data["weapons"][0]["loaded"]
    enc, _ = do(to_phase(to_phase(enc, "assessment"), "other"), {"type": "tr.reload", "id": "c1", "weapon": 0})
    assert enc.get("c1").data["weapons"][0]["loaded"]


def test_quick_load_reloads_once_a_round():
    """Reloading: "Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character to
    attack in the same Round." — one reload per round: shoot, reload, shoot again, reload again is refused."""
    enc = to_phase(duel(a_weapons=(QUICK,)), "ranged_a")
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    enc, _ = do(to_phase(enc, "ranged_b"), {"type": "tr.reload", "id": "c1", "weapon": 0})
    enc, _ = attack(enc, "c1", "c2", 50, line_of_sight=True, distance=5)
    with pytest.raises(RuleViolation):
        do(enc, {"type": "tr.reload", "id": "c1", "weapon": 0})



@pytest.mark.parametrize("defender, attacker, phase, fields", [
    (BOW, BOW, "ranged_a", {"line_of_sight": True, "distance": 5}),      # archer behind cover vs an arrow
    (FIST, KNIFE, "ranged_a", {"line_of_sight": True, "distance": 3}),   # empty-handed behind cover vs a thrown knife
    (BOW, SPEAR, "melee", {}),                                           # archer behind cover vs a two-handed spear
])
def test_cover_parries_ranged_as_with_shield_even_unarmed(defender, attacker, phase, fields):
    """Cover: "Any character benefiting from Cover, of either type, can Parry ranged attacks and two-handed weapon
    attacks as if they were wielding a shield." — "any character", so an archer (who counts as unarmed) behind
    Cover parries the arrow just as a shield-bearer would."""
    enc = duel(a_weapons=(attacker,), b_weapons=(defender,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "partial", "against": "c1"})
    _, ev = attack(to_phase(enc, phase), "c1", "c2", 50, **fields)
    assert parts(ev, "defense")["parry"] == 20


def test_cover_does_not_let_unarmed_parry_one_handed_melee():
    """Cover: "... can Parry ranged attacks and two-handed weapon attacks as if they were wielding a shield" — only
    those: an unarmed character behind Cover still cannot Parry a one-handed sword ("Unarmed characters cannot
    Parry armed attacks")."""
    enc = duel(b_weapons=(FIST,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    enc, _ = do(enc, {"type": "tr.cover", "id": "c2", "cover": "partial", "against": "c1"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert "parry" not in parts(ev, "defense")



def test_spell_in_hand_counts_unarmed_for_parrying():
    """Parrying: "Unarmed characters cannot Parry armed attacks" — a Bolt spell is not a weapon to block a sword
    with, so a caster holding only a spell counts as unarmed (as a missile wielder does)."""
    enc = duel(b_weapons=(BOLT,))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    _, ev = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    assert "parry" not in parts(ev, "defense")



def test_parry_cannot_switch_opponent_after_parrying_this_round():
    """Parrying: "A character can only Parry attacks from a single opponent per Round" — once the parry has
    counted against one opponent, it cannot be turned on another in the same Round (next Round it can)."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD), fighter("C", SWORD))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    enc = to_phase(enc, "melee")
    enc, ev = attack(enc, "c1", "c2", 50)
    assert parts(ev, "defense")["parry"] == 20
    with pytest.raises(RuleViolation) as e:
        do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c3"})
    assert e.value.rule == "Parrying"
    do(enc, {"type": "tr.parry", "id": "c2", "amount": 10, "against": "c1"})  # same opponent: fine
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c3"})  # a new Round


def test_shield_may_add_opponents_after_parrying():
    """Parrying: "A character wielding a shield can Parry all attacks from multiple opponents on the shield's side
    in a single Round." — the single-opponent limit does not bind a shield-bearer."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD_SHIELD), fighter("C", SWORD))
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": "c1"})
    enc, _ = attack(to_phase(enc, "melee"), "c1", "c2", 50)
    enc, _ = do(enc, {"type": "tr.parry", "id": "c2", "amount": 20, "against": ["c1", "c3"]})
    _, ev = attack(enc, "c3", "c2", 50)
    assert parts(ev, "defense")["parry"] == 20



def test_disengage_and_move_in_same_round_refused():
    """Disengaging: "The character stops being Engaged at the end of the Other Actions Phase." with Melee Attacks:
    "Engaged characters cannot take Movement Actions unless they Disengage or Run Away first" — the Move phase comes
    before Other Actions, so a move cannot be declared in the Round of the Disengage."""
    enc, _ = attack(to_phase(duel(), "melee"), "c1", "c2", 50)
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c2", {"action": "disengage"}, {"action": "move"})
    assert e.value.rule == "Disengaging"



@pytest.mark.parametrize("phase, label", [
    ("assessment", "Assessment: the GM describes the situation"),
    ("declaration", "Declaration: everyone declares this round's actions"),
    ("move", "Move: movement, Running Away"),
    ("spell_a", "Spell A: prepared or instant spells"),
    ("ranged_a", "Ranged A: weapons loaded before the round, readied thrown weapons"),
    ("melee", "Melee: longest weapon first, then higher CMB"),
    ("ranged_b", "Ranged B: weapons loaded this round"),
    ("spell_b", "Spell B: unprepared spells"),
    ("other", "Other Actions: Disengage and Stunned end here"),
])
def test_view_phase_label_names_the_phase(phase, label):
    """Tactical Round Sequence (FACTS): "Spell A (prepared or instant spells), Ranged A (weapons loaded before the
    round, readied thrown weapons), Melee (longest weapon first; tie: higher CMB ...), Ranged B (weapons loaded this
    round), Spell B (unprepared spells), Other Actions (Disengage ends here; Stunned ends here)" — ``advance`` moves a
    whole phase, so the round bar shows ``view()["phase_label"]`` instead of a "Now:" combatant."""
    enc = to_phase(duel(), phase)
    assert RS.view(enc)["phase_label"] == label


def test_view_phase_label_follows_edited_titles_and_setup():
    """Tables (FACTS): "let the GM edit every table" — a renamed phase is named so in the label; before the fight
    the label says so."""
    assert RS.view(duel())["phase_label"] == "Setup: add combatants, then start the round"
    t = RS.tables["phases"]
    edited = {**t, "entries": [dict(e, title="Missiles I", label=None) if e["id"] == "ranged_a" else e
                               for e in t["entries"]]}
    edited["entries"] = [{k: v for k, v in e.items() if v is not None} for e in edited["entries"]]
    enc, _ = do(duel(), {"type": "set_table", "table": "phases", "value": edited})
    assert RS.view(to_phase(enc, "ranged_a"))["phase_label"] == \
        "Missiles I: weapons loaded before the round, readied thrown weapons"


def test_running_away_strike_only_before_the_runner_gets_away():
    """Running Away: "If the attackers win, they may strike at the fleeing character (gaining the On Rear bonus)
    before they can get away." — once the runner has moved away the strike is gone (and does not engage them
    again)."""
    enc = runaway_setup()
    enc, _ = do(enc, {"type": "tr.run_away", "id": "c1"}, flee=30, athletics_c2=80)
    enc, _ = do(enc, {"type": "tr.move", "id": "c1", "x": 20})
    assert [s["action"] for s in RS.view(enc)["acting"] if s["action"].startswith("strike:")] == []
    with pytest.raises(RuleViolation):
        attack(enc, "c2", "c1", 50)
    assert enc.get("c1").data["engaged_with"] == [] and enc.get("c2").data["engaged_with"] == []


def test_melee_order_gm_settles_equals_whatever_was_declared_first():
    """Tactical Round Sequence (FACTS): "Melee (longest weapon first; tie: higher CMB; equal: simultaneous)" — among
    equals the GM's order counts, not where the melee attack sat in each declaration (move first, then attack)."""
    enc = fight(fighter("A", SWORD), fighter("B", SWORD))
    enc = declare(enc, "c1", {"action": "move"}, {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = to_phase(enc, "melee")
    assert RS.view(enc)["acting"][0]["simultaneous_with"] == [RS.view(enc)["acting"][1]["action"]]
    for order in (["c1", "c2"], ["c2", "c1"]):
        enc, _ = do(enc, {"type": "reorder", "order": order})
        assert [a["combatant"] for a in RS.view(enc)["acting"]] == order
