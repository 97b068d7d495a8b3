"""Patching a region part by part (web/blocks.py): what the patch leaves in the page must be exactly
the new markup, written whole wherever the parts do not pair up; and the parts of the strike-rank
panel and the order strip must be one element each, or a patch would put markup in the wrong place.

The page's DOM is stood in for by ``FakeEl``: elements parsed from markup with Python's own HTML
parser, with the few members ``patch`` uses (``children``, ``item``, ``firstElementChild``,
``innerHTML``, ``outerHTML``, ``remove``, ``insertAdjacentHTML``); each write is logged with its
length (a removal or an insertion as ("remove" | "insert", length))."""

from __future__ import annotations

import random
import re
import sys
from html.parser import HTMLParser

import pytest
from pathlib import Path

from fray.history import History
from fray.games import get_ruleset
from fray.web import render as R
from fray.web.blocks import Block, ascii_html, patch_region
from fray.games.strike_rank.web.declare import declare_html
from fray.games.strike_rank.web.panel import panel_html
from fray.games.range_band.web.ui import RangeBandUi
from fray.games.strike_rank.web.ui import StrikeRankUi
from fray.games.tactical_round.web.ui import TacticalRoundUi

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Top(HTMLParser):
    """The top-level elements of a piece of markup, as (start, end) offsets; text between them is refused."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html, self.depth, self.spans, self.start = html, 0, [], 0
        self.lines = [0]
        for line in html.split("\n")[:-1]:
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.feed(html)
        self.close()
        assert self.depth == 0, f"unclosed element in {html[:120]!r}"

    def _at(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag, attrs):
        if self.depth == 0:
            self.start = self._at()
        if tag in VOID:
            if self.depth == 0:
                self.spans.append((self.start, self._at() + len(self.get_starttag_text())))
            return
        self.depth += 1

    def handle_endtag(self, tag):
        self.depth -= 1
        if self.depth == 0:
            end = self.html.index(">", self._at()) + 1
            self.spans.append((self.start, end))

    def handle_data(self, data):
        assert self.depth > 0 or not data.strip(), f"text outside any element: {data[:80]!r}"


def top_elements(html: str) -> list[str]:
    return [html[a:b] for a, b in _Top(html).spans]


class _Kids:
    def __init__(self, kids: list) -> None:
        self._kids = kids

    @property
    def length(self) -> int:
        return len(self._kids)

    def item(self, k: int) -> "FakeEl":
        return self._kids[k]


WRITES: list[str] = []  # every markup written into a FakeEl, as it was handed to the page


def parsed(html: str) -> str:
    """Markup as the page holds it once parsed: a numeric character reference (``&#8212;``, what
    ``ascii_html`` writes for a character outside ASCII) is that character again."""
    WRITES.append(html)
    return re.sub(r"&#(\d+);", lambda m: chr(int(m.group(1))), html)


class FakeEl:
    def __init__(self, outer: str, parent: "FakeEl | None", log: list[int]) -> None:
        self._outer, self.parent, self.log, self._kids = outer, parent, log, None

    def _tags(self) -> tuple[str, str, str]:
        o = self._outer
        head = o.index(">") + 1
        tail = o.rindex("</")
        return o[:head], o[head:tail], o[tail:]

    def _kid_list(self) -> list:
        if self._kids is None:
            self._kids = [FakeEl(x, self, self.log) for x in top_elements(self._tags()[1])]
        return self._kids

    @property
    def children(self) -> _Kids:
        return _Kids(self._kid_list())

    @property
    def childElementCount(self) -> int:
        return len(self._kid_list())

    @property
    def firstElementChild(self) -> "FakeEl":
        return self._kid_list()[0]

    @property
    def outerHTML(self) -> str:
        if self._kids is None:
            return self._outer
        head, _, tail = self._tags()
        return head + "".join(k.outerHTML for k in self._kids) + tail

    @outerHTML.setter
    def outerHTML(self, html: str) -> None:
        html = parsed(html)
        self.log.append(len(html))
        kids = self.parent._kid_list()
        k = next(i for i, x in enumerate(kids) if x is self)
        kids[k:k + 1] = [FakeEl(x, self.parent, self.log) for x in top_elements(html)]

    def remove(self) -> None:
        self.log.append(("remove", len(self.outerHTML)))
        kids = self.parent._kid_list()
        del kids[next(i for i, x in enumerate(kids) if x is self)]

    def insertAdjacentHTML(self, where: str, html: str) -> None:
        html = parsed(html)
        self.log.append(("insert", len(html)))
        new = [FakeEl(x, self if where in ("beforeend", "afterbegin") else self.parent, self.log)
               for x in top_elements(html)]
        if where == "beforeend":
            self._kid_list().extend(new)
            return
        if where == "afterbegin":  # the log's newest lines (web/painter.py)
            self._kid_list()[:0] = new
            return
        assert where == "beforebegin", where
        kids = self.parent._kid_list()
        k = next(i for i, x in enumerate(kids) if x is self)
        kids[k:k] = new

    @property
    def innerHTML(self) -> str:
        return self._tags()[1] if self._kids is None else "".join(k.outerHTML for k in self._kids)

    @innerHTML.setter
    def innerHTML(self, html: str) -> None:
        html = parsed(html)
        self.log.append(len(html))
        head, _, tail = self._tags()
        self._outer, self._kids = head + html + tail, [FakeEl(x, self, self.log) for x in top_elements(html)]


def region() -> tuple[FakeEl, list[int]]:
    log: list[int] = []
    root = FakeEl('<div id="region"></div>', None, log)
    return root, log


def one_element_each(block: str) -> None:
    """Every child of a Block (and of the Blocks inside it) is exactly one element."""
    if not isinstance(block, Block):
        return
    for child in block.children:
        assert len(top_elements(child)) == 1, f"a part that is not one element: {child[:200]!r}"
        one_element_each(child)


# -- the patch itself -----------------------------------------------------------------------------

def _list(items):
    return Block('<section class="s">', ["<h2>Title</h2>", Block("<ol>", items, "</ol>"), "<p>end</p>"], "</section>")


def test_a_patch_rewrites_only_the_child_that_changed_and_leaves_the_new_markup():
    root, log = region()
    old = _list([f"<li>{i}</li>" for i in range(5)])
    patch_region(root, None, old)
    assert root.innerHTML == old and log == [len(old)]
    new = _list(["<li>0</li>", "<li>1</li>", '<li class="now">2</li>', "<li>3</li>", "<li>4</li>"])
    log.clear()
    patch_region(root, old, new)
    assert root.innerHTML == new
    assert log == [len('<li class="now">2</li>')]  # one entry, not the section


def test_a_patch_writes_whole_what_does_not_pair_up():
    """Other tags around the children, or markup that is no longer a Block: written whole."""
    root, log = region()
    old = _list(["<li>0</li>", "<li>1</li>"])
    patch_region(root, None, old)
    other = Block('<section class="t">', old.children, "</section>")
    log.clear()
    patch_region(root, old, other)
    assert root.innerHTML == other and log == [len(other)]
    plain = "<p>no longer a Block</p>"
    log.clear()
    patch_region(root, other, plain)
    assert root.innerHTML == plain and log == [len(plain)]


def test_a_list_whose_children_mostly_changed_is_written_whole_unless_a_kept_one_holds_a_field():
    """Issue 11 (one action at 200 combatants): a tactical-round Next between phases changes all 200
    strip entries, and one write of the list is cheaper in the page than 200 (45-70 ms against
    58-118 ms, layout included). Past ``WHOLE_PAST`` changed children, and more than half, the
    parent is written whole; but never over a child that did not change and holds a field the GM
    may be typing into (its text would be lost): those are patched around as before."""
    from fray.web.blocks import WHOLE_PAST

    n = 40
    root, log = region()
    old = _list([f"<li>{i}</li>" for i in range(n)])
    patch_region(root, None, old)
    most = _list([f'<li class="idle">{i}</li>' if i > n // 3 else f"<li>{i}</li>" for i in range(n)])
    log.clear()
    patch_region(root, old, most)
    assert root.innerHTML == most
    ol = most.children[1]
    assert log == [len(ol)]  # the list, once
    # a kept child with a field: each changed child is written, the field's child is not
    with_field = _list([f"<li>{i}</li>" for i in range(n - 1)] + ['<li><input name="x"></li>'])
    patch_region(root, most, with_field)
    after = _list([f'<li class="now">{i}</li>' for i in range(n - 1)] + ['<li><input name="x"></li>'])
    log.clear()
    patch_region(root, with_field, after)
    assert root.innerHTML == after and len(log) == n - 1
    # up to WHOLE_PAST changed children of many: each on its own, as before
    root, log = region()
    plain = _list([f"<li>{i}</li>" for i in range(n)])
    patch_region(root, None, plain)
    few = _list([f'<li class="now">{i}</li>' if i < WHOLE_PAST else f"<li>{i}</li>" for i in range(n)])
    log.clear()
    patch_region(root, plain, few)
    assert root.innerHTML == few and len(log) == WHOLE_PAST


def test_another_number_of_children_removes_and_inserts_only_what_went_and_came():
    """A strike-rank Next that drops the attack just rolled: that form goes, the next one opens in
    place, nothing else is written; and a longer list gains its new entries where they belong."""
    root, log = region()
    old = _list(["<li>0</li>", "<li>1</li>", "<li>2</li>", "<li>3</li>"])
    patch_region(root, None, old)
    fewer = _list(["<li>1</li>", "<li>2</li>", "<li>3</li>"])
    log.clear()
    patch_region(root, old, fewer)
    assert root.innerHTML == fewer and log == [("remove", len("<li>0</li>"))]
    more = _list(["<li>1</li>", "<li>new</li>", "<li>2</li>", "<li>3</li>", "<li>4</li>", "<li>5</li>"])
    log.clear()
    patch_region(root, fewer, more)
    assert root.innerHTML == more
    assert log == [("insert", len("<li>new</li>")), ("insert", len("<li>4</li><li>5</li>"))]
    # the first goes and the next changes in place (the folded attack that opens)
    moved = _list(['<li class="open">new</li>', "<li>2</li>", "<li>3</li>", "<li>4</li>", "<li>5</li>"])
    log.clear()
    patch_region(root, more, moved)
    assert root.innerHTML == moved
    assert sorted(log, key=str) == sorted([("remove", len("<li>1</li>")), len('<li class="open">new</li>')], key=str)
    # to none and back again
    for a, b in ((moved, _list([])), (_list([]), moved)):
        patch_region(root, a, b)
        assert root.innerHTML == b


def test_an_order_that_moves_its_first_entry_to_the_end_rewrites_only_what_changed():
    """A strike-rank Next at 200 combatants: the order of play turns by one and "now" moves on. The
    entries that only moved are kept; the two that changed (the one who acted, the one who acts now)
    are written, not the hundred after them that a pairing by position would rewrite."""
    root, log = region()
    ids = [f"c{i}" for i in range(40)]
    def entry(i, now=False):
        return f'<li data-id="{i}"{" class=now" if now else ""}>{i}</li>'
    old = Block.fragment([Block("<ol>", [entry(ids[0], True)] + [entry(i) for i in ids[1:]], "</ol>")])
    patch_region(root, None, old)
    new = Block.fragment([Block("<ol>", [entry(ids[1], True)] + [entry(i) for i in ids[2:]] + [entry(ids[0])], "</ol>")])
    log.clear()
    patch_region(root, old, new)
    assert root.innerHTML == new
    assert len(log) <= 3, log
    # and never the whole list (more than WHOLE_PAST entries moved, but only two changed)
    written = sum(x[1] if isinstance(x, tuple) and x[0] == "insert" else (x if isinstance(x, int) else 0)
                  for x in log)
    assert written <= 3 * len(entry(ids[0], True)), log


def test_lined_up_children_always_end_as_the_new_markup():
    """Random lists that lose, gain and change children (duplicates too): whatever the line-up
    decides, the region holds exactly the new markup and nothing is written twice."""
    rng = random.Random(11)
    for _ in range(400):
        old = [f"<li>{rng.randrange(6)}</li>" for _ in range(rng.randrange(7))]
        new = [f"<li>{rng.randrange(6)}</li>" for _ in range(rng.randrange(7))]
        root, log = region()
        a, b = Block.fragment(old), Block.fragment(new)
        patch_region(root, None, a)
        log.clear()
        patch_region(root, a, b)
        assert root.innerHTML == b, (old, new)
        written = sum(x[1] if isinstance(x, tuple) and x[0] == "insert" else (x if isinstance(x, int) else 0)
                      for x in log)
        assert written <= len(b), (old, new, log)


def test_a_fragment_patches_the_regions_own_children_and_empty_parts_are_left_out():
    root, log = region()
    old = Block.fragment(["<h2>Order</h2>", "", Block("<ol>", ["<li>a</li>", "<li>b</li>"], "</ol>"), "<p></p>"])
    assert old.children[1].startswith("<ol>") and old == "<h2>Order</h2><ol><li>a</li><li>b</li></ol><p></p>"
    patch_region(root, None, old)
    new = Block.fragment(["<h2>Order</h2>", Block("<ol>", ["<li>a</li>", "<li>B</li>"], "</ol>"), "<p></p>"])
    log.clear()
    patch_region(root, old, new)
    assert root.innerHTML == new and log == [len("<li>B</li>")]


def test_a_dom_that_lost_an_element_is_written_whole():
    """Were the page's element count ever not the markup's (a script removed one), nothing is
    matched by position: the whole region is written."""
    root, log = region()
    old = Block.fragment(["<p>a</p>", "<p>b</p>"])
    patch_region(root, None, old)
    del root._kid_list()[1]
    new = Block.fragment(["<p>a</p>", "<p>c</p>"])
    log.clear()
    patch_region(root, old, new)
    assert root.innerHTML == new and log == [len(new)]


# -- the strike-rank panel and the strip, through a played fight --------------------------------------

def test_the_strike_rank_panel_and_strip_patch_to_exactly_their_new_markup_through_a_fight():
    """Action by action (bench/fights.py: declarations, attacks, Next), a fold-out opened or shut
    now and then: each part is one element, the patched regions hold exactly the new markup, and a
    declaration rewrites the declarer's part of the panel only (the point of patching)."""
    rs = get_ruleset("strike-rank")
    rnd = random.Random(4)
    whole = fights.fight("strike-rank", 10, 160, seed=3)
    h = History(whole.initial)
    panel, strip = region(), region()
    before = {"panel": None, "strip": None}
    declares = 0
    folds: dict[str, bool] = {}
    for a in whole.actions:
        h.do(a)
        enc = h.present
        view = rs.view(enc)
        toggled = rnd.random() < 0.05  # now and then the GM opens or shuts a fold-out
        if toggled:
            key = rnd.choice([f"declare-{c.id}-{n}" for c in enc.combatants for n in range(3)] + ["sr-order"])
            folds[key] = not folds.get(key, False)
        html = panel_html(view, StrikeRankUi(open=folds), [(e.kind, e.text) for e in enc.log[-80:]])
        order = rs.order_of_play(enc)
        cur = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
        status = {c.id: rs.status(enc, view, c.id) for c in enc.combatants}
        strip_html = R.order_strip(R.strip_entries(enc, order, status, cur))
        for name, (root, log), new in (("panel", panel, html), ("strip", strip, strip_html)):
            one_element_each(new)
            log.clear()
            if before[name] != new:
                patch_region(root, before[name], new)
            assert root.innerHTML == new
            before[name] = new
            if name == "panel" and a["type"] == "sr.declare":
                # one combatant's declaration: their part of the list, not the ten; besides it, the
                # part of a foe it now closes on together (both declarations are timed with both
                # rates) and a fold-out the GM toggled
                declares += 1
                together = a.get("target") is not None and "closing together" in html
                assert len(log) <= 1 + together + toggled
                assert all(n * 3 < len(new) for n in log)
    assert declares > 10


