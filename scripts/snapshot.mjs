// Make the memory snapshot the page boots from (docs/ARCHITECTURE.md, "Booting from a snapshot"),
// with the very Pyodide the page runs:
//   node scripts/snapshot.mjs dist/fray.zip OUT.gz
// boots Pyodide with _makeSnapshot, unpacks fray.zip where PyScript unpacks it in the page (the
// interpreter's working directory, /home/pyodide), imports the engine and the standard-library
// modules the page needs, and writes the interpreter's memory gzip-compressed to OUT.gz.
//
// The web layer (py/fray/web/) is imported too, though its modules import js and pyodide.ffi at
// their top level and read `js.document`: Pyodide's snapshot keeps a JavaScript object that Python
// reached from the global scope by its path (js.document is "document"), and the page's restore
// looks the path up again in the page. So Node is given a stand-in `document` (an empty object)
// while the modules are imported, and nothing else of it is kept. A web module whose import fails
// here (it read more of the page than the document) is left to the page, and if the snapshot
// cannot be written with the web layer in it (a module kept an object that has no path), it is
// made again with the engine alone. In WebKit the page's imports after the restore were a fifth of
// a warm boot (1.2 s of about 5; no compiled-code cache for the interpreter there): issue 36,
// docs/performance.md. The snapshot is tied to this Pyodide build (Pyodide checks its build id).
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { fileURLToPath } from "node:url";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const [zipPath, outPath] = process.argv.slice(2).map((p) => path.resolve(p));
const here = path.dirname(fileURLToPath(import.meta.url));
async function make(web) {
const py = await loadPyodide({
  indexURL: path.join(here, "..", "node_modules", "pyodide") + "/",
  _makeSnapshot: true,
});
py.unpackArchive(new Uint8Array(fs.readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide" });
if (web) globalThis.document = {};  // the stand-in: kept only as its path, "document"
py.globals.set("WEB", web);
const imported = py.runPython(`
import importlib, importlib.util, pkgutil, re
import fray

# What the page has imported by the time it is ready, beyond Pyodide's own start-up, the engine
# and PyScript's modules (sys.modules measured in Chromium).
PAGE = ["html", "html.entities", "pickle", "encodings.cp437"]
# A module is left to the page when importing it touches JavaScript: its top-level imports name js,
# pyodide or pyscript, or a fray module that is left to the page (web/forms.py needs web/dom.py,
# which reads the page's document as it is imported). Imports inside functions run in the page,
# later. Read with a pattern over the lines that start at the margin, not with ast: parsing every
# module here left 0.6 MB more in the compressed snapshot (the trees' garbage in the heap).
TOP_IMPORT = re.compile(r"^(?:from (\\.*)([\\w.]*) import \\(?([\\w, ]*)|import ([\\w.]+))", re.M)

def top_imports(name, text, is_package):
    package = name if is_package else name.rpartition(".")[0]
    for dots, module, what, plain in TOP_IMPORT.findall(text):
        if plain:
            yield plain
            continue
        base = importlib.util.resolve_name(dots + module, package) if dots else module
        yield base
        yield from (f"{base}.{w.split()[0]}" for w in what.split(",") if w.strip())

found = {}
for info in pkgutil.walk_packages(fray.__path__, "fray."):
    if info.name == "fray.__main__":
        continue
    with open(importlib.util.find_spec(info.name).origin, encoding="utf-8") as f:
        found[info.name] = set(top_imports(info.name, f.read(), info.ispkg))
page_only = {n for n, deps in found.items() if any(m.split(".")[0] in ("js", "pyodide", "pyscript") for m in deps)}
while True:
    more = {n for n, deps in found.items() if n not in page_only and deps & page_only}
    if not more:
        break
    page_only |= more
names = [n for n in found if n not in page_only]
for name in PAGE + names:
    importlib.import_module(name)
web = []
if WEB:
    # the web layer, in the order its modules import each other (a failed import leaves no module)
    for name in sorted(page_only):
        try:
            importlib.import_module(name)
            web.append(name)
        except Exception as e:
            print(f"snapshot: {name} is left to the page ({type(e).__name__}: {e})")
# Everything imported so far lives as long as the page: out of the cyclic garbage collector's
# sight (gc.freeze), so that its collections in the page walk only what the page itself made.
# Before, each one went over these 50,000 objects (a whole collection took 53 ms in the page, and
# the first load of a long fight paid one); web/app.py freezes the web layer the same way.
import gc
gc.collect()
gc.freeze()
f"{len(names)} engine modules, {len(web)} of the web layer's {len(page_only)}"
`);
const snapshot = py.makeMemorySnapshot();
delete globalThis.document;
return [snapshot, imported];
}

let made;
try {
  made = await make(true);
} catch (e) {
  console.log(`snapshot: not with the web layer (${e.message}); made with the engine alone`);
  delete globalThis.document;
  made = await make(false);
}
const [snapshot, imported] = made;
fs.writeFileSync(outPath, zlib.gzipSync(snapshot, { level: 6 }));
console.log(`snapshot: ${imported}, ${(snapshot.length / 1e6).toFixed(1)} MB of memory, ` +
  `${(fs.statSync(outPath).size / 1e6).toFixed(1)} MB compressed`);
process.exit(0);
