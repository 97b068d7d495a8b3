"""What a GM's strike-rank play-through of today's build found: a charge met by a braced spear walked again
from the start, a mount that can no longer run still carrying its rider's mounted charge, and a closing
logged longer than declared when someone stood in the way.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from sr_helpers import SPEAR, actions, attack, do, fight, fighter, knight_and_bor, knight_charges, texts, to_phase  # noqa: E402


def _braced(x: float = 16):
    """Bor charges Ana from 16 m (13 m to close, running at 6 m a strike rank: 3 SR, his SR 10); Ana braces
    her spear against him: SR 1 + 3 = 4."""
    enc = to_phase(fight(fighter("Ana", SPEAR, side="party"), fighter("Bor", x=x)), "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1",
                      "charge": True})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"})
    return to_phase(enc, "resolve")


def test_a_charge_met_by_a_braced_spear_is_not_walked_again():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement (ignoring
    DEX SR and SIZ SR)": the spear strikes when the charger arrives. A GM's play: the spear disabled the charger's
    leg at SR 4 and his charge was walked again over the whole 13 m at half rate (SR 16: lost). After the brace
    the charger stands where the spear met him: his attack stays at SR 10, with no second walk, and his
    breakdown says where the charge ended."""
    enc = _braced()
    assert enc.state["sr"] == 4
    ana = actions(enc, "c1")[0]
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=ana["ref"], move_token=True,
                     rolls={"attack": 10, "location": 5, "damage": [3, 3, 1]})
    assert "Bor's Left leg is disabled" in texts(ev), texts(ev)
    assert "Bor's charge meets Ana's braced spear at SR 4: Bor closes 13 m to Ana" in texts(ev), texts(ev)
    assert round(enc.get("c2").position.x, 1) == 3.0, enc.get("c2").position
    bor = actions(enc, "c2")[0]
    assert (bor["status"], bor["sr"]) == ("declared", 10), (bor, texts(ev))
    assert "closes 13 m at 1.5 m" not in texts(ev) and "the charge is lost" not in texts(ev), texts(ev)
    assert "met by Ana's braced spear at SR 4" in bor["note"], bor
    while enc.state["sr"] < 10:
        enc, _ = do(enc, {"type": "advance"})
    enc, ev = attack(enc, "c2", "c1", ref=bor["ref"], move_token=True, rolls={"attack": 90})
    assert "Bor closes" not in texts(ev) and "short of" not in texts(ev), texts(ev)
    assert round(enc.get("c2").position.x, 1) == 3.0


def test_a_charge_met_without_moving_tokens_is_not_walked_again():
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement". With
    the tokens left where they stand (a save from before the page moved them), the charge is still over once
    the spear has met it: a leg disabled after that gives the charger no distance to walk again."""
    enc = _braced()
    ana = actions(enc, "c1")[0]
    enc, ev = attack(enc, "c1", "c2", weapon="spear", ref=ana["ref"],
                     rolls={"attack": 10, "location": 5, "damage": [3, 3, 1]})
    bor = actions(enc, "c2")[0]
    assert (bor["status"], bor["sr"]) == ("declared", 10), (bor, texts(ev))
    assert "Bor's charge meets Ana's braced spear at SR 4" in texts(ev), texts(ev)


def _mounted():
    """The Knight's horse (Movement 8, running 16 m a strike rank) charges Bor 27 m off (24 m to close: 2 SR);
    the Knight's lance strikes at SR 1 + 2 = 3."""
    enc = knight_charges(knight_and_bor())
    assert actions(enc, "c2")[0]["sr"] == 3
    return enc


def _disable_leg(enc, cid: str):
    hp = next(l for l in enc.get(cid).data["locations"] if l["id"] == "left_hind_leg")["hp_max"]
    return do(enc, {"type": "sr.damage", "target": cid, "location": "left_hind_leg", "amount": hp,
                    "armour": False, "rolls": {"wound.con_shock": 10}})


