"""The acting combatant's forms: movement (with flight and descent) in the movement phase; attack,
stealth, another action, detection and the More actions fold-out in the action phase."""

from __future__ import annotations

from typing import Any

from fray.web.html import Markup, fragment, html
from fray.web.widgets import combatant_in as _combatant
from fray.games.base import possessive
from fray.games.range_band.web.common import (ATTACK_FLAGS, DICE, MORE, MOVE_FLAGS, ROLL_STATS, _btn, _check, _err,
                                              _field, _g, _general_err, _id_checks, _input, _lazy_fold, _lazy_state,
                                              _preview_slot, _select)


def _targets(view: dict[str, Any], cid: str,
             positions: dict[str, tuple[float, float, float]] | None = None) -> list[tuple[str, str]]:
    """Everyone but ``cid``, the default (first) being the nearest enemy still in the fight that ``cid`` can see
    (issue 32: never one's own mount, an ally or the fallen; a GM's play-through: not one the log says the attacker
    cannot see while another foe is in plain view): enemies in the fight, the seen before the unseen, by distance,
    then the others in the fight (allies, one's own mount or rider), then the fallen, marked so."""
    import math

    me = _combatant(view, cid) or {}
    partner = {me.get("mount"), me.get("rider")} - {None}
    here = (positions or {}).get(cid)
    sight = (view.get("visibility") or {}).get(cid, {})

    def far(c: dict[str, Any]) -> float:
        p = (positions or {}).get(c["id"])
        if here is None or p is None:
            return 0.0
        return max(math.hypot(p[0] - here[0], p[1] - here[1]), abs(p[2] - here[2]))

    def rank(c: dict[str, Any]) -> tuple:
        fallen = bool(c.get("out"))
        enemy = c.get("side") != me.get("side") and c["id"] not in partner
        return (fallen, not enemy, not sight.get(c["id"], {}).get("sees", True), far(c))

    others = sorted((c for c in view.get("combatants", []) if c["id"] != cid), key=rank)
    return [(c["id"], c["name"] + (f' ({", ".join(c["out"])})' if c.get("out") else "")
             + (" (own mount)" if c["id"] == me.get("mount") else "")
             + (" (own rider)" if c["id"] == me.get("rider") else "")) for c in others]


def warners(view: dict[str, Any], cid: str, target: str) -> list[tuple[str, str]]:
    """"Target warned by": nobody, then those who may warn ``target`` of ``cid``'s stealth attack. Stealth Attacks:
    "warned by one of their allies" (the target's side, never the target, nor the attacker, nor the fallen);
    "Animals cannot warn others, nor can they be warned"; "impossible if either character is deafened"; Lack of
    Sight: "If you are completely without sight, you gain no benefit from being warned" (a GM's play-through: the
    list offered the target himself, the attacker's allies and the fallen)."""
    def cannot(c: dict[str, Any]) -> bool:
        return c.get("kind") == "animal" or any(s.get("name") == "deafened" for s in c.get("statuses", []))

    t = _combatant(view, target)
    if t is None or cannot(t) or t.get("sightless"):
        return [("", "nobody")]
    return [("", "nobody")] + [(c["id"], c["name"]) for c in view.get("combatants", [])
                               if c["id"] not in (cid, target) and c.get("side") == t.get("side")
                               and not c.get("out") and not cannot(c)]


def weapon_choice(view: dict[str, Any], cid: str, target: str, kept: str | None) -> tuple[str, str]:
    """The attack form's Weapon for ``target`` and what to say beside it: the one the GM last attacked with while
    it can reach ``target``, else the first that can (a GM's play: a flyer at 31 m was offered its Talons first);
    when none can, the kept or first one and why none reaches, said before the roll (``attacks.out_of_reach``)."""
    whys = (view.get("weapon_reach") or {}).get(target) or []
    if not whys:
        return kept or "", ""
    if kept and kept.isdigit() and int(kept) < len(whys) and not whys[int(kept)]:
        return kept, ""
    reach = next((str(i) for i, why in enumerate(whys) if not why), None)
    if reach is not None:
        return reach, ""
    t = _combatant(view, target) or {}
    me = _combatant(view, cid) or {}
    return (kept if kept and kept.isdigit() and int(kept) < len(whys) else "0",
            f'None of {possessive(me.get("name", ""))} weapons can reach {t.get("name", "")} from here: '
            + "; ".join(whys))


