"""The players' view: what the players at the table may see of an encounter (issue 12).

``project(encounter, view, order)`` is a pure function (STYLE habit 9, a projection as in
boardgame.io's player view): the GM's encounter, the ruleset's ``view`` and its order of play in,
a plain JSON-able dict out. It copies across only what players may see (names, sides, order of
play, who acts now, map positions, wounds as the GM chose) and leaves out everything else by
construction: the GM's notes, stats, dice typed but not yet applied (pending rolls, prompts), the
log, and every trace of a hidden combatant, positions included. The areas the game marks on the
scene (``MapRule.areas``: smoke, darkness, an obstacle) are copied too: they are features the
players see, and say nothing of who stands inside them.

The GM's choices are part of the encounter, so they are actions with undo, kept in
``encounter.state["players_view"]``:

* ``players.wounds`` ``{"mode": "exact" | "described" | "none"}``: how wounds are shown.
* ``players.hide`` ``{"id": "c3", "hidden": true | false | null}``: hide a combatant, show it
  even when unseen, or (null) go back to the automatic rule.

The automatic rule: where the ruleset's view has a ``visibility`` projection (range-band), a
combatant that is not on the party's side and that no party member can see is hidden.
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidAction
from .maprules import rule_for, scene_areas
from .model import Encounter
from fray.games.base import Context

KEY = "players_view"
WOUND_MODES = ("exact", "described", "none")
DEFAULT_WOUNDS = "described"
PARTY = "party"


def settings(enc: Encounter) -> dict[str, Any]:
    """The GM's choices for this encounter, with defaults filled in."""
    raw = enc.state.get(KEY) or {}
    return {"wounds": raw.get("wounds", DEFAULT_WOUNDS), "hide": dict(raw.get("hide", {}))}


def _own(ctx: Context) -> dict[str, Any]:
    s = ctx.enc.state.get(KEY)
    if not isinstance(s, dict):
        s = ctx.enc.state[KEY] = {}
    return s


def set_wounds(ctx: Context) -> None:
    mode = ctx.action.get("mode")
    if mode not in WOUND_MODES:
        raise InvalidAction("mode", f"must be one of {', '.join(WOUND_MODES)}")
    _own(ctx)["wounds"] = mode
    text = {"exact": "exact hit points", "described": "wounds described in words", "none": "no wounds"}[mode]
    ctx.event("players", f"The players' view shows {text}")


def set_hidden(ctx: Context) -> None:
    c = ctx.combatant("id")
    hidden = ctx.action.get("hidden")
    if hidden is not None and not isinstance(hidden, bool):
        raise InvalidAction("hidden", "must be true, false or null (automatic)")
    hide = _own(ctx).setdefault("hide", {})
    if hidden is None:
        hide.pop(c.id, None)
        ctx.event("players", f"{c.name}: shown to the players by the automatic rule again")
    else:
        hide[c.id] = hidden
        ctx.event("players", f"{c.name} is {'hidden from' if hidden else 'shown to'} the players")


ACTIONS = {"players.wounds": set_wounds, "players.hide": set_hidden}


def auto_hidden(enc: Encounter, view: dict[str, Any]) -> set[str]:
    """Combatants not of the party that no party member can see, by the ruleset's visibility
    projection; empty when the ruleset judges no sight (or there is no party to see)."""
    vis = view.get("visibility") if isinstance(view, dict) else None
    if not isinstance(vis, dict):
        return set()
    party = [c.id for c in enc.combatants if c.side == PARTY]
    if not party:
        return set()
    out = set()
    for c in enc.combatants:
        if c.side == PARTY:
            continue
        if not any((vis.get(p) or {}).get(c.id, {}).get("sees", True) for p in party):
            out.add(c.id)
    return out


def hidden_ids(enc: Encounter, view: dict[str, Any]) -> set[str]:
    """Who the players do not see: the GM's explicit choice wins over the automatic rule."""
    hide = settings(enc)["hide"]
    auto = auto_hidden(enc, view)
    return {c.id for c in enc.combatants if hide.get(c.id, c.id in auto)}


def _hp(view: dict[str, Any], c: Any) -> tuple[float, float | None] | None:
    """Current and maximum hit points, from the ruleset's view where it has them, else a free
    ``HP`` stat (the plain tracker)."""
    rows = view.get("combatants") if isinstance(view, dict) else None
    row = None
    if isinstance(rows, dict):
        row = rows.get(c.id)
    elif isinstance(rows, list):
        row = next((r for r in rows if isinstance(r, dict) and r.get("id") == c.id), None)
    hp = row.get("hp") if isinstance(row, dict) else None
    if isinstance(hp, dict) and isinstance(hp.get("current"), (int, float)):
        mx = hp.get("max")
        return hp["current"], mx if isinstance(mx, (int, float)) and mx > 0 else None
    for k, v in c.stats.items():
        if k.lower() == "hp" and isinstance(v, (int, float)) and not isinstance(v, bool):
            mx = next((w for kk, w in c.stats.items() if kk.lower() in ("max hp", "hp max", "maxhp")
                       and isinstance(w, (int, float)) and w > 0), None)
            return v, mx
    return None


