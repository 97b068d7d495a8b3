"""Tactical round, a GM's play-through on a tablet: the attack form kept the attacker the GM had
picked in it into the next phase ("ACTING Grub", the form on Orc 2, ready to roll for him); an
attack went to another target than the declared one, without a word; choosing a weapon unticked the
GM's own Line of sight, and an Attacker changed away and back forgot the weapon chosen for it; a
Ranged attack was declared with no weapon chosen.

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import re
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_tactical_round import declare, newest_log  # noqa: E402
from test_tr_taps import bolt_aims, load, to  # noqa: E402
from tr_fights import ORC, SWORDSMAN, TABLET, as_last_round, body, open_fight  # noqa: E402


def shot(page, name: str) -> None:
    """With FRAY_SHOTS set, the page photographed at a tablet's and a laptop's size."""
    photograph(page, name, scroll_to=".tr-attack-box, .tr-declarations")


def test_the_attack_form_follows_who_acts_into_the_next_phase(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): "Ranged A (...), Melee (...)": each declared action is made in
    its phase, by the one who acts now. An attacker picked in the form in Ranged A, whose shot the GM then
    skipped, is not the one the form offers in Melee."""
    # Bolt the crossbowman, Orc A, Bran the swordsman, Orc B 2 m from Bran
    load(page, tmp_path, orc_b_x=7, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("ranged_attack", "0", "c2")], "Bolt declares: Ranged attack")
    declare(page, "c3", [("melee_attack", "0", "c4")], "Bran declares: Melee attack")
    to(page, "Ranged A")
    form = page.locator("form[data-form=tr-attack]")
    # the GM looks at another attacker, and comes back to Bolt: the form keeps Bolt through redraws
    form.locator("[name=id]").select_option("c3")
    form.locator("[name=id]").select_option("c1")
    expect(form.locator("[name=id]")).to_have_value("c1")
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Skip")).click()
    expect(newest_log(page)).to_contain_text("Bolt")
    to(page, "Melee")
    expect(form.locator("[name=id]")).to_have_value("c3")
    expect(form.locator("[name=target]")).to_have_value("c4")
    shot(page, "tr-form-follows")


def load_downed(page, tmp_path, down: str = "incapacitated", **opening) -> None:
    """Bran the swordsman at 0 m; Orc B 2 m east, already ``down``; Orc A 6 m north, standing.
    ``opening``: ``open_fight``'s ``open_app`` and ``size``."""
    open_fight(page, tmp_path, "The downed orc", [body(SWORDSMAN, "Bran", 0, 0, "party"), body(ORC, "Orc B", 2, 0),
                                                  body(ORC, "Orc A", 0, 6)],
               [{"type": "set_condition", "id": "c2", "condition": down, "on": True}], file="downed", **opening)


def test_the_rows_attack_goes_to_the_declared_target_even_a_downed_one(page, open_app, tmp_path):
    """Parrying: "Incapacitated, Held, or Surprised characters ... cannot Parry at all": the rules take
    attacks on the incapacitated, so a blow declared on one is made on that one, not on another foe."""
    load_downed(page, tmp_path, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("melee_attack", "0", "c2")], "Bran declares: Melee attack")
    to(page, "Melee")
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")).click()
    form = page.locator("form[data-form=tr-attack]")
    expect(form.locator("[name=id]")).to_have_value("c1")
    expect(form.locator("[name=target]")).to_have_value("c2")
    shot(page, "tr-downed-target")
    form.get_by_label("Open-ended d100").fill("50")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Bran attacks Orc B")


