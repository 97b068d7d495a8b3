"""Structural sharing between an encounter and the next one (issue 11).

A handler edits its draft in place, as it always has; what changes is what the draft is made of.
``draft(enc)`` is a shallow copy whose combatant list and ``state`` and ``tables`` dicts copy an
item the first time anything reads it (a combatant, or one top-level key of ``state``), so an
action pays only for what it looks at. ``settle(draft, enc)`` then puts back the very object of
``enc`` for every item the handler read but left as it was, so the new encounter shares it with
the old one and a history holds, per action, only what that action changed.

"Left as it was" is judged by the pickle of the copy (without the memo) against that of the
original: stricter than ``==`` (``1`` and ``1.0``, ``0.0`` and ``-0.0``, the order of a dict's keys all count), so a
shared item always saves to the same JSON text as the one the handler produced.

Nothing of ``enc`` is ever handed out to be edited: every way to read an item (index, slice,
iteration, ``get``, ``pop``, ``items``, ``values``, ``copy``, ``+``, ``*``) gives the copy; only
the list's own ``sort`` key function, ``in``, ``==``, ``index`` and ``count`` see the originals, and
they only read. The reducer machines (tests/unit/test_machines.py) check that no action edits
the encounter it was given.
"""

from __future__ import annotations

import io
import pickle
from dataclasses import replace
from typing import Any

_IMMUTABLE = (str, int, float, bool, type(None))
_P = pickle.HIGHEST_PROTOCOL


def _print(v: Any) -> bytes:
    """The pickle of ``v`` without the memo, so equal trees give equal bytes however their
    strings and lists happen to be shared (encounters are trees: nothing in them is a cycle)."""
    f = io.BytesIO()
    p = pickle.Pickler(f, _P)
    p.fast = True
    p.dump(v)
    return f.getvalue()


def _copy(v: Any) -> tuple[Any, bytes]:
    return pickle.loads(pickle.dumps(v, _P)), _print(v)


class CowList(list):
    """A list whose items (combatants) are copied the first time they are read."""

    def __init__(self, items=()):
        super().__init__(items)
        self._base = {id(x) for x in list.__iter__(self)}
        self.copies: dict[int, tuple[Any, Any, bytes]] = {}  # id(copy) -> (copy, original, its pickle)

    def _own(self, i: int) -> Any:
        x = list.__getitem__(self, i)
        if id(x) in self._base:
            self._base.discard(id(x))
            c, blob = _copy(x)
            self.copies[id(c)] = (c, x, blob)
            list.__setitem__(self, i, c)
            return c
        return x

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._own(j) for j in range(len(self))[i]]
        n = len(self)
        return self._own(i + n if i < 0 else i) if -n <= i < n else list.__getitem__(self, i)

    def __iter__(self):
        i = 0
        while i < len(self):  # as list's own iterator: by index, so edits during the loop behave alike
            yield self._own(i)
            i += 1

    def __reversed__(self):
        i = len(self) - 1
        while i >= 0:
            if i < len(self):
                yield self._own(i)
            i -= 1

    def pop(self, i: int = -1):
        x = self[i]
        list.pop(self, i)
        return x

    def copy(self):
        return list(self)

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __mul__(self, n):
        return list(self) * n

    __rmul__ = __mul__

    def original(self, x: Any) -> Any:
        """The item of the old encounter that ``x`` can stand for: itself if never read, the
        original if ``x`` is an unchanged copy, else ``x``."""
        held = self.copies.get(id(x))
        if held is not None and held[0] is x and _print(x) == held[2]:
            return held[1]
        return x


class CowDict(dict):
    """A dict whose mutable values are copied the first time they are read."""

    def __init__(self, base: dict):
        super().__init__(base)
        self._base = {k for k, v in base.items() if not isinstance(v, _IMMUTABLE)}
        self.copies: dict[int, tuple[Any, Any, bytes]] = {}

    def _own(self, k: Any) -> Any:
        v = dict.__getitem__(self, k)
        if k in self._base:
            self._base.discard(k)
            c, blob = _copy(v)
            self.copies[id(c)] = (c, v, blob)
            dict.__setitem__(self, k, c)
            return c
        return v

    def __getitem__(self, k):
        return self._own(k)

    def get(self, k, default=None):
        return self._own(k) if k in self else default

    def __iter__(self):  # a list's keys; overriding it also keeps dict(d), {**d}, d2.update(d) on __getitem__
        return iter(list(dict.keys(self)))

    def items(self):
        return [(k, self._own(k)) for k in list(dict.keys(self))]

    def values(self):
        return [self._own(k) for k in list(dict.keys(self))]

    def pop(self, k, *default):
        if k in self:
            v = self._own(k)
            dict.__delitem__(self, k)
            return v
        return dict.pop(self, k, *default)

    def popitem(self):
        k = next(reversed(list(dict.keys(self))))
        return k, self.pop(k)

    def setdefault(self, k, default=None):
        if k in self:
            return self._own(k)
        dict.__setitem__(self, k, default)
        return default

    def copy(self):
        return dict(self.items())

    def __or__(self, other):
        return {**self.copy(), **other}

    def __ror__(self, other):
        return {**other, **self.copy()}

    def __reduce_ex__(self, protocol):
        return dict, (self.copy(),)

    def original(self, x: Any) -> Any:
        held = self.copies.get(id(x))
        if held is not None and held[0] is x and _print(x) == held[2]:
            return held[1]
        return x


def draft(enc) -> tuple[Any, dict[str, Any]]:
    """A draft of ``enc`` for a handler to edit (``enc`` itself is never edited), and the
    copy-on-read containers it started with, for ``settle``."""
    d = replace(enc)  # the scalars are values; every container is replaced below
    cows = {"combatants": CowList(enc.combatants), "state": CowDict(enc.state), "tables": CowDict(enc.tables)}
    d.combatants, d.state, d.tables = cows["combatants"], cows["state"], cows["tables"]
    d.order_override = list(enc.order_override)
    d.log = list(enc.log)  # entries are never edited once written: shared
    return d, cows


def _settle_list(now: list, was: list, cow: CowList) -> list:
    # the handler may have put a new list in place (``enc.combatants = [...]``): its items are
    # still the draft's copies, and the draft's first list knows what they stand for
    items = [cow.original(x) for x in list.__iter__(now)]
    if len(items) == len(was) and all(a is b for a, b in zip(items, was)):
        return was
    return items


def _settle_dict(now: dict, was: dict, cow: CowDict) -> dict:
    items = {k: _same_as(cow.original(v), was, k) for k, v in dict.items(now)}
    if list(items) == list(was) and all(items[k] is v for k, v in was.items()):
        return was
    return items


def _same_as(v: Any, was: dict, k: Any) -> Any:
    """A value the handler put in afresh (``state["round_start"] = {...}``) that saves the same
    as the old one is the old one."""
    old = was.get(k, v)
    if old is v or isinstance(v, _IMMUTABLE) or type(old) is not type(v):
        return v
    return old if _print(v) == _print(old) else v


def settle(d, enc, cows: dict[str, Any]):
    """The draft as a plain encounter that shares with ``enc`` every item the handler left alone."""
    d.combatants = _settle_list(d.combatants, enc.combatants, cows["combatants"])
    d.state = _settle_dict(d.state, enc.state, cows["state"])
    d.tables = _settle_dict(d.tables, enc.tables, cows["tables"])
    if d.order_override == enc.order_override and all(type(a) is type(b) for a, b in
                                                        zip(d.order_override, enc.order_override)):
        d.order_override = enc.order_override
    return d
