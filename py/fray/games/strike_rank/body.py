"""A combatant's sheet: stats, derived values, body plan (hit locations), weapons and spells.

``init_combatant`` reads the extra keys of ``add_combatant`` (``weapons``, ``body``, ``armour``,
``spells``, ``mount``, ``aquatic``) and stores them in ``Combatant.data``; every bad field raises
``InvalidAction`` with its dotted path (``combatant.weapons.0.damage``).

``Combatant.data`` layout (the view module documents what the page sees):

* ``hp``, ``hp_max``: total hit points now and at full.
* ``body``: the body plan's table id; ``locations``: list of
  ``{id, name, type, side, melee: [lo, hi], missile: [lo, hi], hp, hp_max, ap, severed, bleeding,
  first_aid, disabled_mr, immobilized_by}``.
* ``weapons``: list of weapon dicts (see ``WEAPON_FIELDS``), each with its current ``hp`` and the
  weapons ``stuck`` in it (shields).
* ``spells``: list of ``{id, name, type, intensity, manipulation, boost}``.
* ``round``: this MR's tallies (attacks, parries, dodges, running, ...); reset each MR.
* ``impaled``: weapons stuck in this combatant; ``reload``: MR spent reloading per weapon.
"""

from __future__ import annotations

import re
from typing import Any

from fray.dice import parse as parse_dice
from fray.errors import DiceError, InvalidAction, RuleViolation
from fray.model import Combatant, Encounter
from fray.games.base import ceil_div, whole_number
from fray.games.strike_rank import rules

WEAPON_TYPES = ("crushing", "slashing", "impaling", "cut-and-thrust")
RATES = re.compile(r"^(1/MR|S/MR|1/(\d+)MR)$")
SPELL_TYPES = ("battle", "sorcery", "spirit", "rune", "charm")
BODY_PLANS = {"humanoid": "body_humanoid", "quadruped": "body_quadruped", "single": "body_single"}
LOC_TYPES = ("head", "chest", "abdomen", "arm", "leg", "wing", "tail", "body")
HANDS = ("right", "left", "both", "none")
_ID = re.compile(r"[^a-z0-9]+")


def slug(text: str) -> str:
    return _ID.sub("_", text.lower()).strip("_") or "x"


def _int(raw: Any, path: str, lo: int, hi: int, default: Any = None) -> int:
    if raw is None and default is not None:
        return default
    raw = whole_number(raw, path)
    if not lo <= raw <= hi:
        raise InvalidAction(path, f"must be from {lo} to {hi}, not {raw}")
    return raw


def _num(raw: Any, path: str, lo: float, hi: float, default: Any = None) -> float:
    if raw is None and default is not None:
        return default
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        raise InvalidAction(path, "must be a number")
    if not lo <= raw <= hi:
        raise InvalidAction(path, f"must be from {lo:g} to {hi:g}")
    return raw


def _bool(raw: Any, path: str, default: bool = False) -> bool:
    if raw is None:
        return default
    if not isinstance(raw, bool):
        raise InvalidAction(path, "must be true or false")
    return raw


def _choice(raw: Any, path: str, choices: tuple[str, ...], default: str | None = None) -> str:
    if raw is None and default is not None:
        return default
    if raw not in choices:
        raise InvalidAction(path, f"must be one of {', '.join(choices)}")
    return raw


def _text(raw: Any, path: str, max_len: int = 40) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise InvalidAction(path, "must be a non-empty text")
    if len(raw) > max_len:
        raise InvalidAction(path, f"is longer than {max_len} characters")
    return " ".join(raw.split())


def _dice(raw: Any, path: str) -> str:
    try:
        return str(parse_dice(str(raw) if isinstance(raw, (str, int)) and not isinstance(raw, bool) else raw))
    except DiceError as e:
        raise InvalidAction(path, str(e)) from None


