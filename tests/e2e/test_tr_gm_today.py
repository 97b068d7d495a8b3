"""Tactical round, what a GM's play-through found on today's build: the attack form's Attacker changed
away and back lost the weapon (the Mage's declared Fire Bolt came back as "(the wielded one)", his Staff,
and the attack was refused "Staff attacks in Melee, not in Spell A").

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import import_history, photograph  # noqa: E402
from test_map import preset  # noqa: E402
from test_tactical_round import newest_log  # noqa: E402


def load_spell(page, tmp_path) -> None:
    """The Mage (Staff in hand, Fire Bolt his second weapon) at 0 m, his Fire Bolt declared on Orc A
    10 m north; Bran the swordsman 2 m east, Orc B 4 m east; the fight stands in Spell A."""
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("tactical-round", "The bolt"))
    for body, x, y in ((preset("tactical-round", "Apprentice mage", name="Mage", side="party"), 0, 0),
                       (preset("tactical-round", "Orc warrior", name="Orc A"), 0, 10),
                       (preset("tactical-round", "Swordsman with shield", name="Bran", side="party"), 2, 0),
                       (preset("tactical-round", "Orc warrior", name="Orc B"), 4, 0)):
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": 0}}})
    while h.present.phase != "declaration":
        h.do({"type": "advance"})
    h.do({"type": "tr.declare", "id": "c1", "actions": [{"action": "spell_prepared", "weapon": 1, "target": "c2"}]})
    while h.present.phase != "spell_a":
        h.do({"type": "advance"})
    import_history(page, tmp_path, h, 4, "bolt")


def test_the_declared_weapon_comes_back_with_its_attacker(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): each declared action is made in its phase, "Spell A" the
    prepared spells; the Mage's declared Fire Bolt is his attack there. The GM looks at another Attacker
    and back: the Fire Bolt is still the Weapon, and the attack goes with it."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    load_spell(page, tmp_path)
    form = page.locator("form[data-form=tr-attack]")
    weapon = form.locator("[name=weapon]")
    expect(form.locator("[name=id]")).to_have_value("c1")
    expect(weapon).to_have_value("c1:1")
    form.locator("[name=id]").select_option("c3")
    expect(weapon).to_have_value("")  # Bran declared nothing here: the one in his hand
    form.locator("[name=id]").select_option("c1")
    expect(weapon).to_have_value("c1:1")  # the declared Fire Bolt, back with him
    form.locator("[name=id]").select_option("c3")
    form.locator("[name=weapon]").select_option("c3:0")
    form.locator("[name=id]").select_option("c1")
    form.locator("[name=id]").select_option("c3")
    expect(weapon).to_have_value("c3:0")  # the GM's own choice for Bran stands too
    form.locator("[name=id]").select_option("c1")
    photograph(page, "tr-weapon-comes-back", scroll_to="form[data-form=tr-attack]")
    form.get_by_label("Open-ended d100").fill("50")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Mage attacks Orc A with Fire Bolt")
