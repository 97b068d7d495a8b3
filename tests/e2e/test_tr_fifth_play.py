"""Tactical round, what the fifth GM play-through left on the page: a Disengage was offered "as last
round" and taken from one engaged with no one; an empty bow's hint, followed, was refused; the players'
window named "Now: Bran" while everyone declared.

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_players_view import open_players  # noqa: E402
from test_tactical_round import declare, newest_log  # noqa: E402
from test_tr_taps import to  # noqa: E402
from tr_fights import ORC, SWORDSMAN, body, melee, open_fight  # noqa: E402

BOW = {"name": "Short bow", "cmb": 45, "kind": "missile", "base_range": 30, "reload": 1, "two_handed": True}


def test_a_disengage_no_longer_needed_is_not_offered_and_is_refused_beside_its_action(page, open_app, tmp_path):
    """Disengaging: "A character can opt to Disengage from melee by spending a Full Action. ... The character
    stops being Engaged at the end of the Other Actions Phase." Lia disengaged in round 2; in round 3 her form
    offered the Disengage again "as last round", and took it. It is left out, said why, and refused beside
    its Action if chosen."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    disengage = {"type": "tr.declare", "id": "c1", "actions": [{"action": "disengage"}]}
    open_fight(page, tmp_path, "Free at the ford", [body(SWORDSMAN, "Lia", 0, 0, "party"), body(ORC, "Orc 4", 1.5, 0)],
               ["declaration", melee("c2", "c1"), "melee", {"type": "tr.attack", "id": "c2", "target": "c1",
                                                             "rolls": {"attack": 20}},
                "declaration", disengage, "other", "declaration"], file="free")
    expect(page.locator("#round-bar .round")).to_have_text("Round 3")
    lia = page.locator('form[data-form=tr-declare][data-id="c1"]')
    expect(lia.locator(".tr-decl-last")).to_have_text(
        "As last round, without Disengage: Lia is not engaged: nothing to disengage from. Change it, or Declare.")
    expect(lia.locator('[name="actions.0.action"]')).to_have_value("")
    lia.locator('[name="actions.0.action"]').select_option("disengage")
    lia.locator("button[type=submit]").click()
    expect(lia.locator('[data-error-for="actions.0.action"]')).to_contain_text(
        "Lia is not engaged: nothing to disengage from")
    expect(lia.locator('[name="actions.0.action"]')).to_have_attribute("aria-invalid", "true")
    photograph(page, "tr-fifth-disengage", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    expect(newest_log(page)).to_contain_text("Phase: Declaration")  # nothing declared


def test_an_empty_bows_hint_followed_is_taken(page, open_app, tmp_path):
    """Reloading: "Reloading a missile weapon is a Full Action or a Multi-Round Action, depending on the weapon.
    Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character to attack in
    the same Round." Mira's empty Short bow has no Quick Load: the hint says the reload is the round's Full
    Action and the shot waits; declaring the reload alone, as it says, is taken."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    mira = {"name": "Mira", "side": "party", "stats": {"DEF": 20, "HP": 35, "Athletics": 15},
            "weapons": [{**BOW, "loaded": False}]}
    open_fight(page, tmp_path, "The empty bow", [(mira, 0, 8), body(ORC, "Archer 1", 25, 1)], ["declaration"],
               file="bow")
    form = page.locator('form[data-form=tr-declare][data-id="c1"]')
    form.locator('[name="actions.0.action"]').select_option("ranged_attack")
    form.locator('[name="actions.0.target"]').select_option("c2")
    form.locator("button[type=submit]").click()
    hint = ("Short bow is not loaded: without Quick Load its reload is a Full Action, so the shot waits for next "
            "round: declare Reload a missile weapon alone")
    expect(form).to_contain_text(hint)
    photograph(page, "tr-fifth-bow", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    declare(page, "c1", [("reload", "0", "")],
            "Mira declares: Reload a missile weapon with Short bow (Other Actions, full)")
    expect(form).not_to_contain_text(hint)


def test_the_players_window_names_nobody_now_while_everyone_declares(page, open_app, wait_ready, tmp_path):
    """Tactical Round Sequence (FACTS.md): "Assessment, Declaration, Move, ...": in Declaration everyone
    declares and nobody acts. The players' window read "Now: Bran" then: it shows the phase, as the GM's
    round bar does, and nobody now; in the Move phase, the one who moves is Now."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    open_fight(page, tmp_path, "Declaring at the ford", [body(SWORDSMAN, "Bran", 0, 0, "party"),
                                                         body(ORC, "Orc 4", 9, 0)], ["declaration"], file="declaring")
    pv = open_players(page, wait_ready)
    pv.set_viewport_size({"width": 1366, "height": 900})
    expect(pv.locator("body")).to_contain_text("Declaration: everyone declares this round's actions")
    expect(pv.locator("#pv-order li")).to_have_count(2)
    expect(pv.locator("#pv-now")).not_to_contain_text("Now")
    expect(pv.locator("#pv-order li.current")).to_have_count(0)
    photograph(pv, "tr-fifth-players-declaration")
    declare(page, "c1", [("move", "", "")], "Bran declares: Move")
    to(page, "Move")
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
