"""A GM's play-through with a crossbowman (Bolt), wolves and broos: a crossbow that parried and
struck back with its bolt's damage, a reloading log that said two things, a cryptic "not loaded"
refusal, and a dead broo said to bleed. Docstrings quote the rule text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fray.errors import RuleViolation
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games.strike_rank import odds
from fray.games.strike_rank.web.attack import attack_html
from sr_helpers import BITE, RS, actions, XBOW, attack, declare, do, duel, fighter, loc, texts, to_phase, weapon

PRESETS = {p["name"]: p for p in RS.presets()}
DAGGER = {"name": "Dagger", "skill": 40, "damage": "1D4+2", "sr": 3, "hp": 6, "type": "impaling", "hand": "right"}


def _wolf(name: str = "Wolf") -> dict:
    return fighter(name, BITE, body="quadruped", STR=13, SIZ=13)


def test_a_crossbow_does_not_parry_by_default_and_the_form_does_not_offer_it():
    """Attacks & Defenses: "Combatants wielding two melee weapons (including shields) get an extra attack or parry
    using that weapon"; Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks. They get
    the usual 1 attack, 1 parry, and dodges." The text never gives a bow, crossbow or sling a parry (the parry is the
    shooter's, with a melee weapon or shield), and Parrying Natural Attacks would have the parry "deal damage to the
    hit location that made the attack" with the parrying weapon's damage, which for a crossbow is its bolt's. A GM
    saw "Bolt's parry strikes Wolf 1's Head: 2D6+2" kill a wolf. Fray's *assumed* default (a setting of the Attack vs
    Parry table): a missile weapon that is not thrown does not parry; the refusal says so and nothing changes."""
    enc = to_phase(duel(_wolf(), fighter("Bolt", XBOW, DAGGER, side="party")), "resolve")
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c1", "c2", weapon="bite", defence={"kind": "parry", "weapon": "crossbow"},
               rolls={"attack": 80, "defence": 30, "parry_damage": [4, 4], "parried_limb.con_head": 1})
    assert "Bolt cannot parry with Crossbow" in str(e.value) and "dodge" in str(e.value)
    assert loc(enc, "c1", "head")["hp"] == loc(enc, "c1", "head")["hp_max"]
    attack(enc, "c1", "c2", weapon="bite", defence={"kind": "parry", "weapon": "dagger"},
           rolls={"attack": 80, "defence": 30, "parry_damage": [1, 1], "parried_limb.con_head": 1})
    # the odds list no crossbow parry either, only the dagger's
    alts = odds.alternatives_of(enc, {"attacker": "c1", "target": "c2", "weapon": "bite"},
                                RS.table(enc, "attack_vs_parry"))
    assert [k for k, _, _ in alts] == ["parry:dagger", "dodge", "none"]
    # the form offers the dagger, neither the crossbowman's crossbow nor the archer's composite bow
    h = History(new_encounter("strike-rank", "t"))
    rng = random.Random(3)
    for name in ("Great wolf (four-legged)", "Crossbowman", "Archer"):
        h.do({"type": "add_combatant", "combatant": PRESETS[name]}, rng)
    view = RS.view(h.present)
    for target in ("c2", "c3"):
        html = attack_html(view, {"ref": "", "combatant": "c1", "target": target, "weapon": "bite", "sr": 4})
        start = html.index('name="defence.weapon"') if 'name="defence.weapon"' in html else 0
        offered = html[start:html.index("</select>", start)] if start else ""
        assert "bow" not in offered.lower(), (target, offered)


def test_a_crossbow_the_gm_lets_parry_does_not_strike_back_with_its_bolt():
    """Parrying Natural Attacks: "If a parry against a natural or unarmed attack damages the attacker's weapon, it
    deals damage to the hit location that made the attack." A crossbow's damage is its bolt's, not a blow's: where
    the GM's table lets missile weapons parry, the crossbow takes the blow on its HP and strikes nothing back."""
    t = {**RS.tables["attack_vs_parry"], "missile_weapons_parry": True}
    enc = to_phase(duel(_wolf(), fighter("Bolt", XBOW, side="party")), "resolve")
    enc, _ = do(enc, {"type": "set_table", "table": "attack_vs_parry", "value": t})
    enc, ev = attack(enc, "c1", "c2", weapon="bite", defence={"kind": "parry", "weapon": "crossbow"},
                     rolls={"attack": 80, "defence": 30, "parry_damage": [4, 4], "parried_limb.con_head": 1})
    assert loc(enc, "c1", "head")["hp"] == loc(enc, "c1", "head")["hp_max"]
    assert "strikes Wolf" not in texts(ev) and "2D4+2" not in texts(ev)
    assert "Crossbow strikes nothing back" in texts(ev)


