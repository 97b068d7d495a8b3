"""py/fray/games/range_band/rules-trace.md traces every heading of the rule text, in its order (with FACTS.md's "Holding Breath"
after Underwater Combat), to tests that exist."""

from __future__ import annotations

import pathlib
import re

import pytest

from shared_checks import check_node_ids

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / "py" / "fray" / "games" / "range_band" / "rules-trace.md"
RULES = ROOT.parent / "shared" / "rules" / "000_da34f120076854a0.txt"
if not RULES.exists():
    RULES = pathlib.Path("/work/shared/rules/000_da34f120076854a0.txt")
HERE = pathlib.Path(__file__).resolve().parent
PREFIX = {"R": "test_rb_rules.py", "F": "test_rb_flight.py", "V": "test_rb_sight.py", "P": "test_rb_property.py",
          "S": "test_rb_scenarios.py", "M": "test_rb_map_areas.py", "L": "test_rb_loads_again.py",
          "E": "test_rb_engaged.py"}


def headings(text: str) -> list[str]:
    """A heading starts a line (no indent) and is followed by a wide gap or stands alone and short."""
    out = []
    for ln in text.splitlines():
        if not ln.strip() or ln[0].isspace():
            continue
        m = re.match(r"^(\S.*?)\s{3,}\S", ln)
        if m:
            out.append(m.group(1).strip())
        elif len(ln.split()) <= 4 and not re.search(r"[.:;,]$", ln.strip()):
            out.append(ln.strip())
    i = out.index("Underwater Combat")
    return out[:i + 1] + ["Holding Breath"] + out[i + 1:]


def doc_rows() -> list[tuple[str, str]]:
    section = DOC.read_text(encoding="utf-8").split("## Every heading of the rule text")[1].split("\n## ")[0]
    rows = []
    for ln in section.splitlines():
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if ln.startswith("|") and len(cells) == 3 and cells[0] not in ("heading (as in the text)", "---"):
            rows.append((cells[0], cells[2]))
    return rows


@pytest.mark.skipif(not RULES.exists(), reason="the shared rule text is not beside the checkout")
def test_every_heading_in_order():
    want = headings(RULES.read_text(encoding="utf-8"))
    assert len(want) == 23  # 22 headings of the text + Holding Breath
    assert [h for h, _ in doc_rows()] == want


def test_every_node_id_exists():
    check_node_ids(DOC.read_text(encoding="utf-8"),
                   {k: (HERE / v).read_text(encoding="utf-8") for k, v in PREFIX.items()}, doc_rows())


def test_every_rule_test_is_traced():
    doc = DOC.read_text(encoding="utf-8")
    missing = []
    for prefix in ("R", "F", "V", "L", "E"):  # the rule tests, split by what a reader looks for
        names = re.findall(r"^def (test_\w+)\(", (HERE / PREFIX[prefix]).read_text(encoding="utf-8"), re.M)
        missing += [f"{prefix}::{n}" for n in names if f"{prefix}::{n}`" not in doc and f"{prefix}::{n}[" not in doc]
    assert not missing, missing


def test_scenario_ids_exist():
    doc = DOC.read_text(encoding="utf-8")
    folder = ROOT / "tests" / "games" / "range_band" / "scenarios"
    for stem in re.findall(r"S::test_scenario\[(\w+)\]", doc):
        assert (folder / f"{stem}.json").exists(), stem
