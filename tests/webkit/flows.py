"""What a GM does at a table, written once for both browsers (``fraypage.FrayPage``): each
function here is a test body that tests/webkit/test_webkit.py runs in WebKit and
tests/e2e/test_flows.py runs in Chromium. ``url`` is the app's address.

Every step waits on what the page shows, never on time. The numbers checked are the rules' own,
worked out by hand in the comments (the same fights as the Chromium suite's game tests).
"""

from __future__ import annotations

LAPTOP = (1366, 900)
TABLET = (768, 1024)  # an iPad held upright
NEXT = "#round-bar [data-act=advance]"
LOG = "#log li"


# -- shared gestures -----------------------------------------------------------------------------

def new_encounter(pg, name: str, ruleset: str, badge: str) -> None:
    pg.click("#btn-new")
    pg.fill("#dlg >> label:Name", name)
    pg.select("#dlg >> label:Rules", ruleset)
    pg.click("#dlg >> button:Create")
    pg.gone("#dlg")
    pg.see_exactly("#ruleset-badge", badge)
    pg.see_exactly("#encounter-select option:checked", name)


def add_preset(pg, preset: str, side: str | None = None, x: float | None = None) -> None:
    before = pg.count("#combatants .card")
    pg.click("#round-bar >> button:Add combatant")
    pg.select_label("#dlg >> label:Ready-made", preset)
    pg.click("#dlg >> button:Use")
    pg.wait_js('return document.querySelector(\'#dlg [name="combatant.name"]\').value === arguments[0]', preset,
               what=f"the preset {preset} in the form")
    if side:
        pg.select('#dlg [name="combatant.side"]', side)
    if x is not None:
        pg.fill('#dlg [name="combatant.position.x"]', str(x))
    pg.click("#dlg >> button:Add")
    pg.gone("#dlg")
    pg.see_count("#combatants .card", before + 1)


def add_combatant(pg, name: str, stats: str, side: str | None = None) -> None:
    before = pg.count("#combatants .card")
    pg.click("#round-bar >> button:Add combatant")
    pg.fill('#dlg [name="combatant.name"]', name)
    if side:
        pg.select('#dlg [name="combatant.side"]', side)
    pg.fill('#dlg [name="combatant.stats"]', stats)
    pg.click("#dlg >> button:Add")
    pg.gone("#dlg")
    pg.see_count("#combatants .card", before + 1)


def card_css(pg, name: str) -> str:
    """A CSS selector for ``name``'s card, opened first if it is folded (a GM taps its name)."""
    cid = pg.wait_js("""for (const c of document.querySelectorAll('#combatants article.card'))
            if (c.querySelector('h3.name').textContent.trim() === arguments[0]) return c.dataset.id;
        return null;""", name, what=f"the card of {name}")
    css = f'#combatants article.card[data-id="{cid}"]'
    if pg.js("return document.querySelector(arguments[0]).dataset.open", css) == "false":
        pg.click(f"{css} .card-toggle")
        pg.attribute(css, "data-open", "true")
    return css


def game_styled(pg, css: str, prop: str, value: str) -> None:
    """The open game's own stylesheet applies (issue 34: the page links none; it is applied as a
    constructed stylesheet, web/game_style.py), and it is the only one applied."""
    assert pg.js("return document.adoptedStyleSheets.length") == 1
    got = pg.js(f"return getComputedStyle(document.querySelector({css!r}))[{prop!r}]")
    assert got == value, f"{css} {prop}: {got}, its game's stylesheet says {value}"


def log_grows(pg, spec: str) -> None:
    """Press ``spec``, an action that writes the log, and wait for the log to change."""
    n = pg.count(LOG)
    pg.click(spec)
    pg.wait_js("return document.querySelectorAll(arguments[0]).length !== arguments[1]", LOG, n,
               what="a new line in the log")


def wait_saved(pg) -> None:
    pg.attribute("#save-state", "data-state", "saved")


# -- the flows -----------------------------------------------------------------------------------

def boot(pg, url: str) -> None:
    """The page boots to the GM's screen from the memory snapshot, the web layer in it, with its
    tools enabled and nothing in the console."""
    pg.viewport(*LAPTOP)
    pg.goto(url)
    boot_ = pg.js("return globalThis.frayBoot || null")
    assert boot_ is not None and boot_.get("snapshot") is True, boot_
    # the web layer came restored with the interpreter: the page imports none of it (issue 36:
    # in WebKit those imports were a fifth of a warm boot)
    assert boot_.get("web") is True, boot_
    pg.wait_js('return !document.getElementById("btn-new").disabled', what="New to be enabled")
    pg.gone("#loading")
    assert pg.text("h1.brand") == "Fray"


