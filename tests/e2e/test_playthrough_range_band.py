"""A whole range-band fight of 13 (and the horse) through the page at 768×1024 (issue 32/33): Kael riding Grey, Wren the
flyer, Nix the swimmer in a water area, Sly the scout in High Stealth, against nine bandits; two full
rounds with deaths, moves (one by dragging the token on the map), a ranged attack, typed dice and Fray's
dice, on one browser page.

After every Next it checks what a GM at the table relies on:
- no open roll of a combatant still in the fight vanished without a result or a logged GM choice;
- no form goes to a dead or incapacitated combatant (the acting box, the cards);
- no default target is the fallen, an ally or one's own mount;
- every token on the SVG map stands where the encounter says it is.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from gestures import Taps, card, import_history, mouse_drag, rb_mark_area, saved
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from fray.games import get_ruleset  # noqa: E402

TABLET = {"width": 768, "height": 1024}
OUT = ("dead", "incapacitated", "paralyzed")
SHOTS = "/tmp/rb-play-"


def preset(which: str, **over) -> dict:
    p = next(p for p in get_ruleset("range-band").presets() if p["name"] == which)
    return {**p, **over}


PEOPLE = [  # name, preset, side, x, y, alt
    ("Kael", "Rider", "party", 0, 0, 0),
    ("Grey", "Horse", "party", 0, 0, 0),
    ("Wren", "Winged flyer", "party", 4, 6, 0),
    ("Nix", "Amphibious swimmer", "party", -25, 0, -3),
    ("Sly", "Human scout", "party", 6, -6, 0),
] + [(f"Bandit {i}", "Human scout", "foes", 14 + 4 * i, (i % 3) * 5 - 5, 0) for i in range(1, 10)]


def load(page, tmp_path) -> None:
    """The thirteen as the GM typed them in before the session (a save file), everything else in the page."""
    h = History(new_encounter("range-band", "Ford ambush"))
    for name, which, side, x, y, alt in PEOPLE:
        body = preset(which, name=name, side=side, position={"x": x, "y": y, "alt": alt})
        if which == "Human scout":
            body["stealth"] = "low" if side == "foes" else "medium"
        h.do({"type": "add_combatant", "combatant": body})
    import_history(page, tmp_path, h, len(PEOPLE), "ford")


# -- what the page shows -------------------------------------------------------------------------------

def state(page) -> dict:
    return saved(page)["encounter"]


def by_name(enc: dict) -> dict[str, dict]:
    return {c["name"]: c for c in enc["combatants"]}


def out(c: dict) -> bool:
    return any(x in c["conditions"] for x in OUT)


def current(page) -> str:
    return page.locator(".rb-slot.current .who").text_content()  # the list may be folded (a tablet)


def show(page, pane: str) -> None:
    """At tablet width one pane shows at a time: the tracker or the map."""
    btn = page.locator(f'[data-act="show-{pane}"]')
    if btn.count() and btn.first.is_visible():
        btn.first.click()


def pending(page, ref: str):
    return page.locator(f'.rb-pending[data-ref="{ref}"]')


def open_refs(page) -> list[str]:
    return page.locator(".rb-pending").evaluate_all("fs => fs.map(f => f.dataset.ref)")


def gm_result(page, ref: str, success: bool, by: int, blunder: bool = False) -> None:
    box = pending(page, ref)
    expect(box).to_be_visible()
    box.get_by_label("Success" if success else "Failure", exact=True).check()
    box.get_by_label("By how much").fill(str(by))
    if blunder:
        box.get_by_label("Blunder").check()
    box.get_by_role("button", name="Apply result").click()
    expect(pending(page, ref)).to_have_count(0)


def fray_rolls(page, ref: str, dice: str = "") -> None:
    box = pending(page, ref)
    if dice:
        box.get_by_label("Dice for Fray (blank = Fray rolls)").fill(dice)
    box.get_by_role("button", name="Let Fray roll (assumed default)").click()
    expect(pending(page, ref)).to_have_count(0)


def attack_with_frays_dice(page, attack, weapon: str, before: list[str], reason: str = "") -> int:
    """One attack with Fray's dice, as few taps as the page allows: the weapon (if the default is not it),
    the roll, the GM's reason where melee is beyond engaged range, and whatever the page still asks before
    the next combatant's turn can begin (a note that needs its own Done). Returns the taps."""
    taps = Taps(page)
    taps.choose_words(attack.get_by_label("Weapon"), weapon)
    one = attack.get_by_role("button", name="Roll it (Fray's dice)")
    send = one if one.count() else attack.get_by_role("button", name="Offense roll")
    said = page.locator("#log li").count()
    taps.tap(send)
    page.wait_for_function(
        """said => document.querySelectorAll('#log li').length !== said
            || [...document.querySelectorAll('form[data-form=rb-attack] [data-error-for][role=alert]')]
               .some(e => /needs engaged range/.test(e.textContent))""",
        arg=said, timeout=5000)
    refused = attack.locator("[data-error-for][role=alert]", has_text="needs engaged range")
    if refused.count() and refused.first.is_visible():
        assert reason, "melee beyond engaged range without a reason"
        if not attack.locator("details.rb-override[open]").count():
            taps.tap(attack.locator("details.rb-override summary"))
        taps.type(attack.get_by_label("Reason (kept in the log)"), reason)
        taps.tap(send)
        expect(page.locator("#log")).to_contain_text(reason)
    if not one.count():
        ref = new_ref(page, before)
        taps.tap(pending(page, ref).get_by_role("button", name="Let Fray roll (assumed default)"))
        expect(pending(page, ref)).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Offense roll")
    # a note that blocks the screen until it is Done (the warning paragraphs of a stealth attack)
    done = page.locator(".rb-rolls .rb-prompt button", has_text="Done")
    if done.count():
        taps.tap(done.last)
    return taps.n


