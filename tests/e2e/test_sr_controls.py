"""Issue 10, "Every rule the engine knows, in the page": each strike-rank rule the engine automates has a
control in the page, driven here through the real page with typed dice, and each figure the page shows
is worked out by hand in the comment beside it. Also the page faults of "What was seen wrong in the page"
(armour error, wording, damage breakdown order, a bleeding wound shown as "ok", a stale parry list).

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

import json

from playwright.sync_api import expect
from gestures import (add_preset, card, click_and_log, new_encounter, open_add_dialog, photograph, set_controls,
                      sr_declare, sr_declare_form, sr_declared, sr_fill_declaration)
from test_strike_rank import WARRIOR, WOLF, advance, new_strike_rank

ARCHER = "Archer"


def add_custom(page, name: str, weapons: str, side: str = "party", extra: dict | None = None) -> None:
    """A combatant on the Human warrior's characteristics with its own weapons (the add dialog's
    Weapons box) and any other ruleset field in the JSON box (a mount)."""
    before = page.locator("#combatants .card").count()
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=WARRIOR)
    dlg.get_by_role("button", name="Use", exact=True).click()
    dlg.locator('[name="combatant.name"]').fill(name)
    dlg.locator('[name="combatant.side"]').select_option(side)
    dlg.locator('[name="sr_weapons"]').fill(weapons)
    if extra:
        box = dlg.locator('[name="combatant.extra"]')
        box.fill(json.dumps({**json.loads(box.input_value()), **extra}))
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(before + 1)


def shots(page, name: str) -> None:
    """Screenshots of the screen as it is now, at tablet and laptop size, to look at: only when
    ``FRAY_SHOTS`` names a folder (not in the repo; a fresh machine or CI has no such folder)."""
    photograph(page, name, full_page=True)


def roll(page, rolls: dict[str, str], defence: str = "none", shot: str = "", **fields: str) -> None:
    """Roll the exchange in the attack panel with typed dice; ``fields`` are its Circumstances."""
    form = page.locator("form[data-form=sr-attack]")
    expect(form).to_have_count(1)
    form.locator('[name="defence.kind"]').select_option(defence)
    if fields:
        form.locator(".sr-circumstances > summary").click()
    set_controls(form, fields)
    set_controls(form, {f"rolls.{k}": v for k, v in rolls.items()})
    if shot:
        shots(page, shot)
    click_and_log(page, form.get_by_role("button", name="Roll the exchange"))


def start(page, open_app, name: str, size=(1366, 900), party: tuple[str, ...] = (), foes: tuple[str, ...] = ()) -> None:
    """A new strike-rank encounter; with ready-made ``party`` and ``foes`` added, at Declare."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_app(page)
    new_strike_rank(page, name)
    for preset in party:
        add_preset(page, preset, "party")
    for i, preset in enumerate(foes):  # the first within engagement range (3 m), the rest behind it
        add_preset(page, preset, at=(3, -3 * i))
    if party or foes:
        advance(page, "Declare")


def declare_charge(page, cid: str, weapon: str, target: str, metres: str, ticks: tuple[str, ...], shows: str) -> None:
    """A charge declared from the "More" fold-out: weapon, target and the metres run."""
    sr_declare(page, cid, {"weapon": weapon, "target": target, "metres": metres}, shows, ticks, more=True)


def test_shots_field_declares_every_s_mr_shot_and_the_form_closes(page, open_app):
    """Ranged Combat, "S/MR: multiple shots": the Archer (DEX 15 → DEX SR 2) declares 2 shots with the composite
    bow at once: SR 2 = DEX 2, then SR 7 = DEX 2 + prepare 3 + DEX 2. The finished form folds shut."""
    start(page, open_app, "Two arrows", (768, 1024), party=(ARCHER,), foes=(WOLF,))
    sr_declare(page, "c1", {"kind": "missile", "shots": "2"}, "SR 7 = DEX 2 + prepare 3 + DEX 2", more=True)
    expect(sr_declared(page, "c1")).to_have_count(2)
    expect(sr_declared(page, "c1").nth(0)).to_contain_text("SR 2 = DEX 2")
    # "a finished declaration form closes": the Archer's is shut, the wolf's open and in view
    expect(sr_declare_form(page, "c1")).to_be_hidden()
    expect(page.locator('.sr-who[data-id="c1"] .sr-declare-fold > summary')).to_have_text(
        "Declare another action for Archer")
    expect(sr_declare_form(page, "c2").locator('[name="kind"]')).to_be_visible()
    shots(page, "declare-shots")