def strike_rank_round(pg, url: str) -> None:
    """A Melee Round of strike-rank with typed dice at 1366x900, undo and redo, then the autosave
    survives a reload. The numbers are test_strike_rank.py's round 1."""
    pg.viewport(*LAPTOP)
    pg.goto(url)
    new_encounter(pg, "Wolf in the pass", "strike-rank", "Strike Rank (d100)")
    add_preset(pg, "Human warrior", "party")
    add_preset(pg, "Great wolf (four-legged)", x=3)  # within engagement range (3 m) from the start
    pg.click(NEXT)
    pg.see(".sr-phase", "Declare")
    game_styled(pg, ".sr-panel", "display", "grid")

    def declare(cid, weapon, target, shows):
        form = f'form[data-form=sr-declare][data-id="{cid}"]'
        pg.select(f'{form} [name="kind"]', "melee")
        pg.select(f'{form} [name="weapon"]', weapon)
        pg.select(f'{form} [name="target"]', target)
        pg.click(f"{form} button[type=submit]")
        pg.see(f'.sr-who[data-id="{cid}"] .sr-decl', shows)

    def attack(defence, rolls, parry_with=None):
        form = "form[data-form=sr-attack]"
        pg.select(f'{form} [name="defence.kind"]', defence)
        if parry_with:
            pg.select(f'{form} [name="defence.weapon"]', parry_with)
        for k, v in rolls.items():
            pg.fill(f'{form} [name="rolls.{k}"]', v)
        log_grows(pg, f"{form} >> button:Roll the exchange")

    # DEX 11 -> DEX SR 3; SIZ 13 -> SIZ SR 2; broadsword SR 2: 3 + 2 + 2 = 7
    declare("c1", "broadsword", "c2", "SR 7 = DEX 3 + SIZ 2 + weapon 2")
    declare("c2", "bite", "c1", "SR 3 = DEX 1 + SIZ 1 + weapon 1")
    pg.click(NEXT)
    pg.see(".sr-phase", "Resolve SR 3")
    # the wolf bites (20 vs parry 90: hit) the right leg (1) for 3+1 = 4 - AP 2 = 2 -> 3/5
    attack("parry", {"attack": "20", "defence": "90", "location": "1", "damage": "3 1"}, "medium_shield")
    pg.click(NEXT)
    pg.see(".sr-phase", "Resolve SR 7")
    attack("dodge", {"attack": "20", "defence": "90", "location": "3", "damage": "2 1"})
    warrior = card_css(pg, "Human warrior")
    pg.see_exactly(f'{warrior} .sr-loc[data-loc="right_leg"] .hp', "3/5 HP")
    pg.see(f"{warrior} .sr-hp", "HP 11/13")
    wolf = card_css(pg, "Great wolf (four-legged)")
    pg.see_exactly(f'{wolf} .sr-loc[data-loc="left_hind_leg"] .hp', "2/4 HP")
    pg.click(NEXT)
    pg.see_exactly("#round-bar .round", "Round 2")
    pg.see("#log", "End of Melee Round 1")

    # undo steps back over the end of the round; redo brings it again
    pg.click("#btn-undo")
    pg.see(".sr-phase", "Resolve SR 7")
    pg.click("#btn-redo")
    pg.see_exactly("#round-bar .round", "Round 2")

    # the autosave reaches "saved" and a reload shows the same fight
    wait_saved(pg)
    pg.reload()
    pg.see_exactly("#encounter-select option:checked", "Wolf in the pass")
    pg.see_exactly("#round-bar .round", "Round 2")
    warrior = card_css(pg, "Human warrior")
    pg.see_exactly(f'{warrior} .sr-loc[data-loc="right_leg"] .hp', "3/5 HP")
    pg.wait_js('return !document.getElementById("btn-undo").disabled', what="Undo after the reload")


