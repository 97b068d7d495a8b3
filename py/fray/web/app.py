"""The page's listeners and its loop.

One delegated listener per event kind (click, submit, keydown, toggle) on the document hands a
``data-act`` button or a ``data-form`` form to its route (``web/routes.py``: the page's table and
the open game's); every change of the encounter goes through the one loop (``web/controller.py``:
dispatch -> history -> persist -> render). An engine error is shown next to the control that
caused it and the encounter is left exactly as it was: ``History.do`` only commits after the
reducer succeeded.

What the page does besides lives in modules named for it, which ``App`` inherits: the boot
(``booting.py``), drawing (``painter.py``), the autosave (``saving.py``, ``autosave.py``), other
tabs (``other_tabs.py``), messages and the dialog (``messages.py``), the combatant dialog
(``combatant_dialog.py``), the library's encounters (``encounters.py``), the tracker's moves
(``tracker_moves.py``), the library's dialogs (``library_dialogs.py``). The view state the GM
makes (open cards, each game's part) is ``app.ui`` (``uistate.py``).
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import traceback
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from ..history import History
from ..reducer import new_encounter
from fray.games import PLAIN, get_ruleset
from . import drafts, mapctl, players_view, routes, stripctl
from .autosave import Autosave
from .booting import Booting, mark
from .combatant_dialog import CombatantDialog
from .controller import Controller
from .dom import by_id, data, fold_states, nil
from .encounters import Encounters
from .forms import form_values, restore_typed, typed_forms
from .library_dialogs import LibraryDialogs, read_picked  # noqa: F401 - read_picked: the page's one file reader
from .messages import Messages
from .other_tabs import OtherTabs
from .painter import Painter
from .panels import panel_for
from .saving import Saving
from .store import Library, MemoryBackend
from .tracker_moves import TrackerMoves
from .uistate import UiState

document = js.document


class App(Booting, LibraryDialogs, Painter, Autosave, Saving, OtherTabs, Messages, CombatantDialog, Encounters,
          TrackerMoves):
    def __init__(self) -> None:
        self.rng = random.Random(int.from_bytes(os.urandom(8), "big"))
        self.ui = UiState()  # short-lived view state (open cards, the map's selection, each panel's part), never saved
        self._painted: dict[str, Any] = {}  # the markup last written to each region
        self._props: dict[tuple[str, str], Any] = {}  # the toolbar's properties last set (Painter.paint_prop)
        self._proxies: list[Any] = []
        self.tab = f"{self.rng.getrandbits(64):016x}"  # tells this tab's broadcasts from others'
        self.lib = Library(MemoryBackend(), self.tab)
        self.in_memory = False  # the browser refused its database: nothing outlives the tab
        self.key = "e1"
        self.history = History(new_encounter(PLAIN, "First encounter"))  # a stand-in until the boot reads the library
        # The revision of each save as this tab last loaded or wrote it (0: never saved).
        self.revs: dict[str, int] = {}
        self.conflict: int | None = None  # a newer revision of the open encounter, from another tab
        self._dirty: dict[str, History] = {}  # encounters changed since their last committed write
        self._writer: asyncio.Task | None = None
        self._fold_keys: set[str] = set()  # encounters whose journal is to be folded into their save
        self.save_failed: str | None = None
        self.broken: tuple[str, str | None] | None = None  # an unreadable save: (key, its text)
        self._view_kept: dict[str, dict[str, Any]] = {}  # Ruleset.view_kept's reuse, per ruleset
        self._card_memo: dict[str, Any] = {}  # each card's markup and what it was made of (web/painter.py)
        self._keeping = False  # each render is kept for the next boot's first paint once the page started
        self.templates: list[dict[str, Any]] = []  # the GM's bestiary (fray.bestiary)
        self.bestiary_broken = False
        self._setting_aside = False  # a resumed save found wrong is being set aside (check_resumed)
        self._checking: asyncio.Task | None = None
        self.loop = Controller(self)  # dispatch -> history -> persist -> render
        self.narrow = False  # a tablet's width (up to 900 px): kept by a listener, read by rendering

    # -- wiring -------------------------------------------------------------------------------
    def start(self) -> None:
        self._listen(document, "click", self.on_click)
        self._listen(document, "submit", self.on_submit)
        self._listen(document, "keydown", self.on_key)
        self._listen(by_id("file-import"), "change", self.on_import)
        self._listen(by_id("encounter-select"), "change", self.on_switch)
        self._listen(document, "visibilitychange", self.on_visible)
        # a fold-out drawn shut without its body (``data-fold-lazy``: a strike-rank attack waiting
        # its SR, a tactical-round declaration among many) opens: render, and it is drawn open
        self._listen(document, "toggle", self.on_toggle, capture=True)
        # the screen's width as the page's CSS sees it, learnt here and when it changes (a tablet
        # turned), so that rendering reads the state, never the page
        width = js.window.matchMedia("(max-width: 900px)")
        self.narrow = bool(width.matches)
        self._listen(width, "change", self.on_width)
        p = create_proxy(self.on_broadcast)
        self._proxies.append(p)
        self.lib.backend.listen(p)
        self.watch_hiding()
        self.watch_version()
        for i in ("btn-new", "btn-delete", "btn-undo", "btn-redo", "btn-export", "btn-tables", "btn-party", "file-import",
                  "encounter-select"):
            by_id(i).disabled = False
        self._props.clear()  # the toolbar set above, not by the render: its next render sets it whole
        by_id("btn-import-label").removeAttribute("aria-disabled")
        by_id("btn-new").dataset.act = "new-encounter"
        by_id("btn-delete").dataset.act = "delete-encounter"
        by_id("btn-undo").dataset.act = "undo"
        by_id("btn-redo").dataset.act = "redo"
        by_id("btn-history").dataset.act = "history"
        by_id("btn-export").dataset.act = "export"
        by_id("btn-tables").dataset.act = "tables"
        by_id("btn-party").dataset.act = "party"
        by_id("tab-tracker").dataset.act = "show-tracker"
        by_id("tab-map").dataset.act = "show-map"
        try:
            js.navigator.storage.persist()
        except Exception:
            pass  # not offered by every browser; the autosave works without it
        mapctl.install(self)
        stripctl.install(self)
        players_view.install(self)
        drafts.install(self)
        if self.key not in self.revs:  # a fresh encounter: in the library from the start
            self.persist()
        self.show_save_state()
        self._keeping = True
        # Resumed over the kept drawing (static/first-paint.js): the map is drawn in the task
        # after the page is ready, while the drawing's map stays on screen in its place; the
        # tracker, whose controls the GM reaches for first, is live without waiting for it (the
        # map was a third of this first render at 30 combatants).
        self.map_later = bool(getattr(getattr(js.globalThis, "frayFirstPaint", None), "shown", False))
        mark("fray:wired")
        # the fold-outs as the page shows them now (the kept drawing of the last visit): from here on
        # the toggle listener and each render keep ``ui.folds``, and rendering reads no page
        self.ui.folds = fold_states("details[data-fold]")
        self.ui.folds_drawn = set(fold_states("details[data-fold-drawn]"))
        self.render()
        drafts.restore(self)  # the dice typed before a reload, back where they were typed
        mark("fray:rendered")
        by_id("loading").hidden = True
        if self.map_later:  # the drawing keeps its map on screen until this one is drawn
            document.documentElement.dataset.map = "later"
        document.documentElement.dataset.engine = "ready"
        if self.map_later:
            js.setTimeout(create_once_callable(self.draw_map_later), 0)

    def draw_map_later(self) -> None:
        """The map of the first render, drawn once the page is ready (``start``)."""
        if not self.map_later:
            return
        self.map_later = False
        try:
            mapctl.render(self)
        except Exception as e:  # noqa: BLE001 - as a render's: said, the encounter untouched
            traceback.print_exc()
            self.banner(f"The map could not be drawn ({type(e).__name__}: {e}). The encounter is saved.")
        mark("fray:map")
        document.documentElement.dataset.map = "drawn"
        self.keep_paint()

    def on_toggle(self, event: Any) -> None:
        """A fold-out the page keeps open or shut (``data-fold``) opened or shut: its state goes into
        the page's view state (``ui.folds``), which the panels read as they render, so the one that
        just opened comes back open, with its body (a lazy fold-out is drawn empty until then).
        Any other is drawn again at once as it now is: its markup says open or shut, so otherwise
        the next render for another reason would find it changed and rewrite it, and what the GM
        typed in it with it. A toggle that leaves it as the last render drew it (the toggle of an
        element that render wrote) draws nothing."""
        d = nil(event.target)
        if d is None or not hasattr(d, "hasAttribute") or not d.hasAttribute("data-fold"):
            return
        if not getattr(d, "isConnected", True):
            return  # replaced by a render since: the page no longer shows it
        key = str(d.getAttribute("data-fold"))
        is_open = bool(getattr(d, "open", False))
        drawn = self.ui.folds.get(key, is_open)
        self.ui.folds[key] = is_open
        if d.hasAttribute("data-fold-lazy"):
            if not is_open:
                return
        elif drawn == is_open:
            return
        # the form holding the fold-out is drawn again with its body: what the GM typed in it
        # (dice, a target, a tick) and in any other form the render rewrites stays as typed
        root = document.querySelector("main.panes")
        typed = typed_forms(root) if root is not None else {}
        self.render()
        if root is not None:
            restore_typed(root, typed)

    def on_width(self, event: Any) -> None:
        self.narrow = bool(event.matches)
        self.render()

    def _listen(self, target: Any, event: str, fn: Callable, capture: bool = False) -> None:
        """``capture``: for an event that does not bubble (``toggle``), caught on its way down."""
        p = create_proxy(fn)
        self._proxies.append(p)
        target.addEventListener(event, p, capture)

    # -- engine calls ---------------------------------------------------------------------------
    @property
    def enc(self):
        return self.history.present

    @property
    def ruleset(self):
        return get_ruleset(self.enc.ruleset)

    def dispatch(self, action: dict[str, Any], scope: Any = None, field_map: Callable[[str], str] | None = None) -> bool:
        """Apply one action through the loop (``web/controller.py``)."""
        return self.loop.dispatch(action, scope, field_map)

    def after_change(self) -> None:
        self.loop.after_change()

    # -- events ---------------------------------------------------------------------------------
    def on_click(self, event: Any) -> None:
        el = nil(event.target.closest("[data-act]"))
        if el is None or el.disabled:
            return
        act = data(el, "act")
        try:
            self.act(act, el, event)
        except Exception as e:  # a bug must not blank the page: say it, keep the encounter
            traceback.print_exc()
            self.banner(f"Something went wrong: {e}. The encounter is unchanged.")

    def act(self, act: str, el: Any, event: Any) -> None:
        routes.act(self, panel_for(self.enc.ruleset), act, el)

    def on_submit(self, event: Any) -> None:
        form = event.target
        name = data(form, "form")
        if not name:
            return
        event.preventDefault()
        try:
            self.submit(name, form)
        except Exception as e:
            traceback.print_exc()
            self.banner(f"Something went wrong: {e}. The encounter is unchanged.")

    def submit(self, name: str, form: Any) -> None:
        routes.submit(self, panel_for(self.enc.ruleset), name, form, form_values(form))

    def on_switch(self, event: Any) -> None:
        self.in_background(self.switch_to(event.target.value))

    def on_key(self, event: Any) -> None:
        tag = (event.target.tagName or "").lower()
        if tag in ("input", "textarea", "select"):
            return
        dlg = by_id("dlg")
        if dlg is not None and dlg.open:
            return  # undo behind an open form would leave the form showing what no longer is
        if event.altKey and event.key in ("ArrowUp", "ArrowDown") and data(event.target, "act") == "strip-open":
            # the keyboard route among equals in the order strip (drag is the pointer's)
            other = data(event.target, "up" if event.key == "ArrowUp" else "down")
            event.preventDefault()
            if other:
                self.settle_tie(data(event.target, "id"), "before" if event.key == "ArrowUp" else "after", other)
            return
        if (event.ctrlKey or event.metaKey) and event.key.lower() == "z":
            event.preventDefault()
            self.act("redo" if event.shiftKey else "undo", event.target, event)
        elif (event.ctrlKey or event.metaKey) and event.key.lower() == "y":
            event.preventDefault()
            self.act("redo", event.target, event)

APP: App | None = None


def main() -> None:
    global APP
    # The interpreter's start, the engine (frozen in the snapshot already: scripts/snapshot.mjs),
    # PyScript and this web layer live as long as the page: the cyclic garbage collector need not
    # walk them again. With them in its sight a whole collection took 53 ms in the page (51,000
    # objects; 8 ms without them), and the first load of a long fight, which met one, 32 ms
    # instead of 11. What the page makes from here on (encounters, histories) is collected as before.
    gc.freeze()
    mark("fray:main")
    APP = App()

    async def boot() -> None:
        try:
            await APP.boot()
        except Exception:  # the page must say so rather than spin on "loading" for ever
            traceback.print_exc()
            APP.banner("Fray could not start: reload the page. Your saved encounters are untouched.")
            document.documentElement.dataset.engine = "failed"  # the first-paint copy steps aside

    asyncio.ensure_future(boot())
