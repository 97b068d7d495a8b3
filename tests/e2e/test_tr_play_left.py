"""Tactical round, what a GM's play-through left on the page: a critical waiting for its effects was
easy to miss (Next went on past it, and the numbers typed for a new attack went into the critical's
"Extra hits"); the acting row of an attack made on another target still named the declared one; the
attack form's Target list stayed the last attacker's (the new one was offered himself).

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import os
import re
import sys

from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from tr_fights import LAPTOP, ORC, SWORDSMAN, TABLET, body, melee, open_fight  # noqa: E402
from test_tactical_round import apply_result, newest_log, pending  # noqa: E402

SHOTS = os.environ.get("FRAY_SHOTS", "")


def shot(page, name: str, where: str) -> None:
    """With FRAY_SHOTS set, ``where`` photographed at a tablet's and a laptop's size."""
    if not SHOTS:
        return
    was = page.viewport_size
    for w, h in ((768, 1024), (1366, 900)):
        page.set_viewport_size({"width": w, "height": h})
        page.locator(where).first.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{w}.png"))
    page.set_viewport_size(was)


def load_melee(page, tmp_path, **opening) -> None:
    """Mira (a swordswoman) among three orcs a step away, Grak east, Uzg north and Bolg west, every one
    of them declared on a Melee attack (Mira on Grak, the orcs on Mira); the fight stands in the Melee phase.
    ``opening``: ``open_fight``'s ``open_app`` and ``size``."""
    open_fight(page, tmp_path, "The ford", [body(SWORDSMAN, "Mira", 0, 0, "party"), body(ORC, "Grak", 1.5, 0),
                                            body(ORC, "Uzg", 0, 1.5), body(ORC, "Bolg", -1.5, 0)],
               ["declaration", melee("c1", "c2"), melee("c2", "c1"), melee("c3", "c1"), melee("c4", "c1"), "melee"],
               file="ford", **opening)
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")


def attack(page, attacker: str, target: str, roll: str) -> None:
    form = page.locator("form[data-form=tr-attack]")
    form.locator("[name=id]").select_option(attacker)
    form.locator("[name=target]").select_option(target)
    form.get_by_label("Open-ended d100").fill(roll)
    form.get_by_role("button", name="Attack", exact=True).click()


def test_a_critical_waiting_is_plain_next_stops_for_it_and_a_new_attacks_hits_land_in_its_own_box(
        page, open_app, tmp_path):
    """FACTS.md, the attack: "the GM enters the result (hits and critical severity) ... Critical severity
    adds +0 / +10 / +20 / +30 / +50 to the critical roll": the critical's effects are the GM's to give, so
    Next stops until the GM applies them or leaves them, in words; and what the GM types after an attack
    goes into that attack's own Hits."""
    load_melee(page, tmp_path, open_app=open_app, size=TABLET)
    attack(page, "c1", "c2", "60")
    apply_result(page, "A1", 5, "B", "40")
    crit = page.locator('article.tr-pending.critical[data-ref="A1"]')
    expect(crit).to_have_count(1)
    expect(crit.get_by_label("Extra hits")).to_be_focused()  # what the GM types next is the critical's
    # plain on the acting row of the one whose blow it was
    mira = page.locator('.tr-slot[data-id="c1"]')
    expect(mira).to_contain_text("Critical B on Grak to apply")
    attack(page, "c2", "c1", "30")
    expect(pending(page, "A2")).to_have_count(1)
    attack(page, "c3", "c1", "31")
    expect(pending(page, "A3")).to_have_count(1)
    # a fourth waiting result: its box is past the three shown whole, yet the typing lands in it
    attack(page, "c4", "c1", "62")
    page.keyboard.type("7")
    expect(pending(page, "A4").get_by_label("Hits")).to_have_value("7")
    expect(crit.get_by_label("Extra hits")).to_have_value("0")
    expect(pending(page, "A3").get_by_label("Hits")).to_have_value("0")
    pending(page, "A4").get_by_role("button", name="Apply result").click()
    expect(page.locator("#log")).to_contain_text("A4 (GM): Mira takes 7 hits")
    for ref in ("A2", "A3"):  # Next stops at a result not entered too (test_tr_gm_today.py): these are read
        pending(page, ref).get_by_role("button", name="Apply result").click()
        expect(page.locator("#log")).to_contain_text(f"{ref} (GM): Mira takes 0 hits")

    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    expect(box).to_contain_text("Attack A1's critical B on Grak is not applied")
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")
    # one way to leave it, which says Next goes on (there were two: "Leave it" and "Leave it and go on")
    expect(box.get_by_role("button", name=re.compile("^Leave"))).to_have_text(["Leave it and go on"])
    shot(page, "tr-critical-waiting", ".tr-open")
    box.get_by_role("button", name=re.compile("^Apply")).click()
    expect(crit.get_by_label("Extra hits")).to_be_focused()
    page.locator("#round-bar [data-act=advance]").click()
    box.get_by_role("button", name="Leave it and go on").click()
    expect(page.locator("#log")).to_contain_text("The GM goes on: Attack A1's critical B on Grak is left unapplied")
    expect(page.locator(".tr-stepper li.current")).not_to_contain_text("Melee")
    expect(crit).to_have_count(0)


def test_the_acting_row_says_whom_the_attack_went_to(page, open_app, tmp_path):
    """Combat Actions: the declared attack is made in its phase, on the target the GM chooses then. A GM's
    play-through: Mira's blow, declared on Grak, went to Uzg, and her row still read "→ Grak ... done"."""
    load_melee(page, tmp_path, open_app=open_app, size=TABLET)
    attack(page, "c1", "c3", "60")
    expect(pending(page, "A1")).to_have_count(1)
    mira = page.locator('.tr-slot[data-id="c1"]')
    expect(mira).to_have_class(re.compile("done"))
    expect(mira.locator(".why")).to_contain_text("Melee attack → Uzg (declared: Grak)")
    shot(page, "tr-row-whom", ".tr-acting")


def test_the_target_list_follows_the_attacker(page, open_app, tmp_path):
    """Combat Actions: a combatant attacks an opponent, never himself (the engine refuses "cannot be their own
    opponent"). Another Attacker chosen in the form: his Target list has everyone but him, on his own declared
    target, at once (no Attack pressed, no redraw)."""
    load_melee(page, tmp_path, open_app=open_app, size=LAPTOP)
    form = page.locator("form[data-form=tr-attack]")
    target = form.locator("[name=target]")
    expect(form.locator("[name=id]")).to_have_value("c1")
    expect(target).to_have_value("c2")
    expect(target.locator("option")).to_have_text(["Grak", "Uzg", "Bolg"])
    form.locator("[name=id]").select_option("c2")
    expect(target.locator("option")).to_have_text(["Mira", "Uzg", "Bolg"])
    expect(target).to_have_value("c1")  # Grak's own declared target
    form.locator("[name=target]").select_option("c3")
    form.locator("[name=id]").select_option("c3")
    expect(target.locator("option")).to_have_text(["Mira", "Grak", "Bolg"])
    expect(target).to_have_value("c1")
    form.locator("[name=id]").select_option("c2")
    expect(target).to_have_value("c3")  # the GM's own choice for Grak, this turn, stands
    form.get_by_label("Open-ended d100").fill("50")
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(newest_log(page)).to_contain_text("Grak attacks Uzg with Scimitar")
