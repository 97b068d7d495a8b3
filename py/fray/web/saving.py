"""The autosave's writer: every change queues a write of the open encounter, which is committed
to IndexedDB in the background (``web/store.py``), never over another tab's newer save.

``App`` (web/app.py) inherits this; ``web/autosave.py`` folds the journal of moves into the save.
Each write carries the revision this tab last loaded or wrote, so a save another tab made since is
never overwritten: the GM is told and chooses (``web/other_tabs.py``). The header's save state
says "Saving…" until the browser has committed the write, then "Saved".
"""

from __future__ import annotations

import asyncio
import traceback
from typing import Any

from ..history import History
from .dom import by_id
from .store import new_key


def copy_name(name: str) -> str:
    """The name of the copy a GM keeps when another tab changed the same encounter."""
    suffix = " (copy)"
    return name[:60 - len(suffix)].rstrip() + suffix


class Saving:
    def persist(self) -> None:
        """Queue a write of the open encounter. The page says "Saving…" until it is committed."""
        self._dirty[self.key] = self.history
        self.fold_left_behind()
        if self.conflict is not None:  # the choice comes back with every change until it is made
            self.changed_elsewhere(self.conflict)
        self.show_save_state()
        if self._writer is None:
            self._writer = self._start_writing()

    def _start_writing(self) -> Any:
        """Start ``_write_all`` with its first step run now (an eager task), so the journal row
        is handed to IndexedDB inside the click and the browser commits it while the page is
        drawn; started on the next turn of the loop, the write waited for the render and the
        frame (about 10 ms of the 50 a click may take at 30 combatants). None: it finished
        already (nothing to write)."""
        coro = self._write_all()
        try:
            task = asyncio.Task(coro, loop=asyncio.get_event_loop(), eager_start=True)
        except TypeError:  # a Python before 3.14 has no eager start: the next turn of the loop
            return asyncio.ensure_future(coro)
        return None if task.done() else task

    async def _write_all(self) -> None:
        """Write every changed encounter, one transaction each, until none is left, then fold the
        journals asked for (``Autosave.fold``). A burst of clicks during a write is one more write
        (its journal row holds every move they made)."""
        try:
            while self._dirty or self._fold_keys:
                if not self._dirty:
                    try:
                        await self.fold(self._fold_keys.pop())
                        self.fold_failed = None
                    except Exception as e:  # quota or a refusing browser: every change is already in the journal
                        traceback.print_exc()
                        self.fold_failed = str(e)  # the next try waits for the page to be idle (fold_later)
                        self.banner(f"Autosave could not rewrite the save whole ({e}). Every change is "
                                    "saved; use Export to keep a copy of this encounter.")
                    continue
                key = next(iter(self._dirty))
                h = self._dirty.pop(key)
                if key == self.key and self.conflict is not None:
                    continue  # held here until the GM chooses: never over another tab's save
                expected = self.revs.get(key, 0)
                if self.replaced:
                    continue  # the database belongs to a newer Fray now: said in the banner
                try:
                    res = await self.lib.write(key, h, expected)
                except Exception as e:  # quota or a refusing browser: the fight goes on, the GM is told
                    traceback.print_exc()
                    self.save_failed = str(e)
                    self.banner(f"Autosave failed ({e}); use Export to keep this encounter.")
                    continue
                if res.ok:
                    self.revs[key] = res.rev
                    self.save_failed = None
                    self._listed(key, h)
                    self.lib.backend.announce({"kind": "saved", "key": key, "rev": res.rev, "tab": self.tab})
                elif expected == 0:
                    # Another tab's new encounter took this key a moment ago: this one takes the next.
                    fresh = self.free_key()
                    if self.key == key:
                        self.key = fresh
                    self._dirty = {fresh: h, **self._dirty}
                elif key == self.key:
                    self.changed_elsewhere(res.rev)
                else:  # switched away meanwhile (switching waits for writes, so hardly ever): keep it
                    h.do({"type": "rename_encounter", "name": copy_name(h.present.name)})
                    self._dirty[self.free_key()] = h
        finally:
            self._writer = None
            self.show_save_state()
            self.paint_select()
            if not self._dirty:
                if self.save_failed is None:  # a failed write's moves stay kept until one commits
                    self.drop_pending()
                self.fold_later()

    async def flush(self) -> None:
        """Wait until every queued write is committed (before reading a save back)."""
        while self._writer is not None:
            await self._writer

    def free_key(self) -> str:
        return new_key([e["key"] for e in self.lib.cached] + list(self.revs) + list(self._dirty) + [self.key])

    def _listed(self, key: str, h: History) -> None:
        """Keep the drawn library list in step with a committed write."""
        entry = {"key": key, "name": h.present.name, "ruleset": h.present.ruleset, "rev": self.revs.get(key, 0)}
        for i, e in enumerate(self.lib.cached):
            if e["key"] == key:
                self.lib.cached[i] = entry
                return
        self.lib.cached.append(entry)

    def show_save_state(self) -> None:
        """The header's honest word on the autosave: saved only once the browser committed it."""
        el = by_id("save-state")
        if el is None:
            return
        if self.conflict is not None:
            state, text = "conflict", "Not saved: changed in another tab"
        elif self.save_failed is not None:
            state, text = "failed", "Not saved"
        elif self.in_memory:
            state, text = "memory", "Not kept by this browser"
        elif self._dirty or (self._writer is not None and not self._compacting):
            state, text = "saving", "Saving…"  # folding the journal into the save changes nothing
        else:
            state, text = "saved", "Saved"
        # two writes into the page an action, most of them the same word again: write a change only
        if getattr(self, "_save_state_shown", None) == (state, text) and el.getAttribute("data-state") == state:
            return
        el.dataset.state = state
        el.textContent = text
        self._save_state_shown = (state, text)
