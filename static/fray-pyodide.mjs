// Fray's interpreter module: pyscript.toml's `interpreter` names this file, and PyScript calls its
// loadPyodide(options) and reads its version, as it would Pyodide's own pyodide.mjs. It is that
// module plus one thing: the interpreter starts from the memory snapshot `make build` took after
// importing the engine (scripts/snapshot.mjs), instead of starting Python and importing it all
// again. docs/ARCHITECTURE.md, "Booting from a snapshot".
//
// The build writes the snapshot's content-hashed file name below. Whenever the snapshot cannot be
// used (no snapshot in this build, missing, corrupt, from another Pyodide build, a browser without
// DecompressionStream or that refuses the memory), the page boots the plain way, with no error:
// globalThis.frayBoot says which way it went and why.
import { loadPyodide as loadPlain, version } from "./vendor/pyodide/pyodide.mjs";

export { version };

const SNAPSHOT = /*SNAPSHOT*/null/*END*/;
// PyScript derives indexURL from this module's folder; the runtime's files are in vendor/pyodide.
const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;

let form = null; // how the snapshot came: "raw" (the worker's inflated copy) or "gzip" (inflated here)

async function fetchSnapshot(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} for the snapshot`);
  // The service worker keeps the snapshot inflated (static/sw.js): nothing to do but read it.
  if (response.headers.get("X-Fray-Snapshot") === "raw") {
    form = "raw";
    performance.mark("fray:snapshot-headers");
    const b = new Uint8Array(await response.arrayBuffer());
    performance.mark("fray:snapshot-bytes");
    return b;
  }
  form = "gzip";
  if (typeof DecompressionStream !== "function") throw new Error("no DecompressionStream");
  // The whole file first, then inflate: a corrupt file then fails in the inflating, not by
  // aborting the download half-way. gzip checks its CRC-32 and length at the end, so a corrupt or
  // cut file rejects here.
  const gz = new Blob([await response.arrayBuffer()]);
  const inflated = gz.stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

// PyScript passes loadPyodide its own stdout and stderr (and nothing else Fray needs: no packages).
// The interpreter starts loading before PyScript asks for it (below), so what it prints goes
// through these, which forward to PyScript's once PyScript has handed them over.
const io = { stdout: null, stderr: null };
const OWN = {
  indexURL: INDEX_URL,
  stdout: (line) => (io.stdout || console.log)(line),
  stderr: (line) => (io.stderr || console.warn)(line),
};

async function boot() {
  const started = performance.now();
  performance.mark("fray:boot");
  if (SNAPSHOT) {
    try {
      // Fetched while Pyodide loads its runtime; Pyodide awaits it only later, so a failure must
      // not count as an unhandled rejection meanwhile (it still rejects the await below).
      const snapshot = fetchSnapshot(new URL(SNAPSHOT, import.meta.url));
      snapshot.catch(() => {});
      // the library is read once the snapshot's bytes are in, while the interpreter restores
      // them: read beside the snapshot, it slowed the snapshot's own read by more than it saved
      snapshot.then(readLibrary, readLibrary);
      // Pyodide keeps its options for the page's life, and with them what _loadSnapshot holds:
      // the snapshot's 30 MiB of bytes, copied into the interpreter's memory once and never read
      // again. Kept, they count towards the live heap that WebKit's collector lets grow to about
      // twice its size before it collects (issue 36). So it is handed over once and then let go.
      let held = snapshot;
      const once = {
        then: (ok, no) => {
          const p = held || Promise.reject(new Error("the snapshot's bytes were handed over once"));
          held = null;
          return p.then(ok, no);
        },
      };
      const py = await loadPlain({ ...OWN, _loadSnapshot: once });
      // The snapshot froze the random module's state: give this page its own.
      py.runPython("import random; random.seed()");
      // whether the web layer came in the snapshot (scripts/snapshot.mjs) or the page imports it
      const web = py.runPython("import sys; 'fray.web.app' in sys.modules");
      globalThis.frayBoot = { snapshot: true, form, web, ms: performance.now() - started };
      performance.mark("fray:interpreter");
      return py;
    } catch (e) {
      globalThis.frayBoot = { snapshot: false, reason: String(e && e.message || e) };
      console.info(`Fray: booting without the snapshot (${globalThis.frayBoot.reason})`);
    }
  } else {
    globalThis.frayBoot = { snapshot: false, reason: "this build has no snapshot" };
  }
  readLibrary();  // no snapshot (or it failed): while Python starts the plain way
  const py = await loadPlain(OWN);
  globalThis.frayBoot.ms = performance.now() - started;
  return py;
}

// The page loads this module with a <script type="module"> of its own, before PyScript's, so the
// interpreter starts loading as soon as the page is parsed, while PyScript is still fetching its
// configuration and plugins (some 300-500 ms of a warm boot). PyScript's import of this module
// (by the same URL) gets this same instance, and its loadPyodide call the boot already under way.
const booting = boot();

// The GM's page reads its library and current encounter from IndexedDB while the interpreter
// starts (static/store.js, prefetch), so Python's boot finds them read: the same module PyScript
// hands Python (pyscript.toml [js_modules.main], by the same URL). The players' window reads
// nothing of the library.
function readLibrary() {
  if (new URLSearchParams(location.search).get("view") === "players") return;
  import("./store.js").then((store) => store.prefetch()).catch(() => {});
}

export async function loadPyodide(options = {}) {
  if (options.stdout) io.stdout = options.stdout;
  if (options.stderr) io.stderr = options.stderr;
  return booting;
}
