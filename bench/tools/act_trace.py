"""A Chromium trace of the bench's actions (bench/resume_bench.py ``_ACT``) on one of its fights:
for each action, its figures and the main thread's time by kind of task (Python runs inside
``EventDispatch`` and ``TimerFire``; ``Layout``, ``Paint`` and the rest are the browser's).

    PYTHONPATH=py .venv/bin/python bench/tools/act_trace.py strike-rank 30x60 20 [SKIP]

after ``make build``; SKIP actions are made first, untraced. Tracing slows the page: compare the
kinds with each other, not the totals with ``make bench``. Prints only; asserts nothing.
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402

MARKED = ("async (kind) => { performance.mark('fray-act-start'); const r = await (%s)(kind); "
          "performance.mark('fray-act-end'); return r; }") % rb._ACT
KINDS = ("FunctionCall", "EventDispatch", "TimerFire", "UpdateLayoutTree", "Layout", "PrePaint", "Paint",
         "Layerize", "RunMicrotasks", "HitTest", "ParseHTML", "MajorGC", "MinorGC", "FireAnimationFrame", "Commit")


def main(argv: list[str]) -> int:
    game, size, n = argv[0], argv[1], int(argv[2])
    skip = int(argv[3]) if len(argv) > 3 else 0
    rb.SIZES = {size: rb.SIZES[size]}
    with rb.warm_session() as (ctx, url):
        rb.put_fight(ctx, url, game, size)
        page = rb.fight_page(ctx, url)
        rb.play(page, skip)
        with rb.tracing(ctx, page, "devtools.timeline,blink.user_timing,v8") as events:
            # every action, one the page could not take too: its marks are in the trace
            res = [page.evaluate(MARKED, rb.kind(skip + i)) for i in range(n)]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main_threads = {k for k, v in names.items() if v == "CrRendererMain"}
    starts = sorted(e["ts"] for e in events if e.get("name") == "fray-act-start")
    ends = sorted(e["ts"] for e in events if e.get("name") == "fray-act-end")
    tops = [e for e in events if (e["pid"], e["tid"]) in main_threads and e.get("ph") == "X" and e.get("dur")
            and e["name"] in KINDS]
    for i, (s, e) in enumerate(zip(starts, ends)):
        tot: collections.Counter = collections.Counter()
        for ev in tops:
            if s <= ev["ts"] <= e:
                tot[ev["name"]] += ev["dur"] / 1000
        r = res[i] or [0, 0]
        kinds = " ".join(f"{k}={v:.1f}" for k, v in tot.most_common() if v >= 0.5)
        print(f"{i:2d} saved {r[rb.SAVED]:6.1f} painted {r[rb.PAINTED]:6.1f} | {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
