"""py/fray/games/tactical_round/rules-trace.md traces every heading of the rule text, in its order, to tests that exist."""

from __future__ import annotations

import pathlib
import re

import pytest

from shared_checks import check_node_ids

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / "py" / "fray" / "games" / "tactical_round" / "rules-trace.md"
RULES = ROOT.parent / "shared" / "rules" / "004_b263a66d4cd97a7b.txt"
HERE = pathlib.Path(__file__).resolve().parent
PREFIX = {"R": "test_tr_rules.py", "P": "test_tr_property.py", "S": "test_tr_scenarios.py", "F": "test_tr_flow.py"}


def headings(text: str) -> list[str]:
    # a heading is a short line with no sentence punctuation and no bullet
    return [ln.strip() for ln in text.splitlines()
            if ln.strip() and not ln.startswith("•") and len(ln.split()) <= 4 and not re.search(r"[.:,]$", ln.strip())]


def doc_rows() -> list[tuple[str, str]]:
    section = DOC.read_text(encoding="utf-8").split("## Every heading of the rule text")[1].split("\n## ")[0]
    rows = []
    for ln in section.splitlines():
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("heading (as in the text)", "---"):
            rows.append((cells[0], cells[2]))
    return rows


@pytest.mark.skipif(not RULES.exists(), reason="the shared rule text is not beside the checkout")
def test_every_heading_in_order():
    assert [h for h, _ in doc_rows()] == headings(RULES.read_text(encoding="utf-8"))


def test_every_node_id_exists():
    check_node_ids(DOC.read_text(encoding="utf-8"),
                   {k: (HERE / v).read_text(encoding="utf-8") for k, v in PREFIX.items()}, doc_rows())
