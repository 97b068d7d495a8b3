"""The reducer's contract as a Hypothesis state machine, one per ruleset (issue 8, item 4: "a
Hypothesis state machine per ruleset ... that generates real action types with plausible and
adversarial field values, and asserts that `apply` raises nothing but the engine's own errors,
never touches its input, and that save → load and undo-to-start round-trip").

A ruleset is fuzzed by describing it in a ``Spec``: how to start a fight, a strategy of its real
actions with plausible values, and the field names its actions read. ``machine_for(spec)`` builds
the machine; every action it applies is either the plausible one, the plausible one with a field
or two replaced by junk (NaN, Infinity, huge numbers, wrong types, 45-deep lists, 2,001-character
texts, control characters) or deleted, or a real action type filled with junk fields.

How many sequences run comes from the Hypothesis profile (``tests/unit/conftest.py``): a few
hundred in the normal unit run, ``FRAY_FUZZ_SEQUENCES`` (``make fuzz``) for the long run.
``COUNTS`` keeps what ran, printed at the end of the session.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Callable

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from fray import players
from fray.errors import FrayError
from fray.history import History
from fray.model import Encounter
from fray.reducer import CORE_ACTIONS, prepare
from fray.games import get_ruleset
from fray.savefile import check_readable, dumps, encounter_from_dict, loads, state_text

# ruleset id -> Counter(sequences=, steps=, applied=, refused=, saves=, page=)
COUNTS: dict[str, Counter] = {}

# sequences per ruleset: ``make fuzz`` sets FRAY_FUZZ_SEQUENCES; the unit run does a hundred each
SEQUENCES = int(os.environ.get("FRAY_FUZZ_SEQUENCES", "100"))
STEPS = int(os.environ.get("FRAY_FUZZ_STEPS", "25"))


@dataclass(frozen=True)
class Spec:
    """What the machine needs to know about one ruleset."""

    ruleset: str
    start: Callable[[], Encounter]  # a fight ready to play (a few combatants)
    actions: st.SearchStrategy  # its real actions with plausible values
    fields: tuple[str, ...]  # field names its actions read, for the junk-filled actions
    ids: tuple[str, ...] = ("c1", "c2", "c3", "c4", "c9")
    phases: tuple[str, ...] = ()  # the machine can press Next until one of these, so phase-bound actions meet their phase
    # the game's own invariants, called after every applied action as check(before, after, events, action):
    # each raises AssertionError when what the game promises in play does not hold (the fallen are offered
    # no action, no declared action is dropped without an event, ...)
    checks: tuple[Callable[[Encounter, Encounter, list, dict], None], ...] = ()


def nested(depth: int) -> list:
    v: list = []
    for _ in range(depth - 1):
        v = [v]
    return v


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-1000, 1000),
    st.sampled_from([0, -1, 1, 2, 12, 100, 10**20, 2**53 + 1, -(10**9), 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([float("nan"), float("inf"), float("-inf"), 1e308, -0.0, 2.5]),
    st.text(max_size=8),
    st.sampled_from(["", " ", "A1", "c1", "c2", "nan", "Infinity", "1e999", "12", "x" * 2001, "\x00", "a\nb",
                     "<b>", "head", "day", "melee", "dodge", "parry", "none", "partial"]),
)
JUNK = st.one_of(
    _scalars,
    st.recursive(_scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
                 max_leaves=6),
    st.integers(38, 46).map(nested),
)


def confusions(v: Any) -> st.SearchStrategy:
    """Values of the wrong kind in place of ``v``: what a crafted file or a typo puts there."""
    return st.sampled_from([None, "", "A1", [v], {"x": v}, True, -1, 10**400, float("nan"), float("inf"),
                            "x" * 2001, "a\x00b", nested(45), str(v)]) | JUNK


def _slots(v: Any, top: bool = True):
    """Every (container, key) inside an action, except its type."""
    if isinstance(v, dict):
        for k in list(v):
            if top and k == "type":
                continue
            yield v, k
            yield from _slots(v[k], False)
    elif isinstance(v, list):
        for i in range(len(v)):
            yield v, i
            yield from _slots(v[i], False)


@st.composite
def mutated(draw, plausible: st.SearchStrategy, fields: tuple[str, ...]) -> dict:
    """A plausible action, left alone (about three times in seven) or with a few fields made junk."""
    a = copy.deepcopy(draw(plausible))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 1, 2, 3]))):
        slots = list(_slots(a))
        how = draw(st.sampled_from(["junk", "junk", "delete", "add"]))
        if how == "add" or not slots:
            a[draw(st.sampled_from(fields))] = draw(JUNK)
            continue
        container, key = draw(st.sampled_from(slots))
        if how == "delete":
            del container[key]
        else:
            container[key] = draw(confusions(container[key]))
    return a


def junk_action(types: list[str], fields: tuple[str, ...], ids: tuple[str, ...]) -> st.SearchStrategy:
    """A real action type whose fields are drawn from the names its handlers read, with junk."""
    return st.builds(lambda t, f: {"type": t, **f}, st.sampled_from(types),
                     st.dictionaries(st.sampled_from(fields), st.one_of(st.sampled_from(ids), JUNK), max_size=5))


# Actions every ruleset takes that the page sends in its own form: the players' view settings
# (``fray.players``) and the Next that passes phases in which nobody acts (``skip_empty``).
PAGE_ACTIONS = st.one_of(
    st.builds(lambda m: {"type": "players.wounds", "mode": m}, st.sampled_from(players.WOUND_MODES)),
    st.builds(lambda c, h: {"type": "players.hide", "id": c, "hidden": h},
              st.sampled_from(["c1", "c2", "c3", "c4", "c9"]), st.sampled_from([True, False, None])),
    st.builds(lambda s: {"type": "advance", "skip_empty": s}, st.booleans()),
    # the map's group drag (issue 33): each token's move as the game's own move
    st.builds(lambda ids, x, y: {"type": "move_group", "moves": [
        {"id": c, "x": x + 3 * i, "y": y, "alt": 0} for i, c in enumerate(ids)]},
        st.lists(st.sampled_from(["c1", "c2", "c3", "c4", "c9"]), min_size=1, max_size=3),
        st.integers(-20, 20), st.integers(-20, 20)),
)
PAGE_FIELDS = ("mode", "hidden", "skip_empty", "moves")


def _refuse_constant(name: str):
    raise AssertionError(f"the save holds {name}, which is not JSON")


def machine_for(spec: Spec) -> type[RuleBasedStateMachine]:
    rs = get_ruleset(spec.ruleset)
    types = sorted(set(rs.actions) | set(CORE_ACTIONS))
    fields = spec.fields + tuple(f for f in PAGE_FIELDS if f not in spec.fields)
    plausible = mutated(st.one_of(spec.actions, spec.actions, spec.actions, PAGE_ACTIONS), fields)
    actions = st.one_of(plausible, plausible, plausible, plausible, junk_action(types, fields, spec.ids))
    counts = COUNTS.setdefault(spec.ruleset, Counter())

    class ReducerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            counts["sequences"] += 1
            self.history = History(spec.start())
            self.start = asdict(self.history.present)
            self.rng = random.Random(0)

        @initialize(seed=st.integers(0, 2**32 - 1))
        def seed(self, seed: int) -> None:
            self.rng.seed(seed)

        @rule(action=actions)
        def act(self, action: dict) -> None:
            """apply raises only the engine's own errors and never touches its input."""
            counts["steps"] += 1
            enc = self.history.present
            before, sent = asdict(enc), copy.deepcopy(action)
            try:
                recorded, new, events = prepare(enc, action, self.rng)
            except FrayError:
                counts["refused"] += 1
                assert asdict(enc) == before, f"a refused {action.get('type')} edited the encounter"
                assert action == sent, "a refused action was edited"
                return
            except Exception as e:  # noqa: BLE001 - the contract under test
                raise AssertionError(f"{type(e).__name__}: {e} from {action!r}") from e
            counts["applied"] += 1
            if action.get("type") in players.ACTIONS or action.get("skip_empty") is True:
                counts["page"] += 1
            assert asdict(enc) == before, f"{action.get('type')} edited the encounter it was given"
            assert action == sent, f"{action.get('type')} edited the action it was given"
            self.loads_again(new, action)
            for check in spec.checks:
                check(enc, new, events, recorded)
            self.history.do(recorded)  # the recorded action replays with no random source
            assert asdict(self.history.present) == asdict(new), "the recorded action replays differently"

        # Hypothesis picks among rules evenly: three ways to act, one for undo, redo or a save
        @rule(action=actions)
        def act_more(self, action: dict) -> None:
            self.act(action)

        @rule(action=actions)
        def act_again(self, action: dict) -> None:
            self.act(action)

        if spec.phases:
            @rule(phase=st.sampled_from(spec.phases), skip=st.booleans())
            def go_to(self, phase: str, skip: bool) -> None:
                for _ in range(12):
                    if self.history.present.phase == phase:
                        break
                    self.act({"type": "advance", "skip_empty": True} if skip else {"type": "advance"})

        @rule(what=st.sampled_from(["undo", "undo", "redo", "save"]))
        def elsewise(self, what: str) -> None:
            if what == "undo":
                self.history.undo()
            elif what == "redo":
                self.history.redo()
            else:
                self.save_and_load()

        def loads_again(self, new: Encounter, action: dict) -> None:
            """A state the engine accepts must always load again (issue 32): save → load → equal after
            every applied action, by the load's own readers (the present of a save: what the autosave
            holds and the next load reads). The whole history's round trip is ``save_and_load``."""
            try:
                back = encounter_from_dict(json.loads(state_text(new), parse_constant=_refuse_constant))
                check_readable(back, "encounter")
            except FrayError as e:
                raise AssertionError(f"{action.get('type')} made a state whose save does not load: {e}") from e
            assert asdict(back) == asdict(new), f"{action.get('type')} made a state that loads differently"

        def save_and_load(self) -> History:
            """save → load round-trips, and the save is standard JSON (no NaN, no Infinity)."""
            counts["saves"] += 1
            text = dumps(self.history)
            json.loads(text, parse_constant=_refuse_constant)
            back = loads(text)
            assert asdict(back.present) == asdict(self.history.present)
            assert back.actions == self.history.actions and back.cursor == self.history.cursor
            # the autosave's load (issue 11): replays from the last checkpoint only, checks the rest
            # as undo reaches it; the teardown walks it back to the start
            lazy = loads(text, verify=False)
            assert asdict(lazy.present) == asdict(self.history.present) and lazy.cursor == back.cursor
            assert dumps(lazy) == text
            return lazy

        @invariant()
        def view_and_order_can_be_read(self) -> None:
            enc = self.history.present
            view = rs.view(enc)
            json.dumps(view, allow_nan=False)
            order = rs.order_of_play(enc)
            # the players' view: a JSON projection with no trace of whom it hides
            seen = players.project(enc, view, order)
            json.dumps(seen, allow_nan=False)
            shown = {c["id"] for c in seen["combatants"]} | {o["id"] for o in seen["order"]} | {seen["current"]}
            hidden = players.hidden_ids(enc, view)
            assert not shown & hidden, f"the players' view shows hidden {shown & hidden}"

        def teardown(self) -> None:
            """undo-to-start round-trips, after a save and a load."""
            back = self.save_and_load()
            while back.undo():
                pass
            assert asdict(back.present) == self.start

    ReducerMachine.__name__ = ReducerMachine.__qualname__ = f"{spec.ruleset.title().replace('-', '')}Machine"
    ReducerMachine.TestCase.settings = settings(
        max_examples=SEQUENCES, stateful_step_count=STEPS, deadline=None,
        database=None, suppress_health_check=list(HealthCheck))
    return ReducerMachine
