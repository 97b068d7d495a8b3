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
import math
import sys
from pathlib import Path

from playwright.sync_api import expect
from gestures import card, import_history  # noqa: E402
from test_strike_rank import new_strike_rank  # noqa: E402
from test_sr_injuries import damage  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

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
    import_history(page, tmp_path, h, 4, "camp")


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


def keep_all(page, names) -> None:
    dlg = party(page)
    for n in names:
        dlg.get_by_role("button", name=f"Keep {n}").click()
        expect(dlg.locator(".status-note")).to_have_text(f"{n} is kept in the party.")
    dlg.get_by_role("button", name="Close").click()


def add_party(page, n: int) -> None:
    dlg = party(page)
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#map [data-token]")).to_have_count(n)


def imported(page, tmp_path, ruleset: str, people: list[dict]) -> None:
    h = History(new_encounter(ruleset, "Camp"))
    for i, body in enumerate(people):
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": 3 * i, "y": 0, "alt": 0}}})
    import_history(page, tmp_path, h, len(people), ruleset)


def test_range_band_fatigue_and_trauma_and_tactical_round_hit_points_carry(page, open_app, tmp_path):
    """Range-band: "this is generalized as post-combat fatigue and applied once the battle ends": the
    charts' proposal is shown at End the fight, changed by the GM, and carried into the next fight.
    Tactical-round: hits taken carry; neither text gives a recovery rule, and Time passes says so."""
    from fray.reducer import apply
    from gestures import new_encounter as new_in_page
    from test_tactical_round import new_tactical

    open_app(page)
    people = [{"name": n, "side": "party", "stats": {"DEX": 5, "CON": 5, "SPD": 5, "WGT": 6}} for n in ("Ilse", "Oru")]
    imported(page, tmp_path, "range-band", people)
    keep_all(page, ("Ilse", "Oru"))
    new_in_page(page, "Ravine", "range-band", "Range bands (turn order, movement phase, major/minor actions)")
    add_party(page, 2)
    page.locator("#round-bar [data-act=advance]").click()  # out of setup: the battle is on
    page.get_by_role("button", name="Start anyway").click()
    end = page.locator("details.rb-end")
    end.locator("summary").click()
    endf = end.locator("form[data-form=rb-end]")
    endf.get_by_label("Battle length (rounds)").fill("3")
    endf.get_by_role("button", name="End the battle").click()
    expect(page.locator(".rb-end h3")).to_contain_text("after 3 rounds")
    # what the assumed charts give for the form's defaults (moderate, combatant) over 3 rounds
    enc = new_encounter("range-band")
    for body in people:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": body})
    enc, _ = apply(enc, {"type": "rb.end_battle", "rounds": 3})
    want = enc.combatants[0].data["post_combat"]
    dlg = party(page)
    dlg.get_by_role("button", name="End the fight…").click()
    f = dlg.locator("form.party-end")
    expect(f.locator('[name="k1.fatigue"]')).to_have_value(str(want["fatigue"]))
    expect(f.locator('[name="k1.trauma"]')).to_have_value(str(want["trauma"]))
    f.locator('[name="k2.fatigue"]').fill("6")
    f.locator('[name="k2.trauma"]').fill("3")
    f.get_by_role("button", name="Write back to the party").click()
    expect(said(dlg, "Oru")).to_have_text("fatigue 6, trauma 3")
    dlg.get_by_role("button", name="Time passes…").click()
    dlg.get_by_label("How long").select_option("week")
    dlg.get_by_role("button", name="Let the time pass").click()
    expect(dlg.locator(".status-note")).to_contain_text("no recovery of post-combat fatigue or trauma")
    expect(said(dlg, "Oru")).to_have_text("fatigue 6, trauma 3")
    # the GM sets the values by hand after the rest; a bad one is refused at the form
    dlg.get_by_title("Change what Oru carries").click()
    ch = dlg.locator("form.party-change")
    expect(ch).to_contain_text("The range-band rules give no recovery of post-combat fatigue or trauma")
    ch.locator('[name="k2.fatigue"]').fill("-1")
    ch.get_by_role("button", name="Keep these values").click()
    expect(ch.locator('[data-error-for="character"]')).to_contain_text("Fatigue must be from 0")
    ch.locator('[name="k2.fatigue"]').fill("4")
    ch.locator('[name="k2.trauma"]').fill("2")
    ch.get_by_role("button", name="Keep these values").click()
    expect(dlg.locator(".status-note")).to_have_text("The GM sets what Oru carries")
    dlg.get_by_role("button", name="Close").click()
    new_in_page(page, "Ford", "range-band", "Range bands (turn order, movement phase, major/minor actions)")
    add_party(page, 2)
    expect(card(page, "Oru")).to_contain_text("Carried from the last fight: fatigue 4, trauma 2")

    # tactical-round: hit points
    imported(page, tmp_path, "tactical-round", [{"name": "Ana", "side": "party", "stats": {"DEF": 20, "HP": 40}}])
    keep_all(page, ("Ana",))
    new_tactical(page, "Bridge")
    add_party(page, 1)
    ana = card(page, "Ana")
    ana.locator("summary", has_text="Damage / heal").click()
    hp = ana.locator("form[data-form=tr-hp]")
    hp.get_by_label("Hits").fill("15")
    hp.get_by_role("button", name="Damage").click()
    expect(ana.locator(".tr-hp-value")).to_have_text("25")
    dlg = party(page)
    dlg.get_by_role("button", name="End the fight…").click()
    f = dlg.locator("form.party-end")
    expect(f.locator('[name="k3.hits_taken"]')).to_have_value("15")
    expect(f).to_contain_text("The rules give no recovery of hit points between fights")
    f.get_by_role("button", name="Write back to the party").click()
    expect(said(dlg, "Ana")).to_have_text("HP 25/40")
    dlg.get_by_role("button", name="Close").click()
    new_tactical(page, "Gate")
    add_party(page, 1)
    expect(card(page, "Ana").locator(".tr-hp-value")).to_have_text("25")


