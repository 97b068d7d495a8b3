"""The range-band card (altitude, stealth, breath, mounts, statuses, what the combatant may still do
this round) and the game's section of the Add-combatant form, with the reader of its fields."""

from __future__ import annotations

from typing import Any

from fray.web.render import esc
from fray.web.widgets import (act_button as _btn, as_int, combatant_in as _combatant, err_slot as _err,
                      field as _field, names_in as _names, select as _select, text_input as _input)
from fray.games.range_band.web.common import ADD_TRAITS, STEALTH_TEXT, _check, _g


def card_html(view: dict[str, Any], cid: str) -> str:
    c = _combatant(view, cid)
    if c is None:
        return ""
    names = _names(view)
    st = c["stealth"]
    phase = view.get("phase", {}).get("id", "setup")
    level = st["level"]
    stealth_opts = [(lv, STEALTH_TEXT[lv]) for lv in ("low", "medium", "high")]
    locked = (" · cannot re-enter " + ", ".join(STEALTH_TEXT.get(x, x) for x in st.get("locked", [])) +
              " this round") if st.get("locked") else ""
    stealth_form = (
        f'<form class="rb-inline" data-form="rb-stealth" data-id="{esc(cid)}" novalidate>'
        f'<label for="rb-st-{esc(cid)}">Stealth</label>'
        f'{_select(f"rb-st-{cid}", "level", stealth_opts, level)}'
        + (_check(f"rb-st-start-{cid}", "start", "start in it (no roll)", False) if phase == "setup" else "")
        + f'<button type="submit" class="small" aria-label="Set the stealth level of {esc(c["name"])}">Set</button>'
        f'{_err("level")}</form>')
    # flight and altitude
    alt = c["altitude"]
    fs = c["flying_spd"]
    if c.get("flying"):
        flight = f'flying, altitude <strong class="rb-alt-band">{esc(alt["band"])}</strong> ({_g(alt["metres"])} m)'
    elif c.get("mount") and alt["metres"] > 0:
        flight = f'on a flying mount, altitude <strong class="rb-alt-band">{esc(alt["band"])}</strong>'
    else:
        flight = "on the ground"
    w = c.get("water")
    if w and w.get("none"):
        flight = (f'below the ground ({_g(alt["metres"])} m) with no water there: counts as on the ground '
                  '(mark a water area under Obscuring areas and water)')
    elif w and w["below"] > 0:
        flight = f'underwater, {_g(w["below"])} m below the surface of {esc(w["name"])}'
    elif w:
        flight = f'swimming at the surface of {esc(w["name"])}'
    spd_bits = [f'SPD {esc(c["stats"].get("SPD"))}']
    if fs["value"]:
        spd_bits.append(f'flying SPD {esc(fs["value"])}' + (
            " (" + " + ".join(f'{esc(p["reason"])} {esc(p["value"])}' for p in fs["parts"]) + ")"
            if len(fs["parts"]) > 1 else ""))
    if c.get("underwater_spd"):
        us = c["underwater_spd"]
        spd_bits.append(f'underwater SPD {esc(us["value"])} (' +
                        " + ".join(f'{esc(p["reason"])} {esc(p["value"])}' for p in us["parts"]) + ")")
    # mount: the form stays on a rider's card too, so a second mount is refused with the reason
    opts = [("", "(choose a mount)")] + [(o["id"], o["name"]) for o in view.get("combatants", [])]
    mount_form = (f'<form class="rb-inline" data-form="rb-mount" data-id="{esc(cid)}" novalidate>'
                  f'<label for="rb-mt-{esc(cid)}">Ride</label>{_select(f"rb-mt-{cid}", "mount", opts)}'
                  f'<button type="submit" class="small" aria-label="Mount: {esc(c["name"])}">Mount</button>'
                  f'{_err("mount")}</form>') if not c.get("out") else ""
    if c.get("mount"):
        mount = (f'rides <strong>{esc(names.get(c["mount"], c["mount"]))}</strong> '
                 + _btn("Dismount", "rb-dismount", "small secondary", aria=f"Dismount {c['name']}", id=cid)
                 + _btn("Fall off (free)", "rb-fall-off", "small secondary", aria=f"Fall off (free): {c['name']}", id=cid))
        mh = ", ".join(f'+{p["count"]} {esc(p["reason"])}' for p in c.get("mounted_hindrance", []))
        if mh:
            mount += f'<span class="hint rb-mh"> ranged/slowing Hindrance: {mh}</span>'
        mount += mount_form
    elif c.get("rider"):
        mount = f'carries <strong>{esc(names.get(c["rider"], c["rider"]))}</strong>'
    else:
        mount = '<span>none</span>' + mount_form
    # breath
    b = c["breath"]
    breath_btn = ""
    if not b.get("out") and (b.get("holding") or b.get("can_hold", True)):
        breath_btn = (_btn("Breathe", "rb-breath", "small secondary", aria=f"Breathe: {c['name']}", id=cid,
                           holding="false") if b.get("holding") else
                      _btn("Hold breath", "rb-breath", "small secondary", aria=f"Hold breath: {c['name']}",
                           id=cid, holding="true"))
    # statuses
    statuses = "".join(
        f'<li class="rb-status" title="{esc(s.get("text", ""))}">{esc(s["name"])}'
        + (f' <span class="hint">({esc(s["ends"])})</span>' if s.get("ends") else "")
        + _btn("×", "rb-status-off", "icon", aria=f"Remove {s['name']} from {c['name']}", id=cid, status=s["name"])
        + "</li>" for s in c.get("statuses", []))
    status_form = (
        f'<form class="rb-inline" data-form="rb-status" data-id="{esc(cid)}" novalidate>'
        f'<label for="rb-ss-{esc(cid)}">Status</label>'
        f'{_select(f"rb-ss-{cid}", "status", [(s, s) for s in view.get("choices", {}).get("statuses", [])])}'
        f'<label for="rb-sr-{esc(cid)}" class="visually-hidden">Rounds</label>'
        f'{_input(f"rb-sr-{cid}", "rounds", "", placeholder="rounds")}'
        f'<label for="rb-se-{esc(cid)}" class="visually-hidden">Ends</label>'
        f'{_select(f"rb-se-{cid}", "ends", [("before_turn", "ends before turn"), ("after_turn", "ends after turn")])}'
        f'<button type="submit" class="small" aria-label="Add the status to {esc(c["name"])}">Add</button>'
        f'{_err("status")}{_err("rounds")}{_err("ends")}</form>')
    unseen = view.get("unseen", {}).get(cid, [])
    sees = (f'cannot see: {", ".join(esc(names.get(x, x)) for x in unseen)}' if unseen else "sees everyone")
    if c.get("sightless"):
        sees = f'without sight ({esc(c["sightless"])})'
    if c.get("out"):
        sees = "out of the fight"  # the fallen see no one: listing everyone as unseen is noise
    unseen_by = [o for o, row in view.get("unseen", {}).items() if cid in row and o != cid]
    hidden = (f'; unseen by {", ".join(esc(names.get(x, x)) for x in unseen_by)}' if unseen_by else "")
    notes = []
    if not c["outnumbering"]["counts"]:
        notes.append(f'not counted for outnumbering: {esc(c["outnumbering"]["why"])}')
    gd = c.get("group_defense", {})
    if gd.get("why"):
        notes.append("group defense: " + esc("; ".join(gd["why"])))
    if c.get("if_immobilized"):
        notes.append(f'if immobilized after combat: {esc(c["if_immobilized"])}')
    if c.get("sinking") and c["sinking"] != "no":
        notes.append(f'sinks short range every {esc(c["sinking"])}')
    if c.get("speed_class"):
        notes.append("flying SPD 21+: Speed Class rules apply")
    if c.get("fatigue"):
        notes.append(f'fatigue this battle (Abilities, flight costs): {esc(c["fatigue"])}')
    if c.get("post_combat"):
        notes.append(f'post-combat fatigue {esc(c["post_combat"]["fatigue"])}, trauma {esc(c["post_combat"]["trauma"])}')
    knock = _btn("Knockdown", "rb-knockdown", "small secondary", aria=f"Knockdown: {c['name']}", id=cid)
    forms = f'{stealth_form}{status_form}{knock}'
    if c.get("out"):
        # issue 32: the fallen get no forms; the GM brings them back (or removes them from the fight)
        forms = _btn("Bring back", "rb-bring-back", "small secondary", aria=f"Bring {c['name']} back into the fight",
                     id=cid)
        breath_btn = ""
    return (
        f'<div class="rb-card" data-id="{esc(cid)}">'
        f'<dl class="rb-facts">'
        f'<div><dt>AWGT</dt><dd class="rb-awgt">{esc(c["awgt"])}</dd></div>'
        f'<div><dt>Stealth</dt><dd class="rb-stealth rb-st-{esc(level)}">{esc(STEALTH_TEXT.get(level, level))}'
        f'{esc(locked)}</dd></div>'
        f'<div><dt>Flight</dt><dd class="rb-flight">{flight}; {"; ".join(spd_bits)}</dd></div>'
        f'<div><dt>Mount</dt><dd class="rb-mount">{mount}</dd></div>'
        f'<div><dt>Breath</dt><dd class="rb-breath">{esc(b.get("text", ""))} {breath_btn}</dd></div>'
        f'<div><dt>Sight</dt><dd class="rb-sight">{sees}{hidden}</dd></div>'
        f'</dl>'
        f'<ul class="rb-statuses" aria-label="Statuses of {esc(c["name"])}">{statuses}</ul>'
        f'<div class="rb-card-forms">{forms}</div>'
        + (f'<p class="hint rb-notes">{"; ".join(notes)}</p>' if notes else "")
        + f'{_err("rb-card")}</div>')