def check_weapon(raw: Any, path: str, location_ids: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, "a weapon is an object with name, skill, damage, sr, hp")
    known = {"id", "name", "skill", "damage", "sr", "hp", "type", "hafted", "shield", "shield_size", "missile",
             "thrown", "rate", "range", "enc", "natural", "unarmed", "martial_arts", "location", "hand", "dm",
             "reach", "lance", "spear", "knockback", "bonus", "cover"}
    for k in raw:
        if k not in known:
            raise InvalidAction(f"{path}.{k}", "is not a weapon field")
    name = _text(raw.get("name"), f"{path}.name")
    w: dict[str, Any] = {"id": slug(str(raw.get("id") or name)), "name": name}
    w["skill"] = _int(raw.get("skill"), f"{path}.skill", 0, 300)
    w["damage"] = _dice(raw.get("damage"), f"{path}.damage")
    w["missile"] = _bool(raw.get("missile"), f"{path}.missile")
    w["thrown"] = _bool(raw.get("thrown"), f"{path}.thrown")
    w["sr"] = _int(raw.get("sr"), f"{path}.sr", 0, 5, 0 if w["missile"] else None)
    w["hp"] = _int(raw.get("hp"), f"{path}.hp", 0, 200, 0 if raw.get("natural") or raw.get("unarmed") else None)
    w["hp_max"] = w["hp"]
    w["type"] = _choice(raw.get("type"), f"{path}.type", WEAPON_TYPES, "crushing")
    w["hafted"] = _bool(raw.get("hafted"), f"{path}.hafted")
    w["shield"] = _bool(raw.get("shield"), f"{path}.shield")
    w["shield_size"] = _choice(raw.get("shield_size"), f"{path}.shield_size", ("small", "medium", "large"),
                               "medium") if w["shield"] else ""
    rate = raw.get("rate", "1/MR" if w["missile"] else "")
    if w["missile"] and (not isinstance(rate, str) or not RATES.match(rate)):
        raise InvalidAction(f"{path}.rate", "must be 1/MR, S/MR or 1/xMR (e.g. 1/2MR)")
    w["rate"] = rate if w["missile"] else ""
    w["range"] = _num(raw.get("range"), f"{path}.range", 0, 5000, 0)
    if w["missile"] and not w["range"]:
        raise InvalidAction(f"{path}.range", "a missile weapon needs its range in metres")
    w["enc"] = _num(raw.get("enc"), f"{path}.enc", 0, 100, 1)
    w["natural"] = _bool(raw.get("natural"), f"{path}.natural")
    w["unarmed"] = _bool(raw.get("unarmed"), f"{path}.unarmed")
    w["martial_arts"] = _bool(raw.get("martial_arts"), f"{path}.martial_arts")
    loc = raw.get("location")
    if loc is not None and (not isinstance(loc, str) or loc not in location_ids):
        if not isinstance(loc, str):
            raise InvalidAction(f"{path}.location", "names no hit location: give one location, such as head")
        raise InvalidAction(f"{path}.location", f"this body has no hit location “{loc.replace('_', ' ')}”")
    w["location"] = loc or ""
    # A weapon given without its hand keeps the default it always had (a save's history replays to
    # the same sheet); ``held_in`` reads where it really is (a shield beside a weapon in the right
    # hand is in the left).
    w["hand"] = _choice(raw.get("hand"), f"{path}.hand", HANDS, "none" if w["natural"] else "right")
    w["dm"] = _choice(raw.get("dm"), f"{path}.dm", ("full", "half", "none"),
                      "half" if w["missile"] and not w["thrown"] else "full")
    w["reach"] = _num(raw.get("reach"), f"{path}.reach", 0, 20, 0)
    w["lance"] = _bool(raw.get("lance"), f"{path}.lance")
    w["spear"] = _bool(raw.get("spear"), f"{path}.spear")
    w["knockback"] = _bool(raw.get("knockback"), f"{path}.knockback", True)
    w["bonus"] = _int(raw.get("bonus"), f"{path}.bonus", 0, 50, 0)
    w["cover"] = _int(raw.get("cover"), f"{path}.cover", 0, 7, {"small": 1, "medium": 2, "large": 3}.get(w["shield_size"], 0))
    w["stuck"] = []
    return w


