"""End-to-end harness: dist/ served under a sub-path, real Chromium, fail on any console error.

`make test` / `make e2e` build dist/ first; this file builds nothing. Fixtures and helpers:

``app_server`` (session)
    A thread serving ``dist/`` at ``http://127.0.0.1:<free port>/fray/`` and nothing else
    (any other path is a 404, as outside the repo's folder on GitHub Pages).
``app_url`` (session)
    ``"http://127.0.0.1:<port>/fray/"``. ``app_origin``: ``"http://127.0.0.1:<port>"``.
``page`` (overrides pytest-playwright's)
    A page in a fresh context, watched: every console error, page error (uncaught exception)
    and failed request is recorded, and the test errors at teardown if there was any (STYLE
    habit 12). Every request URL of the context (service worker included) is recorded too, and
    teardown fails if one left the page's origin. The record is ``page.watch`` (a ``Watch``):
    ``page.watch.requests`` (URLs), ``page.watch.foreign()`` (URLs to another origin),
    ``page.watch.errors`` (messages). A test that provokes an expected console error calls
    ``page.watch.allow("regex")`` before it happens.
``open_app`` (function fixture returning ``open_app(page, query="", timeout_ms=READY_TIMEOUT_MS)``)
    Goes to the app URL and waits for ``html[data-engine="ready"]``; never sleeps.
``wait_ready`` (fixture returning ``wait_ready(page, timeout_ms=READY_TIMEOUT_MS)``)
    Waits for the same signal after ``page.reload()``. (Fixtures, not imports: tests/unit has a
    conftest too, and ``from conftest import ...`` would pick whichever was imported first.)
``launch_persistent`` (function fixture returning ``launch_persistent(profile_dir=None)``)
    A persistent Chromium context (a user-data dir kept across launches, so the HTTP cache,
    compiled wasm, service worker and IndexedDB/localStorage survive a close and relaunch, as
    in a GM's browser). Every page it opens is watched like ``page``; all are closed at teardown.
``persistent_page``
    The first page of ``launch_persistent()``, watched; ``persistent_page.context`` is its context.
``first_visit`` (function fixture returning ``first_visit(server, profile_dir=None) -> (context, page)``)
    A GM's first visit: the app opened from ``server`` (``outage_server``) in ``launch_persistent``'s
    browser, booted, its service worker in control (it has precached everything), so that the
    server can be stopped.
``outage_server`` (function)
    A second server of ``dist/`` on its own port, for offline tests: ``.url``, ``.origin`` and
    ``.stop()``, which closes its socket so that every request to it is refused, as in a real
    outage at the table (the browser's offline emulation is not what a GM meets, and Chromium 150
    does not even report it through ``navigator.onLine`` after a reload).
``browser_type_launch_args`` (session, overridden)
    Debian's /usr/bin/chromium when present (else Playwright's own browser) with flags that keep
    Chromium off the network: no background networking, component updates, sync or QUIC.

Writing a test: ``def test_x(page, open_app): open_app(page); page.get_by_role(...)...``.
For autosave/reload: ``def test_y(page, open_app, wait_ready)``: ``open_app(page)``, act,
``page.reload()``, ``wait_ready(page)``. Offline: ``persistent_page`` (see test_offline.py).
Tests never assert on time.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402
sys.path.insert(0, str(ROOT / "tests" / "webkit"))
from fraypage import other_origin  # noqa: E402  (the one check both browsers' watches share)

SUB_PATH = "/fray/"
READY_SELECTOR = 'html[data-engine="ready"]'
READY_TIMEOUT_MS = int(os.environ.get("FRAY_READY_TIMEOUT_MS", "90000"))
DEBIAN_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--disable-gpu",
]


# -- server -----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def app_server():
    if not (DIST / "index.html").is_file() or not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is not built: run `make e2e` (or `make build`) first", pytrace=False)
    srv = serve.start({SUB_PATH: DIST})
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def app_origin(app_server) -> str:
    return f"http://127.0.0.1:{app_server.server_address[1]}"


@pytest.fixture(scope="session")
def app_url(app_origin) -> str:
    return app_origin + SUB_PATH


@pytest.fixture
def outage_server(app_server):  # app_server: the same dist/ check before serving
    srv = serve.Site({SUB_PATH: DIST}, SUB_PATH)  # dist/ on a port of its own until stop()
    yield srv
    srv.stop()


# -- browser ----------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = dict(browser_type_launch_args)
    if os.path.exists(DEBIAN_CHROMIUM):
        args["executable_path"] = DEBIAN_CHROMIUM
    args["args"] = list(args.get("args") or []) + CHROMIUM_ARGS
    return args


class Watch:
    """What a page (and its context) did: console errors, page errors, failed and all requests."""

    def __init__(self, origin: str):
        self.origin = origin
        self.errors: list[str] = []
        self.requests: list[str] = []
        self._allowed: list[re.Pattern] = []

    def allow(self, pattern: str) -> None:
        """Let console/page errors matching ``pattern`` (a regex) pass."""
        self._allowed.append(re.compile(pattern))

    def attach_context(self, context) -> None:
        context.on("request", lambda r: self.requests.append(r.url))

    def attach_page(self, page) -> None:
        page.on("console", lambda m: m.type == "error" and self.errors.append(
            f"console.error: {m.text} ({m.location.get('url', '')}:{m.location.get('lineNumber', '')})"))
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: self._failed(r))

    def _failed(self, r) -> None:
        # An offline reload aborts nothing the app needs; anything else failing is a bug.
        self.errors.append(f"request failed: {r.url} ({r.failure})")

    def foreign(self) -> list[str]:
        """Request URLs that left the page's origin (data: and blob: URLs are not requests out)."""
        return other_origin(self.requests, self.origin)

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self._allowed)]

    def check(self) -> None:
        problems = [*self.unexpected_errors(), *(f"request to another origin: {u}" for u in self.foreign())]
        if problems:
            pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)


