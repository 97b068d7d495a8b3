"""Range band, findings of a GM's play-through of a stealthy fight and a flyer: "Target warned by" offered the target
himself, the attacker's allies and the fallen; the "may an ally warn them?" note came after Fray's roll; a flyer dragged
straight down in the side view was refused; the order strip said nothing of High Stealth; the hold's Resolve scrolled
the roll under the sticky round bar.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

import sys
from pathlib import Path

from gestures import card, import_history, mouse_drag, photograph, saved
from playwright.sync_api import expect
from test_range_band import FLYER, move, newest_log, pending
from test_rb_descent import flyer_aloft_moves_first

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from fray.games import get_ruleset  # noqa: E402

TABLET = {"width": 768, "height": 1024}


def scout(name: str, side: str, x: float, **over) -> dict:
    p = next(p for p in get_ruleset("range-band").presets() if p["name"] == "Human scout")
    return {**p, "name": name, "side": side, "position": {"x": x, "y": 0, "alt": 0}, **over}


def ambush_at_the_ford(page, tmp_path) -> None:
    """Sneak (in High Stealth) and Cutthroat against Mark, Lookout and the fallen Bram; the fight is at Sneak's turn
    in round 1's action phase (a save file, as a GM brings one)."""
    h = History(new_encounter("range-band", "Ford ambush"))
    for body in (scout("Sneak", "foes", 0, stealth="high"), scout("Cutthroat", "foes", -3),
                 scout("Mark", "party", 20), scout("Lookout", "party", 23), scout("Bram", "party", 25)):
        h.do({"type": "add_combatant", "combatant": body})
    h.do({"type": "set_condition", "id": "c5", "condition": "dead", "on": True})
    for i, cid in enumerate(("c1", "c2", "c3", "c4")):
        h.do({"type": "rb.turn_order", "id": cid, "value": 20 - i})
    for _ in range(5):  # setup, then the four movements: Sneak's turn
        h.do({"type": "advance"})
    import_history(page, tmp_path, h, 5, "ford-ambush")
    expect(page.locator("#round-bar .phase")).to_contain_text("Sneak")


def options(select) -> list[str]:
    return [t.strip() for t in select.locator("option").all_inner_texts()]


