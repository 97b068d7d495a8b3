"""Games the GM adds: "Add a game…" in the new-encounter dialog takes a game package (a wheel
file), installs it with micropip from the page's own file system, and keeps it in this browser
(IndexedDB, ``Library.games``) so the game is there at every later boot, offline.

micropip is vendored by ``make`` (scripts/vendor.py, pinned) and served from this page's own
origin; it is fetched and imported only when a game is added or a kept one is installed at boot,
so a page with no added game never loads it. A game installs with ``deps=False``: nothing ever
comes from another origin. A wheel is checked before anything is installed (``fray.wheels``);
once installed, its games must load and bring a panel with the four methods of
``fray.web.panels.Panel``, else it is uninstalled again and refused: a refused file changes
nothing.
"""

from __future__ import annotations

import base64
import importlib
import importlib.util
import sys
from typing import Any

import js  # type: ignore[import-not-found]

from .. import games as registry
from ..errors import FrayError, InvalidAction
from fray.games import _REGISTRY, installed_entry_points, load_entry_point
from . import game_style, panels
from .dom import nil, q
from .html import Markup, html

# What scripts/vendor.py puts in static/vendor/micropip/ (its MICROPIP pin); a unit test keeps the two the same.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_URL = "./static/vendor/micropip/" + MICROPIP_WHEEL
GAMES_DIR = "/tmp/fray-games"

_micropip: Any = None


def add_game_html(said: str = "") -> Markup:
    """The dialog's second form, beside the new encounter's: a wheel file and its button."""
    return html(
        '<form class="form add-game" data-form="add-game" novalidate>'
        '<h3>Add a game&hellip;</h3>'
        '<div class="field" data-field="wheel"><label for="f-wheel">Game package (a .whl file)</label>'
        '<input type="file" id="f-wheel" name="wheel" accept=".whl">'
        '<p class="field-error" data-error-for="wheel"></p></div>'
        '<p class="hint">The game is kept in this browser and works offline, like the built-in ones.</p>'
        '<p class="add-game-said" role="status">{}</p>'
        '<div class="dlg-actions"><button type="submit" class="secondary">Add this game</button></div></form>',
        said)


async def load_micropip() -> Any:
    """micropip, from this page's own copy: unpacked into site-packages once, then imported."""
    global _micropip
    if _micropip is not None:
        return _micropip
    import io
    import sysconfig
    import zipfile

    js.performance.mark("fray:micropip")
    response = await js.fetch(MICROPIP_URL)
    if not response.ok:
        raise InvalidAction("wheel", "Fray's package installer is missing from this copy of Fray; reload the page "
                                     "while online and try again.")
    data = (await response.arrayBuffer()).to_bytes()
    zipfile.ZipFile(io.BytesIO(data)).extractall(sysconfig.get_path("purelib"))
    importlib.invalidate_caches()
    import micropip  # type: ignore[import-not-found]

    _micropip = micropip
    js.performance.mark("fray:micropip-ready")
    return micropip


def _forget(info: Any) -> None:
    for ruleset_id in info.games:
        _REGISTRY.pop(ruleset_id, None)
        panels._LOADED.pop(ruleset_id, None)
        game_style.forget(ruleset_id)
    for name in list(sys.modules):
        if name.split(".", 1)[0] in info.packages:
            del sys.modules[name]


