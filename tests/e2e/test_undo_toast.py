"""A GM's play-through on a tablet: after Undo the header's "Undid: …" was cut with an ellipsis (its
title, the whole sentence, is no help on a touch screen) and pushed the page down at 768x1024. It is a
toast now: the whole sentence, wrapped, fixed above the bottom edge so nothing moves, clear of a
focused form, still a status announced to readers, and gone at the next change.
Screenshots: /tmp/gm-fixes-undo-<w>.png, /tmp/gm-fixes-undo-top-<w>.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from gestures import add_combatant, new_freeform
from test_history import note
from test_strip import LAPTOP, TABLET as TABLET_CONTEXT

TABLET = TABLET_CONTEXT["viewport"]

# as long as the history names a change (longer is cut there, by the log's words), twice the header's old 40ch
LONG = "Harald strikes the wolf across the muzzle, the blade turning on bone; it falls back"


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["tablet", "laptop"])
def test_undo_says_the_whole_sentence_without_moving_the_page(page, open_app, size):
    page.set_viewport_size(size)
    open_app(page)
    new_freeform(page, "Wolf at the ford")
    add_combatant(page, "Harald", "initiative: 12", side="party")
    note(page, LONG)
    page.evaluate("window.scrollTo(0, 0)")
    before = box(page, "#combatants")
    page.click("#btn-undo")
    said = page.locator("#undo-said")
    expect(said).to_have_text("Undid: " + LONG)
    expect(said).to_have_attribute("role", "status")
    expect(said).to_be_visible()
    assert box(page, "#combatants") == before  # nothing below the header moved
    # the whole sentence shows: nothing cut, wrapped inside the screen, above its bottom edge
    cut = said.evaluate("e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight"
                        " || getComputedStyle(e).textOverflow === 'ellipsis'")
    assert not cut
    b = box(page, "#undo-said")
    assert b["x"] >= 0 and b["x"] + b["width"] <= size["width"]
    assert b["y"] > 0 and b["y"] + b["height"] < size["height"]
    assert said.evaluate("e => getComputedStyle(e).position") == "fixed"
    page.screenshot(path=f"/tmp/gm-fixes-undo-{size['width']}.png")
    # a form near the bottom edge has the focus: the toast stands clear of it
    page.click("#btn-redo")
    # a long fight's cards put the log's form at the bottom edge (here, room the cards would take)
    page.evaluate("document.body.style.paddingTop = '900px'")
    page.locator("#note-form").evaluate("f => f.scrollIntoView({block: 'end'})")
    page.locator("#note-form button[type=submit]").focus()
    page.keyboard.press("Control+z")
    expect(said).to_have_text("Undid: " + LONG)
    assert box(page, "#note-form")["y"] > size["height"] / 2  # the form is near the bottom edge
    assert not overlap(box(page, "#undo-said"), box(page, "#note-form"))
    page.screenshot(path=f"/tmp/gm-fixes-undo-top-{size['width']}.png")
    note(page, "A new branch")  # the next change: the toast is no longer news
    expect(said).to_have_text("")
    expect(said).to_be_hidden()
