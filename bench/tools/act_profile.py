"""Where one action's time goes, in the page: the bench's own actions (bench/resume_bench.py
``_ACT``: Next and a note in turn) on one of its fights, each action's figures printed, and with
``--profile`` a cProfile of the page's Python over the second page's actions.

    PYTHONPATH=py .venv/bin/python bench/tools/act_profile.py strike-rank 30x60 30 [--profile]

after ``make build``. Two pages are opened in turn on the same warm profile, each on the fight as
stored (it is stored again before the second page, so both play the same part of the fight: the
first Nexts resolve the declared strike ranks, later ones cross empty rounds, which cost a third
as much). Options, as environment variables:
``WAIT_MS`` waits that long after the page is ready before acting; ``CHROMIUM_EXTRA`` adds
Chromium arguments (``--js-flags=--no-liftoff`` runs the interpreter's WebAssembly optimised from
the start: the action figures without V8's warm-up). Prints only; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

import resume_bench as rb  # noqa: E402

PROFILE_ON = """async () => { const m = await import('./static/fray-pyodide.mjs');
  const py = await m.loadPyodide({}); globalThis.__frayPy = py;  // the page's own interpreter
  py.runPython("import builtins, cProfile; builtins._fray_prof = cProfile.Profile(); builtins._fray_prof.enable()"); }"""
PROFILE_OFF = """() => globalThis.__frayPy.runPython(`
import builtins, io, pstats
builtins._fray_prof.disable()
out = io.StringIO()
st = pstats.Stats(builtins._fray_prof, stream=out)
st.sort_stats('cumulative').print_stats(45)
st.sort_stats('tottime').print_stats(30)
out.getvalue()`)"""


def main(argv: list[str]) -> int:
    game, size, n = argv[0], argv[1], int(argv[2])
    profile = "--profile" in argv
    rb.SIZES = {size: rb.SIZES[size]}
    with rb.warm_session(os.environ.get("CHROMIUM_EXTRA", "").split()) as (ctx, url):
        for rep in range(2):
            rb.put_fight(ctx, url, game, size)
            page = rb.fight_page(ctx, url, first_note=False)
            page.wait_for_timeout(int(os.environ.get("WAIT_MS", "0")))
            page.evaluate(rb._ACT, "note")  # the first write of a freshly opened page, as the bench
            if profile and rep == 1:
                page.evaluate(PROFILE_ON)
            got = [ms for _, ms in rb.play(page, n)]
            saved = [x[rb.SAVED] for x in got]
            painted = [x[rb.PAINTED] for x in got]
            print(f"page {rep + 1}: saved median {statistics.median(saved):.1f} p95 {rb.p95(saved):.1f} "
                  f"max {max(saved):.1f} | painted median {statistics.median(painted):.1f} "
                  f"p95 {rb.p95(painted):.1f}")
            print("  saved, in order:", [round(x) for x in saved])
            if profile and rep == 1:
                print(page.evaluate(PROFILE_OFF))
            page.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
