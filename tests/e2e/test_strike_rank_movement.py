"""Strike-rank movement after declaring, in the page: a fighter knocked back, a token the GM drags on
the map and a closing attacker's last spot (a GM's whole fights: a fighter knocked 5 m back still struck
at her old SR; one dragged 13 m away jumped to her target at it; one closing on a foe stopped a metre
from another). Each fight is built with the engine, imported as a save, then played in the page with
typed dice; every step waits on what the page shows.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
for p in (ROOT / "py", ROOT / "tests" / "games" / "strike_rank"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
from gestures import import_history  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from sr_helpers import fighter  # noqa: E402
from test_strike_rank import attack  # noqa: E402

SIZES = [{"width": 768, "height": 1024}, {"width": 1366, "height": 900}]
GREATSWORD = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def load(page, tmp_path, people: list[dict], actions: list[dict]) -> None:
    """A fight made with the engine (``people`` added, then ``actions``), opened in the page as a save."""
    h = History(new_encounter("strike-rank", "Movement after declaring"))
    for c in people:
        h.do({"type": "add_combatant", "combatant": c})
    for a in actions:
        h.do(a)
    import_history(page, tmp_path, h, len(people), "movement")


def roll_exchange(page, rolls: dict[str, str], defence: str = "none", parry_with: str | None = None) -> None:
    attack(page, defence, rolls, parry_with)


def next_to(page, heading: str) -> None:
    page.locator("#round-bar [data-act=advance]").click()
    expect(page.locator(".sr-phase")).to_contain_text(heading)


def show_map(page) -> None:
    if not page.locator("#tok-c1").is_visible():
        page.get_by_role("tab", name="Map").click()
    expect(page.locator("#tok-c1")).to_be_visible()


def show_tracker(page) -> None:
    """On a tablet the map and the tracker are tabs: the round bar's Next is on the tracker's."""
    if not page.locator("#round-bar [data-act=advance]").is_visible():
        page.get_by_role("tab", name="Tracker").click()
    expect(page.locator("#round-bar [data-act=advance]")).to_be_visible()


def token_at(page, cid: str) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", page.locator(f"#tok-{cid}").get_attribute("transform"))
    return float(m.group(1)), -float(m.group(2))


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_fighter_knocked_back_after_declaring_strikes_later_in_the_page(page, open_app, tmp_path, size):
    """Attacking: the attack "may be delayed by movement: if a human (Movement 3m) must move 6m to get within melee
    range of an opponent, the attack will be delayed by 2 SR". Bor declared at SR 7 from 2 m; Ana's Greatsword
    knocks him 5 m back; once the GM answers "No collision", the order of play shows him at SR 9 (4 m to close
    at 3 m/SR) and the log says why."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Ana", GREATSWORD, side="party", x=0, y=0), fighter("Bor", x=2, y=0, armour=6)], [
        {"type": "advance"},
        {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "greatsword", "target": "c2"},
        {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1"},
        {"type": "advance"}])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 6")
    expect(page.locator(".sr-order li[data-ref=a2]")).to_contain_text("SR 7")
    roll_exchange(page, {"attack": "10", "defence": "30", "location": "10", "damage": "8 8 4"}, "parry", "broadsword")
    prompt = page.locator("form[data-form=sr-prompt]", has_text="knocked back 5 m")
    expect(prompt).to_be_visible()
    prompt.get_by_role("button", name="No collision").click()
    expect(page.locator("#log")).to_contain_text("Bor was knocked back: Bor's melee attack with Broadsword now at SR 9")
    expect(page.locator(".sr-order li[data-ref=a2]")).to_contain_text("SR 9")
    page.screenshot(path=f"/tmp/sr-knocked-back-{size['width']}.png", full_page=False)
    next_to(page, "Resolve SR 9")
    roll_exchange(page, {"attack": "90"})
    expect(page.locator("#log")).to_contain_text("Bor closes 4 m to Ana")
    show_map(page)
    assert token_at(page, "c2") == (3, 0)


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_token_dragged_after_declaring_is_timed_again_and_does_not_jump(page, open_app, tmp_path, size):
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will be
    delayed by 2 SR". Bor declared at SR 7 from 2 m; the GM moves his token to 15 m on the map: his attack is now
    at SR 11 (12 m at 3 m/SR), and at SR 11 he closes those 12 m to Ana's reach, landing 3 m from her, not on
    her; moved to 21 m instead, the attack is past SR 12 and the log says it is lost."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Ana", side="party", x=0, y=0), fighter("Bor", x=2, y=0)], [
        {"type": "advance"},
        {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1"}])
    expect(page.locator('.sr-who[data-id="c2"] .sr-decl')).to_contain_text("SR 7")
    show_map(page)
    page.locator("#tok-c2").click()
    form = page.locator('#map-info form[data-form="map-move"]')
    form.locator('[name="x"]').fill("15")
    form.get_by_role("button", name="Move").click()
    expect(page.locator("#tok-c2")).to_have_attribute("transform", "translate(15 0)")
    expect(page.locator("#log")).to_contain_text("Bor was moved on the map: Bor's melee attack with Broadsword now at SR 11")
    page.screenshot(path=f"/tmp/sr-dragged-{size['width']}.png", full_page=False)
    show_tracker(page)
    expect(page.locator('.sr-who[data-id="c2"] .sr-decl')).to_contain_text("SR 11 = DEX 3 + SIZ 2 + weapon 2 + move 4")
    page.locator("#round-bar [data-act=advance]").click()
    asked = page.locator(".sr-undeclared")
    expect(asked.or_(page.locator(".sr-phase", has_text="Resolve SR 11"))).to_be_visible()
    if asked.count():
        asked.get_by_role("button", name="Go on to resolution").click()
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 11")
    roll_exchange(page, {"attack": "90"})
    expect(page.locator("#log")).to_contain_text("Bor closes 12 m to Ana")
    show_map(page)
    assert token_at(page, "c2") == (3, 0)
    show_tracker(page)
    page.locator("#btn-undo").click()  # the attack undone: Bor stands at 15 m again
    show_map(page)
    expect(page.locator("#tok-c2")).to_have_attribute("transform", "translate(15 0)")
    if page.locator("#tok-c2").get_attribute("aria-pressed") != "true":
        page.locator("#tok-c2").click()  # still chosen after the undo, or chosen again
    form.locator('[name="x"]').fill("21")
    form.get_by_role("button", name="Move").click()
    expect(page.locator("#log")).to_contain_text("is past SR 12: the attack is lost")


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_closing_attacker_stops_clear_of_another_foe_in_the_page(page, open_app, tmp_path, size):
    """Engagement: "For human-sized combatants, engagement range is about 3 meters or less". Yanioth closes on Broo
    10 m off with Orlanth 2 m short of him on her line: she ends within 3 m of Broo and at least 1.5 m (half Add ×N's
    step) from Orlanth, not a metre in front of him."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Yanioth", side="party", x=0, y=0), fighter("Broo", x=10, y=0),
                          fighter("Orlanth", x=8, y=0)], [
        {"type": "advance"},
        {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "broadsword", "target": "c2"},
        {"type": "advance"}])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 10")
    roll_exchange(page, {"attack": "90"})
    expect(page.locator("#log")).to_contain_text("Yanioth closes")
    show_map(page)
    x, y = token_at(page, "c1")
    assert math.hypot(x - 10, y) <= 3.0 + 1e-6 and math.hypot(x - 8, y) >= 1.5 - 0.02, (x, y)
    page.screenshot(path=f"/tmp/sr-closing-clear-{size['width']}.png", full_page=False)


SPEAR = {"name": "Spear", "skill": 60, "damage": "1D8+1", "sr": 1, "hp": 10, "type": "impaling", "hafted": True,
         "spear": True, "hand": "both"}


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_a_braced_spear_strikes_where_it_stands_with_the_chargers_damage_modifier(page, open_app, tmp_path, size):
    """Bracing for a Charge: "A combatant wielding a spear who is charged can brace the spear to receive the attack.
    They attack at the weapon's SR + the SR required for the charging movement (ignoring DEX SR and SIZ SR), and the
    attack uses the charger's (or their mount's) damage bonus instead of the wielder's." A GM's play: the braced
    Spearmaiden's form said her own +1D4 and, at her SR, she walked 6.9 m to the charging wolf. In the page her
    declaration says the wolf's run, the heading the wolf's +1D6, and her token stays where she braced."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Spearmaiden", SPEAR, side="party", x=0, y=0),
                          fighter("Wolf 2", x=9.93, y=0, STR=20, SIZ=20)], [
        {"type": "advance"},
        {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1", "charge": True},
        {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "spear", "brace_against": "c2"},
        {"type": "advance"}])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 3")
    expect(page.locator(".sr-order li[data-ref=a2]")).to_contain_text(
        "SR 3 = weapon 1 + charge 2 (braced: no DEX or SIZ SR) (Wolf 2's charge: closes 6.9 m running at 6 m a "
        "strike rank: +2 SR)")
    form = page.locator("form[data-form=sr-attack]")
    expect(form.locator("h3")).to_have_text("SR 3: Spearmaiden attacks with Spear 60%, 1D8+1 +1D6 (Wolf 2's damage "
                                             "modifier)")
    page.screenshot(path=f"/tmp/sr-braced-{size['width']}.png", full_page=False)
    roll_exchange(page, {"attack": "90"})
    expect(page.locator("#log")).to_contain_text("Spearmaiden attacks Wolf 2 with Spear")
    expect(page.locator("#log")).not_to_contain_text("Spearmaiden closes")
    show_map(page)
    assert token_at(page, "c1") == (0, 0)


