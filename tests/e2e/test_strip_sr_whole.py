"""The strike rank in the order strip is always whole (a GM's play-through at 768x1024: "Knight 1 S…",
"Bandit 3 S…", "Crossbowman S" from declaration on). The SR is the number the GM needs from the
strip, so a narrow entry cuts the name's head, never the "SR n" beside it (render.strip_name,
the .strip-* rules of static/app.css). Checked at 768x1024 and 1366x900 with a dozen combatants.
Set FRAY_SHOTS=dir to keep the screenshots."""

from __future__ import annotations

import os
import sys

import pytest
from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import new_encounter  # noqa: E402
from test_strip import GAMES, add_many, shot  # noqa: E402

TABLET = {"viewport": {"width": 768, "height": 1024}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1366, "height": 900}}

# every entry's slot ("SR 7") and name number, and whether either is cut: drawn wider than its box
# or standing past the entry's right edge (the line hides what overflows it)
CUT = """() => [...document.querySelectorAll('#order-strip li.strip-entry')].map(li => {
  const line = li.querySelector('.strip-line'), slot = li.querySelector('.strip-slot');
  const no = li.querySelector('.strip-name-no');
  const lr = line.getBoundingClientRect();
  const whole = e => !e || (e.scrollWidth <= e.clientWidth + 0.5 && e.getBoundingClientRect().right <= lr.right + 0.5
                            && e.getBoundingClientRect().width > 0);
  return {name: li.querySelector('.strip-name').textContent, slot: slot.textContent,
          slot_whole: whole(slot), no_whole: whole(no)};
})"""


@pytest.mark.parametrize("size", ["tablet", "laptop"])
def test_the_strike_rank_in_the_strip_is_never_cut(browser, open_app, size):
    ctx = browser.new_context(**(TABLET if size == "tablet" else LAPTOP))
    page = ctx.new_page()
    try:
        open_app(page)
        badge, ours, theirs = GAMES["strike-rank"]
        new_encounter(page, "Dozen", "strike-rank", badge)
        add_many(page, ours, "5", "party", "Knight")
        add_many(page, ours, "5", "foes", "Bandit", at=(9, 0))
        add_many(page, ours, "1", "foes", "Crossbowman", at=(9, 6))
        add_many(page, theirs, "1", "foes", at=(9, -6))
        expect(page.locator("#order-strip li.strip-entry")).to_have_count(12)
        page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
        forms = page.locator('form[data-form="sr-declare"]')
        expect(forms).to_have_count(12)
        for i in range(12):
            forms.nth(i).locator("button[type=submit]").click()
        expect(page.locator(".sr-decl")).to_have_count(12)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"sr-strip-{size}-declared")
        entries = page.evaluate(CUT)
        assert len(entries) == 12
        assert all(e["slot"].startswith("SR ") for e in entries), entries
        assert all(e["slot_whole"] and e["no_whole"] for e in entries), [e for e in entries if not (e["slot_whole"] and e["no_whole"])]
        page.locator("#round-bar").get_by_role("button", name="Next").click()
        expect(page.locator("#order-strip li.strip-entry[aria-current=step]")).to_have_count(1)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"sr-strip-{size}-acting")
        entries = page.evaluate(CUT)
        assert all(e["slot_whole"] and e["no_whole"] for e in entries), [e for e in entries if not (e["slot_whole"] and e["no_whole"])]
    finally:
        ctx.close()


# every part of every entry's state line ("maimed: Right leg,"): its text and whether any of it is hidden, drawn
# past its own box or past the entry's right edge (the line hides what overflows it)
PARTS_CUT = """() => [...document.querySelectorAll('#order-strip li.strip-entry .strip-part')].map(p => {
  const line = p.closest('.strip-line').getBoundingClientRect(), r = p.getBoundingClientRect();
  return {text: p.textContent, cut: p.scrollWidth > p.clientWidth + 0.5 || r.right > line.right + 0.5
          || r.bottom > line.bottom + 0.5};
})"""


@pytest.mark.parametrize("size", ["tablet", "laptop"])
def test_a_wound_in_the_strip_is_never_cut_mid_word(browser, open_app, tmp_path, size):
    """A GM's play-through on the tablet: the strip read "maimed: Right le". The state under an entry's name
    wraps between its words where the entry is too narrow for it ("serious: Right hind leg", the great wolf's),
    and no part of it is hidden."""
    import random

    from fray.games import get_ruleset
    from fray.history import History
    from fray.reducer import new_encounter as engine_encounter
    from gestures import import_history

    warrior = next(p for p in get_ruleset("strike-rank").presets() if p["name"] == "Human warrior")
    h = History(engine_encounter("strike-rank", "Legs"))
    wolf = next(p for p in get_ruleset("strike-rank").presets() if p["name"].startswith("Great wolf"))
    for i in range(12):
        body = {**wolf, "name": "Great wolf"} if i == 11 else {**warrior, "name": f"Knight {i + 1}"}
        h.do({"type": "add_combatant", "combatant": {**body, "side": "party" if i < 6 else "foes",
                                                      "position": {"x": i * 2.0, "y": 0, "alt": 0}}})
    h.do({"type": "sr.damage", "target": "c12", "location": "right_hind_leg", "amount": 9}, random.Random(1))
    h.do({"type": "sr.damage", "target": "c1", "location": "right_leg", "amount": 12}, random.Random(1))
    # Knight 4's strike rank ties with Knight 5's and Knight 8's: his entry has a grip, and less room for his wound
    h.do({"type": "sr.damage", "target": "c4", "location": "left_arm", "amount": 7}, random.Random(1))
    ctx = browser.new_context(**(TABLET if size == "tablet" else LAPTOP))
    page = ctx.new_page()
    try:
        open_app(page)
        import_history(page, tmp_path, h, 12, "legs")
        entry = page.locator('#order-strip li.strip-entry[data-id="c1"]')
        expect(entry).to_contain_text("maimed: Right leg")
        # declared: each entry has its strike rank, and those on the same one a grip to settle the tie
        page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
        forms = page.locator('form[data-form="sr-declare"]')
        expect(forms).to_have_count(12)
        for i in range(12):
            forms.nth(i).locator("button[type=submit]").click()
        expect(page.locator(".sr-decl")).to_have_count(11)  # Knight 1, maimed and prone, is refused his blow
        expect(page.locator("#order-strip .strip-grip")).not_to_have_count(0)
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"sr-strip-{size}-maimed")
        parts = page.evaluate(PARTS_CUT)
        assert any(p["text"].startswith("maimed: Right leg") for p in parts), parts
        assert any(p["text"].startswith("serious: Left arm") for p in parts), parts
        assert any(p["text"].startswith("serious: Right hind leg") for p in parts), parts
        assert [p["text"] for p in parts if p["cut"]] == []
    finally:
        ctx.close()
