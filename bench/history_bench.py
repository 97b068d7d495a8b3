"""Issue 11 in CPython: what one action costs and what a history holds, by fight size.

``python bench/history_bench.py`` plays each ruleset's fight (bench/fights.py) and then times
``History.do`` of every recorded action again (median and p95, in ms), and measures with
tracemalloc the memory a 300-action history holds beyond its starting encounter. ``make bench``
has the in-page figures; this is the engine alone.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "bench")]

import fights  # noqa: E402
from fray.history import History  # noqa: E402


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def per_action(h: History) -> dict:
    """Replay ``h``'s actions into a fresh history, timing each ``do`` after the combatants joined."""
    n = len(h.present.combatants)
    r = History(h.initial)
    times = []
    for i, a in enumerate(h.actions):
        t = time.perf_counter()
        r.do(a)
        if i >= n:
            times.append((time.perf_counter() - t) * 1000)
    return {"median_ms": round(statistics.median(times), 3), "p95_ms": round(p95(times), 3), "n": len(times)}


def history_memory(h: History) -> int:
    """Bytes a replayed history of ``h``'s actions holds, beyond its starting encounter."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    r = History.replay(h.initial, h.actions)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del r
    return held


def main() -> None:
    out = {}
    for rs in ("strike-rank", "tactical-round", "range-band"):
        small, big = fights.fight(rs, 30, 300), fights.fight(rs, 200, 260)
        out[rs] = {"action_30": per_action(small), "action_200": per_action(big),
                   "history_300_at_30_bytes": history_memory(small)}
        print(rs, json.dumps(out[rs]), flush=True)


if __name__ == "__main__":
    main()
