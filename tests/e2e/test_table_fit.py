"""Issue 33, "The table screen": the form for what happens now is on the first screen of a tablet
(768×1024) and of a laptop (1366×900, beside the map), with the acting combatant's essentials beside
it, in every phase of each game with 12 combatants; and no visible text is cut at either size.

"On a tablet, in every phase of every game with 12 combatants, the form for what happens now must
be fully visible without scrolling, with the acting combatant's essentials (HP, wounds that matter,
what it holds) beside it; the full card one tap away. At 1366×900 the same holds beside the map."
Before: the acting card opened whole above the ruleset panel, so the strike-rank attack form began
at y≈1,060 and the range-band movement form at y≈1,708; the header's tools took two rows.

Set FRAY_SHOTS=dir to keep a screenshot of each step (each game's declare, resolve and map screens).
Figures asserted here are layout (pixels), never time.
"""

from __future__ import annotations

import os
import re
import sys

import pytest
from playwright.sync_api import expect

sys.path.insert(0, os.path.dirname(__file__))
from gestures import new_encounter, open_add_dialog  # noqa: E402
from test_strip import GAMES, LAPTOP, TABLET, add_many  # noqa: E402

SHOTS = os.environ.get("FRAY_SHOTS", "")
SIZES = {"tablet": TABLET, "laptop": {"viewport": LAPTOP}}

# The element's box, unscrolled, and whether it lies wholly inside the viewport.
BOX = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right),
          height: Math.round(r.height), width: Math.round(r.width), vw: innerWidth, vh: innerHeight, scrollY: scrollY,
          inside: r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth};
}"""

# Every visible element whose text is cut: its content wider than its box where the box hides the
# rest (overflow hidden or clip, or an ellipsis), a <select> whose chosen option is wider than the
# select shows, or a button (or a link drawn as one) whose own words wrap onto a second line.
CUT = """(root) => {
  const out = [];
  const seen = (el) => el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true});
  const words = (el) => (el.innerText || el.value || "").replace(/\\s+/g, " ").trim().slice(0, 40);
  const canvas = document.createElement("canvas").getContext("2d");
  // what a select draws beside its words (the arrow), measured on one sized to its one option
  const probe = document.createElement("select");
  probe.style.width = "auto";
  probe.innerHTML = "<option>Broadsword SR 7</option>";
  document.body.append(probe);
  const ps = getComputedStyle(probe);
  canvas.font = `${ps.fontWeight} ${ps.fontSize} ${ps.fontFamily}`;
  const arrow = probe.clientWidth - parseFloat(ps.paddingLeft) - parseFloat(ps.paddingRight) - canvas.measureText("Broadsword SR 7").width;
  probe.remove();
  for (const el of document.querySelectorAll((root || "body") + " *")) {
    if (el.closest("svg, .visually-hidden, dialog:not([open]), [hidden], .map")) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 2 || r.height <= 2 || !seen(el)) continue;  // a visually hidden heading is a 1 px box
    const cs = getComputedStyle(el);
    if (el.tagName === "SELECT") {
      const opt = el.selectedOptions[0];
      if (!opt) continue;
      canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
      // canvas and layout round apart by a pixel
      if (canvas.measureText(opt.text).width > room + 2) out.push(`select "${opt.text}" ${Math.round(canvas.measureText(opt.text).width)}/${Math.round(room)}`);
      continue;
    }
    if (el.matches("input, textarea, option")) continue;
    const hides = cs.overflowX === "hidden" || cs.overflowX === "clip" || cs.textOverflow === "ellipsis";
    if (hides && el.scrollWidth > el.clientWidth + 1 && el.innerText.trim())
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${words(el)}" ${el.scrollWidth}/${el.clientWidth}`);
    // a condition in the order strip wraps between its words inside its entry, by design (not cut)
    if (el.matches("button, .button") && !el.matches(".strip-open")) {
      // each of its words' runs on one line (the order strip's entry is two runs, one per line, by design)
      const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let t = walk.nextNode(); t; t = walk.nextNode()) {
        if (!t.textContent.trim() || t.parentElement.closest(".visually-hidden")) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        const rows = new Set([...range.getClientRects()].filter(b => b.width > 0).map(b => Math.round(b.top)));
        if (rows.size > 1) { out.push(`button "${words(el)}": "${t.textContent.trim()}" on ${rows.size} lines`); break; }
      }
    }
  }
  return out;
}"""


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def fits(page, selector: str, what: str, size: str, name: str) -> dict:
    """``selector`` (the form for what happens now) lies wholly on the first screen, unscrolled,
    with the acting combatant's essentials on it too when someone acts."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("scrollY === 0")
    expect(page.locator(selector).first).to_be_visible()
    # measured as the GM sees it once the odds beside its button are worked out (they come a frame later)
    expect(page.locator(selector).first).not_to_contain_text("Working out the odds")
    shot(page, name)
    box = page.evaluate(BOX, selector)
    assert box and box["inside"], f"{size}: {what} is not on the first screen: {box}"
    if page.locator("#acting-line .acting").count():
        line = page.evaluate(BOX, "#acting-line .acting")
        assert line["inside"], f"{size}: the acting combatant's essentials are off screen: {line}"
    return box


