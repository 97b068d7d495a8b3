"""The Tables dialog: every table of the ruleset, editable as a form of rows and cells, with the
JSON still there for what a grid cannot show (issue 10: "the table editor is raw JSON: make
tables editable as forms (rows and cells), with the JSON still available").

Pure functions (no ``js``): ``tables_form`` draws the dialog, ``table_from_grid`` reads a grid
form's values back into a table. Each cell is read as the kind of value its column holds in the
game's default table (a whole number stays a whole number, yes/no a yes/no, a list or object is
JSON in its cell), so a slip is named at its row before the engine sees it; the engine's own
``check_table`` then checks the table as it checks one typed as JSON or imported.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import InvalidAction
from ..gate import parse_json
from .html import Markup, h, html
from .render import button

_button = button  # render.button: Markup, its label and every attribute escaped


# fields of a table that say what it is, not what it holds: shown, never edited
ABOUT = ("id", "title", "source", "assumed")


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "yes/no"
    if isinstance(v, int):
        return "whole number"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "text"
    if v is None:
        return "empty"
    return "json"


def _one_kind(kinds: set[str]) -> str:
    kinds = kinds - {"empty"}
    if not kinds:
        return "empty"
    if kinds <= {"whole number", "number"}:
        return "number" if "number" in kinds else "whole number"
    return kinds.pop() if len(kinds) == 1 else "any"


def _kinds_seen(tables: tuple[dict[str, Any], ...]) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for t in tables:
        for e in t.get("entries", []):
            if isinstance(e, dict):
                for k, v in e.items():
                    seen.setdefault(k, set()).add(_kind(v))
    return seen


def column_kinds(default: dict[str, Any], current: dict[str, Any]) -> dict[str, str]:
    """Each column of the entries and the kind of value it holds in the default table (a column
    only the GM's copy has takes its kind from there); "any" where the rows differ."""
    return {k: _one_kind(v) for k, v in _kinds_seen((default, current)).items()}


def nullable_columns(default: dict[str, Any], current: dict[str, Any]) -> set[str]:
    """Columns in which some row holds null: there an empty text cell is null, elsewhere ""."""
    return {k for k, v in _kinds_seen((default, current)).items() if "empty" in v}


def scalar_kinds(default: dict[str, Any], current: dict[str, Any]) -> dict[str, str]:
    """The table's own settings beside its rows ("die", "note", "beyond"...), with their kinds."""
    kinds: dict[str, set[str]] = {}
    for t in (default, current):
        for k, v in t.items():
            if k not in ABOUT and k != "entries":
                kinds.setdefault(k, set()).add(_kind(v))
    return {k: _one_kind(v) for k, v in kinds.items()}


def _cell_text(v: Any, kind: str) -> str:
    if v is None:
        return ""
    if kind == "json" or isinstance(v, (list, dict)):
        return json.dumps(v, ensure_ascii=False)
    if kind == "any":  # read back as JSON where it parses: true, 0.5, "12" (a word that looks like a number)
        if not isinstance(v, str):
            return json.dumps(v)
        try:
            json.loads(v)
        except ValueError:
            return v
        return json.dumps(v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float) and v == int(v) and kind == "number":
        return f"{v:g}"
    return str(v)


def _cell(name: str, v: Any, kind: str, label: str, fid: str | None = None) -> Markup:
    """A cell's control; ``fid``: its id, for a label beside it."""
    if kind == "yes/no":
        now = _cell_text(v, kind)
        return h("select", {"id": fid, "name": name, "aria-label": label},
                 (h("option", {"value": x, "selected": now == x}, x or "(none)") for x in ("yes", "no", "")))
    mode = "numeric" if kind == "whole number" else "decimal" if kind == "number" else None
    size = 6 if kind in ("whole number", "number") else 14
    return h("input", {"id": fid, "name": name, "value": _cell_text(v, kind), "aria-label": label, "inputmode": mode,
                       "size": size, "autocomplete": "off", "spellcheck": "false"})


def read_cell(text: Any, kind: str, path: str, nullable: bool = True) -> Any:
    """A cell's text as its column's kind of value; ``InvalidAction(path)`` says what is wrong.
    An empty cell is null, except in a text column that never holds null, where it is ""."""
    s = str(text if text is not None else "").strip()
    if s == "":
        return None if nullable or kind not in ("text", "any") else ""
    if kind == "whole number":
        try:
            return int(s)
        except ValueError:
            raise InvalidAction(path, f"must be a whole number, not {s!r}") from None
    if kind == "number":
        try:
            f = float(s)
        except ValueError:
            raise InvalidAction(path, f"must be a number, not {s!r}") from None
        if not math.isfinite(f):
            raise InvalidAction(path, f"must be a finite number, not {s!r}")
        return int(f) if f == int(f) and "." not in s and "e" not in s.lower() else f
    if kind == "yes/no":
        if s.lower() in ("yes", "true"):
            return True
        if s.lower() in ("no", "false"):
            return False
        raise InvalidAction(path, f"must be yes or no, not {s!r}")
    if kind == "json":
        return parse_json(s, path)  # depth-scanned; a slip is InvalidAction at the cell
    if kind in ("empty", "any"):  # a column of no one kind: a number or JSON if it reads as one, else text
        try:
            return parse_json(s, path)
        except InvalidAction:
            return s  # not JSON: the word as typed
    return s


def table_from_grid(default: dict[str, Any], current: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The table a grid form describes: ``current`` with its settings and rows as typed, rows
    marked "remove" left out. Raises ``InvalidAction`` at ``value.entries.<row>.<column>``."""
    cols = column_kinds(default, current)
    nulls = nullable_columns(default, current)
    out = {k: v for k, v in current.items()}
    for k, kind in scalar_kinds(default, current).items():
        if f"s.{k}" in values:
            out[k] = read_cell(values[f"s.{k}"], kind, f"value.{k}", nullable=current.get(k, "") is None)
    rows = []
    n = 0
    while f"r{n}.__row" in values:
        if not values.get(f"r{n}.__drop"):
            # a row that has no such field keeps not having it, unless the GM types one in
            absent = set(filter(None, str(values.get(f"r{n}.__absent", "")).split(",")))
            row = {}
            for k, kind in cols.items():
                text = values.get(f"r{n}.{k}")
                if k in absent and not str(text or "").strip():
                    continue
                row[k] = read_cell(text, kind, f"value.entries.{n}.{k}", nullable=k in nulls)
            rows.append(row)
        n += 1
    out["entries"] = rows
    return out


def grid_html(tid: str, default: dict[str, Any], current: dict[str, Any]) -> Markup:
    cols = column_kinds(default, current)
    scalars = scalar_kinds(default, current)
    entries = list(current.get("entries", []))
    parts = [html('<form class="form table-grid" data-form="table-grid" data-table="{}" novalidate>', tid)]
    if scalars:
        parts.append(html('<div class="field-row">'))
        for k, kind in scalars.items():
            fid = f"ts-{tid}-{k}"
            parts.append(html('<div class="field" data-field="value.{k}"><label for="{fid}">{k}</label>{control}'
                              '<p class="field-error" data-error-for="value.{k}"></p></div>', k=k, fid=fid,
                              control=_cell(f"s.{k}", current.get(k), kind, k, fid)))
        parts.append(html("</div>"))
    if cols:
        head = Markup("").join(html('<th scope="col">{}<br><span class="hint">{}</span></th>', k, kind)
                               for k, kind in cols.items())
        body = []
        for i, e in enumerate(entries):
            e = e if isinstance(e, dict) else {}
            cells = Markup("").join(h("td", None, _cell(f"r{i}.{k}", e.get(k), kind, f"row {i + 1} {k}"))
                                    for k, kind in cols.items())
            body.append(html(
                '<tr><th scope="row">{n}<input type="hidden" name="r{i}.__row" value="1">'
                '<input type="hidden" name="r{i}.__absent" value="{absent}"></th>{cells}'
                '<td><label class="drop"><input type="checkbox" name="r{i}.__drop" value="yes"> remove</label></td></tr>'
                '<tr class="row-error"><td colspan="{span}"><p class="field-error" '
                'data-error-for="value.entries.{i}"></p></td></tr>', n=i + 1, i=i,
                absent=",".join(k for k in cols if k not in e), cells=cells, span=len(cols) + 2))
        parts.append(html('<div class="grid-scroll"><table class="grid"><thead><tr><th scope="col">Row</th>{}'
                          '<th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead>'
                          '<tbody>{}</tbody></table></div>', head, Markup("").join(body)))
    else:
        parts.append(html('<p class="hint">This table has no rows yet and so no columns to show: type it in the box below (as a Fray file writes it), '
                          "as its source says.</p>"))
    add = _button("Add a row", "table-add-row", "secondary", table=tid) if cols and entries else ""
    parts.append(html('<p class="field-error" data-error-for="value.entries"></p><p class="field-error" '
                      'data-error-for="value"></p><div class="dlg-actions">{}<button type="submit" class="primary">'
                      'Save table</button></div></form>', add))
    return Markup("").join(parts)


def source_words(source: str) -> str:
    """Where a table comes from, in a GM's words: FACTS.md is Fray's own notes file, which means
    nothing at the table; what it stands for is public material about the game."""
    s = re.sub(r"\s*\(FACTS\.md\)", "", source)
    s = re.sub(r"FACTS\.md's", "the public", s)
    s = re.sub(r"FACTS\.md \([\w-]+\)", "public material", s)  # its section of a game: "FACTS.md (duel)"
    s = s.replace("FACTS.md", "public material")
    return s.replace("rule text", "the rules").replace("Rule text", "The rules")


def tables_form(rs: Any, enc: Any, saved: str | None = None) -> Markup:
    """Every table of the ruleset as a form of rows and cells (and its JSON), marked assumed or sourced."""
    parts = [html('<div class="tables"><h2 id="dlg-title">Tables</h2>'
                  '<p class="hint">Edit a table for this encounter only. Tables marked <strong>assumed</strong> are '
                  "Fray's own defaults, not the game's: replace them with your edition's.</p>")]
    if not rs.tables:
        parts.append(html("<p>This ruleset has no tables.</p>"))
    for tid, table in rs.tables.items():
        current = enc.tables.get(tid) or table
        edited = tid in enc.tables
        parts.append(html(
            '<details{open} data-table="{tid}"><summary>{title} {tag}{edited}</summary>'
            '<p class="hint">From: {source}</p>{grid}'
            '<details class="as-json"><summary>As written in a Fray file</summary>'
            '<form class="form" data-form="table" data-table="{tid}" novalidate>'
            '<div class="field" data-field="value"><label for="t-{tid}">The table as a Fray file writes it</label>'
            '<textarea id="t-{tid}" name="value" rows="10" spellcheck="false">{json}</textarea>'
            '<p class="field-error" data-error-for="value"></p></div>'
            '<div class="dlg-actions"><label><input type="checkbox" name="reset" value="yes"> reset to default</label>'
            '<button type="submit" class="primary">Save table</button></div></form></details></details>',
            open=html(" open") if saved == tid else "", tid=tid, title=table.get("title", tid),
            tag=html('<span class="badge assumed">assumed</span>') if table.get("assumed") else "",
            edited=html(" <em>(edited)</em>") if edited else "",
            source=source_words(table.get("source", "not stated")), grid=grid_html(tid, table, current),
            json=json.dumps(current, indent=1, ensure_ascii=False)))
    parts.append(html('<div class="dlg-actions">{}</div></div>', _button("Close", "close-dialog", "secondary")))
    return Markup("").join(parts)


def form_row_of(values: dict[str, Any], kept: int) -> int:
    """The grid row (as the form numbers them) of the ``kept``-th row the table was saved with:
    rows marked "remove" are left out of the table, so the engine's row numbers skip them."""
    n = k = 0
    while f"r{n}.__row" in values:
        if not values.get(f"r{n}.__drop"):
            if k == kept:
                return n
            k += 1
        n += 1
    return kept


def engine_field_to_form(values: dict[str, Any]):
    """``field_map`` for the engine's errors on a grid's table: ``value.entries.<kept row>...`` to
    the row the GM sees."""
    def to_form(field: str) -> str:
        m = re.match(r"^value\.entries\.(\d+)(.*)$", field)
        return f"value.entries.{form_row_of(values, int(m.group(1)))}{m.group(2)}" if m else field
    return to_form
