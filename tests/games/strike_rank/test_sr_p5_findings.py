"""Strike-rank findings of a GM's fifth play-through: old questions left open, a closing pair timed at
two rates, a changed attack with no weapon, a spell's default target, smaller wording and counting.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import RS, SPEAR, actions, attack, declare, do, fight, fighter, knight_and_bor, prompts, texts, to_phase  # noqa: E402,F401


def test_a_rider_and_his_foe_closing_on_each_other_share_one_rate():
    """Movement: "If two combatants move to engage each other, add up their movement rates to figure out
    how many SR it takes for them to connect." A rider comes at his horse's rate (8 m) and Bor on his
    own feet (3 m): both lines close at 11 m a strike rank (a GM's play: the Broo's line said 6 m, the
    rider's own feet counted, not the horse's)."""
    enc = to_phase(knight_and_bor(30), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="lance", target="c3")
    enc, ev = declare(enc, "c3", kind="melee", weapon="broadsword", target="c2")
    knight, bor = actions(enc, "c2")[0], actions(enc, "c3")[0]
    assert "at 11 m a strike rank, closing together" in knight["note"], knight["note"]
    assert "at 11 m a strike rank, closing together" in bor["note"], bor["note"]
    assert " 6 m a strike rank" not in texts(ev)
    assert dict(bor["parts"])["move"] == dict(knight["parts"])["move"] == 3  # 27 m / 11 m, rounded up


GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def _impaled():
    """Ana's spear impales Bor (a special hit to the chest): the question whether she frees it is open."""
    enc = to_phase(fight(fighter("Ana", SPEAR, side="party"), fighter("Bor", hp=30), fighter("Cid", side="party")),
                   "resolve")
    enc, ev = attack(enc, weapon="spear", rolls={"attack": 10, "location": 12, "damage": [1, 1, 1]})
    assert "Spear impales Bor's Chest and is stuck" in texts(ev)
    assert prompts(enc, "unstick")
    return enc


def test_the_question_whether_to_free_a_stuck_weapon_closes_when_its_body_dies():
    """Impale: "A melee attacker can make a weapon skill test at half rating to immediately free the weapon. If
    this fails, further attempts take 1 MR each". A GM's play: "may free Spear now ... hold on, or let go" of a wolf
    killed since was still open two MRs later. The body dead, the question closes, said in the log; the spear
    stays stuck in it until freed."""
    enc = _impaled()
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    assert not prompts(enc, "unstick")
    assert ("The question whether Ana frees Spear at once is closed: Bor is dead; Spear stays stuck in Bor's Chest "
            "until freed (Stuck weapons on the card: 1 MR an attempt)") in texts(ev)
    assert enc.get("c2").data["impaled"][0]["weapon"] == "spear"
    assert enc.get("c1").data["weapons"][0]["stuck_in"]["combatant"] == "c2"


def test_the_question_whether_to_free_a_stuck_weapon_closes_when_its_melee_round_is_over():
    """Impale: "A melee attacker can make a weapon skill test at half rating to immediately free the weapon. If
    this fails, further attempts take 1 MR each". "Immediately" is the MR of the blow: unanswered, the question
    closes as that MR ends, logged under it; the weapon stays stuck."""
    enc = _impaled()
    enc = to_phase(enc, "end")
    enc, ev = do(enc, {"type": "advance"})
    assert not prompts(enc, "unstick")
    closed = next(e for e in ev if "frees Spear at once is closed" in e["text"])
    assert "Melee Round 1 is over" in closed["text"]
    assert closed.get("round", 1) == 1
    assert enc.get("c2").data["impaled"]


def test_the_question_whether_to_free_a_stuck_weapon_closes_when_its_wielder_falls():
    """Impale: "A melee attacker can make a weapon skill test at half rating to immediately free the weapon."
    "Dead characters cannot do anything": Ana dead, she frees nothing; the question closes."""
    enc = _impaled()
    enc, ev = do(enc, {"type": "set_condition", "id": "c1", "condition": "dead", "on": True})
    assert not prompts(enc, "unstick")
    assert "The question whether Ana frees Spear at once is closed: Ana is dead" in texts(ev)


def _knocked_back():
    enc = to_phase(fight(fighter("Ana", GREAT, side="party"), fighter("Bor", x=2, armour=10)), "resolve")
    enc, ev = attack(enc, weapon="greatsword", rolls={"attack": 10, "location": 10, "damage": [5, 5, 2],
                                                      "knockback_dex": 1})
    assert prompts(enc, "collision")
    return enc


def test_a_collision_question_closes_when_the_one_knocked_back_dies_since():
    """Knockback, Colliding: "If knockback causes a combatant to collide with another combatant ... that combatant
    must also make a DEX test or fall prone." A GM's play: a collision question about one since dead was open two MRs
    later. Closed, said in the log; the token stays where it is."""
    enc = _knocked_back()
    at = enc.get("c2").position
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    assert not prompts(enc, "collision")
    assert ("The question whether Bor, knocked back 3 m, collided with anyone is closed: Bor is dead; no collision "
            "is counted, the token stays where it is (move it on the map if it lies elsewhere)") in texts(ev)
    assert enc.get("c2").position == at