def test_second_weapons_attack(page, open_app):
    """Fighting with Two Weapons: the extra weapon attacks a full SR later. Shortsword SR 6 = DEX 3 + SIZ 2 +
    weapon 1; the main-gauche then SR 11 = 6 + its own full SR 5 (DEX 3 + SIZ 2 + weapon 0)."""
    start(page, open_app, "Two blades")
    add_custom(page, "Duellist", "Shortsword, 60, 1D6+1, 1, 10, impaling\nMain-gauche, 50, 1D4+1, 0, 6, impaling")
    add_preset(page, WOLF, at=(3, 0))
    advance(page, "Declare")
    form = sr_fill_declaration(page, "c1", {"weapon": "shortsword", "extra_weapon": "main_gauche"}, more=True)
    shots(page, "declare-more")
    form.get_by_role("button", name="Declare").click()
    expect(sr_declared(page, "c1")).to_have_count(2)
    expect(sr_declared(page, "c1").nth(0)).to_contain_text("SR 6 = DEX 3 + SIZ 2 + weapon 1")
    expect(sr_declared(page, "c1").nth(1)).to_contain_text("with Main-gauche")
    expect(sr_declared(page, "c1").nth(1)).to_contain_text("SR 11 = DEX 3 + SIZ 2 + weapon 1 + Main-gauche 5")


def test_charge_and_charging_past(page, open_app):
    """Charging ("running at double Movement rate") and Charging Past ("if the attack's SR is before the
    target's earliest attack SR the charger moves on"): the wolf charges 9 m past the warrior, SR 4 = DEX 1 +
    SIZ 1 + weapon 1 + move 1 (running), before the warrior's SR 7: it keeps moving."""
    start(page, open_app, "Wolf runs past", party=(WARRIOR,), foes=(WOLF,))
    declare_charge(page, "c2", "bite", "c1", "9", ("Charge (runs", "Charge past"),
                   "SR 4 = DEX 1 + SIZ 1 + weapon 1 + move 1")
    expect(sr_declared(page, "c2")).to_contain_text("charging charging past")
    sr_declare(page, "c1", {"weapon": "broadsword"}, "SR 7")
    advance(page, "Resolve SR 4")
    roll(page, {"attack": "20", "location": "3", "damage": "1 1"})
    expect(page.locator("#log")).to_contain_text("charges past at SR 4, before Human warrior's earliest SR 7: "
                                                 "keeps moving freely")


