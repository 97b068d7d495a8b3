"""The core page's regions on the markup builder (issue 34: "an element builder where every string
child and attribute value is escaped and only explicit trusted markup passes"): the order strip, the
cards, the acting line, the log, the history list, the bestiary, the import question, the add-game
form, the banner and the encounter list, drawn for a fight whose names, notes, conditions and log
are hostile, have exactly the elements and attributes they have for a fight with plain names, and
the hostile text reads back as typed. The panel pieces (``web/widgets.py``) take text or Markup."""

from __future__ import annotations

import random
import sys
import types
from html.parser import HTMLParser
from typing import Any

import pytest

from fray.history import History
from fray.reducer import new_encounter
from fray.games import all_rulesets
from fray.web import bestiary_view, history_view, import_view
from fray.web import render as R
from fray.web import widgets as W
from fray.web.blocks import Block
from fray.web.html import Markup, h, html

EVIL = "\"' onmouseover=x() <img src=x onerror=alert(1)></script>"
EVIL_COND = '"><img src=x onerror=alert(2)></script>'
EVIL_NOTE = "</p><script>alert(3)</script><b onclick=\"x()\">&amp;"
PLAIN, PLAIN_COND, PLAIN_NOTE = "Plain name here", "Dazed", "A plain note"


class _Read(HTMLParser):
    """Each start tag with its attribute names; the text and attribute values as a browser reads them."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.shape: list[tuple[str, tuple[str, ...]]] = []
        self.said: list[str] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.shape.append((tag, tuple(sorted(a for a, _ in attrs))))
        self.said.extend(v for _, v in attrs if v)

    def handle_data(self, data):
        self.said.append(data)


def _combatant(rs: Any, name: str, note: str, k: int) -> dict[str, Any]:
    base = dict(rs.presets()[0]) if rs.presets() else {"stats": {"initiative": 12}}
    return {**base, "name": f"{name} {'AB'[k]}", "notes": note, "position": {"x": 3 * k, "y": 0}}


def _regions(rs: Any, name: str, cond: str, note: str) -> dict[str, str]:
    """Every core region and dialog drawn for a fight of two combatants named after ``name``."""
    hist = History(new_encounter(rs.id, name))
    for k in range(2):
        hist.do({"type": "add_combatant", "combatant": _combatant(rs, name, note, k)}, random.Random(k))
    hist.do({"type": "set_condition", "id": "c1", "condition": cond, "on": True})
    hist.do({"type": "note", "text": f"{name} A3 says {note}"})
    enc = hist.present
    view, order = rs.view(enc), rs.order_of_play(enc)
    status = {c.id: rs.status(enc, view, c.id) for c in enc.combatants}
    out = {
        "round bar": R.round_bar(enc, order, rs, view),
        "order": R.order_list(enc, order),
        "strip": R.order_strip(R.strip_entries(enc, order, status, "c1", rs.slot_label_is_phase, None), name),
        "acting": R.acting_line(enc.combatants[0], status["c1"], [name], name),
        "log": R.log_items(enc.log),
        "history": history_view.history_html(hist, 30, enc.name),
        "bestiary": bestiary_view.bestiary_html(
            [{"ruleset": rs.id, "combatant": {"name": name, "side": "foes", "stats": {"note": note}}}], rs,
            f"{name} was kept"),
        "edit form": R.combatant_form(rs, enc.combatants[0], []),
        "condition form": R.condition_form(enc.combatants[0], {f"{cond} too": note}, enc, rs),
    }
    for c in enc.combatants:
        for open_ in (True, False):
            out[f"card {c.id} {open_}"] = R.combatant_card(enc, c, rs, "", c.id == "c1", open_, status[c.id])
    for verdict in ("same", "ahead", "behind", "different"):
        out[f"import {verdict}"] = import_view.duplicate_dialog(name, f"{name}.fray.json", verdict, 2)
    return out


@pytest.mark.parametrize("rs", all_rulesets(), ids=lambda r: r.id)
def test_hostile_names_notes_and_conditions_make_no_element_in_the_core_regions(rs):
    """Every element and attribute of the regions is the code's: the hostile fight's regions have the
    same tags with the same attribute names as the plain fight's, and its text reads back whole."""
    evil = _regions(rs, EVIL, EVIL_COND, EVIL_NOTE)
    plain = _regions(rs, PLAIN, PLAIN_COND, PLAIN_NOTE)
    for where, markup in evil.items():
        assert isinstance(markup, (Markup, Block)), f"{where} is not built as markup"
        read = _Read(markup)
        assert read.shape == _Read(plain[where]).shape, f"{where}: an element or attribute came from the text"
        if where not in ("round bar", "order"):  # at setup, nobody is named there
            assert any(EVIL in s for s in read.said), f"{where}: the hostile name does not read back as typed"
    said = " ".join(_Read(evil["card c1 True"]).said + _Read(evil["log"]).said)
    assert EVIL_NOTE in said and EVIL_COND in said


