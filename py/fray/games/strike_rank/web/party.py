"""strike-rank's fields in the Party dialog (fray.web.party_view): what a character carries, to change."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, html
from fray.web.party_view import _whole


def fields_html(k: str, got: dict[str, Any], c: Any, name: str) -> Markup:
    locs = got.get("locations", {})
    rows = [html('<tr><th scope="row">{loc}</th>'
                 '<td><input type="number" name="{k}.hp.{id}" value="{hp}" aria-label="{who}: {loc} HP"> / {max}</td>'
                 '<td><label><input type="checkbox" name="{k}.bleeding.{id}"{bleeding}> bleeding</label></td>'
                 '<td><label><input type="checkbox" name="{k}.first_aid.{id}"{aid}> First Aid given</label></td></tr>',
                 loc=l["name"], k=k, id=l["id"], hp=locs.get(l["id"], {}).get("hp", l["hp_max"]), who=name,
                 max=l["hp_max"], bleeding=_checked(locs.get(l["id"], {}).get("bleeding")),
                 aid=_checked(locs.get(l["id"], {}).get("first_aid")))
            for l in c.data["locations"]]
    fields = [html('<table class="party-wounds"><tbody>{}</tbody></table>'
                   '<label>Total HP <input type="number" name="{}.total" value="{}"> / {}</label>',
                   fragment(rows), k, got.get("hp", c.data["hp_max"]), c.data["hp_max"])]
    kept = got.get("weapons", {})
    arms = [html('<tr><th scope="row">{w}</th><td data-field="{k}.weapon.{id}"><input type="number" '
                 'name="{k}.weapon.{id}" value="{hp}" aria-label="{who}: {w} HP"> / {max}'
                 '<p class="field-error" data-error-for="{k}.weapon.{id}"></p></td></tr>',
                 w=w["name"], k=k, id=w["id"], hp=kept.get(w["id"], w["hp_max"]), who=name, max=w["hp_max"])
            for w in _kept_weapons(c)]
    if arms:
        fields.append(html('<table class="party-wounds party-weapons"><caption>Weapon and shield HP</caption>'
                           '<tbody>{}</tbody></table>', fragment(arms)))
    stuck = [html('<li><label><input type="checkbox" name="{}.stuck.{}" checked> {} stuck in the {}</label></li>',
                  k, i, s["weapon"], _loc_name(c, s["location"]))
             for i, s in enumerate(got.get("stuck", []))]
    if stuck:
        fields.append(html('<p class="hint">Untick a weapon once it is pulled out.</p><ul class="party-stuck">{}</ul>',
                           fragment(stuck)))
    return fragment(fields)


def _checked(on: Any) -> Markup:
    return html(" checked") if on else Markup("")


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
