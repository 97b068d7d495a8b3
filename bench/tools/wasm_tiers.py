"""What V8 compiles of the interpreter's WebAssembly while the page boots and while the GM acts:
PAGES pages of one warm profile, one after another, each booting the same fight afresh
(bench/resume_bench.py ``put_fight``) and making ACTIONS of the bench's actions (``_ACT``, Next
and a note in turn), then left open IDLE_MS so that V8 may write its code cache.

    PYTHONPATH=py .venv/bin/python bench/tools/wasm_tiers.py strike-rank 30x60 [PAGES [ACTIONS]]

after ``make build``. For each page, split at the first action: how many TurboFan compile jobs ran
in the background (``wasm.TopTierCompilation``: each optimises one function or more, so a lower
bound on the functions), how many functions the baseline compiler compiled on their first call
(``wasm.CompileLazy``, Liftoff), and what the code cache did (a hit and
``wasm.Deserialize`` at boot, a write as ``v8.wasm.cachedModule``). The actions' own figures are
printed beside them, but the trace slows the page: read them against each other, not against
``make bench``. Prints only; asserts nothing.

What it showed on Chromium 156 (docs/performance.md, "Bench"): every page runs some 45-57
TurboFan compile jobs during its first 30 actions, a page that boots from the code cache as many
as the first one, though the cache is written again after a page's actions now and then.
"""

from __future__ import annotations

import collections
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402

CATEGORIES = ("v8.wasm,disabled-by-default-v8.wasm.detailed,disabled-by-default-devtools.timeline,"
              "devtools.timeline,blink.user_timing")
COUNTED = ("wasm.TopTierCompilation", "wasm.CompileLazy", "wasm.Deserialize", "v8.wasm.moduleCacheHit",
           "v8.wasm.cachedModule")
IDLE_MS = 3500  # V8 writes its code cache some 2 s after the last optimisation (wasm_caching_timeout_ms)


def page_run(ctx, url: str, game: str, size: str, actions: int) -> tuple[list[float], dict]:
    """One page: boot, the actions, the idle wait, all traced; the actions' figures and the counts."""
    rb.put_fight(ctx, url, game, size)
    page = rb.fight_page(ctx, None)
    try:
        with rb.tracing(ctx, page, CATEGORIES) as events:
            rb.boot_to_ready(page, url, first_note=False)
            page.evaluate("performance.mark('fray-acts')")
            got = [ms[rb.SAVED] for _, ms in rb.play(page, actions)]
            page.wait_for_timeout(IDLE_MS)
    finally:
        page.close()
    marks = [e["ts"] for e in events if e.get("name") == "fray-acts"]
    if not marks:
        raise SystemExit("wasm_tiers: the trace holds no 'fray-acts' mark: boot and actions cannot be told apart")
    start = min(marks)
    counts: dict = collections.Counter()
    for e in events:
        if e.get("name") in COUNTED and e.get("ph") in ("X", "B", "I", "i", "n", "R"):
            counts[(e["name"], "actions" if e.get("ts", 0) >= start else "boot")] += 1
    return got, counts


def main(argv: list[str]) -> int:
    game, size = argv[0], argv[1]
    pages = int(argv[2]) if len(argv) > 2 else 3
    actions = int(argv[3]) if len(argv) > 3 else 30
    rb.SIZES = {size: rb.SIZES[size]}
    with rb.warm_session() as (ctx, url):
        for n in range(pages):
            got, counts = page_run(ctx, url, game, size, actions)
            figures = (f"saved median {statistics.median(got):.1f} p95 {rb.p95(got):.1f} ms" if got
                       else "no action")
            print(f"page {n + 1}: {len(got)} actions, {figures} (traced)")
            for when in ("boot", "actions"):
                print(f"  {when:8s}" + "  ".join(f"{name} {counts[(name, when)]}" for name in COUNTED))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
