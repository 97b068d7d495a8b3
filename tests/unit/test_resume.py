"""Issue 11, item 1: a save keeps the present and a checkpoint every CHECKPOINT_EVERY actions, so a
reload does not replay the fight from the start, and undo after the reload still reaches it.

Contracts: a schema 1 save (no checkpoints) still loads and is written back as schema 2; a lazy
load (the autosave's) replays nothing, yet walks the same states as a full replay, all the way to
the start and back; every checkpoint is read by the same strict reader as the present and, when a
replay reaches it, must equal what the actions make, or the load (verify) or the undo (lazy) is
refused with its path and the history is left as it was.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import asdict

import pytest

from fray import history as history_module
from fray import savefile
from fray import RULES_EDITION
from fray.errors import SaveFileError
from fray.history import CHECKPOINT_EVERY, History
from fray.reducer import new_encounter
from fray.web.store import Library, MemoryBackend

N = CHECKPOINT_EVERY


def fight(n_actions: int, seed: int = 1) -> History:
    """A free-form fight: four join, then ``n_actions - 4`` moves and notes."""
    rnd = random.Random(seed)
    h = History(new_encounter("freeform", "Long fight"))
    for name in ("Orc", "Elf", "Wolf", "Troll"):
        h.do({"type": "add_combatant", "combatant": {"name": name, "stats": {"initiative": rnd.randint(1, 20)}}})
    for i in range(n_actions - 4):
        cid = f"c{rnd.randint(1, 4)}"
        if i % 3:
            h.do({"type": "move", "id": cid, "x": rnd.randint(-50, 50), "y": rnd.randint(-50, 50)})
        else:
            h.do({"type": "edit_combatant", "id": cid, "changes": {"notes": f"note {i}"}})
    return h


def states(h: History) -> list[dict]:
    """Every state of ``h``, by walking undo to the start and redo to the end; leaves the cursor."""
    cursor = h.cursor
    while h.undo():
        pass
    out = [asdict(h.present)]
    while h.redo():
        out.append(asdict(h.present))
    while h.cursor > cursor:
        h.undo()
    return out


def schema_1(h: History) -> str:
    """The same history as Fray wrote it before checkpoints (schema 1)."""
    data = savefile.dump_history(h)
    data["schema"] = 1
    del data["history"]["checkpoints"]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def test_dumps_is_the_compact_json_of_dump_history():
    h = fight(2 * N + 7)
    h.undo()
    assert savefile.dumps(h) == json.dumps(savefile.dump_history(h), separators=(",", ":"), ensure_ascii=False)
    assert savefile.dumps(h) == savefile.dumps(h)  # the kept texts give the same file again


def test_a_save_holds_a_checkpoint_every_n_actions_but_not_the_present():
    h = fight(2 * N + 7)
    data = json.loads(savefile.dumps(h))
    assert data["schema"] == 3
    # and the state just before the present: a load checks the present by replaying one action
    assert [c["at"] for c in data["history"]["checkpoints"]] == [N, 2 * N, 2 * N + 6]
    for _ in range(7):
        h.undo()  # the cursor now sits on the second checkpoint: the present stands for it
    data = json.loads(savefile.dumps(h))
    assert [c["at"] for c in data["history"]["checkpoints"]] == [N, 2 * N - 1]


@pytest.mark.parametrize("verify", [True, False])
def test_a_schema_1_save_loads_and_is_upgraded(verify):
    h = fight(2 * N + 3)
    h.undo()
    old = schema_1(h)
    loaded = savefile.loads(old, verify=verify)
    assert asdict(loaded.present) == asdict(h.present) and loaded.cursor == h.cursor
    assert states(loaded) == states(h)
    new = json.loads(savefile.dumps(loaded))
    assert new["schema"] == 3
    assert [c["at"] for c in new["history"]["checkpoints"]] == [N, 2 * N, 2 * N + 1]
    assert savefile.dumps(savefile.loads(savefile.dumps(loaded))) == savefile.dumps(h)


def test_schema_1_has_no_checkpoints():
    h = fight(N + 1)
    data = savefile.dump_history(h)
    data["schema"] = 1
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data)
    assert e.value.path == "history.checkpoints" and "schema 1" in str(e.value)


def counting(monkeypatch) -> list[int]:
    """Count the actions the history replays from now on."""
    calls = []
    real = history_module.apply

    def counted(enc, action):
        calls.append(1)
        return real(enc, action)

    monkeypatch.setattr(history_module, "apply", counted)
    return calls


@pytest.mark.parametrize("undos", [0, 1, 7, N, N + 1, 2 * N + 7, 3 * N])
def test_a_lazy_load_replays_from_the_last_checkpoint_and_walks_the_states_of_a_full_replay(monkeypatch, undos):
    h = fight(3 * N)
    for _ in range(undos):
        h.undo()
    text = savefile.dumps(h)
    full = History.replay(h.initial, h.actions, h.cursor)
    calls = counting(monkeypatch)
    lazy = savefile.loads(text, verify=False)
    # only from the last checkpoint, the state just before the present (never saved twice)
    assert len(calls) == (0 if h.cursor == 0 else 1)
    assert asdict(lazy.present) == asdict(full.present) and lazy.cursor == full.cursor
    assert states(lazy) == states(full)
    # undo across the reload reaches the start
    while lazy.undo():
        pass
    assert lazy.cursor == 0 and asdict(lazy.present) == asdict(h.initial)


def test_the_autosave_resumes_from_the_last_checkpoint(monkeypatch):
    h = fight(2 * N + 5)
    lib = Library(MemoryBackend())
    asyncio.run(lib.save("e1", h, 0))
    before = asdict(History.replay(h.initial, h.actions, h.cursor - 1).present)
    calls = counting(monkeypatch)
    back, _ = asyncio.run(lib.load("e1"))
    assert len(calls) == 1 and asdict(back.present) == asdict(h.present)
    # the state before the present came from the save: before it is shown, it is checked by a
    # replay from the checkpoint below it
    assert back.undo() and asdict(back.present) == before
    assert len(calls) == 5


def test_verify_makes_the_history_of_a_full_replay():
    h = fight(3 * N + 2)
    for _ in range(N + 3):
        h.undo()
    lazy = savefile.loads(savefile.dumps(h), verify=False)
    lazy.verify()
    assert all(s is not None for s in lazy._states) and not lazy._unverified
    assert states(lazy) == states(h)


def tampered(h: History, i: int = 0) -> dict:
    data = savefile.dump_history(h)
    enc = data["history"]["checkpoints"][i]["encounter"]
    enc["name"] = "Edited fight"  # no action renames it: every replay from there disagrees
    return data


def test_a_checkpoint_that_its_actions_contradict_is_refused_by_a_full_load():
    h = fight(2 * N + 5)
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(tampered(h, 1))
    assert e.value.path == "history.checkpoints.1.encounter" and "does not match" in str(e.value)


def test_a_lazy_load_refuses_the_undo_that_reaches_a_contradicted_checkpoint():
    h = fight(2 * N + 5)
    lazy = savefile.load_data(tampered(h, 0), verify=False)
    while lazy.cursor > 2 * N + 1:
        assert lazy.undo()  # replayed from the second checkpoint, which agrees with the present
    assert asdict(lazy.present) == asdict(History.replay(h.initial, h.actions, 2 * N + 1).present)
    before = asdict(lazy.present)
    # the second checkpoint is checked by a replay from the first, which disagrees; the first is
    # then checked from the start, and blamed
    with pytest.raises(SaveFileError) as e:
        lazy.undo()
    assert e.value.path == "history.checkpoints.0.encounter" and "does not match" in str(e.value)
    assert lazy.cursor == 2 * N + 1 and asdict(lazy.present) == before
    with pytest.raises(SaveFileError):
        lazy.undo()  # still refused, still unchanged
    assert lazy.cursor == 2 * N + 1
    with pytest.raises(SaveFileError):
        lazy.verify()


@pytest.mark.parametrize("length", [N - 3, N + 1, N + 5])
@pytest.mark.parametrize("verify", [True, False])
def test_a_present_that_its_actions_contradict_is_refused_by_any_load(verify, length):
    h = fight(length)
    data = savefile.dump_history(h)
    data["encounter"]["name"] = "Edited fight"
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data, verify=verify)
    assert e.value.path == "encounter" and "does not match" in str(e.value)


# -- the present checked once the page is ready (check false), before any change in any case ------
# The issue: "save a snapshot of the present beside the actions so that a load does not replay
# from the start (checkpoints every so many actions, or the present state verified lazily)".

def counted_steps(monkeypatch) -> list[int]:
    made: list[int] = []
    real = History._step

    def step(self, enc, k):
        made.append(k)
        return real(self, enc, k)
    monkeypatch.setattr(History, "_step", step)
    return made


def test_an_unchecked_load_replays_nothing_until_the_present_is_checked(monkeypatch):
    h = fight(2 * N + 5)
    made = counted_steps(monkeypatch)
    lazy = savefile.loads(savefile.dumps(h), verify=False, check=False)
    assert made == [] and lazy.present_unchecked
    assert asdict(lazy.present) == asdict(h.present)
    lazy.check_present()
    assert made == [len(h.actions) - 1]  # from the checkpoint just before the cursor: one action
    assert not lazy.present_unchecked
    lazy.check_present()
    assert made == [len(h.actions) - 1]  # checked once
    assert states(lazy) == states(h)


@pytest.mark.parametrize("change", ["do", "undo", "redo", "go_to"])
def test_no_change_builds_on_an_unchecked_present_that_its_actions_contradict(change):
    h = fight(N + 5)
    h.undo()  # something to redo
    data = savefile.dump_history(h)
    data["encounter"]["name"] = "Edited fight"
    lazy = savefile.load_data(data, verify=False, check=False)  # loads: nothing replayed yet
    assert lazy.present.name == "Edited fight" and lazy.present_unchecked
    before = (lazy.cursor, list(lazy.actions), asdict(lazy.present))
    with pytest.raises(SaveFileError) as e:
        if change == "do":
            lazy.do({"type": "note", "text": "after the reload"})
        elif change == "undo":
            lazy.undo()
        elif change == "redo":
            lazy.redo()
        else:
            lazy.go_to(0)
    assert e.value.path == "encounter" and "does not match what its history replays to" in str(e.value)
    assert (lazy.cursor, lazy.actions, asdict(lazy.present)) == before
    assert lazy.present_unchecked  # still wrong, still refused
    with pytest.raises(SaveFileError):
        lazy.check_present()


def test_a_checked_present_lets_the_fight_go_on_exactly_as_a_full_load():
    h = fight(N + 5)
    lazy = savefile.loads(savefile.dumps(h), verify=False, check=False)
    full = savefile.loads(savefile.dumps(h))
    for x in (lazy, full):
        x.do({"type": "note", "text": "after the reload"})
    assert savefile.dumps(lazy) == savefile.dumps(full)
    assert not lazy.present_unchecked


def test_an_unchecked_load_parses_the_checkpoints_only_when_first_needed():
    """The checkpoints are two thirds of a long fight's save: a load for the page leaves their text
    unparsed until the present is checked or undo needs one, and it then reads them exactly as a
    whole load does."""
    h = fight(3 * N + 7)
    text = savefile.dumps(h)
    quick = savefile.loads(text, verify=False, check=False)
    assert quick._later is not None and all(s is None for s in quick._states[1:-1])
    assert savefile.dumps(quick) == text  # written back as it came (the checkpoints read on the way)
    assert quick._later is None
    quick = savefile.loads(text, verify=False, check=False)
    quick.check_present()
    assert states(quick) == states(h)


def test_a_file_not_written_by_dumps_is_read_whole_with_the_same_result():
    h = fight(N + 5)
    pretty = json.dumps(savefile.dump_history(h), indent=1)
    loaded = savefile.loads(pretty, verify=False, check=False)
    assert loaded._later is None  # not the autosave's own text: parsed whole, checkpoints included
    assert savefile.dumps(loaded) == savefile.dumps(h)


@pytest.mark.parametrize("spoil, path", [
    (lambda cps: cps[0].__setitem__("at", "fifty"), "history.checkpoints.0.at"),
    (lambda cps: cps[1]["encounter"].__setitem__("ruleset", "chess"), "history.checkpoints.1.encounter.ruleset"),
    (lambda cps: cps.append(cps[0]), "history.checkpoints.3"),
])
def test_malformed_checkpoints_read_later_are_refused_with_the_path_a_whole_load_gives(spoil, path):
    h = fight(2 * N + 5)
    data = savefile.dump_history(h)
    spoil(data["history"]["checkpoints"])
    text = savefile._compact(data)
    assert text.startswith(f'{{"format":"fray-encounter","schema":3,"rules":"{RULES_EDITION}","encounter":')
    with pytest.raises(SaveFileError) as whole:
        savefile.loads(text, verify=False)
    quick = savefile.loads(text, verify=False, check=False)  # the checkpoints are not read yet
    assert quick.present_unchecked
    for _ in range(2):  # refused each time it is asked, and nothing changes
        with pytest.raises(SaveFileError) as later:
            quick.check_present()
        assert later.value.path == whole.value.path == path
    with pytest.raises(SaveFileError):
        quick.undo()
    assert quick.cursor == h.cursor


@pytest.mark.parametrize("spoil, path", [
    (lambda d: d["encounter"]["state"].__setitem__("x", float("nan")), "encounter.state.x"),
    (lambda d: d["encounter"]["combatants"][1].__setitem__("data", {"note": "x" * 100_000}), "encounter.combatants.1.data.note"),
    (lambda d: d["history"]["actions"][3].__setitem__("x", float("inf")), "history.actions.3.x"),
])
def test_a_value_the_gate_refuses_is_found_when_the_present_is_checked_with_the_path_of_a_whole_load(spoil, path):
    """The value gate over the free-form parts (Issue 8's "NaN and Infinity anywhere in a file are
    refused with their path") is left for the check right after the page is ready."""
    h = fight(N + 5)
    data = savefile.dump_history(h)
    spoil(data)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    assert text.startswith(f'{{"format":"fray-encounter","schema":3,"rules":"{RULES_EDITION}","encounter":')
    with pytest.raises(SaveFileError) as whole:
        savefile.loads(text, verify=False)
    quick = savefile.loads(text, verify=False, check=False)
    assert quick.present_unchecked
    for _ in range(2):
        with pytest.raises(SaveFileError) as later:
            quick.check_present()
        assert later.value.path.startswith(path) and later.value.path == whole.value.path
    with pytest.raises(SaveFileError):
        quick.do({"type": "note", "text": "after the reload"})
    assert quick.cursor == h.cursor


def test_checkpoints_that_are_not_json_are_refused_when_read():
    h = fight(N + 5)
    text = savefile.dumps(h)
    cut = text.index(',"checkpoints":[') + len(',"checkpoints":[')
    bad = text[:cut] + "{oops" + text[cut:]
    quick = savefile.loads(bad, verify=False, check=False)
    with pytest.raises(SaveFileError) as e:
        quick.check_present()
    assert e.value.path == "history.checkpoints" and "not JSON" in str(e.value)
    with pytest.raises(SaveFileError):
        savefile.loads(bad, verify=False)  # a whole load refuses the file outright


def test_the_library_checks_at_once_when_a_journal_follows_the_save_and_sets_a_wrong_one_aside():
    lib = Library(MemoryBackend())
    h = fight(N + 5)
    asyncio.run(lib.save("e1", h, 0))
    good = lib.backend.saves["e1"]["text"]
    loaded, _ = asyncio.run(lib.load("e1", check=False))
    assert loaded.present_unchecked  # no journal: the page checks it once it is ready
    data = json.loads(good)
    data["encounter"]["name"] = "Edited fight"
    bad = json.dumps(data)
    lib.backend.saves["e1"]["text"] = bad
    loaded, _ = asyncio.run(lib.load("e1", check=False))
    with pytest.raises(SaveFileError):
        loaded.check_present()
    asyncio.run(lib.set_aside("e1"))
    assert lib.backend.broken["e1"] == bad and asyncio.run(lib.raw("e1")) == bad
    assert lib.backend.saves["e1"]["text"] == bad  # never overwritten


def test_an_action_that_cannot_be_applied_is_refused_when_a_replay_reaches_it():
    h = fight(N + 5)
    data = json.loads(savefile.dumps(h))
    data["history"]["actions"][N + 4] = {"type": "move", "id": "c99", "x": 1}  # the last: the load replays it
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data, verify=False)
    assert e.value.path == f"history.actions.{N + 4}"
    data = json.loads(savefile.dumps(h))
    data["history"]["actions"][N + 2] = {"type": "move", "id": "c99", "x": 1}
    lazy = savefile.load_data(data, verify=False)  # replays only the last action
    with pytest.raises(SaveFileError) as e:
        lazy.undo()  # the state before the present is checked from the checkpoint at N, through N + 2
    assert e.value.path == f"history.actions.{N + 2}" and lazy.cursor == N + 5


