"""The strike-rank panel: declare (SR with its breakdown), resolve SR by SR with one attack
panel per exchange, the end-of-round prompts, and on each card total HP, a body diagram,
derived values, weapons, a GM damage control and First Aid.

Rendering is pure (``panel_html``, ``card_html`` take the ruleset's ``view()`` plus plain data
and return HTML strings; every piece of user text goes through ``esc``). The handlers read a
form, build ONE ``sr.*`` action and call ``app.dispatch(action, form)``. Every control's
``name`` is the engine's field path (``kind``, ``defence.weapon``, ``rolls.attack``) beside a
``data-error-for`` slot of the same name, so an engine error lands next to the control.

Dice: a roll field left blank is rolled by Fray; typed, it is whole numbers ("8 4" = the faces
[8, 4]; one number for a d100 or a d20). Text that is not whole numbers shows an error at that
field and changes nothing; a number out of the die's range is refused by the engine, also at
that field.
"""

from __future__ import annotations

from typing import Any

from . import odds_view
from .render import esc
from .widgets import (act_button as _btn, as_int, as_number, err_slot as _err, fold_extra, open_add_section,
                      text_input as _input)

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
CURRENT = ' aria-current="step"'
ROLLS = (("attack", "Attack d100"), ("defence", "Defence d100"), ("location", "Location d20"),
         ("damage", "Damage dice"))
CASTING_ROLLS = (("concentration_defence", "INT×3 if defending d100"), ("wound.concentration", "INT×3 if hurt d100"))
WATER = (("none", "No water"), ("waist", "Waist-deep"), ("armpits", "Armpit-deep"), ("under", "Underwater"))
INTO_MELEE = (("", "Auto (from the map)"), ("yes", "Yes (½)"), ("no", "No"))
HEAL_KINDS = (("heal", "Heal (battle magic)"), ("rune", "Healing rune magic"))
PERIODS = (("day", "Day (minor, serious)"), ("week", "Week (maimed)"), ("season", "Season (mangled)"))
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


# -- small pure helpers --------------------------------------------------------------------------

def parse_dice(text: Any) -> Any:
    """"8 4" / "8,4" → [8, 4]; "57" → 57; blank → None (Fray rolls). ValueError otherwise."""
    parts = [p for p in str(text or "").replace(",", " ").split() if p]
    if not parts:
        return None
    out = []
    for p in parts:
        if not p.isdigit():
            raise ValueError(p)
        out.append(int(p))
    return out[0] if len(out) == 1 else out


def _field(fid: str, name: str, label: str, control: str, cls: str = "") -> str:
    return (f'<div class="field{" " + cls if cls else ""}" data-field="{esc(name)}"><label for="{esc(fid)}">'
            f'{esc(label)}</label>{control}{_err(name)}</div>')


def _select(fid: str, name: str, options: list[tuple[str, str]], selected: Any = None) -> str:
    opts = "".join(f'<option value="{esc(v)}"{" selected" if str(selected) == str(v) else ""}>{esc(t)}</option>'
                   for v, t in options)
    return f'<select id="{esc(fid)}" name="{esc(name)}">{opts}</select>'


def _check(fid: str, name: str, label: str, checked: bool = False) -> str:
    return (f'<div class="field sr-checkfield" data-field="{esc(name)}"><label class="sr-check" for="{esc(fid)}">'
            f'<input type="checkbox" id="{esc(fid)}" name="{esc(name)}"{" checked" if checked else ""}> '
            f'{esc(label)}</label>{_err(name)}</div>')


def _fold(cls: str, key: str, summary: str, body: str, ui: dict[str, Any] | None, default_open: bool = False,
          aria: str = "") -> str:
    """A fold-out that stays open (or shut) across re-renders: ``ui["sr_open"]`` holds each
    fold-out's state as the page showed it just before the render ({key: open})."""
    is_open = (ui or {}).get("sr_open", {}).get(key, default_open)
    al = f' aria-label="{esc(aria)}"' if aria else ""
    return (f'<details class="{esc(cls)}" data-fold="{esc(key)}"{" open" if is_open else ""}><summary{al}>{summary}'
            f'</summary>{body}</details>')


def _names(view: dict[str, Any]) -> dict[str, str]:
    return {cid: c["name"] for cid, c in view.get("combatants", {}).items()}


def injury_class(level: str) -> str:
    return "inj-" + (level if level in INJURY_LABEL else "none")


# -- the panel above the cards ------------------------------------------------------------------

def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               log: list[tuple[str, str]] | None = None) -> str:
    """The whole strike-rank section. ``log`` is the encounter's log as (kind, text) pairs."""
    if not view or view.get("ruleset") != "strike-rank":
        return ""
    ui = ui or {}
    log = log or []
    phase = view.get("phase", "setup")
    head = PHASE_LABEL.get(phase, phase)
    if phase == "resolve":
        head = f"Resolve SR {view.get('sr', 0)}"
    parts = ['<section class="sr-panel" aria-label="Strike ranks">',
             f'<h2 class="sr-phase">Melee Round {esc(view.get("round", 1))}: <span>{esc(head)}</span></h2>',
             '<p class="field-error sr-form-error" data-error-for="sr"></p>']
    if phase == "setup":
        parts.append('<p class="hint">Add the combatants, then press <strong>Start the fight</strong> '
                     'to declare the first Melee Round.</p>')
    if phase == "declare":
        parts.append(declare_html(view))
    if phase == "resolve":
        parts.append(order_html(view, ui))
        change = ui.get("sr_change")
        if change:
            parts.append(change_html(view, change))
        parts.append(current_html(view, ui))
    if phase in ("resolve", "end", "declare"):
        parts.append(exchange_html(log))
    if phase == "end" or view.get("prompts"):
        parts.append(end_html(view, log))
    free = ui.get("sr_free")
    if free and free.get("prompt") in {p.get("id") for p in view.get("prompts", [])}:
        parts.append(free_attack_html(view, free, ui))
    parts.append("</section>")
    return "".join(parts)


SUBMIT_LABEL = {"sr-abort": "Abort and do this"}


