"""After one visit, the app boots with the network off: the service worker precached it."""

from __future__ import annotations


def test_reload_offline_boots_to_ready(persistent_page, open_app, wait_ready):
    page = persistent_page
    open_app(page)
    # The worker claims the page once it has precached everything (install, then activate).
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                           timeout=120_000)
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.evaluate("navigator.onLine") is False
    assert page.evaluate("navigator.serviceWorker.controller !== null")
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
