"""What the range-band panel's parts share: the games' words for light, stealth and phases, the
flags of the forms, and the small helpers that draw a tick box, an error slot or a list of combatants."""

from __future__ import annotations

from typing import Any

from fray.web import odds_view, widgets
from fray.web.blocks import Block
from fray.web.html import Markup, h


LIGHT_TEXT = {"none": "No Light", "low": "Low Light", "medium": "Medium Light", "high": "High Light"}


STEALTH_TEXT = {"low": "Low Stealth", "medium": "Medium Stealth", "high": "High Stealth"}


def ref_chip(ref: str) -> Markup:
    """A roll's, note's or area's label as the screen says it ("Roll R1", "Area A2": ``ref_words``)."""
    from fray.games.range_band import RangeBand
    from fray.web.html import html
    from fray.web.render import ref_text

    return html('<span class="rb-ref">{}</span>', ref_text(ref, RangeBand.ref_words))


PHASES = (("setup", "Setup"), ("movement", "Movement phase"), ("actions", "Action phase"), ("ended", "Battle over"))


DICE = ("d20", "d12", "d10", "d6")


ROLL_STATS = ("DEX", "CON", "INT", "SPD")


MOVE_FLAGS = (("rush", "Rush"), ("cautious", "Cautious (unseen area, +2 Hindrance, no knockdown risk)"),
              ("drop_high_stealth", "Without the High Stealth Hindrance (drops to Medium)"),
              ("outnumbered", "Outnumbered"), ("unseen_area", "Through an area they can't see"),
              ("dense_smoke", "Through dense smoke"))


ATTACK_FLAGS = (("unexpected", "Unexpected (thought to be an ally)"), ("emits_light", "Emits notable light"),
                ("aoe", "AoE"))


ADD_TRAITS = (
    ("kind", "Kind", ("sentient", "tech", "animal")),
    ("amphibious", "Amphibious", ("no", "breathes", "holds")),
    ("vision", "Vision", ("normal", "shadow", "echolocation", "thermal", "darkeye", "clairvoyance")),
    ("light", "Light carried", ("none", "dim", "moderate", "bright", "extreme")),
    ("armor_noise", "Armour noise", ("low", "medium", "high")),
    ("stealth", "Stealth level at the start", ("low", "medium", "high")),
)


# The shared widgets (web/widgets.py) with the range-band page's classes: each returns Markup, escaping
# every text it is given; a control or a fold-out's body passes only as Markup (a plain str is text).

def _btn(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    return widgets.act_button(label, act, cls, aria, **data)


def _err(name: str) -> Markup:
    return widgets.err_slot(name)


def _field(fid: str, name: str, label: str, control: Markup, hint: str = "", cls: str = "") -> Markup:
    return widgets.field(fid, name, label, control, hint, cls)


def _select(fid: str, name: str, options: Any, selected: Any = None) -> Markup:
    return widgets.select(fid, name, options, selected)


def _input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return widgets.text_input(fid, name, value, mode, placeholder)


def _fold_open(cls: str, key: str, open_: bool) -> Markup:
    return widgets.fold_open(cls, key, open_)


def _lazy_fold(cls: str, key: str, summary: str, body: Any, open_: bool, drawn: bool) -> Markup:
    return widgets.lazy_fold(cls, key, summary, body, open_, drawn)


def _odds_slot() -> Block:
    return odds_view.slot()


def _check(fid: str, name: str, label: str, checked: bool = False) -> Markup:
    return widgets.check(fid, name, label, checked, "rb-check")


def _general_err() -> Markup:
    return widgets.general_err("rb")


def _g(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _preview_slot() -> Markup:
    """Where the live roll-specification preview of a form goes (filled by ``odds_view.refresh`` through
    ``RangeBandPanel.odds`` as the GM changes the options; nothing is sent)."""
    return h("div", {"class": "rb-preview", "aria-live": "polite"}, _odds_slot())


def _id_checks(view: dict[str, Any], pre: str, name: str, label: str, skip: str, only_able: bool = False,
               foes_only: bool = False) -> Markup:
    """Checkboxes ``name.<id>`` for a list of combatants, with one error slot ``name``: all but ``skip``;
    ``only_able``: none out of the fight; ``foes_only``: only those on another side than ``skip``'s."""
    everyone = view.get("combatants", [])
    side = next((c.get("side") for c in everyone if c["id"] == skip), None)
    boxes = [_check(f"{pre}-{c['id']}", f"{name}.{c['id']}", c["name"])
             for c in everyone if c["id"] != skip and not (only_able and c.get("out"))
             and not (foes_only and c.get("side") == side)]
    return h("fieldset", {"class": "rb-ids", "data-field": name}, h("legend", None, label),
             h("div", {"class": "rb-row"}, boxes), _err(name))


def checked_ids(values: dict[str, Any], name: str) -> list[str]:
    """The ids whose ``name.<id>`` box is ticked, in the form's order."""
    head = name + "."
    return [k[len(head):] for k, v in values.items() if k.startswith(head) and v]


def _lazy_state(ui: dict[str, Any] | None, key: str) -> tuple[bool, bool]:
    """(open, drawn) of a lazy fold-out, as ``RangeBandPanel.lazy_folds`` left them; no ``ui``: drawn."""
    if ui is None:
        return False, True
    return key in ui.open, key in ui.drawn


MORE = {
    # form kind -> (action type, title, [(field, label, control kind)])
    "grapple": ("rb.grapple", "Grapple", [("target", "Target", "other"),
                                          ("mismatched_flying_ok", "Mismatched grapple, larger one flying", "check"),
                                          ("override", "Beyond engaged range? The GM's reason (kept in the log)",
                                           "text")]),
    "release": ("rb.release", "Release a grapple", [("target", "Grappled with", "other")]),
    "touch": ("rb.touch", "Touch an ally", [("ally", "Ally", "other")]),
    "light": ("rb.light", "Carry a light", [("light", "Light source", "light")]),
    "noise": ("rb.noise", "Make a noise", [("audible", "Audible at", "band"), ("deafen", "It deafens", "check")]),
    "cannot_see": ("rb.cannot_see", "Cannot see (cloaking: by hand)", [("target", "Whom", "other"),
                                                                     ("on", "Cannot see them", "check-on")]),
    "restart": ("rb.restart_breathing", "Restart someone's breathing", [("target", "Whom", "other")]),
    "teleport": ("rb.teleport", "Teleport", [("x", "East (x, m)", "num"), ("y", "North (y, m)", "num"),
                                             ("alt", "Altitude (m)", "num"), ("range", "Range", "band"),
                                             ("precision", "Precision", "precision"), ("size", "Action", "size"),
                                             ("bring", "Bring along", "ids"),
                                             ("attached", "Attached to them (low precision takes them too)", "ids")]),
}
