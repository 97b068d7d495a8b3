"""Issue 32, item 3: the strike-rank forms offer only what the combatant can still do after their
injuries (the engine refuses the rest, naming the injury: tests/games/strike_rank/test_sr_wounds_applied.py)."""

from __future__ import annotations

import random

from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.games.strike_rank.web.attack import attack_html
from fray.games.strike_rank.web.card import card_html
from fray.games.strike_rank.web.declare import declare_form

RS = get_ruleset("strike-rank")
PRESETS = {p["name"]: p for p in RS.presets()}


def fight(*hurts) -> History:
    """Yanioth (the preset warrior: broadsword in the right hand, shield in the left) and a wolf,
    Yanioth hurt at each (location, amount) with her CON tests passed."""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "name": "Yanioth", "side": "party",
                                                 "stats": {**PRESETS["Human warrior"]["stats"], "hp": 30}}}, rng)
    h.do({"type": "add_combatant", "combatant": PRESETS["Great wolf (four-legged)"]}, rng)
    h.do({"type": "advance"}, rng)
    for lid, amount in hurts:
        h.do({"type": "sr.damage", "target": "c1", "location": lid, "amount": amount, "armour": False,
              "rolls": {"gm.con_shock": 1, "gm.con_head": 1}}, rng)
    return h


def options(html: str, name: str) -> list[str]:
    """The option values of the select named ``name``."""
    start = html.index(f'name="{name}"')
    part = html[start:html.index("</select>", start)]
    return [bit.split('"', 1)[0] for bit in part.split('<option value="')[1:]]


def test_a_maimed_shield_arm_takes_the_shield_off_the_parry_choices():
    """Damage Equal to Double Location HP: "Arm: Arm cannot wield weapons or shields, cannot attack or parry\""""
    h = fight()
    o = {"ref": "", "combatant": "c2", "target": "c1", "weapon": "bite", "sr": 1}
    assert "medium_shield" in options(attack_html(RS.view(h.present), o), "defence.weapon")
    h = fight(("left_arm", 18))  # left arm HP 9: −9, maimed
    view = RS.view(h.present)
    assert options(attack_html(view, o), "defence.weapon") == ["broadsword"]
    assert "left arm is maimed: it cannot hold the medium shield" in card_html("c1", view)  # the card says why


def test_the_declaration_offers_only_usable_weapons_and_what_the_legs_allow():
    """Damage Equal to Location HP: "A disabled arm cannot wield weapons or shields"; "Leg: The combatant cannot
    run.\""""
    h = fight(("right_arm", 9), ("right_leg", 10))  # right arm HP 9: 0, disabled; right leg HP 10: 0, disabled
    c = RS.view(h.present)["combatants"]["c1"]
    html = declare_form("c1", c, {"c1": "Yanioth", "c2": "Wolf"})
    assert options(html, "weapon") == ["", "medium_shield"]
    assert 'name="running"' not in html and "Cannot run: a disabled leg: cannot run" in html


def test_a_maimed_chest_offers_no_attack_and_no_parry():
    """Damage Equal to Double Location HP: "Chest: Cannot fight, cannot move faster than a stagger (1m rate), can
    use magic or First Aid.\""""
    h = fight(("chest", 22))  # chest HP 11: −11, maimed
    view = RS.view(h.present)
    c = view["combatants"]["c1"]
    html = declare_form("c1", c, {"c1": "Yanioth", "c2": "Wolf"})
    kinds = options(html, "kind")
    assert "melee" not in kinds and "missile" not in kinds and "spell" in kinds and "move" in kinds
    assert "chest is maimed: cannot fight" in html
    o = {"ref": "", "combatant": "c2", "target": "c1", "weapon": "bite", "sr": 1}
    assert options(attack_html(view, o), "defence.kind") == ["dodge", "none"]


