"""Export and Import (issue 2, item 5): Export downloads a ``.json`` save file that the engine
reads back (in CPython and in the page); a malformed or foreign file gets a clear message naming
the problem in ``#import-error`` and the current encounter is untouched.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
import gestures
from gestures import add_combatant, first_card, new_freeform, saved_text, store_read, wait_saved  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray import savefile  # noqa: E402
from fray.errors import SaveFileError  # noqa: E402


# -- helpers (the same gestures as test_tracker.py) -------------------------------------------


def snapshot(page) -> dict:
    """What the page shows of the encounter (``gestures.snapshot``), without the encounter list:
    a refused import must leave the encounter as it was, and the list is the browser's."""
    shown = gestures.snapshot(page)
    del shown["select"]
    return shown


def storage(page) -> dict:
    """What the browser keeps: the saves and the library list (IndexedDB, once committed)."""
    wait_saved(page)
    return {store: store_read(page, store) for store in ("saves", "entries", "broken", "meta")}


def build_encounter(page) -> None:
    """An encounter with everything a save holds: stats, sides, a condition, tie order, turns,
    a note, a name full of markup and an undone step (a redo stack)."""
    new_freeform(page, "Ford «ambush» <b>")
    add_combatant(page, "Wolf <img src=x>", "initiative: 14\nHP: 9\nbite: 1D6")
    add_combatant(page, "Aria", "initiative: 14\nHP: 12", side="party")
    page.locator("#ruleset-panel ol.order").get_by_title(re.compile("^Move Aria earlier")).click()
    expect(page.locator("#ruleset-panel ol.order li .who")).to_have_text(["Aria", "Wolf <img src=x>"])
    first_card(page).get_by_role("button", name="Condition…").click()
    page.locator("#dlg").get_by_label("Condition").fill("prone")
    page.locator("#dlg").get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#combatants li.cond")).to_have_count(1)
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#round-bar .now strong")).to_have_text("Aria")
    page.locator("#note-text").fill("Rain ✓")
    page.locator("#note-form").get_by_role("button", name="Add note").click()
    expect(page.locator("#log li").first).to_contain_text("Rain ✓")
    page.locator("#btn-undo").click()
    expect(page.locator("#log li").first).not_to_contain_text("Rain ✓")
    expect(page.locator("#btn-redo")).to_be_enabled()


def export(page, tmp_path: Path, name: str = "export") -> tuple[str, Path]:
    with page.expect_download() as info:
        page.locator("#btn-export").click()
    dl = info.value
    target = tmp_path / f"{name}-{dl.suggested_filename}"
    dl.save_as(target)
    return dl.suggested_filename, target


def import_file(page, path_or_payload) -> None:
    page.locator("#file-import").set_input_files(path_or_payload)


# -- tests ------------------------------------------------------------------------------------

def test_export_downloads_a_save_file_that_cpython_reads(page, open_app, tmp_path):
    open_app(page)
    build_encounter(page)
    filename, path = export(page, tmp_path)
    assert filename.endswith(".json"), filename
    assert not re.search(r'[<>/\\:"|?*]', filename), filename
    text = path.read_text(encoding="utf-8")
    h = savefile.loads(text)
    enc = h.present
    assert enc.ruleset == "freeform"
    assert enc.name == "Ford «ambush» <b>"
    assert [c.name for c in enc.combatants] == ["Wolf <img src=x>", "Aria"]
    assert enc.combatants[0].stats == {"initiative": 14, "HP": 9, "bite": "1D6"}
    assert enc.combatants[0].conditions == ["prone"]
    assert enc.combatants[1].side == "party"
    assert enc.order_override == ["c2", "c1"]
    assert enc.phase == "turns"
    assert h.can_redo and h.cursor == len(h.actions) - 1
    assert h.actions[-1] == {"type": "note", "text": "Rain ✓"}
    # The export is the same data as the autosave.
    autosave = saved_text(page)
    assert json.loads(text) == json.loads(autosave)
    assert savefile.dump_history(h) == json.loads(text)


