"""The players' window follows the GM's in the same frame (issue 12, "The players' view").

Issue: "shows what the players may see and follows every change within a frame, offline, with no
server (BroadcastChannel between the two windows; a reload of either restores it)" and "It never
shows the GM's notes, dice typed but not yet applied, or hidden combatants' positions".

The GM's window writes the players' markup into the players' window it opened in the same task as
its own change (``web/players_follow.py``), so both paint it in the next frame. The proof here is a
read in that same task: the GM's click and a look at the players' window's DOM in one script, with
no turn of the event loop between them in which the players' window's own script could have drawn.
"""

from __future__ import annotations

from gestures import add_combatant, new_freeform
from playwright.sync_api import expect
from test_players_view import open_players, players_dialog, setup_fight

NEVER = ["Lurker", "GMSECRET", "GMNOTE"]

# players.html's policy has no 'unsafe-eval' (it runs no Python): a wait there is a function
# ("() => ..."), which Playwright calls, never an expression string, which it would evaluate.

# In a players' window: every text any writer (its own script or the GM's window) ever put into
# its DOM that the players must never see. An init script of the context installs it in a players'
# window that is reloaded or opened by hand; one opened by window.open keeps the Window of its
# first about:blank (where the init scripts ran, not yet players.html), so ``open_watched``
# installs it as soon as its page is parsed, and it looks at once at what is already there.
LEAK_WATCH = """
if (location.pathname.endsWith("/players.html") && !window.__leaks) {
  window.__leaks = [];
  const never = %s;
  const look = () => {
    const html = document.documentElement ? document.documentElement.outerHTML : "";
    for (const n of never) if (html.includes(n) && !window.__leaks.includes(n)) window.__leaks.push(n);
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  look();  // what was drawn before the watch began (the last drawing kept, shown as the page is parsed)
}
""" % NEVER

# The GM's act, and in the same task what the players' window shows. window.open("", name) hands
# this script the players' window without navigating it (the page's own handle is in its Python).
ACT_AND_LOOK = """(selector) => {
  const pv = window.open("", "fray-players");
  const before = pv.document.getElementById("players-view").getAttribute("data-seq");
  document.querySelector(selector).click();
  const root = pv.document.getElementById("players-view");
  const now = pv.document.getElementById("pv-now");
  return {before, seq: root.getAttribute("data-seq"), now: now ? now.textContent : null, html: root.innerHTML};
}"""

NEXT = "#round-bar [data-act=advance]"
UNDO = "#btn-undo"


def open_watched(page, wait_ready):
    """"Open players' view" with the leak watch in the new window from its first parsed page: its
    script has drawn the last drawing kept by then, which the watch looks at as it starts."""
    dlg = players_dialog(page)
    with page.context.expect_page() as info:
        dlg.get_by_role("button", name="Open players\u2019 view").click()
    pv = info.value
    page.watch.attach_page(pv)
    pv.wait_for_url("**/players.html")
    pv.wait_for_load_state("domcontentloaded")
    pv.evaluate(LEAK_WATCH)
    wait_ready(pv)
    dlg.get_by_role("button", name="Close").click()
    return pv


def never_shown(pv) -> None:
    """Nothing the players must not see was ever in this window's DOM, and the watch that says so
    was live all along (it sees a probe put in last, and the probe is taken out again)."""
    assert pv.evaluate("window.__leaks") == []
    caught = pv.evaluate("""async () => {
      const probe = document.createElement("i"); probe.textContent = "Lurker"; document.body.append(probe);
      await Promise.resolve();
      probe.remove();
      return window.__leaks;
    }""")
    assert caught == ["Lurker"]


def held(page) -> None:
    """Wait until the GM's window holds the players' window again (after a reload of either)."""
    page.wait_for_function("globalThis.frayPlayers && globalThis.frayPlayers.held === true")


def act_and_look(page, selector: str) -> dict:
    return page.evaluate(ACT_AND_LOOK, selector)


def lurking(page) -> None:
    """A third combatant, hidden from the players before their window ever opens."""
    add_combatant(page, "Lurker", "initiative: 5\nHP: 6\nmax HP: 6", side="foes")
    dlg = players_dialog(page)
    dlg.locator('li[data-id="c3"]').get_by_role("button", name="Hide").click()
    expect(dlg.locator('li[data-id="c3"]')).to_contain_text("Hidden")
    dlg.get_by_role("button", name="Close").click()


def lurker_fight_watched(page, open_app, wait_ready):
    """The bridge fight (``setup_fight``) with the hidden Lurker, started; the players' window open and
    watched for leaks from its first script on, its frames held. Returns the players' window."""
    page.context.add_init_script(LEAK_WATCH)
    open_app(page)
    setup_fight(page)
    lurking(page)
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    pv = open_watched(page, wait_ready)
    held(page)
    return pv