def test_a_kept_declaration_part_is_the_part_drawn_afresh():
    """``declare_html`` with ``kept``: a combatant's part reused from the render before (its key,
    ``declare_row_key``, unchanged) is exactly what drawing it again gives, fold-outs included."""
    rs = get_ruleset("strike-rank")
    rnd = random.Random(7)
    whole = fights.fight("strike-rank", 8, 200, seed=11)
    h = History(whole.initial)
    kept: dict = {}
    view_kept: dict = {}
    declaring = reused = 0
    for a in whole.actions:
        h.do(a)
        enc = h.present
        if enc.phase != "declare":
            continue
        declaring += 1
        view = rs.view_kept(enc, view_kept)
        folds = {f"{k}-{c.id}-{n}": rnd.random() < 0.2 for c in enc.combatants for n in range(3) for k in ("declare",)}
        folds.update({f"more-sr-sr-declare-{c.id}": rnd.random() < 0.2 for c in enc.combatants})
        held = {cid: row for cid, (_, row, _) in kept.items()}
        got = declare_html(view, StrikeRankUi(open=folds), kept)
        assert got == declare_html(view, StrikeRankUi(open=folds))
        reused += sum(1 for row in got.children if row in held.values() and any(row is r for r in held.values()))
    assert declaring > 10 and reused > 0


