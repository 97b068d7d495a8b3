"""Issue 33, "The table screen": what the GM still found wrong in a strike-rank fight, each where the
page or the engine decides it (the flows themselves: tests/e2e/test_strike_rank_table.py)."""

from __future__ import annotations

import os
import re
import sys
from types import SimpleNamespace

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from fray.errors import InvalidAction, RuleViolation  # noqa: E402
from fray.web import render as R  # noqa: E402
from fray.games.strike_rank.web.flow import still_open_html  # noqa: E402
from fray.games.strike_rank.web.questions import prompt_html  # noqa: E402
from fray.games.strike_rank.web.panel import PANEL, panel_html  # noqa: E402
from sr_helpers import RS, attack, declare, do, fight, fighter, prompts, to_phase  # noqa: E402


def three():
    """Ana against Broo 1 and Broo 2, all three at SR 7 (DEX 11, SIZ 13, broadsword)."""
    return fight(fighter("Ana", side="party"), fighter("Broo 1", x=2), fighter("Broo 2", x=2, y=2))


def all_declared(enc):
    enc = to_phase(enc, "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    return to_phase(enc, "resolve")


def strip(enc):
    order = RS.order_of_play(enc)
    view = RS.view(enc)
    status = {c.id: RS.status(enc, view, c.id) for c in enc.combatants}
    cur = order[enc.turn].combatant_id if 0 <= enc.turn < len(order) else None
    return {e["id"]: e for e in R.strip_entries(enc, order, status, cur)}


def test_the_dead_are_never_next_or_now_in_the_strip():
    """Marked dead on the card, Broo 1 keeps his SR-7 slot until Next loses it: the strip struck him through
    but named him NEXT. The next who can act is NEXT."""
    enc = all_declared(three())
    assert strip(enc)["c1"]["current"] and strip(enc)["c2"]["next"]
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    entries = strip(enc)
    assert entries["c2"]["status"]["level"] == "out"
    assert not entries["c2"]["next"] and not entries["c2"]["current"]
    assert entries["c3"]["next"] and entries["c1"]["current"]
    enc, _ = do(enc, {"type": "set_condition", "id": "c1", "condition": "unconscious"})
    assert not strip(enc)["c1"]["current"]


def test_the_essentials_line_says_declaring_of_the_one_whose_form_is_open():
    """In Declare the line said "Acting" of the first in the order, who was doing nothing: it names the first
    still to declare, as "Declaring", and nobody once all have; resolving, who acts is "Acting"."""
    enc = to_phase(three(), "declare")
    app = SimpleNamespace(enc=enc)
    tag, who = PANEL.acting(app, RS.view(enc), None)
    assert (tag, who.name) == ("Declaring", "Ana")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    app.enc = enc
    assert PANEL.acting(app, RS.view(enc), None)[1].name == "Broo 1"
    assert "Declaring</span>" in R.acting_line(enc.get("c2"), None, [], "Declaring")
    enc = all_declared(three())
    app.enc = enc
    assert PANEL.acting(app, RS.view(enc), enc.get("c1")) == ("Acting", enc.get("c1"))


def _knocked(enc):
    """Ana's blow knocks Broo 1 back (rolled damage over SIZ 13): the collision question about him."""
    rolls = {"attack": 20, "location": 1, "damage": [8, 6], "knockback_dex": 99}
    for _ in range(10):  # whatever else the blow asks for (the leg's injury tests): a middling 50
        try:
            enc, _ = attack(enc, "c1", "c2", ref="a1", rolls=rolls)
            break
        except InvalidAction as e:
            assert e.field.startswith("rolls.") and "needs" in e.message, e
            rolls[e.field[6:]] = 50
    return enc, prompts(enc, "collision")


def test_the_knock_back_question_does_not_offer_the_one_knocked_back():
    """Knockback, Colliding: "If knockback causes a combatant to collide with another combatant ... that
    combatant must also make a DEX test or fall prone": the struck one is another, never Broo 1 himself, and
    the engine refuses him, changing nothing."""
    enc = all_declared(fight(fighter("Ana", side="party", STR=18, SIZ=18), fighter("Broo 1", x=2, hp=40, CON=30),
                             fighter("Broo 2", x=3)))
    enc, asked = _knocked(enc)
    assert asked and asked[0]["combatant"] == "c2"
    names = {cid: c["name"] for cid, c in RS.view(enc)["combatants"].items()}
    box = re.search(r'name="with".*?</select>', prompt_html(asked[0], names), re.S).group(0)
    assert '<option value="c3"' in box and '<option value="c1"' in box and '<option value="c2"' not in box
    with pytest.raises(InvalidAction, match="Broo 1 is the one knocked back"):
        do(enc, {"type": "sr.answer", "prompt": asked[0]["id"], "choice": "combatant", "with": "c2"})


def test_with_nothing_left_at_this_sr_the_panel_says_so_and_points_to_next():
    """After the last attack at SR 7 the panel said "Resolve SR 7" and nothing else."""
    enc = to_phase(three(), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1", metres=9)
    enc = to_phase(enc, "resolve")
    assert "No action is left" not in str(panel_html(RS.view(enc), {}))
    enc, _ = attack(enc, "c1", "c2", ref="a1", rolls={"attack": 90})
    page = str(panel_html(RS.view(enc), {}))
    later = re.search(r"No action is left at SR 7: press <strong>Next</strong> for SR (\d+)\.", page)
    assert later and int(later.group(1)) > 7, page[:600]
    enc, _ = do(enc, {"type": "advance"})
    enc, _ = attack(enc, "c3", "c1", ref="a2", rolls={"attack": 90})
    page = str(panel_html(RS.view(enc), {}))
    assert f"No action is left at SR {later.group(1)}: press <strong>Next</strong> for the end of the Melee Round." in page
    # said once: the order list said "No actions left this Melee Round" just above it
    assert page.count("No action") == 1 and "No actions left" not in page


def test_an_attack_on_the_fallen_offers_another_target_or_skipping_it():
    """Broo 2's SR-7 attack was declared at Ana, who has fallen since: Next's box does not say "not resolved:
    Resolve", but that the target is down, with the change it forces or Skip it (Changing Actions: "A combatant
    may be forced to change actions, e.g. if the target of their attack dies"; unconscious, the same)."""
    enc = all_declared(three())
    page = still_open_html(RS.view(enc))
    assert "Broo 2's attack at SR 7 is not resolved: " in page and ">Resolve</button>" in page
    enc, _ = do(enc, {"type": "set_condition", "id": "c1", "condition": "unconscious"})
    page = still_open_html(RS.view(enc))
    assert "Broo 2's attack at SR 7 was at Ana, who is unconscious: " in page
    assert ">Change the attack</button>" in page and ">Skip it</button>" in page and ">Resolve</button>" not in page


def test_prone_stays_on_who_cannot_stand():
    """Damage Equal to Double Location HP: "If half or more of a combatant's legs are maimed, they cannot
    stand": the GM taking "prone" off Broo 1 by hand is refused with the reason, and nothing changes."""
    enc = to_phase(three(), "declare")
    for leg in ("right_leg", "left_leg"):
        enc, _ = do(enc, {"type": "sr.damage", "target": "c2", "location": leg, "amount": 10, "armour": False})
    assert "prone" in enc.get("c2").conditions
    with pytest.raises(RuleViolation, match=r"Broo 1 cannot stand \(half or more legs maimed"):
        do(enc, {"type": "set_condition", "id": "c2", "condition": "prone", "on": False})
    # whoever can stand gets up as before
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": "prone"})
    enc, _ = do(enc, {"type": "set_condition", "id": "c3", "condition": "prone", "on": False})
    assert "prone" not in enc.get("c3").conditions


def test_while_declaring_nobody_is_now_or_next_in_the_strip():
    """A GM's play (issue 33): during Declare the strip put NOW on the lowest-SR combatant, whose full card opened,
    while the essentials line said "Declaring" another. Nobody acts while declaring: the strip marks no one now or
    next (as the page asks the game, ``still_to_act``); resolving, the first by SR is now again."""
    enc = to_phase(three(), "declare")
    order = RS.order_of_play(enc)
    assert RS.still_to_act(enc, order) == []
    view = RS.view(enc)
    status = {c.id: RS.status(enc, view, c.id) for c in enc.combatants}
    entries = R.strip_entries(enc, order, status, None, False, RS.still_to_act(enc, order))
    assert not any(e["current"] or e["next"] for e in entries)
    assert RS.still_to_act(all_declared(three()), order) is None