def test_verify_finds_a_contradicted_checkpoint_that_no_undo_reached():
    h = fight(2 * N + 5)
    lazy = savefile.load_data(tampered(h, 0), verify=False)
    with pytest.raises(SaveFileError) as e:
        lazy.verify()
    assert e.value.path == "history.checkpoints.0.encounter"


@pytest.mark.parametrize("verify", [True, False])
@pytest.mark.parametrize("change, path, words", [
    (lambda cps: cps[0]["encounter"]["combatants"][0].__setitem__("side", "pirates"),
     "history.checkpoints.0.encounter.combatants.0.side", "must be one of"),
    (lambda cps: cps[0]["encounter"]["combatants"][0]["position"].__setitem__("x", float("nan")),
     "history.checkpoints.0.encounter.combatants.0.position.x", "must be"),
    (lambda cps: cps[0]["encounter"].__setitem__("ruleset", "strike-rank"),
     "history.checkpoints.0.encounter", ""),
    (lambda cps: cps[0].__setitem__("at", 0), "history.checkpoints.0.at", "from 1"),
    (lambda cps: cps[1].__setitem__("at", cps[0]["at"]), "history.checkpoints.1.at", "whole number from"),
    (lambda cps: cps[1].__setitem__("at", 10**6), "history.checkpoints.1.at", "whole number from"),
    (lambda cps: cps[1].__setitem__("at", True), "history.checkpoints.1.at", "whole number"),
    (lambda cps: cps[1].__setitem__("at", 2 * N + 5), "history.checkpoints.1.at", f"from {N + 1} to {2 * N + 4}"),
    (lambda cps: cps.__setitem__(0, []), "history.checkpoints.0", "must be an object"),
    (lambda cps: cps[0].pop("encounter"), "history.checkpoints.0.encounter", "must be an object"),
])
def test_a_checkpoint_is_read_as_strictly_as_the_present(verify, change, path, words):
    """Its place and shape at once; its fields, by the autosave's load, when a replay first needs
    it (issue 11: the load reads one encounter, not one per 50 actions)."""
    h = fight(2 * N + 5)
    data = savefile.dump_history(h)
    change(data["history"]["checkpoints"])
    with pytest.raises(SaveFileError) as e:
        lazy = savefile.load_data(data, verify=verify)
        lazy.verify()
    assert e.value.path.startswith(path) and words in str(e.value)


