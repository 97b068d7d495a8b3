"""The odds of the special attacks before rolling (issue 12): what follows the blow (HP a weapon or an object
loses, the disarm, the stun, the push, the grapple), checked against hand-computed cases from the rule text
and against brute force: every face through the engine's own functions, and the faces of each kind of landing
through the real ``sr.attack`` handler. Docstrings quote the rule."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from fray.reducer import apply, prepare
from fray.games.strike_rank import combat, odds, rules
from sr_helpers import RS, SHIELD, SWORD, do, duel, fight, fighter, to_phase

F = Fraction
ATTACK = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword"}
PARRY = {"kind": "parry", "weapon": "shield"}


def setup(mode, defence, a=None, b=None, **fields):
    enc = to_phase(duel(a or fighter("Ana", SWORD, side="party"), b or fighter("Bor")), "resolve")
    act = {**ATTACK, "mode": mode, "defence": defence, **fields}
    return enc, act, odds.exchange_odds(RS, enc, act)


def _face(skill, degree):
    return next(r for r in range(1, 101) if rules.degree_of_success(skill, r) == degree)


def _classes(att, dfn, kind):
    """(attack degree, defence degree) → how many of the 100 × 100 faces give it."""
    out = Counter()
    for ar in range(1, 101):
        for dr in (range(1, 101) if kind != "none" else (None,)):
            out[(rules.degree_of_success(att, ar), rules.degree_of_success(dfn, dr) if dr else "none")] += 1
    return out


@pytest.mark.parametrize("a,d", [(30, 50), (0, 60), (100, 5), (55, 55), (25, 120), (110, 60)])
def test_opposed_odds_count_every_face_as_the_engine_judges_it(a, d):
    """Disarm: "This is an opposed test of weapon skills"; the winner is ``combat.opposed`` (the better degree,
    equal successes to the higher roll, two failures to nobody), played here on all 10,000 face pairs."""
    brute = Counter(combat.opposed(a, ar, d, dr) for ar in range(1, 101) for dr in range(1, 101))
    got = odds.opposed_odds(a, d)
    assert {k: got.p(k) for k in ("attacker", "defender", "none")} == {k: F(brute[k], 10000)
                                                                       for k in ("attacker", "defender", "none")}


def test_disarm_against_a_parry_through_the_real_handler():
    """Disarm (½ skill): "an opposed test of weapon skills, and the attacker's skill is halved" (60% → 30%, the
    shield's own 50%); "If the attacker wins, the defender's weapon is knocked out of their hands". All 10,000
    pairs of the attack and parry d100s go through ``sr.attack``."""
    enc, act, o = setup("disarm", PARRY)
    assert o.skill == 30
    effect = o.alternative("parry:shield").effect
    rng = random.Random(5)
    won = 0
    for ar in range(1, 101):
        for dr in range(1, 101):
            _, _, ev = prepare(enc, {**act, "rolls": {"attack": ar, "defence": dr}}, rng)
            won += any(e["kind"] == "disarm" and "knocked from" in e["text"] for e in ev)
    assert effect["Shield knocked away (lands 1D6 m off)"] == F(won, 10000)
    assert effect["Keeps Shield"] == 1 - F(won, 10000)


def test_disarm_dodged_or_tested_by_hand():
    """Disarm: "the defender may also dodge to avoid the attempt entirely": a 40% dodge avoids it 40% of the
    time; otherwise the defender tests the named weapon's skill (broadsword 60%) against the halved 30%.
    Without a weapon to knock away the odds say what is missing, as the exchange would."""
    _, _, o = setup("disarm", {"kind": "dodge"}, target_weapon="broadsword")
    e = o.alternative("dodge").effect
    win = odds.opposed_odds(30, 60).p("attacker")
    assert e == {"Dodged": F(40, 100), "Broadsword knocked away (lands 1D6 m off)": F(60, 100) * win,
                 "Keeps Broadsword": F(60, 100) * (1 - win)}
    assert o.alternative("none").effect["Keeps Broadsword"] == 1 - win
    _, _, bad = setup("disarm", "none")
    assert bad.error == "target_weapon: name the weapon to knock away"


def test_stun_to_the_head_by_the_rule_formula_and_the_handler():
    """Stun (½ skill): "If the attack hits, it deals no damage; instead, there is an opposed test between
    ([damage] - [AP])×5% and the target's CON×5%"; Head: "knocked unconscious for 1 MR per point of damage
    dealt (after armor)". Aimed at a head with AP 2, no defence, CON 12 (60%): every attack face, every damage
    face (1D8+1 + 1D4, special 2D8+2 + 1D4, critical maximised) and every face of both stun d100s."""
    b = fighter("Bor", armour={"head": 2})
    enc, act, o = setup("stun", "none", b=b, aim="head")
    a = o.alternative("none")
    assert a.spread_label == "MR unconscious"
    table = RS.tables["attack_undefended"]
    win_cache = {}

    def win(sk):
        if sk not in win_cache:
            win_cache[sk] = sum(combat.opposed(sk, x, 60, y) == "attacker" for x in range(1, 101) for y in range(1, 101))
        return win_cache[sk]

    effect, spread = Counter(), Counter()
    den = 100 * 10000
    for ar in range(1, 101):
        landing = rules.matrix_cell(table, rules.degree_of_success(30, ar), "none")["damage"]
        if landing == "none":
            effect["No hit"] += F(1, 100)
            spread[0] += F(1, 100)
            continue
        if landing == "max_special":
            faces = [22]
        else:
            n = 1 if landing == "normal" else 2
            faces = [sum(f) + n + g for f in itertools.product(range(1, 9), repeat=n) for g in range(1, 5)]
        for d in faces:
            pts = max(0, d - 2)
            w = win(pts * 5)
            p = F(1, len(faces))
            effect["Unconscious"] += p * F(w, den)
            spread[max(1, pts)] += p * F(w, den)
            effect["Resists the stun"] += p * F(10000 - w, den)
            spread[0] += p * F(10000 - w, den)
    assert a.effect == dict(effect)
    assert a.spread == dict(sorted(spread.items()))
    # the handler agrees on a face: 1D8+1+1D4 = 5+1+3 = 9 − AP 2 = 7 → 35% rolled 10 vs 60% rolled 80: 7 MR
    got, ev = apply(enc, {**act, "rolls": {"attack": 20, "damage": [5, 3], "stun_attack": 10, "stun_resist": 80}})
    assert got.get("c2").data["stun"] == [{"kind": "unconscious", "mr": 7}] and a.spread[7] > 0


def test_stun_to_a_limb_or_the_chest():
    """Stun: "Arm: The arm is disabled for 1D6 MR"; "Other Vitals: The target is incapacitated for 1 MR"."""
    _, _, arm = setup("stun", "none", aim="right_arm")
    _, _, chest = setup("stun", "none", aim="chest")
    a, c = arm.alternative("none"), chest.alternative("none")
    stunned = a.effect["Right arm disabled"]
    assert stunned == c.effect["Incapacitated"] and 0 < stunned < F(30, 100)
    assert all(a.spread[n] == stunned / 6 for n in range(1, 7)) and c.spread[1] == stunned


def test_push_by_hand_with_and_without_a_mount():
    """Push: "Use the attacker's STR+SIZ instead of damage. A parry does not prevent the knockback"; Knockback:
    "knocked back 1 meter for every 5 points of damage (or part thereof). The target needs to make a DEX×5% roll
    or fall prone". STR+SIZ 26 against SIZ 13: 6 m; DEX 11 → 55%; a 60% attack succeeds 60% of the time."""
    _, _, o = setup("push", PARRY)
    e = o.alternative("parry:shield").effect
    assert e == {"No knockback": F(40, 100), "Knocked back 6 m, keeps their feet": F(60, 100) * F(55, 100),
                 "Knocked back 6 m, falls prone": F(60, 100) * F(45, 100)}
    assert o.alternative("parry:shield").spread == {0: F(40, 100), 6: F(60, 100)}
    # Mounted Knockback: "on a Success, they add their mount's SIZ to their SIZ ... on a Failure, the rider uses
    # their own SIZ and, if knocked back, is knocked off their mount": Ride 50%, horse SIZ 26 → 39, no knockback
    enc = fight(fighter("Horse", side="foes", SIZ=26, hp=30), fighter("Ana", SWORD, side="party"))
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Rider", mount="c1")})
    enc = to_phase(enc, "resolve")
    act = {**ATTACK, "attacker": "c2", "target": "c3", "mode": "push", "defence": "none"}
    m = odds.exchange_odds(RS, enc, act).alternative("none").effect
    assert m == {"No knockback": F(40, 100) + F(60, 100) * F(50, 100),
                 "Knocked back 6 m and off Horse": F(60, 100) * F(50, 100)}
    _, ev = apply(enc, {**act, "rolls": {"attack": 20, "ride": 90, "knockback_dex": 10}})
    assert any("knocked off Horse" in e["text"] for e in ev)


def test_grapple_grabs_a_location_or_seizes_the_parrying_weapon():
    """Grappling: "A successful Grapple attack grabs hold of a hit location"; "If a grappling attack is parried
    without dealing damage to the grappler, the grappler instead seizes the parrying weapon". Undefended, a 60%
    grapple grabs the head (melee 19-20 on 1D20) 60% × 2/20 of the time; against a parry it seizes the shield
    whenever the table calls the blow parried."""
    _, _, o = setup("grapple", "none")
    n = o.alternative("none")
    assert n.effect["Grabs the Head"] == F(60, 100) * F(2, 20) and n.effect["No hold"] == F(40, 100)
    p = o.alternative("parry:shield")
    parried = sum(c["chance"] for c in p.grid if c["parried"])
    assert p.effect["Seizes Shield"] == parried and sum(p.effect.values()) == 1
    _, _, aimed = setup("grapple", "none", aim="left_leg")
    assert aimed.alternative("none").effect == {"No hold": F(40, 100), "Grabs the Left leg": F(60, 100)}


def test_attack_object_by_hand():
    """Attack Object: "Attacking an unattended object is at full skill. A successful attack reduces the object's
    HP by the amount the rolled damage exceeds them by. A critical success reduces the object's HP by the full
    damage rolled." A 3 HP lantern, broadsword 1D8+1 + 1D4, 60%: normal 48%, special 9%, critical 3% (22)."""
    _, _, o = setup("attack_object", "none", object={"name": "Lantern", "hp": 3, "held": False})
    a = o.alternative("none")
    assert o.skill == 60 and a.spread_label == "Lantern: HP lost"
    spread = Counter({0: F(40, 100)})
    for pct, n in ((48, 1), (9, 2)):
        faces = [sum(f) + n + g for f in itertools.product(range(1, 9), repeat=n) for g in range(1, 5)]
        for d in faces:
            spread[max(0, d - 3)] += F(pct, 100) / len(faces)
    spread[22] += F(3, 100)
    assert a.spread == dict(sorted(spread.items()))
    assert a.effect["Lantern at 0 HP or less"] == sum(p for v, p in spread.items() if v >= 3)
    assert a.effect["No HP lost"] == spread[0]


def test_attack_weapon_through_the_real_handler():
    """Attack Weapon (½ skill): "Any damage (including special damage) in excess of the targeted weapon's HP
    reduced the weapon HP. On a critical hit, the targeted weapon's HP is reduced by the full damage rolled. If
    the parry is made with a different weapon, that weapon becomes the target instead. Parrying does not reduce
    the damage". The shield (HP 6 here) parries: each class of the two d100s, with every damage face, through
    ``sr.attack``; the HP the shield loses matches the odds exactly."""
    b = fighter("Bor", SWORD, {**SHIELD, "hp": 6})
    enc, act, o = setup("attack_weapon", PARRY, b=b, target_weapon="broadsword")
    a = o.alternative("parry:shield")
    table = RS.tables["attack_vs_parry"]
    lost = Counter()
    rng = random.Random(3)
    for (ad, dd), w in _classes(30, 50, "parry").items():
        landing = rules.matrix_cell(table, ad, dd)["damage"]
        if landing == "none":
            lost[0] += F(w, 10000)
            continue
        n = 1 if landing == "normal" else 2
        faces = [()] if landing == "max_special" else [f + (g,) for f in itertools.product(range(1, 9), repeat=n)
                                                       for g in range(1, 5)]
        for f in faces:
            rolls = {"attack": _face(30, ad), "defence": _face(50, dd), **({"damage": list(f)} if f else {})}
            _, new, _ = prepare(enc, {**act, "rolls": rolls}, rng)
            hp = next(x for x in new.get("c2").data["weapons"] if x["id"] == "shield")["hp"]
            lost[6 - hp] += F(w, 10000) / len(faces)
    assert a.spread == dict(sorted((k, v) for k, v in lost.items() if v))
    assert a.effect["Shield at 0 HP or less"] == sum(p for v, p in lost.items() if v >= 6)
