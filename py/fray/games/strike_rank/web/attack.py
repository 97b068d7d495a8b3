"""The attack panel: one form per exchange (``sr.attack``), with the defender's choice, the
circumstances folded away and the dice (blank = Fray rolls); the Resolve button for other actions."""

from __future__ import annotations

from typing import Any

from fray.web import odds_view
from fray.web import widgets
from fray.web.html import Markup, fragment, h, html
from fray.web.words import rule_message
from fray.games.strike_rank.web.common import (CASTING_ROLLS, dead_ids, DEFENCES, INTO_MELEE, MODES, ROLLS, WATER, _btn, _check, _err, _field, _first_enemy,
                     _fold, _input, _lazy_fold, _names, _others, _select)
from fray.games.strike_rank.web.declare import action_label, change_cost, change_preset, declare_form

MOUNTED_VS_FOOT = (("", "Auto (from the rider's mount)"), ("yes", "Yes"), ("no", "No"))
ATTACKER_SIDE = (("", "(either side)"), ("left", "the left (a blow on the right hits the mount)"),
                 ("right", "the right (a blow on the left hits the mount)"))


# The fields of the attack form that belong to its defender: a new Target draws them again for
# the new one (their parrying weapons, locations, shield, mount, their own split or bonus).
DEFENDER_FIELDS = ("target", "defence.", "aim", "gm_location", "cover.", "shield_cover.", "target_weapon",
                   "attacker_side")


def carried_over(values: dict[str, Any]) -> dict[str, Any]:
    """What the GM set in an attack form that still applies once its Target changes: the dice
    typed, the mode, the bonus, the circumstances of the attacker. Only the defender's fields go."""
    return {k: v for k, v in values.items()
            if not any(k == f or (f.endswith(".") and k.startswith(f)) for f in DEFENDER_FIELDS)}


def current_parts(view: dict[str, Any], ui: dict[str, Any]) -> list[Markup]:
    """The action(s) at the current SR, one element each (the panel's Block children): an attack
    form for attacks, a Resolve button otherwise."""
    out: list[Markup] = []
    forms = 0
    for o in view.get("order", []):
        if not o.get("current"):
            continue
        c = view["combatants"].get(o["combatant"], {})
        why = c.get("cannot_act") or (o["kind"] in ("melee", "missile") and o.get("unable"))
        if why:
            # the fallen get no form (issue 32: a dead Broo had a working "Roll the exchange"), nor a
            # weapon that can no longer strike (knocked away, broken): nothing to roll. A blow that
            # fells loses the action at once; marked on the card, or a weapon dropped, the engine's
            # Next loses it (timing.unable), in the words of its log line (issue 33)
            what = "attack" if o["kind"] in ("melee", "missile") else "action"
            out.append(html('<p class="sr-box sr-fallen-action">{}\'s {} at SR {} is lost: {} ({}). Next moves on.</p>',
                            o["name"], what, o["sr"], why, action_label(o, _names(view), c, dead_ids(view))))
            continue
        if o["kind"] in ("melee", "missile") and forms:
            # the others at this SR wait folded, one line each, in the order they strike: the one
            # who acts now (first in the strip) has the open form; each opens with a tap
            # A shut one holds no form until it first opens (the panel's toggle listener draws it
            # then): five shut forms at an SR of six were most of a Next's markup and nodes.
            c = view["combatants"].get(o["combatant"])
            key = "attack-" + str(o["ref"])
            seen = (ui.open.get(key) or key in ui.opened) if ui else False
            out.append(_fold("sr-fold sr-next-attack", key,
                             f'SR {o["sr"]}: {o["name"]}, {action_label(o, _names(view), c, dead_ids(view))}',
                             attack_html(view, o, ui) if seen else "", ui, aria=f'Attack by {o["name"]}',
                             odds_lazy=True, lazy=not seen))
        elif o["kind"] in ("melee", "missile"):
            out.append(attack_html(view, o, ui))
            forms += 1
        else:
            out.append(html('<div class="sr-box sr-resolve"><p><strong>{}</strong>: {} ({})</p>{}</div>', o["name"],
                            action_label(o, _names(view), view["combatants"].get(o["combatant"])), o["text"],
                            _btn(f"Resolve {o['name']}'s action", "sr-resolve", "primary", None, ref=o["ref"])))
    return out


