"""Autosave: a small library of encounters in the browser's storage.

Keys: ``fray.index`` (list of {key, name, ruleset}), ``fray.current`` (the open one) and
``fray.enc.<key>`` (each encounter's save file, see docs/file-format.md). The storage object
is anything with ``getItem``/``setItem``/``removeItem`` (``localStorage`` in the page, a dict
wrapper in tests). A save that cannot be read is never overwritten behind the GM's back: it is
kept under ``fray.broken.<key>`` and offered for download.
"""

from __future__ import annotations

import json
from typing import Any

from .. import savefile
from ..errors import SaveFileError
from ..history import History

INDEX = "fray.index"
CURRENT = "fray.current"


class Library:
    def __init__(self, storage: Any):
        self.storage = storage

    def _get(self, key: str) -> str | None:
        v = self.storage.getItem(key)
        # Stored values are always strings; a missing key is JS null, which Pyodide hands over
        # as ``jsnull`` rather than None.
        return v if isinstance(v, str) else None

    def index(self) -> list[dict[str, str]]:
        raw = self._get(INDEX)
        if not raw:
            return []
        try:
            data = json.loads(raw)
            return [x for x in data if isinstance(x, dict) and isinstance(x.get("key"), str)]
        except (ValueError, TypeError):
            return []

    def _write_index(self, items: list[dict[str, str]]) -> None:
        self.storage.setItem(INDEX, json.dumps(items))

    def current_key(self) -> str | None:
        return self._get(CURRENT)

    def new_key(self) -> str:
        # an entry missing from the index (a write cut short) still owns its key
        taken = {x["key"] for x in self.index()} | {k for k in (self.current_key(),) if k}
        n = len(taken) + 1
        while f"e{n}" in taken or self._get(f"fray.enc.e{n}") is not None:
            n += 1
        return f"e{n}"

    def save(self, key: str, h: History) -> None:
        """Write the encounter and make it current. Raises the browser's quota error as is."""
        text = savefile.dumps(h)
        self.storage.setItem(f"fray.enc.{key}", text)
        items = self.index()
        entry = {"key": key, "name": h.present.name, "ruleset": h.present.ruleset}
        for i, x in enumerate(items):
            if x["key"] == key:
                items[i] = entry
                break
        else:
            items.append(entry)
        self._write_index(items)
        self.storage.setItem(CURRENT, key)

    def load(self, key: str) -> History:
        """Load one encounter; a bad save raises ``SaveFileError`` and is kept aside, untouched."""
        raw = self._get(f"fray.enc.{key}")
        if raw is None:
            raise SaveFileError("", f"no saved encounter {key!r}")
        try:
            # our own autosave: read as strictly as an import, but replayed only as undo needs it
            return savefile.loads(raw, verify=False)
        except SaveFileError:
            self.storage.setItem(f"fray.broken.{key}", raw)
            raise
        except Exception as e:  # noqa: BLE001 - never lose a save to an error of another kind
            self.storage.setItem(f"fray.broken.{key}", raw)
            raise SaveFileError("", f"{type(e).__name__}: {e}") from None

    def raw(self, key: str) -> str | None:
        return self._get(f"fray.broken.{key}") or self._get(f"fray.enc.{key}")

    def forget(self, key: str) -> None:
        """Drop an encounter from the list (its broken copy, if any, stays for download)."""
        self.storage.removeItem(f"fray.enc.{key}")
        self._write_index([x for x in self.index() if x["key"] != key])


class MemoryStorage:
    """A ``localStorage`` stand-in for tests and for a browser that refuses storage."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:  # noqa: N802 (the Web Storage API's name)
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.data[key] = str(value)

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.data.pop(key, None)
