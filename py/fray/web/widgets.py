"""Small HTML pieces and typed-number readers shared by the ruleset panels.

Pure (no ``js``). Each piece is ``Markup`` built with ``fray.web.html``: a label, hint or summary
is text (escaped) or ``Markup`` (passed as it is); a control or a body is markup by contract,
``Markup`` or a ``Block``: a plain str given there is text, escaped like any other. A typed value
that is not a number passes through unchanged, so the engine names what is wrong with it at the
field where it was typed.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable

from .blocks import ascii_html
from .html import Markup, fragment, h, html
from .render import memo


# the page reads typed numbers as the engine's readers do (one home: fray.games.base)
from fray.games.base import as_int, as_number  # noqa: E402,F401


@memo
def err_slot(name: str) -> Markup:
    """Where an engine error about field ``name`` is shown (see App.show_error)."""
    return html('<p class="field-error" data-error-for="{}"></p>', name)


@memo
def act_button(label: Any, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    """A button whose click is ``act``; ``label`` is text (escaped) or Markup."""
    at = {"type": "button", "data-act": act, "class": cls or None, "aria-label": aria or None}
    for k, v in data.items():
        at["data-" + k.replace("_", "-")] = str(v)  # every one written, as text (None as "None")
    return h("button", at, label)


@memo
def text_input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return h("input", {"id": fid, "name": name, "type": "text", "inputmode": mode, "autocomplete": "off",
                       "value": "" if value is None else str(value), "placeholder": placeholder or None})


@memo
def field(fid: str, name: str, label: Any, control: Any, hint: Any = "", cls: str = "") -> Markup:
    """A labelled control with its hint and the slot where an engine error about ``name`` lands.
    ``label`` and ``hint``: text or Markup; ``control``: Markup (a plain str is text, escaped)."""
    return html('<div class="field{}" data-field="{}"><label for="{}">{}</label>{}{}{}</div>',
                f" {cls}" if cls else "", name, fid, label, fragment(control),
                html('<small class="hint">{}</small>', hint) if hint else "", err_slot(name))


def select(fid: str, name: str, options: list[tuple[str, str]] | tuple[tuple[str, str], ...], selected: Any = None,
           groups: Any = "") -> Markup:
    """A drop-down of (value, on-screen label) pairs; ``groups``: ready-made ``<optgroup>`` Markup after them."""
    # the markup depends on each value and label only as text (escaping makes them text), so the
    # memo's key is that text: 1 and True, equal as Python values, are not the same option
    pairs = tuple((str(v), str(t)) for v, t in options)
    key = (pairs, str(selected))
    whole = (fid, name, key, groups, type(groups))
    out = _SELECTS.get(whole)
    if out is not None:
        return out
    opts = _OPTIONS.get(key)
    if opts is None:
        opts = fragment([h("option", {"value": v, "selected": key[1] == v}, t) for v, t in pairs])
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        _OPTIONS[key] = opts
    out = html('<select id="{}" name="{}">{}{}</select>', fid, name, opts, fragment(groups))
    if len(_SELECTS) >= 4096:
        _SELECTS.clear()
    _SELECTS[whole] = out
    return out


# The options of a drop-down by (options, selected): a strike-rank render draws the same Target list
# of every combatant in each attack form, and the same Defender's choice and Mode lists, again and
# again (164 drop-downs in a 30-combatant Next). Bounded, like ``fray.web.html``'s memo of escapes.
_OPTIONS: dict[tuple[tuple[tuple[str, str], ...], str], Markup] = {}
_SELECTS: dict[tuple, Markup] = {}  # each whole drop-down by its id, name, options and groups


@memo
def check(fid: str, name: str, label: Any, checked: bool = False, cls: str = "", value: str = "") -> Markup:
    """A tick box inside its label (the whole label is the touch target); ``label``: text or Markup."""
    return h("label", {"class": cls or None, "for": fid},
             h("input", {"type": "checkbox", "id": fid, "name": name, "value": value or None, "checked": checked}),
             " ", label)


@memo
def general_err(prefix: str) -> Markup:
    """The slot for an error about the whole form (the engine's rule refusals land here)."""
    return html('<p class="field-error {}-form-error" data-error-for="{}"></p>', prefix, prefix)


def names_in(view: dict[str, Any]) -> dict[str, str]:
    """{id: name} of a view whose ``combatants`` is a list (tactical-round, range-band)."""
    return {c["id"]: c["name"] for c in view.get("combatants", [])}


def combatant_in(view: dict[str, Any], cid: str | None) -> dict[str, Any] | None:
    return next((c for c in view.get("combatants", []) if c["id"] == cid), None)


class ZeroFace(ValueError):
    """A typed die of 0. No die shows 0: a d100's hundred is typed 00 or 100 (issue 32: a lone 0
    was taken for 100, a fumble, with no word said), a d10's 0 is typed 10."""


ZERO_FACE = "no die shows 0: type 00 or 100 for a d100's hundred, 10 for a d10's 0"


def parse_faces(text: Any, signed: bool = False) -> list[int] | None:
    """Typed dice faces: "8 4" / "8,4" → [8, 4]; blank → None (Fray rolls); "00" (a d100's
    hundred) → 100. ``ZeroFace`` for a lone 0; ValueError naming the first piece that is not a
    whole number (``signed``: "+2" and "-1" are whole numbers too)."""
    parts = [p for p in str(text or "").replace(",", " ").split() if p]
    if not parts:
        return None
    out = []
    for p in parts:
        if not (p.isdigit() or (signed and p[0] in "+-" and p[1:].isdigit())):
            raise ValueError(p)
        digits = p.lstrip("+-")
        if digits == "00":
            out.append(100)
        elif int(digits) == 0:
            raise ZeroFace(p)
        else:
            out.append(int(p))
    return out


# -- a ruleset's compact section in the add-combatant dialog ----------------------------------------
# The dialog's JSON box "combatant.extra" stays the one place the ruleset's fields live: a panel's
# friendlier section is filled from it when the dialog opens (or a ready-made combatant is used)
# and folded back into it on submit, so nothing is kept twice.

def split_lines(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank lines of a one-thing-a-line box: (line number from 1, its comma-separated
    columns, stripped)."""
    out = []
    for n, line in enumerate((text or "").splitlines(), 1):
        cols = [c.strip() for c in line.split(",")]
        if any(cols):
            out.append((n, cols))
    return out


def read_extra(text: Any) -> dict[str, Any] | None:
    """The JSON box as a dict ({} when blank); None when it is not a JSON object (the app names that)."""
    from ..gate import parse_json

    if not isinstance(text, str) or not text.strip():
        return {}
    try:
        extra = parse_json(text, "combatant.extra")  # depth-scanned first: see fray.gate
    except ValueError:
        return None
    return extra if isinstance(extra, dict) else None


def fold_extra(values: dict[str, Any], merge: Any) -> None:
    """Replace ``values["combatant.extra"]`` by ``merge(values, extra)`` as JSON; a box that is not a
    JSON object is left for the app to name at its field."""
    import json

    extra = read_extra(values.get("combatant.extra", ""))
    if extra is None:
        return
    merged = merge(values, extra)
    values["combatant.extra"] = json.dumps(merged, ensure_ascii=False) if merged else ""


def open_add_section(app: Any, act: str, el: Any, cls: str, section_html: Any) -> None:
    """``add-combatant`` / ``use-preset``: the generic dialog (or the ready-made combatant put into
    it), then the panel's section (``<fieldset class=cls>`` from ``section_html(extra)``) just
    above the JSON box, filled from what the box now holds."""
    from . import render as R
    from .dom import by_id, nil, q

    if act == "add-combatant":
        app.open_dialog(R.combatant_form(app.ruleset, None, app.ruleset.presets()))
        form = q(by_id("dlg-body"), "form")
    else:
        form = nil(el.closest("form"))
        app.use_preset(form)
    if form is None:
        return
    old = q(form, f".{cls}")
    if old is not None:
        old.remove()
    box = q(form, '[name="combatant.extra"]')
    extra = read_extra(box.value if box is not None else "") or {}
    anchor = q(form, '[data-field="combatant.extra"]') or q(form, '[data-error-for="combatant"]')
    if anchor is not None:
        anchor.insertAdjacentHTML("beforebegin", ascii_html(section_html(extra)))


# The fold-outs drawn while the painter renders, {key: (open, drawn with its body)} (``drawing``):
# the page's view state learns from the render itself how each is shown, never from the page.
_drawn: dict[str, tuple[bool, bool]] | None = None


def drawing(folds: dict[str, tuple[bool, bool]] | None) -> None:
    """Collect into ``folds`` each fold-out ``fold_open`` draws from now on (None: stop)."""
    global _drawn
    _drawn = folds


def drawn_mark() -> int:
    """Where the fold-outs drawn from now on start (``drawn_since``)."""
    return len(_drawn) if _drawn is not None else 0


def drawn_since(mark: int) -> dict[str, tuple[bool, bool]]:
    """The fold-outs drawn since ``mark``: what a part kept for the next render holds."""
    return dict(islice(_drawn.items(), mark, None)) if _drawn is not None else {}


def drawn_again(folds: dict[str, tuple[bool, bool]]) -> None:
    """A kept part put on the page again as it was: its fold-outs are drawn as they were."""
    if _drawn is not None:
        _drawn.update(folds)


def fold_seen(key: str, open_: bool, drawn: bool) -> None:
    """Tell the render that the fold-out ``key`` is drawn open or shut, with its body or not (a
    fold-out built without ``fold_open`` says so itself)."""
    if _drawn is not None:
        _drawn[key] = (bool(open_), bool(drawn))


def fold_open(cls: str, key: str, open_: bool, lazy: bool = False, attrs: Any = "") -> Markup:
    """The opening tag of a fold-out the page keeps open or shut across renders (``data-fold``:
    its key). ``lazy``: drawn without its body, which ``App.on_toggle`` draws when it opens
    (``data-fold-lazy``). ``attrs``: Markup of further attributes, after the key
    (``render.attrs(data_id=cid)``); a plain str is text, escaped."""
    if _drawn is not None:
        _drawn[key] = (bool(open_), "data-fold-drawn" in attrs)
    return _fold_open(cls, key, open_, lazy, attrs)


@memo
def _fold_open(cls: str, key: str, open_: bool, lazy: bool, attrs: Any) -> Markup:
    return html('<details class="{}" data-fold="{}"{}{}{}>', cls, key, fragment(attrs),
                _LAZY if lazy else "", _OPEN if open_ else "")


_LAZY, _OPEN, _DETAILS_END = html(" data-fold-lazy"), html(" open"), html("</details>")


def lazy_fold(cls: str, key: str, summary: Any, body: Callable[[], Any], open_: bool, drawn: bool) -> Markup:
    """A fold-out drawn without its body until it first opens (``data-fold-lazy``: ``App.on_toggle``
    renders on that toggle), then with it while ``drawn`` (the panel keeps it so while it is on the
    page, so what the GM typed in it stays). ``body`` is called only when it is drawn. Its summary
    has an id, so the render that draws the body gives the keyboard's focus back to it. ``summary``:
    as ``fold_summary``'s; ``body()``: Markup (a plain str is text, escaped)."""
    head = fold_summary(summary, f"fold-{key}")
    if not (open_ or drawn):
        return fragment(fold_open(cls, key, False, lazy=True), head, _DETAILS_END)
    return fragment(fold_open(cls, key, open_), head, body(), _DETAILS_END)


@memo
def fold_summary(content: Any, sid: str = "", aria: str = "") -> Markup:
    """A fold-out's summary line, ``content`` text (escaped) or Markup; ``sid`` gives it an id, so
    the render after a lazy fold-out opens gives the keyboard's focus back to it."""
    return (h("summary", {"id": sid or None, "aria-label": aria or None}, content))
