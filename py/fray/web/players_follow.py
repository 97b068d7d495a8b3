"""Who writes the players' window, and in what order (issue 12: it "follows every change within a
frame").

The players' window opened by the GM's window (``window.open``) shares the GM window's event loop:
its own script can only run after the GM's click has ended, and then the two windows paint in
different frames. So the GM's window, which holds that window's handle, writes the players' markup
(``players_render.players_html``, the same it broadcasts) into the players' window's document in
the same task as its own change: both paint in the next frame. The BroadcastChannel stays for a
players' window the GM's window has no handle on (opened by hand, or in another tab).

So two writers can draw one root, and a write must never put back something older than what is
there. Every drawing the GM's window sends carries a **stamp**: the GM window's time origin (when
that page was loaded) and the count of its drawings, kept on the root as ``data-seq``. A drawing
is written only when it is newer than the root's: from the same GM page, a higher count; from
another one (the GM's window reloaded, or a second GM tab), whichever came last, as a broadcast
always was. The players' window (``static/players.js``, which runs no Python) keeps to the same
rule, ``newer`` below written again in JavaScript, for what it hears on the channel and for the
last drawing kept in ``localStorage``, which it shows as it opens.

Pure: the page hands in its JS objects (a window, an element), and the tests hand in stand-ins.
"""

from __future__ import annotations

from typing import Any

ROOT_ID = "players-view"
SEQ_ATTR = "data-seq"


def stamp(epoch: float, n: int) -> str:
    """The stamp of the GM page loaded at ``epoch`` (``performance.timeOrigin``, ms) on its
    ``n``-th drawing."""
    return f"{epoch:.3f}:{n}"


def parse(s: Any) -> tuple[str, int] | None:
    """``(epoch, count)`` of a stamp, or None for anything that is not one."""
    if not isinstance(s, str) or ":" not in s:
        return None
    epoch, _, n = s.rpartition(":")
    try:
        return epoch, int(n)
    except ValueError:
        return None


def newer(new: Any, painted: Any) -> bool:
    """Should a drawing stamped ``new`` replace the one stamped ``painted`` (None: nothing the GM
    sent is there)? From the same GM page only a later count does; a drawing from another GM page
    does, as it is the latest word from the GM's side."""
    a, b = parse(new), parse(painted)
    if a is None:
        return False
    if b is None:
        return True
    return a[0] != b[0] or a[1] > b[1]


def _nil(v: Any) -> Any:
    """JS null and undefined arrive as Pyodide's ``jsnull`` / ``JsUndefined``: fold them into None."""
    return None if v is None or type(v).__name__ in ("JsNull", "JsUndefined") else v


def players_root(win: Any) -> Any:
    """The players' window's drawing root, or None: no window, a closed one, one still booting (its
    Python has not yet made the root), or one that is no longer a players' view of this origin
    (reading it raises)."""
    try:
        if _nil(win) is None or win.closed:
            return None
        doc = _nil(win.document)
        if doc is None or _nil(doc.documentElement) is None:
            return None
        if doc.documentElement.getAttribute("data-view") != "players":
            return None
        return _nil(doc.getElementById(ROOT_ID))
    except Exception:  # noqa: BLE001 - another origin now (a SecurityError), or a window gone away
        return None


def painted(root: Any) -> str | None:
    v = _nil(root.getAttribute(SEQ_ATTR))
    return v if isinstance(v, str) else None


def write(root: Any, html: str, seq: str) -> bool:
    """Draw ``html`` stamped ``seq`` into ``root`` unless what is there is as new or newer; True
    when written."""
    if not newer(seq, painted(root)):
        return False
    root.innerHTML = html
    root.setAttribute(SEQ_ATTR, seq)
    return True
