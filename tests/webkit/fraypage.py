"""One set of page helpers for both browsers: a test written once against ``FrayPage`` runs in
Chromium (Playwright, tests/e2e/test_flows.py) and in WebKit (Selenium and WebKitGTK's
WebDriver, tests/webkit/).

A plain module, not a conftest (tests/e2e and tests/webkit each have one of their own). What a
test does goes through a few verbs: ``click``, ``fill``, ``select``, ``check`` on an element
named by a *spec*, and waits on what the page shows (``see``, ``count``, ``wait_js``); never
on time. A spec is a CSS selector, optionally followed by one step ``" >> kind:words"``:

    "#btn-new"                                       CSS
    "#dlg >> button:Create"                          a button in #dlg named "Create" (its text or aria-label)
    ".tr-pending[data-ref=A1] >> label:Hits"         the control labelled "Hits" in that box

An action waits until exactly one visible element matches, then acts on it as a user would
(WebDriver's or Playwright's own click and typing, which scroll it into view first).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

TIMEOUT_S = float(os.environ.get("FRAY_STEP_TIMEOUT_S", "30"))
READY_TIMEOUT_S = int(os.environ.get("FRAY_READY_TIMEOUT_MS", "90000")) / 1000

# The finder: every visible element matching a spec. Run in the page (both backends).
_FIND = r"""
const spec = arguments[0];
const [css, step] = spec.split(" >> ");
const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
// the inside of a shut <details> keeps its boxes in both engines (content-visibility: hidden):
// checkVisibility is what says it is not shown
const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden"
  && (!el.checkVisibility || el.checkVisibility());
