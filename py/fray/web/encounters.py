"""The library's encounters from the page: a new one, deleting the open one, switching to another
(read back from storage while the panes say they are busy), and background steps whose failure
is said in the banner. ``App`` (web/app.py) inherits this.
"""

from __future__ import annotations

import asyncio
import traceback
from typing import Any

import js  # type: ignore[import-not-found]

from ..errors import FrayError
from ..history import History
from ..reducer import new_encounter
from . import players_view
from .dom import q
from .store import MissingSave, boot_order
from .uistate import UiState

document = js.document


class Encounters:
    def create_encounter(self, form: Any, values: dict[str, Any]) -> None:
        self.clear_errors(form)
        try:
            enc = new_encounter(values.get("ruleset", ""), values.get("name", ""))
        except FrayError as e:
            self.show_error(form, e)
            return
        self.key = self.free_key()
        self.history = History(enc)
        self.ui, self.conflict = UiState(), None
        self.close_dialog()
        self.after_change()

    def delete_encounter(self) -> None:
        """Forget the open encounter (and any unreadable copy of it), then open the next one in
        the list or a fresh one: the way out when the browser's storage fills up."""
        if not js.window.confirm(f"Delete the encounter {self.enc.name} from this browser? "
                                 "Export it first if you may want it back."):
            return
        self.in_background(self._delete(self.key))

    async def _delete(self, key: str) -> None:
        await self.flush()
        await self.lib.forget(key)
        self.revs.pop(key, None)
        self.lib.written.pop(key, None)
        self._fold_keys.discard(key)
        self.lib.backend.announce({"kind": "deleted", "key": key, "rev": 0, "tab": self.tab})
        await self.lib.entries()
        await self.open_next()

    async def open_next(self) -> None:
        """Open the first encounter of the list that loads, or a fresh one."""
        self.ui, self.conflict = UiState(), None
        for k in boot_order(None, [e["key"] for e in self.lib.cached]):
            try:
                h, rev = await self.lib.load(k)
            except MissingSave:
                continue
            except Exception as e:  # kept aside by Library.load; try the next one
                await self.broken_save(k, e)
                continue
            self.key, self.history, self.revs[k] = k, h, rev
            await self.lib.set_current(k)
            self.show_save_state()
            self.render()
            players_view.publish(self)  # another encounter on screen: the players' window follows
            return
        ruleset = self.enc.ruleset
        self.key = self.free_key()
        self.history = History(new_encounter(ruleset, "New encounter"))
        self.after_change()

    def busy(self, on: bool) -> None:
        """Mark the tracker and map busy while an encounter is read back from storage (a switch
        waits for a write still under way): assistive technology, and the tests, wait on it."""
        panes = q(document, ".panes")
        if on:
            panes.setAttribute("aria-busy", "true")
        else:
            panes.removeAttribute("aria-busy")

    def in_background(self, coro: Any) -> None:
        """``spawn`` with the panes marked busy until it is done."""
        self.busy(True)

        async def run() -> None:
            try:
                await coro
            finally:
                self.busy(False)
        self.spawn(run())

    async def switch_to(self, key: str) -> None:
        try:
            await self.fold_now()  # committed, and the journal folded in, before anything is read back
            h, rev = await self.lib.load(key)
            await self.lib.set_current(key)
        except Exception as e:  # kept aside by Library.load; the open encounter stays
            if not isinstance(e, MissingSave):
                await self.broken_save(key, e)
            else:
                await self.refresh_list()
            self.render()
            return
        self.key, self.history, self.ui, self.conflict = key, h, UiState(), None
        self.revs[key] = rev
        self.clear_errors()
        self.show_save_state()
        self.render()
        players_view.publish(self)  # another encounter on screen: the players' window follows

    def spawn(self, coro: Any) -> None:
        """Run a storage step in the background; a failure is said in the banner."""
        async def run() -> None:
            try:
                await coro
            except Exception as e:  # noqa: BLE001 - say it, keep the encounter
                traceback.print_exc()
                self.banner(f"Something went wrong: {e}. The encounter is unchanged.")
        asyncio.ensure_future(run())
