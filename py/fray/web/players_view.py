"""The players' view in the page: the second window (``?view=players``) and the GM's side of it.

Both windows are on one device, so they talk over a ``BroadcastChannel`` (no server, works
offline). The GM's window posts the players' projection (``fray.players.project``) after every
change; the players' window only ever receives that projection, never the encounter, and draws
it. A reload of either restores it: the players' window reads the saved encounter from the
store (IndexedDB, ``static/store.js``) at boot and projects it itself, then asks the GM's window (``hello``) for the latest; a
GM's window that boots says so (``gm``) and the players' window answers with ``hello``.
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
from ..rulesets import get_ruleset
from . import players_render as PR
from .store import JsBackend, Library

CHANNEL = "fray.players"
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
    """Publishes the projection while a players' window is listening."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.listening = False  # set once a players' window says hello
        self.channel = _channel()
        self._proxy = create_proxy(self.on_message)
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
            self.publish()

    def publish(self) -> None:
        if self.channel is None or not self.listening:
            return
        try:
            self.channel.postMessage(json.dumps({"kind": "view", "view": projection(self.app.enc)}))
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


def on_act(app: Any, act: str, el: Any) -> bool:
    """The GM's players' view controls; True when ``act`` was one of them."""
    if act == "players":
        app.open_dialog(_dialog(app))
    elif act == "players-open":
        js.window.open("?view=players", "fray-players")
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
    """Draws what it is sent; has no controls and never writes to the store."""

    def __init__(self) -> None:
        self.root = None
        self.painted = ""
        self.painted_live = False  # a broadcast arrived: newer than the store
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
        self.root.id = "players-view"
        self.root.className = "players-view"
        document.body.appendChild(self.root)
        self.draw(None)
        if self.channel is not None:
            self.channel.onmessage = self._proxy
        asyncio.ensure_future(self.boot())

    async def boot(self) -> None:
        saved = await self.from_store()
        if saved is not None and not self.painted_live:
            self.draw(saved)
        if self.channel is not None:  # then the GM's window, if open, sends the latest
            self.channel.postMessage(json.dumps({"kind": "hello"}))
        document.documentElement.dataset.engine = "ready"

    async def from_store(self) -> dict[str, Any] | None:
        """The saved encounter, projected here (read only: an unreadable save is the GM
        window's to set aside, not this one's)."""
        try:
            from pyscript.js_modules import fray_store  # type: ignore[import-not-found]

            await fray_store.open()
            backend = JsBackend(fray_store)
            key = await Library(backend).current_key()
            row = await backend.get(key) if key else None
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
            self.painted_live = True
            self.draw(msg.get("view"))
        elif msg.get("kind") == "gm" and self.channel is not None:
            self.channel.postMessage(json.dumps({"kind": "hello"}))

    def draw(self, p: dict[str, Any] | None) -> None:
        try:
            html = PR.players_html(p) if p else (
                '<p class="pv-wait">Waiting for the GM\u2019s window\u2026</p>')
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            html = f'<p class="pv-wait">This view could not be drawn ({type(e).__name__}).</p>'
        if html != self.painted:
            self.root.innerHTML = html
            self.painted = html


WINDOW: PlayersWindow | None = None


def main() -> None:
    global WINDOW
    WINDOW = PlayersWindow()
    WINDOW.start()
