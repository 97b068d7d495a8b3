"""Issue 10: "Importing the same file twice makes two identical entries (offer replace or keep
both)." How an imported history stands to one kept here (``savefile.compare_histories``), the
question the page asks, and the name a second copy gets."""

from __future__ import annotations

import pytest

from fray import savefile
from fray.history import History
from fray.reducer import new_encounter
from fray.web import import_view


def fight(n: int, name: str = "Wolf fight") -> History:
    h = History(new_encounter("freeform", name))
    h.do({"type": "add_combatant", "combatant": {"name": "Wolf"}})
    for i in range(n - 1):
        h.do({"type": "move", "id": "c1", "x": i + 1})
    return h


def test_the_same_fight_exported_and_read_back_is_the_same():
    h = fight(5)
    assert savefile.compare_histories(h, savefile.loads(savefile.dumps(h))) == ("same", 0)


def test_a_file_further_on_and_one_behind():
    short, long = fight(3), fight(7)
    assert savefile.compare_histories(short, long) == ("ahead", 4)
    assert savefile.compare_histories(long, short) == ("behind", 4)


def test_undone_changes_do_not_count():
    """What the GM undid is not part of the fight as it stands."""
    h = fight(6)
    h.undo()
    h.undo()
    assert savefile.compare_histories(h, fight(4)) == ("same", 0)


def test_separate_ways_and_another_start_are_different():
    a, b = fight(4), fight(3)
    b.do({"type": "move", "id": "c1", "x": 99})
    assert savefile.compare_histories(a, b) == ("different", 0)
    assert savefile.compare_histories(fight(3), fight(3, "Another")) == ("different", 0)


@pytest.mark.parametrize("verdict, n, said, primary", [
    ("same", 0, "same fight, change for change", "import-replace"),
    ("ahead", 2, "2 changes further on", "import-replace"),
    ("behind", 1, "1 change further on than the file", "import-keep"),
    ("different", 0, "different fight", "import-keep"),
])
def test_the_question_says_how_they_stand_and_what_replacing_loses(verdict, n, said, primary):
    html = import_view.duplicate_dialog("<b>Wolf</b>", "wolf.fray.json", verdict, n)
    assert said in html
    assert f'data-act="{primary}" class="primary"' in html and html.count('class="primary"') == 1
    assert "<b>Wolf" not in html and "&lt;b&gt;Wolf&lt;/b&gt; is already here" in html
    if verdict == "behind":
        assert "its last change is lost" in html
    if verdict == "different":
        assert "the one here is lost" in html


def test_a_second_copy_is_named_2_then_3_within_60_characters():
    assert import_view.second_name("Wolf fight", set()) == "Wolf fight (2)"
    assert import_view.second_name("Wolf fight", {"Wolf fight (2)"}) == "Wolf fight (3)"
    long = "x" * 60
    assert import_view.second_name(long, set()) == "x" * 56 + " (2)"
