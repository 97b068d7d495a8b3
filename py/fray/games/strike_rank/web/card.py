"""The strike-rank extras of a combatant's card: total HP and status, the body diagram, derived
values, weapons, GM damage, First Aid, healing, disengaging, grappling and stuck weapons."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, h, html
from fray.games.strike_rank.web.attack import _dice
from fray.games.strike_rank.web.common import (DISENGAGE, GRAPPLE_OPTIONS, GRAPPLE_ROLLS, HEAL_KINDS, INJURY_LABEL, PERIODS, UNSTICK_BODY,
                     UNSTICK_SHIELD, _check, _err, _field, _fold, _input, _lazy_fold, _names, _others, _select,
                     dead_ids, injury_class)

# -- the card ------------------------------------------------------------------------------------


HUMANOID_AREAS = {("head", ""): "head", ("arm", "right"): "rarm", ("arm", "left"): "larm", ("chest", ""): "chest",
                  ("abdomen", ""): "abdo", ("leg", "right"): "rleg", ("leg", "left"): "lleg"}


def is_humanoid(locs: list[dict[str, Any]]) -> bool:
    keys = [(l.get("type"), l.get("side") or "") for l in locs]
    return len(keys) == len(set(keys)) and all(k in HUMANOID_AREAS for k in keys) and len(keys) >= 5


def location_cell(l: dict[str, Any], area: str | None = None, dead: bool = False) -> Markup:
    lvl = l.get("injury", "none")
    flags = []
    # the dead do not bleed (no CON test at the end of the MR: timing.bleed_tests); the flag stays in
    # the location for a resuscitation, when it bleeds again
    if l.get("bleeding") and not dead:
        flags.append("bleeding")
    if l.get("disabled") and lvl not in ("maimed", "mangled", "severed"):
        flags.append("disabled")
    if l.get("impaled_by"):
        flags.append("impaled: " + ", ".join(l["impaled_by"]))
    if l.get("first_aid_used"):
        flags.append("first aid given")
    # The grid area rides on a data attribute (strike-rank.css places it): the page's CSP runs no
    # inline style.
    rng = l.get("melee") or []
    rtxt = f' {rng[0]}–{rng[1]}' if len(rng) == 2 and rng[0] != rng[1] else (f" {rng[0]}" if rng else "")
    return html('<li class="sr-loc {}"{} data-loc="{}"><span class="n">{}<small>{}</small></span>'
                '<span class="hp">{}/{} HP</span><span class="ap">AP {}</span><span class="lvl">{}</span>{}</li>',
                injury_class(lvl), html(' data-area="{}"', area) if area else "", l["id"], l["name"], rtxt,
                l["hp"], l["hp_max"], l["ap"], INJURY_LABEL.get(lvl, lvl),
                html('<span class="fl">{}</span>', "; ".join(flags)) if flags else "")


def body_html(name: str, locs: list[dict[str, Any]], dead: bool = False) -> Markup:
    if is_humanoid(locs):
        cells = [location_cell(l, HUMANOID_AREAS[(l["type"], l.get("side") or "")], dead) for l in locs]
        cls = "sr-body humanoid"
    else:
        cells = [location_cell(l, None, dead) for l in locs]
        cls = "sr-body list"
    return h("ul", {"class": cls, "aria-label": f"Hit locations of {name}"}, cells)


def _whp(w: dict[str, Any]) -> Markup:
    return html("{}/{}", w["hp"], w["hp_max"]) if w.get("hp_max") else html("–")


def card_html(cid: str, view: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    c = view.get("combatants", {}).get(cid)
    if not c:
        return Markup("")
    names = _names(view)
    hp = c.get("hp", {})
    status = c.get("status", "ok")
    wound = wound_text(c)
    shown = ("wounded", wound) if status == "ok" and wound else (status, status)
    d = c.get("derived", {})
    derived = [html("<li>{}</li>", d[k]["text"]) for k in ("dex_sr", "siz_sr", "damage_modifier") if k in d]
    mv = c.get("movement", {})
    if mv:
        derived.append(html("<li>Movement {} m a strike rank{}</li>", mv.get("rate"),
                            html(" ({})", "; ".join(mv.get("why", []))) if mv.get("why") else ""))
    wrows = [
        html('<tr{}><th scope="row">{}</th><td>{}%</td><td>{}</td><td>SR {}</td><td>{}</td><td>{}</td></tr>',
             html("") if w.get("usable", True) else html(" class=unusable"), w["name"], w["skill"], w["damage"],
             w["sr"], _whp(w), w.get("why_not") or ("" if w.get("loaded", True) else "not loaded") or w.get("held", ""))
        for w in c.get("weapons", [])]
    weapons = html('<table class="sr-weapons" tabindex="0"><caption class="visually-hidden">Weapons of {}</caption>'
                   '<thead><tr><th scope="col">Weapon</th><th scope="col">Skill</th><th scope="col">Damage</th>'
                   '<th scope="col">SR</th><th scope="col">HP</th><th scope="col">Note</th></tr></thead>'
                   '<tbody>{}</tbody></table>', c["name"], fragment(wrows)) if wrows else None
    pending = [html("<li>{}</li>", p.get("text", "")) for p in view.get("prompts", []) if p.get("combatant") == cid]
    resus = c.get("resuscitate_by")
    locs = c.get("locations", [])
    prot = c.get("protection") or {}
    if prot.get("points"):
        # "Critical Hit: ... ignores armor (but not magical protection)"
        derived.append(html("<li>Magical protection {} at every location{}; a critical does not ignore it</li>",
                            prot["points"], html(" ({})", prot["reason"]) if prot.get("reason") else ""))
    return h(
        "div", {"class": "sr-card"},
        html('<p class="sr-hp"><strong>HP {}/{}</strong> <span class="sr-status st-{}">{}</span>{}</p>',
             hp.get("current"), hp.get("max"), shown[0], shown[1],
             html(' <span class="sr-resus">resuscitate by MR {} SR {}</span>', resus.get("round"), resus.get("sr"))
             if isinstance(resus, dict) else ""),
        body_html(c["name"], locs, status == "dead"),
        h("ul", {"class": "sr-derived", "aria-label": f"Derived values of {c['name']}"}, derived),
        weapons,
        h("ul", {"class": "sr-pending", "aria-label": f"Pending questions about {c['name']}"}, pending) if pending else None,
        stuck_html(cid, view, ui),
        _lazy_fold("sr-tools", f"care-{cid}", "Damage / First Aid / healing / protection",
                   lambda: care_html(cid, c, names, (ui.aid_said.get(cid, ()) if ui else ())), ui),
        fight_html(cid, c, names, ui, dead_ids(view)) if view.get("phase") in ("declare", "resolve") else None)


def _gm_form(form: str, cid: str, label: str, *children: Any, cls: str = "sr-gm") -> Markup:
    """One of the card's GM forms: ``data-form`` names its action, ``data-id`` the combatant."""
    return html('<form class="{}" data-form="{}" data-id="{}" novalidate aria-label="{}">{}</form>', cls, form, cid,
                label, fragment(children))


