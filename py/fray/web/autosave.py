"""The autosave's housekeeping around ``App._write_all`` (docs/ARCHITECTURE.md, Storage).

- **Folding the journal in.** A change is written as one small journal row (``Library.write``);
  the whole save is rewritten, and the rows deleted with it, once the page has been idle for
  ``IDLE_S`` after its last committed write (``FOLD_SOON_S`` once ``JOURNAL_ROWS`` rows follow
  the save), and before another encounter is opened. Nothing on
  screen changes, so the header keeps saying "Saved" meanwhile.
- **A tab that closes mid-write.** On ``pagehide`` (and when the page is hidden, which is all a
  tablet may say before it drops a page) the moves not committed yet are kept synchronously in
  ``localStorage`` (``fray.pending.<tab>``) with the revision they follow and the write under
  way. The next boot applies them when they follow on from what IndexedDB holds, and writes them
  as its first change; otherwise it says so and offers them for download.
- **A newer Fray upgrading the database** in another tab closes it here: the page stops saving
  and says to reload.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from ..errors import SaveFileError
from .dom import download
from .store import JOURNAL_ROWS, PENDING

# Seconds without a change after a committed journal write before the save is rewritten whole:
# longer than the pause between two taps of a GM running a fight, short enough that a tab left
# alone is folded in before it is put away.
IDLE_S = 2.0
# Seconds after the committed write that brought ``JOURNAL_ROWS`` rows: the fold runs in the
# GM's pause after a change, not inside the next change's write (a whole save's ``savefile.dumps``
# is 27 ms in CPython at 30 combatants and 300 actions, more in the page). A new change re-arms it.
FOLD_SOON_S = 0.05


class Autosave:
    """Mixed into ``App``: the journal's folding, the pending moves of a closing tab, and a
    newer Fray taking the database."""

    _idle: Any = None
    _compacting = False
    fold_failed: str | None = None  # the last fold's error: the next one waits IDLE_S, not FOLD_SOON_S
    replaced = False  # a newer Fray in another tab took the database: nothing is saved here
    lost_moves: str | None = None  # a closed tab's moves that could not be applied, for download
    _pending_kept = True  # this tab's moves may be in localStorage (a boot cannot know): drop_pending removes them

    # -- folding the journal into the save ------------------------------------------------------
    def fold_later(self) -> None:
        """(Re)start the idle timer after a committed write that left journal rows: ``IDLE_S``,
        or only ``FOLD_SOON_S`` once ``JOURNAL_ROWS`` rows follow the save."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        rows = self.lib.journal_rows(self.key)
        if rows > 0 and not self.replaced:
            wait = FOLD_SOON_S if rows >= JOURNAL_ROWS and self.fold_failed is None else IDLE_S
            self._idle = asyncio.get_event_loop().call_later(wait, self._fold_when_idle)

    def _fold_when_idle(self) -> None:
        self._idle = None
        if self._writer is None and not self._dirty and self.conflict is None:
            self._fold_keys.add(self.key)
            self._writer = asyncio.ensure_future(self._write_all())

    async def fold(self, key: str) -> None:
        """Rewrite ``key``'s save whole if journal rows follow it and all it holds is committed
        (called by ``_write_all``): the open encounter, or one the page has just left."""
        w = self.lib.written.get(key)
        if (w is None or key in self._dirty or key not in self.revs or self.replaced
                or (key == self.key and self.conflict is not None)):
            return  # (not in revs: deleted; folding would write it back)
        h = self.history if key == self.key else w.history
        expected = self.revs.get(key, 0)
        self._compacting = True
        try:
            res = await self.lib.compact(key, h, expected)
        finally:
            self._compacting = False
        if key != self.key:
            self.lib.written.pop(key, None)  # left behind: a later switch back loads it again
        if res is None:
            return
        if res.ok:
            self.revs[key] = res.rev
            # the same encounter at a new revision: a tab holding the old one carries on from it
            self.lib.backend.announce({"kind": "folded", "key": key, "rev": res.rev, "from": expected,
                                       "tab": self.tab})
        elif key == self.key:
            self.changed_elsewhere(res.rev)
        # else: another tab wrote the one left behind since; everything of this tab's was committed

    def fold_left_behind(self) -> None:
        """The encounters this tab wrote and has since left (a new one, an import, a copy): their
        journals are folded in by the next write."""
        for k in list(self.lib.written):
            if k != self.key and k not in self._dirty:
                if self.lib.journal_rows(k) > 0:
                    self._fold_keys.add(k)
                else:
                    self.lib.written.pop(k, None)

    async def fold_now(self) -> None:
        """Before another encounter opens: every write committed and the journal folded in."""
        await self.flush()
        if self.lib.journal_rows(self.key) > 0 and self.conflict is None:
            self._fold_keys.add(self.key)
            if self._writer is None:
                self._writer = asyncio.ensure_future(self._write_all())
            await self.flush()

    def heard_fold(self, msg: dict[str, Any]) -> bool:
        """Another tab folded its journal into the save of the revision this tab holds: the same
        encounter, so this tab follows the new revision instead of calling it a conflict."""
        key, rev, frm = msg.get("key"), msg.get("rev"), msg.get("from")
        if msg.get("kind") != "folded" or key != self.key or not isinstance(rev, int) or not isinstance(frm, int):
            return False
        if self.revs.get(key) != frm or self.conflict is not None:
            return False
        self.revs[key] = rev
        self.lib.follow(key, frm, rev)
        return True

    # -- the moves of a tab that closes mid-write ---------------------------------------------
    def watch_hiding(self) -> None:
        """Keep the pending moves when the page goes away or out of sight."""
        self._listen(js.window, "pagehide", self.keep_pending)
        self._listen(js.document, "visibilitychange", self.keep_pending)

    def _pending_name(self) -> str:
        return PENDING + self.tab

    def keep_pending(self, event: Any = None) -> None:
        """Synchronously, as the page is hidden: the moves not committed yet, in localStorage."""
        if event is not None and getattr(event, "type", "") == "visibilitychange" and \
                js.document.visibilityState != "hidden":
            return
        try:
            kept = None if self.conflict is not None or self.replaced else self.lib.pending(self.key, self.history)
            storage = js.window.localStorage
            if kept is None:
                storage.removeItem(self._pending_name())
            else:
                storage.setItem(self._pending_name(), json.dumps(kept, ensure_ascii=False))
                self._pending_kept = True
        except Exception:  # noqa: BLE001 - storage full or refused: the journal write may still land
            traceback.print_exc()

    def drop_pending(self) -> None:
        """Everything is committed: this tab's kept moves are stale. Removed once after they were
        kept (or once after the boot, which cannot know), not after every commit: each removal is a
        call into the page, and in WebKit each call leaves garbage till a full collection."""
        if not self._pending_kept:
            return
        try:
            js.window.localStorage.removeItem(self._pending_name())
            self._pending_kept = False
        except Exception:  # noqa: BLE001 - localStorage refused: nothing was kept there either
            pass

    def recover_pending(self) -> bool:
        """At boot: apply the moves a closed tab kept for the open encounter, if they follow on
        from what was loaded. True if any were applied (the caller saves them)."""
        try:
            storage = js.window.localStorage
            names = [storage.key(i) for i in range(int(storage.length))]
        except Exception:  # noqa: BLE001 - no localStorage: nothing was kept
            return False
        applied = False
        for name in [n for n in names if isinstance(n, str) and n.startswith(PENDING)]:
            text = storage.getItem(name)
            try:
                kept = json.loads(text)
            except (TypeError, ValueError):
                storage.removeItem(name)
                continue
            if not isinstance(kept, dict) or kept.get("key") != self.key:
                continue  # another encounter's: left for the boot that opens it
            try:
                self.history.check_present()  # a resumed save is checked before anything builds on it
            except SaveFileError:
                # the save itself is wrong (App.check_soon sets it aside and says so): the moves
                # are not applied but kept for download, offered beside the raw save
                self.lost_moves = text
                storage.removeItem(name)
                continue
            try:
                ok = self.key in self.revs and self.lib.recover(self.key, self.history, self.revs[self.key], kept)
            except Exception as e:  # noqa: BLE001 - a move that does not apply: kept for download
                self.lost_moves = text
                self.banner(f"The last changes made before this page was closed could not be applied ({e}). "
                            "They are kept: download them to send or repair.",
                            actions=[("Download the unsaved changes", "download-lost")])
                storage.removeItem(name)
                raise
            if ok:
                applied = True
                js.globalThis.frayRecovered = len(kept.get("moves") or [])  # what a closed tab left, for the tests
            elif not applied:
                self.lost_moves = text
                self.banner("The last changes made before this page was closed were not saved, and the encounter "
                            "was changed elsewhere since, so they were not applied. Download them to keep them.",
                            actions=[("Download the unsaved changes", "download-lost")])
            storage.removeItem(name)
        return applied

    # -- a newer Fray takes the database ---------------------------------------------------------
    def watch_version(self) -> None:
        p = create_proxy(self.on_replaced)
        self._proxies.append(p)
        self.lib.backend.on_version_change(p)

    def on_replaced(self, *args: Any) -> None:
        self.replaced = True
        if self._idle is not None:
            self._idle.cancel()
        self.save_failed = "a newer Fray opened in another tab"
        self.banner("A newer version of Fray was opened in another tab and updated this browser's database. "
                    "This tab no longer saves: reload it to carry on (use Export first to keep changes made "
                    "here since).")
        self.show_save_state()

    def download_lost(self) -> None:
        if self.lost_moves:
            download(f"fray-unsaved-changes-{self.key}.json", self.lost_moves)
