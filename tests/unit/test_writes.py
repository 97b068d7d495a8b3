"""A render's writes recorded and made in one call (web/writes.py; issue 36: each call from Python
into the page is garbage WebKit keeps until a full collection). What the recorded writes leave in
the page must be what patching the page straight would leave, write for write; and a region the
page no longer holds as last written must come back to be written whole, nothing else of it done.

``frayWrite`` (static/dom.js) is stood in for by ``do_writes``, the same operations done on the
``FakeEl`` stand-ins of tests/unit/test_blocks.py; the end-to-end suite runs the real one on every
render of the page."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_blocks import FakeEl, region  # noqa: E402

from fray.web.blocks import Block, patch_region  # noqa: E402
from fray.web.writes import Node, Writes  # noqa: E402


def do_writes(text: str, roots: dict[str, FakeEl]) -> str:
    """``frayWrite``'s operations, on stand-in elements: see static/dom.js."""
    els: dict[int, FakeEl | None] = {}
    region_of: dict[int, str] = {}
    failed: list[str] = []
    for op in json.loads(text):
        kind, h = op[0], op[1]
        if kind == "root":
            els[h], region_of[h] = roots.get(op[2]), op[2]
            if els[h] is None:
                failed.append(op[2])
            continue
        taking = kind in ("first", "item")
        at = op[2] if taking else h
        where = region_of[at]
        if taking:
            region_of[h] = where
        if where in failed:
            continue
        el = els[at]
        if taking:
            kids = el._kid_list()
            k = 0 if kind == "first" else op[3]
            els[h] = kids[k] if k < len(kids) else None
            if els[h] is None:
                failed.append(where)
        elif kind == "expect":
            if el.childElementCount != op[2]:
                failed.append(where)
        elif kind == "outer":
            el.outerHTML = op[2]
        elif kind == "inner":
            el.innerHTML = op[2]
        elif kind == "adj":
            el.insertAdjacentHTML(op[2], op[3])
        elif kind == "remove":
            el.remove()
        elif kind == "trim":
            while el.childElementCount > op[2]:
                el._kid_list()[-1].remove()
        else:
            failed.append(where)
    return "\n".join(failed)


def _random_block(rng: random.Random) -> Block:
    def item() -> str:
        if rng.random() < 0.3:
            return Block('<li class="g">', [f"<b>{rng.randrange(4)}</b>" for _ in range(rng.randrange(1, 4))], "</li>")
        return f"<li>{rng.randrange(6)}</li>"
    return Block.fragment(["<h2>Order</h2>", Block("<ol>", [item() for _ in range(rng.randrange(8))], "</ol>"),
                           f"<p>{rng.randrange(3)}</p>"])


def test_recorded_writes_leave_what_patching_the_page_straight_leaves_write_for_write():
    """Random regions that lose, gain and change children, nested parts among them: recorded and
    then done in one call, the region holds exactly the new markup, by the very writes patching
    it straight made."""
    rng = random.Random(36)
    for _ in range(300):
        old, new = _random_block(rng), _random_block(rng)
        straight, straight_log = region()
        patch_region(straight, None, old)
        straight_log.clear()
        patch_region(straight, old, new)

        page, log = region()
        patch_region(page, None, old)
        log.clear()
        w = Writes()
        patch_region(w.region("region"), old, new)
        assert w.flush(lambda text: do_writes(text, {"region": page})) == []
        assert page.innerHTML == new == straight.innerHTML, (old, new)
        assert log == straight_log, (old, new)


def test_a_region_the_page_no_longer_holds_as_written_is_returned_whole_and_nothing_else_of_it_done():
    """Were the page's children not the old markup's (a script removed one), the recorded writes of
    that region stop at the check and its id comes back, for the painter to write it whole; the
    other regions of the same call are written."""
    a, b = region()[0], region()[0]
    old = Block.fragment(["<p>a</p>", "<p>b</p>"])
    for el in (a, b):
        patch_region(el, None, old)
    del a._kid_list()[1]
    new = Block.fragment(["<p>a</p>", "<p>c</p>"])
    w = Writes()
    patch_region(w.region("a"), old, new)
    patch_region(w.region("b"), old, new)
    w.region("gone").innerHTML = "<p>x</p>"
    assert w.flush(lambda text: do_writes(text, {"a": a, "b": b})) == ["a", "gone"]
    assert a.innerHTML == "<p>a</p>" and b.innerHTML == new


def test_a_render_that_writes_nothing_calls_the_page_not_at_all():
    sent: list[str] = []
    assert Writes().flush(sent.append) == [] and sent == []


def test_the_logs_oldest_lines_go_past_its_limit():
    log = region()[0]
    log.innerHTML = "".join(f"<li>{i}</li>" for i in range(5))
    w = Writes()
    node = w.region("log")
    assert isinstance(node, Node)
    node.insertAdjacentHTML("afterbegin", "<li>new</li>")
    node.trim(5)
    w.flush(lambda text: do_writes(text, {"log": log}))
    assert log.innerHTML == "<li>new</li>" + "".join(f"<li>{i}</li>" for i in range(4))
