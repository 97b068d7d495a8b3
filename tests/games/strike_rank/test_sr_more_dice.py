"""Damage dice typed before the roll, for an ordinary blow, when the blow comes out special (issue 33,
"The table screen", §5): the result is known, so the page asks for ONLY the dice the special adds,
and the action it then sends carries every die (actions carry their dice)."""

from __future__ import annotations

import pytest

from fray.reducer import prepare
from fray.games.strike_rank.combat import MoreDice, extra_dice_text, fill_special
from fray.games.strike_rank.web.parse import attack_action
from sr_helpers import RAPIER, attack, duel, fighter, texts, to_phase


class Dice:
    """A random source that hands out the given faces in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        f = self.faces.pop(0)
        assert a <= f <= b, (f, a, b)
        return f


def _sword(rolls):
    return {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
            "defence": {"kind": "none"}, "rolls": rolls}


def test_the_extra_die_goes_where_the_special_puts_it():
    """Special Damage, Slashing: "Weapon base damage is doubled (1D6+1 becomes 2D6+2, etc.)". The
    ordinary blow 1D8+1+1D4 was typed "5 3"; the special is 2D8+2+1D4: the one die missing is the
    second D8, between the typed D8 and the typed D4."""
    enc = to_phase(duel(), "resolve")
    with pytest.raises(MoreDice) as e:
        attack(enc, rolls={"attack": 5, "location": 13, "damage": [5, 3]})
    m = e.value
    assert (m.expr, m.typed, m.extra, m.slots) == ("2D8+2+1D4", [5, 3], [8], [0, -1, 1])
    assert m.pending()["need"] == "1D8" and m.field == "rolls.damage"
    assert m.said[0].endswith("rolled 5: special → special")
    assert fill_special(m.slots, m.typed, [6]) == [5, 6, 3]
    _, ev = attack(enc, rolls={**m.rolled, "damage": fill_special(m.slots, m.typed, [6])})
    assert "2D8+2+1D4 = 5+6+2+3 = 16" in texts(ev)


def test_the_dice_fray_rolled_are_given_again():
    """Fray rolled the attack (a special, 7 of 60%) and the location; the GM had typed the damage. The
    refusal carries those dice, so the exchange made with the extra die is the same exchange."""
    enc = to_phase(duel(), "resolve")
    with pytest.raises(MoreDice) as e:
        prepare(enc, _sword({"damage": [5, 3]}), Dice(7, 13))
    rolled = e.value.rolled
    assert rolled == {"attack": {"faces": [7], "typed": False}, "location": {"faces": [13], "typed": False}}
    recorded, _, ev = prepare(enc, _sword({**rolled, "damage": [5, 2, 3]}), Dice())  # no die left to roll
    assert recorded["rolls"]["damage"] == [5, 2, 3] and recorded["rolls"]["attack"] == {"faces": [7], "typed": False}
    assert "rolled 7: special" in texts(ev)


def test_one_number_typed_for_a_blow_of_one_die_is_its_face():
    """Impaling: "Weapon base damage is doubled". A rapier without damage modifier (1D6+1) typed "4":
    the special 2D6+2 asks for one D6 more, not reading 4 as the special's total."""
    enc = to_phase(duel(fighter("Ana", RAPIER, side="party", STR=10, SIZ=10)), "resolve")
    with pytest.raises(MoreDice) as e:
        attack(enc, weapon="rapier", rolls={"attack": 5, "location": 13, "damage": 4})
    assert (e.value.expr, e.value.extra, e.value.slots) == ("2D6+2", [6], [0, -1])


def test_the_form_puts_the_extra_dice_in_place_or_takes_a_total():
    """The attack form's "Special: roll 1D8 more" (``more.damage``) and its total (``more.total``)."""
    enc = to_phase(duel(), "resolve")
    with pytest.raises(MoreDice) as e:
        prepare(enc, _sword({"damage": [5, 3]}), Dice(7, 13))
    more = e.value.pending()
    values = {"target": "c2", "defence.kind": "none", "rolls.damage": "5 3", "more.damage": "6"}
    a, errors = attack_action("", "c1", "broadsword", values, more)
    assert not errors and a["rolls"] == {"damage": [5, 6, 3], "attack": {"faces": [7], "typed": False},
                                         "location": {"faces": [13], "typed": False}}
    a, errors = attack_action("", "c1", "broadsword", {**values, "more.damage": "", "more.total": "15"}, more)
    assert not errors and a["rolls"]["damage"] == 15
    _, errors = attack_action("", "c1", "broadsword", {**values, "more.damage": "9"}, more)
    assert errors == {"more.damage": "a D8 shows 1 to 8, not 9"}
    _, errors = attack_action("", "c1", "broadsword", {**values, "more.damage": "6 2"}, more)
    assert errors == {"more.damage": "1D8 is 1 die: 2 typed"}
    _, errors = attack_action("", "c1", "broadsword", {**values, "more.damage": ""}, more)
    assert "roll 1D8" in errors["more.damage"]
    # the GM typed other damage since: a new exchange, the old dice are not given again
    a, errors = attack_action("", "c1", "broadsword", {**values, "rolls.damage": "7 2"}, more)
    assert a["rolls"] == {"damage": [7, 2]}


def test_extra_dice_text():
    assert extra_dice_text([6]) == "1D6" and extra_dice_text([6, 6]) == "2D6"
    assert extra_dice_text([8, 4]) == "1D8 then 1D4"