def test_export_then_import_gives_the_same_encounter(page, open_app, tmp_path):
    open_app(page)
    build_encounter(page)
    before = snapshot(page)
    _, path = export(page, tmp_path, "first")
    first = json.loads(path.read_text(encoding="utf-8"))

    # Open another encounter, then import the file. The same fight is kept here: the page asks,
    # and replacing it (nothing is lost) opens the file in its place.
    new_freeform(page, "Something else")
    add_combatant(page, "Bear", "initiative: 1")
    n_options = page.locator("#encounter-select option").count()
    import_file(page, path)
    expect(page.locator("#dlg")).to_contain_text("the same fight, change for change")
    page.locator("#dlg").get_by_role("button", name=re.compile("^Replace the one here")).click()
    expect(page.locator("#encounter-select option")).to_have_count(n_options)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Ford «ambush» <b>")
    expect(page.locator("#import-error")).to_have_text("")
    assert snapshot(page) == before

    # Same data: a second export is the first one, and the history came along.
    _, path2 = export(page, tmp_path, "second")
    assert json.loads(path2.read_text(encoding="utf-8")) == first
    page.locator("#btn-redo").click()
    expect(page.locator("#log li").first).to_contain_text("Rain ✓")

    # The encounter it replaced is still in the list, unchanged.
    page.locator("#encounter-select").select_option(label="Something else")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Bear"])


def test_the_same_file_imported_twice_asks_replace_or_keep_both(page, open_app, tmp_path):
    """Issue 10: "Importing the same file twice makes two identical entries (offer replace or keep both)"."""
    open_app(page)
    new_freeform(page, "Twice")
    add_combatant(page, "Wolf", "initiative: 14")
    _, path = export(page, tmp_path)
    options = page.locator("#encounter-select option")
    n = options.count()
    dlg = page.locator("#dlg")
    import_file(page, path)
    expect(dlg.get_by_role("heading", name="Twice is already here")).to_be_visible()
    expect(dlg).to_contain_text("the same fight, change for change")
    dlg.get_by_role("button", name="Keep both").click()
    expect(dlg).to_be_hidden()
    expect(options).to_have_count(n + 1)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Twice (2)")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf"])
    # again: the same fight is here (twice now); Replace adds nothing
    import_file(page, path)
    dlg.get_by_role("button", name=re.compile("^Replace the one here")).click()
    expect(dlg).to_be_hidden()
    expect(options).to_have_count(n + 1)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Twice")
    # the one here moves on; the older file would lose that change: the page says so, Cancel keeps all
    add_combatant(page, "Elf", "initiative: 9", side="party")
    expect(page.locator("#save-state")).to_have_text("Saved")
    import_file(page, path)
    expect(dlg).to_contain_text("The one here is the same fight 1 change further on than the file")
    expect(dlg.get_by_role("button", name="Replace the one here (its last change is lost)")).to_be_visible()
    dlg.get_by_role("button", name="Cancel").click()
    expect(options).to_have_count(n + 1)
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf", "Elf"])
    import_file(page, path)
    dlg.get_by_role("button", name=re.compile("^Replace the one here")).click()
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf"])
    expect(page.locator("#save-state")).to_have_text("Saved")
    open_app(page)  # and the replacement is what the browser keeps
    expect(page.locator("#encounter-select option:checked")).to_have_text("Twice")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf"])
    expect(options).to_have_count(n + 1)


def _wrong_field(good: dict) -> dict:
    good["encounter"]["combatants"][0]["position"]["x"] = "far away"
    return good


def _broken_action(good: dict) -> dict:
    good["history"]["actions"][1] = 5
    return good


def _newer(good: dict) -> dict:
    good["schema"] = 99
    return good


def _mismatch(good: dict) -> dict:
    good["encounter"]["combatants"][0]["name"] = "Edited by hand"
    return good


