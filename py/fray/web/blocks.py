"""Markup the painter can patch part by part instead of writing it whole.

A ``Block`` is a string (so everything that reads markup reads it as before: tests, ``in``,
joining) that also remembers how it was put together: an element's opening tag, its children
(each exactly one element, as a plain string or a ``Block`` of its own) and its closing tag. A
Block with no tags at all is a fragment: its children are the children of the region it is
written into.

When a region's old and new markup are both Blocks with the same tags, ``patch`` rewrites only
the children whose markup changed (and, inside a child that is a Block, only its changed
children), so declaring one combatant's action rewrites that combatant's form, not the thirty
others and their thousands of nodes. Children of another number are lined up by their markup
first: the ones that went are removed, the new ones inserted, the rest patched. Anything it cannot
match (other tags, a DOM that no longer has as many elements as the old markup has children) is
written whole, which is always right, only slower.

Every write of markup into the page goes through ``ascii_html`` (here and in the other modules
that write markup): see it.

Pure except ``patch``, which takes the element to patch (the page's, or a render's recorded
writes: ``writes.Node``); ``js`` is never imported here.
"""

from __future__ import annotations

from typing import Any, Iterable


class Block(str):
    """Markup ``open + children + close``; see the module's docstring. Empty children are left out
    (they would be no element at all, and the children are matched to elements by position)."""

    open: str
    children: tuple[str, ...]
    close: str

    def __new__(cls, open_: str, children: Iterable[str], close: str) -> "Block":
        kids = tuple(c for c in children if c)
        # one join of plain strs: ``open_ + ...`` would let a Markup open tag escape its children
        self = super().__new__(cls, "".join((open_, *kids, close)))
        self.open, self.children, self.close = open_, kids, close
        return self

    @classmethod
    def fragment(cls, children: Iterable[str]) -> "Block":
        """Children written straight into a region, with no element of their own around them."""
        return cls("", children, "")


def ascii_html(markup: str) -> str:
    """``markup`` in ASCII only: every other character as its numeric character reference
    (``\u2014`` as ``&#8212;``), which the HTML parser reads back as that same character, in text
    and in attribute values alike (the page's markup has no ``<style>``, ``<script>`` or comment,
    where it would not). Pyodide copies a string holding a single non-ASCII character into
    JavaScript one character at a time, each step a new string (``_python2js_ucs2``): a 40 KB
    card written so left some 800 KB of garbage behind it, which WebKit keeps until its next full
    collection (a 12-combatant strike-rank round: 250,000 such characters, 5 MB sampled in
    Chromium); an ASCII string of 64 characters or more crosses in one ``TextDecoder`` call."""
    return markup if markup.isascii() else markup.encode("ascii", "xmlcharrefreplace").decode("ascii")


def patch_region(root: Any, old: Any, new: str) -> None:
    """Write ``new`` into the region ``root`` that holds ``old`` (the markup last written there)."""
    if isinstance(old, Block) and isinstance(new, Block) and old.open == new.open and old.close == new.close:
        if not new.open and not new.close:
            if _patch_children(root, old.children, new.children):
                return
        elif holds(root, 1):
            patch(root.firstElementChild, old, new)
            return
    root.innerHTML = ascii_html(new)


def holds(el: Any, count: int) -> bool:
    """Whether the element holds ``count`` child elements (the old markup's, before patching them):
    read from the page (a count, not the list: no proxy made for it), or, for a render's recorded
    writes (``writes.Node``), checked by the page as they are done: a region that fails it is
    written whole then."""
    expect = getattr(el, "expect", None)
    if expect is not None:
        expect(count)
        return True
    return el.childElementCount == count


def patch(el: Any, old: str, new: str) -> None:
    """Make the element ``el`` (drawn from ``old``) show ``new``, rewriting as little as it can."""
    if (isinstance(old, Block) and isinstance(new, Block) and old.open == new.open and old.close == new.close
            and _patch_children(el, old.children, new.children)):
        return
    el.outerHTML = ascii_html(new)


