"""Strike-rank: a declared attack and its target, as a GM's play-through of the build found them: a target
killed and knocked back, a Change that loses the attack, another target picked in the attack form, and the
rolls of the living asked of one the same blow kills.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

from sr_helpers import actions, attack, declare, do, fight, fighter, texts, to_phase

GREATSWORD = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}
KILLING_BLOW = {"attack": 10, "damage": [8, 8, 4], "location": 12}  # 22 rolled to the chest: 5 m back, dead


def _no_collision(enc):
    p = next(p for p in enc.state["prompts"] if p["kind"] == "collision")
    return do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})


def _harrek_and_broo_4(**broo):
    """Harrek (SR 7 = DEX 3 + SIZ 2 + weapon 2) declared an attack on Broo 4, 2 m off; Cid's greatsword (SR 6)
    strikes Broo 4 first, from the north."""
    enc = fight(fighter("Harrek", side="party", x=0, y=0), fighter("Broo 4", x=2, y=0, **broo),
                fighter("Cid", GREATSWORD, side="party", x=2, y=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c3", kind="melee", weapon="greatsword", target="c2")
    assert [a["sr"] for a in enc.state["actions"]] == [7, 6]
    return to_phase(enc, "resolve")


def test_a_dead_bodys_knockback_retimes_no_one_closing_on_it():
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies."
    Knockback: "the target is knocked back 1 meter for every 5 points of damage". A GM's play: Broo 4, killed and
    knocked back at SR 6, took Harrek's declared attack on him to SR 10 ("Broo 4 was knocked back"), so no forced
    change came at SR 7. The body moving retimes no one: Harrek's attack stays at SR 7, where its target's death
    forces the change."""
    enc = _harrek_and_broo_4(hp=3)
    enc, ev = attack(enc, "c3", "c2", weapon="greatsword", ref="a2", rolls=KILLING_BLOW, move_token=True)
    assert "Broo 4 is killed" in texts(ev) and "knocked back 5 m" in texts(ev), texts(ev)
    enc, ev = _no_collision(enc)
    assert enc.get("c2").position.y == -5, texts(ev)
    harrek = actions(enc, "c1")[0]
    assert (harrek["status"], harrek["sr"]) == ("declared", 7), (harrek, texts(ev))
    assert "Harrek's" not in texts(ev), texts(ev)


def test_an_unconscious_bodys_knockback_retimes_no_one_closing_on_it():
    """"Characters who become incapacitated generally lose actions"; Changing Actions: "A combatant may be forced
    to change actions, e.g. if the target of their attack dies": one lying unconscious is out of the fight as the
    dead are, and where a blow sends him does not time again an attack on him that must change."""
    enc = _harrek_and_broo_4(armour=20)  # 22 rolled - 20 AP: a scratch, and 5 m back
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "unconscious"})
    enc, ev = attack(enc, "c3", "c2", weapon="greatsword", ref="a2", rolls=KILLING_BLOW, move_token=True)
    assert "knocked back 5 m" in texts(ev) and "dead" not in enc.get("c2").conditions, texts(ev)
    enc, ev = _no_collision(enc)
    harrek = actions(enc, "c1")[0]
    assert (harrek["status"], harrek["sr"]) == ("declared", 7), (harrek, texts(ev))


def test_a_blow_that_kills_asks_no_shock_test():
    """Vitals: "CON test or become incapacitated by shock until healed"; Death: "A character reduced to 0 total HP
    or below is killed." A blow that maims Bor's chest and takes his total HP below 0 rolls no CON test for shock:
    the dead make no such roll (it was rolled, then he died)."""
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=2))
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": "left_leg", "amount": 5})
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 12,
                       "rolls": {"gm.con_shock": [10]}})
    assert "Bor is killed" in texts(ev), texts(ev)
    assert "shock" not in texts(ev), texts(ev)
    assert "incapacitated" not in enc.get("c2").conditions


def test_a_blow_that_kills_asks_no_con_test_for_the_head():
    """Head: "Combatant must make a CON test or be knocked unconscious"; Death: "A character reduced to 0 total HP
    or below is killed." A serious head wound that also takes Bor below 0 total HP rolls no CON test."""
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=2))
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": "left_leg", "amount": 5})
    enc, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": "right_leg", "amount": 4})
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "head", "amount": 5,
                       "rolls": {"gm.con_head": [90]}})
    assert "Bor is killed" in texts(ev), texts(ev)
    assert "head wound" not in texts(ev) and "CON×" not in texts(ev), texts(ev)


