"""Strike-rank rules a GM's play-through left: the fallen and the prone asked to keep their feet
after a knockback, a severed-limb question put to the dead, charges and braced spears not timed
again after a move, and a declaration's movement breakdown a GM had to decode.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fray.games.strike_rank import odds  # noqa: E402
from sr_helpers import RS, attack, do, fight, fighter, knight_and_bor, knight_charges, prompts, texts, to_phase  # noqa: E402

GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}

# -- 1. Knockback: "The target needs to make a DEX×5% roll or fall prone" ---------------------------------


def _blow_on(condition: str | None):
    """Ana's greatsword strikes Bor (armoured: the blow barely wounds) for a rolled 14 > SIZ 13: 3 m back."""
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2, armour=10)), "resolve")
    if condition:
        enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": condition, "on": True})
    return attack(enc, weapon="greatsword", rolls={"attack": 10, "location": 10, "damage": [5, 5, 2],
                                                    "knockback_dex": 1})


@pytest.mark.parametrize("condition", ["unconscious", "incapacitated"])
def test_one_who_cannot_act_makes_no_dex_roll_and_falls(condition):
    """Knockback: "The target needs to make a DEX×5% roll or fall prone." The roll is what keeps a knocked-back
    character on his feet; the unconscious and the incapacitated ("unable to take any action") cannot make it,
    so they go down where they land, and no DEX roll is made or logged."""
    enc, ev = _blow_on(condition)
    assert "Bor is knocked back 3 m (rolled damage 14 > SIZ 13)" in texts(ev)
    assert "DEX×5" not in texts(ev)
    assert f"Bor is {condition}: no DEX roll to keep their feet; falls prone" in texts(ev)
    assert "prone" in enc.get("c2").conditions


def test_one_already_down_makes_no_dex_roll():
    """Knockback: "The target needs to make a DEX×5% roll or fall prone." One already prone has no feet to
    keep: he is knocked back along the ground, with no roll."""
    enc, ev = _blow_on("prone")
    assert "Bor is knocked back 3 m" in texts(ev)
    assert "DEX×5" not in texts(ev)
    assert "Bor is already prone: no DEX roll" in texts(ev)
    assert "prone" in enc.get("c2").conditions


def test_one_standing_still_rolls():
    """Knockback: "The target needs to make a DEX×5% roll or fall prone": a standing, conscious target rolls."""
    enc, ev = _blow_on(None)
    assert "Bor keeps their feet: DEX×5 55%: rolled 1" in texts(ev)
    assert "prone" not in enc.get("c2").conditions


def test_the_odds_of_a_push_on_one_who_cannot_act_show_no_dex_roll():
    """Push: "Use the attacker's STR+SIZ instead of damage"; Knockback: "The target needs to make a DEX×5% roll
    or fall prone." The odds the page shows for a push on the unconscious offer no chance of keeping their
    feet, and on the prone no falling."""
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2)), "resolve")
    push = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "greatsword", "mode": "push",
            "defence": {"kind": "none"}}
    standing = odds.exchange_odds(RS, enc, push).alternative("none").effect
    assert any("keeps their feet" in k for k in standing)
    for condition, shown in (("unconscious", "Knocked back 6 m, falls prone"), ("prone", "Knocked back 6 m")):
        down, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": condition, "on": True})
        effect = odds.exchange_odds(RS, down, push).alternative("none").effect
        assert shown in effect and not any("keeps their feet" in k for k in effect), effect


@pytest.mark.parametrize("condition,said", [("unconscious", "Cal is unconscious: no DEX roll; falls prone"),
                                            ("prone", "Cal is already prone: no DEX roll")])
def test_one_struck_by_a_knocked_back_body_who_cannot_act_or_is_down_makes_no_dex_test(condition, said):
    """Colliding: "If knockback causes a combatant to collide with another combatant ..., that combatant must
    also make a DEX test or fall prone." The same test as the one knocked back makes: Cal, unconscious or
    already prone, makes none."""
    enc, _ = _blow_on(None)
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Cal", x=4, y=0)})
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": condition, "on": True})
    p = prompts(enc, "collision")[0]
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "combatant", "with": "c3",
                       "rolls": {"collision_dex": 1}})
    assert "Cal is struck" not in texts(ev) and "DEX×5" not in texts(ev)
    assert said in texts(ev)
    assert "prone" in enc.get("c3").conditions