def _submit(label: str, aria: str) -> Markup:
    return html('<button type="submit" class="small" aria-label="{}">{}</button>', aria, label)


def care_html(cid: str, c: dict[str, Any], names: dict[str, str], aid_said: Any = ()) -> Markup:
    """GM damage, magical protection, First Aid and healing (``sr.damage``, ``sr.protection``,
    ``sr.first_aid``, ``heal_html``). ``aid_said``: what the GM's last First Aid on this card did
    (the log's lines), shown in its form: a failure treats nothing and may be tried again."""
    pre = f"sr-card-{cid}"
    name = c["name"]
    loc_opts = [(l["id"], l["name"]) for l in c.get("locations", [])]
    healers = [(o, n) for o, n in names.items()]
    dmg = _gm_form(
        "sr-damage", cid, f"GM damage to {name}",
        _field(pre + "-dloc", "location", "Location", _select(pre + "-dloc", "location", loc_opts)),
        _field(pre + "-damt", "amount", "Damage", _input(pre + "-damt", "amount", "", "numeric")),
        _check(pre + "-darm", "armour", "Armour stops", True),
        _submit("Damage", f"Apply damage to {name}"), _err("sr"))
    prot = c.get("protection") or {}
    shield = _gm_form(
        "sr-protection", cid, f"Magical protection of {name}",
        _field(pre + "-ppts", "points", "Magical protection",
               _input(pre + "-ppts", "points", str(prot.get("points", "")), "numeric", "0 ends it")),
        _field(pre + "-preason", "reason", "From (spell)",
               _input(pre + "-preason", "reason", prot.get("reason", ""), "text", "e.g. Protection 2")),
        _submit("Set protection", f"Set magical protection of {name}"), _err("sr"))
    aid = _gm_form(
        "sr-first-aid", cid, f"First Aid on {name}",
        _field(pre + "-healer", "healer", "Healer", _select(pre + "-healer", "healer", healers, cid)),
        _field(pre + "-aloc", "location", "Location", _select(pre + "-aloc", "location", loc_opts)),
        _field(pre + "-aroll", "rolls.first_aid", "d100", _input(pre + "-aroll", "rolls.first_aid", "", "numeric",
                                                                "blank = roll")),
        _field(pre + "-aheal", "rolls.heal", "Heal dice", _input(pre + "-aheal", "rolls.heal", "", "numeric",
                                                                "blank = roll")),
        _submit("First Aid", f"First Aid on {name}"), _err("sr"),
        h("p", {"class": "sr-aid-said", "role": "status"}, Markup("<br>").join(aid_said)) if aid_said else None)
    return fragment(dmg, shield, aid, heal_html(cid, c, names))


