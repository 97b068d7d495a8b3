"""What the page's pointer controllers share: the order strip (``stripctl``) and the map
(``mapctl``) both follow a gesture of pointer down, move, up or cancel (Pointer Events: mouse,
pen and touch alike), capture the pointer where the gesture began, and must not let a bug in a
handler blank the page.
"""

from __future__ import annotations

import traceback
from abc import ABC, abstractmethod
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

GESTURE_EVENTS = ("pointerdown", "pointermove", "pointerup", "pointercancel")


class PointerCtl(ABC):
    """A controller of one part of the page: ``where`` names it in the banner ("on the map").

    A subclass defines ``on_down``, ``on_move``, ``on_up``, ``on_cancel`` and ``reset`` (forget
    the gesture under way); ``follow_gestures`` wires the first four to an element.
    """

    where = "in the page"

    def __init__(self, app: Any) -> None:
        self.app = app
        self._proxies: list[Any] = []  # kept alive for as long as the listeners are

    def listen(self, target: Any, event: str, fn: Any, passive: bool | None = None) -> None:
        if target is None:
            return

        def guarded(e: Any, fn: Any = fn) -> None:
            try:
                fn(e)
            except Exception as err:  # a bug must not blank the page: say it, keep the encounter
                traceback.print_exc()
                self.reset()
                self.app.banner(f"Something went wrong {self.where}: {err}. The encounter is unchanged.")

        p = create_proxy(guarded)
        self._proxies.append(p)
        if passive is None:
            target.addEventListener(event, p)
        else:
            target.addEventListener(event, p, js.Object.fromEntries([["passive", passive]]))

    def follow_gestures(self, target: Any) -> None:
        for event, fn in zip(GESTURE_EVENTS, (self.on_down, self.on_move, self.on_up, self.on_cancel)):
            self.listen(target, event, fn)

    @abstractmethod
    def on_down(self, e: Any) -> None: ...

    @abstractmethod
    def on_move(self, e: Any) -> None: ...

    @abstractmethod
    def on_up(self, e: Any) -> None: ...

    @abstractmethod
    def on_cancel(self, e: Any) -> None: ...

    @abstractmethod
    def reset(self) -> None: ...


def capture(el: Any, pointer_id: Any) -> None:
    """Send the rest of the gesture's events to ``el`` even when the pointer leaves it (or it is
    redrawn). Capture is a convenience: a pointer the browser does not know (a synthetic one)
    refuses it, and the events still bubble to the listeners without it."""
    try:
        el.setPointerCapture(pointer_id)
    except Exception:
        pass
