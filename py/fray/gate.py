"""One gate for everything that comes in (STYLE 15).

Every value that enters the engine passes here, whatever it came from: an action the GM typed,
an action replayed from a save or an import, an imported file, the browser's autosave, a table
edit typed as JSON. There is one statement of what a value may be, so a save holds only what the
actions could have made and the loader accepts exactly that:

* numbers are finite (NaN never equals itself, so a save holding one could not be checked
  against its own history; Infinity is not JSON and Export would write a file no browser reads)
  and at most ``MAX_NUMBER`` in size;
* containers are nested at most ``MAX_DEPTH`` deep, counted from the value's own root (an
  action, a table, a combatant's data), so a table edit and the same table in a save count the
  same depth;
* a text is at most ``MAX_TEXT`` characters (the longest an action may carry: a note), and an
  object's keys are texts of that size too;
* JSON *text* is scanned for its depth before it is parsed: in Pyodide a parser recursing
  100,000 deep overflows the JavaScript stack and leaves the interpreter broken, where CPython
  raises a clean RecursionError.

Problems are reported as ``InvalidAction(path, message)`` with the dotted path (list items by
index); the save-file loader turns them into ``SaveFileError`` with the same path and message.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from operator import sub
from typing import Any

from .errors import InvalidAction

MAX_DEPTH = 40
MAX_TEXT = 2000
MAX_NUMBER = 1e15
# Log lines are written by the engine, never typed; one can name every combatant ("Resolution
# begins at SR 1: ..."), so they get room for 200 names and breakdowns.
MAX_LOG_TEXT = 50_000

# The depth scan works on the UTF-8 bytes, where every C-level step is one pass: a JSON text's
# structure is ASCII and no byte of a multi-byte character is ASCII. An escape (a backslash and
# the byte after it) is dropped first, so what is left of a string holds no quote; then every
# byte but brackets and quotes goes, and the pieces between quotes at odd places (the strings)
# go with the split. The regular expressions over the whole text this replaces took 150 ms of a
# 3 MB save's load in CPython (issue 11).
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
_DEPTH_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def json_depth(text: str) -> int:
    """How deep the brackets of a JSON text nest, counting only brackets outside strings, read
    left to right as a parser reads them (what follows an unterminated quote is inside it: the
    parser stops there); no recursion, so it cannot overflow any stack however deep the text is."""
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = _ESCAPE.sub(b"", raw)
    brackets = b"".join(raw.translate(None, _NOT_STRUCTURE).split(b'"')[0::2])
    if not brackets:
        return 0
    # each bracket steps 2 (an opening) or 0 (a closing), so the depth after k brackets is the
    # sum of their steps less k: every loop here is the C one (a generator of steps took a tenth
    # of a 30-combatant autosave's load in the page)
    return max(map(sub, accumulate(brackets.translate(_DEPTH_STEP)), range(1, len(brackets) + 1)))


# The deepest a save file's brackets can go when every value in it is within MAX_DEPTH: the file
# object, history, initial, log, an entry, its detail (6) and then MAX_DEPTH - 1 more containers.
FILE_DEPTH = MAX_DEPTH + 6


def parse_json(text: str, path: str = "", max_depth: int = FILE_DEPTH) -> Any:
    """``json.loads`` behind the depth scan; errors are ``InvalidAction`` at ``path``. The scan
    only keeps the parser safe; ``check_value`` then applies the exact limits with their paths."""
    try:
        return _parse_scanned(text, path, max_depth)
    except json.JSONDecodeError as e:
        raise InvalidAction(path, f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None


def _parse_scanned(text: str, path: str, max_depth: int = FILE_DEPTH) -> Any:
    """``json.loads`` behind the depth scan; a text that is not JSON raises ``JSONDecodeError``."""
    if not isinstance(text, str):
        raise InvalidAction(path, "must be JSON text")
    depth = json_depth(text)
    if depth > max_depth:
        raise InvalidAction(path, f"is nested {depth} deep; Fray reads JSON nested at most {max_depth} deep")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except (RecursionError, ValueError) as e:
        raise InvalidAction(path, f"not JSON Fray can read: {e}") from None


# The files a GM picks to import, by their "format", as the page names them: a refusal says which
# one the file is not (a GM read "not JSON: Expecting value at line 1, column 1" and did not know
# what was wrong, or what the picker wanted).
FILE_KINDS = {
    "fray-encounter": ("a Fray encounter file", "the kind the toolbar's Export writes", "with the toolbar's Import"),
    "fray-bestiary": ("a Fray bestiary file", "the kind Export writes in My bestiary", "in My bestiary"),
    "fray-campaign": ("a Fray party file", "the kind Export the party writes", "in Party, with Import a party"),
}


def not_a_file(kind: str, data: Any = None, trouble: str = "") -> str:
    """Why a file picked to import as ``kind`` (a key of ``FILE_KINDS``) is not one, in the GM's
    words: another Fray file is named with where it goes; ``trouble`` says what else is known."""
    name, made, _ = FILE_KINDS[kind]
    other = data.get("format") if isinstance(data, dict) else None
    if other in FILE_KINDS and other != kind:
        oname, _, where = FILE_KINDS[other]
        return f"it is {oname}, not {name}: import it {where}"
    return f"it is not {name} ({made})" + (f"; {trouble}" if trouble else "")


def parse_file(text: str, kind: str, path: str = "") -> Any:
    """``parse_json`` for a file the GM picked to import as ``kind``: a text that is not JSON at all
    is refused as not that kind of file, saying where its text goes wrong (a hand-edited file)."""
    if isinstance(text, str) and not text.strip():
        raise InvalidAction(path, not_a_file(kind, trouble="the file is empty"))
    try:
        return _parse_scanned(text, path)
    except json.JSONDecodeError as e:
        raise InvalidAction(path, not_a_file(kind, trouble=f"its text goes wrong at line {e.lineno}, "
                                                           f"column {e.colno}")) from None


def check_number(v: Any, path: str) -> None:
    if isinstance(v, float) and not math.isfinite(v):
        raise InvalidAction(path, "must be a finite number (not NaN or Infinity)")
    if not -MAX_NUMBER <= v <= MAX_NUMBER:
        raise InvalidAction(path, f"is too large (at most {MAX_NUMBER:.0e} either way)")


def check_text(v: str, path: str, max_len: int = MAX_TEXT) -> None:
    if len(v) > max_len:
        raise InvalidAction(path, f"is longer than {max_len} characters")


def check_value(v: Any, path: str = "", max_depth: int = MAX_DEPTH) -> None:
    """Raise ``InvalidAction`` at the first part of ``v`` that is not data the engine keeps:
    objects with text keys, lists, texts, finite numbers, booleans and null, within the limits
    above. ``v`` itself is depth 0; its items are depth 1."""
    _check(v, path, 0, max_depth)


def _check(v: Any, path: str, depth: int, max_depth: int) -> None:
    if v is None or isinstance(v, bool):
        return
    if isinstance(v, (int, float)):
        check_number(v, path or "action")
        return
    if isinstance(v, str):
        check_text(v, path or "action")
        return
    if isinstance(v, (dict, list)):
        _check_container(v, path, depth, max_depth)
        return
    raise InvalidAction(path or "action", "is not JSON data")


def _check_container(v: dict | list, path: str, depth: int, max_depth: int) -> None:
    """A container's items: the common ones (texts, whole numbers, booleans, null) are checked
    here in the loop, one call per container rather than one per value, which was most of the
    time a 200-combatant load spent in this gate (issue 11); the rest go through ``_check``,
    whose messages and paths they keep."""
    if depth >= max_depth:
        raise InvalidAction(path or "action", f"is nested too deeply (at most {max_depth} levels)")
    if isinstance(v, dict):
        items = v.items()
        for k in v:
            if not isinstance(k, str):
                raise InvalidAction(path or "action", "keys must be text")
            if len(k) > MAX_TEXT:
                raise InvalidAction(path or "action", f"has a key longer than {MAX_TEXT} characters")
    else:
        items = enumerate(v)
    for k, x in items:
        t = type(x)
        if t is str:
            if len(x) <= MAX_TEXT:
                continue
        elif t is int:
            if -MAX_NUMBER <= x <= MAX_NUMBER:
                continue
        elif x is None or t is bool:
            continue
        elif t is dict or t is list:
            _check_container(x, _join(path, k), depth + 1, max_depth)
            continue
        _check(x, _join(path, k), depth + 1, max_depth)

