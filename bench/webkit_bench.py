"""WebKit figures for `make bench` (issue 36): Fray in WebKitGTK, the engine of every browser on
an iPad, driven by Selenium through WebKitGTK's WebDriver on an Xvfb display of its own.

* ``boot``: warm boot to ``data-engine="ready"`` of Fray (snapshot), of the same build with the
  snapshot switched off (``plain``), of the bare PyScript page and, given BENCH_BEFORE_DIST, of
  an older build (``before``, on an origin of its own), N times each in rotating order in one
  WebKit session (after one visit of each: Fray from its service worker, the bare page from the
  HTTP cache); ms from navigation start, taken in the page by a MutationObserver that a script
  served in front of the page's first script installs (WebKit's WebDriver has no init scripts).
  Medians, each over bare, and ``marks_median_ms``: where Fray's time went, by its ``fray:*``
  performance marks.
* ``cold``: the first visit of each, in a fresh WebKit session (MiniBrowser's automation mode
  keeps no website data: nothing cached, no service worker), BENCH_COLD_N times each, rotating.
* ``memory`` (and ``memory_before``): the page process (WebKitWebProcess, resident set) while a
  12-combatant strike-rank fight is played, ROUNDS Melee Rounds played as a GM plays them with the
  page's own controls (``_ROUND``: a note, each declaration form as the page offers it, each attack
  rolled with Fray's dice, the rules' questions answered, "Go on" / "Skip it" where Next asks, Next),
  measured after each round once the autosave says "Saved" and the page has idled 2 s, and after
  the first and the last round again at LONG_IDLE_S (30 s) idle. The fight's twelve have 400 HP
  each, so nobody falls and every round is the same work. Growth after the first round, in MiB;
  goal: at most 100 MiB over ten rounds. ``rounds`` says what each round's driver did.
* ``memory_players`` (and ``memory_before_players``): the same fight in a fresh session, with the
  players' window opened before the first round (as a GM puts it up before a fight): every web
  process of the session after each round, and what opening the window cost.
* ``memory_collected`` (and ``memory_before_collected``): the fight alone again, with JavaScriptCore
  collecting continuously (``JSC_collectContinuously``): what the page keeps, where the two above
  also hold what waits for WebKit's next full collection.
* ``memory_box`` (step ``box``): the fight with the players' window, BOX_ROUNDS (30) rounds, with
  every process of the browser in a memory cgroup of BOX_MIB (1000) MiB whose limit WebKit's own
  memory monitor reads, as an iPad's WebKit hears of memory pressure from the system (this
  machine's never does): whether a long evening plays through in a tablet-sized box, or in which
  round the kernel kills the page. Needs root and cgroup v1's memory controller; elsewhere it says
  why not. (docs/performance.md, "A long evening in a box the size of a tablet's".)

Each site that has a service worker is on an origin of its own (a server per site, the same
path /fray/ on each): the caches of one origin are shared by its workers, a worker's activate
deletes every "fray-*" cache but its own build's, and WebKit counts one quota per origin.

``run(srv_start, tmp, plain, before)`` returns the dict (or ``{"skipped": why}`` where WebKit is
missing). Alone: ``PYTHONPATH=py .venv/bin/python bench/webkit_bench.py`` (after ``make build``);
the memory step alone, before and after: ``BENCH_WEBKIT_STEPS=memory BENCH_BEFORE_DIST=<dist/>``.
Nothing here asserts.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
BENCH = ROOT / "bench"
sys.path[:0] = [str(ROOT / "scripts"), str(ROOT / "py"), str(BENCH), str(ROOT / "tests" / "webkit")]

N = int(os.environ.get("BENCH_N", "9"))
COLD_N = int(os.environ.get("BENCH_COLD_N", "3"))
ROUNDS = int(os.environ.get("BENCH_WEBKIT_ROUNDS", "10"))
# BENCH_WEBKIT_STEPS: which steps run ("boot,cold,memory,box", the default; "memory" alone for a
# before/after of the memory figures without the boots' half hour)
STEPS = set(os.environ.get("BENCH_WEBKIT_STEPS", "boot,cold,memory,box").split(","))
# the box step: every process of the browser held to BOX_MIB, BOX_ROUNDS rounds with the players' window
BOX_MIB = int(os.environ.get("BENCH_WEBKIT_BOX_MIB", "1000"))
BOX_ROUNDS = int(os.environ.get("BENCH_WEBKIT_BOX_ROUNDS", "30"))
CGROUP_MEMORY = Path("/sys/fs/cgroup/memory")
MEMORY_GOAL_MIB = 100
# JavaScriptCore's own option: its collector runs continuously on a thread of its own, so what the
# page process holds after a round is what the page keeps, not garbage WebKit has not yet collected
COLLECTING = {"JSC_collectContinuously": "true"}
# how long the page idles before each memory sample (WebKit's collector runs on its own timers)
IDLE_S = float(os.environ.get("BENCH_WEBKIT_IDLE_S", "2"))
# after the first and the last round, a second sample once the page has idled this long in all
# (WebKit's collector and its allocator's return of pages run on timers of some seconds)
LONG_IDLE_S = float(os.environ.get("BENCH_WEBKIT_LONG_IDLE_S", "30"))
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


def new_driver(env: dict | None = None, driver: str | None = None):
    """A WebKit session; ``env``: more of the environment its processes start with (JavaScriptCore
    reads its options from ``JSC_*`` variables); ``driver``: a WebDriver to start instead of
    WebKitWebDriver (the box step's wrapper)."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.service import Service
    opts = webdriver.WebKitGTKOptions()
    opts.binary_location = _minibrowser()
    opts.add_argument("--automation")
    if env or driver:
        # Selenium finds WebKitWebDriver on PATH only when no executable_path is given at all (None
        # asks Selenium Manager, which knows no MiniBrowser)
        where = {"executable_path": driver} if driver else {}
        d = webdriver.WebKitGTK(options=opts, service=Service(env={**os.environ, **(env or {})}, **where))
    else:
        d = webdriver.WebKitGTK(options=opts)
    # a browser that died must fail the step, not hang the run: every WebDriver command has
    # COMMAND_TIMEOUT_S (Selenium's default is none), a page load two minutes
    d.command_executor._client_config.timeout = COMMAND_TIMEOUT_S
    d.set_page_load_timeout(120)
    return d


def probe_register(tmp: Path, name: str, folder: Path) -> Path:
    """``folder``'s static/sw-register.js (the page's first script) with the probe in front."""
    f = tmp / f"probe-{name}.js"
    f.write_text(READY_PROBE + (folder / "static" / "sw-register.js").read_text(encoding="utf-8"), encoding="utf-8")
    return f


def probe_mounts(tmp: Path) -> dict:
    """The files served in front of the main origin's pages: Fray's sw-register.js with the probe
    first, and the bare page with the probe as its first script."""
    out = {"/fray/static/sw-register.js": probe_register(tmp, "fray", DIST)}
    bare = tmp / "bare-webkit"
    bare.mkdir(exist_ok=True)
    (bare / "probe.js").write_text(READY_PROBE, encoding="utf-8")
    shutil.copy2(BENCH / "bare" / "pyscript.toml", bare / "pyscript.toml")
    html = (BENCH / "bare" / "index.html").read_text(encoding="utf-8")
    (bare / "index.html").write_text(html.replace("<head>", '<head>\n  <script src="./probe.js"></script>', 1),
                                     encoding="utf-8")
    out["/bare-webkit/"] = bare
    out["/bare-webkit/vendor/"] = DIST / "static" / "vendor"
    return out


def own_origin(tmp: Path, name: str, folder: Path):
    """``folder`` (a built dist/) at /fray/ of a server of its own, probe in front: (server, url)."""
    import serve
    srv = serve.start({"/fray/": folder, "/fray/static/sw-register.js": probe_register(tmp, name, folder)})
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/fray/"


def _ready(d) -> bool:
    return d.execute_script("return document.documentElement.dataset.engine === 'ready'")


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


_WORKER_STATE = """const done = arguments[arguments.length - 1];
navigator.serviceWorker.getRegistrations().then(rs => done(JSON.stringify({
  controller: !!navigator.serviceWorker.controller,
  registrations: rs.map(r => [r.scope, r.installing && r.installing.state, r.waiting && r.waiting.state,
                              r.active && r.active.state])})), e => done(String(e)));"""


def come_under_worker(d, url: str) -> int:
    """First visit of ``url``: wait until the page is ready and its service worker controls it;
    returns how many reloads that took. The worker registers at the page's load and precaches
    some 24 MB (31 MB more for the inflated snapshot) while the page boots; a page it did not
    claim is reloaded once."""
    d.get(url)
    for reloads in range(2):
        end = time.monotonic() + TIMEOUT_S
        while time.monotonic() < end:
            if _ready(d) and d.execute_script("return navigator.serviceWorker.controller !== null"):
                return reloads
            time.sleep(0.2)
        d.refresh()
    raise RuntimeError(f"{url} never came under its service worker in WebKit: "
                       + d.execute_async_script(_WORKER_STATE))


def _medians(out: dict) -> dict:
    med = {k: statistics.median(v) for k, v in out.items()}
    res = {}
    for k, v in out.items():
        res[f"{k}_ms"] = v
        res[f"{k}_median_ms"] = med[k]
        if k != "bare":
            res[f"{k}_over_bare"] = round(med[k] / med["bare"], 3)
    return res


def boot(d, urls: dict) -> dict:
    """``urls``: key -> page; "bare" is the bare page, every other key a Fray with its worker."""
    reloads, no_worker = {}, {}
    for key, url in list(urls.items()):  # first visit: the service workers install and precache
        if key != "bare":
            try:
                reloads[key] = come_under_worker(d, url)
            except RuntimeError as e:  # the others' figures still count; this one says why not
                no_worker[key] = str(e)
                urls = {k: u for k, u in urls.items() if k != key}
    for url in urls.values():
        measure_ready(d, url)
    out: dict[str, list] = {k: [] for k in urls}
    marks: dict[str, list] = {k: [] for k in urls if k != "bare"}
    snapshot_used = {k: 0 for k in marks}
    order = list(urls)
    for i in range(N):
        for key in order[i % len(order):] + order[:i % len(order)]:
            ms, extra = measure_ready(d, urls[key])
            out[key].append(ms)
            if key != "bare":
                marks[key].append(extra["marks"])
                snapshot_used[key] += bool(extra["boot"] and extra["boot"].get("snapshot"))
    res = _medians(out)
    res["boots"] = N
    res["first_visit_reloads"] = reloads
    res["no_worker"] = no_worker
    res["snapshot_used"] = snapshot_used
    res["marks_median_ms"] = {}
    for key, ms in marks.items():
        names = sorted({n for m in ms for n in m}, key=lambda n: statistics.median(m.get(n, 0) for m in ms))
        res["marks_median_ms"][key] = {n: round(statistics.median(m[n] for m in ms if n in m), 1) for n in names}
    return res


def cold(urls: dict) -> dict:
    """Each page's first visit in a fresh WebKit session, COLD_N times each, rotating. Whether a
    new session really starts with nothing is asked first (``fresh``): no service worker
    registration and no cache on the origin the boots above filled."""
    d = new_driver()
    try:
        d.get(urls["fray"] + "no-such-page")
        fresh = d.execute_async_script("""const done = arguments[arguments.length - 1];
            Promise.all([navigator.serviceWorker.getRegistrations(), caches.keys()])
              .then(([r, c]) => done(r.length === 0 && c.length === 0), e => done(String(e)));""")
    finally:
        d.quit()
    out: dict[str, list] = {k: [] for k in urls}
    order = list(urls)
    for i in range(COLD_N):
        for key in order[i % len(order):] + order[:i % len(order)]:
            d = new_driver()
            try:
                out[key].append(measure_ready(d, urls[key])[0])
            finally:
                d.quit()
    return {**_medians(out), "visits": COLD_N, "fresh": fresh}


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
  // One Melee Round played as a GM plays it, in either flow: each combatant's declaration form
  // submitted as the page offers it (its own weapon and target), each attack rolled with Fray's
  // dice ("blank = Fray rolls"), a question the rules ask answered, "Go on" / "Skip it" where
  // Next asks (issue 32's boxes; an older build has none), Next otherwise; one note a round.
  const state = document.getElementById("save-state");
  const roundNow = () => (document.querySelector("#round-bar .round") || {}).textContent;
  const shown = el => el && el.getClientRects().length > 0;
  const first = sel => [...document.querySelectorAll(sel)].find(shown);
  const settle = () => new Promise(ok => {
    const look = () => state.dataset.state === "saving" ? setTimeout(look, 20) : ok();
    requestAnimationFrame(() => setTimeout(look, 0));
  });
  const tried = new Set();
  const did = {declared: 0, attacks: 0, answered: 0, skipped: 0, went_on: 0, nexts: 0};
  const start = roundNow();
  document.getElementById("note-text").value = "Round note, " + start;
  document.getElementById("note-form").requestSubmit();
  await settle();
  for (let i = 0; i < 400 && roundNow() === start; i++) {
    let el;
    const ask = [...document.querySelectorAll('[data-act="sr-answer"]')].filter(shown);
    if (ask.length) {
      const key = "q" + ask[0].dataset.prompt;
      el = tried.has(key) ? ask[ask.length - 1] : ask[0];  // the first choice, else Dismiss
      tried.add(key); did.answered++;
    } else if ((el = first('[data-act="sr-go-on"]'))) {
      did.went_on++;
    } else if ((el = [...document.querySelectorAll('form[data-form="sr-attack"]')]
                   .find(f => shown(f) && !tried.has("a" + f.dataset.ref)))) {
      tried.add("a" + el.dataset.ref);
      const t = el.querySelector('[name="target"]');
      if (t && !t.value) { const o = [...t.options].find(o => o.value); if (o) t.value = o.value; }
      el = el.querySelector('button[type="submit"]'); did.attacks++;
    } else if ((el = first('[data-act="sr-skip"]'))) {
      did.skipped++;
    } else if ((el = [...document.querySelectorAll('form[data-form="sr-declare"]')]
                   .find(f => shown(f) && !tried.has("d" + f.dataset.id)
                         && (f.querySelector('[name="target"]') || {}).value))) {
      tried.add("d" + el.dataset.id);
      el = el.querySelector('button[type="submit"]'); did.declared++;
    } else if ((el = document.querySelector('#round-bar [data-act="advance"]'))) {
      did.nexts++;
    } else break;
    el.click();
    await settle();
  }
  return {round: roundNow(), ...did};
})().then(done, e => done("error: " + e));
"""


_FIGHT = """import json, sys
sys.path[:0] = ["py", "bench"]
import fights
from fray import savefile
try:  # every combatant with 400 HP: nobody falls, so each round has the same work (12 declare)
    h = fights.fight("strike-rank", 12, 60, hp=400)
