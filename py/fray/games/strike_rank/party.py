"""strike-rank's part of the party (``fray.party.games``): what a character carries from one fight to
the next (``fray.party.join`` documents its shape) and Natural Healing between fights
(``fray.party.healing`` quotes the text and states the readings)."""

from __future__ import annotations

import copy
from typing import Any

from fray.errors import InvalidAction
from fray.model import Combatant, Encounter
from fray.party.join import _flag, _keys, _whole
from fray.party.healing import DAYS, DAYS_ASSUMED, PERIOD_WORDS
from fray.games.strike_rank import body, healing, rules

LOC_FLAGS = ("bleeding", "first_aid", "treated", "useless", "severed")
SR_CONDITIONS = ("unconscious", "incapacitated")  # the conditions that last "until healed"
_SR_WEAPON_FIELDS = ("id", "name", "skill", "damage", "sr", "hp", "type", "hafted", "shield", "shield_size", "missile",
                     "thrown", "rate", "range", "enc", "natural", "unarmed", "martial_arts", "location", "hand", "dm",
                     "reach", "lance", "spear", "knockback", "bonus", "cover")


def sheet_extra(c: Combatant) -> dict[str, Any]:
    sheet: dict[str, Any] = {}
    d = c.data
    weapons = []
    for w in d.get("weapons", []):
        raw = {k: copy.deepcopy(w[k]) for k in _SR_WEAPON_FIELDS if k in w}
        raw["hp"] = w.get("hp_max", w.get("hp", 0))  # its own HP at full: the damage is carried
        if not raw.get("location"):
            raw.pop("location", None)
        if not raw.get("missile"):
            raw.pop("rate", None)
        if not raw.get("shield"):
            raw.pop("shield_size", None)
        weapons.append(raw)
    sheet["weapons"] = weapons
    plans = {"body_humanoid": "humanoid", "body_quadruped": "quadruped", "body_single": "single"}
    sheet["body"] = copy.deepcopy(d["body_spec"]) if d.get("body_spec") is not None else plans.get(d.get("body"), "humanoid")
    sheet["armour"] = {l["id"]: l["ap"] for l in d.get("locations", [])}
    if d.get("spells"):
        sheet["spells"] = copy.deepcopy(d["spells"])
    if d.get("aquatic"):
        sheet["aquatic"] = True
    return sheet