def tactical_round(pg, url: str) -> None:
    """A round of tactical-round at 768x1024 (an iPad upright) with typed dice: declarations,
    a melee attack and the GM's table result; undo takes the result back."""
    pg.viewport(*TABLET)
    pg.goto(url)
    new_encounter(pg, "Bridge fight", "tactical-round", "Tactical round (CMB vs DEF)")
    add_preset(pg, "Swordsman with shield")  # c1
    add_preset(pg, "Orc warrior")  # c2
    game_styled(pg, ".tr-panel", "flexDirection", "column")

    def advance_to(title):
        pg.click(NEXT)
        pg.see(".tr-stepper li.current", title)

    def declare(cid, target, shows):
        form = f'form[data-form=tr-declare][data-id="{cid}"]'
        pg.select(f'{form} [name="actions.0.action"]', "melee_attack")
        pg.select(f'{form} [name="actions.0.weapon"]', "0")
        pg.select(f'{form} [name="actions.0.target"]', target)
        log_grows(pg, f"{form} button[type=submit]")
        pg.see(LOG, shows)

    advance_to("Assessment")
    advance_to("Declaration")
    declare("c1", "c2", "Swordsman with shield declares: Melee attack with Broadsword on Orc warrior (Melee, full)")
    declare("c2", "c1", "Orc warrior declares: Melee attack with Scimitar on Swordsman with shield (Melee, full)")
    advance_to("Melee")
    pg.click('.tr-slot[data-id="c1"] >> button:Attack')
    form = "form[data-form=tr-attack]"
    pg.fill(f"{form} >> label:Open-ended d100", "70")
    pg.click(f"{form} >> button:Attack")
    # roll 70 + Broadsword CMB 55 - DEF (Orc 25 + shield 15) = 85
    box = '.tr-pending[data-ref="A1"]'
    pg.see_exactly(f"{box} .tr-total-value", str(70 + 55 - (25 + 15)))
    orc = card_css(pg, "Orc warrior")
    hp_before = int(pg.text(f"{orc} .tr-hp-value"))
    pg.fill(f"{box} >> label:Hits", "10")
    pg.click(f"{box} >> button:Apply result")
    pg.see("#log", "A1 (GM)")
    orc = card_css(pg, "Orc warrior")
    pg.see_exactly(f"{orc} .tr-hp-value", str(hp_before - 10))
    pg.click("#btn-undo")
    pg.see_count(box, 1)
    orc = card_css(pg, "Orc warrior")
    pg.see_exactly(f"{orc} .tr-hp-value", str(hp_before))
    pg.click("#btn-redo")
    pg.see_exactly(f"{orc} .tr-hp-value", str(hp_before - 10))
    # the Orc's declared attack is still open: Next stops and says so, and the GM goes on (issue 32)
    pg.click(NEXT)
    pg.see("#tr-open", "Orc warrior's Melee attack is not resolved")
    pg.click("#tr-open >> button:Skip it and go on")
    pg.see("#log", "Orc warrior")
    pg.see_exactly("#round-bar .round", "Round 2")
    wait_saved(pg)


def range_band_round(pg, url: str) -> None:
    """A round of range-band at 768x1024: turn order, a movement roll Fray rolls from typed dice
    and one the GM settles, then Next into the second round."""
    pg.viewport(*TABLET)
    pg.goto(url)
    new_encounter(pg, "Ford ambush", "range-band",
                  "Range bands (turn order, movement phase, major/minor actions)")
    add_preset(pg, "Human scout")  # c1
    add_preset(pg, "Amphibious swimmer", side="foes", x=40)  # c2
    game_styled(pg, ".rb-panel", "flexDirection", "column")
    for name, v in (("Human scout", 15), ("Amphibious swimmer", 9)):
        pg.fill(f"body >> label:Turn order of {name}", str(v))
        pg.click(f"body >> button:Set the turn order of {name}")
        pg.see(LOG, f"{name}: turn order {v}")
    pg.click(NEXT)
    pg.see("#round-bar .phase", "Movement phase: Human scout")
    move = "form[data-form=rb-move]"
    pg.fill(f"{move} >> label:East (x, m)", "31")
    pg.click(f"{move} >> button:Movement roll")
    r1 = '.rb-pending[data-ref="R1"]'
    pg.see_exactly(f"{r1} .rb-die", "d12 on SPD")
    pg.fill(f"{r1} >> label:Dice for Fray (blank = Fray rolls)", "5")
    pg.click(f"{r1} >> button:Let Fray roll (assumed default)")
    pg.see_count(r1, 0)
    pg.see("#log", "default mechanic, assumed")
    scout = card_css(pg, "Human scout")
    pg.see(f"{scout} .where", "(31, 0) m")
    pg.click(NEXT)
    pg.see("#round-bar .phase", "Amphibious swimmer")
    pg.fill(f"{move} >> label:East (x, m)", "35")
    pg.click(f"{move} >> button:Movement roll")
    r2 = '.rb-pending[data-ref="R2"]'
    pg.check(f"{r2} >> label:Success")
    pg.fill(f"{r2} >> label:By how much", "2")
    pg.click(f"{r2} >> button:Apply result")
    pg.see_count(r2, 0)
    pg.see("#log", "R2 ")
    swimmer = card_css(pg, "Amphibious swimmer")
    pg.see(f"{swimmer} .where", "(35, 0) m")
    pg.click("#btn-undo")
    pg.see_count(r2, 1)
    pg.click("#btn-redo")
    pg.see_count(r2, 0)
    for _ in range(6):  # on through the action phase to the next round
        if pg.text("#round-bar .round").strip() == "Round 2":
            break
        pg.click(NEXT)
        pg.wait_js("return true")
    pg.see_exactly("#round-bar .round", "Round 2")
    wait_saved(pg)


