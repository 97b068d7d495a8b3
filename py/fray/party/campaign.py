"""A campaign: the characters and the encounters they were in, as one versioned file.

::

    {"format": "fray-campaign", "version": 1,
     "characters": [character, ...],
     "encounters": [{"id": "<encounter id>", "name": "...", "ruleset": "..."}, ...]}

Each step is a function from a campaign to a new one (the input is never edited), so the page
stores each as one committed change and undoes it by putting the earlier one back. Every value
that comes in passes the one gate (``fray.gate``) and each character the one check
(``character.check``, which is ``join_party`` into an empty encounter of its game): a bad value
raises ``InvalidAction`` at its field, in the GM's words, and nothing changes. Reading a file is
all or nothing.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from .. import gate
from ..errors import InvalidAction, RuleViolation
from ..model import Encounter
from . import carry, healing
from .character import check, name_of

FORMAT = "fray-campaign"
VERSION = 1
MAX_CHARACTERS = 200
MAX_ENCOUNTERS = 1000
_ENC_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")


def empty() -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "characters": [], "encounters": []}


def character(camp: dict[str, Any], cid: str) -> dict[str, Any]:
    ch = next((c for c in camp["characters"] if c["id"] == cid), None)
    if ch is None:
        raise InvalidAction("character", "that character is no longer in the campaign")
    return ch


def of_ruleset(camp: dict[str, Any], ruleset: str) -> list[dict[str, Any]]:
    return [c for c in camp["characters"] if c["ruleset"] == ruleset]


def next_id(camp: dict[str, Any]) -> str:
    n = 1 + max((int(c["id"][1:]) for c in camp["characters"] if re.fullmatch(r"k\d{1,9}", c["id"])), default=0)
    return f"k{n}"


def add_character(camp: dict[str, Any], ch: dict[str, Any]) -> dict[str, Any]:
    check(ch, "character")
    if any(c["id"] == ch["id"] for c in camp["characters"]):
        raise InvalidAction("character", f"the campaign already has a character with the id {ch['id']}")
    if len(camp["characters"]) >= MAX_CHARACTERS:
        raise InvalidAction("character", f"a campaign holds at most {MAX_CHARACTERS} characters: remove some first")
    out = copy.deepcopy(camp)
    out["characters"].append(copy.deepcopy(ch))
    return out


def remove_character(camp: dict[str, Any], cid: str) -> dict[str, Any]:
    character(camp, cid)
    out = copy.deepcopy(camp)
    out["characters"] = [c for c in out["characters"] if c["id"] != cid]
    return out


def join_action(camp: dict[str, Any], ruleset: str, ids: list[str], position: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``join_party`` action that puts the characters ``ids`` into an encounter of ``ruleset``;
    a character of another game, a dead one, or none chosen is refused here at "characters"."""
    if not isinstance(ids, list) or not ids:
        raise InvalidAction("characters", "choose at least one character")
    chosen = []
    for cid in ids:
        ch = character(camp, cid)
        if ch["ruleset"] != ruleset:
            raise InvalidAction("characters", f"{name_of(ch)} is a {ch['ruleset']} character; this encounter plays {ruleset}")
        if ch.get("dead"):
            raise RuleViolation("the party", f"{name_of(ch)} is dead")
        chosen.append(copy.deepcopy(ch))
    action: dict[str, Any] = {"type": "join_party", "characters": chosen}
    if position is not None:
        action["position"] = position
    return action


def end_fight(camp: dict[str, Any], enc: Encounter, encounter_id: str, changes: dict[str, Any] | None = None
              ) -> dict[str, Any]:
    """"End the fight": each combatant linked to a character of the campaign writes back what it
    carries (``carry.proposals``, with the GM's ``changes``: ``{character id: {"carried": ...,
    "dead": ...}}``), and the encounter is linked to the campaign and to each character. One step."""
    changes = changes or {}
    if not isinstance(changes, dict):
        raise InvalidAction("changes", "must give each character's changed carry-over")
    _check_encounter_id(encounter_id, "encounter")
    gate.check_value(changes, "changes")
    props = {p["character"]: p for p in carry.proposals(enc)}
    for kid in changes:
        if kid not in props:
            raise InvalidAction(f"changes.{kid}", "that character did not fight in this encounter")
    out = copy.deepcopy(camp)
    ids = {c["id"] for c in out["characters"]}
    for i, ch in enumerate(out["characters"]):
        p = props.get(ch["id"])
        if p is None:
            continue
        edit = changes.get(ch["id"], {})
        if not isinstance(edit, dict) or any(k not in ("carried", "dead") for k in edit):
            raise InvalidAction(f"changes.{ch['id']}", "can change only what carries and whether the character died")
        dead = edit.get("dead", p["dead"])
        if not isinstance(dead, bool):
            raise InvalidAction(f"changes.{ch['id']}.dead", "must be yes or no")
        try:
            out["characters"][i] = carry.write_back(ch, edit.get("carried", p["carried"]), dead, encounter_id)
        except InvalidAction as e:
            raise InvalidAction(e.field.replace("character", f"changes.{ch['id']}", 1), e.message) from None
    if not any(k in ids for k in props):
        raise InvalidAction("encounter", "no combatant in this fight came from the party")
    if not any(e["id"] == encounter_id for e in out["encounters"]):
        if len(out["encounters"]) >= MAX_ENCOUNTERS:
            out["encounters"] = out["encounters"][1:]
        out["encounters"].append({"id": encounter_id, "name": enc.name, "ruleset": enc.ruleset})
    return out


