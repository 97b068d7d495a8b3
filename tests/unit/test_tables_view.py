"""The Tables dialog as rows and cells (issue 10: "the table editor is raw JSON: make tables
editable as forms (rows and cells), with the JSON still available").

Contracts: for every table of every ruleset, the grid form read back unchanged is the same table
(nothing is lost or retyped: a whole number stays a whole number, a list stays a list); a cell
typed wrong is named at its row and column; "remove" drops a row; the JSON is still offered;
names and texts are escaped.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from fray.errors import InvalidAction
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.web import tables_view as T


class Form(HTMLParser):
    """The values a browser would submit from the grid form of one table."""

    def __init__(self, tid: str):
        super().__init__()
        self.tid, self.inside, self.values, self.select, self.forms = tid, False, {}, None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("data-form") == "table-grid" and a.get("data-table") == self.tid:
            self.inside = True
            self.forms += 1
        if not self.inside:
            return
        if tag == "input" and a.get("type") != "checkbox":
            self.values[a["name"]] = a.get("value", "")
        if tag == "select":
            self.select = a["name"]
        if tag == "option" and self.select and "selected" in a:
            self.values[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        if tag == "select":
            self.select = None


def grid_values(html: str, tid: str) -> dict:
    f = Form(tid)
    f.feed(html)
    assert f.forms == 1
    return f.values


CASES = [(rid, tid) for rid in ("strike-rank", "tactical-round", "range-band") for tid in get_ruleset(rid).tables]


@pytest.mark.parametrize("rid, tid", CASES)
def test_every_table_reads_back_from_its_grid_unchanged(rid, tid):
    rs = get_ruleset(rid)
    table = rs.tables[tid]
    html = T.tables_form(rs, new_encounter(rid))
    back = T.table_from_grid(table, table, grid_values(html, tid))
    assert back == table
    rs.check_table(tid, back)  # and the engine takes it as it is


def test_a_cell_typed_wrong_is_named_at_its_row_and_column():
    rs = get_ruleset("strike-rank")
    table = rs.tables["dex_sr"]
    values = grid_values(T.tables_form(rs, new_encounter("strike-rank")), "dex_sr")
    values["r2.sr"] = "three"
    with pytest.raises(InvalidAction) as e:
        T.table_from_grid(table, table, values)
    assert e.value.field == "value.entries.2.sr" and "whole number, not 'three'" in str(e.value)


def test_remove_drops_a_row_and_edits_land_where_typed():
    rs = get_ruleset("strike-rank")
    table = rs.tables["dex_sr"]
    values = grid_values(T.tables_form(rs, new_encounter("strike-rank")), "dex_sr")
    values["r0.__drop"] = "yes"
    values["r1.sr"] = "9"
    back = T.table_from_grid(table, table, values)
    assert len(back["entries"]) == len(table["entries"]) - 1
    assert back["entries"][0] == {**table["entries"][1], "sr": 9}


def test_a_saved_grid_edit_is_the_encounters_table_and_the_engine_checks_it():
    rs = get_ruleset("tactical-round")
    enc = new_encounter("tactical-round")
    table = rs.tables["cover"]
    values = grid_values(T.tables_form(rs, enc), "cover")
    values["r0.bonus"] = "25"
    back = T.table_from_grid(table, table, values)
    enc, _ = apply(enc, {"type": "set_table", "table": "cover", "value": back})
    assert enc.tables["cover"]["entries"][0]["bonus"] == 25
    html = T.tables_form(rs, enc, saved="cover")
    assert "(edited)" in html and grid_values(html, "cover")["r0.bonus"] == "25"


def test_yes_no_cells_and_json_cells_keep_their_kind():
    rs = get_ruleset("strike-rank")
    table = rs.tables["attack_vs_parry"]
    values = grid_values(T.tables_form(rs, new_encounter("strike-rank")), "attack_vs_parry")
    flags = [k for k, kind in T.column_kinds(table, table).items() if kind == "yes/no"]
    assert flags, "the parry matrix has yes/no columns"
    values[f"r0.{flags[0]}"] = "maybe"
    with pytest.raises(InvalidAction) as e:
        T.table_from_grid(table, table, values)
    assert e.value.field == f"value.entries.0.{flags[0]}" and "yes or no" in str(e.value)


def test_a_table_with_no_rows_says_to_use_the_json():
    rs = get_ruleset("tactical-round")
    html = T.tables_form(rs, new_encounter("tactical-round"))
    part = html[html.index('data-table="attack_results"'):]
    part = part[:part.index("</details></details>")]
    assert "no rows yet" in part and 'data-form="table"' in part


def test_the_json_is_still_there_and_sources_read_as_a_gm_would():
    rs = get_ruleset("range-band")
    html = T.tables_form(rs, new_encounter("range-band"))
    assert html.count('data-form="table"') == len(rs.tables) and html.count('data-form="table-grid"') == len(rs.tables)
    import re

    sources = re.findall(r'<p class="hint">From: (.*?)</p>', html)
    assert len(sources) == len(rs.tables)
    assert not [x for x in sources if "FACTS.md" in x]  # Fray's own notes file means nothing at the table
    assert any("public material" in x for x in sources)
    assert T.source_words("the chart is not public (FACTS.md): our default") == "the chart is not public: our default"
    # a game's section of the notes, whichever game: no list of games here to keep in step
    assert T.source_words("FACTS.md (duel): the round") == "public material: the round"


def test_names_and_texts_are_escaped_in_the_grid():
    rs = get_ruleset("tactical-round")
    enc = new_encounter("tactical-round")
    table = dict(rs.tables["cover"])
    table["entries"] = [{**table["entries"][0], "label": "<img src=x onerror=alert(1)>"}] + table["entries"][1:]
    enc, _ = apply(enc, {"type": "set_table", "table": "cover", "value": table})
    html = T.tables_form(rs, enc)
    assert "<img" not in html and "&lt;img" in html


@pytest.mark.parametrize("typed", ["nan", "inf", "-inf", "1e999"])
def test_a_number_cell_that_is_not_finite_is_named_at_its_cell(typed):
    rs = get_ruleset("strike-rank")
    table = rs.tables["dex_sr"]
    values = grid_values(T.tables_form(rs, new_encounter("strike-rank")), "dex_sr")
    values["r1.max"] = typed
    with pytest.raises(InvalidAction) as e:
        T.table_from_grid(table, table, values)
    assert e.value.field == "value.entries.1.max"


def test_the_engines_row_numbers_are_mapped_to_the_rows_the_gm_sees():
    """A row removed above: the engine counts the kept rows, the error lands at the form's row."""
    values = {"r0.__row": "1", "r0.__drop": "yes", "r1.__row": "1", "r2.__row": "1", "r2.__drop": "yes",
              "r3.__row": "1"}
    to_form = T.engine_field_to_form(values)
    assert to_form("value.entries.0") == "value.entries.1"
    assert to_form("value.entries.1.sr") == "value.entries.3.sr"
    assert to_form("value.note") == "value.note"