def add_fields_html(extra: dict[str, Any] | None, mounts: list[tuple[str, str]] | None = None) -> str:
    """The range-band traits of the add form, filled from the JSON box; folded back on submit."""
    extra = extra or {}
    parts = ['<fieldset class="rb-add"><legend>Range-band traits</legend><div class="rb-grid">']
    for key, label, choices in ADD_TRAITS:
        default = "low" if key == "stealth" else choices[0]
        # the stealth levels in the words the card shows them in ("High Stealth"), not bare "high"
        shown = [(c, f"{c.capitalize()} Stealth" if key == "stealth" else c) for c in choices]
        parts.append(_field(f"f-rb-{key}", f"combatant.{key}", label,
                            _select(f"f-rb-{key}", f"rb_{key}", shown, extra.get(key, default))))
    parts.append(_field("f-rb-carried", "combatant.carried", "WGT carried",
                        _input("f-rb-carried", "rb_carried", extra.get("carried", 0))))
    parts.append(_field("f-rb-swim", "combatant.swim_bonus", "Swim SPD bonus",
                        _input("f-rb-swim", "rb_swim_bonus", extra.get("swim_bonus", 0))))
    opts = [("", "(none)")] + list(mounts or [])
    parts.append(_field("f-rb-riding", "combatant.riding", "Riding", _select("f-rb-riding", "rb_riding", opts,
                                                                             extra.get("riding", ""))))
    parts.append('</div><div class="rb-row">')
    parts.append(_check("f-rb-flying", "rb_flying", "Starts flying", bool(extra.get("flying"))))
    parts.append(f'{_err("combatant.flying")}</div>'
                 '<p class="hint">Weapons and other traits stay in the JSON below.</p></fieldset>')
    return "".join(parts)


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