def test_a_change_is_in_the_players_window_in_the_same_task_as_the_gms(page, open_app, wait_ready):
    """"follows every change within a frame": Next and Undo in the GM's window are in the players'
    window's DOM before the GM's click has returned, so both paint in the next frame; and what is
    written there keeps the players' window's own look (its stylesheet, its map, large type)."""
    pv = lurker_fight_watched(page, open_app, wait_ready)
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
    seen = act_and_look(page, NEXT)
    assert seen["now"] == "Now: Ambusher" and seen["seq"] != seen["before"], seen
    seen = act_and_look(page, UNDO)
    assert seen["now"] == "Now: Bran", seen
    # the players' own stylesheet applies to what the GM's window wrote: large type, the map drawn
    # (40 px on a 1920x1080 screen, in proportion on a shorter one: players.css)
    assert pv.locator(".pv-slot .pv-name").first.evaluate(
        "e => Math.abs(parseFloat(getComputedStyle(e).fontSize) - 40 * Math.min(1, innerHeight / 1080)) < 0.1")
    assert pv.locator("#players-view").evaluate("e => getComputedStyle(e).color") == "rgb(255, 255, 255)"
    expect(pv.locator(".pv-svg .pv-token")).to_have_count(2)
    assert pv.locator("button, input, select, textarea, form, [data-act]").count() == 0
    # a note is not news for the players: nothing is written, and it never reaches them
    page.locator("#note-text").fill("GMNOTE the bridge will give way")
    seq = pv.locator("#players-view").get_attribute("data-seq")
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text("GMNOTE")
    assert pv.locator("#players-view").get_attribute("data-seq") == seq
    # hiding one that acts: gone from the players' DOM in the same task
    dlg = players_dialog(page)
    seen = act_and_look(page, '#dlg li[data-id="c2"] [data-hidden="hidden"]')
    assert "Ambusher" not in seen["html"] and 'data-id="c2"' not in seen["html"], seen["html"]
    dlg.get_by_role("button", name="Close").click()
    assert "Lurker" not in pv.content()
    never_shown(pv)


def test_a_late_broadcast_never_puts_back_an_older_drawing(page, open_app, wait_ready):
    """Two changes in one task: the players' window shows the second at once, and when the channel
    then brings both (the players' window's own script hears them first, as it listened first),
    neither is drawn over it."""
    open_app(page)
    setup_fight(page)
    add_combatant(page, "Ferryman", "initiative: 3", side="neutral")
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    pv = open_players(page, wait_ready)
    held(page)
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
    pv.evaluate("""() => {
      window.__heard = [];
      const c = new BroadcastChannel("fray.players");
      c.onmessage = (e) => { const m = JSON.parse(e.data); if (m.kind === "view") window.__heard.push(m.seq); };
      // a second players' window, opened by hand, asks on the channel: from then on the GM's
      // window sends every drawing there too (the one it opened alone is only written into)
      c.postMessage(JSON.stringify({kind: "hello"}));
    }""")
    pv.wait_for_function("() => window.__heard.length > 0")
    seen = page.evaluate("""() => {
      const pv = window.open("", "fray-players");
      const next = () => document.querySelector("#round-bar [data-act=advance]").click();
      next(); next();
      return {now: pv.document.getElementById("pv-now").textContent,
              seq: pv.document.getElementById("players-view").getAttribute("data-seq")};
    }""")
    assert seen["now"] == "Now: Ferryman", seen
    pv.wait_for_function("(s) => window.__heard.includes(s)", arg=seen["seq"])
    heard = pv.evaluate("window.__heard")
    assert len(heard) >= 2 and heard[-1] == seen["seq"], heard  # the older one came first, and late
    expect(pv.locator("#pv-now")).to_have_text("Now: Ferryman")
    assert pv.locator("#players-view").get_attribute("data-seq") == seen["seq"]


def test_the_players_window_draws_only_what_is_newer_than_what_it_shows(page, app_url, wait_ready):
    """"follows every change" and "a reload of either restores it": every drawing, from the GM's
    window or the channel, is written by the players' window's own ``frayPlayersDraw``, only when its
    stamp is newer than the one shown: a later count of the same GM page, or any count of a GM page
    loaded anew; never an older drawing come late, an unstamped one, or markup that is not Fray's."""
    page.goto(app_url + "players.html")
    wait_ready(page)
    seen = page.evaluate("""() => {
      const draw = window.frayPlayersDraw, root = document.getElementById("players-view");
      const said = [
        draw("<p>one</p>", "1000.500:1"),
        draw("<p>two</p>", "1000.500:2"),
        draw("<p>one</p>", "1000.500:1"),       // the broadcast of change 1, late
        draw("<p>two</p>", "1000.500:2"),       // change 2's, already drawn
        draw("<p>nine</p>", "1000.500:9"),
        draw("<p>ten</p>", "1000.500:10"),      // counts compare as numbers, not "10" < "9"
        draw("<p>new page</p>", "2000.000:1"),  // the GM's window reloaded counts from 1 again
        draw("<p>unstamped</p>", null),
        draw("<p>broken</p>", "2000.000:x"),
        draw('<p onclick="x">not ours</p>', "2000.000:5"),
      ];
      return {said, html: root.innerHTML, seq: root.getAttribute("data-seq")};
    }""")
    assert seen["said"] == [True, True, False, False, True, True, True, False, False, False], seen
    assert seen["html"] == "<p>new page</p>" and seen["seq"] == "2000.000:1", seen
    assert page.evaluate("window.frayPlayersPainted()") == "2000.000:1"


