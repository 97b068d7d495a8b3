"""The page boots under a sub-path: the static shell paints first, then the engine is ready,
with no request leaving the origin and no console error (the ``page`` fixture checks both)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

SUB_PATH = "/fray/"  # where conftest's app_server mounts dist/


# The service worker would fetch the runtime itself (out of reach of page.route), so this test
# runs without it; test_offline covers the worker.
@pytest.mark.browser_context_args(service_workers="block")
def test_shell_paints_before_the_engine_is_ready(page, app_url, wait_ready):
    held = []
    # Hold back the Python runtime so "before ready" is a state, not a race.
    page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
    with page.expect_request("**/pyodide.asm.wasm", timeout=90_000):
        page.goto(app_url, wait_until="domcontentloaded")
    expect(page.locator("header")).to_be_visible()
    expect(page.locator("header")).to_contain_text("Fray")
    expect(page.locator("#loading")).to_be_visible()
    assert page.locator("html").get_attribute("data-engine") != "ready"
    page.wait_for_function("() => true")  # lets the route handler run if it has not yet
    assert held, "the wasm request was not intercepted"
    held[0].continue_()
    wait_ready(page)
    expect(page.locator("#loading")).to_be_hidden()


def test_boots_to_ready_under_the_sub_path(page, open_app, app_origin):
    open_app(page)
    assert page.locator("html").get_attribute("data-engine") == "ready"
    assert page.watch.requests, "no request was recorded"
    assert page.watch.foreign() == []
    outside = [u for u in page.watch.requests if u.startswith(app_origin) and
               not u.startswith(app_origin + SUB_PATH)]
    assert outside == [], "requests outside the sub-path (would 404 on GitHub Pages)"
