"""Making and checking a character (the data ``fray.party`` describes).

A character is made from what the engine already takes: the add form's sheet (``add_combatant``'s
``combatant`` without its place on the map), a ready-made combatant or a bestiary template (the
same thing, tagged with its ruleset), or a combatant in a fight (its sheet read back from the
encounter, with what the fight left on it as its carried state). Whatever it came from, it is
checked one way (``check``): its sheet and carried state must be what ``join_party`` would put
into an empty encounter of its game, so a file, an import and the add form pass the same gate.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .. import gate
from ..errors import FrayError, InvalidAction
from ..model import Combatant, Encounter

KEYS = ("id", "ruleset", "sheet", "carried", "dead", "encounters", "kept_from")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_ENCOUNTERS = 1000

def name_of(ch: dict[str, Any]) -> str:
    return str(ch["sheet"].get("name", ""))


def new(ruleset_id: str, sheet: dict[str, Any], cid: str, carried: dict[str, Any] | None = None) -> dict[str, Any]:
    """A character from the add form's sheet (its position and count are not part of it), unhurt
    unless ``carried`` says otherwise; checked before it is returned."""
    body = {k: copy.deepcopy(v) for k, v in sheet.items() if k not in ("position", "count")}
    body.setdefault("side", "party")
    ch = {"id": cid, "ruleset": ruleset_id, "sheet": body, "carried": copy.deepcopy(carried or {}),
          "dead": False, "encounters": []}
    check(ch, "character")
    return ch


def from_template(template: dict[str, Any], cid: str) -> dict[str, Any]:
    """A character from a bestiary template or a ready-made combatant (``{"ruleset", "combatant"}``)."""
    if not isinstance(template, dict) or not isinstance(template.get("combatant"), dict):
        raise InvalidAction("template", "is not a template of a combatant")
    return new(str(template.get("ruleset", "")), template["combatant"], cid)


def sheet_of(enc: Encounter, c: Combatant) -> dict[str, Any]:
    """What the add form would send to make ``c`` as it was before the fight touched it."""
    sheet: dict[str, Any] = {"name": c.name, "side": c.side, "stats": copy.deepcopy(c.stats)}
    if c.notes:
        sheet["notes"] = c.notes
    from .games import game

    g = game(enc.ruleset)
    if g is not None:
        sheet.update(g.sheet_extra(c))
    return sheet


def from_combatant(enc: Encounter, c: Combatant, cid: str, encounter: str = "") -> dict[str, Any]:
    """A character taken from a combatant in a fight: its sheet, and what the fight left on it as
    carried (the same proposal ``carry.carry_over`` makes at the end of a fight). ``encounter``, the
    fight's key: the character remembers which combatant of which fight it was kept from
    (``kept_from``), so that one, and not every combatant of its name (two wolves named "Wolf"), is
    no longer offered to keep (``kept_here``)."""
    from . import carry

    ch = new(enc.ruleset, sheet_of(enc, c), cid, carry.carry_over(enc, c))
    ch["dead"] = "dead" in c.conditions
    if encounter:
        ch["kept_from"] = {"encounter": encounter, "combatant": c.id}
        check(ch, "character")
    return ch


def kept_here(characters: list[dict[str, Any]], encounter: str) -> set[str]:
    """The combatants of the fight ``encounter`` that a character was kept from."""
    return {str(k["combatant"]) for ch in characters
            if isinstance(k := ch.get("kept_from"), dict) and k.get("encounter") == encounter}


def check(ch: Any, path: str = "character") -> None:
    """``InvalidAction`` at the field unless ``ch`` is a character its game's engine would put into
    an empty encounter as it stands (sheet and carried state both)."""
    from ..reducer import apply, new_encounter

    if not isinstance(ch, dict):
        raise InvalidAction(path, "must be a character (an object with its sheet)")
    for k in ch:
        if k not in KEYS:
            raise InvalidAction(f"{path}.{k}", "is not part of a character")
    gate.check_value(ch, path)
    if not isinstance(ch.get("id"), str) or not _ID.match(ch["id"]):
        raise InvalidAction(f"{path}.id", "must be a short name of letters, digits, - or _")
    if not isinstance(ch.get("sheet"), dict):
        raise InvalidAction(f"{path}.sheet", "must be the character's sheet, as the add form makes it")
    if not isinstance(ch.get("carried", {}), dict):
        raise InvalidAction(f"{path}.carried", "must be what the character carries from the last fight")
    if not isinstance(ch.get("dead", False), bool):
        raise InvalidAction(f"{path}.dead", "must be true or false")
    encs = ch.get("encounters", [])
    if not isinstance(encs, list) or len(encs) > MAX_ENCOUNTERS or not all(isinstance(e, str) for e in encs):
        raise InvalidAction(f"{path}.encounters", "must list the encounters the character was in")
    kept = ch.get("kept_from")
    if kept is not None and not (isinstance(kept, dict) and set(kept) == {"encounter", "combatant"}
                                 and all(isinstance(v, str) and 0 < len(v) <= 200 for v in kept.values())):
        raise InvalidAction(f"{path}.kept_from", "must name the encounter and the combatant the character was kept from")
    try:
        enc = new_encounter(ch.get("ruleset"))
    except FrayError:
        raise InvalidAction(f"{path}.ruleset", f"there is no game {ch.get('ruleset')!r}") from None
    live = dict(ch, dead=False)  # a dead character is checked as it would stand, not refused
    try:
        apply(enc, {"type": "join_party", "characters": [live]})
    except InvalidAction as e:
        raise InvalidAction(path + e.field.removeprefix("characters.0"), e.message) from None
    except FrayError as e:
        raise InvalidAction(path, str(e)) from None


def standing(ch: dict[str, Any]) -> tuple[Encounter, Combatant]:
    """The character as it stands, made by the engine (``join_party`` into an empty encounter of its
    game): what its wounds are worth is read from there (hit location HP, healing rate)."""
    from ..reducer import apply, new_encounter

    enc, _ = apply(new_encounter(ch["ruleset"]), {"type": "join_party", "characters": [dict(ch, dead=False)]})
    return enc, enc.combatants[0]
