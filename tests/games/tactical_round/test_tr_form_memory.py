"""A GM's play-through on a tablet, tactical round: what the page offers must be what the rules take.
The round-2 declaration started "As last round" on a Move that the rules refuse to one now Engaged;
the attack form kept a declared target's place for another foe without a word; a Ranged attack was
declared with no weapon chosen."""

from __future__ import annotations

from fray.errors import InvalidAction
from fray.games.tactical_round import rules
from fray.reducer import apply
from tr_helpers import RS, SWORD, attack, condition, declare, fight, fighter, to_phase


def test_last_rounds_declaration_is_offered_only_as_far_as_the_rules_take_it_now():
    """Melee Attacks: "Any character who receives a melee attack becomes Engaged with the attacker. Engaged
    characters cannot take Movement Actions unless they Disengage or Run Away first." Ana moved and struck
    in round 1; Bor's blow engaged her: in round 2 her last declaration is offered without the Move (and
    says why), and what is offered is declared as it stands."""
    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, x=1))
    enc = declare(enc, "c1", {"action": "move"}, {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = to_phase(enc, "melee")
    enc, _ = attack(enc, "c2", "c1", 30)
    enc, _ = attack(enc, "c1", "c2", 30)
    enc = to_phase(to_phase(enc, "other"), "declaration")
    assert enc.round == 2 and rules.engaged_ids(enc, enc.get("c1"))
    last = rules.last_declarations(enc)
    assert last["c1"] == [{"action": "melee_attack", "weapon": 0, "target": "c2"}]
    apply(enc, {"type": "tr.declare", "id": "c1", "actions": last["c1"]})  # taken as offered
    why = rules.last_declarations_left_out(enc)
    assert why == {"c1": "without Move: Engaged characters cannot take Movement Actions unless they "
                          "Disengage or Run Away first"}
    for cid, rows in last.items():
        apply(enc, {"type": "tr.declare", "id": cid, "actions": rows})


def test_a_ranged_attack_with_no_weapon_chosen_is_refused_beside_its_weapon():
    """Ranged Attacks: "Missile weapons, thrown weapons, and certain Spells all use the ranged attack
    rules": the GM names the one; the page never lets the engine take the one in hand for it."""
    from fray.games.tactical_round.web.panel import weapon_missing

    bad = weapon_missing([{"action": "move"}, {"action": "ranged_attack", "target": "c2"}], [0, 1], "Orc 2")
    assert isinstance(bad, InvalidAction) and bad.field == "actions.1.weapon"
    assert bad.message == "choose the weapon Orc 2 shoots or throws with"
    assert weapon_missing([{"action": "ranged_attack", "weapon": 1}], [0], "Orc 2") is None
    assert weapon_missing([{"action": "melee_attack"}], [0], "Orc 2") is None  # the one in hand


def _app(enc):
    from fray.web.uistate import UiState

    class App:
        ruleset, ui = RS, UiState()

    app = App()
    app.enc = enc
    return app


def test_a_dead_declared_target_is_said_beside_the_target_and_a_downed_one_stays():
    """Parrying: "Incapacitated, Held, or Surprised characters ... cannot Parry at all": the incapacitated
    can be attacked, so the declared one stays the target; the dead cannot (the engine refuses: "is dead:
    choose another target"), and the form says so beside Target rather than change it silently."""
    from fray.games.tactical_round.web.forms import attack_html
    from fray.games.tactical_round.web.panel import TacticalPanel

    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, x=1), fighter("Cid", SWORD, x=2))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = to_phase(condition(enc, "c2", "incapacitated"), "melee")
    app = _app(enc)
    pre = TacticalPanel.attack_defaults(app, RS.view(enc))
    assert pre["target"] == "c2" and not pre.get("target_note")
    assert '<option value="c2" selected>' in str(attack_html(RS.view(enc), pre))
    app.enc = enc = condition(enc, "c2", "dead")
    pre = TacticalPanel.attack_defaults(app, RS.view(enc))
    assert pre["target_note"] == "Bor, the declared target, is dead: choose whom Ana attacks."
    out = str(attack_html(RS.view(enc), pre))
    assert "Bor, the declared target, is dead: choose whom Ana attacks." in out
    assert '<option value="c3" selected>' in out


def test_the_attack_forms_memory_holds_only_while_the_one_acting_now_acts():
    """Tactical Round Sequence (FACTS.md): each declared action is made in its phase, by whoever acts now:
    an attacker the GM picked in the form is forgotten once the one acting then has acted or been skipped
    (a GM's play-through: Orc 2 still in the form in Melee, while Grub acted)."""
    from fray.games.tactical_round.web.panel import PANEL, TacticalPanel

    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, x=1), fighter("Cid", SWORD, x=2))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c3", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = to_phase(enc, "melee")
    app = _app(enc)
    TacticalPanel.remember_attack(app, {"id": "c3", "weapon": None, "target": "c1"}, RS.view(enc))
    TacticalPanel.forget_stale_attack(app, RS.view(enc))
    assert app.ui.part(PANEL).attack["id"] == "c3"  # a redraw while the same one acts: kept
    first = RS.view(enc)["acting"][0]["combatant"]
    app.enc = enc = apply(enc, {"type": "tr.skip", "id": first, "action": 0})[0]
    TacticalPanel.forget_stale_attack(app, RS.view(enc))
    assert app.ui.part(PANEL).attack is None and app.ui.part(PANEL).attack_weapons == {}


def test_the_declaration_form_says_what_of_last_round_was_left_out_and_why():
    """Melee Attacks: "Engaged characters cannot take Movement Actions unless they Disengage or Run Away
    first": the form that starts on last round's declaration says the Move was left out, and why."""
    from fray.games.tactical_round.web.panel import DEFAULT_KINDS, panel_html

    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, x=1))
    enc = declare(enc, "c1", {"action": "move"}, {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = to_phase(enc, "melee")
    enc, _ = attack(enc, "c2", "c1", 30)
    enc = to_phase(to_phase(enc, "other"), "declaration")
    checked = rules.last_declarations_checked(enc)
    out = str(panel_html(RS.view(enc), None, DEFAULT_KINDS, last={k: v for k, (v, _) in checked.items()},
                         left_out={k: w for k, (_, w) in checked.items() if w}))
    assert ("As last round, without Move: Engaged characters cannot take Movement Actions unless they "
            "Disengage or Run Away first. Change it, or Declare.") in out
    form = out[out.index('data-id="c1"'):]
    assert '<option value="melee_attack" selected>' in form.split("Action 2")[0]
