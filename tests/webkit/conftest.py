"""The WebKit lane: Fray's built page in WebKitGTK (the engine of every browser on an iPad),
driven by Selenium through WebKitGTK's WebDriver (``WebKitWebDriver``, Debian's
``webkit2gtk-driver``) on a virtual display of its own (Xvfb). `make test` runs it after the
Chromium suite; where WebKitWebDriver or Xvfb is missing it says so in one line and does not run.

Fixtures:

``site`` (function)
    dist/ served at ``http://127.0.0.1:<fresh port>/fray/`` (a fresh origin per test: its own
    storage and service worker), with tests/webkit/watch.js served in front of
    static/sw-register.js. ``.url``, ``.origin``, ``.stop()`` (a real outage: connections refused).
``pg`` (function)
    A ``fraypage.FrayPage`` in a new WebKitGTK session, not yet navigated (``pg.goto(site.url)``);
    ``pg.site`` is the site. At teardown every window of the session is asked what its watch saw
    (console errors, uncaught errors and rejections, failed loads, requests to another origin):
    the test errors if there was anything, as the Chromium harness does (STYLE habit 12).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DIST = ROOT / "dist"
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(HERE))
import serve  # noqa: E402
from fraypage import FrayPage, SeleniumBackend, other_origin  # noqa: E402

SUB_PATH = "/fray/"
MINIBROWSER_DIRS = ["/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1",
                    "/usr/libexec/webkit2gtk-4.1"]


def minibrowser() -> str | None:
    for d in MINIBROWSER_DIRS:
        if os.access(os.path.join(d, "MiniBrowser"), os.X_OK):
            return os.path.join(d, "MiniBrowser")
    return None


# -- display -------------------------------------------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def display():
    """An Xvfb display for this run (a developer's own display is left alone)."""
    if not shutil.which("Xvfb"):
        pytest.exit("WebKit lane: Xvfb is not installed (Debian: xvfb)", returncode=1)
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        number = f.readline().strip()
    if not number:
        proc.kill()
        pytest.exit("WebKit lane: Xvfb did not start", returncode=1)
    old = os.environ.get("DISPLAY")
    os.environ["DISPLAY"] = ":" + number
    yield os.environ["DISPLAY"]
    proc.terminate()
    proc.wait(timeout=10)
    if old is None:
        os.environ.pop("DISPLAY", None)
    else:
        os.environ["DISPLAY"] = old


# -- the site ------------------------------------------------------------------------------------

@pytest.fixture(scope="session")
def watched_register(tmp_path_factory):
    if not (DIST / "index.html").is_file() or not (DIST / "sw.js").is_file():
        pytest.fail("dist/ is not built: run `make test` (or `make build`) first", pytrace=False)
    out = tmp_path_factory.mktemp("watch") / "sw-register.js"
    out.write_text((HERE / "watch.js").read_text(encoding="utf-8") + "\n"
                   + (DIST / "static" / "sw-register.js").read_text(encoding="utf-8"), encoding="utf-8")
    return out


@pytest.fixture
def site(watched_register):
    s = serve.Site({SUB_PATH: DIST, SUB_PATH + "static/sw-register.js": watched_register}, SUB_PATH)
    yield s
    s.stop()


# -- the browser ---------------------------------------------------------------------------------

COMMAND_TIMEOUT_S = 180


# A new session takes about a second. Seen once in a CI run (5 December): the browser for the third
# test never came up and WebKitWebDriver waited for it for ever, the request with it (Selenium sets
# no timeout on it: its default is the socket module's, none), until the lane's own 20 minutes ran
# out. A session not made in SESSION_TIMEOUT_S is given up, its driver stopped, and made again.
SESSION_TIMEOUT_S = 60
SESSION_TRIES = 3


def new_driver():
    import socket

    from selenium import webdriver
    from selenium.webdriver.webkitgtk.service import Service

    opts = webdriver.WebKitGTKOptions()
    opts.binary_location = minibrowser()
    opts.add_argument("--automation")
    for attempt in range(1, SESSION_TRIES + 1):
        default = socket.getdefaulttimeout()
        socket.setdefaulttimeout(SESSION_TIMEOUT_S)  # read by Selenium as the session's request is made
        service = Service()
        try:
            d = webdriver.WebKitGTK(options=opts, service=service)
        except Exception as e:  # noqa: BLE001 - no browser came up: try again, then say so
            try:
                service.stop()  # its quit() on a session never made can leave WebKitWebDriver running
            except Exception:  # noqa: BLE001 - already gone
                pass
            if attempt == SESSION_TRIES:
                raise RuntimeError(f"WebKit did not start a session in {SESSION_TRIES} tries: {e}") from e
            sys.stderr.write(f"WebKit lane: no session in {SESSION_TIMEOUT_S} s ({type(e).__name__}), trying again\n")
            continue
        finally:
            socket.setdefaulttimeout(default)
        break
    # a browser that died must fail the step, not hang the run: every WebDriver command has
    # COMMAND_TIMEOUT_S (Selenium's default is none), a page load two minutes
    d.command_executor._client_config.timeout = COMMAND_TIMEOUT_S
    d.set_page_load_timeout(120)
    return d


@pytest.fixture
def driver():
    if minibrowser() is None or not shutil.which("WebKitWebDriver"):
        pytest.exit("WebKit lane: WebKitWebDriver or MiniBrowser is not installed (Debian: webkit2gtk-driver)",
                    returncode=1)
    d = new_driver()
    yield d
    try:
        d.quit()
    except Exception:
        pass


def watch_record(d, origin: str) -> list[str]:
    """What every window's watch saw, and each request that left ``origin``."""
    out: list[str] = []
    for h in d.window_handles:
        d.switch_to.window(h)
        raw, asked = d.execute_script('return [sessionStorage.getItem("fray-test-watch"), '
                                      'sessionStorage.getItem("fray-test-watch-requests")]')
        out += json.loads(raw or "[]")
        out += [f"request to another origin: {u}" for u in other_origin(json.loads(asked or "[]"), origin)]
    return out


@pytest.fixture
def pg(driver, site):
    p = FrayPage(SeleniumBackend(driver))
    p.site = p.b.site = site
    p.allowed: list[str] = []
    yield p
    problems = [e for e in watch_record(driver, site.origin) if not any(a in e for a in p.allowed)]
    if problems:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