def test_the_gms_line_of_sight_and_weapon_stand_through_other_choices(page, open_app, tmp_path):
    """Ranged Attacks: "the character must have a clear Line of Sight to the target": bodies on the line
    are put to the GM (the map only proposes). The GM's tick stands when another weapon is chosen; the
    weapon chosen for an attacker stands when the Attacker is changed away and back."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    form = bolt_aims(page, tmp_path, "c4")  # Bolt 0,0; Orc A 0,10 in the clear; Bran 5,0 on the line to Orc B 10,0
    sight = form.get_by_label("Line of sight (ranged)")
    expect(sight).not_to_be_checked()  # the map: Bran in the way
    sight.check()  # the GM: Bolt sees over him
    form.locator("[name=weapon]").select_option("c1:1")  # the heavy crossbow
    expect(form.locator("[name=weapon]")).to_have_value("c1:1")
    expect(sight).to_be_checked()
    shot(page, "tr-sight-stands")
    form.locator("[name=id]").select_option("c3")
    expect(form.locator("[name=weapon]")).to_have_value("")
    form.locator("[name=id]").select_option("c1")
    expect(form.locator("[name=weapon]")).to_have_value("c1:1")


def test_a_ranged_attack_declared_with_no_weapon_is_refused_beside_weapon(page, open_app, tmp_path):
    """Ranged Attacks: "Missile weapons, thrown weapons, and certain Spells all use the ranged attack
    rules": a ranged attack is made with one of them, which the GM names, and Fray never guesses. The
    row's Weapon list holds only what shoots or throws (no "(no weapon)" to choose since the sixth
    play-through: ``rules.weapon_choices``); a row left on none is refused beside Weapon
    (``test_tr_form_memory.py::test_a_ranged_attack_with_no_weapon_chosen_is_refused_beside_its_weapon``)."""
    load(page, tmp_path, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    form = page.locator('form[data-form=tr-declare][data-id="c1"]')
    form.locator('[name="actions.0.action"]').select_option("ranged_attack")
    weapon = form.locator('[name="actions.0.weapon"]')
    expect(weapon).not_to_have_value("")
    expect(weapon.locator('option[value=""]')).to_have_count(0)
    expect(form.locator("ul.tr-declared")).to_have_count(0)
    shot(page, "tr-no-weapon")


def test_as_last_round_offers_only_what_the_rules_take_now(page, open_app, tmp_path):
    """Melee Attacks: "Any character who receives a melee attack becomes Engaged with the attacker. Engaged
    characters cannot take Movement Actions unless they Disengage or Run Away first." Bran moved and struck
    in round 1 and was struck: round 2's form starts on his Melee attack alone, says why, and Declare
    takes it as offered (a GM's play-through: the Move offered again, then "at most one Full and one Half")."""
    load(page, tmp_path, orc_b_x=7, open_app=open_app, size=TABLET)  # Bran at 5 m, Orc B at 7 m: in reach
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c3", [("move", "", ""), ("melee_attack", "0", "c4")], "Bran declares: Move")
    declare(page, "c4", [("melee_attack", "0", "c3")], "Orc B declares: Melee attack")
    to(page, "Move")  # Bran stays where he stands
    to(page, "Melee")
    page.locator('.tr-slot[data-id="c4"]').get_by_role("button", name=re.compile("^Attack")).click()
    form = page.locator("form[data-form=tr-attack]")
    expect(form.locator("[name=id]")).to_have_value("c4")
    form.get_by_label("Open-ended d100").fill("20")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Orc B attacks Bran")
    page.locator("#round-bar [data-act=advance]").click()
    # Bran's own blow is left, and Orc B's waits for its result: the GM leaves both, and Next goes past the
    # phases where nobody acts
    page.locator(".tr-open").get_by_role("button", name="Skip all and go on").click()
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Assessment")
    to(page, "Declaration")
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Declaration")
    bran = as_last_round(page, "c3", "As last round, without Move: Engaged characters cannot take Movement Actions "
                         "unless they Disengage or Run Away first. Change it, or Declare.",
                         {"actions.0.action": "melee_attack", "actions.1.action": ""})
    shot(page, "tr-as-last-round")
    bran.locator("button[type=submit]").click()
    expect(newest_log(page)).to_contain_text("Bran declares: Melee attack with Broadsword on Orc B (Melee, full)")