RACE = """async () => {
  const store = await import("./static/store.js");
  await store.open();
  const text = (who) => JSON.stringify({rev: 1, campaign: {format: "fray-campaign", version: 1,
                                                            characters: [], encounters: [{id: who, name: who, ruleset: "strike-rank"}]}});
  const got = await Promise.all([store.putCampaign(text("one"), 0), store.putCampaign(text("two"), 0)]);
  return {got, kept: JSON.parse(await store.meta("campaign")).campaign.encounters[0].id};
}"""


def test_two_tabs_writing_the_party_at_the_same_instant_cannot_both_pass_the_revision_check(page, open_app, tmp_path):
    """The compare-and-write of the campaign is one IndexedDB transaction: of two writes naming the
    same revision at once, one is kept and the other refused (with the revision kept), and the
    page's next party step, made on the revision it read before, is refused and takes the kept party."""
    open_app(page)
    camp_fight(page, tmp_path)
    res = page.evaluate(RACE)
    assert sorted(g["ok"] for g in res["got"]) == [False, True]
    winner = "one" if res["got"][0]["ok"] else "two"
    assert res["kept"] == winner
    assert [g["rev"] for g in res["got"] if not g["ok"]] == [1]
    dlg = party(page)
    dlg.get_by_role("button", name="Keep Vasana").click()
    expect(dlg.locator(".status-note")).to_contain_text("Another tab changed the party since")
    expect(dlg.locator(".party-list li")).to_have_count(0)


def foes_fight(page, tmp_path, name: str = "Ambush") -> None:
    """A strike-rank fight with three foes in a row at the map's middle, imported as a file."""
    h = History(new_encounter("strike-rank", name))
    for i, n in enumerate(("Broo", "Scorpion man", "Tusk rider")):
        h.do({"type": "add_combatant", "combatant": {"name": n, "side": "foes", "stats": dict(STATS),
                                                     "position": {"x": 3 * i, "y": 0, "alt": 0}}})
    import_history(page, tmp_path, h, 3, name)


