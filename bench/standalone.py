"""Run one page bench on its own (``python bench/<name>.py``), outside ``make bench``: serve
dist/ under /fray/, launch headless Chromium (Debian's where it is installed), hand the browser
and the page's URL to ``fn`` and return what it measured."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "scripts")]


def run_alone(fn: Callable[[Any, str], dict]) -> dict:
    import serve
    from playwright.sync_api import sync_playwright

    srv = serve.start({"/fray/": ROOT / "dist"})
    url = f"http://127.0.0.1:{srv.server_address[1]}/fray/"
    try:
        with sync_playwright() as pw:
            launch: dict[str, Any] = {"headless": True, "args": ["--no-sandbox", "--disable-gpu"]}
            if Path("/usr/bin/chromium").exists():
                launch["executable_path"] = "/usr/bin/chromium"
            browser = pw.chromium.launch(**launch)
            try:
                return fn(browser, url)
            finally:
                browser.close()
    finally:
        srv.shutdown()
