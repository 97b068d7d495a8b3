"""Issue 32, "A whole fight, played": a strike-rank fight of 13 (five adventurers against six broos and
two wolves) played through the page on a tablet (768×1024), two full Melee Rounds: deaths, a maimed
arm, missile attacks and a reload, moves (a declared one and one on the map), typed dice and Fray's
dice. After every Next it checks what the GM must be able to trust:

* no declared action of a standing combatant vanished without a resolution or a logged choice of the GM;
* no form is offered to a dead, incapacitated or unconscious combatant;
* no default target is one of them, or an ally;
* every token on the map stands where the encounter says it is.

One page for the whole test. Every step waits on what the page shows (``expect``), never on time.
Screenshots: /tmp/sr-flow-*.png.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from gestures import saved
from test_map import load_encounter, preset
from test_strike_rank import advance

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

FALLEN = {"dead", "unconscious", "incapacitated"}
TABLET = {"width": 768, "height": 1024}
WARRIOR, WOLF = "Human warrior", "Great wolf (four-legged)"

# c1..c13, where they stand (x east, y north, m): the broos within reach of the warriors, the wolves
# 20 m off, the archer and the crossbowman behind
PEOPLE = [
    (preset("strike-rank", WARRIOR, name="Vasana", side="party"), 0, 0),       # c1
    (preset("strike-rank", WARRIOR, name="Harrek", side="party"), 0, 4),       # c2
    (preset("strike-rank", "Archer", name="Ayla", side="party"), -6, 2),      # c3
    (preset("strike-rank", "Crossbowman", name="Bolt", side="party"), -6, -2),  # c4
    (preset("strike-rank", WARRIOR, name="Kallyr", side="party"), -4, 6),      # c5
    (preset("strike-rank", WARRIOR, name="Broo 1"), 2, 0),                      # c6
    (preset("strike-rank", WARRIOR, name="Broo 2"), 2, 4),                      # c7
    (preset("strike-rank", WARRIOR, name="Broo 3"), 2, -1.5),                   # c8
    (preset("strike-rank", WARRIOR, name="Broo 4"), 12, 2),                     # c9
    (preset("strike-rank", WARRIOR, name="Broo 5"), 14, 0),                     # c10
    (preset("strike-rank", WARRIOR, name="Broo 6"), 14, 4),                     # c11
    (preset("strike-rank", WOLF, name="Wolf 1"), 20, -4),                       # c12
    (preset("strike-rank", WOLF, name="Wolf 2"), 20, 8),                        # c13
]

PAGE_STATE = """() => ({
    declare: [...document.querySelectorAll('form[data-form="sr-declare"]')].map(f => [f.dataset.id,
        (f.querySelector('select[name="target"]') || {}).value || '']),
    attack: [...document.querySelectorAll('form[data-form="sr-attack"]')].map(f => [f.dataset.attacker,
        f.dataset.ref, (f.querySelector('select[name="target"]') || {}).value || '']),
    tokens: [...document.querySelectorAll('#map [data-token]')].map(t => [t.dataset.token, t.getAttribute('transform')]),
})"""


class Table:
    """The GM's trust, checked after every Next against the encounter the page saved."""

    def __init__(self, page) -> None:
        self.page = page
        self.before = self.saved_now()
        self.nexts = 0

    def next(self, heading: str | None = None) -> None:
        bar = self.page.locator("#round-bar [data-act=advance]")
        bar.click()
        if heading:
            expect(self.page.locator(".sr-phase")).to_contain_text(heading)
        self.check()

    def saved_now(self) -> dict:
        """The saved encounter once it holds every log line the page shows (the autosave follows the
        page a moment later: until then the save in the database is the one before)."""
        shown = self.page.locator("#log li").count()
        # the header says "Saved" only once the browser has committed every change it shows
        enc = saved(self.page)["encounter"]
        assert len(enc["log"]) >= shown, f"the autosave holds {len(enc['log'])} of the {shown} lines of the log"
        return enc

    def check(self) -> None:
        self.nexts += 1
        enc = self.saved_now()
        cs = {c["id"]: c for c in enc["combatants"]}
        fallen = {cid for cid, c in cs.items() if FALLEN & set(c["conditions"])}
        log_by_ref: dict[str, list[str]] = {}
        for e in enc["log"]:
            if e["detail"].get("ref"):
                log_by_ref.setdefault(e["detail"]["ref"], []).append(e["text"])
        now = {a["ref"]: a for a in enc["state"].get("actions", [])}
        for a in self.before["state"].get("actions", []):
            if a["status"] != "declared" or a["combatant"] in fallen or a["combatant"] not in cs:
                continue
            b = now.get(a["ref"])
            if b is None or b["status"] == "declared":
                continue  # withdrawn while declaring (logged by name), or still to come
            who = cs[a["combatant"]]["name"]
            assert b["status"] in ("done", "skipped", "lost", "changed", "aborted", "interrupted"), b
            if b["status"] in ("skipped", "lost"):
                said = log_by_ref.get(a["ref"], [])
                assert said, f"{who}'s {a['kind']} at SR {a['sr']} ended ({b['status']}) without a word"
                assert not any("was not resolved: lost" in t for t in said), said
        seen = self.page.evaluate(PAGE_STATE)
        for cid, target in seen["declare"]:
            assert cid not in fallen, f"a declaration form for the fallen {cs[cid]['name']}"
            if target:
                assert target not in fallen, f"{cs[cid]['name']}'s default target {cs[target]['name']} has fallen"
                assert cs[target]["side"] != cs[cid]["side"], f"{cs[cid]['name']}'s default target is an ally"
        for cid, ref, target in seen["attack"]:
            assert cid not in fallen, f"an attack form for the fallen {cs[cid]['name']}"
            declared = now.get(ref, {}).get("target")
            if target and target != declared:
                assert target not in fallen and cs[target]["side"] != cs[cid]["side"], (cid, target)
            if target == declared and target:
                assert target not in fallen, f"{cs[cid]['name']}'s attack form is set on the fallen {cs[target]['name']}"
        tokens = dict(seen["tokens"])
        assert set(tokens) == set(cs)
        for cid, c in cs.items():
            x, y = (float(v) for v in re.fullmatch(r"translate\((\S+) (\S+)\)", tokens[cid]).groups())
            assert (x, -y) == (c["position"]["x"], c["position"]["y"]), (c["name"], tokens[cid], c["position"])
        self.before = enc


