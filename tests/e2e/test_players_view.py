"""The players' view on a second window (issue 12, "The players' view").

Issue: ""Open players' view" opens the page with `?view=players`, which shows what the players may
see and follows every change within a frame, offline, with no server (BroadcastChannel between the
two windows; a reload of either restores it)." and "End-to-end tests open both windows in one
browser context and check that a change in the GM's window appears in the players' window, that
hidden combatants never appear in its DOM, and that it works with the network off. Large type and
high contrast, readable across a table; screenshots at 1920×1080."
"""

from __future__ import annotations

from pathlib import Path

from gestures import add_combatant, card, new_encounter, new_freeform, open_add_dialog
from playwright.sync_api import expect

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "players-view"
FULL_HD = {"width": 1920, "height": 1080}


def players_dialog(page):
    page.locator("#btn-players").click()
    dlg = page.locator("#dlg")
    expect(dlg.get_by_role("heading", name="Players\u2019 view")).to_be_visible()
    return dlg


def open_players(page, wait_ready):
    """"Open players' view" in the GM's window: a second window of the same context."""
    dlg = players_dialog(page)
    with page.context.expect_page() as info:
        dlg.get_by_role("button", name="Open players\u2019 view").click()
    pv = info.value
    page.watch.attach_page(pv)  # console errors in the players' window fail the test too
    wait_ready(pv)
    assert pv.url.endswith("/players.html")
    # no interpreter in the players' window (issue 36: a second Pyodide doubled WebKit's memory)
    assert pv.evaluate("typeof globalThis.loadPyodide === 'undefined' && !document.querySelector('script[type=py], script[type=module]')")
    dlg.get_by_role("button", name="Close").click()
    return pv


def setup_fight(page):
    new_freeform(page, "Bridge at dusk")
    add_combatant(page, "Bran", "initiative: 14\nHP: 12\nmax HP: 12", side="party")
    add_combatant(page, "Ambusher", "initiative: 9\nHP: 8\nmax HP: 8", side="foes")
    card(page, "Ambusher").get_by_role("button", name="Edit").click()
    page.locator('#dlg [name="combatant.notes"]').fill("GMSECRET waits under the bridge")
    page.locator("#dlg").get_by_role("button", name="Save").click()
    expect(page.locator("#dlg")).to_be_hidden()


def test_gm_changes_appear_in_the_players_window(page, open_app, wait_ready):
    """"a change in the GM's window appears in the players' window"; it "shows the order of play
    and who acts now, names, the map with tokens", and "has no controls that change the encounter"."""
    page.set_viewport_size(FULL_HD)
    open_app(page)
    setup_fight(page)
    pv = open_players(page, wait_ready)
    pv.set_viewport_size(FULL_HD)
    expect(pv.locator("#pv-order li")).to_have_count(2)
    expect(pv.locator("#pv-order")).to_contain_text("Bran")
    expect(pv.locator(".pv-token")).to_have_count(2)
    assert pv.locator("button, input, select, textarea, form, [data-act]").count() == 0
    assert "GMSECRET" not in pv.content()
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
    expect(pv.locator("#pv-order li.current")).to_contain_text("Bran")
    add_combatant(page, "Ferryman", "initiative: 3", side="neutral")
    expect(pv.locator("#pv-order li")).to_have_count(3)
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    expect(pv.locator("#pv-now")).to_have_text("Now: Ambusher")
    page.locator("#btn-undo").click()
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
    # a note in the log and dice typed in a form never reach the players
    page.locator("#note-text").fill("GMNOTE the bridge will give way")
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text("GMNOTE")
    expect(pv.locator(".pv-slot.current")).to_have_count(1)
    assert "GMNOTE" not in pv.content() and "GMSECRET" not in pv.content()
    SHOTS.mkdir(parents=True, exist_ok=True)
    pv.screenshot(path=str(SHOTS / "players-view-1920x1080.png"))
    page.screenshot(path=str(SHOTS / "gm-window-1920x1080.png"))


