"""The add form's weapons section: one weapon a line, folded into the dialog's JSON box
("combatant.extra") on submit, so the box stays the one place the weapons live. A line the parser
cannot read, or that the engine's own weapon check refuses, is named at the weapons field and
nothing is added."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.web.html import Markup, html
from fray.web.widgets import as_int, as_number, fold_extra, read_extra, split_lines

from .common import _err


WEAPON_KINDS = ("melee", "missile", "thrown", "unarmed", "natural", "spell")
WEAPONS_HINT = ("One weapon a line: name, CMB, kind (melee, missile, thrown, unarmed, natural, spell), "
                "base range in m (missile, thrown, spell), reload rounds (missile), then flags: quick_load, "
                "two_handed, shield=15 (its DEF bonus), length=3, unloaded. "
                "For example: Light crossbow, 50, missile, 30, 1, quick_load, two_handed")
_BARE_FLAGS = {"quick_load": ("quick_load", True), "two_handed": ("two_handed", True),
               "unloaded": ("loaded", False), "loaded": ("loaded", True)}
_KEYED = {"shield": "shield", "length": "length", "range": "base_range", "base_range": "base_range",
          "reload": "reload"}


def _g(n: Any) -> str:
    return f"{n:g}" if isinstance(n, float) else str(n)


def weapons_text(weapons: Any) -> str:
    """The engine's weapons as lines ``name, CMB, kind[, base range[, reload]][, flags]``."""
    lines = []
    for w in weapons if isinstance(weapons, list) else []:
        if not isinstance(w, dict):
            continue
        kind = w.get("kind", "melee")
        cols = [str(w.get("name", "")), _g(w.get("cmb", "")), str(kind)]
        flags = []
        reload = w.get("reload")
        if w.get("base_range") is not None:
            cols.append(_g(w["base_range"]))
            if kind == "missile" and reload not in (None, ""):
                cols.append(_g(reload))
        elif kind == "missile" and reload not in (None, ""):
            flags.append(f"reload={_g(reload)}")
        flags += [f for f in ("quick_load", "two_handed") if w.get(f)]
        if w.get("shield"):
            flags.append(f"shield={_g(w['shield'])}")
        if w.get("length"):
            flags.append(f"length={_g(w['length'])}")
        if w.get("loaded") is False and kind in ("missile", "thrown"):
            flags.append("unloaded")
        lines.append(", ".join(cols + flags))
    return "\n".join(lines)