def test_a_mount_that_cannot_run_ends_the_mounted_charge():
    """Damage Equal to Location HP, Leg: "The combatant cannot run"; Charging: "running at double Movement rate";
    Mounted Charge & Lance: "Mounted combatants who charge at least 20m ... the attack's SR is the weapon's SR +
    the SR required for the movement (ignoring DEX SR and SIZ SR), and the attack uses the mount's damage bonus".
    The horse's leg disabled, the horse cannot run: there is no charge, so none of its benefits. The Knight's
    attack is timed as any melee attack, the horse walking its 24 m at 8 m a strike rank (3 SR): SR 3 + 2 + 1 + 3
    = 9, with the Knight's own damage bonus, said in the log."""
    enc, ev = _disable_leg(_mounted(), "c1")
    knight = actions(enc, "c2")[0]
    assert not knight.get("mounted_charge") and "dm_from" not in knight, knight
    assert (knight["status"], knight["sr"]) == ("declared", 9), (knight, texts(ev))
    assert knight["text"] == "SR 9 = DEX 3 + SIZ 2 + weapon 1 + move 3", knight
    assert knight["note"] == "closes 24 m at 8 m a strike rank: +3 SR", knight
    assert ("Horse cannot run (a disabled leg: cannot run): Knight's mounted charge is lost; Horse walks at "
            "8 m a strike rank") in texts(ev), texts(ev)


def test_a_mount_that_cannot_run_cannot_set_off_on_a_mounted_charge():
    """Damage Equal to Location HP, Leg: "The combatant cannot run"; Mounted Charge & Lance: "Mounted combatants
    who charge at least 20m": a lamed horse cannot charge, and the declaration says why."""
    import pytest
    from fray.errors import RuleViolation
    enc = knight_and_bor()
    enc, _ = _disable_leg(enc, "c1")
    enc = to_phase(enc, "declare")
    with pytest.raises(RuleViolation, match="Horse cannot run: a disabled leg"):
        do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "lance", "target": "c3",
                 "mounted_charge": True})


def test_a_closing_that_steps_aside_is_logged_as_declared():
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR"; Engagement: "small movements and changes of position are assumed to happen as necessary".
    A GM's play: Ana declared "closes 6.2 m" on Bor; Cai stood on the spot where her closing ends, so she stepped
    aside to a free one round Bor, and the log said "Ana closes 6.8 m", the SR the same. The step aside is part of
    the same closing: the log says the 6.2 m declared, and she ends within Bor's reach, off Cai's spot."""
    import math
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=9.2), fighter("Cai", side="party", x=6.2)),
                   "declare")
    enc, ev = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"})
    ana = actions(enc, "c1")[0]
    assert "closes 6.2 m at 3 m a strike rank: +3 SR" in ana["note"], ana
    enc = to_phase(enc, "resolve")
    while enc.state["sr"] < ana["sr"]:
        enc, _ = do(enc, {"type": "advance"})
    enc, ev = attack(enc, "c1", "c2", ref=ana["ref"], move_token=True, rolls={"attack": 90})
    assert "Ana closes 6.2 m to Bor" in texts(ev), texts(ev)
    a, b, c = (enc.get(i).position for i in ("c1", "c2", "c3"))
    assert math.hypot(a.x - b.x, a.y - b.y) <= 3.0 and math.hypot(a.x - c.x, a.y - c.y) >= 1.5, (a, b, c)


def test_a_mounted_riders_melee_is_carried_by_his_mount_at_its_rate_both_tokens_together():
    """Movement: "Movement costs 1 SR per (Movement rate) metres"; Mounted Knockback: "both mount and rider suffer
    any knockback"; Moving Mounts & Shooting: "A mounted character only halves their skill if the mount is running": the
    mount does the moving. A GM's play: after the mounted charge, the rider's plain melee declarations read
    "closes 15 m at 3 m a strike rank" (his own feet), and his token moved 15 m while his horse's stayed put: they
    ended 17 m apart. The Knight's plain melee on Bor 18 m off: 15 m to close at the horse's 8 m a strike rank (2
    SR), and both tokens close together."""
    enc = fight(fighter("Horse", side="party", STR=25, SIZ=25, move=8, body="quadruped"))
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Knight", side="party", mount="c1")})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Bor", x=18)})
    enc = to_phase(enc, "declare")
    enc, ev = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c3"})
    knight = actions(enc, "c2")[0]
    assert knight["note"] == "closes 15 m at 8 m a strike rank: +2 SR", knight
    assert knight["text"] == "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2", knight
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 9
    enc, ev = attack(enc, "c2", "c3", ref="a1", rolls={"attack": 90, "defence": 90}, move_token=True)
    rider, horse = enc.get("c2").position, enc.get("c1").position
    assert (rider.x, rider.y) == (15.0, 0.0), texts(ev)
    assert (horse.x, horse.y) == (rider.x, rider.y), texts(ev)


def test_the_order_names_a_spell_by_its_name_and_marks_a_dead_target():
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies."
    A GM's play: the order read "Cast a spell bladesharp → Gorakh" (the spell's id; the log said "Bladesharp"),
    and "Vasana ... → Broo 2" after Broo 2 died, with no mark. The spell is named as the GM knows it, and a dead
    target is marked: "→ Broo 2 (dead: must change)"."""
    import re

    from fray.games.strike_rank.web.declare import order_html
    from sr_helpers import RS, SWORD

    caster = fighter("Gorakh", SWORD, side="party", spells=[{"name": "Bladesharp", "type": "battle", "intensity": 2}])
    enc = fight(caster, fighter("Vasana", SWORD, side="party", x=0, y=2), fighter("Broo 2", x=2, y=2))
    enc = to_phase(enc, "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "spell", "spell": "bladesharp", "target": "c1"})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c3"})
    enc = to_phase(enc, "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": "dead"})
    shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(order_html(RS.view(enc)))))
    assert "Cast a spell Bladesharp → Gorakh" in shown and "bladesharp" not in shown, shown
    assert "→ Broo 2 (dead: must change)" in shown, shown


