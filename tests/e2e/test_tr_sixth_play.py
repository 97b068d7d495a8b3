"""Tactical round, what the sixth GM play-through found on the page: "as last round" repeated a Reload
of a bow loaded since, and Declare took it, throwing the shot away.

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_tactical_round import declare, newest_log  # noqa: E402
from tr_fights import ORC, as_last_round, body, melee, open_fight  # noqa: E402

BOW = {"name": "Short bow", "cmb": 45, "kind": "missile", "base_range": 30, "reload": 1, "two_handed": True}
NEXT = {"type": "advance", "ask": True, "go_on": True}  # the page's Next: a declared reload does itself


def test_a_reload_of_a_loaded_bow_is_not_offered_again_and_is_refused_beside_its_action(page, open_app, tmp_path):
    """Reloading: "Missile weapons must be loaded before each attack." Mira reloaded her empty Short bow
    in round 1; in round 2 her form offered the Reload again "as last round", and Declare took it. Now
    the shot is offered instead, said so, and a Reload chosen is refused beside its Action."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    mira = {"name": "Mira", "side": "party", "stats": {"DEF": 20, "HP": 35, "Athletics": 15},
            "weapons": [{**BOW, "loaded": False}]}
    reload = {"type": "tr.declare", "id": "c1", "actions": [{"action": "reload", "weapon": 0}]}
    open_fight(page, tmp_path, "The loaded bow", [(mira, 0, 8), body(ORC, "Archer 1", 25, 1)],
               ["declaration", reload] + [NEXT] * 8 + ["declaration"], file="loaded")
    form = as_last_round(page, "c1", "As last round, Short bow is loaded now, so its Ranged attack is offered (last "
                         "round: Reload a missile weapon). Change it, or Declare.",
                         {"actions.0.action": "ranged_attack", "actions.0.weapon": "0", "actions.0.target": "c2"})
    form.locator('[name="actions.0.action"]').select_option("reload")
    form.locator('[name="actions.0.target"]').select_option("")
    form.locator("button[type=submit]").click()
    expect(form.locator('[data-error-for="actions.0.action"]')).to_contain_text(
        "Short bow is already loaded: declare the Ranged attack with it instead")
    photograph(page, "tr-sixth-reload-loaded", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    expect(newest_log(page)).to_contain_text("Phase: Declaration")  # nothing declared
    declare(page, "c1", [("ranged_attack", "0", "c2")],
            "Mira declares: Ranged attack with Short bow on Archer 1 (Ranged A, full)")


def test_a_melee_attack_starts_on_the_melee_weapon_and_offers_no_spell(page, open_app, tmp_path):
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within
    the reach of their weapon." A spell is no such weapon (Ranged Attacks: "Missile weapons, thrown weapons,
    and certain Spells all use the ranged attack rules"): Lia's Melee attack offers her Staff, not her Fire
    Bolt, starts on it, and the out-of-reach word shows at once."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    open_fight(page, tmp_path, "The staff", [body("Apprentice mage", "Lia", 0, 12, "party"),
                                             body(ORC, "Orc 4", 8, 12)], ["declaration"], file="staff")
    form = page.locator('form[data-form=tr-declare][data-id="c1"]')
    weapon = form.locator('[name="actions.0.weapon"]')
    expect(weapon.locator("option")).to_have_count(3)  # before an action: (no weapon), Staff, Fire Bolt
    form.locator('[name="actions.0.action"]').select_option("melee_attack")
    expect(weapon.locator("option")).to_have_text(["Staff"])
    expect(weapon).to_have_value("0")
    expect(form.locator('[name="actions.0.target"]')).to_have_value("c2")
    expect(form.locator(".tr-decl-preview")).to_contain_text(
        "Orc 4 is 8.0 m from Lia, beyond a melee attack's reach (3 m)")
    photograph(page, "tr-sixth-staff", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    form.locator('[name="actions.0.action"]').select_option("spell_prepared")
    expect(weapon.locator("option")).to_have_text(["(no weapon)", "Fire Bolt"])
    expect(weapon).to_have_value("1")


def test_the_attack_form_says_who_strikes_first_by_weapon_length(page, open_app, tmp_path):
    """FACTS.md, the Tactical Round Sequence: "Melee (longest weapon first; tie: higher CMB; equal:
    simultaneous)". Lia's Staff (length 3) strikes before Orc 4's Scimitar (length 2): the page let Orc 4
    attack first with no remark. Now the attack form says it beside the Attacker, and no more once Lia
    has struck."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    open_fight(page, tmp_path, "The long staff", [body("Apprentice mage", "Lia", 0, 12, "party"),
                                                  body(ORC, "Orc 4", 1.5, 12)],
               ["declaration", melee("c1", "c2"), melee("c2", "c1"), "melee"], file="long")
    form = page.locator("form[data-form=tr-attack]")
    note = form.locator("#tr-att-order")
    expect(form.locator("[name=id]")).to_have_value("c1")
    expect(note).to_be_hidden()
    form.locator("[name=id]").select_option("c2")
    expect(note).to_have_text("Lia strikes first: Staff, length 3, is longer than Scimitar, length 2 "
                              "(Melee: longest weapon first)")
    photograph(page, "tr-sixth-order", scroll_to="form[data-form=tr-attack]")
    form.locator("[name=id]").select_option("c1")
    expect(note).to_be_hidden()
    form.locator("[name=target]").select_option("c2")
    form.get_by_label("Open-ended d100").fill("20")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(page.locator("#log")).to_contain_text("Lia attacks Orc 4 with Staff")
    form.locator("[name=id]").select_option("c2")
    expect(form.locator("[name=id]")).to_have_value("c2")
    expect(note).to_be_hidden()


def test_a_criticals_log_line_has_the_hp_after_and_says_how_its_death_round_is_counted(page, open_app, tmp_path):
    """FACTS.md, the attack: "the GM enters the result (hits and critical severity)". Entered in round 1,
    "Dies in (rounds) 2" was logged "dies at the end of round 2", and the extra hits without the HP the card
    showed (2/30): the log now says both, and the form says how the rounds count."""
    from test_tactical_round import apply_result

    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    archer = {"name": "Archer 1", "side": "foes", "stats": {"DEF": 15, "HP": 30, "Athletics": 10},
              "weapons": [{"name": "Scimitar", "cmb": 35, "kind": "melee", "length": 2}]}
    open_fight(page, tmp_path, "The deep cut", [body("Apprentice mage", "Lia", 0, 0, "party"), (archer, 1.5, 0)],
               ["declaration", melee("c1", "c2"), melee("c2", "c1"), "melee"], file="cut")
    form = page.locator("form[data-form=tr-attack]")
    form.locator("[name=target]").select_option("c2")
    form.get_by_label("Open-ended d100").fill("90")
    form.get_by_role("button", name="Attack", exact=True).click()
    apply_result(page, "A1", 23, "E", "90")
    crit = page.locator('article.tr-pending.critical[data-ref="A1"]')
    expect(crit).to_contain_text("1: at the end of this round; 0: not from this wound")
    crit.get_by_label("Extra hits").fill("5")
    crit.get_by_label("Dies in (rounds)").fill("2")
    photograph(page, "tr-sixth-critical", scroll_to='article.tr-pending.critical[data-ref="A1"]')
    crit.get_by_role("button", name="Apply critical").click()
    expect(page.locator("#log")).to_contain_text(
        "A1 critical on Archer 1: 5 hits (HP 2), dies at the end of round 2 (dies in 2 rounds, this one the first)")