# -- 2. Damage Equal to Triple Location HP: "Limb is mangled or severed" -------------------------------------


def _hurt(enc, where: str, amount: int):
    return do(enc, {"type": "sr.damage", "target": "c2", "location": where, "amount": amount})


def test_a_limb_mangled_by_the_blow_that_kills_asks_nothing_until_resuscitated():
    """Damage Equal to Triple Location HP: "Limb: Limb is mangled or severed; it is useless (as maimed) and bleeds
    1 total HP per MR." Mangled or severed, the limb is as useless and bleeds the same, and "Dead characters cannot
    do anything": the answer changes nothing for the dead, so Bor, killed by the blow, is not asked. Only healing
    tells the two apart ("Severed limbs can be re-attached by Heal Body"), and that matters once he lives again
    ("can be resuscitated and saved from death within 12 SR"): then the question is asked."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "chest", 5)  # total 13 − 5 = 8
    enc, ev = _hurt(enc, "left_arm", 12)  # arm HP 4 → −8: mangled; total −4: killed
    assert "dead" in enc.get("c2").conditions and "mangled" in texts(ev)
    assert prompts(enc, "severed") == [] and "is it severed?" not in texts(ev)
    enc, ev = do(enc, {"type": "sr.heal", "target": "c2", "location": "total", "kind": "rune", "points": 6})
    assert "Bor is resuscitated" in texts(ev)
    [p] = prompts(enc, "severed")
    assert p["text"] == "Bor's Left arm is mangled: is it severed?"


def test_an_open_severed_question_is_set_aside_when_its_combatant_dies():
    """"Limb is mangled or severed": the question stays open while Bor lives; "Dead characters cannot do anything",
    so when he dies it is set aside, said in the log, and asked again if he is resuscitated."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "left_arm", 12)  # mangled; total 13 − 12 = 1
    assert "dead" not in enc.get("c2").conditions and len(prompts(enc, "severed")) == 1
    enc, ev = _hurt(enc, "right_leg", 2)  # total −1: killed
    assert "dead" in enc.get("c2").conditions and prompts(enc, "severed") == []
    assert ("The question whether Bor's Left arm is severed is set aside: Bor is dead; it is asked again if Bor "
            "is resuscitated") in texts(ev)
    enc, _ = do(enc, {"type": "sr.heal", "target": "c2", "location": "total", "kind": "rune", "points": 6})
    assert [p["text"] for p in prompts(enc, "severed")] == ["Bor's Left arm is mangled: is it severed?"]


