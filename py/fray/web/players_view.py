"""The players' view: the GM's side of the second window (``players.html``, ``static/players.js``).

Both windows are on one device (no server, works offline). The GM's window makes the players'
projection (``fray.players.project``) after every change and draws its markup
(``players_render.players_html``); the players' window only ever gets that markup, never the
encounter, and runs no Python (until issue 36 it booted an interpreter of its own to draw the
projection: a second Pyodide in the same WebKit process, which doubled the page's memory). The
markup gets there two ways (``players_follow`` says why, and how the two are kept in order):

* **Straight into the window.** The GM's window holds the players' window's handle: from
  ``window.open`` when the GM opens it, or, after the GM's window reloads, from the players'
  window's word to its opener (``players-here``, a ``postMessage``, whose ``source`` is that
  window). It hands the markup to that window's ``frayPlayersDraw`` in the same task as its own
  change, so both windows paint it in the next frame.
* **The ``BroadcastChannel``**, for a players' window the GM's window has no handle on (opened by
  hand, in another tab): the players' window draws what it hears, unless the GM's window has
  already written that or something newer.

A reload of either restores it: the GM's window keeps the last drawing it sent in
``localStorage`` (``fray.players``), which the players' window shows at once, and then asks the
GM's window (``hello``, and ``players-here`` to its opener) for the latest; a GM's window that
boots says so (``gm``) and the players' window answers both ways.
"""

from __future__ import annotations

import json
import traceback
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .. import players
from fray.games import get_ruleset
from . import players_follow as PF
from .blocks import ascii_html
from . import players_render as PR
from .dom import nil

CHANNEL = "fray.players"
WINDOW_NAME = "fray-players"
KEPT = "fray.players"  # localStorage: the last drawing sent ({kind, seq, html}, as broadcast)
PAGE = "players.html"  # the players' window (static/players.js)
HERE = "players-here"  # the players' window to its opener: "this is me" (the message's source)
document = js.document


def projection(enc: Any) -> dict[str, Any]:
    rs = get_ruleset(enc.ruleset)
    order = rs.order_of_play(enc)
    return players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))


def _channel() -> Any:
    try:
        return js.BroadcastChannel.new(CHANNEL)
    except Exception:  # noqa: BLE001 - a browser without it: the players' view follows on reload only
        return None


# -- the GM's window ----------------------------------------------------------------------------

