// Compile the engine to Python 3.14 bytecode with the very Pyodide the page runs, so the page
// imports .pyc files instead of compiling some 10,000 lines on every boot.
//   node scripts/precompile.mjs DIR
// writes DIR/**/__pycache__/*.cpython-314.pyc (unchecked-hash pycs: the zip is rebuilt with
// its sources every time, so the page need not hash the source to trust them).
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const dir = path.resolve(process.argv[2]);
const here = path.dirname(fileURLToPath(import.meta.url));
const py = await loadPyodide({ indexURL: path.join(here, "..", "node_modules", "pyodide") + "/" });
py.FS.mkdirTree("/src");
py.FS.mount(py.FS.filesystems.NODEFS, { root: dir }, "/src");
const ok = py.runPython(`
import compileall, py_compile, sys
compileall.compile_dir("/src", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
console.log(`precompile: ${py.runPython("import sys; sys.implementation.cache_tag")} bytecode in ${dir}`);
process.exit(ok === false ? 1 : 0);
