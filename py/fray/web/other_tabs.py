"""Another tab or window on the same library: its saves and deletions heard, the GM asked to
choose when the open encounter was changed elsewhere (load the newer version, or keep this tab's as
a copy). ``App`` (web/app.py) inherits this.
"""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]

from .dom import by_id
from . import players_view
from .saving import copy_name
from .store import MissingSave
from .uistate import UiState

document = js.document


class OtherTabs:
    # -- other tabs -------------------------------------------------------------------------------
    def on_broadcast(self, text: str) -> None:
        """Another tab committed a save or deleted an encounter (static/store.js ``announce``)."""
        try:
            msg = json.loads(str(text))
        except ValueError:
            return
        if not isinstance(msg, dict) or msg.get("tab") == self.tab:
            return
        if self.heard_fold(msg):
            return
        key, rev = msg.get("key"), msg.get("rev")
        if key == self.key and key in self.revs and isinstance(rev, int):
            # A message can arrive after this tab has already read that revision (or a later one).
            if (msg.get("kind") == "deleted" or rev > self.revs[key]) and self.conflict is None:
                self.changed_elsewhere(0 if msg.get("kind") == "deleted" else rev)
        self.spawn(self.refresh_list())

    def on_visible(self, event: Any = None) -> None:
        """A tab coming back (a tablet wakes it) checks what it may have missed."""
        if document.visibilityState == "visible" and self.key in self.revs:
            self.spawn(self._check_revision())

    async def _check_revision(self) -> None:
        key = self.key
        rev = await self.lib.revision(key)
        if (key == self.key and key in self.revs and rev != self.revs[key] and self._writer is None
                and not self._dirty and self.conflict is None):
            self.changed_elsewhere(rev)
        await self.refresh_list()

    async def refresh_list(self) -> None:
        await self.lib.entries()
        self.paint_select()

    def changed_elsewhere(self, rev: int) -> None:
        """The open encounter's save is not the one this tab holds: hold every write and ask."""
        self.conflict = rev
        if rev == 0:
            text = ("This encounter was deleted in another tab or window. What is on screen here is not saved.")
            actions = [("Open another encounter", "conflict-reload"), ("Keep mine as a copy", "conflict-copy")]
        else:
            text = ("This encounter was changed in another tab or window. Nothing here has overwritten it, "
                    "and changes made here are not saved until you choose.")
            actions = [("Load the newer version", "conflict-reload"), ("Keep mine as a copy", "conflict-copy")]
        self.banner(text, actions=actions)
        self.show_save_state()

    async def load_newer(self) -> None:
        """The GM chose the other tab's version (what is on screen here is dropped)."""
        key = self.key
        await self.flush()
        try:
            h, rev = await self.lib.load(key)
        except MissingSave:
            await self.lib.entries()
            await self.open_next()
            return
        except Exception as e:  # kept aside by Library.load
            await self.broken_save(key, e)
            return
        self.history, self.revs[key], self.conflict, self.ui = h, rev, None, UiState()
        by_id("banner").hidden = True
        self.clear_errors()
        self.show_save_state()
        self.render()
        players_view.publish(self)  # another encounter on screen: the players' window follows

    def keep_copy(self) -> None:
        """The GM keeps both: this tab's encounter is saved under a new key, renamed "(copy)";
        the other tab's save stays as it is."""
        if not self.check_resumed():
            return
        self.history.do({"type": "rename_encounter", "name": copy_name(self.enc.name)})
        self.key, self.conflict = self.free_key(), None
        by_id("banner").hidden = True
        self.after_change()