async def install(info: Any, data: bytes) -> list[Any]:
    """Install the checked wheel and load its games; on any failure uninstall it and raise
    ``InvalidAction("wheel", ...)``. Returns the games' rulesets."""
    import os

    registry.LOOK_FOR_INSTALLED = True
    taken = set(installed_entry_points()) | set(_REGISTRY)
    for g in info.games:
        if g in taken:
            raise InvalidAction("wheel", f"A game called {g} is already in Fray: {info.name} is not added again.")
    for top in info.packages:
        if top in sys.modules or importlib.util.find_spec(top) is not None:
            raise InvalidAction("wheel", f"{info.name} holds a part named {top}, which Fray already has: "
                                         "it cannot be added.")
    micropip = await load_micropip()
    os.makedirs(GAMES_DIR, exist_ok=True)
    path = f"{GAMES_DIR}/{info.filename}"
    with open(path, "wb") as fh:
        fh.write(data)
    try:
        await micropip.install("emfs:" + path, deps=False)
    except Exception as e:  # noqa: BLE001 - micropip's own words, after the GM's
        raise InvalidAction("wheel", f"{info.name} could not be installed ({e}).") from None
    finally:
        os.remove(path)
    importlib.invalidate_caches()
    try:
        found = installed_entry_points()
        rulesets = []
        for g in info.games:
            if g not in found:
                raise InvalidAction("wheel", f"{info.name} does not provide the game {g} it names.")
            rs = load_entry_point(found[g])
            panel = panels.panel_for(g) if rs.panel else None
            if rs.panel and (panel is None or panels.missing(panel)):
                raise InvalidAction("wheel", f"{rs.name} has no page to show: its panel is missing or incomplete.")
            try:
                game_style.stylesheet_text(rs)
            except OSError:
                raise InvalidAction("wheel", f"{rs.name} names a stylesheet its package does not hold.") from None
            rulesets.append(rs)
        return rulesets
    except Exception as e:  # noqa: BLE001 - a game that does not load is refused, whatever broke
        _forget(info)
        try:
            micropip.uninstall(info.name)
        except Exception:  # noqa: BLE001 - nothing more to undo
            pass
        importlib.invalidate_caches()
        if isinstance(e, InvalidAction) and e.field == "wheel":
            raise
        if isinstance(e, InvalidAction):  # the registry's words, said of the file the GM picked
            raise InvalidAction("wheel", f"{info.name} was not added: {e.message}") from None
        if isinstance(e, FrayError):
            raise InvalidAction("wheel", f"{info.name} is not a working Fray game: {e}") from None
        raise InvalidAction("wheel", f"{info.name} is not a working Fray game ({type(e).__name__}: {e}).") from None


async def install_kept(app: Any) -> None:
    """At boot, before the encounter opens: install every game this browser keeps. With none
    kept, nothing is loaded (no micropip). A kept game that no longer installs is said in the
    banner and stays kept (a later Fray may take it again)."""
    lib = getattr(app, "lib", None)
    if lib is not None:
        await install_games(lib, app.banner)


async def install_games(lib: Any, say: Any) -> None:
    """``install_kept`` for any window with a ``Library`` (the players' window too, whose saved
    encounter may be of an added game); ``say(text)`` tells the GM what did not install."""
    try:
        kept = await lib.games()
    except Exception as e:  # noqa: BLE001 - the list is unreadable: the built-in games still work
        say(f"The games added to this browser could not be read ({e}).")
        return
    if not kept:
        registry.LOOK_FOR_INSTALLED = False  # nothing installed: the game list reads no package metadata
        return
    from ..wheels import inspect_wheel  # zipfile and configparser: only for a page with added games

    for game in kept:
        try:
            data = base64.b64decode(game["wheel"])
            await install(inspect_wheel(data), data)
        except Exception as e:  # noqa: BLE001 - said; the other games and the built-in ones go on
            msg = e.message if isinstance(e, InvalidAction) else str(e)
            say(f"The added game {game.get('name', '')} could not be installed again: {msg}")
    js.performance.mark("fray:games")


async def add_game(app: Any, form: Any) -> None:
    """The "Add this game" button: check, install, keep, then list the game in the dialog."""
    app.clear_errors(form)
    ctl = nil(q(form, 'input[name="wheel"]'))
    files = ctl.files if ctl is not None else None
    if files is None or files.length == 0:
        app.show_error(form, InvalidAction("wheel", "Pick the game's .whl file first."))
        return
    file = files.item(0)
    from ..wheels import inspect_wheel

    try:
        data = (await file.arrayBuffer()).to_bytes()
        info = inspect_wheel(data)
        rulesets = await install(info, data)
    except InvalidAction as e:
        app.show_error(form, e)
        return
    lib = getattr(app, "lib", None)
    kept_note = ""
    if lib is not None and not getattr(app, "in_memory", False):
        kept = [g for g in await lib.games() if g.get("name") != info.name]
        kept.append({"name": info.name, "version": info.version, "games": list(info.games),
                     "wheel": base64.b64encode(data).decode("ascii")})
        await lib.save_games(kept)
    else:
        kept_note = " This browser keeps nothing: it is gone after a reload."
    from . import render as R
    from fray.games import all_rulesets

    names = ", ".join(rs.name for rs in rulesets)
    app.open_dialog(R.new_encounter_form(all_rulesets()) + add_game_html(f"{names} is added.{kept_note}"))
    select = nil(q(js.document, "#f-ruleset"))
    if select is not None and rulesets:
        select.value = rulesets[0].id
