"""The one loop every change of the encounter goes through: dispatch → history → persist → render.

``Controller.dispatch`` hands one action to the history (``History.do`` commits only once the
reducer succeeded, so a refused action changes nothing and its error is shown next to the control
that caused it); Undo, Redo and a jump in the history list move the history; each change is then
queued for the autosave, the page drawn again, and the players' window told. The routes
(``web/routes.py``) and the game panels call it through ``app.dispatch``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..errors import FrayError
from . import history_view, players_view
from .dom import by_id, nil

_SAID = [""]  # what the Undo toast says now (Controller.say_undo): "" once a change has cleared it


class Controller:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.last_error: FrayError | None = None  # the last refusal (strike-rank asks for more dice)

    def dispatch(self, action: dict[str, Any], scope: Any = None, field_map: Callable[[str], str] | None = None) -> bool:
        """Apply one action. On an engine error, show it in ``scope`` and change nothing."""
        app = self.app
        if not app.check_resumed():
            return False
        app.clear_errors(scope)
        self.last_error = None
        try:
            app.history.do(action, app.rng)
        except FrayError as e:
            self.last_error = e  # a panel may answer a refusal of its own kind (strike-rank: more dice)
            app.show_error(scope, e, field_map)
            return False
        self.say_undo("")  # a new change: what Undo last said is no longer the news
        self.after_change()
        return True

    def after_change(self) -> None:
        """The history moved: save it, drop stale messages, draw, tell the players' window."""
        app = self.app
        app.persist()
        app.clear_errors()  # regions that do not change are not re-written: drop stale messages
        app.render()
        players_view.publish(app)

    def undo(self) -> None:
        app = self.app
        if not app.check_resumed():
            return
        h = app.history
        if h.can_undo:
            said = h.label(h.cursor - 1)
            if h.undo():
                self.after_change()
                self.say_undo(f"Undid: {said}")

    def redo(self) -> None:
        app = self.app
        if not app.check_resumed():
            return
        h = app.history
        if h.can_redo:
            said = h.label(h.cursor)
            if h.redo():
                self.after_change()
                self.say_undo(f"Redid: {said}")

    def history_go(self, point: int) -> None:
        """Jump to a point of the history list: that many undos (or redos) at once."""
        app = self.app
        if not app.check_resumed():
            return
        h = app.history
        before = h.cursor
        try:
            moved = h.go_to(point)
        except Exception as e:  # a save its actions contradict, or a stale list: say it, move nothing
            app.banner(f"Could not go to that point: {e}. The encounter is unchanged.")
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
            app.open_dialog(history_view.history_html(h, app.ui.history_shown or history_view.PAGE, app.enc.name))
        except Exception as e:  # noqa: BLE001 - the list could not be drawn; the encounter moved as asked
            app.close_dialog()
            app.banner(f"Moved to {where}; the history list could not be drawn ({e}).")

    @staticmethod
    def say_undo(text: str) -> None:
        """The toast saying what Undo, Redo or the history list just changed (a live region; "" hides it)."""
        import js  # type: ignore[import-not-found]

        el = by_id("undo-said")
        if el is None:
            return
        if not text and not _SAID[0]:
            return  # nothing said since the last change: every change would otherwise cross into the page 5 times
        _SAID[0] = text
        el.textContent = text
        # a toast over the page's foot (static/app.css .undo-said): its fade starts again with each
        # sentence, and it keeps clear of a focused form near the bottom by standing at the top
        el.classList.remove("at-top", "shown")
        _ = el.offsetWidth  # the reflow that makes the fade start over
        el.classList.add("shown")
        focused = nil(js.document.activeElement)
        if text and focused is not None and focused.closest("form") is not None:
            if focused.getBoundingClientRect().bottom > js.window.innerHeight * 0.6:
                el.classList.add("at-top")
