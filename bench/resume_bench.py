"""Resume benches (issue 11): a long fight stays instant, per game, in headless Chromium.

Registered with bench/run.py as ``@page_bench("resume_<game>")`` (``make bench``); also runs alone:
``PYTHONPATH=py .venv/bin/python bench/resume_bench.py [strike-rank ...]`` (after ``make build``).

Each game's fights are played in CPython by bench/fights.py (12x300, 30x300, 30x60 and 200x300:
combatants x actions, the combatants' joining included) and written as saves into the page's own
database, as the autosave would, beside a fresh "Empty" encounter. Then, in the same run:

* ``boot``: warm boot to ``data-engine="ready"`` (ms from navigation, ``bench.measure_ready``;
  ``boot_marks_median_ms``: where the time went, by the boot's ``performance.mark``s)
  with the empty encounter, the 12x300 and the 30x300 fight current, N times each in rotating
  order, each showing its own kept drawing first (the one its boot before left, as a reload at
  the table does); medians and each fight's ratio to the empty boot (goal <= 1.10);
  ``*_over_empty_paired``: the median and range of each round's own ratio (the drift of a shared
  machine between rounds cancels out).
* ``first_paint_ms``: with the 12x300 fight's drawing kept by the boot before, the time from
  navigation to the copy of the last state in the document (``globalThis.frayFirstPaint.shownAt``);
  median, goal <= 300. ``first_paint_frame_ms``: to the start of the frame that draws it
  (``frameAt``, a requestAnimationFrame callback), which a main thread busy starting the
  interpreter can delay.
* ``load_200x300_ms``: the time the page's Python takes to load the 200x300 save
  (``globalThis.frayResume.load_ms``: ``Library.load``, the JSON, the strict reader, the replay
  from the last checkpoint); median, goal <= 1000.
* ``action_30_p95_ms``, ``action_200_p95_ms``: one action in the page (a click on Next, or a
  note), from the click to the header saying "Saved" again: the reducer, the re-render and the
  autosave committed to disk, ACTIONS of them, p95; goals 50 and 200 ms. They start right after
  the page is ready, as a GM's first clicks after reopening the tablet do. ``*_again_p95_ms``
  (no goal): the same ACTIONS again on the same page, after Undo took the fight back to where
  the first ones began (``undo_back``), so the two figures differ only in what the browser has
  learnt meanwhile: V8 runs the interpreter's WebAssembly on its baseline compiler until each
  hot function is optimised in the background (bench/tools/wasm_tiers.py counts them), so the
  first actions after a boot are the slow ones; ``actions_ms`` holds every figure in order.
  ``action_30_parts_median_ms`` (and ``_200_``): where the time went, Nexts and notes apart
  (``action_parts``: the page's Python, the browser's drawing, the commit).

Nothing here asserts. The machine's load average goes in the result, and ``yardstick_ms``: a fixed
piece of the interpreter's work timed in the page before and after each fight's actions (30x60,
then 200x300), so that two runs on a machine whose speed drifts can be read against each other:
these are wall-clock times.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "py"), str(ROOT / "scripts"), str(ROOT / "bench")]

GAMES = ("strike-rank", "tactical-round", "range-band")
N = int(os.environ.get("BENCH_N", "9"))
ACTIONS = int(os.environ.get("BENCH_ACTIONS", "30"))
GOALS = {"boot_ratio": 1.10, "first_paint_ms": 300, "load_200x300_ms": 1000,
         "action_30_p95_ms": 50, "action_200_p95_ms": 200}
SIZES = {"12x300": (12, 300), "30x300": (30, 300), "30x60": (30, 60), "200x300": (200, 300)}

_PUT = """async ([rows, current]) => {
  // the database at whatever version the page made it (static/store.js; 2 has the journal)
  const db = await new Promise((ok, no) => { const r = indexedDB.open("fray");
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const journal = db.objectStoreNames.contains("journal");
  const t = db.transaction(["saves", "entries", "meta"].concat(journal ? ["journal"] : []), "readwrite",
                           {durability: "strict"});
  for (const [key, text, name, ruleset] of rows) {
    t.objectStore("saves").put({key, text, rev: 1});
    t.objectStore("entries").put({key, name, ruleset, rev: 1});
    if (journal) t.objectStore("journal").delete(IDBKeyRange.bound([key], [key, []]));
  }
  if (current) t.objectStore("meta").put(current, "current");
  await new Promise((ok, no) => { t.oncomplete = ok; t.onerror = () => no(t.error); });
  db.close();
}"""

# one action in the page: the click, then the header's "Saved" once the write is committed
_ACT = """async (kind) => {
  const state = document.getElementById("save-state");
  const t0 = performance.now();
  if (kind === "next") {
    const next = Array.from(document.querySelectorAll("#round-bar button"))
      .find(b => /^(Next|Start the fight)/.test(b.textContent.trim()));
    if (!next) return null;
    next.click();
  } else if (kind === "undo") {
    const undo = document.getElementById("btn-undo");
    if (undo.disabled) return null;
    undo.click();
  } else {
    document.getElementById("note-text").value = "Bench note " + t0;
    document.getElementById("note-form").requestSubmit();
  }
  // the page's Python handles the click inside click() / requestSubmit(): apply, render, the write begun
  const handledAt = performance.now();
  const wrote = state.dataset.state === "saving";
  let savedAt = null;
  const saved = new Promise(ok => {
    if (!wrote) { savedAt = performance.now(); return ok(); }  // refused: nothing to write
    const obs = new MutationObserver(() => {
      if (state.dataset.state !== "saving") { savedAt = performance.now(); obs.disconnect(); ok(); }
    });
    obs.observe(state, {attributes: true, attributeFilter: ["data-state"]});
  });
  // what the GM sees: the frame after the click's handler (apply and render run inside it)
  await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
  const paintedAt = performance.now();
  await saved;
  return [savedAt - t0, paintedAt - t0, wrote, handledAt - t0];
}"""

# _ACT's figures: [click to "Saved" (the write committed), click to the next frame painted,
# whether the action was taken (a write began) or refused, click to the handler's return (the
# page's Python: apply, render, the write handed to IndexedDB)]
SAVED, PAINTED, WROTE, HANDLED = 0, 1, 2, 3


def action_parts(played: list[tuple[str, list]]) -> dict[str, dict[str, float]]:
    """The medians of where ``play``'s actions (those taken) spent their time, by kind (Next, note):
    ``python`` from the click to the handler's return (the page's Python: apply, render, the write
    handed to IndexedDB), ``drawing`` from there to the frame painted (the browser's style, layout
    and paint of what the render changed), ``commit`` from there to "Saved" (the write committed and
    the page told). Each median is of its own part, so the three need not add up to the median
    action."""
    out = {}
    for kind_ in ("next", "note"):
        mine = [ms for k, ms in played if k == kind_ and ms[WROTE]]
        if mine:
            out[kind_] = {
                "python": round(statistics.median(ms[HANDLED] for ms in mine), 1),
                "drawing": round(statistics.median(ms[PAINTED] - ms[HANDLED] for ms in mine), 1),
                "commit": round(statistics.median(ms[SAVED] - ms[PAINTED] for ms in mine), 1),
                "n": len(mine)}
    return out


def _p95_of(xs: list[float]) -> float | None:
    return round(p95(xs), 1) if xs else None


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def saves(game: str) -> dict[str, tuple[str, str]]:
    """Each size's save text and encounter name, played here (CPython), plus the empty encounter."""
    import fights
    from fray import savefile
    from fray.history import History
    from fray.reducer import new_encounter

    # as the page's autosave stores them: ASCII JSON (web/store.py, savefile.ascii_json)
    out = {"empty": (savefile.ascii_json(savefile.dumps(History(new_encounter(game, "Empty")))), "Empty")}
    for size, (n, k) in SIZES.items():
        h = fights.fight(game, n, k)
        out[size] = (savefile.ascii_json(savefile.dumps(h)), h.present.name)
    return out


# The machine's own speed, in the page: a fixed piece of the interpreter's work (no DOM), timed
# before and after a fight's actions. The actions' figures follow it (this shared 2-core machine
# runs the same code 1.5-2x slower from one hour to the next), so two runs compare through it.
_YARDSTICK = """async () => { const m = await import('./static/fray-pyodide.mjs');
  const py = await m.loadPyodide({});  // the page's own interpreter
  return py.runPython(`
import statistics, time
def _once():
    t = time.perf_counter()
    d = {}
    for i in range(20000):
        d[str(i)] = "<li>" + str(i * i) + "</li>"
    "".join(d.values())
    return (time.perf_counter() - t) * 1000
statistics.median(_once() for _ in range(7))`); }"""


def yardstick(page) -> float:
    """The median ms of ``_YARDSTICK``'s fixed work in ``page``'s interpreter."""
    return round(page.evaluate(_YARDSTICK), 2)


def load_average() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def resume(bench, game: str) -> dict:
    texts = saves(game)
    keys = {size: f"e{900 + i}" for i, size in enumerate(texts)}
    helper = bench.context.new_page()
    helper.goto(bench.fray_url + "static/app.css")  # the app's origin, without the app running
    helper.evaluate(_PUT, [[[keys[s], t, name, game] for s, (t, name) in texts.items()], keys["empty"]])

    def current(size: str) -> None:
        helper.evaluate(_PUT, [[], keys[size]])

    # Each boot shows its own encounter's kept drawing (static/first-paint.js), as a reload at the
    # table does: the page keeps what it last drew, whichever encounter that was, and the bench
    # switches encounters behind its back. So the drawing each boot kept is put back before the
    # next boot of the same encounter (none before its first), and an empty boot no longer
    # paints the 30x300 fight's copy the boot before it left.
    drawings: dict[str, str | None] = {}

    def own_drawing(size: str) -> None:
        helper.evaluate("(d) => d === null ? localStorage.removeItem('fray.paint') : localStorage.setItem('fray.paint', d)",
                        drawings.get(size))

    def boot(size: str, keep_paint: bool = True) -> dict:
        current(size)
        own_drawing(size)
        page = bench.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        try:
            page.goto(bench.fray_url)
            try:
                page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=600_000)
            except Exception as e:
                raise SystemExit(f"resume bench: {game} {size} did not get ready: {e}\n  " + "\n  ".join(errors))
            page.wait_for_function("window.__readyAt !== undefined", timeout=60_000)
            out = page.evaluate("({ready: window.__readyAt, paint: globalThis.frayFirstPaint || null, "
                                "resume: globalThis.frayResume || null, marks: Object.fromEntries("
                                "performance.getEntriesByType('mark').filter(m => m.name.startsWith('fray:'))"
                                ".map(m => [m.name.slice(5), m.startTime]))})")
            if keep_paint:  # the page keeps its drawing a moment after it renders
                page.wait_for_function("(k) => { try { return JSON.parse(localStorage.getItem('fray.paint')).key === k; }"
                                       " catch (e) { return false; } }", arg=keys[size], timeout=30_000)
                drawings[size] = page.evaluate("localStorage.getItem('fray.paint')")
            return out
        finally:
            page.close()

    load_before = load_average()
    for size in ("empty", "12x300", "30x300"):
        boot(size)  # warm: the first boot of each encounter loads its game's modules
    times: dict[str, list[float]] = {"empty": [], "12x300": [], "30x300": []}
    marks: dict[str, dict[str, list[float]]] = {s: {} for s in times}
    order = list(times)
    for i in range(N):
        for size in order[i % 3:] + order[:i % 3]:
            r = boot(size)
            times[size].append(round(r["ready"], 1))
            for name, t in (r.get("marks") or {}).items():
                marks[size].setdefault(name, []).append(t)
    med = {s: statistics.median(v) for s, v in times.items()}

    def split(size: str) -> dict[str, float]:
        """The boot's marks (docs/performance.md, "Boot marks"), medians in ms from navigation,
        and the page's Python parts: the load (library to loaded) and the first render."""
        m = {k: round(statistics.median(v), 1) for k, v in marks[size].items()}
        if {"library", "loaded", "wired", "rendered"} <= m.keys():
            m["load_part"] = round(statistics.median(
                b - a for a, b in zip(marks[size]["library"], marks[size]["loaded"])), 1)
            m["render_part"] = round(statistics.median(
                b - a for a, b in zip(marks[size]["wired"], marks[size]["rendered"])), 1)
        return m

    boot("12x300", keep_paint=True)
    paints = []
    paint_frames: list[float] = []
    for _ in range(N):
        r = boot("12x300", keep_paint=True)
        if r["paint"] and r["paint"].get("shown"):
            paints.append(round(r["paint"]["shownAt"], 1))
            if r["paint"].get("frameAt") is not None:
                paint_frames.append(round(r["paint"]["frameAt"], 1))

    loads = []
    for _ in range(max(3, N // 3)):
        r = boot("200x300")
        if r["resume"]:
            loads.append(round(r["resume"]["load_ms"], 1))

    actions, painted, parts = {}, {}, {}
    sticks: list[float] = []
    for size in ("30x60", "200x300"):
        current(size)
        page = fight_page(bench.context, bench.fray_url)
        try:
            sticks.append(yardstick(page))
            for run in (size, size + " again"):
                played = play(page, ACTIONS)
                actions[run] = [ms[SAVED] for _, ms in played]
                painted[run] = [ms[PAINTED] for _, ms in played]
                parts[run] = action_parts(played)
                if run == size:
                    undo_back(page, played)
            sticks.append(yardstick(page))
        finally:
            page.close()
    helper.close()

    def ratio(s: str) -> float:
        return round(med[s] / med["empty"], 3)

    def paired(s: str) -> dict[str, float]:
        """Each round's boot of ``s`` over that round's empty boot (the three boots one after the
        other), median and range: a machine that slows down or speeds up between rounds moves
        both boots of a round, so this reads the fight's own cost through the drift that moves the
        ratio of the medians by 0.1 or more between runs on this shared machine."""
        rs = [a / b for a, b in zip(times[s], times["empty"])]
        return {"median": round(statistics.median(rs), 3), "min": round(min(rs), 3), "max": round(max(rs), 3)}

    a30, a200 = actions["30x60"], actions["200x300"]
    return {
        "load_average": [load_before, load_average()], "n": N,
        # the machine's speed around the actions (``_YARDSTICK``: before and after each fight's)
        "yardstick_ms": sticks,
        "save_bytes": {s: len(t) for s, (t, _) in texts.items()},
        "boot_ms": times, "boot_median_ms": med, "boot_marks_median_ms": {s: split(s) for s in times},
        "boot_12x300_over_empty": ratio("12x300"), "boot_30x300_over_empty": ratio("30x300"),
        "boot_12x300_over_empty_paired": paired("12x300"), "boot_30x300_over_empty_paired": paired("30x300"),
        "first_paint_ms": paints, "first_paint_median_ms": statistics.median(paints) if paints else None,
        # the frame that draws the copy begins (requestAnimationFrame after it is in the document)
        "first_paint_frame_ms": paint_frames,
        "first_paint_frame_median_ms": statistics.median(paint_frames) if paint_frames else None,
        "load_200x300_ms": loads, "load_200x300_median_ms": statistics.median(loads) if loads else None,
        "action_30_p95_ms": round(p95(a30), 1) if a30 else None,
        "action_30_median_ms": round(statistics.median(a30), 1) if a30 else None,
        "action_200_p95_ms": round(p95(a200), 1) if a200 else None,
        "action_200_median_ms": round(statistics.median(a200), 1) if a200 else None,
        # the same part of the fight again on the same page, after undo_back (not a goal): what
        # the browser learnt during the first ACTIONS (the code V8 optimised meanwhile)
        "action_30_again_p95_ms": _p95_of(actions["30x60 again"]),
        "action_200_again_p95_ms": _p95_of(actions["200x300 again"]),
        "actions_ms": {k: [round(x, 1) for x in v] for k, v in actions.items()},
        # the same actions to the frame the GM sees, before the write is committed
        "painted_30_p95_ms": round(p95(painted["30x60"]), 1) if painted["30x60"] else None,
        "painted_30_median_ms": round(statistics.median(painted["30x60"]), 1) if painted["30x60"] else None,
        "painted_200_p95_ms": round(p95(painted["200x300"]), 1) if painted["200x300"] else None,
        "painted_200_median_ms": round(statistics.median(painted["200x300"]), 1) if painted["200x300"] else None,
        # where an action's time goes (``action_parts``), Nexts and notes apart
        "action_30_parts_median_ms": parts["30x60"], "action_200_parts_median_ms": parts["200x300"],
        "goals": GOALS,
    }


def kind(i: int) -> str:
    """The bench's ``i``-th action: Next and a note in turn."""
    return "next" if i % 2 == 0 else "note"


def play(page, n: int, start: int = 0, act: str = _ACT) -> list[tuple[str, list]]:
    """The bench's actions ``start`` to ``start + n`` (``kind``) on ``page``, each as ``act``
    (``_ACT`` or a wrapper of it) gives it: (kind, figures), the ones the page could not take
    (no Next button) left out."""
    out = []
    for i in range(start, start + n):
        ms = page.evaluate(act, kind(i))
        if ms is not None:
            out.append((kind(i), ms))
    return out


def undo_back(page, played: list[tuple[str, list]]) -> None:
    """Undo what ``play`` just measured (unmeasured): each action taken, not those refused, so the
    "again" run plays the same part of the fight (with dice of its own): the first Nexts resolve
    the declared strike ranks, later ones cross empty rounds, which cost a third as much; measured
    on from where the first run stopped, "again" compared a different workload, not warmer code.
    An Undo that is refused or changes nothing stops the bench: the runs would no longer compare."""
    n = sum(bool(ms[WROTE]) for _, ms in played)
    for i in range(n):
        ms = page.evaluate(_ACT, "undo")
        if not (ms and ms[WROTE]):
            raise SystemExit(f"resume bench: Undo {i + 1} of {n} did nothing: the measured actions "
                             "were not all undone")


def bench_for(game: str):
    def run(bench) -> dict:
        return resume(bench, game)
    run.__name__ = f"resume_{game.replace('-', '_')}"
    return run


def warm_context(pw, profile: Path, url: str, extra_args: list[str] | None = None):
    """A persistent Chromium profile as bench/run.py launches it, booted once at ``url`` (the
    service worker installed and in control), for the resume figures and bench/tools/*."""
    import run as bench_run

    launch = {"headless": True, "args": bench_run.CHROMIUM_ARGS + (extra_args or [])}
    if os.path.exists("/usr/bin/chromium"):
        launch["executable_path"] = "/usr/bin/chromium"
    ctx = pw.chromium.launch_persistent_context(str(profile), **launch)
    ctx.add_init_script(bench_run.READY_PROBE)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=600_000)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    page.close()
    return ctx


@contextlib.contextmanager
def warm_session(extra_args: list[str] | None = None):
    """``(ctx, url)``: dist/ served on a free port under /fray/ (a Pages sub-path) and a warm
    profile in a folder of its own (``warm_context``), all of it gone afterwards: the one set-up
    of ``main`` and bench/tools/*."""
    import shutil
    import tempfile

    import serve
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="fray-bench-"))
    srv = serve.start({"/fray/": ROOT / "dist"})
    url = f"http://127.0.0.1:{srv.server_address[1]}/fray/"
    try:
        with sync_playwright() as pw:
            ctx = warm_context(pw, tmp / "profile", url, extra_args)
            try:
                yield ctx, url
            finally:
                ctx.close()
    finally:
        srv.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)