def put_carried(c: Combatant, carried: dict[str, Any], path: str) -> None:
    _keys(carried, path, ("hp", "locations", "weapons", "stuck", "conditions", "healing_days"),
          "what a strike-rank character carries")
    d = c.data
    locs = {l["id"]: l for l in d["locations"]}
    names = ", ".join(l["name"] for l in d["locations"])
    raw_locs = carried.get("locations", {})
    if not isinstance(raw_locs, dict):
        raise InvalidAction(f"{path}.locations", "must give each wounded hit location its HP")
    for lid, v in raw_locs.items():
        lp = f"{path}.locations.{lid}"
        l = locs.get(lid)
        if l is None:
            raise InvalidAction(lp, f"{c.name}'s body has no hit location “{lid.replace('_', ' ')}” (it has {names})")
        _keys(v, lp, ("hp",) + LOC_FLAGS, "a hit location's wound")
        if "hp" in v:
            l["hp"] = _whole(v["hp"], f"{lp}.hp", -10 * l["hp_max"] - 100, l["hp_max"], f"{l['name']} HP")
        for k in LOC_FLAGS:
            if k in v:
                l[k] = _flag(v[k], f"{lp}.{k}")
        if l.get("severed") and l["type"] not in ("arm", "leg", "wing", "tail"):
            raise InvalidAction(f"{lp}.severed", f"only a limb can be severed, not the {l['name']}")
    if "hp" in carried:
        d["hp"] = _whole(carried["hp"], f"{path}.hp", -1000, d["hp_max"], "Total HP")
    ws = {w["id"]: w for w in d["weapons"]}
    raw_w = carried.get("weapons", {})
    if not isinstance(raw_w, dict):
        raise InvalidAction(f"{path}.weapons", "must give each damaged weapon its HP")
    for wid, hp in raw_w.items():
        w = ws.get(wid)
        if w is None:
            raise InvalidAction(f"{path}.weapons.{wid}", f"{c.name} carries no weapon “{wid.replace('_', ' ')}”")
        w["hp"] = _whole(hp, f"{path}.weapons.{wid}", 0, w["hp_max"], f"{w['name']} HP")
    stuck = carried.get("stuck", [])
    if not isinstance(stuck, list) or len(stuck) > 20:
        raise InvalidAction(f"{path}.stuck", "must list the weapons stuck in the character")
    for i, s in enumerate(stuck):
        sp = f"{path}.stuck.{i}"
        _keys(s, sp, ("weapon", "location"), "a stuck weapon")
        if not isinstance(s.get("weapon"), str) or not 0 < len(s["weapon"]) <= 60:
            raise InvalidAction(f"{sp}.weapon", "name the weapon stuck in")
        if not isinstance(s.get("location"), str) or s["location"] not in locs:
            raise InvalidAction(f"{sp}.location", f"{c.name}'s body has no hit location "
                                f"“{str(s.get('location')).replace('_', ' ')}” (it has {names})")
    conds = carried.get("conditions", [])
    if not isinstance(conds, list) or any(x not in SR_CONDITIONS for x in conds):
        raise InvalidAction(f"{path}.conditions", f"can only be {' or '.join(SR_CONDITIONS)}")
    for x in conds:
        c.add_condition(x)
    days = carried.get("healing_days", {})
    if not isinstance(days, dict):
        raise InvalidAction(f"{path}.healing_days", "must count rested days per hit location")
    for k, v in days.items():
        if k != "total" and k not in locs:
            raise InvalidAction(f"{path}.healing_days.{k}", f"{c.name}'s body has no hit location “{k.replace('_', ' ')}”")
        _whole(v, f"{path}.healing_days.{k}", 0, 1000, "Rested days")


def carried_note(carried: dict[str, Any]) -> str:
    stuck = carried.get("stuck", [])
    if isinstance(stuck, list) and stuck:
        return "Stuck in: " + "; ".join(f"{s.get('weapon')} ({str(s.get('location')).replace('_', ' ')})"
                                       for s in stuck if isinstance(s, dict))
    return ""


def notes(enc: Encounter, c: Combatant) -> list[str]:
    return []


def summary(ch: dict[str, Any]) -> str:
    from fray.party.character import standing

    got = ch.get("carried") or {}
    _, c = standing(ch)
    bits = []
    for l in c.data["locations"]:
        level = body.loc_level(l)
        flags = [w for k, w in (("bleeding", "bleeding"), ("first_aid", "First Aid given"), ("useless", "useless"))
                 if l.get(k)]
        if level != "none" or flags:
            bits.append(f"{l['name']} {l['hp']}/{l['hp_max']} {rules.injury_word(level)}"
                        + (" (" + ", ".join(flags) + ")" if flags else ""))
    bits += [f"{w['name']} HP {w['hp']}/{w['hp_max']}" for w in c.data["weapons"] if w["hp"] != w["hp_max"]]
    bits += [f"{s['weapon']} stuck in the {s['location'].replace('_', ' ')}" for s in got.get("stuck", [])]
    bits.append(f"total HP {c.data['hp']}/{c.data['hp_max']}")
    return "; ".join(bits)


