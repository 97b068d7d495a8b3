"""Strike-rank: a declared attack and its target, through the page as a GM's play-through met them (the rules
themselves: tests/games/strike_rank/test_sr_declared_target.py). Fights are loaded ready-made from a save file.
Screenshots: /tmp/sr-target-*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gestures import saved
from test_map import preset
from test_strike_rank_table import LAPTOP, TABLET, WARRIOR, load_fight, melee, to_resolve

SIZES = [TABLET, LAPTOP]
GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def _warrior(name: str, side: str, **over) -> dict:
    return preset("strike-rank", WARRIOR, name=name, side=side, **over)


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_target_killed_and_knocked_back_forces_the_change_at_once(page, open_app, tmp_path, size):
    """Changing Actions: "A combatant may be forced to change actions, e.g. if the target of their attack dies."
    A GM's play: Harrek declared on Broo 4 (SR 7); at SR 6 Cid's greatsword killed Broo 4 and knocked the body
    5 m back, which took Harrek's attack to a later SR: no forced change came at SR 7. Now the body's knockback
    times no one again: at SR 7 the forced change is before the GM, with what it costs."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(_warrior("Harrek", "party"), 0.0, 0.0),
              (_warrior("Broo 4", "foes", stats={**preset("strike-rank", WARRIOR)["stats"], "hp": 3}), 2.0, 0.0),
              (_warrior("Cid", "party", weapons=[GREAT]), 2.0, 2.0)]
    blow = {"type": "sr.attack", "attacker": "c3", "target": "c2", "weapon": "greatsword", "ref": "a2",
            "defence": {"kind": "none"}, "move_token": True, "rolls": {"attack": [10], "location": [12],
                                                                       "damage": [8, 8, 4]}}
    load_fight(page, tmp_path, people, to_resolve(melee("c1", "c2"), {**melee("c3", "c2"), "weapon": "greatsword"})
               + [blow])
    log = page.locator("#log")
    expect(log).to_contain_text("Broo 4 is knocked back 5 m")
    page.locator("form[data-form=sr-prompt]", has_text="Broo 4 is knocked back 5 m").get_by_role(
        "button", name="No collision").click()
    expect(log).to_contain_text("Broo 4 is knocked back 5 m to (2, -5) m")
    expect(log).not_to_contain_text("Broo 4 was knocked back: Harrek")
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    box = page.locator(".sr-forced")
    expect(box).to_contain_text("Harrek's attack must change")
    expect(box).to_contain_text("Declared against Broo 4, who is dead.")
    expect(box).to_contain_text("Changing now costs DEX SR 3: SR 10 at the earliest.")
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-target-forced-at-once-{size['width']}.png")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_another_target_in_the_attack_form_is_a_change_said_before_the_roll(page, open_app, tmp_path, size):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR." A GM's
    play: Harrek, declared on Broo 1, picked Broo 2 in the attack form and struck at once, nothing logged. Beside
    the Target the form says what the change costs before the roll, and its button makes the change: the attack
    is timed again (logged), no blow is struck."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(_warrior("Harrek", "party"), 0.0, 0.0), (_warrior("Broo 1", "foes"), 2.0, 0.0),
              (_warrior("Broo 2", "foes"), 0.0, 2.0)]
    load_fight(page, tmp_path, people, to_resolve(melee("c1", "c2")))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    expect(form.locator('[name="target"]')).to_have_value("c2")
    form.locator('[name="target"]').select_option("c3")
    target = form.locator('[data-field="target"]')
    expect(target).to_contain_text("Broo 2 was not declared: changing the target costs DEX SR 3, strikes at SR 10")
    button = form.get_by_role("button", name="Change the target to Broo 2")
    expect(button).to_be_visible()
    target.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-target-retarget-{size['width']}.png")
    n = page.locator("#log li").count()
    button.click()
    expect(page.locator("#log li")).to_have_count(n + 1)
    expect(page.locator("#log")).to_contain_text(
        "Harrek: melee attack with Broadsword at Broo 2: SR 10 = SR 7 (the new action's own: DEX 3 + SIZ 2 + weapon 2; "
        "the change is made at SR 7) + DEX SR 3 (changing the declared action)")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "sr.change" and last["target"] == "c3", last
    assert not [a for a in saved(page)["history"]["actions"] if a["type"] == "sr.attack"]
    expect(page.locator(".sr-nothing-left")).to_contain_text("No action is left at SR 7: press Next for SR 10.")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_forced_change_that_loses_the_attack_says_so_before_the_gm_confirms(page, open_app, tmp_path, size):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: at SR 10, pressing Change on an attack whose target had
    died gave "... is past SR 12: the attack is lost" with no warning. The forced change says it first, and so does
    its button; pressed anyway, the log says the attack is lost in the rule's words."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(_warrior("Harrek", "party"), 0.0, 0.0), (_warrior("Broo 4", "foes"), 12.0, 0.0),
              (_warrior("Broo 5", "foes"), 12.0, 2.0)]
    load = to_resolve(melee("c1", "c2"))  # 9 m to close at 3 m a strike rank: SR 10
    load_fight(page, tmp_path, people, load[:-1] + [{"type": "set_condition", "id": "c2", "condition": "dead"},
                                                    load[-1]])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 10")
    box = page.locator(".sr-forced")
    expect(box).to_contain_text("Changing now to Broo 5 costs DEX SR 3: SR 14, past SR 12, the attack would be lost.")
    button = box.get_by_role("button", name="Change: the attack is lost")
    expect(button).to_be_visible()
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-target-forced-lost-{size['width']}.png")
    button.click()
    expect(page.locator("#log")).to_contain_text(
        "Harrek: SR 14 = SR 11 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + move 4; the change is made at SR 10) "
        "+ DEX SR 3 (changing the declared action) is past SR 12: the attack is lost")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_the_forced_change_follows_the_target_the_gm_picks_in_it(page, open_app, tmp_path, size):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost." A GM's play: the forced change said "Changing now to Charging wolf
    costs DEX SR 3, strikes at SR 12"; the GM picked another Target 13 m away in the box, the line still named the
    wolf and the button was still plain "Change"; pressed, the attack was lost. The line and the button follow the
    Target picked, and say the attack would be lost before the GM confirms."""
    page.set_viewport_size(size)
    open_app(page)
    people = [(_warrior("Harrek", "party"), 0.0, 0.0), (_warrior("Broo 4", "foes"), 2.0, 0.0),
              (_warrior("Broo 5", "foes"), 2.0, 2.0), (_warrior("Broo 6", "foes"), 14.0, 0.0)]
    load = to_resolve(melee("c1", "c2"))
    load_fight(page, tmp_path, people, load[:-1] + [{"type": "set_condition", "id": "c2", "condition": "dead"},
                                                    load[-1]])
    box = page.locator(".sr-forced")
    expect(box).to_contain_text("Changing now to Broo 5 costs DEX SR 3")
    expect(box).not_to_contain_text("would be lost")
    box.locator('[name="target"]').select_option("c4")
    expect(box.locator(".sr-change-cost")).to_contain_text("Changing now to Broo 6 costs DEX SR 3")
    expect(box.locator(".sr-change-cost")).to_contain_text("past SR 12, the attack would be lost")
    expect(box.locator('[name="target"]')).to_have_value("c4")
    button = box.get_by_role("button", name="Change: the attack is lost")
    expect(button).to_be_visible()
    box.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-target-forced-picked-{size['width']}.png")
    # back to the near one: plain Change again
    box.locator('[name="target"]').select_option("c3")
    expect(box.locator(".sr-change-cost")).to_contain_text("Changing now to Broo 5 costs DEX SR 3")
    expect(box.get_by_role("button", name="Change", exact=True)).to_be_visible()


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_change_to_a_melee_attack_starts_on_the_engaged_foe_and_is_timed_with_its_move(page, open_app, tmp_path,
                                                                                         size):
    """Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR."; Melee
    Combat: "Combatants who are not engaged at the start of the MR must move 6m to get within melee range". A GM's
    play: Ayla's shot at the charging wolf, changed to a melee attack, stayed on the far wolf with the shot's 0 m,
    and was timed with no movement. The change form starts on Broo beside her with Metres from the map; changed to
    the wolf 9 m off, the attack is timed with its move (6 m to close: 2 SR)."""
    page.set_viewport_size(size)
    open_app(page)
    bow = {"name": "Bow", "skill": 60, "damage": "1D8+1", "hp": 6, "type": "impaling", "missile": True,
           "rate": "S/MR", "range": 90}
    sword = {"name": "Broadsword", "skill": 60, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing",
             "hand": "right"}
    people = [(_warrior("Ayla", "party", weapons=[bow, sword]), 0.0, 0.0), (_warrior("Wolf", "foes"), 9.0, 0.0),
              (_warrior("Broo", "foes"), 2.0, 0.0)]
    load_fight(page, tmp_path, people, to_resolve({"type": "sr.declare", "id": "c1", "kind": "missile",
                                                   "weapon": "bow", "target": "c2"}))
    page.locator(".sr-order-fold > summary").click()
    page.locator(".sr-order").get_by_role("button", name="of Ayla").filter(has_text="Change").first.click()
    change = page.locator('form[data-form=sr-change]')
    expect(change.locator('[name="target"]')).to_have_value("c3")
    expect(change.locator('[name="metres"]')).to_have_value("")
    change.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/sr-target-change-engaged-{size['width']}.png")
    change.locator('[name="kind"]').select_option("melee")
    change.locator('[name="weapon"]').select_option("broadsword")
    change.locator('[name="target"]').select_option("c2")
    change.locator("button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text(
        "Ayla: melee attack with Broadsword at Wolf: SR 12 = SR 9 (the new action's own: DEX 3 + SIZ 2 + weapon 2 + "
        "move 2; the change is made at SR 3) + DEX SR 3 (changing the declared action)")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "laptop"])
def test_a_mounted_riders_melee_moves_him_and_his_mount_together(page, open_app, tmp_path, size):
    """Moving Mounts & Shooting: "A mounted character only halves their skill if the mount is running": the mount
    does the moving; Mounted Knockback: "both mount and rider suffer any knockback". A GM's play: the rider's plain
    melee read "closes 15 m at 3 m a strike rank", and at resolution his token moved 15 m while his horse's stayed
    put. His melee on Bor 18 m off closes 15 m at the horse's 8 m a strike rank, and both tokens arrive together."""
    page.set_viewport_size(size)
    open_app(page)
    stats = preset("strike-rank", WARRIOR)["stats"]
    people = [(_warrior("Horse", "party", stats={**stats, "move": 8}), 0.0, 0.0),
              (_warrior("Knight", "party", mount="c1"), 0.0, 0.0), (_warrior("Bor", "foes"), 18.0, 0.0)]
    load_fight(page, tmp_path, people, to_resolve(melee("c2", "c3")))
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 9")
    form = page.locator('form[data-form=sr-attack][data-attacker="c2"]')
    form.locator('[name="rolls.attack"]').fill("95")
    form.locator('[name="defence.kind"]').select_option("none")
    form.get_by_role("button", name="Roll the exchange").click()
    log = page.locator("#log")
    expect(log).to_contain_text("Knight closes 15 m to Bor")
    expect(log).to_contain_text("Horse carries Knight there")
    if size["width"] < 1000:
        page.get_by_role("tab", name="Map").click()
        expect(page.locator("#map")).to_be_visible()
    page.screenshot(path=f"/tmp/sr-target-rider-{size['width']}.png")
    fighters = saved(page)["encounter"]["combatants"]
    at = {c["name"]: (c["position"]["x"], c["position"]["y"]) for c in fighters}
    assert at["Knight"] == at["Horse"] == (15.0, 0.0), at