def no_cut_text(page, size: str, where: str) -> None:
    cut = page.evaluate(CUT)
    assert not cut, f"{size}, {where}: text cut: {cut}"


def twelve_of(page, ruleset: str) -> None:
    badge, ours, theirs = GAMES[ruleset]
    new_encounter(page, "Twelve", ruleset, badge)
    add_many(page, ours, "6", "party", "Hero")
    add_many(page, theirs, "6", "foes", "Foe")
    page.locator("#round-bar").get_by_role("button", name=re.compile("Start the fight")).click()


def next_phase(page, expect_text: str) -> None:
    phase = page.locator("#round-bar .phase")
    page.locator("#round-bar [data-act=advance]").click()
    expect(phase).to_contain_text(expect_text)


def map_screen(page, size: str, name: str) -> None:
    """The map: beside the tracker on a laptop, behind the Map tab on a tablet."""
    if size == "tablet":
        page.locator("#tab-map").click()
        expect(page.locator("#map svg")).to_be_visible()
        shot(page, f"{name}-map")
        no_cut_text(page, size, "the map")
        page.locator("#tab-tracker").click()
    else:
        assert page.evaluate(BOX, "#map")["inside"] or page.evaluate(BOX, "#map")["top"] < 900
        shot(page, f"{name}-map")


@pytest.fixture(params=list(SIZES))
def sized(request, browser, open_app):
    ctx = browser.new_context(**SIZES[request.param])
    page = ctx.new_page()
    open_app(page)
    yield request.param, page
    ctx.close()


def test_strike_rank_declare_and_resolve_forms_fit(sized):
    size, page = sized
    twelve_of(page, "strike-rank")
    # the Add dialog with the longest ready-made chosen: its Use button read "Us/e" at 1366 px
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label="Great wolf (four-legged)")
    no_cut_text(page, size, "the Add dialog")
    dlg.get_by_role("button", name="Cancel").click()
    expect(dlg).to_be_hidden()
    forms = page.locator('form[data-form="sr-declare"]')
    expect(forms).to_have_count(12)
    fits(page, 'form[data-form="sr-declare"]', "the first declaration", size, f"sr-{size}-declare")

    no_cut_text(page, size, "strike-rank declare")
    for i in range(12):
        forms.nth(i).locator("button[type=submit]").click()
    expect(page.locator(".sr-decl")).to_have_count(12)
    next_phase(page, "Resolve")
    box = fits(page, 'form[data-form="sr-attack"]', "the attack form at this SR", size, f"sr-{size}-resolve")
    print(size, "sr-attack", box)
    expect(page.locator("#acting-line .acting")).to_contain_text("HP 15/15")
    # what it uses at this SR (the declared weapon), not all it holds
    expect(page.locator("#acting-line .acting")).to_contain_text("Uses Bite")
    no_cut_text(page, size, "strike-rank resolve")
    map_screen(page, size, f"sr-{size}")
    if size == "tablet":
        # a token tapped on the map: its position form is on the first screen too (it began at y 1,057)
        page.locator("#tab-map").click()
        page.locator("#map [data-token]").last.click()  # the twelve stand on one spot: the topmost
        expect(page.locator('form[data-form="map-move"]')).to_be_visible()
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"sr-{size}-map-move")
        box = page.evaluate(BOX, 'form[data-form="map-move"]')
        assert box["inside"], f"{size}: the map's position form is not on the first screen: {box}"
        page.locator("#tab-tracker").click()
    # the full card is one tap away
    page.locator("#acting-line").get_by_role("button", name="Full card").click()
    cid = page.locator("#order-strip li.strip-entry[aria-current=step]").get_attribute("data-id")
    expect(page.locator(f'#combatants article[data-id="{cid}"] .card-body')).to_be_in_viewport()


