"""What the page's Python asks of the page (web/dom.py), issue 36: each call from Python that
returns an element makes a new proxy of it, whose making Pyodide pays in JavaScript garbage. The
shell's own regions and buttons, which no render replaces, are looked up once."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_conformance import empty_page  # noqa: E402


class Doc:
    def __init__(self) -> None:
        self.asked: list[str] = []

    def getElementById(self, i: str):
        self.asked.append(i)
        return None if i == "gone" else ("element", i)


@pytest.fixture
def dom(monkeypatch):
    doc = Doc()
    page = empty_page(lambda name: doc if name == "document" else None)
    had = set(sys.modules)
    for name, m in page.items():
        monkeypatch.setitem(sys.modules, name, m)
    monkeypatch.delitem(sys.modules, "fray.web.dom", raising=False)
    module = importlib.import_module("fray.web.dom")  # afresh, against this page

    yield module, doc
    for m in set(sys.modules) - had:
        sys.modules.pop(m, None)


def test_a_region_of_the_shell_is_looked_up_once_for_every_render(dom):
    module, doc = dom
    for _ in range(5):  # five renders' worth
        for region in ("round-bar", "order-strip", "combatants", "log", "btn-undo", "map-info"):
            assert module.by_id(region) == ("element", region)
    assert sorted(doc.asked) == sorted(["round-bar", "order-strip", "combatants", "log", "btn-undo", "map-info"])


def test_an_element_a_render_may_replace_is_looked_up_every_time(dom):
    """A form or a map part drawn inside a region is new after each render that rewrote it."""
    module, doc = dom
    for _ in range(3):
        assert module.by_id("note-text") == ("element", "note-text")
        assert module.by_id("gone") is None
    assert doc.asked == ["note-text", "gone"] * 3


def test_every_fixed_element_is_in_the_shell_and_never_inside_a_written_region():
    """``FIXED`` holds ids of index.html only, none of them inside another region of ``FIXED`` that
    a render writes whole (its markup would replace the element)."""
    from html.parser import HTMLParser

    from fray.web import dom  # imported without a page: ``FIXED`` is data

    text = (Path(__file__).resolve().parents[2] / "index.html").read_text()
    inside: dict[str, list[str]] = {}

    class P(HTMLParser):
        stack: list[str] = []

        def handle_starttag(self, tag, attrs):
            i = dict(attrs).get("id")
            if i:
                inside[i] = [x for x in self.stack if x]
            if tag not in ("meta", "link", "input", "br", "img", "hr", "source"):
                self.stack.append(i or "")

        def handle_endtag(self, tag):
            if tag not in ("meta", "link", "input", "br", "img", "hr", "source") and self.stack:
                self.stack.pop()

    P().feed(text)
    written = {"round-bar", "order-strip", "acting-line", "ruleset-panel", "cards-tools", "combatants", "log",
               "map", "map-scale", "map-elev", "map-info", "banner", "dlg-body", "encounter-select"}
    for i in dom.FIXED:
        assert i in inside, f"{i} is not in index.html"
        assert not set(inside[i]) & written, f"{i} sits inside a region a render writes: {inside[i]}"
