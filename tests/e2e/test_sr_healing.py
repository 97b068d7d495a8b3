"""First Aid and Natural Healing on a strike-rank card, as the rule text's Healing section says.

* First Aid: "Success heals 1D3 HP" and nothing for a failure; Natural Healing: "more serious injuries
  will not begin healing naturally until treated with First Aid". A failed roll shows its outcome in
  the First Aid form (not treated, may be tried again), and a day heals nothing; a success then treats
  the wound, heals, and the form says so.
* "Natural healing requires rest": a day not rested heals nothing.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from playwright.sync_api import expect
from gestures import card  # noqa: E402
from test_sr_injuries import damage, load, warrior  # noqa: E402


def first_aid(page, name: str, healer: str, location: str, roll: str, heal: str = "") -> None:
    aid = card(page, name).locator("form[data-form=sr-first-aid]")
    aid.locator('[name="healer"]').select_option(label=healer)
    aid.locator('[name="location"]').select_option(location)
    aid.locator('[name="rolls.first_aid"]').fill(roll)
    aid.locator('[name="rolls.heal"]').fill(heal)
    aid.get_by_role("button", name="First Aid").click()


def heal_naturally(page, name: str, rested: bool) -> None:
    nat = card(page, name).locator("form[data-form=sr-natural-healing]")
    nat.locator('[name="period"]').select_option("day")
    nat.locator('[name="rested"]').set_checked(rested)
    n = page.locator("#log li").count()
    nat.get_by_role("button", name="Natural healing of").click()
    expect(page.locator("#log li")).not_to_have_count(n)


def test_a_failed_first_aid_shows_its_outcome_and_does_not_start_a_serious_wound_healing(page, open_app, tmp_path):
    """Broo's chest (6 HP, AP 3) takes 9: 0/6, serious. Vasana's First Aid (30%) rolls 90: failure, no effect, and
    the form says the chest is not treated; a rested day heals nothing. She tries again: 10, success, 1D3 rolled 2:
    the form says treated and the chest heals 2 (2/6); a day not rested heals nothing; a rested day heals HR
    ceil(12/6) = 2: 4/6."""
    open_app(page)
    load(page, tmp_path, [(warrior("Vasana"), 0, 0), (warrior("Broo", "foes"), 12, 0)])
    damage(page, "Broo", "chest", "9")
    c = card(page, "Broo")
    expect(c.locator('.sr-loc[data-loc="chest"] .hp')).to_have_text("0/6 HP")
    first_aid(page, "Broo", "Vasana", "chest", "90")
    said = card(page, "Broo").locator("form[data-form=sr-first-aid] .sr-aid-said")
    expect(said).to_contain_text("30% rolled 90, failure: no effect; the chest is not treated and First Aid may be "
                                 "tried again")
    heal_naturally(page, "Broo", True)
    expect(page.locator("#log")).to_contain_text("Broo's Chest (serious) will not begin healing until treated with "
                                                 "First Aid or healed")
    expect(card(page, "Broo").locator('.sr-loc[data-loc="chest"] .hp')).to_have_text("0/6 HP")
    first_aid(page, "Broo", "Vasana", "chest", "10", "2")
    said = card(page, "Broo").locator("form[data-form=sr-first-aid] .sr-aid-said")
    expect(said).to_contain_text("30% rolled 10, success: treated")
    expect(said).to_contain_text("Chest heals 2 (First Aid 1D3")
    expect(said).not_to_contain_text("failure")
    expect(card(page, "Broo").locator('.sr-loc[data-loc="chest"] .hp')).to_have_text("2/6 HP")
    heal_naturally(page, "Broo", False)
    expect(page.locator("#log")).to_contain_text("Broo does not rest for a day: natural healing requires rest")
    expect(card(page, "Broo").locator('.sr-loc[data-loc="chest"] .hp')).to_have_text("2/6 HP")
    heal_naturally(page, "Broo", True)
    expect(card(page, "Broo").locator('.sr-loc[data-loc="chest"] .hp')).to_have_text("4/6 HP")
    # the First Aid form still says what the First Aid did, not what the rest did after it
    said = card(page, "Broo").locator("form[data-form=sr-first-aid] .sr-aid-said")
    expect(said).to_contain_text("30% rolled 10, success: treated")
    expect(said).not_to_contain_text("rest")
    page.screenshot(path="/tmp/heal-fix-aid.png")