def test_wounds_as_the_gm_chooses(page, open_app, wait_ready):
    """"wounds as the GM chooses per encounter (exact HP, described states such as "badly hurt",
    or nothing)": a choice with undo."""
    open_app(page)
    setup_fight(page)
    pv = open_players(page, wait_ready)
    slot = pv.locator("#pv-order li", has_text="Ambusher")
    expect(slot.locator(".pv-wound")).to_have_text("unhurt")
    dlg = players_dialog(page)
    dlg.get_by_role("button", name="Exact HP").click()
    expect(slot.locator(".pv-wound")).to_have_text("HP 8 / 8")
    dlg.get_by_role("button", name="Nothing").click()
    expect(slot.locator(".pv-wound")).to_have_count(0)
    dlg.get_by_role("button", name="Close").click()
    page.locator("#btn-undo").click()
    expect(slot.locator(".pv-wound")).to_have_text("HP 8 / 8")


def test_hidden_combatants_never_reach_the_players_dom(page, open_app, wait_ready):
    """"The GM can hide any combatant from it (an ambusher not yet revealed)" and "hidden
    combatants never appear in its DOM", nor their positions; a reload of either window restores it."""
    open_app(page)
    setup_fight(page)
    pv = open_players(page, wait_ready)
    expect(pv.locator("#pv-order")).to_contain_text("Ambusher")
    dlg = players_dialog(page)
    dlg.locator('li[data-id="c2"]').get_by_role("button", name="Hide").click()
    expect(dlg.locator('li[data-id="c2"]')).to_contain_text("Hidden")
    expect(pv.locator("#pv-order li")).to_have_count(1)
    html = pv.content()
    assert "Ambusher" not in html and 'data-id="c2"' not in html
    dlg.get_by_role("button", name="Close").click()
    pv.reload()
    wait_ready(pv)
    expect(pv.locator("#pv-order li")).to_have_count(1)
    assert "Ambusher" not in pv.content()
    page.reload()
    wait_ready(page)
    dlg = players_dialog(page)
    dlg.locator('li[data-id="c2"]').get_by_role("button", name="Show").click()
    expect(pv.locator("#pv-order li")).to_have_count(2)
    expect(pv.locator("#pv-order")).to_contain_text("Ambusher")


def test_a_players_window_opened_with_the_gms_window_closed_shows_the_last_drawing(page, open_app, wait_ready):
    """"a reload of either restores it", also with no GM's window to answer: the players' window
    has no Python of its own (issue 36), so it shows the last drawing the GM's window sent it
    (kept in localStorage), never the GM's notes or a hidden combatant."""
    open_app(page)
    setup_fight(page)
    pv = open_players(page, wait_ready)
    dlg = players_dialog(page)
    dlg.locator('li[data-id="c2"]').get_by_role("button", name="Hide").click()
    expect(pv.locator("#pv-order li")).to_have_count(1)
    dlg.get_by_role("button", name="Close").click()
    add_combatant(page, "Mira", "initiative: 11\nHP: 9\nmax HP: 9", side="party")
    expect(pv.locator("#pv-order li")).to_have_count(2)
    page.close()
    pv.reload()
    wait_ready(pv)
    expect(pv.locator("#pv-order li")).to_have_count(2)
    expect(pv.locator("#pv-order")).to_contain_text("Mira")
    html = pv.content()
    assert "Ambusher" not in html and "GMSECRET" not in html
    fresh = pv.context.new_page()
    fresh.goto(pv.url)
    wait_ready(fresh)
    expect(fresh.locator("#pv-order")).to_contain_text("Mira")
    assert "Ambusher" not in fresh.content()


def test_players_view_follows_with_the_network_off(first_visit, outage_server, wait_ready):
    """"follows every change ... offline, with no server": the server is stopped (a real outage)
    and both windows still boot and follow each other."""
    ctx, page = first_visit(outage_server)
    setup_fight(page)
    outage_server.stop()
    page.reload()
    wait_ready(page)
    pv = open_players(page, wait_ready)
    expect(pv.locator("#pv-order li")).to_have_count(2)
    add_combatant(page, "Ferryman", "initiative: 3", side="neutral")
    expect(pv.locator("#pv-order li")).to_have_count(3)
    expect(pv.locator("#pv-order")).to_contain_text("Ferryman")
    assert ctx.watch.foreign() == []


