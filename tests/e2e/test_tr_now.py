"""Issue 33, tactical-round: "The strip keeps "NOW" on a phase's first combatant after all in that
phase have acted". NOW marks who acts now (the first in the phase's order with an action not done),
NEXT the one after; once all in the phase have acted nobody is marked, and the page says so and
points to Next."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gestures import tr_next
from test_tactical_round import declare
from test_tr_taps import load, to
from tr_fights import LAPTOP


def tag_of(page, cid: str):
    return page.locator(f'#order-strip li.strip-entry[data-id="{cid}"] .strip-tag')


def attack(page, cid: str, roll: str) -> None:
    page.locator(f'.tr-slot[data-id="{cid}"]').get_by_role("button", name=re.compile("^Attack")).click()
    form = page.locator("form[data-form=tr-attack]")
    form.get_by_label("Open-ended d100").fill(roll)
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(page.locator(f'.tr-slot[data-id="{cid}"]')).to_contain_text("done")


def test_now_moves_to_who_acts_and_is_gone_once_all_have_acted(page, open_app, tmp_path):
    # Bolt c1, Orc A c2, Bran c3, Orc B c4 2 m from Bran (Melee Attacks: in reach)
    load(page, tmp_path, orc_b_x=7, open_app=open_app, size=LAPTOP)
    to(page, "Assessment")
    to(page, "Declaration")
    expect(tag_of(page, "c1")).to_have_text("now")
    declare(page, "c1", [("other", "", "")], "Bolt declares: Other action")
    # who declares now: the first who has not
    expect(tag_of(page, "c2")).to_have_text("now")
    expect(tag_of(page, "c1")).to_have_count(0)
    declare(page, "c3", [("melee_attack", "0", "c4")], "Bran declares: Melee attack")
    declare(page, "c4", [("melee_attack", "0", "c3")], "Orc B declares: Melee attack")
    tr_next(page)  # Orc A has not declared: the GM goes on without him
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")
    # Bran's Broadsword (length 2, CMB 55) before Orc B's Scimitar (length 2, CMB 45)
    expect(tag_of(page, "c3")).to_have_text("now")
    expect(tag_of(page, "c4")).to_have_text("next")
    attack(page, "c3", "20")
    expect(tag_of(page, "c4")).to_have_text("now")
    expect(tag_of(page, "c3")).to_have_count(0)
    expect(page.locator("#acting-line .acting-name")).to_have_text("Orc B")
    attack(page, "c4", "20")
    # all in Melee have acted: nobody is "now", nobody "next", and the page says to press Next
    expect(page.locator("#order-strip .strip-tag")).to_have_count(0)
    expect(page.locator("#order-strip li[aria-current]")).to_have_count(0)
    expect(page.locator("#acting-line .acting")).to_have_count(0)
    over = page.locator(".tr-acting-over")
    expect(over).to_have_text("Everyone in Melee has acted: apply the results waiting below, then use the Next "
                              "button to go on.")
    page.evaluate("window.scrollTo(0, 0)")
    expect(over).to_be_in_viewport()
    for ref in ("A1", "A2"):
        page.locator(f'.tr-pending[data-ref="{ref}"]').get_by_role("button", name=f"Dismiss {ref}").click()
    expect(over).to_have_text("Everyone in Melee has acted. Use the Next button to go on.")
    expect(over).to_be_in_viewport()
