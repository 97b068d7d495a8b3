"""What a GM's strike-rank play-through of today's build found, in the page: a collision's DEX roll box offered
for one struck who is down, Still open telling an engaged archer to change to a melee attack with no Change
there, and a refused Dodge against a charger quoting the rule in lower case and pushing the fields about.

Each fight is built with the engine, imported as a save, then played in the page; every step waits on what
the page shows (``expect``), never on time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT / "py", ROOT / "tests" / "games" / "strike_rank"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
from gestures import photograph, sr_declare  # noqa: E402
from sr_helpers import fighter  # noqa: E402
from test_sr_controls import declare_charge, start  # noqa: E402
from test_strike_rank import WARRIOR, WOLF, advance  # noqa: E402
from test_strike_rank_movement import SIZES, load  # noqa: E402

GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_collision_asks_no_dex_roll_of_one_struck_who_is_down(page, open_app, tmp_path, size):
    """Knockback: "The target needs to make a DEX×5% roll or fall prone"; Colliding: the combatant struck "must
    also make a DEX test". Ana's greatsword knocks Bor 3 m back, toward Cai, who is unconscious: the one struck
    is chosen, the list says he makes no DEX roll and the question shows no DEX box for him; Dan, standing,
    would roll, and the box is back when he is chosen. Answered on Cai, the log says he makes no DEX roll."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Ana", GREAT, side="party"), fighter("Bor", x=2, armour=10), fighter("Cai", x=6),
                          fighter("Dan", x=0, y=6)], [
        {"type": "set_condition", "id": "c3", "condition": "unconscious", "on": True},
        {"type": "advance"},
        {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "greatsword", "target": "c2"},
        {"type": "advance"},
        {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "greatsword", "defence": {"kind": "none"},
         "ref": "a1", "move_token": True, "rolls": {"attack": 10, "location": 10, "damage": [5, 5, 2],
                                                     "knockback_dex": 1}}])
    q = page.locator("form[data-form=sr-prompt]", has_text="knocked back 3 m")
    expect(q).to_be_visible()
    struck = q.locator('select[name="with"]')
    expect(struck.locator("option:checked")).to_have_text("Cai (unconscious: no DEX roll)")
    dex = q.get_by_label("DEX d100")
    expect(dex).to_be_hidden()
    expect(q.get_by_label("Collision dice")).to_be_visible()
    page.screenshot(path=f"/tmp/hr/collision-down-{size['width']}.png", full_page=False)
    struck.select_option("c4")
    expect(dex).to_be_visible()
    struck.select_option("c3")
    expect(dex).to_be_hidden()
    q.get_by_role("button", name="Another combatant").click()
    expect(page.locator("#log")).to_contain_text("Cai is unconscious: no DEX roll")


def test_still_open_offers_the_change_it_tells_an_engaged_archer_to_make(page, open_app):
    """Ranged Combat: "Unengaged characters can use missile weapons"; Changing Actions: "If a combatant changes
    their action ... the new action is delayed by the combatant's DEX SR". The Archer shoots at the wolf 3 m off
    (engaged): Still open says "Disengage first, or change to a melee attack" and now offers the order row's
    Change… there; it opens the change form, in view, and a melee attack with the dagger takes the shot's place."""
    start(page, open_app, "Archer changes", (768, 1024), party=("Archer",), foes=(WOLF,))
    sr_declare(page, "c1", {"kind": "missile"}, "SR 2")
    advance(page, "Resolve SR 2")
    page.locator("#round-bar [data-act=advance]").click()
    row = page.locator(".sr-still-open li").first
    expect(row).to_contain_text("Disengage first, or change to a melee attack")
    ref = row.get_attribute("data-ref")
    row.get_by_role("button", name="Change the shot at SR 2 of Archer").click()
    change = page.locator(f'form[data-form=sr-change][data-ref="{ref}"]')
    expect(change).to_be_in_viewport()
    photograph(page, "sr-still-open-change", scroll_to=".sr-still-open")
    change.locator('[name="kind"]').select_option("melee")
    change.locator('[name="weapon"]').select_option("dagger")
    change.locator("button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text("Archer: melee attack with Dagger at Great wolf (four-legged): SR 9")
    expect(page.locator(".sr-still-open li")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_dodge_refused_against_a_charger_quotes_the_rule_and_moves_no_field(page, open_app, size):
    """Charging: "However, if the opponent does attack first, the charging combatant would not be able to dodge or
    parry." A GM's play: the refusal of a Dodge quoted it in lower case ("if the opponent ...") and its length
    pushed the Target field down. The refusal quotes the sentence as written, and neither the Target nor the
    Defender's choice moves when it is shown."""
    start(page, open_app, "Warrior charges", (size["width"], size["height"]), party=(WARRIOR,), foes=(WOLF,))
    declare_charge(page, "c1", "broadsword", "c2", "9", ("Charge (runs",), "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2")
    sr_declare(page, "c2", {"weapon": "bite"}, "SR 3")
    advance(page, "Resolve SR 3")
    form = page.locator("form[data-form=sr-attack]")
    target, choice = form.locator('[name="target"]'), form.locator('[name="defence.kind"]')
    expect(choice).to_have_value("none")
    choice.select_option("dodge")
    before = (target.bounding_box()["y"], choice.bounding_box()["y"])
    form.get_by_role("button", name="Roll the exchange").click()
    err = form.locator('[data-error-for="defence.kind"]')
    expect(err).to_contain_text("“However, if the opponent does attack first, the charging combatant would not be "
                                "able to dodge or parry.”")
    expect(err).to_be_in_viewport()
    photograph(page, "sr-charge-dodge-refused", scroll_to='form[data-form=sr-attack] [data-field="defence.kind"]')
    assert (target.bounding_box()["y"], choice.bounding_box()["y"]) == before
