"""What an added game costs the boot (issue 34: micropip's "cost to the boot (with the snapshot
and without) is in make bench, and the boot of a page with no installed game does not pay it").

In a browser of its own (its own origin's storage, so no other bench sees the game): warm boots
of Fray with no added game, with the snapshot (``fray_url``) and without (``plain_url``); then
the example game's wheel (examples/fray-d20/, built by make) is added through "Add a game…"; then
the same warm boots again, which now load micropip and install the kept wheel before the
encounter opens. Medians of ms to ``data-engine=ready``, the difference, and the span of the
page's own marks: ``fray:micropip`` → ``fray:micropip-ready`` (fetch and import micropip) and
→ ``fray:games`` (every kept game installed). Registered as ``@page_bench("installed_game_boot")``
in bench/run.py; ``python bench/games_bench.py`` runs it alone. Nothing here asserts.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHEEL = ROOT / "examples" / "fray-d20" / "dist" / "fray_d20-0.1.0-py3-none-any.whl"
N = int(os.environ.get("BENCH_GAME_N", "5"))
TIMEOUT_MS = 120_000
PROBE = """
new MutationObserver((_, obs) => {
  if (document.documentElement && document.documentElement.dataset.engine === "ready") {
    window.__readyAt = performance.now(); obs.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-engine"]});
"""
SPANS = """() => {
  const at = (n) => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : null; };
  const m = at("fray:micropip"), r = at("fray:micropip-ready"), g = at("fray:games");
  return {micropip: m === null || r === null ? null : r - m, games: m === null || g === null ? null : g - m};
}"""


def _boot(context, url: str) -> tuple[float, dict]:
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
        page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS)
        return float(page.evaluate("window.__readyAt")), page.evaluate(SPANS)
    finally:
        page.close()


def _add_game(context, url: str) -> None:
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
        page.locator("#btn-new").click()
        page.locator("#f-wheel").set_input_files(str(WHEEL))
        page.locator("form[data-form=add-game] button[type=submit]").click()
        page.wait_for_selector("#f-ruleset option[value=d20-skirmish]", state="attached", timeout=TIMEOUT_MS)
    finally:
        page.close()


def _med(xs: list) -> float | None:
    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 1) if xs else None


def measure(browser, fray_url: str, plain_url: str = "") -> dict:
    if not WHEEL.is_file():
        return {"skipped": f"no {WHEEL.name}: run make build"}
    context = browser.new_context()
    try:
        context.add_init_script(PROBE)
        urls = {"snapshot": fray_url, **({"plain": plain_url} if plain_url else {})}
        for url in urls.values():  # first visits: the service worker caches, later boots are warm
            page = context.new_page()
            page.goto(url)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
            page.close()
            _boot(context, url)
        out: dict = {"boots": N}
        none = {k: [_boot(context, u) for _ in range(N)] for k, u in urls.items()}
        _add_game(context, fray_url)
        game = {k: [_boot(context, u) for _ in range(N)] for k, u in urls.items()}
        for k in urls:
            a, b = _med([t for t, _ in none[k]]), _med([t for t, _ in game[k]])
            out[k] = {"no_game_ready_ms": a, "one_game_ready_ms": b,
                      "added_ms": round(b - a, 1) if a is not None and b is not None else None,
                      "micropip_import_ms": _med([s["micropip"] for _, s in game[k]]),
                      "micropip_and_install_ms": _med([s["games"] for _, s in game[k]]),
                      "no_game_loads_micropip": any(s["micropip"] is not None for _, s in none[k])}
        return out
    finally:
        context.close()


def installed_game_boot(bench) -> dict:
    """``@page_bench`` hook for bench/run.py: a browser of its own, so the game stays out of the
    other benches' storage."""
    pw, launch = bench.pw_launch
    browser = pw.chromium.launch(**launch)
    try:
        return measure(browser, bench.fray_url, bench.plain_url)
    finally:
        browser.close()


def main() -> int:
    from standalone import run_alone

    r = run_alone(lambda browser, url: measure(browser, url))
    print(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
