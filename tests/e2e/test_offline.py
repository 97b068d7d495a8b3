"""After one visit, the app boots with the network off: the service worker precached it."""

from __future__ import annotations

from gestures import add_combatant, card, new_freeform
from playwright.sync_api import expect


def test_reload_offline_boots_and_renders_the_saved_encounter(persistent_page, open_app, wait_ready):
    """Issue 2: "after one visit a reload with the network off boots and renders the saved
    encounter"."""
    page = persistent_page
    open_app(page)
    # The worker claims the page once it has precached everything (install, then activate).
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=120_000)
    new_freeform(page, "Offline ford")
    add_combatant(page, "Ferryman", "initiative: 12")
    page.locator("#note-text").fill("the river rises")
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log")).to_contain_text("the river rises")
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.onLine") is False
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    expect(page.locator("#encounter-select option:checked")).to_have_text("Offline ford")
    expect(card(page, "Ferryman")).to_be_visible()
    expect(page.locator("#log")).to_contain_text("the river rises")
    expect(page.locator("#btn-undo")).to_be_enabled()
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
