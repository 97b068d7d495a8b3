"""The page's controller: reads controls, calls the engine, renders, autosaves.

One delegated listener per event kind (click, submit, keydown) on the document turns a
``data-act`` button or a ``data-form`` form into an engine call. An engine error is shown next
to the control that caused it (``data-error-for`` = the error's field path) and the encounter is
left exactly as it was: ``History.do`` only commits after the reducer succeeded.
"""

from __future__ import annotations

import json
import os
import random
import traceback
from typing import Any, Callable

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .. import savefile
from ..errors import FrayError, InvalidAction, RuleViolation
from ..gate import parse_json
from ..history import History
from ..reducer import new_encounter
from ..rulesets import all_rulesets, first_ruleset_id, get_ruleset
from . import render as R
from . import mapctl, players_view
from .panels import panel_for
from .store import Library, MemoryStorage

document = js.document


def nil(v: Any) -> Any:
    """JS null arrives as Pyodide's ``jsnull``, not None: fold both into None."""
    return None if v is None or type(v).__name__ == "JsNull" else v


def by_id(i: str) -> Any:
    return nil(document.getElementById(i))


def q(root: Any, selector: str) -> Any:
    return nil(root.querySelector(selector))


def data(el: Any, name: str) -> str | None:
    """``el.dataset[name]`` or None (reading a missing dataset key raises in Pyodide)."""
    v = el.getAttribute("data-" + name) if el is not None and hasattr(el, "getAttribute") else None
    return v if isinstance(v, str) else None


def form_values(form: Any) -> dict[str, Any]:
    """Every named control of a form as {name: value} (text as typed; the engine validates)."""
    out: dict[str, Any] = {}
    for el in form.elements:
        name = el.name
        if not name:
            continue
        if el.type == "checkbox":
            out[name] = bool(el.checked)
        elif el.type == "radio":
            if el.checked:
                out[name] = el.value
        else:
            out[name] = el.value
    return out