def test_reloads_of_either_window_and_a_players_window_opened_by_hand(page, open_app, wait_ready, app_url):
    """"a reload of either restores it": after the players' window reloads, the GM's window writes
    into it again; after the GM's window reloads, it gets the players' window back (from that
    window's word to its opener) without opening or navigating any window. A players' window opened
    by hand (no opener, so no handle) still follows over the BroadcastChannel, its own script
    drawing, beside the one the GM writes into; neither ever shows the hidden one."""
    pv = lurker_fight_watched(page, open_app, wait_ready)
    pv.evaluate("window.__mark = 'kept'")  # gone if anything navigated the players' window
    page.reload()
    wait_ready(page)
    held(page)
    assert act_and_look(page, NEXT)["now"] == "Now: Ambusher"
    assert pv.evaluate("window.__mark") == "kept"
    assert len(page.context.pages) == 2  # no blank window opened on the way
    pv.reload()
    wait_ready(pv)
    expect(pv.locator("#pv-now")).to_have_text("Now: Ambusher")  # the drawing kept, then the GM
    held(page)
    pv.wait_for_function("() => document.getElementById('players-view').hasAttribute('data-seq')")
    assert act_and_look(page, UNDO)["now"] == "Now: Bran"
    by_hand = page.context.new_page()
    page.watch.attach_page(by_hand)
    by_hand.goto(app_url + "players.html")
    wait_ready(by_hand)
    expect(by_hand.locator("#pv-now")).to_have_text("Now: Bran")
    page.locator(NEXT).click()
    expect(by_hand.locator("#pv-now")).to_have_text("Now: Ambusher")
    expect(pv.locator("#pv-now")).to_have_text("Now: Ambusher")
    for w in (pv, by_hand):
        assert "Lurker" not in w.content()
        never_shown(w)


def test_another_encounter_on_the_gms_screen_is_on_the_players_screen(page, open_app, wait_ready):
    """"follows every change": the GM switching to another encounter is a change for the players
    too, as is starting a new one; the one left behind leaves nothing of itself in their window."""
    open_app(page)
    setup_fight(page)
    new_freeform(page, "Ferry crossing")
    add_combatant(page, "Ferryman", "initiative: 3", side="neutral")
    pv = open_players(page, wait_ready)
    held(page)
    expect(pv.locator(".pv-title")).to_have_text("Ferry crossing")
    page.locator("#encounter-select").select_option(label="Bridge at dusk")
    expect(page.locator("#combatants .card")).to_have_count(2)
    expect(pv.locator(".pv-title")).to_have_text("Bridge at dusk")
    expect(pv.locator("#pv-order li")).to_have_count(2)
    assert "Ferryman" not in pv.content() and "GMSECRET" not in pv.content()
    page.locator("#encounter-select").select_option(label="Ferry crossing")
    expect(pv.locator(".pv-title")).to_have_text("Ferry crossing")
    expect(pv.locator("#pv-order")).to_contain_text("Ferryman")


def test_the_same_frame_path_with_the_network_off(first_visit, outage_server, wait_ready):
    """"follows every change within a frame, offline, with no server": the server is stopped (a
    real outage); both windows boot from the service worker and the GM's window writes into the
    players' window in the same task, before and after a reload of each."""
    ctx, page = first_visit(outage_server)
    setup_fight(page)
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved")
    outage_server.stop()
    page.reload()
    wait_ready(page)
    pv = open_players(page, wait_ready)
    held(page)
    assert act_and_look(page, NEXT)["now"] == "Now: Ambusher"
    pv.reload()
    wait_ready(pv)
    held(page)
    pv.wait_for_function("() => document.getElementById('players-view').hasAttribute('data-seq')")
    assert act_and_look(page, UNDO)["now"] == "Now: Bran"
    page.reload()
    wait_ready(page)
    held(page)
    assert act_and_look(page, NEXT)["now"] == "Now: Ambusher"
    assert ctx.watch.foreign() == []


def test_the_players_window_the_gm_opened_gets_each_drawing_once(page, open_app, wait_ready):
    """Issue 36: the players' window the GM's window opened is written into straight; it asked on
    the channel too, so every drawing was also broadcast to it, and it read each one twice (in
    WebKit, garbage of every change kept till a full collection). Now only a window the GM's has no
    handle on asks there."""
    open_app(page)
    setup_fight(page)
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    pv = open_players(page, wait_ready)
    held(page)
    pv.evaluate("""() => {
      window.__heard = [];
      const c = new BroadcastChannel("fray.players");
      c.onmessage = (e) => window.__heard.push(JSON.parse(e.data).kind);
    }""")
    seen = act_and_look(page, NEXT)
    assert seen["now"] == "Now: Ambusher", seen
    page.locator(UNDO).click()
    expect(pv.locator("#pv-now")).to_have_text("Now: Bran")
    assert pv.evaluate("window.__heard") == []
