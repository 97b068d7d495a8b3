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
