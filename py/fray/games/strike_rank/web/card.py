"""The strike-rank extras of a combatant's card: total HP and status, the body diagram, derived
values, weapons, GM damage, First Aid, healing, disengaging, grappling and stuck weapons."""

from __future__ import annotations

from typing import Any

from fray.games.strike_rank.web.attack import _dice
from fray.games.strike_rank.web.common import (DISENGAGE, GRAPPLE_OPTIONS, GRAPPLE_ROLLS, HEAL_KINDS, INJURY_LABEL, PERIODS, UNSTICK_BODY,
                     UNSTICK_SHIELD, _check, _err, _field, _fold, _input, _lazy_fold, _names, _others, _select, esc,
                     injury_class)

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
    wound = wound_text(c)
    shown = ("wounded", wound) if status == "ok" and wound else (status, status)
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
        f'<td>{esc(w.get("why_not") or ("" if w.get("loaded", True) else "not loaded") or w.get("held", ""))}</td></tr>'
        for w in c.get("weapons", []))
    weapons = (f'<table class="sr-weapons" tabindex="0"><caption class="visually-hidden">Weapons of {esc(c["name"])}</caption>'
               f'<thead><tr><th scope="col">Weapon</th><th scope="col">Skill</th><th scope="col">Damage</th>'
               f'<th scope="col">SR</th><th scope="col">HP</th><th scope="col">Note</th></tr></thead>'
               f'<tbody>{wrows}</tbody></table>') if wrows else ""
    pend = [p for p in view.get("prompts", []) if p.get("combatant") == cid]
    pending = "".join(f'<li>{esc(p.get("text", ""))}</li>' for p in pend)
    resus = c.get("resuscitate_by")
    locs = c.get("locations", [])
    prot = c.get("protection") or {}
    if prot.get("points"):
        # "Critical Hit: ... ignores armor (but not magical protection)"
        derived += (f'<li>Magical protection {esc(prot["points"])} at every location'
                    + (f' ({esc(prot["reason"])})' if prot.get("reason") else "") + '; a critical does not ignore it</li>')
    return (
        f'<div class="sr-card">'
        f'<p class="sr-hp"><strong>HP {esc(hp.get("current"))}/{esc(hp.get("max"))}</strong>'
        f' <span class="sr-status st-{esc(shown[0])}">{esc(shown[1])}</span>'
        + (f' <span class="sr-resus">resuscitate by MR {esc(resus.get("round"))} SR {esc(resus.get("sr"))}</span>'
           if isinstance(resus, dict) else "") + "</p>"
        + body_html(c["name"], locs)
        + f'<ul class="sr-derived" aria-label="Derived values of {esc(c["name"])}">{derived}</ul>'
        + weapons
        + (f'<ul class="sr-pending" aria-label="Pending questions about {esc(c["name"])}">{pending}</ul>'
           if pending else "")
        + stuck_html(cid, view, ui)
        + _lazy_fold("sr-tools", f"care-{cid}", "Damage / First Aid / healing / protection",
                     lambda: care_html(cid, c, names, (ui.aid_said.get(cid, ()) if ui else ())), ui)
        + (fight_html(cid, c, names, ui) if view.get("phase") in ("declare", "resolve") else "")
        + "</div>")