@pytest.mark.parametrize("many", [8, 16])
def test_the_tactical_round_panel_patches_to_exactly_its_new_markup_through_a_fight(many):
    """The same for tactical-round's panel (phases, the acting list, the declarations one form per
    combatant, folded past a dozen and opened now and then): each part one element, the patched
    region exactly the new markup, and a Next from one phase that shows the declarations to
    another rewrites none of the forms."""
    from fray.games.tactical_round.web.panel import DEFAULT_KINDS, panel_html as tr_panel

    rs = get_ruleset("tactical-round")
    rnd = random.Random(5)
    whole = fights.fight("tactical-round", many, 160, seed=2)
    h = History(whole.initial)
    root, log = region()
    before = None
    kept_forms = 0
    ui = TacticalRoundUi()
    for a in whole.actions:
        was = h.present.phase
        h.do(a)
        enc = h.present
        if rnd.random() < 0.1:  # now and then the GM opens or shuts a declaration
            cid = rnd.choice([c.id for c in enc.combatants])
            ui.decl_open ^= {cid}
            ui.decl_drawn |= {cid}
        new = tr_panel(rs.view(enc), ui, DEFAULT_KINDS)
        one_element_each(new)
        log.clear()
        if before != new:
            patch_region(root, before, new)
        assert root.innerHTML == new
        shows = ("setup", "assessment", "declaration")
        if (a["type"] == "advance" and was in shows and enc.phase in shows and before is not None
                and len(before.children) == len(new.children)):  # (a part that came or went: written whole)
            forms = [c for c in new.children if "tr-declarations" in c[:60]]
            old_forms = [c for c in before.children if "tr-declarations" in c[:60]]
            assert forms and forms == old_forms  # so the patch writes nothing of them
            assert sum(log) < len(new) - len(forms[0])
            kept_forms += 1
        before = new
    assert kept_forms > 0


