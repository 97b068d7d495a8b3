"""The strike-rank page beyond the plain exchange (issue 3): GM prompts answered with typed dice,
First Aid / magical / natural healing on the card, freeing a stuck weapon, aborting a spell,
the attack panel's Circumstances, disengaging and grappling. Each step waits on what the page
shows; typed dice make every number hand-checked."""

from __future__ import annotations

from playwright.sync_api import expect
from test_strike_rank import WARRIOR, WOLF, add_preset, advance, card, declare, loc, new_strike_rank

ARCHER = "Archer"


def answer(page, choice: str, rolls: dict[str, str] | None = None):
    form = page.locator("form[data-form=sr-prompt]").first
    expect(form).to_be_visible()
    for k, v in (rolls or {}).items():
        form.locator(f'[name="rolls.{k}"]').fill(v)
    n = page.locator("#log li").count()
    form.get_by_role("button", name=choice).click()
    expect(page.locator("#log li")).not_to_have_count(n)


def test_impale_prompts_and_unstick_answered_through_the_page(page, open_app):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_strike_rank(page, "Dagger in the chest")
    add_preset(page, WARRIOR, "party")
    add_preset(page, ARCHER, at=(3, 0))  # within engagement range (3 m) from the start
    advance(page, "Declare")
    declare(page, "c2", "dagger", "c1", "SR 7")
    advance(page, "Resolve SR 7")
    att = page.locator("form[data-form=sr-attack]")
    att.locator('[name="defence.kind"]').select_option("none")
    # Dagger 40%: 5 is a special; impaling doubles the dice: 2D4+4 = 3+3+4 = 10 − AP 3 = 7 to the chest (12)
    for k, v in (("attack", "5"), ("location", "12"), ("damage", "3 3")):
        att.locator(f'[name="rolls.{k}"]').fill(v)
    att.get_by_role("button", name="Roll the exchange").click()
    expect(loc(page, WARRIOR, "chest").locator(".hp")).to_have_text("-1/6 HP")
    expect(loc(page, WARRIOR, "chest")).to_contain_text("impaled: Dagger")
    # the attacker's immediate question: free it at half skill (20%) with a typed 90: fails
    prompt = page.locator("form[data-form=sr-prompt]")
    expect(prompt).to_contain_text("Archer may free Dagger")
    prompt.locator('[name="rolls.pull"]').fill("abc")
    prompt.get_by_role("button", name="Free it now").click()
    expect(prompt.locator('[data-error-for="rolls.pull"]')).to_contain_text("type one d100 roll, 1-100, not abc")
    answer(page, "Free it now", {"pull": "90"})
    expect(page.locator("#log")).to_contain_text("rolled 90")
    expect(page.locator("form[data-form=sr-prompt]")).to_have_count(0)
    # later attempts from the card of the one it is stuck in: CON×3% = 36, typed 95 fails
    stuck = card(page, WARRIOR).locator("form[data-form=sr-unstick]")
    expect(stuck).to_contain_text("Dagger (Archer)")
    stuck.locator('[name="method"]').select_option("con")
    stuck.locator('[name="rolls.test"]').fill("95")
    stuck.get_by_role("button", name="Try to free Dagger").click()
    expect(page.locator("#log")).to_contain_text("(attempt 1)")
    # end of the round: "did they move or fight?" yes, typed 1D4+2 = 2+2 = 4, half = 2 → -3/6
    advance(page, "End of round")
    expect(page.locator("form[data-form=sr-prompt]")).to_contain_text("stuck in the Chest")
    answer(page, "Moved or fought", {"impale_damage": "2"})
    expect(loc(page, WARRIOR, "chest").locator(".hp")).to_have_text("-3/6 HP")
    expect(page.locator("#log")).to_contain_text("impaled Dagger: half of 4")


