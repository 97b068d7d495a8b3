"""The faster paths a long fight's load takes (issue 11) give exactly what the plain ones give:
the JSON depth scan, the value gate's in-loop checks, the line of fire in one pass and the
range-band map's bands in one call. Each is checked against the code it replaced, on random data
and on played fights (bench/fights.py)."""

from __future__ import annotations

import json
import random
import re
import sys
from itertools import accumulate
from pathlib import Path

import pytest

from fray import gate
from fray.errors import InvalidAction
from fray.maprules import in_the_way, lines_of_fire, map_view, rule_for

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402

# the depth scan as it was before issue 11's load work: regular expressions over the text
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x02", "{": "\x02", "]": "\x00", "}": "\x00"})


def old_depth(text: str) -> int:
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(ord(ch) - 1 for ch in brackets.translate(_STEP))) if brackets else 0


NASTY = ['[', ']', '{', '}', '"', '\\', '\\"', 'é', '\u2603', '\U0001f600', '\\u005b', ' ', 'x']


def random_value(rng: random.Random, depth: int = 0):
    r = rng.random()
    if depth > 6 or r < 0.3:
        return "".join(rng.choice(NASTY) for _ in range(rng.randrange(6)))
    if r < 0.4:
        return rng.choice([None, True, False, 0, -7, 3.5, 10 ** 12])
    if r < 0.7:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {"".join(rng.choice(NASTY) for _ in range(rng.randrange(4))): random_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def test_the_depth_scan_gives_the_old_depth_for_any_json_text():
    """"counting only brackets outside strings": brackets, quotes and backslashes inside strings,
    escapes, non-ASCII (written raw and as \\u escapes), at every nesting."""
    rng = random.Random(5)
    for _ in range(3000):
        v = random_value(rng)
        for text in (json.dumps(v), json.dumps(v, ensure_ascii=False), json.dumps(v, indent=1)):
            assert gate.json_depth(text) == old_depth(text) == _real_depth(v), text


def _real_depth(v) -> int:
    if isinstance(v, dict):
        return 1 + max((_real_depth(x) for x in v.values()), default=0)
    if isinstance(v, list):
        return 1 + max((_real_depth(x) for x in v), default=0)
    return 0


def test_a_very_deep_text_is_measured_without_recursion():
    assert gate.json_depth("[" * 100_000 + "]" * 100_000) == 100_000
    assert gate.json_depth('{"a": "[[[[", "b": [[1]]}') == 3


def old_check(v, path, depth, max_depth):
    """gate._check as it was: one call per value."""
    if v is None or isinstance(v, bool):
        return
    if isinstance(v, (int, float)):
        gate.check_number(v, path or "action")
        return
    if isinstance(v, str):
        gate.check_text(v, path or "action")
        return
    if isinstance(v, (dict, list)):
        if depth >= max_depth:
            raise InvalidAction(path or "action", f"is nested too deeply (at most {max_depth} levels)")
        if isinstance(v, dict):
            for k, x in v.items():
                if not isinstance(k, str):
                    raise InvalidAction(path or "action", "keys must be text")
                if len(k) > gate.MAX_TEXT:
                    raise InvalidAction(path or "action", f"has a key longer than {gate.MAX_TEXT} characters")
                old_check(x, gate._join(path, k), depth + 1, max_depth)
        else:
            for i, x in enumerate(v):
                old_check(x, gate._join(path, i), depth + 1, max_depth)
        return
    raise InvalidAction(path or "action", "is not JSON data")


def _outcome(fn, v, max_depth):
    try:
        fn(v, "", 0, max_depth)
    except InvalidAction as e:
        return (e.field, str(e))
    return None


BAD = [float("nan"), float("inf"), 10 ** 16, -10 ** 16, "x" * (gate.MAX_TEXT + 1), object(), (1, 2), b"raw"]


def test_the_value_gate_refuses_what_it_refused_at_the_same_path_with_the_same_words():
    """One bad value anywhere in random data (a number out of range, NaN, text too long, what is
    not JSON, too deep): the same refusal, path and message as the old per-value check."""
    rng = random.Random(9)
    for _ in range(2000):
        v = random_value(rng)
        if rng.random() < 0.8:
            # put one bad value somewhere: walk down a few containers, then replace an item
            node = v
            while isinstance(node, (dict, list)) and node:
                slot = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
                if isinstance(node[slot], (dict, list)) and node[slot] and rng.random() < 0.7:
                    node = node[slot]
                    continue
                node[slot] = rng.choice(BAD)
                break
        for max_depth in (2, 4, 40):
            assert _outcome(gate._check, v, max_depth) == _outcome(old_check, v, max_depth), v


@pytest.mark.parametrize("game", ["strike-rank", "tactical-round", "range-band"])
def test_the_line_of_fire_in_one_pass_and_the_bands_in_one_call_are_the_plain_ones(game):
    """"Combatants standing within radius metres of the straight line from a to b ... nearest to a
    first": for every pair of a played fight; and a map view's bands, one call, equal target by
    target to asking ``band`` for each."""
    h = fights.fight(game, 20, 60)
    enc = h.present
    rule = rule_for(enc.ruleset)
    cs = list(enc.combatants)
    for a in cs:
        others = [b for b in cs if b.id != a.id]
        assert [[o.id for o in way] for way in lines_of_fire(enc, a, others)] == \
               [[o.id for o in in_the_way(enc, a, b)] for b in others]
        pairs = [(b, float(k)) for k, b in enumerate(others)]
        assert rule.bands_to(enc, a, pairs) == [rule.band(enc, a, b, m) for b, m in pairs]
        assert len(map_view(enc, a.id).targets) == len(others)


def _old_links(enc):
    """StrikeRankRule.links as it was: every pair measured."""
    from fray.games.strike_rank import combat

    out = []
    for c in enc.combatants:
        if "dead" in c.conditions:
            continue
        for o in combat.engaged_with(enc, c):
            if c.id < o.id:
                out.append((c.id, o.id))
    return out


def test_the_engaged_pairs_from_grid_cells_are_every_pair_measured():
    """"Adjacent combatants are engaged" / "engagement range is about 3 meters or less": the pairs
    the grid finds are those measuring every pair finds, in the same order; on a played fight, and
    on random spots that sit on the cells' edges (whole multiples of 3 m, and a hair either side),
    up in the air, with the dead left out."""
    from dataclasses import replace


    h = fights.fight("strike-rank", 40, 80)
    rule = rule_for("strike-rank")
    assert rule.links(h.present) == _old_links(h.present) and rule.links(h.present)
    rng = random.Random(3)
    enc = h.present
    for _ in range(60):
        cs = []
        for c in enc.combatants:
            x = rng.choice([rng.uniform(-12, 12), 3.0 * rng.randrange(-4, 5), 3.0 * rng.randrange(-4, 5) + rng.choice([1e-9, -1e-9])])
            y = rng.choice([rng.uniform(-12, 12), 3.0 * rng.randrange(-4, 5), 0.0])
            alt = rng.choice([0.0, 0.0, rng.uniform(0, 4)])
            conds = ["dead"] if rng.random() < 0.1 else [x for x in c.conditions if x != "dead"]
            cs.append(replace(c, position=replace(c.position, x=x, y=y, alt=alt), conditions=conds))
        e = replace(enc, combatants=cs)
        assert rule.links(e) == _old_links(e)


# the log's reader as it was before the one-test path (savefile._log_entries): field by field
def old_log_entries(log, path):
    from fray import savefile
    from fray.model import LogEntry

    out = []
    for i, ld in enumerate(log):
        lp = f"{path}.{i}"
        if not isinstance(ld, dict):
            raise savefile.SaveFileError(lp, "must be an object")
        detail = savefile._req(ld, "detail", lp, (dict,), "an object")
        savefile._json_like(detail, f"{lp}.detail")
        out.append(LogEntry(savefile._whole(ld, "seq", lp, 1, 10**9),
                            savefile._whole(ld, "round", lp, 1, savefile.MAX_ROUND),
                            savefile._text(ld, "kind", lp, 40),
                            savefile._text(ld, "text", lp, gate.MAX_LOG_TEXT), detail))
    return out


def _log_outcome(read, log, deferred):
    """What a reader gives: its entries (and the value checks it left for later), or its error."""
    from fray import savefile
    from fray.errors import SaveFileError

    savefile._DEFERRED = [] if deferred else None
    try:
        try:
            got = read(log, "encounter.log")
        except (SaveFileError, InvalidAction) as e:
            return ("refused", type(e).__name__, getattr(e, "path", getattr(e, "field", None)), str(e))
        return ("read", got, None if savefile._DEFERRED is None else [p for _, p in savefile._DEFERRED])
    finally:
        savefile._DEFERRED = None


BAD_LOG_VALUES = {
    "seq": [True, False, 0, -1, 10**9 + 1, 1.0, "1", None, [1]],
    "round": [True, 0, 10**9, 2.5, "2", None],
    "kind": [5, None, "x" * 41, ["note"]],
    "text": [None, 3, "t" * (gate.MAX_LOG_TEXT + 1), {"a": 1}],
    "detail": [None, [], "x", 0],
}


@pytest.mark.parametrize("deferred", [False, True])
def test_the_log_read_in_one_test_per_entry_is_the_field_by_field_read(deferred):
    """Issue 11: a long fight's log (500 entries at 30 combatants, 300 actions) is read with one
    test per entry that is plainly right, and field by field otherwise. Either way the entries, the
    values left for the later gate and each refusal (its path and words) are the old reader's: on
    played fights' logs, and on every field of an entry made wrong in each way a file could."""
    for game in ("strike-rank", "tactical-round", "range-band"):
        log = json.loads(json.dumps([e.__dict__ for e in fights.fight(game, 6, 40).present.log]))
        assert log, game
        from fray import savefile

        assert _log_outcome(savefile._log_entries, log, deferred) == _log_outcome(old_log_entries, log, deferred)
        for i in (0, len(log) // 2, len(log) - 1):
            for key, values in BAD_LOG_VALUES.items():
                for v in values + ["<missing>"]:
                    bad = json.loads(json.dumps(log))
                    if v == "<missing>":
                        del bad[i][key]
                    else:
                        bad[i][key] = v
                    new, old = _log_outcome(savefile._log_entries, bad, deferred), _log_outcome(old_log_entries, bad, deferred)
                    assert new == old, (game, i, key, v)
                    assert new[0] == "refused", (game, i, key, v)  # every one of these is wrong
            for not_an_entry in (None, [], "entry", 7):
                bad = json.loads(json.dumps(log))
                bad[i] = not_an_entry
                new = _log_outcome(savefile._log_entries, bad, deferred)
                assert new == _log_outcome(old_log_entries, bad, deferred)
                assert new[:3] == ("refused", "SaveFileError", f"encounter.log.{i}")
