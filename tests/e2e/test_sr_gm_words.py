"""A GM's play-through of strike-rank, on screen and in words (the unit side in
tests/games/strike_rank/test_sr_gm_words.py): what the attack form offers, where a refusal is said.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from playwright.sync_api import expect
from gestures import click_and_log, photograph, sr_declare
from test_sr_controls import declare_charge, start
from test_strike_rank import WARRIOR, WOLF, advance


def test_a_charging_target_starts_on_none_and_a_dodge_is_refused_beside_the_choice(page, open_app):
    """Charging: "if the opponent does attack first, the charging combatant would not be able to dodge or
    parry." The warrior charges the wolf (SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2, 9 m); the wolf bites first at
    SR 3: its form's "Defender's choice" starts on None and says why; a Dodge chosen anyway is refused
    beside the choice, in view, and nothing is rolled."""
    start(page, open_app, "Warrior charges", (768, 1024), party=(WARRIOR,), foes=(WOLF,))
    declare_charge(page, "c1", "broadsword", "c2", "9", ("Charge (runs",), "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2")
    sr_declare(page, "c2", {"weapon": "bite"}, "SR 3")
    advance(page, "Resolve SR 3")
    form = page.locator("form[data-form=sr-attack]")
    choice = form.locator('[data-field="defence.kind"]')
    expect(choice.locator("select")).to_have_value("none")
    expect(choice).to_contain_text("Human warrior cannot dodge or parry now")
    choice.locator("select").select_option("dodge")
    log_before = page.locator("#log li").count()
    form.get_by_role("button", name="Roll the exchange").click()
    err = choice.locator('[data-error-for="defence.kind"]')
    expect(err).to_contain_text("the charging combatant would not be able to dodge or parry")
    expect(err).to_be_in_viewport()
    expect(page.locator("#log li")).to_have_count(log_before)
    photograph(page, "sr-charge-refused", scroll_to='form[data-form=sr-attack] [data-field="defence.kind"]')


def test_an_engaged_archers_shot_says_why_in_the_form_and_in_still_open(page, open_app):
    """Ranged Combat: "Unengaged characters can use missile weapons." The Archer shoots at the wolf 3 m off
    (within engagement range): her form says the shot is refused and with whom; Next with the shot open
    says the same in the "Still open" box, not just "not resolved"."""
    start(page, open_app, "Archer held", (768, 1024), party=("Archer",), foes=(WOLF,))
    sr_declare(page, "c1", {"kind": "missile"}, "SR 2")
    advance(page, "Resolve SR 2")
    form = page.locator("form[data-form=sr-attack]")
    expect(form.locator(".sr-held")).to_contain_text("Archer is engaged in melee with Great wolf (four-legged)")
    page.locator("#round-bar [data-act=advance]").click()
    row = page.locator(".sr-still-open li").first
    expect(row).to_contain_text("Archer's shot at SR 2 cannot be loosed: Archer is engaged in melee with "
                                "Great wolf (four-legged)")
    expect(row).not_to_contain_text("not resolved")
    photograph(page, "sr-archer-held", scroll_to=".sr-still-open")
