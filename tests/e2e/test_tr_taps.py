"""Issue 33 §5, "Fewer taps", for tactical-round: "5 to 9 taps an attack (Attack, tick Line of sight,
Roll and attack, Hits, Critical, Apply, and 2 to 3 more for the critical); two buttons "Attack" and
"Roll and attack". Line of sight starts unticked on every ranged attack ... start it from what the
map and the GM's last answer know. One attack with Fray's dice in at most 4 taps."

A tap is a click, a choice in a list, or putting the finger in a field that does not already have
the focus; typing into the focused field is no tap. Every step waits on what the page shows."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from gestures import Taps
from test_tactical_round import declare, pending
from tr_fights import ORC, SWORDSMAN, TABLET, body, open_fight


def load(page, tmp_path, orc_b_x: float = 10, **opening) -> None:
    """Bolt (a crossbowman) at 0 m; Orc A 10 m north, in the clear; his ally Bran 5 m east, in the
    line to Orc B 10 m east (``orc_b_x``: 7, within Bran's melee reach). ``opening``: ``open_fight``'s
    ``open_app`` and ``size``."""
    open_fight(page, tmp_path, "Taps at the ford",
               [body("Crossbowman", "Bolt", 0, 0, "party"), body(ORC, "Orc A", 0, 10),
                body(SWORDSMAN, "Bran", 5, 0, "party"), body(ORC, "Orc B", orc_b_x, 0)], file="taps", **opening)


def to(page, title: str) -> None:
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    if box.count():  # the others did not declare: the GM goes on without them
        box.get_by_role("button", name=re.compile("^Go on")).click()
    expect(page.locator(".tr-stepper li.current")).to_contain_text(title)


def bolt_aims(page, tmp_path, target: str, orc_b_x: float = 10):
    """Bolt's fight (``load``): his Ranged attack on ``target`` declared, Next to Ranged A. Returns the
    attack form."""
    load(page, tmp_path, orc_b_x)
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("ranged_attack", "0", target)], "Bolt declares: Ranged attack")
    to(page, "Ranged A")
    return page.locator("form[data-form=tr-attack]")


def test_one_attack_with_frays_dice_in_at_most_four_taps_and_sight_from_the_map(page, open_app, tmp_path):
    load(page, tmp_path, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("ranged_attack", "0", "c2")], "Bolt declares: Ranged attack with Light crossbow on Orc A (Ranged A, full)")
    page.locator("#round-bar [data-act=advance]").click()
    page.locator(".tr-open").get_by_role("button", name=re.compile("^Go on")).click()
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Ranged A")

    # -- one attack with Fray's dice, counted --------------------------------------------------
    t = Taps(page)
    t.tap(page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")))
    form = page.locator("form[data-form=tr-attack]")
    # nobody stands between Bolt and Orc A: line of sight starts ticked, and the odds are given
    expect(form.get_by_label("Line of sight (ranged)")).to_be_checked()
    expect(form.locator("[data-odds]")).not_to_contain_text("No odds")
    expect(form.get_by_role("button", name="Roll and attack")).to_have_count(0)  # one button
    t.tap(form.get_by_role("button", name="Attack", exact=True))  # blank dice: Fray rolls
    box = pending(page, "A1")
    expect(box).to_have_count(1)
    t.type(box.get_by_label("Hits"), "7")  # the Hits field has the focus: typing is no tap
    t.tap(box.get_by_role("button", name="Apply result"))
    expect(page.locator("#log")).to_contain_text("A1 (GM): Orc A takes 7 hits")
    assert t.n == 3, t.n  # before: 5 (Attack, tick Line of sight, Roll and attack, Hits, Apply)

    # -- round 2: at Orc B, Bran stands in the line: the map cannot say; the GM answers once ------
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("reload", "0", ""), ("ranged_attack", "0", "c4")],
            "Bolt declares: Reload a missile weapon with Light crossbow (Ranged B, half), "
            "Ranged attack with Light crossbow on Orc B (Ranged B, full)")
    to(page, "Ranged B")  # the Quick Load reload did itself as Ranged B began
    expect(page.locator("#log")).to_contain_text("Bolt: Light crossbow loaded (Half Action, Quick Load)")
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")).click()
    sight = form.get_by_label("Line of sight (ranged)")
    expect(sight).not_to_be_checked()
    expect(form.locator("[data-odds]")).to_contain_text("No odds")
    sight.check()  # the GM's answer: Bolt sees Orc B past Bran
    form.get_by_role("button", name="Attack", exact=True).click()
    expect(pending(page, "A2")).to_have_count(1)
    pending(page, "A2").get_by_role("button", name="Dismiss A2").click()

    # -- round 3: the same shot starts from the GM's last answer ---------------------------------
    to(page, "Assessment")
    to(page, "Declaration")
    declare(page, "c1", [("reload", "0", ""), ("ranged_attack", "0", "c4")], "Bolt declares")
    to(page, "Ranged B")
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")).click()
    expect(sight).to_be_checked()
    expect(form.locator("[data-odds]")).not_to_contain_text("No odds")

    # -- with a critical: counted, for the report ------------------------------------------------
    t = Taps(page)
    t.tap(form.get_by_role("button", name="Attack", exact=True))
    box = pending(page, "A3")
    t.type(box.get_by_label("Hits"), "12")
    t.choose(box.get_by_label("Critical", exact=True), "B")
    t.tap(box.get_by_role("button", name="Apply result"))
    crit = pending(page, "A3")
    expect(crit.locator("form[data-form=tr-critical]")).to_have_count(1)
    t.type(crit.get_by_label("Extra hits"), "3")
    t.tap(crit.get_by_role("button", name="Apply critical"))
    expect(page.locator("#log")).to_contain_text("A3 critical on Orc B")
    # Attack (the line's, before this count), Attack, Critical, Apply, Extra hits, Apply critical
    assert t.n + 1 <= 6, t.n
    print(f"taps: an attack with Fray's dice 3 (before 5); with a critical {t.n + 1} (before 7 to 9)")


def declare_counted(t: Taps, form, action: str, weapon: str, target: str) -> None:
    """Declare one action as a GM does: choose the action, then the weapon and the target only where
    the form does not already show the ones wanted, then Declare."""
    t.choose(form.locator('[name="actions.0.action"]'), action)
    w, tg = form.locator('[name="actions.0.weapon"]'), form.locator('[name="actions.0.target"]')
    if w.input_value() != weapon:
        t.choose(w, weapon)
    if tg.input_value() != target:
        t.choose(tg, target)
    t.tap(form.locator("button[type=submit]"))


def test_declaring_an_attack_takes_two_taps(page, open_app, tmp_path):
    """Issue 33, "Declaring is the slow part": the Weapon started at "(no weapon)" and the Target at
    "(no target)" even for an attack, so each combatant took four taps (action, weapon, target,
    Declare). Chosen, an attack starts on the weapon that fits it and the nearest standing enemy,
    never an ally: two taps."""
    load(page, tmp_path, open_app=open_app, size=TABLET)
    to(page, "Assessment")
    to(page, "Declaration")
    counts = {}
    # Bolt shoots his loaded light crossbow at Orc A (10 m north; Orc B is as far: first added first)
    # Bran, a sword's reach from Bolt (his ally) and from Orc B, goes for Orc B; each orc for the nearest
    for cid, action, weapon, target, said in (
            ("c1", "ranged_attack", "0", "c2", "Bolt declares: Ranged attack with Light crossbow on Orc A (Ranged A, full)"),
            ("c3", "melee_attack", "0", "c4", "Bran declares: Melee attack with Broadsword on Orc B (Melee, full)"),
            ("c2", "melee_attack", "0", "c1", "Orc A declares: Melee attack with Scimitar on Bolt (Melee, full)"),
            ("c4", "melee_attack", "0", "c3", "Orc B declares: Melee attack with Scimitar on Bran (Melee, full)")):
        t = Taps(page)
        form = page.locator(f'form[data-form=tr-declare][data-id="{cid}"]')
        declare_counted(t, form, action, weapon, target)
        expect(page.locator("#log li").first).to_contain_text(said)
        counts[cid] = t.n
    assert counts == {"c1": 2, "c3": 2, "c2": 2, "c4": 2}, counts  # before: 4 each
    # what the engine holds: each declared at the target the form started on
    from gestures import tr_next
    tr_next(page)
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Ranged A")
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name=re.compile("^Attack")).click()
    expect(page.locator("#tr-att-target")).to_have_value("c2")
    tr_next(page)  # Bolt's shot left open: skipped
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")
    for cid, whom in (("c3", "Orc B"), ("c2", "Bolt"), ("c4", "Bran")):
        expect(page.locator(f'.tr-slot[data-id="{cid}"]')).to_contain_text(f"→ {whom}")
    print(f"taps to declare one attack: 2 (before 4): {counts}")
