"""range-band's fields in the Party dialog (fray.web.party_view): what a character carries, to change."""

from __future__ import annotations

from typing import Any

from fray.web.party_view import _whole
from fray.web.html import Markup, fragment, html


def fields_html(k: str, got: dict[str, Any], c: Any, name: str) -> Markup:
    return fragment(html('<label>{} <input type="number" min="0" name="{}.{}" value="{}"></label>', w, k, f,
                         got.get(f, 0))
                    for f, w in (("fatigue", "Fatigue"), ("trauma", "Trauma")))


def read_fields(values: dict[str, Any], k: str, got: dict[str, Any], c: Any, f: str) -> dict[str, Any]:
    got = dict(got)
    for name, what in (("fatigue", "Fatigue"), ("trauma", "Trauma")):
        got[name] = _whole(values.get(f"{k}.{name}", 0), f, what)
        if got[name] == 0:
            got.pop(name)
    return got
