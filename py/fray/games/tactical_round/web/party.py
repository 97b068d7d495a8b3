"""tactical-round's fields in the Party dialog (fray.web.party_view): what a character carries, to change."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, html
from fray.web.party_view import _whole


def fields_html(k: str, got: dict[str, Any], c: Any, name: str) -> Markup:
    return html('<label>Hits taken <input type="number" name="{k}.hits_taken" value="{hits}"></label>'
                '<label>Lasting criticals (one a line) <textarea name="{k}.lasting" rows="2">{lasting}</textarea></label>',
                k=k, hits=got.get("hits_taken", 0), lasting="\n".join(got.get("lasting", [])))


def read_fields(values: dict[str, Any], k: str, got: dict[str, Any], c: Any, f: str) -> dict[str, Any]:
    got = dict(got)
    got["hits_taken"] = _whole(values.get(f"{k}.hits_taken", 0), f, "Hits taken")
    got["lasting"] = [x.strip() for x in str(values.get(f"{k}.lasting", "")).splitlines() if x.strip()]
    for key_, empty in (("hits_taken", 0), ("lasting", [])):
        if got[key_] == empty:
            got.pop(key_)
    return got