except TypeError:  # an older checkout's fights.py
    h = fights.fight("strike-rank", 12, 60)
print(json.dumps([savefile.ascii_json(savefile.dumps(h)), h.present.name]))
"""


def fight_file(tree: Path) -> tuple[str, str]:
    """The 12-combatant fight as ``tree``'s own code saves it (a checkout whose dist/ is measured:
    an older build replays the history with its own rules, and refuses a newer build's file)."""
    got = subprocess.run([sys.executable, "-c", _FIGHT], cwd=tree, capture_output=True, text=True, check=True)
    text, name = json.loads(got.stdout)
    return text, name


def memory(d, url: str, players: bool = False, tree: Path = ROOT, rounds: int | None = None,
           killable: bool = False) -> dict:
    """A 12-combatant strike-rank fight, played ROUNDS rounds at ``url``; the page process after
    each. With ``players``, the players' window is opened first, once the page is up, as a GM puts
    it on the second screen before the fight: the same ten rounds, each measured over all of the
    session's web processes. (Until 5 December it was opened after the ten rounds alone, for ten
    more: that figure mixed what the window costs with what a fight twice as long costs.)
    ``tree``: the checkout the page was built from (its code writes the fight's file).
    ``rounds``: how many (ROUNDS); ``killable``: a page that dies mid-fight ends the figures there
    (``stopped``: the round, and what WebDriver said) rather than the step."""
    rounds = ROUNDS if rounds is None else rounds
    from resume_bench import _PUT

    d.set_script_timeout(600)
    text, name = fight_file(tree)
    started = time.monotonic()
    d.get(url)
    end = time.monotonic() + TIMEOUT_S
    while d.execute_script("return document.documentElement.dataset.engine") != "ready":
        if time.monotonic() > end:
            raise RuntimeError("Fray did not get ready in WebKit")
        time.sleep(0.1)
    d.execute_async_script("const done = arguments[arguments.length - 1]; (" + _PUT + ")(arguments[0]).then(done, e => done(String(e)))",
                           [[["e990", text, name, "strike-rank"]], "e990"])
    d.refresh()
    while d.execute_script("return document.documentElement.dataset.engine") != "ready":
        time.sleep(0.1)

    def sample() -> float:  # every web process of the session: the players' window's may be its own
        time.sleep(IDLE_S)
        return round(sum(web_processes(d).values()), 1)

    def page_process() -> float:
        time.sleep(IDLE_S)
        procs = web_processes(d)
        return max(procs.values()) if procs else 0.0

    def idled(measure) -> float:  # the same figure once the page has idled LONG_IDLE_S in all
        time.sleep(max(0.0, LONG_IDLE_S - 2 * IDLE_S))
        return measure()

    measure = sample if players else page_process
    out: dict = {"idle_s": IDLE_S, "long_idle_s": LONG_IDLE_S, "goal_mib": MEMORY_GOAL_MIB}
    if players:
        booted = sample()
        out["players_opened"] = open_players(d)
        # what opening the players' window cost: before issue 36's change it booted a second
        # interpreter in the same process; now it is a page of markup with no Python
        out["players_window_opened_cost_mib"] = round(sample() - booted, 1)
    series, seen, long = [measure()], [], []
    for i in range(rounds):
        try:
            did = d.execute_async_script(_ROUND)
            did["elements"] = d.execute_script("return document.getElementsByTagName('*').length")
            after = measure()
        except Exception as e:  # noqa: BLE001 - the box step: the kernel killed the page
            if not killable:
                raise
            out["stopped"] = {"round": i + 1, "why": f"{type(e).__name__}: {str(e).strip().splitlines()[0]}"}
            break
        seen.append(did)
        series.append(after)
        if i in (0, rounds - 1) and LONG_IDLE_S > IDLE_S and not killable:
            long.append(idled(measure))
    growth = round(series[-1] - series[1], 1) if len(series) > 1 else None
    out.update({"mib": series, "rounds": seen, "growth_after_first_round_mib": growth,
                "met": growth is not None and growth <= MEMORY_GOAL_MIB, "wall_s": round(time.monotonic() - started)})
    if len(long) == 2:
        out["after_long_idle_first_last_round_mib"] = long
        out["growth_after_long_idle_mib"] = round(long[1] - long[0], 1)
    return out


