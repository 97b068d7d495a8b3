"""The JSON save format (documented in docs/file-format.md).

```
{"format": "fray-encounter", "schema": 1,
 "encounter": {...the present encounter...},
 "history": {"initial": {...}, "actions": [...], "cursor": N}}
```

Loading checks every field and names the exact path of the first thing that is wrong
(``encounter.combatants.2.position.x: must be a number``). When a history is present, its
replay must reproduce the saved encounter; that catches a file edited by hand or a corrupted
autosave before the GM sees a half-right fight.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from .errors import FrayError, InvalidAction, SaveFileError
from .history import History
from .model import SCHEMA_VERSION, Combatant, Encounter, LogEntry, Position
from .rulesets import get_ruleset

FORMAT = "fray-encounter"
MAX_FILE_BYTES = 20 * 1024 * 1024


def dump_history(h: History) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "schema": SCHEMA_VERSION,
        "encounter": asdict(h.present),
        "history": {"initial": asdict(h.initial), "actions": h.actions, "cursor": h.cursor},
    }


def dumps(h: History) -> str:
    return json.dumps(dump_history(h), separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> History:
    """Parse a save file; raise ``SaveFileError`` naming what is wrong."""
    if len(text) > MAX_FILE_BYTES:
        raise SaveFileError("", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveFileError("", f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except (RecursionError, ValueError) as e:
        raise SaveFileError("", f"not JSON Fray can read: {e}") from None
    return load_data(data)


def load_data(data: Any) -> History:
    if not isinstance(data, dict):
        raise SaveFileError("", "not a Fray file: expected a JSON object")
    if data.get("format") != FORMAT:
        raise SaveFileError("format", f"not a Fray encounter file (format is {data.get('format')!r}, "
                                      f"expected {FORMAT!r})")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise SaveFileError("schema", "missing schema version")
    if schema > SCHEMA_VERSION:
        raise SaveFileError("schema", f"made by a newer Fray (schema {schema}; this one reads {SCHEMA_VERSION})")
    if schema < 1:
        raise SaveFileError("schema", f"unknown schema {schema}")
    present = encounter_from_dict(data.get("encounter"), "encounter")
    check_readable(present, "encounter")
    hist = data.get("history")
    if hist is None:
        return History(present)
    if not isinstance(hist, dict):
        raise SaveFileError("history", "must be an object with initial, actions and cursor")
    initial = encounter_from_dict(hist.get("initial"), "history.initial")
    actions = hist.get("actions")
    if not isinstance(actions, list):
        raise SaveFileError("history.actions", "must be a list")
    cursor = hist.get("cursor")
    if not isinstance(cursor, int) or isinstance(cursor, bool) or not 0 <= cursor <= len(actions):
        raise SaveFileError("history.cursor", f"must be a whole number from 0 to {len(actions)}")
    if initial.ruleset != present.ruleset:
        raise SaveFileError("history.initial.ruleset", "differs from the encounter's ruleset")
    try:
        h = History.replay(initial, actions, cursor)
    except InvalidAction as e:
        raise SaveFileError(f"history.{e.field}", str(e).split(": ", 1)[-1]) from None
    except FrayError as e:
        raise SaveFileError("history.actions", str(e)) from None
    if asdict(h.present) != asdict(present):
        raise SaveFileError("encounter", "does not match what its history replays to (edited or corrupted file)")
    return h


def check_readable(enc: Encounter, path: str) -> None:
    """The ruleset's own state (declarations, hit locations, weapons) is only checked for being
    JSON above; a file edited by hand could still hold a shape the rules cannot read. Ask the
    rules for what the page will ask them, so such a file is refused here, with its path, and
    never becomes the open encounter."""
    from .maprules import map_view

    rs = get_ruleset(enc.ruleset)
    try:
        rs.view(enc)
        rs.order_of_play(enc)
        for c in enc.combatants[:1]:
            map_view(enc, c.id)
    except FrayError as e:
        raise SaveFileError(path, f"the {rs.name} rules cannot read it: {e}") from None
    except Exception as e:  # noqa: BLE001 - any failure here means "this file cannot be used"
        raise SaveFileError(path, f"the {rs.name} rules cannot read it ({type(e).__name__}: {e})") from None


# -- strict readers ---------------------------------------------------------------------------

def _req(d: dict, key: str, path: str, kinds: tuple, what: str) -> Any:
    if key not in d:
        raise SaveFileError(f"{path}.{key}", "is missing")
    v = d[key]
    if isinstance(v, bool) and bool not in kinds or not isinstance(v, kinds):
        raise SaveFileError(f"{path}.{key}", f"must be {what}")
    return v


def _num(d: dict, key: str, path: str) -> float:
    v = _req(d, key, path, (int, float), "a number")
    if v != v or abs(v) > 1e6:
        raise SaveFileError(f"{path}.{key}", "must be a finite number")
    return float(v)


def _json_like(v: Any, path: str, depth: int = 0) -> None:
    if depth > 40:
        raise SaveFileError(path, "is nested too deeply")
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                raise SaveFileError(path, "keys must be text")
            _json_like(x, f"{path}.{k}", depth + 1)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _json_like(x, f"{path}.{i}", depth + 1)
    elif not (v is None or isinstance(v, (str, int, float, bool))):
        raise SaveFileError(path, "is not JSON data")


def encounter_from_dict(d: Any, path: str = "encounter") -> Encounter:
    if not isinstance(d, dict):
        raise SaveFileError(path, "must be an object")
    ruleset_id = _req(d, "ruleset", path, (str,), "a ruleset id")
    try:
        rs = get_ruleset(ruleset_id)
    except InvalidAction as e:
        raise SaveFileError(f"{path}.ruleset", str(e).split(": ", 1)[-1]) from None
    enc = Encounter(ruleset=ruleset_id)
    enc.name = _req(d, "name", path, (str,), "text")
    enc.round = _req(d, "round", path, (int,), "a whole number")
    enc.phase = _req(d, "phase", path, (str,), "text")
    enc.turn = _req(d, "turn", path, (int,), "a whole number")
    enc.next_id = _req(d, "next_id", path, (int,), "a whole number")
    if enc.round < 1:
        raise SaveFileError(f"{path}.round", "must be 1 or more")
    override = _req(d, "order_override", path, (list,), "a list")
    for i, x in enumerate(override):
        if not isinstance(x, str):
            raise SaveFileError(f"{path}.order_override.{i}", "must be a combatant id")
    enc.order_override = list(override)
    enc.tables = _req(d, "tables", path, (dict,), "an object")
    _json_like(enc.tables, f"{path}.tables")
    for tid, table in enc.tables.items():
        try:
            rs.check_table(tid, table)
        except InvalidAction as e:
            raise SaveFileError(f"{path}.tables.{tid}", str(e)) from None
    enc.state = _req(d, "state", path, (dict,), "an object")
    _json_like(enc.state, f"{path}.state")
    combatants = _req(d, "combatants", path, (list,), "a list")
    seen: set[str] = set()
    for i, cd in enumerate(combatants):
        cp = f"{path}.combatants.{i}"
        if not isinstance(cd, dict):
            raise SaveFileError(cp, "must be an object")
        cid = _req(cd, "id", cp, (str,), "text")
        if cid in seen:
            raise SaveFileError(f"{cp}.id", f"the id {cid!r} is used twice")
        seen.add(cid)
        name = _req(cd, "name", cp, (str,), "text")
        if not name.strip() or len(name) > 60:
            raise SaveFileError(f"{cp}.name", "must be 1 to 60 characters")
        side = _req(cd, "side", cp, (str,), "text")
        stats = _req(cd, "stats", cp, (dict,), "an object")
        try:
            stats = rs.validate_stats(stats, "stats")
        except InvalidAction as e:
            raise SaveFileError(f"{cp}.{e.field}", str(e).split(": ", 1)[-1]) from None
        notes = _req(cd, "notes", cp, (str,), "text")
        conds = _req(cd, "conditions", cp, (list,), "a list")
        for j, x in enumerate(conds):
            if not isinstance(x, str):
                raise SaveFileError(f"{cp}.conditions.{j}", "must be text")
        pd = _req(cd, "position", cp, (dict,), "an object with x, y, alt")
        pos = Position(_num(pd, "x", f"{cp}.position"), _num(pd, "y", f"{cp}.position"),
                       _num(pd, "alt", f"{cp}.position"))
        data = _req(cd, "data", cp, (dict,), "an object")
        _json_like(data, f"{cp}.data")
        enc.combatants.append(Combatant(cid, name, side, stats, notes, list(conds), pos, data))
    numbered = [int(x[1:]) for x in seen if x[:1] == "c" and x[1:].isdigit()]
    if numbered and enc.next_id <= max(numbered):
        raise SaveFileError(f"{path}.next_id", f"must be more than {max(numbered)} (the highest combatant id), "
                                               f"not {enc.next_id}")
    for i, x in enumerate(enc.order_override):
        if x not in seen:
            raise SaveFileError(f"{path}.order_override.{i}", f"names no combatant ({x!r})")
    log = _req(d, "log", path, (list,), "a list")
    for i, ld in enumerate(log):
        lp = f"{path}.log.{i}"
        if not isinstance(ld, dict):
            raise SaveFileError(lp, "must be an object")
        detail = _req(ld, "detail", lp, (dict,), "an object")
        _json_like(detail, f"{lp}.detail")
        enc.log.append(LogEntry(_req(ld, "seq", lp, (int,), "a whole number"),
                                _req(ld, "round", lp, (int,), "a whole number"),
                                _req(ld, "kind", lp, (str,), "text"),
                                _req(ld, "text", lp, (str,), "text"), detail))
    return enc
