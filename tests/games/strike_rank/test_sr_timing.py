"""Timing: Melee Rounds, Strike Ranks, declaration, spells, attacks, movement, changes and aborts.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.strike_rank import rules
from sr_helpers import (BOW, RS, SWORD, actions, attack, declare, do, duel, fight, fighter,
                        texts, to_phase)


def test_combat_ruleset_registered_with_stats():
    """Combat: the chapter's combatants — "casting spells, attacking, moving" — need STR..CHA, Movement, HP."""
    keys = {s.key for s in RS.stats}
    assert {"STR", "CON", "SIZ", "INT", "POW", "DEX", "CHA", "move", "hp", "dodge", "ride", "first_aid"} <= keys
    assert RS.id == "strike-rank"


def test_time_melee_round_has_12_strike_ranks():
    """Time: "A MR is further divided into 12 Strike Ranks (SR, 1–12)"; roll-over past 12."""
    assert rules.LAST_SR == 12
    assert rules.rolled_over(12) == (0, 12)
    assert rules.rolled_over(13) == (1, 1)


def test_time_next_ends_the_round_and_opens_the_next_declarations_in_one_step():
    """Time: Melee Rounds follow one another; issue 10, "Fewer taps": "strike-rank's end of round takes one Next,
    not two" — unless the end of the MR put a question to the GM (an impale's half damage)."""
    nxt = {"type": "advance", "skip_empty": True}
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = do(enc, nxt)
    assert enc.phase == "resolve"
    enc, ev = do(enc, nxt)
    assert (enc.round, enc.phase) == (2, "declare")
    assert [e["text"] for e in ev if e["kind"] == "round"] == [
        "End of Melee Round 1", "Melee Round 2: declare actions"]
    # the plain advance still stops at the end of the MR
    enc = to_phase(duel(), "resolve")
    enc, _ = do(enc, {"type": "advance"})
    assert (enc.round, enc.phase) == (1, "end")


@pytest.mark.parametrize("sr,expected", [(16, (1, 4)), (15, (1, 3)), (24, (1, 12)), (25, (2, 1))])
def test_time_roll_over(sr, expected):
    """Action Declaration & Resolution: "an action started at SR 2 and requiring 13 SR to perform would
    finish on the next MR, at SR 3"; Casting Spells: "SR 16 would be SR 4 on the next MR"."""
    assert rules.rolled_over(sr) == expected


def test_declaration_then_resolution_in_sr_order():
    """Action Declaration & Resolution: "At the start of a MR, combatants declare their actions ... These
    actions are resolved in order of SR"."""
    enc = duel(fighter("Ana", side="party", DEX=16), fighter("Bor", DEX=8))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")  # 4+2+2 = 8
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # 1+2+2 = 5
    order = RS.order_of_play(enc)
    assert [(s.combatant_id, s.label) for s in order] == [("c1", "SR 5"), ("c2", "SR 8")]
    enc, ev = do(enc, {"type": "advance"})
    assert enc.phase == "resolve" and enc.state["sr"] == 5


def test_declaration_ties_higher_dex_first_then_gm():
    """Action Declaration & Resolution (FACTS): "Ties on the same SR: higher DEX acts first; then the GM decides"."""
    enc = fight(fighter("Ana", side="party", DEX=12), fighter("Bor", DEX=9), fighter("Cid", DEX=12, side="party"))
    enc = to_phase(enc, "declare")
    for cid, t in (("c1", "c2"), ("c2", "c1"), ("c3", "c2")):
        enc, _ = declare(enc, cid, kind="melee", weapon="broadsword", target=t)
    # all SR 7 (DEX SR 3 + SIZ 2 + weapon 2); DEX 12 beats 9; Ana and Cid tie on DEX
    assert [s.combatant_id for s in RS.order_of_play(enc)] == ["c1", "c3", "c2"]
    enc, _ = do(enc, {"type": "reorder", "order": ["c3", "c1"]})
    assert [s.combatant_id for s in RS.order_of_play(enc)] == ["c3", "c1", "c2"]


def test_declaration_changes_free_before_resolution():
    """Action Declaration & Resolution: "Declarations can be changed in reaction to others' declarations"."""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = do(enc, {"type": "sr.undeclare", "ref": "a1"})
    assert actions(enc, "c1") == []


