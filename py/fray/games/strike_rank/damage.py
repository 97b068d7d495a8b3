"""The damage of a blow (``sr.attack``): its dice by weapon and landing (normal, special, maximum
special), typed dice checked and completed (``MoreDice`` asks only for the special's extra dice),
and what a parry's weapon loses."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant
from fray.games.base import Context
from fray.games.strike_rank import body, rules, wounds


def _special_type(ctx: Context, w: dict) -> str:
    t = w["type"]
    if t == "cut-and-thrust":
        # "As impaling or slashing, at the attacker's option."
        t = ctx.action.get("special", "impaling")
        if t not in ("impaling", "slashing"):
            raise InvalidAction("special", "a cut-and-thrust weapon deals impaling or slashing special damage")
    return t


def _dm_of(ctx: Context, c: Combatant, decl: dict | None) -> tuple[str, str]:
    src = c
    if decl and decl.get("dm_from"):
        src = ctx.enc.get(decl["dm_from"]) or c
    return body.derived(ctx.ruleset, ctx.enc, src)["damage_modifier"]["value"], src.name


def damage_dice(ctx: Context, c: Combatant, w: dict, landing: str, decl: dict | None = None,
                pull: dict | None = None, dm_use: str | None = None) -> tuple[str, str, bool, str, str]:
    """The dice of a blow before they are rolled: expression, how it was built, maximised or not,
    the special damage type, and whose damage modifier it carries if not the attacker's."""
    dm, whose = _dm_of(ctx, c, decl)
    st = _special_type(ctx, w)
    try:
        expr, note, maxed = rules.damage_expression(w["damage"], dm, dm_use=dm_use or w["dm"], landing=landing,
                                                     special_type=st, bonus=w["bonus"], pull=pull)
    except ValueError as e:
        raise RuleViolation("Pulling Blows", str(e)) from None
    extra = f"; damage modifier of {whose}" if whose != c.name else ""
    return expr, note, maxed, st, extra


def roll_damage(ctx: Context, c: Combatant, w: dict, landing: str, name: str, decl: dict | None = None,
                pull: dict | None = None, dm_use: str | None = None) -> tuple[int, str, str]:
    """Total, breakdown, special type. Maximised damage needs no dice."""
    expr, note, maxed, st, extra = damage_dice(ctx, c, w, landing, decl, pull, dm_use)
    why = "; ".join(x for x in (note, extra.removeprefix("; ")) if x)  # no "(; ..." when there is no note
    if maxed:
        from fray.dice import parse
        total = parse(expr).maximum()
        return total, f"{expr} maximised = {total} ({why})" if why else f"{expr} maximised = {total}", st
    ordinary = damage_dice(ctx, c, w, "normal", decl, pull, dm_use)[0] if landing == "special" else ""
    given = ctx.dice.given.get(name)
    if ordinary and isinstance(given, int) and not isinstance(given, bool):
        # one number typed for a blow of one die is that die's face, not the total of the special's
        # dice (1D8 typed 7, then a special 2D8: a 7 read as the total would roll nothing more)
        from fray.dice import parse
        more = _typed_too_few(ctx, name, expr, why, landing, [given], ordinary) \
            if parse(ordinary).dice_count == 1 else None
        if more is not None:
            raise more
    try:
        r = ctx.dice.roll(name, expr)
    except InvalidAction as e:
        raise (_typed_too_few(ctx, name, expr, why, landing, _typed_faces(given), ordinary) or e) from None
    return r.total, r.breakdown() + (f" ({why})" if why else ""), st


def _typed_faces(given: Any) -> list | None:
    faces = given.get("faces") if isinstance(given, dict) else given
    return faces if isinstance(faces, list) else None


class MoreDice(InvalidAction):
    """Damage dice typed before the roll for an ordinary blow, and the blow came out special
    ("2D10+1D6 needs 3 dice, 2 typed"): the result is known, only some dice are missing (issue 33,
    §5). The encounter is unchanged, as with any refusal; the error carries what the page needs to
    ask for ONLY the extra dice and send the action again with every die in it:

    * ``rolled``: the dice handed out so far (the attack, the defence, the location: rolled by Fray
      or typed), to be given again so the same exchange comes out;
    * ``typed``: the faces the GM typed; ``extra``: the sides of each missing die, in order;
    * ``slots``: the special's dice in order, each an index into ``typed`` (>= 0) or the missing
      die ``-1 - j`` (``extra[j]``): ``fill_special`` builds the faces from them;
    * ``expr``, ``why``: the special's damage and how it was built; ``said``: the exchange so far."""

    def __init__(self, field: str, message: str, *, expr: str, why: str, typed: list, extra: list[int],
                 slots: list[int], rolled: dict, said: list[str]):
        super().__init__(field, message)
        self.expr, self.why, self.typed, self.extra, self.slots = expr, why, typed, extra, slots
        self.rolled, self.said = rolled, said

    def pending(self) -> dict[str, Any]:
        """The plain data the page keeps while it asks for the extra dice."""
        return {"expr": self.expr, "why": self.why, "typed": self.typed, "extra": self.extra, "slots": self.slots,
                "rolled": self.rolled, "said": self.said, "need": extra_dice_text(self.extra)}


