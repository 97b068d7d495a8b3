"""Issue 34: "The page finds a game's panel, stylesheet and odds renderer through the game object".
The page links no game's stylesheet: each game's is a file of its folder, named by its ruleset,
read by Python and applied as a constructed stylesheet (the page's CSP refuses a <style> element)
before the game is first drawn, and only the open encounter's game's. The first paint keeps it
with the drawing, so the copy shown before Python is ready is styled too. No console error (the
page fixture fails on any), no CSP violation.

The installed game's stylesheet (from its wheel): tests/e2e/test_plugin_game.py."""

from __future__ import annotations

from playwright.sync_api import expect

import gestures as G

# Installed before any page script: how each game panel looked the moment it first appeared, in
# the first paint's copy and in the live page, and any CSP violation.
PROBE = """
window.__gs = {copy: null, live: {}, csp: []};
document.addEventListener("securitypolicyviolation", e => window.__gs.csp.push(e.violatedDirective));
new MutationObserver(() => {
  const copy = document.querySelector("main.first-paint .ruleset-panel > *");
  if (copy && window.__gs.copy === null) {
    window.__gs.copy = {engine: document.documentElement.dataset.engine, cls: copy.className,
                        display: getComputedStyle(copy).display};
  }
  for (const el of document.querySelectorAll("main.panes:not(.first-paint) .ruleset-panel > section")) {
    if (!(el.className in window.__gs.live)) window.__gs.live[el.className] = getComputedStyle(el).display;
  }
}).observe(document, {childList: true, subtree: true});
"""


def _styles(page) -> dict:
    return page.evaluate("""() => ({
        links: [...document.styleSheets].map(s => s.href || "").filter(h => h),
        adopted: document.adoptedStyleSheets.length,
        adoptedText: document.adoptedStyleSheets.map(s => [...s.cssRules].map(r => r.cssText).join("\\n")).join(""),
    })""")


def test_a_games_stylesheet_is_applied_before_it_is_drawn_and_only_while_it_is_open(page, open_app):
    page.add_init_script(PROBE)
    open_app(page)
    G.new_encounter(page, "Sartar raid", "strike-rank", "Strike Rank (d100)")
    sr = page.locator(".sr-panel")
    expect(sr).to_be_visible()
    # the strike-rank stylesheet (games/strike_rank/web/style.css) is on: the panel is its grid
    assert sr.evaluate("e => getComputedStyle(e).display") == "grid"
    seen = _styles(page)
    assert not any(h.endswith(("strike-rank.css", "tactical.css", "range-band.css", "style.css"))
                   for h in seen["links"]), seen["links"]
    assert seen["adopted"] == 1 and ".sr-panel" in seen["adoptedText"] and ".tr-panel" not in seen["adoptedText"]

    # another game: its stylesheet replaces the first, which no longer applies
    G.new_encounter(page, "Darkmaster ambush", "tactical-round", "Tactical round (CMB vs DEF)")
    tr = page.locator(".tr-panel")
    expect(tr).to_be_visible()
    assert tr.evaluate("e => getComputedStyle(e).flexDirection") == "column"
    seen = _styles(page)
    assert seen["adopted"] == 1 and ".tr-panel" in seen["adoptedText"] and ".sr-panel" not in seen["adoptedText"]
    # the plain tracker brings none
    G.new_freeform(page, "Tavern brawl")
    expect(page.locator("#ruleset-badge")).to_have_text("Free-form")
    assert _styles(page)["adopted"] == 0
    gs = page.evaluate("window.__gs")
    # no game panel was ever drawn unstyled (each display as its stylesheet sets it at its first frame)
    assert gs["live"].get("sr-panel") == "grid" and gs["live"].get("tr-panel") == "flex", gs["live"]
    assert gs["csp"] == []

    # back to strike-rank, then a reload: the first paint's copy is styled before Python is ready
    page.locator("#encounter-select").select_option(label="Sartar raid")
    expect(sr).to_be_visible()
    assert sr.evaluate("e => getComputedStyle(e).display") == "grid"
    page.wait_for_function("(JSON.parse(localStorage.getItem('fray.paint') || 'null') || {}).style?.key"
                           " === 'strike-rank'")
    page.reload()
    G.wait_ready(page)
    gs = page.evaluate("window.__gs")
    assert gs["copy"] is not None, "no copy of the last state was shown"
    assert gs["copy"]["engine"] == "loading" and "sr-panel" in gs["copy"]["cls"]
    assert gs["copy"]["display"] == "grid"  # styled in the copy, before Python
    assert gs["live"].get("sr-panel") == "grid" and gs["csp"] == []
    expect(sr).to_be_visible()
    assert _styles(page)["adopted"] == 1  # the copy's sheet is the one the live page uses