# Room kept under the form for what happens now: the attack form ended 9 px above the bottom of a
# laptop's screen, where the next line of the page (or a taller odds box) pushed its button off it.
MARGIN = 40


def tr_twelve(page) -> None:
    """Twelve at the ford: five swordsmen and an apprentice mage (Fire Bolt) against six orcs
    (scimitar, thrown spear), so every phase with a form has someone in it."""
    badge, ours, theirs = GAMES["tactical-round"]
    new_encounter(page, "Twelve", "tactical-round", badge)
    add_many(page, ours, "5", "party", "Hero")
    add_many(page, "Apprentice mage", "1", "party", "Mage")
    add_many(page, theirs, "6", "foes", "Foe")
    page.locator("#round-bar").get_by_role("button", name=re.compile("Start the fight")).click()


def tr_fits(page, selector: str, what: str, size: str, name: str) -> dict:
    box = fits(page, selector, what, size, name)
    assert box["bottom"] <= box["vh"] - MARGIN, f"{size}: {what} ends {box['vh'] - box['bottom']} px above the bottom: {box}"
    print(size, name, box)
    return box


def test_tactical_round_forms_fit(sized):
    """Declaration, then each phase with something to do: Move (who moves, done by Next), Spell A
    (a Fire Bolt), Ranged A (a thrown dagger and spear), Melee; each phase's form on the first screen
    with room under it, and no text cut (the order strip too, once the fighters are engaged and hurt)."""
    from gestures import tr_next
    size, page = sized
    tr_twelve(page)
    if "Declaration" not in page.locator("#round-bar .phase").inner_text():
        next_phase(page, "Declaration")
    tr_fits(page, 'form[data-form="tr-declare"]', "the first declaration", size, f"tr-{size}-declare")
    no_cut_text(page, size, "tactical-round declaration")
    mage = page.locator("form[data-form=tr-declare]", has_text="Declare for Mage").get_attribute("data-id")
    ids = {n: page.locator(f"form[data-form=tr-declare]", has_text=f"Declare for {n}").get_attribute("data-id")
           for n in ("Hero 1", "Hero 2", "Hero 3", "Foe 1", "Foe 2", "Foe 3")}
    # Hero 3 and Foe 1 stand 3 m apart, the nearest of the two sides (Melee Attacks: in reach)
    for who, action, weapon, target in (("Hero 3", "melee_attack", "0", "Foe 1"), ("Foe 1", "melee_attack", "0", "Hero 3"),
                                        ("Hero 2", "move", "", ""), ("Hero 1", "ranged_attack", "1", "Foe 2"),
                                        ("Foe 2", "ranged_attack", "1", "Hero 1"), (mage, "spell_prepared", "1", "Foe 3")):
        cid = ids.get(who, who)
        form = page.locator(f'form[data-form=tr-declare][data-id="{cid}"]')
        form.locator('[name="actions.0.action"]').select_option(action)
        form.locator('[name="actions.0.weapon"]').select_option(weapon)
        form.locator('[name="actions.0.target"]').select_option(ids.get(target, ""))
        form.locator("button[type=submit]").click()
        expect(page.locator("#log li").first).to_contain_text("declares:")
    tr_fits(page, 'form[data-form="tr-declare"]', "the declarations, six declared", size, f"tr-{size}-declared")
    tr_next(page)  # the six who have not declared: the GM goes on without them
    expect(page.locator("#round-bar .phase")).to_contain_text("Move")
    # nothing to press in the Move phase: the line says what the GM does (before: "Hero 2 Move", no more)
    expect(page.locator(".tr-acting-wrap")).to_contain_text("drag its token on the map; Next leaves it where it stands")
    tr_fits(page, ".tr-acting-wrap", "who moves", size, f"tr-{size}-move")
    no_cut_text(page, size, "tactical-round move")
    tr_next(page)
    expect(page.locator("#round-bar .phase")).to_contain_text("Spell A")
    tr_fits(page, 'form[data-form="tr-attack"]', "the spell's attack form", size, f"tr-{size}-spell")
    expect(page.locator("#acting-line .acting")).to_contain_text("Mage")
    expect(page.locator("#acting-line .acting")).to_contain_text("Uses Fire Bolt")
    no_cut_text(page, size, "tactical-round spell")
    tr_next(page)
    expect(page.locator("#round-bar .phase")).to_contain_text("Ranged A")
    tr_fits(page, 'form[data-form="tr-attack"]', "the ranged attack form", size, f"tr-{size}-ranged")
    # what each uses in this phase, its declared weapon: Hero 1 throws his dagger (the line said
    # "Holds Broadsword"), Foe 2 his spear
    acting = page.locator("#acting-line .acting")
    expect(acting).to_contain_text(re.compile(r"Hero 1.*Uses Dagger|Foe 2.*Uses Spear"))
    expect(acting).not_to_contain_text("Broadsword")
    no_cut_text(page, size, "tactical-round ranged")
    tr_next(page)
    expect(page.locator("#round-bar .phase")).to_contain_text("Melee")
    tr_fits(page, 'form[data-form="tr-attack"]', "the attack form", size, f"tr-{size}-resolve")
    expect(page.locator("#acting-line .acting")).to_contain_text("Uses Broadsword")
    no_cut_text(page, size, "tactical-round melee")
    # Hero 3 strikes Foe 1 (engaged, hurt: the strip's longest words) and the strip is read whole
    form = page.locator('form[data-form="tr-attack"]')
    form.get_by_label("Open-ended d100").fill("60")
    form.get_by_role("button", name="Attack", exact=True).click()
    box = page.locator(".tr-pending").first
    box.get_by_label("Hits").fill("25")
    box.get_by_role("button", name="Apply result").click()
    expect(page.locator("#order-strip")).to_contain_text("engaged")
    expect(page.locator("#order-strip")).to_contain_text("bruised")
    hurt_and_uncut(page, size, "tactical-round", ["Foe 1", "Hero 3"], ("stunned", "surprised"))
    map_screen(page, size, f"tr-{size}")


