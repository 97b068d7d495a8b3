"""Booting from the build's memory snapshot (issue 13): the page boots from it when it can, and
boots the plain way, silently and correctly, when it cannot (missing, corrupt, cut short, from
another Pyodide build, a browser without DecompressionStream); and an offline reload, with the
HTTP server really stopped, boots from the snapshot the service worker precached. Every test also
fails on any console error (the ``page`` fixture, or the watch below).

``globalThis.frayBoot`` (set by static/fray-pyodide.mjs) says which way the page booted.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

import pytest
from gestures import add_combatant, card, new_freeform, wait_ready
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402


def snapshot_file() -> Path:
    found = sorted((DIST / "static").glob("fray-*.snapshot.gz"))
    assert len(found) == 1, f"expected exactly one snapshot in dist/static, found {found}"
    return found[0]


def boot(page) -> dict:
    return page.evaluate("globalThis.frayBoot")


def plays(page) -> None:
    """The engine answers: a free-form encounter takes a combatant."""
    new_freeform(page, "After boot")
    add_combatant(page, "Ferryman", "initiative: 12")
    expect(card(page, "Ferryman")).to_be_visible()


def test_the_build_names_one_content_hashed_snapshot_that_the_worker_precaches():
    snap = snapshot_file()
    module = (DIST / "static" / "fray-pyodide.mjs").read_text(encoding="utf-8")
    assert f'const SNAPSHOT = "./{snap.name}";' in module
    assert re.fullmatch(r"fray-[0-9a-f]{16}\.snapshot\.gz", snap.name)
    sw = (DIST / "sw.js").read_text(encoding="utf-8")
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", sw, re.S).group(1))
    assert f"./static/{snap.name}" in precache
    assert 'interpreter = "./static/fray-pyodide.mjs"' in (DIST / "pyscript.toml").read_text(encoding="utf-8")
    assert gzip.decompress(snap.read_bytes())[:4] != b"\0\0\0\0"


def test_the_page_boots_from_the_snapshot(page, open_app):
    open_app(page)
    assert boot(page)["snapshot"] is True, boot(page)
    plays(page)


def _other_build(data: bytes) -> bytes:
    raw = bytearray(gzip.decompress(data))
    raw[16:48] = bytes(32)  # the Pyodide build id that restoreSnapshot checks
    return gzip.compress(bytes(raw), compresslevel=1)


def _corrupt(data: bytes) -> bytes:
    out = bytearray(data)
    for i in range(len(out) // 3, len(out) // 3 + 4096):
        out[i] ^= 0x5A
    return bytes(out)


BROKEN = {
    "missing": lambda data: None,
    "corrupt": _corrupt,
    "cut short": lambda data: data[: len(data) // 2],
    "from another Pyodide build": _other_build,
}


# The service worker would fetch the snapshot itself (out of reach of page.route).
@pytest.mark.browser_context_args(service_workers="block")
@pytest.mark.parametrize("how", list(BROKEN))
def test_a_snapshot_that_cannot_be_used_falls_back_to_a_plain_boot(page, open_app, how):
    data = snapshot_file().read_bytes()
    body = BROKEN[how](data)

    def answer(route):
        if body is None:
            route.fulfill(status=404, body="Not found")
        else:
            route.fulfill(status=200, body=body, headers={"Content-Type": "application/octet-stream"})

    page.route("**/fray-*.snapshot.gz", answer)
    if body is None:
        # Chromium's own network log of the 404 (any fetch of a missing file prints it); the page
        # itself logs no error.
        page.watch.allow(r"Failed to load resource: the server responded with a status of 404 .*\.snapshot\.gz")
    open_app(page)
    b = boot(page)
    assert b["snapshot"] is False and b["reason"], b
    plays(page)


@pytest.mark.browser_context_args(service_workers="block")
def test_a_browser_without_decompression_streams_boots_plain(page, open_app):
    page.add_init_script("delete globalThis.DecompressionStream")
    open_app(page)
    assert boot(page)["snapshot"] is False and "DecompressionStream" in boot(page)["reason"]
    plays(page)


def test_an_offline_reload_boots_from_the_cached_snapshot(browser):
    """A real outage: the HTTP server is stopped, not the browser's offline flag."""
    srv = serve.start({"/fray/": DIST})
    origin = f"http://127.0.0.1:{srv.server_address[1]}"
    context = browser.new_context()
    errors: list[str] = []
    running = True
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(origin + "/fray/")
        wait_ready(page)
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=120_000)
        new_freeform(page, "Offline ford")
        add_combatant(page, "Ferryman", "initiative: 12")
        srv.shutdown()
        running = False
        page.reload()
        wait_ready(page)
        assert boot(page)["snapshot"] is True, boot(page)
        expect(page.locator("#encounter-select option:checked")).to_have_text("Offline ford")
        expect(card(page, "Ferryman")).to_be_visible()
        assert errors == []
    finally:
        context.close()
        if running:
            srv.shutdown()
        srv.server_close()