def test_a_lazy_load_still_gates_every_action():
    h = fight(N + 5)
    data = savefile.dump_history(h)
    data["history"]["actions"][3]["deep"] = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data, verify=False)
    assert e.value.path.startswith("history.actions.3")


def test_doing_after_a_lazy_load_drops_the_redo_and_its_checkpoints():
    h = fight(2 * N + 5)
    for _ in range(N + 10):
        h.undo()
    lazy = savefile.loads(savefile.dumps(h), verify=False)
    lazy.do({"type": "move", "id": "c1", "x": 1, "y": 1})
    assert not lazy.can_redo and len(lazy.actions) == N - 4
    assert not [k for k in lazy._unverified if k > lazy.cursor]
    h.do({"type": "move", "id": "c1", "x": 1, "y": 1})
    assert states(lazy) == states(h)
    assert savefile.dumps(lazy) == savefile.dumps(h)


# -- issue 11, item 2: "Checkpoints include the full log, so the save grows ~ actions^2/50: fix that
# (checkpoints hold state without duplicating the log; old saves still load and upgrade; schema
# version bumps if the format changes)"

def test_a_checkpoint_holds_no_log_but_its_length_in_the_present_log():
    h = fight(3 * N + 4)
    data = json.loads(savefile.dumps(h))
    assert data["schema"] == 3
    for cp in data["history"]["checkpoints"]:
        assert "log" not in cp["encounter"]
        state = asdict(h.state_at(cp["at"]))
        assert cp["log"] == len(state["log"]) and state["log"] == data["encounter"]["log"][:cp["log"]]
        assert cp["encounter"] == {k: v for k, v in state.items() if k != "log"}


