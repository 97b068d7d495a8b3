"""strike-rank's fields in the Party dialog (fray.web.party_view): what a character carries, to change."""

from __future__ import annotations

from typing import Any

from fray.web.party_view import _whole
from fray.web.render import esc


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
    kept = got.get("weapons", {})
    arms = "".join(
        f'<tr><th scope="row">{esc(w["name"])}</th>'
        f'<td data-field="{esc(k)}.weapon.{esc(w["id"])}"><input type="number" name="{esc(k)}.weapon.{esc(w["id"])}" '
        f'value="{kept.get(w["id"], w["hp_max"])}" aria-label="{esc(name)}: {esc(w["name"])} HP"> / {w["hp_max"]}'
        f'<p class="field-error" data-error-for="{esc(k)}.weapon.{esc(w["id"])}"></p></td></tr>'
        for w in _kept_weapons(c))
    if arms:
        fields += f'<table class="party-wounds party-weapons"><caption>Weapon and shield HP</caption><tbody>{arms}</tbody></table>'
    stuck = "".join(
        f'<li><label><input type="checkbox" name="{esc(k)}.stuck.{i}" checked> {esc(s["weapon"])} stuck in the '
        f'{esc(_loc_name(c, s["location"]))}</label></li>'
        for i, s in enumerate(got.get("stuck", [])))
    if stuck:
        fields += ('<p class="hint">Untick a weapon once it is pulled out.</p>'
                   f'<ul class="party-stuck">{stuck}</ul>')
    return fields


def _kept_weapons(c: Any) -> list[dict[str, Any]]:
    """The weapons and shields whose own HP a fight can wear down (a fist or a claw has none)."""
    return [w for w in c.data["weapons"] if isinstance(w.get("hp_max"), int) and w["hp_max"] > 0]


def _loc_name(c: Any, lid: str) -> str:
    return next((l["name"] for l in c.data["locations"] if l["id"] == lid), lid.replace("_", " ")).lower()


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
    # weapon and shield HP as typed (the engine checks each against its own HP when it is put on);
    # a weapon the form does not show keeps what it had
    weapons = dict(got.get("weapons", {}))
    for w in _kept_weapons(c):
        raw = values.get(f"{k}.weapon.{w['id']}")
        if raw is None:
            continue
        hp = _whole(raw, f"{k}.weapon.{w['id']}", f"{w['name']} HP")
        if hp == w["hp_max"]:
            weapons.pop(w["id"], None)
        else:
            weapons[w["id"]] = hp
    got["weapons"] = weapons
    if not weapons:
        got.pop("weapons")
    # a stuck weapon the GM unticked was pulled out
    stuck = [s for i, s in enumerate(got.get("stuck", [])) if values.get(f"{k}.stuck.{i}", True)]
    got["stuck"] = stuck
    if not stuck:
        got.pop("stuck")
    if not locs:
        got.pop("locations")
    if got["hp"] == c.data["hp_max"]:
        got.pop("hp")
    return got
