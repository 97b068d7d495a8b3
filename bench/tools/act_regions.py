"""What drawing each region of the page costs an action: the bench's actions (bench/resume_bench.py
``_ACT``, Next and a note in turn) on one page, with regions of the tracker hidden (``display:
none``) in turn, ACTIONS a pass, Undo back after each (``undo_back``), so every variant plays the
same part of the fight on code V8 has already optimised (one pass first, unmeasured).

    PYTHONPATH=py .venv/bin/python bench/tools/act_regions.py strike-rank 30x60 [PASSES [ACTIONS]]

after ``make build``. ``PAUSE_MS`` (300) waits after each action, as a GM does between taps: the
odds before rolling come once the page has been quiet for 120 ms (web/odds_view.py), so they are on
screen when the next tap comes, as at the table. Prints, per variant, the medians of the Nexts'
parts (``action_parts``: the page's Python, the browser's drawing, the commit) and the p95 of all
the actions; asserts nothing.

The hiding is a constructed style sheet (``document.adoptedStyleSheets``): the page's
Content-Security-Policy refuses a ``<style>`` element, which would measure nothing.

What it showed on 4 December 2026 (strike-rank 30x60, 3 passes, load average about 1): with
nothing drawn an action's p95 was 34.5 ms; with the ruleset panel alone drawn 49.7, the order strip
alone 51.2, the cards alone 56.4; with everything 79.0. Hiding any one region saved less than
drawing it alone cost, since the next one then moves up into the part of the page the browser
draws (``content-visibility: auto`` skips a region only 150 % of a screen below it). See
docs/performance.md, issue 11.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402

REGIONS = {"panel": "#ruleset-panel", "order": "#order-strip", "cards": "#combatants",
           "log": "#log-pane", "map": "#map-pane"}
DRAWN = ("panel", "order", "cards")
PAUSE_MS = int(os.environ.get("PAUSE_MS", "300"))

_SHEET = """(css) => {
  if (!globalThis.__frayBase) globalThis.__frayBase = [...document.adoptedStyleSheets];
  const s = new CSSStyleSheet(); s.replaceSync(css);
  document.adoptedStyleSheets = [...globalThis.__frayBase, s];
}"""


def hiding(*names: str) -> str:
    return f"{', '.join(REGIONS[n] for n in names)} {{ display: none; }}" if names else ""


def variants() -> dict[str, str]:
    out = {"as it is": "", "nothing drawn": hiding(*REGIONS)}
    for name in DRAWN:
        out[f"only the {name}"] = hiding(*(n for n in REGIONS if n != name))
    for name in REGIONS:
        out[f"no {name}"] = hiding(name)
    return out


def main(argv: list[str]) -> None:
    game, size = argv[0], argv[1]
    passes = int(argv[2]) if len(argv) > 2 else 2
    actions = int(argv[3]) if len(argv) > 3 else rb.ACTIONS
    rb.SIZES = {size: rb.SIZES[size]}
    played_by: dict[str, list] = {name: [] for name in variants()}
    with rb.warm_session() as (ctx, url):
        rb.put_fight(ctx, url, game, size)
        page = rb.fight_page(ctx, url)
        rb.undo_back(page, rb.play(page, actions))  # V8's warm-up, unmeasured
        for p in range(passes):
            for name, css in variants().items():
                page.evaluate(_SHEET, css)
                page.wait_for_timeout(PAUSE_MS)
                played = []
                for i in range(actions):
                    ms = page.evaluate(rb._ACT, rb.kind(i))
                    if ms is not None:
                        played.append((rb.kind(i), ms))
                    page.wait_for_timeout(PAUSE_MS)
                played_by[name] += played
                rb.undo_back(page, played)
            print(f"pass {p + 1} of {passes} done; load average {rb.load_average()}", flush=True)
    for name, played in played_by.items():
        parts = rb.action_parts(played).get("next", {})
        every = [ms[rb.SAVED] for _, ms in played if ms[rb.WROTE]]
        print(f"{name:14s} Next: python {parts.get('python')} drawing {parts.get('drawing')} "
              f"commit {parts.get('commit')} ms (median of {parts.get('n')}) | every action: "
              f"p95 {rb.p95(every):.1f} median {statistics.median(every):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
