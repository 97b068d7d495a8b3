"""Dragging equals in the order strip (touch and mouse alike: pointer events).

An entry with equals in the order (``data-tie``, the same ``Slot.tie``) has a grip. Pressing it
and moving marks the entry under the pointer when it is an equal (same ``data-tie``); letting go
there asks the engine to settle the tie (``settle_tie``: before an equal that came earlier, after
one that came later). Anything else, or a cancelled pointer, changes nothing. The keyboard route
is Alt+ArrowUp / Alt+ArrowDown on the focused entry (``App.on_key``).
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from .dom import nil
from .pointer import PointerCtl, capture
from .render import drop_side


class StripCtl(PointerCtl):
    where = "in the order strip"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.drag: dict[str, Any] | None = None

    def install(self) -> None:
        strip = js.document.getElementById("order-strip")
        if strip is None:
            return
        self.follow_gestures(strip)

    def entry_at(self, x: float, y: float) -> Any:
        el = nil(js.document.elementFromPoint(x, y))
        return None if el is None else nil(el.closest("li.strip-entry"))

    def on_down(self, e: Any) -> None:
        grip = nil(e.target.closest("[data-drag]")) if hasattr(e.target, "closest") else None
        if grip is None:
            return
        li = grip.closest("li.strip-entry")
        e.preventDefault()
        capture(grip, e.pointerId)
        li.classList.add("dragging")
        self.drag = {"id": li.getAttribute("data-id"), "tie": li.getAttribute("data-tie"), "li": li,
                     "target": None, "pointer": e.pointerId}

    def on_move(self, e: Any) -> None:
        d = self.drag
        if d is None or e.pointerId != d["pointer"]:
            return
        e.preventDefault()
        li = self.entry_at(e.clientX, e.clientY)
        target = None
        if li is not None and li.getAttribute("data-tie") == d["tie"] and li.getAttribute("data-id") != d["id"]:
            target = li
        if d["target"] is not None and d["target"] is not target:
            d["target"].classList.remove("drop-target")
        if target is not None:
            target.classList.add("drop-target")
        d["target"] = target

    def on_up(self, e: Any) -> None:
        d = self.drag
        if d is None or e.pointerId != d["pointer"]:
            return
        self.on_move(e)
        target = d["target"]
        self.reset()
        if target is None:
            return
        order = [li.getAttribute("data-id") for li in js.document.querySelectorAll("#order-strip li.strip-entry")]
        other = target.getAttribute("data-id")
        self.app.settle_tie(d["id"], drop_side(order, d["id"], other), other)

    def on_cancel(self, e: Any) -> None:
        self.reset()

    def reset(self) -> None:
        d, self.drag = self.drag, None
        if d is None:
            return
        d["li"].classList.remove("dragging")
        if d["target"] is not None:
            d["target"].classList.remove("drop-target")


CTL: StripCtl | None = None


def install(app: Any) -> StripCtl:
    global CTL
    CTL = StripCtl(app)
    CTL.install()
    return CTL
