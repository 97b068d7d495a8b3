"""Issue 10, "Undo says what it undid ("Undid: Harald's attack on the wolf"), and a history list
lets the GM jump back to any point (still one undo stack)."

Contracts: ``History.label(k)`` names action k by the first log line it wrote (the log's own
words, so an attack reads as the log does), with a count of the lines after it, and by its type
when it wrote none; ``History.go_to(i)`` is i - cursor undos or redos at once: the same states,
Redo still walks forward, a new action drops what was undone; an impossible point is refused and
nothing moves; after a reload (a resumed history) labels and jumps build what they need from the
nearest checkpoint, and the Undo title is only given where that costs no replay.
"""

from __future__ import annotations

from dataclasses import asdict

import pytest

from fray import savefile
from fray.history import CHECKPOINT_EVERY, History
from fray.reducer import new_encounter
from fray.web import history_view

from test_resume import fight, states


def add(name):
    return {"type": "add_combatant", "combatant": {"name": name}}




def test_label_is_the_first_log_line_of_the_action():
    h = History(new_encounter("freeform"))
    h.do(add("Harald"))
    h.do({"type": "note", "text": "The wolf howls"})
    assert h.label(0) == h.present.log[0].text
    assert "Harald" in h.label(0)
    assert h.label(1) == "The wolf howls"


def test_label_counts_the_lines_after_the_first():
    """An action that wrote several log lines is named by the first, with how many more."""
    h = History(new_encounter("freeform"))
    for name in ("Orc", "Elf"):
        h.do({"type": "add_combatant", "combatant": {"name": name, "stats": {"initiative": 5}}})
    before = len(h.present.log)
    h.do({"type": "advance"})
    lines = h.present.log[before:]
    assert lines, "advancing writes to the log"
    label = h.label(2)
    assert label.startswith(" ".join(lines[0].text.split())[:20])
    if len(lines) > 1:
        assert label.endswith(f"(+{len(lines) - 1} more)")


def test_label_of_a_silent_action_is_its_type_in_words():
    h = History(new_encounter("freeform"))
    h.do(add("Orc"))
    before = len(h.present.log)
    h.do({"type": "move", "id": "c1", "x": 3})
    if len(h.present.log) == before:  # a move writes no log line
        assert h.label(1) == "Move"
    else:
        assert h.label(1) == h.present.log[before].text


def test_a_long_label_is_cut_to_its_width():
    h = History(new_encounter("freeform"))
    h.do({"type": "note", "text": "x " * 300})
    label = h.label(0)
    assert len(label) <= 90 and label.endswith("\u2026")


def test_go_to_is_that_many_undos_at_once_and_redo_walks_forward_again():
    h = fight(12)
    walk = states(h)
    assert h.go_to(3)
    assert h.cursor == 3 and asdict(h.present) == walk[3]
    assert h.can_redo
    assert h.go_to(9) and asdict(h.present) == walk[9]
    assert h.redo() and asdict(h.present) == walk[10]
    assert h.go_to(0) and asdict(h.present) == walk[0]
    assert not h.go_to(0)  # already there: nothing happens
    assert h.go_to(len(h.actions)) and asdict(h.present) == walk[-1]


def test_a_new_action_after_a_jump_back_drops_what_was_undone():
    """Still one undo stack: the jump is an undo, so doing something new drops the future."""
    h = fight(10)
    h.go_to(4)
    h.do({"type": "note", "text": "a new branch"})
    assert len(h.actions) == 5 and h.cursor == 5 and not h.can_redo


@pytest.mark.parametrize("bad", [-1, 11, "3", 2.0, True, None])
def test_an_impossible_point_is_refused_and_nothing_moves(bad):
    h = fight(10)
    before = (h.cursor, asdict(h.present))
    with pytest.raises(ValueError):
        h.go_to(bad)
    assert (h.cursor, asdict(h.present)) == before


def _resumed(n: int) -> tuple[History, History]:
    h = fight(n)
    text = savefile.dumps(h)
    return h, savefile.loads(text, verify=False)


def test_a_resumed_history_labels_and_jumps_as_the_original():
    """After a reload, the list and the jumps build from the nearest checkpoint: same words, same states."""
    original, resumed = _resumed(CHECKPOINT_EVERY + 17)
    walk = states(original)
    for k in (0, 5, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY + 3, len(original.actions) - 1):
        assert resumed.label(k) == original.label(k)
    resumed.go_to(CHECKPOINT_EVERY - 7)
    assert asdict(resumed.present) == walk[CHECKPOINT_EVERY - 7]
    resumed.go_to(len(resumed.actions))
    assert asdict(resumed.present) == walk[-1]


def test_the_undo_title_names_the_change_only_where_no_replay_is_needed():
    original, resumed = _resumed(2 * CHECKPOINT_EVERY + 17)
    # the autosave's load replayed the last action from the state before the present, which the
    # save holds (issue 11): the title names that action from the log without checking that state;
    # those below are not built (has_state says so, and the title never builds one)
    assert not resumed.has_state(resumed.cursor - 1) and not resumed.has_state(CHECKPOINT_EVERY + 3)
    assert history_view.undo_title(resumed)[0] == f"Undo: {original.label(original.cursor - 1)}"
    resumed.cursor = CHECKPOINT_EVERY + 4  # as if the present were there: the state below needs a replay
    undo, redo = history_view.undo_title(resumed)
    assert undo == "Undo the last change" and redo == "Redo what was undone"
    assert not resumed.has_state(CHECKPOINT_EVERY + 3), "the title built nothing"
    original.undo()
    _, redo = history_view.undo_title(original)
    assert redo == f"Redo: {original.label(original.cursor)}"


def test_history_list_marks_now_offers_back_and_forward_and_escapes_names():
    h = History(new_encounter("freeform", "<b>Ambush</b>"))
    h.do(add("<img src=x onerror=alert(1)>"))
    h.do(add("Elf"))
    h.do(add("Troll"))
    h.undo()
    html = history_view.history_html(h, enc_name=h.present.name)
    assert html.count('aria-current="step"') == 1
    assert html.count("Go back to here") == 2  # the start and the first addition
    assert html.count("Go forward to here") == 1  # Troll, undone
    assert "<img" not in html and "&lt;img" in html
    assert "<b>Ambush" not in html and "Start of &lt;b&gt;Ambush&lt;/b&gt;" in html
    assert 'data-point="3"' in html and 'data-point="0"' in html


def test_history_list_shows_the_latest_first_and_pages_the_rest():
    h = fight(70)
    html = history_view.history_html(h, shown=history_view.PAGE)
    assert html.count("<li") == history_view.PAGE + 1
    assert f'data-point="{70 - history_view.PAGE}"' in html and 'data-point="0"' not in html
    assert f"Show earlier ({70 - history_view.PAGE} more)" in html
    full = history_view.history_html(h, shown=200)
    assert full.count("<li") == 71 and "Show earlier" not in full
