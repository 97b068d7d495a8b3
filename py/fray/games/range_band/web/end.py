"""The battle's end: the fold-out form (activity and involvement of each combatant) and, once ended,
what each takes away (fatigue and trauma)."""

from __future__ import annotations

from typing import Any

from fray.web.render import esc
from fray.games.range_band.web.common import _check, _general_err, _lazy_state
from fray.web.widgets import err_slot as _err, field as _field, lazy_fold, select as _select, text_input as _input


def battle_end_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The battle's end: before it, a fold-out (drawn when it first opens: two lists per combatant)
    to end it; after it, what each combatant takes away."""
    end = view.get("battle_end")
    if end:
        rows = "".join(f'<tr><th scope="row">{esc(p["name"])}</th><td>{esc(p["activity"])}</td>'
                       f'<td>{esc(p["involvement"])}</td><td>{esc(p["fatigue"])}</td><td>{esc(p["trauma"])}</td></tr>'
                       for p in end.get("proposals", []))
        return (f'<div class="rb-end rb-box"><h3>{"Between waves" if end.get("wave") else "The battle is over"} '
                f'after {esc(end.get("rounds"))} rounds <span class="badge assumed">assumed charts</span></h3>'
                f'<table class="rb-end-table"><thead><tr><th scope="col">Who</th><th scope="col">Activity</th>'
                f'<th scope="col">Involvement</th><th scope="col">Fatigue</th><th scope="col">Trauma</th></tr></thead>'
                f'<tbody>{rows}</tbody></table><p class="hint">{esc(end.get("note", ""))}</p></div>')
    if view.get("phase", {}).get("id") == "setup":
        return ""
    return lazy_fold("rb-end rb-box rb-lazy", END_KEY, "End the battle (post-combat fatigue and trauma)",
                     lambda: _end_form(view), *_lazy_state(ui, END_KEY))


END_KEY = "rb-end"


def lazy_keys(view: dict[str, Any], drawn: Any, is_open: set[str]) -> tuple[set[str], set[str]]:
    """The lazy fold-outs (open, drawn) for this render, from those drawn so far and those open on the
    page now: drawn once opened, while the render still shows them (the acting combatant's "More
    actions" while it is their turn in the actions phase, the battle's end until it is over)."""
    here = {END_KEY} if not view.get("battle_end") and view.get("phase", {}).get("id") != "setup" else set()
    if view.get("phase", {}).get("id") == "actions" and view.get("current"):
        here.add(f"rb-more-{view['current']}")
    return is_open & here, (set(drawn) | is_open) & here


def _end_form(view: dict[str, Any]) -> str:
    ch = view.get("choices", {})
    rows = []
    for c in view.get("combatants", []):
        cid = c["id"]
        rows.append(
            f'<tr><th scope="row">{esc(c["name"])}</th><td>'
            f'<label for="rb-be-a-{esc(cid)}" class="visually-hidden">Activity of {esc(c["name"])}</label>'
            f'{_select(f"rb-be-a-{cid}", f"activity.{cid}", [(x, x) for x in ch.get("activity", [])], "moderate")}'
            f'{_err(f"activity.{cid}")}</td><td>'
            f'<label for="rb-be-i-{esc(cid)}" class="visually-hidden">Involvement of {esc(c["name"])}</label>'
            f'{_select(f"rb-be-i-{cid}", f"involvement.{cid}", [(x, x) for x in ch.get("involvement", [])], "combatant")}'
            f'{_err(f"involvement.{cid}")}</td></tr>')
    return (f'<form data-form="rb-end" novalidate aria-label="End the battle">'
            f'<table class="rb-end-table"><thead><tr><th scope="col">Who</th><th scope="col">Activity</th>'
            f'<th scope="col">Involvement</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            '<div class="rb-grid">'
            + _field("rb-be-rounds", "rounds", "Battle length (rounds)",
                     _input("rb-be-rounds", "rounds", "", placeholder=str(view.get("round", 1))),
                     hint=f"blank: {view.get('round', 1)}, the rounds played")
            + '</div><div class="rb-row">' + _check("rb-be-wave", "wave", "Between waves (battles over 24 rounds)")
            + '<button type="submit" class="secondary">End the battle</button></div>'
            '<p class="hint">Fatigue and trauma come from charts <span class="badge assumed">assumed</span>.</p>'
            f'{_general_err()}</form>')