def heal_html(cid: str, c: dict[str, Any], names: dict[str, str]) -> Markup:
    """Magical healing (``sr.heal``) and natural healing with its treatment roll (``sr.natural_healing``)."""
    pre = f"sr-card-{cid}"
    who = c["name"]
    locs = [("total", "Total HP only")] + [(l["id"], l["name"]) for l in c.get("locations", [])]
    magic = _gm_form(
        "sr-heal", cid, f"Magical healing of {who}",
        _field(pre + "-hkind", "kind", "Magic", _select(pre + "-hkind", "kind", list(HEAL_KINDS))),
        _field(pre + "-hloc", "location", "Location", _select(pre + "-hloc", "location", locs,
                                                              locs[1][0] if len(locs) > 1 else "total")),
        _field(pre + "-hpts", "points", "Points", _input(pre + "-hpts", "points", "", "numeric")),
        _check(pre + "-hre", "reattach", "Re-attach severed limb"),
        _submit("Heal", f"Heal {who} by magic"), _err("sr"))
    healers = [("", "(no treatment)")] + list(names.items())
    natural = _gm_form(
        "sr-natural-healing", cid, f"Natural healing of {who}",
        _field(pre + "-nper", "period", "Rest for", _select(pre + "-nper", "period", list(PERIODS))),
        _check(pre + "-nrest", "rested", "Rested (no travel on foot, heavy labour or fighting)", True),
        _field(pre + "-nhealer", "healer", "Treated by", _select(pre + "-nhealer", "healer", healers)),
        _field(pre + "-ntr", "rolls.treatment", "Treatment d100",
               _input(pre + "-ntr", "rolls.treatment", "", "numeric", "blank = roll")),
        _submit("Heal naturally", f"Natural healing of {who}"), _err("sr"))
    return fragment(magic, natural)


