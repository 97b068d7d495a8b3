"""py/fray/games/strike_rank/rules-trace.md: one row per heading of the rule text, in order, spelled as in the text, each
with pytest node ids that exist."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / "py" / "fray" / "games" / "strike_rank" / "rules-trace.md"
RULE_TEXT = ROOT.parent / "shared" / "rules" / "003_168d2c1d87c828e0.txt"

HEADINGS = [
    'Combat',
    'Time',
    'Action Declaration & Resolution',
    'Casting Spells',
    'Attacking',
    'Combining Spells & Attacks',
    'Defending',
    'Movement',
    'Changing Actions',
    'Aborting Actions',
    'Fighting',
    'Multiple Actions',  # a heading at the start of its paragraph ("Multiple Actions: Characters with ...")
    'Engagement',
    'Disengaging',
    'Charging',
    'Mounted Charge & Lance',
    'Bracing for a Charge',
    'Charging Past',
    'Attacks & Defenses',
    'Fighting with Two Weapons',
    'Procedure',
    'Unarmed Parries',
    'Parrying Natural Attacks',
    'Parrying Impaling Weapons',
    'Parrying Missile Weapons',
    'Parrying with Hafted Weapons',
    'Shield Parries and Impales',
    'Knockback',
    'Ranged Combat',
    'Range',
    'Defending vs. Missiles',
    'Moving & Shooting',
    'Moving Mounts & Shooting',
    'Shooting Into Melee',
    'Fumble Table',
    'Damage',
    'Mounted Hit Locations',
    'Alternative Hit Locations',
    'Special Damage',
    'Pulling Blows',
    'Impale',
    'Injuries',
    'Damage Less than Location HP',
    'Damage Equal to Location HP',
    'Damage Equal to Double Location HP',
    'Damage Equal to Triple Location HP',
    'Death',
    'Resuscitation',
    'Healing',
    'First Aid',
    'Magical Healing',
    'Natural Healing',
    'Treatment',
    'Special Attacks',
    'Aimed Attack (½ skill)',
    'Attack Weapon (½ skill)',
    'Attack Object (full or ½ skill)',
    'Disarm (½ skill)',
    'Grappling',
    'Push',
    'Stun (½ skill)',
    'Circumstances',
    'Cover',
    'Hard Cover',
    'Soft Cover',
    'Shields as Cover',
    'Underwater Combat',
    'Other Actions',
]


def _rows():
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| Heading"):
            cells = line.split(" | ")
            rows.append((cells[0][2:], re.findall(r"`(tests/[^`]+)`", cells[-1])))
    return rows


def test_docs_table_lists_every_heading_in_order():
    """Combat: "every heading of the rule text" has a row, spelled exactly as in the text, in the text's order."""
    assert [h for h, _ in _rows()] == HEADINGS
    if RULE_TEXT.exists():  # the shared checkout sits beside the repository
        lines = RULE_TEXT.read_text(encoding="utf-8").splitlines()

        def at(h: str) -> int:  # a heading's own line, or the paragraph it opens ("Multiple Actions: ...")
            return next(i for i, line in enumerate(lines) if line == h or line.startswith(h + ": "))

        for h in HEADINGS:
            assert any(line == h or line.startswith(h + ": ") for line in lines), h
        assert [at(h) for h in HEADINGS] == sorted(at(h) for h in HEADINGS)


def test_docs_node_ids_exist():
    """Combat: each row names at least one pytest node id, and every one of them is a test that exists."""
    for heading, ids in _rows():
        assert ids, heading
        for node in ids:
            path, name = node.split("::")
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            names = {f.name for f in tree.body if isinstance(f, ast.FunctionDef)}
            assert name in names, node
