"""Issue 10, "Many of one kind": "a bestiary of the GM's own templates kept in the browser, with
export and import". In the real page: a combatant added with "Keep in my bestiary" is offered
under "My bestiary" in the add form, after a reload too; using it fills the form; the bestiary
exports to a file, a template removed comes back from that file, and a bad file is refused with
what is wrong, the bestiary untouched.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect
from gestures import card, new_freeform, open_add_dialog  # noqa: E402


def test_keep_use_export_remove_and_import_templates(page, open_app, tmp_path):
    open_app(page)
    new_freeform(page, "Goblin cave")
    dlg = open_add_dialog(page)
    dlg.locator('[name="combatant.name"]').fill("Cave goblin <b>")
    dlg.locator('[name="combatant.stats"]').fill("initiative: 13\nHP: 7")
    dlg.get_by_label("Keep in my bestiary").check()
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#undo-said")).to_have_text("Cave goblin <b> is kept in your bestiary")
    open_app(page)  # kept in the browser, not in the encounter
    dlg = open_add_dialog(page)
    ready = dlg.get_by_label("Ready-made")
    expect(ready.locator('optgroup[label="My bestiary"] option')).to_have_text(["Cave goblin <b>"])
    ready.select_option(label="Cave goblin <b>")
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator('[name="combatant.name"]')).to_have_value("Cave goblin <b>")
    expect(dlg.locator('[name="combatant.stats"]')).to_have_value("initiative: 13\nHP: 7")
    dlg.locator('[name="combatant.name"]').fill("Cave goblin 2")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(card(page, "Cave goblin 2")).to_have_count(1)
    # the bestiary dialog: export, remove, import back
    dlg = open_add_dialog(page)
    dlg.get_by_role("button", name="My bestiary…").click()
    expect(dlg.get_by_role("heading", name="My bestiary")).to_be_visible()
    with page.expect_download() as dl:
        dlg.get_by_role("button", name="Export").click()
    path = tmp_path / "bestiary.json"
    dl.value.save_as(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "fray-bestiary" and [t["combatant"]["name"] for t in data["templates"]] == ["Cave goblin <b>"]
    dlg.get_by_title("Remove Cave goblin <b> from the bestiary").click()
    expect(dlg.locator(".status-note")).to_have_text("Cave goblin <b> is no longer in the bestiary.")
    expect(dlg.locator(".bestiary-list li")).to_have_count(0)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Rat", "side": "vermin"}}]}), encoding="utf-8")
    dlg.locator("#bestiary-import").set_input_files(str(bad))
    expect(dlg.locator("#bestiary-error")).to_contain_text("bad.json was not imported")
    # the place in the GM's words, not the file's dotted path ("templates.0 (Rat): combatant.side")
    expect(dlg.locator("#bestiary-error")).to_contain_text("Template 1 (Rat), its side: ")
    expect(dlg.locator("#bestiary-error")).not_to_contain_text("templates.")
    expect(dlg.locator("#bestiary-error")).not_to_contain_text("combatant.")
    expect(dlg.locator("#bestiary-error")).to_contain_text("The bestiary is unchanged")
    dlg.locator("#bestiary-import").set_input_files(str(path))
    expect(dlg.locator(".status-note")).to_have_text("Imported bestiary.json: 1 new template.")
    expect(dlg.locator(".bestiary-list li .who")).to_have_text(["Cave goblin <b>"])
    assert page.locator("#dlg b").count() == 0
    dlg.get_by_role("button", name="Back to adding").click()
    expect(dlg.get_by_label("Ready-made").locator('optgroup[label="My bestiary"] option')).to_have_count(1)