def carry_over(enc: Encounter, c: Combatant, came: dict[str, Any]) -> dict[str, Any]:
    d = c.data
    out: dict[str, Any] = {}
    if d["hp"] != d["hp_max"]:
        out["hp"] = min(d["hp"], d["hp_max"])
    locs = {}
    for l in d["locations"]:
        w = {k: True for k in LOC_FLAGS if l.get(k)}
        if l["hp"] != l["hp_max"]:
            w["hp"] = l["hp"]
        if w:
            locs[l["id"]] = w
    if locs:
        out["locations"] = locs
    weapons = {w["id"]: w["hp"] for w in d["weapons"] if w["hp"] != w.get("hp_max", w["hp"])}
    if weapons:
        out["weapons"] = weapons
    stuck = []
    for i in d.get("impaled", []):
        owner = enc.peek_at(i.get("owner", ""))
        what = f"{owner.name}'s {i['name']}" if owner is not None else str(i.get("name", "a weapon"))
        stuck.append({"weapon": what[:60], "location": i["location"]})
    if stuck:
        out["stuck"] = stuck
    conds = [x for x in SR_CONDITIONS if x in c.conditions]
    if conds:
        out["conditions"] = conds
    return out


def time_passes(ch: dict[str, Any], period: str, rested: bool, treatment: str) -> tuple[dict[str, Any], list[str]]:
    from fray.party.character import check, name_of, standing
    from fray.games import get_ruleset

    name = name_of(ch)
    enc, c = standing(ch)
    ruleset = get_ruleset(ch["ruleset"])
    table = ruleset.table(enc, "natural_healing")
    every = healing.every(table)
    hr = body.derived(ruleset, enc, c)["healing_rate"]["value"]
    bonus = int(table.get("treatment", {}).get(treatment, 0))
    rate = hr + bonus
    days = DAYS[period]
    counts: dict[str, int] = dict(ch.get("carried", {}).get("healing_days", {}))
    stuck = {s["location"] for s in ch.get("carried", {}).get("stuck", [])}
    said = [f"{PERIOD_WORDS[period].capitalize()} {'pass' if period == 'hours' else 'passes'} for {name}"
            + (f" (days in a season: {DAYS['season']}, assumed)" if period in DAYS_ASSUMED else "")]
    if days == 0:
        said.append("No day ends: nothing heals yet (natural healing comes at the end of each day)")
        return ch, said
    if not rested:
        said.append("Natural healing requires rest: strenuous activity, nothing heals, and the count of rested days starts again")
        out = copy.deepcopy(ch)
        out.setdefault("carried", {}).pop("healing_days", None)
        return out, said
    said.append(f"Healing Rate {hr}" + (f" + {bonus} for the healer's {treatment} Treatment" if bonus else "")
                + (f" (the healer's Treatment: {treatment}, no bonus)" if treatment not in ("none",) and not bonus else ""))
    done = healing.rest_days(c, days, rate, every, counts, stuck)
    healed, total_healed, waiting = done.healed, done.total_healed, done.waiting
    _conditions_after(c)
    for l in c.data["locations"]:
        if healed.get(l["id"]):
            said.append(f"{l['name']} heals {healed[l['id']]}: {l['hp']}/{l['hp_max']} {rules.injury_word(body.loc_level(l))}"
                        + (", and stays useless" if l.get("useless") else ""))
    if total_healed:
        said.append(f"Total HP heals {total_healed} as its own minor wound (no injured hit location)")
    said.extend(sorted(waiting))
    said.append(f"Total HP {c.data['hp']}/{c.data['hp_max']}")
    carried = carry_over(enc, c, {})
    if counts:
        carried["healing_days"] = {k: v for k, v in sorted(counts.items()) if v}
    carried.pop("stuck", None)
    if ch.get("carried", {}).get("stuck"):
        carried["stuck"] = copy.deepcopy(ch["carried"]["stuck"])
    out = copy.deepcopy(ch)
    out["carried"] = carried
    check(out, "character")
    return out, said


def _conditions_after(c) -> None:
    """"If a location is healed back above an injury threshold, the injury effects end immediately":
    a head healed from maimed wakes; shock ends when no vital location is maimed or worse."""
    maimed = rules.injury_rank("maimed")
    if not any(l["type"] == "head" and rules.injury_rank(body.loc_level(l)) >= maimed for l in c.data["locations"]):
        c.drop_condition("unconscious")
    if not any(l["type"] in rules.VITAL_TYPES and rules.injury_rank(body.loc_level(l)) >= maimed
               for l in c.data["locations"]):
        c.drop_condition("incapacitated")
