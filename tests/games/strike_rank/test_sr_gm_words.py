"""A GM's play-through of strike-rank, on screen and in words: a defence the form offers and then
refuses, a stray "None" in the forced-change box, the "Still open" box and the engaged archer, the
forced change's breakdown, the injury words, the lists of whom to strike or grapple."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from fray.games import get_ruleset
from fray.history import History
from fray.games.strike_rank.web.panel import panel_html
from fray.games.strike_rank.web.ui import StrikeRankUi

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
import fights  # noqa: E402  (the bench's own fights, as test_blocks.py plays them)

RS = get_ruleset("strike-rank")


def screen_text(markup: str) -> str:
    """The words a panel shows, less the options of its lists (a defence of "None" is one)."""
    return re.sub(r"<[^>]+>", "\n", re.sub(r"<option[^>]*>[^<]*</option>", "", markup))


def test_no_none_anywhere_in_the_panel_through_a_played_fight():
    """A GM's play-through: the forced-change box read "Skip it None" (an absent "Strike as declared"
    button, for a target who is dead, written as Python's None). Through the bench's played fight,
    the forced-change box among its states, the panel never shows the word."""
    whole = fights.fight("strike-rank", 8, 160, 1)
    h = History(whole.initial)
    forced = 0
    for a in whole.actions:
        h.do(a)
        markup = str(panel_html(RS.view(h.present), StrikeRankUi(), [(e.kind, e.text) for e in h.present.log]))
        forced += "sr-forced" in markup
        assert "None" not in screen_text(markup), (a, markup)
    assert forced  # the fight reached a forced change on the dead


def test_a_charging_target_defends_by_default_with_none_and_a_dodge_is_refused_at_the_choice():
    """Charging: "if the opponent does attack first, the charging combatant would not be able to dodge or
    parry." A GM's play-through: against a charging target the form's "Defender's choice" started on
    Dodge, and rolling was refused at the bottom of the form. The choice starts on None, says why, and
    a Dodge chosen anyway is refused at ``defence.kind`` (beside the choice)."""
    import pytest
    from fray.errors import RuleViolation
    from fray.games.strike_rank.web.attack import attack_html
    from sr_helpers import attack, declare, duel, fighter, to_phase

    enc = to_phase(duel(fighter("Ana", side="party"), fighter("Bor", x=9)), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2", charge=True)
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    view = RS.view(enc)
    bors = next(o for o in view["order"] if o["combatant"] == "c2")
    form = str(attack_html(view, bors))
    choice = form.split('name="defence.kind"')[1].split("</select>")[0]
    assert '<option value="none" selected>' in choice
    assert "Ana cannot dodge or parry now" in screen_text(form)
    with pytest.raises(RuleViolation) as e:
        attack(enc, "c2", "c1", defence="dodge", rolls={"attack": 20, "defence": 20})
    assert e.value.field == "defence.kind"


def test_still_open_says_why_an_engaged_archers_shot_is_refused():
    """Ranged Combat: "Unengaged characters can use missile weapons." A GM's play-through: the "Still open"
    box said only "Ana's attack at SR 3 is not resolved" for a shot the engine refuses because Ana is
    engaged. It says why, and with whom (by position: the wolf 2 m off, within engagement range)."""
    from fray.games.strike_rank.web.flow import still_open_html
    from sr_helpers import BITE, BOW, declare, duel, fighter, to_phase

    enc = to_phase(duel(fighter("Ana", BOW, side="party"), fighter("Wolf", BITE, x=2, body="quadruped")), "declare")
    enc, _ = declare(enc, "c1", kind="missile", weapon="bow", target="c2")
    enc = to_phase(enc, "resolve")
    words = " ".join(screen_text(str(still_open_html(RS.view(enc)))).split())
    assert "Ana's shot at SR 3 cannot be loosed: Ana is engaged in melee with Wolf" in words
    assert "not resolved" not in words


def _bor_hurt(*blows: tuple[str, int]):
    """Bor, a four-legged beast of total HP 40 (legs of 10: he lives through a mangled leg), takes each
    blow at a location, armour ignored."""
    from sr_helpers import do, fight, fighter, texts, to_phase

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2, hp=40, body="quadruped")), "resolve")
    said = []
    for where, amount in blows:
        enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": where, "amount": amount, "armour": False})
        said.append(texts(ev))
    return enc, said


def _limb_hp(enc, lid: str) -> int:
    from sr_helpers import loc

    return loc(enc, "c2", lid)["hp_max"]


def test_a_mangled_limb_is_said_mangled_and_bleeds_without_a_test():
    """Damage Equal to Triple Location HP: "Limb: Limb is mangled or severed; it is useless (as maimed) and
    bleeds 1 total HP per MR." A GM's play-through: after "-17/5 mangled" the log said "Left leg is disabled"
    and "bleeds: CON test at the end of each MR". The line says mangled, and the loss with no test."""
    enc, _ = _bor_hurt()
    hp = _limb_hp(enc, "left_hind_leg")
    _, [said] = _bor_hurt(("left_hind_leg", 3 * hp))
    assert "Bor's Left hind leg is mangled" in said.split("\n") and "is disabled" not in said
    assert "Bor's Left hind leg bleeds 1 total HP at the end of each MR, with no CON test" in said
    assert "CON test at the end of each MR or" not in said


def test_a_maimed_limb_is_said_maimed_and_bleeds_unless_a_con_test():
    """Damage Equal to Double Location HP: "Maimed locations bleed: CON test at the end of each MR or lose 1
    total HP"; the limb maimed is said maimed, not disabled; then mangled, its bleeding changes."""
    enc, _ = _bor_hurt()
    hp = _limb_hp(enc, "right_fore_leg")
    _, [maimed, mangled] = _bor_hurt(("right_fore_leg", 2 * hp), ("right_fore_leg", hp))
    assert "Bor's Right foreleg is maimed" in maimed.split("\n") and "is disabled" not in maimed
    assert "Bor's Right foreleg bleeds: CON test at the end of each MR or lose 1 total HP" in maimed
    assert "Bor's Right foreleg bleeds 1 total HP at the end of each MR, with no CON test" in mangled


