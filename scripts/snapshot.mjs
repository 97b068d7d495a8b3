// Make the memory snapshot the page boots from (docs/ARCHITECTURE.md, "Booting from a snapshot"),
// with the very Pyodide the page runs:
//   node scripts/snapshot.mjs dist/fray.zip OUT.gz
// boots Pyodide with _makeSnapshot, unpacks fray.zip where PyScript unpacks it in the page (the
// interpreter's working directory, /home/pyodide), imports the engine and the standard-library
// modules the page needs, plays and draws a fight of each game once (fray/warmup.py: the
// bytecode the page runs first is then specialised already), and writes the interpreter's
// memory gzip-compressed to OUT.gz.
//
// Only modules that never touch JavaScript are imported: the web layer's app.py and mapctl.py
// (which import js and pyodide.ffi) are left to the page, so nothing in the snapshot refers to
// Node's globals. The snapshot is tied to this Pyodide build (Pyodide checks its build id).
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [zipPath, outPath] = process.argv.slice(2).map((p) => path.resolve(p));
const here = path.dirname(fileURLToPath(import.meta.url));
const py = await loadPyodide({
  indexURL: path.join(here, "..", "node_modules", "pyodide") + "/",
  _makeSnapshot: true,
});
py.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide" });
const imported = py.runPython(`
import importlib, importlib.util, pkgutil, re
import fray

# What the page has imported by the time it is ready, beyond Pyodide's own start-up, the engine
# and PyScript's modules (sys.modules measured in Chromium).
PAGE = ["html", "html.entities", "pickle", "encodings.cp437"]
TOUCHES_JS = re.compile(r"^\\s*(import js\\b|from js\\b|import pyscript|from pyscript|from pyodide|import pyodide)", re.M)

names = []
for info in pkgutil.walk_packages(fray.__path__, "fray."):
    if info.name == "fray.__main__":
        continue
    spec = importlib.util.find_spec(info.name)
    with open(spec.origin, encoding="utf-8") as f:
        if TOUCHES_JS.search(f.read()):
            continue
    names.append(info.name)
for name in PAGE + names:
    importlib.import_module(name)
len(names)
`);
// Play and draw each game's fight once (scripts/warmup.py, with bench/fights.py), so the snapshot
// keeps the bytecode the page runs first specialised; the two build files are then dropped, and
// the memos the warm-up filled were emptied by it. Small: the heap it grows stays in the
// snapshot, and a snapshot larger than the page's first memory does not restore.
py.FS.mkdirTree("/tmp/warmup");
for (const f of ["bench/fights.py", "scripts/warmup.py"]) {
  py.FS.writeFile("/tmp/warmup/" + path.basename(f), fs.readFileSync(path.join(here, "..", f), "utf8"));
}
const drawn = py.runPython(`
import sys, gc
sys.path.insert(0, "/tmp/warmup")
import warmup
drawn = warmup.warm(combatants=3, actions=20)
sys.path.remove("/tmp/warmup")
for name in ("warmup", "fights"):
    del sys.modules[name]
del warmup
gc.collect()
", ".join(f"{k} drawn {v} times" for k, v in drawn.items())
`);
for (const f of ["fights.py", "warmup.py"]) py.FS.unlink("/tmp/warmup/" + f);
py.FS.rmdir("/tmp/warmup");
const snapshot = py.makeMemorySnapshot();
fs.writeFileSync(outPath, zlib.gzipSync(snapshot, { level: 6 }));
console.log(`snapshot: ${imported} engine modules, warmed (${drawn}), ${(snapshot.length / 1e6).toFixed(1)} MB of memory, ` +
  `${(fs.statSync(outPath).size / 1e6).toFixed(1)} MB compressed`);
process.exit(0);