def test_the_range_band_panel_patches_to_exactly_its_new_markup_through_a_fight():
    """The same for range-band's panel (zone, areas, round, the pending roll, the acting form):
    each part one element, the patched region exactly the new markup, and most actions rewrite
    less than the whole panel (the zone's and the areas' forms stay)."""
    from fray.games.range_band.web.panel import panel_html as rb_panel

    rs = get_ruleset("range-band")
    whole = fights.fight("range-band", 10, 160, seed=6)
    h = History(whole.initial)
    root, log = region()
    before = None
    partial = 0
    for a in whole.actions:
        h.do(a)
        enc = h.present
        positions = {c.id: (c.position.x, c.position.y, c.position.alt) for c in enc.combatants}
        new = rb_panel(rs.view(enc), RangeBandUi(), positions)
        one_element_each(new)
        log.clear()
        if before != new:
            patch_region(root, before, new)
            written = sum(x if isinstance(x, int) else x[1] for x in log
                          if isinstance(x, int) or x[0] != "remove")
            partial += written < len(new)
        assert root.innerHTML == new
        before = new
    assert partial > 40


def test_with_many_strike_rank_combatants_a_declaration_form_is_drawn_once_opened():
    """Past a dozen combatants each declaration fold-out starts shut, one line ("Declare for …"),
    and holds its form only once opened (``ui.opened``); a part reused from the render
    before is exactly what drawing it again gives."""
    import re as _re

    from fray.games.strike_rank.web.declare import FOLD_DECLARATIONS_FROM

    rs = get_ruleset("strike-rank")
    rnd = random.Random(9)
    whole = fights.fight("strike-rank", FOLD_DECLARATIONS_FROM + 1, 120, seed=4)
    h = History(whole.initial)
    kept: dict = {}
    seen = 0
    for a in whole.actions:
        h.do(a)
        enc = h.present
        if enc.phase != "declare":
            continue
        view = rs.view(enc)
        keys = {}
        up = None
        for cid, c in view["combatants"].items():
            if c.get("status", "ok") != "ok":
                continue  # the fallen have no declaration form at all (issue 32)
            n = len([x for x in c.get("declared", []) if x.get("status") == "declared"])
            # the first still to declare waits open (issue 33), under a key of its own
            up = up or (cid if n == 0 else None)
            keys[cid] = f"declare-{cid}-{n}" + ("-up" if up == cid else "")
        opened = {k for k in keys.values() if rnd.random() < 0.2}
        folds = {k: rnd.random() < 0.5 for k in opened}
        ui = StrikeRankUi(open=folds, opened=opened)
        got = declare_html(view, ui, kept)
        assert got == declare_html(view, ui)
        for cid, key in keys.items():
            part = next(r for r in got.children if f'data-id="{cid}"' in r[:80])
            has_form = 'data-form="sr-declare"' in part
            drawn = key in opened or (cid == up and folds.get(key) is not False)
            assert has_form == drawn, (cid, key)
            assert bool(_re.search(rf'data-fold="{key}"[^>]*data-fold-lazy', part)) == (not drawn)
            assert bool(_re.search(rf'data-fold="{key}"[^>]* open>', part)) == folds.get(key, cid == up)
        seen += 1
    assert seen > 3