def box_why_not() -> str | None:
    """Why the box step cannot run here, or None."""
    if os.geteuid() != 0:
        return "it needs root (a memory cgroup of its own, and a mount namespace)"
    if not (CGROUP_MEMORY / "memory.memsw.limit_in_bytes").exists():
        return "no cgroup v1 memory controller with swap accounting at /sys/fs/cgroup/memory"
    if not shutil.which("unshare") or not shutil.which("WebKitWebDriver"):
        return "unshare or WebKitWebDriver is missing"
    # WebKit's monitor takes the first memory, name=systemd or unnamed line of /proc/self/cgroup and
    # reads the limit under that path of the memory controller; the box binds its group over that
    # controller's root, so it stands in only where that line's path is the root
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        hierarchy, name, path = line.split(":", 2)
        if hierarchy == "0" or name in ("memory", "name=systemd", ""):
            if name == "memory" or path != "/":
                return f"WebKit would look for its memory limit under {name or 'cgroup2'}:{path}, which the box cannot stand in for"
            return None
    return "no cgroup line WebKit's memory monitor would read"


def memory_box(url: str, tmp: Path) -> dict:
    """The fight with the players' window, BOX_ROUNDS rounds, every process of the browser in a
    memory cgroup of BOX_MIB that WebKit's memory monitor reads (``memory.memsw.limit_in_bytes`` is
    the one it reads first: unset, it is no limit). WebKit 2.50 finds its cgroup by the first of the
    ``name=systemd``, ``memory`` and unnamed lines of ``/proc/self/cgroup``, and ``name=systemd`` may
    come first, at ``/``: so the driver and the browser run in a mount namespace with the group
    bound over the memory controller's root."""
    why = box_why_not()
    if why:
        return {"skipped": why}
    group = CGROUP_MEMORY / f"fray-bench-{os.getpid()}"
    wrapper = tmp / "webdriver-in-box.sh"
    # set -e: a driver that could not join the group must not run (and be measured) outside it
    wrapper.write_text("#!/bin/sh\nset -e\n"
                       f"echo $$ > {group}/tasks\n"
                       "exec unshare -m sh -c 'mount --bind \"$0\" /sys/fs/cgroup/memory && exec \"$@\"' "
                       f"{group} {shutil.which('WebKitWebDriver')} \"$@\"\n")
    wrapper.chmod(0o755)
    group.mkdir(exist_ok=True)
    try:
        limit = str(BOX_MIB * 2**20)
        (group / "memory.limit_in_bytes").write_text(limit)
        (group / "memory.memsw.limit_in_bytes").write_text(limit)
        d = new_driver(driver=str(wrapper))
        try:
            out = memory(d, url, players=True, rounds=BOX_ROUNDS, killable=True)
        finally:
            try:
                d.quit()
            except Exception:  # noqa: BLE001 - a killed page's session may be gone already
                pass
        oom = dict(line.split() for line in (group / "memory.oom_control").read_text().splitlines())
        out.update({"box_mib": BOX_MIB, "played_rounds": len(out["rounds"]),
                    "group_max_mib": round(int((group / "memory.max_usage_in_bytes").read_text()) / 2**20, 1),
                    "oom_kills": int(oom.get("oom_kill", 0))})
        return out
    finally:
        _remove_group(group)