def head_height(page) -> float:
    """What sticks to the top of a tablet's page (round bar, strip, acting line); the strip's column on a laptop."""
    return page.evaluate("""() => {
      const el = innerWidth > 900 ? document.getElementById("order-strip") : document.querySelector(".tracker-head");
      return el.getBoundingClientRect().height; }""")


def add_condition(page, who: str, condition: str) -> None:
    from gestures import card
    card(page, who).get_by_role("button", name="Condition…").click()
    dlg = page.locator("#dlg")
    dlg.locator('[name="condition"]').fill(condition)
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    card(page, who).locator(".card-toggle").click()  # folded again: its header is what is checked
    expect(card(page, who, open_=False)).to_have_attribute("data-open", "false")


def hurt_and_uncut(page, size: str, game: str, who: list[str], conditions: tuple[str, ...],
                   shown: tuple[str, ...] = ()) -> None:
    """Issue 33, "Cut text … None at either size": with hurt combatants carrying conditions, the order
    strip (at 768 px each of twelve is a chip a sixth of the screen wide) and the folded cards' headers
    cut no word ("HP 15/40, bruised" and "engaged" were "HP 1…" and "enga…"; folded cards "HP 1…"),
    and the strip, which sticks to the top of a tablet, is no taller for them. ``shown``: the words the
    page says for ``conditions`` where they differ (range-band's "knocked-down" reads "knocked down")."""
    shown = shown or conditions
    page.evaluate("window.scrollTo(0, 0)")
    before = head_height(page)
    for name in who:
        for cond in conditions:
            add_condition(page, name, cond)
    page.evaluate("window.scrollTo(0, 0)")
    for name in who:
        expect(page.locator("#order-strip li.strip-entry", has_text=name).first).to_contain_text(shown[-1])
    shot(page, f"{game}-{size}-hurt")
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{game}-{size}-hurt-cards.png"), full_page=True)
    cut = page.evaluate(CUT, "#order-strip")
    assert not cut, f"{size}, {game}: the order strip's text is cut: {cut}"
    cut = page.evaluate(CUT, "#combatants")
    assert not cut, f"{size}, {game}: the cards' text is cut: {cut}"
    # each entry's words whole in its name and title, for a reader and a hover
    entry = page.locator("#order-strip li.strip-entry", has_text=who[0]).first.locator(".strip-open")
    for cond in shown:
        expect(entry).to_have_accessible_name(re.compile(re.escape(cond)))
        expect(entry).to_have_attribute("title", re.compile(re.escape(cond)))
    if size == "tablet":
        assert head_height(page) <= before + 1, f"the tablet's head grew from {before} to {head_height(page)} px"


