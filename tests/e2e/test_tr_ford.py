"""Tactical round, a GM's play-through at the ford (a laptop): a refused declaration's message went
when the GM declared for the next one, leaving the form as if declared.

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import re
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import photograph  # noqa: E402
from test_tactical_round import declare  # noqa: E402
from tr_fights import ORC, SWORDSMAN, body, melee, open_fight  # noqa: E402


def load_engaged(page, tmp_path) -> None:
    """Round 2's Declaration: Bran (c1) at 0 m, Engaged with Orc B (c2) 2 m east, whose blow in round
    1's Melee engaged them; Orc A (c3) 10 m north."""
    open_fight(page, tmp_path, "Engaged at the ford",
               [body(SWORDSMAN, "Bran", 0, 0, "party"), body(ORC, "Orc B", 2, 0), body(ORC, "Orc A", 0, 10)],
               ["declaration", melee("c2", "c1"), "melee",
                {"type": "tr.attack", "id": "c2", "target": "c1", "rolls": {"attack": 20}}, "declaration"], file="ford")
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")


def test_a_refused_declaration_stays_beside_its_form_until_the_gm_changes_it(page, open_app, tmp_path):
    """Melee Attacks: "Any character who receives a melee attack becomes Engaged with the attacker. Engaged
    characters cannot take Movement Actions unless they Disengage or Run Away first." Bran's Move is
    refused; the GM declares for the two orcs: the refusal stays beside Bran's form (a GM's play-through
    saw it go, the form looking declared, until Next said "Not declared yet"), and goes once the GM
    changes Bran's form."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    load_engaged(page, tmp_path)
    bran = page.locator('form[data-form=tr-declare][data-id="c1"]')
    bran.locator('[name="actions.0.action"]').select_option("move")
    bran.locator("button[type=submit]").click()
    refused = re.compile("Engaged characters cannot take Movement Actions")
    expect(bran).to_contain_text(refused)
    declare(page, "c2", [("melee_attack", "0", "c1")], "Orc B declares: Melee attack")
    declare(page, "c3", [("move", "", "")], "Orc A declares: Move")
    expect(bran).to_contain_text(refused)
    expect(page.locator("#log")).not_to_contain_text("Bran declares")
    photograph(page, "tr-ford-refused", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    bran.locator('[name="actions.0.action"]').select_option("melee_attack")
    expect(bran).not_to_contain_text(refused)


def test_a_melee_attack_declared_out_of_reach_is_told_beside_its_form(page, open_app, tmp_path):
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within
    the reach of their weapon." Orc B stands 8.2 m from Bran, who chooses a Melee attack and no Move: the
    form says so as he chooses it (its preview: a GM's play-through saw it only after Declare), and after
    Declare, while a Move can still be declared (another learnt it only in Melee, the Move phase over);
    with the Move declared too, it says nothing."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    open_fight(page, tmp_path, "Apart at the ford",
               [body(SWORDSMAN, "Bran", 0, 0, "party"), body(ORC, "Orc B", 8.2, 0)], ["declaration"], file="apart")
    word = ("Orc B is 8.2 m from Bran, beyond a melee attack's reach (3 m): declare a Move to close in, "
            "unless Orc B comes to Bran in the Move phase")
    bran = page.locator('form[data-form=tr-declare][data-id="c1"]')
    bran.locator('[name="actions.0.action"]').select_option("melee_attack")  # Weapon and Target come with it
    expect(bran.locator('[name="actions.0.target"]')).to_have_value("c2")
    expect(bran.locator(".tr-decl-preview .tr-decl-reach")).to_have_text(word)
    photograph(page, "tr-ford-reach-preview", scroll_to='form[data-form=tr-declare][data-id="c1"]')
    declare(page, "c1", [("melee_attack", "0", "c2")], "Bran declares: Melee attack")
    expect(bran.locator(".tr-decl-reach")).to_have_text(word)  # once: under the declaration
    photograph(page, "tr-ford-reach", scroll_to="#tr-stepper")
    # a Move is made on no one: choosing it lets go of the attack's target (the log read "Move on Orc 4")
    bran.locator('[name="actions.0.action"]').select_option("move")
    expect(bran.locator('[name="actions.0.target"]')).to_have_value("")
    declare(page, "c1", [("move", "", ""), ("melee_attack", "0", "c2")], "Bran declares: Move (Move, half), ")
    expect(bran.locator(".tr-decl-reach")).to_have_count(0)


def load_crowd_attack_waiting(page, tmp_path) -> None:
    """Twelve at the ford (the order strip in two rows on a tablet), in Melee: Mira's attack A1 on Grak
    rolled, its result from the attack table not entered; nobody else declared anything."""
    bodies = [body(SWORDSMAN, "Mira", 0, 0, "party"), body(ORC, "Grak", 1.5, 0)]
    bodies += [body(ORC, f"Orc {i}", 6 + 2 * i, 8) for i in range(5)]
    bodies += [body(SWORDSMAN, f"Guard {i}", 6 + 2 * i, -8, "party") for i in range(5)]
    open_fight(page, tmp_path, "A crowd at the ford", bodies,
               ["declaration", melee("c1", "c2"), "melee",
                {"type": "tr.attack", "id": "c1", "target": "c2", "rolls": {"attack": 60}}], file="crowd")
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")


def test_the_folded_attack_no_one_declared_shows_its_marker(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): "..., Melee (...), Ranged B, ...": everyone who declared has
    attacked, and the form for an attack no one declared stays folded: on a tablet its summary had no ▸,
    unlike the other folded sections (a GM's play-through), and read as a heading. On the way, Next stops
    at Mira's attack whose result is not entered and "Enter it" brings its box below the sticky head."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    load_crowd_attack_waiting(page, tmp_path)
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    expect(box).to_contain_text("Mira's attack on Grak, has no result")
    box.get_by_role("button", name="Enter the result of Attack A1").click()
    pending = page.locator('.tr-pending[data-ref="A1"]')
    expect(pending.get_by_label("Hits")).to_be_focused()
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    assert head <= pending.bounding_box()["y"], head
    photograph(page, "tr-ford-enter-it")
    marker = page.evaluate("""() => { const s = document.querySelector('details.tr-undeclared > summary');
        return getComputedStyle(s, '::before').content; }""")
    assert marker == '"▸"', marker


def test_enter_it_shows_the_awaiting_heading_below_the_sticky_head(page, open_app, tmp_path):
    """Tactical Round Sequence (FACTS.md): "..., Melee (...), Ranged B, ...": Next stops at Mira's attack
    whose result is not entered. With the GM scrolled so that its box's top lies under the sticky head,
    "Enter it" revealed the box alone: its section's heading "Awaiting the attack table" sat under the
    head (a GM's play-through on a tablet). It comes below the head with the box, as other forms do."""
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    load_crowd_attack_waiting(page, tmp_path)
    page.get_by_role("button", name="Open all cards").click()  # a long page, as a GM's with every card open
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    expect(box).to_contain_text("Mira's attack on Grak, has no result")
    pending = page.locator('.tr-pending[data-ref="A1"]')
    # the box's top 20 px under the sticky head, the Enter it button in view
    page.evaluate("""(b) => { const head = document.querySelector('.tracker-head').getBoundingClientRect().bottom;
        scrollBy(0, b.getBoundingClientRect().top - head + 20); }""", pending.element_handle())
    box.get_by_role("button", name="Enter the result of Attack A1").click()
    expect(pending.get_by_label("Hits")).to_be_focused()
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    heading = page.locator(".tr-pending-list > h3")
    assert head <= heading.bounding_box()["y"], (head, heading.bounding_box())
    photograph(page, "tr-ford-awaiting")
