"""What the GM's page leaves WebKit to keep on every click (issue 36): nothing of PyScript's watches
the whole document once Fray runs, so markup a render replaces is not held for PyScript's observers
(static/quiet-pyscript.mjs)."""

from __future__ import annotations

# Before the page's scripts: count the calls of every observer PyScript's own files start.
COUNT_PYSCRIPT_OBSERVERS = """{
  const Native = globalThis.MutationObserver;
  globalThis.pyscriptObserverCalls = 0;
  globalThis.MutationObserver = class extends Native {
    constructor(callback) {
      const theirs = /\\/vendor\\/pyscript\\//.test(String(new Error().stack));
      super((...a) => { if (theirs) globalThis.pyscriptObserverCalls++; return callback(...a); });
    }
  };
}"""


def test_no_observer_of_pyscript_sees_what_a_render_writes(page, open_app):
    """PyScript's core and its py-editor plugin each watched the whole document: every render's
    records kept the markup it replaced alive in WebKit until a full collection. Once Fray runs,
    a tap that draws the page again (a note: the log and the header) reaches neither, and the
    tap itself is answered as before (the page's listeners are its own)."""
    page.add_init_script(COUNT_PYSCRIPT_OBSERVERS)
    open_app(page)  # ready: after PyScript's scripts ran ("py:all-done"), when its observers stopped
    assert page.evaluate("globalThis.frayQuieted") == 2  # core.js's and py-editor's
    before = page.evaluate("globalThis.pyscriptObserverCalls")
    page.fill("#note-text", "After the watch ended")
    page.locator("#note-form button[type=submit]").click()
    page.wait_for_function("() => document.getElementById('log').textContent.includes('After the watch ended')")
    assert page.evaluate("globalThis.pyscriptObserverCalls") == before
