"""Issue 32 in the page (strike-rank): wounds are applied, not only described, and a move the engine
resolves moves the token.

* a maimed leg makes the combatant prone by itself ("If half or more of a combatant's legs are
  maimed, they cannot stand");
* a maimed shield arm takes the shield off the parry choices ("Arm: Arm cannot wield weapons or
  shields, cannot attack or parry"), for a shield typed without its hand too (the old add form);
* a move resolved by the engine puts the token where it went: the SVG token stands where the
  encounter says.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from playwright.sync_api import expect
from gestures import card, import_history, saved  # noqa: E402
from test_strike_rank import advance, declare  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from fray.games import get_ruleset  # noqa: E402

PRESETS = {p["name"]: p for p in get_ruleset("strike-rank").presets()}
# weapons as the add form sent them before it asked for a hand: none names one
OLD_WEAPONS = [{"name": "Broadsword", "skill": 65, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing"},
               {"name": "Shield", "skill": 55, "damage": "1D4", "sr": 3, "hp": 12, "type": "crushing",
                "shield": True}]


def load(page, tmp_path, people: list[tuple[dict, float, float]]) -> None:
    """Import a strike-rank encounter of ``people`` (combatant, x, y) in MR 1's declarations."""
    h = History(new_encounter("strike-rank", "Wounds"))
    for body, x, y in people:
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": 0}}})
    h.do({"type": "advance"})
    import_history(page, tmp_path, h, len(people), "wounds")
    expect(page.locator(".sr-phase")).to_contain_text("Declare")


def warrior(name: str, side: str = "party", **over) -> dict:
    p = PRESETS["Human warrior"]
    return {**{k: v for k, v in p.items() if k != "notes"}, "name": name, "side": side, **over}


def damage(page, name: str, location: str, amount: str) -> None:
    c = card(page, name)
    if c.locator("form[data-form=sr-damage]").count() == 0:
        c.locator("summary", has_text="Damage / First Aid").click()
    dmg = c.locator("form[data-form=sr-damage]")
    dmg.locator('[name="location"]').select_option(location)
    dmg.locator('[name="amount"]').fill(amount)
    n = page.locator("#log li").count()
    dmg.get_by_role("button", name="Apply damage").click()
    expect(page.locator("#log li")).not_to_have_count(n)


def test_a_maimed_leg_makes_the_combatant_prone_by_itself(page, open_app, tmp_path):
    open_app(page)
    load(page, tmp_path, [(warrior("Vasana"), 0, 0), (warrior("Broo", "foes"), 12, 0)])
    expect(page.locator("#tok-c1")).not_to_have_class(re.compile(r"\bprone\b"))
    # right leg HP 5, AP 2: 12 − 2 = 10 → −5, maimed; one of her two legs: "cannot stand"
    damage(page, "Vasana", "right_leg", "12")
    c = card(page, "Vasana")
    expect(c.locator("li.cond", has_text="prone")).to_have_count(1)
    expect(page.locator("#tok-c1")).to_have_class(re.compile(r"\bprone\b"))
    expect(page.locator("#log")).to_contain_text("Vasana falls prone: half or more legs maimed: cannot stand")


def test_a_maimed_shield_arm_takes_the_shield_off_the_parry_choices(page, open_app, tmp_path):
    open_app(page)
    load(page, tmp_path, [(warrior("Yanioth", weapons=OLD_WEAPONS), 0, 0), (warrior("Broo", "foes"), 2, 0)])
    # the wolf-like Broo attacks Yanioth at SR 7; she has not been hurt yet: both are parry choices
    declare(page, "c2", "broadsword", "c1", "SR 7")
    # left arm HP 4, AP 3: 11 − 3 = 8 → −4, maimed
    damage(page, "Yanioth", "left_arm", "11")
    expect(card(page, "Yanioth").locator(".sr-weapons tr.unusable")).to_contain_text(
        "Yanioth's left arm is maimed: it cannot hold the shield")
    advance(page, "Resolve SR 7")  # Next asks about the undeclared; the GM goes on to resolution
    att = page.locator("form[data-form=sr-attack]")
    expect(att).to_have_count(1)
    parry = att.locator('[name="defence.weapon"] option')
    expect(parry).to_have_count(1)
    expect(parry).to_have_text(["Broadsword (65%)"])


def test_a_move_the_engine_resolves_moves_the_token(page, open_app, tmp_path):
    open_app(page)
    load(page, tmp_path, [(warrior("Yanioth"), 0, 0), (warrior("Broo", "foes"), 12, 0)])
    expect(page.locator("#tok-c1")).to_have_attribute("transform", "translate(0 0)")
    form = page.locator('form[data-form=sr-declare][data-id="c1"]')
    form.locator('[name="kind"]').select_option("move")
    form.locator('[name="target"]').select_option("c2")
    form.locator("button[type=submit]").click()
    # 12 m less the 3 m engagement range: 9 m at 3 m per SR
    expect(page.locator('.sr-who[data-id="c1"] .sr-decl')).to_contain_text("SR 3")
    advance(page, "Resolve SR 3")  # Next asks about the undeclared; the GM goes on to resolution
    page.get_by_role("button", name="Resolve Yanioth's action").click()
    expect(page.locator("#log")).to_contain_text("Yanioth finishes moving 9 m toward Broo")
    expect(page.locator("#tok-c1")).to_have_attribute("transform", "translate(9 0)")
    pos = next(c for c in saved(page)["encounter"]["combatants"] if c["id"] == "c1")["position"]
    tx, ty = re.fullmatch(r"translate\((\S+) (\S+)\)", page.locator("#tok-c1").get_attribute("transform")).groups()
    assert (float(tx), -float(ty)) == (pos["x"], pos["y"]) == (9, 0)
    expect(card(page, "Yanioth", open_=False).locator(".where")).to_have_text("(9, 0) m")
