"""The JSON save format (documented in docs/file-format.md).

```
{"format": "fray-encounter", "schema": 3,
 "encounter": {...the present encounter...},
 "history": {"initial": {...}, "actions": [...], "cursor": N,
             "checkpoints": [{"at": 50, "log": L, "encounter": {...all but its log...}}, ...]}}
```

A checkpoint's log is the first ``L`` entries of ``encounter.log``, so the file grows with the
fight, not with its square. Schema 1 (no ``checkpoints``) and schema 2 (each checkpoint a whole
encounter, log included, redo stack too) load, and the next save writes schema 3.

Loading checks every field and names the exact path of the first thing that is wrong
(``encounter.combatants.2.position.x: must be a number``). When a history is present, its
replay must reproduce the saved encounter; that catches a file edited by hand or a corrupted
autosave before the GM sees a half-right fight. ``loads(text, verify=False)`` (the autosave)
reads every field just as strictly but replays only from the last checkpoint to the present; the
history checks the other saved states as undo and redo first reach them (``History.resume``).
"""

from __future__ import annotations

import codecs
import json
import re
from dataclasses import asdict, fields, is_dataclass
from typing import Any, Callable

from . import RULES_EDITION, gate, reducer
from .errors import FrayError, InvalidAction, SaveFileError
from .history import History, Unread, fields_of
from .model import SCHEMA_VERSION, Combatant, Encounter, LogEntry, Position
from fray.games import get_ruleset

FORMAT = "fray-encounter"
MAX_FILE_BYTES = 20 * 1024 * 1024
# a round counter that could only come from a hand-edited file (a million "next" presses)
MAX_ROUND = 1_000_000


def dump_history(h: History) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "schema": SCHEMA_VERSION,
        "rules": RULES_EDITION,
        "encounter": asdict(h.present),
        "history": {"initial": asdict(h.initial), "actions": h.actions, "cursor": h.cursor,
                    "checkpoints": [{"at": k, "log": log_length(s), "encounter": fields_of(s, log=False)}
                                    for k, s in h.checkpoints()]},
    }


def log_length(state: "Encounter | Unread") -> int:
    return state.log_length if isinstance(state, Unread) else len(state.log)


def _compact(v: Any) -> str:
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


# id -> (combatant or log line, its JSON), as the last save wrote them: see ``state_text``
_PIECES: dict[int, tuple[Any, str]] = {}


def state_text(state: "Encounter | Unread", log: bool = True) -> str:
    """``_compact(fields_of(state, log))``, the same text, made from the text of each combatant
    and log line as the last save wrote it. States are never changed and the reducer shares
    every combatant an action left alone (``fray/sharing.py``), so an autosave after one action
    turns into text only what that action changed, not the whole fight again."""
    if isinstance(state, Unread):
        return _compact(state.fields)  # its fields as they came
    parts = []
    for f in fields(state):
        if f.name == "log" and not log:
            continue
        v = getattr(state, f.name)
        text = "[" + ",".join(map(_piece, v)) + "]" if f.name in ("combatants", "log") else _compact(v)
        parts.append(f"{_compact(f.name)}:{text}")
    return "{" + ",".join(parts) + "}"


def _piece(obj: Any) -> str:
    held = _PIECES.get(id(obj))
    if held is None or held[0] is not obj:  # the object itself is held, so its id is never reused
        held = _PIECES[id(obj)] = (obj, _compact_dataclass(obj))
    return held[1]