def test_a_wolf_is_offered_no_bite_parry_and_starts_on_dodge():
    """Unarmed Parries: "Unarmed parries use the HP of the bodypart used (usually arm, sometimes leg) as the weapon
    HP" (no rule lets a bite or claw parry); Procedure: "Defender decides whether to parry or dodge". A GM found a
    wolf parrying with its Bite by default: a creature with only natural weapons is offered Dodge (first) or
    nothing, and a warrior still her shield first."""
    h = fight()
    view = RS.view(h.present)
    o = {"ref": "", "combatant": "c1", "target": "c2", "weapon": "broadsword", "sr": 7}
    html = attack_html(view, o)
    assert options(html, "defence.kind") == ["dodge", "none"]
    # nothing to parry with: no "Parry with" field at all (a GM found it empty, "(no weapon)", on the wolf's form)
    assert 'name="defence.weapon"' not in html and "(no weapon)" not in html and "Parry with" not in html
    back = attack_html(view, {"ref": "", "combatant": "c2", "target": "c1", "weapon": "bite", "sr": 1})
    assert options(back, "defence.kind")[0] == "parry" and options(back, "defence.weapon")[0] == "medium_shield"


def test_the_dead_are_offered_as_no_target():
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies";
    Death: "Dead characters cannot do anything." A GM was offered the dead in the attack and declaration forms: the
    dead are not offered (the unconscious still are), and an attack declared on them starts on a standing enemy."""
    h = fight()
    rng = random.Random(3)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Great wolf (four-legged)"], "name": "Wolf 2"}}, rng)
    h.do({"type": "add_combatant", "combatant": {**PRESETS["Great wolf (four-legged)"], "name": "Wolf 3"}}, rng)
    h.do({"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    h.do({"type": "set_condition", "id": "c4", "condition": "unconscious", "on": True})
    view = RS.view(h.present)
    html = attack_html(view, {"ref": "", "combatant": "c1", "target": "c2", "weapon": "broadsword", "sr": 7})
    assert options(html, "target") == ["c3", "c4"]
    assert "Declared against Great wolf (four-legged), who is dead: the target is Wolf 2." in html
    from fray.games.strike_rank.web.declare import declare_html

    form = str(declare_html(view))  # Yanioth's form first
    assert 'data-form="sr-declare" data-id="c1"' in form
    assert options(form, "target") == ["", "c1", "c3", "c4"]  # c1: "Yanioth (self)", for her spells cast on herself


def test_an_attack_whose_declared_target_died_is_put_to_the_gm_as_a_change():
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR ... A
    combatant may be forced to change actions, e.g. if the target of their attack dies." (GM play-through: "Declared
    against Knight 2, who is dead: the target is Knight 3", rolled at the old SR with no delay.)"""
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    for name, side, x in (("Bandit 1", "foes", 0), ("Knight 2", "party", 2), ("Knight 3", "party", 9)):
        h.do({"type": "add_combatant", "combatant": {**PRESETS["Human warrior"], "name": name, "side": side,
                                                     "position": {"x": x, "y": 0}}}, rng)
    h.do({"type": "advance"}, rng)
    h.do({"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"}, rng)
    h.do({"type": "set_condition", "id": "c2", "condition": "dead"}, rng)
    view = RS.view(h.present)
    o = {**view["combatants"]["c1"]["declared"][0], "combatant": "c1", "name": "Bandit 1"}
    page = str(attack_html(view, o))
    assert 'data-form="sr-attack"' not in page and "Roll the exchange" not in page
    assert 'data-form="sr-change"' in page and f'data-ref="{o["ref"]}"' in page
    assert "Declared against Knight 2, who is dead. A forced change is delayed by DEX SR 3" in page
    assert options(page, "target")[1:] == ["c1", "c3"]  # c1: "Bandit 1 (self)", for his Bladesharp
    assert '<option value="c3" selected' in page
    # "or skip the attack", as it says: the button is there, not only after Next (a GM's play-through)
    assert 'data-act="sr-skip"' in page and "Skip it: Bandit 1&#x27;s attack at SR" in page