def reach_note(text: str) -> Markup:
    """The line under the attack form's Target and Weapon saying no weapon reaches the Target (hidden when one
    does; the Target's change fills it in place)."""
    return html('<p class="rb-reach" data-reach-note role="status"{}>{}</p>', Markup("" if text else " hidden"), text)


def movement_html(view: dict[str, Any], c: dict[str, Any], pos: tuple[float, float, float]) -> Markup:
    cid = c["id"]
    pre = "rb-mv"
    x, y, alt = pos
    flags = fragment(_check(f"{pre}-{k}", k, label) for k, label in MOVE_FLAGS
                     if k != "drop_high_stealth" or c["stealth"]["level"] == "high")
    fly: Markup | str = ""
    if c.get("can_fly") and not view.get("zone", {}).get("underwater"):
        fly = (_btn("Land (stop flying)" if c.get("flying") else "Take off (fly)", "rb-fly", "secondary",
                    id=cid, on="false" if c.get("flying") else "true"))
    descend: Markup | str = ""
    if c.get("flying") and not view.get("zone", {}).get("underwater"):
        # a descent alone needs no roll: sent here, the engine points to Descend below; the GM may want the roll
        flags = fragment(flags, _check(f"{pre}-descent_roll", "descent_roll", "Roll for the descent anyway"))
        descend = html('<form class="rb-descend" data-form="rb-descend" data-id="{}" novalidate '
                       'aria-label="Descend without a roll">{}<button type="submit" class="secondary">Descend</button>'
                       '</form>', cid,
                       # starts on a real descent (a GM's play-through: it held the flyer's own altitude, and
                       # Descend logged a 0 m descent), empty when nothing is left to descend this phase
                       _field("rb-ds-alt", "alt", "Descend to altitude (m), no roll",
                              _input("rb-ds-alt", "alt", "" if c.get("descend_to") is None else _g(c["descend_to"]),
                                     "decimal")))
    ambush: Markup | str = ""
    if c["stealth"]["level"] == "high" or (c.get("moved") or {}).get("success"):
        ambush = html('<div class="rb-row">{}<span class="hint">after a successful move of at least short range, '
                      'begun in High Stealth</span></div>',
                      _btn("Ambush movement (stealth roll)", "rb-ambush", "secondary", id=cid))
    result: Markup | str = ""
    ask: Markup | str = ""
    mv = c.get("moved") or {}
    if mv.get("round") == view.get("round") and mv.get("descent"):
        # the text leaves open whether a roll may follow a descent made without one: the GM's call, asked here,
        # where the next press of Movement roll would be refused (the engine's reading) or allowed
        result = html('<p class="rb-result rb-result-ok" role="status">{} descended without a roll</p>', c["name"])
        ask = html('<fieldset class="rb-ask"><legend>A movement roll after the descent?</legend><p>Flight: '
                   '“During your movement phase, you may descend any distance equivalent to 1 zone (long range) with '
                   'or without a roll.” and “If vertical movement up or down is your only movement, it still counts '
                   'as a movement phase.” Fray reads the descent as {name}’s movement this phase, so no roll '
                   'follows it; the text does not say. Your call:</p>{check}{err}</fieldset>', name=c["name"],
                   err=_err("after_descent"),
                   check=_check(f"{pre}-after_descent", "after_descent",
                                "Let a movement roll follow the descent (kept in the log)"))
    elif mv.get("round") == view.get("round") and mv.get("success") is not None:
        by = f' by {_g(mv["by"])}' if mv.get("by") is not None else ""
        result = html('<p class="rb-result rb-result-{}" role="status">{}</p>', _outcome(mv),
                      f'Movement roll succeeded{by}: {c["name"]} moved' if mv["success"] else
                      f'Movement roll {"BLUNDERED" if mv.get("blunder") else "failed"}{by}: {c["name"]} stays put')
    if c.get("underwater_spd"):
        spd_name, spd = "underwater SPD", c["underwater_spd"]["value"]
    elif c.get("flying"):
        spd_name, spd = "flying SPD", c["flying_spd"]["value"]
    else:
        spd_name, spd = "SPD", c["stats"].get("SPD")
    return html(
        '<div class="rb-acting rb-box" data-id="{cid}"><h3>Movement: {name}</h3>{result}'
        '<p class="hint">Movement roll on {spd_name} {spd}; drag the token on the map (or type where) to '
        'choose where to; the roll '
        'specification shows below as you choose (a preview), then under Rolls to settle. Switch flight at the start '
        'or end of the movement.</p>'
        '<form data-form="rb-move" data-id="{cid}" novalidate aria-label="Move {name}"><div class="rb-grid">{x}{y}{alt}'
        '</div><div class="rb-row">{flags}</div>{ask}{preview}'
        '<div class="rb-row"><button type="submit" class="primary">Movement roll</button>{fly}</div>'
        '{err}</form>{descend}{ambush}{acting_err}</div>',
        cid=cid, name=c["name"], result=result, spd_name=spd_name, spd=spd,
        x=_field(f"{pre}-x", "x", "East (x, m)", _input(f"{pre}-x", "x", _g(x), "decimal")),
        y=_field(f"{pre}-y", "y", "North (y, m)", _input(f"{pre}-y", "y", _g(y), "decimal")),
        alt=_field(f"{pre}-alt", "alt", "Altitude (m)", _input(f"{pre}-alt", "alt", _g(alt), "decimal")),
        flags=flags, ask=ask, preview=_preview_slot(), fly=fly, err=_general_err(), descend=descend, ambush=ambush,
        acting_err=_err("rb-acting"))