def test_incapacitated_lose_later_actions():
    """Action Declaration & Resolution: "Characters who become incapacitated generally lose actions that would
    have resolved after they are incapacitated.\""""
    enc = to_phase(duel(fighter("Ana", side="party", DEX=16)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # SR 5
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")  # SR 7
    enc = to_phase(enc, "resolve")
    # Ana hits Bor's head for 8 (sword 1D8+1 = 7 +1D4 = 1): head 5 → -3 serious; CON test fails → unconscious
    enc, ev = attack(enc, ref="a1", rolls={"attack": 20, "location": 19, "damage": [6, 1], "wound.con_head": 99})
    assert "unconscious" in enc.get("c2").conditions
    assert actions(enc, "c2")[0]["status"] == "lost"


@pytest.mark.parametrize("spell,expected", [
    ({"name": "Bladesharp", "type": "battle", "intensity": 2}, "SR 5 = DEX 3 + intensity 2"),
    ({"name": "Disruption", "type": "battle", "intensity": 1, "boost": 2}, "SR 6 = DEX 3 + intensity 1 + boost 2"),
    ({"name": "Damage Boosting", "type": "sorcery", "manipulation": 3, "boost": 1},
     "SR 10 = DEX 3 + 2×manipulation 6 + boost 1"),
    ({"name": "Shield", "type": "rune"}, "SR 3 = DEX 3"),
    ({"name": "Spirit", "type": "spirit"}, "SR 12 = DEX 3 + rest of the MR 9 (manifests on SR 12)"),
])
def test_casting_spells_sr_by_type(spell, expected):
    """Casting Spells: "Battle magic: Intensity + boosting MP SR. Sorcery: (2 × total manipulation) + boosting
    MP. Spirits: All MR; spirit manifests on SR 12. Rune magic: No time; resolves at DEX SR.\""""
    assert rules.spell_sr(3, spell).text() == expected


def _caster(side="party", **kw):
    spells = [{"name": "Bladesharp", "type": "battle", "intensity": 4},
              {"name": "Heal", "type": "battle", "intensity": 2},
              {"name": "Shield", "type": "rune"},
              {"name": "Big", "type": "sorcery", "manipulation": 6, "boost": 2}]
    return fighter("Mage", side=side, spells=spells, **kw)


def test_casting_second_spell_plus_5_and_no_roll_over():
    """Casting Spells: "it takes 5 SR to prepare the second spell. (This cannot roll over; multiple spells are
    only possible if all finish in the same MR.)\""""
    enc = to_phase(duel(_caster(DEX=19)), "declare")  # DEX SR 0
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")  # SR 2
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")  # 2 + 5 + 2 = 9
    assert [a["sr"] for a in actions(enc, "c1")] == [2, 9]
    enc2 = to_phase(duel(_caster()), "declare")
    enc2, _ = declare(enc2, "c1", kind="spell", spell="bladesharp")  # SR 7
    with pytest.raises(RuleViolation, match="cannot roll over"):
        declare(enc2, "c1", kind="spell", spell="heal")  # 7 + 5 + 2 = 14


def test_casting_second_spell_refused_after_a_spell_that_rolls_over():
    """Casting Spells: "multiple spells are only possible if all finish in the same MR"; "Characters who cast a
    rune spell cannot cast any other spells"; "Characters cannot move while casting spells." A first spell that
    rolls over into the next MR (3 + 12 + 2 = SR 17 → SR 5 of MR 2) still counts in the MR it was declared."""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="big")
    with pytest.raises(RuleViolation, match="same MR"):
        declare(enc, "c1", kind="spell", spell="heal")
    with pytest.raises(RuleViolation, match="same MR"):
        declare(enc, "c1", kind="spell", spell="shield")
    with pytest.raises(RuleViolation, match="cannot move while casting"):
        declare(enc, "c1", kind="move", metres=6)
    # in MR 2 the rolled-over spell finishes at SR 5: a second spell is prepared 5 SR after it (5 + 5 + 2 = 12)
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")
    assert actions(enc, "c1")[-1]["text"] == "SR 12 = after first spell 5 + second spell 5 + intensity 2"


def test_casting_rune_spell_exclusive():
    """Casting Spells: "Characters who cast a rune spell cannot cast any other spells (including rune magic)
    in that MR.\""""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="shield")
    with pytest.raises(RuleViolation, match="rune spell"):
        declare(enc, "c1", kind="spell", spell="heal")


