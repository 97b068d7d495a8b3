"""`make bench`: boot time, bytes and engine speed, printed and written to bench/results.json.

(a) Warm boot to ``html[data-engine="ready"]`` of Fray as built (dist/ under /fray/, booting from
    the memory snapshot), of the same build with the snapshot switched off (a copy of dist/ under
    /fray-plain/ whose interpreter module names no snapshot), and of a bare PyScript page
    (bench/bare/) on the same vendored files, N times each, in rotating order, in one headless
    Chromium with a persistent profile (after one visit of each, so all come from cache: Fray from
    its service worker, the bare page from the HTTP cache). The time is ``performance.now()`` when
    the attribute flips (a MutationObserver installed before any page script runs), i.e.
    milliseconds from navigation start. Medians and ratios; goals: Fray/bare <= 1.15 without the
    snapshot (the old goal), <= 0.5 with it (issue 13). Each Fray boot also records whether the
    snapshot was used (``globalThis.frayBoot``).
    Given BENCH_BEFORE_DIST (an older build's dist/), that build is measured in the same rotation
    (``before``), served at /fray/ of an origin of its own (a worker's activate deletes the other
    builds' caches of its origin), so before/after ratios come from one run.
(a') Cold first visit of the same three, each in a fresh profile (nothing cached, service worker
    installing alongside), BENCH_COLD_N times; goal: Fray with the snapshot <= 1.3x the bare page.
(b) Bytes the app adds over the vendored runtime: size of dist/ minus dist/static/vendor/.
(c) Engine speed: every workload in bench/workload.py (WORKLOADS) in this CPython and inside
    Pyodide in a page, ops/s and the ratio CPython/Pyodide.
(d) WebKit (bench/webkit_bench.py, issue 36), where WebKitGTK's WebDriver and Xvfb are installed:
    the same warm boots (Fray with and without the snapshot, the bare page, and the before build)
    and cold first visits in WebKitGTK, Fray's boot split by its fray:* marks, and the page
    process's memory over rounds of a 12-combatant fight, alone and with the players' window (for
    the before build too); printed against Chromium's figures of the same run.

Hooks for later benches, all landing in the same results file:
  * an engine workload: ``@workload("strike_rank_exchange")`` in bench/workload.py -> "engine";
  * a browser measurement: ``@page_bench("map_drag_step")`` here, a function
    ``(bench: Bench) -> dict`` that may use ``bench.context``, ``bench.fray_url`` and
    ``bench.measure_ready(url)`` -> "page".

Environment: BENCH_N (boots per page, default 9), BENCH_COLD_N (cold visits per page, default 3),
BENCH_WEBKIT=0 (no WebKit figures), BENCH_WEBKIT_ROUNDS (fight rounds for WebKit's memory, default 10),
BENCH_BEFORE_DIST (an older build's dist/ to measure beside this one),
BENCH_REPEAT (engine repeats, default 5), BENCH_PAGES (a comma list: only those page benches),
BENCH_ACTIONS (actions timed per fight in the resume benches, default 30).
Nothing here asserts; tests never assert on time.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BENCH = ROOT / "bench"
RESULTS = BENCH / "results.json"
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "py"), str(BENCH)]
import serve  # noqa: E402
import workload  # noqa: E402
import webkit_bench  # noqa: E402

N = int(os.environ.get("BENCH_N", "9"))
BEFORE_DIST = Path(os.environ["BENCH_BEFORE_DIST"]).resolve() if os.environ.get("BENCH_BEFORE_DIST") else None
COLD_N = int(os.environ.get("BENCH_COLD_N", "3"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
GOAL = 1.15
SNAPSHOT_GOAL = 0.5  # warm, with the snapshot, against the bare page
COLD_GOAL = 1.3  # first visit, with the snapshot, against the bare page
TIMEOUT_MS = 120_000
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic", "--disable-gpu",
]
# Installed before any script of the page: record when the page says it is ready.
READY_PROBE = """
new MutationObserver((_, obs) => {
  if (document.documentElement && document.documentElement.dataset.engine === "ready") {
    window.__readyAt = performance.now(); obs.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-engine"]});
"""

PAGE_BENCHES: dict[str, Callable[["Bench"], dict]] = {}


def page_bench(name: str):
    """Register a browser measurement; its dict goes to results["page"][name]."""
    def deco(fn):
        PAGE_BENCHES[name] = fn
        return fn
    return deco


import map_bench  # noqa: E402  (bench/map_bench.py: 50 tokens, one drag step)

page_bench("map_drag_step")(map_bench.map_drag_step)

import players_bench  # noqa: E402  (bench/players_bench.py: the players' window follows the GM's)

page_bench("players_follow")(players_bench.players_follow)

import games_bench  # noqa: E402  (bench/games_bench.py: issue 34, what an added game costs the boot)

page_bench("installed_game_boot")(games_bench.installed_game_boot)

import resume_bench  # noqa: E402  (bench/resume_bench.py: issue 11, a long fight stays instant)

for _game in resume_bench.GAMES:
    page_bench(f"resume_{_game}")(resume_bench.bench_for(_game))


@dataclass
class Bench:
    context: object
    origin: str
    fray_url: str
    bare_url: str
    engine_url: str
    plain_url: str = ""
    boots: list | None = None  # globalThis.frayBoot of each Fray boot measured
    pw_launch: tuple | None = None  # (playwright, launch options): for a bench that needs its own browser

    def measure_ready(self, url: str, context=None) -> float:
        """Open ``url`` in a new tab, wait for data-engine=ready; ms from navigation start."""
        page = (context or self.context).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        try:
            page.goto(url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
            page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS)
            if self.boots is not None and url != self.bare_url:
                self.boots.append([url, page.evaluate("globalThis.frayBoot || null")])
            return float(page.evaluate("window.__readyAt"))
        except Exception as e:
            raise SystemExit(f"bench: {url} did not get ready: {e}\n  " + "\n  ".join(errors))
        finally:
            page.close()


def plain_copy(folder: Path) -> None:
    """dist/ with the snapshot switched off: its interpreter module names no snapshot, so the
    page boots the plain way (the same path as the fallback). Everything else is the same bytes,
    the service worker's cache name included."""
    shutil.copytree(DIST, folder)
    module = folder / "static" / "fray-pyodide.mjs"
    text = module.read_text(encoding="utf-8")
    module.write_text(re.sub(r"const SNAPSHOT = [^;]*;", "const SNAPSHOT = null;", text, count=1), encoding="utf-8")


def cold_visits(pw_launch, b: Bench, tmp: Path) -> dict:
    """Each page's first visit in a fresh profile, COLD_N times each, rotating."""
    pw, launch = pw_launch
    out: dict[str, list[float]] = {"fray": [], "plain": [], "bare": []}
    urls = {"fray": b.fray_url, "plain": b.plain_url, "bare": b.bare_url}
    order = list(urls)
    for i in range(COLD_N):
        for key in order[i % 3:] + order[:i % 3]:
            ctx = pw.chromium.launch_persistent_context(str(tmp / f"cold-{key}-{i}"), **launch)
            ctx.add_init_script(READY_PROBE)
            try:
                out[key].append(round(b.measure_ready(urls[key], ctx), 1))
            finally:
                ctx.close()
    med = {k: statistics.median(v) for k, v in out.items()}
    return {"fray_ms": out["fray"], "plain_ms": out["plain"], "bare_ms": out["bare"],
            "fray_median_ms": med["fray"], "plain_median_ms": med["plain"], "bare_median_ms": med["bare"],
            "fray_over_bare": round(med["fray"] / med["bare"], 3),
            "plain_over_bare": round(med["plain"] / med["bare"], 3),
            "goal": COLD_GOAL, "met": med["fray"] / med["bare"] <= COLD_GOAL}


def folder_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def bytes_figures() -> dict:
    dist, vendor = folder_bytes(DIST), folder_bytes(DIST / "static" / "vendor")
    parts = {}
    for p in sorted(DIST.iterdir()):
        if p.name == "static":
            parts["static (without vendor)"] = folder_bytes(p) - vendor
        else:
            parts[p.name] = p.stat().st_size if p.is_file() else folder_bytes(p)
    return {"dist": dist, "vendor": vendor, "app": dist - vendor, "app_parts": parts}


def engine_page(folder: Path) -> None:
    """A page that runs bench/workload.py's run_all in Pyodide and prints the JSON into #out."""
    shutil.copy2(BENCH / "workload.py", folder / "workload.py")
    lines = ['"../fray/fray.zip" = "./*"']  # the engine as the app ships it (scripts/build.py)
    (folder / "pyscript.toml").write_text(
        'name = "engine bench"\ninterpreter = "../fray/static/vendor/pyodide/pyodide.mjs"\n\n[files]\n'
        + "\n".join(lines) + '\n"./workload.py" = "./workload.py"\n', encoding="utf-8")
    (folder / "index.html").write_text(f"""<!doctype html>
<html data-engine="loading"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="module" src="../fray/static/vendor/pyscript/core.js"></script></head>
<body><pre id="out"></pre>
<script type="py" config="./pyscript.toml">
import json, workload
from pyscript import document
document.getElementById("out").textContent = json.dumps(workload.run_all(repeat={REPEAT}))
document.documentElement.dataset.engine = "ready"
</script></body></html>
""", encoding="utf-8")


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not (DIST / "sw.js").is_file():
        print("bench: dist/ is not built (make bench builds it)", file=sys.stderr)
        return 1
    if BEFORE_DIST is not None and not (BEFORE_DIST / "sw.js").is_file():
        print(f"bench: BENCH_BEFORE_DIST={BEFORE_DIST} is not a built dist/", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="fray-bench-"))
    (tmp / "engine").mkdir()
    engine_page(tmp / "engine")
    plain_copy(tmp / "plain")
    mounts = {"/fray/": DIST, "/fray-plain/": tmp / "plain", "/bare/": BENCH / "bare",
              "/bare/vendor/": DIST / "static" / "vendor", "/engine/": tmp / "engine"}
    srv = serve.start(mounts)
    origin = f"http://127.0.0.1:{srv.server_address[1]}"
    srv_before = before_url = None
    if BEFORE_DIST is not None:
        srv_before = serve.start({"/fray/": BEFORE_DIST})
        before_url = f"http://127.0.0.1:{srv_before.server_address[1]}/fray/"
    results: dict = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": {"python": platform.python_version(), "platform": platform.platform(),
                    "cpus": os.cpu_count()},
        "n": N,
    }
    try:
        with sync_playwright() as pw:
            launch = {"headless": True, "args": CHROMIUM_ARGS}
            if os.path.exists("/usr/bin/chromium"):
                launch["executable_path"] = "/usr/bin/chromium"
            ctx = pw.chromium.launch_persistent_context(str(tmp / "profile"), **launch)
            ctx.add_init_script(READY_PROBE)
            results["machine"]["browser"] = ctx.browser.version if ctx.browser else "chromium"
            b = Bench(ctx, origin, origin + "/fray/", origin + "/bare/", origin + "/engine/",
                      origin + "/fray-plain/", pw_launch=(pw, launch))

            # Warm-up: first visits fill the service workers' cache and the HTTP cache.
            for url in (b.fray_url, b.plain_url, before_url):
                if url is None:
                    continue
                page = ctx.new_page()
                page.goto(url)
                page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
                page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
                page.close()
                b.measure_ready(url)
            b.measure_ready(b.bare_url)

            b.boots = []
            fray_ms, plain_ms, bare_ms, before_ms = [], [], [], []
            order = [(b.fray_url, fray_ms), (b.plain_url, plain_ms), (b.bare_url, bare_ms)]
            if before_url:
                order.append((before_url, before_ms))
            for i in range(N):
                # Rotate which goes first so drift on the machine hits all alike.
                for url, out in order[i % len(order):] + order[:i % len(order)]:
                    out.append(round(b.measure_ready(url), 1))
            fm, pm, bm = (statistics.median(x) for x in (fray_ms, plain_ms, bare_ms))
            used = [boot for url, boot in b.boots if url == b.fray_url]
            results["boot"] = {"fray_ms": fray_ms, "plain_ms": plain_ms, "bare_ms": bare_ms,
                               "fray_median_ms": fm, "plain_median_ms": pm, "bare_median_ms": bm,
                               "ratio": round(fm / bm, 3), "plain_over_bare": round(pm / bm, 3),
                               "snapshot_over_plain": round(fm / pm, 3),
                               "snapshot_used": sum(1 for u in used if u and u.get("snapshot")),
                               "snapshot_boots": len(used),
                               "plain_goal": GOAL, "plain_met": pm / bm <= GOAL,
                               "goal": SNAPSHOT_GOAL, "met": fm / bm <= SNAPSHOT_GOAL}
            if before_ms:
                befm = statistics.median(before_ms)
                results["boot"].update({"before_dist": str(BEFORE_DIST), "before_ms": before_ms,
                                        "before_median_ms": befm, "before_over_bare": round(befm / bm, 3)})
            b.boots = None
            if COLD_N:
                results["cold"] = cold_visits((pw, launch), b, tmp)

            page = ctx.new_page()
            page.goto(b.engine_url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
            in_pyodide = json.loads(page.locator("#out").text_content())
            page.close()

            # BENCH_PAGES="map_drag_step,players_follow" runs only those page benches (some take minutes)
            only = {x for x in os.environ.get("BENCH_PAGES", "").split(",") if x}
            results["page"] = {name: fn(b) for name, fn in PAGE_BENCHES.items() if not only or name in only}
            ctx.close()

        if os.environ.get("BENCH_WEBKIT", "1") != "0":
            def webkit_server(extra: dict):
                s = serve.start({**mounts, **extra})
                return s, f"http://127.0.0.1:{s.server_address[1]}"
            results["webkit"] = webkit_bench.run(webkit_server, tmp, tmp / "plain", BEFORE_DIST)
    finally:
        srv.shutdown()
        if srv_before is not None:
            srv_before.shutdown()
        shutil.rmtree(tmp, ignore_errors=True)

    results["bytes"] = bytes_figures()
    in_cpython = workload.run_all(repeat=REPEAT)
    results["engine"] = {}
    for name, c in in_cpython.items():
        p = in_pyodide.get(name, {})
        results["engine"][name] = {
            "ops": c["ops"], "cpython_ops_per_s": round(c["ops_per_s"], 1),
            "pyodide_ops_per_s": round(p["ops_per_s"], 1) if p.get("ops_per_s") else None,
            "cpython_over_pyodide": round(c["ops_per_s"] / p["ops_per_s"], 2) if p.get("ops_per_s") else None,
        }

    RESULTS.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    bt, by = results["boot"], results["bytes"]
    print(f"warm boot to ready (median of {N}): Fray with the snapshot {bt['fray_median_ms']:.0f} ms "
          f"(used in {bt['snapshot_used']}/{bt['snapshot_boots']}), without {bt['plain_median_ms']:.0f} ms, "
          f"bare PyScript {bt['bare_median_ms']:.0f} ms")
    print(f"  with/bare {bt['ratio']:.3f} (goal <= {SNAPSHOT_GOAL}: {'met' if bt['met'] else 'NOT met'}), "
          f"without/bare {bt['plain_over_bare']:.3f} (goal <= {GOAL}: {'met' if bt['plain_met'] else 'NOT met'}), "
          f"with/without {bt['snapshot_over_plain']:.3f}")
    if "cold" in results:
        c = results["cold"]
        print(f"cold first visit (median of {COLD_N}): Fray with the snapshot {c['fray_median_ms']:.0f} ms, "
              f"without {c['plain_median_ms']:.0f} ms, bare {c['bare_median_ms']:.0f} ms; with/bare "
              f"{c['fray_over_bare']:.3f} (goal <= {COLD_GOAL}: {'met' if c['met'] else 'NOT met'}), "
              f"without/bare {c['plain_over_bare']:.3f}")
    print(f"bytes: dist {by['dist']:,}, vendored runtime {by['vendor']:,}, the app adds {by['app']:,}")
    for name, e in results["engine"].items():
        print(f"engine {name}: CPython {e['cpython_ops_per_s']:,.0f} ops/s, Pyodide "
              f"{e['pyodide_ops_per_s'] or 0:,.0f} ops/s, CPython/Pyodide {e['cpython_over_pyodide']}")
    for name, r in results["page"].items():
        print(f"page {name}: {r}")
    wk = results.get("webkit")
    if wk and "skipped" in wk:
        print(f"WebKit: not measured: {wk['skipped']}")
    for part in ("boot_error", "memory_error"):
        if wk and part in wk:
            print(f"WebKit {part.split('_')[0]}: not measured: {wk[part]}")
    if wk and "boot" in wk:
        wb = wk["boot"]
        print(f"WebKit ({wk['browser']}) warm boot (median of {N}): Fray {wb['fray_median_ms']:.0f} ms "
              f"(snapshot in {wb['snapshot_used']['fray']}/{N}), "
              + (f"without the snapshot {wb['plain_median_ms']:.0f} ms, " if "plain_median_ms" in wb else "")
              + (f"before {wb['before_median_ms']:.0f} ms, " if "before_median_ms" in wb else "")
              + f"bare PyScript {wb['bare_median_ms']:.0f} ms")
        print(f"  Fray/bare: WebKit {wb['fray_over_bare']:.3f}, Chromium {bt['ratio']:.3f}; "
              f"WebKit/Chromium: Fray {wb['fray_median_ms'] / bt['fray_median_ms']:.2f}, "
              f"bare {wb['bare_median_ms'] / bt['bare_median_ms']:.2f}"
              + (f"; without the snapshot/bare: WebKit {wb['plain_over_bare']:.3f}, Chromium {bt['plain_over_bare']:.3f}"
                 if "plain_over_bare" in wb else ""))
        for key, marks in wb["marks_median_ms"].items():
            print(f"  {key}'s boot in WebKit by its marks (median ms from navigation): {marks}")
    if wk and "cold" in wk:
        c = wk["cold"]
        print(f"WebKit cold first visit (median of {c['visits']}, fresh session: {c['fresh']}): "
              + ", ".join(f"{k} {c[k + '_median_ms']:.0f} ms" for k in wk["urls"])
              + "; over bare: " + ", ".join(f"{k} {c[k + '_over_bare']:.3f}" for k in wk["urls"] if k != "bare"))
    for key in ("memory", "memory_before", "memory_players", "memory_before_players", "memory_collected",
                "memory_before_collected"):
        if wk and key in wk:
            m = wk[key]
            what = ("every page process, the players' window open from the start (opening it cost "
                    f"{m['players_window_opened_cost_mib']} MiB; {m['players_opened']})" if "players" in key else
                    "page process, WebKit collecting all the time (what the page keeps)" if "collected" in key else
                    "page process")
            print(f"WebKit memory{' (before)' if 'before' in key else ''}, {what}, over "
                  f"{len(m['rounds'])} rounds of a 12-combatant fight: "
                  f"{m['mib']} MiB; growth after the first round {m['growth_after_first_round_mib']} MiB "
                  f"(goal <= {m['goal_mib']}: {'met' if m['met'] else 'NOT met'})")
            if "growth_after_long_idle_mib" in m:
                print(f"  after round 1 and round {len(m['rounds'])}, {m['long_idle_s']:.0f} s idle: "
                      f"{m['after_long_idle_first_last_round_mib']} MiB (growth {m['growth_after_long_idle_mib']})")
    if wk and "memory_box" in wk:
        m = wk["memory_box"]
        if "skipped" in m:
            print(f"WebKit in a tablet-sized box: not measured: {m['skipped']}")
        else:
            end = (f"killed in round {m['stopped']['round']} ({m['stopped']['why']})" if "stopped" in m
                   else f"all {m['played_rounds']} rounds played")
            print(f"WebKit in a box of {m['box_mib']} MiB for every process of the browser (its memory monitor "
                  f"reading the limit), the players' window open: {end}; the group at most {m['group_max_mib']} MiB, "
                  f"{m['oom_kills']} killed by the kernel; every page process after each round: {m['mib']} MiB")
    if wk and "memory_box_error" in wk:
        print(f"WebKit in a tablet-sized box: not measured: {wk['memory_box_error']}")
    if "before_median_ms" in bt:
        # the before/after, all from this one run
        print("before/after (this run):")
        print(f"  Chromium warm boot over bare: before {bt['before_over_bare']:.3f}, after {bt['ratio']:.3f}")
        if wk and "before_median_ms" in wk.get("boot", {}):
            wb = wk["boot"]
            print(f"  WebKit warm boot over bare: before {wb['before_over_bare']:.3f}, after {wb['fray_over_bare']:.3f}")
            print(f"  warm boot WebKit/Chromium: before {wb['before_median_ms'] / bt['before_median_ms']:.2f}, "
                  f"after {wb['fray_median_ms'] / bt['fray_median_ms']:.2f}")
        for alone, label in (("memory", "page process"), ("memory_players", "with the players' window"),
                             ("memory_collected", "page process, collecting all the time")):
            if wk and alone in wk and alone.replace("memory", "memory_before") in wk:
                mb, ma = wk[alone.replace("memory", "memory_before")]["mib"], wk[alone]["mib"]
                print(f"  WebKit {label} after round 1 / after round {len(ma) - 1}: before {mb[1]} / {mb[-1]} MiB, "
                      f"after {ma[1]} / {ma[-1]} MiB")
    print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
