"""Issue 10, "A GM's quick start": "Add a GM's quick start (open, pick a game, add combatants, run
a round, export), with screenshots, reachable from the page's header." The header's Help opens
it (a page of the app, so the service worker keeps it for offline use), every picture loads,
and its way back leads to the tracker."""

from __future__ import annotations

from playwright.sync_api import expect


def test_help_in_the_header_opens_the_quick_start_with_its_pictures(page, open_app, app_origin):
    open_app(page)
    link = page.locator("header").get_by_role("link", name="Help")
    expect(link).to_have_attribute("href", "./static/help/quickstart.html")
    with page.context.expect_page() as new:
        link.click()
    help_page = new.value
    help_page.wait_for_load_state()
    expect(help_page.get_by_role("heading", name="A GM's quick start")).to_be_visible()
    for step in ("Open it and pick a game", "Add the combatants", "Run a round", "Take back, look back, keep"):
        expect(help_page.get_by_role("heading", name=step)).to_be_visible()
    imgs = help_page.locator("main img")
    assert imgs.count() >= 6
    for i in range(imgs.count()):
        img = imgs.nth(i)
        img.scroll_into_view_if_needed()
        assert img.get_attribute("alt")
        help_page.wait_for_function("(el) => el.complete && el.naturalWidth > 0", arg=img.element_handle())
    assert help_page.url.startswith(app_origin)
    help_page.get_by_role("link", name="Back to Fray").click()
    help_page.wait_for_selector('html[data-engine="ready"]', timeout=120_000)
    help_page.close()


def test_the_quick_start_is_precached_for_offline_use(page, open_app):
    open_app(page)
    sw = page.evaluate("() => fetch('./sw.js').then(r => r.text())")
    for name in ("static/help/quickstart.html", "static/help/help.css", "static/help/1-new.jpg"):
        assert name in sw