def lance_or_reason(page, attack, open_before: int) -> None:
    """Melee needs engaged range (issue 32): where the bandit is farther, the page refuses the lance with
    the band, and the GM allows the charge with a reason, which the log keeps."""
    page.wait_for_function(
        """n => document.querySelectorAll('.rb-pending').length > n
            || [...document.querySelectorAll('form[data-form=rb-attack] [data-error-for][role=alert]')]
               .some(e => /needs engaged range/.test(e.textContent))""",
        arg=open_before)
    if page.locator(".rb-pending").count() > open_before:
        return
    if not attack.locator("details.rb-override[open]").count():
        attack.locator("details.rb-override summary").click()
    attack.get_by_label("Reason (kept in the log)").fill("Kael's lance charge closes the distance")
    attack.get_by_role("button", name="Offense roll").click()
    expect(page.locator("#log")).to_contain_text("The GM allows Kael's melee attack")
    expect(page.locator("#log")).to_contain_text("Kael's lance charge closes the distance")


def movement_roll(page, form, before: list[str], field: str, value: str) -> str:
    """The movement form with ``field`` set to ``value``, sent: the label of the roll it asks for."""
    form.get_by_label(field).fill(value)
    form.get_by_role("button", name="Movement roll").click()
    return new_ref(page, before)


def new_ref(page, before: list[str]) -> str:
    expect(page.locator(".rb-pending")).to_have_count(len(before) + 1)
    return next(r for r in open_refs(page) if r not in before)


