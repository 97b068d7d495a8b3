"""The campaign's steps as values, one function applying them, and undo: what the page's
"Characters" list, "End the fight" and "Time passes" send, each one committed change.

A step is JSON, so it is stored, replayed and checked like an encounter's action (the one gate,
``fray.gate``, before anything else)::

    {"type": "add_character", "character": {...}}
    {"type": "remove_character", "id": "k2"}
    {"type": "set_carried", "id": "k1", "carried": {...}, "dead"?: bool}   (the GM's own values)
    {"type": "end_fight", "encounter": {"id", "name", "ruleset"},
     "carry": {character id: {"carried": {...}, "dead": bool}}}
    {"type": "time_passes", "period": "day", "who"?: {character id: {"rested": bool, "treatment": "success"}}}

A combatant in a fight becomes a character by ``add_character`` with ``character.from_combatant``.
``end_fight`` carries what the GM settled (``carry.proposals`` of the open encounter, changed or
not), not the encounter, so a replay needs nothing but the steps. ``apply_step`` returns a new
campaign and what happened in the GM's words; the input is never edited; a bad step raises
``InvalidAction`` / ``RuleViolation`` and nothing changes. ``Steps`` keeps the campaigns before
each step, so undo and redo are a step back or forward, as the encounter's history is.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .. import gate
from ..errors import InvalidAction
from . import campaign
from .character import name_of

STEP_TYPES = ("add_character", "remove_character", "set_carried", "end_fight", "time_passes")
UNDO_DEPTH = 100


def apply_step(camp: dict[str, Any], step: Any) -> tuple[dict[str, Any], list[str]]:
    if not isinstance(step, dict):
        raise InvalidAction("step", "a step is an object with a type")
    gate.check_value(step, "", max_depth=gate.MAX_DEPTH + 6)
    kind = step.get("type")
    if kind not in STEP_TYPES:
        raise InvalidAction("type", f"the party has no step {kind!r}")
    if kind == "add_character":
        ch = step.get("character")
        out = campaign.add_character(camp, ch)
        return out, [f"{name_of(ch)} joins the party"]
    if kind == "remove_character":
        ch = campaign.character(camp, step.get("id"))
        return campaign.remove_character(camp, ch["id"]), [f"{name_of(ch)} leaves the party"]
    if kind == "set_carried":
        ch = campaign.character(camp, step.get("id"))
        out = campaign.set_carried(camp, ch["id"], step.get("carried"), step.get("dead"))
        return out, [f"The GM sets what {name_of(ch)} carries"]
    if kind == "end_fight":
        return _end_fight(camp, step)
    return campaign.time_passes(camp, step.get("period"), step.get("who"))


def _end_fight(camp: dict[str, Any], step: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    link = step.get("encounter")
    if not isinstance(link, dict) or set(link) != {"id", "name", "ruleset"} or not all(
            isinstance(v, str) for v in link.values()):
        raise InvalidAction("encounter", "must name the encounter (its id, name and game)")
    campaign._check_encounter_id(link["id"], "encounter")
    if any(e["id"] == link["id"] for e in camp["encounters"]):
        # written once: a second End would put the fight's wounds back over the time since
        raise InvalidAction("encounter", "this fight's end is already written to the party")
    settled = step.get("carry")
    if not isinstance(settled, dict) or not settled:
        raise InvalidAction("carry", "no combatant in this fight came from the party")
    out = copy.deepcopy(camp)
    said = []
    for kid, v in settled.items():
        ch = campaign.character(out, kid)
        if ch["ruleset"] != link["ruleset"]:
            raise InvalidAction(f"carry.{kid}", f"{name_of(ch)} is a {ch['ruleset']} character; that fight was {link['ruleset']}")
        if not isinstance(v, dict) or set(v) - {"carried", "dead"} or not isinstance(v.get("carried"), dict):
            raise InvalidAction(f"carry.{kid}", "must give what carries and whether the character died")
        dead = v.get("dead", False)
        if not isinstance(dead, bool):
            raise InvalidAction(f"carry.{kid}.dead", "must be yes or no")
        from .carry import write_back

        try:
            new = write_back(ch, v["carried"], dead, link["id"])
        except InvalidAction as e:
            raise InvalidAction(e.field.replace("character", f"carry.{kid}", 1), e.message) from None
        out["characters"] = [new if c["id"] == kid else c for c in out["characters"]]
        said.append(f"{name_of(ch)} {'died in' if dead else 'comes out of'} {link['name']}")
    if not any(e["id"] == link["id"] for e in out["encounters"]):
        out["encounters"] = (out["encounters"] + [dict(link)])[-campaign.MAX_ENCOUNTERS:]
    return out, said


def settle(enc, encounter_id: str, changes: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``end_fight`` step for the open encounter: its proposals, with the GM's ``changes``
    (``{character id: {"carried"?, "dead"?}}``) put over them."""
    from .carry import proposals

    changes = changes or {}
    carry_map = {}
    for p in proposals(enc):
        ch = changes.get(p["character"], {})
        carry_map[p["character"]] = {"carried": ch.get("carried", p["carried"]), "dead": ch.get("dead", p["dead"])}
    return {"type": "end_fight", "encounter": {"id": encounter_id, "name": enc.name, "ruleset": enc.ruleset},
            "carry": carry_map}


@dataclass
class Steps:
    """The campaign now, the ones before it (undo) and after it (redo), each with its step."""

    present: dict[str, Any] = field(default_factory=campaign.empty)
    undone: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    done: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    def apply(self, step: dict[str, Any]) -> list[str]:
        new, said = apply_step(self.present, step)
        self.done = (self.done + [(self.present, copy.deepcopy(step))])[-UNDO_DEPTH:]
        self.undone = []
        self.present = new
        return said

    def undo(self) -> bool:
        if not self.done:
            return False
        before, step = self.done.pop()
        self.undone.append((self.present, step))
        self.present = before
        return True

    def redo(self) -> bool:
        if not self.undone:
            return False
        after, step = self.undone.pop()
        self.done.append((self.present, step))
        self.present = after
        return True