@pytest.fixture
def games_view_page(monkeypatch):
    """``js`` and ``pyodide.ffi`` as empty modules, so the page's modules import in CPython."""
    from test_conformance import empty_page

    had = set(sys.modules)
    for name, m in empty_page(lambda name: None).items():
        monkeypatch.setitem(sys.modules, name, m)
    yield
    for m in set(sys.modules) - had:
        sys.modules.pop(m, None)


class _El:
    innerHTML = ""
    hidden = True
    value = ""


def test_the_banner_and_the_encounter_list_say_hostile_text_as_text(games_view_page, monkeypatch):
    """An import's error (the banner: a file's text in it) and a kept encounter's name in the list of
    encounters are text: no element comes from them."""
    from fray.web import messages as app_mod
    from fray.web import games_view, painter

    shown = _El()
    monkeypatch.setattr(app_mod, "by_id", lambda _id: shown)
    app_mod.Messages.banner(None, f"The file {EVIL} could not be read", [(EVIL, "retry")])  # type: ignore[arg-type]
    read = _Read(shown.innerHTML)
    assert [t for t, _ in read.shape] == ["p", "button", "button"] and any(EVIL in s for s in read.said)

    class _Painter:
        lib = types.SimpleNamespace(cached=[{"key": "k1", "name": EVIL}, {"key": EVIL, "name": "x"}])
        key, enc, _painted = "k2", types.SimpleNamespace(name=EVIL_NOTE), {}

    listed = _El()
    monkeypatch.setattr(painter, "by_id", lambda _id: listed)
    painter.Painter.paint_select(_Painter())  # type: ignore[arg-type]
    read = _Read(listed.innerHTML)
    assert [t for t, _ in read.shape] == ["option"] * 3 and EVIL in read.said and EVIL_NOTE in read.said
    # what adding a game said (a file's name, its error) is text in its form
    added = _Read(games_view.add_game_html(f"{EVIL} is not a game"))
    assert added.shape == _Read(games_view.add_game_html("x")).shape and f"{EVIL} is not a game" in added.said


def test_a_panel_piece_takes_text_escaped_and_markup_as_it_is():
    """``label``/``summary`` arguments: text is escaped, Markup passes once; a summary with markup
    on purpose must be Markup (a plain str of it now shows as text)."""
    assert _Read(W.fold_summary(EVIL)).shape == [("summary", ())]
    assert W.fold_summary(h("strong", None, EVIL)).startswith("<summary><strong>&quot;")
    assert _Read(W.lazy_fold("f", "k", EVIL, lambda: "", True, True)).shape == [
        ("details", ("class", "data-fold", "open")), ("summary", ("id",))]
    for piece in (W.act_button(EVIL, "x", aria=EVIL, ref=EVIL), W.check("f", "n", EVIL, value=EVIL),
                  W.field("f", EVIL, EVIL, W.text_input("f", EVIL, EVIL, placeholder=EVIL), hint=EVIL),
                  W.select("f", EVIL, [(EVIL, EVIL)], EVIL), W.err_slot(EVIL), W.general_err(EVIL),
                  R.button(EVIL, "x", title=EVIL, id=EVIL)):
        assert isinstance(piece, Markup)
        assert not [t for t, _ in _Read(piece).shape if t in ("img", "script")]
        assert any(EVIL in s for s in _Read(piece).said)
    bold = h("b", None, "Ready")
    assert W.act_button(bold, "x") == '<button type="button" data-act="x"><b>Ready</b></button>'
    assert R.button(bold, "x").endswith("><b>Ready</b></button>")


