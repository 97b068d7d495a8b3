"""The add form's weapons section: one weapon a line, folded into the dialog's JSON box
("combatant.extra") on submit, so the box stays the one place the weapons live. The lines are
read by the engine (``tactical_round.weapon_lines``); a line it cannot read, or that its weapon
check refuses, is named at the weapons field and nothing is added."""

from __future__ import annotations

from typing import Any

from fray.games.tactical_round.weapon_lines import check_weapons_lines, parse_weapons, weapons_text
from fray.web.html import Markup, html
from fray.web.widgets import fold_extra, read_extra

from .common import _err

# the format of a line (tactical_round.weapon_lines), in the GM's words
WEAPONS_HINT = ("One weapon a line: name, CMB, kind (melee, missile, thrown, unarmed, natural, spell), "
                "base range in m (missile, thrown, spell), reload rounds (missile), then flags: quick_load, "
                "two_handed, shield=15 (its DEF bonus), length=3, unloaded. "
                "For example: Light crossbow, 50, missile, 30, 1, quick_load, two_handed")


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
        '<p class="hint">Added to the combatant\u2019s other details (the box below) when you press Add.</p></fieldset>',
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
