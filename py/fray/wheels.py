"""What a game package (a wheel file) holds, read before anything is installed.

The page's "Add a game…" takes a file the GM picks; ``inspect_wheel`` reads it as a zip and says,
in the GM's words, why it cannot be added (not a wheel, damaged, compiled code the browser cannot
run, not a Fray game, a game whose id is taken) or returns what it holds: the distribution's
name and version, the file name installers expect (PEP 427) and the ids of the games it declares
in the entry point group ``fray.games.ENTRY_POINT_GROUP``. Nothing here installs or imports.
"""

from __future__ import annotations

import base64
import configparser
import hashlib
import io
import re
import zipfile
from dataclasses import dataclass

from .errors import InvalidAction
from fray.games import BUILTIN, ENTRY_POINT_GROUP

MAX_BYTES = 20_000_000  # a game is Python and a few tables; a bigger file is not one
_NAME = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._]*[A-Za-z0-9])?)-([0-9][A-Za-z0-9_.!+]*)\.dist-info/")
_GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_FIELD = "wheel"


@dataclass(frozen=True)
class WheelInfo:
    name: str  # the distribution, as its METADATA says ("fray-d20")
    version: str
    filename: str  # "fray_d20-0.1.0-py3-none-any.whl"
    games: tuple[str, ...]  # the ruleset ids it declares
    packages: tuple[str, ...] = ()  # its top-level modules and packages ("fray_d20")


def _refuse(msg: str) -> InvalidAction:
    return InvalidAction(_FIELD, msg)


