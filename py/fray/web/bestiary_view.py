"""The bestiary dialog: the GM's own templates of this ruleset, to remove, export or import
(fray.bestiary). Using one is in the add form's "Ready-made" list, under "My bestiary"."""

from __future__ import annotations

from typing import Any

from .. import bestiary
from .html import Markup, html
from .render import button


def bestiary_html(templates: list[dict[str, Any]], ruleset: Any, note: str = "") -> Markup:
    mine = bestiary.of_ruleset(templates, ruleset.id)
    others = len(templates) - len(mine)
    rows = Markup("").join(
        html('<li><span class="who">{}</span><span class="hint">{}</span>{}</li>',
             t["combatant"].get("name", "?"), _summary(t),
             button("Remove", "bestiary-remove", "small danger",
                    title="Remove " + str(t["combatant"].get("name")) + " from the bestiary",
                    name=t["combatant"].get("name", "")))
        for t in mine)
    body = (html('<ul class="bestiary-list">{}</ul>', rows) if mine else
            html('<p>No templates for {} yet. In the add form, tick <strong>Keep in my bestiary</strong> '
                 "to keep a combatant as a template.</p>", ruleset.name))
    other = html('<p class="hint">{} more for other rules (shown with their encounters; exported with these).</p>',
                 others) if others else ""
    return html('<div class="bestiary"><h2 id="dlg-title">My bestiary</h2>'
                '<p class="hint">Templates are kept in this browser. Export them to keep a copy or to move them to '
                'another device.</p><p class="status-note" role="status">{}</p>{}{}'
                '<p id="bestiary-error" class="field-error" role="alert" data-error-for="bestiary"></p>'
                '<div class="dlg-actions">{}{}'
                '<label class="button secondary" id="bestiary-import-label">Import'
                '<input type="file" id="bestiary-import" accept=".json,application/json" class="visually-hidden"></label>'
                '{}</div></div>', note, body, other, button("Back to adding", "add-combatant", "secondary"),
                button("Export", "bestiary-export", "secondary") if templates else "",
                button("Close", "close-dialog", "secondary"))


def _summary(t: dict[str, Any]) -> str:
    c = t["combatant"]
    stats = c.get("stats") or {}
    bits = [f"{k} {v}" for k, v in list(stats.items())[:6]]
    side = c.get("side")
    return ", ".join(([side] if side else []) + bits)