@pytest.mark.parametrize("game", ["strike-rank", "range-band"])
def test_the_strip_and_folded_cards_cut_nothing_with_hurt_combatants(sized, game):
    """The other two games share the strip and the cards: hurt (strike-rank: a serious wound, by the
    GM's Damage) and with conditions, nothing is cut at either size."""
    size, page = sized
    twelve_of(page, game)
    if game == "range-band":
        page.locator("#rb-hold").get_by_role("button", name="Start anyway").click()
        hurt_and_uncut(page, size, game, ["Hero 1", "Foe 1"], ("knocked-down", "out-of-breath"),
                       ("knocked down", "out of breath"))
        return
    from test_sr_injuries import damage
    damage(page, "Hero 1", "abdomen", "7")
    page.locator("#combatants article.card", has_text="Hero 1").first.locator(".card-toggle").click()
    hurt_and_uncut(page, size, game, ["Hero 1", "Foe 1"], ("retreating", "grappled"))


def test_range_band_movement_and_turn_forms_fit(sized):
    size, page = sized
    twelve_of(page, "range-band")
    # nobody has a turn order: the page asks who, on the first screen, before the fight starts
    box = fits(page, "#rb-hold", "the no-turn-order question", size, f"rb-{size}-no-turn-order")
    print(size, "rb-hold order", box)
    no_cut_text(page, size, "range-band no turn order")
    page.locator("#rb-hold").get_by_role("button", name="Start anyway").click()  # in the order added
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement")
    box = fits(page, 'form[data-form="rb-move"]', "the movement form", size, f"rb-{size}-declare")
    print(size, "rb-move", box)
    expect(page.locator("#acting-line .acting")).to_contain_text("Holds Shortbow, Knife")
    no_cut_text(page, size, "range-band movement")
    # a roll left open at Next: the page says so, on the first screen, and the GM skips it
    page.locator('form[data-form="rb-move"]').get_by_role("button", name="Movement roll").click()
    expect(page.locator(".rb-pending")).to_have_count(1)
    page.locator("#round-bar [data-act=advance]").click()
    box = fits(page, "#rb-hold", "the still-open question", size, f"rb-{size}-still-open")
    print(size, "rb-hold open", box)
    no_cut_text(page, size, "range-band still open")
    page.locator("#rb-hold").get_by_role("button", name="Skip them and go on").click()
    expect(page.locator("#rb-hold")).to_have_count(0)
    for _ in range(12):
        page.locator("#round-bar [data-act=advance]").click()
        if "Action" in page.locator("#round-bar .phase").inner_text():
            break
    expect(page.locator("#round-bar .phase")).to_contain_text("Action")
    box = fits(page, 'form[data-form="rb-attack"]', "the acting combatant's attack form", size, f"rb-{size}-resolve")
    print(size, "rb-attack", box)
    no_cut_text(page, size, "range-band turn")
    map_screen(page, size, f"rb-{size}")


# Where what sticks to the top of the page ends over the tracker's column: the tablet's head (round
# bar, strip, acting line), or the laptop's round bar (its strip sticks in a column of its own).
STUCK = """() => {
  const col = document.getElementById("ruleset-panel").getBoundingClientRect();
  let bottom = 0;
  for (const el of [document.querySelector(".tracker-head"), document.getElementById("round-bar")]) {
    const r = el.getBoundingClientRect();
    if (getComputedStyle(el).position === "sticky" && r.height > 0 && r.left < col.right && r.right > col.left)
      bottom = Math.max(bottom, r.bottom);
  }
  return bottom;
}"""


