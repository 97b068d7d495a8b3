"""Tactical round, a GM playing whole fights: the attack form's Weapon list held every combatant's
weapons ("Broadsword, Broadsword, Claw, ..." with no owner), and "Line of sight" came unticked from the
map with its reason folded away in the closed "Range bands from the map" list. The Weapon list is the
attacker's own and follows the Attacker; the map's reason stands beside the box."""

from __future__ import annotations

import os
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_tr_taps import bolt_aims  # noqa: E402


def weapon_names(form) -> list[str]:
    return form.locator("[name=weapon] option").evaluate_all("os => os.map(o => o.textContent)")


def shot(page, name: str) -> None:
    """With FRAY_SHOTS set, the attack form photographed at a tablet's and a laptop's size."""
    photograph(page, name, scroll_to="form[data-form=tr-attack]")


def test_the_weapon_list_is_the_attackers_own_and_follows_the_attacker(page, open_app, tmp_path):
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    form = bolt_aims(page, tmp_path, "c2", orc_b_x=7)  # Bolt the crossbowman, Orc A, Bran the swordsman, Orc B
    expect(form.locator("[name=id]")).to_have_value("c1")
    names = weapon_names(form)
    assert names[0] == "(the wielded one)"
    assert [n.split(" (")[0] for n in names[1:]] == ["Light crossbow", "Heavy crossbow", "Short sword"], names
    form.locator("[name=weapon]").select_option(label=names[2])
    shot(page, "tr-weapons-bolt")
    # another attacker: his weapons, the wielded one chosen, nobody else's
    form.locator("[name=id]").select_option("c3")
    expect(form.locator("[name=weapon] option")).to_have_count(3)
    assert [n.split(" (")[0] for n in weapon_names(form)[1:]] == ["Broadsword", "Dagger"]
    expect(form.locator("[name=weapon]")).to_have_value("")
    form.locator("[name=id]").select_option("c2")
    assert [n.split(" (")[0] for n in weapon_names(form)[1:]] == ["Scimitar", "Spear"]


def test_line_of_sight_says_why_beside_the_box(page, open_app, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    form = bolt_aims(page, tmp_path, "c4")  # Bolt 0,0; Orc A 0,10 in the clear; Bran 5,0 on the line to Orc B 10,0
    sight = form.get_by_label("Line of sight (ranged)")
    why = form.locator("#tr-att-los-why")
    expect(sight).not_to_be_checked()
    # the reason is seen, outside any closed fold-out, beside the box
    expect(why).to_be_visible()
    expect(why).to_have_text("The map: Bran in the way")
    shot(page, "tr-sight-why")
    form.locator("[name=target]").select_option("c2")
    expect(sight).to_be_checked()
    expect(why).to_have_text("The map: no one in the way")
    # a melee weapon needs no line of sight: the map says nothing then
    form.locator("[name=weapon]").select_option("c1:2")
    expect(why).to_have_text("")
