"""A game's own stylesheet, applied by the page before it draws the game (issue 34: "The page finds a
game's panel, stylesheet and odds renderer through the game object").

The page links no game's stylesheet. A ruleset names its stylesheet (``Ruleset.stylesheet``), a
file in the folder of its panel's module: ``fray/games/<game>/web/style.css`` for a built-in
game (shipped in the page's Python bundle), ``fray_d20/style.css`` inside an installed game's
wheel. ``use`` reads it from the game's package and hands its text to the page
(``frayGameStyle``, static/first-paint.js), which applies it as a constructed stylesheet
(``new CSSStyleSheet()``, ``document.adoptedStyleSheets``): CSSOM, which the page's
Content-Security-Policy (``style-src 'self'``, no inline style, so no ``<style>`` element)
leaves alone. Only the open encounter's game's stylesheet is applied; the first paint keeps it
with the drawing, so the copy shown before Python is ready is styled too.

``stylesheet_text`` is pure (CPython tests call it); ``use`` touches the page.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

_TEXT: dict[str, str] = {}  # ruleset id -> its stylesheet ("" for none), read once
_ON_SCREEN: list[Any] = [None]  # the ruleset id whose stylesheet the page applies now


def stylesheet_path(rs: Any) -> str | None:
    """Where the ruleset's stylesheet is: its ``stylesheet`` in the folder of its ``panel``
    module; None for a game with none."""
    name = getattr(rs, "stylesheet", "") or ""
    module = getattr(rs, "panel", "") or ""
    if not name or not module:
        return None
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise FileNotFoundError(f"the page of {rs.name} is missing")
    return os.path.join(os.path.dirname(spec.origin), name)


def stylesheet_text(rs: Any) -> str:
    """The ruleset's stylesheet as text ("" for a game with none); ``OSError`` when it names a file
    its package does not hold."""
    text = _TEXT.get(rs.id)
    if text is None:
        path = stylesheet_path(rs)
        text = ""
        if path is not None:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        _TEXT[rs.id] = text
    return text


def forget(ruleset_id: str) -> None:
    """A game removed from the page (an added game that was refused): its stylesheet is read again
    if a game of that id comes back."""
    _TEXT.pop(ruleset_id, None)
    if _ON_SCREEN[0] == ruleset_id:
        _ON_SCREEN[0] = None


def use(rs: Any) -> None:
    """Apply the ruleset's stylesheet, and only that game's, before the page draws it. Called at
    every render; it does something only when the game on screen changes."""
    if _ON_SCREEN[0] == rs.id:
        return
    import js  # type: ignore[import-not-found]

    try:
        text = stylesheet_text(rs)
    except OSError as e:  # the game draws unstyled rather than not at all; the console says why
        js.console.warn(f"Fray: the stylesheet of {rs.name} could not be read ({e})")
        text = ""
    apply = getattr(js.globalThis, "frayGameStyle", None)  # static/first-paint.js
    if (apply is None or not apply(rs.id, text)) and text:
        js.console.warn("Fray: this browser cannot apply a game's stylesheet (constructable stylesheets: "
                        "Safari 16.4 or later)")
    _ON_SCREEN[0] = rs.id
