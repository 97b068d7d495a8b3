"""Autosave: a small library of encounters in the browser's database (IndexedDB).

What is kept where (docs/ARCHITECTURE.md, Storage):

- ``saves``: each encounter's save file (docs/file-format.md) by key (``e1``, ``e2``, ...), with
  its **revision**: 1 when first written, one more at every committed write.
- ``entries``: the library list, one small record per encounter (key, name, ruleset,
  revision), written in the same transaction as its save. It is an index of ``saves`` and is
  rebuilt from them when it disagrees (a missing or unreadable entry; an entry without a save).
- ``broken``: a save that failed to load, kept untouched for download. Its save is never
  overwritten behind the GM's back.
- ``meta``: ``current`` (the open encounter) and ``migrated`` (localStorage's library has
  been copied in).

The page's backend is ``static/store.js`` (``JsBackend`` wraps it); ``MemoryBackend`` does the
same in memory, for the unit tests and for a browser that refuses storage. Every write is one
transaction; ``save`` writes only if the stored revision is the one the caller last loaded or
wrote, so a tab never overwrites what another tab saved since (``SaveResult.ok`` is False and
nothing is written).

Before IndexedDB, Fray kept the library in ``localStorage`` (``fray.index``, ``fray.current``,
``fray.enc.<key>``, ``fray.broken.<key>``). ``migration_plan`` turns those into one
transaction at the first boot; the localStorage keys are left as they were and never read
again.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable

from .. import bestiary, savefile
from ..errors import SaveFileError
from ..history import History

# The localStorage keys of the library before IndexedDB (read once, by the migration).
INDEX = "fray.index"
CURRENT = "fray.current"
ENC = "fray.enc."
BROKEN = "fray.broken."


class MissingSave(SaveFileError):
    """The library names an encounter whose save does not exist (there is nothing to offer)."""


@dataclass(frozen=True)
class SaveResult:
    """What a write did: ``ok`` and the revision now stored (this write's, or the newer one
    another tab wrote, in which case nothing was written)."""

    ok: bool
    rev: int


def key_order(key: str) -> tuple[int, str]:
    """Library order: e1, e2, ..., e10 (keys are numbered as encounters are created)."""
    m = re.fullmatch(r"e(\d+)", key)
    return (int(m.group(1)) if m else 1 << 62, key)


def entry_from_save(key: str, text: str | None, rev: Any = None) -> dict[str, Any]:
    """A library entry rebuilt from the save itself (the entry was lost or unreadable)."""
    name, ruleset = key, ""
    try:
        enc = json.loads(text or "")["encounter"]
        if isinstance(enc.get("name"), str) and enc["name"].strip():
            name = enc["name"]
        if isinstance(enc.get("ruleset"), str):
            ruleset = enc["ruleset"]
    except Exception:  # noqa: BLE001 - an unreadable save still gets listed, by its key
        pass
    return {"key": key, "name": name, "ruleset": ruleset, "rev": rev if _whole(rev) else 0}


def reconcile(entries: Any, keys: Iterable[Any]) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """Check the stored library list against the saves that exist.

    Returns (the usable entries, the keys of saves that need their entry rebuilt, the keys of
    entries to drop because their save is gone). An entry is usable when it is an object with
    text ``key``, ``name`` and ``ruleset`` and a whole ``rev`` >= 1 for a save that exists."""
    have = [k for k in keys if isinstance(k, str)]
    exist = set(have)
    good: dict[str, dict[str, Any]] = {}
    drop: list[str] = []
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict) or not isinstance(e.get("key"), str):
            continue
        if e["key"] not in exist:
            drop.append(e["key"])
        elif (isinstance(e.get("name"), str) and isinstance(e.get("ruleset"), str) and _whole(e.get("rev"))
              and e["rev"] >= 1):
            good[e["key"]] = {"key": e["key"], "name": e["name"], "ruleset": e["ruleset"], "rev": e["rev"]}
    rebuild = sorted((k for k in exist if k not in good), key=key_order)
    return sorted(good.values(), key=lambda e: key_order(e["key"])), rebuild, drop


def boot_order(current: str | None, keys: list[str]) -> list[str]:
    """The encounters to try at boot, in order: the current one; if its save is gone, the next
    saved one after it (then from the start of the list); then all the others."""
    keys = sorted(keys, key=key_order)
    if current in keys:
        return [current] + [k for k in keys if k != current]
    if current is None:
        return keys
    after = [k for k in keys if key_order(k) > key_order(current)]
    return after + [k for k in keys if k not in after]


def new_key(taken: Iterable[str]) -> str:
    taken = set(taken)
    n = len(taken) + 1
    while f"e{n}" in taken:
        n += 1
    return f"e{n}"


def migration_plan(items: dict[str, str]) -> dict[str, Any]:
    """localStorage's library (every ``fray.*`` item, as {key: value}) as one IndexedDB write.

    Every ``fray.enc.<key>`` becomes a save, whatever ``fray.index`` says: an index that is
    garbage, ``{}`` or missing entries hides nothing. A name comes from the index where it is
    readable, else from the save. ``fray.broken.<key>`` copies are kept as they are."""
    try:
        index = json.loads(items.get(INDEX) or "[]")
    except ValueError:
        index = []
    named = {}
    for e in index if isinstance(index, list) else []:
        if isinstance(e, dict) and isinstance(e.get("key"), str) and isinstance(e.get("name"), str):
            named[e["key"]] = e
    saves = []
    for k in sorted((k[len(ENC):] for k in items if k.startswith(ENC) and len(k) > len(ENC)), key=key_order):
        text = items[ENC + k]
        entry = entry_from_save(k, text)
        if k in named:
            entry["name"] = named[k]["name"]
            if isinstance(named[k].get("ruleset"), str) and not entry["ruleset"]:
                entry["ruleset"] = named[k]["ruleset"]
        saves.append({"key": k, "text": text, "name": entry["name"], "ruleset": entry["ruleset"]})
    broken = [{"key": k[len(BROKEN):], "text": v} for k, v in sorted(items.items())
              if k.startswith(BROKEN) and len(k) > len(BROKEN) and isinstance(v, str)]
    current = items.get(CURRENT)
    return {"saves": saves, "broken": broken, "current": current if isinstance(current, str) else None}


def local_items(storage: Any) -> dict[str, str]:
    """Every ``fray.*`` item of a ``localStorage`` (or anything with ``length``/``key``/``getItem``)."""
    out: dict[str, str] = {}
    for i in range(int(storage.length)):
        k = storage.key(i)
        if isinstance(k, str) and k.startswith("fray."):
            v = storage.getItem(k)
            if isinstance(v, str):
                out[k] = v
    return out


class Library:
    """The encounters kept in the browser, over a backend (``JsBackend`` or ``MemoryBackend``)."""

    def __init__(self, backend: Any):
        self.backend = backend
        self.cached: list[dict[str, Any]] = []  # the list as last read, for drawing the page

    async def entries(self) -> list[dict[str, Any]]:
        """The library list, rebuilt from the saves where it disagrees with them."""
        listed = await self.backend.list()
        good, rebuild, drop = reconcile(listed.get("entries"), listed.get("keys") or [])
        fixed = []
        for k in rebuild:
            row = await self.backend.get(k)
            if row is not None:
                fixed.append(entry_from_save(k, row.get("text"), row.get("rev")))
        if fixed or drop:
            await self.backend.repair(fixed, drop)
        self.cached = sorted(good + fixed, key=lambda e: key_order(e["key"]))
        return self.cached

    async def current_key(self) -> str | None:
        v = await self.backend.meta("current")
        return v if isinstance(v, str) else None

    async def new_key(self) -> str:
        listed = await self.backend.list()
        cur = await self.current_key()
        return new_key([k for k in listed.get("keys") or [] if isinstance(k, str)] + ([cur] if cur else []))

    async def save(self, key: str, h: History, expected_rev: int) -> SaveResult:
        """Write the encounter and make it current, in one transaction, if the stored revision
        is still ``expected_rev`` (0: never saved). Raises the browser's error (quota) as is."""
        res = await self.backend.save(key, savefile.dumps(h), h.present.name, h.present.ruleset, expected_rev)
        return SaveResult(bool(res["ok"]), int(res["rev"]))

    async def load(self, key: str) -> tuple[History, int]:
        """One encounter and its stored revision. A missing save raises ``MissingSave``; a bad
        one raises ``SaveFileError`` and is kept aside under ``broken``, untouched."""
        row = await self.backend.get(key)
        if row is None or not isinstance(row.get("text"), str):
            raise MissingSave("", f"no saved encounter {key!r}")
        raw = row["text"]
        rev = row.get("rev") if _whole(row.get("rev")) else 0
        try:
            # our own autosave: read as strictly as an import, replayed from its last checkpoint only
            return savefile.loads(raw, verify=False), rev
        except SaveFileError:
            await self.backend.put_broken(key, raw)
            raise
        except Exception as e:  # noqa: BLE001 - never lose a save to an error of another kind
            await self.backend.put_broken(key, raw)
            raise SaveFileError("", f"{type(e).__name__}: {e}") from None

    async def revision(self, key: str) -> int:
        """The revision stored for ``key`` now (0: no save)."""
        row = await self.backend.get(key)
        return row["rev"] if row is not None and _whole(row.get("rev")) else 0

    async def raw(self, key: str) -> str | None:
        """The text to offer for download: the unreadable copy, else the save; None (never an
        empty file) when there is neither."""
        text = await self.backend.get_broken(key)
        if not text:
            row = await self.backend.get(key)
            text = row.get("text") if row is not None else None
        return text if isinstance(text, str) and text else None

    async def set_current(self, key: str) -> None:
        await self.backend.set_current(key)

    async def forget(self, key: str) -> None:
        """Drop an encounter: its save, its entry and its unreadable copy."""
        await self.backend.forget(key)

    async def bestiary(self) -> list[dict[str, Any]]:
        """The GM's templates (fray.bestiary), read as strictly as an imported bestiary file; an
        unreadable one raises (the page says so and keeps it untouched until the GM saves anew)."""
        text = await self.backend.meta("bestiary")
        return [] if not text else bestiary.loads(str(text))

    async def save_bestiary(self, templates: list[dict[str, Any]]) -> None:
        await self.backend.put_meta("bestiary", bestiary.dumps(templates))

    async def migrate(self, items: dict[str, str]) -> bool:
        """Copy localStorage's library in (once, in one transaction). True if this call did."""
        if await self.backend.meta("migrated") is True:
            return False
        return bool(await self.backend.migrate(migration_plan(items)))