def test_casting_rolls_over_into_next_mr():
    """Casting Spells: "Casting can roll over into the next MR (e.g. SR 16 would be SR 4 on the next MR)."."""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="big")  # 3 + 12 + 2 = 17 → SR 5 of MR 2
    a = actions(enc, "c1")[0]
    assert (a["round"], a["sr"]) == (2, 5)
    enc = to_phase(enc, "end")
    enc = to_phase(enc, "declare")
    assert enc.round == 2 and [s.action_ref for s in RS.order_of_play(enc)] == [a["ref"]]


def test_casting_cannot_move():
    """Casting Spells: "Characters cannot move while casting spells.\""""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")
    with pytest.raises(RuleViolation, match="cannot move while casting"):
        declare(enc, "c1", kind="move", metres=6)


def test_casting_interrupted_by_damage_int_x3():
    """Casting Spells: "A character who takes damage, parries, or dodges while casting a spell must make an
    INT×3% test or be interrupted and lose the spell; they can start anew 5 SR later.\""""
    enc = to_phase(duel(fighter("Bor", side="party", DEX=16), _caster(side="foes")), "declare")
    enc, _ = declare(enc, "c2", kind="spell", spell="bladesharp")  # SR 7
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # SR 5
    enc = to_phase(enc, "resolve")
    # INT 12 × 3 = 36%: a 37 fails
    enc, ev = attack(enc, "c1", "c2", ref="a2", defence="dodge",
                     rolls={"attack": 20, "defence": 90, "concentration_defence": 37, "location": 1, "damage": [1, 1],
                            "wound.concentration": 20})
    spell = next(a for a in actions(enc, "c2") if a["kind"] == "spell")
    assert spell["status"] == "interrupted"
    assert "can start anew at SR 10" in texts(ev)


def test_casting_no_dex_treated_as_dex_sr_1():
    """Casting Spells: "Creatures with no DEX that are capable of casting spells are treated as having DEX SR 1.\""""
    enc = to_phase(duel(_caster(DEX=0)), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")
    assert actions(enc, "c1")[0]["sr"] == 3


@pytest.mark.parametrize("metres,running,expected", [(6, False, 2), (6, True, 1), (1, False, 1), (7, False, 3)])
def test_attacking_movement_delay(metres, running, expected):
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack
    will be delayed by 2 SR (or 1 SR if they run)"; Movement: "a minimum of 1 SR"."""
    assert rules.movement_sr(metres, 3, running).total == expected


def test_attacking_melee_sr_breakdown_from_map_distance():
    """Attacking: "Attacks are completed at DEX SR + SIZ SR + weapon SR for melee attacks"; distance from the map."""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=9)), "declare")
    enc, ev = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    a = actions(enc, "c1")[0]
    assert a["text"] == "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2"
    assert a["sr"] == 9


def test_attacking_missile_at_dex_sr():
    """Attacking: "or DEX SR for missile attacks\""""
    enc = to_phase(duel(fighter("Ana", BOW, side="party")), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2")
    assert actions(enc, "c1")[0]["text"] == "SR 3 = DEX 3"


def test_time_resolution_starts_at_sr_0_for_a_dex_19_archer():
    """Time: "These actions are resolved in order of SR, from 0 to 12"; FACTS.md: DEX "19+ → 0", so a missile
    attack at DEX SR can come at SR 0, and resolution starts there (it used to start at SR 1 regardless)."""
    enc = to_phase(duel(fighter("Ana", BOW, side="party", DEX=19)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2")
    assert actions(enc, "c1")[0]["sr"] == 0
    enc, ev = do(enc, {"type": "advance"})
    assert enc.phase == "resolve" and enc.state["sr"] == 0
    assert [e["text"] for e in ev if e["kind"] == "round"][0].startswith("Resolution begins at SR 0: Ana SR 0")


def test_attacking_cannot_roll_over():
    """Attacking: "Attacks cannot "roll over."\""""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=21)), "declare")
    with pytest.raises(RuleViolation, match="roll over"):
        declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # 7 + 6 SR for 18 m = 13