def nest(values: dict[str, Any], prefix: str) -> dict[str, Any]:
    """{"combatant.stats.SIZ": "12"} → {"stats": {"SIZ": "12"}} for the given prefix."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if not k.startswith(prefix + "."):
            continue
        parts = k[len(prefix) + 1:].split(".")
        cur = out
        for p in parts[:-1]:
            cur = cur.setdefault(p, {})
        cur[parts[-1]] = v
    return out


class App:
    def __init__(self) -> None:
        self.rng = random.Random(int.from_bytes(os.urandom(8), "big"))
        self.ui: dict[str, Any] = {}  # short-lived view state (open panels), never saved
        self._painted: dict[str, Any] = {}  # the markup last written to each region
        self._proxies: list[Any] = []
        try:
            storage = js.window.localStorage
            storage.getItem("fray.index")
        except Exception:  # storage disabled (private mode, policy): work in memory, say so
            storage = MemoryStorage()
            self.banner("This browser refuses storage: nothing will be kept after a reload. Use Export.")
        self.lib = Library(storage)
        self.key, self.history = self._boot_encounter()

    # -- boot -----------------------------------------------------------------------------------
    def _boot_encounter(self) -> tuple[str, History]:
        key = self.lib.current_key()
        keys = [x["key"] for x in self.lib.index()]
        if key and key not in keys:
            keys.insert(0, key)
        for k in ([key] if key else []) + [x for x in keys if x != key]:
            if k is None:
                continue
            try:
                return k, self.lib.load(k)
            except Exception as e:  # Library.load keeps the raw save aside whatever went wrong
                self.broken_save(k, e)
                break
        k = self.lib.new_key()
        h = History(new_encounter(first_ruleset_id(), "First encounter"))
        return k, h

    def broken_save(self, key: str, err: Exception) -> None:
        self.ui["broken_key"] = key
        self.banner(
            f"The saved encounter could not be loaded ({err}). It is kept untouched; "
            "download it to repair or send it, then carry on with a fresh encounter.",
            actions=[("Download the raw save", "download-broken")])

    # -- wiring -------------------------------------------------------------------------------
    def start(self) -> None:
        self._listen(document, "click", self.on_click)
        self._listen(document, "submit", self.on_submit)
        self._listen(document, "keydown", self.on_key)
        self._listen(by_id("file-import"), "change", self.on_import)
        self._listen(by_id("encounter-select"), "change", self.on_switch)
        for i in ("btn-new", "btn-delete", "btn-undo", "btn-redo", "btn-export", "btn-tables", "file-import",
                  "encounter-select"):
            by_id(i).disabled = False
        by_id("btn-import-label").removeAttribute("aria-disabled")
        by_id("btn-new").dataset.act = "new-encounter"
        by_id("btn-delete").dataset.act = "delete-encounter"
        by_id("btn-undo").dataset.act = "undo"
        by_id("btn-redo").dataset.act = "redo"
        by_id("btn-export").dataset.act = "export"
        by_id("btn-tables").dataset.act = "tables"
        by_id("tab-tracker").dataset.act = "show-tracker"
        by_id("tab-map").dataset.act = "show-map"
        try:
            js.navigator.storage.persist()
        except Exception:
            pass  # not offered by every browser; the autosave works without it
        mapctl.install(self)
        players_view.install(self)
        self.persist()
        self.render()
        by_id("loading").hidden = True
        document.documentElement.dataset.engine = "ready"

    def _listen(self, target: Any, event: str, fn: Callable) -> None:
        p = create_proxy(fn)
        self._proxies.append(p)
        target.addEventListener(event, p)

    # -- engine calls ---------------------------------------------------------------------------
    @property
    def enc(self):
        return self.history.present

    @property
    def ruleset(self):
        return get_ruleset(self.enc.ruleset)

    def dispatch(self, action: dict[str, Any], scope: Any = None, field_map: Callable[[str], str] | None = None) -> bool:
        """Apply one action. On an engine error, show it in ``scope`` and change nothing."""
        self.clear_errors(scope)
        try:
            self.history.do(action, self.rng)
        except FrayError as e:
            self.show_error(scope, e, field_map)
            return False
        self.after_change()
        return True

    def after_change(self) -> None:
        self.persist()
        self.clear_errors()  # regions that do not change are not re-written: drop stale messages
        self.render()
        players_view.publish(self)

    def persist(self) -> None:
        try:
            self.lib.save(self.key, self.history)
            self.ui.pop("save_error", None)
        except Exception as e:  # quota or a refusing browser: the fight goes on, the GM is told
            self.ui["save_error"] = True
            self.banner(f"Autosave failed ({e}); use Export to keep this encounter.")

    # -- errors ---------------------------------------------------------------------------------
    def clear_errors(self, scope: Any = None) -> None:
        root = scope or document
        for el in root.querySelectorAll("[data-error-for]"):
            el.textContent = ""
        for el in root.querySelectorAll("[aria-invalid]"):
            el.removeAttribute("aria-invalid")

    def show_error(self, scope: Any, err: Exception, field_map: Callable[[str], str] | None = None) -> None:
        root = scope or document
        key = getattr(err, "field", None) or ""
        if isinstance(err, RuleViolation):
            key = ""
        original = key
        if field_map and key:
            key = field_map(key)
        msg = str(err).split(": ", 1)[-1] if isinstance(err, InvalidAction) else str(err)
        if key != original:
            # The message lands at a box that holds many fields (the JSON of weapons): say which.
            msg = f"{original.removeprefix('changes.').removeprefix('combatant.')}: {msg}"
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
            self.banner(str(err))
            return
        slot.setAttribute("role", "alert")  # announced to screen readers as it appears
        slot.textContent = msg if probe == key or key != original else f"{key.rpartition('.')[2]}: {msg}"
        field = nil(slot.closest("[data-field]"))
        if field is not None:
            ctl = q(field, "input, select, textarea")
            if ctl is not None:
                ctl.setAttribute("aria-invalid", "true")
                ctl.focus()

    def banner(self, text: str, actions: list[tuple[str, str]] | None = None) -> None:
        b = by_id("banner")
        b.innerHTML = (f'<p>{R.esc(text)}</p>' + "".join(R.button(lbl, act, "small") for lbl, act in (actions or []))
                       + R.button("Dismiss", "dismiss-banner", "small secondary"))
        b.hidden = False

    # -- rendering ------------------------------------------------------------------------------
    def render(self) -> None:
        """Draw every region. A region that fails to draw says so in the banner; the encounter
        (already saved) is not touched by drawing."""
        try:
            self._render()
        except Exception as e:  # noqa: BLE001 - a drawing bug must not blank the page
            traceback.print_exc()
            self.banner(f"Part of the page could not be drawn ({type(e).__name__}: {e}). "
                        "The encounter is saved; Undo, Export or switching encounters still work.")

    def _render(self) -> None:
        enc, rs = self.enc, self.ruleset
        try:
            view = rs.view(enc)
            order = rs.order_of_play(enc)
        except Exception:
            traceback.print_exc()
            view, order = {}, []
        panel = panel_for(enc.ruleset)
        focus_id = nil(document.activeElement).id if nil(document.activeElement) is not None else ""
        # Always re-written: the GM's own pick in it may have been refused (an unreadable save).
        by_id("encounter-select").innerHTML = ("".join(
            f'<option value="{R.esc(x["key"])}"{" selected" if x["key"] == self.key else ""}>{R.esc(x.get("name", x["key"]))}</option>'
            for x in self.lib.index()) or f'<option>{R.esc(enc.name)}</option>')
        by_id("ruleset-badge").textContent = rs.name
        by_id("btn-undo").disabled = not self.history.can_undo
        by_id("btn-redo").disabled = not self.history.can_redo
        self.paint("round-bar", R.round_bar(enc, order, rs, view, turn_based=panel is None))
        # A ruleset panel shows its own order of play (strike ranks, phases) with its tie controls.
        self.paint("ruleset-panel", panel.panel(self, view) if panel else R.order_list(enc, order))
        current_id = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
        cards = [(c.id, R.combatant_card(enc, c, rs, panel.card_extra(self, c.id, view) if panel else "",
                                         c.id == current_id)) for c in enc.combatants]
        self.paint_cards(cards, R.empty_state(enc))
        self.paint("log", R.log_items(enc.log))
        mapctl.render(self)
        if focus_id:
            el = by_id(focus_id)
            if el is not None:
                el.focus()

    def paint(self, region: str, html: str) -> None:
        """Write a region only when its markup changed: a GM's half-typed entry in an untouched
        region survives, and the browser re-parses only what moved."""
        if self._painted.get(region) != html:
            by_id(region).innerHTML = html
            self._painted[region] = html

    def paint_cards(self, cards: list[tuple[str, str]], empty: str) -> None:
        """The combatant cards, replacing only the cards that changed (a token dragged on the map
        changes one card of fifty)."""
        before = self._painted.get("cards")
        root = by_id("combatants")
        if not cards:
            root.innerHTML = empty
        elif before is None or [i for i, _ in before] != [i for i, _ in cards]:
            root.innerHTML = "".join(h for _, h in cards)
        else:
            nodes = root.children
            for k, ((cid, html), (_, old)) in enumerate(zip(cards, before)):
                if html != old:
                    nodes.item(k).outerHTML = html
        self._painted["cards"] = cards

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
        cid = data(el, "id")
        if act == "undo":
            if self.history.undo():
                self.after_change()
        elif act == "redo":
            if self.history.redo():
                self.after_change()
        elif act == "advance":
            self.dispatch({"type": "advance"}, by_id("round-bar"))
        elif act == "add-combatant":
            self.open_dialog(R.combatant_form(self.ruleset, None, self.ruleset.presets()))
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
                self.open_dialog(R.condition_form(c, self.ruleset.conditions))
        elif act == "clear-condition":
            self.dispatch({"type": "set_condition", "id": cid, "condition": data(el, "condition"), "on": False},
                          nil(el.closest("article")))
        elif act in ("order-up", "order-down"):
            self.nudge_order(cid, -1 if act == "order-up" else 1)
        elif act == "close-dialog":
            self.close_dialog()
        elif act == "new-encounter":
            self.open_dialog(R.new_encounter_form(all_rulesets()))
        elif act == "delete-encounter":
            self.delete_encounter()
        elif act == "export":
            self.export()
        elif act == "tables":
            self.open_dialog(tables_form(self.ruleset, self.enc))
        elif act == "dismiss-banner":
            by_id("banner").hidden = True
        elif act == "download-broken":
            raw = self.lib.raw(self.ui.get("broken_key", "")) or ""
            download(f"fray-unreadable-save-{self.ui.get('broken_key', 'x')}.json", raw)
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
            if self.dispatch({"type": "set_condition", "id": data(form, "id"), "condition": values.get("condition", ""),
                              "on": True}, form):
                self.close_dialog()
        elif name == "note":
            if self.dispatch({"type": "note", "text": values.get("text", "")}, form):
                form.reset()
        elif name == "new-encounter":
            self.create_encounter(form, values)
        elif name == "table":
            self.submit_table(form, values)

    def combatant_payload(self, values: dict[str, Any]) -> dict[str, Any]:
        body = nest(values, "combatant")
        if self.ruleset.free_stats:
            body["stats"] = R.parse_free_stats(values.get("combatant.stats", ""))
        return body

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
        known = ("combatant.name", "combatant.side", "combatant.stats", "combatant.notes", "combatant.position")

        def to_form_field(f: str) -> str:
            f = "combatant." + f.removeprefix("changes.").removeprefix("combatant.")
            # An error inside the ruleset's own fields lands at the JSON box, naming its path.
            return f if f.startswith(known) or f == "combatant" else "combatant.extra"

        if cid is None:
            ok = self.dispatch({"type": "add_combatant", "combatant": body}, form, to_form_field)
        else:
            ok = self.dispatch({"type": "edit_combatant", "id": cid, "changes": body}, form, to_form_field)
        if ok:
            self.close_dialog()

    def use_preset(self, form: Any) -> None:
        idx = q(form, "[name=preset]").value
        if idx == "":
            return
        preset = self.ruleset.presets()[int(idx)]
        values = {"combatant.name": preset.get("name", ""), "combatant.side": preset.get("side", "foes"),
                  "combatant.notes": preset.get("notes", "")}
        values.update({f"combatant.stats.{k}": v for k, v in preset.get("stats", {}).items()})
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
        self.key = self.lib.new_key()
        self.history = History(enc)
        self.ui = {}
        self.close_dialog()
        self.after_change()

    def delete_encounter(self) -> None:
        """Forget the open encounter (and any unreadable copy of it), then open the next one in
        the list or a fresh one: the way out when the browser's storage fills up."""
        if not js.window.confirm(f"Delete the encounter {self.enc.name} from this browser? "
                                 "Export it first if you may want it back."):
            return
        self.lib.forget(self.key)
        self.lib.storage.removeItem(f"fray.broken.{self.key}")
        for entry in self.lib.index():
            try:
                self.key, self.history = entry["key"], self.lib.load(entry["key"])
                break
            except Exception as e:  # kept aside by Library.load; try the next one
                self.broken_save(entry["key"], e)
        else:
            self.key = self.lib.new_key()
            self.history = History(new_encounter(self.enc.ruleset, "New encounter"))
        self.ui = {}
        self.after_change()

    def on_switch(self, event: Any) -> None:
        key = event.target.value
        try:
            h = self.lib.load(key)
        except Exception as e:  # kept aside by Library.load; the open encounter stays
            self.broken_save(key, e)
            self.render()
            return
        self.key, self.history, self.ui = key, h, {}
        self.after_change()

    def nudge_order(self, cid: str, step: int) -> None:
        ids = [s.combatant_id for s in self.ruleset.order_of_play(self.enc)]
        if cid not in ids:
            return
        i = ids.index(cid)
        j = i + step
        if not 0 <= j < len(ids):
            return
        ids[i], ids[j] = ids[j], ids[i]
        self.dispatch({"type": "reorder", "order": ids}, by_id("ruleset-panel"))

    def on_key(self, event: Any) -> None:
        tag = (event.target.tagName or "").lower()
        if tag in ("input", "textarea", "select"):
            return
        dlg = by_id("dlg")
        if dlg is not None and dlg.open:
            return  # undo behind an open form would leave the form showing what no longer is
        if (event.ctrlKey or event.metaKey) and event.key.lower() == "z":
            event.preventDefault()
            self.act("redo" if event.shiftKey else "undo", event.target, event)
        elif (event.ctrlKey or event.metaKey) and event.key.lower() == "y":
            event.preventDefault()
            self.act("redo", event.target, event)

    # -- files ----------------------------------------------------------------------------------
    def export(self) -> None:
        name = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.enc.name).strip("-") or "encounter"
        download(f"{name}.fray.json", json.dumps(savefile.dump_history(self.history), indent=1, ensure_ascii=False))

    async def on_import(self, event: Any) -> None:
        inp = event.target
        files = inp.files
        slot = by_id("import-error")
        slot.textContent = ""
        if not files or files.length == 0:
            return
        f = files.item(0)
        try:
            text = await f.text()
            h = savefile.loads(str(text))
        except FrayError as e:
            slot.textContent = f"{f.name} was not imported: {e}. The current encounter is unchanged."
            inp.value = ""
            return
        except Exception as e:
            slot.textContent = f"{f.name} could not be read: {e}. The current encounter is unchanged."
            inp.value = ""
            return
        inp.value = ""
        self.key = self.lib.new_key()
        self.history = h
        self.ui = {}
        self.after_change()

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


