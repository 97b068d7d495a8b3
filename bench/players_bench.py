"""Players' view bench: how soon a change in the GM's window shows in the players' window.

Registered with bench/run.py as ``players_follow`` (``make bench``); also runs alone:
``PYTHONPATH=py .venv/bin/python bench/players_bench.py`` (after ``make build``).

Issue 12 says the players' view "follows every change within a frame". Both windows are pages
of one browser context (as at the table: one device, a second screen), on a 12-combatant
free-form fight, the players' window opened as the GM opens it ("Open players' view",
``window.open``, so it shares the GM window's event loop as it would at the table).

The browser is given two screens side by side (``--screen-info``), the GM's window (1366x900) on
the first and the players' window (1920x1080) on the second, and the GM's window is brought to the
front after opening the other, as at the table: both windows on screen, the GM clicking in theirs.
Headless Chromium needs both. A window off every screen gets one frame a second; of two stacked
windows, the one behind gets its frames late (the GM's window, behind the players' one, painted
its own click 50-100 ms late; the players' window, behind the GM's, up to 900 ms late). Each of ``CHANGES`` changes is one press of the GM's **Next** (the engine's
``advance``: a new combatant acts, now and then a new round), and for each:

* ``t0``: in the GM's window, just before the click (the click runs the whole change there:
  reducer, history, render, autosave queued, the projection posted on the BroadcastChannel;
  ``gm_click`` is how long that takes);
* ``dom``: in the players' window, the MutationObserver callback that sees "Now: ..." change;
* ``shown``: the first ``requestAnimationFrame`` callback of the players' window after that, i.e.
  the frame that paints it; ``frames`` counts the players' window's animation frames from ``t0``
  to that one (1: the very next frame);
* ``gm_painted``: the first animation frame of the GM's own window after the click, the one that
  paints the change there. Both windows keep counting their frames until each has painted, and
  ``lag`` is how many frames the players' window is behind the GM's: the GM's frames that began
  after its paint frame and no later than the players' paint frame (0: the players' window painted
  before the GM's next frame began, i.e. in the same frame; negative: the players' window was that
  many of its own frames ahead). ``same_frame`` counts the changes with lag 0.

Frames are told apart by when their callbacks run, not by the timestamp ``requestAnimationFrame``
passes them: that is the time the compositor began the frame, and a frame that waited for a busy
main thread (both windows share one) keeps its old time. Times are
``performance.timeOrigin + performance.now()`` in each window (one clock on one machine).
Reported: median and p95 of ``shown - t0`` in ms and in frames, the same for ``dom`` and for the
GM's own paint, the lag, and the players' window's median frame interval. Each change is also
checked to show the name the GM's window shows (``mismatches``). Nothing here asserts; tests never
assert on time. ``-v`` alone prints every change.
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

# The players' window: a watch armed before each change (the frame loop runs until the bench stops it).
ARM = """() => {
  const now = () => performance.timeOrigin + performance.now();
  const el = () => document.getElementById("pv-now");
  const before = el() ? el().textContent : "";
  const w = window.__pvWatch = {before, dom: null, shown: null, frames: [], stop: false};
  const mo = new MutationObserver(() => {
    if (w.dom === null && el() && el().textContent !== before) { w.dom = now(); mo.disconnect(); }
  });
  mo.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  const tick = () => {
    const t = now();
    w.frames.push(t);
    if (w.dom !== null && w.shown === null) w.shown = t;
    if (!w.stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return before;
}"""

# The GM's window: the time, then the change, then its own frames until the bench stops them
# (the first is the one that paints the change in the GM's window).
CHANGE = """() => {
  const now = () => performance.timeOrigin + performance.now();
  const t0 = now();
  document.querySelector("#round-bar [data-act=advance]").click();
  const t1 = now();
  const g = window.__gmWatch = {frames: [], stop: false};
  const tick = () => { g.frames.push(now()); if (!g.stop) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  return [t0, t1];
}"""

# Both windows have painted, and each has begun one frame after the other's paint: the lag is known.
SETTLED_PV = "(gm) => { const w = window.__pvWatch; return w.shown !== null && w.frames.some((f) => f > gm); }"
SETTLED_GM = "(pv) => { const g = window.__gmWatch; return g.frames.length > 0 && g.frames.some((f) => f > pv); }"


def lag_frames(gm_paint: float, pv_paint: float, gm_frames: list[float], pv_frames: list[float]) -> int:
    """How many frames the players' window painted the change after the GM's window did: the
    GM's frames that began after its paint frame and no later than the players' one; negative
    when the players' window was ahead, by the frames it began after its paint and no later than
    the GM's. 0: both painted it before either window began another frame."""
    if pv_paint >= gm_paint:
        return sum(1 for f in gm_frames if gm_paint < f <= pv_paint)
    return -sum(1 for f in pv_frames if pv_paint < f <= gm_paint)


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


SCREENS = "--screen-info={0,0 1920x1080}{1920,0 1920x1080}"  # two monitors, side by side
GM_WINDOW = {"left": 0, "top": 0, "width": 1366, "height": 900}
PLAYERS_WINDOW = {"left": 1920, "top": 0, "width": 1920, "height": 1080}


def place(page, bounds: dict) -> None:
    """Put the page's browser window at ``bounds`` (screen pixels)."""
    cdp = page.context.new_cdp_session(page)
    try:
        win = cdp.send("Browser.getWindowForTarget")["windowId"]
        cdp.send("Browser.setWindowBounds", {"windowId": win, "bounds": bounds})
    finally:
        cdp.detach()


def two_screens(pw, launch: dict):
    """A browser with two screens and a context whose pages are as large as their windows."""
    kw = dict(launch)
    kw.pop("user_data_dir", None)
    kw["args"] = [*kw.get("args", []), SCREENS]
    browser = pw.chromium.launch(**kw)
    return browser, browser.new_context(no_viewport=True)


def measure(context, fray_url: str) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="fray-players-bench-"))
    gm = context.new_page()
    place(gm, GM_WINDOW)
    gm.goto(fray_url)
    gm.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=120_000)
    gm.set_input_files("#file-import", str(scenario_file(tmp)))
    gm.wait_for_function(f"document.querySelectorAll('#combatants .card').length === {COMBATANTS}", timeout=60_000)
    gm.locator("#btn-players").click()  # the GM's own way: "Open players' view" (window.open)
    with context.expect_page() as info:
        gm.locator("#dlg").get_by_role("button", name="Open players\u2019 view").click()
    pv = info.value
    gm.locator("#dlg").get_by_role("button", name="Close").click()
    place(pv, PLAYERS_WINDOW)
    pv.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=120_000)
    # The players' window allows no eval (its CSP), and Playwright evaluates a bare expression with
    # eval: every predicate on it is written as a function.
    pv.wait_for_function("() => (document.getElementById('pv-now') || {}).textContent === 'Now: Hero 1'", timeout=60_000)
    gm.bring_to_front()  # the GM plays in their own window; the players' one is on the other screen
    shown, dom, frames, intervals, gm_ms, gm_painted, lags, raw = [], [], [], [], [], [], [], []
    mismatches = 0
    try:
        for _ in range(CHANGES):
            pv.evaluate(ARM)
            t0, t1 = gm.evaluate(CHANGE)
            gm_ms.append(t1 - t0)
            pv.wait_for_function("() => window.__pvWatch.shown !== null", timeout=30_000)
            gm.wait_for_function("window.__gmWatch.frames.length > 0", timeout=30_000)
            gm_paint = gm.evaluate("window.__gmWatch.frames[0]")
            pv_paint = pv.evaluate("window.__pvWatch.shown")
            pv.wait_for_function(SETTLED_PV, arg=gm_paint, timeout=30_000)
            gm.wait_for_function(SETTLED_GM, arg=pv_paint, timeout=30_000)
            w = pv.evaluate("(() => { window.__pvWatch.stop = true; return window.__pvWatch; })()")
            g = gm.evaluate("(() => { window.__gmWatch.stop = true; return window.__gmWatch; })()")
            shown.append(pv_paint - t0)
            dom.append(w["dom"] - t0)
            frames.append(sum(1 for f in w["frames"] if t0 < f <= pv_paint))
            intervals += [b - a for a, b in zip(w["frames"], w["frames"][1:])]
            gm_painted.append(gm_paint - t0)
            lags.append(lag_frames(gm_paint, pv_paint, g["frames"], w["frames"]))
            raw.append({"click": round(t1 - t0, 1), "pv_dom": round(w["dom"] - t0, 1),
                        "pv_shown": round(pv_paint - t0, 1), "gm_painted": round(gm_paint - t0, 1),
                        "lag": lags[-1]})
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
        "gm_painted_median_ms": round(statistics.median(gm_painted), 1),
        "gm_painted_p95_ms": round(_pct(gm_painted, 0.95), 1),
        "lag_median_frames": statistics.median(lags), "lag_p95_frames": _pct(lags, 0.95),
        "lag_min_frames": min(lags), "lag_max_frames": max(lags),
        "same_frame": sum(1 for lag in lags if lag == 0),
        "frame_interval_median_ms": round(frame_ms, 1) if frame_ms else None,
        "within_a_frame": sum(1 for f in frames if f <= 1), "mismatches": mismatches,
        "per_change": raw,
    }


