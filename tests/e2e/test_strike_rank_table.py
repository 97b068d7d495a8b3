"""Issue 33, "The table screen", for the strike-rank game: what the GM found still wrong at the
table, each through the page as the GM meets it. Fights are loaded ready-made (a save file with the
declarations made), so each test starts where the finding happened. Screenshots: /tmp/sr-table-*.png.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gestures import import_history, saved
from test_map import preset

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

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
    import_history(page, tmp_path, h, len(people), "table-test")
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


# -- 3. the GM's findings -----------------------------------------------------------------------

@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["tablet", "laptop"])
def test_declare_says_declaring_and_the_dead_are_never_next(page, open_app, tmp_path, size):
    """In Declare the essentials line names the one whose form is open, "Declaring" (it said "Acting" of
    the first in the order). Resolving, Vasana kills Broo 1 at SR 7: his SR-7 attack is lost at once, in
    the log's one wording, and the strip names Broo 2 (SR 8) next or now, never the dead Broo 1; and
    the panel says nothing is left at SR 7 and points to Next."""
    page.set_viewport_size(size)
    open_app(page)
    load_fight(page, tmp_path, warriors("Vasana", "Broo 1", "Broo 2"), [{"type": "advance"}])
    line = page.locator("#acting-line .acting")
    expect(line).to_contain_text("Declaring Vasana")
    expect(line).not_to_contain_text("Acting")
    page.screenshot(path=f"/tmp/sr-table-declaring-{size['width']}.png")
    page.locator('form[data-form=sr-declare][data-id="c1"]').get_by_role("button", name="Declare").click()
    expect(line).to_contain_text("Declaring Broo 1")
    page.locator('form[data-form=sr-declare][data-id="c2"]').get_by_role("button", name="Declare").click()
    page.locator('form[data-form=sr-declare][data-id="c3"]').get_by_role("button", name="Declare").click()
    expect(page.locator(".sr-decl")).to_have_count(3)
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    expect(line).to_contain_text("Acting Vasana")
    # a critical to the head, maximised: Broo 1 dies
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="target"]').select_option("c2")
    form = page.locator('form[data-form=sr-attack][data-attacker="c1"]')
    form.locator('[name="defence.kind"]').select_option("none")
    form.locator('[name="rolls.attack"]').fill("1")
    form.locator('[name="rolls.location"]').fill("19")
    form.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator("#log")).to_contain_text("Broo 1 is killed")
    expect(page.locator("#log")).to_contain_text("Broo 1's attack at SR 7 is lost: Broo 1 is dead")
    strip = page.locator("#order-strip")
    # Broo 2 (4 m off: SR 8) is the one to come, never the dead Broo 1
    expect(strip.locator('li.strip-entry[data-id="c3"]')).to_contain_text(re.compile("now|next", re.I))
    expect(strip.locator('li.strip-entry[data-id="c2"]')).to_have_class(re.compile("lv-out"))
    expect(strip.locator('li.strip-entry[data-id="c2"]')).not_to_contain_text(re.compile("now|next", re.I))
    page.screenshot(path=f"/tmp/sr-table-dead-not-next-{size['width']}.png")
    # nothing is left at SR 7: the panel says so and points to Next
    left = page.locator(".sr-nothing-left")
    expect(left).to_have_text("No action is left at SR 7: press Next for SR 8.")
    page.screenshot(path=f"/tmp/sr-table-nothing-left-{size['width']}.png")


def test_an_attack_on_the_fallen_offers_another_target(page, open_app, tmp_path):
    """Broo 1 and Broo 2 declared attacks at Vasana; the GM marks Vasana unconscious as resolution begins.
    Next's box says Broo 1's attack was at Vasana, who is unconscious, with "Change the attack" (the forced
    change, set on the nearest standing enemy: Changing Actions, "A combatant may be forced to change actions,
    e.g. if the target of their attack dies"; unconscious, the same) or "Skip it"."""
    people = warriors("Vasana", "Broo 1", "Broo 2") + [(preset("strike-rank", WARRIOR, name="Harrek", side="party"),
                                                        -1.0, 0.0)]
    load = to_resolve(melee("c2", "c1"), melee("c3", "c1"))
    open_app(page)
    load_fight(page, tmp_path, people, load[:-1] + [{"type": "set_condition", "id": "c1", "condition": "unconscious"},
                                                    load[-1]])
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".sr-still-open")
    row = box.locator("li", has_text="Broo 1")
    expect(row).to_contain_text("Broo 1's attack at SR 7 was at Vasana, who is unconscious:")
    expect(row.get_by_role("button", name="Resolve")).to_have_count(0)
    expect(row.get_by_role("button", name="Pick another target")).to_have_count(0)
    page.screenshot(path="/tmp/sr-table-retarget.png")
    ref = row.get_attribute("data-ref")
    row.get_by_role("button", name="Change the attack").click()
    change = page.locator(f'form[data-form=sr-change][data-ref="{ref}"]')
    expect(change).to_be_visible()
    expect(change.locator('[name="target"]')).to_have_value("c4")
    n = page.locator("#log li").count()
    change.locator("button[type=submit]").click()
    expect(page.locator("#log li")).not_to_have_count(n)
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "sr.change" and last["target"] == "c4", last


def test_prone_is_kept_on_who_cannot_stand_beside_the_control(page, open_app, tmp_path):
    """A leg maimed (half of his legs), Broo 1 cannot stand: the × on his "prone" says why beside the list,
    and he stays prone."""
    open_app(page)
    hurt = [{"type": "sr.damage", "target": "c2", "location": "right_leg", "amount": 10, "armour": False}]
    load_fight(page, tmp_path, warriors("Vasana", "Broo 1"), [{"type": "advance"}, *hurt])
    page.locator('#order-strip li.strip-entry[data-id="c2"]').click()
    card = page.locator('#combatants article[data-id="c2"]')
    card.get_by_role("button", name="Remove prone from Broo 1").click()
    err = card.locator('[data-error-for="conditions"]')
    expect(err).to_contain_text("Broo 1 cannot stand (half or more legs maimed")
    expect(card.locator(".conds")).to_contain_text("prone")
    expect(card.locator(".conds")).not_to_contain_text("dead")
    box, chip = err.bounding_box(), card.locator(".conds").bounding_box()
    assert 0 <= box["y"] - (chip["y"] + chip["height"]) < 40, (box, chip)
    page.screenshot(path="/tmp/sr-table-prone.png")


@pytest.mark.parametrize("size", [TABLET, LAPTOP], ids=["tablet", "laptop"])
def test_when_resolution_begins_its_first_attack_is_in_view(page, open_app, size):
    """Action Declaration & Resolution: once all have declared, resolution begins at the lowest SR. Twelve
    declared, the GM presses Next: a GM's play-through found the page standing on a card some 1,300 px
    below the first attack to roll, the declarations having folded away above. The first attack form is
    now in view, below what sticks to the top of the page."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_strip import twelve
    from test_table_fit import STUCK

    page.set_viewport_size(size)
    open_app(page)
    twelve(page, "strike-rank")  # twelve declare, then Next
    expect(page.locator("#round-bar .phase")).to_contain_text("Resolve")
    form = page.locator('.sr-panel form[data-form="sr-attack"]').first
    expect(form).to_be_visible()
    box, stuck = form.bounding_box(), page.evaluate(STUCK)  # Next scrolls in the click's own task
    assert box["y"] >= stuck - 1 and box["y"] < size["height"] - 100, (box, stuck, size)
