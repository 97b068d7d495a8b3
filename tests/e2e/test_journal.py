"""The append-only autosave in the page (issue 11: one action, "apply, autosave, re-render", is
far too slow while every click rewrites the whole save): a change is one small journal row in
IndexedDB, the save is rewritten when the page is idle, a reload right after a click keeps the
click, a version 1 database opens as version 2 with everything in it, a newer Fray in another
tab stops this one saving (and says so), and a journal row that does not apply is kept for
download like a broken save.

Every step waits on what the page shows or stores, never on time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from gestures import (add_combatant, card, current_key, hold_the_saves, journal_rows, new_freeform, reload,  # noqa: E402
                      saved, store_read, store_write, stored, wait_folded, wait_ready, wait_saved)

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))
from fray import savefile  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402


def add_note(page, text: str) -> None:
    page.locator("#note-text").fill(text)
    page.locator("#note-form").get_by_role("button", name="Add note").click()
    expect(page.locator("#log li").first).to_contain_text(text)


def log_texts(page) -> list[str]:
    return page.locator("#log li").all_inner_texts()


def test_a_change_is_one_journal_row_and_the_save_is_folded_in_when_idle(page, open_app):
    open_app(page)
    new_freeform(page, "Journal")
    add_combatant(page, "Wolf", "initiative: 14")
    key = current_key(page)
    wait_folded(page)
    whole = store_read(page, "saves")[key]
    add_note(page, "Rain starts")
    wait_saved(page)
    rows = journal_rows(page, key)
    if rows:  # the page had not folded it yet: the save is untouched, the change is one small row
        assert store_read(page, "saves")[key] == whole
        assert [json.loads(r["moves"])[0]["action"] for r in rows] == [{"type": "note", "text": "Rain starts"}]
        assert len(rows[0]["moves"]) < len(whole["text"]) / 5
    assert saved(page)["encounter"]["log"][-1]["text"] == "Rain starts"
    wait_folded(page)  # idle: the save is rewritten whole and the rows deleted with it
    row = store_read(page, "saves")[key]
    assert json.loads(row["text"])["encounter"]["log"][-1]["text"] == "Rain starts"
    assert row["rev"] == store_read(page, "entries")[key]["rev"] and journal_rows(page, key) == []
    reload(page)
    expect(page.locator("#log li").first).to_contain_text("Rain starts")


# Every committed readwrite transaction of the page: its durability and the stores it put into.
# (The page's own connection: the tests' reads of the database open their own, read-only.)
RECORD_DURABILITY = """(() => {
    window.__committed = [];
    const open = IDBDatabase.prototype.transaction;
    const put = IDBObjectStore.prototype.put;
    IDBDatabase.prototype.transaction = function (names, mode, options) {
        const t = open.call(this, names, mode, options);
        if (mode === 'readwrite') {
            t.__puts = [];
            t.addEventListener('complete', () => window.__committed.push({durability: t.durability, puts: t.__puts}));
        }
        return t;
    };
    IDBObjectStore.prototype.put = function (...args) {
        if (this.transaction.__puts) this.transaction.__puts.push(this.name);
        return put.apply(this, args);
    };
})()"""


def test_a_change_commits_relaxed_and_the_fold_after_it_writes_it_through_to_disk(page, open_app):
    """docs/ARCHITECTURE.md, Storage: a journal row (the write of one change) is committed
    "relaxed", once the operating system has it; every whole save, the fold after the changes
    included, is "strict", and its flush takes every row before it to the disk."""
    page.add_init_script(RECORD_DURABILITY)
    open_app(page)
    new_freeform(page, "Durability")
    add_combatant(page, "Wolf", "initiative: 14")
    key = current_key(page)
    wait_folded(page)
    page.evaluate("window.__committed = []")
    add_note(page, "Rain starts")
    add_note(page, "Thunder")
    wait_folded(page)
    committed = page.evaluate("window.__committed")
    rows = [t for t in committed if "journal" in t["puts"]]
    wholes = [i for i, t in enumerate(committed) if "saves" in t["puts"]]
    assert rows and {t["durability"] for t in rows} == {"relaxed"}, committed
    assert wholes and {committed[i]["durability"] for i in wholes} == {"strict"}, committed
    # the last write is a strict fold: nothing of the two notes waits on a relaxed commit alone
    assert wholes[-1] == len(committed) - 1 and committed.index(rows[-1]) < wholes[-1], committed
    assert json.loads(store_read(page, "saves")[key]["text"])["encounter"]["log"][-1]["text"] == "Thunder"
    assert journal_rows(page, key) == []


def hold_database(context, url: str):
    """Another tab of the app, once ready and saved, holding the database (``hold_the_saves``) until
    ``window.__release`` is set in it: the page's next write waits."""
    holder = context.new_page()
    holder.goto(url)
    wait_ready(holder)
    wait_saved(holder)
    hold_the_saves(holder)
    return holder


