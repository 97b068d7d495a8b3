"""`make bench`: boot time, bytes and engine speed, printed and written to bench/results.json.

(a) Warm boot to ``html[data-engine="ready"]`` of Fray (dist/ under /fray/) against a bare
    PyScript page (bench/bare/) on the same vendored files, N times each, alternating, in one
    headless Chromium with a persistent profile (after one visit of each, so both come from
    cache: Fray from its service worker, the bare page from the HTTP cache). The time is
    ``performance.now()`` when the attribute flips (a MutationObserver installed before any page
    script runs), i.e. milliseconds from navigation start. Median of each and the ratio; the
    goal is Fray/bare <= 1.15.
(b) Bytes the app adds over the vendored runtime: size of dist/ minus dist/static/vendor/.
(c) Engine speed: every workload in bench/workload.py (WORKLOADS) in this CPython and inside
    Pyodide in a page, ops/s and the ratio CPython/Pyodide.

Hooks for later benches, all landing in the same results file:
  * an engine workload: ``@workload("strike_rank_exchange")`` in bench/workload.py -> "engine";
  * a browser measurement: ``@page_bench("map_drag_step")`` here, a function
    ``(bench: Bench) -> dict`` that may use ``bench.context``, ``bench.fray_url`` and
    ``bench.measure_ready(url)`` -> "page".

Environment: BENCH_N (boots per page, default 9), BENCH_REPEAT (engine repeats, default 5).
Nothing here asserts; tests never assert on time.
"""

from __future__ import annotations

import json
import os
import platform
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

N = int(os.environ.get("BENCH_N", "9"))
REPEAT = int(os.environ.get("BENCH_REPEAT", "5"))
GOAL = 1.15
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


@dataclass
class Bench:
    context: object
    origin: str
    fray_url: str
    bare_url: str
    engine_url: str

    def measure_ready(self, url: str) -> float:
        """Open ``url`` in a new tab, wait for data-engine=ready; ms from navigation start."""
        page = self.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        try:
            page.goto(url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
            page.wait_for_function("window.__readyAt !== undefined", timeout=TIMEOUT_MS)
            return float(page.evaluate("window.__readyAt"))
        except Exception as e:
            raise SystemExit(f"bench: {url} did not get ready: {e}\n  " + "\n  ".join(errors))
        finally:
            page.close()


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
    tmp = Path(tempfile.mkdtemp(prefix="fray-bench-"))
    (tmp / "engine").mkdir()
    engine_page(tmp / "engine")
    srv = serve.start({"/fray/": DIST, "/bare/": BENCH / "bare", "/bare/vendor/": DIST / "static" / "vendor",
                       "/engine/": tmp / "engine"})
    origin = f"http://127.0.0.1:{srv.server_address[1]}"
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
            b = Bench(ctx, origin, origin + "/fray/", origin + "/bare/", origin + "/engine/")

            # Warm-up: first visits fill the service worker's cache and the HTTP cache.
            page = ctx.new_page()
            page.goto(b.fray_url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
            page.close()
            b.measure_ready(b.fray_url)
            b.measure_ready(b.bare_url)

            fray_ms, bare_ms = [], []
            for i in range(N):
                # Alternate which goes first so drift on the machine hits both alike.
                order = [(b.fray_url, fray_ms), (b.bare_url, bare_ms)]
                for url, out in (order if i % 2 == 0 else order[::-1]):
                    out.append(round(b.measure_ready(url), 1))
            fm, bm = statistics.median(fray_ms), statistics.median(bare_ms)
            results["boot"] = {"fray_ms": fray_ms, "bare_ms": bare_ms, "fray_median_ms": fm,
                               "bare_median_ms": bm, "ratio": round(fm / bm, 3), "goal": GOAL,
                               "met": fm / bm <= GOAL}

            page = ctx.new_page()
            page.goto(b.engine_url)
            page.wait_for_selector('html[data-engine="ready"]', state="attached", timeout=TIMEOUT_MS)
            in_pyodide = json.loads(page.locator("#out").text_content())
            page.close()

            results["page"] = {name: fn(b) for name, fn in PAGE_BENCHES.items()}
            ctx.close()
    finally:
        srv.shutdown()
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
    print(f"warm boot to ready (median of {N}): Fray {bt['fray_median_ms']:.0f} ms, "
          f"bare PyScript {bt['bare_median_ms']:.0f} ms, ratio {bt['ratio']:.3f} "
          f"(goal <= {GOAL}: {'met' if bt['met'] else 'NOT met'})")
    print(f"bytes: dist {by['dist']:,}, vendored runtime {by['vendor']:,}, the app adds {by['app']:,}")
    for name, e in results["engine"].items():
        print(f"engine {name}: CPython {e['cpython_ops_per_s']:,.0f} ops/s, Pyodide "
              f"{e['pyodide_ops_per_s'] or 0:,.0f} ops/s, CPython/Pyodide {e['cpython_over_pyodide']}")
    for name, r in results["page"].items():
        print(f"page {name}: {r}")
    print(f"written to {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
