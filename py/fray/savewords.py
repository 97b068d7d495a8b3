"""A save file's error in the GM's words.

``SaveFileError`` names the place in the file as a dotted path (``history.actions.3.id``): exact,
and what the tests and the repair of a file by hand need, but nothing a GM at the table can read.
``describe`` says the same place as the GM knows it ("Action 4 of the fight, its id"), names the
combatant where the file says who it is, and says what to do when the file was edited or damaged.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import SaveFileError

# The header's fields, as the GM would call them.
_HEADER = {
    "format": "The file's kind",
    "schema": "The file's version",
    "rules": "The file's edition of the rules",
}

# What to do about a file whose content (not its kind or version) is wrong.
_REPAIR = ("The file was changed or damaged after Fray saved it: import the file exactly as Fray "
           "exported it, or a copy made before it was edited.")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _index(part: str) -> int | None:
    return int(part) if part.isdigit() else None


def _its(rest: list[str]) -> str:
    """The field inside a thing: ["position", "x"] -> ", its position x"; ["conditions", "2"] ->
    ", its conditions (the 3rd)"."""
    words = []
    for p in rest:
        i = _index(p)
        words.append(f"(the {_ordinal(i + 1)})" if i is not None else p.replace("_", " "))
    return f", its {' '.join(words)}" if words else ""


def _name_at(data: Any, keys: list[str]) -> str | None:
    """The ``name`` of the object at ``keys`` in the file's data, if the file says one."""
    try:
        for k in keys:
            data = data[int(k)] if isinstance(data, list) else data[k]
        name = data.get("name") if isinstance(data, dict) else None
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return name.strip()[:40] if isinstance(name, str) and name.strip() else None


def _in_encounter(parts: list[str], label: str, within: str, keys: list[str], data: Any) -> str:
    """A place inside an encounter: the file's own (``within`` empty), the fight's start or a saved
    point (``within`` says which, after the thing: " at the start of the fight")."""
    if not parts:
        return label
    head, rest = parts[0], parts[1:]
    if head == "combatants" and rest and _index(rest[0]) is not None:
        n = _index(rest[0]) + 1
        name = _name_at(data, keys + ["combatants", rest[0]])
        who = f"Combatant {n} ({name})" if name else f"The {_ordinal(n)} combatant"
        return f"{who}{within}{_its(rest[1:])}"
    if head == "log" and rest and _index(rest[0]) is not None:
        return f"Line {_index(rest[0]) + 1} of the log{within}{_its(rest[1:])}"
    if head == "tables" and rest:
        return f"The table “{rest[0].replace('_', ' ')}”{within}{_its(rest[1:])}"
    if head == "order_override":
        return f"The order of play the GM set{within}{_its(rest[1:])}"
    if head == "state":
        return f"The game's running state{within}{_its(rest[1:])}"
    return f"{label}{_its(parts)}"


def place(path: str, data: Any = None) -> str:
    """The place a dotted path names in a save file, in the GM's words ("" for the whole file).
    ``data``, the file's parsed JSON if there is one, lets a combatant be named."""
    parts = path.split(".") if path else []
    if not parts:
        return ""
    head, rest = parts[0], parts[1:]
    if head in _HEADER:
        return _HEADER[head] + _its(rest)
    if head == "encounter":
        return _in_encounter(rest, "The encounter", "", ["encounter"], data)
    if head == "journal" and rest and rest[0].isdigit():
        # the autosave's rows since its last whole save, keyed by revision (web/store.py)
        where = f"The change kept as revision {rest[0]}"
        if rest[1:2] == ["moves"] and len(rest) > 2 and _index(rest[2]) is not None:
            return f"{where}, its {_ordinal(_index(rest[2]) + 1)} step{_its(rest[3:])}"
        return where + _its(rest[1:])
    if head != "history":
        return f"The file's “{head}”{_its(rest)}"
    if not rest:
        return "The fight's history"
    sub, more = rest[0], rest[1:]
    if sub == "actions" and more and _index(more[0]) is not None:
        # an action's "id" is the combatant it is about (set_condition, move, ...)
        # (the page's reader names the action itself "action": nothing to add to "Action 4")
        field = [] if more[1:] == ["action"] else ["combatant" if p == "id" else p for p in more[1:2]] + more[2:]
        return f"Action {_index(more[0]) + 1} of the fight{_its(field)}"
    if sub == "actions":
        return "The fight's actions"
    if sub == "initial":
        return _in_encounter(more, "The start of the fight", " at the start of the fight", ["history", "initial"], data)
    if sub == "cursor":
        return "The point the fight had reached"
    if sub == "checkpoints" and more and _index(more[0]) is not None:
        label = f"Saved point {_index(more[0]) + 1} of the fight"
        if more[1:2] == ["encounter"]:
            return _in_encounter(more[2:], label, f" in saved point {_index(more[0]) + 1} of the fight",
                                 ["history", "checkpoints", more[0], "encounter"], data)
        return label + (", its place in the fight" if more[1:2] == ["at"] else _its(more[1:]))
    if sub == "checkpoints":
        return "The fight's saved points"
    return f"The fight's history{_its(rest)}"


def describe(err: SaveFileError, text: str | None = None, advice: bool = True) -> str:
    """The error as the GM reads it: where in the file, what is wrong, and, when the content of
    an imported file is wrong (not its kind or version) and ``advice`` is on, what to do. ``text``
    is the file, to name the combatant an error is about."""
    data = None
    if text is not None and err.path.split(".")[0] in ("encounter", "history"):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
    where = place(err.path, data)
    msg = str(err).removeprefix(f"{err.path}: ") if err.path else str(err)
    said = f"{where}: {msg}" if where else msg
    if advice and err.path.split(".")[0] in ("encounter", "history") and "edited or corrupted" not in msg:
        said = f"{said.rstrip('.')}. {_REPAIR.rstrip('.')}"
    return said.rstrip(".")


# A bestiary file's fields, as the GM would call them (``fray.bestiary``).
_BESTIARY = {
    "file": "The file",
    "format": "The file's kind",
    "version": "The file's version",
    "templates": "The file's templates",
    "bestiary": "The bestiary",
}


def bestiary_place(path: str, data: Any = None) -> str:
    """The place a dotted path names in a bestiary file, in the GM's words: "templates.0.combatant.side"
    -> "Template 1 (Rat), its side" (the name from ``data``, the file's parsed JSON, if it says one)."""
    parts = path.split(".") if path else []
    if not parts:
        return ""
    head, rest = parts[0], parts[1:]
    if head == "template":  # the one being kept from the add form
        return "The template" + _its([p for p in rest if p != "combatant"])
    if head == "templates" and rest and _index(rest[0]) is not None:
        n = _index(rest[0]) + 1
        name = _name_at(data, ["templates", rest[0], "combatant"])
        field = rest[1:]
        if field[:1] == ["combatant"]:
            field = field[1:]  # a template is its combatant: "its side", not "its combatant side"
        elif field[:1] == ["ruleset"]:
            field = ["game"]
        return f"Template {n}" + (f" ({name})" if name else "") + _its(field)
    return _BESTIARY.get(head, f"The file's “{head}”") + _its(rest)


def describe_bestiary(err: Exception, text: str | None = None) -> str:
    """A bestiary file's error as the GM reads it: where in the file and what is wrong."""
    path = getattr(err, "field", "") or ""
    data = None
    if text is not None and path.startswith("templates."):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
    msg = getattr(err, "message", None) or str(err)
    where = bestiary_place(path, data)
    return (f"{where}: {msg}" if where else msg).rstrip(".")
