"""Small HTML pieces and typed-number readers shared by the ruleset panels.

Pure (no ``js``). A typed value that is not a number passes through unchanged, so the engine
names what is wrong with it at the field where it was typed.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Callable

from .render import esc


def as_int(text: Any) -> Any:
    """A typed whole number as int; anything else passes through for the engine to name."""
    if isinstance(text, str):
        s = text.strip()
        if s.lstrip("+-").isdigit():
            return int(s)
    return text


def as_number(text: Any) -> Any:
    if isinstance(text, str):
        try:
            f = float(text.strip())
        except ValueError:
            return text
        return int(f) if f.is_integer() else f
    return text


def err_slot(name: str) -> str:
    """Where an engine error about field ``name`` is shown (see App.show_error)."""
    return f'<p class="field-error" data-error-for="{esc(name)}"></p>'


def act_button(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> str:
    extra = "".join(f' data-{esc(k.replace("_", "-"))}="{esc(v)}"' for k, v in data.items())
    al = f' aria-label="{esc(aria)}"' if aria else ""
    c = f' class="{esc(cls)}"' if cls else ""
    return f'<button type="button" data-act="{esc(act)}"{c}{al}{extra}>{esc(label)}</button>'


def text_input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> str:
    ph = f' placeholder="{esc(placeholder)}"' if placeholder else ""
    return (f'<input id="{esc(fid)}" name="{esc(name)}" type="text" inputmode="{mode}" autocomplete="off"'
            f' value="{esc("" if value is None else value)}"{ph}>')


def field(fid: str, name: str, label: str, control: str, hint: str = "", cls: str = "") -> str:
    """A labelled control with its hint and the slot where an engine error about ``name`` lands."""
    h = f'<small class="hint">{esc(hint)}</small>' if hint else ""
    c = f" {cls}" if cls else ""
    return (f'<div class="field{c}" data-field="{esc(name)}"><label for="{esc(fid)}">{esc(label)}</label>'
            f'{control}{h}{err_slot(name)}</div>')


def select(fid: str, name: str, options: list[tuple[str, str]] | tuple[tuple[str, str], ...], selected: Any = None,
           groups: str = "") -> str:
    """A drop-down of (value, on-screen label) pairs; ``groups``: ready-made ``<optgroup>`` markup after them."""
    # the markup depends on each value and label only as text (``esc`` makes them text), so the
    # memo's key is that text: 1 and True, equal as Python values, are not the same option
    pairs = tuple((str(v), str(t)) for v, t in options)
    key = (pairs, str(selected))
    opts = _OPTIONS.get(key)
    if opts is None:
        opts = "".join(f'<option value="{esc(v)}"{" selected" if key[1] == v else ""}>{esc(t)}</option>'
                       for v, t in pairs)
        if len(_OPTIONS) >= 4096:
            _OPTIONS.clear()
        _OPTIONS[key] = opts
    return f'<select id="{esc(fid)}" name="{esc(name)}">{opts}{groups}</select>'


# The options of a drop-down by (options, selected): a strike-rank render draws the same Target list
# of every combatant in each attack form, and the same Defender's choice and Mode lists, again and
# again (164 drop-downs in a 30-combatant Next). Bounded, like ``render.esc``'s memo.
_OPTIONS: dict[tuple[tuple[tuple[str, str], ...], str], str] = {}


def check(fid: str, name: str, label: str, checked: bool = False, cls: str = "", value: str = "") -> str:
    """A tick box inside its label (the whole label is the touch target)."""
    v = f' value="{esc(value)}"' if value else ""
    c = f' class="{esc(cls)}"' if cls else ""
    return (f'<label{c} for="{esc(fid)}"><input type="checkbox" id="{esc(fid)}" name="{esc(name)}"{v}'
            f'{" checked" if checked else ""}> {esc(label)}</label>')


def general_err(prefix: str) -> str:
    """The slot for an error about the whole form (the engine's rule refusals land here)."""
    return f'<p class="field-error {esc(prefix)}-form-error" data-error-for="{esc(prefix)}"></p>'


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
        anchor.insertAdjacentHTML("beforebegin", section_html(extra))


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


def fold_open(cls: str, key: str, open_: bool, lazy: bool = False, attrs: str = "") -> str:
    """The opening tag of a fold-out the page keeps open or shut across renders (``data-fold``:
    its key). ``lazy``: drawn without its body, which ``App.on_toggle`` draws when it opens
    (``data-fold-lazy``). ``attrs``: markup of further attributes, after the key."""
    if _drawn is not None:
        _drawn[key] = (bool(open_), "data-fold-drawn" in attrs)
    return (f'<details class="{esc(cls)}" data-fold="{esc(key)}"{attrs}{" data-fold-lazy" if lazy else ""}'
            f'{" open" if open_ else ""}>')


def lazy_fold(cls: str, key: str, summary: str, body: Callable[[], str], open_: bool, drawn: bool) -> str:
    """A fold-out drawn without its body until it first opens (``data-fold-lazy``: ``App.on_toggle``
    renders on that toggle), then with it while ``drawn`` (the panel keeps it so while it is on the
    page, so what the GM typed in it stays). ``body`` is called only when it is drawn. Its summary
    has an id, so the render that draws the body gives the keyboard's focus back to it."""
    head = fold_summary(summary, f"fold-{key}")
    if not (open_ or drawn):
        return fold_open(cls, key, False, lazy=True) + head + "</details>"
    return fold_open(cls, key, open_) + head + body() + "</details>"


def fold_summary(html: str, sid: str = "", aria: str = "") -> str:
    """A fold-out's summary line; ``sid`` gives it an id, so the render after a lazy fold-out opens
    gives the keyboard's focus back to it."""
    i = f' id="{esc(sid)}"' if sid else ""
    al = f' aria-label="{esc(aria)}"' if aria else ""
    return f"<summary{i}{al}>{html}</summary>"
