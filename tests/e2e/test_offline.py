"""After one visit, the app boots with the network off: the service worker precached it."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from gestures import add_combatant, card, new_freeform
from playwright.sync_api import expect


def _refused(origin: str) -> bool:
    """True when nothing answers at ``origin`` any more: the outage is real, not emulated."""
    host, port = urlsplit(origin).hostname, urlsplit(origin).port
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return True
    return False


def test_reload_in_an_outage_boots_and_renders_the_saved_encounter(first_visit, outage_server, wait_ready):
    """Issue 2: "after one visit a reload with the network off boots and renders the saved
    encounter". Issue 8, item 1: "Prove offline the way it happens at a table, by stopping the
    server (a real outage), not by the browser's emulation flag"."""
    _, page = first_visit(outage_server)
    new_freeform(page, "Offline ford")
    add_combatant(page, "Ferryman", "initiative: 12")
    page.locator("#note-text").fill("the river rises")
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text("the river rises")
    outage_server.stop()
    assert _refused(outage_server.origin), "the server still answers: this would not be an outage"
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("#encounter-select option:checked")).to_have_text("Offline ford")
    expect(card(page, "Ferryman")).to_be_visible()
    expect(page.locator("#log")).to_contain_text("the river rises")
    expect(page.locator("#btn-undo")).to_be_enabled()
    assert page.watch.foreign() == []


def test_a_new_window_in_an_outage_boots_warm(first_visit, launch_persistent, outage_server, wait_ready, tmp_path):
    """Issue 8, item 1: a GM who closes the browser and reopens it at a table with no network
    still gets the app: a relaunch of the same profile, with the server gone, boots from the
    service worker (not only a reload of a page that was already open)."""
    profile = tmp_path / "profile"
    ctx, page = first_visit(outage_server, profile)
    new_freeform(page, "Cave mouth")
    add_combatant(page, "Lantern bearer", "initiative: 9")
    expect(card(page, "Lantern bearer")).to_be_visible()
    ctx.close()
    outage_server.stop()
    assert _refused(outage_server.origin)
    ctx = launch_persistent(profile, origin=outage_server.origin)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    page.goto(outage_server.url)
    wait_ready(page)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Cave mouth")
    expect(card(page, "Lantern bearer")).to_be_visible()
    assert page.watch.foreign() == []


def test_every_cached_url_is_relative_to_the_app(persistent_page, open_app, app_url):
    page = persistent_page
    open_app(page)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=120_000)
    urls = page.evaluate("""async () => {
        const out = [];
        for (const key of await caches.keys())
            for (const req of await (await caches.open(key)).keys()) out.push(req.url);
        return out;
    }""")
    assert urls, "the service worker cached nothing"
    assert all(u.startswith(app_url) for u in urls), [u for u in urls if not u.startswith(app_url)]
    assert app_url in urls and app_url + "index.html" in urls
