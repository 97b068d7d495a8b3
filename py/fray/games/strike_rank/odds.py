"""The odds of one attack exchange before anyone rolls, for the defence chosen and for each of the
defender's alternatives (parry with each weapon, dodge, none).

Built from the very code the exchange runs (``combat.plan_attack`` for both skills after every
multiplier, split and bonus; ``rules.degree_of_success`` for each d100 face; the Attack vs Parry /
Dodge tables; ``combat.damage_dice`` for the damage dice; ``combat.location_die`` and
``location_at`` for the hit location; ``combat.parry_absorbs`` and ``armour_against`` for what
gets through; ``rules.injury_level`` for the wound), with every outcome counted exactly: the two
d100s, the location die and the damage dice are enumerated and convolved (``fray.chance``), so
each chance is a ``Fraction``. It never rolls (its dice tray has no random source and no dice)
and changes nothing: ``plan_attack`` only reads the encounter.

Covered: normal and aimed attacks, with parries (weapon, unarmed limb, martial arts), armour,
shield cover, criticals ignoring armour, hard cover (a critical re-rolls, up to five times), water
AP and an impale stuck in a parrying shield. Not covered: a blow on the far side of a mounted target
striking the mount (the GM is asked in the exchange).

The special attacks get what follows the blow instead of a wound, each from its own step of
``combat.attack``: attack weapon or object (the HP it loses: the excess over its HP, the full
damage on a critical), disarm (dodged, or the opposed test of weapon skills, ``combat.opposed``,
counted over both d100s), stun (the opposed test of (damage − AP)×5 against CON×5 for each damage
face, then the aimed location's effect and its MR), push (STR+SIZ knockback against SIZ, a Ride
test on a mount, the DEX×5 test to keep one's feet) and grapple (the location grabbed, or the
parrying weapon seized). The GM's prompts that follow (collisions, pulling a seized weapon) are
not counted.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from fray.chance import Dist, of_dice
from fray.dice import parse
from fray.errors import FrayError, InvalidAction, RuleViolation
from fray.model import Encounter
from fray.tray import DiceTray
from fray.games.base import Context
from fray.games.strike_rank import body, combat, rules
from fray.games.strike_rank.defence import can_parry_with

DAMAGE_MODES = ("normal", "aimed")
WOUNDS = ("none", "minor", "serious", "maimed", "mangled")  # "none": nothing got through
METHOD = "exact: every face of both d100s, the location die and the damage dice is counted"


@dataclass
class Alternative:
    """One defence the defender could choose, with its odds (or why it is not allowed)."""

    key: str  # "none", "dodge", "parry:<weapon id>"
    label: str  # "No defence", "Dodge", "Parry with Shield"
    allowed: bool = True
    why: str = ""  # the rule that forbids it
    rule: str = ""
    skill: int | None = None
    skill_text: str = ""
    degrees: dict[str, Fraction] = field(default_factory=dict)  # the defender's d100 (empty: no roll)
    grid: list[dict[str, Any]] = field(default_factory=list)  # attack × defence cells with their chance
    lands: Fraction = Fraction(0)  # the table gives the blow damage (parried or not)
    parried: Fraction = Fraction(0)
    weapon_damaged: Fraction = Fraction(0)  # the parry strikes the attacking weapon
    through: Fraction = Fraction(0)  # some damage gets past parry and armour
    taken: dict[int, Fraction] = field(default_factory=dict)  # damage taken, 0 included
    wound: dict[str, Fraction] = field(default_factory=dict)  # the struck location's injury after the blow
    killed: Fraction = Fraction(0)  # total HP 0 or less, or mangled vitals
    locations: dict[str, Fraction] = field(default_factory=dict)  # where damage lands (names)
    elsewhere: dict[str, Fraction] = field(default_factory=dict)  # "hard cover", "GM places the blow"
    damage_spread: bool = True  # False: a mode whose damage is not a wound (stun, disarm, ...)
    effect: dict[str, Fraction] = field(default_factory=dict)  # a special attack: what follows, summing to 1
    spread: dict[int, Fraction] = field(default_factory=dict)  # its figure (HP lost, MR, metres), 0 included
    spread_label: str = ""  # what that figure is ("weapon HP lost", "MR unconscious", ...)

    @property
    def mean_taken(self) -> Fraction:
        return sum((v * p for v, p in self.taken.items()), Fraction(0))


@dataclass
class ExchangeOdds:
    attacker: str
    target: str
    weapon: str
    skill: int | None
    skill_text: str
    degrees: dict[str, Fraction]
    chosen: str
    alternatives: list[Alternative]
    method: str = METHOD
    notes: list[str] = field(default_factory=list)
    error: str = ""  # the attack as set up cannot be made (its message)

    def alternative(self, key: str) -> Alternative | None:
        return next((a for a in self.alternatives if a.key == key), None)


@lru_cache(maxsize=256)
def d100_degrees(skill: int) -> Dist:
    """The degree of success of each face 1..100 against ``skill`` (FACTS.md rounding). Shared:
    never edit the result."""
    return Dist.uniform(1, 100).map(lambda r: rules.degree_of_success(skill, r))


@lru_cache(maxsize=256)
def _dice(expr: str) -> Dist:
    return of_dice(expr)


def _key(defence: Any) -> str:
    d = {"kind": defence} if isinstance(defence, str) else (defence if isinstance(defence, dict) else {})
    kind = d.get("kind", "none")
    return f"parry:{d.get('weapon')}" if kind == "parry" else str(kind)


def alternatives_of(enc: Encounter, action: dict[str, Any], parry_table: dict[str, Any] | None = None
                    ) -> list[tuple[str, str, dict[str, Any]]]:
    """(key, label, defence) for parry with each weapon the defender can hold and that parries at all (not a
    bite, nor a bow unless ``parry_table``, the Attack vs Parry table, says so), dodge, none."""
    out = []
    target = enc.get(action.get("target")) if isinstance(action.get("target"), str) else None
    if target is not None:
        for w in sorted(target.data.get("weapons", []), key=lambda x: not x.get("shield")):
            if body.weapon_usable(target, w) is None and can_parry_with(w, parry_table or {}):
                out.append((f"parry:{w['id']}", f"Parry with {w['name']}", {"kind": "parry", "weapon": w["id"]}))
    out.append(("dodge", "Dodge", {"kind": "dodge"}))
    out.append(("none", "No defence", {"kind": "none"}))
    return out


def exchange_odds(ruleset: Any, enc: Encounter, action: dict[str, Any]) -> ExchangeOdds:
    """The odds of an ``sr.attack`` as set up (its ``rolls`` are ignored), for its own defence and
    each alternative one."""
    base = {k: v for k, v in action.items() if k != "rolls"}
    chosen = _key(base.get("defence", {"kind": "none"}))
    alts = alternatives_of(enc, base, ruleset.table(enc, "attack_vs_parry"))
    if chosen not in {k for k, _, _ in alts}:
        alts.insert(0, (chosen, chosen.replace("parry:", "Parry with "), base.get("defence")))
    first = None
    memo: dict[tuple, Any] = {}  # what does not depend on the defence, worked out once
    out: list[Alternative] = []
    for key, label, defence in alts:
        act = dict(base) if key == chosen else {**base, "defence": defence}
        ctx = Context(enc, act, DiceTray({}, None), ruleset)
        try:
            plan = combat.plan_attack(ctx)
        except RuleViolation as e:
            why = str(e).removesuffix(f" (rule: {e.rule})")
            out.append(Alternative(key, label, allowed=False, why=why, rule=e.rule))
            continue
        except FrayError as e:
            if key == chosen:
                return ExchangeOdds("", "", "", None, "", {}, chosen, [], error=str(e))
            out.append(Alternative(key, label, allowed=False, why=str(e)))
            continue
        if first is None:
            first = plan
        try:
            out.append(_alternative(ctx, plan, key, label, memo))
        except FrayError as e:  # a field read only once the blow lands (a pulled blow, a weapon to disarm)
            if key == chosen:
                return ExchangeOdds("", "", "", None, "", {}, chosen, [], error=str(e))
            out.append(Alternative(key, label, allowed=False, why=str(e)))
    if first is None:
        why = next((a.why for a in out if a.key == chosen), "the attack cannot be made")
        return ExchangeOdds("", "", "", None, "", {}, chosen, out, error=why)
    p = first
    notes = []
    if p.past_range is not None:
        notes.append(f"past double range ({2 * p.weapon['range']:g} m): assumed to miss")
    skill = p.skill.value if p.skill else None
    return ExchangeOdds(p.attacker.name, p.target.name, p.weapon["name"], skill, p.skill.text() if p.skill else "",
                        _ordered(d100_degrees(skill)) if skill is not None else {}, chosen, out, notes=notes)


def _ordered(d: Dist) -> dict[str, Fraction]:
    """Degrees best first, as the rules list them."""
    return {k: d.p(k) for k in rules.DEGREES if k in d.weights}


def _alternative(ctx: Context, plan: combat.Plan, key: str, label: str, memo: dict[tuple, Any]) -> Alternative:
    alt = Alternative(key, label)
    if plan.past_range is not None:
        alt.taken = {0: Fraction(1)}
        alt.wound = {"none": Fraction(1)}
        return alt
    att = d100_degrees(plan.skill.value)
    if plan.dkind == "none":
        dfn = Dist.point("none")
    else:
        alt.skill, alt.skill_text = plan.dskill.value, plan.dskill.text()
        dfn = d100_degrees(plan.dskill.value)
        alt.degrees = _ordered(dfn)
    table = ctx.table(combat.MATRIX[plan.dkind])
    groups: dict[tuple[str, bool, bool], int] = {}  # (landing, parried, ignores armour) → weight
    cells: list[tuple[str, dict[str, Any], int]] = []  # (attack degree, table cell, weight), for special attacks
    total = att.total * dfn.total
    for adeg in rules.DEGREES:
        for ddeg in (rules.DEGREES if plan.dkind != "none" else ("none",)):
            w = att.weights.get(adeg, 0) * dfn.weights.get(ddeg, 0)
            cell = rules.matrix_cell(table, adeg, ddeg)
            chance = Fraction(w, total)
            alt.grid.append({"attack": adeg, "defence": ddeg, "chance": chance, "damage": cell["damage"],
                             "parried": bool(cell["parried"]), "ignores_armour": bool(cell["ignores_armour"]),
                             "weapon_damage": cell.get("attacking_weapon_damage", "none")})
            if not w:
                continue
            cells.append((adeg, cell, w))
            if cell.get("attacking_weapon_damage", "none") != "none" and plan.dkind == "parry":
                alt.weapon_damaged += chance
            if cell["parried"]:
                alt.parried += chance
            if cell["damage"] != "none":
                alt.lands += chance
                g = (cell["damage"], bool(cell["parried"]) and plan.pw is not None, bool(cell["ignores_armour"]))
                groups[g] = groups.get(g, 0) + w
    if plan.mode not in DAMAGE_MODES:
        alt.damage_spread = False
        SPECIAL[plan.mode](ctx, plan, alt, cells, total, dfn, memo)
        return alt
    acc = _Acc()
    acc.add({("taken", 0): total - sum(groups.values()), ("wound", "none"): total - sum(groups.values())}, total)
    for (landing, parried, ignores), w in groups.items():
        crit = landing == "max_special"
        if ("where", crit) not in memo:
            memo[("where", crit)] = _locations(ctx, plan, crit)
        k = ("spread", landing, parried, ignores, plan.pw["id"] if parried else None)
        if k not in memo:
            memo[k] = _spread(ctx, plan, landing, parried, ignores, memo[("where", crit)], memo)
        elsewhere, weights, denom = memo[k]
        for what, p in elsewhere.items():
            n = w * p.numerator
            acc.add({("elsewhere", what): n, ("taken", 0): n, ("wound", "none"): n}, total * p.denominator)
        acc.add({x: v * w for x, v in weights.items()}, total * denom)
    out = acc.fractions()
    alt.taken = {k[1]: v for k, v in sorted((k, v) for k, v in out.items() if k[0] == "taken")}
    alt.wound = {k: out.get(("wound", k), Fraction(0)) for k in WOUNDS}
    alt.locations = {k[1]: v for k, v in out.items() if k[0] == "location"}
    alt.elsewhere = {k[1]: v for k, v in out.items() if k[0] == "elsewhere"}
    alt.killed = out.get(("killed",), Fraction(0))
    alt.through = 1 - alt.taken.get(0, Fraction(0))
    return alt


class _Acc:
    """Whole-number weights over one common denominator: exact sums without a Fraction per term."""

    def __init__(self) -> None:
        self.w: dict[Any, int] = {}
        self.den = 1

    def add(self, weights: dict[Any, int], den: int) -> None:
        from math import gcd

        lcm = self.den * den // gcd(self.den, den)
        if lcm != self.den:
            k = lcm // self.den
            self.w = {x: v * k for x, v in self.w.items()}
            self.den = lcm
        k = lcm // den
        for x, v in weights.items():
            if v:
                self.w[x] = self.w.get(x, 0) + v * k

    def fractions(self) -> dict[Any, Fraction]:
        return {x: Fraction(v, self.den) for x, v in self.w.items()}


def _locations(ctx: Context, plan: combat.Plan, crit: bool) -> tuple[Dist, dict[str, Fraction]]:
    """Where the blow lands: a Dist of location ids, and the chance it goes elsewhere (hard cover,
    the GM), as in ``combat._pick_location``."""
    target = plan.target
    if plan.mode == "aimed":
        return Dist.point(ctx.action.get("aim")), {}
    gm = ctx.action.get("gm_location")
    if gm is not None:
        return Dist.point(gm), {}
    col = "missile" if plan.weapon["missile"] else "melee"
    rolls = _dice(combat.location_die(ctx, plan.attacker, target, plan.weapon))
    locs = rolls.map(lambda r: (combat.location_at(target, col, r) or {}).get("id"))
    hard = set(combat.hard_cover(plan.cover))
    if not hard:
        return locs, {}
    covered = locs.chance(lambda lid: lid in hard)
    if not crit:
        free = Dist({k: w for k, w in locs.weights.items() if k not in hard}, locs.total)
        return free, {"hard cover": covered}
    # "A critical hit bypasses the cover: re-roll for a hit location that is not covered"
    # (up to LOCATION_ATTEMPTS rolls; then the GM places the blow)
    n = combat.LOCATION_ATTEMPTS
    cw = sum(w for k, w in locs.weights.items() if k in hard)
    t = locs.total
    # P(an uncovered l within n rolls) = p_l × (1 + c + ... + c^(n-1)), c = cw/t
    geo_num = sum(cw ** i * t ** (n - 1 - i) for i in range(n))
    free = Dist({k: w * geo_num for k, w in locs.weights.items() if k not in hard}, t ** n)
    return free, {"GM places the blow (hard cover every time)": Fraction(cw ** n, t ** n)}


def _spread(ctx: Context, plan: combat.Plan, landing: str, parried: bool, ignores: bool,
            where: tuple[Dist, dict[str, Fraction]], memo: dict[tuple, Any]
            ) -> tuple[dict[str, Fraction], dict[Any, int], int]:
    """Damage of one kind of landing through the parry and the armour to each location, as
    ``combat._landed`` applies it: (where else it goes, outcome weights, their denominator)."""
    target, pw = plan.target, plan.pw
    dmg, st = _damage(ctx, plan, landing, memo)
    locs, elsewhere = where
    hp = target.data["hp"]
    stuck = parried and pw["shield"] and st == "impaling" and landing in ("special", "max_special")
    out: dict[Any, int] = {}
    for lid, wl in locs.weights.items():
        loc = body.location(target, lid)
        if loc is None:
            continue
        hit, whp = loc, 0
        if parried:
            whp, limb = combat.parry_absorbs(target, pw, loc)
            hit = limb or loc
        if stuck:
            ap = body.armour_points(target, hit)  # combat._stuck_in_shield: the location's own AP
        else:
            ap = combat.armour_against(ctx, target, hit, ignores, plan.water)[0]
        vital = hit["type"] in rules.VITAL_TYPES
        for d, wd in dmg.weights.items():
            got = max(0, (max(0, d - whp) if parried else d) - ap)
            w = wl * wd
            k = ("taken", got)
            out[k] = out.get(k, 0) + w
            if got <= 0:
                out[("wound", "none")] = out.get(("wound", "none"), 0) + w
                continue
            lvl = rules.injury_level(hit["hp"] - got, hit["hp_max"], hit.get("severed", False))
            k = ("wound", lvl)
            out[k] = out.get(k, 0) + w
            k = ("location", hit["name"])
            out[k] = out.get(k, 0) + w
            if hp - got <= 0 or (vital and lvl == "mangled"):
                out[("killed",)] = out.get(("killed",), 0) + w
    return elsewhere, out, locs.total * dmg.total


def _damage(ctx: Context, plan: combat.Plan, landing: str, memo: dict[tuple, Any]) -> tuple[Dist, str]:
    """The rolled damage of one kind of landing (``combat.damage_dice``; maximised needs no dice) and
    the special damage type."""
    if ("dice", landing) not in memo:
        memo[("dice", landing)] = combat.damage_dice(ctx, plan.attacker, plan.weapon, landing, plan.decl,
                                                     combat.pulled_blow(ctx))
    expr, _, maxed, st, _ = memo[("dice", landing)]
    return (Dist.point(parse(expr).maximum()) if maxed else _dice(expr)), st


# -- special attacks: what follows the blow ------------------------------------------------------------

@lru_cache(maxsize=256)
def _faces(skill: int) -> dict[str, list[int]]:
    """The d100 faces of each degree of success against ``skill``, in order."""
    out: dict[str, list[int]] = {}
    for r in range(1, 101):
        out.setdefault(rules.degree_of_success(skill, r), []).append(r)
    return out


@lru_cache(maxsize=1024)
def opposed_odds(a_skill: int, d_skill: int) -> Dist:
    """Who wins ``combat.opposed`` over every face of both d100s ("attacker", "defender", "none"),
    counted by degree: the better degree wins, equal successes go to the higher roll, two failures
    to nobody. Shared: never edit the result."""
    fa, fd = _faces(a_skill), _faces(d_skill)
    out = {"attacker": 0, "defender": 0, "none": 0}
    for da, ra in fa.items():
        ia = rules.DEGREES.index(da)
        for dd, rd in fd.items():
            n = len(ra) * len(rd)
            idd = rules.DEGREES.index(dd)
            if not rules.is_success(da) and not rules.is_success(dd):
                out["none"] += n
            elif ia != idd:
                out["attacker" if ia < idd else "defender"] += n
            else:
                higher = sum(bisect_left(rd, r) for r in ra)  # the attacker's roll above the defender's
                out["attacker"] += higher
                out["defender"] += n - higher
    return Dist(out, 100 * 100)


def _test(chance: int) -> Fraction:
    """A d100 test's chance of success (``combat._skill_test``)."""
    return d100_degrees(chance).chance(rules.is_success)