def _headers(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.strip():
            break  # the body (a long description) follows the first empty line
        k, sep, v = line.partition(":")
        if sep and not line[0].isspace():
            out.setdefault(k.strip().lower(), []).append(v.strip())
    return out


def inspect_wheel(data: bytes) -> WheelInfo:
    """The game package in ``data``, checked; ``InvalidAction("wheel", ...)`` says why not."""
    if not data:
        raise _refuse("That file is empty. Pick the game's .whl file.")
    if len(data) > MAX_BYTES:
        raise _refuse(f"That file is {len(data) // 1_000_000} MB: too big to be a game package.")
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
        names = z.namelist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise _refuse("That file is not a game package: it is not a .whl file, or it is damaged.") from None
    infos = {m.group(0) for n in names if (m := _NAME.match(n))}
    if len(infos) != 1:
        raise _refuse("That file is not a game package: it does not say which package it is.")
    info = infos.pop()
    try:
        meta = _headers(z.read(info + "METADATA").decode("utf-8"))
        wheel = _headers(z.read(info + "WHEEL").decode("utf-8"))
        record = z.read(info + "RECORD").decode("utf-8")
    except (KeyError, UnicodeDecodeError, zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise _refuse("That package is damaged: its description is missing or unreadable.") from None
    name, version = (meta.get("name") or [""])[0], (meta.get("version") or [""])[0]
    if not name or not version:
        raise _refuse("That package is damaged: it gives no name or version.")
    tags = wheel.get("tag", [])
    if (wheel.get("root-is-purelib") or [""])[0].lower() != "true" or not tags or \
            not all(t.endswith("-none-any") for t in tags):
        raise _refuse(f"{name} needs compiled code for one kind of computer; Fray can only add games "
                      "written in plain Python.")
    _check_record(z, record, info, name)
    games = _games(z, info, name)
    dist = info.split("-", 1)[0]
    tag = tags[0]
    packages = tuple(sorted({n.split("/", 1)[0].removesuffix(".py") for n in names
                             if not n.startswith(info) and not n.split("/", 1)[0].endswith(".data")}))
    return WheelInfo(name, version, f"{dist}-{version}-{tag}.whl", games, packages)


def _check_record(z: zipfile.ZipFile, record: str, info: str, name: str) -> None:
    """Every file the package lists is there with the content it lists (a cut or altered download
    fails here), and it holds no file it does not list."""
    listed = set()
    for line in record.splitlines():
        path, _, rest = line.partition(",")
        digest = rest.partition(",")[0]
        if not path:
            continue
        listed.add(path)
        if path == info + "RECORD":
            continue
        algo, _, want = digest.partition("=")
        try:
            got = z.read(path)
        except (KeyError, zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError):
            raise _refuse(f"{name} is damaged: a file it lists is missing or unreadable.") from None
        if algo != "sha256" or base64.urlsafe_b64encode(hashlib.sha256(got).digest()).rstrip(b"=").decode() != want:
            raise _refuse(f"{name} is damaged: a file in it is not what the package says it is.")
    if any(n not in listed and not n.endswith("/") for n in z.namelist()):
        raise _refuse(f"{name} is damaged: it holds files it does not list.")


def _games(z: zipfile.ZipFile, info: str, name: str) -> tuple[str, ...]:
    not_a_game = f"{name} is a Python package but not a Fray game: it names no game for Fray to add."
    try:
        text = z.read(info + "entry_points.txt").decode("utf-8")
    except KeyError:
        raise _refuse(not_a_game) from None
    except (UnicodeDecodeError, zipfile.BadZipFile, OSError, EOFError, ValueError):
        raise _refuse(f"{name} is damaged: its list of games is unreadable.") from None
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # type: ignore[assignment, method-assign]
    try:
        parser.read_string(text)
    except configparser.Error:
        raise _refuse(f"{name} is damaged: its list of games is unreadable.") from None
    if not parser.has_section(ENTRY_POINT_GROUP) or not parser.options(ENTRY_POINT_GROUP):
        raise _refuse(not_a_game)
    games = tuple(parser.options(ENTRY_POINT_GROUP))
    for g in games:
        if g in BUILTIN:
            raise _refuse(f"{name} would replace the built-in game {g}; Fray keeps its own.")
        if not _GAME_ID.fullmatch(g):
            raise _refuse(f"{name} names a game {g[:40]!r}: a game's name is lower-case letters, digits and -.")
    return games


# -- a game added again: an upgrade, the same version, or an older one -------------------------------

def same_package(a: str, b: str) -> bool:
    """Two distribution names that installers take for one package (PEP 503: case, and runs of
    "-", "_", "." are alike), so "Fray_D20" picked later upgrades "fray-d20"."""
    def norm(n: str) -> str:
        return re.sub(r"[-_.]+", "-", n).lower()
    return norm(a) == norm(b)


_RELEASE = re.compile(r"^v?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|rc|alpha|beta|c)[-_.]?(\d*))?"
                      r"(?:[-_.]?post[-_.]?(\d*))?(?:[-_.]?dev[-_.]?(\d*))?(?:\+.*)?$", re.I)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


def version_key(version: str) -> tuple:
    """A version as PEP 440 orders it, for the versions games give (1.2, 1.2.0, 1.2rc1, 1.2.post1,
    1.2.dev3): 0.10 after 0.9, 1.0rc1 before 1.0, 1.0 the same as 1.0.0. A version outside that
    form sorts by its text, after every one inside it."""
    m = _RELEASE.match(version.strip())
    if m is None:
        return (1, version)
    release = [int(p) for p in m.group(1).split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    pre, pre_n, post, dev = m.group(2), m.group(3), m.group(4), m.group(5)
    # within one release: dev < a < b < rc < the release < post
    if pre:
        stage = (1, _PRE[pre.lower()], int(pre_n or 0))
    elif post is None and dev is not None:
        stage = (0, 0, 0)
    else:
        stage = (2, 0, 0)
    post_n = -1 if post is None else int(post or 0)
    dev_n = float("inf") if dev is None else int(dev or 0)
    return (0, tuple(release), stage, post_n, dev_n)


def kept_entry(kept: list[dict], name: str) -> dict | None:
    """The kept game of the package ``name`` (``Library.games``' form), or None."""
    return next((g for g in kept if same_package(str(g.get("name", "")), name)), None)


def plan_add(kept: list[dict], info: WheelInfo) -> tuple[str, dict | None]:
    """What picking ``info`` means, given the games this browser keeps: ("new", None), or, for a
    package already added, ("upgrade" | "same" | "downgrade", its kept entry)."""
    old = kept_entry(kept, info.name)
    if old is None:
        return "new", None
    was, now = version_key(str(old.get("version", ""))), version_key(info.version)
    return ("same" if was == now else "upgrade" if now > was else "downgrade"), old


def replace_kept(kept: list[dict], info: WheelInfo, data: bytes) -> list[dict]:
    """The kept list with ``info``'s package in place of any version of it kept before (in the
    same place: the GM's order stays)."""
    entry = {"name": info.name, "version": info.version, "games": list(info.games),
             "wheel": base64.b64encode(data).decode("ascii")}
    out, placed = [], False
    for g in kept:
        if same_package(str(g.get("name", "")), info.name):
            if not placed:
                out.append(entry)
                placed = True
        else:
            out.append(g)
    if not placed:
        out.append(entry)
    return out


def without(kept: list[dict], name: str) -> list[dict]:
    """The kept list with the package ``name`` gone."""
    return [g for g in kept if not same_package(str(g.get("name", "")), name)]


def encounters_of(entries: list[dict], game_ids: list[str] | tuple[str, ...]) -> list[dict]:
    """The library entries (``Library.entries``) whose encounter is of one of ``game_ids``."""
    ids = set(game_ids)
    return [e for e in entries if isinstance(e, dict) and e.get("ruleset") in ids]
