"""The tactical-round ruleset (Against the Darkmaster style): CMB against DEF in a fixed
sequence of phases each round.

The rule text is ``shared/rules/004_*.txt`` (Combat Actions: Parrying, Cover, Diving for Cover,
Melee Attacks, Disengaging, Running Away, Ranged Attacks, Range Bands, Reloading); the figures it
leaves out come from FACTS.md and live as data in ``tables/``. ``py/fray/games/tactical_round/rules-trace.md``
traces every heading to the code and the tests.

Modules: ``combatant`` (weapons and per-fight data), ``rules`` (pure functions), ``actions``
(the ``tr.*`` handlers), ``order`` (who acts in the phase), ``view`` (what the page shows),
``tables`` (loading and checking the tables), ``maprule`` (what the map measures).
"""

from __future__ import annotations

from typing import Any

from fray import timers
from fray.errors import InvalidAction
from fray.model import Combatant, Encounter
from fray.games import register
from fray.games.base import OUT_WORDS, Context, Ruleset, Slot, StatSpec, status_of
from fray.games.tactical_round import actions, combatant, order, rules, tables, view as view_mod
from fray.games.tactical_round.maprule import TacticalRoundMap


class TacticalRound(Ruleset):
    id = "tactical-round"
    name = "Tactical round (CMB vs DEF)"
    # every slot's label is the phase's title (order.order_of_play): said once, by the strip's
    # heading and the round bar, not cut to "Decla…" on each of twelve tablet chips (issue 33)
    slot_label_is_phase = True
    ref_words = {"A": "Attack"}  # an attack waiting for the GM's result from the Attack table
    summary = ("Phased rounds: Assessment, Declaration, Move, Spell A, Ranged A, Melee, Ranged B, Spell B, "
               "Other Actions. Attack = open-ended d100 + CMB + modifiers − DEF; the GM reads the attack table.")
    stats = (
        StatSpec("DEF", "DEF (without shield)", "int", -100, 300, help="Defense; a shield's bonus goes on the weapon"),
        StatSpec("HP", "HP (Body)", "int", 1, 999, help="Maximum hit points"),
        StatSpec("Athletics", "Athletics", "int", -100, 300, default=0, required=False,
                 help="Skill bonus, for Running Away"),
    )
    conditions = dict(view_mod.CONDITION_TEXT)
    map_rule = TacticalRoundMap()
    panel = "fray.games.tactical_round.web.panel"
    stylesheet = "style.css"  # web/style.css, beside the panel
    tie_rule = ("Melee: longest weapon first; tie: higher CMB; equal: simultaneous, in the order the GM "
                "chooses (Tactical Round Sequence)")
    extra_label = "Weapons, the one in hand and hits taken, as written in a Fray file"  # no armour or body plan in this game: DEF is a stat
    extra_empty = "Leave empty for a combatant with no weapons."

    def load_default_tables(self) -> dict[str, dict[str, Any]]:
        return tables.default_tables()

    def check_table(self, table_id: str, table: Any) -> dict[str, Any]:
        return tables.check(table_id, super().check_table(table_id, table))

    def all_tables(self, enc: Encounter) -> dict[str, dict[str, Any]]:
        return {k: self.table(enc, k) for k in self.tables}

    # -- combatants -----------------------------------------------------------------------------
    def init_combatant(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        combatant.fill(c, extra, "combatant", keep=False)
        rules.sync_hp_conditions(c, self.all_tables(enc))

    def on_stats_changed(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        # an edit keeps the wounds (hits taken), what is loaded and this round's choices
        combatant.fill(c, extra, "changes", keep=True)
        rules.sync_hp_conditions(c, self.all_tables(enc))

    def presets(self) -> list[dict[str, Any]]:
        return PRESETS

    # -- flow -----------------------------------------------------------------------------------
    def register_actions(self) -> None:
        self.actions.update(actions.HANDLERS)

    # Phases, not turns: everyone acting in a phase acts together, so a duration is rounds
    has_turns = False

    def order_of_play(self, enc: Encounter) -> list[Slot]:
        return order.order_of_play(enc, self.all_tables(enc))

    def after_action(self, ctx: Context) -> None:
        actions.end_engagements_of_the_fallen(ctx)  # whatever put them down: a blow, a critical, the GM

    def advance(self, ctx: Context) -> None:
        """Next phase of the Tactical Round Sequence; after Other Actions, the next round."""
        enc = ctx.enc
        t = self.all_tables(enc)
        skip = ctx.action.get("skip_empty")
        if skip is not None and not isinstance(skip, bool):
            raise InvalidAction("skip_empty", "must be true or false")
        # The page's Next asks (``ask``): it stops at what is still open and says what, until the
        # GM resolves it or chooses to go on (``go_on``, each skip in the log), and actions that need
        # no roll do themselves. Without ``ask`` (a history saved before, a script) Next goes on as
        # it always did, and the log names what it leaves unresolved.
        ask = actions.flag(ctx.action, "ask")
        go_on = actions.flag(ctx.action, "go_on")
        if go_on and not ask:
            raise InvalidAction("go_on", "only with ask: the GM goes on past what Next asked about")
        skipped: list[str] = []
        done: list[str] = []
        while True:
            if enc.phase in rules.phase_ids(t):
                actions.leave_phase(ctx, t, "go_on" if go_on else "ask" if ask else "")
            go_on = False  # only the phase the GM was looking at; a phase passed over has nothing open
            nxt, new_round = rules.next_phase(t, enc.phase)
            if new_round:
                self.end_of_round(ctx, t)
                enc.round += 1
                ctx.event("round", f"Round {enc.round} begins")
            elif enc.phase not in rules.phase_ids(t):
                ctx.event("round", f"Round {enc.round} begins")
            enc.phase = nxt
            enc.turn = 0
            if ask:
                actions.enter_phase(ctx, t)  # a declared reload happens by itself as its phase begins
            # The page's Next passes over phases in which nobody acts, or in which all there was to
            # do has done itself (issue 10: "Fewer taps"); Assessment and Declaration always stop,
            # so every round is declared.
            if not skip or nxt in ("assessment", "declaration") or not self._all_done(enc):
                break
            # a phase whose declared actions all did themselves (a reload as Other Actions begins) is
            # not one in which nobody acts: the log had just said the reload
            (done if self.order_of_play(enc) else skipped).append(rules.phase_title(t, nxt))
        said = ([f"nobody acts in {', '.join(skipped)}"] if skipped else []) + \
            ([f"all done in {', '.join(done)}"] if done else [])
        note = f" ({'; '.join(said)})" if said else ""
        ctx.event("phase", f"Phase: {rules.phase_title(t, nxt)}{note}", phase=nxt)

    def still_to_act(self, enc: Encounter, order: list[Slot]) -> list[str] | None:
        """Who acts now and after, in this phase (issue 33: the strip kept "NOW" on a phase's first
        combatant after all had acted): in the Declaration phase those who have not declared, in
        the others those with an action not done yet (a free strike at a fleeing foe is gone from
        the order once struck). Phases are not turns: ``enc.turn`` stays 0 in them."""
        if enc.phase == "setup":
            return []
        declared = enc.state.get("declared", {})
        out: list[str] = []
        for s in order:
            if enc.phase == "declaration":
                waits = s.combatant_id not in declared
            else:
                ref = s.action_ref or ""
                waits = ref.startswith("strike:") or ":" not in ref or not _slot_done(enc, ref)
            if waits and s.combatant_id not in out:
                out.append(s.combatant_id)
        return out

    def _all_done(self, enc: Encounter) -> bool:
        return all(s.action_ref and not s.action_ref.startswith("strike:") and _slot_done(enc, s.action_ref)
                   for s in self.order_of_play(enc))

    def end_of_round(self, ctx: Context, t: dict[str, dict[str, Any]]) -> None:
        """End of the Other Actions phase: Disengage takes effect, Stunned wears off, the round's
        parries and declarations lapse."""
        enc = ctx.enc
        for c in enc.combatants:
            dies_at = c.data.get("dies_at_round")
            if dies_at is not None and enc.round >= dies_at:
                c.data["dies_at_round"] = None
                if "dead" not in c.conditions:  # a critical's death, come due (tr.apply_critical)
                    c.conditions.append("dead")
                    ctx.event("condition", f"{c.name} dies of the critical wound (end of round {enc.round})",
                              id=c.id, condition="dead", on=True)
            if c.data.get("disengaging"):
                actions.disengage_all(enc, c)
                c.data["disengaging"] = False
                ctx.event("condition", f"{c.name} disengages: no longer Engaged", id=c.id)
            if "stunned" in c.conditions and timers.of_combatant(enc, c.id, "stunned"):
                pass  # the GM gave this stun a duration (fray.timers): that timer ends it
            elif "stunned" in c.conditions:
                left = max(int(c.data.get("stunned_rounds", 0)) - 1, 0)
                c.data["stunned_rounds"] = left
                if left == 0:
                    c.conditions.remove("stunned")
                    ctx.event("condition", f"{c.name} is no longer Stunned", id=c.id, condition="stunned", on=False)
            else:
                c.data["stunned_rounds"] = 0
            c.data["parry"] = None
            c.data["run_away"] = None
        enc.state["declared"] = {}

    def on_duplicate(self, enc: Encounter, original: Combatant, copy: Combatant) -> None:
        """The copy is engaged with no one, is not running away or disengaging, and has no parry set
        against the original's attackers."""
        copy.data.update({"engaged_with": [], "run_away": None, "disengaging": False, "parry": None})

    def status(self, enc: Encounter, view: dict[str, Any], combatant_id: str) -> dict[str, Any]:
        """HP left of the HP stat; the worst Hit Point threshold reached is the word ("bruised",
        "incapacitated", "dying": FACTS.md, Hit points)."""
        c = enc.get(combatant_id)
        if c is None:
            return super().status(enc, view, combatant_id)
        tables = self.all_tables(enc)
        thresholds = [e["condition"] for e in tables["hp_thresholds"]["entries"]]
        shown = rules.shown_conditions(c, tables)  # no state a worse one includes ("dying", not "dying bruised")
        word = next((x for x in reversed(thresholds) if x in shown), "")
        conds = [x for x in shown if x != word or x in rules.OUT_OF_ACTION]
        if rules.engaged_ids(enc, c):
            conds.append("engaged")
        # the worst out word first (OUT_WORDS: the same four, "dead" first), so the dead read "dead"
        return status_of((combatant.hp_current(c), combatant.hp_max(c)), conds, word, bool(word),
                         out_words=OUT_WORDS)

    def view(self, enc: Encounter) -> dict[str, Any]:
        return view_mod.view(enc, self.all_tables(enc))

    def view_kept(self, enc: Encounter, kept: dict[str, Any]) -> dict[str, Any]:
        return view_mod.view(enc, self.all_tables(enc), kept)


def _slot_done(enc: Encounter, ref: str) -> bool:
    cid, _, i = ref.partition(":")
    ds = enc.state.get("declared", {}).get(cid, [])
    return i.isdigit() and int(i) < len(ds) and bool(ds[int(i)]["done"])


PRESETS: list[dict[str, Any]] = [
    {"name": "Swordsman with shield", "side": "party", "stats": {"DEF": 30, "HP": 45, "Athletics": 20},
     "weapons": [{"name": "Broadsword", "cmb": 55, "kind": "melee", "length": 2, "shield": 20},
                 {"name": "Dagger", "cmb": 40, "kind": "thrown", "base_range": 5, "length": 1}]},
    {"name": "Crossbowman", "side": "party", "stats": {"DEF": 20, "HP": 35, "Athletics": 15},
     "weapons": [{"name": "Light crossbow", "cmb": 50, "kind": "missile", "base_range": 30, "reload": 1,
                  "quick_load": True, "two_handed": True},
                 {"name": "Heavy crossbow", "cmb": 55, "kind": "missile", "base_range": 40, "reload": 2,
                  "two_handed": True},
                 {"name": "Short sword", "cmb": 30, "kind": "melee", "length": 1}]},
    {"name": "Orc warrior", "side": "foes", "stats": {"DEF": 25, "HP": 40, "Athletics": 15},
     "weapons": [{"name": "Scimitar", "cmb": 45, "kind": "melee", "length": 2, "shield": 15},
                 {"name": "Spear", "cmb": 40, "kind": "thrown", "base_range": 10, "length": 3, "two_handed": False}]},
    {"name": "Orc with great axe", "side": "foes", "stats": {"DEF": 20, "HP": 50, "Athletics": 10},
     "weapons": [{"name": "Great axe", "cmb": 60, "kind": "melee", "length": 3, "two_handed": True}]},
    {"name": "Wolf", "side": "foes", "stats": {"DEF": 30, "HP": 30, "Athletics": 40},
     "weapons": [{"name": "Bite", "cmb": 40, "kind": "natural", "length": 1}]},
    {"name": "Apprentice mage", "side": "party", "stats": {"DEF": 15, "HP": 25, "Athletics": 5},
     "weapons": [{"name": "Staff", "cmb": 20, "kind": "melee", "length": 3, "two_handed": True},
                 {"name": "Fire Bolt", "cmb": 45, "kind": "spell", "base_range": 30}]},
]

register(TacticalRound())
