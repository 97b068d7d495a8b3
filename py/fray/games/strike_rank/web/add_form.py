"""The add dialog's strike-rank section: body plan, armour points and weapons one a line, folded
into the dialog's JSON box on submit."""

from __future__ import annotations

from typing import Any

from fray.games.strike_rank.body import WEAPON_TYPES, default_hand
from fray.web.widgets import as_int
from fray.web.html import Markup, h, html
from fray.games.strike_rank.web.common import _err, _field, _input, _select

# -- the add form's strike-rank section (body plan, armour, weapons) -----------------------------

BODY_PLANS = (("humanoid", "Humanoid (7 locations)"), ("quadruped", "Four-legged"), ("single", "Single location"))
WEAPON_COLS = ("name", "skill", "damage", "sr", "hp", "type")
# words after the columns: what the rules treat differently (a spear can be braced, a lance charged with)
WEAPON_FLAGS = ("shield", "missile", "natural", "thrown", "spear", "lance")
# the hand that holds a weapon, in the words a GM types ("Arm: A disabled arm cannot wield weapons
# or shields": the rules must know which arm holds what)
HAND_WORDS = {"right": "right", "right hand": "right", "left": "left", "left hand": "left", "both": "both",
              "both hands": "both", "two hands": "both", "two-handed": "both"}
# the types a weapon's sixth column takes, as the label lists them (the engine's own list)
_TYPES = ", ".join(WEAPON_TYPES[:-1]) + " or " + WEAPON_TYPES[-1]


def weapons_text(weapons: list[dict[str, Any]]) -> str:
    """One weapon a line: ``Name, skill, damage, SR, HP, type`` (+ ``shield`` / ``missile``)."""
    lines = []
    for w in weapons or []:
        cols = [str(w.get(k, "")) for k in WEAPON_COLS]
        while cols and cols[-1] == "":
            cols.pop()
        flags = [f for f in WEAPON_FLAGS if w.get(f)]
        if w.get("location"):
            flags.append(str(w["location"]).replace("_", " "))  # a natural weapon: the location it strikes with
        elif w.get("hand") in ("right", "left", "both"):
            flags.append(w["hand"])
        lines.append(", ".join(cols + flags))
    return "\n".join(lines)


def parse_weapons(text: str, base: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The lines back to weapon records; a line naming a known weapon keeps its other fields
    (hand, ENC, reach...). Values the engine must judge pass through as typed."""
    known = {str(w.get("name", "")).lower(): w for w in base or []}
    out = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if not any(cols):
            continue
        flags = [c.lower() for c in cols[len(WEAPON_COLS):]]
        w = dict(known.get(cols[0].lower(), {}))
        for k, v in zip(WEAPON_COLS, cols[:len(WEAPON_COLS)]):
            if v == "":
                continue
            w[k] = as_int(v.rstrip("%")) if k in ("skill", "sr", "hp") else v
        for f in WEAPON_FLAGS:
            if f in flags:
                w[f] = True
        for word in flags:
            word = " ".join(word.split())
            if word in WEAPON_FLAGS or not word:
                continue
            if word in HAND_WORDS:
                w["hand"] = HAND_WORDS[word]
                w.pop("location", None)
            else:
                # any other word is the hit location a natural weapon strikes with ("head"); the
                # engine says so if this body has no such location
                w["location"] = word.replace(" ", "_")
                w.pop("hand", None)
        if "hand" not in w and "location" not in w and not w.get("natural"):
            w["hand"] = default_hand(w)
        out.append(w)
    return out


def armour_text(armour: Any) -> str:
    if isinstance(armour, dict):
        return ", ".join(f"{k} {v}" for k, v in armour.items())
    return "" if armour in (None, 0, "") else str(armour)


def parse_armour(text: str) -> Any:
    """"3" → 3 (every location); "head 3, chest 2" → {"head": 3, "chest": 2}; blank → 0."""
    t = text.strip()
    if not t:
        return 0
    if "," not in t and " " not in t:
        return as_int(t)
    out: dict[str, Any] = {}
    for part in t.split(","):
        bits = part.strip().rsplit(" ", 1)
        if len(bits) == 2:
            out[bits[0].strip().replace(" ", "_").lower()] = as_int(bits[1])
        elif bits[0]:
            out[bits[0]] = ""
    return out


def armour_problem(text: str) -> str:
    """Armour points typed as a list in which a piece has no hit location ("4, legs 2"): what to
    write instead, in the form's own words; "" when the text reads."""
    t = (text or "").strip()
    if "," not in t and " " not in t:
        return ""
    for part in t.split(","):
        bits = part.strip().rsplit(" ", 1)
        if len(bits) == 1 and bits[0]:
            return (f"“{bits[0]}” has no hit location: give one number for every location (such as 3), "
                    "or name each one (head 3, chest 2)")
    return ""


def add_fields_html(extra: dict[str, Any] | None) -> Markup:
    """Body plan, armour and weapons for the add form (errors land on combatant.body/armour/weapons)."""
    e = extra or {}
    body = e.get("body", "humanoid")
    body = body if isinstance(body, str) else "humanoid"
    return h(
        "fieldset", {"class": "sr-add"},
        html('<legend>Body, armour and weapons</legend>'
             '<p class="hint">Changes here go into the box below when you press Add.</p>'),
        _field("f-sr-body", "combatant.body", "Body plan",
               _select("f-sr-body", "sr_body", list(BODY_PLANS), body)),
        _field("f-sr-armour", "combatant.armour", "Armour points",
               _input("f-sr-armour", "sr_armour", armour_text(e.get("armour")), "text",
                      "3, or head 3, chest 2")),
        html('<div class="field" data-field="combatant.weapons"><label for="f-sr-weapons">Weapons, one a line: '
             'name, skill %, damage, SR, HP, type ({}); then, if it is one, shield, missile, thrown, '
             'spear or lance; the hand: right, left or both; a natural weapon: natural and the hit location it '
             'strikes with, such as head</label>'
             '<textarea id="f-sr-weapons" name="sr_weapons" rows="3" spellcheck="false">{}</textarea>{}</div>',
             _TYPES, weapons_text(e.get("weapons", [])), _err("combatant.weapons")))


def add_extra(values: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    """The preset's extra fields with what the GM typed in the strike-rank section."""
    out = dict(extra or {})
    if values.get("sr_body"):
        out["body"] = values["sr_body"]
    a = values.get("sr_armour", "")
    if a.strip() != armour_text(out.get("armour")):
        out["armour"] = parse_armour(a)
    w = values.get("sr_weapons", "")
    if w.strip() != weapons_text(out.get("weapons", [])).strip():
        out["weapons"] = parse_weapons(w, out.get("weapons", []))
    return out
