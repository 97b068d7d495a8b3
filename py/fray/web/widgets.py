"""Small HTML pieces and typed-number readers shared by the ruleset panels.

Pure (no ``js``). A typed value that is not a number passes through unchanged, so the engine
names what is wrong with it at the field where it was typed.
"""

from __future__ import annotations

from typing import Any

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