def _remove_group(group: Path) -> None:
    """The box's group goes once its last process has: a killed page's browser may outlive its driver,
    so what is left in it (all of it this step's) is killed first; a group that will not go is said."""
    import signal
    for attempt in range(50):
        try:
            group.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if attempt == 10:
                for pid in (group / "tasks").read_text().split():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            time.sleep(0.2)
    raise RuntimeError(f"the box's memory group {group} could not be removed: remove it by hand")


def open_players(d) -> dict:
    """Open the players' window with the page's own button and dialog, by WebDriver's own click (a
    user's gesture: WebKit blocks a window.open from a click made by a script); the GM's window
    keeps the focus."""
    gm = d.current_window_handle
    before = set(d.window_handles)
    d.execute_script("document.getElementById('btn-players').click()")
    end = time.monotonic() + TIMEOUT_S
    button = None
    while time.monotonic() < end:
        button = d.execute_script("""return [...document.querySelectorAll('#dlg button')]
            .find(b => b.textContent.trim().startsWith('Open players') && b.getClientRects().length > 0) || null""")
        if button:
            break
        time.sleep(0.1)
    if button is None:
        raise RuntimeError("no Open players' window button")
    button.click()
    while not set(d.window_handles) - before and time.monotonic() < end:
        time.sleep(0.1)
    if set(d.window_handles) - before:
        (players_handle,) = set(d.window_handles) - before
        d.switch_to.window(players_handle)
        while d.execute_script("return document.documentElement.dataset.engine") != "ready" and time.monotonic() < end:
            time.sleep(0.1)
    d.switch_to.window(gm)
    d.execute_script("const c = [...document.querySelectorAll('#dlg button')].find(b => b.textContent.trim() === 'Close'); if (c) c.click();")
    return {"windows": len(d.window_handles), "web_processes": len(web_processes(d))}


