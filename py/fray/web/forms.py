"""The page's forms read and put back: every named control as typed, and what is typed in every GM
form kept across a render that draws them again (``App.on_toggle``, a new Target in an attack form)."""

from __future__ import annotations

from typing import Any

from .dom import data, read_form


def form_values(form: Any) -> dict[str, Any]:
    """Every named control of a form as {name: value} (text as typed; the engine validates): read
    in one call by ``static/dom.js`` where the page has it, else control by control."""
    got = read_form(form)
    if got is not None:
        return got
    out: dict[str, Any] = {}
    for el in form.elements:
        name = el.name
        if not name:
            continue
        if el.type == "checkbox":
            out[name] = bool(el.checked)
        elif el.type == "radio":
            if el.checked:
                out[name] = el.value
        else:
            out[name] = el.value
    return out


def restore_values(form: Any, values: dict[str, Any]) -> None:
    """Put values read by ``form_values`` back into a redrawn form: a drop-down only to an option
    it still offers, a tick box as it was, text as typed."""
    for el in form.elements:
        name = str(el.name or "")
        if name not in values or el.type in ("file", "radio"):
            continue
        v = values[name]
        if el.type == "checkbox":
            el.checked = bool(v)
        elif el.tagName == "SELECT":
            if any(str(o.value) == str(v) for o in el.options):
                el.value = str(v)
        else:
            el.value = str(v)


# what tells one GM form on the page from another (its data- attributes), across a redraw
FORM_KEYS = ("form", "id", "ref", "prompt", "owner", "weapon", "kind")


def _form_keys(root: Any) -> list[tuple[Any, tuple]]:
    """Each GM form under ``root`` with what it is for (``FORM_KEYS``) and, among forms for the
    same thing, its place: two forms alike never swap what was typed in them."""
    seen: dict[tuple, int] = {}
    out = []
    for f in root.querySelectorAll("form[data-form]"):
        key = tuple(data(f, k) or "" for k in FORM_KEYS)
        seen[key] = seen.get(key, -1) + 1
        out.append((f, (*key, seen[key])))
    return out


def typed_forms(root: Any) -> dict[tuple, dict[str, Any]]:
    """What is typed in every GM form under ``root``, by ``_form_keys``."""
    return {key: form_values(f) for f, key in _form_keys(root)}


def restore_typed(root: Any, typed: dict[tuple, dict[str, Any]]) -> None:
    """Put ``typed_forms``' values back into the forms a render drew again."""
    for f, key in _form_keys(root):
        v = typed.get(key)
        if v:
            restore_values(f, v)


def nest(values: dict[str, Any], prefix: str) -> dict[str, Any]:
    """{"combatant.stats.SIZ": "12"} → {"stats": {"SIZ": "12"}} for the given prefix."""
    out: dict[str, Any] = {}
    for k, v in values.items():
        if not k.startswith(prefix + "."):
            continue
        parts = k[len(prefix) + 1:].split(".")
        cur = out
        for p in parts[:-1]:
            cur = cur.setdefault(p, {})
        cur[parts[-1]] = v
    return out