def check_spell(raw: Any, path: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, "a spell is an object with name and type")
    name = _text(raw.get("name"), f"{path}.name")
    s = {"id": slug(str(raw.get("id") or name)), "name": name,
         "type": _choice(raw.get("type"), f"{path}.type", SPELL_TYPES, "battle")}
    s["intensity"] = _int(raw.get("intensity"), f"{path}.intensity", 0, 30, 1)
    s["manipulation"] = _int(raw.get("manipulation"), f"{path}.manipulation", 0, 30, 0)
    s["boost"] = _int(raw.get("boost"), f"{path}.boost", 0, 60, 0)
    return s


def body_locations(ruleset, enc: Encounter, body: Any, hp_max: int, path: str) -> tuple[str, list[dict[str, Any]]]:
    """The hit locations of a body plan (a named table or the GM's own list), with HP shares."""
    if body is None:
        body = "humanoid"
    if isinstance(body, str):
        if body not in BODY_PLANS:
            raise InvalidAction(path, f"must be one of {', '.join(BODY_PLANS)} or a list of hit locations")
        table = ruleset.table(enc, BODY_PLANS[body])
        raw_locs, plan = table["entries"], BODY_PLANS[body]
    elif isinstance(body, list) and body:
        raw_locs, plan = body, "custom"
    else:
        raise InvalidAction(path, "must name a body plan or list hit locations")
    locs = []
    seen = set()
    covered = set()
    for i, r in enumerate(raw_locs):
        p = f"{path}.{i}"
        if not isinstance(r, dict):
            raise InvalidAction(p, "a hit location is an object with id, name, type, melee, hp")
        name = _text(r.get("name"), f"{p}.name")
        lid = slug(str(r.get("id") or name))
        if lid in seen:
            raise InvalidAction(f"{p}.id", f"hit location {lid!r} appears twice")
        seen.add(lid)
        ranges = {}
        for col in ("melee", "missile"):
            v = r.get(col, r.get("melee"))
            if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
                    or not 1 <= v[0] <= v[1] <= 20):
                raise InvalidAction(f"{p}.{col}", "must be [low, high] on a D20, e.g. [1, 4]")
            ranges[col] = list(v)
        covered.update(range(ranges["melee"][0], ranges["melee"][1] + 1))
        hp = r.get("hp", {"div": 3, "add": 0})
        if isinstance(hp, dict):
            hp_val = rules.location_hp(hp_max, hp)
        else:
            hp_val = _int(hp, f"{p}.hp", 1, 500)
        locs.append({"id": lid, "name": name, "type": _choice(r.get("type"), f"{p}.type", LOC_TYPES, "body"),
                     "side": r.get("side", "") if r.get("side", "") in ("", "left", "right") else "",
                     "melee": ranges["melee"], "missile": ranges["missile"], "hp": hp_val, "hp_max": hp_val,
                     "ap": _int(r.get("ap"), f"{p}.ap", 0, 50, 0), "severed": False, "bleeding": False,
                     "first_aid": False, "disabled_mr": 0, "immobilized_by": ""})
    if covered != set(range(1, 21)):
        missing = sorted(set(range(1, 21)) - covered)
        raise InvalidAction(path, f"the melee column must cover 1-20; missing {missing}")
    return plan, locs


def derived(ruleset, enc: Encounter, c: Combatant) -> dict[str, Any]:
    """DEX SR, SIZ SR, damage modifier and healing rate, each with where it came from."""
    s = c.stats
    out: dict[str, Any] = {}
    dex = s.get("DEX", 0)
    if s.get("dex_sr") is not None:
        out["dex_sr"] = {"value": s["dex_sr"], "text": f"DEX SR {s['dex_sr']} (set by the GM)"}
    elif dex <= 0:
        out["dex_sr"] = {"value": 1, "text": "DEX SR 1 (no DEX: treated as DEX SR 1)"}
    else:
        v = rules.dex_sr(dex, ruleset.table(enc, "dex_sr"))
        out["dex_sr"] = {"value": v, "text": f"DEX SR {v} (DEX {dex})"}
    if s.get("siz_sr") is not None:
        out["siz_sr"] = {"value": s["siz_sr"], "text": f"SIZ SR {s['siz_sr']} (set by the GM)"}
    else:
        v = rules.siz_sr(s.get("SIZ", 1), ruleset.table(enc, "siz_sr"))
        out["siz_sr"] = {"value": v, "text": f"SIZ SR {v} (SIZ {s.get('SIZ')})"}
    if s.get("dm") is not None:
        dm = "" if s["dm"] == "0" else rules.signed(s["dm"])
        out["damage_modifier"] = {"value": dm, "text": f"damage modifier {dm or 'none'} (set by the GM)"}
    else:
        total = s.get("STR", 0) + s.get("SIZ", 0)
        dm = rules.damage_modifier(total, ruleset.table(enc, "damage_modifier"))
        out["damage_modifier"] = {"value": dm, "text": f"damage modifier {dm or 'none'} (STR+SIZ {total})"}
    hr = rules.healing_rate(s.get("CON", 1), ruleset.table(enc, "natural_healing").get("hr_divisor", 6))
    out["healing_rate"] = {"value": hr, "text": f"healing rate {hr} = CON {s.get('CON')}/6 rounded up"}
    return out