def run(srv_start, tmp: Path, plain: Path, before: Path | None = None) -> dict:
    """``srv_start(extra_mounts) -> (server, origin)``: the bench's server with these files too
    (Fray and the bare page). ``plain`` (dist/ without the snapshot) and ``before`` (an older
    build's dist/, or None) are served each from an origin of its own."""
    why = why_not()
    if why:
        return {"skipped": why}
    srv, origin = srv_start(probe_mounts(tmp))
    servers = [srv]
    urls = {"fray": origin + "/fray/"}
    for key, folder in (("plain", plain), ("before", before)):
        if folder is not None:
            s, urls[key] = own_origin(tmp, key, folder)
            servers.append(s)
    urls["bare"] = origin + "/bare-webkit/"
    out: dict = {"urls": urls, "wall_s": {}}

    def step(name, fn):
        started = time.monotonic()
        try:
            out[name] = fn()
        except Exception as e:  # the rest of the bench's figures still count
            out[name + "_error"] = f"{type(e).__name__}: {e}"
        out["wall_s"][name] = round(time.monotonic() - started)

    def in_session(fn, env=None):
        def go():
            d = new_driver(env)
            try:
                out.setdefault("browser", "WebKitGTK " + d.capabilities.get("browserVersion", "?"))
                return fn(d)
            finally:
                d.quit()
        return go

    try:
        with Display():
            if "boot" in STEPS:
                step("boot", in_session(lambda d: boot(d, urls)))
            if COLD_N and "cold" in STEPS:
                step("cold", lambda: cold(urls))
            if ROUNDS and "memory" in STEPS:
                # the two builds' fights side by side, each in a session (and a page process) of
                # its own: a resident set does not depend on the CPU it shares, and the run is
                # half as long.
                # alone, then with the players' window from the start, then alone with WebKit
                # collecting all the time (what the page keeps, not what waits for a collection):
                # each a fresh session
                for key, players, env in (("memory", False, None), ("memory_players", True, None),
                                          ("memory_collected", False, COLLECTING)):
                    jobs = [threading.Thread(target=step, args=(key, in_session(
                        lambda d, players=players: memory(d, urls["fray"], players), env)))]
                    if "before" in urls:
                        jobs.append(threading.Thread(target=step, args=(key.replace("memory", "memory_before"), in_session(
                            lambda d, players=players: memory(d, urls["before"], players, tree=before.resolve().parent), env))))
                    for j in jobs:
                        j.start()
                    for j in jobs:
                        j.join()
            if BOX_ROUNDS and "box" in STEPS:
                step("memory_box", lambda: memory_box(urls["fray"], tmp))
    finally:
        for s in servers:
            s.shutdown()
    return out


def main() -> int:
    import run as bench_run  # noqa: F401
    import serve

    tmp = Path(tempfile.mkdtemp(prefix="fray-webkit-bench-"))
    try:
        bench_run.plain_copy(tmp / "plain")

        def start(extra):
            srv = serve.start({"/fray/": DIST, **extra})
            return srv, f"http://127.0.0.1:{srv.server_address[1]}"
        import json
        before = os.environ.get("BENCH_BEFORE_DIST")
        print(json.dumps(run(start, tmp, tmp / "plain", Path(before) if before else None), indent=1))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
