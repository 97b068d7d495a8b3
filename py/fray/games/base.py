"""The ruleset plug-in interface.

A ruleset is one game's rules. The core (``fray.reducer``) knows combatants, positions,
conditions, the log, tables and undo; everything a game decides lives in its ruleset:

* ``stats``: the combatant form, as ``StatSpec`` values (validation comes from them).
* ``tables``: named data loaded from the ruleset's own ``tables/*.json``; each entry says where
  its figures came from or that they are assumed. A GM's edited copy lives in
  ``Encounter.tables`` and wins over the default.
* ``actions``: handlers keyed by action type (``"sr.declare"``). A handler gets a ``Context``
  (a draft encounter it may edit, the action, a dice tray, an event sink) and raises
  ``InvalidAction`` / ``RuleViolation`` before it edits anything it cannot finish.
* ``order_of_play``: who acts when, as ``Slot`` values sorted by a stated key ending in a stable
  id. The three games' turn structures all fit: strike ranks 1..12 with roll-over (a slot per
  action at its SR), a fixed phase sequence (a slot per action in its phase), and turn order with
  a movement phase and major/minor actions (a slot per combatant per phase).
* ``advance``: the GM's "next" button: next SR, phase, turn or round, with the end-of-round
  upkeep the game asks for (bleeding, stun wearing off, ...).
* ``view``: the projection the page renders: derived values with their breakdowns.
* ``map_rule``: what the map measures in this game (``fray.maprules.MapRule``, kept in the
  ruleset's own package); the default measures distances only.
* ``panel``: the full path of the module that draws this game's part of the page (it defines
  ``PANEL``): a module of the game's own folder (``"fray.games.strike_rank.web.panel"``) or of an
  installed game's package (``"fray_d20.panel"``); empty for the plain tracker. The page imports it when an encounter of
  this ruleset is opened, never before.
* ``stylesheet``: the file name of this game's stylesheet, in the folder of the ``panel`` module
  (``"style.css"``: ``fray/games/strike_rank/web/style.css``, ``fray_d20/style.css`` in an
  installed game's wheel); empty for none. The page applies it before it first draws the game
  (``fray.web.game_style``): no game's stylesheet is linked by the page itself.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from typing import Any, Callable

from fray.dice import parse as parse_dice
from fray.errors import Collect, DiceError, InvalidAction
from fray.maprules import MapRule
from fray.model import Combatant, Encounter
from fray.tray import DiceTray


@dataclass(frozen=True)
class StatSpec:
    """One field of a combatant form."""

    key: str
    label: str
    kind: str = "int"  # int | percent | dice | text | choice | bool
    min: float | None = None
    max: float | None = None
    default: Any = None
    required: bool = True
    choices: tuple[str, ...] = ()
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key, "label": self.label, "kind": self.kind, "min": self.min, "max": self.max,
            "default": self.default, "required": self.required, "choices": list(self.choices), "help": self.help,
        }

    def check(self, raw: Any, field_path: str) -> Any:
        """Return the value in its proper type or raise ``InvalidAction`` naming the field."""
        if raw is None or (isinstance(raw, str) and raw.strip() == ""):
            if self.required and self.default is None:
                raise InvalidAction(field_path, f"{self.label} is required")
            return self.default
        if self.kind in ("int", "percent"):
            raw = whole_number(raw, field_path, self.label)
            lo, hi = self.min, self.max
            if lo is not None and raw < lo or hi is not None and raw > hi:
                rng = f"from {_n(lo)} to {_n(hi)}" if lo is not None and hi is not None else (
                    f"at least {_n(lo)}" if lo is not None else f"at most {_n(hi)}")
                raise InvalidAction(field_path, f"{self.label} must be {rng}, not {raw}")
            return raw
        if self.kind == "dice":
            try:
                return str(parse_dice(str(raw)))
            except DiceError as e:
                raise InvalidAction(field_path, f"{self.label}: {e}") from None
        if self.kind == "choice":
            if raw not in self.choices:
                raise InvalidAction(field_path, f"{self.label} must be one of {', '.join(self.choices)}")
            return raw
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            if raw in ("true", "on", "yes", "1", 1):
                return True
            if raw in ("false", "off", "no", "0", 0):
                return False
            raise InvalidAction(field_path, f"{self.label} must be yes or no")
        text = str(raw)
        if self.max is not None and len(text) > self.max:
            raise InvalidAction(field_path, f"{self.label} is longer than {_n(self.max)} characters")
        return text


def as_int(text: Any) -> Any:
    """A typed whole number as int; anything else passes through for the check that reads it to name."""
    if isinstance(text, str):
        s = text.strip()
        if s.lstrip("+-").isdigit():
            return int(s)
    return text


def as_number(text: Any) -> Any:
    """A typed number (int when whole); anything else passes through for the check to name."""
    if isinstance(text, str):
        try:
            f = float(text.strip())
        except ValueError:
            return text
        return int(f) if f.is_integer() else f
    return text


def whole_number(raw: Any, path: str, label: str = "") -> int:
    """A typed whole number (``12``, ``"12"``, ``"65%"``, ``12.0``) as an int, or
    ``InvalidAction`` at ``path``; every stat and ruleset field reads numbers through here."""
    what = f"{label} must" if label else "must"
    if isinstance(raw, bool):
        raise InvalidAction(path, f"{what} be a whole number")
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, str):
        try:
            raw = int(raw.strip().rstrip("%"))
        except ValueError:
            raise InvalidAction(path, f"{what} be a whole number, not {raw!r}") from None
    if not isinstance(raw, int):
        raise InvalidAction(path, f"{what} be a whole number, not {raw!r}")
    return raw


def _n(v: float | None) -> str:
    return str(int(v)) if v is not None and float(v).is_integer() else str(v)


@dataclass(frozen=True)
class Slot:
    """One place in the order of play."""

    combatant_id: str
    label: str  # "SR 7", "Melee", "Turn 2"
    key: tuple  # the sort key, ending in a stable id
    explanation: str = ""  # "SR 7 = DEX 3 + SIZ 2 + weapon 2"
    action_ref: str = ""  # which declared action this slot resolves, if any
    # The part of ``key`` the rules decide, just before the GM's tie-break: slots with the same
    # ``tie`` are equals, which only the GM orders (``settle_tie``). None: the GM may not move it.
    tie: tuple | None = None

    def to_json(self) -> dict[str, Any]:
        return {"combatant": self.combatant_id, "label": self.label, "explanation": self.explanation,
                "action": self.action_ref}


class Events(list):
    """An action's events, each with the round it happened in (``rounds``, alongside): the Next that
    ends a round and begins the next is one action, and its end-of-round lines (bleeding, "End of
    Melee Round 2") belong in the log under the round that ended, not the one the new state is in.
    A list still, equal to the plain list of the same events."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.rounds: list[int] = []


@dataclass
class Context:
    """What a handler works with. ``enc`` is a draft: editing it is how a handler changes state."""

    enc: Encounter
    action: dict[str, Any]
    dice: DiceTray
    ruleset: "Ruleset"
    events: list[dict[str, Any]] = field(default_factory=Events)

    def event(self, kind: str, text: str, **detail: Any) -> None:
        self.events.append({"kind": kind, "text": text, "detail": detail})
        if isinstance(self.events, Events):
            self.events.rounds.append(self.enc.round)

    def combatant(self, key: str = "id", required: bool = True) -> Combatant:
        """The combatant named by ``action[key]``, or ``InvalidAction`` naming the field."""
        cid = self.action.get(key)
        if not isinstance(cid, str) or not cid:
            raise InvalidAction(key, "must name a combatant")
        c = self.enc.get(cid)
        if c is None:
            raise InvalidAction(key, "that combatant is no longer in this encounter")
        return c

    def table(self, table_id: str) -> dict[str, Any]:
        return self.ruleset.table(self.enc, table_id)


Handler = Callable[[Context], None]


def load_tables(folder: str) -> dict[str, dict[str, Any]]:
    """Load every ``*.json`` table of a ruleset folder. Each file is one table."""
    out: dict[str, dict[str, Any]] = {}
    if not os.path.isdir(folder):
        return out
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                table = json.load(fh)
            out[table["id"]] = table
    return out


# The engine side of a game, as the core reads it (tests/unit/test_conformance.py checks every
# registered game against it): what a game must set; what it may set or override, each with a
# working default in ``Ruleset`` (the plain tracker overrides almost none). The page side is
# ``fray.web.panels.Panel`` and ``PanelHooks``, through the module ``panel`` names.
MUST_SET = ("id", "name")
MAY_SET = ("summary", "stats", "conditions", "condition_words", "ref_words", "free_stats", "map_rule", "panel", "stylesheet",
           "tie_rule",
           "extra_label",
           "extra_empty", "slot_label_is_phase", "has_turns", "rounds_word", "round_durations_end")
MAY_OVERRIDE = ("load_default_tables", "check_table", "presets", "init_combatant", "on_duplicate",
                "on_stats_changed", "register_actions", "order_of_play", "turn_of", "still_to_act", "advance",
                "view", "view_kept", "status")


class Ruleset:
    """Base class: a game's rules. Subclasses set the class attributes (``MUST_SET``, ``MAY_SET``)
    and add handlers; they may override the methods of ``MAY_OVERRIDE``. The rest (``table``,
    ``validate_stats``, ``describe``) the core calls as they are here."""

    id: str = ""
    name: str = ""
    summary: str = ""
    stats: tuple[StatSpec, ...] = ()
    conditions: dict[str, str] = {}  # condition name -> what it does, for the UI
    # condition name -> the GM's words for it, where the name a save keeps is not already them
    # (range-band keeps "knocked-down"; the screen and the log say "knocked down")
    condition_words: dict[str, str] = {}
    # the game's word for what each of its labels names, by the label's letter ("A" -> "Attack"), said
    # before the label on screen ("Attack A3"): a GM read "A3" and "R1" and did not know what they were
    ref_words: dict[str, str] = {}
    free_stats: bool = False  # the form takes any stat names (the free-form tracker)
    map_rule: MapRule = MapRule()  # what the map measures (rings, bands, engagements)
    panel: str = ""  # the module defining this game's PANEL ("fray.games.strike_rank.web.panel"); "" = none
    stylesheet: str = ""  # its stylesheet, a file beside the ``panel`` module ("style.css"); "" = none
    # The rule that leaves equals to the GM, quoted when a reorder of non-equals is refused.
    tie_rule: str = "Equals in the order: the GM decides"
    # what the add dialog's JSON box holds, in this game's words, and what an empty box means
    extra_label: str = "Weapons, armour and body, as written in a Fray file"
    extra_empty: str = "Leave empty for an unarmed humanoid."
    # True when every slot of the order of play carries the same label, the phase's ("Movement",
    # "Turn"): the order strip then names it once, in its title, not on every entry, so a Next from
    # one phase to the next rewrites only the entries that moved (issue 11), not all of them
    slot_label_is_phase: bool = False
    # Durations (fray.timers): whether combatants take turns one after another, so that "until the
    # end of X's next turn" means something; the game's word for a round; and when "for N rounds"
    # runs out: as round from+N begins, or right before the holder's turn in that round.
    has_turns: bool = True
    rounds_word: str = "round"
    round_durations_end: str = "round_start"

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = self.load_default_tables()
        self.actions: dict[str, Handler] = {}
        self.register_actions()

    # -- data ---------------------------------------------------------------------------------
    def load_default_tables(self) -> dict[str, dict[str, Any]]:
        return {}

    def table(self, enc: Encounter, table_id: str) -> dict[str, Any]:
        """The GM's edit of a table, else the default. Tables are read, never edited in place (the
        defaults are shared by every encounter), so in a draft (``fray.sharing``) this reads the edit
        without copying it, and it stays the same object from one state to the next."""
        return dict.get(enc.tables, table_id) or self.tables[table_id]

    def check_table(self, table_id: str, table: Any) -> dict[str, Any]:
        """Validate a GM-edited table. Default: same id and an ``entries`` list."""
        if table_id not in self.tables:
            raise InvalidAction("table", f"{self.name} has no table {table_id!r}")
        if not isinstance(table, dict) or not isinstance(table.get("entries"), list):
            raise InvalidAction("value", "a table is an object with an 'entries' list")
        if table.get("id", table_id) != table_id:
            raise InvalidAction("value.id", f"the table's id must stay {table_id!r}")
        return {**table, "id": table_id}

    def presets(self) -> list[dict[str, Any]]:
        """Ready-made combatants (name, side, stats, data)."""
        return []

    # -- combatants ---------------------------------------------------------------------------
    def validate_stats(self, raw: Any, prefix: str = "stats") -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise InvalidAction(prefix, "stats must be an object of name: value")
        out: dict[str, Any] = {}
        known = {s.key for s in self.stats}
        collect = Collect()  # every stat's error at once, not one per press of Add
        for spec in self.stats:
            value = collect(spec.check, raw.get(spec.key), f"{prefix}.{spec.key}")
            if value is not None:
                out[spec.key] = value
        for k in raw:
            if k not in known:
                collect.errors.append(InvalidAction(f"{prefix}.{k}", f"{self.name} has no stat {k!r}"))
        collect.done()
        return out

    def init_combatant(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        """Fill ``c.data`` from the stats and any ruleset fields in ``extra`` (weapons, body)."""
        if extra:
            raise InvalidAction("combatant", f"unknown fields: {', '.join(sorted(extra))}")

    def on_duplicate(self, enc: Encounter, original: Combatant, copy: Combatant) -> None:
        """Clear what in the copy's ``data`` ties it to other combatants (an engagement, a mount,
        a weapon stuck in someone): those belong to the original. Default: nothing to clear."""

    def on_stats_changed(self, enc: Encounter, c: Combatant, extra: dict[str, Any]) -> None:
        """Recompute derived data after an edit; default: same as a new combatant keeps data."""
        self.init_combatant(enc, c, extra)

    def after_action(self, ctx: Context) -> None:
        """What follows by itself from any action, however it came about (a blow, a critical, the
        GM's own condition toggle): the tactical-round game ends the engagements of the fallen.
        Default: nothing."""

    # -- flow ---------------------------------------------------------------------------------
    def register_actions(self) -> None:
        """Subclasses fill ``self.actions``."""

    def order_of_play(self, enc: Encounter) -> list[Slot]:
        return []

    def turn_of(self, enc: Encounter) -> str | None:
        """Whose turn it is (the combatant id), or None between turns; only asked when
        ``has_turns``. Default: the current slot of the order of play once the fight has begun."""
        if enc.phase == "setup":
            return None
        order = self.order_of_play(enc)
        return order[enc.turn].combatant_id if 0 <= enc.turn < len(order) else None

    def still_to_act(self, enc: Encounter, order: list[Slot]) -> list[str] | None:
        """The combatants of ``order`` yet to act in it, in its order: the first is the one the page
        marks "now", none when all have acted. None (the default): the game moves through ``enc.turn``,
        whose slot is "now"."""
        return None

    def advance(self, ctx: Context) -> None:
        """The GM's "next": next slot, and next round after the last one."""
        order = self.order_of_play(ctx.enc)
        if ctx.enc.phase == "setup":
            ctx.enc.phase = "turns"
            ctx.enc.turn = 0
            ctx.event("round", f"Round {ctx.enc.round} begins")
            return
        if ctx.enc.turn + 1 < len(order):
            ctx.enc.turn += 1
        else:
            ctx.enc.round += 1
            ctx.enc.turn = 0
            ctx.event("round", f"Round {ctx.enc.round} begins")

    def view(self, enc: Encounter) -> dict[str, Any]:
        """What the page shows beyond the core fields: derived values with breakdowns."""
        return {}

    def view_kept(self, enc: Encounter, kept: dict[str, Any]) -> dict[str, Any]:
        """``view(enc)``, reusing what ``kept`` holds from the caller's earlier views where what it
        was made from is the very same object (the page redraws after every action, and the engine
        shares whatever an action left alone, ``fray/sharing.py``). Only for encounters that are
        never edited once made (a history's states); the result and its parts are shared with
        later views, so they are read, never edited. Default: no reuse."""
        return self.view(enc)

    def status(self, enc: Encounter, view: dict[str, Any], combatant_id: str) -> dict[str, Any]:
        """A combatant's state at a glance, for the order strip: ``{"hp": [current, max] | None,
        "fraction": 0..1 | None, "word": "bruised", "level": "ok" | "hurt" | "bad" | "out",
        "chips": ["prone", ...]}``. The default reads an ``HP`` stat ("7", "7/12", or "HP" with
        "max HP") and the conditions, so the free-form tracker shows what the GM typed."""
        c = enc.get(combatant_id)
        if c is None:
            return {"hp": None, "fraction": None, "word": "", "level": "ok", "chips": []}
        return default_status(c)

    def condition_word(self, name: str) -> str:
        """A condition as the GM reads it (``condition_words``): the name itself unless the game says otherwise."""
        return self.condition_words.get(name, name)

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "summary": self.summary,
            "stats": [s.to_json() for s in self.stats], "free_stats": self.free_stats,
            "conditions": dict(self.conditions),
            "tables": {k: {"title": v.get("title", k), "assumed": bool(v.get("assumed")),
                           "source": v.get("source", "")} for k, v in self.tables.items()},
            "presets": self.presets(),
        }


OUT_WORDS = ("dead", "dying", "incapacitated", "unconscious")


def status_of(hp: tuple[int, int] | None, conditions: list[str], word: str = "", bad: bool = False,
              out_words: tuple[str, ...] = OUT_WORDS, words: dict[str, str] | None = None) -> dict[str, Any]:
    """The order strip's summary from HP, conditions and the game's own wound word. ``level``
    is the colour: out of the fight (a condition in ``out_words``, the worst first), badly hurt
    (``bad``, or under half HP), hurt (below full), else ok. The out word comes first in ``word``,
    before the wound ("dead, mangled: Head"): the strip strikes through everyone who is out, and only
    the word says which (it showed the wound alone, so the dead did not read "dead")."""
    frac = None
    if hp is not None and hp[1] > 0:
        frac = max(0.0, min(1.0, hp[0] / hp[1]))
    out = next((w for w in out_words if w in conditions), "")
    if out:
        # a wound word that is itself an out word (tactical-round's "dying" threshold) is said by the out word
        level, word = "out", out + (", " + word if word and word not in out_words else "")
    elif bad or (frac is not None and frac < 0.5):
        level = "bad"
    elif frac is not None and frac < 1:
        level = "hurt"
    else:
        level = "ok"
    # the chips are read, never matched: in the GM's words (``Ruleset.condition_words``)
    words = words or {}
    return {"hp": list(hp) if hp is not None else None, "fraction": frac, "word": word, "level": level,
            "chips": [words.get(x, x) for x in conditions if x != out]}


def _num(v: Any) -> float | None:
    try:
        f = float(str(v).strip())
    except ValueError:
        return None
    return f if math.isfinite(f) else None


def default_status(c: Combatant) -> dict[str, Any]:
    """Free stats: ``HP: 7/12``, or ``HP: 7`` with ``max HP`` / ``HP max``; anything else, no bar."""
    stats = {str(k).strip().lower(): v for k, v in c.stats.items()}
    hp = None
    raw = stats.get("hp")
    if raw is not None:
        text = str(raw)
        cur, _, mx = text.partition("/")
        a = _num(cur)
        b = _num(mx) if mx else _num(stats.get("max hp", stats.get("hp max", stats.get("max_hp", ""))))
        if a is not None and b is not None and b > 0:
            hp = (int(a), int(b))
        elif a is not None and a <= 0:
            return status_of(None, list(c.conditions), "down", True)
    return status_of(hp, list(c.conditions))


def counted(n: int, one: str, many: str = "") -> str:
    """A count as a GM says it: "1 round", "2 rounds" (``many``: where adding an s is wrong), never
    "2 round(s)"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def possessive(name: str) -> str:
    """A name's possessive as a GM writes it: "Mark's", "the Whisper in the Reeds'" (a name ending in s takes the
    apostrophe alone; a GM's play-through read "Reeds's Shortbow")."""
    return name + ("'" if name.endswith(("s", "S")) else "'s")


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def round_half_up(x: float) -> int:
    """Rounding as the tables mean it: 2.5 → 3 (Python's round() would give 2)."""
    return int(math.floor(x + 0.5))


def id_order(combatant_id: str) -> tuple[int, str]:
    """A combatant id as the stable end of an order key, numbers as numbers: c7 before c10.

    Ids are ``c`` and a count; compared as text "c10" would come before "c7", so equals the GM
    has not settled would act in an order no one at the table expects."""
    digits = combatant_id[1:]
    return (int(digits) if digits.isdigit() else 0, combatant_id)


def gm_tie_break(enc: Encounter, combatant_id: str) -> int:
    """Where the GM dragged this combatant among equals (``reorder``); unplaced ones go last.

    Rulesets put this in their sort key just before the stable id, so the GM settles ties
    without overriding the rules' order."""
    try:
        return enc.order_override.index(combatant_id)
    except ValueError:
        return len(enc.order_override)
