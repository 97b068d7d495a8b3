"""``Encounter.index_of`` (and ``get``, ``peek_at``) remembers where each id stood in the last few
combatant lists it read whole (issue 11: a 200-combatant fight looked each combatant up by a scan
of all of them, several times a render). Whatever happens to a list between two lookups, the answer
must be the plain scan's: these tests edit lists in every way the engine does (append, insert,
remove, move, replace the list, give an id, draft copies) and compare each lookup with the scan.
Ids are unique in an encounter (the reducer gives each new combatant the next id; a save that uses
one twice is refused: test_savefile), and the edits here keep them so.
"""

from __future__ import annotations

import random

from fray import model, sharing
from fray.model import Combatant, Encounter


def scan(enc: Encounter, cid) -> int:
    """The lookup as it was before the memo: the first combatant with that id, or -1."""
    for i, c in enumerate(list.__iter__(enc.combatants)):
        if c.id == cid:
            return i
    return -1


def fighter(cid: str) -> Combatant:
    return Combatant(id=cid, name=cid.upper())


def check_all(enc: Encounter, ids) -> None:
    for cid in ids:
        want = scan(enc, cid)
        assert enc.index_of(cid) == want, cid
        got = enc.peek_at(cid)
        assert (got is None) if want < 0 else (got is list.__getitem__(enc.combatants, want)), cid
        assert (enc.get(cid) is None) == (want < 0), cid


def test_every_edit_of_the_list_between_lookups_gives_the_plain_scans_answer():
    rnd = random.Random(11)
    encs = [Encounter(ruleset="freeform", combatants=[fighter(f"c{i}") for i in range(12)]) for _ in range(6)]
    universe = [f"c{i}" for i in range(12)] + [f"n{i}" for i in range(100, 130)] + ["", "nobody"]
    fresh = iter(range(100, 100000))
    gone: list[Combatant] = []  # removed ones, put back later (an undo, a move between lists)
    for step in range(3000):
        enc = rnd.choice(encs)  # more encounters than the memo keeps: evictions too
        lst = enc.combatants
        move = rnd.randrange(8)
        ids = {c.id for c in lst}
        back = [c for c in gone if c.id not in ids]
        if move == 0:
            lst.append(fighter(f"n{next(fresh)}"))
        elif move == 1 and back:
            c = rnd.choice(back)
            lst.insert(rnd.randrange(len(lst) + 1), fighter(c.id))
        elif move == 2 and lst:
            gone.append(lst.pop(rnd.randrange(len(lst))))
        elif move == 3 and len(lst) > 1:
            i, j = rnd.randrange(len(lst)), rnd.randrange(len(lst))
            lst[i], lst[j] = lst[j], lst[i]
        elif move == 4:
            enc.combatants = list(reversed(lst))  # a new list in its place
        elif move == 5 and lst:
            c = rnd.choice(lst)
            gone.append(fighter(c.id))
            c.id = f"n{next(fresh)}"  # an id given in place (the reducer's duplicate: a new twin's)
        elif move == 6:
            rnd.shuffle(lst)
        check_all(enc, rnd.sample(universe, 6) + [c.id for c in lst[:3]])
    assert len(model._WHERE) <= model._WHERE_KEEP


def test_a_draft_finds_its_combatants_without_copying_the_ones_it_only_looks_up():
    enc = Encounter(ruleset="freeform", combatants=[fighter(f"c{i}") for i in range(30)])
    d, copies = sharing.draft(enc)
    assert d.index_of("c17") == 17 and d.peek_at("c17") is enc.combatants[17]  # looked at: the original
    c = d.get("c17")  # to edit: the draft's copy, found at the same place
    assert c is not enc.combatants[17] and c.id == "c17" and d.index_of("c17") == 17
    d.combatants.insert(0, fighter("new"))
    assert d.index_of("c17") == 18 and d.index_of("new") == 0 and d.peek_at("c17") is c
    assert enc.index_of("c17") == 17 and enc.peek_at("c17") is enc.combatants[17]


def test_an_id_that_is_not_text_matches_nothing_and_is_not_remembered():
    enc = Encounter(ruleset="freeform", combatants=[fighter("c1"), fighter("c2")])
    for bad in (["c1"], {"id": "c1"}, 1, None, 2.5):
        assert enc.index_of(bad) == -1 and enc.get(bad) is None and enc.peek_at(bad) is None
    assert enc.index_of("c2") == 1
