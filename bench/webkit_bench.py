"""WebKit figures for `make bench` (issue 36): Fray in WebKitGTK, the engine of every browser on
an iPad, driven by Selenium through WebKitGTK's WebDriver on an Xvfb display of its own.

* ``boot``: warm boot to ``data-engine="ready"`` of Fray (snapshot) and of the bare PyScript
  page, N times each in rotating order in one WebKit session (after one
  visit of each: Fray from its service worker, the bare page from the HTTP cache); ms from
  navigation start, taken in the page by a MutationObserver that a script served in front of the
  page's first script installs (WebKit's WebDriver has no init scripts). Medians, Fray/bare, and
  ``marks_median_ms``: where Fray's time went, by its ``fray:*`` performance marks.
* ``memory``: the page process (WebKitWebProcess, resident set) while a 12-combatant strike-rank
  fight is played, ROUNDS rounds of Next and a note after each Next (the page's own controls,
  clicked in the page), measured after each round once the autosave says "Saved" and the page
  has idled 2 s; then with the players' window open beside it for ROUNDS more. Growth after the
  first round, in MiB; goal: at most 100 MiB over ten rounds.

``run(origin, mounts_tmp)`` returns the dict (or ``{"skipped": why}`` where WebKit is missing).
Alone: ``PYTHONPATH=py .venv/bin/python bench/webkit_bench.py`` (after ``make build``).
Nothing here asserts.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BENCH = ROOT / "bench"
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "py"), str(BENCH), str(ROOT / "tests" / "webkit")]

N = int(os.environ.get("BENCH_N", "9"))
ROUNDS = int(os.environ.get("BENCH_WEBKIT_ROUNDS", "10"))
MEMORY_GOAL_MIB = 100
TIMEOUT_S = 120

# Served in front of each page's first script: the time the page says it is ready.
READY_PROBE = """
new MutationObserver((_, obs) => {
  if (document.documentElement && document.documentElement.dataset.engine === "ready") {
    window.__readyAt = performance.now(); obs.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ["data-engine"]});
"""


def _minibrowser() -> str | None:
    for d in ("/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1", "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1",
              "/usr/libexec/webkit2gtk-4.1"):
        if os.access(os.path.join(d, "MiniBrowser"), os.X_OK):
            return os.path.join(d, "MiniBrowser")
    return None


def why_not() -> str | None:
    if not shutil.which("WebKitWebDriver") or not _minibrowser():
        return "WebKitWebDriver is not installed (Debian: webkit2gtk-driver)"
    if not shutil.which("Xvfb"):
        return "Xvfb is not installed (Debian: xvfb)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (requirements-dev.txt)"
    return None


class Display:
    def __enter__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                                     pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        self.old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = ":" + number
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        if self.old is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = self.old


COMMAND_TIMEOUT_S = 900  # a round of the memory bench is one command


def new_driver():
    from selenium import webdriver
    opts = webdriver.WebKitGTKOptions()
    opts.binary_location = _minibrowser()
    opts.add_argument("--automation")
    d = webdriver.WebKitGTK(options=opts)
    # a browser that died must fail the step, not hang the run: every WebDriver command has
    # COMMAND_TIMEOUT_S (Selenium's default is none), a page load two minutes
    d.command_executor._client_config.timeout = COMMAND_TIMEOUT_S
    d.set_page_load_timeout(120)
    return d


def probe_mounts(tmp: Path, plain: Path) -> dict:
    """The files served in front of the pages: each Fray's sw-register.js with the probe first,
    and the bare page with the probe as its first script."""
    out = {}
    for prefix, folder in (("/fray/", DIST), ("/fray-plain/", plain)):
        f = tmp / ("probe-" + prefix.strip("/") + ".js")
        f.write_text(READY_PROBE + (folder / "static" / "sw-register.js").read_text(encoding="utf-8"), encoding="utf-8")
        out[prefix + "static/sw-register.js"] = f
    bare = tmp / "bare-webkit"
    bare.mkdir()
    (bare / "probe.js").write_text(READY_PROBE, encoding="utf-8")
    shutil.copy2(BENCH / "bare" / "pyscript.toml", bare / "pyscript.toml")
    html = (BENCH / "bare" / "index.html").read_text(encoding="utf-8")
    (bare / "index.html").write_text(html.replace("<head>", '<head>\n  <script src="./probe.js"></script>', 1),
                                     encoding="utf-8")
    out["/bare-webkit/"] = bare
    out["/bare-webkit/vendor/"] = DIST / "static" / "vendor"
    return out


def measure_ready(d, url: str) -> tuple[float, dict]:
    d.get(url)
    end = time.monotonic() + TIMEOUT_S
    while True:
        got = d.execute_script("""return window.__readyAt === undefined ? null : [window.__readyAt,
            Object.fromEntries(performance.getEntriesByType("mark").filter(m => m.name.startsWith("fray:"))
              .map(m => [m.name, m.startTime])), globalThis.frayBoot || null]""")
        if got:
            return round(got[0], 1), {"marks": got[1], "boot": got[2]}
        if time.monotonic() > end:
            raise RuntimeError(f"{url} did not get ready in WebKit")
        time.sleep(0.02)


def boot(d, origin: str) -> dict:
    # Fray without the snapshot is left out in WebKit: with the web layer in the snapshot, the copy
    # of dist/ under /fray-plain/ never came under its service worker in WebKitGTK (not found why)
    urls = {"fray": origin + "/fray/", "bare": origin + "/bare-webkit/"}
    for key in ("fray",):  # first visit: the service workers install and precache
        d.get(urls[key])
        for attempt in range(2):  # a worker that activated after the page stopped asking: reload
            end = time.monotonic() + TIMEOUT_S
            while not (under := d.execute_script(
                    "return document.documentElement.dataset.engine === 'ready' && "
                    "!!navigator.serviceWorker && navigator.serviceWorker.controller !== null")):
                if time.monotonic() > end:
                    break
                time.sleep(0.1)
            if under:
                break
            d.refresh()
        else:
            raise RuntimeError(f"{urls[key]} never came under its service worker in WebKit")
    for url in urls.values():
        measure_ready(d, url)
    out = {k: [] for k in urls}
    marks: list[dict] = []
    snapshot_used = 0
    order = list(urls)
    for i in range(N):
        for key in order[i % 2:] + order[:i % 2]:
            ms, extra = measure_ready(d, urls[key])
            out[key].append(ms)
            if key == "fray":
                marks.append(extra["marks"])
                snapshot_used += bool(extra["boot"] and extra["boot"].get("snapshot"))
    med = {k: statistics.median(v) for k, v in out.items()}
    names = sorted({n for m in marks for n in m}, key=lambda n: statistics.median(m.get(n, 0) for m in marks))
    return {"fray_ms": out["fray"], "bare_ms": out["bare"],
            "fray_median_ms": med["fray"], "bare_median_ms": med["bare"],
            "fray_over_bare": round(med["fray"] / med["bare"], 3),
            "snapshot_used": snapshot_used, "snapshot_boots": N,
            "marks_median_ms": {n: round(statistics.median(m[n] for m in marks if n in m), 1) for n in names}}


# -- memory -----------------------------------------------------------------------------------------

def _descendants(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(p.name))
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def web_processes(d) -> dict[int, float]:
    """Every WebKitWebProcess of this session (the pages' processes), pid -> resident MiB."""
    out = {}
    for pid in _descendants(d.service.process.pid):
        try:
            if Path(f"/proc/{pid}/comm").read_text().strip().startswith("WebKitWebProces"):
                out[pid] = round(_rss_mib(pid), 1)
        except OSError:
            pass
    return out


_ROUND = """const done = arguments[arguments.length - 1];
(async () => {
  const state = document.getElementById("save-state");
  const roundNow = () => (document.querySelector("#round-bar .round") || {}).textContent;
  const settle = () => new Promise(ok => {
    const look = () => state.dataset.state === "saving" ? setTimeout(look, 20) : ok();
    requestAnimationFrame(() => setTimeout(look, 0));
  });
  const start = roundNow();
  for (let i = 0; i < 60 && roundNow() === start; i++) {
    const next = [...document.querySelectorAll("#round-bar button")]
      .find(b => /^(Next|Start the fight)/.test(b.textContent.trim()));
    if (!next) break;
    next.click();
    await settle();
    document.getElementById("note-text").value = "Round note " + i;
    document.getElementById("note-form").requestSubmit();
    await settle();
  }
  return roundNow();
})().then(done, e => done("error: " + e));"""


def memory(d, origin: str) -> dict:
    """A 12-combatant strike-rank fight, played ROUNDS rounds; the page process after each."""
    import fights
    from fray import savefile
    from resume_bench import _PUT

    d.set_script_timeout(600)
    h = fights.fight("strike-rank", 12, 60)
    text = savefile.ascii_json(savefile.dumps(h))
    d.get(origin + "/fray/")
    end = time.monotonic() + TIMEOUT_S
    while d.execute_script("return document.documentElement.dataset.engine") != "ready":
        if time.monotonic() > end:
            raise RuntimeError("Fray did not get ready in WebKit")
        time.sleep(0.1)
    d.execute_async_script("const done = arguments[arguments.length - 1]; (" + _PUT + ")(arguments[0]).then(done, e => done(String(e)))",
                           [[["e990", text, h.present.name, "strike-rank"]], "e990"])
    d.refresh()
    while d.execute_script("return document.documentElement.dataset.engine") != "ready":
        time.sleep(0.1)

    def sample() -> float:
        time.sleep(2)
        return round(sum(web_processes(d).values()), 1)

    def page_process() -> float:
        time.sleep(2)
        procs = web_processes(d)
        return max(procs.values()) if procs else 0.0

    alone, rounds_seen = [page_process()], []
    for _ in range(ROUNDS):
        rounds_seen.append(d.execute_async_script(_ROUND))
        alone.append(page_process())
    # the players' window beside it
    gm = d.current_window_handle
    before = set(d.window_handles)
    d.execute_script("document.getElementById('btn-players').click()")
    time.sleep(0.5)
    d.execute_script("""const b = [...document.querySelectorAll('#dlg button')].find(b => b.textContent.trim().startsWith('Open players'));
                        b.click();""")
    end = time.monotonic() + TIMEOUT_S
    while not set(d.window_handles) - before and time.monotonic() < end:
        time.sleep(0.1)
    d.switch_to.window(gm)
    d.execute_script("const c = [...document.querySelectorAll('#dlg button')].find(b => b.textContent.trim() === 'Close'); if (c) c.click();")
    opened = {"windows": len(d.window_handles), "web_processes": len(web_processes(d))}
    with_players = [sample()]
    for _ in range(ROUNDS):
        d.execute_async_script(_ROUND)
        with_players.append(sample())
    growth = round(alone[-1] - alone[1], 1)
    return {"page_process_mib": alone, "rounds": rounds_seen,
            "growth_after_first_round_mib": growth, "goal_mib": MEMORY_GOAL_MIB, "met": growth <= MEMORY_GOAL_MIB,
            "with_players_window_all_web_processes_mib": with_players,
            "players_growth_mib": round(with_players[-1] - with_players[1], 1), "players_opened": opened}


def run(srv_start, tmp: Path, plain: Path) -> dict:
    """``srv_start(extra_mounts) -> (server, origin)``: the bench's server with these files too."""
    why = why_not()
    if why:
        return {"skipped": why}
    srv, origin = srv_start(probe_mounts(tmp, plain))
    out: dict = {}
    try:
        with Display():
            d = new_driver()
            try:
                out["browser"] = "WebKitGTK " + d.capabilities.get("browserVersion", "?")
                out["boot"] = boot(d, origin)
            except Exception as e:  # the rest of the bench's figures still count
                out["boot_error"] = f"{type(e).__name__}: {e}"
            finally:
                d.quit()
            if ROUNDS:
                d = new_driver()
                try:
                    out["memory"] = memory(d, origin)
                except Exception as e:
                    out["memory_error"] = f"{type(e).__name__}: {e}"
                finally:
                    d.quit()
    finally:
        srv.shutdown()
    return out


def main() -> int:
    import run as bench_run  # noqa: F401
    import serve

    tmp = Path(tempfile.mkdtemp(prefix="fray-webkit-bench-"))
    try:
        bench_run.plain_copy(tmp / "plain")

        def start(extra):
            srv = serve.start({"/fray/": DIST, "/fray-plain/": tmp / "plain", **extra})
            return srv, f"http://127.0.0.1:{srv.server_address[1]}"
        import json
        print(json.dumps(run(start, tmp, tmp / "plain"), indent=1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
