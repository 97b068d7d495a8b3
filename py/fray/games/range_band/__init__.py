"""The range-band ruleset (Legends of Lur-Asko style): abstract range bands, altitude, mounts, flight,
underwater combat and holding breath, teleportation, lack of sight, combat stealth, light and sound,
post-combat fatigue and trauma.

The rule text is ``shared/rules/000_da34f120076854a0.txt``; what it leaves out (the core roll, the
visible-range chart, the fatigue and trauma charts) ships as *assumed*, editable tables in ``tables/``
(FACTS.md). ``py/fray/games/range_band/rules-trace.md`` traces every heading to the code and the tests.

The round (FACTS.md): turn order, then a movement phase (``enc.phase == "movement"``, a slot per
combatant in turn order), then the action phase (``"actions"``, one turn per combatant in turn order,
with major, minor and free actions). ``advance`` steps slot by slot. Upkeep:

* round start: record each combatant's stealth level, flight and who could not see it (Ambush Movement);
* start of a combatant's turn: durations ending "right before that character's next turn" end; the
  breath counter counts and asks for its CON roll, the 25% chances;
* end of a combatant's turn: "until the end of your next turn" durations end; High Stealth not
  maintained by a major action reverts to Medium; the ambush effect ends.

Modules: ``combatant`` (stats, traits, per-fight state), ``rolls`` (roll specifications and the
default mechanic), ``rules`` (pure functions: AWGT, bands, flight, stealth, visibility, sound, mounts),
``actions`` (the ``rb.*`` handlers), ``areas`` (obscuring areas as zone data), ``preview`` (what an action
would ask for, before it is sent), ``view`` (what the page shows), ``maprule`` (the map's rule).
"""

from __future__ import annotations

import json
import os
from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter
from fray.games import register
from fray.games.base import Context, Ruleset, Slot, load_tables, possessive, status_of
from fray.games.range_band import (actions, combatant, maprule, rules, state_edits, statuses as statuses_mod,
                                   tables as tables_mod, turns, view as view_mod)
from fray.games.range_band.rolls import RollSpec

HERE = os.path.dirname(__file__)


