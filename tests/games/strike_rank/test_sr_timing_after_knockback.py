"""Strike-rank timing after a knockback, a maimed or disabled leg, a charge and a brace, as a GM's
play-through of the build found it: a declared attack's movement timed again from where and when its
attacker now is, at the rate it now has.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

from sr_helpers import SPEAR, actions, attack, declare, do, fight, fighter, texts, to_phase

GREATSWORD = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}
BLOW = {"attack": 10, "damage": [8, 8, 4], "knockback_dex": 10, "wound.con_shock": 10}  # 22 rolled: 5 m back


def _no_collision(enc):
    p = next(p for p in enc.state["prompts"] if p["kind"] == "collision")
    return do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "none"})


def _closing_together(broo_armour: int):
    """Kallyr (Greatsword) and Broo 3 declare melee attacks on each other 10.82 m apart: 7.82 m to close at
    3 + 3 m a strike rank, 2 SR (Kallyr SR 8, Broo 3 SR 9). Kallyr strikes first, closing all the way."""
    enc = fight(fighter("Kallyr", GREATSWORD, side="party", x=0, y=0), fighter("Broo 3", x=10.82, y=0, armour=broo_armour))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="greatsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    assert [a["sr"] for a in enc.state["actions"]] == [8, 9]
    assert "closing together" in actions(enc, "c2")[0]["note"]
    return to_phase(enc, "resolve")


def test_one_knocked_back_and_made_to_crawl_by_one_blow_is_timed_at_the_crawl():
    """Maimed leg: "If half or more of a combatant's legs are maimed, they cannot stand (crawl at 1m rate ...)";
    Attacking: "This may be delayed by movement"; Changing Actions: "If an attack is pushed past SR 12, it is
    lost." A GM's play: Kallyr's blow at SR 8 maimed Broo 3's right leg and knocked him back 5 m; Broo 3 kept
    SR 9 with "closing together" and closed on Kallyr in it. Now Kallyr, who has struck, comes no more: Broo 3
    must crawl 5 m at 1 m a strike rank from SR 8, SR 13: the attack is lost, and the log says whose."""
    enc = _closing_together(broo_armour=12)  # 22 - 12 AP = 10 to the leg (HP 5): maimed
    enc, ev = attack(enc, "c1", "c2", weapon="greatsword", ref="a1", gm_location="right_leg", rolls=BLOW,
                     move_token=True)
    assert "cannot stand, crawl at 1 m" in texts(ev) and "knocked back 5 m" in texts(ev), texts(ev)
    enc, ev = _no_collision(enc)
    broo = actions(enc, "c2")[0]
    assert broo["status"] == "lost", (broo, texts(ev))
    assert "Broo 3 was knocked back: Broo 3's melee attack with Broadsword" in texts(ev), texts(ev)
    assert "is past SR 12: the attack is lost" in texts(ev)


def test_closing_together_ends_once_the_other_has_struck():
    """Movement: "If two combatants move to engage each other, add up their movement rates to figure out how many
    SR it takes for them to connect." Kallyr closed and struck at SR 8, knocking Broo 3 (on his feet) back 5 m;
    Kallyr no longer comes: Broo 3's 5 m are timed at his own 3 m a strike rank, not "closing together"."""
    enc = _closing_together(broo_armour=20)  # the blow to his chest does not fell him
    enc, ev = attack(enc, "c1", "c2", weapon="greatsword", ref="a1", gm_location="chest", rolls=BLOW,
                     move_token=True)
    enc, ev = _no_collision(enc)
    broo = actions(enc, "c2")[0]
    assert broo["status"] == "declared", texts(ev)
    assert broo["note"] == "closes 5 m at 3 m a strike rank: +2 SR", broo
    assert "closing together" not in broo["text"] and not broo.get("closing"), broo