class Taps:
    """Taps on controls, as a GM's finger makes them: a click on a button, a fold's summary or a
    box; a choice in a list; a field tapped to type in (typing into the field that already has the
    focus is not a tap). Counted by the helpers below, as they make each gesture."""

    n = 0

    @classmethod
    def click(cls, loc) -> None:
        cls.n += 1
        loc.click()

    @classmethod
    def choose(cls, ctl, value: str) -> None:
        if ctl.input_value() != value:
            cls.n += 1
            ctl.select_option(value)

    @classmethod
    def type(cls, ctl, text: str) -> None:
        if not ctl.evaluate("e => e === document.activeElement"):
            cls.n += 1
        ctl.fill(text)


def shot(page, name: str) -> None:
    page.screenshot(path=f"/tmp/sr-flow-{name}.png")


def declare(page, cid: str, values: dict[str, str] | None = None, more: dict[str, str] | None = None,
            target_is: str | None = None) -> None:
    """Open ``cid``'s declaration (13 combatants: each is a shut line until opened), check its default
    target, set ``values`` (and the "More" fields) and declare."""
    who = page.locator(f'.sr-who[data-id="{cid}"]')
    n = who.locator(".sr-decl").count()
    fold = who.locator("details.sr-declare-fold")
    if fold.get_attribute("open") is None:
        Taps.click(fold.locator("> summary"))
    form = page.locator(f'form[data-form=sr-declare][data-id="{cid}"]')
    expect(form).to_be_visible()
    if target_is is not None:
        expect(form.locator('[name="target"]')).to_have_value(target_is)
    for k, v in (values or {}).items():
        ctl = form.locator(f'[name="{k}"]')
        Taps.choose(ctl, v) if ctl.evaluate("e => e.tagName") == "SELECT" else Taps.type(ctl, v)
    if more:
        Taps.click(form.locator(".sr-decl-more > summary"))
        for k, v in more.items():
            Taps.type(form.locator(f'[name="{k}"]'), v)
    Taps.click(form.get_by_role("button", name="Declare"))
    expect(who.locator(".sr-decl")).to_have_count(n + 1 if not more else n + 1)


