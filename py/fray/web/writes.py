"""A render's writes into the page, made in one call.

Every call from Python into the page makes proxies and strings that WebKit keeps as garbage until
its next full collection (issue 36, docs/performance.md: some 1.7 KB a call). Patching a region
child by child (``blocks.patch_region``) made half of a Melee Round's calls: each child looked up,
counted, rewritten. So while ``Painter.render`` draws, the regions it patches are ``Node`` s: each
write is recorded, in order, as an operation on a numbered element, and ``Writes.flush`` hands
them all to ``frayWrite`` (``static/dom.js``) as one JSON text. There they are done in the same
order, so what the patching code asks for is what the page does, as when it wrote straight in.

What the patching reads from the page is a child count, to be sure the page still holds what was
last written there (``blocks.holds``). A ``Node`` cannot read: it records the count expected,
and ``frayWrite`` checks it as it goes. A region whose check fails (or whose element is missing)
gets no more writes, and ``flush`` returns it, for the painter to write whole (always right, as
before, only slower).

Pure: the page is reached only through the ``send`` function ``flush`` is given.
"""

from __future__ import annotations

import json
from typing import Any, Callable


class Writes:
    """The operations recorded for one render; see the module's docstring."""

    def __init__(self) -> None:
        self.ops: list[list[Any]] = []
        self._handles = 0

    def new_handle(self) -> int:
        self._handles += 1
        return self._handles

    def region(self, element_id: str) -> "Node":
        """The region with this id, as the patching writes it."""
        h = self.new_handle()
        self.ops.append(["root", h, element_id])
        return Node(self, h)

    def flush(self, send: Callable[[str], Any]) -> list[str]:
        """Hand the recorded writes to the page (``send``: ``frayWrite``); the ids of the regions it
        could not write as recorded, to be written whole. Nothing recorded: nothing sent."""
        if not self.ops:
            return []
        text = json.dumps(self.ops, separators=(",", ":"))
        self.ops = []
        failed = str(send(text) or "")
        return [r for r in failed.split("\n") if r]


class _Children:
    def __init__(self, node: "Node") -> None:
        self._node = node

    def item(self, k: int) -> "Node":
        w = self._node.writes
        h = w.new_handle()
        w.ops.append(["item", h, self._node.handle, k])
        return Node(w, h)


class Node:
    """An element of the page as a render's writes address it: what is done to it is recorded."""

    def __init__(self, writes: Writes, handle: int) -> None:
        self.writes, self.handle = writes, handle

    def expect(self, count: int) -> None:
        """The page must hold ``count`` child elements here, else the region is written whole."""
        self.writes.ops.append(["expect", self.handle, count])

    @property
    def children(self) -> _Children:
        return _Children(self)

    @property
    def firstElementChild(self) -> "Node":
        h = self.writes.new_handle()
        self.writes.ops.append(["first", h, self.handle])
        return Node(self.writes, h)

    def _set(self, kind: str, markup: str) -> None:
        self.writes.ops.append([kind, self.handle, str(markup)])

    outerHTML = property(None, lambda self, markup: self._set("outer", markup))
    innerHTML = property(None, lambda self, markup: self._set("inner", markup))

    def insertAdjacentHTML(self, where: str, markup: str) -> None:
        self.writes.ops.append(["adj", self.handle, where, str(markup)])

    def remove(self) -> None:
        self.writes.ops.append(["remove", self.handle])

    def trim(self, count: int) -> None:
        """Remove the last children past ``count`` (the log's oldest lines)."""
        self.writes.ops.append(["trim", self.handle, count])