def time_passes(camp: dict[str, Any], period: Any, who: dict[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """Time passes for every character: ``who`` gives each one's ``{"rested": bool, "treatment":
    result}`` (rested, no healer when not given). One step; all or nothing."""
    healing.check_period(period)
    who = who or {}
    if not isinstance(who, dict):
        raise InvalidAction("who", "must give each character's rest and Treatment")
    gate.check_value(who, "who")
    known = {c["id"] for c in camp["characters"]}
    for kid in who:
        if kid not in known:
            raise InvalidAction(f"who.{kid}", "that character is no longer in the campaign")
    out = copy.deepcopy(camp)
    said: list[str] = []
    for i, ch in enumerate(out["characters"]):
        w = who.get(ch["id"], {})
        if not isinstance(w, dict):
            raise InvalidAction(f"who.{ch['id']}", "must say whether the character rested and had Treatment")
        try:
            out["characters"][i], lines = healing.time_passes(ch, period, w.get("rested", True), w.get("treatment", "none"))
        except InvalidAction as e:
            raise InvalidAction(f"who.{ch['id']}.{e.field}", e.message) from None
        said.extend(lines)
    return out, said


def set_carried(camp: dict[str, Any], cid: str, carried: Any, dead: Any = None) -> dict[str, Any]:
    """The GM's own values for what a character carries (and whether it is dead)."""
    ch = character(camp, cid)
    if not isinstance(carried, dict):
        raise InvalidAction("carried", "must be what the character carries")
    out = copy.deepcopy(camp)
    i = next(i for i, c in enumerate(out["characters"]) if c["id"] == cid)
    new = healing.set_by_hand(ch, carried)
    if dead is not None:
        if not isinstance(dead, bool):
            raise InvalidAction("dead", "must be yes or no")
        new["dead"] = dead
    out["characters"][i] = new
    return out


def _check_encounter_id(v: Any, path: str) -> str:
    if not isinstance(v, str) or not _ENC_ID.match(v):
        raise InvalidAction(path, "must be the encounter's id")
    return v


def dumps(camp: dict[str, Any]) -> str:
    return json.dumps(camp, indent=1, ensure_ascii=False)


def loads(text: str) -> dict[str, Any]:
    """A campaign file, all checked; ``InvalidAction`` names what is wrong and where."""
    return load_data(gate.parse_file(text, FORMAT, "file"))


def load_data(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidAction("format", gate.not_a_file(FORMAT, data))
    for k in data:
        if k not in ("format", "version", "characters", "encounters"):
            raise InvalidAction(k, "is not part of a campaign")
    v = data.get("version")
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise InvalidAction("version", f"must be the whole number {VERSION}")
    if v > VERSION:
        raise InvalidAction("version", f"{v} is newer than this Fray reads ({VERSION}): update Fray")
    chars, encs = data.get("characters"), data.get("encounters", [])
    if not isinstance(chars, list) or len(chars) > MAX_CHARACTERS:
        raise InvalidAction("characters", f"must list at most {MAX_CHARACTERS} characters")
    if not isinstance(encs, list) or len(encs) > MAX_ENCOUNTERS:
        raise InvalidAction("encounters", f"must list at most {MAX_ENCOUNTERS} encounters")
    gate.check_value(chars, "characters")
    gate.check_value(encs, "encounters")
    seen: set[str] = set()
    for i, ch in enumerate(chars):
        where = f"characters.{i}"
        if isinstance(ch, dict) and isinstance(ch.get("sheet"), dict) and isinstance(ch["sheet"].get("name"), str):
            where += f" ({ch['sheet']['name']})"
        check(ch, where)
        if ch["id"] in seen:
            raise InvalidAction(f"{where}.id", f"two characters have the id {ch['id']}")
        seen.add(ch["id"])
    enc_ids: set[str] = set()
    for i, e in enumerate(encs):
        if not isinstance(e, dict) or set(e) != {"id", "name", "ruleset"}:
            raise InvalidAction(f"encounters.{i}", 'must be {"id", "name", "ruleset"}')
        _check_encounter_id(e["id"], f"encounters.{i}.id")
        if not isinstance(e["name"], str) or not isinstance(e["ruleset"], str):
            raise InvalidAction(f"encounters.{i}", "needs the encounter's name and game as text")
        enc_ids.add(e["id"])
    for i, ch in enumerate(chars):
        for eid in ch.get("encounters", []):
            if eid not in enc_ids:
                raise InvalidAction(f"characters.{i}.encounters", f"names an encounter the campaign does not list ({eid})")
    return {"format": FORMAT, "version": VERSION, "characters": copy.deepcopy(chars), "encounters": copy.deepcopy(encs)}
