"""Movement once declared: where a closing move ends, and a declared attack's movement worked out again
when its attacker or its target no longer stands where the declaration was made, or the attacker's
Movement rate changed (a knockback, a maimed leg, a token the GM moved on the map).

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import math

from sr_helpers import actions, attack, declare, do, fight, fighter, texts, to_phase


def _apart(enc, a: str, b: str) -> float:
    p, q = enc.get(a).position, enc.get(b).position
    return math.hypot(p.x - q.x, p.y - q.y)


def test_a_closing_attacker_stops_a_spot_clear_of_another_foe_not_a_metre_from_him():
    """Engagement: "For human-sized combatants, engagement range is about 3 meters or less" and "anyone who moves
    adjacent to a melee or an enemy becomes engaged". A GM's fight: Yanioth closed on Broo and stopped at 3.0 m
    from him, 1 m from Orlanth who stood on her line, inside his reach as if on top of him. The closing ends
    within engagement range of Broo and at least a spot's width (half Add ×N's step, as Add ×N judges a spot
    taken) from everyone else."""
    enc = fight(fighter("Yanioth", side="party", x=0, y=0), fighter("Broo", x=10, y=0), fighter("Orlanth", x=8, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", rolls={"attack": 90}, move_token=True)
    assert _apart(enc, "c1", "c2") <= 3.0 + 1e-6, texts(ev)
    assert _apart(enc, "c1", "c3") >= 1.5 - 0.02, (enc.get("c1").position, texts(ev))  # 1.5 m: Add ×N's step / 2


GREATSWORD = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def _bor_knocked_back_5_m(**bor):
    """Ana (Greatsword, SR 6) and Bor (Broadsword) 2 m apart each declare a melee attack on the other; Ana's
    blow at SR 6 knocks Bor back 5 m (a GM's play-through: damage 8 8 4 of 2D8+2+1D4, 22 over SIZ 13) and the
    GM answers that he collides with nothing. His armour (6 AP) keeps his legs under him."""
    enc = fight(fighter("Ana", GREATSWORD, side="party", x=0, y=0), fighter("Bor", x=2, y=0, armour=6, **bor))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="greatsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, ref="a1", weapon="greatsword", defence={"kind": "parry", "weapon": "broadsword"},
                     rolls={"attack": 10, "defence": 30, "location": 10, "damage": [8, 8, 4], "knockback_dex": 10,
                            "wound.con_shock": 10}, move_token=True)
    assert "knocked back 5 m" in texts(ev)
    p = next(p for p in enc.state["prompts"] if p["kind"] == "collision")
    return do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})


def test_a_fighter_knocked_back_after_declaring_strikes_later_by_the_metres_back():
    """Attacking: "Attacks are completed at DEX SR + SIZ SR + weapon SR for melee attacks ... This may be delayed
    by movement: if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will be
    delayed by 2 SR". A GM's fight: Bor, knocked back 5 m after declaring, still struck at his old SR 7 from 7 m
    off. His attack's movement is worked out again from where he landed: 4 m at 3 m/SR, 2 SR, SR 9; and at SR 9
    he closes those 4 m, no more."""
    enc, ev = _bor_knocked_back_5_m()
    assert (enc.get("c2").position.x, enc.get("c2").position.y) == (7, 0)
    bor = actions(enc, "c2")[0]
    assert bor["status"] == "declared" and bor["sr"] == 9, bor
    assert "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2" in bor["text"]
    assert "Bor's melee attack with Broadsword now at SR 9" in texts(ev), texts(ev)
    enc = to_phase(enc, "resolve")
    while enc.state["sr"] < 9:
        enc, _ = do(enc, {"type": "advance"})
    enc, ev = attack(enc, "c2", "c1", ref=bor["ref"], rolls={"attack": 90}, move_token=True)
    assert "Bor closes 4 m to Ana" in texts(ev) and enc.get("c2").position.x == 3


def test_an_attack_knocked_back_past_sr_12_is_lost():
    """Changing Actions: "If an attack is pushed past SR 12, it is lost"; Attacking: "Attacks cannot "roll
    over."" Bor (DEX 5: DEX SR 5, Movement 1 m/SR) declared at SR 9; knocked back 5 m, he must crawl back 4 m, 4 SR:
    SR 13, past SR 12, and the GM is told that the attack is lost."""
    enc, ev = _bor_knocked_back_5_m(DEX=5, move=1)
    bor = actions(enc, "c2")[0]
    assert bor["status"] == "lost", bor
    assert "Bor's melee attack with Broadsword" in texts(ev) and "is past SR 12: the attack is lost" in texts(ev)


def test_a_leg_maimed_after_declaring_slows_the_attacks_movement():
    """Movement: "Moving less than the full Movement rate still takes a minimum of 1 SR"; Attacking: the attack
    "may be delayed by movement". Bor declared to close 3 m on Ana (1 SR at 3 m/SR: SR 8); a leg maimed before
    he moves leaves him crawling at 1 m/SR, so the same 3 m take 3 SR: SR 10."""
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=6, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    assert actions(enc, "c2")[0]["sr"] == 8
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "left_leg", "amount": 10, "armour": False,
                       "rolls": {"wound.con_shock": 10}})
    bor = actions(enc, "c2")[0]
    assert bor["sr"] == 10 and "move 3" in bor["text"], (bor, texts(ev))
    assert "Bor's melee attack with Broadsword now at SR 10" in texts(ev)


def test_a_token_the_gm_moves_after_declaring_times_its_attack_again_and_does_not_jump():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR". A GM's fight: Bor, dragged 13 m away on the map after declaring at SR 7, struck at SR 7 and
    jumped the 13 m to his target. His attack is timed again from where the GM put him (12 m to close at
    3 m/SR: 4 SR, SR 11); moved again out of reach of SR 12 (past SR 12) it is lost; an attacker who can no longer
    reach the target at its SR moves what its movement SRs allow and no more, and the log says so."""
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=2, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    assert actions(enc, "c2")[0]["sr"] == 7
    enc, ev = do(enc, {"type": "move", "id": "c2", "x": 15, "y": 0})
    bor = actions(enc, "c2")[0]
    assert bor["sr"] == 11 and "move 4" in bor["text"], (bor, texts(ev))
    assert "Bor was moved on the map: Bor's melee attack with Broadsword now at SR 11" in texts(ev), texts(ev)
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 11
    enc, ev = attack(enc, "c2", "c1", ref=bor["ref"], rolls={"attack": 90}, move_token=True)
    assert "Bor closes 12 m to Ana" in texts(ev) and enc.get("c2").position.x == 3
    # dragged 19 m away as resolution begins: 18 m to close is 6 SR, SR 13, past SR 12: lost
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=2, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "move", "id": "c2", "x": 21, "y": 0})
    assert actions(enc, "c2")[0]["status"] == "lost" and "is past SR 12: the attack is lost" in texts(ev)