# -- what crosses into the page ------------------------------------------------------------------

def test_markup_crosses_into_the_page_in_ascii_and_reads_back_the_same():
    """Pyodide copies a string with one character outside ASCII into JavaScript a character at a
    time, a new string per step (issue 36: a strike-rank round's 250,000 such characters left
    megabytes of garbage in WebKit). Every write of the patch is ASCII, the characters outside it
    as character references, which the page's parser reads back as the same markup."""
    import html as stdlib_html

    rs = get_ruleset("strike-rank")
    whole = fights.fight("strike-rank", 6, 60, seed=3)
    h = History(whole.initial)
    root, _ = region()
    before = None
    WRITES.clear()
    drawn_non_ascii = False
    for a in whole.actions:
        h.do(a)
        enc = h.present
        new = panel_html(rs.view(enc), StrikeRankUi(open={}), [(e.kind, e.text) for e in enc.log[-80:]])
        drawn_non_ascii |= not new.isascii()
        patch_region(root, before, new)
        assert root.innerHTML == new
        before = new
    assert drawn_non_ascii, "the fight's markup has no character outside ASCII: the test checks nothing"
    assert WRITES and all(w.isascii() for w in WRITES)
    s = 'Sword \u2014 \u201cSir\u00a0\u00c9d\u201d <b title="\u00bd \U0001f5e1">x</b> &amp; &#169;'
    assert ascii_html(s).isascii()
    assert stdlib_html.unescape(ascii_html(s)) == stdlib_html.unescape(s)
    plain = "<p>plain</p>"
    assert ascii_html(plain) is plain  # ASCII already: no copy


