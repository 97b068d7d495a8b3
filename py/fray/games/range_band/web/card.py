"""The range-band card (altitude, stealth, breath, mounts, statuses, what the combatant may still do
this round) and the game's section of the Add-combatant form, with the reader of its fields."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, h, html
from fray.web.widgets import as_int, combatant_in as _combatant, names_in as _names
from fray.games.range_band.statuses import word as status_word
from fray.games.range_band.web.common import (ADD_TRAITS, STEALTH_TEXT, _btn, _check, _err, _field, _g, _input,
                                              _select)


def card_html(view: dict[str, Any], cid: str) -> Markup:
    c = _combatant(view, cid)
    if c is None:
        return Markup("")
    names = _names(view)
    st = c["stealth"]
    phase = view.get("phase", {}).get("id", "setup")
    level = st["level"]
    stealth_opts = [(lv, STEALTH_TEXT[lv]) for lv in ("low", "medium", "high")]
    locked = (" · cannot re-enter " + ", ".join(STEALTH_TEXT.get(x, x) for x in st.get("locked", [])) +
              " this round") if st.get("locked") else ""
    stealth_form = html(
        '<form class="rb-inline" data-form="rb-stealth" data-id="{cid}" novalidate>'
        '<label for="rb-st-{cid}">Stealth</label>{sel}{start}'
        '<button type="submit" class="small" aria-label="Set the stealth level of {name}">Set</button>{err}</form>',
        cid=cid, sel=_select(f"rb-st-{cid}", "level", stealth_opts, level),
        start=_check(f"rb-st-start-{cid}", "start", "start in it (no roll)", False) if phase == "setup" else "",
        name=c["name"], err=_err("level"))
    # flight and altitude
    alt = c["altitude"]
    fs = c["flying_spd"]
    if c.get("flying"):
        flight = html('flying, altitude <strong class="rb-alt-band">{}</strong> ({} m)', alt["band"], _g(alt["metres"]))
    elif c.get("mount") and alt["metres"] > 0:
        flight = html('on a flying mount, altitude <strong class="rb-alt-band">{}</strong>', alt["band"])
    else:
        flight = Markup("on the ground")
    w = c.get("water")
    if w and w.get("none"):
        flight = html('below the ground ({} m) with no water there: counts as on the ground '
                      '(mark a water area under Obscuring areas and water)', _g(alt["metres"]))
    elif w and w["below"] > 0:
        flight = html("underwater, {} m below the surface of {}", _g(w["below"]), w["name"])
    elif w:
        flight = html("swimming at the surface of {}", w["name"])
    spd_bits = [f'SPD {c["stats"].get("SPD")}']
    if fs["value"]:
        spd_bits.append(f'flying SPD {fs["value"]}' + (
            " (" + " + ".join(f'{p["reason"]} {p["value"]}' for p in fs["parts"]) + ")"
            if len(fs["parts"]) > 1 else ""))
    if c.get("underwater_spd"):
        us = c["underwater_spd"]
        spd_bits.append(f'underwater SPD {us["value"]} (' +
                        " + ".join(f'{p["reason"]} {p["value"]}' for p in us["parts"]) + ")")
    # mount: on the card of one on foot only (a GM's play-through: "rides Grey / Dismount" beside "Ride: (choose a
    # mount)"); only what ``mount_choices`` lets this combatant ride
    opts = [("", "(choose a mount)")] + mount_choices(view, cid)
    mount_form = html(
        '<form class="rb-inline" data-form="rb-mount" data-id="{cid}" novalidate>'
        '<label for="rb-mt-{cid}">Ride</label>{sel}'
        '<button type="submit" class="small" aria-label="Mount: {name}">Mount</button>{err}</form>',
        cid=cid, sel=_select(f"rb-mt-{cid}", "mount", opts), name=c["name"],
        err=_err("mount")) if not c.get("out") else ""
    if c.get("mount"):
        mh = ", ".join(f'+{p["count"]} {p["reason"]}' for p in c.get("mounted_hindrance", []))
        mount = fragment(
            html("rides <strong>{}</strong> ", names.get(c["mount"], c["mount"])),
            _btn("Dismount", "rb-dismount", "small secondary", aria=f"Dismount {c['name']}", id=cid),
            _btn("Fall off (free)", "rb-fall-off", "small secondary", aria=f"Fall off (free): {c['name']}", id=cid),
            html('<span class="hint rb-mh"> ranged/slowing Hindrance: {}</span>', mh) if mh else "")
    elif c.get("rider"):
        mount = html("carries <strong>{}</strong>", names.get(c["rider"], c["rider"]))
    else:
        mount = fragment(Markup("<span>none</span>"), mount_form)
    # breath
    b = c["breath"]
    breath_btn: Markup | str = ""
    if not b.get("out") and (b.get("holding") or b.get("can_hold", True)):
        breath_btn = (_btn("Breathe", "rb-breath", "small secondary", aria=f"Breathe: {c['name']}", id=cid,
                           holding="false") if b.get("holding") else
                      _btn("Hold breath", "rb-breath", "small secondary", aria=f"Hold breath: {c['name']}",
                           id=cid, holding="true"))
    # statuses
    statuses = [
        h("li", {"class": "rb-status", "title": s.get("text", "")}, s["word"],
          html(' <span class="hint">({})</span>', s["ends"]) if s.get("ends") else "",
          _btn("×", "rb-status-off", "icon", aria=f"Remove {s['word']} from {c['name']}", id=cid, status=s["name"]))
        for s in c.get("statuses", [])]
    status_form = html(
        '<form class="rb-inline" data-form="rb-status" data-id="{cid}" novalidate>'
        '<label for="rb-ss-{cid}">Status</label>{status}'
        '<label for="rb-sr-{cid}" class="visually-hidden">Rounds</label>{rounds}'
        '<label for="rb-se-{cid}" class="visually-hidden">Ends</label>{ends}'
        '<button type="submit" class="small" aria-label="Add the status to {name}">Add</button>{errs}</form>',
        cid=cid, name=c["name"],
        status=_select(f"rb-ss-{cid}", "status", [(s, status_word(s)) for s in view.get("choices", {}).get("statuses", [])]),
        rounds=_input(f"rb-sr-{cid}", "rounds", "", placeholder="rounds"),
        ends=_select(f"rb-se-{cid}", "ends", [("before_turn", "ends before turn"), ("after_turn", "ends after turn")]),
        errs=fragment(_err("status"), _err("rounds"), _err("ends")))
    # the fallen are named neither way (a GM's play-through: "unseen by Bandit's Nag", the Nag dead)
    fallen = {x["id"] for x in view.get("combatants", []) if x.get("out")}
    unseen = [x for x in view.get("unseen", {}).get(cid, []) if x not in fallen]
    sees = ("cannot see: " + ", ".join(names.get(x, x) for x in unseen) if unseen else "sees everyone")
    if c.get("sightless"):
        sees = f'without sight ({c["sightless"]})'
    if c.get("out"):
        sees = "out of the fight"  # the fallen see no one: listing everyone as unseen is noise
    unseen_by = [o for o, row in view.get("unseen", {}).items() if cid in row and o != cid and o not in fallen]
    hidden = ("; unseen by " + ", ".join(names.get(x, x) for x in unseen_by) if unseen_by else "")
    notes = []
    if not c["outnumbering"]["counts"]:
        notes.append(f'not counted for outnumbering: {c["outnumbering"]["why"]}')
    gd = c.get("group_defense", {})
    if gd.get("why"):
        notes.append("group defense: " + "; ".join(gd["why"]))
    if c.get("if_immobilized"):
        notes.append(f'if immobilized after combat: {c["if_immobilized"]}')
    if c.get("sinking") and c["sinking"] != "no":
        notes.append(f'sinks short range every {c["sinking"]}')
    if c.get("speed_class"):
        notes.append("flying SPD 21+: Speed Class rules apply")
    if c.get("fatigue"):
        notes.append(f'fatigue this battle (Abilities, flight costs): {c["fatigue"]}')
    if c.get("post_combat"):
        notes.append(f'post-combat fatigue {c["post_combat"]["fatigue"]}, trauma {c["post_combat"]["trauma"]}')
    knock = _btn("Knockdown", "rb-knockdown", "small secondary", aria=f"Knockdown: {c['name']}", id=cid)
    forms = fragment(stealth_form, status_form, knock)
    if c.get("out"):
        # issue 32: the fallen get no forms; the GM brings them back (or removes them from the fight)
        forms = _btn("Bring back", "rb-bring-back", "small secondary", aria=f"Bring {c['name']} back into the fight",
                     id=cid)
        breath_btn = ""
    return html(
        '<div class="rb-card" data-id="{cid}"><dl class="rb-facts">'
        '<div><dt>Weight</dt><dd class="rb-awgt">{awgt} adjusted (AWGT)</dd></div>'
        '<div><dt>Stealth</dt><dd class="rb-stealth rb-st-{level}">{stealth}{locked}</dd></div>'
        '<div><dt>Flight</dt><dd class="rb-flight">{flight}; {spd}</dd></div>'
        '<div><dt>Mount</dt><dd class="rb-mount">{mount}</dd></div>'
        '<div><dt>Breath</dt><dd class="rb-breath">{breath} {breath_btn}</dd></div>'
        '<div><dt>Sight</dt><dd class="rb-sight">{sees}{hidden}</dd></div>'
        '</dl><ul class="rb-statuses" aria-label="Statuses of {name}">{statuses}</ul>'
        '<div class="rb-card-forms">{forms}</div>{notes}{err}</div>',
        cid=cid, awgt=c["awgt"], level=level, stealth=STEALTH_TEXT.get(level, level), locked=locked,
        flight=flight, spd="; ".join(spd_bits), mount=mount, breath=b.get("text", ""), breath_btn=breath_btn,
        sees=sees, hidden=hidden, name=c["name"], statuses=fragment(statuses),
        forms=forms, notes=html('<p class="hint rb-notes">{}</p>', "; ".join(notes)) if notes else "",
        err=_err("rb-card"))


def mount_choices(view: dict[str, Any], rider: str | None = None) -> list[tuple[str, str]]:
    """What the Ride list (and the add form's Riding, ``rider`` None) offers: the creatures in the fight that are not
    people (an animal, or a tech steed: the kind the card says) carrying no one and riding nothing; for ``rider``,
    of the rider's side and never the rider. Back in Combat: "Creatures with sufficiently high weight and carry
    factors can carry more than one character" (a mount is a creature, not only an animal), "Mounts cannot carry
    more than one character as a proper rider"; an incapacitated mount leaves its rider "no longer considered
    mounted". A GM's play: the list offered foes and people (and their own, the fallen before). The engine takes
    any mount the GM sends (a foe's horse taken): the list is what a GM means by Ride."""
    me = next((o for o in view.get("combatants", []) if o["id"] == rider), None) if rider else None
    return [(o["id"], o["name"]) for o in view.get("combatants", [])
            if o["id"] != rider and o.get("kind") in ("animal", "tech") and not o.get("out") and not o.get("rider")
            and not o.get("mount") and (me is None or o.get("side") == me.get("side"))]


def add_fields_html(extra: dict[str, Any] | None, mounts: list[tuple[str, str]] | None = None) -> Markup:
    """The range-band traits of the add form, filled from the JSON box; folded back on submit."""
    extra = extra or {}
    traits = []
    for key, label, choices in ADD_TRAITS:
        default = "low" if key == "stealth" else choices[0]
        # the stealth levels in the words the card shows them in ("High Stealth"), not bare "high"
        shown = [(c, f"{c.capitalize()} Stealth" if key == "stealth" else c) for c in choices]
        traits.append(_field(f"f-rb-{key}", f"combatant.{key}", label,
                             _select(f"f-rb-{key}", f"rb_{key}", shown, extra.get(key, default))))
    opts = [("", "(none)")] + list(mounts or [])
    return html(
        '<fieldset class="rb-add"><legend>Range-band traits</legend><div class="rb-grid">{traits}{carried}{swim}'
        '{riding}</div><div class="rb-row">{flying}{err}</div>'
        '<p class="hint">Weapons and other traits stay in the box below.</p></fieldset>',
        traits=fragment(traits),
        carried=_field("f-rb-carried", "combatant.carried", "WGT carried",
                       _input("f-rb-carried", "rb_carried", extra.get("carried", 0))),
        swim=_field("f-rb-swim", "combatant.swim_bonus", "Swim SPD bonus",
                    _input("f-rb-swim", "rb_swim_bonus", extra.get("swim_bonus", 0))),
        riding=_field("f-rb-riding", "combatant.riding", "Riding",
                      _select("f-rb-riding", "rb_riding", opts, extra.get("riding", ""))),
        flying=_check("f-rb-flying", "rb_flying", "Starts flying", bool(extra.get("flying"))),
        err=_err("combatant.flying"))


ADD_KEYS = tuple(k for k, _, _ in ADD_TRAITS) + ("carried", "swim_bonus", "riding", "flying")


def add_extra(values: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """The JSON box's fields with this section's values (the section wins)."""
    out = dict(extra)
    for key, _, _ in ADD_TRAITS:
        if f"rb_{key}" in values:
            out[key] = values[f"rb_{key}"]
    for key in ("carried", "swim_bonus"):
        if f"rb_{key}" in values:
            v = values[f"rb_{key}"]
            out[key] = as_int(v) if isinstance(v, str) and v.strip() else 0
    if "rb_riding" in values:
        if values["rb_riding"]:
            out["riding"] = values["rb_riding"]
        else:
            out.pop("riding", None)
    if "rb_flying" in values:
        if values["rb_flying"]:
            out["flying"] = True
        else:
            out.pop("flying", None)
    return out
