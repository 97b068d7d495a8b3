"""Issue 34: an import's error began with a dotted path ("history.actions.3.id: ...") that the
GM saw in the import dialog. ``fray.savewords`` says the place as the GM knows it, names the
combatant, and says what to do about a file edited or damaged since Fray saved it."""

from __future__ import annotations

import json
import re

import pytest

from fray.errors import SaveFileError
from fray.savefile import dumps, loads
from fray.savewords import describe, place
from test_savefile import sample_history

# a dotted path as the loader writes one: "history.actions.3.id", "encounter.combatants.0"
DOTTED = re.compile(r"\b(?:history|encounter|schema|format)\.|\.\d+\b")


def _refused(mutate) -> tuple[SaveFileError, str]:
    data = json.loads(dumps(sample_history()))
    mutate(data)
    text = json.dumps(data)
    with pytest.raises(SaveFileError) as info:
        loads(text)
    return info.value, text


def test_a_broken_action_is_named_by_its_place_in_the_fight():
    err, text = _refused(lambda d: d["history"]["actions"][3].update(id=5))
    assert err.path == "history.actions.3.id"  # the loader's exact place, for a repair by hand
    said = describe(err, text)
    assert said.startswith("Action 4 of the fight, its combatant: must name a combatant")
    assert "import the file exactly as Fray exported it" in said
    assert not DOTTED.search(said), said


def test_a_broken_combatant_is_named_by_its_name():
    err, text = _refused(lambda d: d["encounter"]["combatants"][0]["position"].update(x="far"))
    said = describe(err, text)
    assert said.startswith("Combatant 1 (Orc), its position x: must be a number"), said
    assert not DOTTED.search(said), said
    # without the file's text there is no name to give, and still no path
    assert describe(err).startswith("The 1st combatant, its position x: must be a number")


def test_the_kind_and_version_of_a_file_are_said_without_repair_advice():
    err, text = _refused(lambda d: d.update(schema=99))
    said = describe(err, text)
    assert said.startswith("The file's version: made by a newer Fray")
    assert "exported" not in said  # nothing was edited: the file is from a newer Fray
    assert describe(SaveFileError("", "not a Fray file: expected a JSON object")) == \
        "not a Fray file: expected a JSON object"


def test_an_autosave_is_described_without_import_advice():
    err, text = _refused(lambda d: d["history"]["actions"][3].update(id=5))
    assert "import" not in describe(err, text, advice=False)


@pytest.mark.parametrize("path, words", [
    ("history.initial.combatants.2.stats.SIZ", "The 3rd combatant at the start of the fight, its stats SIZ"),
    ("history.checkpoints.1.encounter.log.4", "Line 5 of the log in saved point 2 of the fight"),
    ("history.checkpoints.0.at", "Saved point 1 of the fight, its place in the fight"),
    ("history.cursor", "The point the fight had reached"),
    ("history.actions.1.action", "Action 2 of the fight"),
    ("encounter.combatants.1.conditions.2", "The 2nd combatant, its conditions (the 3rd)"),
    ("encounter.tables.hit_location.entries.3", "The table “hit location”, its entries (the 4th)"),
    ("encounter.order_override.1", "The order of play the GM set"),
    ("schema", "The file's version"),
    ("", ""),
])
def test_every_place_the_loader_names_reads_without_a_dotted_path(path, words):
    assert place(path) == words
    assert not DOTTED.search(place(path))


def test_a_journal_row_is_said_as_the_change_and_its_step():
    """A row of the autosave's journal that does not apply was said "The file's “journal”, its (the 5th) moves
    (the 1st)": the row is keyed by its revision, and its moves are the steps of that change."""
    from fray.savewords import place

    assert place("journal.5.moves.0") == "The change kept as revision 5, its 1st step"
    assert "journal" not in place("journal.12.moves.3").lower()