def test_target_warned_by_follows_the_target_and_the_note_comes_before_the_roll(page, open_app, tmp_path):
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies." "Target warned by" lists the chosen target's allies in the fight (not the target, not the attacker's
    allies, not the fallen) and follows another Target chosen; the "may an ally warn them?" note shows in the
    preview before the roll, and Roll it (Fray's dice) leaves no note after it."""
    page.set_viewport_size(TABLET)
    open_app(page)
    ambush_at_the_ford(page, tmp_path)
    form = page.locator("form[data-form=rb-attack]")
    target, warn = form.get_by_label("Target", exact=True), form.get_by_label("Target warned by")
    expect(target).to_have_value("c3")                        # Mark, the nearest foe
    assert options(warn) == ["nobody", "Lookout"]
    target.select_option("c4")                                # Lookout
    expect(warn.locator("option")).to_have_count(2)
    expect(warn.locator("option").nth(1)).to_have_text("Mark")
    expect(form.locator(".rb-preview-prompt")).to_contain_text("Stealth attack on Lookout: may an ally warn them?")
    photograph(page, "rb-warned-by", scroll_to="form[data-form=rb-attack]")

    form.get_by_role("button", name="Roll it (Fray's dice)").click()
    expect(page.locator("#log")).to_contain_text("R1 Offense roll: Shortbow against Lookout")
    expect(page.locator("#log")).not_to_contain_text("may an ally warn")
    expect(page.locator(".rb-gm-notes")).to_have_count(0)   # no note advising what can no longer be done
    assert not [p for p in saved(page)["encounter"]["state"].get("prompts", []) if p["kind"] == "warning"]


def test_the_two_step_offense_roll_leaves_no_warning_note(page, open_app, tmp_path):
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies." The warner is chosen in the form ("Target warned by") before the attack is sent, so the question
    belongs to the form's preview. A GM's play-through: sent by "Offense roll" (the GM's own dice), the note "may an
    ally warn them? ... (once the roll is sent: dismiss it and attack again)" stood under the sent roll."""
    page.set_viewport_size(TABLET)
    open_app(page)
    ambush_at_the_ford(page, tmp_path)
    form = page.locator("form[data-form=rb-attack]")
    expect(form.locator(".rb-preview-prompt")).to_contain_text("Stealth attack on Mark: may an ally warn them?")
    form.get_by_role("button", name="Offense roll", exact=True).click()
    expect(pending(page, "R1")).to_contain_text("Offense roll: Shortbow against Mark")
    expect(page.locator(".rb-gm-notes")).to_have_count(0)
    expect(page.locator("#log")).not_to_contain_text("may an ally warn")
    assert not [p for p in saved(page)["encounter"]["state"].get("prompts", []) if p["kind"] == "warning"]


def test_the_strip_says_high_stealth(page, open_app, tmp_path):
    """High Stealth: "To take full advantage of stealth tactics, a character must enter High Stealth." The map drew
    Sneak's High Stealth; the order strip said nothing of it. Its entry carries the chip, as a status would."""
    page.set_viewport_size(TABLET)
    open_app(page)
    ambush_at_the_ford(page, tmp_path)
    sneak = page.locator('#order-strip li', has_text="Sneak")
    expect(sneak.locator(".chip")).to_have_text(["High Stealth"])
    expect(page.locator('#order-strip li', has_text="Mark").locator(".chip")).to_have_count(0)
    photograph(page, "rb-strip-high-stealth")


def test_a_flyer_dragged_straight_down_in_the_side_view_descends(page, open_app):
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." A GM dragged the flyer straight down in the side view: the page refused it as a movement roll
    (a descent alone needs none). The drag is the descent without a roll."""
    flyer_aloft_moves_first(page, open_app)   # the flyer at 40 m, in its movement
    if page.locator("#tab-map").is_visible():
        page.locator("#tab-map").click()
    expect(page.locator('[data-elev-token="c1"]')).to_be_visible()
    a, b = page.evaluate("""([cid, alt]) => {
        const svg = document.getElementById('map-elev-svg');
        const t = document.querySelector(`[data-elev-token="${cid}"]`);
        const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(t.getAttribute('transform'));
        const ground = +svg.dataset.ground, ky = +svg.dataset.ky;
        const a = new DOMPoint(+m[1], +m[2]).matrixTransform(svg.getScreenCTM());
        const b = new DOMPoint(+m[1], ground - alt * ky).matrixTransform(svg.getScreenCTM());
        return [[a.x, a.y], [b.x, b.y]];
    }""", ["c1", 10])
    mouse_drag(page, tuple(a), tuple(b))
    expect(newest_log(page)).to_contain_text(f"{FLYER} descends to altitude")
    last = saved(page)["history"]["actions"][-1]
    assert last["type"] == "rb.descend" and 0 <= last["alt"] < 40, last
    assert not saved(page)["encounter"]["state"].get("pending"), "no movement roll for a descent"
    photograph(page, "rb-side-view-descent", map_tab=True)


def test_the_holds_resolve_shows_the_roll_below_the_sticky_head(page, open_app):
    """The round: "a movement phase, then an action phase" (FACTS.md): Next with a roll still open asks first; its
    Resolve brought the roll's form under the sticky round bar at 768x1024, its top (the roll and its
    specification) hidden. The form is scrolled to just below what sticks to the top."""
    flyer_aloft_moves_first(page, open_app)   # a tablet
    move(page, x=5)
    expect(pending(page, "R1")).to_be_visible()
    page.mouse.wheel(0, 2000)                 # the GM scrolled down to Next's neighbourhood
    page.locator("#round-bar [data-act=advance]").click()
    hold = page.locator("#rb-hold")
    expect(hold).to_be_visible()
    hold.get_by_role("button", name="Resolve R1").click()
    expect(hold).to_have_count(0)
    roll = pending(page, "R1")
    expect(roll.locator("input").first).to_be_focused()
    head = page.evaluate("""() => Math.max(0, ...[...document.querySelectorAll('.tracker-head, #round-bar, #order-strip')]
        .filter(b => getComputedStyle(b).position === 'sticky').map(b => b.getBoundingClientRect().bottom))""")
    top = roll.bounding_box()["y"]
    assert top >= head - 1, f"the roll's top at {top} px is under the sticky head ending at {head} px"
    photograph(page, "rb-hold-resolve")
