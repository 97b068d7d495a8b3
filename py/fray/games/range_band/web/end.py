"""The battle's end: the fold-out form (activity and involvement of each combatant) and, once ended,
what each takes away (fatigue and trauma)."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, html
from fray.games.range_band.web.common import (_check, _err, _field, _general_err, _input, _lazy_fold, _lazy_state,
                                              _select)


def battle_end_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """The battle's end: before it, a fold-out (drawn when it first opens: two lists per combatant)
    to end it; after it, what each combatant takes away."""
    end = view.get("battle_end")
    if end:
        rows = [html('<tr><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>',
                     p["name"], p["activity"], p["involvement"], p["fatigue"], p["trauma"])
                for p in end.get("proposals", [])]
        return html('<div class="rb-end rb-box"><h3>{what} after {rounds} rounds <span class="badge assumed">assumed '
                    'charts</span></h3><table class="rb-end-table"><thead><tr><th scope="col">Who</th>'
                    '<th scope="col">Activity</th><th scope="col">Involvement</th><th scope="col">Fatigue</th>'
                    '<th scope="col">Trauma</th></tr></thead><tbody>{rows}</tbody></table>'
                    '<p class="hint">{note}</p></div>',
                    what="Between waves" if end.get("wave") else "The battle is over", rounds=end.get("rounds"),
                    rows=fragment(rows), note=end.get("note", ""))
    if view.get("phase", {}).get("id") == "setup":
        return Markup("")
    return _lazy_fold("rb-end rb-box rb-lazy", END_KEY, "End the battle (post-combat fatigue and trauma)",
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


def _end_form(view: dict[str, Any]) -> Markup:
    ch = view.get("choices", {})
    rows = []
    for c in view.get("combatants", []):
        cid = c["id"]
        rows.append(html(
            '<tr><th scope="row">{name}</th><td>'
            '<label for="rb-be-a-{cid}" class="visually-hidden">Activity of {name}</label>{act}{act_err}</td><td>'
            '<label for="rb-be-i-{cid}" class="visually-hidden">Involvement of {name}</label>{inv}{inv_err}</td></tr>',
            name=c["name"], cid=cid,
            act=_select(f"rb-be-a-{cid}", f"activity.{cid}", [(x, x) for x in ch.get("activity", [])], "moderate"),
            act_err=_err(f"activity.{cid}"),
            inv=_select(f"rb-be-i-{cid}", f"involvement.{cid}", [(x, x) for x in ch.get("involvement", [])],
                        "combatant"),
            inv_err=_err(f"involvement.{cid}")))
    return html('<form data-form="rb-end" novalidate aria-label="End the battle">'
                '<table class="rb-end-table"><thead><tr><th scope="col">Who</th><th scope="col">Activity</th>'
                '<th scope="col">Involvement</th></tr></thead><tbody>{rows}</tbody></table>'
                '<div class="rb-grid">{rounds}</div><div class="rb-row">{wave}'
                '<button type="submit" class="secondary">End the battle</button></div>'
                '<p class="hint">Fatigue and trauma come from charts <span class="badge assumed">assumed</span>.</p>'
                '{err}</form>',
                rows=fragment(rows),
                rounds=_field("rb-be-rounds", "rounds", "Battle length (rounds)",
                              _input("rb-be-rounds", "rounds", "", placeholder=str(view.get("round", 1))),
                              hint=f"blank: {view.get('round', 1)}, the rounds played"),
                wave=_check("rb-be-wave", "wave", "Between waves (battles over 24 rounds)"), err=_general_err())
