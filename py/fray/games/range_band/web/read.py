"""The range-band forms read into engine actions: every control's ``name`` is the engine's field
path, so an engine error lands beside the control. Pure: no page, no ``js``."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.web.widgets import ZERO_FACE, ZeroFace, as_int, as_number, parse_faces
from fray.games.range_band.web.common import ATTACK_FLAGS, MORE, MOVE_FLAGS, checked_ids


def more_action(kind: str, cid: str, values: dict[str, Any]) -> dict[str, Any]:
    if kind not in MORE:
        raise InvalidAction("rb", f"unknown action {kind!r}")
    atype, _, fields = MORE[kind]
    action: dict[str, Any] = {"type": atype, "id": cid}
    for name, _, ctl in fields:
        if ctl in ("check", "check-on"):
            action[name] = bool(values.get(name))
        elif ctl == "num":
            v = (values.get(name) or "").strip()
            if v:  # blank: the engine keeps that coordinate where it is
                action[name] = as_number(v)
        elif ctl == "ids":
            action[name] = checked_ids(values, name)
        elif ctl == "text":
            v = (values.get(name) or "").strip()
            if v:  # blank: no reason given, the engine's own check stands
                action[name] = v
        else:
            action[name] = values.get(name)
    return action


def resolve_action(ref: str, values: dict[str, Any], roll: bool) -> dict[str, Any]:
    """``rb.resolve`` from the pending roll's form: the GM's result, or Fray's roll (typed dice allowed)."""
    action: dict[str, Any] = {"type": "rb.resolve", "ref": ref}
    if roll:
        try:
            dice = parse_faces(values.get("rolls.roll") or "")
        except ZeroFace:
            raise InvalidAction("rolls.roll", ZERO_FACE) from None
        except ValueError:
            raise InvalidAction("rolls.roll", "type the dice as whole numbers separated by spaces, or leave it "
                                              "blank to let Fray roll") from None
        if dice:
            action["rolls"] = {"roll": dice}
        return action
    s = values.get("success")
    if s not in ("yes", "no"):
        raise InvalidAction("success", "choose success or failure (or let Fray roll)")
    action["success"] = s == "yes"
    by = as_int(values.get("by", "") or "0")
    action["by"] = by
    if values.get("blunder"):
        action["blunder"] = True
    return action


def move_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "rb.move", "id": cid}
    for k in ("x", "y", "alt"):
        action[k] = as_number(values.get(k, ""))
    for k, _ in MOVE_FLAGS:
        if values.get(k):
            action[k] = True
    if values.get("after_descent"):  # asked only once the flyer has descended without a roll this phase
        action["after_descent"] = True
    if values.get("descent_roll"):  # offered to flyers: a descent alone sent as a roll on the GM's word
        action["descent_roll"] = True
    return action


def attack_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "rb.attack", "id": cid, "target": values.get("target") or None,
                              "die": values.get("die") or "d20", "stat": values.get("stat") or "DEX",
                              "size": values.get("size") or "major"}
    w = values.get("weapon", "")
    if w != "":
        action["weapon"] = as_int(w)
    if values.get("warned_by"):
        action["warned_by"] = values["warned_by"]
    for k, _ in ATTACK_FLAGS:
        if values.get(k):
            action[k] = True
    reason = (values.get("override") or "").strip()
    if reason:  # the GM allows a melee attack beyond engaged range: the engine logs the reason
        action["override"] = reason
    return action


def act_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    """``rb.act`` from the Other action form: size, what, the target it affects (unwilling or not), an Ability's
    fatigue cost and the flags."""
    action: dict[str, Any] = {"type": "rb.act", "id": cid, "size": values.get("size"),
                              "what": (values.get("what") or "").strip() or f"{values.get('size')} action"}
    if values.get("target"):
        action["target"] = values["target"]
    f = (values.get("fatigue") or "").strip()
    if f and f != "0":
        action["fatigue"] = as_int(f)
    for k in ("dex_roll", "verbal", "light", "unwilling"):
        if values.get(k):
            action[k] = True
    return action


def area_action(values: dict[str, Any]) -> dict[str, Any]:
    """``rb.area`` from the Mark an area form (a blank altitude is the ground)."""
    action: dict[str, Any] = {"type": "rb.area", "kind": values.get("kind"), "radius": values.get("radius"),
                              "x": as_number(values.get("x", "")), "y": as_number(values.get("y", "")),
                              "alt": as_number((values.get("alt") or "0"))}
    if (values.get("name") or "").strip():
        action["name"] = values["name"].strip()
    if values.get("kind") == "water":
        action["depth"] = as_number(values.get("depth", ""))
    return action


def zone_action(view_zone: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """``rb.zone`` with only what changed (the log says what the GM set)."""
    action: dict[str, Any] = {"type": "rb.zone"}
    for k in ("light", "clutter", "flight_ceiling"):
        if k in values and values[k] != view_zone.get(k):
            action[k] = values[k]
    for k in ("enclosed", "underwater", "narrow", "air"):
        v = bool(values.get(k))
        if v != bool(view_zone.get(k)):
            action[k] = v
    return action
