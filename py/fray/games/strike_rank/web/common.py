"""What the parts of the strike-rank panel share: the option lists the forms offer, a labelled
field, a tick box in a field of its own, fold-outs that stay open across re-renders, who is who."""

from __future__ import annotations

from typing import Any, Callable

from fray.web.blocks import Block
from fray.web import widgets
from fray.web.html import Markup, block, h, html

__all__ = ["_btn", "_err", "_select", "_input"]  # shared by the other parts

DECLARE_KINDS = (("melee", "Melee attack"), ("missile", "Missile attack"), ("spell", "Cast a spell"),
                 ("move", "Move"), ("defend", "Parry / dodge only"), ("reload", "Reload"), ("other", "Other"))
MODES = (("normal", "Normal"), ("aimed", "Aimed (½ skill)"), ("attack_weapon", "Attack weapon (½)"),
         ("disarm", "Disarm (½)"), ("stun", "Stun (½)"), ("push", "Push"), ("grapple", "Grapple"),
         ("attack_object", "Attack object"))
DEFENCES = (("parry", "Parry"), ("dodge", "Dodge"), ("none", "None"))
INJURY_LABEL = {"none": "unhurt", "minor": "minor", "serious": "serious", "maimed": "maimed",
                "mangled": "mangled", "severed": "severed"}
PHASE_LABEL = {"setup": "Setting up", "declare": "Declare", "resolve": "Resolve", "end": "End of round"}
EXCHANGE_KINDS = ("attack", "location", "damage_roll", "damage", "injury", "parry", "weapon", "knockback",
                  "fumble", "impale", "death", "unconscious", "critical", "special")
ROLLS = (("attack", "Attack d100"), ("defence", "Defence d100"), ("location", "Location d20"),
         ("damage", "Damage dice"))
CASTING_ROLLS = (("concentration_defence", "INT×3 if defending d100"), ("wound.concentration", "INT×3 if hurt d100"))
WATER = (("none", "No water"), ("waist", "Waist-deep"), ("armpits", "Armpit-deep"), ("under", "Underwater"))
INTO_MELEE = (("", "Auto (from the map)"), ("yes", "Yes (½)"), ("no", "No"))
HEAL_KINDS = (("heal", "Heal (battle magic)"), ("rune", "Healing rune magic"))
# Natural Healing goes day by day: a week is seven days, a season 56 (assumed: the text does not say)
PERIODS = (("day", "A day"), ("week", "A week (7 days)"), ("season", "A season (56 days, assumed)"))
DISENGAGE = (("outnumbered", "Outnumbering (free)"), ("retreat", "Fighting retreat"), ("flee", "Flee"))
GRAPPLE_OPTIONS = (("immobilize", "Immobilize (STR vs STR)"), ("choke", "Choke (STR vs CON)"),
                   ("damage", "Damage (STR vs STR)"), ("drag", "Drag (STR vs SIZ)"), ("throw", "Throw (STR vs SIZ)"),
                   ("break", "Break a hold (STR vs STR)"), ("release", "Release"))
GRAPPLE_ROLLS = (("resistance", "Resistance d100"), ("damage", "Damage 1D3+DM"), ("throw_dex", "Throw DEX d100"),
                 ("throw_damage", "Throw 1D6"), ("throw_location", "Throw location d20"))
UNSTICK_BODY = (("first_aid", "First Aid (healer)"), ("con", "CON×3% (the impaled)"), ("wrench", "STR vs STR wrench"))
UNSTICK_SHIELD = (("str", "STR×3%"), ("wrench", "STR vs STR wrench"), ("break", "Break it"))
PROMPT_ROLLS = {"impaled": (("impale_damage", "Weapon damage dice"),),
                "unstick": (("pull", "Pull d100"),),
                "collision": (("collision_dex", "DEX d100"), ("collision", "Collision dice"),
                              ("collision_location", "Location d20")),
                "stray": (("damage", "Damage dice"), ("location", "Location d20")),
                "fumble": (("fumble", "Fumble d100"),),
                "grapple_weapon": (("resistance", "STR vs STR d100"),)}


def _one_die() -> dict[str, int]:
    """The roll fields that take one die, by roll name, with its sides: from their labels ("Attack
    d100", "Location d20"), so a field's label and its error say the same die."""
    out = {}
    for name, label in (*ROLLS, *CASTING_ROLLS, *GRAPPLE_ROLLS, *(r for rs in PROMPT_ROLLS.values() for r in rs)):
        head, _, die = label.rpartition(" d")
        if head and die.isdigit():
            out[name] = int(die)
    return out


# roll name → sides of its one die; ``bleed.<id>.<location>``, the end of the MR's CON tests, are d100s too
ONE_DIE = _one_die()



# fray.web.widgets (shared by every game) with this game's classes: each returns Markup, escaping every
# text it is given; a control handed to ``widgets.field`` passes only as Markup (a plain str is text).

