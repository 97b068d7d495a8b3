"""The odds of an exchange before rolling (issue 12), checked against hand-computed cases from the
rule text and FACTS.md, and against a brute-force enumeration that plays every face through the
real ``sr.attack`` handler. Docstrings quote the rule."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import asdict
from fractions import Fraction

from fray.dice import parse
from fray.reducer import apply
from fray.games.strike_rank import odds, rules
from sr_helpers import RS, SHIELD, SWORD, duel, fight, fighter, to_phase

F = Fraction
HALF_SHIELD = {**SHIELD, "skill": 45}


def exchange(a, b, defence, **fields):
    enc = to_phase(duel(a, b), "resolve")
    act = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": a["weapons"][0]["name"].lower(),
           "defence": defence, **fields}
    return enc, act, odds.exchange_odds(RS, enc, act)


def test_a_60_percent_attack_against_a_45_percent_parry():
    """Procedure: "2. Attacker makes weapon skill test. 3. Defender makes weapon or dodge skill test. The test
    is not opposed, but rather the degrees of success are compared" on the Attack vs. Parry Matrix.
    FACTS.md: critical ≤ skill/20, special ≤ skill/5, fumble ≥ 100 − (100 − skill)/20, rounded.
    By hand: 60% → critical 01-03, special 04-12, success 13-60, fumble 98-00, failure 61-97;
    45% → critical 01-02, special 03-09, success 10-45, fumble 97-00, failure 46-96."""
    _, _, o = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor", HALF_SHIELD), {"kind": "parry",
                                                                                         "weapon": "shield"})
    assert o.skill == 60
    assert o.degrees == {"critical": F(3, 100), "special": F(9, 100), "success": F(48, 100), "failure": F(37, 100),
                         "fumble": F(3, 100)}
    p = o.alternative("parry:shield")
    assert p.skill == 45
    assert p.degrees == {"critical": F(2, 100), "special": F(7, 100), "success": F(36, 100), "failure": F(51, 100),
                         "fumble": F(4, 100)}
    cell = {(c["attack"], c["defence"]): c for c in p.grid}
    assert sum(c["chance"] for c in p.grid) == 1
    assert cell[("critical", "critical")]["chance"] == F(3 * 2, 10000)
    assert cell[("special", "success")]["chance"] == F(9 * 36, 10000) and cell[("special", "success")]["damage"] == "special"
    # every successful attack deals damage on this table (parried or not): the blow lands 60% of the time
    assert p.lands == F(60, 100)
    # it is parried when the parry succeeds: 60% × 45%, plus a failed attack met by a parry is "parried" too
    unparried = sum(c["chance"] for c in p.grid if c["damage"] != "none" and not c["parried"])
    assert unparried == F(60, 100) * F(55, 100)
    # FACTS.md: against a failed attack "a critical or special parry damages the attacking weapon (special
    # damage), a successful parry normal"; a critical parry damages it against a successful attack too:
    # (37+3)% × 45% + 48% × 2%
    assert p.weapon_damaged == F(40 * 45 + 48 * 2, 10000)


def test_no_defence_damage_and_injury_by_hand():
    """Damage: "Successful attacks deal damage equal to weapon damage plus (or minus) the attacker's damage
    modifier"; Special Damage: "Slashing: Weapon base damage is doubled"; a critical is maximised special
    damage (FACTS.md) that ignores armour. Injuries: "A location reduced to 0 HP or less has a serious wound",
    "reduced to or below negative HP equal to location HP is maimed"; Death: "reduced to 0 total HP".
    The GM places the blow on the head (5 HP, no armour): broadsword 1D8+1 + damage modifier 1D4."""
    _, _, o = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), "none", gm_location="head")
    a = o.alternative("none")
    # normal (48%): 1D8+1+1D4 = 3..13; 3-4 minor (3/32), 5-9 serious (19/32), 10-13 maimed (10/32), 13 kills (1/32)
    # special (9%): 2D8+2+1D4 = 5..22: serious, maimed (≥10) or mangled (≥15); critical (3%): 22, mangled: killed
    sp = Counter()
    for f in itertools.product(range(1, 9), range(1, 9), range(1, 5)):
        d = sum(f) + 2
        sp["serious" if d < 10 else "maimed" if d < 15 else "mangled"] += 1
        sp["killed"] += d >= 13 or d >= 15
    n = F(48, 100) / 32
    s = F(9, 100) / 256
    assert a.wound["minor"] == 3 * n
    assert a.wound["serious"] == 19 * n + sp["serious"] * s
    assert a.wound["maimed"] == 10 * n + sp["maimed"] * s
    assert a.wound["mangled"] == sp["mangled"] * s + F(3, 100)
    assert a.killed == 1 * n + sp["killed"] * s + F(3, 100)
    assert a.wound["none"] == F(40, 100)
    assert a.locations == {"Head": F(60, 100)}


def test_defender_alternatives_side_by_side():
    """Defending: the defender chooses: parry with a weapon (one parry a round; a second weapon or a shield gives
    an extra parry), or dodge; "Running characters cannot dodge or parry" shows as not allowed."""
    enc, act, o = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), {"kind": "parry", "weapon": "shield"})
    assert [a.key for a in o.alternatives] == ["parry:shield", "parry:broadsword", "dodge", "none"]
    assert o.chosen == "parry:shield"
    d = o.alternative("dodge")
    assert d.skill == 40 and d.allowed
    assert o.alternative("none").through > d.through > o.alternative("parry:shield").through
    enc.get("c2").data["round"]["running"] = True
    o2 = odds.exchange_odds(RS, enc, act)
    assert [(a.key, a.allowed) for a in o2.alternatives][:3] == [("parry:shield", False), ("parry:broadsword", False),
                                                                 ("dodge", False)]
    assert "Running" in o2.alternative("dodge").why
    assert o2.alternative("none").allowed


def test_the_odds_roll_nothing_and_change_nothing():
    """It never rolls (its tray has no random source) and the encounter is left as it was."""
    enc, act, _ = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), {"kind": "dodge"},
                           rolls={"attack": 5})
    before = asdict(enc)
    o = odds.exchange_odds(RS, enc, {**act, "rolls": {"attack": 5}})
    assert asdict(enc) == before
    assert o.alternative("dodge").degrees  # the typed roll was ignored: a full distribution


def test_modifiers_come_from_the_engine():
    """Special Attacks: "Aimed Attack (½ skill)"; "Remember that bonuses and penalties are applied after the
    skill is halved": 60% aimed with +10 is 40%."""
    _, _, o = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), "none", mode="aimed", aim="head", bonus=10)
    assert o.skill == 40
    assert o.alternative("none").locations == {"Head": o.alternative("none").through}