def test_the_gm_chooses_who_joins_and_the_party_stands_in_formation_on_free_ground(page, open_app, tmp_path):
    """"add the party (or chosen characters) to a new encounter in one tap, placed in a formation on the
    map": every living character is ticked, so one tap adds the party; the GM unticks one and the
    others join, in formation away from the foes (fray.placing: the party to the west of them, a
    token's width apart); the one left out joins later by itself, and never on anyone."""
    from gestures import saved
    from test_map_place import overlaps, show_map

    open_app(page)
    camp_fight(page, tmp_path)
    keep_all(page, NAMES)
    foes_fight(page, tmp_path)
    dlg = party(page)
    for n in NAMES:
        expect(dlg.get_by_label(f"{n} joins this fight")).to_be_checked()
    # none ticked: said at the list, nothing added
    for n in NAMES:
        dlg.get_by_label(f"{n} joins this fight").uncheck()
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(dlg.locator('[data-error-for="characters"]')).to_have_text("tick at least one character to add to this fight")
    expect(page.locator("#map [data-token]")).to_have_count(3)
    for n in ("Vasana", "Yanioth", "Vishi"):
        dlg.get_by_label(f"{n} joins this fight").check()
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#map [data-token]")).to_have_count(6)
    cs = saved(page)["encounter"]["combatants"]
    foes = [(c["position"]["x"], c["position"]["y"]) for c in cs if c["side"] == "foes"]
    ours = {c["name"]: (c["position"]["x"], c["position"]["y"]) for c in cs if c["side"] == "party"}
    assert set(ours) == {"Vasana", "Yanioth", "Vishi"}
    assert all(x < min(fx for fx, _ in foes) for x, _ in ours.values())  # the party to the west
    # a formation: rows of two, three metres apart
    xs, ys = sorted({x for x, _ in ours.values()}), sorted({y for _, y in ours.values()})
    assert xs[1] - xs[0] == 3 and ys[1] - ys[0] == 3
    # Harrek, left out, is still offered and joins by himself, on free ground
    dlg = party(page)
    expect(dlg.get_by_label("Harrek joins this fight")).to_be_checked()
    expect(dlg.locator('input[name^="join."]')).to_have_count(1)
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(page.locator("#map [data-token]")).to_have_count(7)
    cs = saved(page)["encounter"]["combatants"]
    spots = [(c["position"]["x"], c["position"]["y"]) for c in cs]
    assert all(math.hypot(a[0] - b[0], a[1] - b[1]) >= 3 for i, a in enumerate(spots) for b in spots[i + 1:])
    show_map(page)
    assert overlaps(page) == []
    # everyone in the fight: nobody left to tick
    dlg = party(page)
    expect(dlg.locator('input[name^="join."]')).to_have_count(0)
    expect(dlg.get_by_role("button", name="Add the party to this fight")).to_have_count(0)


SWORD = {"name": "Broadsword", "skill": 60, "damage": "1D8+1", "sr": 2, "hp": 12, "type": "slashing"}
SHIELD = {"name": "Shield", "skill": 50, "damage": "1D4", "sr": 3, "hp": 12, "shield": True, "hand": "left"}


def test_weapon_and_shield_hp_and_stuck_weapons_are_changed_by_hand(page, open_app, tmp_path):
    """"weapons stuck in them, weapon and shield HP" carry, and the GM can change them: in Change… and
    in End the fight, each weapon's and shield's HP is a field and each stuck weapon a tick; a value
    out of range is refused at the character and nothing changes."""
    from fray.party import campaign, character

    ch = character.new("strike-rank", {"name": "Vasana", "side": "party", "stats": dict(STATS), "weapons": [SWORD, SHIELD]},
                       "k1", {"weapons": {"shield": 7}, "stuck": [{"weapon": "Orc's Spear", "location": "abdomen"}]})
    path = tmp_path / "party.json"
    path.write_text(campaign.dumps(campaign.add_character(campaign.empty(), ch)), encoding="utf-8")
    open_app(page)
    foes_fight(page, tmp_path)
    dlg = party(page)
    dlg.locator("#party-import").set_input_files(str(path))
    expect(dlg.locator(".status-note")).to_have_text("Imported party.json: 1 character.")
    expect(said(dlg, "Vasana")).to_contain_text("Shield HP 7/12; Orc's Spear stuck in the abdomen")
    dlg.get_by_title("Change what Vasana carries").click()
    f = dlg.locator("form.party-change")
    expect(f.get_by_label("Vasana: Shield HP")).to_have_value("7")
    f.get_by_label("Vasana: Shield HP").fill("20")
    f.get_by_role("button", name="Keep these values").click()
    expect(f.locator('[data-error-for="k1.weapon.shield"]')).to_have_text("Shield HP must be from 0 to 12, not 20")
    expect(f.get_by_label("Vasana: Shield HP")).to_be_focused()
    f.get_by_role("button", name="Back").click()
    expect(said(dlg, "Vasana")).to_contain_text("Shield HP 7/12; Orc's Spear stuck in the abdomen")
    dlg.get_by_title("Change what Vasana carries").click()
    f.get_by_label("Vasana: Shield HP").fill("9")
    f.get_by_label("Vasana: Broadsword HP").fill("10")
    f.get_by_label("Orc's Spear stuck in the abdomen").uncheck()
    f.get_by_role("button", name="Keep these values").click()
    expect(said(dlg, "Vasana")).to_have_text("Broadsword HP 10/12; Shield HP 9/12; total HP 13/13")
    # into the fight and out of it: End the fight shows the same fields
    dlg.get_by_role("button", name="Add the party to this fight").click()
    expect(page.locator("#map [data-token]")).to_have_count(4)
    dlg = party(page)
    dlg.get_by_role("button", name="End the fight…").click()
    end = dlg.locator("form.party-end")
    expect(end.get_by_label("Vasana: Shield HP")).to_have_value("9")
    end.get_by_label("Vasana: Shield HP").fill("-2")
    end.get_by_role("button", name="Write back to the party").click()
    expect(end.locator('[data-error-for="k1.weapon.shield"]')).to_have_text("Shield HP must be from 0 to 12, not -2")
    end.get_by_label("Vasana: Shield HP").fill("5")
    end.get_by_label("Vasana: Broadsword HP").fill("12")
    end.get_by_role("button", name="Write back to the party").click()
    expect(said(dlg, "Vasana")).to_have_text("Shield HP 5/12; total HP 13/13")


