"""The Content-Security-Policy is the second line of defence (issue 8, item 5): the page runs no
inline script or style and reaches no other origin even if some markup escaped its escaping.

A whole strike-rank fight (declare, resolve with the attack panel, end of round, Tables, Export,
a reload from the service worker) breaks no directive; and the same watch does catch a violation
when an inline script, an inline style and an inline handler are injected, so the first test can
fail. Violations are recorded twice: by a ``securitypolicyviolation`` listener installed before
any page script (reported to Python, so a reload loses nothing) and by the ``page`` fixture, which
fails on the console error Chromium prints for each refusal.
"""

from __future__ import annotations

import re

import pytest
from gestures import add_preset, new_encounter, wait_ready
from playwright.sync_api import expect

# Installed on every new document before its scripts run.
LISTENER = """
window.__cspSeen = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const v = {directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile,
             line: e.lineNumber, sample: e.sample, disposition: e.disposition};
  window.__cspSeen.push(v);
  window.__frayCsp(v);
});
"""
CSP_CONSOLE = re.compile(r"Content Security Policy|Refused to")


@pytest.fixture
def csp(page):
    """``page`` with a record of every CSP violation: ``csp.violations`` (dicts) and
    ``csp.console`` (console messages of any level that name the policy)."""
    class Record:
        violations: list[dict] = []
        console: list[str] = []

    rec = Record()
    rec.violations, rec.console = [], []
    page.expose_function("__frayCsp", lambda v: rec.violations.append(v))
    page.add_init_script(LISTENER)
    page.on("console", lambda m: CSP_CONSOLE.search(m.text) and rec.console.append(f"{m.type}: {m.text}"))
    return rec


def policy(page) -> dict[str, list[str]]:
    content = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    out = {}
    for part in content.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def test_the_policy_allows_only_the_origin_and_what_pyodide_needs(page, open_app):
    open_app(page)
    p = policy(page)
    assert p["default-src"] == ["'none'"]
    assert p["script-src"] == ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"]
    for directive in ("style-src", "connect-src", "worker-src", "manifest-src"):
        assert p[directive] == ["'self'"], directive
    assert p["img-src"] == ["'self'", "data:"]
    assert p["base-uri"] == ["'none'"] and p["form-action"] == ["'none'"]
    assert not any("unsafe-inline" in v or "*" in v or "http" in v for vs in p.values() for v in vs)
    # The policy is the first thing in <head>, so it governs every script and style after it.
    first = page.evaluate("document.head.firstElementChild.nextElementSibling.outerHTML")
    assert "Content-Security-Policy" in first
    # No inline script is left: every <script> is a file.
    assert page.evaluate("[...document.scripts].filter(s => !s.src).length") == 0


def test_a_whole_strike_rank_fight_breaks_no_directive(csp, page, open_app, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    new_encounter(page, "Wolf in the pass", "strike-rank", "Strike Rank (d100)")
    add_preset(page, "Human warrior", side="party")
    add_preset(page, "Great wolf (four-legged)")
    bar = page.locator("#round-bar")
    bar.get_by_role("button", name="Start the fight").click()
    for form in page.locator('form[data-form="sr-declare"]').all():
        form.locator("button[type=submit]").click()
    expect(page.locator(".sr-decl")).to_have_count(2)
    bar.get_by_role("button", name="Next").click()
    attack = page.locator("form[data-form=sr-attack]")
    expect(attack).to_have_count(1)
    attack.locator('[name="defence.kind"]').select_option("none")
    for k, v in (("attack", "20"), ("location", "1"), ("damage", "3 1")):
        attack.locator(f'[name="rolls.{k}"]').fill(v)
    attack.get_by_role("button", name="Roll the exchange").click()
    expect(page.locator(".sr-result")).to_be_visible()
    page.locator("#note-text").fill("The wolf <script>alert(1)</script> limps")
    page.locator("#note-form button[type=submit]").click()
    expect(page.locator("#log .log-note").first).to_contain_text("<script>alert(1)</script>")
    # Next through the remaining strike ranks and the end of the round (issue 10: one Next from
    # the last SR opens the next round's declarations); bounded, so a page that never gets there
    # fails instead of looping.
    for _ in range(14):
        if page.locator("#round-bar .round", has_text="Round 2").count():
            break
        skip = page.locator(".sr-still-open [data-act=sr-skip]")
        if skip.count():  # Next asks about the warrior's open attack (issue 32): the GM skips it
            skip.first.click()
            continue
        bar.get_by_role("button", name="Next").click()
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    page.locator("#btn-tables").click()
    expect(page.locator("#dlg")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#dlg")).to_be_hidden()
    with page.expect_download() as download:
        page.locator("#btn-export").click()
    download.value.save_as(tmp_path / "fight.json")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    wait_ready(page)
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    assert csp.violations == [] and csp.console == []


def test_the_watch_catches_an_injected_inline_script_style_and_handler(csp, page, open_app):
    open_app(page)
    page.watch.allow("Content Security Policy")  # the refusals below are the point of this test
    page.evaluate("""() => {
        const s = document.createElement("script");
        s.textContent = "window.__inlineRan = true";
        document.body.append(s);
        document.getElementById("log").insertAdjacentHTML("beforeend",
            '<li id="styled" style="color: rgb(255, 0, 0)">red</li>' +
            '<li><button id="handler" onclick="window.__handlerRan = true">x</button></li>');
    }""")
    page.locator("#handler").click()
    page.wait_for_function("window.__cspSeen.length >= 3")
    seen = page.evaluate("window.__cspSeen")
    assert sorted({v["directive"] for v in seen}) == ["script-src-attr", "script-src-elem", "style-src-attr"], seen
    assert csp.violations, "the listener did not report to the test"
    assert page.evaluate("[window.__inlineRan, window.__handlerRan]") == [None, None]
    assert page.evaluate("getComputedStyle(document.getElementById('styled')).color") != "rgb(255, 0, 0)"
    assert len(csp.console) >= 3
