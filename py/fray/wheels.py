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