def test_a_blow_that_kills_a_caster_asks_no_concentration():
    """"A character who takes damage ... while casting a spell must make an INT×3% test or be interrupted";
    Death: "A character reduced to 0 total HP or below is killed": the dead keep no concentration to test."""
    spell = {"id": "bladesharp", "name": "Bladesharp", "type": "battle", "intensity": 2}
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=2, spells=[spell], hp=3))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="spell", spell="bladesharp")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 5,
                       "rolls": {"gm.concentration": [99], "gm.con_shock": [10]}})
    assert "Bor is killed" in texts(ev), texts(ev)
    assert "INT×" not in texts(ev) and "casting" not in texts(ev), texts(ev)


def _changing_at_sr_8():
    """Ana waits (an Other action of 5 SR: SR 8), Bor, 2 m off, attacks her at SR 7 and misses: at SR 8 Ana changes
    her action to a melee attack on him, whose own SR 7 = DEX 3 + SIZ 2 + weapon 2 is past."""
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="other", label="wait", sr_cost=5)
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, "c2", "c1", ref="a2", rolls={"attack": 90})
    enc, _ = do(enc, {"type": "advance"})
    assert enc.state["sr"] == 8
    return enc


def test_a_change_says_the_rule_in_its_breakdown():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." The
    breakdown says it as the rule does: "SR 11 = SR 8 (when the change is made) + DEX SR 3 (changing the declared
    action)", not "SR 11 = from SR 1 + changed: DEX 3 + DEX 3 + SIZ 2 + weapon 2"."""
    enc = _changing_at_sr_8()
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c2"})
    new = actions(enc, "c1")[-1]
    assert new["sr"] == 11 and new["status"] == "declared", new
    assert new["text"] == "SR 11 = SR 8 (when the change is made) + DEX SR 3 (changing the declared action)", new
    assert "SR 11 = SR 8 (when the change is made) + DEX SR 3 (changing the declared action)" in texts(ev)