def test_a_panel_piece_is_plain_markup_and_adding_a_plain_str_to_it_escapes_the_str():
    """Every page module is on the builder, so nothing glues its own markup to a piece with ``+`` any
    more: a piece is plain Markup, and a plain str added to it is text (issue 34: "only explicit
    trusted markup passes")."""
    for piece in (W.fold_open("f", "k", True), W.err_slot("x"), W.act_button("Go", "x"), R.button("Go", "x")):
        assert type(piece) is Markup
    assert W.fold_open("f", "k", True) + "<p>body</p>" == (
        '<details class="f" data-fold="k" open>&lt;p&gt;body&lt;/p&gt;')
    assert '<div class="row">' + W.err_slot("x") == (
        '&lt;div class=&quot;row&quot;&gt;<p class="field-error" data-error-for="x"></p>')


def test_what_a_piece_takes_as_markup_passes_only_as_markup():
    """A field's control, a drop-down's option groups, a fold-out's further attributes and body, a
    card's panel part: Markup (or a Block) passes as it is; a plain str there is text, escaped, never
    markup taken on trust."""
    box = W.text_input("f", "n")
    assert W.field("f", "n", "N", box).count("<input") == 1
    assert "<input" not in W.field("f", "n", "N", str(box)) and "&lt;input" in W.field("f", "n", "N", str(box))
    group = h("optgroup", {"label": "More"}, h("option", {"value": "x"}, "X"))
    assert "<optgroup" in W.select("f", "n", [("a", "A")], None, group)
    assert "<optgroup" not in W.select("f", "n", [("a", "A")], None, str(group))
    assert W.fold_open("f", "k", False, attrs=R.attrs(data_id="c1")) == '<details class="f" data-fold="k" data-id="c1">'
    assert ' data-id="c1"' not in W.fold_open("f", "k", False, attrs=str(R.attrs(data_id="c1")))
    body = h("p", None, "inside")
    assert W.lazy_fold("f", "k", "Sum", lambda: body, True, True) == (
        '<details class="f" data-fold="k" open><summary id="fold-k">Sum</summary><p>inside</p></details>')
    assert "&lt;p&gt;inside" in W.lazy_fold("f", "k", "Sum", lambda: str(body), True, True)
    rs = all_rulesets()[0]
    hist = History(new_encounter(rs.id, "Ford"))
    hist.do({"type": "add_combatant", "combatant": _combatant(rs, "Vasana", "", 0)}, random.Random(0))
    enc = hist.present
    c = enc.combatants[0]
    assert "<em>x</em>" in R.combatant_card(enc, c, rs, h("em", None, "x"))
    assert "<em>" not in R.combatant_card(enc, c, rs, "<em>x</em>")
    assert "&lt;em&gt;x&lt;/em&gt;" in R.combatant_card(enc, c, rs, "<em>x</em>")


def test_a_block_whose_open_tag_is_markup_keeps_its_children_as_markup():
    """``Block(html('<ul class="{}">', c), kids, "</ul>")`` (the builder's way to keep a region
    patchable): its children are markup, not escaped by the open tag's ``+``."""
    b = Block(html('<ul class="{}">', EVIL), [h("li", None, "a"), h("li", None, "b")], "</ul>")
    assert b.endswith("<li>a</li><li>b</li></ul>") and b.children == ("<li>a</li>", "<li>b</li>")
