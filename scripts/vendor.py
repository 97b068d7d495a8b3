"""Copy the runtime out of node_modules/ into static/vendor/ (git-ignored).

Only what the page loads: Pyodide's module, its wasm, the standard library zip and the lock
file; PyScript's dist/ without source maps; and micropip, Pyodide's package installer, which the
page loads only to install a game the GM adds (py/fray/web/games_view.py). micropip is a pure
Python wheel from the package registry, pinned by version and sha256 (it carries its own copy of
``packaging``, so nothing else is needed); it is downloaded once with pip into .cache/wheels/
and checked on every vendor run. The folder is rebuilt from scratch so a file dropped by a new
npm release never lingers.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
VENDOR = ROOT / "static" / "vendor"

# (file, sha256): the same wheel Pyodide 314.0.7's own lock file names (micropip 0.11.1); the
# page's games_view.MICROPIP_WHEEL names this file.
MICROPIP = ("micropip-0.11.1-py3-none-any.whl", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3")
WHEELS = ROOT / ".cache" / "wheels"

PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]


def micropip_wheel() -> Path | None:
    """The pinned micropip wheel: from the cache, else downloaded with pip (the project's venv's,
    else this Python's); None (said) when it cannot be had or its hash is not the pinned one."""
    name, sha = MICROPIP
    path = WHEELS / name
    if not path.is_file():
        WHEELS.mkdir(parents=True, exist_ok=True)
        version = name.split("-")[1]
        venv = ROOT / ".venv" / "bin" / "python"
        for py in ([str(venv)] if venv.exists() else []) + [sys.executable]:
            r = subprocess.run([py, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                                "--python-version", "3.14", "-d", str(WHEELS), f"micropip=={version}"])
            if r.returncode == 0 and path.is_file():
                break
    if not path.is_file():
        print(f"vendor: {name} could not be downloaded: adding a game in the page will say so", file=sys.stderr)
        return None
    got = hashlib.sha256(path.read_bytes()).hexdigest()
    if got != sha:
        print(f"vendor: {name} has sha256 {got}, not the pinned {sha}; not vendored", file=sys.stderr)
        path.unlink()
        return None
    return path


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
    wheel = micropip_wheel()
    if wheel is not None:
        (VENDOR / "micropip").mkdir()
        shutil.copy2(wheel, VENDOR / "micropip" / wheel.name)
    print(f"vendor: {len(PYODIDE_FILES)} Pyodide files, {n} PyScript files{', micropip' if wheel else ''}"
          f" -> {VENDOR.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
