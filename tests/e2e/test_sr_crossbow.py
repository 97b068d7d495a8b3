"""A GM's play-through with a crossbowman and an archer against wolves (strike-rank): a bow or crossbow offered
as a parry. Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from gestures import add_preset, click_and_log
from test_strike_rank import advance, declare, new_strike_rank

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "sr-crossbow"


def crossbow_shot_once(page) -> None:
    """Crossbow at the gate: the crossbowman (c1) declares the missile attack his form starts at,
    shoots his Heavy crossbow (1/3MR) at a warrior 30 m off (c2) and misses; Next to Melee Round 2's
    declarations."""
    new_strike_rank(page, "Crossbow at the gate")
    add_preset(page, "Crossbowman", "party", at=(0, 0))  # c1
    add_preset(page, "Human warrior", "foes", at=(30, 0))  # c2, out of reach: only the bolt flies
    advance(page, "Declare")
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    expect(form.locator('[name="kind"]')).to_have_value("missile")
    form.get_by_role("button", name="Declare").click()
    expect(page.locator('.sr-who[data-id="c1"] .sr-decl')).to_contain_text("Missile attack")
    advance(page, "Resolve")
    shot = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    shot.locator('[name="rolls.attack"]').fill("99")  # a miss: nobody falls
    click_and_log(page, shot.get_by_role("button", name="Roll the exchange"))
    for _ in range(12):  # Next through the Melee Round's strike ranks to the next declarations
        if page.locator("#round-bar .round").inner_text().strip() == "Round 2":
            break
        advance(page, "")
    expect(page.locator(".sr-phase")).to_contain_text("Melee Round 2: Declare")


def test_the_attack_form_offers_no_bow_or_crossbow_as_a_parry(page, open_app):
    """Ranged Combat: "Unengaged characters can use missile weapons to make ranged attacks. They get the usual 1
    attack, 1 parry, and dodges" (the text names no bow, crossbow or sling as parrying: Fray's *assumed* default).
    A GM's form offered the Heavy crossbow and the Composite bow as parries, and the crossbow's parry struck back
    with its bolt's 2D6+2: the crossbowman, who holds nothing else, dodges; the archer parries with her dagger."""
    open_app(page)
    new_strike_rank(page, "Wolves at the ford")
    add_preset(page, "Crossbowman", "party", at=(0, 0))  # c1
    add_preset(page, "Archer", "party", at=(0, 2))  # c2
    add_preset(page, "Great wolf (four-legged)", "foes", at=(2, 0))  # c3
    advance(page, "Declare")
    # on no one: the form's Target may then be anyone (another than a declared one is a change: Changing Actions)
    declare(page, "c3", "bite", "", "SR")
    advance(page, "Resolve SR")
    form = page.locator("form[data-form=sr-attack]")
    expect(form).to_have_count(1)
    expect(form.locator('[name="defence.kind"]')).to_have_value("dodge")
    expect(form.locator('[name="defence.kind"] option')).to_have_text(["Dodge", "None"])
    expect(form.locator('[name="defence.weapon"]')).to_have_count(0)
    # nor do the odds beside it list a crossbow parry "not allowed"
    expect(form).to_contain_text("Odds before rolling")
    expect(form).not_to_contain_text("Heavy crossbow")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in ({"width": 768, "height": 1024}, {"width": 1366, "height": 900}):
        page.set_viewport_size(size)
        form.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"crossbowman-dodges-{size['width']}x{size['height']}.png"))
    form.locator('[name="target"]').select_option("c2")
    form = page.locator("form[data-form=sr-attack]")
    expect(form.locator('[name="defence.weapon"] option')).to_have_text(["Dagger (40%)"])
    expect(form.locator('[name="defence.kind"]')).to_have_value("parry")


def test_not_loaded_is_said_in_words_next_to_the_weapon(page, open_app):
    """Ranged Combat: "1/xMR: One attack every x MR, at DEX SR. The intervening MR must be spent reloading." A GM
    read "Heavy crossbow is not loaded (1/3MR)": the refusal says it in words, beside the weapon, and nothing
    changes."""
    open_app(page)
    crossbow_shot_once(page)
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    form.locator('[name="kind"]').select_option("missile")
    form.locator('[name="target"]').select_option("c2")
    form.get_by_role("button", name="Declare").click()
    error = form.locator('[data-error-for="weapon"]')
    expect(error).to_contain_text("Heavy crossbow is not loaded: it shoots once every 3 Melee Rounds and takes the "
                                  "2 between to reload")
    expect(form).not_to_contain_text("1/3MR")
    expect(page.locator('.sr-who[data-id="c1"] .sr-decl')).to_have_count(0)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in ({"width": 768, "height": 1024}, {"width": 1366, "height": 900}):
        page.set_viewport_size(size)
        error.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"not-loaded-{size['width']}x{size['height']}.png"))
