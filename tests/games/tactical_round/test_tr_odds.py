"""The odds of a ``tr.attack`` before rolling (issue 12): the open-ended total against DEF and the chance
of each band of the GM's attack table, against hand-computed cases from FACTS.md and the rule text."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict
from fractions import Fraction

from fray import dice
from fray.reducer import apply
from fray.games.tactical_round import odds
from tr_helpers import RS, SWORD, declare, fight, fighter, to_phase

F = Fraction


def melee(DEF=30):
    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, DEF=DEF))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    return to_phase(enc, "melee")


ACTION = {"type": "tr.attack", "id": "c1", "target": "c2", "weapon": 0}


def test_total_against_def_by_hand():
    """FACTS.md: "Attack roll: open-ended d100 (96-100 roll again and add; 01-05 roll again and subtract) +
    CMB + modifiers − DEF". CMB 50 − DEF 30: a total of 100 or more needs 80-95 (16%) or any 96-100 (5%)."""
    enc = melee()
    o = odds.attack_odds(RS, enc, ACTION)
    assert o.modifier == 20 and not o.error
    assert o.totals.chance() == 1
    assert o.at_least(100) == F(21, 100)
    assert o.totals.p(70) == F(1, 100)  # a plain 50
    assert o.at_least(25) == F(95, 100)  # 05 or less subtracts: the total drops to 24 at most
    assert "CMB 50" in o.breakdown and "DEF 30" in o.breakdown


def test_modifiers_come_from_the_attack_itself():
    """Common modifiers (FACTS.md): "Flanking +15 to the attacker"."""
    enc = melee()
    o = odds.attack_odds(RS, enc, {**ACTION, "flanking": True})
    assert o.modifier == 35
    assert o.at_least(100) == F(36, 100)  # 65-95 (31%) or 96-100 (5%)


def test_bands_of_the_gms_attack_table():
    """Attack tables are not public (FACTS.md): "the GM enters the result ... or loads a table of their own".
    With one loaded, each band's chance: totals to 49 need a roll of 29 or less (29%), 50-99 a roll of
    30-79 (50%), 100 or more 21%."""
    enc = melee()
    table = {**RS.tables["attack_results"], "entries": [
        {"kind": "any", "min": None, "max": 49, "hits": 0, "critical": None},
        {"kind": "any", "min": 50, "max": 99, "hits": 3, "critical": None},
        {"kind": "melee", "min": 100, "max": None, "hits": 8, "critical": "B"}]}
    enc, _ = apply(enc, {"type": "set_table", "table": "attack_results", "value": table})
    o = odds.attack_odds(RS, enc, ACTION)
    assert [b["chance"] for b in o.bands] == [F(29, 100), F(50, 100), F(21, 100)]
    assert o.unmatched == 0


def test_brute_force_against_the_engine_totals():
    """Every pair of d100s through ``dice.open_ended_given`` and the attack's own total (roll + 20)."""
    o = odds.attack_odds(RS, melee(), ACTION)
    brute = Counter()
    for a in range(1, 101):
        if 6 <= a <= 95:
            brute[a + 20] += 100
        else:
            for b in range(1, 96):
                brute[dice.open_ended_given([a, b]).total + 20] += 1
    for v in range(-71, 213):
        assert o.totals.p(v) == F(brute.get(v, 0), 10000), v


def test_odds_change_nothing_and_say_why_not():
    """Tactical Round Sequence: a melee attack is made in the Melee phase; before it there are no odds, only
    the reason."""
    enc = melee()
    before = asdict(enc)
    odds.attack_odds(RS, enc, ACTION)
    assert asdict(enc) == before
    early = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD))
    assert "Melee" in odds.attack_odds(RS, early, ACTION).error
    # the reason as the GM reads it, without the engine's "(rule: Tactical Round Sequence)" (issue 33)
    assert "(rule:" not in odds.attack_odds(RS, early, ACTION).error