def _face(skill, degree):
    return next(r for r in range(1, 101) if rules.degree_of_success(skill, r) == degree)


DAGGER = {"name": "Dagger", "skill": 70, "damage": "1D4+1", "sr": 3, "hp": 6, "type": "slashing", "hand": "right"}
BUCKLER = {"name": "Buckler", "skill": 55, "damage": "1D3", "sr": 3, "hp": 2, "type": "crushing", "shield": True,
           "shield_size": "small", "hand": "left"}


def test_brute_force_through_the_real_exchange():
    """Every face of both d100s (through ``rules.degree_of_success`` and the Attack vs Parry table), and for
    each kind of landing every location face and damage face played through the real ``sr.attack`` handler
    with typed dice: the damage that gets through (parry "reduced by weapon HP", then AP) matches exactly."""
    a = fighter("Ana", DAGGER, side="party", STR=10, SIZ=10)  # STR+SIZ 20: no damage modifier
    b = fighter("Bor", BUCKLER, armour={"head": 3, "chest": 1, "abdomen": 1}, hp=16)
    enc = to_phase(duel(a, b), "resolve")
    act = {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "dagger",
           "defence": {"kind": "parry", "weapon": "buckler"}}
    o = odds.exchange_odds(RS, enc, act).alternative("parry:buckler")
    table = RS.tables["attack_vs_parry"]
    groups = Counter()
    for ar in range(1, 101):
        for dr in range(1, 101):
            ad, dd = rules.degree_of_success(70, ar), rules.degree_of_success(55, dr)
            groups[(ad, dd)] += 1
    taken = Counter()
    total = 0
    for (ad, dd), w in groups.items():
        cell = rules.matrix_cell(table, ad, dd)
        if cell["damage"] == "none":
            taken[0] += w * 20 * 16
            continue
        expr = {"normal": "1D4+1", "special": "2D4+2", "max_special": "2D4+2"}[cell["damage"]]
        n = parse(expr).dice_count
        faces = [()] if cell["damage"] == "max_special" else list(itertools.product(range(1, 5), repeat=n))
        per = 20 * len(faces)
        for loc in range(1, 21):
            for f in faces:
                rolls = {"attack": _face(70, ad), "defence": _face(55, dd), "location": loc,
                         "knockback_dex": 1, "wound.con_head": 1, "wound.con_shock": 1, "fumble_attack": 50,
                         "fumble_defence": 50, "parry_damage": [1, 1]}
                if f:
                    rolls["damage"] = list(f)
                _, ev = apply(enc, {**act, "rolls": rolls})
                got = next((e["detail"]["taken"] for e in ev if e["kind"] == "damage_roll" and "taken" in e["detail"]), 0)
                taken[got] += w * (20 * 16) // per
    total = sum(taken.values())
    assert {k: F(v, total) for k, v in taken.items() if v} == o.taken


def test_pulled_blow_is_read_as_the_exchange_reads_it():
    """Pulling Blows: "any die ... can be reduced to a smaller die (down to 1D3)"; a pull that cannot be read
    gives no odds, with the engine's own message."""
    _, act, o = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), "none", gm_location="head",
                         pull={"die_sides": 3, "drop_modifier": True})
    # 1D8+1 pulled to 1D3+1 with no damage modifier; the worst is a critical: 2D3+2 maximised = 8
    assert max(o.alternative("none").taken) == 8
    _, _, bad = exchange(fighter("Ana", SWORD, side="party"), fighter("Bor"), "none", pull={"die_sides": "x"})
    assert bad.error and "pull.die_sides" in bad.error


def test_a_critical_gets_through_armour_but_not_magical_protection():
    """Results: "Critical Hit: Special damage, ignores armor (but not magical protection)". 22 points of armour
    on the head stop every normal and special blow of a broadsword (1D8+1+1D4, at most 22), yet the 3% of
    criticals still land in full; 22 points of magical protection (``sr.protection``) stop the criticals too."""
    a, b = fighter("Ana", SWORD, side="party"), fighter("Bor", armour={"head": 22})
    enc, act, o = exchange(a, b, "none", gm_location="head")
    armoured = o.alternative("none")
    assert armoured.wound["none"] == F(97, 100) and armoured.wound["mangled"] == F(3, 100)
    enc = to_phase(duel(a, fighter("Bor")), "resolve")
    enc, _ = apply(enc, {"type": "sr.protection", "target": "c2", "points": 22, "reason": "Protection"})
    shielded = odds.exchange_odds(RS, enc, act).alternative("none")
    assert shielded.wound["none"] == 1 and shielded.through == 0