def total_hp(stats: dict[str, Any]) -> tuple[int, str]:
    if stats.get("hp") is not None:
        return stats["hp"], f"HP {stats['hp']}"
    v = ceil_div(stats.get("CON", 1) + stats.get("SIZ", 1), 2)
    return v, f"HP {v} = (CON {stats.get('CON')} + SIZ {stats.get('SIZ')})/2 rounded up (assumed when not given)"


def new_round_tally() -> dict[str, Any]:
    return {"attacks": [], "parries": [], "dodges": 0, "split_used": {}, "running": False, "moved": False,
            "fought": False, "charging": False, "bracing": False, "fleeing": False, "casting": [],
            "spells_cast": 0, "rune_spell": False, "lost_defence": False}


def init_combatant(ruleset, enc: Encounter, c: Combatant, extra: dict[str, Any], keep: dict[str, Any] | None = None) -> None:
    known = {"weapons", "body", "armour", "spells", "mount", "aquatic"}
    for k in extra:
        if k not in known:
            raise InvalidAction(f"combatant.{k}", f"strike-rank has no combatant field {k!r}")
    old = keep or {}
    hp_max, hp_text = total_hp(c.stats)
    plan, locs = body_locations(ruleset, enc, extra.get("body", old.get("body_spec")), hp_max, "combatant.body")
    armour = extra.get("armour", 0)
    if isinstance(armour, dict):
        ids = {l["id"] for l in locs}
        for k, v in armour.items():
            if k not in ids:
                # the body's own location names, as the card shows them, so the GM can retype it
                raise InvalidAction(f"combatant.armour.{k}", "not a hit location of this body ("
                                    + ", ".join(l["name"] for l in locs) + ")")
            next(l for l in locs if l["id"] == k)["ap"] = _int(v, f"combatant.armour.{k}", 0, 50)
    elif armour:
        ap = _int(armour, "combatant.armour", 0, 50)
        for l in locs:
            l["ap"] = max(l["ap"], ap)
    ids = {l["id"] for l in locs}
    # An edit without new weapons or spells keeps the validated ones as they are (current weapon HP,
    # stuck weapons); the raw input is not stored, so the encounter stays small and quick to copy.
    if "weapons" in extra or not keep:
        raw_w = extra.get("weapons", [])
        if not isinstance(raw_w, list):
            raise InvalidAction("combatant.weapons", "must be a list of weapons")
        weapons = [check_weapon(w, f"combatant.weapons.{i}", ids) for i, w in enumerate(raw_w)]
        if len({w["id"] for w in weapons}) != len(weapons):
            raise InvalidAction("combatant.weapons", "two weapons have the same id; give each a distinct name or id")
    else:
        weapons = keep["weapons"]
    if "spells" in extra or not keep:
        raw_s = extra.get("spells", [])
        if not isinstance(raw_s, list):
            raise InvalidAction("combatant.spells", "must be a list of spells")
        spells = [check_spell(s, f"combatant.spells.{i}") for i, s in enumerate(raw_s)]
    else:
        spells = keep["spells"]
    mount = extra.get("mount", old.get("mount", ""))
    if mount and (not isinstance(mount, str) or enc.get(mount) is None):
        raise InvalidAction("combatant.mount", f"there is no combatant {mount!r} to ride")
    aquatic = _bool(extra.get("aquatic", old.get("aquatic", False)), "combatant.aquatic")
    if keep:
        # An edit keeps current wounds: carry each location's damage over to the new maximum.
        old_locs = {l["id"]: l for l in keep.get("locations", [])}
        for l in locs:
            o = old_locs.get(l["id"])
            if o:
                lost = o["hp_max"] - o["hp"]
                l.update({k: o[k] for k in ("severed", "severed_open", "bleeding", "first_aid", "disabled_mr",
                                            "immobilized_by") if k in o})
                l["hp"] = l["hp_max"] - lost
                if "armour" not in extra:
                    l["ap"] = o["ap"]
        hp = hp_max - (keep.get("hp_max", hp_max) - keep.get("hp", hp_max))
    else:
        hp = hp_max
    body_spec = extra["body"] if "body" in extra else old.get("body_spec")
    c.data.update({
        "hp": hp, "hp_max": hp_max, "hp_text": hp_text, "body": plan, "locations": locs, "weapons": weapons,
        "spells": spells, "mount": mount or "", "aquatic": aquatic,
        # a named plan is re-read from its table on an edit; only a custom list needs keeping
        "body_spec": body_spec,
    })
    c.data.setdefault("round", new_round_tally())
    c.data.setdefault("impaled", [])
    c.data.setdefault("reload", {})
    c.data.setdefault("grips", [])
    c.data.setdefault("stun", [])
    c.data.setdefault("resuscitate_by", None)
    c.data.setdefault("unconscious_minutes", 0)