def roll(page, attacker: str, rolls: dict[str, str], defence: str = "none", target: str | None = None) -> None:
    """The attack form of ``attacker`` at this SR: typed dice (blank = Fray rolls), then the exchange."""
    form = page.locator(f'form[data-form=sr-attack][data-attacker="{attacker}"]')
    expect(form).to_be_visible()
    if target:
        Taps.choose(form.locator('[name="target"]'), target)
        form = page.locator(f'form[data-form=sr-attack][data-attacker="{attacker}"]')
        expect(form.locator('[name="target"]')).to_have_value(target)
    Taps.choose(form.locator('[name="defence.kind"]'), defence)
    for k, v in rolls.items():
        Taps.type(form.locator(f'[name="rolls.{k}"]'), v)
    n = page.locator("#log li").count()
    Taps.click(form.get_by_role("button", name="Roll the exchange"))
    expect(page.locator("#log li")).not_to_have_count(n)


def open_attacks(page) -> list[tuple[str, str]]:
    return [(li.get_attribute("data-ref"), li.inner_text()) for li in page.locator(".sr-still-open li").all()]


def resolve_round(page, table: Table, rnd: int) -> None:
    """Next until the next Melee Round's declarations: every attack still open is rolled with a typed miss
    (attack 90) or, every other one, skipped; the questions at the end of the round are answered."""
    skip = False
    for _ in range(60):
        phase = page.locator(".sr-phase").inner_text()
        if f"Melee Round {rnd + 1}" in phase:
            return
        if "End of round" in phase or page.locator(".sr-end form.sr-prompt").count():
            page.locator(".sr-end form.sr-prompt").first.locator("[data-act=sr-answer]").first.click()
            table.check()
            continue
        table.next()
        box = page.locator(".sr-still-open")
        if box.count():
            ref = box.locator("li").first.get_attribute("data-ref")
            if skip:
                box.locator("li").first.get_by_role("button", name="Skip it").click()
                expect(page.locator("#log")).to_contain_text("GM skips")
            elif box.locator("li").first.get_by_role("button", name=re.compile("^Change the attack:")).count():
                # its target is dead (or out of the fight the same way: unconscious, incapacitated): "A
                # combatant may be forced to change actions, e.g. if the target of their attack dies"
                # (Changing Actions), delayed by DEX SR, on the nearest foe standing
                box.locator("li").first.get_by_role("button", name=re.compile("^Change the attack:")).click()
                change = page.locator(f'form[data-form=sr-change][data-ref="{ref}"]')
                expect(change).to_be_visible()
                expect(page.locator(".sr-forced", has=change)).to_contain_text(
                    re.compile("who is (dead|unconscious|incapacitated)"))
                shot(page, "6-forced-change")
                change.locator("button[type=submit]").click()
                expect(change).to_have_count(0)
            else:
                box.locator("li").first.get_by_role("button", name=re.compile("^Resolve:")).click()
                form = page.locator(f'form[data-form=sr-attack][data-ref="{ref}"]')
                expect(form).to_be_visible()
                roll(page, form.get_attribute("data-attacker"), {"attack": "90"})
            skip = not skip
    raise AssertionError(f"Melee Round {rnd} did not end")


