"""Issue 10: "Undo says what it undid ("Undid: Harald's attack on the wolf"), and a history list
lets the GM jump back to any point (still one undo stack)." In the real page: the header says
what Undo and Redo changed, in the log's words; the History dialog lists every change with the
present marked; going back is that many undos (Redo walks forward again); a new change after it
drops the undone ones; and all of it survives a reload.
"""

from __future__ import annotations

from playwright.sync_api import expect
from gestures import add_combatant, card, new_freeform  # noqa: E402


def note(page, text: str) -> None:
    page.fill("#note-text", text)
    page.click("#note-form button[type=submit]")
    expect(page.locator("#log li").first).to_contain_text(text)


def test_undo_and_redo_say_what_they_changed(page, open_app):
    open_app(page)
    new_freeform(page, "Wolf at the ford")
    add_combatant(page, "Harald", "initiative: 12", side="party")
    note(page, "Harald strikes the wolf across the muzzle")
    said = page.locator("#undo-said")
    expect(page.locator("#btn-undo")).to_have_attribute("title", "Undo: Harald strikes the wolf across the muzzle")
    page.click("#btn-undo")
    expect(said).to_have_text("Undid: Harald strikes the wolf across the muzzle")
    expect(page.locator("#log")).not_to_contain_text("across the muzzle")
    page.click("#btn-redo")
    expect(said).to_have_text("Redid: Harald strikes the wolf across the muzzle")
    expect(page.locator("#log li").first).to_contain_text("across the muzzle")
    page.keyboard.press("Control+z")
    expect(said).to_have_text("Undid: Harald strikes the wolf across the muzzle")
    note(page, "A new branch")  # a new change: the header's word on Undo is no longer news
    expect(said).to_have_text("")


def test_history_list_goes_back_and_forward_and_is_one_undo_stack(page, open_app):
    open_app(page)
    new_freeform(page, "<b>Ambush</b>")
    add_combatant(page, "Wolf", "initiative: 14")
    add_combatant(page, "Aria", "initiative: 11", side="party")
    note(page, "The wolf circles")
    page.click("#btn-history")
    dlg = page.locator("#dlg")
    expect(dlg.get_by_role("heading", name="History")).to_be_visible()
    items = dlg.locator(".hist-list li")
    # the start of the encounter and three changes, latest first
    expect(items.first).to_contain_text("The wolf circles")
    expect(dlg.locator('li[aria-current="step"]')).to_contain_text("The wolf circles")
    expect(dlg.locator(".hist-list")).to_contain_text("Start of <b>Ambush</b>")
    assert page.locator("#dlg b").count() == 0  # the name is text, not markup
    row = items.filter(has_text="Wolf joins the fight")
    row.get_by_role("button", name="Go back to here").click()
    expect(page.locator("#undo-said")).to_have_text("Undid 2 changes, back to: Wolf joins the fight (foes)")
    expect(card(page, "Aria")).to_have_count(0)
    expect(card(page, "Wolf")).to_have_count(1)
    expect(dlg.locator('li[aria-current="step"]')).to_contain_text("Wolf joins the fight")
    expect(dlg.locator("li.undone")).to_have_count(2)
    items.filter(has_text="Aria joins the fight").get_by_role("button", name="Go forward to here").click()
    expect(page.locator("#undo-said")).to_have_text("Redid 1 change, up to: Aria joins the fight (party)")
    expect(card(page, "Aria")).to_have_count(1)
    page.click("#dlg [data-act=close-dialog]")
    page.click("#btn-redo")  # one stack: Redo finishes the walk forward
    expect(page.locator("#log li").first).to_contain_text("The wolf circles")
    expect(page.locator("#btn-redo")).to_be_disabled()


def test_going_back_then_changing_drops_the_undone_and_survives_a_reload(page, open_app):
    open_app(page)
    new_freeform(page, "Branches")
    add_combatant(page, "Wolf", "initiative: 14")
    add_combatant(page, "Aria", "initiative: 11", side="party")
    page.click("#btn-history")
    page.locator("#dlg .hist-list li").filter(has_text="Wolf joins").get_by_role("button", name="Go back to here").click()
    page.click("#dlg [data-act=close-dialog]")
    add_combatant(page, "Troll", "initiative: 3")
    expect(page.locator("#btn-redo")).to_be_disabled()
    expect(page.locator("#save-state")).to_have_text("Saved")
    open_app(page)
    expect(card(page, "Troll")).to_have_count(1)
    page.click("#btn-history")
    lst = page.locator("#dlg .hist-list")
    expect(lst).to_contain_text("Troll joins the fight")
    expect(lst).not_to_contain_text("Aria joins the fight")
    lst.locator("li").filter(has_text="Start of").get_by_role("button", name="Go back to here").click()
    expect(page.locator("#combatants .empty")).to_contain_text("No combatants yet")