def test_a_collision_question_closes_when_its_melee_round_is_over():
    """Knockback: "the target is knocked back 1 meter for every 5 points of damage"; Colliding: "If knockback causes
    a combatant to collide ...". The collision is the knockback's own moment: once its MR is over, the question
    closes by itself (logged)."""
    enc = _knocked_back()
    enc = to_phase(enc, "end")
    enc, ev = do(enc, {"type": "advance"})
    assert not prompts(enc, "collision")
    assert "collided with anyone is closed: Melee Round 1 is over" in texts(ev)


def test_a_question_of_the_living_in_the_same_melee_round_stays_open():
    """Knockback, Colliding: the question stays the GM's while its moment lasts: one standing, the MR not over."""
    enc = _knocked_back()
    enc, ev = do(enc, {"type": "set_condition", "id": "c1", "condition": "dead", "on": True})
    assert prompts(enc, "collision")


def test_the_end_of_round_question_on_the_impaled_closes_when_they_die_or_a_round_more_passes():
    """Impale: "An impaled character suffers half the weapon's damage (roll, halve, and round; no damage modifier)
    each MR they move or fight." Asked as the MR ends, of that MR: open through the next MR, closed (logged) when that
    one ends too or the impaled one dies ("Dead characters cannot do anything")."""
    enc = _impaled()
    enc, _ = do(enc, {"type": "sr.answer", "prompt": prompts(enc, "unstick")[0]["id"], "choice": "let_go"})
    enc = to_phase(enc, "end")
    assert len(prompts(enc, "impaled")) == 1
    enc, ev = do(enc, {"type": "advance"})  # MR 2 begins: the question on MR 1 is still the GM's
    assert len(prompts(enc, "impaled")) == 1
    later = to_phase(enc, "end")
    later, ev = do(later, {"type": "advance"})
    assert [p["round"] for p in prompts(later, "impaled")] == [2]
    assert ("The question whether Bor moved or fought in Melee Round 1 with a weapon stuck is closed: Melee Round 2 "
            "is over too; no damage from it is counted") in texts(ev)
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    assert not prompts(enc, "impaled")
    assert "moved or fought in Melee Round 1 with a weapon stuck is closed: Bor is dead" in texts(ev)


# -- Change… to a melee attack: the weapon ------------------------------------------------------------


def _dodging():
    """Ana declared a dodge (a defence with no weapon); resolution begins, Bor's attack at SR 7."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2)), "declare")
    enc, _ = declare(enc, "c1", kind="defend", stance="dodge")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    return to_phase(enc, "resolve")


def test_a_change_to_a_melee_attack_with_no_weapon_says_choose_a_weapon():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A
    GM's play: Change… to a melee attack, the Weapon left on "(none)", was refused with "does not carry that
    weapon". Nothing chosen is said as such, beside the field."""
    import pytest
    from fray.errors import InvalidAction

    enc = _dodging()
    ref = actions(enc, "c1")[0]["ref"]
    with pytest.raises(InvalidAction) as e:
        do(enc, {"type": "sr.change", "id": "c1", "ref": ref, "kind": "melee", "weapon": "", "target": "c2"})
    assert e.value.field == "weapon"
    assert "choose a weapon" in str(e.value) and "does not carry" not in str(e.value)


def test_the_change_form_starts_on_the_weapon_in_hand():
    """Changing Actions: the change is a new declaration; its form starts on the weapon the combatant fights with
    (the first melee weapon he carries, not his shield), never on "(none)" (a GM's play: the Weapon stayed "(none)"
    and the change was refused)."""
    from fray.games.strike_rank.web.declare import change_html

    enc = _dodging()
    ref = actions(enc, "c1")[0]["ref"]
    form = str(change_html(RS.view(enc), ref))
    assert 'data-melee-weapon="broadsword"' in form, form


# -- whom a spell is cast on ---------------------------------------------------------------------------

BLADESHARP = {"name": "Bladesharp", "type": "battle", "intensity": 2}
DISRUPTION = {"name": "Disruption", "type": "battle", "intensity": 1}


def test_the_spell_table_says_whom_a_spell_is_cast_on_marked_assumed():
    """Combining Spells & Attacks: "Characters can cast spells and attacks in the same MR, e.g. casting Speedart on
    an arrow before shooting it." The text says nothing of whom a spell is cast on: the ``spells`` table says it,
    marked assumed, editable as the other tables (a GM's play: Bladesharp and Speedart started on a foe)."""
    from fray.games.strike_rank import rules

    t = RS.tables["spells"]
    assert t["assumed"] is True and t["source"].startswith("assumed")
    assert rules.cast_on(t, "Bladesharp") == rules.cast_on(t, "speedart") == "self"
    assert rules.cast_on(t, "Disruption") == "foe" and rules.cast_on(t, "Heal") == "ally"
    assert rules.cast_on(t, "Unknown Spell") == ""
    enc = fight(fighter("Ana", side="party", spells=[BLADESHARP]), fighter("Bor", x=2))
    edited = {**t, "entries": [{"spell": "Bladesharp", "cast_on": "foe"}]}
    enc, _ = do(enc, {"type": "set_table", "table": "spells", "value": edited})
    assert RS.view(enc)["combatants"]["c1"]["spells"][0]["cast_on"] == "foe"