def test_a_character_is_made_each_of_the_four_ways_and_joins_the_next_fight(page, open_app):
    """Characters "made from the add form, a ready-made combatant or a bestiary template, or taken from
    a combatant in a fight": a combatant typed in the add form is kept; one wounded in the fight is
    kept with its wound; the Party dialog makes one from a ready-made combatant of this game and one
    from the GM's bestiary template; all four join the next fight."""
    from gestures import open_add_dialog

    open_app(page)
    new_strike_rank(page, "Camp")
    for name, bestiary in (("Rurik", False), ("Gorakiki", True), ("Sora", False)):
        dlg = open_add_dialog(page)
        dlg.locator('[name="combatant.name"]').fill(name)
        dlg.locator('[name="combatant.side"]').select_option("party")
        for stat in ("STR", "CON", "SIZ", "DEX"):
            dlg.locator(f'[name="combatant.stats.{stat}"]').fill("13")
        if bestiary:
            dlg.get_by_label("Keep in my bestiary").check()
        dlg.get_by_role("button", name="Add", exact=True).click()
        expect(dlg).to_be_hidden()
    damage(page, "Sora", "left_leg", "3")
    dlg = party(page)
    dlg.get_by_role("button", name="Keep Rurik").click()  # the add form's combatant, unhurt
    expect(dlg.locator(".status-note")).to_have_text("Rurik is kept in the party.")
    dlg.get_by_role("button", name="Keep Sora").click()  # taken from the fight, with its wound
    expect(said(dlg, "Sora")).to_contain_text("Left leg")
    make = dlg.get_by_label("New character from")
    expect(make.locator('optgroup[label="My bestiary"] option')).to_have_text(["Gorakiki"])
    make.select_option(label="Human warrior")
    dlg.get_by_role("button", name="Make the character").click()
    expect(dlg.locator(".status-note")).to_have_text("Human warrior is kept in the party.")
    dlg.get_by_label("New character from").select_option(label="Gorakiki")
    dlg.get_by_role("button", name="Make the character").click()
    expect(dlg.locator(".status-note")).to_have_text("Gorakiki is kept in the party.")
    expect(dlg.locator(".party-list .who")).to_have_text(["Rurik", "Sora", "Human warrior", "Gorakiki"])
    expect(dlg.get_by_role("button", name="Keep Gorakiki")).to_have_count(0)  # kept already, by its name
    dlg.get_by_role("button", name="Close").click()
    new_strike_rank(page, "Road")
    add_party(page, 4)
    expect(card(page, "Human warrior")).to_contain_text("Broadsword")  # the ready-made one's own weapon
    # CON 13, SIZ 13: legs 5 HP; Sora took 3 in the first fight
    expect(card(page, "Sora").locator('.sr-loc[data-loc="left_leg"] .hp')).to_have_text("2/5 HP")
    expect(card(page, "Rurik").locator('.sr-loc[data-loc="left_leg"] .hp')).to_have_text("5/5 HP")