def players_window_follows(pg, url: str) -> None:
    """The players' window opens from the GM's, shows the fight, and follows the GM's changes
    (a new combatant, Next); the GM's notes never reach it."""
    pg.viewport(*LAPTOP)
    pg.goto(url)
    new_encounter(pg, "Bridge at dusk", "freeform", "Free-form")
    add_combatant(pg, "Bran", "initiative: 14\nHP: 12\nmax HP: 12", side="party")
    add_combatant(pg, "Ambusher", "initiative: 9\nHP: 8\nmax HP: 8", side="foes")
    pg.click("#btn-players")
    pv = pg.opens_window("#dlg >> button:Open players\u2019 view")
    assert pv.url().endswith("/players.html")
    pv.see_count("#pv-order li", 2)
    pv.see("#pv-order", "Bran")
    assert pv.count("button, input, select, textarea, form, [data-act]") == 0
    pg.click("#dlg >> button:Close")
    add_combatant(pg, "Mira", "initiative: 11\nHP: 9\nmax HP: 9", side="party")
    pv.see_count("#pv-order li", 3)
    pv.see("#pv-order", "Mira")
    pg.click(NEXT)
    pg.see("#round-bar .round", "Round 1")
    pv.see("#pv-now", "Bran")


def offline_reload(pg, url: str, stop) -> None:
    """After one visit, a reload with the server stopped (a real outage, ``stop()``) boots from
    the service worker and shows the saved encounter."""
    pg.viewport(*LAPTOP)
    pg.goto(url)
    pg.wait_js("return navigator.serviceWorker && navigator.serviceWorker.controller !== null",
               timeout=120, what="the service worker to control the page")
    new_encounter(pg, "Offline ford", "freeform", "Free-form")
    add_combatant(pg, "Ferryman", "initiative: 12")
    pg.fill("#note-text", "the river rises")
    pg.click("#note-form button[type=submit]")
    pg.see("#log", "the river rises")
    wait_saved(pg)
    stop()
    pg.reload()
    assert pg.js("return navigator.serviceWorker.controller !== null")
    pg.see_exactly("#encounter-select option:checked", "Offline ford")
    card_css(pg, "Ferryman")
    pg.see("#log", "the river rises")


def strike_rank_crossbow_on_a_tablet(pg, url: str) -> None:
    """A crossbowman's two Melee Rounds at 768x1024 (an iPad upright): a declaration shuts its
    form once made (WebKit still gives the inside of a shut fold-out boxes: what counts as shown is
    what ``checkVisibility`` says), the bolt lands with typed dice, and the next Melee Round's
    declaration starts at the reload "Ranged Combat" asks (rate 1/3MR), declared in one tap."""
    pg.viewport(*TABLET)
    pg.goto(url)
    new_encounter(pg, "Crossbow at the gate", "strike-rank", "Strike Rank (d100)")
    add_preset(pg, "Crossbowman", "party", x=0)  # c1
    add_preset(pg, "Human warrior", "foes", x=20)  # c2, beyond reach: only the bolt flies
    pg.click(NEXT)
    pg.see(".sr-phase", "Declare")
    bolt = 'form[data-form=sr-declare][data-id="c1"]'
    assert pg.js(f"return document.querySelector('{bolt} [name=kind]').value") == "missile"
    pg.click(f"{bolt} >> button:Declare")
    pg.see('.sr-who[data-id="c1"] .sr-decl', "Missile attack with Heavy crossbow")
    pg.gone(bolt)  # shut once declared ("Declare another action" opens it again)
    warrior = 'form[data-form=sr-declare][data-id="c2"]'
    pg.select(f'{warrior} [name="kind"]', "defend")
    pg.click(f"{warrior} >> button:Declare")
    pg.see('.sr-who[data-id="c2"] .sr-decl', "Parry only, with Broadsword")
    pg.gone(warrior)
    pg.click(NEXT)
    pg.see(".sr-phase", "Resolve SR 3")
    shot = "form[data-form=sr-attack]"
    pg.select(f'{shot} [name="defence.kind"]', "none")
    for k, v in {"attack": "20", "location": "9", "damage": "4 4"}.items():  # 9: Abdomen
        pg.fill(f'{shot} [name="rolls.{k}"]', v)
    log_grows(pg, f"{shot} >> button:Roll the exchange")
    pg.see(LOG, "to Abdomen")
    for _ in range(12):  # Next through the strike ranks to the second Melee Round
        if pg.text("#round-bar .round").strip() == "Round 2":
            break
        pg.click(NEXT)
        pg.wait_js("return true")
    pg.see(".sr-phase", "Melee Round 2: Declare")
    pg.wait_js(f"return document.querySelector('{bolt} [name=kind]').value === 'reload'",
               what="the crossbowman's declaration to start at Reload")
    pg.click(f"{bolt} >> button:Declare")
    pg.see('.sr-who[data-id="c1"] .sr-decl', "Reload with Heavy crossbow")
    wait_saved(pg)
