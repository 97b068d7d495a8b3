// Make the memory snapshot the page boots from (docs/ARCHITECTURE.md, "Booting from a snapshot"),
// with the very Pyodide the page runs:
//   node scripts/snapshot.mjs dist/fray.zip OUT.gz
// boots Pyodide with _makeSnapshot, unpacks fray.zip where PyScript unpacks it in the page (the
// interpreter's working directory, /home/pyodide), imports the engine and the standard-library
// modules the page needs, and writes the interpreter's memory gzip-compressed to OUT.gz.
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
# Everything imported so far lives as long as the page: out of the cyclic garbage collector's
# sight (gc.freeze), so that its collections in the page walk only what the page itself made.
# Before, each one went over these 50,000 objects (a whole collection took 53 ms in the page, and
# the first load of a long fight paid one); web/app.py freezes the web layer the same way.
import gc
gc.collect()
gc.freeze()
len(names)
`);
const snapshot = py.makeMemorySnapshot();
fs.writeFileSync(outPath, zlib.gzipSync(snapshot, { level: 6 }));
console.log(`snapshot: ${imported} engine modules, ${(snapshot.length / 1e6).toFixed(1)} MB of memory, ` +
  `${(fs.statSync(outPath).size / 1e6).toFixed(1)} MB compressed`);
process.exit(0);