def test_range_band_card_facts_sit_beside_their_labels(sized):
    """Found in play at 768 px: the range-band card's Mount, Breath and Sight labels sat in one row and
    their values in others (a value with a form went under its label; Breath's floated to the middle of
    its cell). Each value now starts beside its label, on the label's line."""
    size, page = sized
    twelve_of(page, "range-band")
    page.locator("#combatants .card .card-toggle").first.click()
    expect(page.locator(".rb-card .rb-facts").first).to_be_visible()
    shot(page, f"rb-{size}-card")
    facts = page.evaluate("""() => [...document.querySelector('.rb-card .rb-facts').children].map(d => {
      const t = d.querySelector('dt').getBoundingClientRect(), v = d.querySelector('dd').getBoundingClientRect();
      return {label: d.querySelector('dt').textContent, dt: [Math.round(t.left), Math.round(t.top), Math.round(t.right)],
              dd: [Math.round(v.left), Math.round(v.top)]};
    })""")
    assert len(facts) == 6, facts
    for f in facts:
        # beside it, starting no lower than the label (a value with a button is taller: baselines align)
        assert f["dd"][0] >= f["dt"][2] and f["dd"][1] <= f["dt"][1] + 4, f"{size}: {f['label']} is not beside its value: {f}"


def test_the_map_stays_beside_the_cards_on_a_laptop(browser, open_app):
    """Found in play at 1366x900: scrolled down to a card of a twelve-combatant fight, the GM lost the map
    (who is how far away), which scrolled away with the page. It now stays on screen beside the cards."""
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    open_app(page)
    twelve_of(page, "range-band")
    page.evaluate("window.scrollTo(0, 700)")
    page.wait_for_function("scrollY === 700")
    shot(page, "rb-laptop-scrolled")
    box = page.evaluate(BOX, "#map")
    assert box["top"] >= 0 and box["bottom"] <= box["vh"] and box["height"] > 300, box
    # a token selected: its distance list makes the pane taller than the screen, and the pane
    # scrolls; the side view keeps its size (squeezed, it was 2 px tall: a GM's play-through)
    page.locator("#map-plan [data-token]").first.click()
    expect(page.locator("#map-info table.map-dist")).to_be_visible()
    elev = page.evaluate(BOX, "#map-elev")
    assert elev["height"] >= 0.15 * elev["width"] > 50, elev
    ctx.close()


def test_tactical_round_each_declaration_leads_to_the_next_below_the_bar(sized):
    """Issue 33: "the sticky round bar covers the top of the declarations". After Declare, the next
    one to declare has its form's top just under what sticks to the top of the page, whole name
    showing, and its Action has the focus (keyboard: choose, Enter)."""
    size, page = sized
    tr_twelve(page)
    if "Declaration" not in page.locator("#round-bar .phase").inner_text():
        next_phase(page, "Declaration")
    forms = page.locator("form[data-form=tr-declare]")
    for i in range(5):
        form = forms.nth(i)
        name = form.locator("h3").inner_text()
        form.locator('[name="actions.0.action"]').select_option("melee_attack")
        form.locator("button[type=submit]").click()
        expect(page.locator("#log li").first).to_contain_text(f"{name} declares: Melee attack")
        nxt = forms.nth(i + 1)
        expect(nxt.locator('[name="actions.0.action"]')).to_be_focused()
        page.wait_for_function("() => !document.querySelector('#round-bar').matches(':empty')")
        head = nxt.locator("h3").bounding_box()
        stuck = page.evaluate(STUCK)
        assert head["y"] >= stuck, f"{size}: {nxt.locator('h3').inner_text()}'s name is under the bar: {head} < {stuck}"
        assert head["y"] + head["height"] <= page.viewport_size["height"], head
    shot(page, f"tr-{size}-declare-next")