def _landings(cells: list[tuple[str, dict[str, Any], int]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, cell, w in cells:
        if cell["damage"] != "none":
            out[cell["damage"]] = out.get(cell["damage"], 0) + w
    return out


def _finish(alt: Alternative, acc: _Acc) -> None:
    out = acc.fractions()
    alt.effect = {k[1]: v for k, v in out.items() if k[0] == "effect"}
    alt.spread = dict(sorted((k[1], v) for k, v in out.items() if k[0] == "spread"))


def _hp_loss(ctx, plan, alt, cells, total, name: str, hp: int, memo) -> None:
    """"Any damage ... in excess of the targeted weapon's HP reduced the weapon HP. On a critical hit,
    the targeted weapon's HP is reduced by the full damage rolled" (and the same for an object)."""
    acc = _Acc()
    missed = total - sum(_landings(cells).values())
    acc.add({("effect", "No HP lost"): missed, ("spread", 0): missed}, total)
    for landing, w in _landings(cells).items():
        dmg, _ = _damage(ctx, plan, landing, memo)
        out: dict[Any, int] = {}
        for d, wd in dmg.weights.items():
            loss = d if landing == "max_special" else max(0, d - hp)
            what = ("No HP lost" if loss <= 0 else f"{name} at 0 HP or less" if hp - loss <= 0
                    else f"{name} loses HP")
            for k in (("effect", what), ("spread", loss)):
                out[k] = out.get(k, 0) + w * wd
        acc.add(out, total * dmg.total)
    _finish(alt, acc)
    alt.spread_label = f"{name}: HP lost"


def _attack_weapon(ctx, plan, alt, cells, total, dfn, memo) -> None:
    # "If the parry is made with a different weapon, that weapon becomes the target instead."
    tw = plan.pw if plan.dkind == "parry" else body.weapon(plan.target, ctx.action.get("target_weapon"))
    if tw is None and _landings(cells):
        raise InvalidAction("target_weapon", f"{plan.target.name} has no weapon {ctx.action.get('target_weapon')!r}")
    _hp_loss(ctx, plan, alt, cells, total, tw["name"] if tw else "the weapon", tw["hp"] if tw else 0, memo)


def _attack_object(ctx, plan, alt, cells, total, dfn, memo) -> None:
    obj = ctx.action["object"]
    _hp_loss(ctx, plan, alt, cells, total, str(obj.get("name") or "the object"), obj["hp"], memo)


def _disarm(ctx, plan, alt, cells, total, dfn, memo) -> None:
    """"an opposed test of weapon skills ... the defender may also dodge to avoid the attempt entirely";
    with no parry roll to oppose, the defender tests the weapon skill (``combat._disarm``)."""
    dodged = dfn.chance(rules.is_success) if plan.dkind == "dodge" else Fraction(0)
    tw = plan.pw if plan.pw is not None else body.weapon(plan.target, ctx.action.get("target_weapon"))
    if tw is None:
        if dodged == 1:
            alt.effect = {"Dodged": Fraction(1)}
            return
        raise InvalidAction("target_weapon", "name the weapon to knock away")
    win = opposed_odds(plan.skill.value, tw["skill"]).p("attacker")
    # "If the attacker used a fist or grapple attack, they can hold the weapon instead."
    won = (f"{plan.attacker.name} holds {tw['name']}" if plan.weapon["unarmed"]
           else f"{tw['name']} knocked away (lands 1D6 m off)")
    effect = {"Dodged": dodged, won: (1 - dodged) * win, f"Keeps {tw['name']}": (1 - dodged) * (1 - win)}
    alt.effect = {k: v for k, v in effect.items() if v}


def _stun(ctx, plan, alt, cells, total, dfn, memo) -> None:
    """"an opposed test between ([damage] - [AP])×5% and the target's CON×5%. If the attacker wins, the
    effect depends on the targeted hit location": a limb "disabled for 1D6 MR", the head "unconscious
    for 1 MR per point of damage dealt (after armor)", other vitals "incapacitated for 1 MR"."""
    target = plan.target
    loc = body.location(target, ctx.action.get("aim"))
    d_sk = target.stats.get("CON", 0) * 5
    if loc["type"] in rules.LIMB_TYPES:
        won, label = f"{loc['name']} disabled", "MR disabled"
    elif loc["type"] == "head":
        won, label = "Unconscious", "MR unconscious"
    else:
        won, label = "Incapacitated", "MR incapacitated"
    acc = _Acc()
    landings = _landings(cells)
    missed = total - sum(landings.values())
    acc.add({("effect", "No hit"): missed, ("spread", 0): missed}, total)
    for landing, w in landings.items():
        dmg, _ = _damage(ctx, plan, landing, memo)
        out: dict[Any, int] = {}
        for d, wd in dmg.weights.items():
            pts = max(0, d - body.armour_points(target, loc))
            op = opposed_odds(pts * 5, d_sk)
            lose = (op.total - op.weights.get("attacker", 0)) * 6
            win = op.weights.get("attacker", 0)
            add = [(("effect", "Resists the stun"), lose), (("spread", 0), lose), (("effect", won), win * 6)]
            if loc["type"] in rules.LIMB_TYPES:
                add += [(("spread", n), win) for n in range(1, 7)]  # 1D6 MR
            else:
                add.append((("spread", max(1, pts) if loc["type"] == "head" else 1), win * 6))
            for k, v in add:
                out[k] = out.get(k, 0) + w * wd * v
        acc.add(out, total * dmg.total * 100 * 100 * 6)
    _finish(alt, acc)
    alt.spread_label = label


def _push(ctx, plan, alt, cells, total, dfn, memo) -> None:
    """"Use the attacker's STR+SIZ instead of damage. A parry does not prevent the knockback"; Knockback:
    "1 meter for every 5 points of damage (or part thereof). The target needs to make a DEX×5% roll or fall
    prone"; Mounted Knockback: "on a Success, they add their mount's SIZ ...; on a Failure, the rider uses
    their own SIZ and, if knocked back, is knocked off their mount"."""
    a, t = plan.attacker, plan.target
    pushed = sum(w for adeg, cell, w in cells if adeg in rules.SUCCESSES and (cell["damage"] != "none" or cell["parried"]))
    amount = a.stats.get("STR", 0) + a.stats.get("SIZ", 0)
    resist = t.stats.get("SIZ", 0)
    mount = ctx.enc.get(t.data.get("mount") or "")
    # the fallen and the prone make no DEX roll (``landing._knockback``): the fallen go down, the prone
    # stay so; the fallen make no Ride test either (as a failure)
    down = body.no_footing_roll(t)
    if mount is not None and amount > resist:
        ride = Fraction(0) if down in body.FALLEN else _test(t.stats.get("ride", 0))
        ways = [(ride, rules.knockback_metres(amount, resist + mount.stats.get("SIZ", 0)), False),
                (1 - ride, rules.knockback_metres(amount, resist), True)]
    else:
        ways = [(Fraction(1), rules.knockback_metres(amount, resist), False)]
    keep = (Fraction(0) if down else
            _test(t.stats.get("DEX", 0) * rules.test_multiplier(ctx.table("characteristic_tests"), "DEX")))
    p = Fraction(pushed, total)
    effect: dict[str, Fraction] = {"No knockback": 1 - p}
    spread: dict[int, Fraction] = {0: 1 - p}
    for q, m, off in ways:
        spread[m] = spread.get(m, Fraction(0)) + p * q
        if not m:
            effect["No knockback"] += p * q
        elif off:
            effect[f"Knocked back {m} m and off {mount.name}"] = p * q
        elif down == "prone" or down == "dead":
            effect[f"Knocked back {m} m"] = p * q
        else:
            effect[f"Knocked back {m} m, keeps their feet"] = p * q * keep
            effect[f"Knocked back {m} m, falls prone"] = p * q * (1 - keep)
    alt.effect = {k: v for k, v in effect.items() if v}
    alt.spread = {k: v for k, v in sorted(spread.items()) if v}
    alt.spread_label = "metres knocked back"


def _grapple(ctx, plan, alt, cells, total, dfn, memo) -> None:
    """"A successful Grapple attack grabs hold of a hit location"; "If a grappling attack is parried ...
    the grappler instead seizes the parrying weapon" (``combat._grapple``)."""
    pw, target = plan.pw, plan.target
    seized = nothing = grabbed = 0
    for _, cell, w in cells:
        if plan.dkind == "parry" and cell["parried"] and pw is not None and not pw["unarmed"]:
            seized += w
        elif cell["damage"] == "none":
            nothing += w
        else:
            grabbed += w
    acc = _Acc()
    acc.add({("effect", "No hold"): nothing, ("effect", f"Seizes {pw['name'] if pw else ''}"): seized}, total)
    if grabbed:
        aim, gm = ctx.action.get("aim"), ctx.action.get("gm_location")
        if aim or gm is not None:
            loc = body.location(target, aim or gm)
            if loc is None:
                raise InvalidAction("aim" if aim else "gm_location", f"{target.name} has no hit location {aim or gm!r}")
            locs = Dist.point(loc["name"])
        else:
            locs = _dice(combat.location_die(ctx, plan.attacker, target, {"missile": False})).map(
                lambda r: (combat.location_at(target, "melee", r) or {}).get("name", "no location"))
        acc.add({("effect", f"Grabs the {k}"): grabbed * v for k, v in locs.weights.items()}, total * locs.total)
    _finish(alt, acc)


SPECIAL = {"attack_weapon": _attack_weapon, "attack_object": _attack_object, "disarm": _disarm, "stun": _stun,
           "push": _push, "grapple": _grapple}