RANGE_BAND = "Range bands (turn order, movement phase, major/minor actions)"


def add_rb(page, preset: str, name: str, side: str, x: float) -> None:
    before = page.locator("#combatants .card").count()
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=preset)
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator(".rb-add")).to_be_visible()
    dlg.locator('[name="combatant.name"]').fill(name)
    dlg.locator('[name="combatant.side"]').select_option(side)
    dlg.locator('[name="combatant.position.x"]').fill(str(x))
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(before + 1)


def test_range_band_hides_whom_no_party_member_sees_with_the_gm_override(page, open_app, wait_ready):
    """"in range-band, combatants that no party member can see (the engine's visibility projection)
    are hidden automatically, with the GM able to override." A foe in Medium Stealth 20 m from the
    party's only member (medium light) is unseen, so it never reaches the players' DOM; a foe 5 m
    away is seen. The GM shows the unseen one, hides the seen one, and gives both back to the rule."""
    open_app(page)
    new_encounter(page, "Reeds at the ford", "range-band", RANGE_BAND)
    add_rb(page, "Human scout", "Wren", "party", 0)
    add_rb(page, "Human scout", "Lurker", "foes", 20)
    add_rb(page, "Rider", "Outrider", "foes", 5)
    pv = open_players(page, wait_ready)

    def players_see(*names):
        # before the first turn order the order of play is empty: the map's tokens are who is there
        expect(pv.locator(".pv-token")).to_have_count(len(names))
        html = pv.content()
        for n in ("Wren", "Lurker", "Outrider"):
            assert (n in html) == (n in names), n
        assert ('data-id="c2"' in html) == ("Lurker" in names)  # no trace of its token or position

    players_see("Wren", "Outrider")
    dlg = players_dialog(page)
    lurker, outrider = dlg.locator('li[data-id="c2"]'), dlg.locator('li[data-id="c3"]')
    expect(lurker).to_contain_text("Hidden: automatic (no one of the party sees them)")
    expect(outrider).to_contain_text("Shown: automatic")
    lurker.get_by_role("button", name="Show").click()  # the GM reveals the ambusher
    expect(lurker).to_contain_text("Shown, by the GM")
    players_see("Wren", "Lurker", "Outrider")
    outrider.get_by_role("button", name="Hide").click()  # and keeps a seen one off the screen
    expect(outrider).to_contain_text("Hidden, by the GM")
    players_see("Wren", "Lurker")
    lurker.get_by_role("button", name="Automatic").click()
    outrider.get_by_role("button", name="Automatic").click()
    expect(outrider).to_contain_text("Shown: automatic")
    players_see("Wren", "Outrider")
    dlg.get_by_role("button", name="Close").click()
    page.locator("#btn-undo").click()  # the GM's choices are actions: undo brings the last one back
    players_see("Wren")


