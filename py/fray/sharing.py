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
they only read; so do ``Encounter.peek`` and ``peek_at``, which rules that only look use to read a
draft without copying it. The reducer machines (tests/unit/test_machines.py, tests/games/*/test_*_machine.py) check that no action edits
the encounter it was given.
"""

from __future__ import annotations

import io
import pickle
from operator import is_
from typing import Any

_IMMUTABLE = (str, int, float, bool, type(None))
_LEAVES = frozenset(_IMMUTABLE)
_P = pickle.HIGHEST_PROTOCOL


def _print(v: Any) -> bytes:
    """The pickle of ``v`` without the memo, so equal trees give equal bytes however their
    strings and lists happen to be shared (encounters are trees: nothing in them is a cycle)."""
    f = io.BytesIO()
    p = pickle.Pickler(f, _P)
    p.fast = True
    p.dump(v)
    return f.getvalue()


def fingerprint(v: Any) -> bytes:
    """What ``settle`` judges a copy by: equal fingerprints, and an edit that made this value would
    be undone by ``settle``. So a rule may skip an edit that leaves a value's fingerprint as it was
    (and skip copying what it would have edited), with the very same result."""
    return _print(v)


class Copies:
    """What one draft handed out: each copy (or lazy container) with the original it stands for."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[Any, Any, bytes | None]] = {}  # id(copy) -> (copy, original, print)

    def own(self, v: Any, depth: int) -> Any:
        """A copy of ``v`` to edit: lazy one level down while ``depth`` > 1, else a deep copy
        (one memo-less pickle both makes it and later judges it)."""
        if isinstance(v, _IMMUTABLE):
            return v
        if depth > 1 and type(v) is list:
            c: Any = CowList(v, self, depth - 1)
            self.held[id(c)] = (c, v, None)
            return c
        if depth > 1 and type(v) is dict:
            c = CowDict(v, self, depth - 1)
            self.held[id(c)] = (c, v, None)
            return c
        blob = _print(v)
        c = pickle.loads(blob)
        self.held[id(c)] = (c, v, blob)
        return c

    def release(self) -> None:
        """Forget every copy handed out, once the draft is settled (or refused). Each lazy container
        holds this record and the record holds it, a cycle that kept every copy and its pickle of
        the action (a strike-rank attack read every Melee Round's actions) until Python's cyclic
        collector came by: in the page that was megabytes a round, and memory WebAssembly never
        gives back (issue 36)."""
        self.held.clear()

    def settle(self, v: Any) -> Any:
        """``v`` as plain data that holds the original of everything handed out and left alone."""
        held = self.held.get(id(v))
        if held is not None and held[0] is v:
            if held[2] is not None:  # a deep copy: the original if it prints the same
                return held[1] if _print(v) == held[2] else v
            return _keep(self._lazy(v), held[1])
        # A container the handler built: its items may be ours. Text, numbers, true/false and null
        # are never handed out (the leaves of the tree), so they are passed over without a call.
        st = self.settle
        if type(v) is list:
            return [x if type(x) in _LEAVES else st(x) for x in v]
        if type(v) is dict:
            return {k: x if type(x) in _LEAVES else st(x) for k, x in v.items()}
        return v

    def _lazy(self, v: Any) -> Any:
        """A lazy container (``CowList``, ``CowDict``) as a plain one. An item that was never read is
        still the original: nothing in it was handed out, so there is nothing to look for in it (a long
        ``state["round_start"]`` is passed over, not rebuilt, by an attack that never read it)."""
        st = self.settle
        if type(v) is CowList:
            base = v._base
            return [x if type(x) in _LEAVES or id(x) in base else st(x) for x in list.__iter__(v)]
        base, orig = v._base, v._orig
        return {k: x if type(x) in _LEAVES or (k in base and orig.get(k) is x) else st(x) for k, x in dict.items(v)}


def _keep(new: Any, old: Any) -> Any:
    """``old`` if ``new`` holds exactly its items, else ``new``."""
    if type(new) is list and type(old) is list:
        return old if len(new) == len(old) and all(map(is_, new, old)) else new
    if type(new) is dict and type(old) is dict:  # the same keys in the same order, each the same object
        return old if list(new) == list(old) and all(map(is_, new.values(), old.values())) else new
    return new


def _same_as(v: Any, old: Any) -> Any:
    """A value the handler made afresh (``state["round_start"] = {...}``) that saves the same as
    the old one is the old one."""
    if old is v or isinstance(v, _IMMUTABLE) or type(old) is not type(v):
        return v
    return old if _print(v) == _print(old) else v


class CowList(list):
    """A list whose items are copied (``Copies.own``) the first time anything reads them."""

    def __init__(self, items, copies: Copies, depth: int = 1):
        super().__init__(items)
        self._copies, self._depth = copies, depth
        self._base = {id(x) for x in list.__iter__(self) if not isinstance(x, _IMMUTABLE)}

    def _own(self, i: int) -> Any:
        x = list.__getitem__(self, i)
        if id(x) in self._base:
            self._base.discard(id(x))
            x = self._copies.own(x, self._depth)
            list.__setitem__(self, i, x)
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

    def __reduce_ex__(self, protocol):
        return list, (list(self),)


class CowDict(dict):
    """A dict whose values are copied (``Copies.own``) the first time anything reads them."""

    def __init__(self, base: dict, copies: Copies, depth: int = 1):
        super().__init__(base)
        self._copies, self._depth, self._orig = copies, depth, base
        self._base = {k for k, v in base.items() if not isinstance(v, _IMMUTABLE)}

    def _own(self, k: Any) -> Any:
        v = dict.__getitem__(self, k)
        if k in self._base:
            self._base.discard(k)
            v = self._copies.own(v, self._depth)
            dict.__setitem__(self, k, v)
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


# how far down a draft's containers stay lazy: the combatant list's items (combatants) are copied
# whole; a key of ``state`` or ``tables`` holding a list or dict is lazy one level more, so an
# attack that edits one declaration copies that declaration, not the round's list of them
DEPTH = {"combatants": 1, "state": 2, "tables": 2}


def draft(enc) -> tuple[Any, Copies]:
    """A draft of ``enc`` for a handler to edit (``enc`` itself is never edited), and the record
    of what it hands out, for ``settle``."""
    copies = Copies()
    d = object.__new__(type(enc))  # a shallow copy: the scalars are values; every container is replaced below
    d.__dict__.update(enc.__dict__)
    d.combatants = copies.own(enc.combatants, DEPTH["combatants"] + 1)
    d.state = copies.own(enc.state, DEPTH["state"] + 1)
    d.tables = copies.own(enc.tables, DEPTH["tables"] + 1)
    d.order_override = list(enc.order_override)
    d.log = list(enc.log)  # entries are never edited once written: shared
    return d, copies


def settle(d, enc, copies: Copies):
    """The draft as a plain encounter that shares with ``enc`` every item the handler left alone.
    The handler may have put new containers in place (``enc.combatants = [...]``): their items are
    still the draft's copies, and ``copies`` knows what they stand for."""
    d.combatants = _keep(copies.settle(d.combatants), enc.combatants)
    for name in ("state", "tables"):
        new, old = copies.settle(getattr(d, name)), getattr(enc, name)
        if new is not old:
            new = _keep({k: _same_as(v, old[k]) if k in old else v for k, v in new.items()}, old)
        setattr(d, name, new)
    if d.order_override == enc.order_override and all(type(a) is type(b) for a, b in
                                                        zip(d.order_override, enc.order_override)):
        d.order_override = enc.order_override
    return d