let found = [...document.querySelectorAll(css)];
if (step) {
  const colon = step.indexOf(":");
  const kind = step.slice(0, colon), words = step.slice(colon + 1);
  const inside = [];
  for (const root of found) {
    if (kind === "button") {
      for (const el of root.querySelectorAll("button, [role=button], input[type=submit], summary"))
        if (norm(el.getAttribute("aria-label")) === words || norm(el.textContent || el.value) === words) inside.push(el);
    } else if (kind === "label") {
      for (const el of root.querySelectorAll("input, select, textarea")) {
        if (norm(el.getAttribute("aria-label")) === words) { inside.push(el); continue; }
        for (const lab of el.labels || []) {
          const copy = lab.cloneNode(true);
          for (const c of copy.querySelectorAll("input, select, textarea")) c.remove();
          if (norm(copy.textContent) === words) { inside.push(el); break; }
        }
      }
    } else if (kind === "text") {
      for (const el of root.querySelectorAll("*")) if (norm(el.textContent) === words) inside.push(el);
    } else {
      throw new Error("unknown spec step: " + step);
    }
  }
  found = inside;
}
return found.filter(visible);
"""


def other_origin(urls, origin: str) -> list[str]:
    """The URLs in ``urls`` that left ``origin`` (``"http://127.0.0.1:<port>"``): what the page
    must never ask for (nothing loads from another origin). data:, blob: and about: URLs are not
    requests out. Both browsers' watches ask this one question: Chromium's of every request
    Playwright saw (tests/e2e/conftest.py), WebKit's of every resource the page's own
    PerformanceObserver recorded (tests/webkit/watch.js, tests/webkit/conftest.py)."""
    out = []
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob", "about"):
            continue
        if f"{parts.scheme}://{parts.netloc}" != origin:
            out.append(url)
    return out


class StepTimeout(AssertionError):
    pass


class FrayPage:
    """A window of Fray in either browser. ``backend`` is a ``PlaywrightBackend`` or a
    ``SeleniumBackend``; ``browser`` says which ("chromium", "webkit")."""

    def __init__(self, backend):
        self.b = backend
        self.browser = backend.browser

    # -- the page ------------------------------------------------------------------------------

    def js(self, body: str, *args):
        """Run ``body`` (a function body: ``arguments[i]``, ``return``) in the page."""
        return self.b.js(body, *args)

    def wait_js(self, body: str, *args, timeout: float = TIMEOUT_S, what: str = ""):
        """Wait until ``body`` returns something truthy; returns it. The browser's own wait does the
        asking (Playwright's ``wait_for_function``, Selenium's ``WebDriverWait``)."""
        try:
            return self.b.wait(body, args, timeout)
        except Exception as e:  # noqa: BLE001 - each backend times out with its own exception
            raise StepTimeout(f"waited {timeout:.0f} s for {what or body.strip()[:120]} ({type(e).__name__})") from None

    def goto(self, url: str) -> None:
        self.b.goto(url)
        self.wait_ready()

    def reload(self) -> None:
        self.b.reload()
        self.wait_ready()

    def wait_ready(self) -> None:
        self.wait_js('return document.documentElement.dataset.engine === "ready"',
                     timeout=READY_TIMEOUT_S, what="the engine to be ready")

    def viewport(self, width: int, height: int) -> None:
        """Make the page's viewport (innerWidth x innerHeight) this size."""
        self.b.viewport(width, height)
        self.wait_js("return innerWidth === arguments[0] && innerHeight === arguments[1]", width, height,
                     what=f"a {width}x{height} viewport")

    # -- elements --------------------------------------------------------------------------------

    def find(self, spec: str) -> list:
        return self.b.find(_FIND, spec)

    def one(self, spec: str, timeout: float = TIMEOUT_S):
        """The one visible element ``spec`` names, once there is exactly one."""
        self.wait_js("return (function () {" + _FIND + "}).call(null, arguments[0]).length === 1", spec,
                     timeout=timeout, what=f"one visible element {spec!r}")
        els = self.find(spec)
        if len(els) != 1:
            raise StepTimeout(f"{spec!r}: {len(els)} visible elements, not one")
        return els[0]

    def click(self, spec: str) -> None:
        self.b.click(self.one(spec))

    def fill(self, spec: str, text: str) -> None:
        self.b.fill(self.one(spec), text)

    def select(self, spec: str, value: str) -> None:
        self.b.select(self.one(spec), value)

    def select_label(self, spec: str, label: str) -> None:
        """Pick the option whose text is ``label``."""
        el = self.one(spec)
        value = self.b.js("""const o = [...arguments[0].options].find(o => o.text.trim() === arguments[1]);
                             return o ? o.value : null;""", el, label)
        assert value is not None, f"{spec!r} has no option {label!r}"
        self.b.select(el, value)

    def check(self, spec: str) -> None:
        el = self.one(spec)
        if not self.b.js("return arguments[0].checked", el):
            self.b.click(el)

    def text(self, spec: str) -> str:
        return self.b.js("return arguments[0].textContent", self.one(spec))

    def count(self, css: str) -> int:
        return self.b.js("return document.querySelectorAll(arguments[0]).length", css)

    def see(self, css: str, words: str, timeout: float = TIMEOUT_S) -> None:
        """Wait until some element matching ``css`` contains ``words`` (whitespace folded)."""
        self.wait_js("""const norm = (s) => (s || "").replace(/\\s+/g, " ");
            return [...document.querySelectorAll(arguments[0])].some(e => norm(e.textContent).includes(arguments[1]));""",
                     css, words, timeout=timeout, what=f"{words!r} in {css}")

    def see_exactly(self, css: str, words: str) -> None:
        """Wait until the first element matching ``css`` reads ``words`` (trimmed)."""
        self.wait_js("""const e = document.querySelector(arguments[0]);
            return e !== null && e.textContent.replace(/\\s+/g, " ").trim() === arguments[1];""",
                     css, words, what=f"{css} to read {words!r}")

    def see_count(self, css: str, n: int) -> None:
        self.wait_js("return document.querySelectorAll(arguments[0]).length === arguments[1]", css, n,
                     what=f"{n} of {css}")

    def gone(self, css: str) -> None:
        """Wait until nothing matching ``css`` is visible."""
        self.wait_js("return ![...document.querySelectorAll(arguments[0])].some(e => e.getClientRects().length > 0"
                     " && (!e.checkVisibility || e.checkVisibility()))", css, what=f"{css} to be hidden")

    def attribute(self, css: str, name: str, value: str) -> None:
        self.wait_js("const e = document.querySelector(arguments[0]); return e !== null && e.getAttribute(arguments[1]) === arguments[2]",
                     css, name, value, what=f"{css}[{name}={value!r}]")

    # -- windows --------------------------------------------------------------------------------

    def opens_window(self, spec: str) -> "FrayPage":
        """Click ``spec``, which opens a window; that window, once it is ready."""
        other = FrayPage(self.b.click_opening(self.one(spec)))
        other.wait_ready()
        return other

    def url(self) -> str:
        return self.js("return location.href")


