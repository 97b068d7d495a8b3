"""Issue 32, item 8: a state the range-band engine accepts must load again. Each test drives one way a
long random fight found to make a fight whose save would not load (or an edit that crashed), and checks
that the engine now refuses it at the field, or keeps the state on the map, and that save → load gives
the same state back."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from fray.errors import FrayError, InvalidAction
from fray.history import History
from fray.reducer import apply
from fray.savefile import dumps, loads
from rb_helpers import RS, act, fight, last_pending, person, preset, start, to_phase

ROOT = Path(__file__).resolve().parents[3]


def loads_again(enc) -> None:
    """save → load → equal, for the state as it stands."""
    back = loads(dumps(History(enc)))
    assert asdict(back.present) == asdict(enc)


def test_teleport_brings_no_one_off_the_map():
    """Teleportation & Combat, medium precision: "Although you do not have to bring other characters along ...
    you can choose to do so"; "its vertical range is always the same as its horizontal." The teleporter's own
    destination is checked to be on the map; one brought along lands at its offset, which must be on the map
    too: refused at the field it overflows, naming who, and nothing moves."""
    enc = fight(person("Blinker", alt=19995), person("Kite", x=1, alt=20000))
    with pytest.raises(InvalidAction) as e:
        act(enc, "teleport", id="c1", x=0, alt=20000, range="short", precision="medium", bring=["c2"])
    assert e.value.field == "alt" and "Kite" in e.value.message and "20,005" in e.value.message
    far = fight(person("Blinker", x=99995), person("Kite", x=99999))
    with pytest.raises(InvalidAction) as e:
        act(far, "teleport", id="c1", x=100000, range="short", precision="medium", bring=["c2"])
    assert e.value.field == "x" and "Kite" in e.value.message
    # low precision brings the grappled along without a list: the same check
    held = act(fight(person("Blinker", x=99995), person("Foe", side="foes", x=99996.5)), "grapple", id="c2",
               target="c1")
    with pytest.raises(InvalidAction):
        act(held, "teleport", id="c1", x=100000, range="short", precision="low")
    went = act(enc, "teleport", id="c1", x=0, alt=19990, range="short", precision="medium", bring=["c2"])
    assert went.get("c2").position.alt == 19995
    loads_again(went)


def test_climb_cut_back_to_short_range_is_measured_from_the_move():
    """Flight: "Whenever you succeed on any flying movement roll, you may ascend a distance of short range; if you
    both rush and succeed by 10 or more, you may ascend up to medium range." A rushed climb to 15 m that succeeds
    by less than 10 rises short range (10 m) from where the climb began, even if the GM dragged the token while the
    roll was pending; the result stays on the map and the save loads again."""
    enc = to_phase(start(fight(preset("Winged flyer"))), "movement")
    enc = act(enc, "move", id="c1", alt=15, rush=True)
    ref = last_pending(enc, "movement")["ref"]
    enc, _ = apply(enc, {"type": "move", "id": "c1", "alt": 19995})  # the GM's drag, roll pending
    enc, _ = apply(enc, {"type": "rb.resolve", "ref": ref, "success": True, "by": 3})
    assert enc.get("c1").position.alt == 10
    loads_again(enc)


@pytest.mark.parametrize("table,key", [("core_roll", {"a": 1}), ("core_roll", ["success"]),
                                       ("constants", {"a": 1}), ("constants", ["rounds_per_minute"])])
def test_table_key_that_is_an_object_or_a_list_is_named(table, key):
    """Tables are data the GM edits (FACTS.md: "let the GM edit every table"): a key that is an object or a list is
    refused at that entry's key, in words, and the table stays as it was (it raised ``TypeError: unhashable
    type``, which the Tables dialog showed as "Something went wrong")."""
    enc = fight(person("A"))
    value = json.loads(json.dumps(RS.tables[table]))
    value["entries"][0]["key"] = key
    with pytest.raises(InvalidAction) as e:
        apply(enc, {"type": "set_table", "table": table, "value": value})
    assert e.value.field.endswith("entries.0.key") and "unhashable" not in e.value.message


def test_a_save_holding_a_malformed_table_key_is_refused_in_words(tmp_path):
    """A save file edited by hand with such a table is refused by the load, naming the table, and ``python -m fray
    replay`` says so and exits with its own error code, with no traceback."""
    enc = fight(person("A"))
    text = dumps(History(enc))
    data = json.loads(text)
    table = json.loads(json.dumps(RS.tables["constants"]))
    table["entries"][0]["key"] = {"a": 1}
    data["encounter"]["tables"]["constants"] = table
    data["history"]["initial"]["tables"]["constants"] = table
    bad = json.dumps(data)
    with pytest.raises(FrayError) as e:
        loads(bad)
    assert "unhashable" not in str(e.value) and "constants" in str(e.value)
    f = tmp_path / "bad.json"
    f.write_text(bad)
    run = subprocess.run([sys.executable, "-m", "fray", "replay", str(f)], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "py")}, cwd=str(ROOT))
    assert "Traceback" not in run.stderr and "unhashable" not in run.stderr + run.stdout
    assert run.returncode not in (0, 1), run.stderr


@pytest.mark.parametrize("kind", [{"a": 1}, ["smoke"]])
def test_area_kind_that_is_an_object_or_a_list_is_named(kind):
    """Lack of Sight: an area "you can't see" is marked by the GM (``rb.area``) with a kind from table
    ``obscuring``; a kind that is an object or a list is refused at ``kind``, in words."""
    with pytest.raises(InvalidAction) as e:
        apply(fight(person("A")), {"type": "rb.area", "kind": kind, "x": 0, "y": 0, "radius": "short"})
    assert e.value.field == "kind"