def test_a_limb_mangled_on_one_alive_is_still_asked():
    """"Limb is mangled or severed": the living are asked, as before."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "resolve")
    enc, _ = _hurt(enc, "left_arm", 12)
    assert [p["text"] for p in prompts(enc, "severed")] == ["Bor's Left arm is mangled: is it severed?"]


# -- 3. Charges, braced spears and closing together timed again after a move ---------------------------------

SPEAR = {"name": "Spear", "skill": 60, "damage": "1D8+1", "sr": 1, "hp": 10, "type": "impaling", "hafted": True,
         "spear": True, "hand": "both"}


def _sr(enc, cid: str) -> dict:
    return next(a for a in enc.state["actions"] if a["combatant"] == cid and a["status"] == "declared")


def test_a_braced_spear_follows_the_charge_it_waits_for():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement (ignoring
    DEX SR and SIZ SR)". Bor charges Ana from 9 m (6 m running at 6 m a strike rank: 1 SR); her braced spear strikes
    at SR 1 + 1 = 2. The GM drags Bor to 21 m: his charge now takes 3 SR, and her spear waits for it: SR 4, said in
    the log."""
    enc = to_phase(fight(fighter("Ana", SPEAR, side="party"), fighter("Bor", x=9)), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"})
    assert _sr(enc, "c1")["sr"] == 2
    enc, ev = do(enc, {"type": "move", "id": "c2", "x": 21, "y": 0})
    assert _sr(enc, "c2")["sr"] == 10  # DEX 3 + SIZ 2 + weapon 2 + move 3
    ana = _sr(enc, "c1")
    assert (ana["sr"], ana["text"]) == (4, "SR 4 = weapon 1 + charge 3 (braced: no DEX or SIZ SR)")
    assert "Bor was moved on the map: Ana's melee attack with Spear now at SR 4" in texts(ev)


def test_a_mounted_charge_is_timed_again_from_where_its_target_stands():
    """Mounted Charge & Lance: "the attack's SR is the weapon's SR + the SR required for the movement (ignoring DEX
    SR and SIZ SR)". The Knight's horse (Movement 8, running 16 m a strike rank) charges Bor 27 m off (24 m to
    close: 2 SR, SR 3); Bor is dragged 30 m further: 54 m to close is 4 SR, SR 5. The charge already begun keeps
    its benefits (the 20 m are the run it set off on)."""
    enc = knight_charges(knight_and_bor())
    assert _sr(enc, "c2")["sr"] == 3
    enc, ev = do(enc, {"type": "move", "id": "c3", "x": 57, "y": 0})
    knight = _sr(enc, "c2")
    assert knight["sr"] == 5 and knight["mounted_charge"] and knight["dm_from"] == "c1"
    assert knight["text"].startswith("SR 5 = weapon 1 + move 4"), knight["text"]
    assert "Bor was moved on the map: Knight's melee attack with Lance now at SR 5" in texts(ev)


def test_closing_together_on_the_gms_word_is_timed_again_with_both_rates():
    """Movement: "If two combatants move to engage each other, add up their movement rates to figure out how many
    SR it takes for them to connect." Ana closes on Bor 15 m off, the GM saying he comes too (12 m at 3 + 3 m a
    strike rank: 2 SR, SR 9). Bor is dragged to 27 m: 24 m at 6 m a strike rank is 4 SR, SR 11, still with both
    rates added."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=15)), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2",
                      "mutual": True})
    assert _sr(enc, "c1")["sr"] == 9
    enc, ev = do(enc, {"type": "move", "id": "c2", "x": 27, "y": 0})
    assert _sr(enc, "c1")["sr"] == 11, texts(ev)
    assert "Bor was moved on the map: Ana's melee attack with Broadsword now at SR 11" in texts(ev)


def test_a_mounted_charge_brought_under_20_m_keeps_its_benefits():
    """Mounted Charge & Lance: "Mounted combatants who charge at least 20m ... have several benefits": the charge
    set off over 24 m; Bor dragged to 12 m off does not undo the run begun. Timed again (9 m: 1 SR, SR 2), it
    still ignores DEX SR and SIZ SR and uses the mount's damage bonus."""
    enc = knight_charges(knight_and_bor())
    enc, _ = do(enc, {"type": "move", "id": "c3", "x": 12, "y": 0})
    knight = _sr(enc, "c2")
    assert (knight["sr"], knight["mounted_charge"], knight["dm_from"]) == (2, True, "c1")


# -- 4. A declaration's movement in words --------------------------------------------------------------------


def test_a_declarations_movement_is_said_in_words_in_the_log_and_on_screen():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR". The breakdown says it so a GM reads it at a glance: "closes 6 m at 3 m a strike rank:
    +2 SR", the same words in the log and in what the page shows (the view)."""
    from fray.games.strike_rank.view import view

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=9)), "declare")
    enc, ev = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"})
    shown = "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2 (closes 6 m at 3 m a strike rank: +2 SR)"
    assert f"Ana: melee attack with Broadsword at Bor: {shown}" in texts(ev)
    v = view(RS, enc)
    assert [o["text"] for o in v["order"]] == [shown]
    assert [a["text"] for a in v["combatants"]["c1"]["declared"]] == [shown]
    enc, ev = do(enc, {"type": "sr.declare", "id": "c2", "kind": "move", "metres": 6, "running": True})
    assert "Bor: moves: SR 1 = move 1 (moves 6 m running at 6 m a strike rank: +1 SR)" in texts(ev)
    enc, ev = do(enc, {"type": "move", "id": "c2", "x": 15, "y": 0})
    assert ("Bor was moved on the map: Ana's melee attack with Broadsword now at SR 11: SR 11 = DEX 3 + SIZ 2 + "
            "weapon 2 + move 4 (closes 12 m at 3 m a strike rank: +4 SR)") in texts(ev)


def test_closing_together_is_said_in_words():
    """Movement: "If two combatants move to engage each other, add up their movement rates": "closes 12 m at 6 m a
    strike rank, closing together: +2 SR"."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=15)), "declare")
    enc, ev = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2",
                       "mutual": True})
    assert "(closes 12 m at 6 m a strike rank, closing together: +2 SR)" in texts(ev)
