"""Dice typed but not rolled, kept across a reload (web/drafts.py): only dice fields, and only for the
encounter and the point of the fight they were typed at."""

from __future__ import annotations

from fray.web.drafts import kept_text, matching, pick

TYPED = {
    ("tr-attack", "", "", "", "", "", "", 0): {"id": "c3", "rolls.attack": "98 40", "distance": "3", "flanking": True},
    ("tr-result", "", "A1", "", "", "", "", 0): {"hits": "12", "rolls.critical": "  "},
    ("sr-declare", "c2", "", "", "", "", "", 0): {"rolls.attack": "34", "rolls.damage": "7"},
}


def test_only_typed_dice_are_kept():
    assert pick(TYPED) == [[["tr-attack", "", "", "", "", "", "", 0], {"rolls.attack": "98 40"}],
                           [["sr-declare", "c2", "", "", "", "", "", 0], {"rolls.attack": "34", "rolls.damage": "7"}]]
    assert kept_text("e1", 4, 4, {("x",): {"hits": "3"}}) is None  # nothing typed: nothing kept


def test_the_dice_come_back_only_to_the_same_encounter_at_the_same_point():
    """Dice typed for an attack that has since been made, undone, or changed by another tab are not
    offered for another one: the encounter's key, the history's cursor and its length must all agree."""
    text = kept_text("e1", 4, 5, TYPED)
    back = matching(text, "e1", 4, 5)
    assert back == {("tr-attack", "", "", "", "", "", "", 0): {"rolls.attack": "98 40"},
                    ("sr-declare", "c2", "", "", "", "", "", 0): {"rolls.attack": "34", "rolls.damage": "7"}}
    assert matching(text, "e2", 4, 5) == {}
    assert matching(text, "e1", 5, 5) == {}  # redone, or a move made since
    assert matching(text, "e1", 4, 6) == {}
    for broken in (None, "", "{", "[]", '{"key": "e1", "cursor": 4, "actions": 5, "forms": {}}'):
        assert matching(broken, "e1", 4, 5) == {}
    # a kept item that is not a dice field is never put back (a hand-edited or foreign entry)
    odd = '{"key": "e1", "cursor": 0, "actions": 0, "forms": [[["f"], {"name": "x", "rolls.a": "3"}], [1, 2]]}'
    assert matching(odd, "e1", 0, 0) == {("f",): {"rolls.a": "3"}}