def test_a_change_that_loses_the_attack_says_so_in_the_rules_words():
    """Changing Actions: "If an attack is pushed past SR 12, it is lost." A change at SR 10: "SR 13 = SR 10 (when
    the change is made) + DEX SR 3 (changing the declared action) is past SR 12: the attack is lost"."""
    enc = fight(fighter("Ana", side="party"), fighter("Bor", x=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="other", label="wait", sr_cost=7)
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 10
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c2"})
    assert actions(enc, "c1")[-1]["status"] == "lost"
    assert ("Ana: SR 13 = SR 10 (when the change is made) + DEX SR 3 (changing the declared action) is past SR 12: "
            "the attack is lost") in texts(ev), texts(ev)


def _harrek_on_broo_1():
    """Harrek declared an attack on Broo 1 (SR 7 = DEX 3 + SIZ 2 + weapon 2); Broo 2 stands beside him, as near."""
    enc = fight(fighter("Harrek", side="party", x=0, y=0), fighter("Broo 1", x=2, y=0), fighter("Broo 2", x=0, y=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    return to_phase(enc, "resolve")


def test_another_target_than_declared_is_a_change():
    """Action Declaration & Resolution: "Declarations can be changed in reaction to others' declarations, within
    reason. Once resolution begins, changes come at a cost."; Changing Actions: "Changing your declared action
    during a MR delays action by the combatant's DEX SR." A GM's play: Harrek, declared on Broo 1, struck Broo 2
    at his SR with nothing logged. The blow on another target is refused, at the Target, in the GM's words; the
    change to Broo 2 comes DEX SR 3 later, logged. (The text frees no switch: even a target that dies forces a
    change, "A combatant may be forced to change actions, e.g. if the target of their attack dies".)"""
    import pytest
    from fray.errors import RuleViolation

    enc = _harrek_on_broo_1()
    with pytest.raises(RuleViolation) as refused:
        attack(enc, "c1", "c3", ref="a1", rolls={"attack": 10})
    assert refused.value.rule == "Changing Actions" and refused.value.field == "target", refused.value
    assert str(refused.value.args[-1]).startswith("Broo 2 was not declared: Harrek's attack was declared against "
                                                  "Broo 1; changing the target delays it by DEX SR 3"), refused.value
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c3"})
    new = actions(enc, "c1")[-1]
    assert (new["target"], new["sr"], new["status"]) == ("c3", 10, "declared"), new
    assert ("Harrek: melee attack with Broadsword at Broo 2: SR 10 = SR 7 (the new action's own: DEX 3 + SIZ 2 + "
            "weapon 2; the change is made at SR 7) + DEX SR 3 (changing the declared action)") in texts(ev)
    # the declared target itself is struck as declared, at no cost
    enc2 = _harrek_on_broo_1()
    enc2, ev = attack(enc2, "c1", "c2", ref="a1", rolls={"attack": 90})
    assert "Harrek attacks Broo 1" in texts(ev), texts(ev)


# -- on screen: what a change costs, said before the GM confirms it ------------------------------------------


def _screen(markup) -> str:
    import re
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(markup)))


def test_the_forced_change_says_before_the_gm_confirms_that_the_attack_would_be_lost():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: Harrek's attack at SR 10, its target dead, offered
    "Change", which gave "... is past SR 12: the attack is lost" with no warning. The forced change says so first,
    and its button too."""
    from sr_helpers import attack_form

    enc = fight(fighter("Harrek", side="party", x=0, y=0), fighter("Broo 4", x=2, y=0), fighter("Broo 5", x=0, y=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc.state["sr"] = 10  # (as if SR 10 were reached: Harrek's attack waits there)
    enc.state["actions"][0]["sr"] = 10
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    box = _screen(attack_form(enc, "c1"))
    assert "Harrek's attack must change" in box, box
    assert "Changing now costs DEX SR 3: SR 13, past SR 12, the attack would be lost." in box, box
    assert "Change: the attack is lost" in box, box


def test_the_attack_form_says_another_target_is_a_change_and_what_it_costs():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A GM's
    play: Harrek, declared on Broo 1, picked Broo 2 in the attack form and struck at once, nothing logged. Beside
    the Target the form says "Broo 2 was not declared: changing the target costs DEX SR 3, strikes at SR 10", and
    its button changes the target rather than rolling the exchange."""
    from fray.games.strike_rank.web.attack import attack_html, change_costs
    from fray.games.strike_rank.web.ui import StrikeRankUi
    from sr_helpers import RS

    enc = _harrek_on_broo_1()
    view = RS.view(enc)
    ui = StrikeRankUi(target={"a1": "c3"})
    ui.retarget = change_costs(enc, view, ui.target)
    o = next(o for o in view["order"] if o["combatant"] == "c1")
    form = str(attack_html(view, o, ui))
    target = form.split('data-field="target"')[1].split("</div>")[0]
    assert "Broo 2 was not declared: changing the target costs DEX SR 3, strikes at SR 10" in _screen(target), target
    assert 'data-retarget="yes"' in form and "Change the target to Broo 2" in _screen(form), form
    assert "Roll the exchange" not in _screen(form)
    # the declared target again: the plain attack form
    back = str(attack_html(view, o, StrikeRankUi(target={"a1": "c2"}, retarget={})))
    assert "Roll the exchange" in _screen(back) and "not declared" not in back


def test_the_forced_change_says_what_changing_to_the_enemy_it_is_set_on_costs():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." Harrek's attack at SR 10 (9 m to close), its target dead: the forced
    change, set on Broo 5 further on, says what that change gives, worked out by the engine's own change."""
    from fray.games.strike_rank.web.attack import attack_html, change_costs
    from fray.games.strike_rank.web.ui import StrikeRankUi
    from sr_helpers import RS

    enc = fight(fighter("Harrek", side="party", x=0, y=0), fighter("Broo 4", x=12, y=0), fighter("Broo 5", x=12, y=2))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 10
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    view = RS.view(enc)
    ui = StrikeRankUi(retarget=change_costs(enc, view, {}))
    o = next(o for o in view["order"] if o["combatant"] == "c1")
    box = _screen(attack_html(view, o, ui))
    assert "Changing now to Broo 5 costs DEX SR 3: SR 14, past SR 12, the attack would be lost." in box, box
    assert "Change: the attack is lost" in box, box
    changed, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                           "target": "c3"})
    assert actions(changed, "c1")[-1]["status"] == "lost", texts(ev)
    assert ("Harrek: SR 14 = SR 11 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + move 4; the change is made at "
            "SR 10) + DEX SR 3 (changing the declared action) is past SR 12: the attack is lost") in texts(ev), texts(ev)


