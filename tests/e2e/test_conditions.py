"""Issue 10, "Conditions with durations that expire on their own (for N rounds, until the start or
end of someone's turn), with the ruleset's own conditions offered first": in the real page, the
game's own conditions are offered first with what they do, a timed condition shows what is left
on its chip, comes off by itself when its time comes (and the log says why), Undo puts it back,
and a bad duration is shown at its field with the encounter unchanged.
"""

from __future__ import annotations

from playwright.sync_api import expect
from gestures import add_combatant, card, new_freeform  # noqa: E402


def open_condition(page, who: str):
    card(page, who).get_by_role("button", name="Condition…").click()
    dlg = page.locator("#dlg")
    expect(dlg.get_by_role("heading", name=f"Condition on {who}")).to_be_visible()
    return dlg


def next_turn(page) -> None:
    page.locator("#round-bar").get_by_role("button", name="Next").click()


def test_a_condition_for_one_round_comes_off_by_itself_and_undo_puts_it_back(page, open_app):
    open_app(page)
    new_freeform(page, "Timed")
    add_combatant(page, "Orc", "initiative: 10")
    add_combatant(page, "Elf", "initiative: 5", side="party")
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    dlg = open_condition(page, "Orc")
    # the game's own conditions come first, each with what it does
    picks = dlg.locator("fieldset.picks")
    expect(picks.locator("label.pick").first).to_contain_text("prone")
    expect(picks).to_contain_text("Lying on the ground.")
    picks.get_by_label("stunned").check()
    dlg.get_by_label("Lasts").select_option("rounds")
    dlg.get_by_label("Rounds").fill("1")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    chip = card(page, "Orc").locator("li.cond")
    expect(chip).to_contain_text("stunned")
    expect(chip.locator(".cond-left")).to_have_text("1 round left")
    next_turn(page)  # Elf
    card(page, "Orc")  # no longer acting, it folded (a folded card shows only its line): the GM opens it
    expect(chip).to_have_count(1)
    next_turn(page)  # round 2 begins: one round is over
    expect(page.locator("#round-bar")).to_contain_text("Round 2")
    expect(chip).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Orc is no longer stunned (1 round over)")
    page.click("#btn-undo")
    expect(page.locator("#undo-said")).to_contain_text("Undid:")
    expect(chip.locator(".cond-left")).to_have_text("1 round left")


def test_until_the_end_of_someones_next_turn(page, open_app):
    open_app(page)
    new_freeform(page, "Turns")
    add_combatant(page, "Orc", "initiative: 10")
    add_combatant(page, "Elf", "initiative: 5", side="party")
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()  # Orc's turn
    dlg = open_condition(page, "Elf")
    dlg.get_by_label("Or another condition").fill("Blinded by dust")
    dlg.get_by_label("Lasts").select_option("turn_end")
    dlg.get_by_label("Whose turn").select_option(label="Elf")
    dlg.get_by_role("button", name="Add", exact=True).click()
    chip = card(page, "Elf").locator("li.cond")
    expect(chip.locator(".cond-left")).to_have_text("until the end of their next turn")
    next_turn(page)  # Elf's turn starts: this is the next one
    expect(chip.locator(".cond-left")).to_have_text("until the end of their current turn")
    next_turn(page)  # and ends
    expect(chip).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Elf is no longer blinded by dust (the end of their turn)")


def test_a_bad_duration_is_shown_at_its_field_and_changes_nothing(page, open_app):
    open_app(page)
    new_freeform(page, "Slips")
    add_combatant(page, "Orc", "initiative: 10")
    log_before = page.locator("#log").inner_html()
    dlg = open_condition(page, "Orc")
    dlg.get_by_label("Or another condition").fill("hexed")
    dlg.get_by_label("Lasts").select_option("rounds")
    dlg.get_by_label("Rounds").fill("two")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg.locator('[data-error-for="lasts.rounds"]')).to_contain_text("whole number")
    dlg.get_by_label("Rounds").fill("0")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg.locator('[data-error-for="lasts.rounds"]')).to_contain_text("from 1 to 1000")
    dlg.get_by_role("button", name="Cancel").click()
    expect(card(page, "Orc").locator("li.cond")).to_have_count(0)
    assert page.locator("#log").inner_html() == log_before


def test_strike_rank_offers_its_own_conditions_and_melee_rounds_only(page, open_app):
    open_app(page)
    page.locator("#btn-new").click()
    dlg = page.locator("#dlg")
    dlg.get_by_label("Name").fill("Melee")
    dlg.get_by_label("Rules").select_option("strike-rank")
    dlg.get_by_role("button", name="Create").click()
    dlg = page.locator("#round-bar").get_by_role("button", name="Add combatant").click()
    dlg = page.locator("#dlg")
    dlg.get_by_label("Ready-made").select_option(index=1)
    dlg.get_by_role("button", name="Use", exact=True).click()
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    first = page.locator("#combatants .card").first
    if first.get_attribute("data-open") == "false":  # cards fold until the GM opens one
        first.locator(".card-toggle").click()
    first.get_by_role("button", name="Condition…").click()
    expect(dlg.locator("fieldset.picks")).to_contain_text("surprised")
    expect(dlg.locator("fieldset.picks")).to_contain_text("No actions in the first MR")
    lasts = dlg.get_by_label("Lasts")
    expect(lasts.locator("option")).to_have_text(["until removed", "for a number of melee rounds"])
    dlg.locator("fieldset.picks").get_by_label("prone").check()
    lasts.select_option("rounds")
    dlg.get_by_label("Melee rounds").fill("2")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#combatants li.cond .cond-left")).to_have_text("2 melee rounds left")
