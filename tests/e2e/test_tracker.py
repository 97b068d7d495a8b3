"""The tracker in a real browser (issue 2, item 4: "creating encounters and combatants with
free-form stats must work"): the New dialog, the add-combatant dialog, names full of HTML,
field errors that leave the encounter unchanged, turns, undo/redo, conditions and ties.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from gestures import add_combatant, card, new_freeform, open_add_dialog  # noqa: E402

HTML_NAME = "<img src=x onerror=alert(1)>"


# -- helpers ----------------------------------------------------------------------------------


def snapshot(page) -> dict[str, str]:
    """Everything the tracker shows of the encounter (cards, order, round bar, log)."""
    return page.evaluate("""() => ({
        round: document.getElementById('round-bar').innerHTML,
        panel: document.getElementById('ruleset-panel').innerHTML,
        cards: document.getElementById('combatants').innerHTML,
        log: document.getElementById('log').innerHTML,
    })""")


def order_names(page) -> list[str]:
    return page.locator("#ruleset-panel ol.order li .who").all_inner_texts()


# -- tests ------------------------------------------------------------------------------------

def test_new_free_form_encounter_and_add_combatants(page, open_app):
    open_app(page)
    new_freeform(page, "Ambush at the ford")
    expect(page.locator("#combatants .empty")).to_contain_text("No combatants yet")
    add_combatant(page, "Wolf", "initiative: 14\nHP: 9\nbite: 1D6")
    add_combatant(page, "Aria", "initiative: 11", side="party")
    wolf = card(page, "Wolf")
    expect(wolf).to_have_count(1)
    expect(wolf.locator(".stats")).to_contain_text("initiative 14")
    expect(wolf.locator(".stats")).to_contain_text("HP 9")
    expect(wolf.locator(".stats")).to_contain_text("bite 1D6")
    expect(card(page, "Aria")).to_have_class(re.compile(r"\bside-party\b"))
    # Higher initiative first.
    assert order_names(page) == ["Wolf", "Aria"]
    expect(page.locator("#log li")).to_have_count(2)
    expect(page.locator("#log li").first).to_contain_text("Aria joins the fight (party)")
    expect(page.locator("#btn-undo")).to_be_enabled()


def test_a_name_full_of_html_is_shown_as_text(page, open_app):
    alerts = []
    page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))  # an alert = the markup ran
    open_app(page)
    new_freeform(page, HTML_NAME)
    add_combatant(page, HTML_NAME, "initiative: 3")
    c = card(page, HTML_NAME)
    expect(c).to_have_count(1)
    expect(c.locator("h3.name")).to_have_text(HTML_NAME)
    expect(page.locator("#log li").first).to_contain_text(HTML_NAME + " joins the fight")
    expect(page.locator("#encounter-select option:checked")).to_have_text(HTML_NAME)
    assert order_names(page) == [HTML_NAME]
    # No element came out of the name, anywhere in the page.
    assert page.locator("img").count() == 0
    assert page.locator("[onerror]").count() == 0
    assert alerts == []


def test_a_bad_stat_name_is_shown_next_to_the_field_and_changes_nothing(page, open_app):
    open_app(page)
    new_freeform(page, "Errors")
    add_combatant(page, "Wolf", "initiative: 14")
    before = snapshot(page)
    undo_enabled = page.locator("#btn-undo").is_enabled()

    dlg = open_add_dialog(page)
    dlg.locator('[name="combatant.name"]').fill("Bear")
    dlg.locator('[name="combatant.stats"]').fill("initiative: 8\n9: 5")
    dlg.get_by_role("button", name="Add", exact=True).click()
    err = dlg.locator('[data-error-for="combatant.stats"]')
    expect(err).to_contain_text("9")
    expect(err).to_contain_text("starting with a letter")
    expect(dlg.locator('[name="combatant.stats"]')).to_have_attribute("aria-invalid", "true")
    expect(dlg).to_be_visible()  # the dialog stays open so the GM can fix the field
    assert snapshot(page) == before
    expect(page.locator("#combatants .card")).to_have_count(1)
    expect(page.locator("#log li")).to_have_count(1)
    assert page.locator("#btn-undo").is_enabled() == undo_enabled

    # Fixing the field clears the error and adds the combatant.
    dlg.locator('[name="combatant.stats"]').fill("initiative: 8")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(card(page, "Bear")).to_have_count(1)
    expect(page.locator("#log li")).to_have_count(2)


def test_an_empty_name_is_shown_next_to_the_field_and_changes_nothing(page, open_app):
    open_app(page)
    new_freeform(page, "Errors")
    add_combatant(page, "Wolf", "initiative: 14")
    before = snapshot(page)

    dlg = open_add_dialog(page)
    dlg.locator('[name="combatant.name"]').fill("   ")
    dlg.locator('[name="combatant.stats"]').fill("initiative: 8")
    dlg.get_by_role("button", name="Add", exact=True).click()
    err = dlg.locator('[data-error-for="combatant.name"]')
    expect(err).to_have_text(re.compile("must not be empty"))
    expect(dlg.locator('[name="combatant.name"]')).to_have_attribute("aria-invalid", "true")
    expect(dlg.locator('[data-error-for="combatant.stats"]')).to_have_text("")
    assert snapshot(page) == before
    expect(page.locator("#combatants .card")).to_have_count(1)
    expect(page.locator("#log li")).to_have_count(1)

    dlg.get_by_role("button", name="Cancel").click()
    expect(dlg).to_be_hidden()
    assert snapshot(page) == before


def test_advance_turns_and_rounds(page, open_app):
    open_app(page)
    new_freeform(page, "Turns")
    add_combatant(page, "Wolf", "initiative: 14")
    add_combatant(page, "Aria", "initiative: 11", side="party")
    bar = page.locator("#round-bar")
    expect(bar.locator(".round")).to_have_text("Round 1")
    expect(bar.locator(".now")).to_have_count(0)

    bar.get_by_role("button", name="Start the fight").click()
    expect(bar.locator(".now strong")).to_have_text("Wolf")
    expect(card(page, "Wolf")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(page.locator("#ruleset-panel ol.order li[aria-current=step] .who")).to_have_text("Wolf")

    bar.get_by_role("button", name="Next").click()
    expect(bar.locator(".now strong")).to_have_text("Aria")
    expect(card(page, "Aria")).to_have_class(re.compile(r"\bcurrent\b"))
    expect(card(page, "Wolf")).not_to_have_class(re.compile(r"\bcurrent\b"))

    bar.get_by_role("button", name="Next").click()
    expect(bar.locator(".round")).to_have_text("Round 2")
    expect(bar.locator(".now strong")).to_have_text("Wolf")
    expect(page.locator("#log li").first).to_contain_text("Round 2 begins")


def test_undo_and_redo_restore_exactly_with_buttons_and_keys(page, open_app):
    open_app(page)
    new_freeform(page, "History")
    undo, redo = page.locator("#btn-undo"), page.locator("#btn-redo")
    expect(undo).to_be_disabled()
    expect(redo).to_be_disabled()
    states = [snapshot(page)]
    add_combatant(page, "Wolf", "initiative: 14\nHP: 9")
    states.append(snapshot(page))
    add_combatant(page, "Aria", "initiative: 11", side="party")
    states.append(snapshot(page))
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Wolf")
    states.append(snapshot(page))
    expect(redo).to_be_disabled()

    # Buttons: back to the start, one step at a time, then forward again.
    for i in range(len(states) - 1, 0, -1):
        undo.click()
        expect(page.locator("#log li")).to_have_count(len(_log(states[i - 1])))
        assert snapshot(page) == states[i - 1], f"undo to state {i - 1}"
    expect(undo).to_be_disabled()
    expect(redo).to_be_enabled()
    for i in range(1, len(states)):
        redo.click()
        expect(page.locator("#log li")).to_have_count(len(_log(states[i])))
        assert snapshot(page) == states[i], f"redo to state {i}"
    expect(redo).to_be_disabled()

    # Keys: Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z redo (focus outside any text field).
    page.locator("h1.brand").click()
    for i in range(len(states) - 1, 0, -1):
        page.keyboard.press("Control+z")
        expect(page.locator("#log li")).to_have_count(len(_log(states[i - 1])))
        assert snapshot(page) == states[i - 1], f"Ctrl+Z to state {i - 1}"
    expect(undo).to_be_disabled()
    page.keyboard.press("Control+y")
    expect(page.locator("#log li")).to_have_count(len(_log(states[1])))
    assert snapshot(page) == states[1]
    page.keyboard.press("Control+Shift+z")
    expect(page.locator("#log li")).to_have_count(len(_log(states[2])))
    assert snapshot(page) == states[2]

    # A new action after an undo drops the redo stack.
    page.keyboard.press("Control+z")
    expect(redo).to_be_enabled()
    add_combatant(page, "Bear", "initiative: 2")
    expect(redo).to_be_disabled()
    expect(card(page, "Aria")).to_have_count(0)
    expect(card(page, "Bear")).to_have_count(1)


def test_ctrl_z_in_a_text_field_does_not_undo_the_encounter(page, open_app):
    open_app(page)
    new_freeform(page, "Keys")
    add_combatant(page, "Wolf", "initiative: 14")
    before = snapshot(page)
    page.locator("#note-text").fill("typing")
    page.locator("#note-text").press("Control+z")
    # Undo in a text field is the browser's own (the note text), never the encounter's.
    page.locator("#note-text").fill("")
    expect(page.locator("#btn-undo")).to_be_enabled()
    assert snapshot(page) == before


def test_add_a_condition_and_remove_it(page, open_app):
    open_app(page)
    new_freeform(page, "Conditions")
    add_combatant(page, "Wolf", "initiative: 14")
    wolf = card(page, "Wolf")
    wolf.get_by_role("button", name="Condition…").click()
    dlg = page.locator("#dlg")
    expect(dlg).to_be_visible()
    dlg.get_by_label("Condition").fill("Prone")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(wolf.locator("li.cond")).to_have_count(1)
    expect(wolf.locator("li.cond")).to_contain_text("prone")
    expect(page.locator("#log li").first).to_contain_text("Wolf is now prone")

    # The same condition again is refused in the dialog, and nothing changes.
    before = snapshot(page)
    wolf.get_by_role("button", name="Condition…").click()
    expect(dlg).to_be_visible()
    dlg.get_by_label("Condition").fill("prone")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg.locator('[data-error-for="condition"]')).to_contain_text("already prone")
    assert snapshot(page) == before
    dlg.get_by_role("button", name="Cancel").click()
    expect(dlg).to_be_hidden()

    wolf.get_by_title("Remove prone from Wolf").click()
    expect(wolf.locator("li.cond")).to_have_count(0)
    expect(page.locator("#log li").first).to_contain_text("Wolf is no longer prone")


def test_order_up_and_down_reorder_ties(page, open_app):
    open_app(page)
    new_freeform(page, "Ties")
    add_combatant(page, "Wolf", "initiative: 12")
    add_combatant(page, "Aria", "initiative: 12", side="party")
    add_combatant(page, "Bear", "initiative: 20")
    assert order_names(page) == ["Bear", "Wolf", "Aria"]
    order = page.locator("#ruleset-panel ol.order")

    order.get_by_title("Move Aria earlier among ties").click()
    expect(order.locator("li .who")).to_have_text(["Bear", "Aria", "Wolf"])
    expect(page.locator("#log li").first).to_contain_text("The GM settles a tie: Aria acts before Wolf")
    # Bear (20) is not their equal: moving Aria past Bear is refused beside the list, nothing moves
    order.get_by_title("Move Aria earlier among ties").click()
    expect(page.locator('#ruleset-panel [data-error-for="order"]')).to_contain_text(
        "Aria (Init 12) and Bear (Init 20) are not equals")
    expect(order.locator("li .who")).to_have_text(["Bear", "Aria", "Wolf"])

    order.get_by_title("Move Aria later among ties").click()
    expect(order.locator("li .who")).to_have_text(["Bear", "Wolf", "Aria"])

    # Undo brings the previous tie order back.
    page.locator("#btn-undo").click()
    expect(order.locator("li .who")).to_have_text(["Bear", "Aria", "Wolf"])


def _log(state: dict[str, str]) -> list[str]:
    return re.findall(r"<li\b", state["log"])
