"""The same part of a fight played several times on one page: ACTIONS of the bench's actions
(bench/resume_bench.py ``_ACT``, Next and a note in turn), then Undo back to where they began
(``undo_back``), PASSES times, on PAGES pages of one warm profile, each page on the fight as stored.
What changes from one pass to the next is only what the browser has learnt (the code V8 optimised
meanwhile) and the dice; what stays is the work. So it tells V8's warm-up from the cost of the
actions themselves, and a change to that cost from the drift of a shared machine better than two
``make bench`` runs do.

    PYTHONPATH=py .venv/bin/python bench/tools/act_passes.py strike-rank 30x60 [PASSES [PAGES [ACTIONS]]]

after ``make build``. Prints each pass's figures (click to "Saved": p95 and median, the Nexts'
median and maximum, the notes' median); asserts nothing.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402


def main(argv: list[str]) -> int:
    game, size = argv[0], argv[1]
    passes = int(argv[2]) if len(argv) > 2 else 3
    pages = int(argv[3]) if len(argv) > 3 else 2
    actions = int(argv[4]) if len(argv) > 4 else 30
    rb.SIZES = {size: rb.SIZES[size]}
    with rb.warm_session() as (ctx, url):
        for n in range(pages):
            rb.put_fight(ctx, url, game, size)
            page = rb.fight_page(ctx, url)
            for p in range(passes):
                played = rb.play(page, actions)
                got = [ms[rb.SAVED] for _, ms in played]
                nexts = [ms[rb.SAVED] for k, ms in played if k == "next"]
                notes = [ms[rb.SAVED] for k, ms in played if k == "note"]
                line = f"page {n + 1} pass {p + 1}: {len(got)} actions"
                if got:
                    line += f", p95 {rb.p95(got):.1f} median {statistics.median(got):.1f} ms"
                if nexts:
                    line += f" | Next median {statistics.median(nexts):.1f} max {max(nexts):.1f}"
                if notes:
                    line += f" | note median {statistics.median(notes):.1f}"
                print(line, flush=True)
                rb.undo_back(page, played)
            page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
