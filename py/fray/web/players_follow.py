"""Who writes the players' window, and in what order (issue 12: it "follows every change within a
frame").

The players' window opened by the GM's window (``window.open``) shares the GM window's event loop:
its own script can only run after the GM's click has ended, and then the two windows paint in
different frames. So the GM's window, which holds that window's handle, hands the players' markup
(``players_render.players_html``, the same it broadcasts) to that window's ``frayPlayersDraw`` in
the same task as its own change: both paint in the next frame. The BroadcastChannel stays for a
players' window the GM's window has no handle on (opened by hand, or in another tab).

So two senders can draw one root, and a drawing must never put back something older than what is
there. Every drawing the GM's window sends carries a **stamp**: the GM window's time origin (when
that page was loaded) and the count of its drawings, kept on the root as ``data-seq``. The players'
window (``static/players.js``, which runs no Python) writes a drawing only when it is newer than
the root's: from the same GM page, a higher count; from another one (the GM's window reloaded, or
a second GM tab), whichever came last, as a broadcast always was. It writes every drawing itself,
whoever sent it, and fits it to its screen as it does. (Until issue 36 the GM's window read and
wrote that document itself: some ten calls from Python a change, and the players' window then
fitted each drawing in a mutation observer, whose records held every drawing replaced until
WebKit's next full collection.)

Pure: the page hands in its JS objects (a window), and the tests hand in stand-ins.
"""

from __future__ import annotations

from typing import Any

DRAW = "frayPlayersDraw"  # static/players.js: write a drawing if newer; True when written
PAINTED = "frayPlayersPainted"  # static/players.js: the stamp of what is drawn there


def stamp(epoch: float, n: int) -> str:
    """The stamp of the GM page loaded at ``epoch`` (``performance.timeOrigin``, ms) on its
    ``n``-th drawing."""
    return f"{epoch:.3f}:{n}"


def _nil(v: Any) -> Any:
    """JS null and undefined arrive as Pyodide's ``jsnull`` / ``JsUndefined``: fold them into None."""
    return None if v is None or type(v).__name__ in ("JsNull", "JsUndefined") else v


def drawer(win: Any) -> Any:
    """The players' window's ``frayPlayersDraw(html, stamp)``, or None: no window, a closed one, one
    still booting (its script has not yet run), or one that is no longer a players' view of this
    origin (reading it raises)."""
    try:
        if _nil(win) is None or win.closed:  # a closed window may still hand out its script's functions
            return None
        return _nil(getattr(win, DRAW, None))
    except Exception:  # noqa: BLE001 - another origin now (a SecurityError), or a window gone away
        return None


def painted(win: Any) -> str | None:
    """The stamp of what the players' window shows (None: nothing the GM sent, or no such window)."""
    try:
        v = _nil(getattr(win, PAINTED)())
    except Exception:  # noqa: BLE001 - as ``drawer``
        return None
    return v if isinstance(v, str) else None
