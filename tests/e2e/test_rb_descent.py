"""A flyer's descent without a roll, then its movement roll (a GM's play-through let both happen). Flight: "During
your movement phase, you may descend any distance equivalent to 1 zone (long range) with or without a roll." and
"If vertical movement up or down is your only movement, it still counts as a movement phase." The text leaves
open whether a roll may follow such a descent: once the flyer has descended, its movement box asks the GM,
quoting both; Movement roll unticked is refused beside the question (nothing changes), ticked it goes ahead and
the log keeps the GM's call.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

from gestures import new_encounter, photograph, rb_start, saved
from playwright.sync_api import expect
from test_range_band import BADGE, FLYER, SCOUT, add, move, newest_log, pending


def flyer_aloft_moves_first(page, open_app) -> None:
    """A tablet; the flyer (c1) put at 40 m by the map's form before the fight, a scout (c2) 30 m off; the fight
    started with no turn orders, so the flyer's movement phase is first."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    new_encounter(page, "Cliff edge", "range-band", BADGE)
    add(page, FLYER)                          # c1, flying
    add(page, SCOUT, x=30, side="party")      # c2
    if not page.locator("#tok-c1").is_visible():
        page.locator("#tab-map").click()
    page.locator("#tok-c1").click()           # before the fight, the map's form puts the flyer aloft
    where = page.locator('#map-info form[data-form="map-move"]')
    where.get_by_label("Altitude (m)").fill("40")
    where.get_by_role("button", name="Move").click()
    expect(newest_log(page)).to_contain_text("40")
    if page.locator("#tab-tracker").is_visible():  # a tablet shows the map or the tracker
        page.locator("#tab-tracker").click()
    rb_start(page, "Start anyway")            # no turn orders: the flyer moves first, as added
    expect(page.locator("#round-bar .phase")).to_contain_text(f"Movement phase: {FLYER}")


def test_a_movement_roll_after_a_descent_is_the_gms_call(page, open_app):
    flyer_aloft_moves_first(page, open_app)
    box = page.locator(".rb-acting")
    expect(box.locator("fieldset.rb-ask")).to_have_count(0)

    descend = page.locator("form[data-form=rb-descend]")
    descend.get_by_label("Descend to altitude (m), no roll").fill("10")
    descend.get_by_role("button", name="Descend").click()
    expect(newest_log(page)).to_contain_text(f"{FLYER} descends to altitude 10 m (no roll needed)")
    ask = box.locator("fieldset.rb-ask")
    expect(ask).to_be_visible()
    expect(box.locator(".rb-result")).to_have_text(f"{FLYER} descended without a roll")
    expect(ask).to_contain_text("with or without a roll")
    expect(ask).to_contain_text("it still counts as a movement phase")
    actions_before = len(saved(page)["history"]["actions"])

    move(page, x=5)                           # unticked: Fray's reading, the descent was the movement
    refusal = ask.locator('[data-error-for="after_descent"]')
    expect(refusal).to_contain_text("descended without a roll this movement phase")
    expect(refusal).to_contain_text("(see “Flight” in the rules)")
    expect(pending(page, "R1")).to_have_count(0)
    assert len(saved(page)["history"]["actions"]) == actions_before, "a refused roll changes nothing"

    ask.get_by_label("Let a movement roll follow the descent (kept in the log)").check()
    move(page, x=5)
    expect(pending(page, "R1")).to_be_visible()
    expect(page.locator("#log")).to_contain_text(f"The GM lets {FLYER}'s movement roll follow its descent")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "rb.move" and last["after_descent"] is True