def test_range_band_round_two_movement_form_fits_after_round_one_notes(browser, open_app, tmp_path):
    """Issue 33, found by a GM in a 14-combatant range-band fight: round 1's notes (the may-an-ally-warn paragraphs
    of each stealth attack) stayed under "Rolls to settle", each needing its own Done, and pushed round 2's
    movement form below the fold of a tablet. The question is now asked in the attack form, before the roll,
    and leaves no note once the roll is sent: at 768×1024 the first movement form of round 2 is wholly on
    the first screen."""
    from test_playthrough_range_band import load

    ctx = browser.new_context(**TABLET)
    page = ctx.new_page()
    open_app(page)
    load(page, tmp_path)
    page.get_by_label("Turn order of Sly", exact=True).fill("30")
    page.get_by_role("button", name="Set the turn order of Sly").click()
    expect(page.locator("#log li").first).to_contain_text("Sly: turn order 30")
    page.locator("#round-bar [data-act=advance]").click()
    page.locator("#rb-hold").get_by_role("button", name="Roll turn order for all and start").click()
    expect(page.locator("#rb-hold")).to_have_count(0)
    phase = page.locator("#round-bar .phase")
    expect(phase).to_contain_text("Movement phase: Sly")
    while "Action" not in phase.inner_text():
        page.locator("#round-bar [data-act=advance]").click()
        expect(page.locator("#rb-hold")).to_have_count(0)
    expect(phase).to_contain_text("Action phase: Sly")
    # Sly, unseen by the bandits, shoots twice (a major and a minor action): two stealth attacks. The
    # may-an-ally-warn question is the attack form's preview, before the roll is sent; once sent no note
    # stands under "Rolls to settle" (a note after the roll advised what could no longer be done)
    for n, (size, target) in enumerate((("major", "Bandit 1"), ("minor", "Bandit 2")), 1):
        attack = page.locator("form[data-form=rb-attack]")
        attack.get_by_label("Target", exact=True).select_option(label=target)
        attack.get_by_label("Action", exact=True).select_option(size)
        expect(attack.locator(".rb-preview-prompt")).to_contain_text("may an ally warn them?")
        attack.get_by_role("button", name="Offense roll").click()
        expect(page.locator(".rb-pending")).to_have_count(n)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "rb-tablet-round1-notes")
    expect(page.locator(".rb-prompt")).to_have_count(0)
    expect(page.locator(".rb-gm-notes")).to_have_count(0)
    expect(page.locator("#log")).not_to_contain_text("may an ally warn them?")
    for left in (1, 0):
        page.locator(".rb-pending").first.get_by_role("button", name="Let Fray roll (assumed default)").click()
        expect(page.locator(".rb-pending")).to_have_count(left)
    while "Round 2" not in page.locator("#round-bar .round").inner_text():
        page.locator("#round-bar [data-act=advance]").click()
        expect(page.locator("#rb-hold")).to_have_count(0)
    expect(phase).to_contain_text("Movement phase")
    box = fits(page, 'form[data-form="rb-move"]', "round 2's movement form", "tablet", "rb-tablet-round2-movement")
    print("tablet rb-move round 2", box)
    no_cut_text(page, "tablet", "range-band round 2 movement")
    ctx.close()


def test_a_long_condition_in_the_strip_wraps_whole_and_is_not_cut(sized):
    """A GM's tablet: a condition of their own ("held fast by the ogre's chain", 29 letters) ran past the
    edge of its entry in the order strip (a sixth of 768 px wide) and was cut at "the ogre'". It wraps
    between its words inside the entry, every word seen, at both sizes; the tablet's sticky head grows
    by no more than a pixel (the entry is a touch target high already)."""
    size, page = sized
    twelve_of(page, "tactical-round")
    page.evaluate("window.scrollTo(0, 0)")
    before = head_height(page)
    add_condition(page, "Hero 2", "held fast by the ogre's chain")
    page.evaluate("window.scrollTo(0, 0)")
    entry = page.locator("#order-strip li.strip-entry", has_text="Hero 2").first
    expect(entry).to_contain_text("held fast by the ogre's chain")
    shot(page, f"long-condition-{size}")
    cut = page.evaluate(CUT, "#order-strip")
    assert not cut, f"{size}: the order strip's text is cut: {cut}"
    chip = entry.locator(".chip").bounding_box()
    box = entry.bounding_box()
    assert box["x"] <= chip["x"] and chip["x"] + chip["width"] <= box["x"] + box["width"], (chip, box)
    if size == "tablet":
        assert head_height(page) <= before + 1, f"the tablet's head grew from {before} to {head_height(page)} px"