@pytest.fixture
def page(context, app_origin):
    watch = Watch(app_origin)
    watch.attach_context(context)
    p = context.new_page()
    watch.attach_page(p)
    p.watch = watch
    yield p
    watch.check()


def wait_ready(page, timeout_ms: int = READY_TIMEOUT_MS) -> None:
    """Wait until the engine has booted and rendered (the page's own signal)."""
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=timeout_ms)


def _open_app(page, app_url: str, query: str = "", timeout_ms: int = READY_TIMEOUT_MS):
    page.goto(app_url + query)
    wait_ready(page, timeout_ms)
    return page


@pytest.fixture(name="wait_ready")
def wait_ready_fixture():
    """``wait_ready(page)``: wait for data-engine=ready (after a reload, say)."""
    return wait_ready


@pytest.fixture
def open_app(app_url):
    """``open_app(page, query="")``: go to the app and wait for data-engine=ready."""
    return lambda page, query="", timeout_ms=READY_TIMEOUT_MS: _open_app(page, app_url, query, timeout_ms)


# -- persistent profile -------------------------------------------------------------------------

@pytest.fixture
def launch_persistent(browser_type, browser_type_launch_args, browser_context_args, app_origin):
    """``launch_persistent(profile_dir=None, origin=None) -> context``; the same dir again
    relaunches warm. ``origin``: the origin the watch accepts requests to (default the app's)."""
    opened: list = []
    watches: list[Watch] = []
    tmp = Path(tempfile.mkdtemp(prefix="fray-profile-"))

    def launch(profile_dir: str | Path | None = None, origin: str | None = None):
        ctx = browser_type.launch_persistent_context(
            str(profile_dir or tmp), **{**browser_context_args, **browser_type_launch_args})
        watch = Watch(origin or app_origin)
        watch.attach_context(ctx)
        for p in ctx.pages:
            watch.attach_page(p)
            p.watch = watch
        ctx.on("page", lambda p: (watch.attach_page(p), setattr(p, "watch", watch)))
        ctx.watch = watch
        opened.append(ctx)
        watches.append(watch)
        return ctx

    yield launch
    for ctx in opened:
        try:
            ctx.close()
        except Exception:
            pass
    shutil.rmtree(tmp, ignore_errors=True)
    for w in watches:
        w.check()


@pytest.fixture
def first_visit(launch_persistent):
    """``first_visit(server, profile_dir=None) -> (context, page)``: the app opened once with the
    server up, and waited on until the service worker controls the page (it claims the page once
    it has precached everything: install, then activate)."""
    def visit(server, profile_dir: str | Path | None = None):
        ctx = launch_persistent(profile_dir, origin=server.origin)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(server.url)
        wait_ready(page)
        page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null",
                               timeout=120_000)
        return ctx, page
    return visit


@pytest.fixture
def persistent_page(launch_persistent):
    ctx = launch_persistent()
    return ctx.pages[0] if ctx.pages else ctx.new_page()
