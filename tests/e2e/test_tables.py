"""Issue 10: "the table editor is raw JSON: make tables editable as forms (rows and cells), with
the JSON still available." In the real page: a cell typed wrong is named at its row and changes
nothing; a right one is saved for this encounter and read by the rules; a row can be added (a
copy of the last, the cells typed so far kept) and removed; the JSON is one tap away; the undo
takes the edit back.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect
from gestures import new_encounter  # noqa: E402


def open_table(page, title: str):
    page.locator("#btn-tables").click()
    dlg = page.locator("#dlg")
    expect(dlg.get_by_role("heading", name="Tables")).to_be_visible()
    box = dlg.locator("details", has=page.locator("summary", has_text=title)).first
    box.locator("summary").first.click()
    return box


def test_a_table_is_edited_as_rows_and_cells(page, open_app):
    open_app(page)
    new_encounter(page, "Tables", "strike-rank", "Strike Rank (d100)")
    box = open_table(page, "DEX strike rank")
    grid = box.locator('form[data-form="table-grid"]')
    expect(grid.locator("tbody tr:not(.row-error)")).to_have_count(6)
    grid.get_by_label("row 3 sr").fill("three")
    grid.get_by_role("button", name="Save table").click()
    expect(grid.locator('[data-error-for="value.entries.2"]')).to_contain_text("SR must be a whole number, not 'three'")
    expect(page.locator("#btn-undo")).to_be_disabled()  # nothing changed
    # one more row, a copy of the last; the slip typed above is still there to fix
    grid.get_by_role("button", name="Add a row").click()
    expect(grid.locator("tbody tr:not(.row-error)")).to_have_count(7)
    expect(grid.get_by_label("row 3 sr")).to_have_value("three")
    grid.get_by_label("row 3 sr").fill("2")
    grid.get_by_label("row 6 max").fill("20")
    grid.get_by_label("row 7 min").fill("21")
    grid.get_by_label("row 7 sr").fill("-1")
    grid.locator('input[name="r0.__drop"]').check()
    grid.get_by_role("button", name="Save table").click()
    dlg = page.locator("#dlg")
    box = dlg.locator("details", has=page.locator("summary", has_text="DEX strike rank")).first
    expect(box.locator("summary").first).to_contain_text("(edited)")
    box.locator("details.as-json summary").click()
    saved = json.loads(box.locator("textarea").input_value())
    assert [(e["min"], e["max"], e["sr"]) for e in saved["entries"]] == [
        (6, 8, 4), (9, 12, 2), (13, 15, 2), (16, 18, 1), (19, 20, 0), (21, None, -1)]
    page.keyboard.press("Escape")
    page.locator("#btn-undo").click()
    expect(page.locator("#undo-said")).to_contain_text("Undid:")
    box = open_table(page, "DEX strike rank")
    expect(box.locator("summary").first).not_to_contain_text("(edited)")


def test_a_table_with_no_rows_is_typed_as_json(page, open_app):
    open_app(page)
    new_encounter(page, "GM table", "tactical-round", "Tactical round (CMB vs DEF)")
    page.locator("#btn-tables").click()
    dlg = page.locator("#dlg")
    box = dlg.locator("details[data-table=attack_results]")
    box.locator("summary").first.click()
    expect(box).to_contain_text("no rows yet")
    box.locator("details.as-json summary").click()
    expect(box.get_by_label("The table as a Fray file writes it")).to_be_visible()
