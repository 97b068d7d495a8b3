"""The table screen for tactical-round (issue 33): who the page marks as acting now, and what a
declaration starts with once its action is chosen.

FACTS.md, tactical-round: "Tactical Round Sequence, in order: Assessment, Declaration, Move, Spell A
(prepared or instant spells), Ranged A (weapons loaded before the round, readied thrown weapons),
Melee (longest weapon first; ...)". Everyone declares in the Declaration phase; each declared action
is made in its phase. "Now" is whoever in this phase has yet to act, in its order; nobody once all
have acted (the strip kept "NOW" on the phase's first combatant after everyone had acted)."""

from __future__ import annotations

from fray.games.tactical_round import rules
from tr_helpers import BOLT, KNIFE, QUICK, RS, SWORD, SWORD_SHIELD, attack, condition, declare, fight, fighter, to_phase


def now(enc) -> list[str] | None:
    return RS.still_to_act(enc, RS.order_of_play(enc))


def melee_four():
    return fight(fighter("Ana", SWORD_SHIELD, side="party"), fighter("Bor", SWORD, x=1),
                 fighter("Cai", SWORD, side="party", y=3), fighter("Dag", SWORD, x=1, y=3))


def test_now_is_who_has_yet_to_declare_then_who_has_yet_to_act_and_nobody_after():
    enc = melee_four()
    assert now(enc) == []  # setup: nobody acts
    enc = to_phase(enc, "declaration")
    assert now(enc) == ["c1", "c2", "c3", "c4"]
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    assert now(enc) == ["c3", "c4"]  # the first who has not declared
    enc = declare(enc, "c3", {"action": "other"})
    enc = declare(enc, "c4", {"action": "other"})
    assert now(enc) == []
    enc = to_phase(enc, "melee")
    assert now(enc) == ["c1", "c2"]
    enc, _ = attack(enc, "c1", "c2", 30)
    assert now(enc) == ["c2"]  # Ana has struck: "now" moves on to Bor
    enc, _ = attack(enc, "c2", "c1", 30)
    assert now(enc) == []  # all in Melee have acted: nobody is "now"; the GM presses Next


def test_the_other_games_keep_their_turn():
    from fray.games import get_ruleset
    from fray.reducer import new_encounter

    for rid in ("strike-rank", "range-band"):
        rs = get_ruleset(rid)
        enc = new_encounter(rid, "T")
        assert rs.still_to_act(enc, rs.order_of_play(enc)) is None


def test_a_declared_attack_starts_on_the_weapon_that_fits_and_the_nearest_standing_enemy():
    """"melee_attack": a weapon that is not missile, thrown or spell; "ranged_attack": a missile or
    thrown one, loaded or readied; a spell on the caster's Bolt; "reload" a missile weapon. The target
    is the nearest standing enemy, never an ally, even one standing closer."""
    enc = fight(fighter("Ana", KNIFE, SWORD, side="party"),           # c1 at (0, 0), holds the knife
                fighter("Eda", SWORD, side="party", x=1),              # c2, an ally 1 m away
                fighter("Bor", SWORD, x=4),                            # c3, an enemy 4 m away
                fighter("Orm", SWORD, x=2, y=3),                        # c4, an enemy 3.6 m away
                fighter("Mia", SWORD, BOLT, side="party", y=-1),       # c5, a caster
                fighter("Cob", {**QUICK, "loaded": False}, KNIFE, side="party", y=-2))  # c6
    enc = to_phase(enc, "declaration")
    assert rules.declare_defaults(enc, "c1", "melee_attack") == (1, "c4")  # the knife is thrown
    assert rules.declare_defaults(enc, "c1", "ranged_attack") == (0, "c4")
    assert rules.declare_defaults(enc, "c2", "melee_attack") == (0, "c3")  # 3 m; Orm is 3.2 m from Eda
    assert rules.declare_defaults(enc, "c5", "spell_prepared")[0] == 1
    assert rules.declare_defaults(enc, "c6", "ranged_attack") == (1, "c3")  # the loaded one: the knife
    assert rules.declare_defaults(enc, "c6", "reload") == (0, "")  # the crossbow, which needs it
    assert rules.declare_defaults(enc, "c1", "move") == (None, "")
    assert rules.declare_defaults(enc, "c3", "melee_attack") == (0, "c2")  # the nearest of the other side
    # every default is one the engine accepts
    from tr_helpers import declare as decl
    for cid, kind in (("c1", "melee_attack"), ("c1", "ranged_attack"), ("c5", "spell_prepared"), ("c6", "reload")):
        w, t = rules.declare_defaults(enc, cid, kind)
        decl(enc, cid, {"action": kind, "weapon": w, **({"target": t} if t else {})})


def test_with_no_enemy_standing_an_attack_starts_on_nobody():
    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, side="party", x=1))
    enc = to_phase(enc, "declaration")
    assert rules.declare_defaults(enc, "c1", "melee_attack") == (0, "")


def test_last_rounds_declarations_are_offered_again_with_a_fallen_target_replaced():
    """FACTS.md, tactical-round: the Tactical Round Sequence has a Declaration phase every round ("Assessment,
    Declaration, Move, ..."), and the round's declarations lapse at its end; the GM mostly declares the same again,
    so each form starts on the last declaration (still changeable): an attack on a foe who has fallen since starts
    on the nearest standing enemy; who declared nothing is offered nothing; this round's own declaration wins."""
    enc = to_phase(melee_four(), "declaration")
    assert rules.last_declarations(enc) == {}  # round 1: nothing before
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"}, {"action": "move"})
    enc = declare(enc, "c3", {"action": "melee_attack", "weapon": 0, "target": "c4"})
    enc = to_phase(to_phase(enc, "melee"), "assessment")  # round 2
    assert enc.round == 2 and enc.state["declared"] == {}
    last = rules.last_declarations(enc)
    assert last == {"c1": [{"action": "melee_attack", "weapon": 0, "target": "c2"},
                           {"action": "move", "weapon": None, "target": ""}],
                    "c3": [{"action": "melee_attack", "weapon": 0, "target": "c4"}]}
    enc = condition(enc, "c4", "dead")
    assert rules.last_declarations(enc)["c3"] == [{"action": "melee_attack", "weapon": 0, "target": "c2"}]
    enc = declare(enc, "c3", {"action": "other"})
    assert rules.last_declarations(enc)["c3"][0]["action"] == "melee_attack"  # the page shows this round's instead