def check_table(page, enc: dict, log: list[str], before: dict | None) -> None:
    """The four promises, after a Next."""
    people = {c["id"]: c for c in enc["combatants"]}
    # 1. no open roll of a combatant in the fight vanished without a result or a logged choice
    if before is not None:
        now = {p["ref"] for p in enc["state"].get("pending", [])}
        for p in before["state"].get("pending", []):
            c = people.get(p["combatant"])
            if p["ref"] in now or c is None or out(c):
                continue
            assert any(line.startswith(p["ref"] + " ") or f"{p['ref']} " in line for line in log), (
                f"{p['ref']} of {c['name']} vanished at Next without a word")
    # 2. no form to the fallen
    fallen = [c for c in enc["combatants"] if out(c)]
    for c in fallen:
        assert page.locator(f'.rb-acting[data-id="{c["id"]}"]').count() == 0, f"{c['name']} is offered a turn"
        assert page.locator(f'.rb-card[data-id="{c["id"]}"] form').count() == 0, f"{c['name']}'s card has forms"
        expect(page.locator(f'.rb-slot[data-id="{c["id"]}"]')).to_have_class(re.compile(r"\bfallen\b"))
    # 3. the default target is an enemy in the fight, never one's own mount
    form = page.locator("form[data-form=rb-attack]")
    if form.count():
        me = people[form.get_attribute("data-id")]
        t = people[form.locator('select[name="target"]').input_value()]
        assert not out(t), f"{me['name']}'s default target {t['name']} is out of the fight"
        assert t["side"] != me["side"], f"{me['name']}'s default target {t['name']} is an ally"
        assert t["id"] != me["data"].get("mount"), f"{me['name']}'s default target is their own mount"
    # 4. every token stands where the encounter says
    got = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#map-plan [data-token]')]
        .map(t => [t.dataset.token, t.getAttribute('transform')]))""")
    for cid, c in people.items():
        m = re.match(r"translate\(([-\d.e]+) ([-\d.e]+)\)", got.get(cid) or "")
        assert m, f"no token for {c['name']}"
        x, y = float(m.group(1)), -float(m.group(2))
        assert abs(x - c["position"]["x"]) < 0.05 and abs(y - c["position"]["y"]) < 0.05, (
            f"{c['name']}'s token at ({x}, {y}), the encounter says ({c['position']['x']}, {c['position']['y']})")


class Table:
    """The GM at the table: Next, and after it the checks."""

    def __init__(self, page):
        self.page = page
        self.before = state(page)
        self.nexts = 0

    def log(self) -> list[str]:
        return self.page.locator("#log li").all_inner_texts()

    def next(self, expect_hold: bool = False) -> None:
        page = self.page
        page.locator("#round-bar [data-act=advance]").click()
        if expect_hold:
            expect(page.locator("#rb-hold")).to_be_visible()
            return
        expect(page.locator("#rb-hold")).to_have_count(0)
        self.after()

    def after(self) -> None:
        self.nexts += 1
        enc = state(self.page)
        check_table(self.page, enc, self.log(), self.before)
        self.before = enc


def drag_token(page, cid: str, dx: float, dy: float) -> None:
    """Drag a token on the plan by (dx, dy) metres, as a finger or mouse would."""
    show(page, "map")
    tok = page.locator(f"#tok-{cid}")
    expect(tok).to_be_visible()
    x, y = page.evaluate("""([cid, dx, dy]) => {
        const svg = document.getElementById('map-plan');
        const t = document.getElementById('tok-' + cid);
        const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(t.getAttribute('transform'));
        const a = new DOMPoint(+m[1], +m[2]).matrixTransform(svg.getScreenCTM());
        const b = new DOMPoint(+m[1] + dx, +m[2] - dy).matrixTransform(svg.getScreenCTM());
        return [[a.x, a.y], [b.x, b.y]];
    }""", [cid, dx, dy])
    mouse_drag(page, x, y)
    show(page, "tracker")


# -- the fight -----------------------------------------------------------------------------------------

def test_a_fight_of_thirteen_through_the_page(page, open_app, tmp_path):
    page.set_viewport_size(TABLET)
    open_app(page)
    load(page, tmp_path)
    ids = {c["name"]: c["id"] for c in state(page)["combatants"]}
    page.on("dialog", lambda d: d.accept())  # Remove asks "Remove X from the fight?"

    # -- setup through the page: the mount, the water, High Stealth --------------------------------
    kael = card(page, "Kael")
    kael.get_by_label("Ride", exact=True).select_option(label="Grey")
    kael.get_by_role("button", name="Mount: Kael").click()
    expect(card(page, "Kael").locator(".rb-mount")).to_contain_text("rides Grey")
    expect(card(page, "Nix").locator(".rb-flight")).to_contain_text("no water there")
    areas = page.locator("details.rb-areas")
    if areas.get_attribute("open") is None:
        areas.locator("summary").click()
    mark = rb_mark_area(page, "water", "-25", "0", "short", "Ford pool")
    mark.get_by_label("Water depth (m)").fill("6")
    mark.get_by_role("button", name="Mark the area").click()
    expect(card(page, "Nix").locator(".rb-flight")).to_contain_text("underwater, 3 m below the surface of Ford pool")
    expect(page.locator('#map-plan .area-water')).to_have_count(1)
    # Nix breathes water: no Hold breath; the bandits on the bank are not underwater
    expect(card(page, "Nix").get_by_role("button", name="Hold breath: Nix")).to_have_count(0)
    sly = card(page, "Sly")
    sly.get_by_label("Stealth", exact=True).select_option("high")
    sly.get_by_label("start in it (no roll)").check()
    sly.get_by_role("button", name="Set the stealth level of Sly").click()
    expect(card(page, "Sly").locator(".rb-stealth")).to_have_text("High Stealth")
    page.screenshot(path=SHOTS + "setup.png", full_page=False)

    # -- Start without turn orders: the page says who; the GM goes Back to see them rolled first (the
    # hold's "Roll turn order for all and start" starts at once: tests/e2e/test_range_band.py) ------------
    gm = Table(page)
    gm.next(expect_hold=True)
    expect(page.locator("#rb-hold")).to_contain_text("No turn order yet for 14")
    expect(page.locator("#rb-hold")).to_contain_text("Roll turn order for all and start")
    page.screenshot(path=SHOTS + "no-turn-order.png")
    page.locator("#rb-hold").get_by_role("button", name="Back").click()
    page.locator("form[data-form=rb-roll-order]").get_by_role("button", name="Roll turn order for all").click()
    expect(page.locator("#log li").first).to_contain_text("Turn order rolled (d20, assumed)")
    expect(page.locator("#rb-hold")).to_have_count(0)
    # the strip shows the rolled order at once, before the fight starts (issue 33: it kept the order of adding)
    rolled = state(page)
    by_turn = [c["id"] for c in sorted(rolled["combatants"], key=lambda c: -c["data"]["turn_value"])]
    strip = page.locator("#order-strip li.strip-entry").evaluate_all("ls => ls.map(l => l.dataset.id)")
    values = {c["id"]: c["data"]["turn_value"] for c in rolled["combatants"]}
    assert [values[x] for x in strip] == [values[x] for x in by_turn], "the strip is not in the rolled order"
    # each value still typeable: Sly goes first, Bandit 9 last
    one = page.locator("form.rb-to-one")
    if one.count() == 0:
        for name, v in (("Sly", 30), ("Bandit 9", -1)):
            page.get_by_label(f"Turn order of {name}", exact=True).fill(str(v))
            page.get_by_role("button", name=f"Set the turn order of {name}").click()
            expect(page.locator("#log li").first).to_contain_text(f"{name}: turn order {v}")
    else:
        for name, v in (("Sly", 30), ("Bandit 9", -1)):
            one.get_by_label("Combatant").select_option(label=name)
            one.get_by_label("Turn order").fill(str(v))
            one.get_by_role("button", name="Set the turn order").click()
            expect(page.locator("#log li").first).to_contain_text(f"{name}: turn order {v}")
    gm.before = state(page)
    gm.next()
    expect(page.locator("#round-bar .phase")).to_contain_text("Movement")
    assert current(page) == "Sly"
    page.screenshot(path=SHOTS + "r1-movement.png")
    # the rider, greyed at the end of the strip in the movement phase, says why: it moves with its mount
    expect(page.locator(f'#order-strip li.strip-entry[data-id="{ids["Kael"]}"]')).to_contain_text("moves with Grey")
    # on a tablet the fourteen rows are in the strip once: the turn-order list below is folded, one tap away
    expect(page.locator("details.rb-order-fold")).not_to_have_attribute("open", "")
    expect(page.locator(".rb-order")).to_be_hidden()

    TAPS: dict[str, int] = {}
    failed_move_seen = skipped = dragged = swum = False
    ranged = killed = False
    for rnd in (1, 2):
        # -- the movement phase ----------------------------------------------------------------------
        while "Movement" in page.locator("#round-bar .phase").inner_text():
            who = current(page)
            before = open_refs(page)
            form = page.locator("form[data-form=rb-move]")
            if who == "Grey" and not dragged:
                # the horse (Kael on it) moves by a drag of its token: the drop is the roll's target
                drag_token(page, ids["Grey"], 8, 0)
                ref = new_ref(page, before)
                expect(form.get_by_label("East (x, m)")).to_have_value("8")
                gm_result(page, ref, True, 2)
                expect(card(page, "Kael").locator(".where")).to_contain_text("(8, 0) m")
                dragged = True
            elif who == "Nix" and not swum:
                ref = movement_roll(page, form, before, "Altitude (m)", "-5")
                expect(pending(page, ref).locator(".rb-die")).to_have_text("d10 on underwater SPD")
                fray_rolls(page, ref, "2")  # Fray's dice, the face typed
                expect(card(page, "Nix").locator(".rb-flight")).to_contain_text("5 m below the surface")
                swum = True
            elif who == "Bandit 1" and not failed_move_seen:
                ref = movement_roll(page, form, before, "East (x, m)", "12")
                gm_result(page, ref, False, 4, blunder=True)
                # the failure shows where the GM is looking, not only in the log
                expect(page.locator(".rb-acting .rb-result")).to_contain_text("Movement roll BLUNDERED by 4")
                page.screenshot(path=SHOTS + "failed-move.png")
                failed_move_seen = True
            elif who == "Bandit 2" and not skipped:
                ref = movement_roll(page, form, before, "East (x, m)", "20")
                gm.next(expect_hold=True)  # Next with the roll open: the page says so
                expect(page.locator("#rb-hold")).to_contain_text(f"{ref} Bandit 2: Movement roll")
                page.screenshot(path=SHOTS + "still-open.png")
                page.locator("#rb-hold").get_by_role("button", name="Skip them and go on").click()
                expect(page.locator("#log")).to_contain_text(f"{ref} Bandit 2: Movement roll skipped by the GM at Next")
                gm.after()
                skipped = True
                continue
            gm.next()
        expect(page.locator("#round-bar .phase")).to_contain_text("Action")
        # -- the action phase -------------------------------------------------------------------------
        while "Action" in page.locator("#round-bar .phase").inner_text():
            who = current(page)
            before = open_refs(page)
            attack = page.locator("form[data-form=rb-attack]")
            if who == "Kael" and not killed:
                # the default target: a bandit, never Grey
                target = attack.locator('select[name="target"] option:checked').inner_text()
                assert target.startswith("Bandit"), target
                TAPS["melee"] = attack_with_frays_dice(page, attack, "Lance", before,
                                                       "Kael's lance charge closes the distance")
                victim = target.split(" (")[0]
                # the GM marks the lanced bandit dead on its card
                vc = card(page, victim)
                vc.locator('select[name="status"]').select_option("dead")
                vc.get_by_role("button", name=f"Add the status to {victim}").click()
                expect(page.locator(f'.rb-slot[data-id="{ids[victim]}"]')).to_have_class(re.compile("fallen"))
                assert current(page) == "Kael"  # the turn stays with Kael
                # its card says "dead" once in its body (issue 33: the statuses and the conditions both listed it)
                body = card(page, victim).locator(".card-body")
                shown = body.locator(".rb-status, .cond").filter(has_text="dead")
                assert sum(1 for i in range(shown.count()) if shown.nth(i).is_visible()) == 1
                killed = victim
                page.screenshot(path=SHOTS + "death.png")
            elif who == "Kael":
                target = attack.locator('select[name="target"] option:checked').inner_text()
                assert target.startswith("Bandit"), target
                w = attack.get_by_label("Weapon")
                w.select_option(w.locator("option", has_text="Lance").get_attribute("value"))
                attack.get_by_role("button", name="Offense roll").click()
                lance_or_reason(page, attack, len(before))
                ref = new_ref(page, before)
                gm_result(page, ref, True, 3)
            elif who == "Sly" and not ranged:
                # a stealth attack: the form asks before the roll whether an ally may warn the target ("The
                # surprise advantage of stealth attacks can be mitigated if the defender is warned by one of their
                # allies", Stealth Attacks), and nothing asks it once Fray has rolled, when it can no longer be acted on
                expect(attack.locator(".rb-preview-prompt")).to_contain_text(
                    re.compile(r"Stealth attack on .+: may an ally warn them\?"))
                TAPS["ranged"] = attack_with_frays_dice(page, attack, "Shortbow", before)
                expect(page.locator("#log")).not_to_contain_text("may an ally warn")
                ranged = True
            elif who == "Bandit 3" and rnd == 1:
                # Bandit 3 falls on its own turn (a wound the GM applies): its turn ends, the next one's begins
                bc = card(page, "Bandit 3")
                bc.locator('select[name="status"]').select_option("incapacitated")
                bc.get_by_role("button", name="Add the status to Bandit 3").click()
                expect(page.locator(f'.rb-slot[data-id="{ids["Bandit 3"]}"]')).to_have_class(re.compile("fallen"))
                expect(page.locator("#log")).to_contain_text("Bandit 3 is out of the fight")
                assert current(page) != "Bandit 3"
                gm.after()
                continue
            gm.next()
        if rnd == 1:
            expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    expect(page.locator("#round-bar .round")).to_have_text("Round 3")
    page.screenshot(path=SHOTS + "round3.png")
    assert failed_move_seen and skipped and dragged and swum and ranged and killed
    print("taps per attack with Fray's dice:", TAPS)
    # issue 33 §5, measured here: before, the lance took 5 taps (Offense roll, refused; open "Allow it"; the reason
    # field; Offense roll; Let Fray roll) and the bow 3 (Offense roll, Let Fray roll, Done on the warning note). The
    # lance beyond engaged range is the GM's choice now: the form starts on the crossbow, the weapon that reaches
    assert TAPS["melee"] <= 3 and TAPS["ranged"] <= 1, TAPS

    # -- the fallen: back into the fight, or removed --------------------------------------------------
    # on a tablet the turn-order list is folded under the strip (issue 33): one tap opens it
    fold = page.locator("details.rb-order-fold")
    expect(fold).not_to_have_attribute("open", "")
    fold.locator("summary").click()
    expect(fold).to_have_attribute("open", "")
    row = page.locator(f'.rb-slot[data-id="{ids["Bandit 3"]}"]')
    row.get_by_role("button", name="Bring Bandit 3 back into the fight").click()
    expect(row).not_to_have_class(re.compile("fallen"))
    row = page.locator(f'.rb-slot[data-id="{ids[killed]}"]')
    row.get_by_role("button", name=f"Remove {killed} from the fight").click()
    expect(page.locator(f'.rb-slot[data-id="{ids[killed]}"]')).to_have_count(0)
    assert gm.nexts >= 50

    # -- the same table on a laptop: the swimmer's depth on the map, the checks still hold --------------
    page.set_viewport_size({"width": 1366, "height": 900})
    expect(page.locator(f'#lab-{ids["Nix"]} .state')).to_contain_text("↓5 m")
    check_table(page, state(page), gm.log(), None)
    page.screenshot(path=SHOTS + "laptop.png")