def test_an_attacker_moves_no_further_than_its_move_srs_allow():
    """Movement: "Movement costs 1 SR per (Movement rate) metres" (FACTS.md; "if a human (Movement 3m) must move
    6m to get within melee range of an opponent, the attack will be delayed by 2 SR"). Bor declared to close 3 m on
    Ana (1 SR: SR 8); Ana walked 6 m away at SR 2 by her own move. At SR 8 Bor covers the 3 m his 1 SR of
    movement allows, not the 9 m to her, and the log says he is still short of her reach; a position typed in
    the combatant's form times the attack again like a drag on the map."""
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=6, y=0), fighter("Cid", x=-20, y=0))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c1", kind="move", target="c3", metres=6)
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "sr.resolve", "ref": "a2", "move_token": True})
    assert enc.get("c1").position.x == -6
    while enc.state["sr"] < 8:
        enc, _ = do(enc, {"type": "advance"})
    enc, ev = attack(enc, "c2", "c1", ref="a1", rolls={"attack": 90}, move_token=True)
    assert enc.get("c2").position.x == 3, texts(ev)
    assert "Bor closes 3 m to Ana" in texts(ev) and "Bor is still 6 m short of Ana's reach" in texts(ev)
    enc = to_phase(fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=2, y=0)), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, ev = do(enc, {"type": "edit_combatant", "id": "c2", "changes": {"position": {"x": 8, "y": 0}}})
    assert actions(enc, "c2")[0]["sr"] == 9 and "Bor was moved: Bor's melee attack with Broadsword now at SR 9" in texts(ev)
