"""Unlimited undo and redo over every action.

The history is the starting encounter plus the list of recorded actions (each carrying its dice)
and a cursor. The encounter at any point is the replay of the actions before the cursor; the
states after the latest ``KEEP_STATES`` actions are held, so undo and redo there cost nothing,
and further back every ``CHECKPOINT_EVERY``-th, from which the others are replayed when needed.
Saving the history saves the actions, the present and a checkpoint every ``CHECKPOINT_EVERY``
actions before the cursor (see docs/file-format.md). The states share every combatant and
``state`` key an action left alone (``fray.sharing``), so holding them costs what the actions changed.

A history resumed from a save (``History.resume``) does not replay from the start: it holds the
saved present and checkpoints. ``check_present`` replays from the last checkpoint below the
present to it; the other states are rebuilt when undo or redo first needs them, from the nearest
state held below, and every saved state such a replay reaches (and every checkpoint before it is
shown) must equal what the replay made, or the undo is refused with a ``SaveFileError`` naming
that state, and nothing changes. ``verify()`` does the whole walk at once; after it, the
history is exactly the one ``History.replay`` builds.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from typing import Any, Callable

from .dice import RandomSource
from .model import Encounter
from .reducer import apply, prepare

def same_state(a: Encounter, b: Encounter) -> bool:
    """``asdict(a) == asdict(b)``, quickly: equal memo-less pickles are equal states (a 200-combatant
    encounter in milliseconds, where ``asdict`` takes seconds); only when they differ is the
    slow comparison asked, so nothing is refused that ``asdict`` would accept."""
    from .sharing import _print

    return _print(a) == _print(b) or asdict(a) == asdict(b)


class Unread:
    """A checkpoint from an autosave not read yet (``savefile.loads(text, verify=False)``): read,
    with the same strict reader as any encounter (raising ``SaveFileError`` with its path), the
    first time undo or redo needs it; a save writes its fields back as they came."""

    def __init__(self, read: Callable[[], Encounter], fields: dict[str, Any], log: int):
        self.read, self.fields, self.log_length = read, fields, log


def fields_of(state: "Encounter | Unread", log: bool = True) -> dict[str, Any]:
    """``asdict(state)``, or without its ``log`` key (a checkpoint's log is a length)."""
    if isinstance(state, Unread):
        return state.fields
    if log:
        return asdict(state)
    d = asdict(replace(state, log=[]))
    del d["log"]
    return d


# a save holds the state after every CHECKPOINT_EVERY-th action, so undo after a reload replays at
# most this many actions at a time
CHECKPOINT_EVERY = 50
# how much of an action's first log line names it in "Undid: ..." and the history list
LABEL_WIDTH = 90
# the states after this many of the latest actions are all held, so undo and redo there cost
# nothing; further back only every CHECKPOINT_EVERY-th is (and what a save holds): the rest are
# replayed from the nearest one below when undo, redo or the history list needs them. Holding
# every state, a 12-combatant fight kept some 20-30 KB more per action, and the log, which every
# state holds whole, made that grow with the fight: a long evening on a tablet ran out of room.
KEEP_STATES = 100


class History:
    def __init__(self, initial: Encounter):
        self.initial = initial
        self.actions: list[dict[str, Any]] = []
        # None: a state not built yet (only in a resumed history)
        self._states: list[Encounter | None] = [initial]
        # indices of states read from a save that no replay has confirmed yet, with their path
        self._unverified: dict[int, str] = {}
        self.cursor = 0
        # a resumed history: where the saved present sits, checked by ``check_present`` (at the
        # latest before the history changes); None when there is nothing to check
        self._saved_at: int | None = None
        # a save's checkpoints not even parsed yet (``savefile.loads`` with ``check`` false): read
        # the first time a state other than the present is needed (``_place_later``)
        self._later: Callable[[], dict[int, tuple["Encounter | Unread", str]]] | None = None
        # the checks of the saved present that a quick load left for later (``savefile._load``)
        self._pending: Callable[[], None] | None = None
        self._dumped: dict[tuple[int, bool], tuple[Encounter, str]] = {}
        # every state below this, but those ``_let_go`` keeps, has been let go
        self._held_from = 1
        # loaded from a save of another rules edition whose history no longer replays to it: it
        # starts at the saved encounter (``savefile._other_edition``), and the page says so
        self.other_edition = False

    @property
    def present(self) -> Encounter:
        state = self._states[self.cursor]
        assert state is not None  # the present is always built
        return state

    @property
    def present_unchecked(self) -> bool:
        """A resumed history whose saved present no replay has confirmed yet (``check_present``)."""
        return self._pending is not None or (self._saved_at is not None and self._saved_at in self._unverified)

    @property
    def can_undo(self) -> bool:
        return self.cursor > 0

    @property
    def can_redo(self) -> bool:
        return self.cursor < len(self.actions)

    def do(self, action: dict[str, Any], rng: RandomSource | None = None) -> list[dict]:
        """Apply ``action`` to the present (rolling missing dice if ``rng`` is given); drops redo."""
        self.check_present()  # a change never builds on a saved present its history contradicts
        if rng is None:
            new, events = apply(self.present, action)
            recorded = action
        else:
            recorded, new, events = prepare(self.present, action, rng)
        del self.actions[self.cursor:]
        del self._states[self.cursor + 1:]
        for i in [i for i in self._unverified if i > self.cursor]:
            del self._unverified[i]
        self.actions.append(recorded)
        self._states.append(new)
        self.cursor += 1
        self._let_go()
        return events

    def _let_go(self) -> None:
        """Let go of the states further back than ``KEEP_STATES`` that nothing needs held: the
        start, every ``CHECKPOINT_EVERY``-th, and a state read from a save and not yet checked stay."""
        hi = self.cursor - KEEP_STATES
        for k in range(max(1, self._held_from), hi):
            if k % CHECKPOINT_EVERY and k not in self._unverified and not isinstance(self._states[k], Unread):
                self._states[k] = None
        self._held_from = max(self._held_from, hi)

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        self.check_present()
        self.state_at(self.cursor - 1)  # may refuse (a save that its actions contradict)
        self.cursor -= 1
        return True

    def redo(self) -> bool:
        if not self.can_redo:
            return False
        self.check_present()
        self.state_at(self.cursor + 1)
        self.cursor += 1
        return True

    def has_state(self, i: int) -> bool:
        """Whether the state after ``actions[:i]`` is built and checked (nothing to replay)."""
        return 0 <= i < len(self._states) and self._states[i] is not None and (
            i not in self._unverified or i == self.cursor)

    def go_to(self, i: int) -> bool:
        """Move the cursor to just after ``actions[:i]`` (0: the start), as that many undos or
        redos at once: one undo stack, so Redo still walks forward again from there."""
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i <= len(self.actions):
            raise ValueError(f"there is no point {i!r} in this history (0 to {len(self.actions)})")
        if i == self.cursor:
            return False
        self.check_present()
        self.state_at(i)  # may refuse (a save that its actions contradict): nothing moves then
        self.cursor = i
        return True

    def label(self, k: int, width: int = LABEL_WIDTH) -> str:
        """What ``actions[k]`` did, in the log's own words: the first line it wrote (with how many
        more), so "Undid: ..." and the history list read like the log the GM already knows. An
        action that wrote nothing is named by its type."""
        before, after = self.state_at(k), self.state_at(k + 1)
        return self._label(k, after.log[len(before.log):], width)

    def known_label(self, k: int, width: int = LABEL_WIDTH) -> str | None:
        """``label(k)`` if no replay is needed for it, else None: both states built and checked,
        or the last action before the present from an autosave, whose state before is held from
        the save (read or not: its log's length is all the label needs)."""
        if self.has_state(k) and self.has_state(k + 1):
            return self.label(k, width)
        held = self._states[k] if 0 <= k < len(self._states) else None
        if k + 1 == self.cursor and held is not None:
            n = held.log_length if isinstance(held, Unread) else len(held.log)
            return self._label(k, self.present.log[n:], width)
        return None

    def _label(self, k: int, lines: list, width: int) -> str:
        if not lines:
            words = str(self.actions[k].get("type", "action")).split(".")[-1].replace("_", " ")
            return words[:1].upper() + words[1:]
        text = " ".join(lines[0].text.split())
        if len(text) > width:
            text = text[: width - 1].rstrip() + "\u2026"
        if len(lines) > 1:
            text += f" (+{len(lines) - 1} more)"
        return text

    # -- states rebuilt on demand -----------------------------------------------------------------
    def _get(self, k: int) -> Encounter:
        """The state held at ``k``, reading it first if it is a checkpoint not read yet."""
        state = self._states[k]
        if isinstance(state, Unread):
            state = state.read()  # raises SaveFileError with its path, and nothing is kept
            self._states[k] = state
        assert state is not None
        return state

    def _place_later(self) -> None:
        """Put the checkpoints of a quickly loaded save in their places; raises ``SaveFileError``
        (every time it is asked, and nothing is placed) if they are malformed. Called before any
        state but the present is read, and before any change (``check_present``)."""
        if self._later is None:
            return
        saved = self._later()
        self._later = None
        for k, (state, path) in saved.items():
            if self._states[k] is None:  # nothing is built before they are placed: always
                self._states[k] = state
                self._unverified[k] = path

    def state_at(self, i: int) -> Encounter:
        """The encounter after ``actions[:i]``, replaying what is missing (a resumed history)."""
        self._place_later()
        state = self._states[i]
        if state is not None and (i not in self._unverified or i == self.cursor):
            return self._get(i)
        # a state not built yet, or a checkpoint from the save: rebuilt (and so checked) before it is shown
        start = max(j for j in range(i) if self._states[j] is not None)
        if state is not None:
            self._fill(start, i)
            return self._get(i)
        # replay up to the next state held from the save, to check it, or to ``i`` if none
        end = next((j for j in range(i + 1, len(self._states)) if self._states[j] is not None), i)
        if end not in self._unverified:
            end = i
        self._fill(start, end)
        state = self._states[i]
        assert state is not None
        return state

    def _step(self, enc: Encounter, k: int) -> Encounter:
        from .errors import SaveFileError

        try:
            return apply(enc, self.actions[k])[0]
        except Exception as e:  # noqa: BLE001 - as History.replay words it; nothing is kept
            raise SaveFileError(f"history.actions.{k}", f"cannot be applied ({type(e).__name__}: {e})") from None

    def _check(self, made: Encounter, k: int) -> None:
        """``made`` is what the actions build at ``k``; a state held from the save there must equal it."""
        from .errors import SaveFileError

        if self._states[k] is not None and k in self._unverified:
            held = self._get(k)
            if not same_state(made, held):
                raise SaveFileError(self._unverified[k],
                                    "does not match what its history replays to (edited or corrupted file)")
            del self._unverified[k]

    def _fill(self, start: int, end: int) -> None:
        made: list[Encounter] = []
        enc = self._get(start)
        for k in range(start, end):
            enc = self._step(enc, k)
            made.append(enc)
        try:
            self._check(made[-1], end)  # before anything is kept: a refusal leaves the history as it was
        except Exception:
            if start in self._unverified:
                self.state_at(start)  # blame the first saved state that is wrong: it raises if it is
            raise
        for k, e in enumerate(made, start + 1):
            if self._states[k] is None:
                self._states[k] = e
        self._held_from = min(self._held_from, start + 1)  # let go of again at the next change

    def check_present(self) -> None:
        """Check the saved present (a resumed history) against a replay from the nearest state
        held below it (the last checkpoint); raises ``SaveFileError`` and builds nothing if they
        differ. Once checked, nothing to do: every change calls it first."""
        if self._pending is not None:
            self._pending()  # raises SaveFileError, and stays to be asked again
            self._pending = None
        self._place_later()
        k = self._saved_at
        if k is not None and k in self._unverified and self._states[k] is not None:
            start = max(j for j in range(k) if self._states[j] is not None)
            self._fill(start, k)

    def verify(self) -> None:
        """Rebuild every state not built yet and check every saved one; raises ``SaveFileError``.
        Afterwards the history is the one ``History.replay`` builds from the same actions."""
        self._place_later()
        for i in range(len(self._states)):
            self.state_at(i)
        for k in sorted(self._unverified):  # saved states next to each other: no replay reached them
            before = self._get(k - 1)
            self._check(self._step(before, k - 1), k)

    def checkpoints(self) -> list[tuple[int, "Encounter | Unread"]]:
        """The states a save keeps beside the present: one every ``CHECKPOINT_EVERY`` actions
        before the cursor, and the one just before it, so that a load checks the present by
        replaying one action. Each one's log is the start of the present's (the log only grows),
        so a save writes it as a length; the redo stack is rebuilt forward from the present."""
        self._place_later()
        ks = list(range(CHECKPOINT_EVERY, self.cursor, CHECKPOINT_EVERY))
        if self.cursor > 1 and self.cursor - 1 not in ks:
            ks.append(self.cursor - 1)
        return [(k, self._states[k]) for k in ks if self._states[k] is not None]

    def dumped(self, k: int, state: Encounter, to_text: Callable[[Any, bool], str], log: bool = True) -> str:
        """``to_text(state, log)``: the state's text (without ``log`` if ``log`` is false), kept:
        states are never changed, so each is written once."""
        held = self._dumped.get((k, log))
        if held is None or held[0] is not state:
            held = (state, to_text(state, log))
            # only what the next save writes again is kept: the start and the checkpoints every
            # CHECKPOINT_EVERY actions, and this save's present and the state before it (a save
            # at every change kept each of those texts, the whole log with it, for the page's life)
            for key in [key for key in self._dumped if key[0] % CHECKPOINT_EVERY and key[0] not in (k, k - 1, k + 1)]:
                del self._dumped[key]
            self._dumped[(k, log)] = held
        return held[1]

    @classmethod
    def resume(cls, initial: Encounter, actions: list[dict[str, Any]], cursor: int, present: Encounter,
               saved: dict[int, tuple["Encounter | Unread", str]],
               later: Callable[[], dict[int, tuple["Encounter | Unread", str]]] | None = None) -> "History":
        """A history from a save, without replaying: ``present`` is the state at ``cursor`` and
        ``saved`` maps other indices to (state, its path in the file); all are checked lazily.
        ``later``: more of them, before the cursor, read when first needed."""
        h = cls(initial)
        h._later = later
        h.actions = list(actions)
        h._states = [initial] + [None] * len(actions)
        for k, (state, path) in saved.items():
            h._states[k] = state
            h._unverified[k] = path
        if cursor == 0:
            if asdict(present) != asdict(initial):
                from .errors import SaveFileError
                raise SaveFileError("encounter", "does not match what its history replays to (edited or corrupted file)")
        else:
            h._states[cursor] = present
            h._unverified[cursor] = "encounter"
            h._saved_at = cursor
        h.cursor = cursor
        return h

    @classmethod
    def replay(cls, initial: Encounter, actions: list[dict[str, Any]], cursor: int | None = None) -> "History":
        """Rebuild a history from its actions. Raises the reducer's errors, with ``actions.N``."""
        from .errors import FrayError, InvalidAction, RuleViolation

        h = cls(initial)
        for i, a in enumerate(actions):
            try:
                h.do(a)
            except InvalidAction as e:
                raise InvalidAction(f"actions.{i}.{e.field}", str(e).split(": ", 1)[-1]) from None
            except RuleViolation as e:
                raise InvalidAction(f"actions.{i}", str(e)) from None
            except FrayError as e:
                raise InvalidAction(f"actions.{i}", str(e)) from None
            except Exception as e:  # noqa: BLE001 - an action this version cannot apply
                raise InvalidAction(f"actions.{i}", f"cannot be applied ({type(e).__name__}: {e})") from None
        if cursor is not None:
            h.state_at(cursor)  # let go of on the way if it is far back: built again here
            h.cursor = cursor
        return h