def _patch_children(parent: Any, old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """Rewrite each child whose markup changed; False (nothing written) when the page does not
    hold the old children one element each. Children pair up by position when only a few of them
    changed; otherwise they are lined up by their markup first (``_line_up``): a strike-rank Next
    that drops the attack just rolled removes that one form, and an order of play that moves its
    first entry to the end rewrites two entries, not all two hundred."""
    if not holds(parent, len(old)):
        return False
    kids = parent.children
    changed = [k for k in range(min(len(old), len(new))) if not (old[k] is new[k] or old[k] == new[k])]
    pairs = None if len(old) == len(new) and len(changed) <= 2 else _line_up(old, new)
    if len(old) == len(new) and pairs is not None:
        # most children changed, lined up (a tactical-round Next between phases changes all 200
        # strip entries; a strike-rank Next only turns its strip, the current entry first, which
        # lines up as a few): one write of the whole parent is cheaper than one per child (measured
        # in the page at 200 entries: 45-70 ms whole, 58-118 ms child by child, layout included),
        # and the few it rewrites needlessly hold nothing the GM types into
        # what either way of patching would keep: the children the line-up keeps, and (patching
        # by position) those equal where they stand
        kept = {i for i, j in pairs if i is not None and j is not None and old[i] == new[j]}
        kept.update(k for k in range(len(old)) if old[k] is new[k] or old[k] == new[k])
        if min(len(changed), _writes(pairs, old, new)) > max(WHOLE_PAST, len(old) // 2) and not any(
                _holds_controls(old[k]) for k in kept):
            return False
    if len(old) == len(new) and (pairs is None or _writes(pairs, old, new) >= len(changed)):
        # by position (lining up would write no less); last to first: were a child's new markup
        # ever more than one element, the ones before it would still be where they were (and the
        # count above sends the next render to a whole write)
        for k in reversed(changed):
            patch(kids.item(k), old[k], new[k])
        return True
    _patch_lined_up(parent, kids, pairs, old, new)  # lined up: a different length always is
    return True


# past how many changed children (and more than half of them) a parent is written whole
WHOLE_PAST = 16


def _holds_controls(markup: str) -> bool:
    """Whether a child holds a field the GM may have typed into (kept by patching around it)."""
    return "<input" in markup or "<select" in markup or "<textarea" in markup


def _writes(pairs: list[tuple[int | None, int | None]], old: tuple[str, ...], new: tuple[str, ...]) -> int:
    """How many new children a line-up writes (inserted or rewritten)."""
    return sum(1 for i, j in pairs if j is not None and (i is None or old[i] != new[j]))


def _line_up(old: tuple[str, ...], new: tuple[str, ...]) -> list[tuple[int | None, int | None]]:
    """Pairs (old index, new index) in document order: both for a child kept or rewritten in place,
    (i, None) for an old child that goes, (None, j) for a new one that comes. A child found again
    further on in the other list is kept for that place; where neither is, the list with more
    children left loses or gains one, else the two pair up and the old one is rewritten."""
    def places(xs: tuple[str, ...]) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for k, x in enumerate(xs):
            out.setdefault(x, []).append(k)
        return out

    in_old, in_new = places(old), places(new)

    def later(where: dict[str, list[int]], x: str, at: int) -> bool:
        return any(k >= at for k in where.get(x, ()))

    out: list[tuple[int | None, int | None]] = []
    i = j = 0
    while i < len(old) or j < len(new):
        if i == len(old):
            out.append((None, j)); j += 1
        elif j == len(new):
            out.append((i, None)); i += 1
        elif old[i] == new[j]:
            out.append((i, j)); i += 1; j += 1
        else:
            old_later, new_later = later(in_new, old[i], j), later(in_old, new[j], i)
            if new_later and not old_later or (old_later == new_later and len(old) - i > len(new) - j):
                out.append((i, None)); i += 1
            elif old_later and not new_later or (old_later == new_later and len(old) - i < len(new) - j):
                out.append((None, j)); j += 1
            else:
                out.append((i, j)); i += 1; j += 1
    return out


def _patch_lined_up(parent: Any, kids: Any, pairs: list[tuple[int | None, int | None]], old: tuple[str, ...],
                    new: tuple[str, ...]) -> None:
    """Remove, insert and rewrite as ``_line_up`` says. The elements it touches are taken first, by
    their place in the old children; insertions and removals go before the rewrites, while each of
    those elements is still the one the page holds (a rewrite replaces its element)."""
    # each insertion goes before the next old child that is kept or rewritten (or at the end)
    anchor: dict[int, int | None] = {}  # new index -> the old index it goes before
    waiting: list[int] = []
    for i, j in pairs:
        if i is None:
            waiting.append(j)
        elif j is not None:
            for w in waiting:
                anchor[w] = i
            waiting = []
    for w in waiting:
        anchor[w] = None
    wanted = {i for i, j in pairs if i is not None and (j is None or old[i] != new[j])}
    wanted |= {i for i in anchor.values() if i is not None}
    els = {i: kids.item(i) for i in sorted(wanted)}
    runs: dict[int | None, list[str]] = {}
    for j in sorted(anchor):
        runs.setdefault(anchor[j], []).append(new[j])
    for i, j in pairs:
        if i is not None and j is None:
            els[i].remove()
    for at, markup in runs.items():
        if at is None:
            parent.insertAdjacentHTML("beforeend", ascii_html("".join(markup)))
        else:
            els[at].insertAdjacentHTML("beforebegin", ascii_html("".join(markup)))
    for i, j in pairs:
        if i is not None and j is not None and old[i] != new[j]:
            patch(els[i], old[i], new[j])
