"""What a GM met playing whole fights on an iPad's screen (768x1024; the WebKit lane plays the
same fights in the iPad's engine, tests/webkit/): each test here is a defect found there, shown in
Chromium where it shows in both. Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from playwright.sync_api import expect

from gestures import add_preset, sr_declare
from test_sr_crossbow import crossbow_shot_once
from test_strike_rank import advance, new_strike_rank
from test_tactical_round import advance_to, declare

TABLET = {"width": 768, "height": 1024}


def test_a_crossbow_not_loaded_again_starts_its_declaration_at_the_reload(page, open_app):
    """Strike-rank, "Ranged Combat": a heavy crossbow fires 1/3MR; the MR after its shot the
    crossbowman's declaration form offered "Missile attack" first, and Declare was refused ("Heavy
    crossbow is not loaded (1/3MR): spend the MR reloading"), every other round, for every
    crossbowman. The form starts at the reload, and one tap declares it."""
    page.set_viewport_size(TABLET)
    open_app(page)
    crossbow_shot_once(page)
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    expect(form.locator('[name="kind"]')).to_have_value("reload")
    form.get_by_role("button", name="Declare").click()
    expect(page.locator('.sr-who[data-id="c1"] .sr-decl')).to_contain_text("Reload with Heavy crossbow")
    expect(form.locator("[data-error-for]:not(:empty)")).to_have_count(0)


def test_a_refused_declaration_says_why_below_the_sticky_head(page, open_app):
    """Tactical-round on a tablet: the round bar, the order strip and the acting line stick to the
    top (some 200 px); a declaration the rules refuse says why at the top of its form. The GM taps
    "Declare for ..." at the form's bottom, with its top under that head: the words were written
    where nobody could read them. They come into view, below the head."""
    from gestures import new_encounter

    page.set_viewport_size(TABLET)
    open_app(page)
    new_encounter(page, "Bridge fight", "tactical-round", "Tactical round (CMB vs DEF)")
    add_preset(page, "Swordsman with shield", "party")  # c1
    add_preset(page, "Orc warrior", "foes")  # c2
    for step in ("Assessment", "Declaration"):
        page.locator("#round-bar [data-act=advance]").click()
        expect(page.locator(".tr-stepper li.current")).to_contain_text(step)
    form = page.locator('form[data-form=tr-declare][data-id="c1"]')
    for row in ("0", "1"):  # two Full actions: "at most one Full and one Half action"
        form.locator(f'[name="actions.{row}.action"]').select_option("melee_attack")
        form.locator(f'[name="actions.{row}.weapon"]').select_option("0")
        form.locator(f'[name="actions.{row}.target"]').select_option("c2")
    page.get_by_role("button", name="Open all cards").click()  # a page long enough to scroll
    # the GM has scrolled to the button: the form's top lies under the sticky head
    button = form.get_by_role("button", name="Declare for Swordsman with shield")
    page.evaluate("""(f) => { const head = document.querySelector('.tracker-head').getBoundingClientRect().bottom;
        scrollBy(0, f.getBoundingClientRect().top - head + 40); }""", form.element_handle())
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    assert page.evaluate("(f) => f.getBoundingClientRect().top", form.element_handle()) < head
    assert button.bounding_box()["y"] + button.bounding_box()["height"] < TABLET["height"]
    button.click()
    error = form.locator("[data-error-for]:not(:empty)").first
    expect(error).to_contain_text("at most one Full and one Half action")
    box = error.bounding_box()
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    assert head <= box["y"] and box["y"] + box["height"] <= TABLET["height"], (head, box)
    # what the GM sees there is the error itself, not the head over it
    assert page.evaluate("""(e) => { const r = e.getBoundingClientRect();
        return e.contains(document.elementFromPoint(r.left + 5, r.top + r.height / 2)); }""", error.element_handle())


def dagger_fight_at_sr7(page, open_app) -> None:
    """On a tablet: an archer with a dagger and two warriors, all declared at SR 7, resolving."""
    page.set_viewport_size(TABLET)
    open_app(page)
    new_strike_rank(page, "Dagger in the chest")
    add_preset(page, "Human warrior", "party", at=(0, 0))  # c1
    add_preset(page, "Archer", "foes", at=(2, 0))  # c2
    add_preset(page, "Human warrior", "party", at=(2, 2))  # c3
    advance(page, "Declare")
    for cid, weapon, target in (("c2", "dagger", "c1"), ("c1", "broadsword", "c2"), ("c3", "broadsword", "c2")):
        sr_declare(page, cid, {"kind": "melee", "weapon": weapon, "target": target}, "SR 7")
    advance(page, "Resolve SR 7")


def test_a_question_the_exchange_raised_shows_before_the_next_attack(page, open_app):
    """Strike-rank on a tablet: an exchange that asks the GM something (here the impaling
    archer's "may free Dagger") while another attack waits at the same SR. The question was drawn
    below the next attack's form, its odds and the last exchange, some 1,200 px down: off the
    screen where the GM had just tapped "Roll the exchange". It comes before the next attack."""
    dagger_fight_at_sr7(page, open_app)
    page.evaluate("scrollTo(0, 0)")
    att = page.locator('form[data-form=sr-attack][data-attacker="c2"]')
    att.locator('[name="defence.kind"]').select_option("none")
    # Dagger 40%: 5 is a special, and a dagger impales: the attacker may free it at once
    for k, v in (("attack", "5"), ("location", "12"), ("damage", "3 3")):
        att.locator(f'[name="rolls.{k}"]').fill(v)
    att.get_by_role("button", name="Roll the exchange").click()
    prompt = page.locator("form[data-form=sr-prompt]")
    expect(prompt).to_contain_text("Archer may free Dagger")
    expect(page.locator("form[data-form=sr-attack]").first).to_be_visible()  # the next attack waits
    box = prompt.bounding_box()
    assert box["y"] + box["height"] <= TABLET["height"], f"the question is at {box['y']:.0f} px, off the screen"
    page.screenshot(path="/tmp/ipadplay-question.png")


def test_a_question_raised_while_scrolled_down_comes_into_view(page, open_app):
    """The same exchange with the GM scrolled down to the roll button (its form's top under the
    sticky head): the question drawn before that form was above the screen. It is brought below
    the head."""
    dagger_fight_at_sr7(page, open_app)
    page.get_by_role("button", name="Open all cards").click()  # a page long enough to scroll
    att = page.locator('form[data-form=sr-attack][data-attacker="c2"]')
    att.locator('[name="defence.kind"]').select_option("none")
    for k, v in (("attack", "5"), ("location", "12"), ("damage", "3 3")):
        att.locator(f'[name="rolls.{k}"]').fill(v)
    roll = att.get_by_role("button", name="Roll the exchange")
    scroll_to_tap(page, roll)
    roll.click()
    prompt = page.locator("form[data-form=sr-prompt]")
    expect(prompt).to_contain_text("Archer may free Dagger")
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    box = prompt.bounding_box()
    assert head <= box["y"] and box["y"] + box["height"] <= TABLET["height"], (head, box)


def tr_melee_attack_scrolled_down(page) -> None:
    """Tactical-round at 768x1024: a swordsman (c1) and an orc (c2), the swordsman's melee attack
    A1 rolled (typed 70) with the GM scrolled down to the form's Attack button."""
    from gestures import new_encounter

    new_encounter(page, "Bridge fight", "tactical-round", "Tactical round (CMB vs DEF)")
    add_preset(page, "Swordsman with shield", "party", at=(0, 0))  # c1
    add_preset(page, "Orc warrior", "foes", at=(2, 0))  # c2
    for step in ("Assessment", "Declaration"):
        advance_to(page, step)
    declare(page, "c1", [("melee_attack", "0", "c2")], "Swordsman with shield declares: Melee attack")
    page.locator("#round-bar [data-act=advance]").click()
    page.locator("#tr-open").get_by_role("button", name="Go on without Orc warrior").click()
    expect(page.locator(".tr-stepper li.current")).to_contain_text("Melee")  # no one in Move .. Ranged A
    page.get_by_role("button", name="Open all cards").click()  # a page long enough to scroll
    page.locator('.tr-slot[data-id="c1"]').get_by_role("button", name="Attack").click()
    attack = page.locator("form[data-form=tr-attack]")
    attack.get_by_label("Open-ended d100").fill("70")
    button = attack.get_by_role("button", name="Attack", exact=True)
    scroll_under_head(page, button)
    button.click()


def scroll_under_head(page, loc) -> None:
    """Scroll so that ``loc`` sits just below the sticky head: what lies above it is under the head."""
    page.evaluate("""(b) => { const head = document.querySelector('.tracker-head').getBoundingClientRect().bottom;
        scrollBy(0, b.getBoundingClientRect().top - head - 10); }""", loc.element_handle())


def below_the_head(page, loc) -> None:
    head = page.evaluate("document.querySelector('.tracker-head').getBoundingClientRect().bottom")
    b = loc.bounding_box()
    assert head <= b["y"] and b["y"] < TABLET["height"], (head, b)


def test_an_attacks_result_box_shows_below_the_sticky_head(page, open_app):
    """Tactical-round on a tablet: the box where the GM types the Hits of the attack just rolled
    is drawn above the attack form and takes the focus. With the GM scrolled down to the form's
    Attack button it lay under the round bar, strip and acting line: focused, not seen. It comes
    below them."""
    page.set_viewport_size(TABLET)
    open_app(page)
    tr_melee_attack_scrolled_down(page)
    box = page.locator('.tr-pending[data-ref="A1"]')
    expect(box.get_by_label("Hits")).to_be_focused()
    below_the_head(page, box)


def test_a_critical_named_shows_its_box_below_the_sticky_head(page, open_app):
    """The GM names a critical in the result and applies it: the critical's box takes the
    result's place, its head (whose attack, which critical) under the sticky head when the GM had
    scrolled to the result's Apply button. It comes below the head."""
    page.set_viewport_size(TABLET)
    open_app(page)
    tr_melee_attack_scrolled_down(page)
    box = page.locator('.tr-pending[data-ref="A1"]')
    box.get_by_label("Hits").fill("8")
    box.get_by_label("Critical", exact=True).select_option("C")
    apply = box.get_by_role("button", name="Apply result")
    scroll_under_head(page, apply)
    apply.click()
    crit = page.locator('article.tr-pending.critical[data-ref="A1"]')
    expect(crit).to_contain_text("critical C")
    below_the_head(page, crit)


def test_a_movement_roll_left_to_settle_shows_below_the_sticky_head(page, open_app):
    """Range-band on a tablet: the movement roll a move leaves to settle is drawn under "Rolls to
    settle", above the movement form. With the GM scrolled down to the form's "Movement roll" it
    lay under the round bar, strip and acting line, its Apply result and Let Fray roll unseen. It
    comes below them."""
    from gestures import new_encounter

    page.set_viewport_size(TABLET)
    open_app(page)
    new_encounter(page, "Ford ambush", "range-band", "Range bands (turn order, movement phase, major/minor actions)")
    add_preset(page, "Human scout", "party", at=(0, 0))  # c1
    add_preset(page, "Amphibious swimmer", "foes", at=(40, 0))  # c2
    for name, v in (("Human scout", 15), ("Amphibious swimmer", 9)):
        page.get_by_role("textbox", name=f"Turn order of {name}").fill(str(v))
        page.get_by_role("button", name=f"Set the turn order of {name}").click()
        expect(page.locator("#log li").first).to_contain_text(f"{name}: turn order {v}")
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement phase: Human scout")
    page.get_by_role("button", name="Open all cards").click()  # a page long enough to scroll
    move = page.locator("form[data-form=rb-move]")
    move.get_by_label("East (x, m)").fill("31")
    button = move.get_by_role("button", name="Movement roll")
    scroll_under_head(page, button)
    button.click()
    roll = page.locator('.rb-pending[data-ref="R1"]')
    expect(roll).to_contain_text("Movement roll")
    below_the_head(page, roll)


def scroll_to_tap(page, button) -> None:
    """The GM scrolls to the button, as one does to tap it: just below the sticky head."""
    page.evaluate("""(b) => { const head = document.querySelector('.tracker-head').getBoundingClientRect().bottom;
        scrollBy(0, b.getBoundingClientRect().top - head - 10); }""", button.element_handle())


def _exchange_rolled_and_seen(page, size: dict) -> None:
    page.set_viewport_size(size)
    att = page.locator('form[data-form=sr-attack][data-attacker="c2"]')
    att.locator('[name="defence.kind"]').select_option("none")
    att.locator('[name="rolls.attack"]').fill("80")  # Dagger 40%: a miss, nothing asked
    roll = att.get_by_role("button", name="Roll the exchange")
    scroll_to_tap(page, roll)
    roll.click()
    result = page.locator(".sr-panel .sr-result")
    expect(result).to_contain_text("Archer attacks Human warrior with Dagger")
    expect(page.locator('form[data-form=sr-attack][data-attacker="c1"]')).to_be_visible()  # the next attack waits
    head = page.evaluate("""() => { const strip = innerWidth > 900; return strip ? 0 :
        document.querySelector('.tracker-head').getBoundingClientRect().bottom; }""")
    box = result.bounding_box()
    assert head <= box["y"] and box["y"] + box["height"] <= size["height"], (head, box)
    # the next attacker's form comes after what just happened, not above it
    nxt = page.locator('form[data-form=sr-attack][data-attacker="c1"]').bounding_box()
    assert nxt["y"] > box["y"]


def test_the_last_exchange_is_in_view_after_rolling_it_on_a_tablet(page, open_app):
    """Strike-rank at 768x1024: after "Roll the exchange" the next attacker's form stood where the GM looked
    and "Last exchange", what had just happened, lay some 1,100 px further down. It is drawn above the next
    attack's form and brought into view below the sticky head."""
    dagger_fight_at_sr7(page, open_app)
    page.get_by_role("button", name="Open all cards").click()  # a page long enough to scroll
    _exchange_rolled_and_seen(page, TABLET)
    page.screenshot(path="/tmp/hb-exchange-tablet.png")


def test_the_last_exchange_is_in_view_after_rolling_it_on_a_laptop(page, open_app):
    """The same at 1366x900, where the order strip sticks in a column of its own."""
    dagger_fight_at_sr7(page, open_app)
    page.get_by_role("button", name="Open all cards").click()
    _exchange_rolled_and_seen(page, {"width": 1366, "height": 900})
    page.screenshot(path="/tmp/hb-exchange-laptop.png")
