"""Autosave and reload (issue 2, item 5): every applied action autosaves; a reload restores the
exact encounter, its undo history and its log; a corrupted autosave gets a message and a way to
download the raw data, never a blank page; several encounters live side by side.

Every step waits on what the page shows (``expect``) or on the page's ready signal, never on time.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from gestures import add_combatant, card, new_freeform, reload, saved, snapshot  # noqa: E402


# -- helpers (the same gestures as test_tracker.py) -------------------------------------------


def current_key(page) -> str:
    key = page.evaluate("localStorage.getItem('fray.current')")
    assert key, "no current encounter in localStorage"
    return key


# -- tests ------------------------------------------------------------------------------------

def test_every_action_autosaves(page, open_app):
    open_app(page)
    new_freeform(page, "Autosave")
    assert saved(page)["encounter"]["name"] == "Autosave"
    assert saved(page)["history"]["actions"] == []

    def expect_saved(cursor: int, n_actions: int) -> dict:
        s = saved(page)
        assert (s["history"]["cursor"], len(s["history"]["actions"])) == (cursor, n_actions)
        return s

    add_combatant(page, "Wolf", "initiative: 14")
    s = expect_saved(1, 1)
    assert [c["name"] for c in s["encounter"]["combatants"]] == ["Wolf"]

    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Wolf")
    assert expect_saved(2, 2)["encounter"]["phase"] == "turns"

    page.locator("#note-text").fill("Rain starts")
    page.locator("#note-form").get_by_role("button", name="Add note").click()
    expect(page.locator("#log li").first).to_contain_text("Rain starts")
    assert expect_saved(3, 3)["encounter"]["log"][-1]["text"] == "Rain starts"

    page.locator("#btn-undo").click()
    expect(page.locator("#log li").first).not_to_contain_text("Rain starts")
    expect_saved(2, 3)

    page.locator("#btn-redo").click()
    expect(page.locator("#log li").first).to_contain_text("Rain starts")
    expect_saved(3, 3)


def test_reload_restores_the_encounter_its_history_and_its_log(page, open_app):
    open_app(page)
    new_freeform(page, "Ambush <at> the ford")
    add_combatant(page, "Wolf", "initiative: 14\nHP: 9")
    add_combatant(page, "Aria", "initiative: 14\nHP: 12", side="party")
    page.locator("#ruleset-panel ol.order").get_by_title("Move Aria earlier among ties").click()
    expect(page.locator("#ruleset-panel ol.order li .who")).to_have_text(["Aria", "Wolf"])
    card(page, "Wolf").get_by_role("button", name="Condition…").click()
    page.locator("#dlg").get_by_label("Condition").fill("prone")
    page.locator("#dlg").get_by_role("button", name="Add", exact=True).click()
    expect(card(page, "Wolf").locator("li.cond")).to_have_count(1)
    before_last = snapshot(page)
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Aria")
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Wolf")
    # One undo, so the save holds a redo step as well.
    page.locator("#btn-undo").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Aria")
    state = snapshot(page)
    raw = page.evaluate("localStorage.getItem('fray.enc.' + localStorage.getItem('fray.current'))")
    assert state["canUndo"] and state["canRedo"]

    reload(page)
    assert snapshot(page) == state
    # The autosave after boot is the very same file.
    assert page.evaluate("localStorage.getItem('fray.enc.' + localStorage.getItem('fray.current'))") == raw

    # The redo step survived the reload ...
    page.locator("#btn-redo").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Wolf")
    page.locator("#btn-undo").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Aria")
    assert snapshot(page) == state
    # ... and so did the undo history, back to before the fight started.
    page.locator("#btn-undo").click()
    expect(page.locator("#round-bar .now")).to_have_count(0)
    assert snapshot(page) == {**before_last, "canRedo": True}


def test_a_closed_and_reopened_browser_restores_the_encounter(launch_persistent, open_app):
    ctx = launch_persistent()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    open_app(page)
    new_freeform(page, "Kept")
    add_combatant(page, "Wolf", "initiative: 14")
    add_combatant(page, "Aria", "initiative: 11", side="party")
    state = snapshot(page)
    ctx.close()

    ctx2 = launch_persistent()  # same profile folder: a GM reopening the browser
    page2 = ctx2.pages[0] if ctx2.pages else ctx2.new_page()
    open_app(page2)
    assert snapshot(page2) == state
    page2.locator("#btn-undo").click()
    expect(card(page2, "Aria")).to_have_count(0)
    expect(card(page2, "Wolf")).to_have_count(1)


@pytest.mark.parametrize("corruption", ["garbage", "truncated", "tampered"])
def test_a_corrupted_autosave_gets_a_message_and_a_raw_download(page, open_app, corruption):
    open_app(page)
    new_freeform(page, "Doomed")
    add_combatant(page, "Wolf", "initiative: 14")
    key = current_key(page)
    good = page.evaluate("k => localStorage.getItem('fray.enc.' + k)", key)
    if corruption == "garbage":
        bad = "}{ not a save \u2620"
    elif corruption == "truncated":
        bad = good[: len(good) // 2]
    else:  # valid JSON, but the encounter no longer matches its history
        data = json.loads(good)
        data["encounter"]["combatants"][0]["name"] = "Edited wolf"
        bad = json.dumps(data)
    page.evaluate("([k, v]) => localStorage.setItem('fray.enc.' + k, v)", [key, bad])

    reload(page)
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("could not be loaded")
    if corruption != "tampered":
        expect(banner).to_contain_text("not JSON")
    else:
        expect(banner).to_contain_text("does not match what its history replays to")
    # Not a blank page: the shell and a usable encounter are there.
    expect(page.locator("#loading")).to_be_hidden()
    expect(page.locator("#round-bar").get_by_role("button", name="Add combatant")).to_be_visible()

    with page.expect_download() as dl_info:
        banner.get_by_role("button", name="Download the raw save").click()
    dl = dl_info.value
    assert key in dl.suggested_filename and dl.suggested_filename.endswith(".json")
    with open(dl.path(), encoding="utf-8") as f:
        assert f.read() == bad

    # The broken save is kept untouched, never overwritten by the fresh encounter.
    assert page.evaluate("k => localStorage.getItem('fray.enc.' + k)", key) == bad
    assert page.evaluate("k => localStorage.getItem('fray.broken.' + k)", key) == bad
    assert current_key(page) != key

    # The page still works: a new encounter, a combatant, and it autosaves.
    banner.get_by_role("button", name="Dismiss").click()
    expect(banner).to_be_hidden()
    new_freeform(page, "Fresh start")
    add_combatant(page, "Bear", "initiative: 3")
    assert [c["name"] for c in saved(page)["encounter"]["combatants"]] == ["Bear"]
    assert page.evaluate("k => localStorage.getItem('fray.enc.' + k)", key) == bad


def test_switching_between_two_encounters_keeps_both(page, open_app):
    open_app(page)
    new_freeform(page, "Alpha")
    add_combatant(page, "Wolf", "initiative: 14")
    alpha = snapshot(page)
    new_freeform(page, "Beta")
    add_combatant(page, "Bear", "initiative: 5")
    add_combatant(page, "Aria", "initiative: 9", side="party")
    beta = snapshot(page)
    select = page.locator("#encounter-select")
    expect(select.locator("option")).to_contain_text(["Alpha", "Beta"])

    def switch(name: str, expected: dict) -> None:
        select.select_option(label=name)
        expect(page.locator("#encounter-select option:checked")).to_have_text(name)
        got = snapshot(page)
        for k in ("round", "panel", "cards", "log", "badge", "canUndo", "canRedo"):
            assert got[k] == expected[k], f"{name}: {k} differs after switching"

    switch("Alpha", alpha)
    expect(card(page, "Wolf")).to_have_count(1)
    expect(card(page, "Bear")).to_have_count(0)
    switch("Beta", beta)
    switch("Alpha", alpha)

    # Both survive a reload, with their own histories; the last one opened comes back.
    reload(page)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Alpha")
    switch("Beta", beta)
    page.locator("#btn-undo").click()
    expect(card(page, "Aria")).to_have_count(0)
    switch("Alpha", alpha)
    page.locator("#btn-undo").click()
    expect(card(page, "Wolf")).to_have_count(0)
    select.select_option(label="Beta")
    expect(page.locator("#combatants .card")).to_have_count(1)
    expect(card(page, "Bear")).to_have_count(1)


def test_switching_to_a_corrupted_encounter_keeps_the_current_one(page, open_app):
    open_app(page)
    new_freeform(page, "Spoilt")
    add_combatant(page, "Ghoul", "initiative: 2")
    spoilt_key = current_key(page)
    new_freeform(page, "Fine")
    add_combatant(page, "Wolf", "initiative: 14")
    state = snapshot(page)
    page.evaluate("k => localStorage.setItem('fray.enc.' + k, '{\"format\": \"fray-encounter\"')", spoilt_key)

    page.locator("#encounter-select").select_option(label="Spoilt")
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("could not be loaded")
    # The encounter on screen (and the list's choice) stays the one that loads.
    expect(page.locator("#encounter-select option:checked")).to_have_text("Fine")
    assert snapshot(page) == state
    with page.expect_download() as dl_info:
        banner.get_by_role("button", name="Download the raw save").click()
    with open(dl_info.value.path(), encoding="utf-8") as f:
        assert f.read() == '{"format": "fray-encounter"'
    add_combatant(page, "Aria", "initiative: 9", side="party")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf", "Aria"])


def test_delete_forgets_the_open_encounter_and_opens_the_next(page, open_app):
    """The way out when storage fills up: Delete drops the open encounter from the browser
    (after the GM confirms) and opens the next one in the list."""
    open_app(page)
    new_freeform(page, "Keep")
    add_combatant(page, "Wolf", "initiative: 14")
    keep_key = current_key(page)
    new_freeform(page, "Drop")
    add_combatant(page, "Ghoul", "initiative: 2")
    drop_key = current_key(page)
    page.once("dialog", lambda d: d.dismiss())
    page.locator("#btn-delete").click()
    expect(page.locator("#encounter-select option:checked")).to_have_text("Drop")  # dismissed: kept
    page.once("dialog", lambda d: d.accept())
    page.locator("#btn-delete").click()
    expect(page.locator("#encounter-select option:checked")).to_have_text("First encounter")  # the first in the list
    names = page.locator("#encounter-select option").all_inner_texts()
    assert "Drop" not in names and "Keep" in names
    assert page.evaluate("k => localStorage.getItem('fray.enc.' + k)", drop_key) is None
    assert page.evaluate("k => localStorage.getItem('fray.enc.' + k)", keep_key) is not None
    reload(page)
    assert "Drop" not in page.locator("#encounter-select option").all_inner_texts()
