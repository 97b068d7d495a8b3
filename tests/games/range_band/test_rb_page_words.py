"""What the GM reads on the range-band page names a table the way the Tables dialog does, by its
title ("Default roll mechanic (when Fray rolls)"), never by the id the engine keys it by
("table core_roll"): the brief's "no internal id on screen", as tests/unit/test_gm_text.py scans
the log and the views for combatant ids."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from fray.errors import RuleViolation
from fray.games import get_ruleset
from fray.games.range_band.web.ui import RangeBandUi
from fray.history import History
from fray.reducer import new_encounter
from fray.games.range_band.preview import preview
from fray.games.range_band.web.panel import card_html, panel_html, preview_html

RS = get_ruleset("range-band")


class _Read(HTMLParser):
    """The text a GM reads or hears (a screen reader): text nodes and the labels, titles and placeholders."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.texts += [v for k, v in attrs if k in ("aria-label", "title", "placeholder") and v]

    def handle_data(self, data):
        if data.strip():
            self.texts.append(data)


def read(markup: str) -> str:
    p = _Read()
    p.feed(markup)
    return " ".join(p.texts)


def table_ids_in(text: str) -> list[str]:
    """A table named by its id: ``table <id>`` for any table, or an id that is no word (``core_roll``)."""
    ids = sorted(RS.tables)
    said = set(re.findall(r"\btables? (" + "|".join(map(re.escape, ids)) + r")\b", text))
    said |= {i for i in ids if "_" in i and re.search(rf"\b{re.escape(i)}\b", text)}
    return sorted(said)


def test_the_scan_finds_a_table_named_by_its_id():
    assert table_ids_in("Fray's rolls use the default mechanic of table core_roll, assumed") == ["core_roll"]
    assert table_ids_in("What each kind does: table obscuring (Lack of Sight)") == ["obscuring"]
    assert table_ids_in("see visible_range") == ["visible_range"]
    assert table_ids_in("Default roll mechanic (when Fray rolls); the range bands of the map") == []


def _fight() -> History:
    h = History(new_encounter("range-band", "Ford"))
    for name, side, x in (("Human scout", "party", 0), ("Winged flyer", "foes", 6)):
        p = dict(next(p for p in RS.presets() if p["name"] == name))
        h.do({"type": "add_combatant", "combatant": {**p, "side": side, "position": {"x": x, "y": 0, "alt": 0}}})
    h.do({"type": "rb.area", "kind": "smoke", "x": 6, "y": 0, "radius": "short", "alt": 0})
    for cid, v in (("c1", 20), ("c2", 10)):
        h.do({"type": "rb.turn_order", "id": cid, "value": v})
    return h


def test_the_page_names_tables_by_their_titles_never_their_ids():
    """The zone and areas forms (setup), the movement roll waiting to be settled with its hint about Fray's
    rolls, the live preview and every card: no "table core_roll", "table obscuring" or "table bands"."""
    h = _fight()
    pages = []

    def draw():
        enc = h.present
        view = RS.view(enc)
        pages.append(panel_html(view, RangeBandUi(zone_open=True, areas_open=True)))
        pages.extend(card_html(view, c.id) for c in enc.combatants)
        if view.get("current"):
            p = preview(enc, {"type": "rb.move", "id": view["current"], "x": 4, "y": 0, "alt": 0})
            pages.append(preview_html(p, RS.table(enc, "core_roll"), {c.id: c.name for c in enc.combatants}))

    draw()
    h.do({"type": "advance"})
    h.do({"type": "rb.move", "id": "c1", "x": 4, "y": 0, "alt": 0})
    assert RS.view(h.present)["pending"], "a movement roll to settle"
    draw()
    text = " ".join(read(p) for p in pages)
    assert "Fray's rolls use" in text and "Lack of Sight" in text, "the hints were drawn"
    assert table_ids_in(text) == []
    # said in the Tables dialog's words: each table by the start of its own title, as the dialog lists it
    for tid, head in (("core_roll", "Default roll mechanic"), ("obscuring", "Obscuring areas"),
                      ("bands", "Range bands in metres")):
        assert RS.tables[tid]["title"].startswith(head) and f"{head}, in Tables" in text, tid


def test_a_refusal_for_too_many_actions_names_the_table_by_its_title():
    """The refusal shown beside the Other action form when a turn's major actions are spent said
    "(at most 1; table turn_actions)"."""
    h = _fight()
    h.do({"type": "advance"})
    while not (h.present.phase == "actions" and RS.view(h.present).get("current") == "c1"):
        h.do({"type": "advance"})
    h.do({"type": "rb.act", "id": "c1", "size": "major", "what": "draw a weapon"})
    with pytest.raises(RuleViolation) as e:
        h.do({"type": "rb.act", "id": "c1", "size": "major", "what": "climb"})
    said = str(e.value)
    assert "has already used 1 major action this turn" in said
    assert table_ids_in(said) == [] and f"{RS.tables['turn_actions']['title']}, in Tables" in said
