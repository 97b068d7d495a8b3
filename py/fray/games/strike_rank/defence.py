"""Who may defend, and with what (``sr.attack``'s first step): engagement, the parry and attack
allowances of one round, shield cover, and the defender's skill against this blow. Also the
action's small readers (``_num``, ``_bool``, ``_whole``) the other parts of an attack share."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.geometry import distance
from fray.model import Combatant
from fray.games.base import Context, whole_number
from fray.games.strike_rank import body, rules, timing


def _num(ctx: Context, key: str, default: float, lo: float, hi: float) -> float:
    v = ctx.action.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise InvalidAction(key, f"must be a number from {lo:g} to {hi:g}")
    return v


def _bool(ctx: Context, key: str) -> bool:
    v = ctx.action.get(key, False)
    if not isinstance(v, bool):
        raise InvalidAction(key, "must be true or false")
    return v


def engaged_with(enc, c: Combatant) -> list[Combatant]:
    """Enemies within engagement range ("adjacent combatants are engaged"), to read and never to edit
    (``Encounter.peek``): every missile attack asks, and through a draft's own list each ask copied
    every combatant (issue 11)."""
    return [o for o in enc.peek() if o.id != c.id and o.side != c.side and "dead" not in o.conditions
            and rules.within_engagement(distance(o.position, c.position))]


def held_in_melee(enc, c: Combatant) -> str:
    """"Unengaged characters can use missile weapons": whom ``c`` is engaged in melee with, as the
    refusal of her shot says it ("Archer is engaged in melee with Great wolf"), or "" when she is
    free to shoot. By position (engagement range), whoever declared first; a foe who cannot fight
    (fallen, a maimed chest) makes no attacks and parries nothing: no melee holds her there."""
    holding = [o.name for o in engaged_with(enc, c) if body.can_fight(o) is None]
    if not holding:
        return ""
    foes = holding[0] if len(holding) == 1 else ", ".join(holding[:-1]) + " and " + holding[-1]
    return f"{c.name} is engaged in melee with {foes}"


def charged_at(enc, c: Combatant) -> str:
    """Whom ``c``'s charge this MR is at (the opponent of Charging's "if the opponent does attack first"), or ""."""
    if not c.data["round"].get("charging"):
        return ""
    return next((a["target"] for a in timing.peek_actions(enc) if a["combatant"] == c.id and a.get("charge")
                 and a["round"] == enc.round and a.get("target")), "")


def running_charger(defender: Combatant) -> RuleViolation:
    """A charger attacked by another than the one charged: Charging is "running at double Movement rate", and
    Movement: "Running characters cannot dodge or parry." (a GM's play: Ayla's shot at the wolf charging another
    quoted the charge's "if the opponent does attack first")."""
    return RuleViolation("Movement", f"{defender.name} is charging, running at double Movement rate: “Running "
                         "characters cannot dodge or parry.”", "defence.kind")


def defence_barred(defender: Combatant, kind: str = "dodge or parry", attacker: str | None = None,
                   charged: str = "") -> RuleViolation | None:
    """Why the rules let ``defender`` neither dodge nor parry now (a charge not yet struck, a run, a
    defence lost to a fumble, a fall), as the refusal the engine gives; None when they may. The
    attack form reads it too (the view's ``no_defence``): its default defence is then None, never a
    choice the engine refuses. The refusal names ``defence.kind``: the page says it beside the choice.
    ``attacker`` and ``charged`` (whom a charge is at): the charge's own rule is the opponent's; anyone
    else finds the charger running."""
    r = defender.data["round"]
    if r.get("charging"):
        if not r.get("charge_attacked") and attacker is not None and charged and attacker != charged:
            return running_charger(defender)
        if not r.get("charge_attacked"):
            # the rule's sentence as written, quoted (a GM read it in lower case, cut from its "However")
            return RuleViolation("Charging", "“However, if the opponent does attack first, the charging combatant "
                                 "would not be able to dodge or parry.”", "defence.kind")
    elif r.get("running") and not r.get("fleeing"):
        return RuleViolation("Movement", "Running characters cannot dodge or parry.", "defence.kind")
    if r.get("lost_defence"):
        return RuleViolation("Fumble Table", f"{defender.name} lost this defence to a fumble", "defence.kind")
    for cond in ("dead", "unconscious", "incapacitated"):
        if cond in defender.conditions:
            return RuleViolation("Injuries", f"{defender.name} is {cond} and cannot {kind}", "defence.kind")
    return None


def _stance_check(ctx: Context, defender: Combatant, kind: str, attacker: str | None = None) -> None:
    barred = defence_barred(defender, kind, attacker, charged_at(ctx.enc, defender))
    if barred:
        raise barred


def defence_skill(ctx: Context, attacker: Combatant, defender: Combatant, weapon: dict, free_attack: bool,
                  water: str) -> tuple[str, dict | None, rules.Skill | None]:
    """Which defence, with which weapon, at what skill (multipliers, then split, then penalties)."""
    d = ctx.action.get("defence", {"kind": "none"})
    if isinstance(d, str):
        d = {"kind": d}
    if not isinstance(d, dict) or d.get("kind") not in ("parry", "dodge", "none"):
        raise InvalidAction("defence.kind", "must be parry, dodge or none")
    kind = d["kind"]
    if kind == "none":
        return "none", None, None
    _stance_check(ctx, defender, kind, attacker.id)
    mults, why = [], []
    surprised = "surprised" in defender.conditions and ctx.enc.round == 1
    if surprised:
        mults.append(0.5), why.append("surprised")
    aquatic = defender.data.get("aquatic")
    if water in ("under", "armpits") and not aquatic:
        mults.append(0.5), why.append("in water")
    r = defender.data["round"]
    if kind == "dodge":
        if free_attack:
            mults.append(0.5), why.append("fleeing")
        if water == "waist" and not aquatic:
            mults.append(0.5), why.append("waist-deep")
        n = r["dodges"]
        # "unlimited dodges, but each one after the first suffers a cumulative -20% penalty"
        bonus = -20 * n + _whole(d.get("bonus", 0), "defence.bonus")
        return "dodge", None, rules.modified_skill(defender.stats.get("dodge", 0), mults, None, bonus, why)
    if free_attack:
        raise RuleViolation("Disengaging", "the attack on a fleeing combatant cannot be parried (but may be dodged at ½)")
    if body.chest_maimed(defender):
        raise RuleViolation("Damage Equal to Double Location HP", body.can_fight(defender))
    pw = body.usable_weapon(defender, d.get("weapon"), "defence.weapon")
    if pw["natural"]:
        # The text gives parries to weapons, shields and the limbs of Unarmed Parries (arm or leg,
        # with the location's HP as weapon HP), and only parries *against* natural attacks: a bite
        # or a claw does not parry; a creature with nothing else dodges.
        raise RuleViolation("Unarmed Parries", f"{defender.name} cannot parry with {pw['name']}: a natural weapon "
                            "does not parry (only weapons, shields and an arm or leg unarmed); dodge instead")
    if pw["missile"] and not pw["thrown"] and not missile_weapons_parry(ctx.table("attack_vs_parry")):
        # The text gives the shooter "the usual 1 attack, 1 parry" but never a bow, crossbow or sling a
        # parry, and a parry that strikes back would strike with the missile's damage (a GM saw a
        # crossbow's bolt kill a wolf through a parry). Fray's *assumed* default, a table setting.
        raise RuleViolation("Attacks & Defenses", f"{defender.name} cannot parry with {pw['name']}: a bow, crossbow "
                            "or sling does not parry (Fray's assumed default, which the Attack vs Parry table "
                            "in Tables can change); parry with another weapon or dodge instead",
                            field="defence.weapon")
    if r.get("bracing") == pw["id"]:
        raise RuleViolation("Bracing for a Charge", "The bracing combatant cannot dodge or use the spear to parry.")
    cover = shield_cover(ctx)
    if cover.get("weapon") == pw["id"]:
        raise RuleViolation("Shields as Cover", "a shield used as cover cannot be used to parry")
    if weapon["missile"] and not (pw["shield"] or pw["martial_arts"]):
        raise RuleViolation("Defending vs. Missiles", "Ranged attacks can be dodged or parried with a shield, but not "
                            "parried with other weapons")
    if any(l.get("immobilized_by") for l in body.hand_location(defender, pw)):
        raise RuleViolation("Grappling", "An immobilized limb cannot be used")
    _check_parry_allowance(defender, pw, surprised)
    if pw["shield"]:
        eff = rules.stuck_effect(body.stuck_enc(pw), ctx.table("stuck_weapons"))
        if eff == "half":
            mults.append(0.5), why.append("weapons stuck in the shield")
    split = d.get("split")
    if split is not None:
        split = _whole(split, "defence.split")
        bad = rules.check_split(rules.modified_skill(pw["skill"], mults).value, [split])
        if bad:
            raise RuleViolation("Fighting", bad)
        used = r["split_used"].get("parry:" + pw["id"], 0)
        if used + split > rules.modified_skill(pw["skill"], mults).value:
            raise RuleViolation("Fighting", "the split parries exceed the skill")
    return "parry", pw, rules.modified_skill(pw["skill"], mults, split, _whole(d.get("bonus", 0), "defence.bonus"), why)


def missile_weapons_parry(table: dict[str, Any]) -> bool:
    """Whether a bow, crossbow or sling may parry: the Attack vs Parry table's *assumed* setting."""
    return table.get("missile_weapons_parry", False) is True


def can_parry_with(w: dict[str, Any], table: dict[str, Any]) -> bool:
    """Whether ``w`` is a weapon that parries at all (a bite does not; a bow by the table's setting)."""
    return not w["natural"] and (not w["missile"] or w["thrown"] or missile_weapons_parry(table))


def _whole(raw: Any, path: str) -> int:
    """A typed modifier: a whole number ("", "A1", a list or Infinity are not)."""
    v = whole_number(raw, path)
    if not -1000 <= v <= 1000:
        raise InvalidAction(path, f"must be from -1000 to 1000, not {v}")
    return v


def shield_cover(ctx: Context) -> dict[str, Any]:
    """"Shields as Cover": ``{"weapon": shield id, "locations": [hit location ids]}`` or nothing."""
    cov = ctx.action.get("shield_cover")
    if not cov:
        return {}
    if not isinstance(cov, dict):
        raise InvalidAction("shield_cover", 'must be {"weapon": shield, "locations": [hit locations]}')
    locs = cov.get("locations", [])
    if not isinstance(locs, list) or not all(isinstance(x, str) for x in locs):
        raise InvalidAction("shield_cover.locations", "must be a list of hit location ids")
    return cov


def _holds_two(c: Combatant) -> bool:
    held = [w for w in c.data["weapons"] if not w["natural"] and not w["missile"] and not body.weapon_usable(c, w)]
    return len({body.held_in(c, w) for w in held}) >= 2 or (len(held) >= 2 and any(w["shield"] for w in held))


def _check_parry_allowance(c: Combatant, pw: dict, surprised: bool) -> None:
    """"Each round, characters get one attack and one parry" plus one extra attack OR parry with
    a second weapon or shield; surprised characters "can parry with both"."""
    r = c.data["round"]
    if ("split_parry" in r and pw["id"] in r.get("split_parry", [])):
        return
    parries = r["parries"]
    extra_free = _holds_two(c) and len(r["attacks"]) <= 1
    if not parries:
        return
    if len(parries) == 1 and extra_free and pw["id"] not in parries:
        return
    used = [(body.weapon(c, p) or {}).get("name", p) for p in parries]
    raise RuleViolation("Attacks & Defenses", f"{c.name} has already parried this MR ({', '.join(used)}); "
                        "dodges are unlimited", field="defence.kind")


def parries_left(c: Combatant) -> list[str]:
    """The weapons ``c`` may still parry with this MR, by ``_check_parry_allowance`` (not surprised):
    the attack form's Defender's choice starts on Parry only with one of these, else on Dodge."""
    left = []
    for w in c.data["weapons"]:
        try:
            _check_parry_allowance(c, w, False)
        except RuleViolation:
            continue
        left.append(w["id"])
    return left


def _check_attack_allowance(ctx: Context, c: Combatant, w: dict, split: int | None, free_attack: bool) -> None:
    r = c.data["round"]
    if split is not None:
        # "Multiple attacks each require their full SR"; the split parts share the skill. The skill
        # is checked once multiplied ("the multiplier may allow or disallow dividing the skill").
        return
    atk = r["attacks"]
    if not atk:
        return
    if w["natural"] and w["id"] not in atk:
        return  # "Creatures with multiple natural attacks have their own attack routines"
    if len(atk) == 1 and atk[0] != w["id"] and _holds_two(c) and len(r["parries"]) <= 1:
        return
    raise RuleViolation("Attacks & Defenses", f"{c.name} has already attacked this MR"
                        + (" (the free attack on a fleeing enemy counts)" if free_attack else ""))


def _free_attack_counts(ctx: Context, attacker: Combatant, fleeing: Combatant) -> None:
    """"This attack counts against the enemy's attacks that round!": the declared attacks it leaves no room
    for are lost."""
    r = attacker.data["round"]
    made = list(r["attacks"])
    pending = sorted(timing.actions_where(ctx.enc, lambda x: x["combatant"] == attacker.id and x["attack"]
                                          and x["status"] == "declared" and x["round"] == ctx.enc.round),
                     key=lambda x: x["sr"])
    for a in pending:
        w = body.weapon(attacker, a.get("weapon")) or {}
        try:
            _check_attack_allowance(ctx, attacker, w, a.get("split", [None])[a.get("index", 0)]
                                    if a.get("split") else None, True)
        except RuleViolation:
            a["status"] = "lost"
            ctx.event("lost", f"{timing.open_text(ctx.enc, a)} is lost: the free attack on fleeing "
                      f"{fleeing.name} counts against the attacks this MR", ref=a["ref"])
            continue
        r["attacks"].append(w.get("id"))
    r["attacks"] = made
