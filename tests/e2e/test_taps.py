"""Issue 10 in the page, "Fewer taps" and "What was seen wrong in the page": default targets on the
other side, the archer's missile attack by default, only a shield offered against an arrow and not
the one that has parried already, and one Next from the last SR to the next Melee Round's
declarations. Every step waits on what the page shows (``expect``), never on time; the page's
console must stay clean (the ``page`` fixture fails the test on any error)."""

from __future__ import annotations

from playwright.sync_api import expect

from gestures import add_preset
from test_strike_rank import WARRIOR, advance, new_strike_rank


def selected(locator) -> str:
    return locator.evaluate("s => s.value")


def test_archers_shoot_by_default_at_the_enemy_and_only_a_fresh_shield_parries(page, open_app):
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    new_strike_rank(page, "Two bows at the ford")
    add_preset(page, "Archer")  # c1, foes
    add_preset(page, "Crossbowman")  # c2, foes
    add_preset(page, WARRIOR, "party")  # c3
    advance(page, "Declare")
    taps = 0
    for cid, weapon in (("c1", "composite_bow"), ("c2", "heavy_crossbow")):
        form = page.locator(f'form[data-form=sr-declare][data-id="{cid}"]')
        # "the archer preset defaults to a melee attack with its bow"; "default targets are allies"
        assert selected(form.locator('[name="kind"]')) == "missile"
        assert selected(form.locator('[name="weapon"]')) == weapon
        assert selected(form.locator('[name="target"]')) == "c3"
        form.locator("button[type=submit]").click()  # one tap: the defaults are the declaration
        taps += 1
        expect(page.locator(f'.sr-who[data-id="{cid}"] .sr-decl')).to_have_count(1)
    assert taps == 2
    advance(page, "Resolve SR")  # the warrior declared nothing: the GM goes on (issue 32)
    for n in (1, 2):
        att = page.locator("form[data-form=sr-attack]").first
        # "Against an arrow the parry list offers a broadsword and a bite (missiles are parried only by shields)"
        parry_with = att.locator('[name="defence.weapon"] option')
        expect(parry_with).to_have_count(1)
        expect(parry_with).to_contain_text(["Medium shield"])
        # "After a shield parry, the next attack on the same defender still defaults to "Parry with Medium shield""
        expect(att.locator('[name="defence.kind"]')).to_have_value("parry" if n == 1 else "dodge")
        for k, v in (("attack", "95"), ("defence", "95")):
            att.locator(f'[name="rolls.{k}"]').fill(v)
        count = page.locator("#log li").count()
        att.get_by_role("button", name="Roll the exchange").click()
        expect(page.locator("#log li")).not_to_have_count(count)
        if n == 1 and page.locator("form[data-form=sr-attack]").count() == 0:
            page.locator("#round-bar [data-act=advance]").click()
            expect(page.locator("form[data-form=sr-attack]")).to_have_count(1)
    expect(page.locator("#log")).to_contain_text(f"{WARRIOR} dodges")
    # the last SR is over: one Next ends the Melee Round and opens the next one's declarations
    advance(page, "Declare")
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    expect(page.locator("#log")).to_contain_text("End of Melee Round 1")
