"""A range-band combatant: stats, traits read from the ``add_combatant`` object, per-fight state.

Stats (the combatant form): ``DEX``, ``CON``, ``INT``, ``SPD``, ``WGT`` (one WGT is about 25 lb),
``FSPD`` (natural flying SPD, 0 = none). AWGT is derived (FACTS.md formula, ``rules.awgt``).

Traits (extra keys of ``add_combatant.combatant`` / ``edit_combatant.changes``; each checked here,
with the dotted path of a bad value):

* ``kind``: ``sentient`` | ``tech`` | ``animal`` (animals cannot warn or be warned, and hear at the
  next longer range); ``hears_far``: true for Adlet (hear at the next longer range); ``species``: free
  text (active echolocation is audible only to the same species).
* ``amphibious``: ``no`` | ``breathes`` (breathes underwater) | ``holds`` (holds breath longer than any
  combat); ``aquatic``: an aquatic animal (its natural weapons work underwater); ``swim_bonus``: extra
  SPD underwater for amphibious species.
* ``breath_rounds``: rounds of breath held before CON rolls (default 4; a species may override).
* ``vision``: ``normal`` | ``shadow`` | ``echolocation`` | ``thermal`` | ``darkeye`` | ``clairvoyance``;
  ``echolocation_band``: the reach of echolocation "sight" (default ``long``, 1 zone).
* ``light``: the light source carried: ``none`` | ``dim`` | ``moderate`` | ``bright`` | ``extreme``.
* ``armor_noise``: ``low`` (also unarmoured) | ``medium`` | ``high``.
* ``carried``: WGT carried (sinking underwater); ``competencies``: any of ``mounted_ranged``,
  ``mounted_melee``, ``conventional_medicine``.
* ``wing_flight``: the FSPD stat is natural wing-based flight (default true; it adds nothing underwater).
* ``flight_sources``: other sources of flying SPD ``[{name, spd, active, underwater, fatigue?}]``.
* ``flight_fatigue``: the fatigue a creature's own flying inflicts (Flight: "Creatures may also list a
  specific amount of fatigue inflicted by flying"), paid at the beginning of each movement phase in
  flight, like each active source's ``fatigue``.
* ``vehicle``: ``none`` | ``vehicle`` | ``aircraft`` | ``huge`` (a ship, or larger than a vehicle); ``vehicle_stealth``: true if using vehicle stealth.
* ``weapons``: ``[{name, kind: melee|ranged|thrown, tags: [reach, precise, blast, natural, unarmed,
  grapple]}]``.
* ``riding``: the id of this character's mount (checked like ``rb.mount``).
* ``stealth`` (``low``/``medium``/``high``), ``flying`` (bool): the state the fight starts in.

Per-fight state in ``c.data`` (the ruleset owns it):

* ``stealth``; ``locks``: ``{"medium": round, "high": round}``: the round in which that level cannot
  be re-entered; ``flying``; ``mount`` (rider's mount id) / ``rider`` (mount's rider id).
* ``moved``: this combatant's last movement ``{round, rushed, success, vertical, band}`` (``descent``: a
  descent without a roll); ``descended``: ``{round, m}``, the metres descended in that movement phase.
* ``breath``: ``{holding, idle, held, rolls, out, out_underwater, incapacitated_round, needs_restart,
  restart_points}``.
* ``durations``: ``[{condition, ends: "before_turn"|"after_turn", round?, turns?}]``.
* ``ambush``: ``{round, unseen_by: [ids]}``; ``grappling``: ids; ``cannot_see``: ids this one
  cannot see (smoke, cloaking: the GM's call).
* ``turn_value``: the turn-order result; ``used``: ``{round, major, minor, what: [...]}``.
* ``fly_switch``: the round of the last switch between flying and ground movement, and when.
* ``turn_done_round``: the last round in which this combatant's turn ended.
* ``fatigue``: fatigue points taken during the battle from Abilities and flight costs, and
  ``flight_paid``: the round whose flight costs are paid (post-combat fatigue is apart: ``post_combat``).
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.model import Combatant
from fray.games.base import StatSpec

STATS = (
    StatSpec("DEX", "DEX", "int", 0, 100, help="Rolled on for stealth, slowing actions and knockdown risks"),
    StatSpec("CON", "CON", "int", 0, 100, help="Rolled on for holding breath"),
    StatSpec("INT", "INT", "int", 0, 100, default=0, required=False, help="Rolled on for detection rolls"),
    StatSpec("SPD", "SPD", "int", 0, 100, help="Ground SPD: movement rolls"),
    StatSpec("WGT", "WGT", "int", 1, 100000, help="Weight; one WGT is about 25 lb. The adjusted weight (AWGT) is derived from it"),
    StatSpec("FSPD", "Flying SPD", "int", 0, 100, default=0, required=False,
             help="Natural flying SPD (0 = cannot fly); more sources stack as Flight says"),
)

KINDS = ("sentient", "tech", "animal")
AMPHIBIOUS = ("no", "breathes", "holds")
VISION = ("normal", "shadow", "echolocation", "thermal", "darkeye", "clairvoyance")
LIGHTS = ("none", "dim", "moderate", "bright", "extreme")
NOISE = ("low", "medium", "high")
BANDS = ("engaged", "short", "medium", "long", "travel")
STEALTH = ("low", "medium", "high")
COMPETENCIES = ("mounted_ranged", "mounted_melee", "conventional_medicine")
VEHICLES = ("none", "vehicle", "aircraft", "huge")
WEAPON_KINDS = ("melee", "ranged", "thrown")
WEAPON_TAGS = ("reach", "precise", "blast", "natural", "unarmed", "grapple")
MAX_WEAPONS = 12
MAX_SOURCES = 6

TRAITS = ("kind", "species", "hears_far", "amphibious", "aquatic", "swim_bonus", "breath_rounds", "vision", "echolocation_band",
          "light", "armor_noise", "carried", "competencies", "wing_flight", "flight_sources", "vehicle",
          "vehicle_stealth", "weapons", "flight_fatigue")
STATE_FIELDS = ("riding", "stealth", "flying")
EXTRA_FIELDS = TRAITS + STATE_FIELDS

DEFAULTS: dict[str, Any] = {
    "kind": "sentient", "species": "", "hears_far": False, "amphibious": "no", "aquatic": False, "swim_bonus": 0, "breath_rounds": 4,
    "vision": "normal", "echolocation_band": "long", "light": "none", "armor_noise": "low", "carried": 0,
    "competencies": [], "wing_flight": True, "flight_sources": [], "vehicle": "none", "vehicle_stealth": False,
    "weapons": [], "flight_fatigue": 0,
}


def _choice(raw: Any, path: str, choices: tuple[str, ...]) -> str:
    if raw not in choices:
        raise InvalidAction(path, f"must be one of {', '.join(choices)}")
    return raw


def _bool(raw: Any, path: str) -> bool:
    if not isinstance(raw, bool):
        raise InvalidAction(path, "must be true or false")
    return raw


def whole(raw: Any, path: str, lo: int, hi: int) -> int:
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, str):
        try:
            raw = int(raw.strip())
        except ValueError:
            raise InvalidAction(path, f"must be a whole number from {lo} to {hi}, not {raw!r}") from None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise InvalidAction(path, f"must be a whole number from {lo} to {hi}")
    if not lo <= raw <= hi:
        raise InvalidAction(path, f"must be from {lo} to {hi}, not {raw}")
    return raw


def _name(raw: Any, path: str) -> str:
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 40:
        raise InvalidAction(path, "must be text of 1 to 40 characters")
    return " ".join(raw.split())


def check_weapon(raw: Any, path: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, "a weapon is an object with name, kind and tags")
    for k in raw:
        if k not in ("name", "kind", "tags"):
            raise InvalidAction(f"{path}.{k}", "unknown weapon field (known: name, kind, tags)")
    tags = raw.get("tags", [])
    if not isinstance(tags, list):
        raise InvalidAction(f"{path}.tags", f"must be a list of {', '.join(WEAPON_TAGS)}")
    for i, t in enumerate(tags):
        _choice(t, f"{path}.tags.{i}", WEAPON_TAGS)
    return {"name": _name(raw.get("name"), f"{path}.name"),
            "kind": _choice(raw.get("kind", "melee"), f"{path}.kind", WEAPON_KINDS), "tags": sorted(set(tags))}


def check_source(raw: Any, path: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidAction(path, "a flight source is an object with name and spd")
    for k in raw:
        if k not in ("name", "spd", "active", "underwater", "fatigue"):
            raise InvalidAction(f"{path}.{k}", "unknown field (known: name, spd, active, underwater, fatigue)")
    out = {"name": _name(raw.get("name"), f"{path}.name"), "spd": whole(raw.get("spd"), f"{path}.spd", 0, 100),
           "active": _bool(raw.get("active", True), f"{path}.active"),
           "underwater": _bool(raw.get("underwater", True), f"{path}.underwater")}
    if "fatigue" in raw:
        out["fatigue"] = whole(raw["fatigue"], f"{path}.fatigue", 0, 100)
    return out


def check_trait(key: str, raw: Any, path: str) -> Any:
    """One trait in its proper form, or ``InvalidAction`` at ``path``."""
    if key == "kind":
        return _choice(raw, path, KINDS)
    if key == "species":
        if not isinstance(raw, str) or len(raw) > 40:
            raise InvalidAction(path, "must be text of up to 40 characters")
        return " ".join(raw.split()).lower()
    if key in ("hears_far", "aquatic", "wing_flight", "vehicle_stealth"):
        return _bool(raw, path)
    if key == "amphibious":
        return _choice(raw, path, AMPHIBIOUS)
    if key in ("swim_bonus", "flight_fatigue"):
        return whole(raw, path, 0, 100)
    if key == "breath_rounds":
        return whole(raw, path, 1, 100000)
    if key == "vision":
        return _choice(raw, path, VISION)
    if key == "echolocation_band":
        return _choice(raw, path, BANDS)
    if key == "light":
        return _choice(raw, path, LIGHTS)
    if key == "armor_noise":
        return _choice(raw, path, NOISE)
    if key == "carried":
        return whole(raw, path, 0, 1000000)
    if key == "competencies":
        if not isinstance(raw, list):
            raise InvalidAction(path, f"must be a list of {', '.join(COMPETENCIES)}")
        return sorted({_choice(x, f"{path}.{i}", COMPETENCIES) for i, x in enumerate(raw)})
    if key == "vehicle":
        return _choice(raw, path, VEHICLES)
    if key == "flight_sources":
        if not isinstance(raw, list) or len(raw) > MAX_SOURCES:
            raise InvalidAction(path, f"must be a list of up to {MAX_SOURCES} flight sources")
        return [check_source(s, f"{path}.{i}") for i, s in enumerate(raw)]
    if key == "weapons":
        if not isinstance(raw, list) or len(raw) > MAX_WEAPONS:
            raise InvalidAction(path, f"must be a list of up to {MAX_WEAPONS} weapons")
        return [check_weapon(w, f"{path}.{i}") for i, w in enumerate(raw)]
    raise InvalidAction(path, "unknown field")


def fresh_state() -> dict[str, Any]:
    return {"stealth": "low", "locks": {}, "flying": False, "mount": None, "rider": None, "moved": None,
            "breath": {"holding": False, "idle": False, "held": 0, "rolls": 0, "out": False, "out_underwater": False,
                       "incapacitated_round": None, "needs_restart": False, "restart_points": 0},
            "durations": [], "ambush": None, "grappling": [], "cannot_see": [], "turn_value": None,
            "used": None, "fly_switch": None, "turn_done_round": 0}


def fill(c: Combatant, extra: dict[str, Any], prefix: str, keep: bool) -> dict[str, Any]:
    """Read the traits of ``extra`` into ``c.data``; ``keep`` keeps the fight state (an edit).

    Returns the state fields (``riding``, ``stealth``, ``flying``) checked for type only: the ruleset
    applies them with the whole encounter in view (a mount must exist and be free)."""
    for k in extra:
        if k not in EXTRA_FIELDS:
            raise InvalidAction(f"{prefix}.{k}", f"unknown field (range-band takes {', '.join(EXTRA_FIELDS)})")
    data = dict(c.data) if keep else {**DEFAULTS, **fresh_state()}
    for k in TRAITS:
        if k in extra:
            data[k] = check_trait(k, extra[k], f"{prefix}.{k}")
    state: dict[str, Any] = {}
    if "riding" in extra and extra["riding"] is not None:
        if not isinstance(extra["riding"], str) or not extra["riding"]:
            raise InvalidAction(f"{prefix}.riding", "must name the mount's id (or null)")
        state["riding"] = extra["riding"]
    elif "riding" in extra:
        state["riding"] = None
    if "stealth" in extra:
        state["stealth"] = _choice(extra["stealth"], f"{prefix}.stealth", STEALTH)
    if "flying" in extra:
        state["flying"] = _bool(extra["flying"], f"{prefix}.flying")
    c.data = data
    return state


def traits_json(c: Combatant) -> dict[str, Any]:
    return {k: c.data.get(k, DEFAULTS[k]) for k in TRAITS}
