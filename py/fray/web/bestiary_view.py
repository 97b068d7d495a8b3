"""The bestiary dialog: the GM's own templates of this ruleset, to remove, export or import
(fray.bestiary). Using one is in the add form's "Ready-made" list, under "My bestiary"."""

from __future__ import annotations

from typing import Any

from .. import bestiary
from .render import button, esc


def bestiary_html(templates: list[dict[str, Any]], ruleset: Any, note: str = "") -> str:
    mine = bestiary.of_ruleset(templates, ruleset.id)
    others = len(templates) - len(mine)
    rows = "".join(
        f'<li><span class="who">{esc(t["combatant"].get("name", "?"))}</span>'
        f'<span class="hint">{esc(_summary(t))}</span>'
        f'{button("Remove", "bestiary-remove", "small danger", title="Remove " + str(t["combatant"].get("name")) + " from the bestiary", name=t["combatant"].get("name", ""))}</li>'
        for t in mine)
    body = (f'<ul class="bestiary-list">{rows}</ul>' if mine else
            f'<p>No templates for {esc(ruleset.name)} yet. In the add form, tick <strong>Keep in my bestiary</strong> '
            "to keep a combatant as a template.</p>")
    other = f'<p class="hint">{others} more for other rules (shown with their encounters; exported with these).</p>' if others else ""
    return (f'<div class="bestiary"><h2 id="dlg-title">My bestiary</h2>'
            f'<p class="hint">Templates are kept in this browser. Export them to keep a copy or to move them to '
            f'another device.</p><p class="status-note" role="status">{esc(note)}</p>{body}{other}'
            f'<p id="bestiary-error" class="field-error" role="alert" data-error-for="bestiary"></p>'
            f'<div class="dlg-actions">{button("Back to adding", "add-combatant", "secondary")}'
            f'{button("Export", "bestiary-export", "secondary") if templates else ""}'
            '<label class="button secondary" id="bestiary-import-label">Import'
            '<input type="file" id="bestiary-import" accept=".json,application/json" class="visually-hidden"></label>'
            f'{button("Close", "close-dialog", "secondary")}</div></div>')


def _summary(t: dict[str, Any]) -> str:
    c = t["combatant"]
    stats = c.get("stats") or {}
    bits = [f"{k} {v}" for k, v in list(stats.items())[:6]]
    side = c.get("side")
    return ", ".join(([side] if side else []) + bits)