def describe(current: float, maximum: float | None) -> str:
    """Hit points in words, for a table that should not see the numbers."""
    if current <= 0:
        return "down"
    if maximum is None:
        return "standing"
    ratio = current / maximum
    if ratio >= 1:
        return "unhurt"
    if ratio > 0.5:
        return "hurt"
    return "badly hurt"


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def wounds_text(mode: str, view: dict[str, Any], c: Any) -> str:
    if mode == "none":
        return ""
    hp = _hp(view, c)
    if hp is None:
        # a game without hit points (range-band) still says the fallen, as the map does (a GM's play-through: the
        # dead and the incapacitated listed plainly in the order of play)
        return "down" if any(w in c.conditions for w in DOWN) else ""
    cur, mx = hp
    if mode == "exact":
        return f"HP {_num(cur)}" + (f" / {_num(mx)}" if mx is not None else "")
    if any(w in c.conditions for w in DOWN):
        return "down"  # as the map draws them (seen_states): unconscious with HP left is not "badly hurt"
    return describe(cur, mx)


# What anyone at the table sees of a combatant's state, in the players' words: someone lying still
# (dead, dying, unconscious, incapacitated: the players cannot tell which) or on the ground.
DOWN = ("dead", "dying", "unconscious", "incapacitated")


def seen_states(c: Any, enc: Encounter | None = None) -> list[str]:
    """``DOWN`` as "down", prone, then what the game's map rule says anyone sees (``MapRule.seen_states``:
    range-band's "knocked down")."""
    out = ["down"] if any(w in c.conditions for w in DOWN) else []
    if "prone" in c.conditions:
        out.append("prone")
    if enc is not None:
        try:
            out += [w for w in rule_for(enc.ruleset).seen_states(enc, c) if w not in out]
        except (KeyError, TypeError, AttributeError):  # a ruleset's data not in the shape expected
            pass
    return out


def lying(c: Any, enc: Encounter) -> bool:
    """Drawn on the ground, as the GM's map draws it (``MapRule.lying``)."""
    try:
        return bool(rule_for(enc.ruleset).lying(enc, c))
    except (KeyError, TypeError, AttributeError):
        return "prone" in c.conditions


def _current(enc: Encounter, view: dict[str, Any], order: list[Any]) -> str | None:
    """Who acts now: the ruleset's own word where its view says (``current``: an id, or None where
    nobody acts, as while tactical-round's combatants declare; or the entry of ``order``/``acting``
    marked current), else the turn of the order of play."""
    if enc.phase == "setup":
        return None
    if "current" in view and (view["current"] is None or isinstance(view["current"], str)):
        return view["current"]
    for key in ("acting", "order"):
        rows = view.get(key)
        if isinstance(rows, list):
            for r in rows:
                if isinstance(r, dict) and r.get("current") is True and isinstance(r.get("combatant"), str):
                    return r["combatant"]
    if 0 <= enc.turn < len(order):
        return order[enc.turn].combatant_id
    return None


def _phase_label(enc: Encounter, view: dict[str, Any], hidden: set[str]) -> str:
    """The round bar's words, as the GM's: a game may name whose turn it is ("Movement phase: Sneak");
    a hidden combatant's name is never shown, so on a hidden one's turn the players read the phase alone."""
    label = view.get("phase_label") if isinstance(view.get("phase_label"), str) else ""
    names = [c.name for c in enc.combatants if c.id in hidden and c.name]
    if any(n in label for n in names):
        label = label.split(":", 1)[0].strip()
        if any(n in label for n in names):
            label = ""
    return label


def project(enc: Encounter, view: dict[str, Any], order: list[Any],
            waiting: list[str] | None = None) -> dict[str, Any]:
    """What the players' window shows. ``order`` is the ruleset's order of play (``Slot``s with
    ``combatant_id``); ``waiting`` (``Ruleset.still_to_act``): who has yet to act, empty when nobody
    acts now (strike-rank declarations). Hidden combatants are dropped from every part of the result."""
    view = view if isinstance(view, dict) else {}
    hidden = hidden_ids(enc, view)
    mode = settings(enc)["wounds"]
    # nobody "Now" while nobody acts, as the GM's strip (a players' window read "Now: Human warrior"
    # while the strike-rank combatants were still declaring)
    current = None if waiting == [] else _current(enc, view, order)
    seen: list[str] = []
    for s in order:
        cid = s.combatant_id
        if cid not in hidden and cid not in seen and enc.get(cid) is not None:
            seen.append(cid)
    # everyone in the fight, as the GM's strip shows them (render.strip_entries): those with a place
    # in the order first, then the rest in the encounter's order. The order of play of a game that
    # declares first (strike-rank) holds only who has declared: the players saw one name of six.
    seen += [c.id for c in enc.combatants if c.id not in hidden and c.id not in seen]
    combatants = []
    for c in enc.combatants:
        if c.id in hidden:
            continue
        combatants.append({"id": c.id, "name": c.name, "side": c.side,
                           "wounds": wounds_text(mode, view, c),
                           "x": c.position.x, "y": c.position.y, "alt": c.position.alt,
                           "states": seen_states(c, enc), "lying": lying(c, enc)})
    return {
        "name": enc.name,
        "round": enc.round,
        "phase": enc.phase,
        "phase_label": _phase_label(enc, view, hidden),
        "wounds": mode,
        "order": [{"id": cid, "name": enc.get(cid).name, "current": cid == current} for cid in seen],
        "current": current if current not in hidden else None,
        "combatants": combatants,
        "areas": [{"ref": a.ref, "label": a.label, "style": a.style, "x": a.x, "y": a.y, "radius": a.radius}
                  for a in scene_areas(enc)],
    }