@pytest.mark.parametrize("when", ["at once", "write held"])
def test_a_reload_right_after_a_click_keeps_the_click(page, context, open_app, when):
    """The gap the issue's last note names: "A reload within the autosave's commit loses that
    last change ... The cure is a synchronous journal of the unsaved history in localStorage on
    pagehide, read at boot when it is newer." "at once": reload the moment the note is on
    screen. "write held": another tab holds the database so the write cannot commit before the
    reload; the reloaded page waits for it, then finds the note in localStorage."""
    open_app(page)
    new_freeform(page, "Reloaded")
    add_combatant(page, "Wolf", "initiative: 14")
    wait_saved(page)
    holder = hold_database(context, page.url) if when == "write held" else None
    add_note(page, "The bridge gives way")
    if holder is not None:
        expect(page.locator("#save-state")).to_have_attribute("data-state", "saving")
        page.reload(wait_until="commit")  # the page is gone before its write could commit
        holder.evaluate("window.__release = true")
    else:
        page.reload(wait_until="commit")
    wait_ready(page)
    expect(page.locator("#log li").first).to_contain_text("The bridge gives way")
    if holder is not None:  # the write never committed: the note came back from localStorage
        assert page.evaluate("globalThis.frayRecovered") == 1
    assert sum("The bridge gives way" in t for t in log_texts(page)) == 1  # applied once, not twice
    wait_saved(page)
    assert [e["text"] for e in saved(page)["encounter"]["log"]].count("The bridge gives way") == 1
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('fray.pending.'))") == []
    expect(page.locator("#banner")).to_be_hidden()
    if holder is not None:
        holder.close()


def hidden_while_writing(page, context, open_app, name: str, note: str):
    """A new encounter, then ``note`` added while another tab holds the database (the write waits),
    and the page hidden meanwhile; the holding tab, to release."""
    open_app(page)
    new_freeform(page, name)
    add_combatant(page, "Wolf", "initiative: 14")
    wait_saved(page)
    holder = hold_database(context, page.url)
    add_note(page, note)
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saving")
    page.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    return holder


def test_moves_kept_as_the_page_was_hidden_are_dropped_once_their_write_commits(page, context, open_app):
    """Issue 8's closing tab: the moves kept in localStorage as the page was hidden are "read at
    boot when it is newer"; once their write commits they are stale, and a later boot must not
    find them. (The page removes the kept moves only after it kept some, not after every commit.)"""
    holder = hidden_while_writing(page, context, open_app, "Hidden tab", "The torch gutters")
    kept = "Object.keys(localStorage).filter(k => k.startsWith('fray.pending.')).map(k => localStorage.getItem(k))"
    assert any("The torch gutters" in v for v in page.evaluate(kept))
    holder.evaluate("window.__release = true")
    wait_saved(page)
    assert page.evaluate(kept) == []
    holder.close()


