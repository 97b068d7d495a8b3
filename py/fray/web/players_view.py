"""The players' view in the page: the second window (``?view=players``) and the GM's side of it.

Both windows are on one device (no server, works offline). The GM's window makes the players'
projection (``fray.players.project``) after every change; the players' window only ever gets that
projection, never the encounter, and draws it (``players_render.players_html``). It gets there two
ways (``players_follow`` says why, and how the two are kept in order):

* **Straight into the window.** The GM's window holds the players' window's handle: from
  ``window.open`` when the GM opens it, or, after the GM's window reloads, from the players'
  window's word to its opener (``players-here``, a ``postMessage``, whose ``source`` is that
  window). It draws the players' markup itself and writes it into that window's document in the
  same task as its own change, so both windows paint it in the next frame.
* **The ``BroadcastChannel``**, for a players' window the GM's window has no handle on (opened by
  hand, in another tab): the players' window draws what it hears, unless the GM's window has
  already written that or something newer.

A reload of either restores it: the players' window reads the saved encounter from the store
(IndexedDB, ``static/store.js``) at boot and projects it itself, then asks the GM's window
(``hello``, and ``players-here`` to its opener) for the latest; a GM's window that boots says so
(``gm``) and the players' window answers both ways.
"""

from __future__ import annotations

import asyncio
import json
import traceback
from typing import Any
from urllib.parse import parse_qs

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from .. import players, savefile
from fray.games import get_ruleset
from . import players_follow as PF
from . import players_render as PR
from .dom import nil
from .html import html
from .store import JsBackend, Library

CHANNEL = "fray.players"
WINDOW_NAME = "fray-players"
HERE = "players-here"  # the players' window to its opener: "this is me" (the message's source)
document = js.document


def wanted() -> bool:
    """Is this window the players' view?"""
    return parse_qs(str(js.location.search).lstrip("?")).get("view") == ["players"]


def projection(enc: Any) -> dict[str, Any]:
    rs = get_ruleset(enc.ruleset)
    return players.project(enc, rs.view(enc), rs.order_of_play(enc))


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
        self.channel = _channel()
        self._proxy = create_proxy(self.on_message)
        self._here = create_proxy(self.on_window_message)
        js.window.addEventListener("message", self._here)
        self.hold(None)
        if self.channel is not None:
            self.channel.onmessage = self._proxy
            self.channel.postMessage(json.dumps({"kind": "gm"}))

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
        if source is not None and PF.players_root(source) is not None:
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
            root = PF.players_root(self.window)
            if self.window is not None and root is None and self.window.closed:
                self.hold(None)  # closed by the GM: the channel is the way again
            if p == self.last and not again and (root is None or PF.painted(root) == self.last_seq):
                return
            self.count += 1
            seq = PF.stamp(self.epoch, self.count)
            self.last, self.last_seq = p, seq
            if root is not None:  # in this task: the players' window paints in the GM's next frame
                PF.write(root, PR.players_html(p), seq)
            if self.channel is not None and self.listening:
                self.channel.postMessage(json.dumps({"kind": "view", "seq": seq, "view": p}))
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
        app.players.adopt(js.window.open("?view=players", WINDOW_NAME, "popup"))
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


# -- the players' window ------------------------------------------------------------------------

class PlayersWindow:
    """Draws what it is sent; has no controls and never writes to the store. The GM's window may
    write into its root too (``players_follow``): this window draws a broadcast only when it is
    newer than what the root holds, and its saved encounter only on a root the GM has not drawn."""

    def __init__(self) -> None:
        self.root = None
        self.channel = _channel()
        self._proxy = create_proxy(self.on_message)

    def start(self) -> None:
        html_el = document.documentElement
        html_el.dataset.view = "players"
        document.title = "Fray: players' view"
        # The GM's controls are removed, not hidden: nothing in this window can change the encounter.
        for sel in (".topbar", ".pane-nav", ".panes", "#dlg", "#import-error", "#loading"):
            for el in document.querySelectorAll(sel):
                el.remove()
        self.root = document.createElement("main")
        self.root.id = PF.ROOT_ID
        self.root.className = "players-view"
        self.root.innerHTML = '<p class="pv-wait">Waiting for the GM\u2019s window\u2026</p>'
        document.body.appendChild(self.root)
        if self.channel is not None:
            self.channel.onmessage = self._proxy
        asyncio.ensure_future(self.boot())

    async def boot(self) -> None:
        saved = await self.from_store()
        if saved is not None and PF.painted(self.root) is None:  # nothing newer came meanwhile
            self.root.innerHTML = self.markup(saved)
        self.call_the_gm()
        document.documentElement.dataset.engine = "ready"

    def call_the_gm(self) -> None:
        """Ask the GM's window for the latest: on the channel, and to the window that opened this
        one, which then holds this window's handle again (after its own reload)."""
        if self.channel is not None:
            self.channel.postMessage(json.dumps({"kind": "hello"}))
        try:
            opener = nil(js.window.opener)
            if opener is not None:
                opener.postMessage(HERE, js.location.origin)
        except Exception:  # noqa: BLE001 - opened by hand or from elsewhere: the channel serves
            pass

    async def from_store(self) -> dict[str, Any] | None:
        """The saved encounter, projected here (read only: an unreadable save is the GM
        window's to set aside, not this one's)."""
        try:
            from pyscript.js_modules import fray_store  # type: ignore[import-not-found]

            await fray_store.open()
            backend = JsBackend(fray_store)
            lib = Library(backend)
            key = await lib.current_key()
            row = await backend.get(key) if key else None
            # an encounter of a game the GM added: that game first (nothing loads when none is kept)
            from .games_view import install_games

            await install_games(lib, lambda _text: None)
            if row is None or not isinstance(row.get("text"), str):
                return None
            return projection(savefile.loads(row["text"]).present)
        except Exception:  # noqa: BLE001 - nothing saved yet, or unreadable: wait for the GM's window
            traceback.print_exc()
            return None

    def on_message(self, event: Any) -> None:
        try:
            msg = json.loads(str(event.data))
        except ValueError:
            return
        if msg.get("kind") == "view":
            seq = msg.get("seq")
            if PF.newer(seq, PF.painted(self.root)):  # else the GM's window wrote it, or newer, already
                PF.write(self.root, self.markup(msg.get("view")), seq)
        elif msg.get("kind") == "gm":
            self.call_the_gm()

    @staticmethod
    def markup(p: Any) -> str:
        try:
            if not isinstance(p, dict):
                return '<p class="pv-wait">Waiting for the GM\u2019s window\u2026</p>'
            return PR.players_html(p)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            return html('<p class="pv-wait">This view could not be drawn ({}).</p>', type(e).__name__)


WINDOW: PlayersWindow | None = None


def main() -> None:
    global WINDOW
    WINDOW = PlayersWindow()
    WINDOW.start()