def test_first_aid_and_healing_on_the_card(page, open_app):
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    new_strike_rank(page, "Patch up")
    add_preset(page, WARRIOR, "party")
    add_preset(page, WOLF, at=(3, 0))  # within engagement range (3 m) from the start
    c = card(page, WARRIOR)
    c.locator("summary", has_text="Damage / First Aid").click()
    dmg = c.locator("form[data-form=sr-damage]")
    dmg.locator('[name="location"]').select_option("right_leg")
    dmg.locator('[name="amount"]').fill("4")
    dmg.get_by_role("button", name="Apply damage").click()
    expect(loc(page, WARRIOR, "right_leg").locator(".hp")).to_have_text("3/5 HP")
    # First Aid 30%: 10 is a success; a minor wound heals 1D3, typed 2 → 5/5
    aid = c.locator("form[data-form=sr-first-aid]")
    aid.locator('[name="location"]').select_option("right_leg")
    aid.locator('[name="rolls.first_aid"]').fill("10")
    aid.locator('[name="rolls.heal"]').fill("2")
    aid.get_by_role("button", name="First Aid").click()
    expect(loc(page, WARRIOR, "right_leg").locator(".hp")).to_have_text("5/5 HP")
    expect(loc(page, WARRIOR, "right_leg")).to_contain_text("first aid given")
    # once per injury: the refusal shows in the form
    aid = c.locator("form[data-form=sr-first-aid]")
    aid.locator('[name="location"]').select_option("right_leg")
    aid.get_by_role("button", name="First Aid").click()
    expect(aid).to_contain_text("has no injury First Aid can treat")
    # magical healing: the left arm takes 6 − AP 3 = 3 (1/4); Heal 2 → 3/4
    dmg = c.locator("form[data-form=sr-damage]")
    dmg.locator('[name="location"]').select_option("left_arm")
    dmg.locator('[name="amount"]').fill("6")
    dmg.get_by_role("button", name="Apply damage").click()
    expect(loc(page, WARRIOR, "left_arm").locator(".hp")).to_have_text("1/4 HP")
    heal = c.locator("form[data-form=sr-heal]")
    heal.locator('[name="location"]').select_option("left_arm")
    heal.locator('[name="points"]').fill("x")
    heal.get_by_role("button", name="Heal").click()
    expect(heal.locator('[data-error-for="points"]')).to_contain_text("0 to 100")
    heal.locator('[name="points"]').fill("2")
    heal.get_by_role("button", name="Heal").click()
    expect(loc(page, WARRIOR, "left_arm").locator(".hp")).to_have_text("3/4 HP")
    # natural healing for a day, treated: HR 2 (CON 12) + 1 for a successful treatment (typed 10) → 4/4
    nat = c.locator("form[data-form=sr-natural-healing]")
    nat.locator('[name="period"]').select_option("day")
    nat.locator('[name="healer"]').select_option("c1")
    nat.locator('[name="rolls.treatment"]').fill("10")
    nat.get_by_role("button", name="Natural healing").click()
    expect(loc(page, WARRIOR, "left_arm").locator(".hp")).to_have_text("4/4 HP")
    expect(page.locator("#log")).to_contain_text("+1 HR")


def test_abort_circumstances_disengage_and_grapple(page, open_app):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_strike_rank(page, "Change of plan")
    add_preset(page, WARRIOR, "party")
    add_preset(page, WOLF, at=(3, 0))  # within engagement range (3 m) from the start
    advance(page, "Declare")
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    form.locator('[name="kind"]').select_option("spell")
    form.locator('[name="spell"]').select_option(index=1)
    form.locator("button[type=submit]").click()
    expect(page.locator('.sr-who[data-id="c1"] .sr-decl')).to_contain_text("Cast a spell")
    form = page.locator('form[data-form=sr-declare][data-id="c2"]')
    form.locator('[name="target"]').select_option("c1")
    form.locator("button[type=submit]").click()
    advance(page, "Resolve SR 3")
    # the wolf's bite with soft cover (½ skill) from the Circumstances fold-out
    att = page.locator("form[data-form=sr-attack]")
    att.locator("summary", has_text="Circumstances").click()
    att.get_by_label("Soft cover").check()
    att.locator('[name="defence.kind"]').select_option("none")
    # the caster is hurt: INT×3 = 36%, typed 15 keeps the spell
    for k, v in (("attack", "20"), ("location", "1"), ("damage", "3"), ("wound.concentration", "15")):
        att.locator(f'[name="rolls.{k}"]').fill(v)
    att.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator(".sr-result")).to_contain_text("soft cover")
    expect(page.locator(".sr-result")).to_contain_text("rolled 15, success: keeps casting")
    # the warrior aborts the spell for a parry / dodge stance, from the folded SR order
    page.locator(".sr-order-fold > summary").click()
    row = page.locator(".sr-order li", has=page.locator("strong", has_text=WARRIOR))
    row.locator(".sr-abort > summary").click()
    ab = row.locator("form[data-form=sr-abort]")
    ab.locator('[name="kind"]').select_option("defend")
    ab.get_by_role("button", name="Abort and do this").click()
    expect(page.locator("#log")).to_contain_text("aborts spell")
    # disengaging and grappling from the card
    c = card(page, WARRIOR)
    c.locator("summary", has_text="Disengage / grapple").click()
    g = c.locator("form[data-form=sr-grapple]")
    g.locator('[name="option"]').select_option("immobilize")
    g.get_by_role("button", name="Grapple").click()
    expect(g).to_contain_text("has no hold")
    # the fold-out stayed open through the re-render
    expect(c.locator("details.sr-fight")).to_have_attribute("open", "")
    d = c.locator("form[data-form=sr-disengage]")
    d.locator('[name="how"]').select_option("retreat")
    d.get_by_role("button", name="Disengage").click()
    expect(page.locator("#log")).to_contain_text("fighting retreat")


