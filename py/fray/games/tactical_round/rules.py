"""The rules of the combat chapter as pure functions over values: no dice, no editing.

Each function takes the tables it needs (``tables`` is ``{table id: table}``, the GM's edited
copies included) and returns numbers together with how they were reached, so the log and the
page can show "DEF 75 = base 40 + shield 15 + parry 20". The handlers in ``actions.py`` roll the
dice and write the results; everything here can be tested without an encounter in play.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

from fray.errors import RuleViolation
from fray.model import Combatant, Encounter
from fray.games.base import gm_tie_break, id_order
from fray.games.tactical_round.combatant import RANGED_KINDS, hp_current, hp_max, wielded

Tables = dict[str, dict[str, Any]]
Part = tuple[str, int]

# Melee Attacks: "made against opponents who are adjacent to the attacker or within the reach of
# their weapon". The text gives no metres: ours (assumed) is the 3 m a human-sized combatant
# engages at in the strike-rank game, which also takes a spear's or a great axe's reach.

# Conditions that stop a character from Parrying at all (Parrying, last bullet).
NO_PARRY = ("incapacitated", "held", "surprised", "dying", "unconscious", "dead")
# Conditions that stop a character from acting at all: the fallen (issue 32, "The fallen keep acting":
# dead, incapacitated and unconscious combatants get no forms and are never a default target).
# The worst first, so that ``fallen`` names it: a GM's play-through read "Orc 2 is now dying (HP -55)",
# then "Orc 2 is incapacitated: ..." twice, as if he were better off than the line before said.
OUT_OF_ACTION = ("dead", "dying", "incapacitated", "unconscious")


def fallen(c: Combatant) -> str:
    """The worst condition that has put ``c`` out of the fight ("" while they can still act)."""
    return next((x for x in OUT_OF_ACTION if x in c.conditions), "")


def keyed(table: dict[str, Any], field: str = "key") -> dict[str, dict[str, Any]]:
    return {e[field]: e for e in table["entries"]}


def mod(tables: Tables, key: str) -> int:
    return int(keyed(tables["condition_modifiers"])[key]["value"])


def mod_label(tables: Tables, key: str) -> str:
    return keyed(tables["condition_modifiers"])[key]["label"]


def parry_rule(tables: Tables, key: str) -> Any:
    return keyed(tables["parry_rules"])[key]["value"]


# -- the Tactical Round Sequence ----------------------------------------------------------------

def phase_ids(tables: Tables) -> list[str]:
    return [e["id"] for e in tables["phases"]["entries"]]


def phase_title(tables: Tables, phase: str) -> str:
    for e in tables["phases"]["entries"]:
        if e["id"] == phase:
            return e["title"]
    return phase.capitalize()


def next_phase(tables: Tables, phase: str) -> tuple[str, bool]:
    """The phase after ``phase`` and whether a new round starts (after Other Actions)."""
    ids = phase_ids(tables)
    if phase not in ids:  # "setup": the fight starts with round 1's Assessment
        return ids[0], False
    i = ids.index(phase)
    if i + 1 < len(ids):
        return ids[i + 1], False
    return ids[0], True


def loaded_before_round(w: dict[str, Any], round_no: int) -> bool:
    return bool(w["loaded"]) and int(w["loaded_round"]) < round_no


def declared_phase(tables: Tables, kind: str, w: dict[str, Any] | None, round_no: int,
                   loads_this_round: bool) -> str:
    """Where a declared action lands in the sequence.

    A ranged attack with a weapon loaded (or a thrown weapon readied) before the round goes in
    Ranged A, one loaded this round in Ranged B. A spell with a Bolt/Area weapon still resolves in
    its Spell phase: the rule text says so, even though it counts as a ranged attack."""
    phase = keyed(tables["declared_actions"])[kind]["phase"]
    if kind == "ranged_attack" and w is not None:
        if loads_this_round or not loaded_before_round(w, round_no):
            return "ranged_b"
        return "ranged_a"
    return phase


def attack_phases(w: dict[str, Any], round_no: int) -> tuple[str, ...]:
    """The phases in which an attack with this weapon may be resolved."""
    if w["kind"] == "spell":
        return ("spell_a", "spell_b")
    if w["kind"] in ("missile", "thrown"):
        return ("ranged_a", "ranged_b") if loaded_before_round(w, round_no) else ("ranged_b",)
    return ("melee",)


def melee_key(c: Combatant, w: dict[str, Any]) -> tuple[float, int]:
    """Melee phase order: longest weapon first, then higher CMB (after the parry is moved out)."""
    return (-float(w["length"]), -current_cmb(c, w))


# -- hit points -----------------------------------------------------------------------------------

def hp_conditions(current: int, maximum: int, tables: Tables) -> list[str]:
    out = []
    for e in tables["hp_thresholds"]["entries"]:
        if "below_fraction" in e and current < maximum * e["below_fraction"]:
            out.append(e["condition"])
        elif "at_or_below" in e and current <= e["at_or_below"]:
            out.append(e["condition"])
    return out


def hp_managed(tables: Tables) -> list[str]:
    return [e["condition"] for e in tables["hp_thresholds"]["entries"]]


def sync_hp_conditions(c: Combatant, tables: Tables) -> list[tuple[str, bool]]:
    """Set or clear Bruised/incapacitated/dying from current HP; return what changed."""
    now = hp_conditions(hp_current(c), hp_max(c), tables)
    changed = []
    for cond in hp_managed(tables):
        if cond in now and cond not in c.conditions:
            c.conditions.append(cond)
            changed.append((cond, True))
        elif cond not in now and cond in c.conditions:
            c.conditions.remove(cond)
            changed.append((cond, False))
    return changed


def hp_ceiling(entry: dict[str, Any], maximum: int) -> float:
    """The highest HP at which a Hit Point threshold's state holds: each is "HP at or below" some
    figure ("below half" of 45 HP is at or below 22), so a state includes every other whose
    ceiling is as high or higher."""
    if "below_fraction" in entry:
        return math.ceil(maximum * float(entry["below_fraction"])) - 1
    return float(entry.get("at_or_below", math.inf))


def shown_conditions(c: Combatant, tables: Tables) -> list[str]:
    """``c``'s conditions less those a worse one includes, for the strip and the card (FACTS.md: "0 or
    below → incapacitated; −50 or below → dying; below half → Bruised"): of the Hit Point states held,
    the one with the lowest ceiling (dying includes incapacitated and bruised), and none on the dead.
    The rules still read them all (Bruised's −20 stays in ``condition_penalty``); a GM's play-through
    read "dying bruised incapacitated" on the strip."""
    entries = tables["hp_thresholds"]["entries"]
    held = [e for e in entries if e["condition"] in c.conditions]
    worst = min(reversed(held), key=lambda e: hp_ceiling(e, hp_max(c)))["condition"] if held else ""
    hidden = {e["condition"] for e in held} - ({worst} if "dead" not in c.conditions else set())
    return [x for x in c.conditions if x not in hidden or x == "dead"]


def condition_penalty(c: Combatant, tables: Tables) -> list[Part]:
    """Penalties a combatant's own HP state puts on every roll (Bruised −20)."""
    out = []
    for e in tables["hp_thresholds"]["entries"]:
        if e.get("modifier") and e["condition"] in c.conditions:
            out.append((e["condition"].capitalize(), int(e["modifier"])))
    return out


# -- action (skill) rolls -------------------------------------------------------------------------

def action_band(total: int, tables: Tables) -> tuple[int, dict[str, Any]]:
    """The band of an action roll total and its rank (0 = critical failure)."""
    entries = tables["action_roll_bands"]["entries"]
    for rank, e in enumerate(entries):
        if e["max"] is None or total <= e["max"]:
            return rank, e
    return len(entries) - 1, entries[-1]


def opposed(a_total: int, b_total: int, tables: Tables) -> str:
    """Opposed action roll, from A's side: ``win``, ``lose`` or ``tie`` (same band)."""
    ra, _ = action_band(a_total, tables)
    rb, _ = action_band(b_total, tables)
    return "win" if ra > rb else "lose" if ra < rb else "tie"


# -- range bands ----------------------------------------------------------------------------------

def range_band(distance: float, base_range: float, tables: Tables) -> dict[str, Any] | None:
    """The band for a distance, or None beyond the last band (cannot attack)."""
    for e in tables["range_bands"]["entries"]:
        if distance <= base_range * e["up_to_multiple"] + 1e-9:
            return e
    return None


def map_ranges(enc: Encounter, tables: Tables, attacker_id: str | None) -> dict[str, Any] | None:
    """Range Bands read off the map for every target at once: the distance from the attacker to
    each other combatant, measured as an attack measures it when no distance is given (straight
    line between the tokens, to the centimetre), the band of each of the attacker's ranged weapons
    (missile, thrown, spell) at that distance, and who stands on the line between them (Ranged
    Attacks: "must have a clear Line of Sight": the GM's call, so they are named, never decided).

    ``{"attacker": name, "rows": [{"target": name, "metres", "bands": [{"weapon", "label",
    "modifier"}], "in_the_way": [names]}]}``, a band's label and modifier None beyond the last
    band (cannot attack); None when the attacker is unknown or has no ranged weapon."""
    from fray.geometry import distance
    from fray.maprules import in_the_way

    a = enc.get(attacker_id) if attacker_id else None
    if a is None:
        return None
    ranged = [w for w in a.data.get("weapons", []) if w.get("kind") in RANGED_KINDS]
    if not ranged:
        return None
    rows = []
    for b in enc.combatants:
        if b.id == a.id:
            continue
        d = round(distance(a.position, b.position), 2)
        bands = []
        for w in ranged:
            e = range_band(d, w.get("base_range") or 0, tables)
            bands.append({"weapon": w["name"], "label": e["label"] if e else None,
                          "modifier": e["modifier"] if e else None})
        rows.append({"target": b.name, "metres": d, "bands": bands,
                     "in_the_way": [o.name for o in in_the_way(enc, a, b)]})
    return {"attacker": a.name, "rows": rows}


# -- parry, cover, DEF ----------------------------------------------------------------------------

def has_shield(c: Combatant) -> bool:
    w = wielded(c)
    return bool(w and w["shield"])


def counts_unarmed(c: Combatant) -> bool:
    """For Parrying: no weapon, unarmed or natural weapons, a missile weapon in hand, or only a Bolt/Area
    spell (a spell is not a weapon to block with)."""
    w = wielded(c)
    return w is None or w["kind"] in ("unarmed", "natural", "missile", "spell")


def parry_limit(c: Combatant, tables: Tables) -> tuple[int, str]:
    """Most CMB that can be moved into DEF, and why."""
    w = wielded(c)
    if any(x in c.conditions for x in NO_PARRY):
        which = next(x for x in NO_PARRY if x in c.conditions)
        return 0, f"{which.capitalize()}: cannot Parry"
    cmb = max(int(w["cmb"]) if w else 0, 0)
    if "stunned" in c.conditions:
        half = int(cmb * parry_rule(tables, "stunned_fraction"))
        return half, f"Stunned: up to half CMB ({cmb} → {half})"
    return cmb, f"up to CMB {cmb}"


def current_cmb(c: Combatant, w: dict[str, Any]) -> int:
    """A weapon's CMB after the parry moved out of it this round."""
    p = c.data.get("parry") or {}
    return int(w["cmb"]) - int(p.get("amount", 0))


def cover_bonus(tables: Tables, kind: str | None) -> int:
    if not kind:
        return 0
    return int(keyed(tables["cover"])[kind]["bonus"])


def cover_against(enc: Encounter, target: Combatant, attacker_id: str, ranged: bool,
                  tables: Tables) -> tuple[int, str]:
    """The best Cover against this attacker: the types do not stack, the higher one counts.

    Cover is kept per direction (per attacker, or "all"); a ranged attack on an engaged target
    is shooting into melee, which counts as Partial Cover."""
    options: list[tuple[int, str]] = [(0, "")]
    for who in (attacker_id, "all"):
        kind = target.data.get("cover", {}).get(who)
        if kind:
            options.append((cover_bonus(tables, kind), keyed(tables["cover"])[kind]["label"]))
    if ranged and engaged_ids(enc, target):
        kind = tables["cover"].get("into_melee", "partial")
        options.append((cover_bonus(tables, kind), keyed(tables["cover"])[kind]["label"] + " (shooting into melee)"))
    return max(options, key=lambda o: o[0])


def engaged_ids(enc: Encounter, c: Combatant) -> list[str]:
    return [x for x in c.data.get("engaged_with", []) if enc.get(x) is not None]


def melee_reach(enc: Encounter, a: Combatant, b: Combatant, metres: float, tables: Tables) -> None:
    """Melee Attacks: an opponent engaged with ``a`` is in reach wherever the tokens stand (the
    melee moves with its fighters); any other must be within the reach of the ``melee_reach`` table
    (the text gives no distance: 3 m, assumed, the GM's to edit), else the attacker closes in first
    (the Move phase comes before Melee)."""
    reach = float(keyed(tables["melee_reach"])["reach_m"]["value"])
    if b.id in engaged_ids(enc, a) or metres <= reach:
        return
    raise RuleViolation("Melee Attacks", f"{b.name} is {metres:.1f} m from {a.name}: a melee attack reaches only "
                        f"an opponent adjacent or within the weapon's reach ({reach:g} m). "
                        f"{a.name} must move closer first (in the Move phase)", field="target")


def reach_warnings(enc: Encounter, tables: Tables) -> dict[str, str]:
    """Melee Attacks ("made against opponents who are adjacent to the attacker or within the reach of
    their weapon"), said at Declaration: {id: what to know} for each one whose declared melee attack is
    on an opponent out of reach with no Move of its own declared. The rules take such a declaration (the
    Move phase comes before Melee, and the opponent may come to him), so it is a word while the GM can
    still declare the Move, not a refusal: a GM's play-through learnt it only in Melee, the Move over."""
    out: dict[str, str] = {}
    for cid, plan in enc.state.get("declared", {}).items():
        said = reach_warning(enc, tables, cid, plan)
        if said:
            out[cid] = said
    return out


def reach_warning(enc: Encounter, tables: Tables, cid: str, plan: list[dict[str, Any]]) -> str:
    """``reach_warnings``' word for one declaration, made or still in its form (``plan``: its rows,
    ``{"action", "target"}``): the form says it as the GM fills it in, before Declare (a GM's
    play-through saw it only once declared), as range-band's attack form asks its question."""
    from fray.geometry import distance

    a = enc.get(cid)
    if a is None or any(d.get("action") == "move" for d in plan):
        return ""
    reach = float(keyed(tables["melee_reach"])["reach_m"]["value"])
    for d in plan:
        b = enc.get(d.get("target") or "") if d.get("action") == "melee_attack" else None
        if b is None or b.id == a.id or b.id in engaged_ids(enc, a):
            continue
        metres = round(distance(a.position, b.position), 2)
        if metres > reach:
            return (f"{b.name} is {metres:.1f} m from {a.name}, beyond a melee attack's reach "
                    f"({reach:g} m): declare a Move to close in, unless {b.name} comes to {a.name} "
                    f"in the Move phase")
    return ""


def parry_against(enc: Encounter, target: Combatant, attacker: Combatant, w: dict[str, Any], on_rear: bool,
                  has_cover: bool, tables: Tables) -> tuple[int, str]:
    """How much of the target's parry counts against this attack, and why (or why not)."""
    p = target.data.get("parry") or {}
    amount = int(p.get("amount", 0))
    if not amount:
        return 0, ""
    limit, why = parry_limit(target, tables)
    if limit == 0:
        return 0, why
    if attacker.id not in p.get("against", []):
        return 0, "parry is against another opponent"
    if on_rear:
        return 0, "On Rear: not the opponent faced"
    shieldlike = has_shield(target) or has_cover
    ranged = w["kind"] in RANGED_KINDS
    if ranged and not shieldlike:
        return 0, "ranged attacks cannot be Parried without a shield or Cover"
    if w["two_handed"] and not shieldlike and parry_rule(tables, "two_handed_needs_shield_or_cover"):
        return 0, "two-handed weapon attacks need a shield or Cover to Parry"
    # Cover lets "any character" Parry ranged and two-handed attacks "as if they were wielding a shield",
    # so against those an unarmed (or missile-wielding) character in Cover parries as a shield-bearer does.
    as_if_shield = has_shield(target) or (has_cover and (ranged or w["two_handed"]))
    if counts_unarmed(target) and not as_if_shield and w["kind"] not in ("unarmed", "natural"):
        return 0, "unarmed (or holding a missile weapon): cannot Parry armed attacks"
    if amount > limit:
        return limit, why
    return amount, ""


def defense(enc: Encounter, target: Combatant, attacker: Combatant, w: dict[str, Any], flags: dict[str, bool],
            tables: Tables) -> tuple[list[Part], list[str]]:
    """DEF against one attack: base + shield + parry + cover (+ Prone vs ranged, Held)."""
    ranged = w["kind"] in RANGED_KINDS
    parts: list[Part] = [("DEF", int(target.stats.get("DEF", 0)))]
    notes: list[str] = []
    tw = wielded(target)
    if tw and tw["shield"]:
        if flags.get("on_rear"):
            notes.append("On Rear: no shield DEF")
        else:
            parts.append(("shield", int(tw["shield"])))
    cover, label = cover_against(enc, target, attacker.id, ranged, tables)
    parry, why = parry_against(enc, target, attacker, w, bool(flags.get("on_rear")), cover > 0, tables)
    if parry:
        parts.append(("parry", parry))
    if why:
        notes.append(f"parry: {why}")
    if cover:
        parts.append((label, cover))
    if ranged and "prone" in target.conditions:
        parts.append((mod_label(tables, "target_prone_ranged"), mod(tables, "target_prone_ranged")))
    if "held" in target.conditions:
        parts.append((mod_label(tables, "target_held"), mod(tables, "target_held")))
    return parts, notes


def general_defense(c: Combatant, tables: Tables) -> list[Part]:
    """DEF as the tracker shows it, before any particular attacker: base + shield + parry."""
    parts: list[Part] = [("DEF", int(c.stats.get("DEF", 0)))]
    w = wielded(c)
    if w and w["shield"]:
        parts.append(("shield", int(w["shield"])))
    p = c.data.get("parry") or {}
    if p.get("amount"):
        limit, _ = parry_limit(c, tables)
        if min(int(p["amount"]), limit):
            parts.append(("parry", min(int(p["amount"]), limit)))
    return parts


def full_and_half(decls: Iterable[dict[str, Any]]) -> bool:
    costs = sorted(d["cost"] for d in decls)
    return costs == ["full", "half"]


def attack_parts(enc: Encounter, attacker: Combatant, w: dict[str, Any], target: Combatant,
                 flags: dict[str, Any], distance: float | None, tables: Tables) -> tuple[list[Part], list[str]]:
    """The attacker's side: CMB (less parry, halved on a Running-Away tie) and modifiers.

    Raises RuleViolation when the rules forbid the attack (beyond 4x Base Range)."""
    notes: list[str] = []
    cmb = current_cmb(attacker, w)
    parts: list[Part] = [("CMB", int(w["cmb"]))]
    p = attacker.data.get("parry") or {}
    if p.get("amount"):
        parts.append(("parry moved to DEF", -int(p["amount"])))
    if flags.get("half_cmb"):
        parts.append(("half CMB (Running Away tie)", -(cmb - cmb // 2) if cmb > 0 else 0))
    parts += condition_penalty(attacker, tables)
    ranged = w["kind"] in RANGED_KINDS
    if ranged:
        if distance is None:
            raise RuleViolation("Range Bands", "the distance to the target is needed", "distance")
        band = range_band(distance, w["base_range"], tables)
        if band is None:
            last = tables["range_bands"]["entries"][-1]["up_to_multiple"]
            raise RuleViolation("Range Bands", f"{target.name} is {distance:g} m away, beyond {last:g}× the Base Range "
                                f"of {w['base_range']:g} m: cannot attack", "target")
        if band["modifier"]:
            parts.append((f"range {distance:g} m", int(band["modifier"])))
        notes.append(f"range band: {band.get('label', '')} ({distance:g} m, Base Range {w['base_range']:g} m)")
    for key, cond in (("attacker_prone", "prone"), ("attacker_held", "held")):
        if cond in attacker.conditions:
            parts.append((mod_label(tables, key), mod(tables, key)))
    for key in ("flanking", "on_rear", "two_weapons"):
        if flags.get(key):
            parts.append((mod_label(tables, key), mod(tables, key)))
    if flags.get("charge"):
        key = "mounted_charge" if flags.get("mounted") else "charge"
        parts.append((mod_label(tables, key), mod(tables, key)))
    if flags.get("full_and_half"):
        parts.append((mod_label(tables, "full_and_half"), mod(tables, "full_and_half")))
    for key, cond in (("target_stunned", "stunned"), ("target_surprised", "surprised")):
        if cond in target.conditions:
            parts.append((mod_label(tables, key), mod(tables, key)))
    if "held" in target.conditions and not ranged:
        parts.append((mod_label(tables, "target_held_melee"), mod(tables, "target_held_melee")))
    return parts, notes


def signed(parts: list[Part]) -> str:
    out = ""
    for label, v in parts:
        out += f" {'−' if v < 0 else '+'} {label} {abs(v)}"
    return out


def explain_total(roll_text: str, roll_total: int, cmb: list[Part], dfn: list[Part]) -> tuple[int, str]:
    """``142 = roll 98+40 + CMB 55 + Flanking 15 − DEF 66 (DEF 50 + shield 16)``."""
    d = sum(v for _, v in dfn)
    total = roll_total + sum(v for _, v in cmb) - d
    def_text = " + ".join(f"{label} {v}" if v >= 0 else f"{label} −{-v}" for label, v in dfn)
    text = f"{total} = roll {roll_text}{signed(cmb)} − DEF {d}"
    if len(dfn) > 1:
        text += f" ({def_text})"
    return total, text


def sorted_slots_key(enc: Encounter, c: Combatant) -> tuple:
    """The end of every order key: the GM's placement among equals, then the stable id."""
    return (gm_tie_break(enc, c.id), *id_order(c.id))


# which weapons each declared action takes (actions.declare refuses the others)
_FITS = {"melee_attack": lambda w: w["kind"] not in RANGED_KINDS,
         "ranged_attack": lambda w: w["kind"] in ("missile", "thrown"),
         "reload": lambda w: w["kind"] == "missile",
         "ready_thrown": lambda w: w["kind"] == "thrown",
         "spell_prepared": lambda w: w["kind"] == "spell",
         "spell_unprepared": lambda w: w["kind"] == "spell"}


def declare_defaults(enc: Encounter, combatant_id: str, kind: str) -> tuple[int | None, str]:
    """What a declaration starts with once its action is chosen (issue 33: declaring took about four
    taps a combatant, the weapon starting at none and the target at nobody): the weapon that fits the
    action (the one in hand when it fits; else the first that fits and is ready to be used so: loaded
    or readied to shoot or throw, not yet to reload or ready), and for an attack the nearest standing
    enemy (``default_target``: never an ally). (None, "") where the action takes neither; a spell
    starts on the caster's Bolt/Area spell, if any."""
    c = enc.peek_at(combatant_id)
    if c is None or kind not in _FITS:
        return None, ""
    i = pick_weapon(kind, c.data.get("weapons", []), c.data.get("wielding", 0))
    if i is None:
        return None, ""
    attack = kind in ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")
    return i, default_target(enc, c.id) if attack else ""


def pick_weapon(kind: str, ws: list[dict[str, Any]], held: int) -> int | None:
    """``declare_defaults``' weapon among ``ws`` (the engine's weapons or the view's: each has its
    ``kind`` and ``loaded``): the one in hand when it fits, ready ones first."""
    fits = _FITS.get(kind)
    ok = [i for i, w in enumerate(ws) if fits(w)] if fits is not None else []
    if not ok:
        return None

    def ready(w: dict[str, Any]) -> bool:
        loaded = w.get("loaded", True)
        return not loaded if kind in ("reload", "ready_thrown") else bool(loaded)

    return min(ok, key=lambda i: (not ready(ws[i]), i != held, i))


def weapon_choices(kind: str, ws: list[dict[str, Any]]) -> tuple[list[int], bool]:
    """A declaration row's Weapon choices once its Action is chosen: (the weapons the action can be
    made with, whether "no weapon" is one). A melee attack offers what it can be made with (Melee
    Attacks: "within the reach of their weapon"), not a Bolt spell, which "count[s] as Ranged
    Attacks" (a GM's play-through saw Fire Bolt among Lia's melee weapons, the row on no weapon);
    a spell may be cast with no Bolt/Area spell; an action made with no weapon (a Move) offers none.
    No action chosen yet, or none that fits: every weapon, and none."""
    fits = _FITS.get(kind)
    if not kind:
        return list(range(len(ws))), True
    if fits is None:
        return [], True
    ok = [i for i, w in enumerate(ws) if fits(w)]
    if not ok:
        return [], True
    return ok, kind.startswith("spell")


def last_declarations(enc: Encounter) -> dict[str, list[dict[str, Any]]]:
    """What each combatant declared in the last round they declared in before this one (the log's
    ``declare`` lines: the round's declarations lapse at its end), as the rows of a declaration
    form: ``{"action", "weapon", "target"}``. A GM declares every round (Tactical Round Sequence:
    a Declaration phase each round) and mostly the same again, so the form offers it, still to be
    changed. An attack's target who has fallen or left starts on ``default_target``; a weapon no
    longer carried, on none. Only what the rules take now is offered (``last_declarations_left_out``
    says what was left and why)."""
    return {cid: rows for cid, (rows, _) in last_declarations_checked(enc).items()}


def last_declarations_left_out(enc: Encounter) -> dict[str, str]:
    """For each last declaration offered in part, what of it was left out and the rule's why: a GM's
    play-through offered Aldric, Engaged since, last round's Move with his Melee attack ("without Move:
    Engaged characters cannot take Movement Actions unless they Disengage or Run Away first")."""
    return {cid: why for cid, (_, why) in last_declarations_checked(enc).items() if why}


def last_declarations_checked(enc: Encounter) -> dict[str, tuple[list[dict[str, Any]], str]]:
    """Both at once, for the page: {id: (the rows offered, what was left out and why, or "")}."""
    out: dict[str, tuple[list[dict[str, Any]], str]] = {}
    titles = {k["key"]: k["title"] for k in _declared_kinds(enc)}
    for cid, rows in _last_made(enc).items():
        rows, shot = _shot_for_reload(enc, cid, rows, titles)
        refused = _refusal(enc, cid, rows)
        if not refused:
            out[cid] = (rows, shot)
            continue
        # the largest part the rules take now, the first rows first (two rows at most: Full + Half)
        kept = next((rows[:i] + rows[i + 1:] for i in reversed(range(len(rows)))
                     if not _refusal(enc, cid, rows[:i] + rows[i + 1:])), [])
        left = [r for r in rows if r not in kept]
        without = f'without {" and ".join(titles.get(r["action"], r["action"]) for r in left)}: {refused}'
        out[cid] = (kept, f"{shot}; {without}" if shot else without)
    return out


def _shot_for_reload(enc: Encounter, cid: str, rows: list[dict[str, Any]],
                     titles: dict[str, str]) -> tuple[list[dict[str, Any]], str]:
    """Last round's reload of a weapon loaded since becomes its shot, on ``default_target``, and the
    form says so: Reloading, "Missile weapons must be loaded before each attack", so the reload was
    for this shot (a GM's play-through: Mira's Reload was offered again with her bow loaded, and the
    declaration threw her shot away)."""
    c = enc.peek_at(cid)
    weapons = c.data.get("weapons", []) if c is not None else []
    out, said = [], []
    for r in rows:
        w = weapons[r["weapon"]] if r["action"] in ("reload", "ready_thrown") and r["weapon"] is not None else None
        if w is None or not w.get("loaded") or any(
                x["action"] == "ranged_attack" and x["weapon"] == r["weapon"] for x in rows):
            out.append(r)
            continue
        out.append({"action": "ranged_attack", "weapon": r["weapon"], "target": default_target(enc, cid)})
        ready = "readied" if w["kind"] == "thrown" else "loaded"
        said.append(f"{w['name']} is {ready} now, so its {titles.get('ranged_attack', 'Ranged attack')} is offered "
                    f"(last round: {titles.get(r['action'], r['action'])})")
    return out, "; ".join(said)


def _declared_kinds(enc: Encounter) -> list[dict[str, Any]]:
    from fray.games import get_ruleset

    return get_ruleset(enc.ruleset).table(enc, "declared_actions")["entries"]


def _refusal(enc: Encounter, cid: str, rows: list[dict[str, Any]]) -> str:
    """Why the rules would refuse this declaration now ("" if they take it): ``actions.plan_declaration``,
    the declaration's own checks, which change nothing."""
    from fray.errors import FrayError
    from fray.games import get_ruleset
    from fray.games.base import Context
    from fray.games.tactical_round import actions
    from fray.tray import DiceTray

    act = [{k: v for k, v in r.items() if v not in (None, "")} for r in rows]
    ctx = Context(enc, {"type": "tr.declare", "id": cid, "actions": act}, DiceTray({}, None), get_ruleset(enc.ruleset))
    try:
        actions.plan_declaration(ctx)
    except FrayError as e:
        # the rule's words without the engine's "(rule: ...)" or the field's dotted path
        rule = getattr(e, "rule", "")
        return getattr(e, "message", "") or str(e).removesuffix(f" (rule: {rule})")
    return ""


def _last_made(enc: Encounter) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for e in reversed(enc.log):
        if e.kind != "declare" or e.round >= enc.round:
            continue
        cid = e.detail.get("id")
        if not isinstance(cid, str) or cid in out:
            continue
        c = enc.peek_at(cid)
        if c is None:
            continue
        rows = []
        for d in e.detail.get("actions") or []:
            if not isinstance(d, dict):
                continue
            w = d.get("weapon")
            weapon = w if isinstance(w, int) and 0 <= w < len(c.data.get("weapons", [])) else None
            target = d.get("target") or ""
            if d.get("action") in _ATTACKS:
                t = enc.peek_at(target) if target else None
                if t is None or fallen(t):
                    target = default_target(enc, cid)
            rows.append({"action": d.get("action", ""), "weapon": weapon, "target": target})
        out[cid] = rows
    return out


_ATTACKS = ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared")


def default_target(enc: Encounter, attacker_id: str) -> str:
    """The target a form starts with: the nearest living enemy on the map (issue 32: "A default
    target is the nearest living enemy on the map, never an ally"); equal distances go by the order
    the combatants were added. "" when no enemy is standing. An enemy is anyone on another side;
    "neutral" is nobody's enemy and nobody's ally."""
    from fray.geometry import distance

    a = enc.peek_at(attacker_id)
    if a is None:
        return ""
    foes = [c for c in enc.peek() if c.id != a.id and c.side != a.side and "neutral" not in (c.side, a.side)
            and not fallen(c)]
    if not foes:
        return ""
    return min(enumerate(foes), key=lambda ic: (distance(a.position, ic[1].position), ic[0]))[1].id