def test_a_descent_alone_in_the_movement_roll_form_points_to_descend(page, open_app):
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM typed only a lower altitude in the Movement roll form and pressed Movement roll: a roll
    went pending for what needs none (then dismissed, the phase's roll looked spent). Beside the Altitude field the
    page says a descent alone needs no roll and points to Descend; nothing is sent. "Roll for the descent anyway"
    ticked, the roll goes ahead (the GM's word)."""
    flyer_aloft_moves_first(page, open_app)
    actions_before = len(saved(page)["history"]["actions"])

    move(page, alt=10)                        # only the altitude changed: a descent alone
    form = page.locator("form[data-form=rb-move]")
    refusal = form.locator('[data-error-for="alt"]')
    expect(refusal).to_contain_text("a descent alone (up to 1 zone) needs no roll")
    expect(refusal).to_contain_text("use Descend below")
    expect(pending(page, "R1")).to_have_count(0)
    assert len(saved(page)["history"]["actions"]) == actions_before, "a refused roll changes nothing"
    photograph(page, "rb-descent-alone", scroll_to=".rb-acting")

    form.get_by_label("Roll for the descent anyway").check()
    move(page, alt=10)
    expect(pending(page, "R1")).to_be_visible()
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "rb.move" and last["descent_roll"] is True


def test_a_dismissed_movement_roll_leaves_the_phases_roll_to_make(page, open_app):
    """The round (FACTS.md): "a movement phase, then an action phase": one movement roll a combatant in a movement
    phase. A GM sent a descent through the Movement roll form, pressed Dismiss on the pending roll, and the page then
    said "Would be refused: ... has made this round's movement roll already": a dismissed roll, never resolved, was
    not made. After Dismiss, Movement roll goes ahead."""
    flyer_aloft_moves_first(page, open_app)
    form = page.locator("form[data-form=rb-move]")
    form.get_by_label("Roll for the descent anyway").check()
    move(page, alt=10)
    expect(pending(page, "R1")).to_be_visible()
    pending(page, "R1").get_by_role("button", name="Dismiss R1").click()
    expect(pending(page, "R1")).to_have_count(0)
    expect(newest_log(page)).to_contain_text(f"R1 dismissed: {FLYER} has not made this movement phase's movement roll")
    move(page, x=5, alt=40)
    expect(pending(page, "R2")).to_be_visible()
    # no refusal beside the form (its preview, once R2 is out, rightly says a third roll would be refused: the
    # whole box raced that preview)
    expect(page.locator(".rb-acting [data-error-for]", has_text="movement roll already")).to_have_count(0)


def test_descend_starts_on_a_real_descent_and_refuses_the_same_altitude(page, open_app):
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM's play-through: Descend's field held the flyer's own altitude, and pressing Descend logged
    a 0 m descent ("descends to altitude 20 m", from 20 m) that used up the phase. The field starts on a real
    descent (here to the ground); the flyer's own altitude typed back is refused beside the field in the GM's words,
    and nothing changes."""
    flyer_aloft_moves_first(page, open_app)
    descend = page.locator("form[data-form=rb-descend]")
    field = descend.get_by_label("Descend to altitude (m), no roll")
    expect(field).to_have_value("0")          # 40 m up, a zone is more: down to the ground
    actions_before = len(saved(page)["history"]["actions"])

    field.fill("40")
    descend.get_by_role("button", name="Descend").click()
    refusal = descend.locator('[data-error-for="alt"]')
    expect(refusal).to_have_text(f"{FLYER} is at altitude 40 m: to descend, give a lower altitude (down to 0 m this "
                                 "movement phase)")
    expect(field).to_have_attribute("aria-invalid", "true")
    assert len(saved(page)["history"]["actions"]) == actions_before, "a refused descent changes nothing"
    expect(page.locator(".rb-acting fieldset.rb-ask")).to_have_count(0)   # the phase's movement is not spent
    photograph(page, "rb-descend-same-altitude", scroll_to=".rb-acting")


def test_descend_sits_beside_its_field_on_a_tablet(page, open_app):
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM's play-through on a tablet: after a refused descent the field and its error were in view,
    and the Descend button below them at the screen's bottom edge, under the fold. The button sits beside the field's
    input, the error under both, and all three stay in view."""
    flyer_aloft_moves_first(page, open_app)
    descend = page.locator("form[data-form=rb-descend]")
    field = descend.get_by_label("Descend to altitude (m), no roll")
    button = descend.get_by_role("button", name="Descend")
    field.fill("40")
    button.click()
    refusal = descend.locator('[data-error-for="alt"]')
    expect(refusal).to_contain_text("give a lower altitude")
    for each in (field, refusal, button):
        expect(each).to_be_in_viewport(ratio=1)
    f, b, r = field.bounding_box(), button.bounding_box(), refusal.bounding_box()
    assert b["x"] >= f["x"] + f["width"] and abs((b["y"] + b["height"] / 2) - (f["y"] + f["height"] / 2)) < 4, (f, b)
    assert r["y"] >= f["y"] + f["height"]
    photograph(page, "rb-descend-beside-768", scroll_to="form[data-form=rb-descend]")