class RangeBand(Ruleset):
    id = "range-band"
    name = "Range bands (turn order, movement phase, major/minor actions)"
    summary = ("Turn order, a movement phase, then each combatant's turn. Range = the greater of the horizontal "
               "and vertical band. Rolls are shown as specifications (die, stat, TN, Hindrance, Easing) for the "
               "GM's dice or Fray's assumed default.")
    stats = combatant.STATS
    conditions = dict(view_mod.CONDITION_TEXT)
    condition_words = dict(statuses_mod.WORDS)
    # a roll waiting for the GM, a note or prompt for the GM, an area marked on the scene
    ref_words = {"R": "Roll", "P": "Note", "A": "Area"}
    map_rule = maprule.RangeBandMap()
    panel = "fray.games.range_band.web.panel"  # fray/games/range_band/web/panel.py
    stylesheet = "style.css"  # web/style.css, beside the panel
    tie_rule = ("each character takes one turn in turn order; equal turn-order values are the GM's to order "
                "(the round)")
    extra_label = "Traits, weapons, mount and flight, as written in a Fray file"
    extra_empty = "Leave empty for an ordinary sentient on foot with no weapons."
    slot_label_is_phase = True  # "Movement" or "Turn" on every slot (order_of_play)

    def load_default_tables(self) -> dict[str, dict[str, Any]]:
        return load_tables(os.path.join(HERE, "tables"))

    def check_table(self, table_id: str, table: Any) -> dict[str, Any]:
        return tables_mod.check(table_id, super().check_table(table_id, table))

    def all_tables(self, enc: Encounter) -> dict[str, dict[str, Any]]:
        """Every table, the GM's edit (``Ruleset.table``: read, never copied) else the default: asked by
        nearly every action and every view."""
        edited = enc.tables
        if not edited:
            return dict(self.tables)
        return {k: dict.get(edited, k) or default for k, default in self.tables.items()}

    def presets(self) -> list[dict[str, Any]]:
        """Ready-made combatants (presets.json): a human scout, a rider and a horse (mount with ``rb.mount``),
        a winged flyer, an amphibious swimmer, a large creature. A fresh copy each time: callers may edit it."""
        if not hasattr(self, "_presets"):
            with open(os.path.join(HERE, "presets.json"), encoding="utf-8") as fh:
                self._presets = json.load(fh)
        return json.loads(json.dumps(self._presets))

    # -- combatants -----------------------------------------------------------------------------------
    def init_combatant(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        state = combatant.fill(c, extra, "combatant", keep=False)
        self._apply_state(enc, c, state, "combatant")

    def on_stats_changed(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        state = combatant.fill(c, extra, "changes", keep=True)
        self._apply_state(enc, c, state, "changes")

    def _apply_state(self, enc: Encounter, c: Combatant, state: dict[str, Any], prefix: str) -> None:
        t = self.all_tables(enc)
        if "flying" in state:
            if state["flying"] and not rules.can_fly(c):
                raise InvalidAction(f"{prefix}.flying", f"{c.name} has no flying SPD")
            c.data["flying"] = state["flying"]
        elif c.data.get("flying") and not rules.can_fly(c):
            c.data["flying"] = False
        if "riding" in state:
            rid = state["riding"]
            if rid is None:
                if c.data.get("mount"):
                    m = enc.get(c.data["mount"])
                    if m is not None:
                        m.data["rider"] = None
                    c.data["mount"] = None
            else:
                m = enc.get(rid)
                if m is None and rid != c.id:
                    raise InvalidAction(f"{prefix}.riding", f"there is no combatant {rid!r} to ride")
                if rid == c.id:
                    raise InvalidAction(f"{prefix}.riding", f"{c.name} cannot be their own mount")
                actions.check_mount(enc, c, m, f"{prefix}.riding")
                actions.do_mount(enc, c, m)
        if "stealth" in state:
            level = state["stealth"]
            why = rules.stealth_block(enc, c, level, t)
            if why:
                raise InvalidAction(f"{prefix}.stealth", why)
            c.data["stealth"] = level
            p = rules.partner(enc, c)
            if p is not None:
                p.data["stealth"] = level
        if c.data.get("flying") and c.data.get("stealth") != "low":
            c.data["stealth"] = "low"  # "Flying characters are always in Low Stealth"
        level = c.data.get("stealth", "low")
        if level != "low" and rules.stealth_block(enc, c, level, t):
            c.data["stealth"] = "medium" if level == "high" and not rules.stealth_block(enc, c, "medium", t) else "low"

    # -- flow -------------------------------------------------------------------------------------------
    def register_actions(self) -> None:
        # every handler keeps the slot with whoever had it (turns.py): a death or a removal shifts the order
        self.actions = turns.KeepTurn(self.actions)
        self.actions.update(actions.HANDLERS)
        self.actions.update({"rb.roll_turn_order": turns.roll_turn_order, "rb.bring_back": turns.bring_back})

    # "A duration counts down when the turn order reaches the same place in a later round, so a
    # 1-round effect ends right before that character's next turn" (FACTS.md, The round)
    round_durations_end = "before_own_turn"

    def turn_of(self, enc: Encounter) -> str | None:
        """A turn is the action phase's slot; the movement phase is not anyone's turn."""
        return super().turn_of(enc) if enc.phase == "actions" else None

    def order_of_play(self, enc: Encounter) -> list[Slot]:
        """Movement phase and action phase: a slot per combatant still in the fight, in turn order
        (``(has a value, −turn-order value, GM tie-break, id number, id)``). A rider moves with its mount,
        so it has no movement slot. Before the fight (setup) the same order, so the order strip shows the turn
        order as soon as it is typed or rolled (issue 33: it kept the order of adding until the fight began);
        nobody acts in it."""
        if enc.phase == "setup":
            return [Slot(c.id, "Turn order", key := rules.sort_key(enc, c),
                         f"turn order {c.data['turn_value']}" if c.data.get("turn_value") is not None
                         else "no turn-order value yet (after those with one)", tie=key[:2])
                    for c in rules.turn_order(enc) if rules.able(c)]
        if enc.phase not in ("movement", "actions"):
            return []
        out = []
        for c in rules.turn_order(enc):
            if not rules.able(c):
                continue
            if enc.phase == "movement" and rules.is_mounted(c):
                continue
            v = c.data.get("turn_value")
            label = "Movement" if enc.phase == "movement" else "Turn"
            key = rules.sort_key(enc, c)
            out.append(Slot(c.id, label, key,
                            f"turn order {v}" if v is not None else "no turn-order value yet (after those with one)",
                            tie=key[:2]))
        return out

    def advance(self, ctx: Context) -> None:
        """The GM's "next": next combatant in the phase; movement → actions → next round's movement."""
        enc = ctx.enc
        t = self.all_tables(enc)
        if enc.phase == "ended":
            raise RuleViolation("Post-Combat Fatigue & Trauma", "the battle has ended")
        if enc.phase == "setup":
            self.start_round(ctx, t)
            return
        self.skip_open(ctx)
        order = self.order_of_play(enc)
        cur = order[enc.turn] if 0 <= enc.turn < len(order) else None
        if enc.phase == "movement" and cur is not None:
            c = enc.get(cur.combatant_id)
            c.data["move_phase_round"] = enc.round
            # a pass is said, as every game says one (tactical-round: "declared nothing this round"); a roll or a
            # descent this phase left its own line
            if (c.data.get("moved") or {}).get("round") != enc.round:
                ctx.event("skip", f"{c.name} does not move", id=c.id)
        if enc.phase == "actions" and cur is not None:
            self.end_turn(ctx, enc.get(cur.combatant_id), t)
        order = self.order_of_play(enc)
        nxt = enc.turn + 1
        if cur is not None:
            ids = [s.combatant_id for s in order]
            nxt = ids.index(cur.combatant_id) + 1 if cur.combatant_id in ids else enc.turn
        if nxt < len(order):
            enc.turn = nxt
            if enc.phase == "actions":
                self.start_turn(ctx, enc.get(order[nxt].combatant_id), t)
            return
        if enc.phase == "movement":
            enc.phase = "actions"
            enc.turn = 0
            ctx.event("phase", "Action phase: each combatant's turn in turn order", phase="actions")
            order = self.order_of_play(enc)
            if order:
                self.start_turn(ctx, enc.get(order[0].combatant_id), t)
            return
        enc.round += 1
        self.start_round(ctx, t)

    def skip_open(self, ctx: Context) -> None:
        """``advance {skip: [refs]}``: the GM chose to skip these open rolls at Next (the page asks first:
        Resolve or Skip); each leaves with a logged line, never silently."""
        skip = ctx.action.get("skip")
        if skip is None:
            return
        if not isinstance(skip, list) or not all(isinstance(r, str) for r in skip):
            raise InvalidAction("skip", "must list the open rolls to skip (R1, R2, ...)")
        enc = ctx.enc
        have = {p["ref"]: p for p in list.__iter__(dict.get(enc.state, "pending") or [])}
        for ref in skip:
            if ref not in have:
                raise InvalidAction("skip", f"there is no open roll {ref!r}")
        if not skip:
            return
        enc.state["pending"] = [p for p in enc.state.get("pending", []) if p["ref"] not in skip]
        from fray.games.range_band.attacks import close_warning
        from fray.games.range_band.movement import take_back
        for ref in skip:
            p = have[ref]
            who = enc.peek_at(p["combatant"])
            # a skipped roll was never made, as a dismissed one (resolution.dismiss): a movement roll leaves no record
            # that the mover moved (heard moving, a mount "moved on its last turn", the phase's roll spent)
            made = p.get("kind") == "movement" and who is not None and take_back(enc.get(who.id), p.get("effect") or {})
            ctx.event("dismiss", f"{ref} {(who.name + ': ') if who else ''}{p['spec'].get('what', 'roll')} skipped by "
                      "the GM at Next (not rolled)" + (f"; {who.name} has not made this movement phase's movement "
                                                       "roll" if made and who else ""),
                      ref=ref, id=p["combatant"], skipped=True)
            if p.get("kind") == "offense":
                close_warning(ctx, ref, "skipped")

    def start_round(self, ctx: Context, t: dict[str, dict[str, Any]]) -> None:
        enc = ctx.enc
        enc.phase = "movement"
        enc.turn = 0
        turns.expire_notes(ctx)
        ctx.event("round", f"Round {enc.round} begins")
        ctx.event("phase", "Movement phase", phase="movement")
        start = {}
        vis = None
        for c in enc.combatants:
            entry = {"stealth": c.data.get("stealth", "low"), "flying": bool(c.data.get("flying"))}
            if entry["stealth"] == "high":  # only they may use ambush movement this round
                vis = vis or rules.visibility(enc, t)
                entry["unseen_by"] = [o for o, row in vis.items() if o != c.id and not row[c.id]["sees"]]
            start[c.id] = entry
            if c.data.get("ambush") and c.data["ambush"].get("round", 0) < enc.round:
                c.data["ambush"] = None
            self.suffocation_upkeep(ctx, c, t)
            if rules.is_flying(enc, c) and rules.able(c):
                state_edits.pay_flight_cost(ctx, c, "at the beginning of the movement phase")
        enc.state["round_start"] = start

    def suffocation_upkeep(self, ctx: Context, c: Combatant, t: dict[str, dict[str, Any]]) -> None:
        """Holding Breath: "Once incapacitated, they have a 25% chance of dying every minute" (12 rounds)."""
        enc = ctx.enc
        b = c.data.get("breath", {})
        no_air = not rules.breathes_here(enc, c)
        ir = b.get("incapacitated_round")
        if not (b.get("out") and no_air and ir is not None and "incapacitated" in c.conditions and "dead" not in c.conditions):
            return
        minute = rules.const(t, "rounds_per_minute")
        if enc.round > int(ir) and (enc.round - int(ir)) % minute == 0:
            pct = rules.const(t, "incapacitated_death_pct")
            state_edits.pend(ctx, "breath_death", c, RollSpec(
                f"{pct}% chance of dying (a minute incapacitated without air)", "d100", "%", pct, "Holding Breath",
                can_blunder=False, success="dies (revivable)", failure="still alive"))

    def start_turn(self, ctx: Context, c: Combatant, t: dict[str, dict[str, Any]]) -> None:
        """Start of ``c``'s turn: durations end, breath is counted."""
        enc = ctx.enc
        keep = []
        for d in c.data.get("durations", []):
            if d["ends"] == "before_turn" and enc.round >= int(d["round"]):
                if d["condition"] in c.conditions:
                    c.conditions.remove(d["condition"])
                ctx.event("condition", f"{c.name} is no longer {statuses_mod.word(d['condition'])} (its duration ends "
                          "before their turn)",
                          id=c.id, condition=d["condition"], on=False)
            else:
                keep.append(d)
        c.data["durations"] = keep
        ctx.event("turn", f"{possessive(c.name)} turn", id=c.id)
        self.breath_upkeep(ctx, c, t)

    def breath_upkeep(self, ctx: Context, c: Combatant, t: dict[str, dict[str, Any]]) -> None:
        """Holding Breath, at the beginning of every turn."""
        enc = ctx.enc
        b = dict(c.data.get("breath", {}))
        no_air = not rules.breathes_here(enc, c)
        if c.data.get("amphibious") == "holds" and no_air:
            return  # "can hold their breath for far longer than any combat"
        if no_air and not b.get("holding") and not b.get("out"):
            b["holding"] = True  # underwater, not breathing is not a choice
        if b.get("out"):
            if not no_air and not b.get("needs_restart"):
                ir = b.get("incapacitated_round")
                minute = rules.const(t, "rounds_per_minute")
                if b.get("out_underwater") or (ir is not None and enc.round - int(ir) > minute):
                    if not b.get("needs_restart"):
                        b["needs_restart"] = True
                        ctx.event("breath", f"{c.name} reaches air but does not resume breathing: another character must "
                                  "restart it (process action on CON, goal 20 + adjusted weight)", id=c.id)
                else:
                    # resuming breathing is not catching one's breath: held breath and its CON rolls stay as
                    # they were until the two major actions of catching it (``rb.catch_breath``)
                    b.update(out=False, holding=False, ran_out=True)
                    for x in ("out-of-breath", "major-stunned"):
                        if x in c.conditions:
                            c.conditions.remove(x)
                    ctx.event("breath", f"{c.name} reaches air and resumes breathing", id=c.id)
                c.data["breath"] = b
                return
            if no_air:
                pct = rules.const(t, "out_of_breath_incapacitated_pct")
                if "incapacitated" not in c.conditions:
                    state_edits.pend(ctx, "breath_incap", c, RollSpec(
                        f"{pct}% chance of becoming incapacitated (out of breath)", "d100", "%", pct, "Holding Breath",
                        can_blunder=False, success="incapacitated", failure="still conscious"))
            c.data["breath"] = b
            return
        if not b.get("holding"):
            c.data["breath"] = b
            return
        b["held"] = int(b.get("held", 0)) + 1
        limit, every = rules.breath_limit(c, t, bool(b.get("idle")))
        c.data["breath"] = b
        if b["held"] > limit and (b["held"] - limit - 1) % every == 0:
            rolls = int(b.get("rolls", 0))
            spec = RollSpec(f"Hold breath (round {b['held']})", "d6", "CON", int(c.stats.get("CON", 0)),
                            "Holding Breath", hindrance=[("previous breath rolls", rolls)] if rolls else [],
                            success="keeps holding their breath",
                            failure="out of breath: resumes breathing if there is air, else major stunned")
            state_edits.pend(ctx, "breath", c, spec)

    def end_turn(self, ctx: Context, c: Combatant, t: dict[str, dict[str, Any]]) -> None:
        enc = ctx.enc
        c.data["turn_done_round"] = enc.round
        keep = []
        for d in c.data.get("durations", []):
            if d["ends"] == "after_turn" and enc.round >= int(d.get("count_from", 0)):
                left = int(d["turns"]) - 1
                if left <= 0:
                    if d["condition"] in c.conditions:
                        c.conditions.remove(d["condition"])
                    ctx.event("condition", f"{c.name} is no longer {statuses_mod.word(d['condition'])} (end of their "
                              "turn)", id=c.id,
                              condition=d["condition"], on=False)
                    continue
                d = {**d, "turns": left}
            keep.append(d)
        c.data["durations"] = keep
        if c.data.get("stealth") == "high" and c.data.get("maintained_round") != enc.round:
            state_edits.set_stealth(ctx, c, "medium", "High Stealth not maintained as a major action this turn")
        if c.data.get("ambush") and c.data["ambush"].get("round") == enc.round:
            c.data["ambush"] = None
            ctx.event("stealth", f"{possessive(c.name)} ambush effect ends with their turn", id=c.id)

    def on_duplicate(self, enc: Encounter, original: Combatant, copy: Combatant) -> None:
        """The copy rides nothing and carries no one; grapples, sight marks and an ambush are the original's."""
        copy.data.update({"mount": None, "rider": None, "grappling": [], "cannot_see": [], "ambush": None})

    def status(self, enc: Encounter, view: dict[str, Any], combatant_id: str) -> dict[str, Any]:
        """The game counts no hit points: its statuses are the state. Out of the fight when dead or
        incapacitated; badly hurt when stunned, out of breath, paralyzed or restrained."""
        c = enc.get(combatant_id)
        if c is None:
            return super().status(enc, view, combatant_id)
        bad = any(x in c.conditions for x in ("major-stunned", "minor-stunned", "out-of-breath", "paralyzed",
                                             "restrained", "knocked-down"))
        word = ""
        fallen = any(x in c.conditions for x in ("dead", "incapacitated"))  # they say it: no slot to explain
        m = enc.peek_at(c.data["mount"]) if enc.phase == "movement" and c.data.get("mount") and not fallen else None
        if m is not None:
            # a rider has no movement slot of its own (the strip greys it at the end): say why. Its turn in the
            # action phase is its own.
            word = f"moves with {m.name}"
        st = status_of(None, list(c.conditions), word, bad, out_words=("dead", "incapacitated"),
                       words=self.condition_words)
        if c.data.get("stealth") == "high" and not fallen:
            # a state the map draws on the token since .24: the strip says it too, as it says the statuses (the GM's
            # own strip; the players' window draws its own projection)
            st["chips"].append("High Stealth")
        return st

    def view(self, enc: Encounter) -> dict[str, Any]:
        return view_mod.view(enc, self.all_tables(enc), self.order_of_play(enc))


register(RangeBand())
