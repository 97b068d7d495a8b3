"""Strike-rank rules a GM found wrong playing whole fights, through the page as the GM meets them (the
rules themselves: tests/games/strike_rank/test_sr_whole_fights.py). Fights are loaded ready-made
from a save file. Screenshots: /tmp/sr-whole-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gestures import saved
from test_map import preset
from test_strike_rank_table import LAPTOP, TABLET, WARRIOR, load_fight, melee, to_resolve, warriors

SIZES = [TABLET, LAPTOP]
GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def _roll(form, **dice: str) -> None:
    for k, v in dice.items():
        form.locator(f'[name="rolls.{k}"]').fill(v)
    form.get_by_role("button", name="Roll the exchange").click()


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_an_engaged_archer_is_told_she_cannot_shoot(page, open_app, tmp_path, size):
    """Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks." The Archer, 2 m from
    Broo 1, declared a shot at him: her attack form's odds say it cannot be made and why, and Roll the exchange
    says so next to the form, changing nothing (it shot at her full 70%)."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(preset("strike-rank", "Archer", side="party"), 0.0, 0.0),
              (preset("strike-rank", WARRIOR, name="Broo 1", side="foes"), 2.0, 0.0)]
    shot = {"type": "sr.declare", "id": "c1", "kind": "missile", "weapon": "composite_bow", "target": "c2"}
    load_fight(page, tmp_path, people, to_resolve(shot))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    expect(form).to_be_visible()
    why = "Unengaged characters can use missile weapons: Archer is engaged in melee with Broo 1"
    expect(form.locator("[data-odds] .odds-none")).to_contain_text(why)
    n = page.locator("#log li").count()
    _roll(form, attack="30")
    # the form's own slot, beside its button: the refusal is about where she stands, not one field
    err = form.locator("[data-error-for]:not([data-field] *)")
    expect(err).to_contain_text(why)
    expect(err).to_contain_text("Disengage first, or change to a melee attack (see “Ranged Combat” in the rules)")
    expect(page.locator("#log li")).to_have_count(n)
    err.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-whole-engaged-archer-{size['width']}.png")
    assert not [a for a in saved(page)["history"]["actions"] if a["type"] == "sr.attack"]


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_an_attack_on_an_unconscious_target_must_change(page, open_app, tmp_path, size):
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies."
    Broo 1's attack was declared at Vasana, who lies unconscious: the slot holds the forced change (delayed by
    DEX SR) set on Harrek, with Skip it, or Vasana struck where she lies; it was an attack form already set on
    Harrek at the old SR."""
    page.set_viewport_size(size)
    open_app(page)
    people = warriors("Vasana", "Broo 1") + [(preset("strike-rank", WARRIOR, name="Harrek", side="party"), 4.0, 0.0)]
    load = to_resolve(melee("c2", "c1"))
    load_fight(page, tmp_path, people, load[:-1] + [{"type": "set_condition", "id": "c1", "condition": "unconscious"},
                                                    load[-1]])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    box = page.locator(".sr-forced")
    expect(box).to_contain_text("Broo 1's attack must change")
    expect(box).to_contain_text("Declared against Vasana, who is unconscious. A forced change is delayed by DEX SR 3")
    expect(page.locator('form[data-form=sr-attack][data-attacker="c2"]')).to_have_count(0)
    change = box.locator("form[data-form=sr-change]")
    expect(change.locator('[name="target"]')).to_have_value("c3")
    page.screenshot(path=f"/tmp/sr-whole-forced-change-{size['width']}.png")
    # struck where she lies: the attack form on Vasana, as declared
    box.get_by_role("button", name="Strike Vasana as declared").click()
    form = page.locator('form[data-form=sr-attack][data-attacker="c2"]')
    expect(form).to_be_visible()
    expect(form.locator('[name="target"]')).to_have_value("c1")
    # another target from this form is the change it forces: the forced change is back in its place
    form.locator('[name="target"]').select_option("c3")
    expect(page.locator('form[data-form=sr-attack][data-attacker="c2"]')).to_have_count(0)
    expect(page.locator(".sr-forced")).to_contain_text("Declared against Vasana, who is unconscious.")
    n = page.locator("#log li").count()
    page.locator(".sr-forced form[data-form=sr-change] button[type=submit]").click()
    expect(page.locator("#log li")).to_have_count(n + 1)
    expect(page.locator("#log")).to_contain_text("(changing the declared action)")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "sr.change" and last["target"] == "c3", last


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_dead_defenders_fumble_is_not_asked(page, open_app, tmp_path, size):
    """Fumble Table / Death: "Dead characters cannot do anything". Broo 1 fumbles his parry (00) and Vasana's blow
    kills him: no question about his fumble waits for the GM, and the log says why (a dead bandit's fumble
    question waited for an answer)."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(preset("strike-rank", WARRIOR, name="Vasana", side="party"), 0.0, 0.0),
              (preset("strike-rank", WARRIOR, name="Broo 1", side="foes",
                      stats={**preset("strike-rank", WARRIOR)["stats"], "hp": 3}), 2.0, 0.0)]
    load_fight(page, tmp_path, people, to_resolve(melee("c1", "c2")))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("parry")
    _roll(form, attack="30", defence="100", location="1", damage="8 4")
    log = page.locator("#log")
    expect(log).to_contain_text("Broo 1 is killed")
    expect(log).to_contain_text("Broo 1 fumbled the parry but is dead: no fumble to roll")
    # no question waits: none about the fumble, and none about the leg the killing blow mangled (a limb
    # mangled by the blow that kills is asked about only if he is resuscitated)
    expect(page.locator("form[data-form=sr-prompt]")).to_have_count(0)
    expect(log).to_contain_text("Right leg")
    page.screenshot(path=f"/tmp/sr-whole-dead-fumble-{size['width']}.png")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_killing_blow_knocks_the_body_back(page, open_app, tmp_path, size):
    """Knockback: "If the rolled damage of an attack (before AP is deducted, etc.) is higher than the target's SIZ,
    the target is knocked back 1 meter for every 5 points of damage (or part thereof)." Vasana's greatsword rolls
    22 and kills Broo 1: he is knocked back 5 m, the GM is asked about a collision, and "No collision" moves his
    token 5 m straight away from her, as for a living target."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(preset("strike-rank", WARRIOR, name="Vasana", side="party", weapons=[GREAT]), 0.0, 0.0),
              (preset("strike-rank", WARRIOR, name="Broo 1", side="foes",
                      stats={**preset("strike-rank", WARRIOR)["stats"], "hp": 3}), 2.0, 0.0)]
    load_fight(page, tmp_path, people, to_resolve({**melee("c1", "c2"), "weapon": "greatsword"}))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("none")
    token = page.locator('#map [data-token="c2"]')
    before = token.get_attribute("transform")
    _roll(form, attack="10", location="10", damage="8 8 4")
    log = page.locator("#log")
    expect(log).to_contain_text("Broo 1 is killed")
    expect(log).to_contain_text("Broo 1 is knocked back 5 m (rolled damage 22 > SIZ 13)")
    question = page.locator("form[data-form=sr-prompt]", has_text="Broo 1 is knocked back 5 m")
    expect(question).to_be_visible()
    page.screenshot(path=f"/tmp/sr-whole-kill-knockback-{size['width']}.png")
    question.get_by_role("button", name="No collision").click()
    expect(log).to_contain_text("Broo 1 is knocked back 5 m to (7, 0) m")
    expect(token).not_to_have_attribute("transform", before)
    c2 = next(c for c in saved(page)["encounter"]["combatants"] if c["id"] == "c2")
    assert (c2["position"]["x"], c2["position"]["y"]) == (7, 0), c2["position"]
    page.screenshot(path=f"/tmp/sr-whole-kill-knockback-moved-{size['width']}.png")
