"""An engine error put in the form's own words (issue 33, §4).

The engine names a field by its dotted path ("combatant.weapons.0.type", "combatant.position.x")
and often leaves the field out of its message ("is longer than 60 characters"), because the page
shows the message beside the field. Beside the field is not always enough: a message about one
weapon lands at the box that holds them all, and a message with no subject reads oddly on its own.
These turn a path and a message into what the GM reads: "Weapon 1: type must be one of …",
"Name is longer than 60 characters". Pure (no ``js``), so the unit tests call them.
"""

from __future__ import annotations

import re

# a list's field name → what one of its items is called on screen
_ONE_OF = {
    "weapons": "Weapon", "spells": "Spell", "locations": "Location", "body": "Hit location",
    "armour": "Armour", "mounts": "Mount", "statuses": "Status", "traits": "Trait",
    "skills": "Skill", "items": "Item", "entries": "Row", "rows": "Row", "columns": "Column",
}
# path pieces the GM never sees as such
_DROP = ("changes", "combatant", "action", "extra")
_WORD = {"hp": "HP", "sr": "SR", "ap": "AP", "alt": "altitude", "x": "east (x)", "y": "north (y)",
         "dm": "damage modifier", "enc": "ENC", "spd": "SPD", "fspd": "Flying SPD"}


def _is_list(key: str) -> bool:
    """Is ``key`` a list whose items the path numbers ("weapons.0")? A stat may itself be named by
    a number ("stats.9": the free-form stat "9"), so "stats" is not one."""
    return key in _ONE_OF or (key.endswith("s") and key not in ("stats", "rolls", "changes"))


def _word(piece: str) -> str:
    w = _WORD.get(piece.lower())
    if w:
        return w
    return piece if piece.isupper() else piece.replace("_", " ")


def path_words(path: str) -> str:
    """A field's dotted path as the form would name it: "combatant.weapons.0.type" → "Weapon 1:
    type"; "position.x" → "Position east (x)"; "" → ""."""
    pieces = [p for p in (path or "").split(".") if p]
    while pieces and pieces[0] in _DROP:
        pieces = pieces[1:]
    out: list[str] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        if nxt is not None and nxt.isdigit() and _is_list(p):
            one = _ONE_OF.get(p) or (_word(p)[:-1] if p.endswith("s") else _word(p))
            out.append(f"{one[:1].upper()}{one[1:]} {int(nxt) + 1}")
            i += 2
            continue
        out.append(_word(p))
        i += 1
    if not out:
        return ""
    head, rest = out[0], out[1:]
    if re.search(r"\d$", head) and rest:
        # "Weapon 1: type", "Weapon 2: hit location 3 AP"
        return f"{head}: {' '.join(rest)}"
    text = " ".join([head] + rest)
    return text[:1].upper() + text[1:]


# the verbs the engine's messages without a subject start with ("must be …", "is longer …")
_VERBS = ("must", "is", "are", "contains", "has", "needs", "cannot", "can", "should", "may")


def _has_subject(message: str) -> bool:
    """Does the message name what it is about? The engine's messages without a subject start
    with a verb ("must be …", "is longer …", "contains …", "has no …"); an instruction ("type
    the dice …") or a sentence of its own is left as it is."""
    first = message.split(" ", 1)[0]
    return first not in _VERBS


def field_message(path: str, message: str, label: str = "", shown_at: str = "") -> str:
    """What the GM reads beside a field. ``path``: the field the engine named; ``shown_at``: the
    path of the slot the message lands in (``path`` itself, or a box that holds it); ``label``:
    that slot's label on screen.

    * at its own field: the message, with the label as its subject when it has none
      ("Name must not be empty");
    * inside a box of many fields (a weapon in the weapons box, a field in the JSON box): the
      part of the path below the box, in words ("Weapon 1: type must be one of …")."""
    message = message.strip()
    if not shown_at or shown_at == path:
        subject = label.strip().rstrip(":")
        if subject and not _has_subject(message) and not message.lower().startswith(subject.lower()):
            return f"{subject} {message}"
        return message
    below = path[len(shown_at) + 1:] if path.startswith(shown_at + ".") else path
    if below[:1].isdigit() and _is_list(shown_at.rpartition(".")[2]):
        below = f"{shown_at.rpartition('.')[2]}.{below}"  # "0.type" in the weapons box: Weapon 1
    # inside the ruleset's JSON box the path is the combatant's own ("combatant.weapons.0.type")
    words = path_words(below if not shown_at.endswith(".extra") else path)
    if not words:
        return message
    if _has_subject(message):
        head, _, last = words.rpartition(": ")
        if head and message.lower().startswith(last.lower() + " "):
            return f"{head}: {message}"  # "Weapon 3: Skill must be …", not "…: skill: Skill must be"
        return f"{words}: {message}"
    return f"{words} {message}"


def rule_message(text: str, rule: str) -> str:
    """A refusal by the rules as the GM reads it: the heading of the rule text it rests on, said as a
    pointer into the rules ("… (see “Combat Actions” in the rules)"), not the engine's "(rule: …)"
    (issue 33: "(rule: Tactical Round Sequence)" read as developer text)."""
    head = text.removesuffix(f" (rule: {rule})")
    return f"{head} (see “{rule}” in the rules)" if rule else head