BAD_FILES = {
    # id: (file name, how to make the bytes from a good export, words the message must contain)
    # the GM's words for a file that is not a save at all: what the picker wanted, never "not JSON"
    "not-json": ("notes.json", lambda good: b"{ this is not JSON",
                 ["notes.json was not imported: it is not a Fray encounter file (the kind the toolbar's Export "
                  "writes); its text goes wrong at line 1, column 3"]),
    "empty": ("empty.json", lambda good: b"", ["empty.json", "it is not a Fray encounter file", "the file is empty"]),
    "foreign": ("package.json", lambda good: json.dumps({"name": "left-pad", "version": "1.0.0"}).encode(),
                ["package.json", "it is not a Fray encounter file"]),
    "a-list": ("list.json", lambda good: b"[1, 2, 3]", ["list.json", "it is not a Fray encounter file"]),
    "a-bestiary": ("beasts.json", lambda good: json.dumps({"format": "fray-bestiary", "version": 1,
                                                          "templates": []}).encode(),
                   ["beasts.json was not imported: it is a Fray bestiary file, not a Fray encounter file: "
                    "import it in My bestiary"]),
    "wrong-field": ("wolf.json", lambda good: json.dumps(_wrong_field(good)).encode(),
                    ["wolf.json", "Combatant 1 (Wolf), its position x: must be a number",
                     "import the file exactly as Fray exported it"]),
    # issue 34: the GM read "history.actions.1.action: an action is ..."; now the action, in the fight
    "broken-action": ("fight.json", lambda good: json.dumps(_broken_action(good)).encode(),
                      ["fight.json", "Action 2 of the fight: an action is an object with a type",
                       "import the file exactly as Fray exported it"]),
    "newer-schema": ("future.json", lambda good: json.dumps(_newer(good)).encode(),
                     ["future.json", "schema", "newer Fray"]),
    "history-mismatch": ("edited.json", lambda good: json.dumps(_mismatch(good)).encode(),
                         ["edited.json", "does not match what its history replays to"]),
    "not-utf8": ("latin1.json", lambda good: b'{"format": "fray-encounter", "name": "caf\xe9"}',
                 ["latin1.json"]),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_file_gets_a_clear_message_and_the_encounter_is_untouched(page, open_app, tmp_path, kind):
    open_app(page)
    new_freeform(page, "Current")
    add_combatant(page, "Wolf", "initiative: 14")
    add_combatant(page, "Aria", "initiative: 9", side="party")
    _, good_path = export(page, tmp_path)
    good = json.loads(good_path.read_text(encoding="utf-8"))
    name, make, words = BAD_FILES[kind]
    payload = make(good)
    if kind in ("wrong-field", "broken-action", "newer-schema", "history-mismatch"):
        with pytest.raises(SaveFileError):  # CPython agrees the file is bad
            savefile.loads(payload.decode("utf-8"))

    before, kept = snapshot(page), storage(page)
    select_before = page.locator("#encounter-select option").all_inner_texts()
    import_file(page, {"name": name, "mimeType": "application/json", "buffer": payload})
    err = page.locator("#import-error")
    expect(err).to_contain_text("The current encounter is unchanged")
    for w in words:
        expect(err).to_contain_text(w)
    expect(err).not_to_contain_text(re.compile(r"JSON|Expecting"))  # the parser's words
    # no place in the file as the loader writes it ("history.actions.1", "encounter.combatants.0")
    assert not re.search(r"\b(?:history|encounter)\.|\.\d+\b", err.inner_text()), err.inner_text()
    assert snapshot(page) == before
    assert storage(page) == kept
    assert page.locator("#encounter-select option").all_inner_texts() == select_before

    # The page carries on, and a good import afterwards clears the message. The file is the
    # encounter kept here one change back: the page asks, and the GM keeps both.
    add_combatant(page, "Bear", "initiative: 1")
    import_file(page, good_path)
    page.locator("#dlg").get_by_role("button", name="Keep both").click()
    expect(err).to_have_text("")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf", "Aria"])


def test_a_file_nested_100000_deep_is_refused_before_parsing(page, open_app, tmp_path):
    """Issue 8, item 4: "Arrays nested 100,000 deep in an imported file overflow the JavaScript
    stack in Pyodide ("fatal error ... Maximum call stack size exceeded"); the import then silently
    does nothing and the interpreter is left broken until a reload. ... check the depth before
    parsing, and test it in the browser." A clear message, the encounter untouched, no console
    error (the page fixture fails on any), and the engine still answers afterwards."""
    open_app(page)
    new_freeform(page, "Current")
    add_combatant(page, "Wolf", "initiative: 14")
    _, good_path = export(page, tmp_path)
    before, kept = snapshot(page), storage(page)
    deep = b'{"format": "fray-encounter", "schema": 1, "encounter": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    import_file(page, {"name": "deep.json", "mimeType": "application/json", "buffer": deep})
    err = page.locator("#import-error")
    expect(err).to_contain_text("deep.json was not imported")
    expect(err).to_contain_text("nested 100001 deep")
    expect(err).to_contain_text("The current encounter is unchanged")
    assert snapshot(page) == before
    assert storage(page) == kept
    # the interpreter is not broken: the next action and the next import work
    add_combatant(page, "Bear", "initiative: 1")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf", "Bear"])
    import_file(page, good_path)
    page.locator("#dlg").get_by_role("button", name="Keep both").click()
    expect(err).to_have_text("")
    expect(page.locator("#combatants .card h3.name")).to_have_text(["Wolf"])
