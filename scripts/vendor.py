"""Copy the runtime out of node_modules/ into static/vendor/ (git-ignored).

Only what the page loads: Pyodide's module, its wasm, the standard library zip and the lock
file; PyScript's dist/ without source maps. The folder is rebuilt from scratch so a file
dropped by a new npm release never lingers.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "static" / "vendor"

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]


def main() -> int:
    pyodide = NODE / "pyodide"
    pyscript = NODE / "@pyscript" / "core" / "dist"
    missing = [str(p) for p in [pyodide / f for f in PYODIDE_FILES] + [pyscript / "core.js"] if not p.is_file()]
    if missing:
        print("vendor: missing " + ", ".join(missing) + " (run npm ci)", file=sys.stderr)
        return 1
    if VENDOR.exists():
        shutil.rmtree(VENDOR)
    (VENDOR / "pyodide").mkdir(parents=True)
    (VENDOR / "pyscript").mkdir(parents=True)
    for f in PYODIDE_FILES:
        shutil.copy2(pyodide / f, VENDOR / "pyodide" / f)
    n = 0
    for src in sorted(pyscript.rglob("*")):
        if src.is_file() and not src.name.endswith(".map"):
            dst = VENDOR / "pyscript" / src.relative_to(pyscript)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
            n += 1
    print(f"vendor: {len(PYODIDE_FILES)} Pyodide files, {n} PyScript files -> {VENDOR.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