@pytest.mark.browser_context_args(viewport=TABLET, has_touch=True, is_mobile=True)
def test_a_whole_fight_of_thirteen_on_a_tablet(page, open_app, tmp_path):
    open_app(page)
    load_encounter(page, tmp_path, "strike-rank", [(p, x, y, 0) for p, x, y in PEOPLE])
    table = Table(page)
    table.next("Declare")

    # -- Melee Round 1: declarations. Each default target is the nearest standing enemy -------------
    taps = {}
    t0 = Taps.n
    declare(page, "c1", target_is="c6")                                  # Vasana → Broo 1, SR 7
    taps["declare Vasana"] = Taps.n - t0
    # Harrek → Broo 3, SR 7: the GM's "small movements and changes of position are assumed to happen as
    # necessary" (Engagement), no metres to move; he strikes him at SR 7, as declared (another target than
    # declared would be a change, delayed by DEX SR: Changing Actions)
    declare(page, "c2", {"target": "c8", "metres": "0"}, target_is="c7")
    t0 = Taps.n
    declare(page, "c3", {"kind": "missile"}, target_is="c6")             # Ayla's bow: SR 2
    taps["declare Ayla"] = Taps.n - t0
    declare(page, "c4", {"kind": "missile", "target": "c12"})            # Bolt's crossbow at Wolf 1
    declare(page, "c5", {"kind": "other"}, more={"label": "Ready a spear", "sr_cost": "2"})
    declare(page, "c6", target_is="c1")                                  # Broo 1 → Vasana, SR 7
    declare(page, "c7", target_is="c2")                                  # Broo 2 → Harrek, SR 7
    declare(page, "c8", target_is="c1")                                  # Broo 3 → Vasana, SR 7
    declare(page, "c9", {"kind": "move", "metres": "6"})                 # Broo 4 closes in
    declare(page, "c12", {"kind": "move", "metres": "9"})                # Wolf 1
    # Broo 5, Broo 6 and Wolf 2 declare nothing: Next says so, and the GM chooses to go on
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".sr-undeclared")
    expect(box).to_contain_text("Not declared: Broo 5, Broo 6, Wolf 2 (3 of 13).")
    expect(page.locator(".sr-phase")).to_contain_text("Declare")
    shot(page, "1-undeclared")
    box.get_by_role("button", name="Go on to resolution").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 2")
    table.check()

    # SR 2: Ayla shoots Broo 1 and misses, typed (with Fray's dice a critical once killed Broo 1 here,
    # whom Vasana must kill at SR 7 below); then on, SR by SR
    t0 = Taps.n
    roll(page, "c3", {"attack": "80"})
    taps["attack, a typed miss (Ayla)"] = Taps.n - t0
    table.next()
    # Bolt's crossbow (DEX SR 3) at Wolf 1, typed: 30 hits the wolf's forequarters (9) for 2D4+2 = 4+3+2
    if page.locator('form[data-form=sr-attack][data-attacker="c4"]').count():
        roll(page, "c4", {"attack": "30", "location": "9", "damage": "4 3"})
        table.next()
    for _ in range(6):  # on to SR 7, the moves and the readied spear resolving by themselves
        if "Resolve SR 7" in page.locator(".sr-phase").inner_text():
            break
        if page.locator(".sr-attack").count():
            roll(page, page.locator("form[data-form=sr-attack]").first.get_attribute("data-attacker"), {"attack": "90"})
        table.next()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    expect(page.locator("#log")).to_contain_text("Kallyr: Ready a spear done")

    # SR 7: five attacks. Vasana kills Broo 1: a critical (1) to the head (19), maximised 1D8+1+1D4 = 13, which
    # no armour stops: total HP 13 − 13 = 0
    t0 = Taps.n
    roll(page, "c1", {"attack": "1", "location": "19", "damage": "8 4"}, target="c6")
    taps["attack with typed dice (Vasana)"] = Taps.n - t0
    Path("/tmp/sr-table-taps.txt").write_text("".join(f"{k}: {v}\n" for k, v in taps.items()))
    # issue 33, §5: with 13 combatants the next to declare waits open (before: 2 taps a declaration, the
    # fold-out then Declare); an attack is the defender's choice and Roll, plus one tap a typed field
    # (attack, location, damage)
    assert taps == {"declare Vasana": 1, "declare Ayla": 1, "attack, a typed miss (Ayla)": 3,
                    "attack with typed dice (Vasana)": 5}, taps
    expect(page.locator("#log")).to_contain_text("Broo 1 is killed")
    # his own SR-7 attack cannot be made: it is lost at once, as an injury's is, in the same words (issue 33)
    expect(page.locator('form[data-form=sr-attack][data-attacker="c6"]')).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Broo 1's attack at SR 7 is lost: Broo 1 is dead")
    # Next with Harrek's, Broo 2's and Broo 3's attacks open: it says so, and moves nowhere
    page.locator("#round-bar [data-act=advance]").click()
    still = page.locator(".sr-still-open")
    expect(still).to_contain_text("Harrek's attack at SR 7 is not resolved")
    expect(still).to_contain_text("Broo 2's attack at SR 7 is not resolved")
    expect(still).to_contain_text("Broo 3's attack at SR 7 is not resolved")
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 7")
    shot(page, "2-still-open")
    table.check()
    still.locator("li", has_text="Broo 2").get_by_role("button", name="Skip it").click()
    expect(page.locator("#log")).to_contain_text("GM skips Broo 2's attack at SR 7: not resolved")
    still.locator("li", has_text="Harrek").get_by_role("button", name="Resolve").click()
    # Harrek maims Broo 3's right arm: 20 hits unparried, location 14 (right arm), 1D8+1+1D4 = 8+1+4 = 13
    # less AP 3 = 10 on an arm of 4 HP: twice its HP or more, maimed; his sword arm is useless
    roll(page, "c2", {"attack": "20", "location": "14", "damage": "8 4"}, target="c8")
    expect(page.locator("#log")).to_contain_text("Broo 3: 10 to Right arm")
    shot(page, "3-maimed")
    # Broo 3's sword arm is maimed: the broadsword cannot be held, so his attack is lost at once, saying why
    # (no form, nothing left open for Next to ask about)
    expect(page.locator("#log")).to_contain_text(
        "Broo 3's attack at SR 7 is lost: Broo 3's right arm is maimed: it cannot hold the broadsword")
    expect(page.locator('form[data-form=sr-attack][data-attacker="c8"]')).to_have_count(0)
    table.next()
    expect(page.locator(".sr-still-open li", has_text="Broo 3")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("Broo 1's attack at SR 7 is lost: Broo 1 is dead")
    resolve_round(page, table, 1)
    expect(page.locator(".sr-phase")).to_contain_text("Melee Round 2")

    # -- Melee Round 2 ---------------------------------------------------------------------------------
    # the dead Broo 1 gets no form, and is nobody's default target: Vasana's is now Broo 3 (2.5 m off)
    expect(page.locator('.sr-who[data-id="c6"]')).to_contain_text("Broo 1 is dead: no actions.")
    expect(page.locator('.sr-who[data-id="c6"] form')).to_have_count(0)
    # a move on the map: Wolf 2 trots 10 m west (the map's own form)
    page.locator("#tab-map").click()  # a tablet: the map is a tab
    page.locator("#tok-c13").click()
    move = page.locator("form[data-form=map-move]")
    move.get_by_label("East (x, m)").fill("10")
    move.get_by_role("button", name="Move").click()
    expect(page.locator("#tok-c13")).to_have_attribute("transform", "translate(10 -8)")
    shot(page, "4-map")
    page.locator("#tab-tracker").click()
    table.check()
    declare(page, "c1", {"target": "c8"})
    declare(page, "c2", target_is="c7")
    declare(page, "c3", {"kind": "missile", "target": "c7"})
    declare(page, "c4", {"kind": "reload"})  # the heavy crossbow shot in MR 1: reloading
    for cid in ("c5", "c7", "c9", "c10", "c11", "c12", "c13"):
        if page.locator(f'.sr-who[data-id="{cid}"] details.sr-declare-fold').count():
            declare(page, cid)
    # Broo 3, his sword arm maimed, declares nothing: the GM goes on
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".sr-undeclared")
    expect(box).to_contain_text("Not declared: Broo 3")
    box.get_by_role("button", name="Go on to resolution").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve")
    table.check()
    # Ayla's arrow kills Broo 2: a critical (1) in the head (20), maximised 1D8+1 (no damage modifier for
    # the bow's half of 1D4... whatever it is, the head of 5 HP takes three times its HP or more)
    if page.locator('form[data-form=sr-attack][data-attacker="c3"]').count():
        roll(page, "c3", {"attack": "1", "location": "20", "damage": "8"}, target="c7")
        shot(page, "5-second-death")
        table.next()
    resolve_round(page, table, 2)
    shot(page, "6-round-3")
    assert table.nexts >= 12
    # the fallen stay in the order strip, greyed, with the card's Remove at hand
    expect(page.locator('#order-strip li.strip-entry[data-id="c6"]')).to_have_class(re.compile("lv-out"))
