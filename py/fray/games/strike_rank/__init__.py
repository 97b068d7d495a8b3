"""The strike-rank ruleset: the d100 game of Melee Rounds of 12 Strike Ranks (rule text 003).

Handlers are thin: they read the action and call the rules in ``rules`` (pure), ``timing``
(declaration, SR order, the round's end), ``movement`` (movement once declared), ``combat`` (one attack exchange), ``wounds`` (injuries)
and ``care`` (healing, prompts, disengaging, grappling, stuck weapons). ``view`` documents the
projection the page renders; ``maprule`` what the map measures. Tables are JSON under
``tables/``; a GM-edited copy wins.
"""

from __future__ import annotations

import json
import os
from typing import Any

from fray.errors import InvalidAction
from fray.model import Combatant, Encounter
from fray.games import register
from fray.games.base import OUT_WORDS, Context, Ruleset, Slot, StatSpec, load_tables, status_of
from fray.games.strike_rank import body, care, combat, movement, rules, timing
from fray.games.strike_rank.maprule import StrikeRankMap
from fray.games.strike_rank import view as view_mod

_HERE = os.path.dirname(__file__)

STATS = (
    StatSpec("STR", "STR", min=1, max=100),
    StatSpec("CON", "CON", min=1, max=100),
    StatSpec("SIZ", "SIZ", min=1, max=200),
    StatSpec("INT", "INT", min=0, max=100, default=10, required=False),
    StatSpec("POW", "POW", min=0, max=100, default=10, required=False),
    StatSpec("DEX", "DEX", min=0, max=100, help="0 = no DEX (treated as DEX SR 1 for spells)"),
    StatSpec("CHA", "CHA", min=0, max=100, default=10, required=False),
    StatSpec("move", "Movement (m per SR)", min=0, max=60, default=3, required=False),
    StatSpec("hp", "Hit points (total)", min=1, max=500, required=False,
             help="blank: (CON+SIZ)/2 rounded up (assumed)"),
    StatSpec("dodge", "Dodge %", kind="percent", min=0, max=300, default=0, required=False),
    StatSpec("ride", "Ride %", kind="percent", min=0, max=300, default=0, required=False),
    StatSpec("first_aid", "First Aid %", kind="percent", min=0, max=300, default=0, required=False),
    StatSpec("dm", "Damage modifier (override)", kind="dice", required=False, help="blank: from STR+SIZ; 0 = none"),
    StatSpec("dex_sr", "DEX SR (override)", min=0, max=5, required=False),
    StatSpec("siz_sr", "SIZ SR (override)", min=0, max=3, required=False),
)