# -- reading a sheet ---------------------------------------------------------------------------------

def location(c: Combatant, lid: str) -> dict[str, Any] | None:
    return next((l for l in c.data["locations"] if l["id"] == lid), None)


def protection(c: Combatant) -> int:
    """Magical protection on the combatant (``sr.protection``), in points at every location: "Critical Hit:
    Special damage, ignores armor (but not magical protection)", so it is kept apart from the armour."""
    return int(c.data.get("protection", {}).get("points", 0))


def armour_points(c: Combatant, loc: dict[str, Any]) -> int:
    """What stops damage at a location: its armour and any magical protection."""
    return loc["ap"] + protection(c)


def weapon(c: Combatant, wid: Any) -> dict[str, Any] | None:
    ws = c.data["weapons"]
    if isinstance(wid, int) and not isinstance(wid, bool):
        return ws[wid] if 0 <= wid < len(ws) else None
    return next((w for w in ws if w["id"] == wid), None)


def loc_level(l: dict[str, Any]) -> str:
    return rules.injury_level(l["hp"], l["hp_max"], l.get("severed", False))


def limb_disabled(l: dict[str, Any]) -> bool:
    return (l["type"] in rules.LIMB_TYPES and rules.injury_rank(loc_level(l)) >= rules.injury_rank("serious")) \
        or l.get("disabled_mr", 0) > 0 or bool(l.get("immobilized_by")) or bool(l.get("useless"))


def default_hand(w: dict[str, Any]) -> str:
    """The hand of a weapon whose sheet names none (a save older than hands in the add form): a
    shield on the left, a bow or crossbow in both, a natural weapon in none, any other the right."""
    if w.get("natural"):
        return "none"
    if w.get("shield"):
        return "left"
    if w.get("missile") and not w.get("thrown"):
        return "both"
    return "right"


def held_in(c: Combatant, w: dict[str, Any]) -> str:
    """Which hand holds ``w``: right, left, both or none. One hand holds one thing ("characters
    wielding a weapon and a shield"): a shield said to be in the right hand beside a weapon held
    there (the add form's old default for every weapon) is in the left."""
    hand = w.get("hand") or default_hand(w)
    if w.get("shield") and hand == "right" and not w.get("location") and any(
            o is not w and not o.get("natural") and not o.get("shield") and (o.get("hand") or default_hand(o)) == "right"
            for o in c.data["weapons"]):
        return "left"
    return hand


