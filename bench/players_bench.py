"""Players' view bench: how soon a change in the GM's window shows in the players' window.

Registered with bench/run.py as ``players_follow`` (``make bench``); also runs alone:
``PYTHONPATH=py .venv/bin/python bench/players_bench.py`` (after ``make build``).

Issue 12 says the players' view "follows every change within a frame". Both windows are pages
of one browser context (as at the table: one device, a second screen), on a 12-combatant
free-form fight, the players' window opened as the GM opens it ("Open players' view",
``window.open``, so it shares the GM window's event loop as it would at the table). Each of ``CHANGES`` changes is one press of the GM's **Next** (the engine's
``advance``: a new combatant acts, now and then a new round), and for each:

* ``t0``: in the GM's window, just before the click (the click runs the whole change there:
  reducer, history, render, autosave queued, the projection posted on the BroadcastChannel;
  ``gm_click`` is how long that takes);
* ``dom``: in the players' window, the MutationObserver callback that sees "Now: ..." change;
* ``shown``: the first ``requestAnimationFrame`` callback of the players' window after that, i.e.
  the frame that paints it; ``frames`` counts the players' window's animation frames from ``t0``
  to that one (1: the very next frame).

Times are ``performance.timeOrigin + performance.now()`` in each window (one clock on one
machine). Reported: median and p95 of ``shown - t0`` in ms and in frames, the same for ``dom``,
and the players' window's median frame interval. Each change is also checked to show the name the
GM's window shows (``mismatches``). Nothing here asserts; tests never assert on time.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

COMBATANTS = 12
CHANGES = 40

# The players' window: a watch armed before each change (the frame loop runs only while armed).
ARM = """() => {
  const now = () => performance.timeOrigin + performance.now();
  const el = () => document.getElementById("pv-now");
  const before = el() ? el().textContent : "";
  const w = window.__pvWatch = {before, dom: null, shown: null, frames: []};
  const mo = new MutationObserver(() => {
    if (w.dom === null && el() && el().textContent !== before) { w.dom = now(); mo.disconnect(); }
  });
  mo.observe(document.body, {subtree: true, childList: true, characterData: true});
  const tick = () => {
    w.frames.push(now());
    if (w.dom !== null) { w.shown = w.frames[w.frames.length - 1]; return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return before;
}"""

# The GM's window: the time, then the change.
CHANGE = """() => {
  const t0 = performance.timeOrigin + performance.now();
  document.querySelector("#round-bar [data-act=advance]").click();
  return [t0, performance.timeOrigin + performance.now()];
}"""


def scenario_file(folder: Path) -> Path:
    """A free-form fight of 12 with HP (wounds described), started: Next moves the turn on."""
    from fray import savefile
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("freeform", "Players' view bench"))
    for i in range(COMBATANTS):
        h.do({"type": "add_combatant", "combatant": {
            "name": f"{'Goblin' if i % 2 else 'Hero'} {i + 1}", "side": "foes" if i % 2 else "party",
            "stats": {"initiative": 30 - i, "HP": 10 + i, "max HP": 12 + i},
            "position": {"x": (i % 4) * 3.0, "y": (i // 4) * 3.0, "alt": 0.0}}})
    h.do({"type": "advance"})
    path = folder / "players-bench.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    return path


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def measure(context, fray_url: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="fray-players-bench-"))
    gm = context.new_page()
    gm.set_viewport_size({"width": 1366, "height": 900})
    gm.goto(fray_url)
    gm.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=120_000)
    gm.set_input_files("#file-import", str(scenario_file(tmp)))
    gm.wait_for_function(f"document.querySelectorAll('#combatants .card').length === {COMBATANTS}", timeout=60_000)
    gm.locator("#btn-players").click()  # the GM's own way: "Open players' view" (window.open)
    with context.expect_page() as info:
        gm.locator("#dlg").get_by_role("button", name="Open players\u2019 view").click()
    pv = info.value
    gm.locator("#dlg").get_by_role("button", name="Close").click()
    pv.set_viewport_size({"width": 1920, "height": 1080})
    pv.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=120_000)
    pv.wait_for_function("(document.getElementById('pv-now') || {}).textContent === 'Now: Hero 1'", timeout=60_000)
    shown, dom, frames, intervals, gm_ms = [], [], [], [], []
    mismatches = 0
    try:
        for _ in range(CHANGES):
            pv.evaluate(ARM)
            t0, t1 = gm.evaluate(CHANGE)
            gm_ms.append(t1 - t0)
            pv.wait_for_function("window.__pvWatch.shown !== null", timeout=30_000)
            w = pv.evaluate("window.__pvWatch")
            shown.append(w["shown"] - t0)
            dom.append(w["dom"] - t0)
            frames.append(sum(1 for f in w["frames"] if f > t0))
            intervals += [b - a for a, b in zip(w["frames"], w["frames"][1:])]
            gm_now = gm.locator("ol.order li.current .who").first.inner_text(timeout=5_000)
            pv_now = pv.locator("#pv-now").inner_text()
            mismatches += pv_now.removeprefix("Now: ").strip() not in gm_now
    finally:
        pv.close()
        gm.close()
    frame_ms = statistics.median(intervals) if intervals else None
    return {
        "combatants": COMBATANTS, "changes": len(shown),
        "shown_median_ms": round(statistics.median(shown), 1), "shown_p95_ms": round(_pct(shown, 0.95), 1),
        "shown_median_frames": statistics.median(frames), "shown_p95_frames": _pct(frames, 0.95),
        "dom_median_ms": round(statistics.median(dom), 1), "dom_p95_ms": round(_pct(dom, 0.95), 1),
        "gm_click_median_ms": round(statistics.median(gm_ms), 1),
        "frame_interval_median_ms": round(frame_ms, 1) if frame_ms else None,
        "within_a_frame": sum(1 for f in frames if f <= 1), "mismatches": mismatches,
    }


def players_follow(bench) -> dict:
    """``@page_bench`` hook for bench/run.py."""
    return measure(bench.context, bench.fray_url)


def main() -> int:
    from standalone import run_alone

    r = run_alone(lambda browser, url: measure(browser.new_context(), url))
    print(f"players' view follows the GM ({r['combatants']} combatants, {r['changes']} changes): shown median "
          f"{r['shown_median_ms']} ms / {r['shown_median_frames']} frames, p95 {r['shown_p95_ms']} ms / "
          f"{r['shown_p95_frames']} frames (DOM median {r['dom_median_ms']} ms, p95 {r['dom_p95_ms']} ms; frame "
          f"{r['frame_interval_median_ms']} ms; the GM's click {r['gm_click_median_ms']} ms); {r['within_a_frame']}/{r['changes']} within one frame; "
          f"{r['mismatches']} mismatches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