def test_bracing_for_a_charge(page, open_app):
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement
    (ignoring DEX SR and SIZ SR)": the wolf charges 9 m (move SR 1); the braced spear strikes at SR 2 = weapon 1
    + charge 1."""
    start(page, open_app, "Spear braced")
    add_custom(page, "Pikeman", "Spear, 60, 1D8+1, 1, 10, impaling, spear")
    add_preset(page, WOLF)
    advance(page, "Declare")
    declare_charge(page, "c2", "bite", "c1", "9", ("Charge (runs",), "SR 4")
    sr_declare(page, "c1", {"weapon": "spear", "brace_against": "c2"},
               "SR 2 = weapon 1 + charge 1 (braced: no DEX or SIZ SR)", more=True)
    expect(sr_declared(page, "c1")).to_contain_text("braced")


def test_mounted_charge_and_the_riders_hit_location(page, open_app):
    """Mounted Charge & Lance ("the weapon's SR + the SR required for the movement ... the mount's damage bonus")
    and Mounted Hit Locations ("A mounted combatant rolls 1D10+10 ... against combatants on foot"), derived from
    the rider's mount with no box ticked: 24 m on the horse (8 m/SR running: move 2) → SR 3 = weapon 1 + move 2;
    location 3 + 10 = 13, the right arm. The damage breakdown follows its formula: 1D10+1+1D6 = 1+1+1."""
    start(page, open_app, "Lance charge")
    add_preset(page, WOLF, "party")  # the mount, c1
    add_custom(page, "Rider", "Lance, 60, 1D10+1, 1, 10, impaling, lance", extra={"mount": "c1"})
    add_preset(page, WARRIOR, at=(3, 0))
    advance(page, "Declare")
    declare_charge(page, "c2", "lance", "c3", "24", ("Mounted charge",),
                   "SR 3 = weapon 1 + move 2 (mounted charge: no DEX or SIZ SR)")
    advance(page, "Resolve SR 3")
    roll(page, {"attack": "20", "location": "3", "damage": "1 1"})
    log = page.locator("#log")
    expect(log).to_contain_text("hit location 1D10+10 (melee) = 13: Right arm")
    expect(log).to_contain_text("1D10+1+1D6 = 1+1+1 = 3 (typed) (damage modifier of Great wolf (four-legged))")
    expect(log).to_contain_text("Right arm 4/4 unhurt")  # AP 3 stops it: the card's word, not "none"


def test_mounted_vs_foot_can_be_switched_off(page, open_app):
    """Mounted Hit Locations: the GM's "No" in the attack panel keeps the plain 1D20 for a rider's blow."""
    start(page, open_app, "Rider on foot")
    add_preset(page, WOLF, "party")
    add_custom(page, "Rider", "Lance, 60, 1D10+1, 1, 10, impaling, lance", extra={"mount": "c1"})
    add_preset(page, WARRIOR, at=(3, 0))
    advance(page, "Declare")
    sr_declare(page, "c2", {"weapon": "lance", "target": "c3"}, "SR 6")
    advance(page, "Resolve SR 6")
    roll(page, {"attack": "20", "location": "3", "damage": "1 1"}, mounted_vs_foot="no")
    expect(page.locator("#log")).to_contain_text("hit location 1D20 (melee) = 3: Right leg")


def test_two_combatants_closing_on_each_other(page, open_app):
    """Movement: "If two combatants move to engage each other, add up their movement rates": the wolf (8 m/SR) and
    the warrior (3 m/SR) close 18 m at 11 m/SR: move SR 2 instead of 3."""
    start(page, open_app, "Closing", party=(WARRIOR,), foes=(WOLF,))
    sr_declare(page, "c2", {"kind": "move", "target": "c1", "metres": "18"},
               "SR 2 = move 2 (closes 18 m at 11 m a strike rank, closing together: +2 SR)", ("Closing on each other",),
               more=True)


def test_continuing_a_longer_move(page, open_app):
    """Movement: "On the MR a character begins a longer movement, they can only move ([12 - DEX SR] × Movement
    rate) meters": the warrior (DEX SR 3, 3 m/SR) may start 27 m, so 36 m is refused at the form and nothing is
    declared; More → "Continuing last MR's move" allows 12 × rate = 36 m."""
    start(page, open_app, "Long move", party=(WARRIOR,), foes=(WOLF,))
    form = sr_fill_declaration(page, "c1", {"kind": "move", "metres": "36"}, more=True)
    form.get_by_role("button", name="Declare").click()
    expect(form).to_contain_text("at most 27")
    expect(sr_declared(page, "c1")).to_have_count(0)
    expect(form.locator('[name="shots"]')).to_be_visible()  # the refusal left the form, More open, as it was
    sr_declare(page, "c1", {"kind": "move", "metres": "36"}, "36 m", ("Continuing last MR's move (up to 12 × rate)",))


def test_other_action_with_a_label_and_an_sr_cost(page, open_app):
    """Other Actions: "most are begun at DEX SR (plus any movement required)" and take their own time:
    lighting a torch, 3 SR, at SR 6 = DEX 3 + Light a torch 3, shown by its label."""
    start(page, open_app, "Torch", (768, 1024), party=(WARRIOR,), foes=(WOLF,))
    form = sr_fill_declaration(page, "c1", {"kind": "other", "label": "Light a torch", "sr_cost": "3"}, more=True)
    shots(page, "declare-other")
    form.get_by_role("button", name="Declare").click()
    expect(sr_declared(page, "c1")).to_contain_text("Other “Light a torch”")
    expect(sr_declared(page, "c1")).to_contain_text("SR 6 = DEX 3 + Light a torch 3")


def test_defenders_own_bonus_on_a_parry(page, open_app):
    """Fighting: "multipliers → split → bonuses": the warrior's own +10 on the shield parry: 55% → +10 = 65%,
    and the log says "parries" (issue 10: "parrys")."""
    start(page, open_app, "Shield up", party=(WARRIOR,), foes=(WOLF,))
    sr_declare(page, "c2", {"weapon": "bite", "target": "c1"}, "SR 3")
    advance(page, "Resolve SR 3")
    att = page.locator("form[data-form=sr-attack]")
    att.locator('[name="defence.weapon"]').select_option("medium_shield")
    roll(page, {"attack": "20", "defence": "90", "location": "3", "damage": "1 1"}, defence="parry",
         shot="attack-circumstances", **{"defence.bonus": "10"})
    expect(page.locator("#log")).to_contain_text("Human warrior parries with Medium shield: 55% → +10 = 65%, "
                                                 "rolled 90: failure")


def test_bleeding_con_tests_typed_by_the_gm(page, open_app):
    """Damage Equal to Location HP: "Chest, Abdomen: Combatant must make a CON test at the end of each MR or
    lose 1 total HP": 5 to the abdomen (5 HP) bleeds; the card says so instead of "ok"; the GM's typed 80 is
    the test (CON 12 × 5 = 60%: failure) on the Next that ends the round: 8 − 1 = 7 HP."""
    start(page, open_app, "Bleeding", (768, 1024))
    add_preset(page, WARRIOR, "party")
    add_preset(page, WOLF)
    c = card(page, WARRIOR)
    c.locator("summary", has_text="Damage / First Aid").click()
    dmg = c.locator("form[data-form=sr-damage]")
    dmg.locator('[name="location"]').select_option("abdomen")
    dmg.locator('[name="amount"]').fill("5")
    dmg.locator('[name="armour"]').uncheck()
    dmg.get_by_role("button", name="Apply damage").click()
    expect(c.locator(".sr-hp")).to_contain_text("HP 8/13")
    expect(c.locator(".sr-hp .sr-status")).to_have_text("bleeding: Abdomen")
    advance(page, "Declare")
    advance(page, "Resolve")
    bleed = page.locator("form[data-form=sr-bleed]")
    expect(bleed).to_contain_text("Human warrior, Abdomen: CON 60% d100")
    bleed.locator('[name="rolls.bleed.c1.abdomen"]').fill("x")
    bleed.get_by_role("button", name="End the Melee Round").click()
    expect(bleed.locator('[data-error-for="rolls.bleed.c1.abdomen"]')).to_contain_text("type one d100 roll, 1-100, not x")
    bleed.locator('[name="rolls.bleed.c1.abdomen"]').fill("80")
    shots(page, "bleed")
    page.locator("#round-bar [data-act=advance]").click()  # Next carries the typed roll too
    expect(page.locator("#log")).to_contain_text("Abdomen: CON×5 rolled 80, failure: loses 1 HP")
    expect(c.locator(".sr-hp")).to_contain_text("HP 7/13")
    expect(page.locator(".sr-phase")).to_contain_text("Melee Round 2")


def test_armour_error_lands_under_armour_points(page, open_app):
    """Issue 10: armour "4, legs 2" named "armour.4" under the JSON box; now under Armour points in the form's
    words, and an unknown location lists the body's own names. Nothing is added."""
    start(page, open_app, "Armour", (768, 1024))
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=WARRIOR)
    dlg.get_by_role("button", name="Use", exact=True).click()
    dlg.locator('[name="sr_armour"]').fill("4, legs 2")
    dlg.get_by_role("button", name="Add", exact=True).click()
    slot = dlg.locator('[data-error-for="combatant.armour"]')
    expect(slot).to_contain_text("“4” has no hit location")
    expect(dlg.locator('[data-error-for="combatant.extra"]')).to_have_text("")
    shots(page, "add-armour")
    dlg.locator('[name="sr_armour"]').fill("head 4, legs 2")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(slot).to_contain_text("Legs: not a hit location of this body (Right leg, Left leg, Abdomen, Chest, "
                                 "Right arm, Left arm, Head)")
    expect(page.locator("#combatants .card")).to_have_count(0)


