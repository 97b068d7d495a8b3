"""Issue 35, "The party outlives the fight", in the page: a strike-rank party of four is kept from a
fight, joins the next one in formation, ends it with a maimed leg and a serious arm wound that got
First Aid, a day and then a week pass, and a third fight shows each location as the rules say
(the figures are worked in tests/unit/test_party.py); a reload at each step loses nothing; the
party exported and imported in a fresh profile is the same; a party file with a wound on a hit
location the body does not have is refused at the import, and the party is unchanged.

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from playwright.sync_api import expect
from gestures import card  # noqa: E402
from test_strike_rank import new_strike_rank  # noqa: E402
from test_sr_injuries import damage  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray import savefile  # noqa: E402
from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402

NAMES = ("Vasana", "Harrek", "Yanioth", "Vishi")
# CON 13 + SIZ 13: total HP 13, legs 5, arms 4; Healing Rate 3
STATS = {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 13, "first_aid": 50}


def camp_fight(page, tmp_path) -> None:
    h = History(new_encounter("strike-rank", "Camp"))
    for i, n in enumerate(NAMES):
        h.do({"type": "add_combatant", "combatant": {"name": n, "side": "party", "stats": dict(STATS),
                                                     "position": {"x": 3 * i, "y": 0, "alt": 0}}})
    path = tmp_path / "camp.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    page.set_input_files("#file-import", str(path))
    expect(page.locator("#map [data-token]")).to_have_count(4)


def party(page):
    page.locator("#btn-party").click()
    dlg = page.locator("#dlg")
    expect(dlg.get_by_role("heading", name="The party")).to_be_visible()
    return dlg


def said(dlg, name: str):
    return dlg.locator(".party-list li", has=dlg.page.locator(".who", has_text=name)).locator(".hint")


def test_a_party_carries_its_wounds_heals_with_time_and_moves_to_a_fresh_profile(page, open_app, wait_ready,
                                                                                 tmp_path, launch_persistent):
    open_app(page)
    camp_fight(page, tmp_path)
    dlg = party(page)
    for n in NAMES:
        dlg.get_by_role("button", name=f"Keep {n}").click()
        expect(dlg.locator(".status-note")).to_have_text(f"{n} is kept in the party.")
    expect(dlg.locator(".party-list .who")).to_have_text(list(NAMES))
    dlg.get_by_role("button", name="Close").click()
    # the next fight: the party joins in formation, each linked to its character
    new_strike_rank(page, "Ambush")
    dlg = party(page)
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#map [data-token]")).to_have_count(4)
    # left leg 5 HP: 11 → −6, maimed; right arm 4 HP: 5 → −1, serious
    damage(page, "Vasana", "left_leg", "11")
    damage(page, "Harrek", "right_arm", "5")
    dlg = party(page)
    dlg.get_by_role("button", name="End the fight…").click()
    end = dlg.locator("form.party-end")
    expect(end.locator('[name="k1.hp.left_leg"]')).to_have_value("-6")
    expect(end.locator('[name="k1.bleeding.left_leg"]')).to_be_checked()
    expect(end.locator('[name="k1.total"]')).to_have_value("2")
    # the GM: First Aid stopped the leg's bleeding; the arm had its First Aid too
    end.locator('[name="k1.bleeding.left_leg"]').uncheck()
    end.locator('[name="k1.first_aid.left_leg"]').check()
    end.locator('[name="k2.first_aid.right_arm"]').check()
    # a bad value is refused at its character, nothing written
    end.locator('[name="k2.total"]').fill("40")
    end.get_by_role("button", name="Write back to the party").click()
    expect(end.locator('[data-error-for="carry.k2"]')).to_contain_text("Total HP must be from")
    end.locator('[name="k2.total"]').fill("8")
    end.get_by_role("button", name="Write back to the party").click()
    expect(dlg.locator(".status-note")).to_contain_text("Vasana comes out of Ambush")
    expect(said(dlg, "Vasana")).to_contain_text("Left leg -6/5 maimed (First Aid given)")
    expect(said(dlg, "Harrek")).to_contain_text("Right arm -1/4 serious (First Aid given)")
    page.reload()
    wait_ready(page)
    dlg = party(page)
    expect(said(dlg, "Vasana")).to_contain_text("total HP 2/13")
    # a day: the maimed leg waits for its week; the arm heals HR 3: 2/4, total 11
    dlg.get_by_role("button", name="Time passes…").click()
    dlg.get_by_label("How long").select_option("day")
    dlg.get_by_role("button", name="Let the time pass").click()
    expect(said(dlg, "Harrek")).to_contain_text("Right arm 2/4 minor")
    expect(said(dlg, "Vasana")).to_contain_text("Left leg -6/5 maimed")
    page.reload()
    wait_ready(page)
    dlg = party(page)
    expect(said(dlg, "Harrek")).to_contain_text("total HP 11/13")
    dlg.get_by_role("button", name="Time passes…").click()
    dlg.get_by_label("How long").select_option("week")
    dlg.get_by_role("button", name="Let the time pass").click()
    # the week ends the leg's: −3, serious; the next day +3: 0/5 serious, total 8; the arm whole
    expect(said(dlg, "Vasana")).to_contain_text("Left leg 0/5 serious")
    expect(said(dlg, "Vasana")).to_contain_text("total HP 8/13")
    expect(said(dlg, "Harrek")).to_have_text("total HP 13/13")
    # undo of a party step, and back by doing it again
    dlg.get_by_role("button", name="Undo: time passes").click()
    expect(said(dlg, "Vasana")).to_contain_text("Left leg -6/5 maimed")
    dlg.get_by_role("button", name="Time passes…").click()
    dlg.get_by_label("How long").select_option("week")
    dlg.get_by_role("button", name="Let the time pass").click()
    expect(said(dlg, "Vasana")).to_contain_text("Left leg 0/5 serious")
    dlg.get_by_role("button", name="Close").click()
    # a third fight: each location as the rules left it
    new_strike_rank(page, "Ruins")
    dlg = party(page)
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(dlg).to_be_hidden()
    leg = card(page, "Vasana").locator('.sr-loc[data-loc="left_leg"]')
    expect(leg.locator(".hp")).to_have_text("0/5 HP")
    expect(card(page, "Harrek").locator('.sr-loc[data-loc="right_arm"] .hp')).to_have_text("4/4 HP")
    page.reload()
    wait_ready(page)
    expect(card(page, "Vasana").locator('.sr-loc[data-loc="left_leg"] .hp')).to_have_text("0/5 HP")
    # export, and import in a fresh profile: the same party
    dlg = party(page)
    with page.expect_download() as dl:
        dlg.get_by_role("button", name="Export the party").click()
    path = tmp_path / "party.json"
    dl.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported["format"] == "fray-campaign" and len(exported["characters"]) == 4
    fresh = launch_persistent(tmp_path / "fresh-profile")
    p2 = fresh.pages[0] if fresh.pages else fresh.new_page()
    open_app(p2)
    d2 = party(p2)
    expect(d2.locator(".party-list li")).to_have_count(0)
    bad = json.loads(json.dumps(exported))
    bad["characters"][0]["carried"]["locations"]["tail"] = {"hp": -1}
    bad_path = tmp_path / "bad-party.json"
    bad_path.write_text(json.dumps(bad), encoding="utf-8")
    d2.locator("#party-import").set_input_files(str(bad_path))
    expect(d2.locator("#party-error")).to_contain_text("has no hit location “tail”")
    expect(d2.locator("#party-error")).to_contain_text("The party is unchanged")
    expect(d2.locator(".party-list li")).to_have_count(0)
    d2.locator("#party-import").set_input_files(str(path))
    expect(d2.locator(".status-note")).to_have_text("Imported party.json: 4 characters.")
    for n in NAMES:
        expect(said(d2, n)).to_have_text(said(dlg, n).inner_text())
    with p2.expect_download() as dl2:
        d2.get_by_role("button", name="Export the party").click()
    again = tmp_path / "again.json"
    dl2.value.save_as(again)
    assert json.loads(again.read_text(encoding="utf-8")) == exported