def test_a_fold_out_drawn_as_it_opens_keeps_what_was_typed_around_it(page, open_app):
    """Issue 11 ("one action ... re-render" fast at 30 combatants): an attack form's Circumstances
    and a card's Damage / First Aid and Disengage / grapple fold-outs hold no fields until they
    first open, and are drawn then (so is a declaration's "More"). Drawing one redraws the form or
    card holding it, so what the GM had typed there must stay (issue 10: "what is typed in the attack forms survives their
    redrawing"), and the keyboard's focus stays on the summary just opened."""
    from test_sr_controls import start

    start(page, open_app, "Typed, then opened", party=(WARRIOR,), foes=(WOLF,))
    # a declaration's "More" (drawn when it opens, last session) redrew the form it sits in and
    # dropped what was typed above it
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    form.locator('[name="metres"]').fill("3")
    form.locator('[name="running"]').check()
    form.locator(".sr-decl-more > summary").click()
    expect(form.locator('[name="shots"]')).to_be_visible()
    expect(form.locator('[name="metres"]')).to_have_value("3")
    expect(form.locator('[name="running"]')).to_be_checked()
    form.locator('[name="running"]').uncheck()
    form.locator('[name="metres"]').fill("")
    for cid, target in (("c1", "c2"), ("c2", "c1")):
        form = page.locator(f'form[data-form=sr-declare][data-id="{cid}"]')
        form.locator('[name="target"]').select_option(target)
        form.locator("button[type=submit]").click()
        expect(page.locator(f'.sr-who[data-id="{cid}"] .sr-decl')).to_have_count(1)
    advance(page, "Resolve SR")
    att = page.locator("form[data-form=sr-attack]").first
    expect(att.locator('[name="cover.soft"]')).to_have_count(0)  # shut and never opened: no fields
    att.locator('[name="defence.kind"]').select_option("none")
    att.locator('[name="rolls.attack"]').fill("20")
    att.locator('[name="bonus"]').fill("5")
    att.locator(".sr-circumstances > summary").click()
    expect(att.get_by_label("Soft cover")).to_be_visible()
    expect(att.locator('[name="rolls.attack"]')).to_have_value("20")
    expect(att.locator('[name="bonus"]')).to_have_value("5")
    expect(att.locator('[name="defence.kind"]')).to_have_value("none")
    assert page.evaluate("document.activeElement.id").startswith("fold-circ-")
    # the card of the one acting: grapple fields typed, then the care fold-out opened
    c = page.locator("#combatants .card.current")
    expect(c.locator("form[data-form=sr-grapple]")).to_have_count(0)
    c.locator("summary", has_text="Disengage / grapple").click()
    g = c.locator("form[data-form=sr-grapple]")
    g.locator('[name="option"]').select_option("immobilize")
    g.locator('[name="substitute"]').fill("60")
    expect(c.locator("form[data-form=sr-damage]")).to_have_count(0)
    c.locator("summary", has_text="Damage / First Aid").click()
    expect(c.locator("form[data-form=sr-damage]")).to_be_visible()
    expect(g.locator('[name="option"]')).to_have_value("immobilize")
    expect(g.locator('[name="substitute"]')).to_have_value("60")
    assert page.evaluate("document.activeElement.id").startswith("fold-care-")
    # and the roll still reads the form as typed: attack 20 against 5% + skill, no defence
    for k, v in (("location", "1"), ("damage", "3")):
        att.locator(f'[name="rolls.{k}"]').fill(v)
    n = page.locator("#log li").count()
    att.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator("#log li")).not_to_have_count(n)
    expect(page.locator(".sr-result")).to_contain_text("rolled 20")
