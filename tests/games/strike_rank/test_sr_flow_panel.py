"""The strike-rank panel in a whole fight (issue 32): no form for the fallen, what Next asks first."""

from __future__ import annotations

import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))

from fray.games.strike_rank.web.panel import panel_html  # noqa: E402
from fray.games.strike_rank.web.ui import StrikeRankUi
from sr_helpers import RS, declare, do, fight, fighter, to_phase  # noqa: E402


def html(enc, ui=None) -> str:
    return str(panel_html(RS.view(enc), ui or {}))


def three():
    """Ana against Broo 1 (next to her) and Broo 3 (further off), all at SR 7."""
    return fight(fighter("Ana", side="party"), fighter("Broo 1", x=2), fighter("Broo 3", x=3))


def test_the_fallen_get_no_declaration_form_and_are_no_default_target():
    """Action Declaration & Resolution: "Characters who become incapacitated generally lose actions": the dead
    get no declaration form, and the default target is the nearest standing enemy (issue 32)."""
    enc = to_phase(three(), "declare")
    page = html(enc)
    assert 'data-form="sr-declare" data-id="c2"' in page
    assert re.search(r'id="sr-sr-declare-c1-target".*?<option value="c2" selected', page, re.S)
    enc, _ = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    page = html(enc)
    assert 'data-form="sr-declare" data-id="c2"' not in page and "Broo 1 is dead: no actions." in page
    target = re.search(r'id="sr-sr-declare-c1-target".*?</select>', page, re.S).group(0)
    assert '<option value="c3" selected' in target


def test_a_fallen_attacker_gets_no_attack_form():
    """"Characters who become incapacitated generally lose actions that would have resolved after they are
    incapacitated": a Broo marked dead before his SR gets no "Roll the exchange" (issue 32); his attack is
    lost at once, said in the log, and the panel leaves nothing of it for Next (the final build's play)."""
    enc = to_phase(three(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    assert "Broo 1's attack at SR 7 is lost: Broo 1 is dead" in "\n".join(e["text"] for e in ev)
    page = html(enc)
    assert 'data-attacker="c2"' not in page and 'data-attacker="c3"' in page
    assert "Broo 1's attack" not in page


def test_next_says_what_is_open_and_who_has_not_declared():
    """Issue 32: Next says "Broo 3's attack at SR 10 is not resolved: Resolve / Skip it", and names who has
    not declared before resolution begins, with the GM's choice to go on."""
    enc = to_phase(three(), "declare")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    page = html(enc, StrikeRankUi(undeclared=1))
    assert "Not declared: Ana, Broo 1 (2 of 3)." in page and 'data-act="sr-go-on"' in page
    enc = to_phase(enc, "resolve")
    page = html(enc, StrikeRankUi(still_open=[1, 7]))
    assert "Broo 3's attack at SR 7 is not resolved:" in page
    assert 'data-act="sr-show-attack"' in page
    assert 'data-act="sr-skip" class="small secondary" aria-label="Skip it: Broo 3&#x27;s attack" data-ref="a1"' in page
    enc, _ = do(enc, {"type": "sr.skip", "ref": "a1"})
    assert "not resolved" not in html(enc, StrikeRankUi(still_open=[1, 7]))


def test_an_attack_whose_weapon_was_knocked_away_is_not_asked_about_nor_offered():
    """Disarm (½ skill): "If the attacker wins, the defender's weapon is knocked out of their hands": an attack declared with it can no longer be
    made. The engine's Next loses it with that reason (timing.unable), so the page's Next must not stop on it
    as "not resolved: Resolve / Skip it", nor offer "Roll the exchange": a line says it is lost (Next moves on).
    (Two branches met here: the page asked about every attack of a standing combatant.)"""
    from fray.games.strike_rank.web.flow import open_attacks

    enc = to_phase(three(), "declare")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    # as the disarm does it (combat.py: tw["dropped"] = True), on this test's own copy
    enc.peek_at("c3").data["weapons"][0]["dropped"] = True
    view = RS.view(enc)
    assert open_attacks(view) == []
    page = html(enc, StrikeRankUi(still_open=[1, 7]))
    assert "not resolved" not in page and 'data-attacker="c3"' not in page
    assert "Broo 3's attack at SR 7 is lost: Broadsword was dropped (Melee attack with Broadsword → Ana). Next moves on." in page
    enc, events = do(enc, {"type": "advance", "skip_empty": True, "ask_open": True})
    assert any("Broo 3's attack at SR 7 is lost: Broadsword was dropped" in str(e) for e in events)
