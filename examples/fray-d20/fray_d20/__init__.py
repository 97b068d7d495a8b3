"""d20 Skirmish: a small fourth game for Fray, installed as a plug-in (examples/fray-d20/).

The rules are in RULES.txt beside this package (each rule's number is quoted where the code
decides it). The game is one ``Ruleset``, ``RULESET``, which the wheel's entry point names
(group ``fray.games``, name ``d20-skirmish``); its page panel is ``fray_d20.panel``.

Combatant stats: ``hp`` (the most hit points), ``defence``, ``attack`` (the Attack bonus),
``initiative`` (the Initiative bonus) and ``damage`` (dice). What changes in play lives in
``data``: ``hp`` (hit points now), ``max`` (the most, as ``hp`` was last set), ``init`` (the initiative total, None until rolled) and
``attacked`` (the round of its last attack).
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter
from fray.games.base import Context, Ruleset, Slot, StatSpec, gm_tie_break, id_order, status_of

GAME_ID = "d20-skirmish"
DOWN = "down"


def _init(c: Combatant) -> int | None:
    v = c.data.get("init")
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _hp(c: Combatant) -> int:
    v = c.data.get("hp", c.stats.get("hp", 0))
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


class D20Skirmish(Ruleset):
    id = GAME_ID
    name = "d20 Skirmish"
    summary = "Initiative on a d20, an attack roll against Defence, hit points."
    panel = "fray_d20.panel"
    stylesheet = "style.css"  # fray_d20/style.css, beside the panel: shipped in the wheel
    tie_rule = "Rule 1: equal initiative totals act in the order the GM decides"
    extra_label = "Anything more, as written in a Fray file"
    extra_empty = "This game needs nothing beyond the stats."
    conditions = {DOWN: "At 0 hit points or fewer: takes no more turns and cannot be attacked."}
    stats = (
        StatSpec("hp", "Hit points", "int", 1, 999, help="The most hit points."),
        StatSpec("defence", "Defence", "int", 1, 40, default=10, help="An attack that reaches it hits."),
        StatSpec("attack", "Attack bonus", "int", -10, 30, default=0),
        StatSpec("initiative", "Initiative bonus", "int", -10, 20, default=0),
        StatSpec("damage", "Damage", "dice", default="1D6"),
    )

    def register_actions(self) -> None:
        self.actions["d20.attack"] = self.attack

    # -- combatants ------------------------------------------------------------------------
    def init_combatant(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        super().init_combatant(enc, c, extra)
        c.data = {"hp": c.stats["hp"], "max": c.stats["hp"], "init": None, "attacked": 0}

    def on_stats_changed(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        """An edit keeps the damage taken: hit points now are the new most less what was lost."""
        super().init_combatant(enc, c, extra)
        old_max = c.data.get("max", c.stats["hp"])
        lost = old_max - _hp(c) if isinstance(old_max, int) else 0
        c.data = {**c.data, "hp": c.stats["hp"] - lost, "max": c.stats["hp"]}

    def on_duplicate(self, enc: Encounter, original: Combatant, copy: Combatant) -> None:
        copy.data = {"hp": copy.stats.get("hp", 1), "max": copy.stats.get("hp", 1), "init": None, "attacked": 0}
        if DOWN in copy.conditions:
            copy.conditions = [x for x in copy.conditions if x != DOWN]

    # -- flow --------------------------------------------------------------------------------
    def order_of_play(self, enc: Encounter) -> list[Slot]:
        """Rule 1 and 5: the highest initiative total first, the GM's order among equals, the
        fallen out; those yet to roll wait at the end until the next round's roll."""
        slots = []
        for c in enc.combatants:
            if DOWN in c.conditions:
                continue
            total = _init(c)
            rank = -total if total is not None else 10**6
            label = f"Init {total}" if total is not None else "Init —"
            slots.append(Slot(c.id, label, (rank, gm_tie_break(enc, c.id), id_order(c.id)),
                              f"d20 + {c.stats.get('initiative', 0)} = {total}" if total is not None else "not rolled yet",
                              tie=(rank,)))
        slots.sort(key=lambda s: s.key)
        return slots

    def roll_initiative(self, ctx: Context, everyone: bool) -> None:
        """Rule 1: a d20 plus the Initiative bonus, for everyone as the fight begins and for
        those who joined since at each new round."""
        for c in ctx.enc.combatants:
            if DOWN in c.conditions or (not everyone and _init(c) is not None):
                continue
            roll = ctx.dice.roll(f"init.{c.id}", "1D20")
            total = roll.total + int(c.stats.get("initiative", 0))
            c.data = {**c.data, "init": total}
            ctx.event("initiative", f"{c.name} rolls {roll.total} for initiative: {total}", id=c.id, total=total)

    def advance(self, ctx: Context) -> None:
        enc = ctx.enc
        if not any(DOWN not in c.conditions for c in enc.combatants):
            raise RuleViolation("The round", "nobody is left standing to take a turn")
        if enc.phase == "setup":
            self.roll_initiative(ctx, everyone=True)
            enc.phase, enc.turn = "turns", 0
            ctx.event("round", f"Round {enc.round} begins")
            return
        if enc.turn + 1 < len(self.order_of_play(enc)):
            enc.turn += 1
            return
        enc.round += 1
        enc.turn = 0
        ctx.event("round", f"Round {enc.round} begins")
        self.roll_initiative(ctx, everyone=False)

    # -- the attack --------------------------------------------------------------------------
    def attack(self, ctx: Context) -> None:
        """Rules 3, 4 and 5: one attack on the attacker's turn; d20 + Attack bonus against the
        target's Defence (a natural 20 hits and doubles the damage dice, a natural 1 misses);
        the damage comes off the target's hit points, and at 0 or below the target is down."""
        enc = ctx.enc
        attacker = ctx.combatant("attacker")
        target = ctx.combatant("target")
        if attacker.id == target.id:
            raise InvalidAction("target", "pick someone other than the attacker")
        if enc.phase == "setup":
            raise RuleViolation("The round", "the fight has not begun: press Next to roll initiative")
        if self.turn_of(enc) != attacker.id:
            raise RuleViolation("Attack", f"it is not {attacker.name}'s turn")
        if attacker.data.get("attacked") == enc.round:
            raise RuleViolation("Attack", f"{attacker.name} has already attacked this round")
        if DOWN in target.conditions:
            raise RuleViolation("Down", f"{target.name} is down and cannot be attacked")
        roll = ctx.dice.roll("attack", "1D20")
        natural = roll.total if len(roll.dice) <= 1 else roll.dice[0]
        total = roll.total + int(attacker.stats.get("attack", 0))
        defence = int(target.stats.get("defence", 10))
        attacker.data = {**attacker.data, "attacked": enc.round}
        if natural == 1 or (natural != 20 and total < defence):
            why = "a natural 1 always misses" if natural == 1 else f"{total} against Defence {defence}"
            ctx.event("attack", f"{attacker.name} attacks {target.name} and misses ({why})",
                      attacker=attacker.id, target=target.id, total=total, hit=False)
            return
        critical = natural == 20
        dice = str(attacker.stats.get("damage", "1D6"))
        damage = ctx.dice.roll("damage", dice).total
        if critical:
            damage += ctx.dice.roll("critical", dice).total
        damage = max(0, damage)
        hp = _hp(target) - damage
        target.data = {**target.data, "hp": hp}
        how = "a natural 20: a critical hit" if critical else f"{total} against Defence {defence}"
        ctx.event("attack", f"{attacker.name} hits {target.name} for {damage} damage ({how})",
                  attacker=attacker.id, target=target.id, total=total, hit=True, damage=damage, critical=critical)
        if hp <= 0:
            # the fallen leave the order (rule 5): one who acted before the attacker this round
            # moves everyone after it up by one, so the turn stays the attacker's
            order = [s.combatant_id for s in self.order_of_play(enc)]
            if target.id in order and order.index(target.id) < enc.turn:
                enc.turn -= 1
            target.add_condition(DOWN)
            ctx.event("down", f"{target.name} is down", id=target.id)

    # -- what the page shows --------------------------------------------------------------------
    def view(self, enc: Encounter) -> dict[str, Any]:
        return {
            "ruleset": self.id, "round": enc.round, "phase": enc.phase,
            "turn": self.turn_of(enc) if enc.phase != "setup" else None,
            "combatants": {c.id: {"hp": _hp(c), "max": c.stats.get("hp", 0), "defence": c.stats.get("defence", 10),
                                  "attack": c.stats.get("attack", 0), "damage": c.stats.get("damage", ""),
                                  "init": _init(c), "down": DOWN in c.conditions,
                                  "attacked": c.data.get("attacked") == enc.round}
                           for c in enc.combatants},
        }

    def status(self, enc: Encounter, view: dict[str, Any], combatant_id: str) -> dict[str, Any]:
        c = enc.get(combatant_id)
        if c is None:
            return status_of(None, [])
        return status_of((_hp(c), int(c.stats.get("hp", 1))), list(c.conditions), out_words=(DOWN,))


RULESET = D20Skirmish()