def test_a_spell_declaration_starts_its_target_on_whom_the_table_says():
    """Casting Spells: "Spellcasting begins at DEX SR". The declaration's Target for Bladesharp starts on the caster,
    for Disruption on the foe (the page sets it as the spell is picked: ``data-spell-targets``)."""
    from fray.games.strike_rank.web.declare import declare_form

    enc = to_phase(fight(fighter("Ana", side="party", spells=[BLADESHARP, DISRUPTION]), fighter("Bor", x=2)), "declare")
    c = RS.view(enc)["combatants"]["c1"]
    form = str(declare_form("c1", c, {"c1": "Ana", "c2": "Bor"}, enemy="c2"))
    assert 'data-spell-targets="bladesharp=c1 disruption=c2"' in form
    # hidden while the Action is an attack (the sixth play-through: "(self)" offered for a melee attack)
    assert '<option value="c1" data-self="yes" hidden disabled>Ana (self)</option>' in form
    ready = str(declare_form("c1", c, {"c1": "Ana", "c2": "Bor"}, "sr-change", "a1", {"kind": "spell", "spell": "bladesharp"},
                             enemy="c2"))
    assert '<option value="c1" selected data-self="yes">Ana (self)</option>' in ready


# -- smaller: counting, a change's cost, a change past SR 12, a parry's words --------------------------


def test_not_declared_counts_only_who_can_still_declare():
    """Action Declaration & Resolution: "At the start of a MR, combatants declare their actions"; "Dead characters
    cannot do anything". A GM's play read "(5 of 12)" with four dead: the count is of those who can declare."""
    from fray.games.strike_rank.web.flow import undeclared_html

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2), fighter("Cid", x=4)), "declare")
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": "dead", "on": True})
    html = str(undeclared_html(RS.view(enc)))
    assert "Not declared: Ana, Bor (2 of 2)" in html, html


def test_a_change_whose_own_sr_is_past_12_is_logged_lost_not_refused():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: such a change was refused ("Attacks cannot roll over");
    it is made, and the attack logged lost, as a forced change's is."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2), fighter("Cid", x=20)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    ref = actions(enc, "c1")[0]["ref"]
    # Cid is 17 m beyond reach: SR 7 + move 6 = 13 of its own, past SR 12 before any delay
    enc, ev = do(enc, {"type": "sr.change", "id": "c1", "ref": ref, "kind": "melee", "weapon": "broadsword",
                       "target": "c3"})
    assert "is past SR 12: the attack is lost" in texts(ev)
    assert [a["status"] for a in actions(enc, "c1")] == ["changed", "lost"]


def test_a_forced_change_set_to_parry_says_what_a_parry_does():
    """Attacks & Defenses: "Defenses must be declared before an attack test is rolled. They are resolved on the same
    SR as the attack". A GM's play: the forced change set to Parry still said "strikes at SR n"."""
    from fray.games.strike_rank.web.attack import change_costs

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2), fighter("Cid", x=4)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    ref = actions(enc, "c1")[0]["ref"]
    said = change_costs(enc, RS.view(enc), {}, {ref: {"kind": "defend", "weapon": "broadsword", "target": "c3"}})
    assert "strikes at" not in said[ref]
    assert said[ref] == ("changing now to a defence: Ana parries with Broadsword an attack made on them, on that "
                         "attack's own SR; nothing is struck")


def test_the_voluntary_change_says_what_it_costs_before_the_gm_confirms():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: the Change… box said "SR 6 at the earliest" and no cost for
    the change set in it; the forced box's preview (the engine's own change) is said there too."""
    from fray.games.strike_rank.web.attack import voluntary_cost
    from fray.games.strike_rank.web.declare import change_html

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2), fighter("Cid", x=14)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    ref = actions(enc, "c1")[0]["ref"]
    view = RS.view(enc)
    # as the box opens, on the action declared, nothing is changed: no cost (the sixth play-through)
    assert voluntary_cost(enc, view, ref) == "nothing is changed yet: change the action, weapon or target to see what it costs"
    said = voluntary_cost(enc, view, ref, {"kind": "melee", "weapon": "broadsword", "target": "c2", "metres": "1"})
    assert said == "nothing is changed yet: change the action, weapon or target to see what it costs"
    far = voluntary_cost(enc, view, ref, {"target": "c3"})
    assert far.startswith("changing now to Cid costs DEX SR 3: SR ") and far.endswith("the attack would be lost")
    box = str(change_html(view, ref, far, {"target": "c3"}))
    assert "Changing now to Cid costs DEX SR 3: SR" in box and "Change: the attack is lost" in box
    assert voluntary_cost(enc, view, ref, {"kind": "defend", "weapon": ""}).startswith(
        "changing now to a defence: Ana dodges")