def tables_form(rs: Any, enc: Any, saved: str | None = None) -> str:
    """Every table of the ruleset, each editable as JSON, marked assumed or sourced."""
    parts = ['<div class="tables"><h2 id="dlg-title">Tables</h2>',
             '<p class="hint">Edit a table for this encounter only. Figures marked <strong>assumed</strong> are '
             "Fray's own defaults, not the game's.</p>"]
    if not rs.tables:
        parts.append("<p>This ruleset has no tables.</p>")
    for tid, table in rs.tables.items():
        current = enc.tables.get(tid) or table
        edited = tid in enc.tables
        tag = '<span class="badge assumed">assumed</span>' if table.get("assumed") else ""
        parts.append(
            f'<details{" open" if saved == tid else ""}><summary>{R.esc(table.get("title", tid))} {tag}'
            f'{" <em>(edited)</em>" if edited else ""}</summary>'
            f'<p class="hint">Source: {R.esc(table.get("source", "not stated"))}</p>'
            f'<form class="form" data-form="table" data-table="{R.esc(tid)}" novalidate>'
            f'<div class="field" data-field="value"><label for="t-{R.esc(tid)}">JSON</label>'
            f'<textarea id="t-{R.esc(tid)}" name="value" rows="10" spellcheck="false">'
            f'{R.esc(json.dumps(current, indent=1, ensure_ascii=False))}</textarea>'
            f'<p class="field-error" data-error-for="value"></p></div>'
            f'<div class="dlg-actions"><label><input type="checkbox" name="reset" value="yes"> reset to default</label>'
            f'<button type="submit" class="primary">Save table</button></div></form></details>')
    parts.append(f'<div class="dlg-actions">{R.button("Close", "close-dialog", "secondary")}</div></div>')
    return "".join(parts)


def download(filename: str, text: str) -> None:
    blob = js.Blob.new([text], js.Object.fromEntries([["type", "application/json"]]))
    url = js.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    a.download = filename
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)


def _css(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


APP: App | None = None


def main() -> None:
    global APP
    if players_view.wanted():  # the second window, ?view=players: no GM controls at all
        players_view.main()
        return
    APP = App()
    APP.start()