def actions_html(view: dict[str, Any], c: dict[str, Any], ui: dict[str, Any] | None = None,
                 positions: dict[str, tuple[float, float, float]] | None = None) -> Markup:
    cid = c["id"]
    pre = "rb-at"
    weapons = c.get("traits", {}).get("weapons", [])
    w_opts = [(str(i), f'{w["name"]} ({w["kind"]}{", " + ", ".join(w["tags"]) if w.get("tags") else ""})')
              for i, w in enumerate(weapons)] or [("", "unarmed (melee)")]
    targets = _targets(view, cid, positions)
    # the Target the GM chose for this attacker stays chosen across redraws (its warners follow it), unless fallen
    kept = getattr(ui, "targets", {}).get(cid)
    target = kept if kept in {i for i, _ in targets} and not (_combatant(view, kept) or {}).get("out") else (
        targets[0][0] if targets else "")
    warn = warners(view, cid, target)
    weapon, unreached = weapon_choice(view, cid, target, getattr(ui, "weapons", {}).get(cid))
    flags = fragment(_check(f"{pre}-{k}", k, label) for k, label in ATTACK_FLAGS)
    # Melee needs engaged range; beyond it the engine refuses unless the GM allows it with a reason the log keeps
    override = html('<details class="rb-override"><summary>Melee beyond engaged range? Allow it (GM)</summary>{}'
                    '</details>', _field(f"{pre}-override", "override", "Reason (kept in the log)",
                                         _input(f"{pre}-override", "override", "", "text"))
                    ) if not weapons or any(w.get("kind") == "melee" for w in weapons) else ""
    attack = html(
        '<form data-form="rb-attack" data-id="{cid}" novalidate aria-label="Attack by {name}">'
        '<h4>Attack</h4>{result}<div class="rb-grid">{fields}</div>{reach}<div class="rb-row">{flags}</div>{override}'
        '{preview}'
        '<div class="rb-row">{roll}<button type="submit" class="secondary">Offense roll</button>'
        '<span class="hint">Roll it: the attack and Fray\'s roll in one tap; Offense roll: for your own dice</span>'
        '</div>{err}</form>',
        cid=cid, name=c["name"], result=_offense_result(view, cid),
        fields=fragment(
            _field(f"{pre}-target", "target", "Target", _select(f"{pre}-target", "target", targets, target)),
            # the weapon the GM last attacked with stays chosen (a GM's fights: the archer who shoots
            # again found the Weapon back on the first one listed, his melee weapon)
            _field(f"{pre}-weapon", "weapon", "Weapon", _select(f"{pre}-weapon", "weapon", w_opts, weapon)),
            _field(f"{pre}-die", "die", "Die", _select(f"{pre}-die", "die", [(d, d) for d in DICE], "d20"),
                   hint="the core roll's die: assumed d20"),
            _field(f"{pre}-stat", "stat", "On stat", _select(f"{pre}-stat", "stat", [(s, s) for s in ROLL_STATS], "DEX")),
            _field(f"{pre}-size", "size", "Action", _select(f"{pre}-size", "size",
                                                            [(s, s) for s in ("major", "minor", "free")], "major")),
            _field(f"{pre}-warn", "warned_by", "Target warned by", _select(f"{pre}-warn", "warned_by", warn))),
        flags=flags, override=override, preview=_preview_slot(), reach=reach_note(unreached),
        roll=_btn("Roll it (Fray's dice)", "rb-attack-roll", "primary", id=cid), err=_general_err())
    st = c["stealth"]
    stealth_btns = []
    for lv in ("low", "medium", "high"):
        if lv == st["level"]:
            continue
        why = st["can_enter"].get(lv)
        label = {"low": "Revert to Low Stealth (free)", "medium": "Enter Medium Stealth (free)",
                 "high": "Enter High Stealth (stealth roll, major)"}[lv]
        stealth_btns.append(_btn(label, "rb-stealth", "secondary", id=cid, level=lv) if not why else
                            html('<span class="rb-why">{}: {}</span>', label, why))
    if st["level"] == "high":
        why = st.get("can_maintain")
        stealth_btns.append(_btn("Maintain High Stealth (major)", "rb-maintain", "secondary", id=cid) if not why else
                            html('<span class="rb-why">Maintain High Stealth (major): {}</span>', why))
    other = html(
        '<form data-form="rb-act" data-id="{cid}" novalidate aria-label="Another action by {name}">'
        '<h4>Other action</h4><div class="rb-grid">{fields}</div><div class="rb-row">{checks}</div>{preview}'
        '<div class="rb-row"><button type="submit" class="secondary">Take the action</button></div>{err}</form>',
        cid=cid, name=c["name"],
        fields=fragment(
            _field("rb-ac-size", "size", "Size", _select("rb-ac-size", "size",
                                                         [(s, s) for s in view.get("choices", {}).get(
                                                             "action_sizes", ("major", "minor", "free"))])),
            _field("rb-ac-what", "what", "What", _input("rb-ac-what", "what", "", "text", "e.g. draw a weapon")),
            _field("rb-ac-target", "target", "Affects", _select("rb-ac-target", "target",
                                                                [("", "nobody in particular")] + targets)),
            _field("rb-ac-fatigue", "fatigue", "Fatigue cost (Ability)", _input("rb-ac-fatigue", "fatigue", "0"),
                   hint="taken at once on use")),
        checks=fragment(
            _check("rb-ac-dex", "dex_roll", "Needs a DEX roll"), _check("rb-ac-verbal", "verbal", "Verbal"),
            _check("rb-ac-light", "light", "Emits notable light"),
            _check("rb-ac-unwilling", "unwilling", "The target is unwilling"), _err("unwilling")),
        preview=_preview_slot(), err=_general_err())
    detect = html(
        '<form data-form="rb-detect" data-id="{cid}" novalidate aria-label="Detection rolls against {name}">'
        '<h4>Detection rolls against {name}</h4><div class="rb-grid">{die}</div>{who}{preview}'
        '<div class="rb-row"><button type="submit" class="secondary">Detection rolls</button></div>{err}</form>',
        cid=cid, name=c["name"],
        die=_field("rb-dt-die", "die", "Die (the GM may alter it)",
                   _select("rb-dt-die", "die", [(d, d) for d in DICE], "d20")),
        # "a detection roll by everyone who may or may not see the stealthy character": her opponents,
        # never her allies (a GM's play-through: Tamsin 2 was offered to roll against Tamsin 1)
        who=_id_checks(view, "rb-dt-o", "observers", "Who rolls (none ticked: every able opponent)", cid,
                       only_able=True, foes_only=True),
        preview=_preview_slot(), err=_general_err())
    extras = []
    if st["level"] == "high" or (c.get("ambush") is None and (c.get("moved") or {}).get("success")):
        extras.append(_btn("Ambush movement (stealth roll)", "rb-ambush", "secondary", id=cid))
    b = c.get("breath", {})
    if b.get("holding") or b.get("out") or b.get("rolls"):
        extras.append(_btn("Catch breath", "rb-catch-breath", "secondary", id=cid))
    return html('<div class="rb-acting rb-box" data-id="{cid}"><h3>Turn: {name}</h3>{used}{attack}'
                '<div class="rb-row rb-stealth-row" role="group" aria-label="Stealth">{stealth}</div>'
                '{other}<div class="rb-row">{extras}</div>{detect}{more}{err}</div>',
                cid=cid, name=c["name"], used=_used_html(c), attack=attack, stealth=fragment(stealth_btns),
                other=other, extras=fragment(extras), detect=detect, more=more_html(view, c, ui),
                err=_err("rb-acting"))