# class -> its field names, in order (``fields`` walks the class each time it is asked)
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _shallow(obj: Any) -> dict[str, Any]:
    """What ``asdict`` would give at the top level, without copying what is inside: json's C
    encoder walks the dicts and lists itself and asks again for any dataclass it meets."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        if not is_dataclass(obj) or isinstance(obj, type):
            raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in fields(obj))
    return {n: getattr(obj, n) for n in names}


def _compact_dataclass(obj: Any) -> str:
    """``_compact(asdict(obj))``, the same text, some ten times sooner: ``asdict`` deep-copies
    every dict and list of a combatant in Python before json reads it (a 30-combatant
    strike-rank Melee Round made that most of an autosave's fold)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, default=_shallow)


def _json_escape(err: UnicodeEncodeError) -> tuple[str, int]:
    # a run of non-ASCII characters, necessarily inside a JSON string (JSON's own marks are all
    # ASCII): the \uXXXX escapes json.dumps(ensure_ascii=True) would have written for it
    return json.encoder.encode_basestring_ascii(err.object[err.start:err.end])[1:-1], err.end


codecs.register_error("fray-json-ascii", _json_escape)


def ascii_json(text: str) -> str:
    """Compact JSON with every non-ASCII character written as its ``\\uXXXX`` escape: the same
    data (and the text ``ensure_ascii=True`` gives), in ASCII only. Pyodide hands an ASCII string
    to JavaScript some fifty times sooner than one with a single "→" or "Ø" in it (a 30-combatant
    autosave of 960 KB: 60-130 ms against 1-4 ms, most of a fold of the journal into the save);
    the escaping runs in the ASCII encoder, called once for each run of other characters."""
    return text if text.isascii() else text.encode("ascii", "fray-json-ascii").decode("ascii")


def dumps(h: History) -> str:
    """``dump_history`` as compact JSON, the same text; each state's JSON is made once and kept
    (states are never changed), so an autosave does not turn every checkpoint into text again,
    and a new state's JSON reuses that of every combatant and log line it shares (``state_text``)."""
    cps = ",".join(f'{{"at":{k},"log":{log_length(s)},"encounter":{h.dumped(k, s, state_text, log=False)}}}'
                   for k, s in h.checkpoints())
    text = (f'{{"format":{_compact(FORMAT)},"schema":{SCHEMA_VERSION},"rules":{_compact(RULES_EDITION)},'
            f'"encounter":{h.dumped(h.cursor, h.present, state_text)},'
            f'"history":{{"initial":{h.dumped(0, h.initial, state_text)},"actions":{_compact(h.actions)},'
            f'"cursor":{h.cursor},"checkpoints":[{cps}]}}}}')
    if len(_PIECES) > 2 * (len(h.present.combatants) + len(h.present.log)) + 100:
        # keep what the present is made of (the next state shares most of it); the rest is written
        keep = {id(x) for x in h.present.combatants} | {id(x) for x in h.present.log}
        for k in [k for k in _PIECES if k not in keep]:
            del _PIECES[k]
    return text


def loads(text: str, verify: bool = True, check: bool = True) -> History:
    """Parse a save file; raise ``SaveFileError`` naming what is wrong. With ``verify`` false the
    history is not replayed now but as undo and redo reach each state (``History.resume``), and
    with ``check`` false too, the present is checked later (``History.check_present``: the page,
    once it is ready, and before any change in any case)."""
    if len(text) > MAX_FILE_BYTES:
        raise SaveFileError("", f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB")
    if not verify and not check:
        quick = _quick_parse(text)
        if quick is not None:
            return load_data(*quick, verify=verify, check=check)
    try:
        data = gate.parse_file(text, FORMAT)
    except InvalidAction as e:
        raise SaveFileError("", e.message) from None
    return load_data(data, verify=verify, check=check)


# The autosave's own text, as ``dumps`` writes it: its checkpoints come last.
_QUICK_HEAD = f'{{"format":"{FORMAT}","schema":{SCHEMA_VERSION},'
_QUICK_RULES = '"rules":'  # a save of a Fray from before the rules edition has none
_QUICK_NEXT = (',"history":{"initial":', ',"actions":', ',"cursor":', ',"checkpoints":')
_DECODER = json.JSONDecoder()
# Where the page cuts its autosave (static/store.js ``getSplit``): the cursor, then the checkpoints.
SPLIT_AT = re.compile(r',"cursor":\d+,"checkpoints":')


def loads_split(head: str, rest: Callable[[], str], size: int, verify: bool = False,
                check: bool = False) -> History:
    """``loads`` of a save handed over in two parts (the page's autosave, static/store.js): ``head``
    up to and with ``,"checkpoints":``, and ``rest()``, the text after it, asked for only when the
    checkpoints are first read (undo, or the check of the present once the page is ready): the two
    thirds of a long fight's save that are its checkpoints then never cross into Python at boot.
    A head that is not what ``dumps`` writes up to its checkpoints (the cut fell in the wrong
    place) is read as the whole text: the same history, the same errors, as ``loads``."""
    # ``size`` counts as JavaScript does (a character outside the BMP is two): past the limit,
    # ``loads`` measures the whole text itself
    if not verify and not check and size <= MAX_FILE_BYTES:
        quick = _quick_parse(head, whole=False)
        if quick is not None:
            def later() -> str:
                tail = rest()
                if not tail.endswith("]}}"):
                    raise SaveFileError("history.checkpoints", "the save's end is not where its checkpoints end")
                return tail[:-2]
            return load_data(quick[0], later, verify=verify, check=check)
    return loads(head + rest(), verify, check)


def _quick_parse(text: str, whole: bool = True) -> tuple[dict[str, Any], str] | None:
    """A save exactly as ``dumps`` writes it, parsed but for its checkpoints (two thirds of a long
    fight's text, and read only when undo first needs one, or when the page checks the present):
    the parsed file with no checkpoints, and their JSON text. None for any other text, which
    ``gate.parse_json`` then reads whole; so an edited or foreign file is read as strictly as
    ever, and its errors are the same. Each value is parsed by the JSON parser itself, behind the
    same depth scan. ``whole`` false: ``text`` is such a save cut right after ``,"checkpoints":``
    (``loads_split``), and must end exactly there."""
    if not text.startswith(_QUICK_HEAD) or (whole and not text.endswith("]}}")):
        return None
    i = len(_QUICK_HEAD)
    rules = None
    try:
        if text.startswith(_QUICK_RULES, i):
            rules, i = _DECODER.raw_decode(text, i + len(_QUICK_RULES))
            if not isinstance(rules, str) or not text.startswith(",", i):
                return None
            i += 1
        if not text.startswith('"encounter":', i):
            return None
        i += len('"encounter":')
        values = []
        for sep in _QUICK_NEXT:
            value, i = _DECODER.raw_decode(text, i)
            if not text.startswith(sep, i):
                return None
            values.append(value)
            i += len(sep)
    except (ValueError, RecursionError):
        return None
    if not whole and i != len(text):
        return None
    if gate.json_depth(text[:i]) > gate.FILE_DEPTH:
        return None
    encounter, initial, actions, cursor = values
    data = {"format": FORMAT, "schema": SCHEMA_VERSION, "encounter": encounter,
            "history": {"initial": initial, "actions": actions, "cursor": cursor, "checkpoints": []}}
    if rules is not None:
        data["rules"] = rules
    return data, text[i:-2]


def load_data(data: Any, later: "str | Callable[[], str] | None" = None, *, verify: bool = True,
              check: bool = True) -> History:
    """Check a parsed save file with the same gate and the same readers as the actions. ``later``:
    its checkpoints' JSON text (or a function giving it), read when first needed (``_quick_parse``)."""
    try:
        return _load(data, verify, check, later)
    except InvalidAction as e:
        raise SaveFileError(e.field, e.message) from None


def _load(data: Any, verify: bool, check: bool = True, later: "str | Callable[[], str] | None" = None) -> History:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        # the whole file is not a save: said as such, not as one field of it
        raise SaveFileError("", gate.not_a_file(FORMAT, data))
    if "schema" not in data:
        raise SaveFileError("schema", "missing schema version")
    schema = data["schema"]
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise SaveFileError("schema", f"must be the whole number 1, 2 or {SCHEMA_VERSION}")
    if schema > SCHEMA_VERSION:
        raise SaveFileError("schema", f"made by a newer Fray (schema {schema}; this one reads {SCHEMA_VERSION})")
    if schema < 1:
        raise SaveFileError("schema", f"unknown schema {schema}")
    # The page's own autosave (``later``: quickly parsed): what only refuses a tampered file, the
    # value gate over the free-form parts and asking the rules whether they can read it (some 40%
    # of the load), is done when the present is checked, right after the page is ready
    # (``History.check_present``); what builds the encounter is checked now, as always.
    global _DEFERRED
    _DEFERRED = [] if later is not None else None
    try:
        present = encounter_from_dict(data.get("encounter"), "encounter")
        if later is None:
            check_readable(present, "encounter")
        return _load_history(data, schema, present, verify, check, later)
    finally:
        _DEFERRED = None


def _load_history(data: dict, schema: int, present: Encounter, verify: bool, check: bool,
                  later: "str | Callable[[], str] | None") -> History:
    deferred = _DEFERRED
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
    edition = data.get("rules")
    if edition is not None and not isinstance(edition, str):
        raise SaveFileError("rules", "must be text (the edition of the rules that made the save)")
    if edition != RULES_EDITION:
        return _other_edition(initial, actions, cursor, present)
    saved = _checkpoints(hist, schema, initial.ruleset, len(actions), cursor, present, lazy=not verify)
    if not verify:
        # the actions pass the reducer's gate when they are replayed, as undo or redo reach them
        for i, a in enumerate(actions):
            if not isinstance(a, dict):
                raise SaveFileError(f"history.actions.{i}", "must be an object")
            if deferred is not None:
                deferred.append((a, f"history.actions.{i}"))
            else:
                gate.check_value(a, f"history.actions.{i}")
        h = History.resume(initial, actions, cursor, present, saved,
                           None if later is None else _later_checkpoints(later, schema, initial.ruleset,
                                                                         len(actions), cursor, present))
        if deferred is not None:
            h._pending = _pending_checks(list(deferred), present)
        # the present is checked by a replay from the last checkpoint before it (at most
        # CHECKPOINT_EVERY actions): now, or (``check`` false) once the page shows it, and before
        # any change in any case; the checkpoints are checked as undo and redo reach them
        if check:
            h.check_present()
        return h
    try:
        # every action passes the reducer's gate on the way, exactly as when it was first typed
        h = History.replay(initial, actions, cursor)
    except InvalidAction as e:
        raise SaveFileError(f"history.{e.field}", e.message) from None
    except FrayError as e:
        raise SaveFileError("history.actions", str(e)) from None
    if asdict(h.present) != asdict(present):
        raise SaveFileError("encounter", "does not match what its history replays to (edited or corrupted file)")
    for k, (state, path) in saved.items():
        if asdict(h.state_at(k)) != asdict(state):
            raise SaveFileError(path, "does not match what its history replays to (edited or corrupted file)")
    return h


def _other_edition(initial: Encounter, actions: list, cursor: int, present: Encounter) -> History:
    """A save made by a Fray that played some rules differently (another ``RULES_EDITION``, or none):
    its history is replayed whole now, once, and kept where it still leads to the saved encounter.
    Where it does not, the rules have changed under it, not the file: the encounter opens as it
    stands (every field was read as strictly as ever) with a history that starts there, and
    ``History.other_edition`` tells the page to say so. Within one edition a replay that differs
    is refused, as an edited or corrupted file."""
    deferred = _DEFERRED
    if deferred is not None:  # what a quick load leaves for later is checked now
        _pending_checks(list(deferred), present)()
    else:
        check_readable(present, "encounter")
    try:
        for i, a in enumerate(actions):
            if not isinstance(a, dict):
                raise SaveFileError(f"history.actions.{i}", "must be an object")
        h = History.replay(initial, actions, cursor)
        if asdict(h.present) == asdict(present):
            return h
    except FrayError:
        pass
    h = History(present)
    h.other_edition = True
    return h


def _pending_checks(deferred: list[tuple[Any, str]], present: Encounter):
    """What ``_load`` left for later: the value gate, in reading order, then the rules."""
    def run() -> None:
        try:
            for v, path in deferred:
                gate.check_value(v, path)
        except InvalidAction as e:
            raise SaveFileError(e.field, e.message) from None
        check_readable(present, "encounter")
    return run


def _later_checkpoints(text: "str | Callable[[], str]", schema: int, ruleset: str, n_actions: int, cursor: int,
                       present: Encounter):
    """The reader of a quickly parsed save's checkpoints (``_quick_parse``), as ``_checkpoints``
    reads them in a whole file, with the same paths. ``text`` may be a function that gives it
    (``loads_split``: asked for only now)."""
    def read() -> dict[int, tuple["Encounter | Unread", str]]:
        try:
            cps = gate.parse_json(text() if callable(text) else text, "history.checkpoints")
            return _checkpoints({"checkpoints": cps}, schema, ruleset, n_actions, cursor, present, lazy=True)
        except InvalidAction as e:
            raise SaveFileError(e.field, e.message) from None
    return read


def _checkpoints(hist: dict, schema: int, ruleset: str, n_actions: int, cursor: int,
                 present: Encounter, lazy: bool = False) -> dict[int, tuple["Encounter | Unread", str]]:
    """``history.checkpoints`` (schema 2 and 3): each state read with the same strict reader as
    the present, at a strictly increasing index from 1 to the number of actions, never the
    cursor. From schema 3 a checkpoint comes before the cursor and holds no log: ``log`` says how
    many of the present's first log entries are its log (the log only grows). ``lazy`` (the
    autosave, schema 3): each one's place and shape are checked now, its fields when undo or redo
    first needs it (``history.Unread``), so a load reads one encounter, not one per 50 actions."""
    if "checkpoints" not in hist:
        return {}
    if schema < 2:
        raise SaveFileError("history.checkpoints", "is not part of schema 1")
    cps = hist["checkpoints"]
    if not isinstance(cps, list):
        raise SaveFileError("history.checkpoints", "must be a list")
    out: dict[int, tuple[Encounter, str]] = {}
    last = last_log = 0
    top = n_actions if schema < 3 else cursor - 1
    for i, cp in enumerate(cps):
        p = f"history.checkpoints.{i}"
        if not isinstance(cp, dict):
            raise SaveFileError(p, "must be an object with at and encounter")
        if last >= top:
            raise SaveFileError(p, f"one checkpoint too many: the last possible one is at {top}"
                                   + (" (schema 3 keeps none from the cursor on)" if schema >= 3 else ""))
        at = _whole(cp, "at", p, last + 1, top)
        if at == cursor:
            raise SaveFileError(f"{p}.at", "is the cursor: the state there is the file's encounter")
        log = None
        if schema >= 3:
            n = _whole(cp, "log", p, last_log, len(present.log))
            log, last_log = present.log[:n], n
            if isinstance(cp.get("encounter"), dict) and "log" in cp["encounter"]:
                raise SaveFileError(f"{p}.encounter.log", "is not part of a schema 3 checkpoint: its log is the "
                                                          "first `log` entries of the file's encounter")
        raw = cp.get("encounter")
        if not isinstance(raw, dict):
            raise SaveFileError(f"{p}.encounter", "must be an object")
        if raw.get("ruleset") != ruleset:
            raise SaveFileError(f"{p}.encounter.ruleset", "differs from the encounter's ruleset")
        read = _checkpoint_reader(raw, f"{p}.encounter", log)
        out[at] = (Unread(read, raw, len(log)) if lazy and log is not None else read(), f"{p}.encounter")
        last = at
    return out


def _checkpoint_reader(raw: dict, path: str, log: list[LogEntry] | None):
    def read() -> Encounter:
        state = encounter_from_dict(raw, path, log=log)
        check_readable(state, path)
        return state
    return read


def check_readable(enc: Encounter, path: str) -> None:
    """The ruleset's own state (declarations, hit locations, weapons) is only checked for being
    JSON above; a file edited by hand could still hold a shape the rules cannot read. Ask the
    rules for what the page will ask them, so such a file is refused here, with its path, and
    never becomes the open encounter."""
    from .maprules import map_view

    from . import timers

    wrong = timers.check_state(enc)  # the one key of the state that the core owns
    if wrong is not None:
        raise SaveFileError(f"{path}.state.timers.{wrong.split(':')[0]}" if wrong[0].isdigit() else f"{path}.state.timers",
                            wrong.split(": ", 1)[-1])
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


# -- strict readers: the same checks as the actions that make each field -----------------------

def _req(d: dict, key: str, path: str, kinds: tuple, what: str) -> Any:
    if key not in d:
        raise SaveFileError(f"{path}.{key}", "is missing")
    v = d[key]
    if isinstance(v, bool) and bool not in kinds or not isinstance(v, kinds):
        raise SaveFileError(f"{path}.{key}", f"must be {what}")
    return v


def _whole(d: dict, key: str, path: str, lo: int, hi: int) -> int:
    v = _req(d, key, path, (int,), "a whole number")
    if not lo <= v <= hi:
        raise SaveFileError(f"{path}.{key}", f"must be a whole number from {lo} to {hi}, not {v}")
    return v


def _text(d: dict, key: str, path: str, max_len: int = gate.MAX_TEXT) -> str:
    v = _req(d, key, path, (str,), "text")
    gate.check_text(v, f"{path}.{key}", max_len)
    return v


def _as_written(d: dict, key: str, path: str, max_len: int = reducer.MAX_NAME) -> str:
    """A name as ``reducer.clean_name`` writes it: what the actions store, nothing else."""
    v = _req(d, key, path, (str,), "text")
    if reducer.clean_name(v, f"{path}.{key}", max_len) != v:
        raise SaveFileError(f"{path}.{key}", "has spaces at its ends or runs of spaces, which Fray never writes")
    return v


def _num(d: dict, key: str, path: str, lo: float, hi: float) -> float:
    _req(d, key, path, (int, float), "a number")
    return reducer._number(d[key], f"{path}.{key}", lo, hi)


# (value, path) pairs whose value gate is left for later while the page reads its own autosave
# (``_load`` with ``later``); None: every value is gated as it is read
_DEFERRED: list[tuple[Any, str]] | None = None


def _json_like(v: Any, path: str) -> None:
    if _DEFERRED is not None:
        _DEFERRED.append((v, path))
        return
    gate.check_value(v, path)


_ID = re.compile(r"c([1-9][0-9]*)")


def encounter_from_dict(d: Any, path: str = "encounter", log: list[LogEntry] | None = None) -> Encounter:
    """Read one encounter, refusing what no sequence of actions could have made; with ``log``
    (a schema 3 checkpoint) the encounter has no log of its own and that is its log."""
    try:
        return _encounter(d, path, log)
    except InvalidAction as e:
        raise SaveFileError(e.field, e.message) from None


def _encounter(d: Any, path: str, given_log: list[LogEntry] | None = None) -> Encounter:
    if not isinstance(d, dict):
        raise SaveFileError(path, "must be an object")
    ruleset_id = _req(d, "ruleset", path, (str,), "a ruleset id")
    try:
        rs = get_ruleset(ruleset_id)
    except InvalidAction as e:
        raise SaveFileError(f"{path}.ruleset", e.message) from None
    combatants = _req(d, "combatants", path, (list,), "a list")
    # first, before any per-combatant work (the map rules are quadratic in the count)
    if len(combatants) > reducer.MAX_COMBATANTS:
        raise SaveFileError(f"{path}.combatants", f"at most {reducer.MAX_COMBATANTS} combatants "
                                                  f"(the file has {len(combatants)})")
    enc = Encounter(ruleset=ruleset_id)
    enc.name = _as_written(d, "name", path)
    enc.round = _whole(d, "round", path, 1, MAX_ROUND)
    enc.phase = _text(d, "phase", path, 40)
    enc.turn = _whole(d, "turn", path, 0, MAX_ROUND)
    enc.next_id = _whole(d, "next_id", path, 1, reducer.MAX_NEXT_ID)
    override = _req(d, "order_override", path, (list,), "a list")
    for i, x in enumerate(override):
        if not isinstance(x, str):
            raise SaveFileError(f"{path}.order_override.{i}", "must be a combatant id")
    if len(set(override)) != len(override):
        raise SaveFileError(f"{path}.order_override", "names a combatant twice")
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
    seen: set[str] = set()
    for i, cd in enumerate(combatants):
        cp = f"{path}.combatants.{i}"
        if not isinstance(cd, dict):
            raise SaveFileError(cp, "must be an object")
        cid = _req(cd, "id", cp, (str,), "text")
        m = _ID.fullmatch(cid)
        if m is None:
            raise SaveFileError(f"{cp}.id", f"must be c followed by a number, as Fray numbers them, not {cid[:20]!r}")
        if cid in seen:
            raise SaveFileError(f"{cp}.id", f"the id {cid!r} is used twice")
        seen.add(cid)
        name = _as_written(cd, "name", cp)
        side = reducer._side(_req(cd, "side", cp, (str,), "text"), f"{cp}.side")
        stats = _req(cd, "stats", cp, (dict,), "an object")
        _json_like(stats, f"{cp}.stats")
        try:
            stats = rs.validate_stats(stats, "stats")
        except InvalidAction as e:
            raise SaveFileError(f"{cp}.{e.field}", e.message) from None
        notes = _text(cd, "notes", cp, reducer.MAX_NOTES)
        conds = _req(cd, "conditions", cp, (list,), "a list")
        for j, x in enumerate(conds):
            if not isinstance(x, str):
                raise SaveFileError(f"{cp}.conditions.{j}", "must be text")
            if reducer.clean_name(x, f"{cp}.conditions.{j}", 40).lower() != x:
                raise SaveFileError(f"{cp}.conditions.{j}", "must be a lower-case condition name as Fray writes it")
        if len(set(conds)) != len(conds):
            raise SaveFileError(f"{cp}.conditions", "names a condition twice")
        pd = _req(cd, "position", cp, (dict,), "an object with x, y, alt")
        pp = f"{cp}.position"
        pos = Position(_num(pd, "x", pp, -reducer.MAX_COORD, reducer.MAX_COORD),
                       _num(pd, "y", pp, -reducer.MAX_COORD, reducer.MAX_COORD),
                       _num(pd, "alt", pp, -reducer.MAX_ALT, reducer.MAX_ALT))
        data = _req(cd, "data", cp, (dict,), "an object")
        _json_like(data, f"{cp}.data")
        enc.combatants.append(Combatant(cid, name, side, stats, notes, list(conds), pos, data))
    numbered = [int(x[1:]) for x in seen]
    if numbered and enc.next_id <= max(numbered):
        raise SaveFileError(f"{path}.next_id", f"must be more than {max(numbered)} (the highest combatant id), "
                                               f"not {enc.next_id}")
    for i, x in enumerate(enc.order_override):
        if x not in seen:
            raise SaveFileError(f"{path}.order_override.{i}", f"names no combatant ({x!r})")
    if given_log is not None:
        enc.log = list(given_log)  # the entries of the present: shared, as in the history
        return enc
    log = _req(d, "log", path, (list,), "a list")
    enc.log = _log_entries(log, f"{path}.log")
    return enc


def _log_entries(log: list, path: str) -> list[LogEntry]:
    """The log's entries, each checked as ``_whole`` and ``_text`` check a field. A long fight's
    log is most of what a load reads (500 entries at 30 combatants and 300 actions): an entry whose
    every field is plainly right is taken in one test, without a call per field (in the page, the
    per-field calls were a third of the present's load); any other is read field by field, which
    finds and names what is wrong."""
    out: list[LogEntry] = []
    top_seq, top_text = 10**9, gate.MAX_LOG_TEXT
    for i, ld in enumerate(log):
        if (type(ld) is dict and type(seq := ld.get("seq")) is int and 1 <= seq <= top_seq
                and type(rnd := ld.get("round")) is int and 1 <= rnd <= MAX_ROUND
                and type(kind := ld.get("kind")) is str and len(kind) <= 40
                and type(text := ld.get("text")) is str and len(text) <= top_text
                and type(detail := ld.get("detail")) is dict):
            _json_like(detail, f"{path}.{i}.detail")
            out.append(LogEntry(seq, rnd, kind, text, detail))
            continue
        lp = f"{path}.{i}"
        if not isinstance(ld, dict):
            raise SaveFileError(lp, "must be an object")
        detail = _req(ld, "detail", lp, (dict,), "an object")
        _json_like(detail, f"{lp}.detail")
        out.append(LogEntry(_whole(ld, "seq", lp, 1, 10**9),
                            _whole(ld, "round", lp, 1, MAX_ROUND),
                            _text(ld, "kind", lp, 40),
                            _text(ld, "text", lp, gate.MAX_LOG_TEXT), detail))
    return out


def compare_histories(mine: History, theirs: History) -> tuple[str, int]:
    """How an imported history stands to one already kept (the same name): ``("same", 0)``, the
    file ``("ahead", n)`` changes further on, the one here ``("behind", n)`` changes further on
    than the file, or ``("different", 0)`` (another fight, or the two went separate ways). Compared
    on what the history is made of (the start and the actions with their dice), never on the
    text, so the same fight exported twice is the same."""
    if asdict(mine.initial) != asdict(theirs.initial):
        return "different", 0
    a, b = mine.actions[:mine.cursor], theirs.actions[:theirs.cursor]
    n = min(len(a), len(b))
    if a[:n] != b[:n]:
        return "different", 0
    if len(a) == len(b):
        return "same", 0
    return ("ahead", len(b) - len(a)) if len(b) > len(a) else ("behind", len(a) - len(b))