def fight_page(ctx, url: str | None, first_note: bool = True):
    """A new page at the bench's laptop size; with ``url``, booted there to ready and, with
    ``first_note``, past the first write of a freshly opened page (a note, unmeasured)."""
    page = ctx.new_page()
    page.set_viewport_size({"width": 1366, "height": 900})
    if url is not None:
        boot_to_ready(page, url, first_note)
    return page


def boot_to_ready(page, url: str, first_note: bool = True) -> None:
    """``page`` at ``url``, until ``data-engine="ready"``; then the first note (``fight_page``)."""
    page.goto(url)
    page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=600_000)
    if first_note:
        page.evaluate(_ACT, "note")


@contextlib.contextmanager
def tracing(ctx, page, categories: str):
    """A Chromium trace of ``page`` while the block runs: the list its events arrive in, whole
    once the block is left."""
    cdp = ctx.new_cdp_session(page)
    events: list[dict] = []
    done: list[int] = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(1))
    cdp.send("Tracing.start", {"categories": categories, "transferMode": "ReportEvents"})
    yield events
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)


def put_fight(ctx, url: str, game: str, size: str) -> dict[str, tuple[str, str]]:
    """Store ``game``'s saves (``saves``) in the page's database with ``size`` current."""
    texts = saves(game)
    keys = {s: f"e{900 + i}" for i, s in enumerate(texts)}
    helper = ctx.new_page()
    helper.goto(url + "static/app.css")
    helper.evaluate(_PUT, [[[keys[s], t, name, game] for s, (t, name) in texts.items()], keys[size]])
    helper.close()
    return texts


def main(argv: list[str]) -> int:
    """Alone: the same warm, persistent profile and server layout as bench/run.py."""
    import run as bench_run

    with warm_session() as (ctx, url):
        b = bench_run.Bench(ctx, url.removesuffix("/fray/"), url, "", "")
        for game in argv or list(GAMES):
            print(game, json.dumps(resume(b, game)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