class GmSide:
    """Publishes the projection while a players' window is there: written straight into the one
    it holds a handle on, posted on the channel once one has said hello."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.listening = False  # set once a players' window says hello on the channel
        self.window: Any = None  # the players' window's handle, where this window has one
        self.epoch = float(js.performance.timeOrigin)  # this page's load: a reload stamps anew
        self.count = 0
        self.last: dict[str, Any] | None = None  # the last projection sent, and its stamp
        self.last_seq = ""
        self.message = ""  # the last drawing sent, as broadcast: kept for the players' window as this page goes
        self.channel = _channel()
        self._proxy = create_proxy(self.on_message)
        self._here = create_proxy(self.on_window_message)
        js.window.addEventListener("message", self._here)
        # the last drawing is kept as this page is hidden or goes, not at every change (a string
        # written into localStorage at every click is garbage WebKit keeps till it collects)
        self._keep = create_proxy(self.keep)
        js.window.addEventListener("pagehide", self._keep)
        js.document.addEventListener("visibilitychange", self._keep)
        self.hold(None)
        if self.channel is not None:
            self.channel.onmessage = self._proxy
            self.channel.postMessage(json.dumps({"kind": "gm"}))

    def keep(self, event: Any = None) -> None:
        """The last drawing sent, for a players' window that opens or reloads to show at once: kept
        as this page is hidden or goes (a tablet may say no more before it drops a page)."""
        if not self.message or (event is not None and getattr(event, "type", "") == "visibilitychange"
                                and str(js.document.visibilityState) != "hidden"):
            return
        try:
            js.window.localStorage.setItem(KEPT, self.message)
        except Exception:  # noqa: BLE001 - full or refused: that window waits for this one instead
            pass

    def on_message(self, event: Any) -> None:
        try:
            msg = json.loads(str(event.data))
        except ValueError:
            return
        if msg.get("kind") == "hello":
            self.listening = True
            self.publish(again=True)

    def on_window_message(self, event: Any) -> None:
        """A players' window this one opened says where it is (after this window's reload, the
        handle ``window.open`` gave is gone; the players' window still has this one as opener)."""
        try:
            if str(event.origin) != str(js.location.origin) or str(event.data) != HERE:
                return
            source = nil(event.source)
        except Exception:  # noqa: BLE001 - not ours
            return
        if source is not None and PF.drawer(source) is not None:
            self.hold(source)
            self.publish(again=True)

    def adopt(self, win: Any) -> None:
        """The handle ``window.open`` returned (None where the browser refused to open one)."""
        self.hold(nil(win))

    def hold(self, win: Any) -> None:
        self.window = win
        # whether this window now writes into a players' window itself: the end-to-end tests wait
        # on it after a reload of either window (as bench and tests read globalThis.frayBoot)
        js.globalThis.frayPlayers = js.JSON.parse(json.dumps({"held": win is not None}))

    def publish(self, again: bool = False) -> None:
        """Send the projection of the present encounter, unless it is what was sent last
        (a note, a table edit: nothing the players see changed) and ``again`` is not asked."""
        if self.window is None and (self.channel is None or not self.listening):
            return
        try:
            p = projection(self.app.enc)
            draw = PF.drawer(self.window)
            if self.window is not None and draw is None and self.window.closed:
                self.hold(None)  # closed by the GM: the channel is the way again
            if p == self.last and not again and (draw is None or PF.painted(self.window) == self.last_seq):
                return
            self.count += 1
            seq = PF.stamp(self.epoch, self.count)
            self.last, self.last_seq = p, seq
            markup = ascii_html(PR.players_html(p))  # crosses into the page in one piece (blocks.ascii_html)
            if draw is not None:  # in this task: the players' window paints in the GM's next frame
                draw(str(markup), seq)
            self.message = json.dumps({"kind": "view", "seq": seq, "html": str(markup)})
            if self.channel is not None and self.listening:
                self.channel.postMessage(self.message)
        except Exception:  # noqa: BLE001 - the GM's page must not break for the second screen
            traceback.print_exc()


def install(app: Any) -> None:
    """Wire the GM's window: the toolbar button and the channel."""
    btn = document.getElementById("btn-players")
    if btn is not None and type(btn).__name__ != "JsNull":
        btn.disabled = False
        btn.dataset.act = "players"
    app.players = GmSide(app)


def publish(app: Any) -> None:
    side = getattr(app, "players", None)
    if side is not None:
        side.publish()


ACTS = ("players", "players-open", "players-wounds", "players-hide")  # routed here (web/routes.py)


def on_act(app: Any, act: str, el: Any) -> bool:
    """The GM's players' view controls; True when ``act`` was one of them."""
    if act == "players":
        app.open_dialog(_dialog(app))
    elif act == "players-open":
        # "popup": a window of its own, not a tab behind the GM's (a tab that is not shown is not
        # painted at all), for the GM to put on the players' screen
        app.players.adopt(js.window.open(PAGE, WINDOW_NAME, "popup"))
    elif act == "players-wounds":
        if app.dispatch({"type": "players.wounds", "mode": el.getAttribute("data-mode")}, _dlg()):
            app.open_dialog(_dialog(app))
    elif act == "players-hide":
        hidden = {"hidden": True, "shown": False, "automatic": None}[el.getAttribute("data-hidden")]
        if app.dispatch({"type": "players.hide", "id": el.getAttribute("data-id"), "hidden": hidden}, _dlg()):
            app.open_dialog(_dialog(app))
    else:
        return False
    return True


def _dlg() -> Any:
    return document.getElementById("dlg-body")


def _dialog(app: Any) -> str:
    return PR.settings_dialog(app.enc, app.ruleset.view(app.enc))
