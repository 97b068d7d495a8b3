"""strike-rank's fields in the Party dialog (fray.web.party_view): what a character carries, to change."""

from __future__ import annotations

from typing import Any

from ..party_view import _whole
from ..render import esc


def fields_html(k: str, got: dict[str, Any], c: Any, name: str) -> str:
    fields = ""
    locs = got.get("locations", {})
    rows = "".join(
        f'<tr><th scope="row">{esc(l["name"])}</th>'
        f'<td><input type="number" name="{esc(k)}.hp.{esc(l["id"])}" value="{locs.get(l["id"], {}).get("hp", l["hp_max"])}" '
        f'aria-label="{esc(name)}: {esc(l["name"])} HP"> / {l["hp_max"]}</td>'
        f'<td><label><input type="checkbox" name="{esc(k)}.bleeding.{esc(l["id"])}"'
        f'{" checked" if locs.get(l["id"], {}).get("bleeding") else ""}> bleeding</label></td>'
        f'<td><label><input type="checkbox" name="{esc(k)}.first_aid.{esc(l["id"])}"'
        f'{" checked" if locs.get(l["id"], {}).get("first_aid") else ""}> First Aid given</label></td></tr>'
        for l in c.data["locations"])
    fields = (f'<table class="party-wounds"><tbody>{rows}</tbody></table>'
              f'<label>Total HP <input type="number" name="{esc(k)}.total" value="{got.get("hp", c.data["hp_max"])}"> '
              f'/ {c.data["hp_max"]}</label>')
    extra = [f"{w['name']} HP {hp}" for wid, hp in got.get("weapons", {}).items()
             for w in c.data["weapons"] if w["id"] == wid]
    extra += [f"{s['weapon']} stuck in the {s['location'].replace('_', ' ')}" for s in got.get("stuck", [])]
    if extra:
        fields += f'<p class="hint">Also carried: {esc("; ".join(extra))}</p>'
    return fields


def read_fields(values: dict[str, Any], k: str, got: dict[str, Any], c: Any, f: str) -> dict[str, Any]:
    got = dict(got)
    locs = {}
    for l in c.data["locations"]:
        was = dict(got.get("locations", {}).get(l["id"], {}))
        was["hp"] = _whole(values.get(f"{k}.hp.{l['id']}", l["hp_max"]), f, f"{l['name']} HP")
        for flag in ("bleeding", "first_aid"):
            if values.get(f"{k}.{flag}.{l['id']}"):
                was[flag] = True
            else:
                was.pop(flag, None)
        if was["hp"] == l["hp_max"]:
            was.pop("hp")
        if was:
            locs[l["id"]] = was
    got["locations"] = locs
    got["hp"] = _whole(values.get(f"{k}.total", c.data["hp_max"]), f, "Total HP")
    if not locs:
        got.pop("locations")
    if got["hp"] == c.data["hp_max"]:
        got.pop("hp")
    return got
