"""The App's dialogs over what the browser keeps beside the fight: Export and Import of an
encounter (with the question when it is already here), the GM's bestiary, and the Tables dialog.
A mixin of ``App`` (web/app.py): the same object, split by what a reader looks for; everything
else the page does is in app.py.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .. import bestiary, savefile, savewords
from ..errors import FrayError, InvalidAction, SaveFileError
from ..gate import parse_json
from ..history import History
from . import bestiary_view, import_view
from .dom import by_id, data, download
from .tables_view import engine_field_to_form, table_from_grid, tables_form
from .uistate import UiState


class LibraryDialogs:
    async def remove_template(self, name: str) -> None:
        await self.store_templates(bestiary.remove(await self.fresh_templates(), self.ruleset.id, name),
                                   f"{name} is no longer in the bestiary.")

    async def keep_template(self, t: dict[str, Any], name: str) -> None:
        try:
            templates = bestiary.add(await self.fresh_templates(), t)
        except FrayError as e:
            self.banner(f"{name} was added to the fight but not to the bestiary: {e}")
            return
        self.templates = templates  # before the write: a second change starts from this one
        await self.lib.save_bestiary(templates)
        self.bestiary_broken = False
        self.loop.say_undo(f"{name} is kept in your bestiary")

    def my_templates(self) -> list[dict[str, Any]]:
        return bestiary.of_ruleset(self.templates, self.ruleset.id)

    def open_bestiary(self, note: str = "") -> None:
        self.open_dialog(bestiary_view.bestiary_html(self.templates, self.ruleset, note))
        inp = by_id("bestiary-import")
        if inp is not None:  # the dialog is drawn anew each time: one proxy serves every drawing
            if getattr(self, "_bestiary_proxy", None) is None:
                self._bestiary_proxy = create_proxy(self.on_bestiary_import)
            inp.addEventListener("change", self._bestiary_proxy)

    async def load_bestiary(self) -> None:
        try:
            self.templates = await self.lib.bestiary()
        except Exception as e:  # kept untouched: only a save of the bestiary writes over it
            self.templates = []
            self.bestiary_broken = True
            self.banner(f"Your bestiary could not be read ({e}); it is kept as it was. "
                        "Templates added now will replace it.")

    async def store_templates(self, templates: list[dict[str, Any]], note: str) -> None:
        self.templates = templates  # before the write: a second change starts from this one
        await self.lib.save_bestiary(templates)
        self.bestiary_broken = False
        self.open_bestiary(note)

    async def on_bestiary_import(self, event: Any) -> None:
        incoming = await read_picked(event.target, by_id("bestiary-error"), bestiary.loads, "The bestiary is unchanged.",
                                     savewords.describe_bestiary)
        if incoming is None:
            return
        f = event.target.files.item(0)
        try:
            merged, new, replaced = bestiary.merge(await self.fresh_templates(), incoming)
        except FrayError as e:
            by_id("bestiary-error").textContent = (f"{f.name} was not imported: {savewords.describe_bestiary(e)}. "
                                                   "The bestiary is unchanged.")
            return
        await self.store_templates(merged, f"Imported {f.name}: {new} new template{'s' if new != 1 else ''}"
                                           + (f", {replaced} replaced by the file's" if replaced else "") + ".")

    async def fresh_templates(self) -> list[dict[str, Any]]:
        """The bestiary as stored now (another tab may have kept a template since this one read
        it), so that a write starts from it and loses nobody's templates."""
        if not self.bestiary_broken:
            try:
                self.templates = await self.lib.bestiary()
            except Exception:  # noqa: BLE001 - unreadable since: keep what this tab has
                pass
        return self.templates

    def export(self) -> None:
        name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.enc.name).strip("-") or "encounter"
        download(f"{name}.fray.json", json.dumps(savefile.dump_history(self.history), indent=1, ensure_ascii=False))

    async def on_import(self, event: Any) -> None:
        inp = event.target
        h = await read_picked(inp, by_id("import-error"), savefile.loads, "The current encounter is unchanged.")
        if h is None:
            return
        f = inp.files.item(0)
        inp.value = ""
        match = await self.kept_twin(h)
        if match is not None:
            key, verdict, n = match
            self.ui.pending_import = (h, key, verdict)
            self.open_dialog(import_view.duplicate_dialog(h.present.name, str(f.name), verdict, n))
            return
        self.open_imported(h, self.free_key())

    async def kept_twin(self, h: History) -> tuple[str, str, int] | None:
        """An encounter kept here with the imported one's name and rules, and how the two stand
        (``savefile.compare_histories``); the closest one if there are several."""
        found = None
        for e in list(self.lib.cached):
            if e.get("name") != h.present.name or e.get("ruleset") != h.present.ruleset:
                continue
            try:
                mine = self.history if e["key"] == self.key else (await self.lib.load(e["key"]))[0]
            except Exception:  # an unreadable save is no twin: it stays as it is
                continue
            verdict, n = savefile.compare_histories(mine, h)
            rank = ("same", "ahead", "behind", "different").index(verdict)
            if found is None or rank < found[0]:
                found = (rank, (e["key"], verdict, n))
        return found[1] if found else None

    def open_imported(self, h: History, key: str) -> None:
        self.key = key
        self.history = h
        self.ui, self.conflict = UiState(), None
        self.after_change()

    async def settle_import(self, choice: str) -> None:
        """The GM's answer to "already here": replace the kept one, keep both, or nothing."""
        pending, self.ui.pending_import = self.ui.pending_import, None
        self.close_dialog()
        if pending is None or choice == "cancel":
            return
        h, key, _ = pending
        if choice == "replace":
            await self.flush()
            self.revs[key] = await self.lib.revision(key)  # written over as this tab's own next revision
            self.open_imported(h, key)
            return
        taken = {e.get("name", "") for e in self.lib.cached}
        h.do({"type": "rename_encounter", "name": import_view.second_name(h.present.name, taken)})
        self.open_imported(h, self.free_key())

    def submit_table(self, form: Any, values: dict[str, Any]) -> None:
        tid = data(form, "table")
        text = values.get("value", "")
        if values.get("reset"):
            value = None
        else:
            try:
                value = parse_json(text, "value")  # depth-scanned before parsing (fray.gate)
            except InvalidAction as e:
                self.clear_errors(form)
                self.show_error(form, e)
                return
        if self.dispatch({"type": "set_table", "table": tid, "value": value}, form):
            self.open_dialog(tables_form(self.ruleset, self.enc, saved=tid))

    def submit_table_grid(self, form: Any, values: dict[str, Any]) -> None:
        """A table typed as rows and cells: read each cell as its column's kind, then the engine."""
        tid = data(form, "table") or ""
        default = self.ruleset.tables.get(tid)
        if default is None:
            return
        try:
            value = table_from_grid(default, self.enc.tables.get(tid) or default, values)
        except InvalidAction as e:
            self.clear_errors(form)
            self.show_error(form, e)
            return
        if self.dispatch({"type": "set_table", "table": tid, "value": value}, form, engine_field_to_form(values)):
            self.open_dialog(tables_form(self.ruleset, self.enc, saved=tid))

    def add_table_row(self, form: Any) -> None:
        """One more row in a table's grid, a copy of the last (most tables grow by one more band),
        added in place so that the cells typed and not yet saved stay as they are."""
        if form is None:
            return
        rows = form.querySelectorAll("tbody tr:not(.row-error)")
        if rows.length == 0:
            return
        n = rows.length
        last = rows.item(n - 1)
        row, err = last.cloneNode(True), last.nextElementSibling.cloneNode(True)
        for inp in row.querySelectorAll("[name]"):
            inp.name = inp.name.replace(f"r{n - 1}.", f"r{n}.", 1)
            label = inp.getAttribute("aria-label")
            if label:
                inp.setAttribute("aria-label", label.replace(f"row {n} ", f"row {n + 1} ", 1))
            if inp.type == "checkbox":
                inp.checked = False
        row.querySelector("th").firstChild.textContent = str(n + 1)
        slot = err.querySelector("[data-error-for]")
        slot.setAttribute("data-error-for", f"value.entries.{n}")
        slot.textContent = ""
        tbody = last.parentNode
        tbody.appendChild(row)
        tbody.appendChild(err)
        first = row.querySelector("input:not([type=hidden]), select")
        if first is not None:
            first.focus()


async def read_picked(inp: Any, slot: Any, read: Callable[[str], Any], unchanged: str,
                      words: Callable[[Any, str | None], str] | None = None) -> Any:
    """The file picked in ``inp``, read by ``read``; on any error the reason is said in ``slot``
    (with ``unchanged``, what stayed as it was), the picker is cleared for another try, and None.
    ``words`` says a refusal's place in the GM's words (a bestiary's: ``savewords.describe_bestiary``)."""
    slot.textContent = ""
    files = inp.files
    if not files or files.length == 0:
        return None
    f = files.item(0)
    text = None
    try:
        text = str(await f.text())
        return read(text)
    except SaveFileError as e:  # where in the file, as the GM knows it, and what to do
        slot.textContent = f"{f.name} was not imported: {savewords.describe(e, text)}. {unchanged}"
    except FrayError as e:
        slot.textContent = f"{f.name} was not imported: {words(e, text) if words else e}. {unchanged}"
    except Exception as e:  # noqa: BLE001 - a file the browser cannot read, or a bug: said, nothing kept
        slot.textContent = f"{f.name} could not be read: {e}. {unchanged}"
    inp.value = ""
    return None
