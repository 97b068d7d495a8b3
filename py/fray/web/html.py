"""Markup that escapes by default: the one place the page's HTML is put together from text.

``Markup`` is a string known to be markup. Everything else is text, and is escaped wherever it
meets markup: as a child of ``h``, as an attribute value, as an argument of ``html``, in
``Markup.join`` and ``+``. Only two things make Markup out of a plain string: a template literal
given to ``html`` (code, never data) and ``trusted`` (for markup that is already safe by how it
was made; every use says why). This is htpy's rule (shared/STYLE.md 16): a name typed by the GM,
an imported save's text or a bestiary entry can never become an element.

    h("li", {"class": "who", "data-cid": cid}, name, " ", h("b", None, hp))
    html('<p class="hint">{} of {} left</p>', left, total)

``h`` builds one element: ``attrs`` is a dict (``None`` or ``False`` leaves an attribute out,
``True`` writes it bare; ``class_`` style names are not needed, keys are written as given);
children are text, Markup, numbers, ``None`` (nothing) or iterables of those. ``block`` builds the
same element as a ``Block`` the painter can patch child by child (``web/blocks.py``).

Pure: no ``js`` here; CPython tests call everything.
"""

from __future__ import annotations

from html import escape as _escape
from typing import Any, Iterable

from .blocks import Block

__all__ = ["Markup", "escape", "trusted", "h", "html", "block", "fragment", "attrs", "VOID"]

# Rendering a 30-combatant fight escapes the same few hundred names and numbers again and again.
_ESCAPED: dict[str, Markup] = {}  # kept as Markup: no copy made per use
_ESCAPED_MAX = 4096


class Markup(str):
    """A string that is markup. Joining and adding keep it markup, escaping what is not."""

    __slots__ = ()

    def __add__(self, other: Any) -> "Markup":
        return Markup(str.__add__(self, escape(other)))

    def __radd__(self, other: Any) -> "Markup":
        return Markup(str.__add__(escape(other), self))

    def join(self, items: Iterable[Any]) -> "Markup":  # type: ignore[override]
        return Markup(str.join(self, (escape(i) for i in items if i is not None)))

    def __html__(self) -> str:
        return self


def escape(value: Any) -> Markup:
    """Text as markup: ``&<>"'`` escaped. Markup and a Block (markup the painter can patch) pass
    as they are."""
    if type(value) is not str:
        if isinstance(value, (Markup, Block)):
            return value  # type: ignore[return-value]
        value = str(value)
    out = _ESCAPED.get(value)
    if out is None:
        out = Markup(_escape(value, quote=True))
        if len(_ESCAPED) >= _ESCAPED_MAX:
            _ESCAPED.clear()
        _ESCAPED[value] = out
    return out


def trusted(markup: str) -> Markup:
    """Markup made safe by how it was made (a constant, an SVG path of numbers, a Block's parts):
    the one way past escaping, so every call says why in a comment."""
    return markup if isinstance(markup, Markup) else Markup(markup)


# Elements with no closing tag.
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})


def attrs(values: dict[str, Any] | None) -> str:
    """`` name="value"`` for each attribute, values escaped; None/False left out, True bare."""
    if not values:
        return ""
    out = []
    for name, value in values.items():
        if value is None or value is False:
            continue
        if value is True:
            out.append(" " + name)
        else:
            out.append(f' {name}="{escape(value)}"')
    return "".join(out)


def _children(items: Iterable[Any], out: list[str]) -> None:
    for c in items:
        if c is None or c is False or c == "":
            continue
        if isinstance(c, str):
            out.append(escape(c))
        elif isinstance(c, (list, tuple)) or (hasattr(c, "__iter__") and not isinstance(c, (bytes, dict))):
            _children(c, out)
        else:
            out.append(escape(c))


def fragment(*children: Any) -> Markup:
    """Children side by side with no element around them."""
    out: list[str] = []
    _children(children, out)
    return Markup("".join(out))


def h(tag: str, attributes: dict[str, Any] | None = None, *children: Any) -> Markup:
    """One element: ``<tag attrs>children</tag>``, every text escaped."""
    open_ = f"<{tag}{attrs(attributes)}>"
    if tag in VOID:
        return Markup(open_)
    out: list[str] = [open_]
    _children(children, out)
    out.append(f"</{tag}>")
    return Markup("".join(out))


def block(tag: str | None, attributes: dict[str, Any] | None = None, *children: Any):
    """``h``'s element as a ``Block`` (each child must be one element, or text the painter treats
    as one): the painter rewrites only the children that changed. ``tag=None``: a fragment."""
    kids: list[str] = []
    for c in children:
        if isinstance(c, (list, tuple)):
            kids.extend(escape(k) for k in c if k)
        elif c:
            kids.append(escape(c))
    if tag is None:
        return Block.fragment(kids)
    return Block(f"<{tag}{attrs(attributes)}>", kids, f"</{tag}>")


# ``html``'s holes as plain escaped strs: ``str.format`` takes a str subclass (Markup) by a slow
# path, about three times the cost of a plain str, and every hole of every template meets it.
_HOLES: dict[str, str] = {}


def _arg(value: Any) -> Any:
    # A number is written as it is, so a hole may format it ("{:.1f}"); anything else is escaped.
    t = type(value)
    if t is int or t is float:
        return value
    if t is str:
        out = _HOLES.get(value)
        if out is None:
            out = _escape(value, quote=True)
            if len(_HOLES) >= _ESCAPED_MAX:
                _HOLES.clear()
            _HOLES[value] = out
        return out
    if t is Markup or isinstance(value, (Markup, Block)):
        return str.__str__(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return _arg(str(value))


def html(template: str, *args: Any, **kwargs: Any) -> Markup:
    """A template literal with ``{}`` / ``{name}`` holes, each filled with its argument escaped
    (Markup passes; a number may carry a format, ``{:.1f}``). The template is code:
    ``tests/unit/test_markup.py`` refuses any first argument that is not a string literal."""
    holes = _HOLES  # the common case inline: a str already seen
    filled = [holes[a] if type(a) is str and a in holes else _arg(a) for a in args]
    if kwargs:
        return Markup(template.format(*filled, **{k: _arg(v) for k, v in kwargs.items()}))
    return Markup(template.format(*filled))