def fight_html(cid: str, c: dict[str, Any], names: dict[str, str], ui: dict[str, Any] | None = None,
               dead: frozenset[str] = frozenset()) -> Markup:
    """Disengaging (``sr.disengage``) and the grappling options (``sr.grapple``), one fold-out,
    open while the combatant is held."""
    held = "grappled" in c.get("conditions", []) or any(l.get("immobilized_by") for l in c.get("locations", []))
    return _lazy_fold("sr-tools sr-fight", f"fight-{cid}", "Disengage / grapple" + (" (held)" if held else ""),
                      lambda: fight_forms(cid, c, names, dead), ui, held)


def fight_forms(cid: str, c: dict[str, Any], names: dict[str, str], dead: frozenset[str] = frozenset()) -> Markup:
    pre = f"sr-card-{cid}"
    who = c["name"]
    # grappling the dead is no grapple ("Dead characters cannot do anything"): the living only
    others = [x for x in _others(names, cid) if x[0] not in dead]
    dis = _gm_form(
        "sr-disengage", cid, f"Disengage {who}",
        _field(pre + "-how", "how", "Disengage by", _select(pre + "-how", "how", list(DISENGAGE))),
        _submit("Disengage", f"Disengage {who}"), _err("sr"))
    grp = _gm_form(
        "sr-grapple", cid, f"Grapple options of {who}",
        _field(pre + "-gt", "target", "Whom", _select(pre + "-gt", "target", others)),
        _field(pre + "-gopt", "option", "Option", _select(pre + "-gopt", "option", list(GRAPPLE_OPTIONS))),
        _field(pre + "-gsub", "substitute", "Unarmed / MA % (for STR)",
               _input(pre + "-gsub", "substitute", "", "numeric", "blank = STR")),
        _dice(pre + "-g", GRAPPLE_ROLLS),
        _submit("Grapple", f"Grapple: {who} acts"), _err("sr"), cls="sr-gm sr-grapple")
    return fragment(dis, grp)


def stuck_entries(cid: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """Weapons stuck in this combatant's body or shields, with the owner and weapon ids the view
    gives (``stuck_weapons``)."""
    cs = view.get("combatants", {})
    c = cs.get(cid, {})
    return [{**e, "owner_name": cs.get(e["owner"], {}).get("name", "")} for e in c.get("stuck_weapons", [])]


def stuck_html(cid: str, view: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """One ``sr.unstick`` form per stuck weapon: who tries, how, and the test's dice."""
    entries = [e for e in stuck_entries(cid, view) if e["owner"]]
    if not entries:
        return Markup("")
    names = _names(view)
    holder = names.get(cid, "")
    forms = []
    for i, e in enumerate(entries):
        pre = f"sr-card-{cid}-u{i}"
        methods = UNSTICK_SHIELD if e["in"] == "shield" else UNSTICK_BODY
        label = f'{e["name"]} ({e["owner_name"]}) in {holder}\'s {e["where"]}'
        forms.append(h(
            "form", {"class": "sr-gm sr-unstick", "data-form": "sr-unstick", "data-id": cid, "data-owner": e["owner"],
                     "data-weapon": e["weapon"], "novalidate": True, "aria-label": f"Free {label}"},
            h("p", {"class": "sr-stuck-what", "data-field": "weapon"}, label, _err("weapon")),
            _field(pre + "-who", "id", "Who tries", _select(pre + "-who", "id", list(names.items()), cid)),
            _field(pre + "-m", "method", "How", _select(pre + "-m", "method", list(methods))),
            _field(pre + "-rt", "rolls.test", "Test d100", _input(pre + "-rt", "rolls.test", "", "numeric", "blank = roll")),
            _field(pre + "-rd", "rolls.impale_damage", "Wrench damage dice",
                   _input(pre + "-rd", "rolls.impale_damage", "", "numeric", "blank = roll")) if e["in"] == "body" else None,
            _submit("Free it (1 MR)", f'Try to free {e["name"]}'), _err("sr")))
    return _fold("sr-tools sr-stuck", f"stuck-{cid}", f"Stuck weapons ({len(entries)})", forms, ui, True)


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
