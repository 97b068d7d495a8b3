"""A Chromium trace of the bench's actions (bench/resume_bench.py ``_ACT``) on one of its fights:
for each action, its figures and the main thread's time by kind of task (Python runs inside
``EventDispatch`` and ``TimerFire``; ``Layout``, ``Paint`` and the rest are the browser's).

    PYTHONPATH=py .venv/bin/python bench/tools/act_trace.py strike-rank 30x60 20 [SKIP]

after ``make build``; SKIP actions are made first, untraced. Tracing slows the page: compare the
kinds with each other, not the totals with ``make bench``. Prints only; asserts nothing.
"""

from __future__ import annotations

import collections
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402
import serve  # noqa: E402

MARKED = ("async (kind) => { performance.mark('fray-act-start'); const r = await (%s)(kind); "
          "performance.mark('fray-act-end'); return r; }") % rb._ACT
KINDS = ("FunctionCall", "EventDispatch", "TimerFire", "UpdateLayoutTree", "Layout", "PrePaint", "Paint",
         "Layerize", "RunMicrotasks", "HitTest", "ParseHTML", "MajorGC", "MinorGC", "FireAnimationFrame", "Commit")


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    game, size, n = argv[0], argv[1], int(argv[2])
    skip = int(argv[3]) if len(argv) > 3 else 0
    rb.SIZES = {size: rb.SIZES[size]}
    tmp = Path(tempfile.mkdtemp(prefix="fray-act-trace-"))
    srv = serve.start({"/fray/": ROOT / "dist"})
    url = f"http://127.0.0.1:{srv.server_address[1]}/fray/"
    events: list[dict] = []
    res = []
    try:
        with sync_playwright() as pw:
            ctx = rb.warm_context(pw, tmp / "profile", url, None)
            rb.put_fight(ctx, url, game, size)
            page = ctx.new_page()
            page.set_viewport_size({"width": 1366, "height": 900})
            page.goto(url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=600_000)
            page.evaluate(rb._ACT, "note")
            for i in range(skip):
                page.evaluate(rb._ACT, "next" if i % 2 == 0 else "note")
            cdp = ctx.new_cdp_session(page)
            done = []
            cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
            cdp.on("Tracing.tracingComplete", lambda p: done.append(1))
            cdp.send("Tracing.start", {"categories": "devtools.timeline,blink.user_timing,v8",
                                       "transferMode": "ReportEvents"})
            for i in range(n):
                res.append(page.evaluate(MARKED, "next" if (skip + i) % 2 == 0 else "note"))
            cdp.send("Tracing.end")
            while not done:
                page.wait_for_timeout(100)
            ctx.close()
    finally:
        srv.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)
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