def test_the_painters_own_writes_cross_in_ascii(monkeypatch):
    """The cards, the log and the encounter list (web/painter.py) write markup themselves, not
    through ``patch_region``: ASCII as well (see the test above)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_conformance import empty_page

    for name, m in empty_page().items():
        monkeypatch.setitem(sys.modules, name, m)
    monkeypatch.delitem(sys.modules, "fray.web.painter", raising=False)
    from fray.web import painter

    regions = {"combatants": region()[0], "log": region()[0]}
    monkeypatch.setattr(painter, "by_id", lambda i: regions[i])

    class P(painter.Painter):
        def __init__(self):
            self._painted, self._card_memo = {}, {}

    p = P()
    WRITES.clear()
    cards = [("c1", '<article data-id="c1">Sir \u00c9d \u2014 12 HP</article>'), ("c2", "<article>Bo</article>")]
    p.paint_cards(cards, "<p>None yet \u2026</p>")
    p.paint_cards([cards[0], ("c2", "<article>Bo \u2014 hit</article>")], "")
    p.paint_cards([], "<p>None yet \u2026</p>")
    p.paint_log(["<li>Sir \u00c9d hits \u2192 Bo</li>"])
    p.paint_log(["<li>Bo \u2014 down</li>", "<li>Sir \u00c9d hits \u2192 Bo</li>"])
    assert len(WRITES) == 5 and all(w.isascii() for w in WRITES)
    assert regions["log"].innerHTML == "<li>Bo \u2014 down</li><li>Sir \u00c9d hits \u2192 Bo</li>"


def test_undo_takes_back_only_the_log_lines_it_undoes(monkeypatch):
    """Redo put one line on top of the log; Undo wrote the whole log again (300 lines parsed and styled for
    one taken back). Undo now removes the lines it takes back, and nothing else is written; past the limit,
    the oldest lines the undone ones had pushed out come back at the bottom. The page then holds what a
    whole write would."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_conformance import empty_page

    for name, m in empty_page().items():
        monkeypatch.setitem(sys.modules, name, m)
    monkeypatch.delitem(sys.modules, "fray.web.painter", raising=False)
    from fray.web import painter

    log_el, writes = region()
    monkeypatch.setattr(painter, "by_id", lambda i: {"log": log_el}[i])

    class P(painter.Painter):
        def __init__(self):
            self._painted, self._card_memo = {}, {}

    def lines(*n: int) -> list[str]:
        return [f'<li value="{i}">line {i}</li>' for i in n]

    p = P()
    p.paint_log(lines(3, 2, 1))
    p.paint_log(lines(5, 4, 3, 2, 1))  # an action that logged two lines
    writes.clear()
    p.paint_log(lines(3, 2, 1))  # Undo
    assert writes == [("remove", len(lines(5)[0])), ("remove", len(lines(4)[0]))], writes
    assert log_el.innerHTML == "".join(lines(3, 2, 1))
    writes.clear()
    p.paint_log(lines(5, 4, 3, 2, 1))  # Redo: one write on top, as before
    assert writes == [("insert", len("".join(lines(5, 4))))]
    # at the limit (here 3 lines): the undone lines go, the oldest they had pushed out come back below
    p.paint_log(lines(5, 4, 3))
    writes.clear()
    p.paint_log(lines(4, 3, 2))
    assert [w[0] for w in writes] == ["remove", "insert"] and log_el.innerHTML == "".join(lines(4, 3, 2))
    # a line that changed, or another encounter: written whole, as before
    writes.clear()
    p.paint_log(lines(9, 8))
    assert writes == [len("".join(lines(9, 8)))] and log_el.innerHTML == "".join(lines(9, 8))
