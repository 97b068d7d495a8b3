"""Markup the painter can patch part by part instead of writing it whole.

A ``Block`` is a string (so everything that reads markup reads it as before: tests, ``in``,
joining) that also remembers how it was put together: an element's opening tag, its children
(each exactly one element, as a plain string or a ``Block`` of its own) and its closing tag. A
Block with no tags at all is a fragment: its children are the children of the region it is
written into.

When a region's old and new markup are both Blocks with the same tags, ``patch`` rewrites only
the children whose markup changed (and, inside a child that is a Block, only its changed
children), so declaring one combatant's action rewrites that combatant's form, not the thirty
others and their thousands of nodes. Anything it cannot match one to one (other tags, another
number of children, a DOM that no longer has as many elements as the markup has children) is
written whole, which is always right, only slower.

Pure except ``patch``, which takes the element to patch; ``js`` is never imported here.
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
        self = super().__new__(cls, open_ + "".join(kids) + close)
        self.open, self.children, self.close = open_, kids, close
        return self

    @classmethod
    def fragment(cls, children: Iterable[str]) -> "Block":
        """Children written straight into a region, with no element of their own around them."""
        return cls("", children, "")


def patch_region(root: Any, old: Any, new: str) -> None:
    """Write ``new`` into the region ``root`` that holds ``old`` (the markup last written there)."""
    if isinstance(old, Block) and isinstance(new, Block) and old.open == new.open and old.close == new.close:
        if not new.open and not new.close:
            if _patch_children(root, old.children, new.children):
                return
        elif root.children.length == 1:
            patch(root.firstElementChild, old, new)
            return
    root.innerHTML = new


def patch(el: Any, old: str, new: str) -> None:
    """Make the element ``el`` (drawn from ``old``) show ``new``, rewriting as little as it can."""
    if (isinstance(old, Block) and isinstance(new, Block) and old.open == new.open and old.close == new.close
            and _patch_children(el, old.children, new.children)):
        return
    el.outerHTML = new


def _patch_children(parent: Any, old: tuple[str, ...], new: tuple[str, ...]) -> bool:
    """Rewrite each child whose markup changed; False (nothing written) when they do not pair up."""
    if len(old) != len(new):
        return False
    kids = parent.children
    if kids.length != len(new):
        return False
    # last to first: were a child's new markup ever more than one element, the ones before it
    # would still be where they were (and the count above sends the next render to a whole write)
    for k in range(len(new) - 1, -1, -1):
        a, b = old[k], new[k]
        if a is b or a == b:
            continue
        patch(kids.item(k), a, b)
    return True