class PlaywrightBackend:
    browser = "chromium"

    def __init__(self, page):
        self.page = page

    def js(self, body, *args):
        return self.page.evaluate("(a) => (function () {" + body + "}).apply(null, a)", list(args))

    def wait(self, body, args, timeout):
        handle = self.page.wait_for_function("(a) => (function () {" + body + "}).apply(null, a)", arg=list(args),
                                             timeout=timeout * 1000)
        return handle.json_value()

    def find(self, finder, spec):
        handle = self.page.evaluate_handle("(spec) => (function () {" + finder + "}).call(null, spec)", spec)
        out = [p.as_element() for p in handle.get_properties().values()]
        return [e for e in out if e is not None]

    def goto(self, url):
        self.page.goto(url)

    def reload(self):
        self.page.reload()

    def viewport(self, width, height):
        self.page.set_viewport_size({"width": width, "height": height})

    def click(self, el):
        el.click()

    def fill(self, el, text):
        el.fill(text)

    def select(self, el, value):
        el.select_option(value)

    def click_opening(self, el):
        with self.page.context.expect_page() as info:
            el.click()
        pv = info.value
        if hasattr(self.page, "watch"):
            self.page.watch.attach_page(pv)
        return PlaywrightBackend(pv)


class SeleniumBackend:
    """A window of a Selenium session (WebKitGTK's WebDriver). Several windows share the
    session: each call first switches to this one."""

    browser = "webkit"

    def __init__(self, driver, handle: str | None = None):
        self.driver = driver
        self.handle = handle or driver.current_window_handle

    def _here(self):
        if self.driver.current_window_handle != self.handle:
            self.driver.switch_to.window(self.handle)
        return self.driver

    def js(self, body, *args):
        return self._here().execute_script(body, *args)

    def wait(self, body, args, timeout):
        from selenium.webdriver.support.wait import WebDriverWait

        # a script error while the page is between documents (a reload) is asked again
        return WebDriverWait(self._here(), timeout, poll_frequency=0.05, ignored_exceptions=(Exception,)).until(
            lambda d: d.execute_script(body, *args))

    def find(self, finder, spec):
        return self._here().execute_script(finder, spec) or []

    def goto(self, url):
        self._here().get(url)

    def reload(self):
        self._here().refresh()

    def viewport(self, width, height):
        d = self._here()
        d.set_window_rect(width=width, height=height)
        dw, dh = d.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
        if dw or dh:
            d.set_window_rect(width=width + dw, height=height + dh)

    def click(self, el):
        from selenium.common.exceptions import ElementClickInterceptedException, ElementNotInteractableException
        from selenium.webdriver.support.wait import WebDriverWait

        def attempt(d) -> bool:  # a dialog still opening, a toast still fading: try again, as a user would
            try:
                el.click()
                return True
            except (ElementClickInterceptedException, ElementNotInteractableException):
                # WebKit's WebDriver scrolls the page, not always a pane that scrolls on its own
                d.execute_script('arguments[0].scrollIntoView({block: "center"})', el)
                return False

        WebDriverWait(self._here(), TIMEOUT_S, poll_frequency=0.1).until(attempt, f"could not click {el}")

    def fill(self, el, text):
        self._here()
        el.clear()
        if text:
            el.send_keys(text)

    def select(self, el, value):
        from selenium.webdriver.support.select import Select
        # WebKit's WebDriver scrolls an option's list to the top of the page, under the sticky
        # round bar, and the click on the option is intercepted there: in the middle, as a user has it
        self._here().execute_script('arguments[0].scrollIntoView({block: "center"})', el)
        Select(el).select_by_value(value)

    def click_opening(self, el):
        d = self._here()
        before = set(d.window_handles)
        self.click(el)
        from selenium.webdriver.support.wait import WebDriverWait

        WebDriverWait(d, TIMEOUT_S, poll_frequency=0.05).until(lambda d: set(d.window_handles) - before,
                                                               "no window opened")
        (new,) = set(d.window_handles) - before
        return SeleniumBackend(d, new)