def care_html(cid: str, c: dict[str, Any], names: dict[str, str], aid_said: Any = ()) -> str:
    """GM damage, magical protection, First Aid and healing (``sr.damage``, ``sr.protection``,
    ``sr.first_aid``, ``heal_html``). ``aid_said``: what the GM's last First Aid on this card did
    (the log's lines), shown in its form: a failure treats nothing and may be tried again."""
    pre = f"sr-card-{cid}"
    loc_opts = [(l["id"], l["name"]) for l in c.get("locations", [])]
    healers = [(o, n) for o, n in names.items()]
    dmg = (f'<form class="sr-gm" data-form="sr-damage" data-id="{esc(cid)}" novalidate '
           f'aria-label="GM damage to {esc(c["name"])}">'
           + _field(pre + "-dloc", "location", "Location", _select(pre + "-dloc", "location", loc_opts))
           + _field(pre + "-damt", "amount", "Damage", _input(pre + "-damt", "amount", "", "numeric"))
           + _check(pre + "-darm", "armour", "Armour stops", True)
           + f'<button type="submit" class="small" aria-label="Apply damage to {esc(c["name"])}">Damage</button>'
           + _err("sr") + "</form>")
    prot = c.get("protection") or {}
    shield = (f'<form class="sr-gm" data-form="sr-protection" data-id="{esc(cid)}" novalidate '
              f'aria-label="Magical protection of {esc(c["name"])}">'
              + _field(pre + "-ppts", "points", "Magical protection",
                       _input(pre + "-ppts", "points", str(prot.get("points", "")), "numeric", "0 ends it"))
              + _field(pre + "-preason", "reason", "From (spell)",
                       _input(pre + "-preason", "reason", prot.get("reason", ""), "text", "e.g. Protection 2"))
              + f'<button type="submit" class="small" aria-label="Set magical protection of {esc(c["name"])}">'
              f'Set protection</button>' + _err("sr") + "</form>")
    aid = (f'<form class="sr-gm" data-form="sr-first-aid" data-id="{esc(cid)}" novalidate '
           f'aria-label="First Aid on {esc(c["name"])}">'
           + _field(pre + "-healer", "healer", "Healer", _select(pre + "-healer", "healer", healers, cid))
           + _field(pre + "-aloc", "location", "Location", _select(pre + "-aloc", "location", loc_opts))
           + _field(pre + "-aroll", "rolls.first_aid", "d100", _input(pre + "-aroll", "rolls.first_aid", "", "numeric",
                                                                     "blank = roll"))
           + _field(pre + "-aheal", "rolls.heal", "Heal dice", _input(pre + "-aheal", "rolls.heal", "", "numeric",
                                                                     "blank = roll"))
           + f'<button type="submit" class="small" aria-label="First Aid on {esc(c["name"])}">First Aid</button>'
           + _err("sr")
           + (f'<p class="sr-aid-said" role="status">{"<br>".join(esc(t) for t in aid_said)}</p>' if aid_said else "")
           + "</form>")
    return dmg + shield + aid + heal_html(cid, c, names)


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
               + _check(pre + "-nrest", "rested", "Rested (no travel on foot, heavy labour or fighting)", True)
               + _field(pre + "-nhealer", "healer", "Treated by", _select(pre + "-nhealer", "healer", healers))
               + _field(pre + "-ntr", "rolls.treatment", "Treatment d100",
                        _input(pre + "-ntr", "rolls.treatment", "", "numeric", "blank = roll"))
               + f'<button type="submit" class="small" aria-label="Natural healing of {esc(who)}">Heal naturally</button>'
               + _err("sr") + "</form>")
    return magic + natural


def fight_html(cid: str, c: dict[str, Any], names: dict[str, str], ui: dict[str, Any] | None = None) -> str:
    """Disengaging (``sr.disengage``) and the grappling options (``sr.grapple``), one fold-out,
    open while the combatant is held."""
    held = "grappled" in c.get("conditions", []) or any(l.get("immobilized_by") for l in c.get("locations", []))
    return _lazy_fold("sr-tools sr-fight", f"fight-{cid}", "Disengage / grapple" + (" (held)" if held else ""),
                      lambda: fight_forms(cid, c, names), ui, held)


def fight_forms(cid: str, c: dict[str, Any], names: dict[str, str]) -> str:
    pre = f"sr-card-{cid}"
    who = c["name"]
    others = _others(names, cid)
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
    return dis + grp


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


def wound_text(c: dict[str, Any]) -> str:
    """What a standing combatant's worst wound is, for the HP line ("ok" would hide a bleeding
    abdomen): "bleeding: Abdomen", else "serious wound: Chest", "" when unhurt or only scratched."""
    locs = c.get("locations", [])
    bleeding = [l["name"] for l in locs if l.get("bleeding")]
    if bleeding:
        return "bleeding: " + ", ".join(bleeding)
    worst = max(locs, key=lambda l: WOUND_RANK.get(l.get("injury", "none"), 0), default=None)
    if worst is None or WOUND_RANK.get(worst.get("injury", "none"), 0) < WOUND_RANK["serious"]:
        return ""
    return f'{INJURY_LABEL.get(worst["injury"], worst["injury"])} wound: {worst["name"]}'


WOUND_RANK = {k: i for i, k in enumerate(("none", "minor", "serious", "maimed", "mangled", "severed"))}
