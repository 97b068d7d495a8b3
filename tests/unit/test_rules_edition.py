"""A save outlives a change of the rules (issue 32, found while fixing it): Fray's rules change
between two evenings (a maimed leg now makes one prone by itself, copies stand a formation apart),
so a history recorded by an earlier Fray can replay to another encounter. Until now such a save was
refused as "edited or corrupted" and the GM's fight was put aside. Now every save carries the rules
edition that made it (``fray.RULES_EDITION``): within one edition a replay that differs still means
an edited or corrupted file; a save of another edition (or of none, from before editions) opens as
it stands, its history kept where it still replays, else starting at the saved encounter."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from fray import RULES_EDITION, savefile
from fray.errors import SaveFileError
from fray.history import History
from fray.reducer import new_encounter


def fight() -> History:
    h = History(new_encounter("freeform", "Ford"))
    h.do({"type": "add_combatant", "combatant": {"name": "Bran", "stats": {"initiative": 12}}})
    h.do({"type": "add_combatant", "combatant": {"name": "Orc", "count": 3, "stats": {"initiative": 8}}})
    h.do({"type": "move", "id": "c1", "x": 4, "y": 1})
    return h


def played_differently(data: dict) -> dict:
    """The same file as if an earlier Fray had recorded it: its encounter is what that Fray's rules
    made of the actions (here the copies stood a metre apart), which this Fray replays otherwise."""
    for c in data["encounter"]["combatants"][1:]:
        c["position"]["x"] -= 1.0
    return data


def test_a_save_says_which_rules_edition_made_it():
    assert json.loads(savefile.dumps(fight()))["rules"] == RULES_EDITION
    assert savefile.dump_history(fight())["rules"] == RULES_EDITION


@pytest.mark.parametrize("edition", [None, "2026-01-01"])
def test_another_editions_save_that_replays_otherwise_opens_as_it_stands(edition):
    data = played_differently(savefile.dump_history(fight()))
    if edition is None:
        del data["rules"]
    else:
        data["rules"] = edition
    for text in (json.dumps(data), savefile._compact(data)):  # an import, and the autosave's own text
        for verify in (True, False):
            h = savefile.loads(text, verify=verify)
            assert h.other_edition
            assert [c["position"]["x"] for c in asdict(h.present)["combatants"]] == \
                [c["position"]["x"] for c in data["encounter"]["combatants"]]
            assert not h.can_undo  # the history starts at the saved encounter
            h.do({"type": "advance"})  # and it plays on
            assert h.can_undo


def test_another_editions_save_that_still_replays_keeps_its_history():
    data = savefile.dump_history(fight())
    data["rules"] = "2026-01-01"
    h = savefile.loads(json.dumps(data))
    assert not h.other_edition and h.cursor == 3 and h.can_undo


def test_within_one_edition_a_replay_that_differs_is_still_refused():
    data = played_differently(savefile.dump_history(fight()))
    with pytest.raises(SaveFileError, match="edited or corrupted"):
        savefile.loads(json.dumps(data))


def test_another_editions_encounter_is_read_as_strictly_as_ever():
    data = savefile.dump_history(fight())
    del data["rules"]
    data["encounter"]["combatants"][0]["position"]["x"] = "far"
    with pytest.raises(SaveFileError, match="position.x"):
        savefile.loads(json.dumps(data))
    data = savefile.dump_history(fight())
    data["rules"] = 7
    with pytest.raises(SaveFileError, match="rules"):
        savefile.loads(json.dumps(data))


def test_the_autosaves_split_load_of_another_edition_opens_as_it_stands():
    """The page's autosave is read in two parts (``loads_split``, quickly parsed, checks deferred)."""
    data = played_differently(savefile.dump_history(fight()))
    data["rules"] = "2026-01-01"
    text = savefile._compact(data)
    cut = savefile.SPLIT_AT.search(text).end()
    h = savefile.loads_split(text[:cut], lambda: text[cut:], len(text))
    assert h.other_edition and not h.present_unchecked and not h.can_undo