def test_the_save_grows_with_the_fight_not_with_its_square():
    """Schema 2 wrote every checkpoint's log again: twice the fight, about four times the file."""
    sizes = {n: len(savefile.dumps(fight(n))) for n in (4 * N, 8 * N)}
    assert sizes[8 * N] < 2.2 * sizes[4 * N]
    old = {n: len(json.dumps(schema_2(fight(n)))) for n in (4 * N, 8 * N)}
    assert old[8 * N] > 2.6 * old[4 * N]  # the growth this fixes, measured the same way


def schema_2(h: History) -> dict:
    """The same history as Fray wrote it in schema 2: whole checkpoints, redo stack too."""
    data = savefile.dump_history(h)
    data["schema"] = 2
    data["history"]["checkpoints"] = [{"at": k, "encounter": asdict(h.state_at(k))}
                                      for k in range(N, len(h.actions) + 1, N) if k != h.cursor]
    return data


@pytest.mark.parametrize("undos", [0, 3, N + 2])
@pytest.mark.parametrize("verify", [True, False])
def test_a_schema_2_save_loads_and_is_upgraded(verify, undos):
    h = fight(3 * N + 5)
    for _ in range(undos):
        h.undo()
    loaded = savefile.load_data(schema_2(h), verify=verify)
    assert states(loaded) == states(h) and loaded.cursor == h.cursor
    assert savefile.dumps(loaded) == savefile.dumps(h)
    assert json.loads(savefile.dumps(loaded))["schema"] == 3