LOST_SAID = "the attack would be lost"  # said by ``change_costs``; the forced change's button then says so too


def change_preview(enc: Any, o: dict[str, Any], target: str, picked: dict[str, str] | None = None
                   ) -> tuple[int, bool] | str:
    """The SR the attack ``o`` would have if changed now to strike ``target``, and whether it would then be lost
    ("If an attack is pushed past SR 12, it is lost"), worked out by the engine's own change (``sr.change``) on
    the encounter as it stands and kept nowhere; or, refused, the refusal in the GM's words. ``picked``: the
    Action and Weapon set in the forced change's box, when the GM set them."""
    from fray.errors import FrayError
    from fray.reducer import apply

    try:
        p = picked or {}
        after, _ = apply(enc, {"type": "sr.change", "id": o["combatant"], "ref": o["ref"],
                               "kind": p.get("kind") or o["kind"], "weapon": p.get("weapon", o.get("weapon") or ""),
                               "target": target})
    except FrayError as e:
        return rule_message(str(e), getattr(e, "rule", ""))
    new = after.state["actions"][len(enc.state.get("actions", [])):]
    return (new[0]["sr"], new[0]["status"] == "lost") if new else "nothing would be declared"


def defence_said(who: dict[str, Any], weapon: str) -> str:
    """What a change to a parry or dodge does, said before the GM confirms it: Attacks & Defenses, "Defenses must
    be declared before an attack test is rolled. They are resolved on the same SR as the attack" (a GM's play: the
    forced change set to Parry still said "strikes at SR 9")."""
    w = next((x["name"] for x in who.get("weapons", []) if x["id"] == weapon), "")
    how = f"parries with {w}" if w else "dodges"
    return (f"changing now to a defence: {who.get('name', '')} {how} an attack made on them, on that attack's "
            "own SR; nothing is struck")


NOTHING_CHANGED = "nothing is changed yet: change the action, weapon or target to see what it costs"


def voluntary_cost(enc: Any, view: dict[str, Any], ref: str, chosen: dict[str, str] | None = None) -> str | None:
    """What the voluntary Change… of ``ref`` costs, worked out by the engine's own change for the Action, Weapon and
    Target set in its box, in the forced change's words (Changing Actions: "Changing your declared action during a
    MR delays action by the combatant's DEX SR. If an attack is pushed past SR 12, it is lost."; a GM's play: the
    box said "SR 6 at the earliest" and no more before the GM confirmed). None where nothing more can be said (no
    target set, or an action other than an attack, a move or a defence): the box says the least it costs."""
    found = change_preset(view, ref, chosen)
    o = next((x for x in view.get("order", []) if x.get("ref") == ref), None)
    if found is None or o is None:
        return None
    cid, who, a, preset = found
    kind = preset.get("kind")
    if all((preset.get(k) or "") == (a.get(k) or "") for k in ("kind", "weapon", "target")):
        # the box as it opens, on the declared action itself: no change yet, so no cost (a GM's play: "Changing now
        # to Broo archer costs DEX SR 3" of the very target and shot declared)
        return NOTHING_CHANGED
    if kind == "defend":
        return defence_said(who, preset.get("weapon", ""))
    to = preset.get("target") or ""
    cs = view.get("combatants", {})
    if kind not in ("melee", "missile", "move") or to not in cs or to in dead_ids(view):
        return None
    dsr = who.get("derived", {}).get("dex_sr", {}).get("value", "")
    said = f"changing now to {cs[to].get('name', '')} costs DEX SR {dsr}"
    got = change_preview(enc, o, to, {"kind": kind, "weapon": preset.get("weapon") or ""})
    if isinstance(got, str):
        return f"{said}, and {got}"
    if got[1]:
        return f"{said}: SR {got[0]}, past SR 12, {LOST_SAID}"
    return f"{said}, {'strikes' if kind != 'move' else 'gets there'} at SR {got[0]}"


