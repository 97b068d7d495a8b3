"""Screenshots for the GM's quick start (static/help/quickstart.html): `make quickstart-shots`.

Drives the built page (dist/) in Chromium through the steps the quick start describes and
writes static/help/*.jpg (JPEG: a tenth of a PNG's bytes, and the service worker precaches
them). Run it after a change to the page that the pictures show; the quick start's words say
what each picture is, so a picture that no longer matches is easy to spot.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "scripts")]
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from gestures import add_preset, sr_declare  # noqa: E402
import serve  # noqa: E402

OUT = ROOT / "static" / "help"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", "--disable-gpu"]


def shot(page, name: str) -> None:
    page.screenshot(path=str(OUT / f"{name}.jpg"), type="jpeg", quality=70)
    preview = os.environ.get("QUICKSTART_PREVIEW")  # a folder: PNG copies to look at
    if preview:
        page.screenshot(path=str(Path(preview) / f"{name}.png"))


def main() -> None:
    # the project's own server, in a thread: it is listening once start() returns (nothing to wait for)
    srv = serve.start({"/": ROOT / "dist"})
    port = srv.server_address[1]
    try:
        with sync_playwright() as p:
            exe = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
            b = p.chromium.launch(executable_path=exe, args=ARGS)
            ctx = b.new_context(viewport={"width": 1180, "height": 820})
            page = ctx.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector('html[data-engine="ready"]', timeout=120000)
            # 1. pick a game
            page.locator("#btn-new").click()
            dlg = page.locator("#dlg")
            dlg.get_by_label("Name").fill("Wolf in the pass")
            dlg.get_by_label("Rules").select_option("strike-rank")
            shot(page, "1-new")
            dlg.get_by_role("button", name="Create").click()
            expect(dlg).to_be_hidden()
            # 2. add combatants
            add_preset(page, "Human warrior", "party")
            page.locator("#round-bar").get_by_role("button", name="Add combatant").click()
            dlg.get_by_label("Ready-made").select_option(label="Great wolf (four-legged)")
            dlg.get_by_role("button", name="Use", exact=True).click()
            shot(page, "2-add")
            dlg.get_by_role("button", name="Add", exact=True).click()
            expect(dlg).to_be_hidden()
            # 3. run a round: declare, then resolve each strike rank
            page.locator("#round-bar [data-act=advance]").click()
            for cid, weapon, target in (("c1", "broadsword", "c2"), ("c2", "bite", "c1")):
                sr_declare(page, cid, {"kind": "melee", "weapon": weapon, "target": target}, "SR")
            page.evaluate("window.scrollTo(0, 0)")  # the first screen, as the GM sees it after the tap
            shot(page, "3-declare")
            page.locator("#round-bar [data-act=advance]").click()
            expect(page.locator("form[data-form=sr-attack]")).to_have_count(1)
            page.evaluate("window.scrollTo(0, 0)")  # the first screen, as the GM sees it after the tap
            shot(page, "4-attack")
            form = page.locator("form[data-form=sr-attack]")
            form.get_by_role("button", name="Roll the exchange").click()
            expect(page.locator("#log li").first).to_be_visible()
            page.evaluate("window.scrollTo(0, 0)")  # the first screen, as the GM sees it after the tap
            shot(page, "5-result")
            # 4. export and the menu of encounters
            page.locator("#btn-history").click()
            shot(page, "6-history")
            page.keyboard.press("Escape")
            ctx.close()
            b.close()
    finally:
        srv.shutdown()
        srv.server_close()
    for f in sorted(OUT.glob("*.jpg")):
        print(f"{f.relative_to(ROOT)}: {f.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
