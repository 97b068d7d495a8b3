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