def players_follow(bench) -> dict:
    """``@page_bench`` hook for bench/run.py: a browser of its own, with the two screens."""
    pw, launch = bench.pw_launch
    browser, context = two_screens(pw, launch)
    try:
        return measure(context, bench.fray_url)
    finally:
        browser.close()


def main() -> int:
    import serve
    from playwright.sync_api import sync_playwright

    srv = serve.start({"/fray/": ROOT / "dist"})
    url = f"http://127.0.0.1:{srv.server_address[1]}/fray/"
    launch: dict = {"headless": True, "args": ["--no-sandbox", "--disable-gpu"]}
    if Path("/usr/bin/chromium").exists():
        launch["executable_path"] = "/usr/bin/chromium"
    try:
        with sync_playwright() as pw:
            browser, context = two_screens(pw, launch)
            try:
                r = measure(context, url)
            finally:
                browser.close()
    finally:
        srv.shutdown()
    if "-v" in sys.argv:
        for row in r["per_change"]:
            print(row)
    print(f"players' view follows the GM ({r['combatants']} combatants, {r['changes']} changes): shown median "
          f"{r['shown_median_ms']} ms / {r['shown_median_frames']} frames, p95 {r['shown_p95_ms']} ms / "
          f"{r['shown_p95_frames']} frames (DOM median {r['dom_median_ms']} ms, p95 {r['dom_p95_ms']} ms; frame "
          f"{r['frame_interval_median_ms']} ms; the GM's click {r['gm_click_median_ms']} ms); {r['within_a_frame']}/{r['changes']} within one frame; "
          f"{r['mismatches']} mismatches")
    print(f"the GM's own window paints it at median {r['gm_painted_median_ms']} ms (p95 {r['gm_painted_p95_ms']} ms); "
          f"the players' window's lag behind it: median {r['lag_median_frames']} frames, p95 {r['lag_p95_frames']}, "
          f"from {r['lag_min_frames']} to {r['lag_max_frames']}; {r['same_frame']}/{r['changes']} in the same frame")
    return 0


if __name__ == "__main__":
    sys.exit(main())
