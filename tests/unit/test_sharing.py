"""Issue 11, item 1: structural sharing ("copy only what an action changes ... so history memory is
proportional to what changed"), with the replay unchanged byte for byte.

Contracts: an action's new encounter holds the very objects of the old one for every combatant
and every top-level key of ``state`` and ``tables`` it did not change, and new ones for exactly
those it did; no way of reading a draft hands out an object of the old encounter to be edited;
and the replay stays exact: ``tests/golden/`` was written by the engine before sharing (a
schema 2 save per game, the sha256 of every state's JSON, and of ``python -m fray replay``'s
output for every scenario), and this engine must give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from fray import history as history_module
from fray import savefile, sharing
from fray.history import History
from fray.model import Combatant, Encounter

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402  (the bench's own fights, as test_blocks.py plays them)
import workload  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
STATES = json.loads((GOLDEN / "states.sha256.json").read_text(encoding="utf-8"))
REPLAYS = json.loads((GOLDEN / "replay.sha256.json").read_text(encoding="utf-8"))
SAVES = sorted(GOLDEN.glob("*.schema2.json"))


def _handled(ruleset, enc: Encounter, action: dict):
    """``action``'s handler run on a draft of ``enc`` (its own dice, none rolled here): the draft
    and what it holds (``sharing.draft``), to see what the handler copied."""
    from fray import reducer
    from fray.games.base import Context
    from fray.tray import DiceTray

    d, cows = sharing.draft(enc)
    reducer.handler_for(ruleset, action["type"])(Context(d, action, DiceTray(action.get("rolls"), None), ruleset))
    return d, cows



def text(v) -> str:
    return json.dumps(asdict(v) if not isinstance(v, (dict, list)) else v, separators=(",", ":"), ensure_ascii=False)


def sha(enc: Encounter) -> str:
    return hashlib.sha256(text(enc).encode()).hexdigest()


def walk(h: History) -> list[Encounter]:
    """Every state, by undo to the start and redo to the end (the page's way, lazily built)."""
    while h.undo():
        pass
    out = [h.present]
    while h.redo():
        out.append(h.present)
    return out


@pytest.mark.parametrize("path", list(REPLAYS))
def test_python_m_fray_replay_gives_the_same_bytes_as_before_sharing(path):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "py")}
    out = subprocess.run([sys.executable, "-m", "fray", "replay", str(ROOT / path)], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert hashlib.sha256(out.stdout.encode()).hexdigest() == REPLAYS[path], (
        "the replay changed: if the rules changed on purpose, write the new hash here and give fray.RULES_EDITION "
        "a new date, so that saves of the earlier edition open as they stand instead of being refused")


@pytest.mark.parametrize("verify", [True, False])
@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_an_old_save_loads_and_every_state_is_the_same_bytes_as_before_sharing(save, verify):
    h = savefile.loads(save.read_text(encoding="utf-8"), verify=verify)
    ruleset = save.name.split("-8x")[0]
    assert [sha(s) for s in walk(h)] == STATES[ruleset]


@pytest.mark.parametrize("save", SAVES, ids=lambda p: p.name)
def test_each_state_shares_exactly_what_its_action_left_alone(save, monkeypatch):
    """Unchanged (the same JSON) means the same object; changed means a new one. (Every state is
    held here: a state the history let go of and replayed again is a new object, and the one after
    it, still held, shares with the state that was let go of, not with its replay.)"""
    monkeypatch.setattr(history_module, "KEEP_STATES", 10**9)
    h = savefile.loads(save.read_text(encoding="utf-8"))
    states = walk(h)
    shared = changed = 0
    for before, after in zip(states, states[1:]):
        old = {c.id: c for c in before.combatants}
        for c in after.combatants:
            was = old.get(c.id)
            if was is None:
                continue
            same = text(was) == text(c)
            assert (was is c) == same, f"{c.id}: {'unchanged but copied' if same else 'changed but shared'}"
            shared += same
            changed += not same
        for field in ("state", "tables"):
            a, b = getattr(before, field), getattr(after, field)
            for k in a.keys() & b.keys():
                if not isinstance(a[k], (str, int, float, bool, type(None))):
                    assert (a[k] is b[k]) == (text(a[k]) == text(b[k])), f"{field}.{k}"
    assert shared > 5 * changed  # most of a fight's combatants sit out most of its actions


def base() -> Encounter:
    return Encounter(ruleset="freeform", combatants=[Combatant("c1", "A", stats={"hp": 1}),
                                                     Combatant("c2", "B", stats={"hp": 2})],
                     state={"marks": {"c1": [1]}, "n": 3}, tables={"t": {"rows": [1, 2]}})


READS = [
    lambda d: d.combatants[0],
    lambda d: d.combatants[-2],
    lambda d: d.combatants[0:1][0],
    lambda d: next(iter(d.combatants)),
    lambda d: next(reversed(d.combatants)),
    lambda d: list(d.combatants)[1],
    lambda d: sorted(d.combatants, key=lambda c: c.id)[0],
    lambda d: d.combatants.copy()[0],
    lambda d: (d.combatants + [])[0],
    lambda d: ([] + d.combatants)[1],
    lambda d: (d.combatants * 1)[0],
    lambda d: [*d.combatants][0],
    lambda d: d.combatants.pop(),
    lambda d: d.get("c2"),
]


@pytest.mark.parametrize("read", range(len(READS)))
def test_every_way_of_reading_a_draft_combatant_gives_a_copy(read):
    enc = base()
    before = text(enc)
    d, cows = sharing.draft(enc)
    c = READS[read](d)
    assert all(c is not x for x in enc.combatants)
    c.stats["hp"] = 99
    c.conditions.append("down")
    assert text(enc) == before


DICT_READS = [
    lambda s: s["marks"],
    lambda s: s.get("marks"),
    lambda s: dict(s.items())["marks"],
    lambda s: s.values()[0],
    lambda s: s.pop("marks"),
    lambda s: s.setdefault("marks", {}),
    lambda s: s.copy()["marks"],
    lambda s: dict(s)["marks"],
    lambda s: {**s}["marks"],
    lambda s: (s | {})["marks"],
    lambda s: ({} | s)["marks"],
    lambda s: s.popitem()[1] if list(s)[-1] == "marks" else s["marks"],
]


@pytest.mark.parametrize("read", range(len(DICT_READS)))
def test_every_way_of_reading_draft_state_gives_a_copy(read):
    enc = base()
    before = text(enc)
    d, cows = sharing.draft(enc)
    v = DICT_READS[read](d.state)
    assert v is not enc.state["marks"]
    v["c1"].append(2)
    assert text(enc) == before


def test_a_dict_updated_from_draft_state_holds_copies():
    enc = base()
    before = text(enc)
    d, cows = sharing.draft(enc)
    fresh = {}
    fresh.update(d.state)
    fresh["marks"]["c9"] = [0]
    assert text(enc) == before


def test_settle_keeps_what_was_read_but_left_alone_and_only_that():
    enc = base()
    d, cows = sharing.draft(enc)
    for c in d.combatants:  # read every combatant, change one
        if c.id == "c2":
            c.stats["hp"] = 2.0  # equal to 2, but it saves as 2.0: a change
    d.state["marks"]  # read, unchanged
    new = sharing.settle(d, enc, cows)
    assert new.combatants[0] is enc.combatants[0] and new.combatants[1] is not enc.combatants[1]
    assert new.state is enc.state and new.tables is enc.tables
    assert type(new.combatants) is list and type(new.state) is dict and type(new.tables) is dict


def test_settle_finds_the_originals_in_a_list_the_handler_replaced():
    enc = base()
    d, cows = sharing.draft(enc)
    d.combatants = [c for c in d.combatants if c.id != "c1"]
    new = sharing.settle(d, enc, cows)
    assert len(new.combatants) == 1 and new.combatants[0] is enc.combatants[1]


def test_peek_reads_a_draft_as_it_stands_without_copying():
    """Issue 9 (the range-band turn's speed): a rule that only looks reads the draft through
    ``Encounter.peek`` / ``peek_at``: the handler's copy of what it has read, the original of the rest,
    and no new copy."""
    enc = base()
    d, cows = sharing.draft(enc)
    c2 = d.get("c2")
    c2.stats["hp"] = 5
    held = len(cows.held)
    seen = list(d.peek())
    assert seen[0] is enc.combatants[0] and seen[1] is c2 and seen[1].stats["hp"] == 5
    assert d.peek_at("c1") is enc.combatants[0] and d.peek_at("c2") is c2 and d.peek_at("c9") is None
    assert len(cows.held) == held, "looking made no copy"
    new = sharing.settle(d, enc, cows)
    assert new.combatants[0] is enc.combatants[0] and new.combatants[1].stats["hp"] == 5


def test_settle_passes_over_what_was_never_read_and_finds_what_was_put_back():
    """A lazy container's items that nobody read are the originals and stay so; a value put in their
    place (``state[k] = ...``), or a fresh container holding a draft's copy, is settled as before."""
    enc = Encounter(ruleset="freeform", state={"log": [{"a": [1]}, {"b": [2]}], "marks": {"c1": [1]}, "n": 3})
    d, cows = sharing.draft(enc)
    d.state["log"][0]  # read one item of two, left alone
    new = sharing.settle(d, enc, cows)
    assert new.state is enc.state
    d, cows = sharing.draft(enc)
    d.state["log"]  # the list is read (lazy), its items never
    d.state["marks"] = {"c1": [9]}  # a new value under a key nobody read
    d.state["kept"] = {"x": d.state["log"]}  # a fresh dict holding the draft's lazy list
    new = sharing.settle(d, enc, cows)
    assert new.state["marks"] == {"c1": [9]} and new.state["log"] is enc.state["log"]
    assert type(new.state["kept"]["x"]) is list and new.state["kept"]["x"] is enc.state["log"]
    assert text(enc.state) == text({"log": [{"a": [1]}, {"b": [2]}], "marks": {"c1": [1]}, "n": 3})


def test_a_range_band_turn_copies_only_what_it_changes():
    """The range-band turn (bench ``range_band_turn``): an attack reads the 12 combatants for the visibility
    projection and edits only the attacker's turn actions, so its draft copies the attacker and nothing
    else of the combatants, and the new encounter shares every other combatant; settling its offense roll
    copies nothing."""
    from fray import reducer
    from fray.games import get_ruleset

    enc = workload.range_band_base()
    action = {"type": "rb.attack", "id": "c2", "target": "c4", "weapon": 1}
    ruleset = get_ruleset("range-band")
    d, cows = _handled(ruleset, enc, action)
    copied = [c.id for c, _, blob in cows.held.values() if isinstance(c, Combatant)]
    assert copied == ["c2"]
    new, _ = reducer.apply(enc, action)
    assert [c.id for c, was in zip(new.combatants, enc.combatants) if c is not was] == ["c2"]
    assert new.state["pending"][-1]["kind"] == "offense"
    # settling the offense roll reads the attacker, the target and the roll, and copies none of them
    settle_it = {"type": "rb.resolve", "ref": new.state["pending"][-1]["ref"], "success": True, "by": 2}
    d, cows = _handled(ruleset, new, settle_it)
    assert not [c for c, _, blob in cows.held.values() if blob is not None], "no deep copy at all"
    done, _ = reducer.apply(new, settle_it)
    assert all(c is was for c, was in zip(done.combatants, new.combatants))
    assert not done.state.get("pending")
    assert any("succeeds on its offense roll" in e.text for e in done.log)


def test_a_strike_rank_next_copies_only_the_combatants_and_actions_it_changes():
    """A Next through a 30-combatant fight (bench/fights.py) reads every declared action of the fight
    and every combatant (the order of play, the end of the MR, the new MR's tallies) but copies only
    the actions whose status it sets and the combatants whose round it resets or who bleed, stun or
    reload: each Next copies fewer actions than the fight has, and a fresh MR's Next copies no
    combatant at all. The replay stays exact (the golden tests above); here, what is copied."""
    from fray import reducer
    from fray.games import get_ruleset
    import random

    ruleset = get_ruleset("strike-rank")
    h = fights.fight("strike-rank", 30, 300)
    enc = h.present
    rng = random.Random(3)
    nexts = quiet = 0
    for _ in range(12):
        action, _, _ = reducer.prepare(enc, {"type": "advance", "skip_empty": True}, rng)
        d, cows = _handled(ruleset, enc, action)
        copied = [c for c, _, blob in cows.held.values() if blob is not None]
        actions = [c for c in copied if isinstance(c, dict) and "ref" in c]
        people = [c for c in copied if isinstance(c, Combatant)]
        assert len(actions) < len(enc.state.get("actions", [])) or not enc.state.get("actions")
        new, _ = reducer.apply(enc, action)
        # what was copied is what changed: every combatant copied and not changed is put back
        changed = [c.id for c, was in zip(new.combatants, enc.combatants) if c is not was]
        assert set(changed) <= {c.id for c in people}
        if enc.phase == "declare" and not any(a["round"] == enc.round for a in enc.state.get("actions", [])):
            quiet += 1
            assert not people
        nexts += 1
        enc = new
    assert nexts == 12 and quiet > 0


def test_the_strike_rank_next_that_begins_resolution_copies_no_combatant():
    """The Next from declaring to resolving names every declared action's owner in the log ("Resolution
    begins at SR 3: ...") and copies none of them: a name is only read (``timing._who``). It copied all
    thirty, 10-13 ms of the first Next of a round in the page (docs/performance.md, issue 11)."""
    from fray import reducer
    from fray.games import get_ruleset

    ruleset = get_ruleset("strike-rank")
    # the bench's fight, up to the first time more than ten have declared (where its 60th action stands
    # depends on which of the moves tried the rules accept)
    enc = fights.played_until("strike-rank", 30, 200, 1, lambda e: e.phase == "declare" and sum(
        a["round"] == e.round for a in e.state.get("actions", [])) > 10).present
    assert enc.phase == "declare" and sum(a["round"] == enc.round for a in enc.state["actions"]) > 10
    action = {"type": "advance"}
    d, cows = _handled(ruleset, enc, action)
    assert d.phase == "resolve"
    assert not [c for c, _, blob in cows.held.values() if blob is not None and isinstance(c, Combatant)]
    new, _ = reducer.apply(enc, action)
    begins = new.log[-1].text
    assert begins.startswith("Resolution begins at SR ")
    assert all(c.name in begins for c in enc.combatants
               if any(a["combatant"] == c.id and a["round"] == enc.round for a in enc.state["actions"]))


def _nexts(game: str, n: int):
    """``n`` Nexts through ``game``'s 30-combatant fight (bench/fights.py), each as (the encounter before,
    the combatants its draft copied, the encounter after)."""
    from fray import reducer
    from fray.games import get_ruleset
    import random

    ruleset = get_ruleset(game)
    enc = fights.fight(game, 30, 60).present
    rng = random.Random(5)
    for _ in range(n):
        action, _, _ = reducer.prepare(enc, {"type": "advance", "skip_empty": True}, rng)
        d, cows = _handled(ruleset, enc, action)
        copied = {c.id for c, _, blob in cows.held.values() if blob is not None and isinstance(c, Combatant)}
        new, _ = reducer.apply(enc, action)
        yield enc, copied, new
        enc = new


def test_a_tactical_round_next_copies_no_combatant_it_leaves_alone():
    """A tactical-round Next asks for the order of play of every phase it passes over, which only reads
    (``order.order_of_play`` through ``Encounter.peek``), so a Next within a round copies only the
    combatants it changes; each ask used to copy all thirty (issue 11). The Next that ends a round
    (Disengage, Stunned, the round's parries and Run Away) still edits every combatant."""
    within = 0
    for before, copied, after in _nexts("tactical-round", 40):
        if after.round == before.round:
            within += 1
            changed = {c.id for c, was in zip(after.combatants, before.combatants) if c is not was}
            assert copied == changed, (before.phase, after.phase)
    assert within >= 10


def test_a_range_band_next_within_a_round_copies_only_the_turns_it_ends_and_begins():
    """A range-band Next ranks every combatant for the order of play (``rules.turn_order``) only to read
    them (``Encounter.peek``): within a round it copies the combatant whose turn ends and the one whose
    turn begins, at most, where it copied all thirty (8-12 ms of a Next in CPython, issue 11). The Next
    that begins a round still edits each combatant's ambush, breath and flight upkeep."""
    within = 0
    for before, copied, after in _nexts("range-band", 40):
        if after.round == before.round and before.phase != "setup":
            within += 1
            assert len(copied) <= 2, (before.phase, before.turn, copied)
    assert within >= 20


def test_a_strike_rank_attack_copies_only_its_two_sides_and_whom_it_changes():
    """Every missile attack asks who is engaged with the target ("into melee", strike-rank combat.py
    ``engaged_with``): that only reads (``Encounter.peek``), so an attack copies its attacker and its
    target (``ctx.combatant``) and whoever else it changes, where it copied every combatant (11 of 30
    needlessly on average over the bench's fight: 7.6 ms an attack in CPython, 2.5 after; issue 11)."""
    from fray import reducer
    from fray.games import get_ruleset

    ruleset = get_ruleset("strike-rank")
    h = fights.fight("strike-rank", 30, 300)
    enc = h.state_at(0)
    attacks = missiles = 0
    for action in h.actions:
        if action["type"] == "sr.attack":
            d, cows = _handled(ruleset, enc, action)
            copied = {c.id for c, _, blob in cows.held.values() if blob is not None and isinstance(c, Combatant)}
            new, _ = reducer.apply(enc, action)
            changed = {c.id for c, was in zip(new.combatants, enc.combatants) if c is not was}
            sides = {action["attacker"], action["target"]}
            assert copied <= sides | changed, sorted(copied - sides - changed)
            attacks += 1
            decl = next(a for a in enc.state["actions"] if a["ref"] == action.get("ref"))
            missiles += any(w["id"] == decl.get("weapon") and w.get("missile")
                            for w in enc.get(action["attacker"]).data.get("weapons", []))
        else:
            new, _ = reducer.apply(enc, action)
        enc = new
    assert attacks > 50 and missiles > 10
