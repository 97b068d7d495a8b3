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
from .html import Markup, h, html

# What scripts/vendor.py puts in static/vendor/micropip/ (its MICROPIP pin); a unit test keeps the two the same.
MICROPIP_WHEEL = "micropip-0.11.1-py3-none-any.whl"
MICROPIP_URL = "./static/vendor/micropip/" + MICROPIP_WHEEL
GAMES_DIR = "/tmp/fray-games"

_micropip: Any = None


# The games added in this tab's life, as ``Library.games`` keeps them (name, version, games, wheel),
# each with ``titles`` (its games' names, for the GM) and ``packages`` (what ``_forget`` unloads):
# the dialog lists them without reading the database, and a tab whose browser keeps nothing
# (``App.in_memory``) still knows what it added.
_added: list[dict[str, Any]] = []

# The dialog's acts (app.py hands them here).
ACTS = ("remove-game", "upgrade-game")


def add_game_html(said: str = "") -> Markup:
    """The dialog's second form, beside the new encounter's: the games added so far (each with
    its version, Remove and Upgrade), then a wheel file and its button."""
    listed = Markup("")
    if _added:
        listed = h("ul", {"class": "added-games", "aria-label": "Added games"}, [
            h("li", {"class": "added-game", "data-game": g["name"]},
              h("span", {"class": "added-game-name"}, title(g)), " ",
              h("span", {"class": "added-game-version"}, g.get("version", "")), " ",
              h("button", {"type": "button", "class": "secondary small", "data-act": "upgrade-game",
                           "title": "Pick a newer .whl file of this game"}, "Upgrade"), " ",
              h("button", {"type": "button", "class": "secondary small", "data-act": "remove-game",
                           "data-game": g["name"]}, "Remove"))
            for g in _added])
    return html(
        '<form class="form add-game" data-form="add-game" novalidate>'
        '<h3>Add a game&hellip;</h3>{}'
        '<div class="field" data-field="wheel"><label for="f-wheel">Game package (a .whl file)</label>'
        '<input type="file" id="f-wheel" name="wheel" accept=".whl">'
        '<p class="field-error" data-error-for="wheel"></p></div>'
        '<p class="hint">The game is kept in this browser and works offline, like the built-in ones. '
        'A newer file of a game already added upgrades it.</p>'
        '<p class="add-game-said" role="status">{}</p>'
        '<div class="dlg-actions"><button type="submit" class="secondary">Add this game</button></div></form>',
        listed, said)


def title(g: dict[str, Any]) -> str:
    """A kept game as the GM knows it: its games' names (its package's name if none loaded)."""
    titles = g.get("titles") or [_REGISTRY[i].name for i in g.get("games", []) if i in _REGISTRY]
    return ", ".join(titles) or str(g.get("name", ""))


def _remember(entry: dict[str, Any], info: Any, rulesets: list[Any] | None) -> None:
    """``entry`` (a kept game) in ``_added``, in place of any version of its package."""
    from ..wheels import same_package

    row = dict(entry, packages=list(info.packages),
               titles=[rs.name for rs in rulesets] if rulesets else title(entry).split(", "))
    for i, g in enumerate(_added):
        if same_package(str(g.get("name", "")), info.name):
            _added[i] = row
            return
    _added.append(row)


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
            info = inspect_wheel(data)
            _remember(game, info, await install(info, data))
        except Exception as e:  # noqa: BLE001 - said; the other games and the built-in ones go on
            msg = e.message if isinstance(e, InvalidAction) else str(e)
            say(f"The added game {game.get('name', '')} could not be installed again: {msg}")
    js.performance.mark("fray:games")


def _unload(info: Any) -> bool:
    """Take an installed game out of this page: its games leave the registry, its modules
    ``sys.modules``, its files site-packages. False when micropip could not remove its files
    (what stays is harmless, and gone at the next boot, which installs only what is kept)."""
    _forget(info)
    ok = True
    try:
        if _micropip is not None:
            _micropip.uninstall(info.name)
    except Exception:  # noqa: BLE001 - said as "reload to finish"
        ok = False
    importlib.invalidate_caches()
    return ok


async def _kept(app: Any) -> tuple[list[dict[str, Any]], bool]:
    """The games this browser keeps, and whether it keeps anything (False: a tab on memory only,
    whose list is what it added itself)."""
    lib = getattr(app, "lib", None)
    if lib is not None and not getattr(app, "in_memory", False):
        return await lib.games(), True
    return [dict(g) for g in _added if g.get("wheel")], False


def _reopen(app: Any, said: str, pick: str | None = None) -> None:
    from . import render as R
    from fray.games import all_rulesets

    app.open_dialog(R.new_encounter_form(all_rulesets()) + add_game_html(said))
    select = nil(q(js.document, "#f-ruleset"))
    if select is not None and pick:
        select.value = pick


