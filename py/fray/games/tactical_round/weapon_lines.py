"""A tactical-round weapon as one line of text, the way the GM types it in the add form:
``name, CMB, kind[, base range[, reload]][, flags]``, the flags ``quick_load``, ``two_handed``,
``shield=N`` (its DEF bonus), ``length=N`` and ``unloaded`` (``range=N`` and ``reload=N`` also
name the numbers). ``parse_weapons`` reads the lines into the weapon objects of ``add_combatant``
(``combatant.py``), ``weapons_text`` writes them back, and ``check_weapons_lines`` runs the
engine's own weapon check, naming the line it refuses.

A number the engine must judge (a CMB of "lots", kind "laser") passes through as typed, so its
weapon check names it; a line whose shape is wrong is refused here with
``InvalidAction("combatant.weapons", "Line N (name): ...")``.
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.games.base import as_int, as_number
from fray.games.tactical_round.combatant import check_weapons

_BARE_FLAGS = {"quick_load": ("quick_load", True), "two_handed": ("two_handed", True),
               "unloaded": ("loaded", False), "loaded": ("loaded", True)}
_KEYED = {"shield": "shield", "length": "length", "range": "base_range", "base_range": "base_range",
          "reload": "reload"}


_whole, _number = as_int, as_number  # the typed-number readers the add form uses too


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """The non-blank lines: (line number from 1, its comma-separated columns, stripped)."""
    out = []
    for n, line in enumerate((text or "").splitlines(), 1):
        cols = [c.strip() for c in line.split(",")]
        if any(cols):
            out.append((n, cols))
    return out


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
    for n, cols in _lines(text):
        name = cols[0]
        where = f"Line {n}" + (f" ({name})" if name else "")
        if not name:
            raise InvalidAction("combatant.weapons", f"{where}: start the line with the weapon's name")
        if len(cols) < 2 or cols[1] == "":
            raise InvalidAction("combatant.weapons", f"{where}: give the CMB after the name (name, CMB, kind, ...)")
        w: dict[str, Any] = {"name": name, "cmb": _whole(cols[1])}
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
                w[field] = _whole(val) if field in ("shield", "reload") else _number(val)
                if field in numbers:
                    numbers.remove(field)
            elif key in _BARE_FLAGS:
                field, v = _BARE_FLAGS[key]
                w[field] = v
            elif numbers and _number(col) != col:
                field = numbers.pop(0)
                w[field] = _whole(col) if field == "reload" else _number(col)
            else:
                raise InvalidAction("combatant.weapons", f"{where}: {col!r} is not a {'number or a ' if numbers else ''}"
                                                         "flag (flags: quick_load, two_handed, shield=N, length=N, "
                                                         "unloaded)")
        out.append(w)
        lines.append(n)
    return out, lines


def check_weapons_lines(weapons: Any, lines: list[int]) -> None:
    """The engine's own weapon check, its error moved to the weapons field and named by line."""
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