def change_costs(enc: Any, view: dict[str, Any], targets: dict[str, str],
                 change_to: dict[str, dict[str, str]] | None = None) -> dict[str, str]:
    """What a change costs, said before the GM confirms it, for each attack of this SR that must or may change.
    Changing Actions: "Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost."

    * its declared target fallen (the forced change, set on the nearest standing enemy, or on the Target the GM
      picked in its box: ``change_to``): "changing now to Broo 5 costs DEX SR 3: SR 14, past SR 12, the attack
      would be lost";
    * its form set by the GM on another target than declared (``targets``: ref → the one picked), said beside
      the Target: "Broo 2 was not declared: changing the target costs DEX SR 3, strikes at SR 9"."""
    cs = view.get("combatants", {})
    out: dict[str, str] = {}
    for o in view.get("order", []):
        declared = cs.get(o.get("target") or "", {})
        if not o.get("current") or not o.get("ref") or o.get("kind") not in ("melee", "missile") or not declared:
            continue
        who = cs.get(o["combatant"], {})
        dsr = who.get("derived", {}).get("dex_sr", {}).get("value", "")
        picked = targets.get(o["ref"])
        if declared.get("status", "ok") != "ok":
            if picked == o["target"]:
                continue  # struck where they lie, as declared: no change
            chosen = (change_to or {}).get(o["ref"], {})
            to = chosen.get("target") if chosen.get("target") in cs else _first_enemy(view, o["combatant"])
            if not to or to in dead_ids(view):
                continue  # no one to change to: ``change_cost`` says the least it costs
            if chosen.get("kind") == "defend":
                # Attacks & Defenses: defences "are resolved on the same SR as the attack": no SR of its own to strike at
                out[o["ref"]] = defence_said(who, chosen.get("weapon", ""))
                continue
            got = change_preview(enc, o, to, chosen)
            said = f"changing now to {cs[to].get('name', '')} costs DEX SR {dsr}"
        elif picked and picked != o["target"] and picked in cs:
            got = change_preview(enc, o, picked)
            said = f"{cs[picked].get('name', '')} was not declared: changing the target costs DEX SR {dsr}"
        else:
            continue
        if isinstance(got, str):
            out[o["ref"]] = f"{said}, and {got}"
        else:
            out[o["ref"]] = f"{said}: SR {got[0]}, past SR 12, {LOST_SAID}" if got[1] else (
                f"{said}, strikes at SR {got[0]}")
    return out


