"""Map bench: with 50 tokens, what one drag step costs in headless Chromium.

Registered with bench/run.py as ``map_drag_step`` (``make bench``); also runs alone:
``PYTHONPATH=py .venv/bin/python bench/map_bench.py`` (after ``make build``).

Two figures, both measured with ``performance.now()`` inside the page, median over the run:

* ``drag_step_ms``: one ``pointermove`` of a token drag, from the handler's start to its end:
  the engine's distance for the live read-out (``fray.maprules.measure``) plus the DOM update
  (the token's transform and its marker in the side view). The page sets ``window.__mapStepMs``
  to an array and ``mapctl`` pushes each step's time into it. Moves come from ``page.mouse``.
* ``commit_ms``: the ``pointerup`` that ends a drag: ONE core ``move`` through the reducer and
  history, autosave, and the full page render (tracker cards, log and the map with its rings and
  distance list) -- ``window.__mapCommitMs``.

The goal is a drag step within a frame (16 ms median). Nothing here asserts.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

TOKENS = 50
DRAGS = 6
STEPS = 20
GOAL_MS = 16.0


def scenario_file(folder: Path) -> Path:
    """A strike-rank fight with 50 tokens on a 10 x 5 grid, two of them in the air."""
    from fray import savefile
    from fray.history import History
    from fray.reducer import new_encounter
    from fray.games import get_ruleset

    presets = get_ruleset("strike-rank").presets()
    h = History(new_encounter("strike-rank", "Map bench"))
    for i in range(TOKENS):
        p = presets[i % 3]
        h.do({"type": "add_combatant", "combatant": {
            **p, "name": f"{p['name']} {i + 1}", "side": "party" if i % 2 else "foes",
            "position": {"x": (i % 10) * 6.0, "y": (i // 10) * 6.0, "alt": 12.0 if i in (7, 33) else 0.0}}})
    path = folder / "map-bench.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    return path


def measure(page, fray_url: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="fray-map-bench-"))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(fray_url)
    page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=120_000)
    page.set_input_files("#file-import", str(scenario_file(tmp)))
    page.wait_for_function(f"document.querySelectorAll('#map [data-token]').length === {TOKENS}", timeout=60_000)
    page.click("#tok-c1")  # a selected token: rings and a distance list of 49 rows to re-render
    page.wait_for_selector("#map-info table.map-dist")
    page.evaluate("window.__mapStepMs = []; window.__mapCommitMs = []")
    for d in range(DRAGS):
        cid = f"c{12 + d}"
        box = page.locator(f"#tok-{cid} .disc").bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        for s in range(1, STEPS + 1):
            page.mouse.move(x + s * 3, y + s * 2)
        page.mouse.up()
        page.wait_for_function(f"window.__mapCommitMs.length === {d + 1}", timeout=30_000)
    steps = page.evaluate("window.__mapStepMs")
    commits = page.evaluate("window.__mapCommitMs")
    med = statistics.median(steps) if steps else None
    return {
        "tokens": TOKENS, "steps": len(steps),
        "drag_step_median_ms": round(med, 3) if med is not None else None,
        "drag_step_max_ms": round(max(steps), 3) if steps else None,
        "commit_median_ms": round(statistics.median(commits), 1) if commits else None,
        "goal_ms": GOAL_MS, "met": med is not None and med <= GOAL_MS,
    }


def map_drag_step(bench) -> dict:
    """``@page_bench`` hook for bench/run.py."""
    page = bench.context.new_page()
    try:
        return measure(page, bench.fray_url)
    finally:
        page.close()


def main() -> int:
    from standalone import run_alone

    r = run_alone(lambda browser, url: measure(browser.new_page(), url))
    print(f"map drag step with {r['tokens']} tokens: median {r['drag_step_median_ms']} ms over {r['steps']} steps "
          f"(max {r['drag_step_max_ms']} ms; goal <= {GOAL_MS} ms: {'met' if r['met'] else 'NOT met'}); "
          f"commit (move + full render) median {r['commit_median_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