def test_movement_after_a_knockback_begins_at_the_strike_rank_of_the_knockback():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR"; Grappling, Drag: "Movement starts on the SR following the grapple resolution." A GM's
    play: Far Bor, knocked back at SR 8, was put at SR 11 = DEX 3 + SIZ 2 + weapon 2 + move 4, covering 11 m
    before the blow that sent him back. His new movement begins with the knockback: SR 8 + 4 SR = SR 12."""
    enc = fight(fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=9, y=0, armour=20),
                fighter("Cid", GREATSWORD, side="party", x=7, y=0, dex_sr=5))
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="greatsword", target="c2")
    assert [a["sr"] for a in enc.state["actions"]] == [9, 8]
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 8
    enc, ev = attack(enc, "c3", "c2", weapon="greatsword", ref="a2", rolls={**BLOW, "location": 10}, move_token=True)
    enc, ev = _no_collision(enc)
    assert enc.get("c2").position.x == 14, texts(ev)
    bor = actions(enc, "c2")[0]
    assert (bor["status"], bor["sr"]) == ("declared", 12), (bor, texts(ev))
    assert bor["text"] == "SR 12 = movement from SR 8 + move 4", bor
    assert ("Bor was knocked back: Bor's melee attack with Broadsword now at SR 12: SR 12 = movement from SR 8 + "
            "move 4 (closes 11 m at 3 m a strike rank: +4 SR)") in texts(ev), texts(ev)


def test_a_braced_spear_does_not_walk_to_the_charger():
    """Bracing for a Charge: "A combatant wielding a spear who is charged can brace the spear to receive the
    attack. They attack at the weapon's SR + the SR required for the charging movement (ignoring DEX SR and SIZ
    SR), and the attack uses the charger's (or their mount's) damage bonus". A GM's play: the Spearmaiden braced
    against Wolf 2's charge; her breakdown said she "closes 6.93 m at 3 m a strike rank" and at resolution she
    walked to the wolf. The charger comes to her: no movement of her own, the breakdown says the charger's run."""
    enc = to_phase(fight(fighter("Spearmaiden", SPEAR, side="party"), fighter("Wolf 2", x=9.93, y=0)), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    enc, ev = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"})
    her = actions(enc, "c1")[0]
    assert (her["sr"], her["moving"], her["metres"]) == (3, False, 0), her
    assert "Spearmaiden closes" not in her["note"] and "closes 6.9 m at 3 m" not in texts(ev), texts(ev)
    assert her["note"] == "Wolf 2's charge: closes 6.9 m running at 6 m a strike rank: +2 SR", her
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 3
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=her["ref"], rolls={"attack": 90}, move_token=True)
    assert enc.get("c1").position.x == 0 and "Spearmaiden closes" not in texts(ev), texts(ev)


def test_a_charger_whose_leg_is_disabled_walks_and_its_charge_is_lost():
    """Damage Equal to Location HP, Leg: "The combatant cannot run"; Charging: "A combatant can charge at an
    opponent to engage them, running at double Movement rate". A GM's play: Wolf 1 charged Bolt at 16 m a strike
    rank; a leg disabled at SR 2, it still closed 23.1 m at its charge's SR 5. A leg that cannot run ends the
    charge (said in the log): the wolf walks its 24 m at 8 m a strike rank, 3 SR, timed again."""
    enc = fight(fighter("Bolt", side="party", x=0, y=0), fighter("Wolf 1", x=27, y=0, move=8, body="quadruped"))
    enc = to_phase(enc, "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    wolf = actions(enc, "c2")[0]
    assert wolf["sr"] == 7 + 2 and wolf["running"], wolf  # 24 m at 16 m a strike rank: 2 SR
    enc = to_phase(enc, "resolve")
    hp = next(l for l in enc.get("c2").data["locations"] if l["id"] == "left_hind_leg")["hp_max"]
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "left_hind_leg", "amount": hp,
                       "armour": False, "rolls": {"wound.con_shock": 10}})
    wolf = actions(enc, "c2")[0]
    assert not wolf["running"] and not wolf["charge"], (wolf, texts(ev))
    assert wolf["sr"] == 7 + 3 and wolf["note"] == "closes 24 m at 8 m a strike rank: +3 SR", (wolf, texts(ev))
    assert "Wolf 1 cannot run (a disabled leg: cannot run): the charge is lost" in texts(ev), texts(ev)


def test_a_braced_spears_attack_heading_says_the_chargers_damage_modifier():
    """Bracing for a Charge: "the attack uses the charger's (or their mount's) damage bonus instead of the
    wielder's". A GM's play: the braced Spearmaiden's attack heading showed her own +1D4 while the damage rolled
    the charging wolf's; the heading says what is rolled, and whose it is."""
    from sr_helpers import attack_form

    enc = to_phase(fight(fighter("Spearmaiden", SPEAR, side="party"), fighter("Wolf 2", x=9.93, y=0, STR=20, SIZ=20)),
                   "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"})
    enc = to_phase(enc, "resolve")
    heading = attack_form(enc, "c1").split("<h3>")[1].split("</h3>")[0]
    assert heading == "SR 3: Spearmaiden attacks with Spear 60%, 1D8+1 +1D6 (Wolf 2&#x27;s damage modifier)", heading