def test_the_collision_question_offers_the_living_and_picks_the_one_in_the_path():
    """Knockback, colliding: "If knockback causes a combatant to collide with another combatant ... that
    combatant must also make a DEX test or fall prone" ("Dead characters cannot do anything"). A GM's
    play-through: Bor knocked back 5 m from (2, 0) to (7, 0), through Cal at (5, 0): "Struck combatant"
    listed the dead and started on "(none)". It lists the living only, Cal chosen."""
    from fray.games.strike_rank.web.questions import prompt_html
    from fray.games.strike_rank.web.common import _names
    from sr_helpers import do, fighter
    from test_sr_fighting import _knocked_back_5_m

    enc, p = _knocked_back_5_m()
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Cal", x=5, y=0)})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Dag", x=9, y=3)})
    enc, _ = do(enc, {"type": "add_combatant", "combatant": fighter("Eon", x=4, y=0.5)})
    enc, _ = do(enc, {"type": "set_condition", "id": "c5", "condition": "dead", "on": True})
    view = RS.view(enc)
    q = next(x for x in view["prompts"] if x["kind"] == "collision")
    form = str(prompt_html(q, _names(view)))
    struck = form.split('name="with"')[1].split("</select>")[0]
    assert '<option value="c3" selected>Cal</option>' in struck  # in the path, the living first struck
    assert "Dag" in struck and "Eon" not in struck and ">Bor<" not in struck


def test_the_grapple_list_offers_the_living():
    """Grappling: "Dead characters cannot do anything": the card's grapple "Whom" lists no dead."""
    from fray.games.strike_rank.web.card import card_html
    from fray.games.strike_rank.web.ui import StrikeRankUi
    from sr_helpers import do, fight, fighter, to_phase

    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Bor", x=2), fighter("Cal", x=3)), "resolve")
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead", "on": True})
    card = str(card_html("c1", RS.view(enc), StrikeRankUi(open={"fight-c1": True})))
    whom = card.split('name="target"')[-1].split("</select>")[0]
    assert "Cal" in whom and "Bor" not in whom


def test_the_metres_of_a_declared_move_are_said_alike_in_the_log_and_on_screen():
    """A GM's play-through: the declaration read "(7.8 m to move)" on screen beside "closes 7.82 m" in its
    breakdown and the log. Both say the metres to the decimetre the map draws."""
    from fray.games.strike_rank import rules
    from fray.games.strike_rank.web.declare import action_label

    mv = rules.movement_sr(7.82, 3)
    assert mv.note == "closes 7.8 m at 3 m a strike rank: +3 SR"
    assert action_label({"kind": "melee", "target": "c2", "metres": 7.82}, {"c2": "Bolt"}).endswith("(7.8 m to move)")