def attack_html(view: dict[str, Any], o: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    cs = view.get("combatants", {})
    attacker = cs.get(o["combatant"], {})
    names = _names(view)
    # the target the GM picked in this form (the parry weapons, locations and cover are theirs)
    picked = ui.target.get(o["ref"] or "free") if ui else None
    declared = cs.get(o.get("target") or "", {})
    fallen = declared.get("status", "ok") != "ok"
    # a declared target out of the fight forces a change (Changing Actions), unless the GM strikes
    # the fallen where they lie, as declared (never the dead: "Dead characters cannot do anything")
    where_they_lie = picked is not None and picked == o.get("target") and declared.get("status") != "dead"
    if o.get("ref") and fallen and not where_they_lie:
        return forced_change_html(view, o, declared, getattr(ui, "retarget", {}).get(o["ref"]) if ui else None,
                                  getattr(ui, "change_to", {}).get(o["ref"]) if ui else None)
    # the declared target while it stands, else the nearest standing enemy: never the fallen by default
    tid = picked if picked in cs and picked not in dead_ids(view) else (o["target"] if declared and not fallen else _first_enemy(view, o["combatant"]))
    target = cs.get(tid, {})
    w = next((x for x in attacker.get("weapons", []) if x["id"] == o.get("weapon")), None)
    pre = f"sr-att-{o['ref'] or 'free'}"
    more = ui.more.get(o["ref"] or "free") if ui else None
    # "Ranged attacks can be dodged or parried with a shield, but not parried with other weapons - except
    # for unarmed Martial Arts parries"; a weapon that has parried this MR comes last, not first; a bite or
    # claw never parries (Unarmed Parries: an arm or leg), so a wolf's defence starts on Dodge; nor does a
    # bow, crossbow or sling by Fray's assumed default (the view's "parries")
    parried = target.get("round", {}).get("parries", [])
    tw = [(x["id"], f'{x["name"]} ({x["skill"]}%)') for x in
          sorted(target.get("weapons", []), key=lambda x: (x["id"] in parried, not x.get("shield")))
          if x.get("usable", True) and x.get("parries", not x.get("natural"))
          and not (w and w.get("missile") and not (x.get("shield") or x.get("martial_arts")))]
    if target.get("cannot_fight"):
        tw = []  # "Chest: Cannot fight": no parry to offer, only a dodge
    # a parry the rules still allow ("one attack and one parry", the extra with a second weapon or
    # shield): after it is spent, Dodge is the default, not a Parry the engine refuses
    left = target.get("round", {}).get("parries_left")
    fresh = [x for x in tw if x[0] not in parried and (left is None or x[0] in left)]
    defences = [d for d in DEFENCES if d[0] != "parry" or tw]
    barred = target.get("no_defence")
    if barred and barred.get("rule") == "Charging" and target.get("charging_at") not in ("", o["combatant"]):
        # the charge's rule is its opponent's ("if the opponent does attack first"); anyone else finds it running
        barred = target.get("running_charger") or barred
    locs = [("", "(roll)")] + [(l["id"], l["name"]) for l in target.get("locations", [])]
    dodge_pen = target.get("round", {}).get("next_dodge_penalty", 0)
    wtxt = f'{w["name"]} {w["skill"]}%, {w["damage"]}' if w else str(o.get("weapon", ""))
    # the damage modifier the blow is rolled with: a braced spear's is the charger's, a mounted charge's the
    # mount's (a GM's play: the heading said the Spearmaiden's +1D4 while the damage rolled the wolf's 1D6)
    dm_src = cs.get(o.get("dm_from") or "") or attacker
    dmg_mod = dm_src.get("derived", {}).get("damage_modifier", {}).get("value", "")
    if dmg_mod and dmg_mod not in ("0", "none") and dm_src is not attacker:
        dmg_mod = f'{dmg_mod} ({dm_src.get("name", "")}\'s damage modifier)'
    # Mounted Hit Locations: "A mounted combatant rolls 1D10+10 for hit location when making melee attacks against
    # combatants on foot": the field says those dice and that the d10 is what is typed (a GM's play: "Location d20"
    # took a 20 that the engine refused as a d10)
    rider = bool(attacker.get("rides") and not target.get("rides") and w and not w.get("missile"))
    said = {"location": ("Location 1D10+10", "the d10: 1-10")} if rider else {}
    dice = [_field(f"{pre}-r-{k}", f"rolls.{k}", said.get(k, (label,))[0],
                   _input(f"{pre}-r-{k}", f"rolls.{k}", "", "numeric", said.get(k, ("", "blank = roll"))[1]), "sr-die")
            for k, label in ROLLS]
    casting = any(a.get("kind") == "spell" and a.get("status") == "declared" for a in target.get("declared", []))
    if casting:
        # "casting interrupted by damage/parry/dodge with an INT×3 test": the caster's dice too
        dice += [_field(f"{pre}-r-{k.replace('.', '-')}", f"rolls.{k}", label,
                        _input(f"{pre}-r-{k.replace('.', '-')}", f"rolls.{k}", "", "numeric", "blank = roll"), "sr-die")
                 for k, label in CASTING_ROLLS]
    missile = bool(w and w.get("missile"))
    # another target than declared, the declared one standing: a change, said beside the Target before the roll,
    # and the form's button makes it (``sr.change``: the attack timed again, logged) rather than striking now
    retarget = (getattr(ui, "retarget", {}).get(o["ref"]) if ui and o.get("ref") and tid != o.get("target") and declared
                and not fallen else None)
    target_field = widgets.field(pre + "-target", "target", "Target",
                                 _select(pre + "-target", "target", ([] if tid else [("", "(choose)")])
                                         + [x for x in _others(names, o["combatant"]) if x[0] not in dead_ids(view)],
                                         tid), retarget or "")
    if retarget:
        # nothing to roll until the change is made: the Target, what it costs, and the button that makes it
        return h(
            "form", {"class": "sr-box sr-attack sr-retarget", "data-form": "sr-attack", "data-ref": o["ref"],
                     "data-attacker": o["combatant"], "data-weapon": o.get("weapon") or "",
                     "data-kind": o.get("kind") or "", "data-retarget": "yes", "novalidate": True,
                     "aria-label": f'Attack by {attacker.get("name", "")}'},
            html("<h3>SR {}: {} attacks with {}</h3>", o["sr"], attacker.get("name", ""), wtxt),
            h("div", {"class": "sr-row"}, target_field),
            html('<p class="hint">Pick {} again to strike as declared.</p>', declared.get("name", "")),
            html('<div class="sr-actions"><button type="submit" class="primary">Change the target to {}</button></div>',
                 target.get("name", "")),
            _err("sr"))
    row = [
        target_field,
        # a defence the rules allow: none at all against a charge not yet struck, a run, a fall (the
        # view's no_defence, the engine's own refusal), so the form never starts on one it refuses
        widgets.field(pre + "-dk", "defence.kind", "Defender's choice",
                      _select(pre + "-dk", "defence.kind", defences,
                              "none" if barred else "parry" if fresh else "dodge"),
                      rule_message(barred["text"] if barred["rule"] == "Movement" and "charging" in barred["text"]
                                   else f'{target.get("name", "")} cannot dodge or parry now', barred["rule"])
                      if barred else ""),
        # nothing that parries (a wolf's bite, a maimed chest): no empty "Parry with", Dodge or None only
        _field(pre + "-dw", "defence.weapon", "Parry with", _select(pre + "-dw", "defence.weapon", tw))
        if tw else None,
        _field(pre + "-mode", "mode", "Mode", _select(pre + "-mode", "mode", list(MODES), "normal")),
        _field(pre + "-aim", "aim", "Aimed at", _select(pre + "-aim", "aim", locs)),
        _field(pre + "-bonus", "bonus", "Bonus %", _input(pre + "-bonus", "bonus", "", "numeric", "0")),
        _field(pre + "-range", "range_m", "Range m", _input(pre + "-range", "range_m", "", "decimal", "from map"))
        if missile else None]
    return h(
        "form", {"class": "sr-box sr-attack", "data-form": "sr-attack", "data-ref": o["ref"],
                 "data-attacker": o["combatant"], "data-weapon": o.get("weapon") or "", "novalidate": True,
                 "aria-label": f'Attack by {attacker.get("name", "")}'},
        html("<h3>SR {}: {} attacks with {}{}</h3>", o["sr"], attacker.get("name", ""), wtxt,
             " " + str(dmg_mod) if dmg_mod and dmg_mod not in ("0", "none") else ""),
        h("div", {"class": "sr-row"}, row),
        html('<p class="hint">Declared against {}, who is {}: the target is {}.</p>', declared.get("name", ""),
             declared.get("status"), target.get("name") or "for you to choose") if declared and fallen else None,
        # the engine refuses the shot while she is engaged: said before the GM rolls, in its words
        html('<p class="hint sr-held">{}: unengaged characters can use missile weapons, so this shot is refused '
             'while the engagement lasts. Disengage first, or change to a melee attack. {}</p>', o["held"],
             # the order row's own Change…, where the change is said
             _btn("Change…", "sr-change-open", "small secondary",
                  f'Change the shot at SR {o["sr"]} of {attacker.get("name", "")}', ref=o["ref"], id=o["combatant"]))
        if o.get("held") else None,
        html('<p class="hint">Next dodge by {}: {}%</p>', target.get("name", ""), dodge_pen) if dodge_pen else None,
        circumstances_html(pre, target, w, ui, bool(o.get("free"))),
        html('<fieldset class="sr-dice"><legend>Dice (blank = Fray rolls; type faces such as "8 4")</legend>'
             '<div class="sr-row">{}</div></fieldset>', fragment(dice)),
        more_dice_html(pre, more) if more else None,
        html('<div class="sr-actions odds-beside"><button type="submit" class="primary">{}</button>{}</div>',
             "Apply the special damage" if more else "Roll the exchange",
             odds_view.slot()),  # a Block: markup
        _err("sr"))


def forced_change_html(view: dict[str, Any], o: dict[str, Any], declared: dict[str, Any],
                       cost: str | None = None, chosen: dict[str, str] | None = None) -> Markup:
    """The declared target is out of the fight (dead, unconscious, incapacitated): "A combatant may
    be forced to change actions, e.g. if the target of their attack dies", and a change "delays
    action by the combatant's DEX SR". The GM changes the attack (``sr.change``: the new SR and the
    movement to the new target worked out again) or lets it go with Next; the blow never goes to
    another foe at the old SR unsaid. One unconscious or incapacitated may still be struck where
    they lie, as declared: that opens the attack form on them. ``chosen``: the Action, Weapon and Target the GM
    set in the box (its cost line and button follow them, ``cost`` being worked out for them)."""
    cs = view.get("combatants", {})
    attacker = cs.get(o["combatant"], {})
    dsr = attacker.get("derived", {}).get("dex_sr", {}).get("value", "")
    preset = {"kind": o.get("kind", "melee"), "weapon": o.get("weapon", ""), "sr": o.get("sr"),
              "target": _first_enemy(view, o["combatant"]), **(chosen or {})}
    who = f'{attacker.get("name", "")}\'s attack at SR {o["sr"]}'
    status = declared.get("status", "dead")
    strike = (_btn(f'Strike {declared.get("name", "")} as declared', "sr-strike-fallen", "small secondary",
                   f'Strike {declared.get("name", "")} as declared: {who}', ref=o["ref"], target=o.get("target"))
              if status != "dead" else "")  # the dead are not struck: nothing, not the word None
    # what changing to the enemy it is set on costs (``change_costs``), else the least any change costs; the
    # button says the attack is lost only when any change loses it (another target may be nearer)
    least, lost = change_cost(view, attacker, o)
    if cost:
        lost = cost.endswith(LOST_SAID)
    cost = cost or least
    return html('<div class="sr-box sr-change sr-forced"><h3>SR {}: {}\'s attack must change</h3>'
                '<p class="hint">Declared against {}, who is {}. A forced change is delayed by DEX SR {}, '
                'and the movement to the new target is worked out again; or skip the attack.</p>'
                '<p class="hint sr-change-cost">{}.</p>'
                '{}<div class="sr-row">{}{}</div></div>', o["sr"], attacker.get("name", ""), declared.get("name", ""),
                status, dsr, cost[:1].upper() + cost[1:],
                declare_form(o["combatant"], attacker, _names(view), "sr-change", o["ref"], preset,
                             dead=dead_ids(view), submit="Change: the attack is lost" if lost else ""),
                _btn("Skip it", "sr-skip", "small secondary", f"Skip it: {who}", ref=o["ref"]), strike)


def more_dice_html(pre: str, more: dict[str, Any]) -> Markup:
    """The exchange came out special after the GM typed an ordinary blow's damage dice: what the
    dice said, and ONE field for the dice the special adds (focused by the panel), or the total."""
    said = [html("<li>{}</li>", t) for t in more.get("said", [])]
    need = more["need"]
    typed = " ".join(str(f) for f in more["typed"])
    return html('<fieldset class="sr-more-dice" role="group"><legend>The blow is special: the damage is {}{}</legend>'
                '<ul class="sr-more-said">{}</ul>'
                '<p class="hint">Your {} stand; the exchange keeps its dice.</p><div class="sr-row">{}{}</div></fieldset>',
                more["expr"], html(" ({})", more["why"]) if more.get("why") else "", fragment(said), typed,
                _field(pre + "-more", "more.damage", f"Special: roll {need} more",
                       _input(pre + "-more", "more.damage", "", "numeric", need), "sr-die"),
                _field(pre + "-more-total", "more.total", "or the whole damage's total",
                       _input(pre + "-more-total", "more.total", "", "numeric", "total"), "sr-die"))


def _dice(pre: str, rolls: tuple[tuple[str, str], ...], legend: str = "Dice (blank = Fray rolls)") -> Markup:
    fields = [_field(f"{pre}-r-{k}", f"rolls.{k}", label,
                     _input(f"{pre}-r-{k}", f"rolls.{k}", "", "numeric", "blank = roll"), "sr-die")
              for k, label in rolls]
    return html('<fieldset class="sr-dice"><legend>{}</legend><div class="sr-row">{}</div></fieldset>', legend,
                fragment(fields))


def _loc_checks(pre: str, name: str, legend: str, locs: list[dict[str, Any]]) -> Markup:
    """One checkbox per hit location, named ``name.<location id>``; errors land on ``name``."""
    boxes = [html('<label class="sr-check sr-chip" for="{box}"><input type="checkbox" id="{box}" name="{name}"> {}</label>',
                  l["name"], box=f'{pre}-{l["id"]}', name=f'{name}.{l["id"]}')
             for l in locs]
    return html('<fieldset class="sr-locs" data-field="{}"><legend>{}</legend><div class="sr-chips">{}</div>{}</fieldset>',
                name, legend, fragment(boxes), _err(name))


def circumstances_html(pre: str, target: dict[str, Any], w: dict[str, Any] | None,
                       ui: dict[str, Any] | None = None, free: bool = False) -> Markup:
    """The rarely used ``sr.attack`` fields, folded away: range and movement, melee, cover,
    water, pulled blows, split skill, a GM multiplier, the object or weapon attacked.

    Shut and never opened, it holds no fields (``data-fold-lazy``: drawn when it first opens, kept
    once drawn): a third of an attack form's elements, written on every Next that brings the next
    attack. The form reads a missing field as its drawn default (``parse.attack_action``)."""
    return _lazy_fold("sr-fold sr-circumstances", f"circ-{pre}", "Circumstances",
                      lambda: _circumstances_body(pre, target, w, free), ui, default_open=free)


def _circumstances_body(pre: str, target: dict[str, Any], w: dict[str, Any] | None, free: bool) -> Markup:
    locs = target.get("locations", [])
    tname = target.get("name", "")
    shields = [("", "(no shield cover)")] + [(x["id"], x["name"]) for x in target.get("weapons", []) if x.get("shield")]
    tweapons = [("", "(the parrying weapon)")] + [(x["id"], x["name"]) for x in target.get("weapons", [])]
    gm_locs = [("", "(roll)")] + [(l["id"], l["name"]) for l in locs]
    missile = bool(w and w.get("missile"))
    row1 = [
        fragment(_check(pre + "-moving", "moving", "Moving (½)"),
                 _check(pre + "-mount", "mount_running", "Mount running (½)"),
                 _check(pre + "-miracle", "miracle", "Past double range: GM grants 5%")) if missile else None,
        _field(pre + "-into", "into_melee", "Into melee", _select(pre + "-into", "into_melee", list(INTO_MELEE))),
        _check(pre + "-free", "free_attack", "Free attack on a fleeing foe", free),
        _field(pre + "-water", "water", "Water", _select(pre + "-water", "water", list(WATER), "none")),
        _field(pre + "-split", "split", "Split %", _input(pre + "-split", "split", "", "numeric")),
        _field(pre + "-mult", "multiplier", "GM multiplier ×", _input(pre + "-mult", "multiplier", "", "decimal", "1")),
        _field(pre + "-special", "special", "Special damage as",
               _select(pre + "-special", "special", [("impaling", "Impaling"), ("slashing", "Slashing")]))
        if w and w.get("type") == "cut-and-thrust" else None,
        _field(pre + "-gmloc", "gm_location", "GM places the blow", _select(pre + "-gmloc", "gm_location", gm_locs)),
        _field(pre + "-ldie", "location_die", "Location die", _input(pre + "-ldie", "location_die", "", "text", "1D20"))]
    pull = html('<fieldset class="sr-sub"><legend>Pulling blows</legend><div class="sr-row">{}{}{}</div>{}</fieldset>',
                _check(pre + "-pdm", "pull.drop_modifier", "Drop damage modifier"),
                _field(pre + "-pds", "pull.die_sides", "Dice down to D",
                       _input(pre + "-pds", "pull.die_sides", "", "numeric", "3+")),
                _field(pre + "-pb", "pull.bonus", "Bonus points at most", _input(pre + "-pb", "pull.bonus", "", "numeric")),
                _err("pull"))
    cover = html('<fieldset class="sr-sub"><legend>Cover of {}</legend>{}{}<div class="sr-row">{}</div>{}{}</fieldset>',
                 tname, _check(pre + "-soft", "cover.soft", "Soft cover (½, or aim at an uncovered location)"),
                 _loc_checks(pre + "-hard", "cover.hard", "Hard cover over", locs),
                 _field(pre + "-scw", "shield_cover.weapon", "Shield as cover",
                        _select(pre + "-scw", "shield_cover.weapon", shields)),
                 _loc_checks(pre + "-scl", "shield_cover.locations", "Shield covers", locs), _err("cover"))
    special = html('<fieldset class="sr-sub"><legend>Special attacks</legend><div class="sr-row">{}{}{}{}</div>{}'
                   '</fieldset>',
                   _field(pre + "-tw", "target_weapon", "Weapon attacked / disarmed",
                          _select(pre + "-tw", "target_weapon", tweapons)),
                   _field(pre + "-oname", "object.name", "Object", _input(pre + "-oname", "object.name", "", "text",
                                                                          "door, rope…")),
                   _field(pre + "-ohp", "object.hp", "Object HP", _input(pre + "-ohp", "object.hp", "", "numeric")),
                   _check(pre + "-oheld", "object.held", "Object is held (½)", True), _err("object"))
    defender = html('<fieldset class="sr-sub"><legend>{}\'s own split or bonus</legend><div class="sr-row">{}{}</div>{}'
                    '</fieldset>', tname,
                    _field(pre + "-dsplit", "defence.split", "Parry with split skill %",
                           _input(pre + "-dsplit", "defence.split", "", "numeric", "e.g. 50")),
                    _field(pre + "-dbonus", "defence.bonus", "Defence bonus %",
                           _input(pre + "-dbonus", "defence.bonus", "", "numeric", "0")),
                    _err("defence"))
    mounted = html('<fieldset class="sr-sub"><legend>Mounted</legend><div class="sr-row">{}{}</div></fieldset>',
                   _field(pre + "-mvf", "mounted_vs_foot", "Rider against one on foot (1D10+10)",
                          _select(pre + "-mvf", "mounted_vs_foot", list(MOUNTED_VS_FOOT))),
                   _field(pre + "-side", "attacker_side", f"Striking {tname} from",
                          _select(pre + "-side", "attacker_side", list(ATTACKER_SIDE))))
    return fragment(h("div", {"class": "sr-row"}, row1), defender, mounted, cover, pull, special)



def free_attack_html(view: dict[str, Any], free: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """The attack panel for a free attack on a fleeing enemy: no declared action, no SR of its
    own; the enemy's first usable melee weapon, free_attack ticked (no parry, dodge at ½)."""
    c = view.get("combatants", {}).get(free.get("attacker", ""), {})
    melee = [w for w in c.get("weapons", []) if not w.get("missile") and w.get("usable", True)]
    o = {"ref": "", "combatant": free.get("attacker", ""), "target": free.get("target", ""),
         "weapon": melee[0]["id"] if melee else "", "sr": view.get("sr", 0), "free": True}
    return attack_html(view, o, ui)