def test_new_target_redraws_the_parry_list(page, open_app):
    """Issue 10: the refusal showed "medium_shield" after the Target changed: the attack panel now redraws for the
    new target, so "Parry with" offers the archer's weapons, and the exchange goes through. (The attack is
    declared on no one: another target than a declared one is a change, "Changing your declared action during a
    MR delays action by the combatant's DEX SR", tests/e2e/test_sr_declared_target.py.)"""
    start(page, open_app, "New target", party=(WARRIOR,), foes=(WOLF, ARCHER))
    sr_declare(page, "c1", {"weapon": "broadsword", "target": ""}, "SR 7")
    advance(page, "Resolve SR 7")
    att = page.locator("form[data-form=sr-attack]")
    att.locator('[name="target"]').select_option("c2")
    # the wolf has no parrying weapon (Unarmed Parries: a bite does not parry): it dodges, and no empty
    # "Parry with: (no weapon)" is offered (a GM's play-through)
    expect(att.locator('[name="defence.weapon"]')).to_have_count(0)
    expect(att).not_to_contain_text("Parry with")
    expect(att.locator('[name="defence.kind"]')).to_have_value("dodge")
    att.locator('[name="target"]').select_option("c3")
    expect(att.locator('[name="defence.weapon"]')).to_contain_text("Dagger")
    expect(att.locator('[name="defence.weapon"]')).not_to_contain_text("Bite")
    roll(page, {"attack": "90", "defence": "90"}, defence="parry")
    expect(page.locator("#log")).to_contain_text("Archer parries with")