def parse_weapons(text: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The lines back to the engine's weapon objects, with the line number of each.

    Numbers the engine must judge (a CMB of "lots", kind "laser") pass through as typed, so its
    weapon check names them; a line whose shape is wrong raises ``InvalidAction("combatant.weapons",
    "Line N: ...")``."""
    out: list[dict[str, Any]] = []
    lines: list[int] = []
    for n, cols in split_lines(text):
        name = cols[0]
        where = f"Line {n}" + (f" ({name})" if name else "")
        if not name:
            raise InvalidAction("combatant.weapons", f"{where}: start the line with the weapon's name")
        if len(cols) < 2 or cols[1] == "":
            raise InvalidAction("combatant.weapons", f"{where}: give the CMB after the name (name, CMB, kind, ...)")
        w: dict[str, Any] = {"name": name, "cmb": as_int(cols[1])}
        if len(cols) > 2 and cols[2]:
            w["kind"] = cols[2].lower()
        numbers = ["base_range", "reload"]
        for col in cols[3:]:
            if col == "":
                if numbers:
                    numbers.pop(0)  # "Spear, 40, thrown, , , length=3": a blank keeps its place
                continue
            key, eq, val = col.partition("=")
            key = key.strip().lower().replace(" ", "_").replace("-", "_")
            if eq:
                field = _KEYED.get(key)
                if field is None:
                    raise InvalidAction("combatant.weapons", f"{where}: unknown flag {col!r} (flags: quick_load, "
                                                             "two_handed, shield=N, length=N, unloaded)")
                val = val.strip()
                w[field] = as_int(val) if field in ("shield", "reload") else as_number(val)
                if field in numbers:
                    numbers.remove(field)
            elif key in _BARE_FLAGS:
                field, v = _BARE_FLAGS[key]
                w[field] = v
            elif numbers and as_number(col) != col:
                field = numbers.pop(0)
                w[field] = as_int(col) if field == "reload" else as_number(col)
            else:
                raise InvalidAction("combatant.weapons", f"{where}: {col!r} is not a {'number or a ' if numbers else ''}"
                                                         "flag (flags: quick_load, two_handed, shield=N, length=N, "
                                                         "unloaded)")
        out.append(w)
        lines.append(n)
    return out, lines


def check_weapons_lines(weapons: Any, lines: list[int]) -> None:
    """The engine's own weapon check, its error moved to the weapons field and named by line."""
    from fray.games.tactical_round.combatant import check_weapons

    try:
        check_weapons(weapons, "weapons")
    except InvalidAction as e:
        parts = e.field.split(".")
        msg = str(e).split(": ", 1)[-1]
        if len(parts) >= 2 and parts[1].isdigit() and isinstance(weapons, list) and int(parts[1]) < len(weapons):
            i = int(parts[1])
            n = lines[i] if i < len(lines) else i + 1
            w = weapons[i]
            name = w.get("name") if isinstance(w, dict) else None
            what = {"cmb": "CMB", "base_range": "base range"}.get(parts[2], parts[2].replace("_", " ")) \
                if len(parts) > 2 else ""
            msg = f"Line {n}{f' ({name})' if name else ''}: {what + ' ' if what else ''}{msg}"
        raise InvalidAction("combatant.weapons", msg) from None


def add_fields_html(extra: dict[str, Any] | None) -> Markup:
    """The weapons section of the add form (its errors land on ``combatant.weapons``)."""
    text = weapons_text((extra or {}).get("weapons", []))
    rows = max(3, min(8, text.count("\n") + 2))
    return html(
        '<fieldset class="tr-add"><legend>Weapons</legend>'
        '<div class="field" data-field="combatant.weapons"><label for="f-tr-weapons">Weapons, one a line</label>'
        '<textarea id="f-tr-weapons" name="tr_weapons" rows="{}" spellcheck="false" autocapitalize="off" '
        'aria-describedby="f-tr-weapons-hint">{}</textarea>'
        '<small class="hint" id="f-tr-weapons-hint">{}</small>{}</div>'
        '<p class="hint">Folded into the JSON below when you press Add.</p></fieldset>',
        rows, text, WEAPONS_HINT, _err("combatant.weapons"))


def add_extra(values: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON box's fields with the typed weapon lines (unchanged lines keep the box's weapons)."""
    out = dict(extra or {})
    text = values.get("tr_weapons", "") or ""
    if text.strip() != weapons_text(out.get("weapons", [])).strip():
        weapons, _ = parse_weapons(text)
        if weapons:
            out["weapons"] = weapons
        else:
            out.pop("weapons", None)
    return out


def fold_weapons(values: dict[str, Any]) -> None:
    """``values["combatant.extra"]`` with the typed weapons folded in, after the engine's weapon
    check; raises ``InvalidAction("combatant.weapons", "Line N ...")`` and leaves values as they were."""
    extra = read_extra(values.get("combatant.extra", ""))
    if extra is None:
        return  # not a JSON object: the app names it at its box
    text = values.get("tr_weapons", "") or ""
    if text.strip() != weapons_text(extra.get("weapons", [])).strip():
        weapons, lines = parse_weapons(text)
    else:
        weapons = extra.get("weapons")
        lines = list(range(1, len(weapons) + 1)) if isinstance(weapons, list) else []
    if weapons:
        check_weapons_lines(weapons, lines)
    fold_extra(values, add_extra)