def declare_form(cid: str, c: dict[str, Any], names: dict[str, str], form: str = "sr-declare",
                 ref: str = "", preset: dict[str, Any] | None = None) -> str:
    """Kind, weapon, target, metres, running, spell → one ``sr.declare`` (or ``sr.change``)."""
    p = preset or {}
    pre = f"sr-{form}-{cid}" + (f"-{ref}" if ref else "")
    weapons = [(w["id"], f'{w["name"]} SR {w["melee_sr"]["value"]}' + ("" if w["usable"] else " (unusable)"))
               for w in c.get("weapons", [])]
    targets = [("", "(none)")] + [(o, n) for o, n in names.items() if o != cid]
    enemy = next((o for o, oc in _others(names, cid)), "")
    spells = [("", "(none)")] + [(s["id"], f'{s["name"]} SR {s["sr"]["value"]}') for s in c.get("spells", [])]
    ref_attr = f' data-ref="{esc(ref)}"' if ref else ""
    who = c["name"]
    title = (f"Abort {ref} of {who} and" if form == "sr-abort" else f"Change {ref} of {who}") if ref else f"Declare for {who}"
    return (
        f'<form class="sr-declare" data-form="{esc(form)}" data-id="{esc(cid)}"{ref_attr} novalidate '
        f'aria-label="{esc(title)}">'
        f'<div class="sr-row">'
        + _field(pre + "-kind", "kind", "Action", _select(pre + "-kind", "kind", list(DECLARE_KINDS),
                                                          p.get("kind", "melee")))
        + _field(pre + "-weapon", "weapon", "Weapon", _select(pre + "-weapon", "weapon", [("", "(none)")] + weapons,
                                                              p.get("weapon", weapons[0][0] if weapons else "")))
        + _field(pre + "-target", "target", "Target", _select(pre + "-target", "target", targets,
                                                              p.get("target", enemy)))
        + _field(pre + "-metres", "metres", "Metres", _input(pre + "-metres", "metres", p.get("metres", ""),
                                                             "decimal", "from map"))
        + (_field(pre + "-spell", "spell", "Spell", _select(pre + "-spell", "spell", spells, p.get("spell", "")))
           if len(spells) > 1 else "")
        + _check(pre + "-running", "running", "Running", bool(p.get("running")))
        + f'<button type="submit" class="primary">{esc(SUBMIT_LABEL.get(form, "Change" if ref else "Declare"))}</button>'
        f'</div>{_err("sr")}</form>')


def _others(names: dict[str, str], cid: str):
    return [(o, n) for o, n in names.items() if o != cid]


def declare_html(view: dict[str, Any]) -> str:
    names = _names(view)
    rows = []
    for cid, c in view.get("combatants", {}).items():
        decl = [a for a in c.get("declared", []) if a.get("status") == "declared"]
        items = "".join(
            f'<li class="sr-decl"><span class="sr-badge">SR {esc(a["sr"])}</span> '
            f'<span class="sr-what">{esc(action_label(a, names, c))}</span> '
            f'<span class="sr-text">{esc(a["text"])}</span> '
            + _btn("Undeclare", "sr-undeclare", "small secondary", f'Undeclare {a["ref"]} of {c["name"]}',
                   ref=a["ref"], id=cid)
            + "</li>" for a in decl)
        status = "" if c.get("status") == "ok" else f' <span class="sr-status">{esc(c["status"])}</span>'
        rows.append(f'<div class="sr-who" data-id="{esc(cid)}"><h3>{esc(c["name"])}{status}</h3>'
                    f'<ul class="sr-decls" aria-label="Declared by {esc(c["name"])}">{items}</ul>'
                    f'{declare_form(cid, c, names)}</div>')
    if not rows:
        return '<p class="hint">No combatants yet.</p>'
    return ('<div class="sr-declare-list"><p class="hint">Declare each combatant\'s actions, then press '
            '<strong>Next</strong> to resolve them by strike rank.</p>' + "".join(rows) + "</div>")


def action_label(a: dict[str, Any], names: dict[str, str], c: dict[str, Any] | None = None) -> str:
    kind = dict(DECLARE_KINDS).get(a.get("kind", ""), a.get("kind", ""))
    bits = [kind]
    if a.get("weapon"):
        wname = next((w["name"] for w in (c or {}).get("weapons", []) if w["id"] == a["weapon"]), a["weapon"])
        bits.append(f"with {wname}")
    if a.get("spell"):
        bits.append(str(a["spell"]))
    if a.get("target"):
        bits.append(f"→ {names.get(a['target'], a['target'])}")
    if a.get("metres"):
        bits.append(f"{a['metres']:g} m" if isinstance(a["metres"], (int, float)) else str(a["metres"]))
    return " ".join(bits)


def order_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    names = _names(view)
    items = []
    for o in view.get("order", []):
        cur = bool(o.get("current"))
        c = view.get("combatants", {}).get(o["combatant"], {})
        items.append(
            f'<li class="{"current" if cur else ""}"{CURRENT if cur else ""} data-ref="{esc(o["ref"])}">'
            f'<span class="sr-badge">SR {esc(o["sr"])}</span> <strong>{esc(o["name"])}</strong> '
            f'<span class="sr-what">{esc(action_label(o, names, c))}</span> '
            f'<span class="sr-text">{esc(o["text"])}</span>'
            + _btn("Change…", "sr-change-open", "small secondary", f'Change {o["ref"]} of {o["name"]}',
                   ref=o["ref"], id=o["combatant"])
            + (abort_html(o, c, names, ui) if o.get("kind") in ABORTABLE and c else "")
            + "</li>")
    if not items:
        return '<p class="hint">No actions left this Melee Round: press <strong>Next</strong> to end it.</p>'
    return (f'<ol class="sr-order" aria-label="Strike rank order">{"".join(items)}</ol>'
            f'<p class="hint">{esc(view.get("order_key", ""))}</p>')


ABORTABLE = ("spell", "reload", "other")


def abort_html(o: dict[str, Any], c: dict[str, Any], names: dict[str, str], ui: dict[str, Any] | None = None) -> str:
    """"Abort and …" beside a prolonged action: the new action, delayed by DEX SR from now (``sr.abort``)."""
    return _fold("sr-fold sr-abort", "abort-" + str(o["ref"]), "Abort and …",
                 declare_form(o["combatant"], c, names, "sr-abort", o["ref"], {"kind": "defend"}), ui,
                 aria=f'Abort {o["ref"]} of {o["name"]} and do something else')


def change_html(view: dict[str, Any], ref: str) -> str:
    names = _names(view)
    for cid, c in view.get("combatants", {}).items():
        for a in c.get("declared", []):
            if a["ref"] == ref and a.get("status") == "declared":
                return (f'<div class="sr-box sr-change"><h3>Change {esc(ref)} of {esc(c["name"])} '
                        f'(delayed by DEX SR)</h3>{declare_form(cid, c, names, "sr-change", ref, a)}'
                        + _btn("Cancel", "sr-change-cancel", "small secondary", "Cancel the change") + "</div>")
    return ""


def current_html(view: dict[str, Any], ui: dict[str, Any]) -> str:
    """The action(s) at the current SR: an attack form for attacks, a Resolve button otherwise."""
    out = []
    for o in view.get("order", []):
        if not o.get("current"):
            continue
        if o["kind"] in ("melee", "missile"):
            out.append(attack_html(view, o, ui))
        else:
            out.append(f'<div class="sr-box sr-resolve"><p><strong>{esc(o["name"])}</strong>: '
                       f'{esc(action_label(o, _names(view), view["combatants"].get(o["combatant"])))} '
                       f'({esc(o["text"])})</p>'
                       + _btn(f"Resolve {o['name']}'s action", "sr-resolve", "primary", None, ref=o["ref"])
                       + "</div>")
    return "".join(out)


