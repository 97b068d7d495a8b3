"""The few DOM helpers the page's Python uses (Pyodide's JS proxies made Python-shaped)."""

from __future__ import annotations

import json
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

document = js.document


def nil(v: Any) -> Any:
    """JS null arrives as Pyodide's ``jsnull``, not None: fold both into None."""
    return None if v is None or type(v).__name__ == "JsNull" else v


# The shell's own elements (index.html) that no render ever replaces (a region's markup is written
# inside it, never over it): each is looked up in the page once and its proxy kept. A render reached
# for some twenty of them, and every lookup from Python made a new proxy, whose making Pyodide pays
# in JavaScript garbage (the element's type worked out, closures, strings: some 1 KB sampled in
# Chromium), which WebKit keeps until it collects (issue 36). The first paint's copy of the page
# holds the same ids, but stands after the live page, so the lookup finds the live element.
FIXED = frozenset({
    "ruleset-badge", "btn-undo", "btn-redo", "btn-history", "encounter-select", "save-state", "undo-said",
    "banner", "dlg", "dlg-body", "round-bar", "order-strip", "acting-line", "ruleset-panel", "cards-tools",
    "combatants", "log", "map", "map-scale", "map-elev", "map-info", "map-live",
})
_fixed: dict[str, Any] = {}


def by_id(i: str) -> Any:
    el = _fixed.get(i)
    if el is None:
        el = nil(document.getElementById(i))
        if el is not None and i in FIXED:
            _fixed[i] = el
    return el


# What sticks to the top of the page (app.css, all at ``top: 0``): on a tablet the tracker's head
# (round bar, order strip, acting line); on a laptop the round bar over the cards' column and the
# strip in a column of its own.
STICKY = ".tracker-head, #round-bar, #order-strip"


def below_the_head(el: Any, always: bool = True) -> None:
    """Scroll ``el``'s top to just under what sticks to the top of the page above it (some 200 px
    of a 768x1024 tablet), where ``scrollIntoView`` leaves it under them. Only what comes before
    ``el`` in the page and lies over its column counts (on a laptop the strip sticks in a column of
    its own: counting it put ``el`` 600 px down). With ``always`` False, only when ``el`` is not
    already wholly in view below them. Left alone inside a dialog, which scrolls itself."""
    if el is None or nil(el.closest("dialog")) is not None:
        return
    box = el.getBoundingClientRect()
    if box.height == 0:
        return
    head = 0.0
    for b in document.querySelectorAll(STICKY):
        # 4: DOCUMENT_POSITION_FOLLOWING, el comes after b
        if js.getComputedStyle(b).position != "sticky" or b.contains(el) or not b.compareDocumentPosition(el) & 4:
            continue
        r = b.getBoundingClientRect()
        if r.height > 0 and r.left < box.right and r.right > box.left:
            head = max(head, float(r.height))  # stuck at top 0, it ends at its height
    if always or box.top < head or box.bottom > js.window.innerHeight:
        js.window.scrollBy(0, box.top - head - 8)


def q(root: Any, selector: str) -> Any:
    return nil(root.querySelector(selector))


def data(el: Any, name: str) -> str | None:
    """``el.dataset[name]`` or None (reading a missing dataset key raises in Pyodide)."""
    v = el.getAttribute("data-" + name) if el is not None and hasattr(el, "getAttribute") else None
    return v if isinstance(v, str) else None


def fold_states(selector: str) -> dict[str, bool]:
    """{data-fold: open} of the fold-outs matching ``selector``, in one call into the page
    (static/first-paint.js ``frayFolds``); two calls per fold-out where that script is missing."""
    helper = getattr(js.globalThis, "frayFolds", None)
    if helper is not None:
        return {str(k): bool(v) for k, v in json.loads(str(helper(selector))).items()}
    return {d.getAttribute("data-fold"): bool(d.open) for d in document.querySelectorAll(selector)}


def download(filename: str, text: str) -> None:
    blob = js.Blob.new([text], js.Object.fromEntries([["type", "application/json"]]))
    url = js.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    a.download = filename
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_proxy(lambda: js.URL.revokeObjectURL(url)), 1000)


_page_functions: dict[str, Any] = {}


def page_function(name: str) -> Any:
    """One of the page's own JavaScript functions (``globalThis[name]``: static/dom.js's), looked up
    once, as each look-up from Python is a crossing; None where the page does not have it."""
    if name not in _page_functions:
        _page_functions[name] = nil(getattr(js.globalThis, name, None))
    return _page_functions[name]


def read_form(form: Any) -> dict[str, Any] | None:
    """A form's named controls as {name: value}, read by ``static/dom.js`` in one crossing, or None
    where that script is not on the page (``forms.form_values`` then reads them one by one)."""
    f = page_function("frayFormValues")
    return None if f is None else json.loads(str(f(form)))
