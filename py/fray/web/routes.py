"""The page's routes: which handler a ``data-act`` button or a ``data-form`` form calls.

Two tables of the page's own controls (``ACTS``, ``FORMS``), and a game's routes declared by its
panel: the names in ``panel.ACTS`` / ``panel.FORMS``, each sent to the panel's ``on_act`` /
``on_form`` (a panel without such a tuple, as an installed game's may be, is offered every name).
A game's route comes first and may hand a name back to the page (``on_act`` returning False: the
add dialog's generic part, Next where the game has nothing to add). A name nobody routes is said
once in the console and does nothing.

An act handler is ``handler(app, name, el)``; a form handler ``handler(app, name, form, values)``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import js  # type: ignore[import-not-found]

from .. import bestiary, placing
from fray.games import all_rulesets
from . import games_view, history_view, party_view, players_view
from . import render as R
from .dom import by_id, data, download, nil, q
from .tables_view import tables_form

ActHandler = Callable[[Any, str, Any], None]
FormHandler = Callable[[Any, str, Any, dict], None]


# -- the page's own buttons ------------------------------------------------------------------------

def undo(app: Any, name: str, el: Any) -> None:
    app.loop.undo()


def redo(app: Any, name: str, el: Any) -> None:
    app.loop.redo()


def settle_import(app: Any, name: str, el: Any) -> None:
    app.in_background(app.settle_import(name.removeprefix("import-")))


def history(app: Any, name: str, el: Any) -> None:
    app.ui.history_shown = history_view.PAGE
    app.open_dialog(history_view.history_html(app.history, history_view.PAGE, app.enc.name))


def history_more(app: Any, name: str, el: Any) -> None:
    app.ui.history_shown = int(data(el, "shown") or history_view.PAGE)
    app.open_dialog(history_view.history_html(app.history, app.ui.history_shown, app.enc.name))


def history_go(app: Any, name: str, el: Any) -> None:
    app.loop.history_go(int(data(el, "point") or 0))


def advance(app: Any, name: str, el: Any) -> None:
    app.dispatch({"type": "advance"}, by_id("round-bar"))


def add_combatant(app: Any, name: str, el: Any) -> None:
    app.open_dialog(R.combatant_form(app.ruleset, None, app.ruleset.presets(), app.my_templates()))


def open_bestiary(app: Any, name: str, el: Any) -> None:
    app.open_bestiary()


def bestiary_export(app: Any, name: str, el: Any) -> None:
    download("fray-bestiary.json", bestiary.dumps(app.templates))


def bestiary_remove(app: Any, name: str, el: Any) -> None:
    app.in_background(app.remove_template(data(el, "name") or ""))


def use_preset(app: Any, name: str, el: Any) -> None:
    app.use_preset(nil(el.closest("form")))


def edit_combatant(app: Any, name: str, el: Any) -> None:
    c = app.enc.get(data(el, "id"))
    if c:
        app.open_dialog(R.combatant_form(app.ruleset, c, []))


def remove_combatant(app: Any, name: str, el: Any) -> None:
    cid = data(el, "id")
    c = app.enc.get(cid)
    if c and js.window.confirm(f"Remove {c.name} from the fight? (Undo brings them back.)"):
        app.dispatch({"type": "remove_combatant", "id": cid}, nil(el.closest("article")))


def add_condition(app: Any, name: str, el: Any) -> None:
    c = app.enc.get(data(el, "id"))
    if c:
        app.open_dialog(R.condition_form(c, app.ruleset.conditions, app.enc, app.ruleset))


def clear_condition(app: Any, name: str, el: Any) -> None:
    app.dispatch({"type": "set_condition", "id": data(el, "id"), "condition": data(el, "condition"), "on": False},
                 nil(el.closest(".conds-box")) or nil(el.closest("article")))


def order_nudge(app: Any, name: str, el: Any) -> None:
    app.nudge_order(data(el, "id"), -1 if name == "order-up" else 1)


def strip_open(app: Any, name: str, el: Any) -> None:
    app.open_card(data(el, "id"))


def card_fold(app: Any, name: str, el: Any) -> None:
    article = nil(el.closest("article"))
    shut = article is not None and data(article, "open") == "true"
    app.ui.card_open[data(el, "id")] = not shut
    app.render()


def cards_all(app: Any, name: str, el: Any) -> None:
    # page view state: "Fold cards" forgets the GM's choices, so the acting card alone is open
    app.ui.card_open = {c.id: True for c in app.enc.combatants} if name == "cards-open-all" else {}
    app.render()


def duplicate_combatant(app: Any, name: str, el: Any) -> None:
    cid = data(el, "id")
    spot = placing.beside(app.enc, cid)  # on free ground beside the original, not on it (issue 33)
    app.dispatch({"type": "duplicate_combatant", "id": cid,
                  "position": {"x": spot.x, "y": spot.y, "alt": spot.alt}}, nil(el.closest("article")))


def close_dialog(app: Any, name: str, el: Any) -> None:
    app.close_dialog()


def new_encounter(app: Any, name: str, el: Any) -> None:
    app.open_dialog(R.new_encounter_form(all_rulesets()) + games_view.add_game_html())


def delete_encounter(app: Any, name: str, el: Any) -> None:
    app.delete_encounter()


def export(app: Any, name: str, el: Any) -> None:
    app.export()


def tables(app: Any, name: str, el: Any) -> None:
    app.open_dialog(tables_form(app.ruleset, app.enc))


def table_add_row(app: Any, name: str, el: Any) -> None:
    app.add_table_row(nil(el.closest("form")))


def dismiss_banner(app: Any, name: str, el: Any) -> None:
    by_id("banner").hidden = True


def download_broken(app: Any, name: str, el: Any) -> None:
    if app.broken is not None and app.broken[1]:  # never an empty file
        download(f"fray-unreadable-save-{app.broken[0]}.json", app.broken[1])


def download_lost(app: Any, name: str, el: Any) -> None:
    app.download_lost()


def conflict_reload(app: Any, name: str, el: Any) -> None:
    app.in_background(app.load_newer())


def conflict_copy(app: Any, name: str, el: Any) -> None:
    app.keep_copy()


def show_pane(app: Any, name: str, el: Any) -> None:
    show = "tracker" if name == "show-tracker" else "map"
    q(js.document, ".panes").dataset.show = show
    by_id("tab-tracker").setAttribute("aria-selected", "true" if show == "tracker" else "false")
    by_id("tab-map").setAttribute("aria-selected", "true" if show == "map" else "false")


def players(app: Any, name: str, el: Any) -> None:
    players_view.on_act(app, name, el)


def party(app: Any, name: str, el: Any) -> None:
    party_view.on_act(app, name, el)


def added_game(app: Any, name: str, el: Any) -> None:
    games_view.on_act(app, name, el)  # Remove or Upgrade a game the GM added


ACTS: dict[str, ActHandler] = {
    "undo": undo, "redo": redo,
    "import-replace": settle_import, "import-keep": settle_import, "import-cancel": settle_import,
    "history": history, "history-more": history_more, "history-go": history_go,
    "advance": advance,
    "add-combatant": add_combatant, "use-preset": use_preset,
    "bestiary": open_bestiary, "bestiary-export": bestiary_export, "bestiary-remove": bestiary_remove,
    "edit-combatant": edit_combatant, "remove-combatant": remove_combatant,
    "duplicate-combatant": duplicate_combatant,
    "add-condition": add_condition, "clear-condition": clear_condition,
    "order-up": order_nudge, "order-down": order_nudge, "strip-open": strip_open,
    "card-fold": card_fold, "cards-open-all": cards_all, "cards-fold-all": cards_all,
    "close-dialog": close_dialog,
    "new-encounter": new_encounter, "delete-encounter": delete_encounter, "export": export,
    "tables": tables, "table-add-row": table_add_row,
    "dismiss-banner": dismiss_banner, "download-broken": download_broken, "download-lost": download_lost,
    "conflict-reload": conflict_reload, "conflict-copy": conflict_copy,
    "show-tracker": show_pane, "show-map": show_pane,
    **{n: players for n in players_view.ACTS},
    **{n: party for n in party_view.ACTS},
    **{n: added_game for n in games_view.ACTS},
}


# -- the page's own forms --------------------------------------------------------------------------

def add_combatant_form(app: Any, name: str, form: Any, values: dict) -> None:
    app.submit_combatant(form, values, None)


def edit_combatant_form(app: Any, name: str, form: Any, values: dict) -> None:
    app.submit_combatant(form, values, data(form, "id"))


def add_condition_form(app: Any, name: str, form: Any, values: dict) -> None:
    if app.dispatch(R.condition_action(data(form, "id"), values), form):
        app.close_dialog()


def note(app: Any, name: str, form: Any, values: dict) -> None:
    if app.dispatch({"type": "note", "text": values.get("text", "")}, form):
        form.reset()


def new_encounter_form(app: Any, name: str, form: Any, values: dict) -> None:
    app.create_encounter(form, values)


def add_game(app: Any, name: str, form: Any, values: dict) -> None:
    app.in_background(games_view.add_game(app, form))


def table(app: Any, name: str, form: Any, values: dict) -> None:
    app.submit_table(form, values)


def table_grid(app: Any, name: str, form: Any, values: dict) -> None:
    app.submit_table_grid(form, values)


FORMS: dict[str, FormHandler] = {
    "add-combatant": add_combatant_form, "edit-combatant": edit_combatant_form,
    "add-condition": add_condition_form, "note": note, "new-encounter": new_encounter_form,
    "add-game": add_game, "table": table, "table-grid": table_grid,
}

# Forms with a listener of their own, not the page's submit: the map's Move (web/mapctl.py).
OWN_LISTENER = ("map-move",)


# -- a game's routes -------------------------------------------------------------------------------

def game_names(panel: Any, kind: str) -> tuple[str, ...] | None:
    """The names a game's panel routes (``kind``: "act" or "form"); None: it declares none, so it
    is offered every name."""
    names = getattr(panel, "ACTS" if kind == "act" else "FORMS", None) if panel is not None else ()
    return tuple(names) if names is not None else None


def _routes_game(panel: Any, kind: str, name: str) -> bool:
    if panel is None:
        return False
    names = game_names(panel, kind)
    return names is None or name in names


_SAID: set[tuple[str, str]] = set()


def _unrouted(kind: str, name: str) -> None:
    """Said once a name: a control whose name no route knows is a page bug, not the GM's doing."""
    if (kind, name) not in _SAID:
        _SAID.add((kind, name))
        print(f"fray: no route for data-{kind}={name!r}", file=sys.stdout)


def act(app: Any, panel: Any, name: str, el: Any) -> None:
    """Route a ``data-act`` tap: the game's route first, then the page's."""
    if _routes_game(panel, "act", name) and panel.on_act(app, name, el):
        return
    handler = ACTS.get(name)
    if handler is None:
        if name not in (game_names(panel, "act") or ()):
            _unrouted("act", name)
        return
    handler(app, name, el)


def submit(app: Any, panel: Any, name: str, form: Any, values: dict) -> None:
    """Route a ``data-form`` submit: the game's route first, then the page's."""
    if _routes_game(panel, "form", name) and panel.on_form(app, name, form, values):
        return
    handler = FORMS.get(name)
    if handler is None:
        # the map's Move is heard by the map's own listener first: routed there, not unknown (it
        # said "no route" in the console at every Move: a GM's play-through)
        if name not in (game_names(panel, "form") or ()) and name not in OWN_LISTENER:
            _unrouted("form", name)
        return
    handler(app, name, form, values)