@pytest.mark.parametrize("size", SIZES, ids=["tablet", "desktop"])
def test_one_knocked_back_and_made_to_crawl_loses_the_attack_in_the_page(page, open_app, tmp_path, size):
    """Maimed leg: "If half or more of a combatant's legs are maimed, they cannot stand (crawl at 1m rate ...)";
    Changing Actions: "If an attack is pushed past SR 12, it is lost." A GM's play: Kallyr and Broo 3 closed on each
    other; Kallyr's blow at SR 8 maimed Broo 3's leg and knocked him back 5 m, and Broo 3 still closed and struck at
    his old SR 9. Once the GM answers "No collision", the log says Broo 3's attack is lost (5 m crawled from SR 8)
    and the order of play no longer offers it."""
    page.set_viewport_size(size)
    open_app(page)
    load(page, tmp_path, [fighter("Kallyr", GREATSWORD, side="party", x=0, y=0),
                          fighter("Broo 3", x=10.82, y=0, armour=12)], [
        {"type": "advance"},
        {"type": "sr.declare", "id": "c1", "kind": "melee", "weapon": "greatsword", "target": "c2"},
        {"type": "sr.declare", "id": "c2", "kind": "melee", "weapon": "broadsword", "target": "c1"},
        {"type": "advance"}])
    expect(page.locator(".sr-phase")).to_contain_text("Resolve SR 8")
    expect(page.locator(".sr-order li[data-ref=a2]")).to_contain_text("closing together")
    # right leg (1-4): 8 + 8 + 2 + 1D4 4 = 22 rolled, 5 m back; AP 12: 10 to the leg (HP 5), maimed
    roll_exchange(page, {"attack": "10", "location": "2", "damage": "8 8 4"})
    prompt = page.locator("form[data-form=sr-prompt]", has_text="knocked back 5 m")
    expect(prompt).to_be_visible()
    prompt.get_by_role("button", name="No collision").click()
    expect(page.locator("#log")).to_contain_text("Broo 3 was knocked back: Broo 3's melee attack with Broadsword: "
                                                 "SR 13 = movement from SR 8 + move 5")
    expect(page.locator("#log")).to_contain_text("is past SR 12: the attack is lost")
    expect(page.locator(".sr-order li[data-ref=a2]")).to_have_count(0)
    page.screenshot(path=f"/tmp/sr-crawl-lost-{size['width']}.png", full_page=False)