def _fight_file(folder: Path, n: int) -> Path:
    """A free-form fight of ``n`` with HP (wounds described), started."""
    import json

    from fray import savefile
    from fray.history import History
    from fray.reducer import new_encounter as fresh

    h = History(fresh("freeform", f"Crowd of {n}"))
    for i in range(n):
        h.do({"type": "add_combatant", "combatant": {
            "name": "Hero of the long and winding name 1" if i == 0 else f"{'Goblin archer' if i % 2 else 'Hero'} {i + 1}",
            "side": "foes" if i % 2 else "party",
            "stats": {"initiative": 300 - i, "HP": 10, "max HP": 12},
            "position": {"x": (i % 6) * 3.0, "y": (i // 6) * 3.0, "alt": 0.0}}})
    h.do({"type": "advance"})
    path = folder / f"crowd-{n}.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    return path


def test_a_long_order_of_play_stays_on_the_players_screen(page, open_app, wait_ready, tmp_path):
    """"Large type and high contrast, readable across a table": nobody scrolls the screen across
    the table, so 12 and then 40 combatants' order of play must all be on a 1920x1080 screen, none
    of it cut at the bottom or the side, each name in type no smaller than 24 px at 12."""
    open_app(page)
    page.set_input_files("#file-import", str(_fight_file(tmp_path, 12)))
    expect(page.locator("#combatants .card")).to_have_count(12)
    pv = open_players(page, wait_ready)
    pv.set_viewport_size(FULL_HD)
    for n, least_px in ((12, 24), (40, 18)):
        if n != 12:
            page.set_input_files("#file-import", str(_fight_file(tmp_path, n)))
            expect(page.locator("#combatants .card")).to_have_count(n)
        expect(pv.locator("#pv-order li")).to_have_count(n)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pv.screenshot(path=str(SHOTS / f"players-view-{n}-1920x1080.png"))
        outside = pv.evaluate("""() => Array.from(document.querySelectorAll("#pv-order li"))
          .map(li => li.getBoundingClientRect())
          .filter(r => r.bottom > innerHeight || r.right > innerWidth || r.left < 0).length""")
        assert outside == 0, f"{outside} of {n} rows of the order of play are off the screen"
        sizes = pv.evaluate("""() => Array.from(document.querySelectorAll("#pv-order .pv-name"),
          e => parseFloat(getComputedStyle(e).fontSize))""")
        assert min(sizes) >= least_px, sizes
        # no name is cut: a long one wraps, and its end (what tells two goblins apart) is shown
        assert pv.evaluate("""() => Array.from(document.querySelectorAll("#pv-order .pv-name"))
          .every(e => e.scrollWidth <= e.clientWidth + 1)""")
        assert pv.evaluate("document.documentElement.scrollHeight") <= FULL_HD["height"]
        if n == 12:  # a tablet stood up as the players' screen: the map across it, the order under it
            pv.set_viewport_size({"width": 768, "height": 1024})
            pv.screenshot(path=str(SHOTS / "players-view-12-768x1024.png"))
            fit = pv.evaluate("""() => ({map: document.querySelector(".pv-svg").getBoundingClientRect().width,
              off: Array.from(document.querySelectorAll("#pv-order li"), li => li.getBoundingClientRect())
                .filter(r => r.bottom > innerHeight || r.right > innerWidth).length})""")
            assert fit["map"] >= 0.8 * 728 and fit["off"] == 0, fit
            pv.set_viewport_size({"width": 1366, "height": 900})  # a laptop's screen: for the eye
            pv.screenshot(path=str(SHOTS / "players-view-12-1366x900.png"))
            pv.set_viewport_size(FULL_HD)


def test_the_order_of_play_fits_a_laptop_or_a_television_not_only_a_full_hd_screen(page, open_app, wait_ready,
                                                                                     tmp_path):
    """"Large type and high contrast, readable across a table": the players' screen is never scrolled. A GM's
    play-through put it on a 1366x900 laptop: ten names, sized for 1920x1080, needed 1,297 px. On a shorter
    screen the page is drawn smaller, and the order of play smaller again until it fits; on a full HD screen
    nothing changes."""
    open_app(page)
    page.set_input_files("#file-import", str(_fight_file(tmp_path, 10)))
    expect(page.locator("#combatants .card")).to_have_count(10)
    pv = open_players(page, wait_ready)
    rows = """() => { const r = [...document.querySelectorAll("#pv-order li")].map(li => li.getBoundingClientRect());
      return {off: r.filter(b => b.bottom > innerHeight || b.right > innerWidth).length, n: r.length,
              scrolls: document.documentElement.scrollHeight > innerHeight,
              name: Math.min(...[...document.querySelectorAll("#pv-order .pv-name")].map(
                e => parseFloat(getComputedStyle(e).fontSize)))}; }"""
    # the resize handled: every row of the order on the screen
    FITS = """() => [...document.querySelectorAll("#pv-order li")].every(
      li => li.getBoundingClientRect().bottom <= innerHeight && li.getBoundingClientRect().right <= innerWidth)"""
    for size, least_px in (({"width": 1366, "height": 900}, 24), ({"width": 1280, "height": 720}, 18),
                           ({"width": 1920, "height": 1080}, 32)):
        pv.set_viewport_size(size)
        pv.wait_for_function(FITS)  # players.js fits the order on the resize's frame
        SHOTS.mkdir(parents=True, exist_ok=True)
        pv.screenshot(path=str(SHOTS / f"players-view-10-{size['width']}x{size['height']}.png"))
        got = pv.evaluate(rows)
        assert got["n"] == 10 and got["off"] == 0 and not got["scrolls"], (size, got)
        assert got["name"] >= least_px, (size, got)
    # a drawing the GM's window writes (Next: another acts now) is fitted as it is written
    pv.set_viewport_size({"width": 1280, "height": 720})
    pv.wait_for_function("() => parseFloat(document.getElementById('players-view').style.getPropertyValue('--fit')) < 1")
    fit = pv.evaluate("document.getElementById('players-view').style.getPropertyValue('--fit')")
    assert fit and float(fit) < 1  # ten rows of 40 px do not fit 720 px drawn two-thirds the size
    page.locator('#round-bar [data-act="advance"]').click()
    expect(pv.locator("#pv-order li.current")).to_contain_text("Goblin archer 2")
    got = pv.evaluate(rows)
    assert got["off"] == 0 and got["n"] == 10, got


def test_a_dozen_in_the_order_fit_a_tablet_on_its_side(page, open_app, wait_ready):
    """The players' screen is read, never scrolled: on a tablet or small screen on its side
    (1024x768) the order of play of a dozen sits beside the map, whole. Stacked under the map (as
    on a screen stood up), its last entries ran off the bottom (a GM's play-through in WebKit)."""
    from test_strip import LAPTOP, twelve

    page.set_viewport_size(LAPTOP)
    open_app(page)
    twelve(page, "range-band")
    pv = open_players(page, wait_ready)
    pv.set_viewport_size({"width": 1024, "height": 768})
    expect(pv.locator("#pv-order li")).to_have_count(12)
    fits = pv.evaluate("""() => {
      const last = [...document.querySelectorAll('#pv-order li')].map(li => li.getBoundingClientRect().bottom);
      const map = document.querySelector('.pv-svg').getBoundingClientRect();
      return {bottom: Math.max(...last), map: map.bottom, height: innerHeight,
              scrolls: document.documentElement.scrollHeight > innerHeight};
    }""")
    assert fits["bottom"] <= fits["height"] and fits["map"] <= fits["height"] and not fits["scrolls"], fits


def test_an_unconscious_combatant_is_down_in_the_order_as_on_the_map(page, open_app, wait_ready):
    """Strike-rank, Damage Equal to Location HP: "Head: CON test or fall unconscious". A GM's players' window said
    "badly hurt" in its order list of a combatant its map showed down (the players cannot tell the unconscious from
    the dead): both say down."""
    from gestures import add_preset
    from test_strike_rank import new_strike_rank

    open_app(page)
    new_strike_rank(page, "Ford at dusk")
    add_preset(page, "Human warrior", "party", at=(0, 0))
    add_preset(page, "Great wolf (four-legged)", "foes", at=(20, 0))
    pv = open_players(page, wait_ready)
    slot = pv.locator("#pv-order li", has_text="Human warrior")
    expect(slot.locator(".pv-wound")).to_have_text("unhurt")
    warrior = card(page, "Human warrior")
    warrior.get_by_role("button", name="Condition…").click()
    dlg = page.locator("#dlg")
    dlg.get_by_label("Condition").fill("unconscious")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(pv.locator('.pv-token.down[data-id="c1"]')).to_have_count(1)
    expect(slot.locator(".pv-wound")).to_have_text("down")
    wolf = pv.locator("#pv-order li", has_text="Great wolf")
    expect(wolf.locator(".pv-wound")).to_have_text("unhurt")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size in ({"width": 768, "height": 1024}, {"width": 1366, "height": 900}):
        pv.set_viewport_size(size)
        expect(slot.locator(".pv-wound")).to_have_text("down")
        pv.screenshot(path=str(SHOTS / f"players-unconscious-down-{size['width']}x{size['height']}.png"))