def test_one_already_prone_and_unconscious_is_not_said_to_fall_prone_and_knockback_is_said_to_the_decimetre():
    """Knockback: "the target is knocked back 1 meter for every 5 points of damage ... The target needs to make a
    DEX×5% roll or fall prone." A GM's play: "Broo 3 (down) is unconscious: no DEX roll; falls prone" of one lying
    prone already, and "knocked back 2.53554 m". One already prone falls no more; metres are said to 0.1 m."""
    great = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing",
             "hand": "both", "knockback": True}
    enc = fight(fighter("Cid", great, side="party", x=0, y=0), fighter("Broo 3", x=2, y=0.8, hp=60),
                fighter("Broo 4", x=5, y=2))
    for cond in ("unconscious", "prone"):
        enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": cond})
    enc = to_phase(enc, "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "greatsword", "target": "c2"})
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, "c1", "c2", weapon="greatsword", ref="a1", defence="none",
                     rolls={"attack": 10, "damage": [8, 8, 4], "location": 12}, move_token=True)
    said = texts(ev)
    assert "falls prone" not in said and "Broo 3 is unconscious: no DEX roll; already prone" in said, said
    p = next(p for p in enc.state["prompts"] if p["kind"] == "collision")
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "combatant", "with": "c3",
                       "rolls": {"collision_dex": 10}})
    import re
    got = re.search(r"Broo 3 is knocked back ([\d.]+) m", texts(ev))
    assert got and re.fullmatch(r"\d+(\.\d)?", got.group(1)), texts(ev)


def test_a_charger_shot_by_another_than_the_one_charged_is_barred_as_running_not_by_the_charge_rule():
    """Charging: "running at double Movement rate ... However, if the opponent does attack first, the charging
    combatant would not be able to dodge or parry."; Movement: "Running characters cannot dodge or parry." A GM's
    play: Ayla's bow form against the wolf charging Vasana quoted the charge's "if the opponent does attack first",
    though Ayla is not the one the wolf charges. Only the opponent's attack is the charge's rule; anyone else's
    finds the wolf running, and that rule is said."""
    import pytest
    from fray.errors import RuleViolation
    from sr_helpers import BOW, attack_form

    enc = fight(fighter("Wolf", x=20, y=0), fighter("Vasana", side="party", x=0, y=0),
                fighter("Ayla", BOW, side="party", x=0, y=4))
    enc = to_phase(enc, "declare")
    enc, _ = do(enc, {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2",
                      "charge": True})
    enc, _ = do(enc, {"type": "sr.declare", "id": "c3", "kind": "missile", "weapon": "bow", "target": "c1"})
    enc = to_phase(enc, "resolve")
    form = attack_form(enc, "c3")
    assert "Running characters cannot dodge or parry" in form and "Charging” in the rules" not in form, form
    with pytest.raises(RuleViolation) as refused:
        attack(enc, "c3", "c1", weapon="bow", ref=actions(enc, "c3")[0]["ref"], defence="dodge", rolls={"attack": 50, "defence": 10})
    assert refused.value.rule == "Movement" and "Running characters cannot dodge or parry" in str(refused.value)
    with pytest.raises(RuleViolation) as refused:  # the one charged: the charge's own rule
        attack(enc, "c2", "c1", ref=None, defence="dodge", rolls={"attack": 50, "defence": 10})
    assert refused.value.rule == "Charging", refused.value