@pytest.mark.parametrize("verify", [True, False])
@pytest.mark.parametrize("change, path, words", [
    (lambda cps, enc: cps[0].__setitem__("log", len(enc["log"]) + 1), "history.checkpoints.0.log", "from 0 to"),
    (lambda cps, enc: cps[1].__setitem__("log", cps[0]["log"] - 1), "history.checkpoints.1.log", "whole number from"),
    (lambda cps, enc: cps[0].__setitem__("log", "3"), "history.checkpoints.0.log", "whole number"),
    (lambda cps, enc: cps[0].pop("log"), "history.checkpoints.0.log", "is missing"),
    (lambda cps, enc: cps[0]["encounter"].__setitem__("log", []), "history.checkpoints.0.encounter.log",
     "not part of a schema 3 checkpoint"),
    (lambda cps, enc: cps[2].__setitem__("at", 2 * N + 5),
     "history.checkpoints.2.at", f"from {2 * N + 1} to {2 * N + 4}"),  # none at or after the cursor
])
def test_a_schema_3_checkpoint_log_is_read_strictly(verify, change, path, words):
    h = fight(2 * N + 5)
    data = savefile.dump_history(h)
    change(data["history"]["checkpoints"], data["encounter"])
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data, verify=verify)
    assert e.value.path.startswith(path) and words in str(e.value)


