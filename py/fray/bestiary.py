"""The GM's own bestiary: templates of combatants kept in the browser, with export and import
(issue 10: "a bestiary of the GM's own templates kept in the browser, with export and import").

A template is exactly what the add form sends (``add_combatant``'s ``combatant``) without a
position, tagged with its ruleset: ``{"ruleset": "strike-rank", "combatant": {...}}``. So
using one is the same as a ready-made combatant, and a template is checked the way the engine
checks an addition: by adding it to an empty encounter of its ruleset. A bestiary file is::

    {"format": "fray-bestiary", "version": 1, "templates": [...]}

Reading one is all or nothing: a template the engine refuses names its place and its field as an
exact dotted path ("templates.3.combatant.stats.STR: ..."), which ``fray.savewords.describe_bestiary``
says in the GM's words ("Template 4 (Goblin), its stats STR: ..."), and nothing is imported.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from . import gate
from .errors import FrayError, InvalidAction
from .reducer import apply, new_encounter
from fray.games import get_ruleset

FORMAT = "fray-bestiary"
VERSION = 1
MAX_TEMPLATES = 500  # a GM's whole campaign, and small enough to keep in the browser


def template_of(ruleset_id: str, combatant: dict[str, Any]) -> dict[str, Any]:
    """A template from the add form's combatant (its place on the map is not part of it)."""
    body = {k: copy.deepcopy(v) for k, v in combatant.items() if k != "position"}
    t = {"ruleset": ruleset_id, "combatant": body}
    check(t, "template")
    return t


def check(t: Any, path: str) -> None:
    """``InvalidAction`` at ``path`` unless ``t`` is a template its ruleset's engine would add."""
    if not isinstance(t, dict) or set(t) != {"ruleset", "combatant"}:
        raise InvalidAction(path, "must be a game and a combatant, as Fray exports a template")
    try:
        enc = new_encounter(t["ruleset"])
    except FrayError:
        raise InvalidAction(f"{path}.ruleset", f"this Fray has no game “{t['ruleset']}”") from None
    body = t["combatant"]
    if not isinstance(body, dict):
        raise InvalidAction(f"{path}.combatant", "must be a combatant's values")
    try:
        apply(enc, {"type": "add_combatant", "combatant": body})
    except FrayError as e:
        field = getattr(e, "field", "") or ""
        msg = getattr(e, "message", None) or str(e).split(": ", 1)[-1]
        raise InvalidAction(f"{path}.{field}" if field else f"{path}.combatant", msg) from None


def add(templates: list[dict[str, Any]], t: dict[str, Any]) -> list[dict[str, Any]]:
    """The bestiary with ``t`` in it; one of the same name and ruleset is replaced (the GM saved a
    better wolf), so names stay one per ruleset."""
    name = t["combatant"].get("name")
    kept = [x for x in templates if not (x["ruleset"] == t["ruleset"] and x["combatant"].get("name") == name)]
    if len(kept) >= MAX_TEMPLATES:
        raise InvalidAction("bestiary", f"holds at most {MAX_TEMPLATES} templates: remove some first")
    return kept + [t]


def remove(templates: list[dict[str, Any]], ruleset_id: str, name: str) -> list[dict[str, Any]]:
    return [x for x in templates if not (x["ruleset"] == ruleset_id and x["combatant"].get("name") == name)]


def of_ruleset(templates: list[dict[str, Any]], ruleset_id: str) -> list[dict[str, Any]]:
    return sorted((t for t in templates if t["ruleset"] == ruleset_id), key=lambda t: str(t["combatant"].get("name")))


def dumps(templates: list[dict[str, Any]]) -> str:
    return json.dumps({"format": FORMAT, "version": VERSION, "templates": templates}, indent=1, ensure_ascii=False)


def loads(text: str) -> list[dict[str, Any]]:
    """A bestiary file's templates, all checked; ``InvalidAction`` names what is wrong."""
    data = gate.parse_file(text, FORMAT)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidAction("", gate.not_a_file(FORMAT, data))
    v = data.get("version")
    if isinstance(v, bool) or not isinstance(v, int):
        raise InvalidAction("version", "must be the whole number 1")
    if v > VERSION:
        raise InvalidAction("version", f"{v} is newer than this Fray reads ({VERSION}): update Fray")
    templates = data.get("templates")
    if not isinstance(templates, list):
        raise InvalidAction("templates", "must be a list")
    if len(templates) > MAX_TEMPLATES:
        raise InvalidAction("templates", f"holds {len(templates)}; a bestiary holds at most {MAX_TEMPLATES}")
    gate.check_value(templates, "templates")
    out: list[dict[str, Any]] = []
    for i, t in enumerate(templates):
        check(t, f"templates.{i}")
        out = add(out, t)
    return out


def merge(kept: list[dict[str, Any]], incoming: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int, int]:
    """The bestiary after an import: (templates, how many are new, how many replaced one of the
    same name and ruleset)."""
    new = replaced = 0
    out = list(kept)
    for t in incoming:
        name = t["combatant"].get("name")
        if any(x["ruleset"] == t["ruleset"] and x["combatant"].get("name") == name for x in out):
            replaced += 1
        else:
            new += 1
        out = add(out, t)
    return out, new, replaced