def test_every_change_says_where_it_starts_and_what_is_added_one_way():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A GM's
    play: a change to Parry read "SR 8 = SR 6 (when the change is made) + DEX SR 2 (changing the declared action)"
    but a change to a melee attack "SR 11 = DEX SR 3 (changing the declared action) + DEX 3 + SIZ 2 + weapon 2 +
    move 1", with nothing of when the change was made. Both now say where the action starts, then the delay: the
    SR the change is made at, or the new action's own SR when that is later (nothing comes earlier than it)."""
    enc = _harrek_on_broo_1()  # at SR 7, Harrek's attack on Broo 1; Broo 2 as near
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c3"})
    new = actions(enc, "c1")[-1]
    assert new["sr"] == 10, new
    assert new["text"] == ("SR 10 = SR 7 (the new action's own: DEX 3 + SIZ 2 + weapon 2; the change is made at SR 7)"
                           " + DEX SR 3 (changing the declared action)"), new
    assert ("Harrek: melee attack with Broadsword at Broo 2: SR 10 = SR 7 (the new action's own: DEX 3 + SIZ 2 + "
            "weapon 2; the change is made at SR 7) + DEX SR 3 (changing the declared action)") in texts(ev), texts(ev)
    enc = _changing_at_sr_8()  # the new action's own SR 7 is past: it starts when the change is made
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c2"})
    assert actions(enc, "c1")[-1]["text"] == ("SR 11 = SR 8 (when the change is made) + DEX SR 3 (changing the "
                                              "declared action)")


def test_an_abort_is_delayed_by_dex_sr_and_the_sr_aborted_on_only():
    """Aborting Actions: "A character taking a prolonged action (e.g. spellcasting) can abort it to take a
    different action, but the new action will be delayed by the combatant's DEX SR + the SR the action was aborted
    on." A GM's play read "SR 12 = SR 5 (when the action is aborted) + DEX SR 3 (aborting the action) + SIZ 2 +
    weapon 2": the text adds no SIZ or weapon SR. An attack on a foe in reach comes at SR 5 + DEX SR 3 = SR 8."""
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=2, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="other", label="pray", sr_cost=9)
    enc, _ = declare(enc, "c2", kind="other", label="wait", sr_cost=2)  # something at SR 5 to stop on
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 5, enc.state["sr"]
    enc, ev = do(enc, {"type": "sr.abort", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                       "target": "c2"})
    new = actions(enc, "c1")[-1]
    assert (new["sr"], new["text"]) == (8, "SR 8 = SR 5 (when the action is aborted) + DEX SR 3 (aborting the "
                                           "action)"), new


def test_a_change_to_a_melee_attack_times_the_move_and_defaults_to_the_foe_she_is_engaged_with():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR."; Melee
    Combat: "Combatants who are not engaged at the start of the MR must move 6m to get within melee range". A GM's
    play: Ayla's shot at the charging wolf, changed to a melee attack, kept the wolf far off as its Target and
    its Metres at the shot's 0, so "SR 9 = DEX SR 2 ... + weapon 3" had no movement. The change form starts on
    the foe she is engaged with and leaves Metres blank (from the map): a change to the far wolf is then timed
    with its move, as a declared attack is."""
    import re

    from fray.games.strike_rank.web.declare import change_html
    from sr_helpers import BOW, RS, SWORD

    enc = fight(fighter("Ayla", BOW, SWORD, side="party", x=0, y=0), fighter("Wolf", x=12, y=0),
                fighter("Broo", x=2, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2")
    enc = to_phase(enc, "resolve")
    form = str(change_html(RS.view(enc), "a1"))
    target = re.search(r'<select[^>]*name="target".*?</select>', form, re.S).group(0)
    assert re.search(r'<option[^>]*value="c3"[^>]*selected', target), target
    assert re.search(r'<input[^>]*name="metres"[^>]*value=""', form) or not re.search(
        r'<input[^>]*name="metres"[^>]*value="[^"]', form), form
    changed, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": "a1", "kind": "melee", "weapon": "broadsword",
                           "target": "c2"})
    assert "move" in [p[0] for p in actions(changed, "c1")[-1]["parts"]], texts(ev)