def test_a_checkpoint_log_length_its_actions_contradict_is_refused_when_checked():
    h = fight(2 * N + 5)
    data = savefile.dump_history(h)
    data["history"]["checkpoints"][0]["log"] -= 1
    with pytest.raises(SaveFileError) as e:
        savefile.load_data(data)
    assert e.value.path == "history.checkpoints.0.encounter" and "does not match" in str(e.value)
    lazy = savefile.load_data(data, verify=False)
    with pytest.raises(SaveFileError):
        lazy.verify()


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round", "range-band", "freeform"])
def test_an_autosave_after_each_action_is_the_compact_json_of_dump_history(ruleset):
    """``savefile.dumps`` reuses the text of each combatant and log line the last save wrote
    (``state_text``): after every action of a played fight, undo and redo included, the file is
    still exactly the compact JSON of ``dump_history``."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import fights

    whole = fights.fight(ruleset, 6, 40, seed=3)
    h = History(whole.initial)
    for a in whole.actions:
        h.do(a)
        assert savefile.dumps(h) == json.dumps(savefile.dump_history(h), separators=(",", ":"), ensure_ascii=False)
    h.undo()
    h.undo()
    h.redo()
    assert savefile.dumps(h) == json.dumps(savefile.dump_history(h), separators=(",", ":"), ensure_ascii=False)
    assert asdict(savefile.loads(savefile.dumps(h)).present) == asdict(h.present)


def test_a_piece_of_the_save_is_the_text_asdict_would_give():
    """docs/file-format.md: the file is the compact JSON of the encounter. A combatant's text is
    made without ``asdict`` (``savefile._compact_dataclass``); it must be the same text, with
    nested dicts, lists, tuples, a dataclass inside ``data``, and names json must escape."""
    from fray.model import Combatant, LogEntry, Position

    c = Combatant(id="c1", name='<b>"Ørn"</b>\n', stats={"hp": 12, "sr": [1, 2.5]},
                  conditions=["prone"], position=Position(1.5, -2, 3),
                  data={"deep": {"k": [Position(0, 1, 2), (1, "two")]}, "none": None, "t": True})
    assert savefile._compact_dataclass(c) == json.dumps(asdict(c), separators=(",", ":"), ensure_ascii=False)
    e = LogEntry(seq=3, round=2, kind="attack", text="hit", detail={"roll": [5, 7]})
    assert savefile._compact_dataclass(e) == json.dumps(asdict(e), separators=(",", ":"), ensure_ascii=False)
    with pytest.raises(TypeError):
        savefile._compact_dataclass(Combatant(id="c2", name="x", data={"bad": {1, 2}}))


@pytest.mark.parametrize("ruleset", ["strike-rank", "range-band"])
def test_the_autosave_crosses_into_the_page_as_ascii_json_of_the_same_data(ruleset):
    """docs/file-format.md: the save is JSON. What the page stores is ``savefile.ascii_json`` of
    it (the text ``ensure_ascii=True`` writes): only ASCII, and the same data, with names in any
    script, quotes and backslashes next to them, characters beyond the BMP and a lone surrogate."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import fights

    h = fights.fight(ruleset, 6, 40, seed=3)
    text = savefile.dumps(h)
    data = json.loads(text)
    data["encounter"]["name"] = 'Ørn "the → 🐉" \\ Æ\\u00e9 \ud800 ok'
    odd = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    for t in (text, odd):
        out = savefile.ascii_json(t)
        assert out.isascii() and json.loads(out) == json.loads(t)
        assert out == json.dumps(json.loads(t), separators=(",", ":"), ensure_ascii=True)
    assert savefile.ascii_json('{"a":1}') == '{"a":1}'
    assert asdict(savefile.loads(savefile.ascii_json(text)).present) == asdict(h.present)
