"""The odds before rolling in a real browser (issue 12, "The odds before rolling"): beside the
strike-rank attack panel's roll button, the tactical-round attack form and a range-band pending
roll specification, the odds for the options
chosen right now, updating as an option changes, with no console error (the page fixture fails the
test on any), and changing nothing in the encounter.

FRAY_SHOTS=<folder> keeps screenshots at 768×1024 and 1366×900.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from gestures import add_preset, new_encounter, open_add_dialog, rb_start, saved, sr_declare, tr_next  # noqa: E402
from test_tactical_round import advance_to, declare  # noqa: E402

SIZES = ({"width": 1366, "height": 900}, {"width": 768, "height": 1024})
WARRIOR, WOLF = "Human warrior", "Great wolf (four-legged)"
SWORD, ORC = "Swordsman with shield", "Orc warrior"


def saved_actions(page) -> list:
    return saved(page)["history"]["actions"]


def fits(page) -> None:
    """Nothing sticks out of the viewport sideways."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def shot(page, name: str) -> None:
    folder = os.environ.get("FRAY_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=False)


def warrior_and_wolf_at_blows(page, name: str) -> None:
    """A strike-rank fight of a warrior and a wolf, each attacking the other: the wolf's bite
    comes first (SR 3), then the warrior's broadsword."""
    new_encounter(page, name, "strike-rank", "Strike Rank (d100)")
    add_preset(page, WARRIOR, "party")
    add_preset(page, WOLF, at=(3, 0))  # within engagement range (3 m): at blows from the start
    page.locator("#round-bar [data-act=advance]").click()
    for cid, weapon, target in (("c1", "broadsword", "c2"), ("c2", "bite", "c1")):
        sr_declare(page, cid, {"kind": "melee", "weapon": weapon, "target": target}, "SR")
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 3")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_strike_rank_odds_beside_the_roll_button_follow_the_defence(page, open_app, size):
    page.set_viewport_size(size)
    open_app(page)
    warrior_and_wolf_at_blows(page, "Odds in the pass")
    before = saved_actions(page)

    form = page.locator("form[data-form=sr-attack]")
    odds = form.locator("[data-odds]")
    # the wolf's bite against each of the warrior's defences, the chosen one (parry) marked
    expect(odds).to_contain_text("Odds before rolling")
    expect(odds.locator(".odds-alts thead th.chosen")).to_contain_text("Parry with")
    expect(odds.locator(".odds-alts thead th")).to_contain_text(["", re.compile("Parry with"), re.compile("Dodge"),
                                                                 re.compile("No defence")])
    expect(odds.locator(".odds-alts")).to_contain_text("Blow lands")
    expect(odds.locator(".odds-alts")).to_contain_text("Serious wound")
    chosen_before = odds.locator(".odds-alts tbody tr").first.locator("td.chosen").inner_text()
    form.locator("details.odds-detail summary").click()
    expect(form.locator(".odds-grid")).to_be_visible()
    fits(page)
    shot(page, f"odds-strike-rank-{size['width']}x{size['height']}.png")

    # the GM's option changes: dodge is now the chosen column, and the figures follow
    form.locator('[name="defence.kind"]').select_option("dodge")
    expect(odds.locator(".odds-alts thead th.chosen")).to_contain_text("Dodge")
    expect(form.locator(".odds-grid")).to_be_visible()  # the open fold stays open
    form.locator('[name="bonus"]').fill("-40")
    expect(odds.locator(".odds-attack")).to_contain_text("%")
    expect(odds.locator(".odds-alts tbody tr").first.locator("td.chosen")).not_to_have_text(chosen_before)
    # working out the odds rolled nothing and changed nothing
    assert saved_actions(page) == before
    expect(page.locator("#banner")).to_be_hidden()


# Every write of worked-out odds into a slot (not the "Working out the odds…" placeholder the form
# is drawn with), counted from now on.
COUNT_ODDS = """() => {
  globalThis.oddsWrites = 0;
  new MutationObserver(ms => { for (const m of ms) {
    const slot = m.target.closest && m.target.closest("[data-odds]");
    if (slot && [...m.addedNodes].some(n => n.nodeType === 1 && !n.matches("p.hint"))) oddsWrites++;
  } }).observe(document.getElementById("ruleset-panel"), {childList: true, subtree: true});
}"""


def test_a_burst_of_taps_works_out_no_odds_of_a_form_already_gone(page, open_app):
    """The odds wait for the GM to stop tapping (odds_view.QUIET_MS): Next, and Next again
    70 ms later, passes the warrior's attack form without working out its odds, so the second tap
    never waits behind them (issue 11: an action at 30 combatants); the odds of a form that stays
    come as before. Next passes an open attack only once the GM skips it (issue 32): each Next of the
    burst is Next, "Skip it", Next."""
    open_app(page)
    warrior_and_wolf_at_blows(page, "Odds in a hurry")
    expect(page.locator("form[data-form=sr-attack] [data-odds]")).to_contain_text("Odds before rolling")
    page.evaluate(COUNT_ODDS)
    # the wolf's attack passed: the warrior's form, then 70 ms later on past it
    seen = page.evaluate("""async () => {
      const tap = (sel) => document.querySelector(sel).click();
      const next = () => { tap("#round-bar [data-act=advance]"); tap(".sr-still-open [data-act=sr-skip]");
                           tap("#round-bar [data-act=advance]"); };
      next();
      const form = document.querySelector("form[data-form=sr-attack] h3").textContent;
      await new Promise(ok => setTimeout(ok, 70));
      next();
      return form;
    }""")
    assert WARRIOR in seen, seen  # the burst did pass the warrior's form
    expect(page.locator(".sr-phase")).not_to_contain_text("Resolve")
    # a form that stays gets its odds: Undo brings the warrior's form back, and its odds are the
    # first written since the burst began (any the burst had worked out came before them)
    page.locator("#btn-undo").click()  # the last Next
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    page.locator("#btn-undo").click()  # the GM's "Skip it"
    expect(page.locator("form[data-form=sr-attack] h3")).to_contain_text(WARRIOR)
    expect(page.locator("form[data-form=sr-attack] [data-odds]")).to_contain_text("Odds before rolling")
    assert page.evaluate("oddsWrites") == 1


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_tactical_round_odds_follow_the_attack_form(page, open_app, size):
    page.set_viewport_size(size)
    open_app(page)
    new_encounter(page, "Odds on the bridge", "tactical-round", "Tactical round (CMB vs DEF)")
    add_preset(page, SWORD)
    add_preset(page, ORC)
    for title in ("Assessment", "Declaration"):
        advance_to(page, title)
    declare(page, "c1", [("melee_attack", "0", "c2")], "declares")
    form = page.locator("form[data-form=tr-attack]")
    # before Melee the rules forbid the attack: no Attack panel (a GM's play-through: an empty one
    # showed in the Move phase)
    expect(form).to_have_count(0)
    # issue 10: Next passes over the phases in which nobody acts (Move, Spell A, Ranged A); the orc
    # has not declared: the GM goes on without them (issue 32)
    tr_next(page)
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")
    odds = form.locator("[data-odds]")
    expect(odds).to_contain_text("Total = open-ended d100")
    expect(odds).to_contain_text("Middle 90%")
    expect(odds).to_contain_text("No attack table loaded")
    first = odds.locator("p").nth(1).inner_text()
    fits(page)
    shot(page, f"odds-tactical-{size['width']}x{size['height']}.png")
    before = saved_actions(page)
    form.get_by_label("Flanking").check()
    expect(odds.locator("p").nth(1)).not_to_have_text(first)
    expect(odds).to_contain_text("Flanking")
    assert saved_actions(page) == before
    expect(page.locator("#banner")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_range_band_pending_roll_shows_its_odds_under_the_assumed_mechanic(page, open_app, size):
    page.set_viewport_size(size)
    open_app(page)
    new_encounter(page, "Odds at the ford", "range-band", "Range bands (turn order, movement phase, major/minor "
                  "actions)")
    box = open_add_dialog(page)
    box.get_by_label("Ready-made").select_option(label="Human scout")
    box.get_by_role("button", name="Use", exact=True).click()
    box.get_by_role("button", name="Add", exact=True).click()
    expect(box).to_be_hidden()
    rb_start(page, "Start anyway")  # no turn orders: they go in the order added
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement phase: Human scout")
    move = page.locator("form[data-form=rb-move]")
    move.get_by_label("East (x, m)").fill("20")
    move.get_by_role("button", name="Movement roll").click()
    roll = page.locator('.rb-pending[data-ref="R1"]')
    odds = roll.locator("[data-odds]")
    expect(odds).to_contain_text("with Fray\u2019s assumed roll")
    expect(odds).to_contain_text(re.compile(r"Success \d+% · by 10 or more"))
    before = saved_actions(page)
    fits(page)
    shot(page, f"odds-range-band-{size['width']}x{size['height']}.png")
    roll.get_by_label("Success", exact=True).check()  # the GM's own entry leaves the odds as they were
    expect(odds).to_contain_text("with Fray\u2019s assumed roll")
    assert saved_actions(page) == before
    expect(page.locator("#banner")).to_be_hidden()
