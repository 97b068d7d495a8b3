"""The page's boot: the library opened, the current encounter loaded (its present checked against
its history once the page is ready, ``check_soon``), and what is said when a save cannot be used.
A mixin of ``App`` (web/app.py), as ``Autosave`` and ``LibraryDialogs`` are."""

from __future__ import annotations

import asyncio
import traceback

import js  # type: ignore[import-not-found]
from pyodide.ffi import to_js  # type: ignore[import-not-found]

from .. import savewords
from ..errors import SaveFileError
from ..history import History
from ..reducer import new_encounter
from fray.games import first_ruleset_id, game_installed
from . import players_view
from .store import JsBackend, Library, MissingSave, boot_order, local_items, new_key
from .uistate import UiState


def mark(name: str) -> None:
    """A point of the boot on the page's performance timeline, for make bench to split the boot by."""
    try:
        js.performance.mark(name)
    except Exception:  # noqa: BLE001 - no timeline (CPython tests): nothing to mark
        pass



class Booting:
    # -- boot -----------------------------------------------------------------------------------
    async def boot(self) -> None:
        await self.open_library()
        await self.load_bestiary()
        # the games the GM added, installed before the encounter (it may be one of theirs) opens
        from .games_view import install_kept

        await install_kept(self)
        from . import party_view

        await party_view.load(self)
        mark("fray:library")
        self.key, self.history = await self._boot_encounter()
        mark("fray:loaded")
        try:
            recovered = self.recover_pending()
        except Exception:  # a kept move that does not apply: said and offered; load the save again
            traceback.print_exc()
            self.history, self.revs[self.key] = await self.lib.load(self.key, check=False)
            recovered = False
        self.start()
        if recovered:
            self.persist()  # the closed tab's last moves, written as this tab's first change
        self.check_soon()

    async def open_library(self) -> None:
        try:
            from pyscript.js_modules import fray_store  # type: ignore[import-not-found]

            await fray_store.open()
            self.lib = Library(JsBackend(fray_store), self.tab)
        except Exception as e:  # no IndexedDB (private mode, policy): work in memory, say so
            self.in_memory = True
            self.banner(f"This browser refuses storage ({e}): nothing will be kept after a reload. Use Export.")
            return
        try:
            items = local_items(js.window.localStorage)
        except Exception:  # localStorage refused: there is nothing of an older Fray to bring in
            items = {}
        try:
            await self.lib.migrate(items)
        except Exception as e:  # the old saves stay in localStorage; the next boot tries again
            traceback.print_exc()
            self.banner(f"The encounters saved by an older Fray could not be moved to this browser's database "
                        f"({e}). They are still there; reload to try again.")

    async def _boot_encounter(self, skip: frozenset[str] = frozenset()) -> tuple[str, History]:
        """The current encounter; if its save is gone or unreadable, the next one that loads;
        else a fresh one (which is saved at once, so nothing empty is ever offered). Its present
        is checked against its history once the page is ready (``check_soon``), not before."""
        entries = await self.lib.entries()
        current = await self.lib.current_key()
        for k in boot_order(current, [e["key"] for e in entries]):
            if k in skip:
                continue
            try:
                t0 = js.performance.now()
                h, self.revs[k] = await self.lib.load(k, check=False)
                # what resuming cost, for make bench (bench/resume_bench.py), like globalThis.frayBoot
                js.globalThis.frayResume = to_js({"key": k, "load_ms": js.performance.now() - t0,
                                                  "actions": len(h.actions),
                                                  "combatants": len(h.present.combatants)},
                                                 dict_converter=js.Object.fromEntries)
            except MissingSave:
                continue  # listed a moment ago, deleted since (another tab): nothing to offer
            except Exception as e:  # Library.load keeps the raw save aside whatever went wrong
                if self.broken is None:
                    await self.broken_save(k, e)
                continue
            if k != current:
                await self.lib.set_current(k)
            return k, h
        k = new_key([e["key"] for e in entries] + [current or ""])
        h = History(new_encounter(first_ruleset_id(), "First encounter"))
        return k, h

    # -- a resumed save, checked once the page is ready ----------------------------------------
    def check_soon(self) -> None:
        """The resumed encounter's present is checked against a replay from its last checkpoint
        right after the page is ready, instead of before: the GM sees the live page that much
        sooner (the check is a third of a load). Nothing can change meanwhile: every change asks
        ``check_resumed`` first, and the history itself checks before it changes."""
        if not self.history.present_unchecked:
            return

        async def run() -> None:
            await asyncio.sleep(0)  # after the task that made the page ready
            self.draw_map_later()  # the map the first render left (App.start), before the check
            if self.check_resumed():
                self.render()  # what only the checkpoints could say: Undo's title names the last change
        self._checking = asyncio.ensure_future(run())

    def check_resumed(self) -> bool:
        """True when the open encounter may change. False when its save does not hold (edited
        or corrupted, or this Fray replays its actions differently): it is set aside as a load
        sets aside a save it refuses, the GM is told and offered the raw save, and the next
        encounter is opened; nothing of it was changed."""
        h = self.history
        if self._setting_aside:
            return False
        if not h.present_unchecked:
            return True
        try:
            h.check_present()
            return True
        except SaveFileError as e:
            self._setting_aside = True
            self.spawn(self._set_aside(self.key, e))
            return False

    async def _set_aside(self, key: str, err: SaveFileError) -> None:
        try:
            await self.lib.set_aside(key)
            await self.broken_save(key, err)
            self.key, self.history = await self._boot_encounter(skip=frozenset({key}))
            self.ui, self.conflict = UiState(), None
            if self.key not in self.revs:  # a fresh encounter: in the library from the start
                self.persist()
        finally:
            self._setting_aside = False
        self.clear_errors()
        self.show_save_state()
        self.render()
        players_view.publish(self)
        self.check_soon()  # the encounter opened instead is checked in its turn

    async def broken_save(self, key: str, err: Exception) -> None:
        raw = await self.lib.raw(key)
        if isinstance(err, SaveFileError):  # where in the save, as the GM knows it
            err = savewords.describe(err, raw, advice=False)
        self.broken = (key, raw)
        entry = next((e for e in getattr(self.lib, "cached", []) if isinstance(e, dict) and e.get("key") == key), {})
        if not game_installed(entry.get("ruleset")):  # its game was removed, or did not install
            try:
                game = (await self.lib.game_names()).get(entry.get("ruleset"), entry.get("ruleset"))
            except Exception:  # noqa: BLE001 - the game's own id, then
                game = entry.get("ruleset")
            self.banner(f"{entry.get('name') or 'This encounter'} is an encounter of {game}, a game that is not "
                        "installed in this browser. It is kept: add its game again (New encounter, then "
                        "Add a game\u2026) to open it.",
                        actions=[("Download the raw save", "download-broken")] if raw else None)
            return
        # a closed tab's last moves on it, not applied (Autosave.recover_pending): offered too
        lost = [("Download the unsaved changes", "download-lost")] if self.lost_moves else []
        if raw is None:  # nothing to download: never offer an empty file
            self.banner(f"The saved encounter could not be loaded ({err}).", actions=lost or None)
            return
        self.banner(
            f"The saved encounter could not be loaded ({err}). It is kept untouched; "
            "download it to repair or send it, then carry on with another encounter.",
            actions=[("Download the raw save", "download-broken")] + lost)
