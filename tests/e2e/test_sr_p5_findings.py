"""Strike-rank: what a GM's fifth play-through left, through the page (the rules themselves:
tests/games/strike_rank/test_sr_p5_findings.py). Fights are loaded ready-made from a save file.
Screenshots: /tmp/sr-p5-*.png.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from test_map import preset
from test_strike_rank_table import TABLET, WARRIOR, load_fight, melee

SPEAR = {"name": "Spear", "skill": 60, "damage": "1D8+1", "sr": 1, "hp": 10, "type": "impaling", "hafted": True,
         "spear": True, "hand": "both"}
GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def _warrior(name: str, side: str, **over) -> dict:
    return preset("strike-rank", WARRIOR, name=name, side=side, **over)


def test_old_questions_close_and_the_forced_change_is_on_the_tablet_screen(page, open_app, tmp_path):
    """Impale: "A melee attacker can make a weapon skill test at half rating to immediately free the weapon. If this
    fails, further attempts take 1 MR each"; Changing Actions: "A combatant may be forced to change actions, e.g. if
    the target of their attack dies." A GM's play: "may free Spear now ... hold on, or let go" of a wolf killed since
    and a knockback's collision question were still open two MRs later, the forced-change box pushed below the fold
    of the tablet. Their moment past, they closed themselves (logged); the forced change is on screen at 768x1024."""
    page.set_viewport_size(TABLET)
    open_app(page)
    people = [(_warrior("Vasana", "party", weapons=[SPEAR]), 0.0, 0.0), (_warrior("Wolf", "foes"), 2.0, 0.0),
              (_warrior("Harrek", "party", weapons=[GREAT]), 0.0, 4.0), (_warrior("Broo 2", "foes"), 2.0, 4.0),
              (_warrior("Broo 1", "foes"), 0.0, 6.0)]
    mr1 = [{"type": "advance"}, {"type": "advance"},
           {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "spear", "defence": {"kind": "none"},
            "rolls": {"attack": [10], "location": [12], "damage": [1, 1, 1]}},
           {"type": "sr.attack", "attacker": "c3", "target": "c4", "weapon": "greatsword", "defence": {"kind": "none"},
            "rolls": {"attack": [10], "location": [1], "damage": [8, 8, 4], "knockback_dex": [1]}},
           {"type": "set_condition", "id": "c2", "condition": "dead"}, {"type": "advance"}, {"type": "advance"}]
    mr2 = [{**melee("c3", "c5"), "weapon": "greatsword"}, {"type": "set_condition", "id": "c5", "condition": "dead"},
           {"type": "advance"}]
    load_fight(page, tmp_path, people, mr1 + mr2)
    log = page.locator("#log")
    expect(log).to_contain_text("The question whether Vasana frees Spear at once is closed: Wolf is dead")
    expect(log).to_contain_text("collided with anyone is closed: Melee Round 1 is over")
    expect(page.locator("form[data-form=sr-prompt]")).to_have_count(0)
    box = page.locator(".sr-forced")
    expect(box).to_contain_text("Harrek's attack must change")
    expect(box).to_be_in_viewport()
    page.screenshot(path="/tmp/sr-p5-forced-on-screen-768.png")


def test_change_to_a_melee_attack_starts_on_the_weapon_in_hand_and_none_says_choose_a_weapon(page, open_app, tmp_path):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A GM's
    play: Change… to a melee attack left the Weapon on "(none)" and the refusal read "does not carry that weapon".
    Now Melee attack takes the weapon in hand (Broadsword); set back to "(none)", "choose a weapon" is said beside
    the Weapon and nothing changes."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    people = [(_warrior("Ana", "party"), 0.0, 0.0), (_warrior("Bor", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [
        {"type": "advance"}, {"type": "sr.declare", "id": "c1", "kind": "other", "label": "Drink a potion", "sr_cost": 1},
        melee("c2", "c1"), {"type": "advance"}])
    page.locator("summary", has_text="Strike rank order").click()
    page.get_by_role("button", name=re.compile(r"^Change .* of Ana$")).click()
    change = page.locator("form[data-form=sr-change]")
    weapon = change.locator('[name="weapon"]')
    expect(weapon).to_have_value("")
    change.locator('[name="kind"]').select_option("melee")
    expect(weapon).to_have_value("broadsword")
    change.locator('[name="target"]').select_option("c2")
    page.screenshot(path="/tmp/sr-p5-change-melee-1366.png")
    weapon.select_option("")
    n = page.locator("#log li").count()
    change.locator("button[type=submit]").click()
    expect(change.locator('[data-error-for="weapon"]')).to_have_text("choose a weapon")
    expect(change).not_to_contain_text("does not carry")
    expect(page.locator("#log li")).to_have_count(n)


def test_a_spell_picked_in_the_declaration_sets_its_target_from_the_spell_table(page, open_app, tmp_path):
    """Combining Spells & Attacks: "casting Speedart on an arrow before shooting it." A GM's play: Bladesharp and
    Speedart started on a foe as their Target. The assumed spell table says whom each is cast on: picking Bladesharp
    sets the Target on the caster, Disruption on the foe."""
    page.set_viewport_size(TABLET)
    open_app(page)
    spells = [{"name": "Bladesharp", "type": "battle", "intensity": 2},
              {"name": "Disruption", "type": "battle", "intensity": 1}]
    people = [(_warrior("Ana", "party", spells=spells), 0.0, 0.0), (_warrior("Bor", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}])
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    target = form.locator('[name="target"]')
    expect(target).to_have_value("c2")
    form.locator('[name="kind"]').select_option("spell")
    form.locator('[name="spell"]').select_option("bladesharp")
    expect(target).to_have_value("c1")
    expect(target.locator("option:checked")).to_have_text("Ana (self)")
    form.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/sr-p5-spell-self-768.png")
    form.locator('[name="spell"]').select_option("disruption")
    expect(target).to_have_value("c2")
    form.locator('[name="spell"]').select_option("bladesharp")
    form.get_by_role("button", name="Declare").click()
    expect(page.locator("#log")).to_contain_text("Ana: casts Bladesharp at Ana")


def test_the_voluntary_change_says_its_cost_and_a_change_past_sr_12_is_logged_lost(page, open_app, tmp_path):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: the Change… box said "SR 6 at the earliest" and no cost for
    the change set in it, and a change whose own SR was past 12 was refused ("Attacks cannot roll over"). The box
    says what the change set in it costs, as the forced change's does, and the change past SR 12 is logged lost."""
    page.set_viewport_size(TABLET)
    open_app(page)
    people = [(_warrior("Ana", "party"), 0.0, 0.0), (_warrior("Bor", "foes"), 2.0, 0.0),
              (_warrior("Cid", "foes"), 20.0, 0.0)]
    load_fight(page, tmp_path, people, [{"type": "advance"}, melee("c1", "c2"), melee("c2", "c1"), {"type": "advance"}])
    page.locator("summary", has_text="Strike rank order").click()
    page.get_by_role("button", name=re.compile(r"^Change .* of Ana$")).click()
    box = page.locator(".sr-change").filter(has=page.locator('form[data-form=sr-change]'))
    cost = box.locator(".sr-change-cost")
    # opened on the action declared: nothing changed, no cost (the sixth play-through: test_sr_p6_findings.py)
    expect(cost).to_have_text("Nothing is changed yet: change the action, weapon or target to see what it costs.")
    box.locator('[name="target"]').select_option("c3")
    expect(cost).to_contain_text("Changing now to Cid costs DEX SR 3: SR ")
    expect(cost).to_contain_text("past SR 12, the attack would be lost.")
    button = box.get_by_role("button", name="Change: the attack is lost")
    expect(button).to_be_visible()
    box.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/sr-p5-change-cost-768.png")
    button.click()
    expect(page.locator("#log")).to_contain_text("is past SR 12: the attack is lost")
    expect(page.locator(".sr-form-error")).to_have_text("")