async def add_game(app: Any, form: Any) -> None:
    """The "Add this game" button: check, install, keep, then list the game in the dialog. A
    package already added is upgraded by a newer version of it, asked about before an older one
    replaces it, and said to be there already in the same version."""
    app.clear_errors(form)
    ctl = nil(q(form, 'input[name="wheel"]'))
    files = ctl.files if ctl is not None else None
    if files is None or files.length == 0:
        app.show_error(form, InvalidAction("wheel", "Pick the game's .whl file first."))
        return
    file = files.item(0)
    from ..wheels import inspect_wheel, plan_add, replace_kept

    try:
        data = (await file.arrayBuffer()).to_bytes()
        info = inspect_wheel(data)
        kept, keeps = await _kept(app)
        kind, old = plan_add(kept, info)
        if old is not None:
            name, was = title(_added_row(old)), str(old.get("version", ""))
            # the same file again installs it where the boot could not (it is kept, not installed)
            if kind == "same" and all(g in _REGISTRY for g in old.get("games", [])):
                raise InvalidAction("wheel", f"{name} {was} is already added.")
            if kind == "downgrade" and not js.window.confirm(
                    f"{name} {was} is added; this file is the older version {info.version}. "
                    f"Go back to {info.version}?"):
                raise InvalidAction("wheel", f"{name} stays at {was}: the older file was not added.")
            old_data = base64.b64decode(old["wheel"])
            old_info = inspect_wheel(old_data)
            _unload(old_info)
            try:
                rulesets = await install(info, data)
            except InvalidAction:
                try:  # the version that was there comes back: a refused file changes nothing
                    await install(old_info, old_data)
                except InvalidAction:
                    pass
                raise
        else:
            rulesets = await install(info, data)
    except InvalidAction as e:
        app.show_error(form, e)
        return
    now_kept = replace_kept(kept, info, data)
    if keeps:
        await app.lib.remember_game_names({rs.id: rs.name for rs in rulesets})
        await app.lib.save_games([{k: g[k] for k in ("name", "version", "games", "wheel") if k in g}
                                   for g in now_kept])
        kept_note = ""
    else:
        kept_note = " This browser keeps nothing: it is gone after a reload."
    from ..wheels import kept_entry

    _remember(kept_entry(now_kept, info.name) or {}, info, rulesets)
    app.render()  # the encounter list: encounters of the game open again
    names = ", ".join(rs.name for rs in rulesets)
    said = f"{names} is added." if old is None or kind == "same" else f"{names} {old.get('version', '')} \u2192 {info.version}."
    _reopen(app, said + kept_note, rulesets[0].id if rulesets else None)


def _added_row(kept: dict[str, Any]) -> dict[str, Any]:
    """``kept``'s row in ``_added`` (with its games' names), else ``kept`` itself."""
    from ..wheels import kept_entry

    return kept_entry(_added, str(kept.get("name", ""))) or kept


def on_act(app: Any, act: str, el: Any) -> None:
    """The dialog's buttons for an added game (``ACTS``)."""
    if act == "upgrade-game":
        ctl = nil(q(js.document, "#f-wheel"))
        if ctl is not None:
            ctl.click()  # the file picker: a newer file of the game, then "Add this game"
    elif act == "remove-game":
        app.in_background(remove_game(app, str(el.dataset.game or "")))


async def remove_game(app: Any, name: str) -> None:
    """Remove: asked first, naming how many saved encounters are of the game (they are kept, and
    open again once it is added again); then it is no longer kept, and taken out of the page. An
    open encounter of the game cannot go on without it: the page reloads, and opens another."""
    from ..wheels import encounters_of, inspect_wheel, kept_entry, without

    kept, keeps = await _kept(app)
    old = kept_entry(kept, name) or kept_entry(_added, name)
    if old is None:
        _reopen(app, "That game is not added in this browser any more.")
        return
    row = _added_row(old)
    games = list(old.get("games", []))
    lib = getattr(app, "lib", None)
    entries = await lib.entries() if lib is not None else []
    n = len(encounters_of(entries, games))
    saved = ("No saved encounter is of this game." if n == 0 else
             f"Its {n} saved encounter{'' if n == 1 else 's'} {'is' if n == 1 else 'are'} kept, but "
             f"cannot be opened until the game is added again.")
    what = f"{title(row)} {old.get('version', '')}"
    if not js.window.confirm(f"Remove {what} from this browser? {saved}"):
        return
    if keeps:
        titles = row.get("titles") or []
        if len(titles) == len(games):  # its encounters say which game to add again
            await lib.remember_game_names(dict(zip(games, titles)))
        await lib.save_games(without(kept, name))
    _added[:] = without(_added, name)
    packages = row.get("packages")
    if packages is None and old.get("wheel"):
        packages = inspect_wheel(base64.b64decode(old["wheel"])).packages
    from ..wheels import WheelInfo

    done = _unload(WheelInfo(str(old.get("name", name)), str(old.get("version", "")), "", tuple(games),
                             tuple(packages or ())))
    if getattr(getattr(app, "enc", None), "ruleset", None) in games:
        js.location.reload()  # its encounter is open: the next boot opens another
        return
    app.render()  # the encounter list says which encounters' game is gone
    _reopen(app, f"{what} is removed." if done else f"{what} is removed; reload the page to finish.")