def hand_location(c: Combatant, w: dict[str, Any]) -> list[dict[str, Any]]:
    """The arm(s) a weapon is held in, or the location a natural weapon strikes with."""
    if w.get("location"):
        l = location(c, w["location"])
        return [l] if l else []
    arms = [l for l in c.data["locations"] if l["type"] == "arm"]
    hand = held_in(c, w)
    if hand == "both":
        return arms
    if hand in ("right", "left"):
        return [l for l in arms if l["side"] == hand][:1]
    return []


def _the(name: str) -> str:
    """"the shield" for a weapon named "Shield": its name as a common noun in a sentence."""
    return "the " + (name[0].lower() + name[1:] if name[1:2].islower() else name) if name else "it"


def injury_refusal(c: Combatant, l: dict[str, Any], w: dict[str, Any]) -> tuple[str, str]:
    """The rule and the words that refuse ``w`` because of the limb ``l`` that holds or is it."""
    who = f"{c.name}'s {l['name'][0].lower() + l['name'][1:]}"
    level = loc_level(l)
    natural = bool(w.get("natural") or (w.get("unarmed") and w.get("location")))
    if l.get("immobilized_by"):
        return "Grappling", f"{who} is immobilized: An immobilized limb cannot be used"
    if l.get("useless") or rules.injury_rank(level) >= rules.injury_rank("mangled"):
        word = "severed" if level == "severed" else "mangled"
        return ("Damage Equal to Triple Location HP",
                f"{who} is {word}: it is useless" + ("" if natural else f" and cannot hold {_the(w['name'])}"))
    if rules.injury_rank(level) >= rules.injury_rank("maimed"):
        if natural or l["type"] != "arm":
            return "Damage Equal to Double Location HP", f"{who} is maimed: it cannot attack ({w['name']})"
        return "Damage Equal to Double Location HP", f"{who} is maimed: it cannot hold {_the(w['name'])}"
    if rules.injury_rank(level) >= rules.injury_rank("serious"):
        if natural or l["type"] != "arm":
            return "Damage Equal to Location HP", f"{who} is disabled: it cannot be used to attack ({w['name']})"
        return "Damage Equal to Location HP", f"{who} is disabled: it cannot wield {_the(w['name'])}"
    return "Stun (½ skill)", f"{who} is stunned for {l.get('disabled_mr', 0)} MR: it cannot hold {_the(w['name'])}"


def usable_weapon(c: Combatant, wid: Any, field: str) -> dict[str, Any]:
    """The weapon ``wid`` of ``c``, ready to use: one it does not carry is refused at ``field``
    (``InvalidAction``), one out of use by the rule that says so (``RuleViolation``)."""
    if wid in (None, ""):
        # the form's Weapon left on "(none)" (a GM's play: "does not carry that weapon" of no weapon at all)
        raise InvalidAction(field, "choose a weapon")
    w = weapon(c, wid)
    if w is None:
        raise InvalidAction(field, no_such_weapon(c))
    why = weapon_unusable_rule(c, w)
    if why:
        raise RuleViolation(*why)
    return w


def weapon_usable(c: Combatant, w: dict[str, Any]) -> str | None:
    """Why a weapon cannot be used now, or None ("A disabled arm cannot wield weapons or shields")."""
    why = weapon_unusable_rule(c, w)
    return why[1] if why else None


def weapon_unusable_rule(c: Combatant, w: dict[str, Any]) -> tuple[str, str] | None:
    """The heading of the rule text that keeps a weapon out of use, and why; or None."""
    for l in hand_location(c, w):
        if limb_disabled(l):
            return injury_refusal(c, l, w)
    if w["hp_max"] and w["hp"] <= 0:
        return "Attacks & Defenses", f"{w['name']} is broken"
    if w.get("dropped"):
        return "Disarm (½ skill)", f"{w['name']} was dropped"
    if w.get("stuck_in") and not (w.get("natural") or w.get("unarmed")):
        # a bite left "stuck" by a save made before natural attacks stopped sticking is free again
        return "Impale", f"{w['name']} is stuck in {w['stuck_in']['name']}"
    if w["shield"] and stuck_enc(w) > 2:
        # "ENC over 2 (or attacker is holding on to weapon): Shield cannot be used."
        return ("Shield Parries and Impales",
                f"{w['name']} has weapons stuck in it (ENC {stuck_enc(w):g}): the shield cannot be used")
    return None


