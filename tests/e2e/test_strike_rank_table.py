"""Issue 33, "The table screen", for the strike-rank game: what the GM found still wrong at the
table, each through the page as the GM meets it. Fights are loaded ready-made (a save file with the
declarations made), so each test starts where the finding happened. Screenshots: /tmp/sr-table-*.png.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gestures import saved
from test_map import preset

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray import savefile  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402

TABLET = {"width": 768, "height": 1024}
LAPTOP = {"width": 1366, "height": 900}
WARRIOR = "Human warrior"


def load_fight(page, tmp_path, people: list[tuple[dict, float, float]], actions: list[dict]) -> History:
    """A strike-rank fight of ``people`` (c1, c2, … where they stand) with ``actions`` applied (typed
    dice in them), opened in the page from a save file."""
    h = History(new_encounter("strike-rank", "Table test"))
    for body, x, y in people:
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": 0}}})
    for a in actions:
        h.do(a)
    path = tmp_path / "table-test.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    page.set_input_files("#file-import", str(path))
    expect(page.locator("#map [data-token]")).to_have_count(len(people))
    return h


def warriors(*names: str, side_of=lambda i: "party" if i == 0 else "foes") -> list[tuple[dict, float, float]]:
    """Human warriors 2 m apart in a row, the first one of the party."""
    return [(preset("strike-rank", WARRIOR, name=n, side=side_of(i)), 2.0 * i, 0.0) for i, n in enumerate(names)]


def to_resolve(*declarations: dict) -> list[dict]:
    return [{"type": "advance"}, *declarations, {"type": "advance"}]


def melee(cid: str, target: str) -> dict:
    return {"type": "sr.declare", "id": cid, "kind": "melee", "weapon": "broadsword", "target": target}


# -- 1. a special after damage dice typed for an ordinary blow ------------------------------------

@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["tablet", "laptop"])
def test_a_special_asks_only_for_the_extra_dice(page, open_app, tmp_path, size):
    """The GM types the ordinary blow's damage (1D8+1+1D4: "5 3") before the roll; the attack (5 of
    65%) is a special, 2D8+2+1D4. The form keeps everything and asks for the one D8 more, its field
    focused; typed, the exchange is made with every die in the action: 5, 6 then 3."""
    page.set_viewport_size(size)
    open_app(page)
    load_fight(page, tmp_path, warriors("Vasana", "Broo 1"), to_resolve(melee("c1", "c2")))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    expect(form).to_be_visible()
    form.locator('[name="defence.kind"]').select_option("none")
    form.locator('[name="rolls.attack"]').fill("5")
    form.locator('[name="rolls.location"]').fill("13")
    form.locator('[name="rolls.damage"]').fill("5 3")
    n = page.locator("#log li").count()
    form.get_by_role("button", name="Roll the exchange").click()
    more = form.get_by_label("Special: roll 1D8 more")
    expect(more).to_be_focused()
    expect(form.locator(".sr-more-dice")).to_contain_text("The blow is special: the damage is 2D8+2+1D4")
    expect(form.locator(".sr-more-dice")).to_contain_text("rolled 5: special")
    expect(form.locator('[name="rolls.damage"]')).to_have_value("5 3")
    expect(page.locator("#log li")).to_have_count(n)  # nothing happened yet
    box = more.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= size["height"], box
    page.screenshot(path=f"/tmp/sr-table-special-{size['width']}.png")
    # the field says what is wrong with a die that cannot be a D8, next to it, and changes nothing
    page.keyboard.type("9")
    form.get_by_role("button", name="Apply the special damage").click()
    expect(form.locator('[data-error-for="more.damage"]')).to_contain_text("a D8 shows 1 to 8, not 9")
    expect(page.locator("#log li")).to_have_count(n)
    more.fill("6")
    form.get_by_role("button", name="Apply the special damage").click()
    expect(page.locator("#log")).to_contain_text("2D8+2+1D4 = 5+6+2+3 = 16")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "sr.attack" and last["rolls"]["damage"] == [5, 6, 3], last
    assert last["rolls"]["attack"] == [5]


def test_a_special_takes_the_damage_total_instead(page, open_app, tmp_path):
    """Or the GM types the whole damage's total: taken as the special's total."""
    open_app(page)
    load_fight(page, tmp_path, warriors("Vasana", "Broo 1"), to_resolve(melee("c1", "c2")))
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("none")
    for k, v in (("attack", "5"), ("location", "13"), ("damage", "5 3")):
        form.locator(f'[name="rolls.{k}"]').fill(v)
    form.get_by_role("button", name="Roll the exchange").click()
    expect(form.get_by_label("Special: roll 1D8 more")).to_be_focused()
    form.get_by_label("or the whole damage's total").fill("15")
    form.get_by_role("button", name="Apply the special damage").click()
    expect(page.locator("#log")).to_contain_text("2D8+2+1D4 = 15")
    last = saved(page)["history"]["actions"][-1]
    assert last["rolls"]["damage"] == 15, last