def _btn(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    return widgets.act_button(label, act, cls, aria, **data)


def _err(name: str) -> Markup:
    return widgets.err_slot(name)  # remembered by its name (widgets' memo)


def _select(fid: str, name: str, options: Any, selected: Any = None) -> Markup:
    return widgets.select(fid, name, options, selected)


def _input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return widgets.text_input(fid, name, value, mode, placeholder)


def _field(fid: str, name: str, label: str, control: Markup, cls: str = "") -> Markup:
    return widgets.field(fid, name, label, control, cls=cls)


def _check(fid: str, name: str, label: str, checked: bool = False) -> Markup:
    """A tick box in a field of its own, with its error slot (the engine names a bad flag by its field)."""
    box = widgets.check(fid, name, label, checked, "sr-check")
    return html('<div class="field sr-checkfield" data-field="{}">{}{}</div>', name, box, _err(name))


def _fold(cls: str, key: str, summary: Any, body: Any, ui: Any, default_open: bool = False,
          aria: str = "", odds_lazy: bool = False, lazy: bool = False, was_lazy: bool = False) -> Markup:
    """A fold-out that stays open (or shut) across re-renders: ``ui.open`` holds each
    fold-out's state as the page showed it just before the render ({key: open}). ``lazy``: its
    body is drawn only once it opens (``data-fold-lazy``: the panel renders on that toggle).
    ``was_lazy``: the same fold-out drawn with its body; its summary keeps the id the lazy one
    had, so the render that draws the body gives the keyboard's focus back to it. ``summary`` and
    ``body``: text (escaped) or markup."""
    return h("details", _fold_attrs(cls, key, ui, default_open, odds_lazy, lazy, drawn=was_lazy),
             _summary(summary, aria, key if lazy or was_lazy else ""), body)


def _lazy_fold(cls: str, key: str, summary: Any, body: Callable[[], Markup], ui: Any,
               default_open: bool = False, aria: str = "") -> Markup:
    """A fold-out drawn without its body until it first opens (``data-fold-lazy``: the page renders
    on that toggle) and kept drawn while it is on the page (``ui.opened``), so what the GM
    typed stays. ``body`` is called only when it is drawn."""
    if not ((ui.open.get(key, default_open) or key in ui.opened) if ui else default_open):
        return _fold(cls, key, summary, "", ui, default_open, aria=aria, lazy=True)
    return _fold(cls, key, summary, body(), ui, default_open, aria=aria, was_lazy=True)


def _fold_block(cls: str, key: str, summary: Any, body: list[Any], ui: Any,
                default_open: bool = False, aria: str = "") -> Block:
    """``_fold`` as a Block (web/blocks.py) whose children are its summary and each element of
    ``body``, so the painter rewrites only the parts of a long fold-out that changed."""
    return block("details", _fold_attrs(cls, key, ui, default_open), [_summary(summary, aria), *body])


def _fold_attrs(cls: str, key: str, ui: Any, default_open: bool, odds_lazy: bool = False,
                lazy: bool = False, drawn: bool = False) -> dict[str, Any]:
    """A fold-out's attributes (as ``widgets.fold_open`` writes them). ``odds_lazy``: the odds of a
    form inside are worked out when it opens (web/odds_view.py). ``drawn``: a fold-out that could
    be drawn empty holds its body (``data-fold-drawn``): the panel keeps it drawn while it is on the
    page, also when it opened by itself and was shut before any render saw it open (a free
    attack's Circumstances, a held combatant's grapple)."""
    is_open = ui.open.get(key, default_open) if ui else default_open
    widgets.fold_seen(key, is_open, drawn)  # the render learns how it drew it (fray.web.uistate)
    return {"class": cls, "data-fold": key, "data-odds-lazy": odds_lazy, "data-fold-drawn": drawn,
            "data-fold-lazy": lazy, "open": bool(is_open)}


def _summary(summary: Any, aria: str, key: str = "") -> Markup:
    return h("summary", {"id": f"fold-{key}" if key else None, "aria-label": aria or None}, summary)


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {cid: c["name"] for cid, c in view.get("combatants", {}).items()}


def injury_class(level: str) -> str:
    return "inj-" + (level if level in INJURY_LABEL else "none")



def _others(names: dict[str, str], cid: str):
    return [(o, n) for o, n in names.items() if o != cid]


def dead_ids(view: dict[str, Any]) -> frozenset[str]:
    """Who is dead: no target to offer ("Dead characters cannot do anything"; "A combatant may be
    forced to change actions, e.g. if the target of their attack dies")."""
    return frozenset(cid for cid, c in view.get("combatants", {}).items() if c.get("status") == "dead")


def _first_enemy(view: dict[str, Any], cid: str) -> str:
    """The default target: the nearest standing enemy on the map (issue 32: "A default target is the
    nearest living enemy on the map, never an ally"); "" when no enemy stands."""
    return _first_enemies(view).get(cid, "")


# the last answer of ``_first_enemies``, by what it is made of (sides, who stands, where)
_NEAREST: list[Any] = [None, {}]


def _first_enemies(view: dict[str, Any]) -> dict[str, str]:
    """``_first_enemy`` of every combatant: the nearest enemy who is not dead, unconscious or
    incapacitated, by distance on the map, then in the encounter's order; "" for one with none. Worked
    out again only when a side, a fall or a position changed (each render of the declarations asks)."""
    cs = view.get("combatants", {})
    key = tuple((cid, c.get("side"), c.get("status", "ok"), tuple(c.get("at") or (0, 0))) for cid, c in cs.items())
    if _NEAREST[0] == key:
        return _NEAREST[1]
    standing = [(cid, side, at) for cid, side, status, at in key if status == "ok"]
    out = {}
    for cid, side, _, at in key:
        best, far = "", None
        for o, oside, oat in standing:
            if oside == side or o == cid:
                continue
            d = (oat[0] - at[0]) ** 2 + (oat[1] - at[1]) ** 2
            if far is None or d < far:
                best, far = o, d
        out[cid] = best
    _NEAREST[0], _NEAREST[1] = key, out
    return out
