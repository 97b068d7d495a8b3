"""Markup escapes by default (issue 34, shared/STYLE.md 16): ``fray.web.html`` is the one place
text becomes HTML, and only a template literal or an explicit ``trusted`` passes unescaped."""

from __future__ import annotations

import ast
from pathlib import Path

from fray.web.blocks import Block
from fray.web.html import Markup, block, escape, fragment, h, html, trusted

PY = Path(__file__).resolve().parents[2] / "py"
HOSTILE = '<img src=x onerror="alert(1)">&'


def test_text_children_and_attribute_values_are_escaped():
    out = h("li", {"class": "who", "data-name": HOSTILE, "hidden": False, "open": True}, HOSTILE, 7, None)
    assert "<img" not in out and "onerror=\"" not in out
    assert out == ('<li class="who" data-name="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;" open>'
                   '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;7</li>')


def test_markup_children_pass_once_and_are_not_escaped_twice():
    inner = h("b", None, "a&b")
    assert h("p", None, inner, [" ", inner]) == "<p><b>a&amp;b</b> <b>a&amp;b</b></p>"
    assert isinstance(inner, Markup) and escape(inner) is inner


def test_void_elements_have_no_closing_tag():
    assert h("input", {"name": "hp", "value": '"5"'}) == '<input name="hp" value="&quot;5&quot;">'


def test_a_template_escapes_its_holes_and_formats_numbers():
    assert html('<p title="{}">{} of {n}</p>', HOSTILE, h("i", None, "x"), n=3) == (
        '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;"><i>x</i> of 3</p>')
    assert html("<span>{:.1f} m</span>", 2.25) == "<span>2.2 m</span>"


def test_joining_and_adding_escape_what_is_not_markup():
    parts = [h("i", None, "a"), "<b>"]
    assert Markup("").join(parts) == "<i>a</i>&lt;b&gt;"
    assert h("i", None, "a") + "<b>" == "<i>a</i>&lt;b&gt;"
    assert "<b>" + h("i", None, "a") == "&lt;b&gt;<i>a</i>"
    assert fragment("<", h("br")) == "&lt;<br>"


def test_trusted_is_the_one_way_past_escaping():
    assert trusted("<br>") == "<br>" and isinstance(trusted("<br>"), Markup)


def test_a_block_is_markup_and_its_children_are_escaped():
    b = block("ul", {"class": "cards"}, [h("li", None, "a"), "<li>"])
    assert isinstance(b, Block) and escape(b) is b
    assert b.open == '<ul class="cards">' and b.children == ("<li>a</li>", "&lt;li&gt;") and b.close == "</ul>"
    assert h("div", None, b) == '<div><ul class="cards"><li>a</li>&lt;li&gt;</ul></div>'


def _calls(tree: ast.AST, name: str):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                yield node


def test_every_template_is_a_literal_in_the_code():
    """``html``'s first argument is markup taken as it is: it must be a string literal written in
    the code, never a value (an f-string could carry a combatant's name in unescaped)."""
    bad = []
    for path in sorted((PY / "fray").rglob("*.py")):
        if path.name == "html.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree, "html"):
            if not call.args or not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                bad.append(f"{path.relative_to(PY)}:{call.lineno}")
    assert bad == []


def test_no_hand_escaping_is_left_outside_the_builder():
    """Issue 34: "No `esc(` left outside the builder." Every module of the page (the core's and each
    game's, and an installed game's example) builds markup through ``fray.web.html``; nothing else
    escapes text by hand (``esc``, ``html.escape``), so nothing can forget to."""
    roots = [PY / "fray", PY.parent / "examples"]
    bad = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            if path == PY / "fray" / "web" / "html.py" or "tests" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for name in ("esc", "escape"):
                bad += [f"{path.relative_to(PY.parent)}:{c.lineno}: {name}(" for c in _calls(tree, name)]
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ("html", "markupsafe"):
                    bad.append(f"{path.relative_to(PY.parent)}:{node.lineno}: from {node.module} import")
    assert bad == []
