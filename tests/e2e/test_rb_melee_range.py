"""Range-band melee needs engaged range (issue 32): a knife thrust at a creature 18 m off (medium range, as the
map itself says) is refused in the page with the band and why, changing nothing; the attack form offers the GM
"Allow it (GM)" with a reason; the reason is checked at its field, and once given the offense roll goes ahead
and the log keeps the reason.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

from gestures import new_encounter, rb_start, saved
from playwright.sync_api import expect
from test_range_band import BADGE, SCOUT, add, advance, attack, pending

BEAR = "Large creature"


def test_melee_beyond_engaged_range_is_refused_and_the_gm_may_allow_it_with_a_reason(page, open_app):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Cave mouth", "range-band", BADGE)
    add(page, SCOUT)                          # c1
    add(page, BEAR, x=18, side="foes")        # c2, 18 m off: medium range
    rb_start(page, "Start anyway")            # no turn orders: the scout acts first, as added
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement phase")
    advance(page, "Movement phase")
    advance(page, "Action phase")
    form = page.locator("form[data-form=rb-attack]")
    expect(form).to_be_visible()
    actions_before = len(saved(page)["history"]["actions"])

    attack(page, BEAR, "Knife")
    refusal = form.locator('[data-error-for][role="alert"]').first  # a rule's refusal: the form's first slot
    expect(refusal).to_contain_text("needs engaged range")
    expect(refusal).to_contain_text("medium range")
    expect(pending(page, "R1")).to_have_count(0)
    assert len(saved(page)["history"]["actions"]) == actions_before, "a refused attack changes nothing"

    # refused for range, the reason field opens by itself with the focus in it (issue 33: two taps fewer)
    fold = form.locator("details.rb-override")
    expect(fold).to_have_attribute("open", "")
    reason = form.get_by_label("Reason (kept in the log)")
    expect(reason).to_be_focused()
    reason.fill("x" * 121)
    attack(page, BEAR, "Knife")
    expect(form.locator('[data-error-for="override"]')).to_contain_text("1 to 120 characters")
    expect(pending(page, "R1")).to_have_count(0)

    if not form.locator("details.rb-override[open]").count():
        form.locator("details.rb-override summary").click()
    form.get_by_label("Reason (kept in the log)").fill("the bear lunged across the ford")
    attack(page, BEAR, "Knife")
    expect(pending(page, "R1")).to_be_visible()
    expect(page.locator("#log")).to_contain_text("The GM allows Human scout's melee attack on Large creature at "
                                                 "medium range")
    expect(page.locator("#log")).to_contain_text("the bear lunged across the ford")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "rb.attack" and last["override"] == "the bear lunged across the ford"