def attack_html(view: dict[str, Any], o: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    cs = view.get("combatants", {})
    attacker = cs.get(o["combatant"], {})
    names = _names(view)
    tid = o.get("target") or next((x for x, _ in _others(names, o["combatant"])), "")
    target = cs.get(tid, {})
    w = next((x for x in attacker.get("weapons", []) if x["id"] == o.get("weapon")), None)
    pre = f"sr-att-{o['ref'] or 'free'}"
    tw = [(x["id"], f'{x["name"]} ({x["skill"]}%)') for x in
          sorted(target.get("weapons", []), key=lambda x: not x.get("shield")) if x.get("usable", True)]
    locs = [("", "(roll)")] + [(l["id"], l["name"]) for l in target.get("locations", [])]
    dodge_pen = target.get("round", {}).get("next_dodge_penalty", 0)
    wtxt = f'{w["name"]} {w["skill"]}%, {w["damage"]}' if w else str(o.get("weapon", ""))
    dmg_mod = attacker.get("derived", {}).get("damage_modifier", {}).get("value", "")
    dice = "".join(
        _field(f"{pre}-r-{k}", f"rolls.{k}", label,
               _input(f"{pre}-r-{k}", f"rolls.{k}", "", "numeric", "blank = roll"), "sr-die")
        for k, label in ROLLS)
    casting = any(a.get("kind") == "spell" and a.get("status") == "declared" for a in target.get("declared", []))
    if casting:
        # "casting interrupted by damage/parry/dodge with an INT×3 test": the caster's dice too
        dice += "".join(
            _field(f"{pre}-r-{k.replace('.', '-')}", f"rolls.{k}", label,
                   _input(f"{pre}-r-{k.replace('.', '-')}", f"rolls.{k}", "", "numeric", "blank = roll"), "sr-die")
            for k, label in CASTING_ROLLS)
    missile = bool(w and w.get("missile"))
    return (
        f'<form class="sr-box sr-attack" data-form="sr-attack" data-ref="{esc(o["ref"])}" '
        f'data-attacker="{esc(o["combatant"])}" data-weapon="{esc(o.get("weapon") or "")}" novalidate '
        f'aria-label="Attack by {esc(attacker.get("name", ""))}">'
        f'<h3>SR {esc(o["sr"])}: {esc(attacker.get("name", ""))} attacks with {esc(wtxt)}'
        f'{" " + esc(dmg_mod) if dmg_mod and dmg_mod not in ("0", "none") else ""}</h3>'
        f'<div class="sr-row">'
        + _field(pre + "-target", "target", "Target", _select(pre + "-target", "target", _others(names, o["combatant"]),
                                                              tid))
        + _field(pre + "-dk", "defence.kind", "Defender's choice", _select(pre + "-dk", "defence.kind", list(DEFENCES),
                                                                         "parry" if tw else "dodge"))
        + _field(pre + "-dw", "defence.weapon", "Parry with", _select(pre + "-dw", "defence.weapon",
                                                                      tw or [("", "(no weapon)")]))
        + _field(pre + "-mode", "mode", "Mode", _select(pre + "-mode", "mode", list(MODES), "normal"))
        + _field(pre + "-aim", "aim", "Aimed at", _select(pre + "-aim", "aim", locs))
        + _field(pre + "-bonus", "bonus", "Bonus %", _input(pre + "-bonus", "bonus", "", "numeric", "0"))
        + (_field(pre + "-range", "range_m", "Range m", _input(pre + "-range", "range_m", "", "decimal", "from map"))
           if missile else "")
        + "</div>"
        + (f'<p class="hint">Next dodge by {esc(target.get("name", ""))}: {dodge_pen}%</p>' if dodge_pen else "")
        + circumstances_html(pre, target, w, ui, bool(o.get("free")))
        + f'<fieldset class="sr-dice"><legend>Dice (blank = Fray rolls; type faces such as "8 4")</legend>'
        f'<div class="sr-row">{dice}</div></fieldset>'
        f'<div class="sr-actions odds-beside"><button type="submit" class="primary">Roll the exchange</button>'
        f'{odds_view.slot()}</div>'
        f'{_err("sr")}</form>')


def _dice(pre: str, rolls: tuple[tuple[str, str], ...], legend: str = "Dice (blank = Fray rolls)") -> str:
    fields = "".join(_field(f"{pre}-r-{k}", f"rolls.{k}", label,
                            _input(f"{pre}-r-{k}", f"rolls.{k}", "", "numeric", "blank = roll"), "sr-die")
                     for k, label in rolls)
    return f'<fieldset class="sr-dice"><legend>{esc(legend)}</legend><div class="sr-row">{fields}</div></fieldset>'


def _loc_checks(pre: str, name: str, legend: str, locs: list[dict[str, Any]]) -> str:
    """One checkbox per hit location, named ``name.<location id>``; errors land on ``name``."""
    boxes = "".join(
        f'<label class="sr-check sr-chip" for="{esc(pre)}-{esc(l["id"])}"><input type="checkbox" '
        f'id="{esc(pre)}-{esc(l["id"])}" name="{esc(name)}.{esc(l["id"])}"> {esc(l["name"])}</label>'
        for l in locs)
    return (f'<fieldset class="sr-locs" data-field="{esc(name)}"><legend>{esc(legend)}</legend>'
            f'<div class="sr-chips">{boxes}</div>{_err(name)}</fieldset>')


def circumstances_html(pre: str, target: dict[str, Any], w: dict[str, Any] | None,
                       ui: dict[str, Any] | None = None, free: bool = False) -> str:
    """The rarely used ``sr.attack`` fields, folded away: range and movement, melee, cover,
    water, pulled blows, split skill, a GM multiplier, the object or weapon attacked."""
    locs = target.get("locations", [])
    tname = target.get("name", "")
    shields = [("", "(no shield cover)")] + [(x["id"], x["name"]) for x in target.get("weapons", []) if x.get("shield")]
    tweapons = [("", "(the parrying weapon)")] + [(x["id"], x["name"]) for x in target.get("weapons", [])]
    gm_locs = [("", "(roll)")] + [(l["id"], l["name"]) for l in locs]
    missile = bool(w and w.get("missile"))
    row1 = (
        (_check(pre + "-moving", "moving", "Moving (½)") + _check(pre + "-mount", "mount_running", "Mount running (½)")
         + _check(pre + "-miracle", "miracle", "Past double range: GM grants 5%") if missile else "")
        + _field(pre + "-into", "into_melee", "Into melee", _select(pre + "-into", "into_melee", list(INTO_MELEE)))
        + _check(pre + "-free", "free_attack", "Free attack on a fleeing foe", free)
        + _field(pre + "-water", "water", "Water", _select(pre + "-water", "water", list(WATER), "none"))
        + _field(pre + "-split", "split", "Split %", _input(pre + "-split", "split", "", "numeric"))
        + _field(pre + "-mult", "multiplier", "GM multiplier ×", _input(pre + "-mult", "multiplier", "", "decimal", "1"))
        + (_field(pre + "-special", "special", "Special damage as",
                  _select(pre + "-special", "special", [("impaling", "Impaling"), ("slashing", "Slashing")]))
           if w and w.get("type") == "cut-and-thrust" else "")
        + _field(pre + "-gmloc", "gm_location", "GM places the blow", _select(pre + "-gmloc", "gm_location", gm_locs))
        + _field(pre + "-ldie", "location_die", "Location die", _input(pre + "-ldie", "location_die", "", "text", "1D20")))
    pull = ('<fieldset class="sr-sub"><legend>Pulling blows</legend><div class="sr-row">'
            + _check(pre + "-pdm", "pull.drop_modifier", "Drop damage modifier")
            + _field(pre + "-pds", "pull.die_sides", "Dice down to D", _input(pre + "-pds", "pull.die_sides", "", "numeric",
                                                                             "3+"))
            + _field(pre + "-pb", "pull.bonus", "Bonus points at most", _input(pre + "-pb", "pull.bonus", "", "numeric"))
            + "</div>" + _err("pull") + "</fieldset>")
    cover = ('<fieldset class="sr-sub"><legend>Cover of ' + esc(tname) + '</legend>'
             + _check(pre + "-soft", "cover.soft", "Soft cover (½, or aim at an uncovered location)")
             + _loc_checks(pre + "-hard", "cover.hard", "Hard cover over", locs)
             + '<div class="sr-row">'
             + _field(pre + "-scw", "shield_cover.weapon", "Shield as cover", _select(pre + "-scw", "shield_cover.weapon",
                                                                                     shields))
             + "</div>"
             + _loc_checks(pre + "-scl", "shield_cover.locations", "Shield covers", locs)
             + _err("cover") + "</fieldset>")
    special = ('<fieldset class="sr-sub"><legend>Special attacks</legend><div class="sr-row">'
               + _field(pre + "-tw", "target_weapon", "Weapon attacked / disarmed",
                        _select(pre + "-tw", "target_weapon", tweapons))
               + _field(pre + "-oname", "object.name", "Object", _input(pre + "-oname", "object.name", "", "text",
                                                                        "door, rope…"))
               + _field(pre + "-ohp", "object.hp", "Object HP", _input(pre + "-ohp", "object.hp", "", "numeric"))
               + _check(pre + "-oheld", "object.held", "Object is held (½)", True)
               + "</div>" + _err("object") + "</fieldset>")
    return _fold("sr-fold sr-circumstances", f"circ-{pre}", "Circumstances",
                 f'<div class="sr-row">{row1}</div>{cover}{pull}{special}', ui, default_open=free)


def last_exchange(log: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The log lines of the latest attack exchange (from its ``attack`` entry on)."""
    start = None
    for i in range(len(log) - 1, -1, -1):
        if log[i][0] == "attack":
            start = i
            break
        if log[i][0] == "round":
            return []
    if start is None:
        return []
    out = []
    for kind, text in log[start:]:
        if kind in ("round", "sr") or (out and kind == "attack"):
            break
        out.append((kind, text))
    return out


def exchange_html(log: list[tuple[str, str]]) -> str:
    lines = last_exchange(log)
    if not lines:
        return ""
    items = "".join(f'<li class="sr-log-{esc(k)}"><span class="k">{esc(k.replace("_", " "))}</span> {esc(t)}</li>'
                    for k, t in lines)
    return (f'<div class="sr-box sr-result" role="status"><h3>Last exchange</h3>'
            f'<ul class="sr-exchange">{items}</ul></div>')


def end_html(view: dict[str, Any], log: list[tuple[str, str]]) -> str:
    parts = ['<div class="sr-box sr-end">']
    prompts = view.get("prompts", [])
    if prompts:
        parts.append("<h3>Questions for the GM</h3>")
    for p in prompts:
        parts.append(prompt_html(p, _names(view)))
    if view.get("phase") == "end":
        # what the round's end did: from the latest "End of Melee Round" entry on
        start = None
        for i in range(len(log) - 1, -1, -1):
            if log[i][0] == "round" and log[i][1].startswith("End of"):
                start = i
                break
        lines = log[start:] if start is not None else []
        if lines:
            parts.append('<h3>End of the Melee Round</h3><ul class="sr-exchange">' + "".join(
                f'<li class="sr-log-{esc(k)}">{esc(t)}</li>' for k, t in lines) + "</ul>")
        parts.append('<p class="hint">Press <strong>Next</strong> to declare the next Melee Round.</p>')
    parts.append("</div>")
    return "".join(parts) if len(parts) > 2 else ""


def free_attack_html(view: dict[str, Any], free: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The attack panel for a free attack on a fleeing enemy: no declared action, no SR of its
    own; the enemy's first usable melee weapon, free_attack ticked (no parry, dodge at ½)."""
    c = view.get("combatants", {}).get(free.get("attacker", ""), {})
    melee = [w for w in c.get("weapons", []) if not w.get("missile") and w.get("usable", True)]
    o = {"ref": "", "combatant": free.get("attacker", ""), "target": free.get("target", ""),
         "weapon": melee[0]["id"] if melee else "", "sr": view.get("sr", 0), "free": True}
    return attack_html(view, o, ui)


def prompt_html(p: dict[str, Any], names: dict[str, str]) -> str:
    """One GM question: its options as buttons (``sr.answer``), with the dice the answer may roll
    (blank = Fray rolls) and the extra field some answers need."""
    pid = str(p.get("id", ""))
    pre = f"sr-prompt-{pid}"
    who = names.get(p.get("combatant", ""), "")
    opts = "".join(_btn(o.get("label", o.get("value", "")), "sr-answer", "small", None,
                        prompt=pid, choice=o.get("value", "")) for o in p.get("options", []))
    opts += _btn("Dismiss", "sr-answer", "small secondary", f"Dismiss the question about {who}" if who else "Dismiss",
                 prompt=pid, choice="dismiss")
    extra = ""
    kind = p.get("kind", "")
    if kind == "free_attack" and p.get("data", {}).get("fleeing"):
        # "an immediate melee attack": open the attack panel for that enemy, then answer
        fleeing = p["data"]["fleeing"]
        extra += '<div class="sr-row">' + "".join(
            _btn(f'{o.get("label", "")} attacks now', "sr-free-attack", "small primary",
                 f'{o.get("label", "")} makes the free attack on {names.get(fleeing, fleeing)}',
                 prompt=pid, attacker=o.get("value", ""), target=fleeing)
            for o in p.get("options", [])) + "</div>"
    if kind == "hard_cover":
        extra += ('<div class="sr-row">' + _field(pre + "-amount", "amount", "Damage through the cover",
                                                  _input(pre + "-amount", "amount", "", "numeric")) + "</div>")
    if kind == "collision":
        extra += ('<div class="sr-row">' + _field(pre + "-with", "with", "Struck combatant",
                                                  _select(pre + "-with", "with", [("", "(none)")] + list(names.items())))
                  + "</div>")
    if kind in PROMPT_ROLLS:
        extra += _dice(pre, PROMPT_ROLLS[kind])
    return (f'<form class="sr-prompt" data-form="sr-prompt" data-prompt="{esc(pid)}" novalidate '
            f'aria-label="Question {esc(pid)}"><p>{esc(p.get("text", ""))}</p>{extra}'
            f'<div class="sr-options" role="group" aria-label="{esc(p.get("text", ""))}">{opts}</div>'
            f'{_err("choice")}{_err("sr")}</form>')


def answer_action(prompt: str, choice: str, values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The ``sr.answer`` action with any typed dice, and {field: message} for dice that are not numbers."""
    a: dict[str, Any] = {"type": "sr.answer", "prompt": prompt, "choice": choice}
    rolls, errors = _rolls(values)
    if rolls:
        a["rolls"] = rolls
    amt = str(values.get("amount") or "").strip()
    if amt:
        a["amount"] = as_int(amt)
    if values.get("with"):
        a["with"] = values["with"]
    return a, errors


def _rolls(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Every ``rolls.<name>`` field typed in: {name: faces} and {field: message} for bad text."""
    rolls: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for k, v in values.items():
        if not k.startswith("rolls."):
            continue
        try:
            r = parse_dice(v)
        except ValueError as e:
            errors[k] = f"type whole numbers such as 8 4, not {e}"
            continue
        if r is not None:
            rolls[k[6:]] = r
    return rolls, errors


# -- the card ------------------------------------------------------------------------------------

HUMANOID_AREAS = {("head", ""): "head", ("arm", "right"): "rarm", ("arm", "left"): "larm", ("chest", ""): "chest",
                  ("abdomen", ""): "abdo", ("leg", "right"): "rleg", ("leg", "left"): "lleg"}


def is_humanoid(locs: list[dict[str, Any]]) -> bool:
    keys = [(l.get("type"), l.get("side") or "") for l in locs]
    return len(keys) == len(set(keys)) and all(k in HUMANOID_AREAS for k in keys) and len(keys) >= 5


def location_cell(l: dict[str, Any], area: str | None = None) -> str:
    lvl = l.get("injury", "none")
    flags = []
    if l.get("bleeding"):
        flags.append("bleeding")
    if l.get("disabled") and lvl not in ("maimed", "mangled", "severed"):
        flags.append("disabled")
    if l.get("impaled_by"):
        flags.append("impaled: " + ", ".join(l["impaled_by"]))
    if l.get("first_aid_used"):
        flags.append("first aid given")
    # The grid area rides on a data attribute (strike-rank.css places it): the page's CSP runs no
    # inline style.
    where = f' data-area="{area}"' if area else ""
    rng = l.get("melee") or []
    rtxt = f' {rng[0]}–{rng[1]}' if len(rng) == 2 and rng[0] != rng[1] else (f" {rng[0]}" if rng else "")
    return (f'<li class="sr-loc {injury_class(lvl)}"{where} data-loc="{esc(l["id"])}">'
            f'<span class="n">{esc(l["name"])}<small>{esc(rtxt)}</small></span>'
            f'<span class="hp">{esc(l["hp"])}/{esc(l["hp_max"])} HP</span>'
            f'<span class="ap">AP {esc(l["ap"])}</span>'
            f'<span class="lvl">{esc(INJURY_LABEL.get(lvl, lvl))}</span>'
            + (f'<span class="fl">{esc("; ".join(flags))}</span>' if flags else "") + "</li>")


def body_html(name: str, locs: list[dict[str, Any]]) -> str:
    if is_humanoid(locs):
        cells = "".join(location_cell(l, HUMANOID_AREAS[(l["type"], l.get("side") or "")]) for l in locs)
        cls = "sr-body humanoid"
    else:
        cells = "".join(location_cell(l) for l in locs)
        cls = "sr-body list"
    return f'<ul class="{cls}" aria-label="Hit locations of {esc(name)}">{cells}</ul>'


def _whp(w: dict[str, Any]) -> str:
    return f'{esc(w["hp"])}/{esc(w["hp_max"])}' if w.get("hp_max") else "–"


def card_html(cid: str, view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    c = view.get("combatants", {}).get(cid)
    if not c:
        return ""
    names = _names(view)
    hp = c.get("hp", {})
    status = c.get("status", "ok")
    d = c.get("derived", {})
    derived = "".join(f'<li>{esc(d[k]["text"])}</li>' for k in ("dex_sr", "siz_sr", "damage_modifier") if k in d)
    mv = c.get("movement", {})
    if mv:
        derived += f'<li>Movement {esc(mv.get("rate"))} m/SR' + (
            f' ({esc("; ".join(mv.get("why", [])))})' if mv.get("why") else "") + "</li>"
    wrows = "".join(
        f'<tr{"" if w.get("usable", True) else " class=unusable"}><th scope="row">{esc(w["name"])}</th>'
        f'<td>{esc(w["skill"])}%</td><td>{esc(w["damage"])}</td><td>SR {esc(w["sr"])}</td>'
        f'<td>{_whp(w)}</td>'
        f'<td>{esc(w.get("why_not") or ("" if w.get("loaded", True) else "not loaded"))}</td></tr>'
        for w in c.get("weapons", []))
    weapons = (f'<table class="sr-weapons" tabindex="0"><caption class="visually-hidden">Weapons of {esc(c["name"])}</caption>'
               f'<thead><tr><th scope="col">Weapon</th><th scope="col">Skill</th><th scope="col">Damage</th>'
               f'<th scope="col">SR</th><th scope="col">HP</th><th scope="col">Note</th></tr></thead>'
               f'<tbody>{wrows}</tbody></table>') if wrows else ""
    pend = [p for p in view.get("prompts", []) if p.get("combatant") == cid]
    pending = "".join(f'<li>{esc(p.get("text", ""))}</li>' for p in pend)
    resus = c.get("resuscitate_by")
    locs = c.get("locations", [])
    loc_opts = [(l["id"], l["name"]) for l in locs]
    pre = f"sr-card-{cid}"
    healers = [(o, n) for o, n in names.items()]
    dmg = (f'<form class="sr-gm" data-form="sr-damage" data-id="{esc(cid)}" novalidate '
           f'aria-label="GM damage to {esc(c["name"])}">'
           + _field(pre + "-dloc", "location", "Location", _select(pre + "-dloc", "location", loc_opts))
           + _field(pre + "-damt", "amount", "Damage", _input(pre + "-damt", "amount", "", "numeric"))
           + _check(pre + "-darm", "armour", "Armour stops", True)
           + f'<button type="submit" class="small" aria-label="Apply damage to {esc(c["name"])}">Damage</button>'
           + _err("sr") + "</form>")
    aid = (f'<form class="sr-gm" data-form="sr-first-aid" data-id="{esc(cid)}" novalidate '
           f'aria-label="First Aid on {esc(c["name"])}">'
           + _field(pre + "-healer", "healer", "Healer", _select(pre + "-healer", "healer", healers, cid))
           + _field(pre + "-aloc", "location", "Location", _select(pre + "-aloc", "location", loc_opts))
           + _field(pre + "-aroll", "rolls.first_aid", "d100", _input(pre + "-aroll", "rolls.first_aid", "", "numeric",
                                                                     "blank = roll"))
           + _field(pre + "-aheal", "rolls.heal", "Heal dice", _input(pre + "-aheal", "rolls.heal", "", "numeric",
                                                                     "blank = roll"))
           + f'<button type="submit" class="small" aria-label="First Aid on {esc(c["name"])}">First Aid</button>'
           + _err("sr") + "</form>")
    return (
        f'<div class="sr-card">'
        f'<p class="sr-hp"><strong>HP {esc(hp.get("current"))}/{esc(hp.get("max"))}</strong>'
        f' <span class="sr-status st-{esc(status)}">{esc(status)}</span>'
        + (f' <span class="sr-resus">resuscitate by MR {esc(resus.get("round"))} SR {esc(resus.get("sr"))}</span>'
           if isinstance(resus, dict) else "") + "</p>"
        + body_html(c["name"], locs)
        + f'<ul class="sr-derived" aria-label="Derived values of {esc(c["name"])}">{derived}</ul>'
        + weapons
        + (f'<ul class="sr-pending" aria-label="Pending questions about {esc(c["name"])}">{pending}</ul>'
           if pending else "")
        + stuck_html(cid, view, ui)
        + _fold("sr-tools", f"care-{cid}", "Damage / First Aid / healing", dmg + aid + heal_html(cid, c, names), ui)
        + (fight_html(cid, c, names, ui) if view.get("phase") in ("declare", "resolve") else "")
        + "</div>")


def heal_html(cid: str, c: dict[str, Any], names: dict[str, str]) -> str:
    """Magical healing (``sr.heal``) and natural healing with its treatment roll (``sr.natural_healing``)."""
    pre = f"sr-card-{cid}"
    who = c["name"]
    locs = [("total", "Total HP only")] + [(l["id"], l["name"]) for l in c.get("locations", [])]
    magic = (f'<form class="sr-gm" data-form="sr-heal" data-id="{esc(cid)}" novalidate '
             f'aria-label="Magical healing of {esc(who)}">'
             + _field(pre + "-hkind", "kind", "Magic", _select(pre + "-hkind", "kind", list(HEAL_KINDS)))
             + _field(pre + "-hloc", "location", "Location", _select(pre + "-hloc", "location", locs,
                                                                     locs[1][0] if len(locs) > 1 else "total"))
             + _field(pre + "-hpts", "points", "Points", _input(pre + "-hpts", "points", "", "numeric"))
             + _check(pre + "-hre", "reattach", "Re-attach severed limb")
             + f'<button type="submit" class="small" aria-label="Heal {esc(who)} by magic">Heal</button>'
             + _err("sr") + "</form>")
    healers = [("", "(no treatment)")] + list(names.items())
    natural = (f'<form class="sr-gm" data-form="sr-natural-healing" data-id="{esc(cid)}" novalidate '
               f'aria-label="Natural healing of {esc(who)}">'
               + _field(pre + "-nper", "period", "Rest for", _select(pre + "-nper", "period", list(PERIODS)))
               + _field(pre + "-nhealer", "healer", "Treated by", _select(pre + "-nhealer", "healer", healers))
               + _field(pre + "-ntr", "rolls.treatment", "Treatment d100",
                        _input(pre + "-ntr", "rolls.treatment", "", "numeric", "blank = roll"))
               + f'<button type="submit" class="small" aria-label="Natural healing of {esc(who)}">Heal naturally</button>'
               + _err("sr") + "</form>")
    return magic + natural


def fight_html(cid: str, c: dict[str, Any], names: dict[str, str], ui: dict[str, Any] | None = None) -> str:
    """Disengaging (``sr.disengage``) and the grappling options (``sr.grapple``), one fold-out."""
    pre = f"sr-card-{cid}"
    who = c["name"]
    others = _others(names, cid)
    held = "grappled" in c.get("conditions", []) or any(l.get("immobilized_by") for l in c.get("locations", []))
    dis = (f'<form class="sr-gm" data-form="sr-disengage" data-id="{esc(cid)}" novalidate '
           f'aria-label="Disengage {esc(who)}">'
           + _field(pre + "-how", "how", "Disengage by", _select(pre + "-how", "how", list(DISENGAGE)))
           + f'<button type="submit" class="small" aria-label="Disengage {esc(who)}">Disengage</button>'
           + _err("sr") + "</form>")
    grp = (f'<form class="sr-gm sr-grapple" data-form="sr-grapple" data-id="{esc(cid)}" novalidate '
           f'aria-label="Grapple options of {esc(who)}">'
           + _field(pre + "-gt", "target", "Whom", _select(pre + "-gt", "target", others))
           + _field(pre + "-gopt", "option", "Option", _select(pre + "-gopt", "option", list(GRAPPLE_OPTIONS)))
           + _field(pre + "-gsub", "substitute", "Unarmed / MA % (for STR)",
                    _input(pre + "-gsub", "substitute", "", "numeric", "blank = STR"))
           + _dice(pre + "-g", GRAPPLE_ROLLS)
           + f'<button type="submit" class="small" aria-label="Grapple: {esc(who)} acts">Grapple</button>'
           + _err("sr") + "</form>")
    return _fold("sr-tools sr-fight", f"fight-{cid}", "Disengage / grapple" + (" (held)" if held else ""), dis + grp,
                 ui, held)


def stuck_entries(cid: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Weapons stuck in this combatant's body or shields, with the owner and weapon ids the view
    gives (``stuck_weapons``)."""
    cs = view.get("combatants", {})
    c = cs.get(cid, {})
    return [{**e, "owner_name": cs.get(e["owner"], {}).get("name", "")} for e in c.get("stuck_weapons", [])]


def stuck_html(cid: str, view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """One ``sr.unstick`` form per stuck weapon: who tries, how, and the test's dice."""
    entries = [e for e in stuck_entries(cid, view) if e["owner"]]
    if not entries:
        return ""
    names = _names(view)
    holder = names.get(cid, "")
    forms = []
    for i, e in enumerate(entries):
        pre = f"sr-card-{cid}-u{i}"
        methods = UNSTICK_SHIELD if e["in"] == "shield" else UNSTICK_BODY
        label = f'{e["name"]} ({e["owner_name"]}) in {holder}\'s {e["where"]}'
        forms.append(
            f'<form class="sr-gm sr-unstick" data-form="sr-unstick" data-id="{esc(cid)}" data-owner="{esc(e["owner"])}" '
            f'data-weapon="{esc(e["weapon"])}" novalidate aria-label="Free {esc(label)}">'
            f'<p class="sr-stuck-what" data-field="weapon">{esc(label)}{_err("weapon")}</p>'
            + _field(pre + "-who", "id", "Who tries", _select(pre + "-who", "id", list(names.items()), cid))
            + _field(pre + "-m", "method", "How", _select(pre + "-m", "method", list(methods)))
            + _field(pre + "-rt", "rolls.test", "Test d100", _input(pre + "-rt", "rolls.test", "", "numeric", "blank = roll"))
            + (_field(pre + "-rd", "rolls.impale_damage", "Wrench damage dice",
                      _input(pre + "-rd", "rolls.impale_damage", "", "numeric", "blank = roll"))
               if e["in"] == "body" else "")
            + f'<button type="submit" class="small" aria-label="Try to free {esc(e["name"])}">Free it (1 MR)</button>'
            + _err("sr") + "</form>")
    return _fold("sr-tools sr-stuck", f"stuck-{cid}", f"Stuck weapons ({len(entries)})", "".join(forms), ui, True)


# -- the controller side -------------------------------------------------------------------------

def declare_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    kind = values.get("kind", "")
    a: dict[str, Any] = {"type": "sr.declare", "id": cid, "kind": kind}
    if kind in ("melee", "missile", "reload", "defend") and values.get("weapon"):
        a["weapon"] = values["weapon"]
    if kind == "defend" and not values.get("weapon"):
        a["stance"] = "dodge"  # no weapon picked: a dodging stance (with one: parrying with it)
    if kind in ("melee", "missile", "spell", "move") and values.get("target"):
        a["target"] = values["target"]
    if kind == "spell" and values.get("spell"):
        a["spell"] = values["spell"]
    m = str(values.get("metres") or "").strip()
    if m:
        a["metres"] = as_number(m)
    if values.get("running"):
        a["running"] = True
    return a


def attack_action(ref: str, attacker: str, weapon: str, values: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    """The ``sr.attack`` action and {field: message} for dice text that is not whole numbers."""
    rolls, errors = _rolls(values)
    dk = values.get("defence.kind", "none")
    defence: dict[str, Any] = {"kind": dk}
    if dk == "parry":
        defence["weapon"] = values.get("defence.weapon", "")
    a: dict[str, Any] = {"type": "sr.attack", "attacker": attacker, "target": values.get("target", ""),
                         "weapon": weapon, "ref": ref, "defence": defence, "mode": values.get("mode", "normal")}
    if values.get("aim"):
        a["aim"] = values["aim"]
    b = str(values.get("bonus") or "").strip()
    if b:
        a["bonus"] = as_int(b)
    r = str(values.get("range_m") or "").strip()
    if r:
        a["range_m"] = as_number(r)
    for k in ("moving", "mount_running", "free_attack", "miracle"):
        if values.get(k):
            a[k] = True
    if values.get("into_melee") in ("yes", "no"):
        a["into_melee"] = values["into_melee"] == "yes"
    if values.get("water") and values["water"] != "none":
        a["water"] = values["water"]
    for k, conv in (("split", as_int), ("multiplier", as_number)):
        t = str(values.get(k) or "").strip()
        if t:
            a[k] = conv(t)
    for k in ("special", "gm_location", "location_die"):
        t = str(values.get(k) or "").strip()
        if t:
            a[k] = t
    hard = _checked(values, "cover.hard")
    if hard or values.get("cover.soft"):
        a["cover"] = {"hard": hard, "soft": bool(values.get("cover.soft"))}
    if values.get("shield_cover.weapon"):
        a["shield_cover"] = {"weapon": values["shield_cover.weapon"],
                             "locations": _checked(values, "shield_cover.locations")}
    pull: dict[str, Any] = {}
    if values.get("pull.drop_modifier"):
        pull["drop_modifier"] = True
    for k in ("die_sides", "bonus"):
        t = str(values.get(f"pull.{k}") or "").strip()
        if t:
            pull[k] = as_int(t)
    if pull:
        a["pull"] = pull
    if a["mode"] == "attack_object" or str(values.get("object.name") or "").strip():
        a["object"] = {"name": str(values.get("object.name") or "").strip() or "object",
                       "hp": as_int(str(values.get("object.hp") or "").strip()),
                       "held": bool(values.get("object.held"))}
    if values.get("target_weapon") and a["mode"] in ("attack_weapon", "disarm"):
        a["target_weapon"] = values["target_weapon"]
    if rolls:
        a["rolls"] = rolls
    return a, errors


def _checked(values: dict[str, Any], prefix: str) -> list[str]:
    """The location ids of the ticked ``prefix.<id>`` boxes, in form order."""
    return [k[len(prefix) + 1:] for k, v in values.items() if k.startswith(prefix + ".") and v is True]


# -- the add form's strike-rank section (body plan, armour, weapons) -----------------------------

BODY_PLANS = (("humanoid", "Humanoid (7 locations)"), ("quadruped", "Four-legged"), ("single", "Single location"))
WEAPON_COLS = ("name", "skill", "damage", "sr", "hp", "type")


def weapons_text(weapons: list[dict[str, Any]]) -> str:
    """One weapon a line: ``Name, skill, damage, SR, HP, type`` (+ ``shield`` / ``missile``)."""
    lines = []
    for w in weapons or []:
        cols = [str(w.get(k, "")) for k in WEAPON_COLS]
        while cols and cols[-1] == "":
            cols.pop()
        flags = [f for f in ("shield", "missile", "natural") if w.get(f)]
        lines.append(", ".join(cols + flags))
    return "\n".join(lines)


def parse_weapons(text: str, base: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The lines back to weapon records; a line naming a known weapon keeps its other fields
    (hand, ENC, reach...). Values the engine must judge pass through as typed."""
    known = {str(w.get("name", "")).lower(): w for w in base or []}
    out = []
    for line in text.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if not any(cols):
            continue
        flags = [c.lower() for c in cols[len(WEAPON_COLS):]]
        w = dict(known.get(cols[0].lower(), {}))
        for k, v in zip(WEAPON_COLS, cols[:len(WEAPON_COLS)]):
            if v == "":
                continue
            w[k] = as_int(v.rstrip("%")) if k in ("skill", "sr", "hp") else v
        for f in ("shield", "missile", "natural"):
            if f in flags:
                w[f] = True
        out.append(w)
    return out


def armour_text(armour: Any) -> str:
    if isinstance(armour, dict):
        return ", ".join(f"{k} {v}" for k, v in armour.items())
    return "" if armour in (None, 0, "") else str(armour)


def parse_armour(text: str) -> Any:
    """"3" → 3 (every location); "head 3, chest 2" → {"head": 3, "chest": 2}; blank → 0."""
    t = text.strip()
    if not t:
        return 0
    if "," not in t and " " not in t:
        return as_int(t)
    out: dict[str, Any] = {}
    for part in t.split(","):
        bits = part.strip().rsplit(" ", 1)
        if len(bits) == 2:
            out[bits[0].strip().replace(" ", "_").lower()] = as_int(bits[1])
        elif bits[0]:
            out[bits[0]] = ""
    return out


def add_fields_html(extra: dict[str, Any] | None) -> str:
    """Body plan, armour and weapons for the add form (errors land on combatant.body/armour/weapons)."""
    e = extra or {}
    body = e.get("body", "humanoid")
    body = body if isinstance(body, str) else "humanoid"
    return (
        '<fieldset class="sr-add"><legend>Body, armour and weapons</legend>'
        '<p class="hint">Changes here are folded into the JSON below when you press Add.</p>'
        + _field("f-sr-body", "combatant.body", "Body plan",
                 _select("f-sr-body", "sr_body", list(BODY_PLANS), body))
        + _field("f-sr-armour", "combatant.armour", "Armour points",
                 _input("f-sr-armour", "sr_armour", armour_text(e.get("armour")), "text",
                        "3, or head 3, chest 2"))
        + f'<div class="field" data-field="combatant.weapons"><label for="f-sr-weapons">Weapons, one a line: '
          f'name, skill %, damage, SR, HP, type (add shield or missile)</label>'
          f'<textarea id="f-sr-weapons" name="sr_weapons" rows="3" spellcheck="false">'
          f'{esc(weapons_text(e.get("weapons", [])))}</textarea>{_err("combatant.weapons")}</div>'
        + "</fieldset>")


def add_extra(values: dict[str, Any], extra: dict[str, Any] | None) -> dict[str, Any]:
    """The preset's extra fields with what the GM typed in the strike-rank section."""
    out = dict(extra or {})
    if values.get("sr_body"):
        out["body"] = values["sr_body"]
    a = values.get("sr_armour", "")
    if a.strip() != armour_text(out.get("armour")):
        out["armour"] = parse_armour(a)
    w = values.get("sr_weapons", "")
    if w.strip() != weapons_text(out.get("weapons", [])).strip():
        out["weapons"] = parse_weapons(w, out.get("weapons", []))
    return out


class StrikeRankPanel:
    ACTS = ("sr-undeclare", "sr-resolve", "sr-answer", "sr-change-open", "sr-change-cancel", "add-combatant",
            "use-preset", "sr-free-attack")
    FORMS = ("sr-declare", "sr-change", "sr-abort", "sr-attack", "sr-damage", "sr-first-aid", "sr-heal",
             "sr-natural-healing", "sr-disengage", "sr-grapple", "sr-unstick", "sr-prompt", "add-combatant")

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        log = [(e.kind, e.text) for e in app.enc.log[-80:]]
        if app.ui.get("sr_change") and view.get("phase") != "resolve":
            app.ui.pop("sr_change", None)
        # the fold-outs as the GM left them (the panel renders before the cards): kept open or shut
        from .app import document

        app.ui["sr_open"] = {d.getAttribute("data-fold"): bool(d.open)
                             for d in document.querySelectorAll("details[data-fold]")}
        odds_view.refresh_soon(app)
        return panel_html(view, app.ui, log)

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """The odds of the exchange as the attack form is set now, for each defence (never rolls)."""
        if form_name != "sr-attack":
            return None
        from ..rulesets.strike_rank.odds import exchange_odds
        from .app import data

        a, _ = attack_action(data(form, "ref") or "", data(form, "attacker") or "", data(form, "weapon") or "", values)
        return odds_view.exchange_html(exchange_odds(app.ruleset, app.enc, a))

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        return card_html(combatant_id, view, app.ui)

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act not in self.ACTS:
            return False
        from .app import by_id, data, nil

        if act in ("add-combatant", "use-preset"):
            # the generic dialog (its JSON box holds the ruleset's fields), then this ruleset's
            # compact body / armour / weapons section, filled from a ready-made combatant
            open_add_section(app, act, el, "sr-add", add_fields_html)
            return True
        scope = nil(el.closest("form, .sr-box, article, .sr-who")) or by_id("ruleset-panel")
        if act == "sr-undeclare":
            app.dispatch({"type": "sr.undeclare", "ref": data(el, "ref")}, scope)
        elif act == "sr-resolve":
            app.dispatch({"type": "sr.resolve", "ref": data(el, "ref")}, scope)
        elif act == "sr-answer":
            from .app import form_values

            form = nil(el.closest("form"))
            values = form_values(form) if form is not None else {}
            a, errors = answer_action(data(el, "prompt") or "", data(el, "choice") or "", values)
            if not _show_errors(app, scope, errors):
                app.dispatch(a, scope)
        elif act == "sr-free-attack":
            app.ui["sr_free"] = {"attacker": data(el, "attacker") or "", "target": data(el, "target") or "",
                                 "prompt": data(el, "prompt") or ""}
            app.render()
        elif act == "sr-change-open":
            app.ui["sr_change"] = data(el, "ref")
            app.render()
        elif act == "sr-change-cancel":
            app.ui.pop("sr_change", None)
            app.render()
        return True

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        from .app import data

        cid = data(form, "id") or ""
        if form_name == "add-combatant":
            if "sr_weapons" in values:
                # fold the compact section into the generic JSON box the app sends (a box that is
                # not a JSON object is left for the app to name at its field)
                fold_extra(values, add_extra)
            return False  # the generic handler adds it (stats, name, side) with these fields
        if form_name == "sr-declare":
            app.dispatch(declare_action(cid, values), form)
        elif form_name == "sr-change":
            a = declare_action(cid, values)
            a["type"] = "sr.change"
            a["ref"] = data(form, "ref")
            if app.dispatch(a, form):
                app.ui.pop("sr_change", None)
                app.render()
        elif form_name == "sr-abort":
            a = declare_action(cid, values)
            a["type"] = "sr.abort"
            a["ref"] = data(form, "ref")
            app.dispatch(a, form)
        elif form_name == "sr-attack":
            a, errors = attack_action(data(form, "ref") or "", data(form, "attacker") or "",
                                      data(form, "weapon") or "", values)
            if not _show_errors(app, form, errors) and app.dispatch(a, form) and not a.get("ref"):
                app.ui.pop("sr_free", None)  # the free attack is made; the GM answers its prompt
                app.render()
        elif form_name == "sr-prompt":
            pass  # the option buttons answer (data-act="sr-answer"); Enter in a dice box does nothing
        elif form_name in ("sr-heal", "sr-natural-healing", "sr-disengage", "sr-grapple", "sr-unstick"):
            a, errors = care_action(form_name, cid, values, data(form, "owner") or "", data(form, "weapon") or "")
            if not _show_errors(app, form, errors):
                app.dispatch(a, form)
        elif form_name == "sr-damage":
            app.dispatch({"type": "sr.damage", "target": cid, "location": values.get("location", ""),
                          "amount": as_int(values.get("amount", "")), "armour": bool(values.get("armour"))}, form)
        elif form_name == "sr-first-aid":
            a: dict[str, Any] = {"type": "sr.first_aid", "healer": values.get("healer", ""), "target": cid,
                                 "location": values.get("location", "")}
            rolls, errors = _rolls(values)
            if rolls:
                a["rolls"] = rolls
            if not _show_errors(app, form, errors):
                app.dispatch(a, form)
        return True


def _show_errors(app: Any, scope: Any, errors: dict[str, str]) -> bool:
    """Dice text that is not whole numbers: each message at its field; True when there were any."""
    if not errors:
        return False
    from ..errors import InvalidAction

    app.clear_errors(scope)
    for field, msg in errors.items():
        app.show_error(scope, InvalidAction(field, msg))
    return True


def care_action(form_name: str, cid: str, values: dict[str, Any], owner: str = "",
                weapon: str = "") -> tuple[dict[str, Any], dict[str, str]]:
    """The action of a card form (heal, natural healing, disengage, grapple, unstick) and dice errors."""
    rolls, errors = _rolls(values)
    a: dict[str, Any]
    if form_name == "sr-heal":
        a = {"type": "sr.heal", "target": cid, "location": values.get("location", ""),
             "points": as_int(str(values.get("points") or "").strip()), "kind": values.get("kind", "heal")}
        if values.get("reattach"):
            a["reattach"] = True
    elif form_name == "sr-natural-healing":
        a = {"type": "sr.natural_healing", "id": cid, "period": values.get("period", "")}
        if values.get("healer"):
            a["healer"] = values["healer"]
        else:
            rolls.pop("treatment", None)
    elif form_name == "sr-disengage":
        a = {"type": "sr.disengage", "id": cid, "how": values.get("how", "")}
    elif form_name == "sr-grapple":
        a = {"type": "sr.grapple", "id": cid, "target": values.get("target", ""), "option": values.get("option", "")}
        sub = str(values.get("substitute") or "").strip()
        if sub:
            a["substitute"] = as_int(sub)
    else:
        a = {"type": "sr.unstick", "id": values.get("id", cid), "holder": cid, "owner": owner, "weapon": weapon,
             "method": values.get("method", "")}
    if rolls:
        a["rolls"] = rolls
    return a, errors


PANEL = StrikeRankPanel()  # found by the ruleset's ``panel = "strike_rank_panel"``