def test_moves_kept_as_the_page_was_hidden_stay_kept_when_their_write_then_fails(page, context, open_app):
    """Issue 8's closing tab: "On pagehide (and when the page is hidden ...) the moves not
    committed yet are kept synchronously in localStorage". The page is hidden while its write waits
    on the database, and that write then fails (the disk full): the kept moves are the only copy
    of the note, so they stay kept, and the next boot applies them."""
    holder = hidden_while_writing(page, context, open_app, "Full disk", "The rope snaps")
    page.evaluate("""() => {
        const full = () => { throw new DOMException('the disk is full (test)', 'QuotaExceededError'); };
        IDBObjectStore.prototype.put = full;
        IDBObjectStore.prototype.add = full;
    }""")
    kept = "Object.keys(localStorage).filter(k => k.startsWith('fray.pending.')).map(k => localStorage.getItem(k))"
    assert any("The rope snaps" in v for v in page.evaluate(kept))
    # the page prints the failed write's traceback to the console (Python's stderr, by PyScript)
    page.watch.allow(r"/static/vendor/pyscript/error-[^/ ]+\.js")
    holder.evaluate("window.__release = true")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    expect(page.locator("#banner")).to_contain_text("Autosave failed")
    assert any("The rope snaps" in v for v in page.evaluate(kept)), "the failed write dropped the kept moves"
    holder.close()
    page.reload()
    wait_ready(page)
    expect(page.locator("#log li").first).to_contain_text("The rope snaps")
    assert page.evaluate("globalThis.frayRecovered") == 1
    wait_saved(page)
    assert [e["text"] for e in saved(page)["encounter"]["log"]].count("The rope snaps") == 1
    assert page.evaluate(kept) == []


def old_save(name: str, *combatants: str) -> str:
    h = History(new_encounter("freeform", name))
    for c in combatants:
        h.do({"type": "add_combatant", "combatant": {"name": c, "stats": {"initiative": 10}}})
    return savefile.dumps(h)