def test_tactical_round_add_hint_and_table_sources_in_words(page, open_app):
    """Issue 10: the tactical-round add form spoke of "armour, body" it does not have; a table's source read
    "FACTS.md"."""
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Hint", "tactical-round", "Tactical round (CMB vs DEF)")
    dlg = open_add_dialog(page)
    expect(dlg).to_contain_text("Weapons, the one in hand and hits taken, as written in a Fray file")
    expect(dlg).not_to_contain_text("armour")
    dlg.get_by_role("button", name="Cancel").click()
    page.locator("#btn-tables").click()
    source = page.locator("#dlg-body p.hint", has_text="From:").first  # the JSON below keeps the file name
    expect(source).to_contain_text("From: public material: <=4 critical failure")
    expect(source).not_to_contain_text("FACTS.md")


def test_magical_protection_is_set_on_the_card(page, open_app):
    """Results: "Critical Hit: Special damage, ignores armor (but not magical protection)": the GM types a
    spell's points on the card (kept apart from the armour); a slip is named at its field and changes nothing;
    0 ends it."""
    start(page, open_app, "Protection", (768, 1024), party=(WARRIOR,), foes=(WOLF,))
    c = card(page, WARRIOR)
    c.locator("summary", has_text="Damage / First Aid").click()
    prot = c.locator("form[data-form=sr-protection]")
    prot.locator('[name="points"]').fill("two")
    prot.get_by_role("button", name="Set magical protection").click()
    expect(prot.locator('[data-error-for="points"]')).to_contain_text("whole number from 0 to 30")
    expect(c.locator(".sr-derived")).not_to_contain_text("Magical protection")
    prot.locator('[name="points"]').fill("2")
    prot.locator('[name="reason"]').fill("Protection <b>2</b>")
    click_and_log(page, prot.get_by_role("button", name="Set magical protection"))
    expect(page.locator("#log")).to_contain_text("Human warrior has magical protection 2 (Protection <b>2</b>) "
                                                 "at every location")
    expect(c.locator(".sr-derived")).to_contain_text(
        "Magical protection 2 at every location (Protection <b>2</b>); a critical does not ignore it")
    assert c.locator(".sr-derived b").count() == 0  # the GM's text is text, not markup
    shots(page, "protection")
    c = card(page, WARRIOR)
    prot = c.locator("form[data-form=sr-protection]")
    prot.locator('[name="points"]').fill("0")
    click_and_log(page, prot.get_by_role("button", name="Set magical protection"))
    expect(page.locator("#log")).to_contain_text("Human warrior's magical protection (2) ends")
    expect(c.locator(".sr-derived")).not_to_contain_text("Magical protection")


def test_a_stale_declaration_error_goes_when_the_target_changes(page, open_app):
    """A GM's play-through: an attack on a far target is refused ("Attacks cannot "roll over": SR 17
    = … + move 7 is past SR 12", Attacking), and the error kept showing after another target was
    picked, until Declare was pressed. An error goes when the field it is about changes (web/messages
    on_edit); one about another field stays."""
    start(page, open_app, "Far and near")
    add_preset(page, WARRIOR, "party")
    add_preset(page, WARRIOR, "foes", at=(3, 0))
    add_preset(page, WARRIOR, "foes", at=(40, 0))
    advance(page, "Declare")
    form = sr_fill_declaration(page, "c1", {"weapon": "broadsword", "target": "c3"})
    form.get_by_role("button", name="Declare").click()
    errors = form.locator(".field-error:not(:empty)")
    expect(errors).to_have_count(1)
    expect(errors).to_contain_text("past SR 12")
    form.locator('[name="target"]').select_option("c2")
    expect(errors).to_have_count(0)
    form.get_by_role("button", name="Declare").click()
    expect(sr_declared(page, "c1")).to_contain_text("SR 7")
