"""What the fifth GM play-through of the tactical round left, in the engine: the incapacitated Lia's
declared Disengage lapsed and then disengaged her in the next log line; a Disengage was taken from one
engaged with no one; a bow without Quick Load was told to declare its reload with the shot, which the
rules then refused."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from fray.games.tactical_round import rules
from fray.reducer import apply

from tr_helpers import BOW, KNIFE, QUICK, SWORD, attack, condition, declare, fight, fighter, to_phase

GO_ON = {"type": "advance", "skip_empty": True, "ask": True, "go_on": True}


def said(e: RuleViolation) -> str:
    """A refusal as the page says it, without the engine's "(rule: ...)"."""
    return str(e).removesuffix(f" (rule: {e.rule})")


def engaged_pair():
    """Lia (party) and Orc 4 beside her, Engaged by Orc 4's blow; Round 2's Declaration."""
    enc = fight(fighter("Lia", SWORD, side="party"), fighter("Orc 4", SWORD, x=1))
    enc, _ = attack(to_phase(enc, "melee"), "c2", "c1", 20)
    return to_phase(enc, "declaration")


def test_the_incapacitated_declared_disengage_lapses_in_one_line():
    """Disengaging: "A character can opt to Disengage from melee by spending a Full Action. ... The character
    stops being Engaged at the end of the Other Actions Phase." Parrying: "Incapacitated ... characters ...
    cannot Parry at all": one who cannot act does nothing. Lia, incapacitated after declaring her Disengage,
    read "Lia is incapacitated: the declared Disengage lapses" and then "Lia disengages: no longer Engaged"."""
    from tr_helpers import RS

    enc = declare(engaged_pair(), "c1", {"action": "disengage"})
    enc = condition(enc, "c1", "incapacitated")
    lia = RS.view(enc)["combatants"][0]
    assert not lia["disengaging"] and "disengaging" not in [c["name"] for c in lia["conditions"]]
    enc = to_phase(enc, "other")
    enc, events = apply(enc, GO_ON)
    lines = [e["text"] for e in events if e["text"].startswith("Lia")]
    assert lines == ["Lia is incapacitated: the declared Disengage lapses"], lines
    assert not enc.get("c1").data["disengaging"]


def test_a_disengage_from_one_not_engaged_is_refused_beside_its_action():
    """Disengaging: "A character can opt to Disengage from melee by spending a Full Action." Melee Attacks:
    "Any character who receives a melee attack becomes Engaged with the attacker." One Engaged with no one
    has no melee to Disengage from: the form took it (its "as last round" offered it)."""
    enc = to_phase(fight(fighter("Lia", SWORD, side="party"), fighter("Orc 4", SWORD, x=9)), "declaration")
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", {"action": "move"}, {"action": "disengage"})
    assert said(e.value) == "Lia is not engaged: nothing to disengage from"
    assert e.value.rule == "Disengaging" and e.value.field == "actions.1.action"
    declare(engaged_pair(), "c1", {"action": "disengage"})  # engaged: taken


def test_as_last_round_offers_no_disengage_once_free():
    """Disengaging: "The character stops being Engaged at the end of the Other Actions Phase." Round 2's
    "as last round" offered Lia her Disengage of round 1, which she no longer needs: left out, and why."""
    enc = declare(engaged_pair(), "c1", {"action": "disengage"})
    enc = to_phase(to_phase(enc, "assessment"), "declaration")
    assert not rules.engaged_ids(enc, enc.get("c1"))
    rows, why = rules.last_declarations_checked(enc)["c1"]
    assert rows == [] and why == "without Disengage: Lia is not engaged: nothing to disengage from"


def test_a_bow_without_quick_load_is_told_the_reload_is_the_rounds_full_action():
    """Reloading: "Reloading a missile weapon is a Full Action or a Multi-Round Action, depending on the weapon.
    Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character to attack in
    the same Round." Mira's Short bow (no Quick Load), empty, was told "declare the reload (Quick Load) or ready
    it too"; the GM declared Reload with the shot and was refused "at most one Full and one Half action"."""
    enc = to_phase(fight(fighter("Mira", {**BOW, "loaded": False}, side="party"), fighter("Orc 4", SWORD, x=9)),
                   "declaration")
    shot = {"action": "ranged_attack", "weapon": 0, "target": "c2"}
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", shot)
    told = said(e.value)
    assert told == ("Bow is not loaded: without Quick Load its reload is a Full Action, so the shot waits for "
                    "next round: declare Reload a missile weapon alone"), told
    with pytest.raises(RuleViolation) as e:  # the shot with it: the rule, not the count of actions
        declare(enc, "c1", {"action": "reload", "weapon": 0}, shot)
    assert e.value.rule == "Reloading" and "only Quick Load" in said(e.value)
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})  # what the hint says is taken
    assert [d["action"] for d in enc.state["declared"]["c1"]] == ["reload"]


@pytest.mark.parametrize("weapon, hint, with_it", [
    (QUICK, "Light crossbow is not loaded: declare Reload a missile weapon with the shot "
            "(Quick Load: a Half Action)", "reload"),
    (KNIFE, "Knife is not readied: declare Ready a thrown weapon with the throw (a Half Action)", "ready_thrown"),
])
def test_quick_load_and_thrown_are_told_to_declare_the_half_action_with_the_shot(weapon, hint, with_it):
    """Reloading: "Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character
    to attack in the same Round. Readying a thrown weapon is always a Half Action." The hint is followed."""
    enc = to_phase(fight(fighter("Mira", {**weapon, "loaded": False}, side="party"),
                         fighter("Orc 4", SWORD, x=4)), "declaration")
    shot = {"action": "ranged_attack", "weapon": 0, "target": "c2"}
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", shot)
    assert said(e.value) == hint
    declare(enc, "c1", {"action": with_it, "weapon": 0}, shot)


def test_the_out_of_reach_word_is_the_declaration_forms_preview():
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within the
    reach of their weapon." The word on a melee attack declared out of reach with no Move came only after Declare:
    the form says it as it is filled in (its preview), and once declared it stands under the declaration, once."""
    from fray.games.tactical_round.web.forms import declare_preview
    from fray.games.tactical_round.web.panel import DEFAULT_KINDS, panel_html
    from tr_helpers import RS

    enc = to_phase(fight(fighter("Lia", SWORD, side="party"), fighter("Orc 4", SWORD, x=8.2)), "declaration")
    t = RS.all_tables(enc)
    chosen = {"actions.0.action": "melee_attack", "actions.0.weapon": "0", "actions.0.target": "c2"}
    word = ("Orc 4 is 8.2 m from Lia, beyond a melee attack's reach (3 m): declare a Move to close in, "
            "unless Orc 4 comes to Lia in the Move phase")
    said = str(declare_preview(enc, t, "c1", chosen))
    assert said == f'<p class="tr-decl-reach" role="note">{word}</p>'.replace("'", "&#x27;")
    with_move = {**chosen, "actions.1.action": "move"}
    assert str(declare_preview(enc, t, "c1", with_move)) == ""
    assert 'class="tr-decl-preview" data-odds' in str(panel_html(RS.view(enc), {}, DEFAULT_KINDS))
    declared = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    assert str(declare_preview(declared, t, "c1", chosen)) == ""  # said under the declaration instead
    assert rules.reach_warnings(declared, t) == {"c1": word}
