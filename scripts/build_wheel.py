"""Build a pure-Python wheel of a Fray game from its folder (examples/fray-d20/), stdlib only.

    python3 scripts/build_wheel.py examples/fray-d20 [out_dir]   (default: <folder>/dist/)

The folder's pyproject.toml gives ``[project]`` name, version, description, requires-python and
``[project.entry-points.*]``; ``[tool.fray-wheel] packages`` the package folders to ship. The
wheel is what ``pip install`` and Pyodide's ``micropip`` take (PEP 427): the packages, then
``<name>-<version>.dist-info/`` with METADATA, WHEEL, entry_points.txt and RECORD (a sha256 of
every file). Dates are fixed, so the same sources give the same bytes. No network, no build
backend: a game is a plain folder of Python and data.
"""

from __future__ import annotations

import base64
import hashlib
import re
import sys
import tomllib
import zipfile
from pathlib import Path

SKIP = {"__pycache__", ".pytest_cache", ".hypothesis"}


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel_name(name: str, version: str) -> str:
    return f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}-py3-none-any.whl"


def build(folder: Path, out: Path) -> Path:
    meta = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    project = meta["project"]
    name, version = project["name"], project["version"]
    dist = re.sub(r"[-_.]+", "_", name).lower()
    info = f"{dist}-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    for package in meta["tool"]["fray-wheel"]["packages"]:
        for path in sorted((folder / package).rglob("*")):
            if path.is_file() and not SKIP & set(path.parts) and path.suffix != ".pyc":
                files.append((path.relative_to(folder).as_posix(), path.read_bytes()))
    metadata = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if project.get("description"):
        metadata.append(f"Summary: {project['description']}")
    if project.get("requires-python"):
        metadata.append(f"Requires-Python: {project['requires-python']}")
    files.append((f"{info}/METADATA", ("\n".join(metadata) + "\n").encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: fray build_wheel.py\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    groups = project.get("entry-points", {})
    if groups:
        text = "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
                       for group, eps in groups.items())
        files.append((f"{info}/entry_points.txt", text.encode()))
    record = "".join(f"{p},{_hash(b)},{len(b)}\n" for p, b in files) + f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    out.mkdir(parents=True, exist_ok=True)
    target = out / wheel_name(name, version)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            zi = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, data)
    return target


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    folder = Path(argv[0])
    out = Path(argv[1]) if len(argv) > 1 else folder / "dist"
    target = build(folder, out)
    print(f"build_wheel: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