def _offense_result(view: dict[str, Any], cid: str) -> Markup | str:
    """The attacker's latest offense roll this round, settled: what it came to, at the top of the attack
    form (as the movement form shows its roll), not only in the log."""
    o = (view.get("offenses") or {}).get(cid)
    if not o:
        return ""
    by = f' by {_g(o["by"])}' if o.get("by") is not None else ""
    said = ("succeeded" if o["success"] else "BLUNDERED" if o["blunder"] else "failed") + by
    return html('<p class="rb-result rb-result-{}" role="status">{}: offense roll {}{}</p>',
                _outcome(o), o["what"], said, f' — {o["then"]}' if o["then"] else "")


def _outcome(roll: dict[str, Any]) -> str:
    """A settled roll's style: ok, miss (failed) or blunder. A failed roll is one of the core roll's results,
    never drawn as an error (a GM's fights: an ordinary miss came in the error's red)."""
    return "ok" if roll.get("success") else "blunder" if roll.get("blunder") else "miss"


def more_html(view: dict[str, Any], c: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """The rest of a turn's actions, each a small form named by the engine's fields, in a fold-out
    drawn when it first opens (``ui``: ``lazy_state``; None: drawn). At 30 combatants its eight
    forms are some 390 elements the page would otherwise draw again on every Next of the actions
    phase, shut."""
    key = f"rb-more-{c['id']}"
    return _lazy_fold("rb-more rb-lazy", key, "More actions (grapple, touch, light, noise, cloaking, teleport, "
                      "breathing)", lambda: _more_forms(view, c), *_lazy_state(ui, key))


def _more_forms(view: dict[str, Any], c: dict[str, Any]) -> Markup:
    cid = c["id"]
    bands = view.get("choices", {}).get("bands", ["engaged", "short", "medium", "long", "travel"])
    forms = []
    for kind, (_, title, fields) in MORE.items():
        ctls = []
        for name, label, ctl in fields:
            fid = f"rb-more-{kind}-{name}"
            if ctl == "other":
                ctls.append(_field(fid, name, label, _select(fid, name, _targets(view, cid))))
            elif ctl == "light":
                ctls.append(_field(fid, name, label, _select(fid, name, [(x, x) for x in (
                    "none", "dim", "moderate", "bright", "extreme")], c.get("light", "none"))))
            elif ctl == "band":
                ctls.append(_field(fid, name, label, _select(fid, name, [(b, b) for b in bands], "medium")))
            elif ctl == "precision":
                ctls.append(_field(fid, name, label, _select(fid, name, [(x, x) for x in ("low", "medium", "high")])))
            elif ctl == "size":
                ctls.append(_field(fid, name, label, _select(fid, name, [("major", "major"), ("minor", "minor")])))
            elif ctl == "num":
                ctls.append(_field(fid, name, label, _input(fid, name, "", "decimal")))
            elif ctl == "ids":
                ctls.append(_id_checks(view, fid, name, label, cid))
            elif ctl == "text":
                ctls.append(_field(fid, name, label, _input(fid, name, "", "text")))
            else:
                ctls.append(_check(fid, name, label, ctl == "check-on") + _err(name))
        forms.append(html('<form class="rb-more-form" data-form="rb-more" data-kind="{kind}" data-id="{cid}" novalidate '
                          'aria-label="{title}"><h4>{title}</h4><div class="rb-grid">{ctls}</div>'
                          '<button type="submit" class="secondary">{title}</button>{err}</form>',
                          kind=kind, cid=cid, title=title, ctls=fragment(ctls), err=_general_err()))
    return html('<div class="rb-more-forms">{}</div>', fragment(forms))


def _used_html(c: dict[str, Any]) -> Markup:
    u = c.get("used")
    if not u:
        return Markup('<p class="hint rb-used">No actions yet this turn.</p>')
    what = "; ".join(u.get("what", []))
    return html('<p class="hint rb-used">Used: {} major, {} minor{}</p>', u.get("major", 0), u.get("minor", 0),
                f" ({what})" if what else "")
