"""Autosave: a small library of encounters in the browser's database (IndexedDB).

What is kept where (docs/ARCHITECTURE.md, Storage):

- ``saves``: each encounter's save file (docs/file-format.md) by key (``e1``, ``e2``, ...), with
  its **revision**: 1 when first written, one more at every committed write.
- ``entries``: the library list, one small record per encounter (key, name, ruleset,
  revision), written in the same transaction as its save. It is an index of ``saves`` and is
  rebuilt from them when it disagrees (a missing or unreadable entry; an entry without a save).
- ``journal``: the history's moves since its save was written (``fray.journal``), one row per
  committed write, each with the revision it made. ``Library.write`` appends a row where it can
  and rewrites the save (deleting the rows, in the same transaction) soon after ``JOURNAL_ROWS`` of
  them, when the page is idle (``Library.compact``), and whenever the history is not the one it
  last wrote. A load is the save, then the rows' moves in order.
- ``broken``: a save that failed to load, kept untouched for download. Its save is never
  overwritten behind the GM's back.
- ``meta``: ``current`` (the open encounter), ``migrated`` (localStorage's library has
  been copied in), ``bestiary``, ``games`` (the games the GM added: ``Library.games``) and
  ``game-names`` (their names, kept after one is removed: ``Library.game_names``).

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

from .. import bestiary, journal, savefile
from ..errors import SaveFileError
from ..history import History

# The localStorage keys of the library before IndexedDB (read once, by the migration).
INDEX = "fray.index"
CURRENT = "fray.current"
ENC = "fray.enc."
BROKEN = "fray.broken."


# After this many journal rows the page rewrites the save as soon as the GM pauses (a moment after
# the write that made them, ``Autosave.fold_later``), so the write of a change never pays for the
# whole save; a load replays about this many writes' moves (docs/ARCHITECTURE.md, Storage).
JOURNAL_ROWS = 20
# A burst of changes that never pauses (faster than FOLD_SOON_S apart) gets no moment to fold in:
# past this many rows the write of a change is the whole save, so a load never replays more.
JOURNAL_MAX = 40
# localStorage: a tab's moves not committed yet when the page was hidden (``Library.pending``)
PENDING = "fray.pending."


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


@dataclass
class Written:
    """What the library last committed of one encounter: the history object, how it looked
    (``journal.Look``), the revision and how many journal rows follow the save."""

    history: History
    look: journal.Look
    rev: int
    rows: int
    by: str | None = None  # the write that made ``rev``, as stored (a journal row's or the save's)


class Library:
    """The encounters kept in the browser, over a backend (``JsBackend`` or ``MemoryBackend``)."""

    def __init__(self, backend: Any, tab: str = "tab"):
        self.backend = backend
        self.cached: list[dict[str, Any]] = []  # the list as last read, for drawing the page
        self.tab = tab
        self.writes = 0  # this tab's count of writes: ``by`` is f"{tab}:{writes}"
        self.written: dict[str, Written] = {}
        self.in_flight: dict[str, tuple[str, int]] = {}  # key -> (by, how many moves) being committed

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

    def _by(self) -> str:
        self.writes += 1
        return f"{self.tab}:{self.writes}"

    def moves(self, key: str, h: History) -> list[dict[str, Any]] | None:
        """The moves ``h`` made since the library last committed it under ``key``, or None if
        they cannot be told (another history, or none committed): then only a whole save will do."""
        w = self.written.get(key)
        if w is None or w.history is not h:
            return None
        return journal.moves_between(w.look, h)

    async def save(self, key: str, h: History, expected_rev: int) -> SaveResult:
        """Write the encounter whole and make it current, in one transaction, if the stored
        revision is still ``expected_rev`` (0: never saved); its journal rows go in the same
        transaction. Raises the browser's error (quota) as is."""
        look, by, text = journal.Look(h), self._by(), savefile.dumps(h)
        self.in_flight[key] = (by, len(self.moves(key, h) or []))
        try:
            res = await self.backend.save(key, text, h.present.name, h.present.ruleset, expected_rev, by)
        finally:
            self.in_flight.pop(key, None)
        if res["ok"]:
            self.written[key] = Written(h, look, int(res["rev"]), 0, by)
        return SaveResult(bool(res["ok"]), int(res["rev"]))

    async def write(self, key: str, h: History, expected_rev: int) -> SaveResult:
        """The autosave of one change: a journal row of the moves ``h`` made since it was last
        committed, when there is one to append to and fewer than ``JOURNAL_MAX`` rows follow the
        save; else the whole save. The same revision check either way. (The page folds the rows
        in once ``JOURNAL_ROWS`` follow, between changes: ``Autosave.fold_later``.)"""
        w = self.written.get(key)
        moves = self.moves(key, h)
        if moves is None or w is None or w.rev != expected_rev or w.rows >= JOURNAL_MAX:
            return await self.save(key, h, expected_rev)
        if not moves:
            return SaveResult(True, expected_rev)  # nothing moved (a jump to where it was): nothing to write
        look, by = journal.Look(h), self._by()
        self.in_flight[key] = (by, len(moves))
        try:
            res = await self.backend.append(key, journal.dumps(moves), h.present.name, h.present.ruleset,
                                            expected_rev, by)
        finally:
            self.in_flight.pop(key, None)
        if res["ok"]:
            self.written[key] = Written(h, look, int(res["rev"]), w.rows + 1, by)
        return SaveResult(bool(res["ok"]), int(res["rev"]))

    def follow(self, key: str, frm: int, rev: int) -> None:
        """Another tab folded the journal of revision ``frm`` into a save at ``rev``: the same
        encounter, so this tab's next change appends to that."""
        w = self.written.get(key)
        if w is not None and w.rev == frm:
            w.rev, w.rows, w.by = rev, 0, None

    def journal_rows(self, key: str) -> int:
        """How many journal rows follow ``key``'s save, as this tab last committed or loaded it."""
        w = self.written.get(key)
        return w.rows if w is not None else 0

    async def compact(self, key: str, h: History, expected_rev: int) -> SaveResult | None:
        """Fold ``key``'s journal into its save (the page is idle, or is leaving the encounter):
        the whole save, if rows follow it and ``h`` is what was last committed; else nothing."""
        w = self.written.get(key)
        if w is None or w.rows == 0 or w.history is not h or w.rev != expected_rev or self.moves(key, h):
            return None
        return await self.save(key, h, expected_rev)

    async def load(self, key: str, check: bool = True) -> tuple[History, int]:
        """One encounter and its stored revision: the save, then its journal's moves. A missing
        save raises ``MissingSave``; a bad save or journal row raises ``SaveFileError`` and is kept
        aside under ``broken``, untouched (with its journal: ``broken_text``). ``check`` false: a
        save with no journal after it is not checked against its history now; the caller does
        it (``History.check_present``) and calls ``set_aside`` if that fails."""
        # the save's text may come cut where its checkpoints begin (``rest``: the text after,
        # asked for when they are first read; static/store.js getSplit)
        row = await self.backend.get_split(key)
        if row is None or not isinstance(row.get("text"), str):
            raise MissingSave("", f"no saved encounter {key!r}")
        head, rest = row["text"], row.get("rest")
        rows = row.get("journal") or []
        rev = row.get("rev") if _whole(row.get("rev")) else 0

        def whole() -> str:
            return head if rest is None else head + str(rest())
        try:
            # our own autosave: read as strictly as an import, replayed from its last checkpoint only
            if rest is None:
                h = savefile.loads(head, verify=False, check=check or bool(rows))
            else:
                h = savefile.loads_split(head, lambda: str(rest()), row.get("size") or 0, verify=False,
                                         check=check or bool(rows))
            base = row.get("base", rev)
            for r in rows:
                where = f"journal.{r.get('rev') if isinstance(r, dict) else '?'}"
                if not isinstance(r, dict) or not _whole(r.get("rev")) or r["rev"] != base + 1:
                    raise SaveFileError(where, f"is not the write after revision {base} (a journal row is missing)")
                journal.apply_moves(h, journal.loads(r.get("moves"), where + ".moves"), where + ".moves")
                base = r["rev"]
        except Exception as e:  # noqa: BLE001 - never lose a save to an error of any kind
            await self.backend.put_broken(key, broken_text(whole(), rows))
            if isinstance(e, SaveFileError):
                raise
            raise SaveFileError("", f"{type(e).__name__}: {e}") from None
        self.written[key] = Written(h, journal.Look(h), rev, len(rows), row.get("by"))
        return h, rev

    async def revision(self, key: str) -> int:
        """The revision stored for ``key`` now (0: no save), without reading its text."""
        rev = await self.backend.revision(key)
        return rev if _whole(rev) else 0

    # -- what a closing tab had not committed --------------------------------------------------
    def pending(self, key: str, h: History) -> dict[str, Any] | None:
        """What ``h`` holds beyond the last committed write of ``key``, for the page to keep
        synchronously as it is hidden: the moves, the revision they apply to, and the write that
        was being committed (its ``by`` and how many of the moves it carries). None when
        everything is committed, or when it cannot be said in moves (a history never written)."""
        w = self.written.get(key)
        moves = self.moves(key, h)
        if w is None or not moves:
            return None
        flight = self.in_flight.get(key)
        return {"key": key, "base": w.rev, "moves": moves,
                "in_flight": {"by": flight[0], "moves": flight[1]} if flight else None}

    def recover(self, key: str, h: History, rev: int, kept: dict[str, Any]) -> bool:
        """Apply a closed tab's ``pending`` record to ``h``, just loaded at revision ``rev``, if
        it follows on from it: the record's revision is the one loaded, or the write it was
        committing is the one that made the revision loaded (then only the moves after it).
        Returns False, touching nothing, if another write came between; raises
        ``SaveFileError`` if a move does not apply (``h`` is then to be loaded again)."""
        moves = kept.get("moves")
        base = kept.get("base")
        if kept.get("key") != key or not isinstance(moves, list) or not _whole(base):
            return False
        flight = kept.get("in_flight")
        w = self.written.get(key)
        if rev == base:
            todo = moves
        elif (rev == base + 1 and isinstance(flight, dict) and w is not None and w.by is not None
              and flight.get("by") == w.by and _whole(flight.get("moves"))):
            todo = moves[flight["moves"]:]
        else:
            return False
        journal.apply_moves(h, todo, "pending")
        return True

    async def set_aside(self, key: str) -> None:
        """A save found wrong after it was loaded (``load`` with ``check`` false): kept under
        ``broken`` exactly as ``load`` keeps one it refuses, for the GM to download."""
        row = await self.backend.get(key)
        if row is not None and isinstance(row.get("text"), str):
            await self.backend.put_broken(key, broken_text(row["text"], row.get("journal") or []))

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

    async def games(self) -> list[dict[str, Any]]:
        """The games the GM added (web/games_view.py): ``{"name", "version", "games", "wheel"}``
        each, the wheel's bytes as base64; [] when none (the boot then loads no installer). An
        unreadable list raises."""
        text = await self.backend.meta("games")
        if not text:
            return []
        kept = json.loads(str(text))
        if not isinstance(kept, list) or not all(isinstance(g, dict) and isinstance(g.get("wheel"), str) for g in kept):
            raise ValueError("the list of added games is not in Fray's form")
        return kept

    async def save_games(self, kept: list[dict[str, Any]]) -> None:
        await self.backend.put_meta("games", json.dumps(kept))

    async def game_names(self) -> dict[str, str]:
        """The names of the games ever added here (ruleset id -> the game's name), kept after a
        game is removed: an encounter of it says which game to add again. {} when unreadable."""
        try:
            got = json.loads(str(await self.backend.meta("game-names") or "{}"))
        except ValueError:
            return {}
        if not isinstance(got, dict):
            return {}
        return {k: v for k, v in got.items() if isinstance(k, str) and isinstance(v, str)}

    async def remember_game_names(self, names: dict[str, str]) -> None:
        await self.backend.put_meta("game-names", json.dumps({**await self.game_names(), **names}))

    async def campaign(self) -> tuple[dict[str, Any], int]:
        """The party's campaign (fray.party.campaign) and its revision (0: none kept yet), read as
        strictly as an imported campaign file; an unreadable one raises and is left untouched. It is
        kept as one text, ``{"rev": n, "campaign": {...}}``, in ``meta``, as the bestiary is."""
        from ..party import campaign

        rev, data = self._campaign_rev(await self.backend.meta("campaign"))
        return (campaign.empty(), 0) if data is None else (campaign.load_data(data), rev)

    @staticmethod
    def _campaign_rev(kept: Any) -> tuple[int, Any]:
        from .. import gate

        if not kept:
            return 0, None
        try:
            got = gate.parse_json(str(kept), "campaign") if isinstance(kept, str) else None
        except Exception:  # noqa: BLE001 - said below, as any other unreadable kept party
            got = None
        rev = got.get("rev") if isinstance(got, dict) else None
        if not isinstance(rev, int) or isinstance(rev, bool) or rev < 1:
            raise SaveFileError("campaign", "the kept party cannot be read")
        return rev, got.get("campaign")

    async def save_campaign(self, camp: dict[str, Any], rev: int) -> int | None:
        """Keep ``camp`` (one write) if the kept campaign is still revision ``rev``, the one this tab
        last read or wrote; the new revision, or None when another tab kept one since (nothing is
        written: the page takes the kept one rather than overwrite it). ``rev`` -1: the kept one
        could not be read, and this write replaces it. The check and the write are one transaction
        of the backend (``put_campaign``), so two tabs writing at once cannot both pass it."""
        new = max(rev, 0) + 1
        text = json.dumps({"rev": new, "campaign": camp}, ensure_ascii=False)
        got = await self.backend.put_campaign(text, rev)
        return new if got.get("ok") else None

    async def migrate(self, items: dict[str, str]) -> bool:
        """Copy localStorage's library in (once, in one transaction). True if this call did."""
        if await self.backend.meta("migrated") is True:
            return False
        return bool(await self.backend.migrate(migration_plan(items)))