class MemoryBackend:
    """``static/store.js`` in memory: for tests and for a browser that refuses storage."""

    def __init__(self) -> None:
        self.entries: dict[str, Any] = {}
        self.saves: dict[str, dict[str, Any]] = {}
        self.broken: dict[str, str] = {}
        self.metas: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []

    async def list(self) -> dict[str, Any]:
        return {"entries": [dict(e) if isinstance(e, dict) else e for e in self.entries.values()],
                "keys": list(self.saves)}

    async def get(self, key: str) -> dict[str, Any] | None:
        row = self.saves.get(key)
        return None if row is None else {"text": row["text"], "rev": row["rev"]}

    def _rev(self, key: str) -> int:
        e = self.entries.get(key)
        if isinstance(e, dict) and _whole(e.get("rev")):
            return e["rev"]
        row = self.saves.get(key)
        return row["rev"] if row is not None and _whole(row.get("rev")) else 0

    async def save(self, key: str, text: str, name: str, ruleset: str, expected: int) -> dict[str, Any]:
        stored = self._rev(key)
        if stored != expected:
            return {"ok": False, "rev": stored}
        self.saves[key] = {"text": text, "rev": stored + 1}
        self.entries[key] = {"key": key, "name": name, "ruleset": ruleset, "rev": stored + 1}
        self.metas["current"] = key
        return {"ok": True, "rev": stored + 1}

    async def repair(self, fix: list[dict[str, Any]], drop: list[str]) -> None:
        for e in fix:
            self.entries[e["key"]] = dict(e)
        for k in drop:
            self.entries.pop(k, None)

    async def set_current(self, key: str) -> None:
        self.metas["current"] = key

    async def meta(self, name: str) -> Any:
        return self.metas.get(name)

    async def put_meta(self, name: str, value: Any) -> None:
        self.metas[name] = value

    async def get_broken(self, key: str) -> str | None:
        return self.broken.get(key)

    async def put_broken(self, key: str, text: str) -> None:
        self.broken[key] = text

    async def forget(self, key: str) -> None:
        for store in (self.entries, self.saves, self.broken):
            store.pop(key, None)

    async def migrate(self, plan: dict[str, Any]) -> bool:
        if self.metas.get("migrated") is True:
            return False
        moved: dict[str, str] = {}
        for s in plan["saves"]:
            key = s["key"]
            while key in self.saves:  # saved here after an earlier migration failed: keep both
                key += "-old"
            moved[s["key"]] = key
            self.saves[key] = {"text": s["text"], "rev": 1}
            self.entries[key] = {"key": key, "name": s["name"], "ruleset": s["ruleset"], "rev": 1}
        for b in plan["broken"]:
            self.broken[moved.get(b["key"], b["key"])] = b["text"]
        if isinstance(plan.get("current"), str) and "current" not in self.metas:
            self.metas["current"] = moved.get(plan["current"], plan["current"])
        self.metas["migrated"] = True
        return True

    def listen(self, callback: Any) -> bool:
        return False  # one tab: nobody else to hear from

    def announce(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class JsBackend:
    """``static/store.js`` (a JS module, as PyScript hands it over) with Python values."""

    def __init__(self, module: Any):
        self.js = module

    async def list(self) -> dict[str, Any]:
        return _py(await self.js.list())

    async def get(self, key: str) -> dict[str, Any] | None:
        return _py(await self.js.get(key))

    async def save(self, key: str, text: str, name: str, ruleset: str, expected: int) -> dict[str, Any]:
        return _py(await self.js.save(key, text, name, ruleset, expected))

    async def repair(self, fix: list[dict[str, Any]], drop: list[str]) -> None:
        await self.js.repair(json.dumps(fix), json.dumps(drop))

    async def set_current(self, key: str) -> None:
        await self.js.setCurrent(key)

    async def meta(self, name: str) -> Any:
        return _py(await self.js.meta(name))

    async def put_meta(self, name: str, value: Any) -> None:
        await self.js.putMeta(name, value)

    async def get_broken(self, key: str) -> str | None:
        return _py(await self.js.getBroken(key))

    async def put_broken(self, key: str, text: str) -> None:
        await self.js.putBroken(key, text)

    async def forget(self, key: str) -> None:
        await self.js.forget(key)

    async def migrate(self, plan: dict[str, Any]) -> bool:
        return bool(_py(await self.js.migrate(json.dumps(plan))))

    def listen(self, callback: Any) -> bool:
        return bool(self.js.listen(callback))

    def announce(self, message: dict[str, Any]) -> None:
        self.js.announce(json.dumps(message))


def _py(v: Any) -> Any:
    """A JS value as Python: objects and arrays converted, JS null and undefined as None."""
    if v is None or type(v).__name__ in ("JsNull", "JsUndefined"):
        return None
    return v.to_py() if hasattr(v, "to_py") else v


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)
