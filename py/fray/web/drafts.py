"""Dice the GM typed into a form and has not rolled yet, kept across a reload of the tab.

The encounter comes back after a reload (the autosave); the page's view state does not (``UiState``,
never saved). A GM who had typed the physical dice of an attack and reloaded found the field empty
and had to read the dice again, if they were still on the table. So as the page goes away
(``pagehide``) the typed dice fields (``rolls.*``) of every GM form are kept in ``sessionStorage``
(this tab only, gone with it) with the point of the fight they were typed at; the boot's first
render puts them back into the same forms (``forms.restore_typed``) if the encounter is at that
same point, and drops them otherwise: dice typed for an attack that has since been made, undone or
replaced by another tab's change are not offered for another one.

``pick`` and ``matching`` are pure; ``install`` and ``restore`` touch the page.
"""

from __future__ import annotations

import json
from typing import Any

KEPT = "fray.dice"  # sessionStorage: {"key", "cursor", "actions", "forms": [[form key, {name: dice}], ...]}
DICE = "rolls."  # a dice field's name begins so (the action's ``rolls``, by roll name)


def pick(typed: dict[tuple, dict[str, Any]]) -> list[list[Any]]:
    """From ``forms.typed_forms``: each form's dice fields that hold something, as JSON-able pairs."""
    out = []
    for key, values in typed.items():
        dice = {n: v for n, v in values.items() if n.startswith(DICE) and isinstance(v, str) and v.strip()}
        if dice:
            out.append([list(key), dice])
    return out


def kept_text(key: str, cursor: int, actions: int, typed: dict[tuple, dict[str, Any]]) -> str | None:
    """What to keep for encounter ``key`` at history point (``cursor``, ``actions``); None: nothing typed."""
    forms = pick(typed)
    if not forms:
        return None
    return json.dumps({"key": key, "cursor": cursor, "actions": actions, "forms": forms}, ensure_ascii=False)


def matching(text: str | None, key: str, cursor: int, actions: int) -> dict[tuple, dict[str, str]]:
    """The kept dice by form key, if ``text`` was kept for this encounter at this same point; else none."""
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return {}
    if not isinstance(data, dict) or data.get("key") != key or data.get("cursor") != cursor \
            or data.get("actions") != actions or not isinstance(data.get("forms"), list):
        return {}
    out: dict[tuple, dict[str, str]] = {}
    for item in data["forms"]:
        if (isinstance(item, list) and len(item) == 2 and isinstance(item[0], list) and isinstance(item[1], dict)):
            out[tuple(item[0])] = {n: v for n, v in item[1].items()
                                   if isinstance(n, str) and n.startswith(DICE) and isinstance(v, str)}
    return out


def install(app: Any) -> None:
    """Keep the typed dice as the page goes away (a reload, a closed tab)."""
    import js  # type: ignore[import-not-found]

    def keep(event: Any = None) -> None:
        from .forms import typed_forms

        try:
            h = app.history
            text = kept_text(app.key, h.cursor, len(h.actions), typed_forms(js.document))
            storage = js.window.sessionStorage
            if text is None:
                storage.removeItem(KEPT)
            else:
                storage.setItem(KEPT, text)
        except Exception:  # noqa: BLE001 - storage refused: the dice are typed again, as before
            pass

    app._listen(js.window, "pagehide", keep)


def restore(app: Any) -> None:
    """After the boot's first render: the dice kept for this encounter at this point, back in their forms."""
    import js  # type: ignore[import-not-found]

    from .forms import restore_typed

    try:
        storage = js.window.sessionStorage
        text = storage.getItem(KEPT)
        storage.removeItem(KEPT)
    except Exception:  # noqa: BLE001 - no sessionStorage: nothing was kept
        return
    h = app.history
    typed = matching(text if isinstance(text, str) else None, app.key, h.cursor, len(h.actions))
    if typed:
        restore_typed(js.document, typed)