def _reloading(**bite: Any):
    """Bolt shot his crossbow (1/2MR) in MR 1; in MR 2 he declares Reload (SR 12) and a wolf that ran up bites him."""
    enc = to_phase(duel(fighter("Bolt", XBOW, DAGGER, side="party"), dict(_wolf(), position={"x": 20, "y": 0})),
                   "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, weapon="crossbow", ref="a1", rolls={"attack": 90})
    enc = to_phase(to_phase(enc, "end"), "declare")
    enc, _ = declare(enc, "c1", kind="reload", weapon="crossbow")
    enc, _ = do(enc, {"type": "move", "id": "c2", "x": 1, "y": 0})
    enc, _ = declare(enc, "c2", kind="melee", weapon="bite", target="c1", **bite)
    return to_phase(enc, "resolve")


def _bite(enc, **defence):
    """The wolf's declared bite, at its SR, Bolt defending as ``defence`` says."""
    ref = next(a["ref"] for a in actions(enc, "c2") if a["status"] == "declared")
    rolls = {"attack": 80, "defence": 5, "parry_damage": [1, 1, 1], "parried_limb.con_head": 1}
    return attack(enc, "c2", "c1", weapon="bite", ref=ref, defence=defence, rolls=rolls)


def _to_end(enc):
    said = []
    while enc.phase != "end":
        enc, ev = apply(enc, {"type": "advance"})
        said += ev
    return enc, texts(said)


@pytest.mark.parametrize("defence,said_as", [({"kind": "dodge"}, "a dodge"),
                                             ({"kind": "parry", "weapon": "dagger"}, "a parry with Dagger")])
def test_reloading_interrupted_by_a_dodge_is_said_once_where_it_is_known(defence, said_as):
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading, doing
    nothing else except moving at normal rate. If reloading is interrupted, it must be begun from scratch." A GM read
    "Bolt spends the MR reloading" at SR 12 and then, at the end of the MR, "Bolt's reloading was interrupted: begin
    again". Said once, at the reloading's SR, with what interrupted it."""
    enc = _reloading()
    sr = enc.state["sr"]
    assert sr < 12
    enc, _ = _bite(enc, **defence)
    enc, said = _to_end(enc)
    assert f"Bolt's reloading was interrupted by {said_as} at SR {sr}: it begins again" in said
    assert "spends the MR reloading" not in said and "begin again" not in said.replace("it begins again", "")
    assert said.count("interrupted") == 1
    assert enc.get("c1").data["reload"]["crossbow"] == {"loaded": False, "mr": 0, "need": 1}


def test_a_dodge_after_the_reloading_resolved_interrupts_it_there():
    """Ranged Combat: "The intervening MR must be spent reloading ... If reloading is interrupted, it must be begun
    from scratch": a dodge later in the same MR (after the reloading's SR) interrupts it too, said when it happens."""
    enc = _reloading(metres=18)  # the wolf's bite after a long way round: SR 12, after the reloading
    assert enc.state["sr"] == 12
    enc, said = do(enc, {"type": "sr.resolve", "ref": next(a["ref"] for a in actions(enc, "c1") if a["kind"] == "reload")})
    assert "Bolt spends the MR reloading" in texts(said)
    enc, ev = _bite(enc, kind="dodge")
    assert "Bolt's reloading is interrupted by the dodge: it begins again" in texts(ev)
    enc, said = _to_end(enc)
    assert "interrupted" not in said and "loaded" not in said
    assert enc.get("c1").data["reload"]["crossbow"]["loaded"] is False


def test_not_loaded_is_said_in_words():
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading." A GM
    read "Heavy crossbow is not loaded (1/3MR)": the refusal says it in words."""
    heavy = dict(XBOW, name="Heavy crossbow", rate="1/3MR")
    enc = to_phase(duel(fighter("Bolt", heavy, side="party"), fighter("Bor", x=20)), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="heavy_crossbow", target="c2")
    enc = to_phase(enc, "resolve")
    enc, _ = attack(enc, weapon="heavy_crossbow", ref="a1", rolls={"attack": 90})
    enc = to_phase(to_phase(enc, "end"), "declare")
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", kind="missile", weapon="heavy_crossbow", target="c2")
    msg = str(e.value)
    assert "(1/3MR)" not in msg
    assert "Heavy crossbow is not loaded: it shoots once every 3 Melee Rounds and takes the 2 between to reload" in msg


def test_the_dead_do_not_bleed():
    """Damage Equal to Double Location HP: "Maimed locations bleed: CON test at the end of each MR"; Death: "Dead
    characters cannot do anything." A GM read "Head bleeds: CON test at the end of each MR" for a broo the same blow
    killed: the log says the death, not a bleeding the dead will never test."""
    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Broo", hp=6)), "resolve")
    # a 9 to the head (location HP 2) maims it and takes total HP below 0
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "head", "amount": 9, "armour": False,
                       "rolls": {"gm.con_shock": 1, "gm.con_head": 1}})
    assert "dead" in enc.get("c2").conditions
    assert "bleeds" not in texts(ev)
    # and a wound dealt to the dead says no bleeding either
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 5, "armour": False,
                       "rolls": {"gm.con_shock": 1, "gm.con_head": 1}})
    assert "bleeds" not in texts(ev)
