"""The autosave's journal: what a History did since it was last written, as a few small moves.

A save file holds a whole history (docs/file-format.md); writing it after every action costs
the whole file. Between two full saves the page writes only the moves the history made, in the
order it made them, each one what ``History`` itself did:

- ``{"move": "do", "action": {...}}``: ``History.do`` of the recorded action, which carries its
  dice, so applying it again needs no random source and makes the same encounter;
- ``{"move": "undo"}``, ``{"move": "redo"}``: one step back or forward;
- ``{"move": "go_to", "point": n}``: a jump in the history list (``History.go_to``).

``moves_between`` works them out from two looks at the same history (its actions and cursor
then and now), so the page needs no bookkeeping at the places that change a history:
``History.do`` only ever cuts the actions after the cursor and appends one, so the actions
both looks share are a common prefix. ``apply_moves`` replays them on the history loaded from
the full save; any move that does not apply raises ``SaveFileError`` naming it, as a broken
save does.
"""

from __future__ import annotations

import json
from typing import Any

from . import gate
from .errors import FrayError, InvalidAction, SaveFileError
from .history import History


class Look:
    """What a history was when it was last written: the very action objects and the cursor."""

    __slots__ = ("actions", "cursor")

    def __init__(self, h: History):
        self.actions = list(h.actions)  # the same dicts: a later look shares them by identity
        self.cursor = h.cursor


def _step_to(frm: int, to: int) -> list[dict[str, Any]]:
    if frm == to:
        return []
    if to == frm - 1:
        return [{"move": "undo"}]
    if to == frm + 1:
        return [{"move": "redo"}]
    return [{"move": "go_to", "point": to}]


def moves_between(then: Look, h: History) -> list[dict[str, Any]] | None:
    """The moves that turn the history ``then`` looked at into ``h`` as it is now, or None when
    no moves can (the actions were replaced, not cut and appended to: write the whole save)."""
    old, new = then.actions, h.actions
    p = 0
    n = min(len(old), len(new))
    while p < n and old[p] is new[p]:
        p += 1
    if (p == len(new) and len(new) != len(old)) or not 0 <= h.cursor <= len(new):
        return None  # fewer actions and nothing new: not something History does
    moves: list[dict[str, Any]] = []
    cursor = then.cursor
    if p < len(new):
        moves += _step_to(cursor, p)  # History.do cuts what is after the cursor
        moves += [{"move": "do", "action": a} for a in new[p:]]
        cursor = len(new)
    moves += _step_to(cursor, h.cursor)
    return moves


def dumps(moves: list[dict[str, Any]]) -> str:
    return json.dumps(moves, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: Any, path: str) -> list[dict[str, Any]]:
    """A journal row's moves, read through the same gate as any value that comes in."""
    if not isinstance(text, str):
        raise SaveFileError(path, "is not the text of a list of moves")
    try:
        moves = gate.parse_json(text, path)
    except InvalidAction as e:
        raise SaveFileError(path, e.message) from None
    if not isinstance(moves, list):
        raise SaveFileError(path, "is not a list of moves")
    return moves


def apply_moves(h: History, moves: list[Any], path: str) -> None:
    """Replay ``moves`` on ``h`` in order. A move that is malformed or that this version refuses
    raises ``SaveFileError`` at ``path.<i>``; the moves before it stay applied (the caller
    throws the history away and keeps the raw rows)."""
    for i, m in enumerate(moves):
        where = f"{path}.{i}"
        kind = m.get("move") if isinstance(m, dict) else None
        try:
            if kind == "do" and isinstance(m.get("action"), dict):
                h.do(m["action"])  # no random source: the action carries its dice
            elif kind == "undo" and h.can_undo:
                h.undo()
            elif kind == "redo" and h.can_redo:
                h.redo()
            elif (kind == "go_to" and isinstance(m.get("point"), int) and not isinstance(m["point"], bool)
                  and m["point"] != h.cursor):
                h.go_to(m["point"])
            else:
                raise SaveFileError(where, f"is not a move this history can make ({json.dumps(m)[:120]})")
        except SaveFileError as e:
            if e.path == where:
                raise
            raise SaveFileError(where, str(e)) from None
        except (FrayError, ValueError) as e:
            raise SaveFileError(where, f"cannot be applied ({e})") from None
        except Exception as e:  # noqa: BLE001 - an action this version cannot apply: a broken row, not a crash
            raise SaveFileError(where, f"cannot be applied ({type(e).__name__}: {e})") from None
