"""Submitted forms → one ``sr.*`` action each, with the typed dice read and any text that is not
whole numbers named at its field (the engine judges everything else at its own field).

Dice: a roll field left blank is rolled by Fray; typed, it is whole numbers ("8 4" = the faces
[8, 4]; one number for a d100 or a d20)."""

from __future__ import annotations

from typing import Any

from fray.dice import one_die_message
from fray.web.widgets import ZERO_FACE, ZeroFace, as_int, as_number, parse_faces
from fray.games.strike_rank.web.common import ONE_DIE


def parse_dice(text: Any) -> Any:
    """"8 4" / "8,4" → [8, 4]; "57" → 57; blank → None (Fray rolls). ValueError otherwise."""
    out = parse_faces(text)
    return out[0] if out and len(out) == 1 else out


def _rolls(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Every ``rolls.<name>`` field typed in: {name: faces} and {field: message} for bad text."""
    rolls: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for k, v in values.items():
        if not k.startswith("rolls."):
            continue
        name = k[6:]
        sides = ONE_DIE.get(name) or (100 if name.startswith("bleed.") else None)
        try:
            r = parse_dice(v)
        except ZeroFace:
            errors[k] = ZERO_FACE
            continue
        except ValueError as e:
            # one die is one number (a GM's play-through: the bleeding d100 asked for "8 4")
            errors[k] = one_die_message(sides, e) if sides else f"type whole numbers such as 8 4, not {e}"
            continue
        if sides and r is not None and (isinstance(r, list) or not 1 <= r <= sides):
            errors[k] = one_die_message(sides, " ".join(map(str, r)) if isinstance(r, list) else r)
            continue
        if r is not None:
            rolls[k[6:]] = r
    return rolls, errors



# -- the controller side -------------------------------------------------------------------------

def declare_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    kind = values.get("kind", "")
    a: dict[str, Any] = {"type": "sr.declare", "id": cid, "kind": kind}
    if kind in ("melee", "missile", "reload", "defend") and values.get("weapon"):
        a["weapon"] = values["weapon"]
    if kind == "defend" and not values.get("weapon"):
        a["stance"] = "dodge"  # no weapon picked: a dodging stance (with one: parrying with it)
    if kind in ("melee", "missile", "spell", "move") and values.get("target"):
        a["target"] = values["target"]
    if kind == "spell" and values.get("spell"):
        a["spell"] = values["spell"]
    m = str(values.get("metres") or "").strip()
    if m:
        a["metres"] = as_number(m)
    if values.get("running"):
        a["running"] = True
    # the fields folded under "More", each sent only with the kinds of action the engine reads it for
    typed = {k: str(values.get(k) or "").strip() for k in ("shots", "attacks", "split", "label", "sr_cost")}
    if kind == "missile" and typed["shots"]:
        a["shots"] = as_int(typed["shots"])
    if kind == "melee" and typed["attacks"]:
        a["attacks"] = as_int(typed["attacks"])
    if kind in ("melee", "missile") and typed["split"]:
        a["split"] = [as_int(x) for x in typed["split"].replace(",", " ").split()]
    if kind == "melee":
        for k in ("extra_weapon", "brace_against"):
            if values.get(k):
                a[k] = values[k]
        for k in ("charge_past", "mounted_charge"):
            if values.get(k):
                a[k] = True
    if kind in ("melee", "move"):
        for k in ("charge", "mutual"):
            if values.get(k):
                a[k] = True
    if kind == "move" and values.get("continuing"):
        a["continuing"] = True
    if kind == "other" and typed["label"]:
        a["label"] = typed["label"]
    if kind in ("other", "reload") and typed["sr_cost"]:
        a["sr_cost"] = as_int(typed["sr_cost"])
    return a


def attack_action(ref: str, attacker: str, weapon: str, values: dict[str, Any],
                  more: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict]:
    """The ``sr.attack`` action and {field: message} for dice text that is not whole numbers.

    ``more``: the exchange came out special after the GM typed an ordinary blow's damage dice
    (``combat.MoreDice.pending``): the same dice again, with the extra dice typed in ``more.damage``
    (or the damage's total in ``more.total``) put where they go, so the action carries every die."""
    rolls, errors = _rolls(values)
    if more is not None and _as_faces(rolls.get("damage")) == more["typed"]:
        _more_dice(rolls, errors, values, more)
    dk = values.get("defence.kind", "none")
    defence: dict[str, Any] = {"kind": dk}
    if dk == "parry":
        defence["weapon"] = values.get("defence.weapon", "")
        s = str(values.get("defence.split") or "").strip()
        if s:
            defence["split"] = as_int(s)
    b = str(values.get("defence.bonus") or "").strip()
    if b and dk in ("parry", "dodge"):
        defence["bonus"] = as_int(b)
    a: dict[str, Any] = {"type": "sr.attack", "attacker": attacker, "target": values.get("target", ""),
                         "weapon": weapon, "ref": ref, "defence": defence, "mode": values.get("mode", "normal"),
                         "move_token": True}  # a melee attacker's movement ends at the target
    if values.get("aim"):
        a["aim"] = values["aim"]
    b = str(values.get("bonus") or "").strip()
    if b:
        a["bonus"] = as_int(b)
    r = str(values.get("range_m") or "").strip()
    if r:
        a["range_m"] = as_number(r)
    for k in ("moving", "mount_running", "free_attack", "miracle"):
        if values.get(k):
            a[k] = True
    if not ref and "free_attack" not in values:
        # the free attack on a fleeing foe (no declared action, so no ref) is ticked as one when its
        # Circumstances are drawn: undrawn, it is still one (no parry, dodge at half)
        a["free_attack"] = True
    if values.get("mounted_vs_foot") in ("yes", "no"):
        a["mounted_vs_foot"] = values["mounted_vs_foot"] == "yes"
    if values.get("attacker_side") in ("left", "right"):
        a["attacker_side"] = values["attacker_side"]
    if values.get("into_melee") in ("yes", "no"):
        a["into_melee"] = values["into_melee"] == "yes"
    if values.get("water") and values["water"] != "none":
        a["water"] = values["water"]
    for k, conv in (("split", as_int), ("multiplier", as_number)):
        t = str(values.get(k) or "").strip()
        if t:
            a[k] = conv(t)
    for k in ("special", "gm_location", "location_die"):
        t = str(values.get(k) or "").strip()
        if t:
            a[k] = t
    hard = _checked(values, "cover.hard")
    if hard or values.get("cover.soft"):
        a["cover"] = {"hard": hard, "soft": bool(values.get("cover.soft"))}
    if values.get("shield_cover.weapon"):
        a["shield_cover"] = {"weapon": values["shield_cover.weapon"],
                             "locations": _checked(values, "shield_cover.locations")}
    pull: dict[str, Any] = {}
    if values.get("pull.drop_modifier"):
        pull["drop_modifier"] = True
    for k in ("die_sides", "bonus"):
        t = str(values.get(f"pull.{k}") or "").strip()
        if t:
            pull[k] = as_int(t)
    if pull:
        a["pull"] = pull
    if a["mode"] == "attack_object" or str(values.get("object.name") or "").strip():
        a["object"] = {"name": str(values.get("object.name") or "").strip() or "object",
                       "hp": as_int(str(values.get("object.hp") or "").strip()),
                       # ticked when drawn ("Object is held (½)"); an undrawn Circumstances has no box
                       "held": bool(values.get("object.held", True))}
    if values.get("target_weapon") and a["mode"] in ("attack_weapon", "disarm"):
        a["target_weapon"] = values["target_weapon"]
    if rolls:
        a["rolls"] = rolls
    return a, errors


def _as_faces(r: Any) -> Any:
    return [r] if isinstance(r, int) and not isinstance(r, bool) else r


def _more_dice(rolls: dict[str, Any], errors: dict[str, str], values: dict[str, Any], more: dict[str, Any]) -> None:
    """The special's damage from the dice typed before the roll and the ones asked for after it."""
    from fray.games.strike_rank.combat import fill_special

    for k, v in more["rolled"].items():
        rolls.setdefault(k, v)  # the exchange's own dice again (what the GM typed since wins)
    need = more["need"]
    total = str(values.get("more.total") or "").strip()
    if total:
        if total.isdigit():
            rolls["damage"] = int(total)
        else:
            errors["more.total"] = f"type the damage's total as a whole number, not {total}"
        return
    try:
        extra = parse_faces(values.get("more.damage"))
    except ValueError as e:
        errors["more.damage"] = ZERO_FACE if isinstance(e, ZeroFace) else f"type whole numbers such as 5, not {e}"
        return
    sides = more["extra"]
    if not extra:
        errors["more.damage"] = f"roll {need} and type {'it' if len(sides) == 1 else 'them'}, or type the total below"
    elif len(extra) != len(sides):
        errors["more.damage"] = f"{need} is {len(sides)} {'die' if len(sides) == 1 else 'dice'}: {len(extra)} typed"
    elif bad := next((f"a D{s} shows 1 to {s}, not {f}" for f, s in zip(extra, sides) if not 1 <= f <= s), None):
        errors["more.damage"] = bad
    else:
        rolls["damage"] = fill_special(more["slots"], more["typed"], extra)


def _checked(values: dict[str, Any], prefix: str) -> list[str]:
    """The location ids of the ticked ``prefix.<id>`` boxes, in form order."""
    return [k[len(prefix) + 1:] for k, v in values.items() if k.startswith(prefix + ".") and v is True]



def answer_action(prompt: str, choice: str, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``sr.answer`` action with any typed dice, and {field: message} for dice that are not numbers."""
    # "apply": the answer applies what the engine knows of a fumble's result (issue 32)
    a: dict[str, Any] = {"type": "sr.answer", "prompt": prompt, "choice": choice, "apply": True}
    rolls, errors = _rolls(values)
    if rolls:
        a["rolls"] = rolls
    amt = str(values.get("amount") or "").strip()
    if amt:
        a["amount"] = as_int(amt)
    if values.get("with"):
        a["with"] = values["with"]
    return a, errors




def care_action(form_name: str, cid: str, values: dict[str, Any], owner: str = "",
                weapon: str = "") -> tuple[dict[str, Any], dict[str, str]]:
    """The action of a card form (heal, natural healing, disengage, grapple, unstick) and dice errors."""
    rolls, errors = _rolls(values)
    a: dict[str, Any]
    if form_name == "sr-heal":
        a = {"type": "sr.heal", "target": cid, "location": values.get("location", ""),
             "points": as_int(str(values.get("points") or "").strip()), "kind": values.get("kind", "heal")}
        if values.get("reattach"):
            a["reattach"] = True
    elif form_name == "sr-natural-healing":
        a = {"type": "sr.natural_healing", "id": cid, "period": values.get("period", "")}
        if not values.get("rested", True):
            a["rested"] = False  # "Natural healing requires rest": the period heals nothing
        if values.get("healer"):
            a["healer"] = values["healer"]
        else:
            rolls.pop("treatment", None)
    elif form_name == "sr-disengage":
        a = {"type": "sr.disengage", "id": cid, "how": values.get("how", "")}
    elif form_name == "sr-grapple":
        a = {"type": "sr.grapple", "id": cid, "target": values.get("target", ""), "option": values.get("option", "")}
        sub = str(values.get("substitute") or "").strip()
        if sub:
            a["substitute"] = as_int(sub)
    else:
        a = {"type": "sr.unstick", "id": values.get("id", cid), "holder": cid, "owner": owner, "weapon": weapon,
             "method": values.get("method", "")}
    if rolls:
        a["rolls"] = rolls
    return a, errors