def _kind(v: Any) -> str:
    """A JSON value's kind, as a table check names it."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "text"
    return "a list" if isinstance(v, list) else "an object"


class StrikeRank(Ruleset):
    id = "strike-rank"
    name = "Strike Rank (d100)"
    summary = ("Melee Rounds of 12 Strike Ranks: declare, then resolve by SR; attack vs parry/dodge by degrees "
               "of success, hit locations, injuries, healing.")
    stats = STATS
    map_rule = StrikeRankMap()
    panel = "fray.games.strike_rank.web.panel"
    stylesheet = "style.css"  # web/style.css, beside the panel
    _status_memo: dict[str, tuple[Any, dict[str, Any]]]  # combatant id -> (combatant, status): ``status``
    tie_rule = "Ties on the same SR: higher DEX acts first; then the GM decides (Strike ranks)"
    conditions = {
        "surprised": "No actions in the first MR; dodge and parry at half skill.",
        "prone": "On the ground.",
        "unconscious": "Cannot act; loses later actions.",
        "incapacitated": "Cannot act, parry or dodge.",
        "dead": "Killed; resuscitation possible within 12 SR.",
        "grappled": "Held: cannot disengage.",
        "fleeing": "Running away: no attacks or spells this MR.",
        "retreating": "Fighting retreat at normal Movement.",
        "choking": "Asphyxiating.",
    }

    def load_default_tables(self) -> dict[str, dict[str, Any]]:
        return load_tables(os.path.join(_HERE, "tables"))

    def check_table(self, table_id: str, table: Any) -> dict[str, Any]:
        out = super().check_table(table_id, table)
        # the GM's copy must still be readable by the rules: same kind of rows as the default
        default_entries = self.tables[table_id]["entries"]
        # the fields every row of the default has (some rows carry more: the "success" degree has
        # its always-succeed and always-fail rolls; the default itself must pass this check)
        default_keys = set(default_entries[0]).intersection(*(set(e) for e in default_entries))
        # and the same kind of value in each field (a list where the rules read a word would
        # be accepted here and crash every later use of the table)
        every_key = set().union(*(set(e) for e in default_entries))
        kinds = {k: {_kind(e[k]) for e in default_entries if k in e} for k in every_key}
        for i, e in enumerate(out["entries"]):
            if not isinstance(e, dict) or not default_keys <= set(e):
                raise InvalidAction(f"value.entries.{i}", f"needs the fields {', '.join(sorted(default_keys))}")
            for k in every_key & set(e):
                if "null" not in kinds[k] and _kind(e[k]) not in kinds[k]:
                    raise InvalidAction(f"value.entries.{i}.{k}", f"must be {' or '.join(sorted(kinds[k]))}, "
                                                                  f"as in the default table")
        return out

    def presets(self) -> list[dict[str, Any]]:
        with open(os.path.join(_HERE, "presets.json"), encoding="utf-8") as fh:
            return json.load(fh)["presets"]

    def init_combatant(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        body.init_combatant(self, enc, c, extra)

    def on_stats_changed(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        body.init_combatant(self, enc, c, extra, keep=dict(c.data))

    def register_actions(self) -> None:
        self.actions.update({
            "sr.declare": timing.declare,
            "sr.undeclare": timing.undeclare,
            "sr.change": timing.change,
            "sr.abort": timing.abort,
            "sr.resolve": timing.resolve,
            "sr.skip": timing.skip,
            "sr.attack": combat.attack,
            "sr.first_aid": care.first_aid,
            "sr.heal": care.magic_heal,
            "sr.natural_healing": care.natural_healing,
            "sr.damage": care.gm_damage,
            "sr.protection": care.protection,
            "sr.answer": care.answer,
            "sr.unstick": care.unstick,
            "sr.disengage": care.disengage,
            "sr.grapple": care.grapple,
            "set_condition": care.set_condition,
            "move": movement.map_move,
        })

    def after_action(self, ctx: Context) -> None:
        """A position typed in the combatant's form, like a drag on the map (``movement.map_move``), and a
        Movement rate changed by anything (a blow, the GM's damage, an edit) retime the declared attacks
        they touch (``movement.rework_movement``)."""
        a = ctx.action
        if a.get("type") == "edit_combatant" and "position" in a["changes"]:
            c = ctx.enc.peek_at(a["id"])
            movement.rework_movement(ctx, [c.id], f"{c.name} was moved")
        movement.rework_for_rates(ctx)

    # Strike ranks, not turns: a duration is a number of Melee Rounds ("time is divided into
    # Melee Rounds (MR)")
    has_turns = False
    rounds_word = "melee round"

    def order_of_play(self, enc: Encounter) -> list[Slot]:
        return timing.order_of_play(enc)

    def advance(self, ctx: Context) -> None:
        timing.advance(ctx)

    def still_to_act(self, enc: Encounter, order: list[Slot]) -> list[str] | None:
        """While declaring, nobody acts yet: the strip marks no one "now" (nor "next"), and no card opens as
        the acting one (a GM's play: NOW sat on the lowest SR while the line said "Declaring" another)."""
        return [] if enc.phase == "declare" else None

    def on_duplicate(self, enc: Encounter, original: Combatant, copy: Combatant) -> None:
        """The copy rides no mount; weapons stuck in its body or shield, and holds on it, belong to
        others and stay with the original."""
        copy.data.update({"mount": "", "impaled": [], "grips": []})
        for w in copy.data.get("weapons", []):
            if "stuck" in w:
                w["stuck"] = []

    def status(self, enc: Encounter, view: dict[str, Any], combatant_id: str) -> dict[str, Any]:
        """Total HP, and the worst hit-location injury as the word ("serious: abdomen, bleeding"):
        a serious wound or worse, or a bleeding one, is shown as badly hurt whatever the total HP."""
        c = enc.get(combatant_id)
        if c is None or "hp" not in c.data:
            return super().status(enc, view, combatant_id)
        # made of the combatant alone, which an action that leaves them alone shares between states
        # (fray/sharing.py): the same object has the same status (200 of them at every render)
        memo = self.__dict__.setdefault("_status_memo", {})
        held = memo.get(combatant_id)
        if held is not None and held[0] is c:
            return held[1]
        out = self._status_of(c)
        if len(memo) >= 4096:
            memo.clear()
        memo[combatant_id] = (c, out)
        return out

    def _status_of(self, c: Any) -> dict[str, Any]:
        worst, where, bleeding = "none", "", []
        for loc in c.data.get("locations", []):
            level = body.loc_level(loc)
            if rules.injury_rank(level) > rules.injury_rank(worst):
                worst, where = level, loc["name"]
            if loc.get("bleeding"):
                bleeding.append(loc["name"])
        word = f"{worst}: {where}" if worst != "none" else ""
        out = next((w for w in OUT_WORDS if w in c.conditions), "")
        if bleeding and out != "dead":  # the dead make no CON test (timing.bleed_tests)
            word = (word + ", " if word else "") + "bleeding"
        # the out word ("dead", "unconscious") goes before the wound in the shared status_of
        bad = rules.injury_rank(worst) >= rules.injury_rank("serious") or bool(bleeding)
        return status_of((int(c.data["hp"]), int(c.data["hp_max"])), list(c.conditions), word, bad)

    def view(self, enc: Encounter) -> dict[str, Any]:
        return view_mod.view(self, enc)

    def view_kept(self, enc: Encounter, kept: dict[str, Any]) -> dict[str, Any]:
        return view_mod.view(self, enc, kept)


register(StrikeRank())