def test_a_version_1_database_opens_as_version_2_with_everything_in_it(page, open_app, app_url):
    """Version 2 adds the journal store; a database an earlier Fray made (version 1: entries,
    saves, broken, meta) must open with every save, its list, its broken copy and its current
    pointer, and then take journal rows."""
    page.route(app_url + "seed.html", lambda route: route.fulfill(
        content_type="text/html", body='<!doctype html><title>seed</title><link rel="icon" href="data:,">'))
    page.goto(app_url + "seed.html")
    made = page.evaluate("""([camp, ford]) => new Promise((ok, ko) => {
        const r = indexedDB.open('fray', 1);
        r.onupgradeneeded = () => {
            const d = r.result;
            d.createObjectStore('entries', { keyPath: 'key' });
            d.createObjectStore('saves', { keyPath: 'key' });
            d.createObjectStore('broken', { keyPath: 'key' });
            d.createObjectStore('meta');
        };
        r.onsuccess = () => {
            const d = r.result;
            const t = d.transaction(['entries', 'saves', 'broken', 'meta'], 'readwrite');
            t.objectStore('saves').put({ key: 'e1', text: ford, rev: 4 });
            t.objectStore('entries').put({ key: 'e1', name: 'Old ford', ruleset: 'freeform', rev: 4 });
            t.objectStore('saves').put({ key: 'e2', text: camp, rev: 7 });
            t.objectStore('entries').put({ key: 'e2', name: 'Night camp', ruleset: 'freeform', rev: 7 });
            t.objectStore('broken').put({ key: 'e3', text: '}{ kept' });
            t.objectStore('meta').put('e2', 'current');
            t.objectStore('meta').put(true, 'migrated');
            t.oncomplete = () => { const v = d.version; d.close(); ok(v); };
            t.onerror = () => ko(t.error);
        };
        r.onerror = () => ko(r.error);
    })""", [old_save("Night camp", "Bear", "Aria"), old_save("Old ford", "Wolf")])
    assert made == 1
    open_app(page)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Night camp")
    expect(page.locator("#encounter-select option")).to_have_text(["Old ford", "Night camp"])
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Bear", "Aria"])
    assert page.evaluate("""() => new Promise((ok) => {
        const r = indexedDB.open('fray'); r.onsuccess = () => { const v = r.result.version;
            const names = [...r.result.objectStoreNames]; r.result.close(); ok([v, names]); }; })""") \
        == [2, ["broken", "entries", "journal", "meta", "saves"]]
    assert store_read(page, "broken") == {"e3": {"key": "e3", "text": "}{ kept"}}
    add_combatant(page, "Scout", "initiative: 3", side="party")
    wait_saved(page)
    assert stored(page, "e2")["rev"] == 8  # the next revision after the one version 1 stored
    assert journal_rows(page, "e2") or store_read(page, "saves")["e2"]["rev"] == 8
    reload(page)
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Bear", "Aria", "Scout"])
    page.locator("#encounter-select").select_option(label="Old ford")
    expect(page.locator("main.panes")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf"])


def test_a_newer_fray_in_another_tab_stops_this_one_saving_and_says_so(page, open_app):
    """A newer Fray opening the database at a higher version: this tab lets it (never blocks
    the upgrade), stops writing, and tells the GM to reload; its last committed save stays."""
    open_app(page)
    new_freeform(page, "Upgraded")
    add_combatant(page, "Wolf", "initiative: 14")
    wait_saved(page)
    before = saved(page)
    version = page.evaluate("""() => new Promise((ok, ko) => {
        const r = indexedDB.open('fray', 3);  // what a newer Fray in another tab does
        r.onsuccess = () => { const v = r.result.version; r.result.close(); ok(v); };
        r.onerror = () => ko(r.error);
        r.onblocked = () => ko(new Error('blocked: the page did not let go of the database'));
    })""")
    assert version == 3
    banner = page.locator("#banner")
    expect(banner).to_contain_text("A newer version of Fray was opened in another tab")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    add_combatant(page, "Bear", "initiative: 5")  # the fight goes on on screen
    expect(card(page, "Bear")).to_have_count(1)
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    assert json.loads(stored(page, current_key_now(page))["text"]) == before


def current_key_now(page) -> str:
    return store_read(page, "meta")["current"]


def test_a_journal_row_that_does_not_apply_is_kept_for_download(page, open_app):
    """Like a broken save: the encounter is not opened, nothing is overwritten, the GM is told
    and can download the save with its journal rows."""
    open_app(page)
    new_freeform(page, "Spoilt journal")
    add_combatant(page, "Wolf", "initiative: 14")
    key = current_key(page)
    wait_folded(page)
    row = store_read(page, "saves")[key]
    entry = store_read(page, "entries")[key]
    bad = json.dumps([{"move": "do", "action": {"type": "no_such_action"}}])
    store_write(page, "journal", "put", value={"key": key, "rev": row["rev"] + 1, "moves": bad, "by": "elsewhere"})
    store_write(page, "entries", "put", value={**entry, "rev": row["rev"] + 1})
    reload(page)
    banner = page.locator("#banner")
    expect(banner).to_contain_text("could not be loaded")
    # where, in the GM's words (not "journal.5.moves.0")
    expect(banner).to_contain_text(f"The change kept as revision {row['rev'] + 1}, its 1st step")
    expect(banner).not_to_contain_text("journal.")
    expect(page.locator("#encounter-select option:checked")).not_to_have_text("Spoilt journal")
    with page.expect_download() as dl_info:
        banner.get_by_role("button", name="Download the raw save").click()
    with open(dl_info.value.path(), encoding="utf-8") as f:
        kept = json.loads(f.read())
    assert kept["format"] == "fray-autosave-journal" and kept["save"] == row["text"]
    assert [(r["rev"], r["moves"]) for r in kept["journal"]] == [(row["rev"] + 1, bad)]
    assert store_read(page, "saves")[key] == row  # untouched
    assert [r["moves"] for r in journal_rows(page, key)] == [bad]