def extra_dice_text(sides: list[int]) -> str:
    """[6] → "1D6"; [8, 4] → "1D8 then 1D4"; [6, 6] → "2D6"."""
    runs: list[list[int]] = []
    for s in sides:
        if runs and runs[-1][1] == s:
            runs[-1][0] += 1
        else:
            runs.append([1, s])
    return " then ".join(f"{n}D{s}" for n, s in runs)


def fill_special(slots: list[int], typed: list[int], extra: list[int]) -> list[int]:
    """The special's faces in its own order: the typed ones where they were, the extra ones in the gaps."""
    return [typed[i] if i >= 0 else extra[-1 - i] for i in slots]


def _typed_too_few(ctx: Context, name: str, expr: str, why: str, landing: str, faces: list | None,
                   ordinary: str) -> InvalidAction | None:
    """Damage typed for an ordinary blow (``ordinary``) when it came out special (``expr``): a
    ``MoreDice`` asking for the dice the special adds, each after the typed ones of its kind
    (1D8+1+1D4 typed 5 3 → 2D8+2+1D4 is 5, the new D8, 3). None when the typed dice are not the
    ordinary blow's (the tray's own error stands)."""
    from fray.dice import parse

    if faces is None or not ordinary:
        return None
    o_terms, s_terms = parse(ordinary).dice_terms, parse(expr).dice_terms
    if len(faces) != parse(ordinary).dice_count or len(faces) >= parse(expr).dice_count or len(o_terms) != len(s_terms):
        return None
    if any(o.sides != t.sides or o.sign != t.sign or o.count > t.count for o, t in zip(o_terms, s_terms)):
        return None
    slots: list[int] = []
    extra: list[int] = []
    i = 0
    for o, t in zip(o_terms, s_terms):
        for k in range(t.count):
            if k < o.count:
                slots.append(i)
                i += 1
            else:
                extra.append(t.sides)
                slots.append(-len(extra))
    need = extra_dice_text(extra)
    what = f"The blow is {landing.replace('_', ' ')}" + (f" ({why})" if why else "")
    typed = " ".join(str(f) for f in faces)
    rolled = {k: v for k, v in ctx.dice.used.items() if k != name}
    return MoreDice(f"rolls.{name}", f"{what}: the damage is {expr}. Typed {typed} for {ordinary}: roll {need} more, "
                                     "or type the total", expr=expr, why=why, typed=list(faces), extra=extra, slots=slots,
                    rolled=rolled, said=[e["text"] for e in ctx.events])


def _weapon_hp_loss(w: dict, dmg: int, rule: str) -> int:
    if dmg <= w["hp"]:
        return 0
    return 1 if rule == "one" else dmg - w["hp"]


def _parry_strikes_back(ctx: Context, attacker: Combatant, w: dict, defender: Combatant, pw: dict, how: str) -> None:
    """A good parry damages the attacking weapon, or the limb of a natural attack."""
    if w["missile"] and not w["thrown"]:
        ctx.event("parry", f"{w['name']} is a missile weapon: it cannot be damaged by a parry")
        return
    if pw["missile"] and not pw["thrown"]:
        # its damage is its missile's, not a blow's (the GM's table let it parry)
        ctx.event("parry", f"{defender.name}'s {pw['name']} strikes nothing back: its damage is its missile's")
        return
    natural = w["natural"] or w["unarmed"]
    if pw["hafted"] and not natural:
        ctx.event("parry", f"{pw['name']} is hafted: it does not damage the weapon it parries")
        return
    landing = "special" if how == "special" else "normal"
    dmg, text, _ = roll_damage(ctx, defender, pw, landing, "parry_damage")
    if natural:
        locs = body.hand_location(attacker, w)
        if not locs:
            ctx.event("parry", f"the parry strikes {attacker.name}'s attacking limb: {text}; GM picks the location")
            return
        l = locs[0]
        ap = body.armour_points(attacker, l)
        through = max(0, dmg - ap)
        ctx.event("parry", f"{defender.name}'s parry strikes {attacker.name}'s {l['name']}: {text} − AP {ap}")
        wounds.apply_damage(ctx, attacker, l["id"], through, source="parry", tag="parried_limb")
        return
    rule = ctx.table("attack_vs_parry").get("parrying_weapon_loss", "one")
    loss = _weapon_hp_loss(w, dmg, rule)
    w["hp"] -= loss
    ctx.event("parry", f"{defender.name}'s parry strikes {attacker.name}'s {w['name']}: {text} vs weapon HP "
              f"{w['hp'] + loss}: loses {loss}; {w['name']} HP {w['hp']}/{w['hp_max']}")
