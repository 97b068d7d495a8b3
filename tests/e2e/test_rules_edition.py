"""A save of an earlier Fray whose rules now play it otherwise opens as it stands, and the GM is told
(tests/unit/test_rules_edition.py has the loader's side): before, the import was refused as "edited
or corrupted" and an autosave was put aside as broken."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "py"))
from fray import savefile  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402


def test_an_earlier_editions_fight_opens_as_saved_and_says_so(page, open_app, wait_ready, tmp_path):
    open_app(page)
    h = History(new_encounter("freeform", "Old ford"))
    h.do({"type": "add_combatant", "combatant": {"name": "Bran", "stats": {"initiative": 12}}})
    h.do({"type": "add_combatant", "combatant": {"name": "Orc", "count": 2, "stats": {"initiative": 8}}})
    data = savefile.dump_history(h)
    del data["rules"]  # saved before rules editions
    for c in data["encounter"]["combatants"][1:]:  # where the earlier rules put the copies
        c["position"]["x"] -= 1.0
    path = tmp_path / "old.fray.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    page.set_input_files("#file-import", str(path))
    expect(page.locator("#banner")).to_contain_text("saved by an earlier version of Fray")
    expect(page.locator("#combatants .card")).to_have_count(3)
    expect(page.locator("#btn-undo")).to_be_disabled()
    # it plays on, and the autosave of it loads again after a reload, now of this edition
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#btn-undo")).to_be_enabled()
    page.reload()
    wait_ready(page)
    expect(page.locator("#combatants .card")).to_have_count(3)
    expect(page.locator("#banner")).to_be_hidden()
