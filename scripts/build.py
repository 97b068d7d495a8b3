"""Build dist/: exactly what GitHub Pages serves.

    dist/index.html  dist/pyscript.toml  dist/py/...  dist/static/... (incl. vendor/)  dist/sw.js
    dist/static/fray-<hash>.snapshot.gz (the interpreter's memory after importing the engine)

sw.js sits at the root of dist/ because a service worker controls only its own folder and
below, and Pages cannot send the Service-Worker-Allowed header that would lift that. Its
precache list is every file of dist/ (plus "./", the page itself as a folder URL), and its
cache name carries a hash of all their contents, so any change to any file makes a new cache.

static/sw.js is the source; it is not copied into dist/static/. Python files are copied
without __pycache__. The [files] table of pyscript.toml is regenerated first (files_table.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import zipfile
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import files_table  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
SKIP_PARTS = {"__pycache__", ".pytest_cache", ".hypothesis", ".DS_Store"}


def _ignore(_dir: str, names: list[str]) -> list[str]:
    return [n for n in names if n in SKIP_PARTS or n.endswith((".pyc", ".map"))]


def precache_list(dist: Path) -> list[str]:
    files = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
    # Dotfiles (.nojekyll) are for the host, not the page; a host that hides them would make
    # the whole precache fail, and with it every offline boot.
    return ["./"] + ["./" + f for f in files if f != "sw.js" and not f.rsplit("/", 1)[-1].startswith(".")]


def content_hash(dist: Path, urls: list[str]) -> str:
    h = hashlib.sha256()
    for url in urls[1:]:
        h.update(url.encode() + b"\0")
        h.update(hashlib.sha256((dist / url[2:]).read_bytes()).digest())
    return h.hexdigest()[:16]


def write_sw(dist: Path, source: Path) -> tuple[int, str]:
    urls = precache_list(dist)
    version = content_hash(dist, urls)
    js = source.read_text(encoding="utf-8")
    js, n1 = re.subn(r"/\*PRECACHE\*/.*?/\*END\*/", lambda _m: json.dumps(urls, indent=0).replace("\n", ""), js,
                     flags=re.S)
    js, n2 = re.subn(r"/\*VERSION\*/.*?/\*END\*/", lambda _m: json.dumps(version), js, flags=re.S)
    if n1 != 1 or n2 != 1:
        raise SystemExit("build: static/sw.js lost its /*PRECACHE*/ or /*VERSION*/ placeholder")
    (dist / "sw.js").write_text(js, encoding="utf-8")
    return len(urls), version


def write_bundle(dist: Path) -> None:
    """Ship py/ as one zip that PyScript unpacks into the interpreter's working directory.

    One request instead of one per module: on a warm boot the page otherwise spends its time
    fetching some 70 small files, then compiling them. The zip carries bytecode compiled by the
    page's own Pyodide (scripts/precompile.mjs) beside the sources, so the page skips the
    compile too; without Node the zip simply holds the sources. The source pyscript.toml keeps
    the per-file [files] table (what ``make files`` maintains); dist/pyscript.toml maps the zip
    instead, which is the same tree: ``"./fray.zip" = "./*"``."""
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp)
        rels = files_table.py_files(ROOT / "py")
        for rel in rels:
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / "py" / rel, stage / rel)
        node = shutil.which("node")
        if node and (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
            subprocess.run([node, str(ROOT / "scripts" / "precompile.mjs"), str(stage)], check=True)
        else:
            print("build: no Node/Pyodide to precompile with; the page will compile the engine itself")
        members = sorted(p.relative_to(stage) for p in stage.rglob("*")
                         if p.is_file() and (p.suffix == ".pyc" or p.relative_to(stage) in set(rels)))
        with zipfile.ZipFile(dist / "fray.zip", "w", zipfile.ZIP_DEFLATED) as z:
            for rel in members:
                info = zipfile.ZipInfo(rel.as_posix(), date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, (stage / rel).read_bytes())
    text = (ROOT / "pyscript.toml").read_text(encoding="utf-8")
    start = text.index(files_table.BEGIN)
    end = text.index(files_table.END)
    text = text[:start] + files_table.BEGIN + "\n" + '"./fray.zip" = "./*"\n' + text[end:]
    (dist / "pyscript.toml").write_text(text, encoding="utf-8")


SNAPSHOT_MODULE = "static/fray-pyodide.mjs"


def write_snapshot(dist: Path) -> str | None:
    """Make the interpreter's memory snapshot (scripts/snapshot.mjs) and write its content-hashed
    name into dist's interpreter module; without Node the module keeps ``null`` and the page
    boots the plain way. Returns the snapshot's file name, if any.

    The name changes with the content, so the service worker (which precaches every file of
    dist/) holds exactly the one this build's module asks for."""
    name = None
    node = shutil.which("node")
    if node and (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "snapshot.gz"
            subprocess.run([node, str(ROOT / "scripts" / "snapshot.mjs"), str(dist / "fray.zip"), str(out)],
                           check=True)
            data = out.read_bytes()
        name = f"fray-{hashlib.sha256(data).hexdigest()[:16]}.snapshot.gz"
        (dist / "static" / name).write_bytes(data)
    else:
        print("build: no Node/Pyodide to make the snapshot with; the page boots without one")
    module = dist / SNAPSHOT_MODULE
    js, n = re.subn(r"/\*SNAPSHOT\*/.*?/\*END\*/", lambda _m: json.dumps("./" + name) if name else "null",
                    module.read_text(encoding="utf-8"), flags=re.S)
    if n != 1:
        raise SystemExit(f"build: {SNAPSHOT_MODULE} lost its /*SNAPSHOT*/ placeholder")
    module.write_text(js, encoding="utf-8")
    return name


def main() -> int:
    for need in ("index.html", "players.html", "pyscript.toml", "py", "static/vendor/pyodide/pyodide.mjs", "static/sw.js"):
        if not (ROOT / need).exists():
            print(f"build: {need} is missing" + (" (run make vendor)" if "vendor" in need else ""), file=sys.stderr)
            return 1
    files_table.main([])
    if DIST.exists():
        shutil.rmtree(DIST)
    DIST.mkdir()
    shutil.copy2(ROOT / "index.html", DIST / "index.html")
    shutil.copy2(ROOT / "players.html", DIST / "players.html")  # the players' window: no Python
    write_bundle(DIST)
    (DIST / "py").mkdir()
    shutil.copy2(ROOT / "py" / "main.py", DIST / "py" / "main.py")  # the <script src> entry
    shutil.copytree(ROOT / "static", DIST / "static", ignore=lambda d, n: _ignore(d, n) + (
        ["sw.js"] if Path(d) == ROOT / "static" else []))
    # Pages runs Jekyll unless told not to; Jekyll drops files and folders starting with _ .
    (DIST / ".nojekyll").write_text("")
    write_snapshot(DIST)
    n, version = write_sw(DIST, ROOT / "static" / "sw.js")
    total = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"build: dist/ {total / 1e6:.1f} MB, sw.js precaches {n} URLs, cache fray-{version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