def test_attacking_multiple_attacks_each_full_sr():
    """Attacking: "Combatants with multiple melee attacks need the full SR for each.\""""
    enc = to_phase(duel(fighter("Ana", dict(SWORD, skill=120), side="party", DEX=19, SIZ=22)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2", attacks=2, split=[60, 60])
    assert [a["sr"] for a in actions(enc, "c1")] == [2, 4]


def test_combining_spell_and_attack_same_mr():
    """Combining Spells & Attacks: "Characters can cast spells and attacks in the same MR\""""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="heal")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    assert sorted(a["kind"] for a in actions(enc, "c1")) == ["melee", "spell"]


def test_defending_stance_has_no_sr_slot():
    """Defending: "They are resolved on the same SR as the attack, and do not delay other actions\""""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c2", kind="defend", stance="parry", weapon="shield")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    assert [s.combatant_id for s in RS.order_of_play(enc)] == ["c1"]


@pytest.mark.parametrize("metres,running,dex,ok", [(27, False, 11, True), (28, False, 11, False),
                                                   (54, True, 11, True), (36, False, 11, False)])
def test_movement_longer_movement_cap(metres, running, dex, ok):
    """Movement: "On the MR a character begins a longer movement, they can only move ([12 - DEX SR] × Movement
    rate) meters (double if running).\""""
    enc = to_phase(duel(), "declare")
    if ok:
        enc, _ = declare(enc, "c1", kind="move", metres=metres, running=running)
    else:
        with pytest.raises(RuleViolation, match="at most"):
            declare(enc, "c1", kind="move", metres=metres, running=running)


def test_movement_closing_adds_rates_and_one_run():
    """Movement: "If two combatants move to engage each other, add up their movement rates"; "Only one
    continuous running movement can be taken in a MR.\""""
    assert rules.movement_sr(12, 3, partner_rate=3).total == 2
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c1", kind="move", metres=6, running=True)
    with pytest.raises(RuleViolation, match="one continuous running"):
        declare(enc, "c1", kind="move", metres=6, running=True, continuing=True)


def test_movement_running_cannot_dodge():
    """Movement: "Running characters cannot dodge or parry.\""""
    enc = to_phase(duel(), "declare")
    enc, _ = declare(enc, "c2", kind="move", metres=12, running=True)
    with pytest.raises(RuleViolation, match="cannot dodge or parry"):
        attack(enc, defence="dodge", rolls={"attack": 20, "defence": 10})


def test_changing_actions_delay_by_dex_sr_and_lost_past_12():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If
    an attack is pushed past SR 12, it is lost.\""""
    enc = to_phase(fight(fighter("Ana", BOW, SWORD, side="party"), fighter("Bor")), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c2"})
    new = actions(enc, "c1")[-1]
    assert new["sr"] == 10 and new["text"] == ("SR 10 = SR 7 (the new action's own: DEX 3 + SIZ 2 + weapon 2; the change is made at SR 3) + DEX SR 3 "
                                           "(changing the declared action)")
    enc2 = to_phase(fight(fighter("Ana", BOW, SWORD, side="party", DEX=5), fighter("Bor", x=8)), "declare")
    enc2, _ = declare(enc2, "c1", kind="missile", weapon="bow", target="c2")
    enc2 = to_phase(enc2, "resolve")
    enc2, ev = do(enc2, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                         "target": "c2", "metres": 3})  # 5 + 2 + 2 + 1 + DEX 5 = 15
    assert actions(enc2, "c1")[-1]["status"] == "lost" and "lost" in texts(ev)


def test_aborting_actions_delay():
    """Aborting Actions: "the new action will be delayed by the combatant's DEX SR + the SR the action was
    aborted on.\""""
    enc = to_phase(duel(_caster()), "declare")
    enc, _ = declare(enc, "c1", kind="spell", spell="big")  # rolls over
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")  # SR 7
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 7
    enc, ev = do(enc, {"type": "sr.abort", "id": "c1", "ref": "a1", "kind": "other", "label": "draw dagger",
                       "sr_cost": 1})
    new = actions(enc, "c1")[-1]
    assert new["text"] == "SR 11 = SR 7 (when the action is aborted) + DEX SR 3 (aborting the action) + draw dagger 1"
    assert actions(enc, "c1")[0]["status"] == "aborted"


def test_aborting_surprise_no_actions_half_defence():
    """Aborting Actions: "Characters who are taken by surprise cannot take actions (attack, move, etc.) in the
    first Melee Round but may dodge and parry at half skill\""""
    enc = duel()
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "surprised"})
    enc = to_phase(enc, "declare")
    with pytest.raises(RuleViolation, match="surprised"):
        declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, ev = attack(enc, defence="dodge", rolls={"attack": 50, "defence": 21, "location": 1, "damage": [1, 1]})
    assert "40% → ×0.5 surprised = 20%" in texts(ev) and "rolled 21: failure" in texts(ev)


@pytest.mark.parametrize("dex,sr", [(1, 5), (5, 5), (6, 4), (8, 4), (9, 3), (12, 3), (13, 2), (15, 2), (16, 1),
                                    (18, 1), (19, 0), (30, 0)])
def test_attacking_dex_sr_table(dex, sr):
    """Attacking: "Attacks are completed at DEX SR + SIZ SR + weapon SR" (FACTS: DEX 1-5 → 5, 6-8 → 4, 9-12 → 3,
    13-15 → 2, 16-18 → 1, 19+ → 0)."""
    assert rules.dex_sr(dex, RS.tables["dex_sr"]) == sr


@pytest.mark.parametrize("siz,sr", [(1, 3), (6, 3), (7, 2), (14, 2), (15, 1), (21, 1), (22, 0), (60, 0)])
def test_attacking_siz_sr_table(siz, sr):
    """Attacking: "Attacks are completed at DEX SR + SIZ SR + weapon SR" (FACTS: SIZ 1-6 → 3, 7-14 → 2, 15-21 → 1,
    22+ → 0)."""
    assert rules.siz_sr(siz, RS.tables["siz_sr"]) == sr


def test_movement_toward_a_target_measured_on_the_map():
    """Movement: "Moving less than the full Movement rate still takes a minimum of 1 SR": a move
    declared toward a target with no metres takes the map distance less the engagement range
    (9 m apart → 6 m → 2 SR at Movement 3), as a melee attack's approach does."""
    enc = to_phase(duel(fighter("Ana", side="party", x=0), fighter("Bor", x=9)), "declare")
    enc, _ = declare(enc, "c1", kind="move", target="c2")
    view = RS.view(enc)["combatants"]["c1"]["declared"]
    assert [d["sr"] for d in view] == [2]
    assert "move 2" in view[0]["text"]


def test_declaration_ties_unsettled_by_the_gm_keep_the_order_they_joined():
    """Action Declaration & Resolution (FACTS): "Ties on the same SR: higher DEX acts first; then the GM
    decides". Until the GM decides, equals keep the order they joined the fight, numbers as numbers:
    c7 before c10 (as text "c10" sorted before "c7")."""
    enc = fight(*[fighter(f"Goblin {i}", side="foes" if i > 1 else "party", DEX=12) for i in range(1, 12)])
    enc = to_phase(enc, "declare")
    for i in range(1, 12):
        enc, _ = declare(enc, f"c{i}", kind="melee", weapon="broadsword", target="c2" if i == 1 else "c1")
    order = [s.combatant_id for s in RS.order_of_play(enc)]
    assert order == [f"c{i}" for i in range(1, 12)]
    # the GM's word still wins over the joining order
    enc, _ = do(enc, {"type": "reorder", "order": ["c10", "c7"]})
    order = [s.combatant_id for s in RS.order_of_play(enc)]
    assert order.index("c10") < order.index("c7")


def test_movement_two_closing_on_each_other_add_their_rates_in_both_declarations():
    """Movement: "If two combatants move to engage each other, add up their movement rates to figure out how many
    SR it takes for them to connect." (GM play-through: Knight 3 and Bandit 2 declared melee on each other and both
    got "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2"; at 3 + 3 = 6 m per SR the 5.1 m take 1 SR.)"""
    enc = to_phase(duel(fighter("Knight 3", side="party"), fighter("Bandit 2", x=8.1)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    assert actions(enc, "c1")[0]["text"] == "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2"  # alone, so far
    enc, ev = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    for cid in ("c1", "c2"):
        a = actions(enc, cid)[0]
        assert (a["sr"], a["text"]) == (8, "SR 8 = DEX 3 + SIZ 2 + weapon 2 + move 1"), cid
        assert "closing together" in a["note"]
    assert "Knight 3's melee attack with Broadsword now at SR 8" in texts(ev)
    assert RS.view(enc)["combatants"]["c1"]["declared"][0]["sr"] == 8
    # the other withdraws: the knight closes alone again, at his own Movement
    enc, _ = do(enc, {"type": "sr.undeclare", "ref": actions(enc, "c2")[0]["ref"]})
    assert actions(enc, "c1")[0]["text"] == "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2"
    # a move toward each other counts too; an attack on someone else does not
    enc, _ = declare(enc, "c2", kind="move", target="c1")
    assert actions(enc, "c1")[0]["sr"] == 8 and actions(enc, "c2")[0]["text"].startswith("SR 1 = move 1")


def test_movement_nothing_to_move_adds_no_move_sr():
    """Movement: "Moving less than the full Movement rate still takes a minimum of 1 SR" is for a move; with
    nothing to move there is no move. (GM play-through: "Knight 3 → Bandit 1 (0 m to move) SR 8 = ... + move 1":
    3.04 m apart, less than the decimetre the map draws beyond the engagement range, while another knight at
    3.0 m had no move term.)"""
    enc = to_phase(fight(fighter("Knight 3", side="party", x=3.04), fighter("Bandit 1"),
                         fighter("Knight 2", side="party", y=3.0)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c2")
    for cid in ("c1", "c3"):
        a = actions(enc, cid)[0]
        assert (a["sr"], a["text"], a["metres"], a["moving"]) == (7, "SR 7 = DEX 3 + SIZ 2 + weapon 2", 0, False), cid


def test_changing_actions_forced_when_the_declared_target_dies():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR ... A
    combatant may be forced to change actions, e.g. if the target of their attack dies." (GM play-through: Knight 3's
    attack declared against Knight 2, who died first, went silently to Bandit 3 at the old SR: no delay, no move.)"""
    enc = to_phase(fight(fighter("Bandit 1"), fighter("Knight 2", side="party", x=2), fighter("Bandit 3", x=9),
                         fighter("Archer", BOW, side="party", x=-20)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")  # SR 7, no move
    enc, _ = declare(enc, "c4", kind="missile", weapon="bow", target="c2")  # SR 3, beats him to it
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, "c4", "c2", weapon="bow", ref=actions(enc, "c4")[0]["ref"], rolls={"attack": 90})
    enc, _ = do(enc, {"type": "advance"})
    assert enc.state["sr"] == 7
    enc.get("c2").conditions.append("dead")  # as if the archer's shot had killed Knight 2
    ref = actions(enc, "c1")[0]["ref"]
    with pytest.raises(RuleViolation, match="Knight 2 is dead") as silent:
        attack(enc, "c1", "c3", ref=ref, rolls={"attack": 90})
    assert silent.value.rule == "Changing Actions"
    # the forced change: delayed by DEX SR 3, the 6 m to Bandit 3 (9 m off) worked out again
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": ref, "kind": "melee", "weapon": "broadsword",
                       "target": "c3"})
    new = [a for a in actions(enc, "c1") if a["status"] == "declared"][0]
    assert new["text"] == ("SR 12 = SR 9 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + move 2; the change is made at SR 7) + "
                           "DEX SR 3 (changing the declared action)")
    assert new["metres"] == 6


def test_movement_a_short_move_toward_a_foe_does_not_engage_so_adds_no_rates():
    """Movement: "If two combatants move to engage each other, add up their movement rates": a 6 m move toward a
    foe 15 m off closes but does not engage, so each keeps their own rate."""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=15)), "declare")
    enc, _ = declare(enc, "c1", kind="move", target="c2", metres=6)
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    assert actions(enc, "c1")[0]["text"] == "SR 2 = move 2 (closes 6 m at 3 m a strike rank: +2 SR)"
    assert actions(enc, "c2")[0]["note"] == "closes 12 m at 3 m a strike rank: +4 SR"
