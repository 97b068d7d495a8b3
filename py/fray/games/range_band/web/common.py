"""What the range-band panel's parts share: the games' words for light, stealth and phases, the
flags of the forms, and the small helpers that draw a tick box, an error slot or a list of combatants."""

from __future__ import annotations

from typing import Any

from fray.web import odds_view, widgets
from fray.web.html import Markup, h, trusted


LIGHT_TEXT = {"none": "No Light", "low": "Low Light", "medium": "Medium Light", "high": "High Light"}


STEALTH_TEXT = {"low": "Low Stealth", "medium": "Medium Stealth", "high": "High Stealth"}


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


# The shared widgets (web/widgets.py) escape every text and attribute they are given, so what they return is
# markup, safe by how it was made: each is taken as Markup here, once, for the range-band page's builders.

def _btn(label: str, act: str, cls: str = "", aria: str | None = None, **data: Any) -> Markup:
    return trusted(widgets.act_button(label, act, cls, aria, **data))  # widgets escape their text


def _err(name: str) -> Markup:
    return trusted(widgets.err_slot(name))  # widgets escape their text


def _field(fid: str, name: str, label: str, control: Markup, hint: str = "", cls: str = "") -> Markup:
    return trusted(widgets.field(fid, name, label, fragment_of(control), hint, cls))  # widgets escape their text


def _select(fid: str, name: str, options: Any, selected: Any = None) -> Markup:
    return trusted(widgets.select(fid, name, options, selected))  # widgets escape their text


def _input(fid: str, name: str, value: Any = "", mode: str = "numeric", placeholder: str = "") -> Markup:
    return trusted(widgets.text_input(fid, name, value, mode, placeholder))  # widgets escape their text


def _fold_open(cls: str, key: str, open_: bool) -> Markup:
    return trusted(widgets.fold_open(cls, key, open_))  # widgets escape their text


def _lazy_fold(cls: str, key: str, summary: str, body: Any, open_: bool, drawn: bool) -> Markup:
    # the summary is a constant line of ours; the body is built here (Markup), handed over as a plain str
    # (widgets join plain strs: ``str + Markup`` would escape the str); widgets escape the rest
    return trusted(widgets.lazy_fold(cls, key, summary, lambda: str(fragment_of(body())), open_, drawn))


def _odds_slot() -> Markup:
    return trusted(odds_view.slot())  # a constant box of ours


def fragment_of(markup: Markup) -> Markup:
    """Markup as it is; a plain string here would be a builder that forgot to return Markup: refused, so
    nothing of ours is ever written unescaped by mistake."""
    if not isinstance(markup, Markup):
        raise TypeError(f"markup expected, got {type(markup).__name__}")
    return markup


def _check(fid: str, name: str, label: str, checked: bool = False) -> Markup:
    return trusted(widgets.check(fid, name, label, checked, "rb-check"))  # widgets escape their text


def _general_err() -> Markup:
    return trusted(widgets.general_err("rb"))  # widgets escape their text


def _g(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def _preview_slot() -> Markup:
    """Where the live roll-specification preview of a form goes (filled by ``odds_view.refresh`` through
    ``RangeBandPanel.odds`` as the GM changes the options; nothing is sent)."""
    return h("div", {"class": "rb-preview", "aria-live": "polite"}, _odds_slot())


def _id_checks(view: dict[str, Any], pre: str, name: str, label: str, skip: str, only_able: bool = False) -> Markup:
    """Checkboxes ``name.<id>`` for a list of combatants, with one error slot ``name``."""
    boxes = [_check(f"{pre}-{c['id']}", f"{name}.{c['id']}", c["name"])
             for c in view.get("combatants", []) if c["id"] != skip]
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
