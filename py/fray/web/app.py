"""The page's controller: reads controls, calls the engine, renders, autosaves.

One delegated listener per event kind (click, submit, keydown) on the document turns a
``data-act`` button or a ``data-form`` form into an engine call. An engine error is shown next
to the control that caused it (``data-error-for`` = the error's field path) and the encounter is
left exactly as it was: ``History.do`` only commits after the reducer succeeded.

Autosave (``web/store.py``, ``static/store.js``, ``web/autosave.py``): every change queues a
write of the open encounter, a journal row of its moves (now and then the whole save); the
header's save state says "Saving…" until the browser has committed it to IndexedDB, then
"Saved". Each write carries the revision this tab last loaded or wrote, so a save another tab
made since is never overwritten: the GM is told and chooses (load the newer version, or keep
this tab's as a copy).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import traceback
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from .. import bestiary, placing
from ..errors import FrayError, InvalidAction, RuleViolation
from ..gate import parse_json
from ..history import History
from ..reducer import new_encounter
from fray.games import PLAIN, all_rulesets, get_ruleset
from . import render as R
from . import history_view, mapctl, players_view, stripctl
from . import party_view
from .tables_view import tables_form
from .words import field_message, rule_message
from .autosave import Autosave
from .booting import Booting, mark
from .dom import by_id, data, download, nil, q
from .forms import form_values, nest, restore_typed, typed_forms
from .library_dialogs import LibraryDialogs, read_picked  # noqa: F401 - read_picked: the page's one file reader
from .painter import Painter
from .html import fragment, h
from . import games_view
from .panels import panel_for
from .store import Library, MemoryBackend, MissingSave, boot_order, new_key

document = js.document


class App(Booting, LibraryDialogs, Painter, Autosave):
    def __init__(self) -> None:
        self.rng = random.Random(int.from_bytes(os.urandom(8), "big"))
        self.ui: dict[str, Any] = {}  # short-lived view state (open panels), never saved
        self._painted: dict[str, Any] = {}  # the markup last written to each region
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
        p = create_proxy(self.on_broadcast)
        self._proxies.append(p)
        self.lib.backend.listen(p)
        self.watch_hiding()
        self.watch_version()
        for i in ("btn-new", "btn-delete", "btn-undo", "btn-redo", "btn-export", "btn-tables", "btn-party", "file-import",
                  "encounter-select"):
            by_id(i).disabled = False
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
        self.render()
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
        """The panels read their fold-outs' state from the page as they render, so the one that
        just opened comes back open, with its body (a lazy fold-out is drawn empty until then).
        Any other fold-out the page keeps open or shut (``data-fold``) that the GM opened or shut
        is drawn again at once as it now is: its markup says open or shut, so otherwise the next
        render for another reason would find it changed and rewrite it, and what the GM typed in
        it with it. A toggle that leaves it as the last render drew it (the toggle of an element
        that render wrote) draws nothing."""
        d = nil(event.target)
        if d is None or not hasattr(d, "hasAttribute") or not d.hasAttribute("data-fold"):
            return
        is_open = bool(getattr(d, "open", False))
        if d.hasAttribute("data-fold-lazy"):
            if not is_open:
                return
        elif getattr(self, "folds_drawn", {}).get(str(d.getAttribute("data-fold")), is_open) == is_open:
            return
        # the form holding the fold-out is drawn again with its body: what the GM typed in it
        # (dice, a target, a tick) and in any other form the render rewrites stays as typed
        root = document.querySelector("main.panes")
        typed = typed_forms(root) if root is not None else {}
        self.render()
        if root is not None:
            restore_typed(root, typed)

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
        """Apply one action. On an engine error, show it in ``scope`` and change nothing."""
        if not self.check_resumed():
            return False
        self.clear_errors(scope)
        self.last_error = None
        try:
            self.history.do(action, self.rng)
        except FrayError as e:
            self.last_error = e  # a panel may answer a refusal of its own kind (strike-rank: more dice)
            self.show_error(scope, e, field_map)
            return False
        self.say_undo("")  # a new change: what Undo last said is no longer the news
        self.after_change()
        return True

    def history_go(self, point: int) -> None:
        """Jump to a point of the history list: that many undos (or redos) at once."""
        if not self.check_resumed():
            return
        h = self.history
        before = h.cursor
        try:
            moved = h.go_to(point)
        except Exception as e:  # a save its actions contradict, or a stale list: say it, move nothing
            self.banner(f"Could not go to that point: {e}. The encounter is unchanged.")
            return
        if not moved:
            return
        self.after_change()
        n = abs(point - before)
        try:  # naming the point may replay states of a resumed history: the move itself is done
            where = h.label(point - 1) if point else "the start"
        except Exception:  # noqa: BLE001 - say where without the name
            where = f"point {point}"
        self.say_undo(f"{'Undid' if point < before else 'Redid'} {n} change{'s' if n != 1 else ''}, "
                      f"{'back to' if point < before else 'up to'}: {where}")
        try:
            self.open_dialog(history_view.history_html(h, self.ui.get("history_shown", history_view.PAGE), self.enc.name))
        except Exception as e:  # noqa: BLE001 - the list could not be drawn; the encounter moved as asked
            self.close_dialog()
            self.banner(f"Moved to {where}; the history list could not be drawn ({e}).")

    def say_undo(self, text: str) -> None:
        """The toast saying what Undo, Redo or the history list just changed (a live region; "" hides it)."""
        el = by_id("undo-said")
        if el is None:
            return
        el.textContent = text
        # a toast over the page's foot (static/app.css .undo-said): its fade starts again with each
        # sentence, and it keeps clear of a focused form near the bottom by standing at the top
        el.classList.remove("at-top", "shown")
        _ = el.offsetWidth  # the reflow that makes the fade start over
        el.classList.add("shown")
        focused = nil(document.activeElement)
        if text and focused is not None and focused.closest("form") is not None:
            if focused.getBoundingClientRect().bottom > js.window.innerHeight * 0.6:
                el.classList.add("at-top")

    def after_change(self) -> None:
        self.persist()
        self.clear_errors()  # regions that do not change are not re-written: drop stale messages
        self.render()
        players_view.publish(self)

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
                    h.do({"type": "rename_encounter", "name": _copy_name(h.present.name)})
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
        self.history, self.revs[key], self.conflict, self.ui = h, rev, None, {}
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
        self.history.do({"type": "rename_encounter", "name": _copy_name(self.enc.name)})
        self.key, self.conflict = self.free_key(), None
        by_id("banner").hidden = True
        self.after_change()

    def spawn(self, coro: Any) -> None:
        """Run a storage step in the background; a failure is said in the banner."""
        async def run() -> None:
            try:
                await coro
            except Exception as e:  # noqa: BLE001 - say it, keep the encounter
                traceback.print_exc()
                self.banner(f"Something went wrong: {e}. The encounter is unchanged.")
        asyncio.ensure_future(run())

    # -- errors ---------------------------------------------------------------------------------
    def clear_errors(self, scope: Any = None) -> None:
        root = scope or document
        # only the slots holding a message: a 200-combatant page has thousands of empty ones, and
        # each one reached from Python is a crossing into JavaScript
        for el in root.querySelectorAll("[data-error-for]:not(:empty)"):
            el.textContent = ""
        for el in root.querySelectorAll("[aria-invalid]"):
            el.removeAttribute("aria-invalid")

    def show_error(self, scope: Any, err: Exception, field_map: Callable[[str], str] | None = None,
                   focus: bool = True) -> None:
        many = getattr(err, "errors", None)
        if many:
            # every field's error at once, each beside its field; the first bad field has the focus
            for i, each in enumerate(many):
                self.show_error(scope, each, field_map, focus=i == 0)
            return
        root = scope or document
        key = getattr(err, "field", None) or ""
        if isinstance(err, RuleViolation):
            key = ""
        original = key
        if field_map and key:
            key = field_map(key)
        msg = err.message if isinstance(err, InvalidAction) else str(err)
        if isinstance(err, RuleViolation):
            msg = rule_message(msg, err.rule)
        slot = None
        probe = key
        while probe:
            slot = q(root, f'[data-error-for="{_css(probe)}"]')
            if slot is not None:
                break
            probe = probe.rpartition(".")[0]
        if slot is None:
            slot = q(root, "[data-error-for]") if scope is not None else None
        if slot is None:
            self.banner(msg if isinstance(err, RuleViolation) else str(err))
            return
        slot.setAttribute("role", "alert")  # announced to screen readers as it appears
        field = nil(slot.closest("[data-field]"))
        label = q(field, "label") if field is not None else None
        # in the form's words: its label as the subject, or which part of a box of many fields
        # ("Weapon 1: type must be one of …"), never the engine's dotted path
        said = field_message(original, msg, str(label.textContent) if label is not None else "",
                             original if probe == original else (key if key != original else probe or "form"))
        old = str(slot.textContent or "")
        slot.textContent = f"{old} {said}" if old and said not in old else said
        if field is not None:
            ctl = q(field, "input, select, textarea")
            if ctl is not None:
                ctl.setAttribute("aria-invalid", "true")
                if focus:
                    ctl.focus()

    def banner(self, text: str, actions: list[tuple[str, str]] | None = None) -> None:
        b = by_id("banner")
        b.innerHTML = h("p", None, text) + fragment([R.button(lbl, act, "small") for lbl, act in (actions or [])],
                                                   R.button("Dismiss", "dismiss-banner", "small secondary"))
        b.hidden = False

    # -- dialogs --------------------------------------------------------------------------------
    def open_dialog(self, html: str) -> None:
        by_id("dlg-body").innerHTML = html
        dlg = by_id("dlg")
        if not dlg.open:
            dlg.showModal()
        first = q(dlg, "input, select, textarea")
        if first is not None:
            first.focus()

    def close_dialog(self) -> None:
        dlg = by_id("dlg")
        if dlg.open:
            dlg.close()
        by_id("dlg-body").innerHTML = ""

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
        panel = panel_for(self.enc.ruleset)
        if panel and panel.on_act(self, act, el):
            return
        if players_view.on_act(self, act, el):
            return
        if party_view.on_act(self, act, el):  # the party between fights (issue 35)
            return
        cid = data(el, "id")
        if act in ("undo", "redo") and not self.check_resumed():
            return
        if act == "undo":
            if self.history.can_undo:
                said = self.history.label(self.history.cursor - 1)
                if self.history.undo():
                    self.after_change()
                    self.say_undo(f"Undid: {said}")
        elif act == "redo":
            if self.history.can_redo:
                said = self.history.label(self.history.cursor)
                if self.history.redo():
                    self.after_change()
                    self.say_undo(f"Redid: {said}")
        elif act in ("import-replace", "import-keep", "import-cancel"):
            self.in_background(self.settle_import(act.removeprefix("import-")))
        elif act == "history":
            self.ui["history_shown"] = history_view.PAGE
            self.open_dialog(history_view.history_html(self.history, history_view.PAGE, self.enc.name))
        elif act == "history-more":
            self.ui["history_shown"] = int(data(el, "shown") or history_view.PAGE)
            self.open_dialog(history_view.history_html(self.history, self.ui["history_shown"], self.enc.name))
        elif act == "history-go":
            self.history_go(int(data(el, "point") or 0))
        elif act == "advance":
            self.dispatch({"type": "advance"}, by_id("round-bar"))
        elif act == "add-combatant":
            self.open_dialog(R.combatant_form(self.ruleset, None, self.ruleset.presets(), self.my_templates()))
        elif act == "bestiary":
            self.open_bestiary()
        elif act == "bestiary-export":
            download("fray-bestiary.json", bestiary.dumps(self.templates))
        elif act == "bestiary-remove":
            self.in_background(self.remove_template(data(el, "name") or ""))
        elif act == "use-preset":
            self.use_preset(nil(el.closest("form")))
        elif act == "edit-combatant":
            c = self.enc.get(cid)
            if c:
                self.open_dialog(R.combatant_form(self.ruleset, c, []))
        elif act == "remove-combatant":
            c = self.enc.get(cid)
            if c and js.window.confirm(f"Remove {c.name} from the fight? (Undo brings them back.)"):
                self.dispatch({"type": "remove_combatant", "id": cid}, nil(el.closest("article")))
        elif act == "add-condition":
            c = self.enc.get(cid)
            if c:
                self.open_dialog(R.condition_form(c, self.ruleset.conditions, self.enc, self.ruleset))
        elif act == "clear-condition":
            self.dispatch({"type": "set_condition", "id": cid, "condition": data(el, "condition"), "on": False},
                          nil(el.closest(".conds-box")) or nil(el.closest("article")))
        elif act in ("order-up", "order-down"):
            self.nudge_order(cid, -1 if act == "order-up" else 1)
        elif act == "strip-open":
            self.open_card(cid)
        elif act == "card-fold":
            article = nil(el.closest("article"))
            shut = article is not None and data(article, "open") == "true"
            self.ui.setdefault("card_open", {})[cid] = not shut
            self.render()
        elif act in ("cards-open-all", "cards-fold-all"):
            # page view state: "Fold cards" forgets the GM's choices, so the acting card alone is open
            self.ui["card_open"] = {c.id: True for c in self.enc.combatants} if act == "cards-open-all" else {}
            self.render()
        elif act == "duplicate-combatant":
            spot = placing.beside(self.enc, cid)  # on free ground beside the original, not on it (issue 33)
            self.dispatch({"type": "duplicate_combatant", "id": cid,
                           "position": {"x": spot.x, "y": spot.y, "alt": spot.alt}}, nil(el.closest("article")))
        elif act == "close-dialog":
            self.close_dialog()
        elif act == "new-encounter":
            self.open_dialog(R.new_encounter_form(all_rulesets()) + games_view.add_game_html())
        elif act == "delete-encounter":
            self.delete_encounter()
        elif act == "export":
            self.export()
        elif act == "tables":
            self.open_dialog(tables_form(self.ruleset, self.enc))
        elif act == "table-add-row":
            self.add_table_row(nil(el.closest("form")))
        elif act == "dismiss-banner":
            by_id("banner").hidden = True
        elif act == "download-broken":
            if self.broken is not None and self.broken[1]:  # never an empty file
                download(f"fray-unreadable-save-{self.broken[0]}.json", self.broken[1])
        elif act == "download-lost":
            self.download_lost()
        elif act == "conflict-reload":
            self.in_background(self.load_newer())
        elif act == "conflict-copy":
            self.keep_copy()
        elif act in ("show-tracker", "show-map"):
            show = "tracker" if act == "show-tracker" else "map"
            q(document, ".panes").dataset.show = show
            by_id("tab-tracker").setAttribute("aria-selected", "true" if show == "tracker" else "false")
            by_id("tab-map").setAttribute("aria-selected", "true" if show == "map" else "false")
        elif act == "select-token":
            self.ui["selected"] = cid if self.ui.get("selected") != cid else None
            self.render()

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
        values = form_values(form)
        panel = panel_for(self.enc.ruleset)
        if panel and panel.on_form(self, name, form, values):
            return
        if name == "add-combatant":
            self.submit_combatant(form, values, None)
        elif name == "edit-combatant":
            self.submit_combatant(form, values, data(form, "id"))
        elif name == "add-condition":
            if self.dispatch(R.condition_action(data(form, "id"), values), form):
                self.close_dialog()
        elif name == "note":
            if self.dispatch({"type": "note", "text": values.get("text", "")}, form):
                form.reset()
        elif name == "new-encounter":
            self.create_encounter(form, values)
        elif name == "add-game":
            self.in_background(games_view.add_game(self, form))
        elif name == "table":
            self.submit_table(form, values)
        elif name == "table-grid":
            self.submit_table_grid(form, values)

    def combatant_payload(self, values: dict[str, Any]) -> dict[str, Any]:
        body = nest(values, "combatant")
        if self.ruleset.free_stats:
            body["stats"] = R.parse_free_stats(values.get("combatant.stats", ""))
        if "combatant.count" in values:  # the add form (the edit form has no How many)
            body["position"] = self.new_position(values)
        return body

    def new_position(self, values: dict[str, Any]) -> dict[str, Any]:
        """The add form's position: as typed; East and North both left empty, on free ground beside
        the others for the whole group (fray.placing, issue 33), so a second Add ×6 does not stand on
        the first. One of them empty is 0, as the form's default was."""
        raw = {k: values.get(f"combatant.position.{k}", "") for k in ("x", "y", "alt")}
        blank = {k: v is None or (isinstance(v, str) and not v.strip()) for k, v in raw.items()}
        if blank["x"] and blank["y"]:
            try:  # a rider stands on its mount
                mount = placing.ridden(self.enc, json.loads(values.get("combatant.extra") or "{}"))
            except (ValueError, TypeError):
                mount = None  # the JSON box's own error is named at it
            if mount is not None:
                return {"x": mount.x, "y": mount.y, "alt": mount.alt if blank["alt"] else raw["alt"]}
            try:
                count = max(1, min(int(str(values.get("combatant.count") or "1").strip()), 200))
            except ValueError:
                count = 1  # the engine names the bad count at its field
            side = values.get("combatant.side", "foes")
            spot = placing.free_spot(self.enc, side if isinstance(side, str) else "foes", count)
            return {"x": spot.x, "y": spot.y, "alt": 0 if blank["alt"] else raw["alt"]}
        return {k: 0 if blank[k] else v for k, v in raw.items()}

    def submit_combatant(self, form: Any, values: dict[str, Any], cid: str | None) -> None:
        body = self.combatant_payload(values)
        extra_text = body.pop("extra", None)
        if cid is None and extra_text and extra_text.strip():
            # Weapons, armour, body plan, spells: the ruleset's own fields, as JSON the GM can edit
            # (a ready-made combatant fills it in).
            try:
                extra = parse_json(extra_text, "combatant.extra")
                if not isinstance(extra, dict):
                    raise ValueError("expected an object such as {\"weapons\": [...]}")
            except InvalidAction as e:
                self.clear_errors(form)
                self.show_error(form, e)
                return
            except ValueError as e:
                self.clear_errors(form)
                self.show_error(form, InvalidAction("combatant.extra", f"not a JSON object: {e}"))
                return
            body = {**extra, **body}
        known = ("combatant.name", "combatant.side", "combatant.stats", "combatant.notes", "combatant.position",
                 "combatant.count")

        def to_form_field(f: str) -> str:
            f = "combatant." + f.removeprefix("changes.").removeprefix("combatant.")
            if f.startswith(known) or f == "combatant":
                return f
            # A ruleset field with its own control in the dialog keeps its error there when the path
            # names one entry of it ("combatant.armour.legs": the strike-rank Armour points); any other
            # error inside the ruleset's fields lands at the JSON box, naming its whole path.
            # (or an item of it: "combatant.weapons.0.type" at the strike-rank Weapons box)
            parent = f.rpartition(".")[0]
            while parent.count("."):
                if q(form, f'[data-error-for="{_css(parent)}"]') is not None:
                    return f
                parent = parent.rpartition(".")[0]
            return "combatant.extra"

        if cid is None:
            ok = self.dispatch({"type": "add_combatant", "combatant": body}, form, to_form_field)
        else:
            ok = self.dispatch({"type": "edit_combatant", "id": cid, "changes": body}, form, to_form_field)
        if ok:
            self.close_dialog()
            if cid is None and values.get("keep"):
                # the engine took it, so it is a template it will take again
                t = bestiary.template_of(self.ruleset.id, body)
                name = t["combatant"].get("name", "")
                self.in_background(self.keep_template(t, name))

    def use_preset(self, form: Any) -> None:
        idx = q(form, "[name=preset]").value
        if idx == "":
            return
        if idx.startswith("b"):  # one of the GM's own templates
            mine = self.my_templates()
            k = int(idx[1:])
            if not 0 <= k < len(mine):
                return
            preset = mine[k]["combatant"]
        else:
            preset = self.ruleset.presets()[int(idx)]
        values = {"combatant.name": preset.get("name", ""), "combatant.side": preset.get("side", "foes"),
                  "combatant.notes": preset.get("notes", "")}
        if self.ruleset.free_stats:  # one box of "name: value" lines
            values["combatant.stats"] = "\n".join(f"{k}: {v}" for k, v in preset.get("stats", {}).items())
        else:
            # every stat, not only the preset's: one picked before must leave nothing behind (a
            # Human scout after the Winged flyer has no Flying SPD)
            stats = preset.get("stats", {})
            values.update({f"combatant.stats.{s.key}": stats.get(s.key, s.default) for s in self.ruleset.stats})
        pos = preset.get("position") if isinstance(preset.get("position"), dict) else {}
        # no position in the preset: East and North stay empty, so it stands on free ground (fray.placing)
        values.update({f"combatant.position.{k}": pos.get(k, "" if k != "alt" else 0) for k in ("x", "y", "alt")})
        extra = {k: v for k, v in preset.items() if k not in ("name", "side", "stats", "notes", "position")}
        values["combatant.extra"] = json.dumps(extra, indent=1, ensure_ascii=False) if extra else ""
        for k, v in values.items():
            ctl = q(form, f'[name="{k}"]')
            if ctl is not None:
                ctl.value = "" if v is None else str(v)

    def create_encounter(self, form: Any, values: dict[str, Any]) -> None:
        self.clear_errors(form)
        try:
            enc = new_encounter(values.get("ruleset", ""), values.get("name", ""))
        except FrayError as e:
            self.show_error(form, e)
            return
        self.key = self.free_key()
        self.history = History(enc)
        self.ui, self.conflict = {}, None
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
        self.ui, self.conflict = {}, None
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

    def on_switch(self, event: Any) -> None:
        self.in_background(self.switch_to(event.target.value))

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
        self.key, self.history, self.ui, self.conflict = key, h, {}, None
        self.revs[key] = rev
        self.clear_errors()
        self.show_save_state()
        self.render()
        players_view.publish(self)  # another encounter on screen: the players' window follows

    def nudge_order(self, cid: str, step: int, scope: Any = None) -> None:
        """▲ / ▼ (and Alt+Arrow in the order strip): swap with the neighbour in the order; the
        engine refuses, at ``scope``, unless the two are equals."""
        ids = []
        for s in self.ruleset.order_of_play(self.enc):
            if s.combatant_id not in ids:
                ids.append(s.combatant_id)
        if cid not in ids:
            return
        j = ids.index(cid) + step
        if not 0 <= j < len(ids):
            return
        self.settle_tie(cid, "before" if step < 0 else "after", ids[j], scope or by_id("ruleset-panel"))

    def settle_tie(self, cid: str, where: str, other: str, scope: Any = None) -> bool:
        return self.dispatch({"type": "settle_tie", "id": cid, where: other}, scope or by_id("order-strip"))

    def open_card(self, cid: str | None) -> None:
        """An entry of the order strip: open that combatant's card and bring it just under the
        sticky head, its name focused."""
        if not cid or self.enc.get(cid) is None:
            return
        self.ui.setdefault("card_open", {})[cid] = True
        self.render()
        card = q(document, f'#combatants article[data-id="{_css(cid)}"]')
        if card is None:
            return
        head = by_id("tracker-head")
        above = head.getBoundingClientRect().height if head is not None else 0
        if not above:  # on a laptop the head's parts stand in the grid: only the round bar sticks
            bar = by_id("round-bar")
            above = bar.getBoundingClientRect().height if bar is not None else 0
        top = card.getBoundingClientRect().top + js.window.scrollY - above - 8
        js.window.scrollTo(0, max(0, top))
        toggle = q(card, ".card-toggle")
        if toggle is not None:
            toggle.focus(js.Object.fromEntries([["preventScroll", True]]))

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

    # -- files ----------------------------------------------------------------------------------

def _css(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def _copy_name(name: str) -> str:
    """The name of the copy a GM keeps when another tab changed the same encounter."""
    suffix = " (copy)"
    return name[:60 - len(suffix)].rstrip() + suffix


APP: App | None = None


def main() -> None:
    global APP
    # The interpreter's start, the engine (frozen in the snapshot already: scripts/snapshot.mjs),
    # PyScript and this web layer live as long as the page: the cyclic garbage collector need not
    # walk them again. With them in its sight a whole collection took 53 ms in the page (51,000
    # objects; 8 ms without them), and the first load of a long fight, which met one, 32 ms
    # instead of 11. What the page makes from here on (encounters, histories) is collected as before.
    gc.freeze()
    if players_view.wanted():  # the second window, ?view=players: no GM controls at all
        players_view.main()
        return
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