def stuck_enc(w: dict[str, Any]) -> float:
    return sum(s.get("enc", 0) for s in w.get("stuck", []))


def legs(c: Combatant) -> list[dict[str, Any]]:
    return [l for l in c.data["locations"] if l["type"] == "leg"]


def movement_limits(c: Combatant) -> dict[str, Any]:
    """Half rate, no running, or no standing from leg and vital injuries."""
    ls = legs(c)
    disabled = [l for l in ls if limb_disabled(l)]
    maimed = [l for l in ls if rules.injury_rank(loc_level(l)) >= rules.injury_rank("maimed")]
    out = {"can_run": True, "half_rate": False, "can_stand": True, "max_rate": None, "why": []}
    if disabled:
        out["can_run"] = False
        out["why"].append("a disabled leg: cannot run")
    if ls and len(disabled) * 2 >= len(ls):
        out["half_rate"] = True
        out["why"].append("half or more legs disabled: half rate")
    if ls and maimed and len(maimed) >= ceil_div(len(ls), 4):
        out["half_rate"], out["can_run"] = True, False
        out["why"].append("a quarter or more legs maimed: half rate, cannot run")
    if ls and len(maimed) * 2 >= len(ls):
        out["can_stand"] = False
        out["max_rate"] = 1
        out["why"].append("half or more legs maimed: cannot stand, crawl at 1 m")
    for l in c.data["locations"]:
        lv = rules.injury_rank(loc_level(l))
        if l["type"] == "abdomen" and lv >= rules.injury_rank("maimed"):
            out["can_stand"] = False
            out["max_rate"] = 1
            out["why"].append("maimed abdomen: cannot stand or walk")
        if l["type"] == "chest" and lv >= rules.injury_rank("maimed"):
            out["max_rate"] = 1
            out["can_run"] = False
            out["why"].append("maimed chest: stagger at 1 m")
        if l["type"] == "leg" and l.get("immobilized_by"):
            out["max_rate"] = 0
            out["why"].append("an immobilized leg prevents movement")
    return out


FALLEN = ("dead", "unconscious", "incapacitated")  # out of the fight: no action at all, not even a defence


def can_act(c: Combatant) -> str | None:
    """Why ``c`` can take no action at all (dead, unconscious, incapacitated), or None."""
    for cond in FALLEN:
        if cond in c.conditions:
            return f"{c.name} is {cond}"
    return None


def no_footing_roll(c: Combatant) -> str | None:
    """Why ``c``, knocked back, makes no roll to keep their feet ("The target needs to make a DEX×5% roll
    or fall prone"), or None: the fallen cannot make it ("Dead characters cannot do anything"; the
    incapacitated are "unable to take any action") and the prone have no feet to keep."""
    return next((cond for cond in (*FALLEN, "prone") if cond in c.conditions), None)


def chest_maimed(c: Combatant) -> bool:
    return any(l["type"] == "chest" and rules.injury_rank(loc_level(l)) >= rules.injury_rank("maimed")
               for l in c.data["locations"])


def can_fight(c: Combatant) -> str | None:
    """Why ``c`` cannot attack or parry, or None: "Chest: Cannot fight, cannot move faster than a
    stagger (1m rate), can use magic or First Aid.\""""
    why = can_act(c)
    if why:
        return why
    if chest_maimed(c):
        return f"{c.name}'s chest is maimed: cannot fight (only magic, First Aid or a stagger at 1 m)"
    return None


def cannot_stand(c: Combatant) -> str | None:
    """Why ``c`` cannot stand ("Leg: If half or more of a combatant's legs are maimed, they cannot
    stand"; "Abdomen: Cannot stand or walk."), or None."""
    lim = movement_limits(c)
    if lim["can_stand"]:
        return None
    return "; ".join(w for w in lim["why"] if "stand" in w)


def no_such_weapon(c: Combatant) -> str:
    """A weapon id that is not this combatant's (a form still set for someone else): say so with the
    names on their card, not the id."""
    names = ", ".join(w["name"] for w in c.data["weapons"]) or "none"
    return f"{c.name} does not carry that weapon (theirs: {names})"