def broken_text(save: str, rows: list[Any]) -> str:
    """What is kept for download when a load fails: the save's own text when no journal follows
    it, else one JSON object holding the save's text and every journal row as stored."""
    if not rows:
        return save
    return json.dumps({"format": "fray-autosave-journal", "save": save, "journal": rows}, ensure_ascii=False)


class MemoryBackend:
    """``static/store.js`` in memory: for tests and for a browser that refuses storage."""

    def __init__(self) -> None:
        self.entries: dict[str, Any] = {}
        self.saves: dict[str, dict[str, Any]] = {}
        self.journal: dict[tuple[str, int], dict[str, Any]] = {}  # [key, rev] -> row, as IndexedDB keys it
        self.broken: dict[str, str] = {}
        self.metas: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.rest_asked = 0  # how often get_split's rest was asked for (tests)

    async def list(self) -> dict[str, Any]:
        return {"entries": [dict(e) if isinstance(e, dict) else e for e in self.entries.values()],
                "keys": list(self.saves)}

    def _rows(self, key: str) -> list[dict[str, Any]]:
        return [self.journal[k] for k in sorted(k for k in self.journal if k[0] == key)]

    def _head(self, key: str) -> int:
        rows = self._rows(key)
        row = self.saves.get(key)
        saved = row["rev"] if row is not None and _whole(row.get("rev")) else 0
        return max([saved] + [r["rev"] for r in rows])

    async def get(self, key: str) -> dict[str, Any] | None:
        row = self.saves.get(key)
        if row is None:
            return None
        base = row["rev"] if _whole(row.get("rev")) else 0
        rows = [{"rev": r["rev"], "moves": r["moves"], "by": r.get("by")} for r in self._rows(key) if r["rev"] > base]
        return {"text": row["text"], "rev": max([base] + [r["rev"] for r in rows]), "base": base,
                "journal": rows, "by": rows[-1]["by"] if rows else row.get("by")}

    async def get_split(self, key: str) -> dict[str, Any] | None:
        """``get``, the text cut where its checkpoints begin as static/store.js getSplit cuts it."""
        row = await self.get(key)
        if row is None:
            return row
        text = row["text"]
        m = savefile.SPLIT_AT.search(text)
        if m is None or not text.endswith("]}}"):
            return row
        self.rest_asked = 0

        def rest() -> str:
            self.rest_asked += 1
            return text[m.end():]
        return {**row, "text": text[:m.end()], "rest": rest, "size": len(text)}

    async def revision(self, key: str) -> int:
        return self._rev(key)

    def _rev(self, key: str) -> int:
        e = self.entries.get(key)
        if isinstance(e, dict) and _whole(e.get("rev")):
            return e["rev"]
        return self._head(key)

    def _drop_rows(self, key: str) -> None:
        for k in [k for k in self.journal if k[0] == key]:
            del self.journal[k]

    async def save(self, key: str, text: str, name: str, ruleset: str, expected: int,
                   by: str | None = None) -> dict[str, Any]:
        stored = self._rev(key)
        if stored != expected:
            return {"ok": False, "rev": stored}
        self.saves[key] = {"text": text, "rev": stored + 1, "by": by}
        self._drop_rows(key)
        self.entries[key] = {"key": key, "name": name, "ruleset": ruleset, "rev": stored + 1}
        self.metas["current"] = key
        return {"ok": True, "rev": stored + 1}

    async def append(self, key: str, moves: str, name: str, ruleset: str, expected: int,
                     by: str | None = None) -> dict[str, Any]:
        stored = self._rev(key)
        if stored != expected or expected < 1:
            return {"ok": False, "rev": stored}
        self.journal[(key, stored + 1)] = {"key": key, "rev": stored + 1, "moves": moves, "by": by}
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

    async def put_campaign(self, text: str, expected: int) -> dict[str, Any]:
        """static/store.js putCampaign: ``text`` kept if the kept campaign is still revision ``expected``."""
        try:
            stored = Library._campaign_rev(self.metas.get("campaign"))[0]
        except SaveFileError:
            stored = -1
        if stored != expected:
            return {"ok": False, "rev": stored}
        self.metas["campaign"] = text
        return {"ok": True, "rev": max(stored, 0) + 1}

    async def get_broken(self, key: str) -> str | None:
        return self.broken.get(key)

    async def put_broken(self, key: str, text: str) -> None:
        self.broken[key] = text

    async def forget(self, key: str) -> None:
        for store in (self.entries, self.saves, self.broken):
            store.pop(key, None)
        self._drop_rows(key)

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
            self._drop_rows(key)
            self.entries[key] = {"key": key, "name": s["name"], "ruleset": s["ruleset"], "rev": 1}
        for b in plan["broken"]:
            self.broken[moved.get(b["key"], b["key"])] = b["text"]
        if isinstance(plan.get("current"), str) and "current" not in self.metas:
            self.metas["current"] = moved.get(plan["current"], plan["current"])
        self.metas["migrated"] = True
        return True

    def listen(self, callback: Any) -> bool:
        return False  # one tab: nobody else to hear from

    def on_version_change(self, callback: Any) -> None:
        pass  # no database: no newer Fray can take it

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

    async def get_split(self, key: str) -> dict[str, Any] | None:
        return _py(await self.js.getSplit(key))

    async def revision(self, key: str) -> int:
        return _py(await self.js.revision(key))

    async def save(self, key: str, text: str, name: str, ruleset: str, expected: int,
                   by: str | None = None) -> dict[str, Any]:
        # as ASCII JSON: Pyodide copies an ASCII string into JavaScript far sooner (savefile.ascii_json)
        return _py(await self.js.save(key, savefile.ascii_json(text), name, ruleset, expected, by))

    async def append(self, key: str, moves: str, name: str, ruleset: str, expected: int,
                     by: str | None = None) -> dict[str, Any]:
        return _py(await self.js.append(key, savefile.ascii_json(moves), name, ruleset, expected, by))

    def on_version_change(self, callback: Any) -> None:
        self.js.onVersionChange(callback)

    async def repair(self, fix: list[dict[str, Any]], drop: list[str]) -> None:
        await self.js.repair(json.dumps(fix), json.dumps(drop))

    async def set_current(self, key: str) -> None:
        await self.js.setCurrent(key)

    async def meta(self, name: str) -> Any:
        return _py(await self.js.meta(name))

    async def put_meta(self, name: str, value: Any) -> None:
        await self.js.putMeta(name, value)

    async def put_campaign(self, text: str, expected: int) -> dict[str, Any]:
        return _py(await self.js.putCampaign(text, expected))

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
