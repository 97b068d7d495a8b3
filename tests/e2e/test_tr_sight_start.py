"""Tactical round, a GM's play-through: the first ranged attack started with "Line of sight" unticked and "No
odds: needs a clear Line of Sight" though the map said "no one in the way"; and a Move phase showed an empty
"Attack" panel. The attack form starts from what the map says, the answer does not carry from a missile
attack into a melee one, and no empty Attack panel shows."""

from __future__ import annotations

import os
import re
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from test_tactical_round import declare  # noqa: E402
from test_tr_taps import load, to  # noqa: E402
from tr_fights import TABLET  # noqa: E402


def test_the_first_ranged_attack_starts_from_the_map_and_sight_stays_with_missiles(page, open_app, tmp_path):
    # Bolt 0,0; Orc A 0,10 in the clear; Bran 5,0; Orc B 7,0 within Bran's reach
    load(page, tmp_path, orc_b_x=7, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("ranged_attack", "0", "c2")], "Bolt declares: Ranged attack")
    declare(page, "c3", [("melee_attack", "0", "c4")], "Bran declares: Melee attack")
    declare(page, "c2", [("move", "", "")], "Orc A declares: Move")
    to(page, "Move")
    if os.environ.get("FRAY_SHOTS"):
        page.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], "tr-move-phase.png"), full_page=True)
    # nobody attacks in the Move phase: no Attack panel, empty or not
    expect(page.locator(".tr-attack-box")).to_have_count(0)
    to(page, "Ranged A")
    form = page.locator("form[data-form=tr-attack]")
    expect(form.locator("[name=id]")).to_have_value("c1")
    sight = form.get_by_label("Line of sight (ranged)")
    expect(sight).to_be_checked()  # the map: no one in the way from Bolt to Orc A
    expect(form.locator("[data-odds]")).not_to_contain_text("No odds")
    # another target, with Bran on the line to it: the map cannot say, the box waits for the GM
    form.locator("[name=target]").select_option("c4")
    expect(sight).not_to_be_checked()
    expect(form.locator("[data-odds]")).to_contain_text("No odds")
    form.locator("[name=target]").select_option("c2")
    expect(sight).to_be_checked()
    expect(form.locator("[data-odds]")).not_to_contain_text("No odds")
    form.get_by_role("button", name="Attack", exact=True).click()
    page.locator(".tr-pending").first.get_by_role("button", name=re.compile("^Dismiss")).click()
    to(page, "Melee")
    expect(form.locator("[name=id]")).to_have_value("c3")
    # a melee attack needs no line of sight: Bolt's ticked box does not come with it
    expect(sight).not_to_be_checked()
    expect(form.locator("[data-odds]")).not_to_contain_text("No odds")
