"""The tactical-round panel: the phase stepper, who acts now, and the handlers of every form and
button. The phases' forms (declarations, the attack, the GM's table entry, what is still open) are
in ``forms``, DEF / parry / cover / HP / weapons on each card in ``card``, the add form's weapons
section in ``add_form``.

Rendering is pure (``panel_html``, ``card_html`` take the ruleset's ``view()`` and plain data,
return Markup built with ``fray.web.html``, where every piece of text is escaped). The rules it
shows (range bands from the map, the weapon lines of the add form) are the engine's. The handlers read a form,
build one ``tr.*`` action and call ``app.dispatch(action, form)``. Every control's ``name`` is the
engine's field path for that action (``amount``, ``rolls.attack``, ``actions.1.weapon``) next to a
``data-error-for`` slot of the same name, so an engine error lands beside the control.

Dice are typed ("98 40", "98, 40" = an open-ended d100 that rolled 98 then 40) or left blank,
in which case Fray rolls them. A typed entry that is not whole numbers shows an error at that
field and changes nothing.
"""

from __future__ import annotations

import dataclasses

from typing import Any

from fray.errors import InvalidAction
from fray.games.tactical_round.order import strikes_first
from fray.games.tactical_round.rules import map_ranges
from fray.web import odds_view
from fray.games.tactical_round.web import odds as odds_html
from fray.web.html import Markup, block, fragment, h, html
from fray.web.panels import GamePanel
from fray.web.widgets import (as_int, as_number, combatant_in as _combatant, names_in as _names,
                              open_add_section)
from fray.games.tactical_round.web.ui import TacticalRoundUi

# Besides the panel's own: the names the tests import from here (the forms, the card, the add
# form's weapons section and the shared constants moved to their own modules beside this one).
from .add_form import add_extra, add_fields_html, fold_weapons  # noqa: F401
from .card import CARD_FOLDS, card_html
from .common import _out_of_action, read_rolls
from .common import (ATTACK_KINDS, ATTACK_PHASES, BY_NEXT, DECLARE_ROWS, DEFAULT_KINDS,  # noqa: F401
                     FLAGS, FOLD_DECLARATIONS_FROM, PENDING_SHOWN, _btn, _general_err, parse_dice)
from .forms import (attack_html, declare_html, declare_preview, declared_rows, open_html, pending_html,  # noqa: F401
                    ranges_html, target_options, weapon_options)


# -- the panel above the cards ------------------------------------------------------------------

def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               kinds: list[dict[str, Any]] | None = None, ranges: dict[str, Any] | None = None,
               last: dict[str, list[dict[str, Any]]] | None = None, left_out: dict[str, str] | None = None,
               reach: dict[str, str] | None = None) -> Markup:
    if not view or "phases" not in view:
        return fragment()
    ui = ui or TacticalRoundUi()
    phase = view["phase"]["id"]
    # a Block (web/blocks.py), one child per part: a Next through the phases that show the
    # declarations rewrites the stepper and the acting list, not the thirty forms (55,000 nodes)
    parts = [*stepper_parts(view), open_html(view, ui), over_html(view), acting_html(view)]
    if phase in ("setup", "assessment", "declaration"):
        parts.append(declare_html(view, kinds or DEFAULT_KINDS, ui, last, left_out, reach))
    parts.append(pending_html(view, ui))
    pre = ui.attack or next_attack(view)
    # only while someone has an attack to make in the phase: open with none, it offered the first
    # combatant's weapon, which the rules forbid now ("No odds: Broadsword attacks in Melee, not in
    # Ranged A"); shut, it was an empty "Attack" panel (a GM's play-through, in the Move phase), for
    # the rules take no attack outside its phase
    if phase in ATTACK_PHASES and pre.get("id"):
        parts.append(attack_html(view, pre, ranges=ranges))
    elif phase in ATTACK_PHASES and phase != "move":
        parts.append(undeclared_attack_html(view, ranges))
    return block("section", {"class": "tr-panel", "aria-label": "Tactical round"}, parts)


def _declared_kind(view: dict[str, Any], slot: dict[str, Any]) -> str:
    """The declared action a slot of the acting list stands for ("melee_attack"), or ""."""
    ref = slot.get("action", "")
    if ":" not in ref or ref.startswith("strike:"):
        return ""
    ds = (_combatant(view, slot["combatant"]) or {}).get("declared", [])
    i = int(ref.split(":")[1])
    return ds[i].get("action", "") if i < len(ds) else ""


# the kinds of weapon that attack in each phase (rules.attack_phases, from what the view says of a weapon)
_PHASE_KINDS = {"melee": ("melee", "unarmed", "natural"), "ranged_a": ("missile", "thrown"),
                "ranged_b": ("missile", "thrown"), "spell_a": ("spell",), "spell_b": ("spell",)}


def undeclared_attack_html(view: dict[str, Any], ranges: dict[str, Any] | None = None) -> Markup:
    """Once everyone who declared an attack in this phase has made it, the attack form stays, folded, and
    says why it has no one to start on: the Tactical Round Sequence takes the attacks declared in the
    Declaration phase, and an attack no one declared is the GM's call (the rule text's one, Running Away:
    "If the attackers win, they may strike at the fleeing character", comes in the Move phase). A GM's
    play-through: the form was gone, with no word why. It starts on the first standing combatant with a
    weapon that attacks in this phase; with none, only the words."""
    phase = view["phase"]["id"]
    kinds = _PHASE_KINDS.get(phase, ())
    declared = any(s.get("action", "").startswith("strike:") or _declared_kind(view, s) in ATTACK_KINDS
                   for s in view.get("acting", []))
    why = html('<p class="tr-undeclared-why hint">{} An attack no one declared is the GM\'s call (a strike at one '
               "Running Away comes in the Move phase).</p>",
               f"Everyone who declared an attack in {view['phase']['title']} has made it." if declared else
               f"Nobody declared an attack in {view['phase']['title']}.")
    for c in view.get("combatants", []):
        if _out_of_action(c):
            continue
        usable = [w for w in c.get("weapons", []) if w.get("kind") in kinds and (
            w["kind"] not in ("missile", "thrown") or (w.get("loaded") and not (
                phase == "ranged_a" and w.get("loaded_this_round"))))]
        if usable:
            return attack_html(view, {"id": c["id"], "weapon": usable[0]["index"]}, open_=False, ranges=ranges,
                               note=why)
    return why


def next_attack(view: dict[str, Any]) -> dict[str, Any]:
    """The first open attack of this phase (attacker, weapon, target), to prefill the attack form."""
    for s in view.get("acting", []):
        if s.get("done"):
            continue
        ref = s.get("action", "")
        if ref.startswith("strike:"):
            return {"id": s["combatant"], "weapon": None, "target": ref.split(":", 1)[1]}
        if ":" in ref:
            c = _combatant(view, s["combatant"]) or {}
            ds = c.get("declared", [])
            i = int(ref.split(":")[1])
            d = ds[i] if i < len(ds) else {}
            if d.get("action") in ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared"):
                return {"id": s["combatant"], "weapon": d.get("weapon"), "target": d.get("target") or ""}
    return {}


def acting_now(view: dict[str, Any]) -> list[Any]:
    """Round, phase and who has the next open attack in it: what the attack form's memory of the GM's
    choices (``TacticalRoundUi.attack``) holds for. A GM's play-through: Orc 2 picked in the form in
    Ranged A, his shot skipped, and in Melee the form still offered Orc 2 while Grub acted."""
    return [view.get("round"), view["phase"]["id"], next_attack(view).get("id") or ""]


def stepper_html(view: dict[str, Any]) -> Markup:
    return fragment(stepper_parts(view))


def stepper_parts(view: dict[str, Any]) -> list[Markup]:
    """The phases of the round, and the one now: two elements."""
    cur = view["phase"]["index"]
    items = []
    for i, p in enumerate(view["phases"]):
        state = "current" if p["current"] else ("past" if 0 <= cur and i < cur else "")
        items.append(h("li", {"class": state, "aria-current": "step" if p["current"] else None},
                       html('<span class="n">{}</span> ', i + 1), p["title"]))
    note = view["phase"].get("note", "")
    return [html('<nav class="tr-stepper" id="tr-stepper" aria-label="Phases of round {}"><ol>{}</ol></nav>',
                 view["round"], fragment(items)),
            html('<h2 class="tr-phase-now"><strong>Round {}: {}</strong><span class="tr-phase-note">{}</span></h2>',
                 view["round"], view["phase"]["title"], " — " + note if note else "")]


# what the acting list shows that holds no text of the fight's
_DONE = html('<span class="tr-badge done">done</span>')
_HOW_TO_MOVE = html('<span class="tr-how hint">drag its token on the map; Next leaves it where it stands</span>')


def acting_html(view: dict[str, Any]) -> Markup:
    acting = view.get("acting", [])
    phase = view["phase"]["id"]
    if phase == "setup":
        return fragment()
    if not acting:
        return html('<p class="tr-acting-none hint">Nobody acts in this phase. Use the Next button to go on.</p>')
    names = _names(view)
    items = []
    crits = criticals_by_attacker(view)
    for n, s in enumerate(acting):
        cid = s["combatant"]
        c = _combatant(view, cid) or {}
        ref = s.get("action", "")
        decl = None
        if ref and ":" in ref and not ref.startswith("strike:"):
            i = int(ref.split(":")[1])
            ds = c.get("declared", [])
            decl = ds[i] if i < len(ds) else None
        sim = s.get("simultaneous_with") or []
        sim_names = []
        for r in sim:
            oid = r.split(":")[0]
            if oid in names:
                sim_names.append(names[oid])
        badges = []
        if s.get("done"):
            badges.append(_DONE)
        if sim:
            badges.append(html('<span class="tr-badge sim">simultaneous with {}</span>', ", ".join(sim_names)))
        quick = []
        if not s.get("done") and phase != "declaration":
            kind = decl["action"] if decl else ("strike" if ref.startswith("strike:") else "")
            if kind in ("melee_attack", "ranged_attack", "spell_prepared", "spell_unprepared", "strike"):
                target = decl.get("target") if decl else ref.split(":", 1)[1]
                weapon = decl.get("weapon") if decl else None
                quick.append(_btn("Attack", "tr-quick-attack", "primary", aria=f"Attack: {c.get('name', cid)}",
                                  id=cid, weapon="" if weapon is None else weapon, target=target or ""))
            if kind == "move":
                # nothing to press: what the Move phase asks of the GM, where the form would be (issue 33)
                badges.append(_HOW_TO_MOVE)
            # a declared reload, readying, move or disengage does itself in its phase (issue 32)
            if decl and kind not in ("reload", "ready_thrown", "move", "disengage"):
                if kind not in ATTACK_KINDS:
                    quick.append(_btn("Done", "tr-resolve", "secondary", aria=f"Mark done: {c.get('name', cid)}",
                                      id=cid))
                quick.append(_btn("Skip", "tr-skip", "secondary", aria=f"Skip: {c.get('name', cid)}", id=cid,
                                  index=ref.split(":")[1]))
        # a critical of this one's blow waiting for its effects: his business now, said on his row
        # (a GM's play-through: it sat among the results below, and Next went on past it)
        mine = crits.pop(cid, [])
        for p in mine:
            what = f'Critical {p.get("critical", "")} on {names.get(p["target"], "someone gone")}'
            badges.append(html('<span class="tr-badge crit">{} to apply</span>', what))
            quick.append(_btn("Apply it", "tr-show-critical", "primary", aria=f"Apply: {what}", ref=p["ref"]))
        if phase == "melee" and sim:
            quick.append(_btn("▲", "order-up", "icon", aria=f"Move {c.get('name', cid)} earlier among ties", id=cid))
            quick.append(_btn("▼", "order-down", "icon", aria=f"Move {c.get('name', cid)} later among ties", id=cid))
        items.append(html(
            '<li class="tr-slot{done}" data-id="{cid}"><span class="who side-{side}">{name}</span>'
            '<span class="why">{why}</span>{badges}<span class="tr-quick">{quick}</span></li>',
            done=(" done" if s.get("done") else "") + (" has-crit" if mine else ""), cid=cid, side=c.get("side", "neutral"), name=s.get("name", cid),
            why=s.get("explanation", ""), badges=fragment(badges), quick=fragment(quick)))
    return html('<div class="tr-scope tr-acting-wrap">{}<ol class="tr-acting" aria-label="Who acts in {}">{}</ol>'
                "</div>", _general_err(), view["phase"]["title"], fragment(items))


def criticals_by_attacker(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The criticals waiting for the GM's effects, by whose blow they were."""
    out: dict[str, list[dict[str, Any]]] = {}
    for p in view.get("pending", []):
        if p.get("stage") == "critical":
            out.setdefault(p["attacker"], []).append(p)
    return out


def over_html(view: dict[str, Any]) -> Markup:
    """Once all in an attack phase have acted, nobody is marked "now" (``Ruleset.still_to_act``):
    the panel says so at its top, before the results still waiting, and points to Next (issue 33)."""
    acting = view.get("acting", [])
    if view["phase"]["id"] in ("setup", "assessment", "declaration") or not acting \
            or not all(s.get("done") for s in acting):
        return fragment()
    title = view["phase"]["title"]
    if view.get("pending"):
        return html('<p class="tr-acting-over hint" role="status">Everyone in {} has acted: apply the results '
                    "waiting below, then use the Next button to go on.</p>", title)
    return html('<p class="tr-acting-over hint" role="status">Everyone in {} has acted. '
                "Use the Next button to go on.</p>", title)


# -- the controller side ---------------------------------------------------------------------------

def attack_action(values: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The ``tr.attack`` the attack form describes (without dice), or why it cannot be read."""
    cid = values.get("id")
    action: dict[str, Any] = {"type": "tr.attack", "id": cid, "target": values.get("target")}
    weapon = values.get("weapon") or ""
    if weapon:
        owner, _, idx = weapon.rpartition(":")
        if owner != cid:
            return action, "that weapon belongs to someone else: choose one of the attacker's weapons"
        action["weapon"] = as_int(idx)
    for k, _ in FLAGS:
        if values.get(k):
            action[k] = True
    action["line_of_sight"] = bool(values.get("line_of_sight"))
    action["check_reach"] = True  # a melee attack only on a foe in reach (Melee Attacks)
    dist = (values.get("distance") or "").strip()
    if dist:
        action["distance"] = as_number(dist)
    return action, ""


RANGED_KINDS = ("missile", "thrown", "spell")


def weapon_missing(acts: list[dict[str, Any]], rows: list[int], name: str) -> InvalidAction | None:
    """A declared Ranged attack with no weapon chosen, refused beside its Weapon: the engine would take
    the weapon in hand, a sword as well as a bow, and a GM's play-through saw "Orc 2 declares: Ranged
    attack" with no weapon named (Ranged Attacks: "Missile weapons, thrown weapons, and certain
    Spells all use the ranged attack rules")."""
    for row, d in zip(rows, acts):
        if d["action"] == "ranged_attack" and d.get("weapon") is None:
            return InvalidAction(f"actions.{row}.weapon", f"choose the weapon {name or 'they'} shoots or throws with")
    return None


def sight_from(enc: Any, answers: dict[str, bool], attacker_id: str, weapon: Any, target_id: str) -> bool:
    """Whether an attack form's "Line of sight (ranged)" starts ticked: for a ranged attack, the GM's last
    answer for this attacker and target, else what the map says (ticked when nobody stands on the line
    between them); for a melee one, never (a GM's play-through: the first shot started unticked beside
    "no one in the way", and a ticked box carried from a missile attack into a melee one). ``weapon``:
    the attacker's weapon index, None for the wielded one."""
    from fray.maprules import in_the_way

    a, tgt = enc.get(attacker_id or ""), enc.get(target_id or "")
    if a is None or tgt is None or not _ranged(a, weapon):
        return False
    said = answers.get(f"{a.id}>{tgt.id}")
    return said if said is not None else not in_the_way(enc, a, tgt)


def sight_why(enc: Any, attacker_id: str, weapon: Any, target_id: str) -> str:
    """What the map says of the line from the attacker to the target, shown beside "Line of sight
    (ranged)" (a GM's fights: the box came unticked and the reason was folded away in the closed
    range-band list); nothing for a melee weapon, which needs no line of sight."""
    from fray.maprules import in_the_way

    a, tgt = enc.get(attacker_id or ""), enc.get(target_id or "")
    if a is None or tgt is None or not _ranged(a, weapon):
        return ""
    names = [o.name for o in in_the_way(enc, a, tgt)]
    return f'The map: {", ".join(names)} in the way' if names else "The map: no one in the way"


def attack_target(app: Any, view: dict[str, Any], cid: str) -> str:
    """Whom the attack form starts on for attacker ``cid``: the GM's own choice for him in this turn,
    else the target of his open declared attack in this phase (standing or downed, not dead), else the
    nearest standing enemy on the map (``rules.default_target``)."""
    from fray.games.tactical_round import rules

    offered = {v for v, _ in target_options(view, cid)}
    chosen = app.ui.part(TacticalPanel).attack_targets.get(cid)
    if chosen in offered:
        return chosen
    c = _combatant(view, cid) or {}
    phase = view["phase"]["id"]
    declared = next((d.get("target") for d in c.get("declared", []) if not d.get("done")
                     and d.get("phase") == phase and d.get("action") in ATTACK_KINDS), None)
    if declared in offered:
        return declared
    nearest = rules.default_target(app.enc, cid)
    return nearest if nearest in offered else next(iter(v for v, _ in target_options(view, cid)), "")


def attack_weapon(app: Any, view: dict[str, Any], cid: str) -> int | None:
    """The weapon the attack form starts on for attacker ``cid`` (None: the wielded one): the GM's own
    choice for him in this turn, else the weapon of his open declared attack in this phase. A GM's
    play-through: the Attacker changed away and back came back on the Staff in hand, not the declared
    Fire Bolt, and the attack was refused "Staff attacks in Melee, not in Spell A"."""
    chosen = app.ui.part(TacticalPanel).attack_weapons
    if cid in chosen:
        return chosen[cid]
    c = _combatant(view, cid) or {}
    phase = view["phase"]["id"]
    return next((d.get("weapon") for d in c.get("declared", []) if not d.get("done")
                 and d.get("phase") == phase and d.get("action") in ATTACK_KINDS), None)


def _ranged(a: Any, weapon: Any) -> bool:
    ws = a.data.get("weapons", [])
    wi = a.data.get("wielding", 0) if weapon is None else weapon
    return isinstance(wi, int) and 0 <= wi < len(ws) and ws[wi].get("kind") in RANGED_KINDS


class TacticalPanel(GamePanel):
    ui_type = TacticalRoundUi  # its part of the page's view state (fray.web.uistate)
    FORMS = ("tr-declare", "tr-attack", "tr-result", "tr-critical", "tr-parry", "tr-cover", "tr-hp", "tr-run-away",
             "add-combatant")
    ACTS = ("tr-resolve", "tr-skip", "tr-go-on", "tr-quick-attack", "tr-show-critical", "tr-reload", "tr-wield", "tr-dismiss",
            "tr-dive-prone", "tr-dive-cover", "tr-heal", "add-combatant", "use-preset", "advance")

    def panel(self, app: Any, view: dict[str, Any]) -> Markup:
        self.forget_stale_attack(app, view)
        kinds = None
        try:
            kinds = app.ruleset.table(app.enc, "declared_actions")["entries"]
        except Exception:
            kinds = None
        ranges = None
        try:
            enc = app.enc
            who = (app.ui.part(self).attack or {}).get("id")
            if not who and view.get("phase", {}).get("id") in ("ranged_a", "ranged_b", "spell_a", "spell_b"):
                who = next_attack(view).get("id")
            ranges = map_ranges(enc, app.ruleset.all_tables(enc), who)
        except Exception:
            ranges = None  # a hint only: never let it blank the panel
        self._lazy_folds(app, view)
        odds_view.refresh_soon(app)
        if not getattr(self, "_listening", False):
            from fray.web.dom import document
            self._listening = True
            app._listen(document, "change", lambda e: self.on_change(app, e))
        ui = app.ui.part(self)
        try:
            pre = self.attack_defaults(app, view)
            if pre:
                ui = dataclasses.replace(ui, attack=pre)
        except Exception:  # noqa: BLE001 - a default only: never let it blank the panel
            pass
        last, left_out, reach = None, None, None
        if view.get("phase", {}).get("id") in ("assessment", "declaration"):
            from fray.games.tactical_round import rules
            checked = rules.last_declarations_checked(app.enc)
            last = {cid: rows for cid, (rows, _) in checked.items()}
            left_out = {cid: why for cid, (_, why) in checked.items() if why}
            reach = rules.reach_warnings(app.enc, app.ruleset.all_tables(app.enc))
        return panel_html(view, ui, kinds, ranges, last, left_out, reach)

    @staticmethod
    def on_change(app: Any, event: Any) -> None:
        """An Action chosen in a declaration: its Weapon starts on the one that fits it and, for an
        attack, its Target on the nearest standing enemy (``rules.declare_defaults``), so declaring
        an attack is the action and Declare, two taps, not four (issue 33). A target the GM already
        chose stays; the form is not drawn again (what else is chosen in it stays too)."""
        from fray.games.tactical_round import rules
        from fray.games.tactical_round.actions import ON_NO_ONE
        from fray.web.dom import data, nil, q

        t = nil(event.target)
        name = str(getattr(t, "name", "") or "") if t is not None else ""
        if name in ("id", "weapon", "target", "line_of_sight"):
            TacticalPanel.attack_changed(app, t, name)
            return
        row, _, rest = name.removeprefix("actions.").partition(".")
        if not name.startswith("actions.") or rest != "action" or not row.isdigit():
            return
        form = nil(t.closest('form[data-form="tr-declare"]'))
        if form is None:
            return
        cid = data(form, "id") or ""
        weapon, target = rules.declare_defaults(app.enc, cid, str(t.value or ""))
        wsel = q(form, f'[name="actions.{row}.weapon"]')
        if wsel is not None:
            # the action's own choices: a Melee attack offers no Bolt spell (``forms.decl_weapons``)
            from fray.web.blocks import ascii_html
            from .forms import decl_weapons

            options, _ = decl_weapons(_combatant(app.ruleset.view(app.enc), cid) or {}, str(t.value or ""), None)
            wsel.innerHTML = ascii_html(fragment(h("option", {"value": v}, label) for v, label in options))
            wsel.value = "" if weapon is None else str(weapon)
        tsel = q(form, f'[name="actions.{row}.target"]')
        if tsel is not None and target and not str(tsel.value or ""):
            tsel.value = target
        elif tsel is not None and str(t.value or "") in ON_NO_ONE:
            tsel.value = ""  # a Move is on no one: the attack's target the form held is not its
        # the preview again, with the weapon and target just chosen: it was worked out from the form
        # as the GM left it, before they were (the odds listen to the same change, and first)
        odds_view.refresh(app, form)

    @staticmethod
    def forget_stale_attack(app: Any, view: dict[str, Any]) -> None:
        """The GM's choices in the attack form hold while the one who acts now does (``acting_now``):
        once that one has acted or been skipped, or the phase or round has moved on, the form follows
        who acts, from their declaration."""
        ui = app.ui.part(TacticalPanel)
        if ui.attack_at is not None and ui.attack_at != acting_now(view):
            TacticalPanel.forget_attack(app)

    @staticmethod
    def forget_attack(app: Any) -> None:
        ui = app.ui.part(TacticalPanel)
        ui.attack, ui.attack_at, ui.attack_weapons, ui.attack_targets = None, None, {}, {}

    @staticmethod
    def remember_attack(app: Any, attack: dict[str, Any], view: dict[str, Any] | None = None) -> None:
        """The attack form as the GM set it, kept through redraws while the one acting now acts."""
        ui = app.ui.part(TacticalPanel)
        ui.attack = attack
        ui.attack_at = acting_now(view if view is not None else app.ruleset.view(app.enc))

    @staticmethod
    def attack_changed(app: Any, t: Any, name: str) -> None:
        """The GM changed the attack form's Attacker, Weapon, Target or Line of sight. Another Attacker:
        its Weapon list becomes its own (``forms.weapon_options``), on the weapon the GM chose for it
        before in this turn, else his declared one, else the wielded one (``attack_weapon``). Line of sight starts again from the map and the GM's
        answers (``sight_from``) on another attacker or target; on another weapon the GM's own tick
        stands (a GM's play-through: choosing the Heavy crossbow unticked it: "No odds: a ranged attack
        needs a clear Line of Sight"). What is chosen is kept as the form's start, so a render before
        the attack draws the same."""
        from fray.web.blocks import ascii_html
        from fray.web.dom import nil, q
        from fray.web.forms import form_values

        form = nil(t.closest('form[data-form="tr-attack"]'))
        if form is None:
            return
        ui = app.ui.part(TacticalPanel)
        view = app.ruleset.view(app.enc)
        wsel = q(form, '[name="weapon"]')
        box = q(form, '[name="line_of_sight"]')
        cid = str(q(form, '[name="id"]').value or "") if q(form, '[name="id"]') is not None else ""
        if name == "id" and wsel is not None:
            c = _combatant(view, cid) or {}
            wsel.innerHTML = ascii_html(fragment(h("option", {"value": v}, label) for v, label in weapon_options(c)))
            chosen = attack_weapon(app, view, cid)
            wsel.value = "" if chosen is None else f"{cid}:{chosen}"
        tsel = q(form, '[name="target"]')
        if name == "id" and tsel is not None:
            # his own Target list, on the one the GM chose for him before in this turn, else his
            # declared target, else the nearest standing enemy (``attack_target``)
            tsel.innerHTML = ascii_html(fragment(h("option", {"value": v}, label)
                                                 for v, label in target_options(view, cid)))
            tsel.value = attack_target(app, view, cid)
        values = form_values(form)
        owner, _, idx = str(values.get("weapon") or "").rpartition(":")
        weapon = as_int(idx) if owner == cid and idx else None
        if name == "weapon":
            ui.attack_weapons[cid] = weapon
        if name == "target":
            ui.attack_targets[cid] = str(values.get("target") or "")
        before = ui.attack or {}
        mem: dict[str, Any] = {"id": cid, "weapon": weapon, "target": str(values.get("target") or "")}
        if name == "line_of_sight" and box is not None:
            mem["line_of_sight"] = bool(box.checked)
        elif name == "weapon" and "line_of_sight" in before and before.get("id") == cid:
            mem["line_of_sight"] = before["line_of_sight"]  # the GM's own tick stands
        TacticalPanel.remember_attack(app, mem, view)
        said = q(form, "#tr-att-order")
        if name == "id" and said is not None:
            said.textContent = strikes_first(app.enc, app.ruleset.all_tables(app.enc), cid)
            said.hidden = not said.textContent
        why = q(form, "#tr-att-los-why")
        if why is not None:
            why.textContent = sight_why(app.enc, cid, weapon, mem["target"])
        if box is not None and "line_of_sight" not in mem:
            box.checked = sight_from(app.enc, ui.los, cid, weapon, mem["target"])
        odds_view.refresh(app, form)

    @staticmethod
    def attack_defaults(app: Any, view: dict[str, Any]) -> dict[str, Any]:
        """The attack form's start: the quick-attack's or the phase's next open attack, with the
        nearest living enemy as the target when none is declared or the declared one has fallen,
        and Line of sight from what the map and the GM's last answer know (issue 33: "Line of sight
        starts unticked on every ranged attack ... start it from what the map and the GM's last
        answer know"): ``sight_from``."""
        from fray.games.tactical_round import rules

        pre = dict(app.ui.part(TacticalPanel).attack or next_attack(view))
        if not pre.get("id"):
            return {}
        enc = app.enc
        a = enc.get(pre["id"])
        if a is None:
            return {}
        pre["nearest"] = rules.default_target(enc, a.id)
        # the declared target stands, even downed (Parrying: "Incapacitated ... characters ... cannot
        # Parry at all": they can be attacked); a dead or gone one is said beside Target, never
        # changed without a word (a GM's play-through: "Aldric attacks Orc 3", declared on Orc 1)
        tgt = enc.get(pre.get("target") or "")
        if pre.get("target") and (tgt is None or "dead" in tgt.conditions):
            gone = f"{tgt.name}, the declared target, is dead" if tgt is not None else \
                "The declared target is no longer here"
            pre["target_note"] = f"{gone}: choose whom {a.name} attacks."
            pre["target"] = ""
            tgt = None
        if tgt is None:
            tgt = enc.get(pre["nearest"])
        if tgt is not None and "line_of_sight" not in pre:
            pre["line_of_sight"] = sight_from(enc, app.ui.part(TacticalPanel).los, a.id, pre.get("weapon"), tgt.id)
        if tgt is not None:
            pre["sight_why"] = sight_why(enc, a.id, pre.get("weapon"), tgt.id)
        pre["order_note"] = strikes_first(enc, app.ruleset.all_tables(enc), a.id)
        return pre

    @staticmethod
    def _lazy_folds(app: Any, view: dict[str, Any]) -> None:
        """Which folded declarations and waiting results the page shows open now (one query, the
        open ones only: at 200 combatants reading every fold-out's state was 400 calls into the
        page), and which have had their form drawn. Outside the phases that show the declarations
        theirs are let go, so a new round starts with them all shut; a result's, once it is gone."""
        is_open = {k for k, v in app.ui.folds.items() if v}
        # a card's cover, damage / heal and running away: drawn once opened, while its combatant is here
        cards = {f"{p}{c['id']}" for c in view.get("combatants", []) for p in CARD_FOLDS}
        ui = app.ui.part(PANEL)
        ui.card_open = {k for k in is_open if k in cards}
        ui.card_drawn = (ui.card_drawn | ui.card_open) & cards
        decl = {k[len("decl-"):] for k in is_open if k.startswith("decl-")}
        pend = {k[len("pending-"):] for k in is_open if k.startswith("pending-")}
        waiting = {p["ref"] for p in view.get("pending", [])}
        ui.pending_open = pend
        ui.pending_drawn = (ui.pending_drawn | pend) & waiting
        if view.get("phase", {}).get("id") not in ("setup", "assessment", "declaration"):
            ui.decl_open, ui.decl_drawn = set(), set()
            return
        ui.decl_open = decl
        ui.decl_drawn = ui.decl_drawn | decl

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> Markup:
        return card_html(view, combatant_id, app.ui.part(self))

    def holds(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """The weapon in hand, for the acting combatant's essentials line (render.acting_line)."""
        c = _combatant(view, combatant_id)
        return [w["name"] for w in (c or {}).get("weapons", []) if w.get("wielded")]

    def acting(self, app: Any, view: dict[str, Any], acting: Any) -> tuple[str, Any]:
        """Whom the essentials line beside the form is about: while a critical waits for its effects (the
        GM's, FACTS.md: "the GM enters the result (hits and critical severity)"), the one whose blow it was,
        until it is applied or left ("Critical"; a GM's play-through: the line named the next archer
        while the GM applied the critical); else who acts now."""
        crit = next(iter(criticals_by_attacker(view)), None)
        if crit is not None and app.enc.get(crit) is not None:
            return "Critical", app.enc.get(crit)
        return "Acting", acting

    def uses(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """What it uses in this phase: the weapons (or spells) of its declared actions of this phase
        not done yet. Issue 33: the line said "Holds Broadsword" while Hero 3 threw his dagger in
        Ranged A. None outside such a phase: then the line says what it holds."""
        c = _combatant(view, combatant_id) or {}
        weapons = c.get("weapons", [])
        out: list[str] = []
        for d in c.get("declared", []):
            i = d.get("weapon")
            if d.get("done") or d.get("phase") != view["phase"]["id"] or i in (None, ""):
                continue
            i = int(i)
            if 0 <= i < len(weapons) and weapons[i]["name"] not in out:
                out.append(weapons[i]["name"])
        return out

    # -- clicks
    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act == "advance":
            # Next, passing over phases in which nobody acts, then bring the stepper into view: the
            # declarations or a pending result above may have gone, leaving the GM among the cards.
            from fray.web.dom import below_the_head, by_id

            if not app.dispatch({"type": "advance", "skip_empty": True, "ask": True}, by_id("round-bar")):
                # stopped: say what is open, with Resolve / Skip it and Go on (issue 32)
                app.ui.part(self).asked = [app.enc.round, app.enc.phase]
                app.render()
                box = by_id("tr-open")
                if box is not None:
                    # the box says what is open, with what to do: the same words again in the round
                    # bar, with the rule's name, added nothing (issue 33)
                    app.clear_errors(by_id("round-bar"))
                below_the_head(box)
                return True
            app.ui.part(self).asked = None
            if True:
                stepper = by_id("tr-stepper")
                bar = by_id("round-bar")
                if stepper is not None and bar is not None and \
                        stepper.getBoundingClientRect().top < bar.getBoundingClientRect().bottom:
                    stepper.scrollIntoView(True)
            return True
        if act not in self.ACTS:
            return False
        if act in ("add-combatant", "use-preset"):
            # the generic dialog, then the one-weapon-a-line section filled from its JSON box
            open_add_section(app, act, el, "tr-add", add_fields_html)
            return True
        from fray.web.dom import data, nil
        from fray.web.forms import form_values

        cid = data(el, "id")
        form = nil(el.closest("form"))
        scope = form if form is not None else nil(el.closest(".tr-scope, article, .tr-box"))
        if act == "tr-resolve":
            app.dispatch({"type": "tr.resolve", "id": cid}, scope)
        elif act == "tr-skip":
            app.dispatch({"type": "tr.skip", "id": cid, "action": as_int(data(el, "index"))}, scope)
        elif act == "tr-go-on":
            from fray.web.dom import by_id
            if app.dispatch({"type": "advance", "skip_empty": True, "ask": True, "go_on": True}, scope):
                app.ui.part(self).asked = None
                stepper = by_id("tr-stepper")
                if stepper is not None:
                    stepper.scrollIntoView(True)
        elif act == "tr-quick-attack":
            w = data(el, "weapon")
            self.remember_attack(app, {"id": cid, "weapon": as_int(w) if w else None, "target": data(el, "target") or ""})
            app.render()
            import js

            from fray.web.dom import below_the_head, by_id
            roll = by_id("tr-att-roll")
            if roll is not None:
                # the form's top, its heading, just under the sticky head: the focus alone scrolled only
                # as far as the d100 box, and on a laptop the round bar covered the heading above it
                roll.focus(js.Object.fromEntries([["preventScroll", True]]))
                below_the_head(nil(roll.closest(".tr-attack-box")), always=False)
        elif act in ("tr-reload", "tr-wield"):
            app.dispatch({"type": "tr.reload" if act == "tr-reload" else "tr.wield", "id": cid,
                          "weapon": as_int(data(el, "weapon"))}, scope)
        elif act == "tr-show-critical":
            self.show_pending(app, data(el, "ref") or "")
        elif act == "tr-dismiss":
            app.dispatch({"type": "tr.dismiss", "ref": data(el, "ref")}, scope)
        elif act == "tr-dive-prone":
            app.dispatch({"type": "tr.dive_for_cover", "id": cid, "aware": True, "to": "prone"}, scope)
        elif act == "tr-dive-cover" and form is not None:
            v = form_values(form)
            app.dispatch({"type": "tr.dive_for_cover", "id": cid, "aware": True, "to": "cover",
                          "cover": v.get("cover"), "against": v.get("against", "all")}, form)
        elif act == "tr-heal" and form is not None:
            v = form_values(form)
            hits = as_int(v.get("hits", ""))
            app.dispatch({"type": "tr.adjust_hp", "id": cid, "hits": -hits if isinstance(hits, int) else hits}, form)
        return True

    # -- submits
    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        if form_name == "add-combatant":
            if "tr_weapons" in values:
                try:
                    fold_weapons(values)
                except InvalidAction as e:
                    app.clear_errors(form)
                    app.show_error(form, e)
                    return True  # nothing added
            return False  # the generic handler adds it (stats, name, side) with these weapons
        from fray.web.dom import data

        cid = data(form, "id")
        if form_name == "tr-declare":
            self.declare(app, form, values)
        elif form_name == "tr-attack":
            self.attack(app, form, values)
        elif form_name == "tr-result":
            action: dict[str, Any] = {"type": "tr.apply_result", "ref": values.get("ref"),
                                      "hits": as_int(values.get("hits", "")), "critical": values.get("critical") or None}
            if action["critical"] is not None:
                rolls = self.rolls(app, form, values, ("critical",))
                if rolls is False:
                    return True
                if rolls:
                    action["rolls"] = rolls
            if app.dispatch(action, form) and action["critical"] is not None:
                # the critical's box takes the result's place: its head (whose attack, which
                # critical) was under the sticky round bar, strip and acting line on a tablet; its
                # Extra hits takes what the GM types next
                self.show_pending(app, str(action["ref"]))
        elif form_name == "tr-critical":
            action = {"type": "tr.apply_critical", "ref": values.get("ref"), "hits": as_int(values.get("hits", "0") or "0"),
                      "stunned_rounds": as_int(values.get("stunned_rounds", "0") or "0"),
                      "prone": bool(values.get("prone")), "kills": bool(values.get("kills")),
                      "dies_in": as_int(values.get("dies_in", "0") or "0")}
            if values.get("text"):
                action["text"] = values["text"]
            app.dispatch(action, form)
        elif form_name == "tr-parry":
            from fray.web.dom import q
            amount = as_int(values.get("amount", "") or "0")
            if "against" in values:
                against: Any = values.get("against")
            else:
                against = []
                for k, v in values.items():
                    if k.startswith("against.") and v is True:
                        el = q(form, f'[name="{k}"]')
                        if el is not None:
                            against.append(el.value)
            app.dispatch({"type": "tr.parry", "id": cid, "amount": amount, "against": against}, form)
        elif form_name == "tr-cover":
            app.dispatch({"type": "tr.cover", "id": cid, "cover": values.get("cover"),
                          "against": values.get("against", "all")}, form)
        elif form_name == "tr-hp":
            app.dispatch({"type": "tr.adjust_hp", "id": cid, "hits": as_int(values.get("hits", ""))}, form)
        elif form_name == "tr-run-away":
            names = ["flee"] + [k[len("rolls."):] for k in values if k.startswith("rolls.athletics.")]
            rolls = self.rolls(app, form, values, names)
            if rolls is False:
                return True
            action = {"type": "tr.run_away", "id": cid}
            if rolls:
                action["rolls"] = rolls
            app.dispatch(action, form)
        return True

    def rolls(self, app: Any, form: Any, values: dict[str, Any], names: Any) -> dict[str, list[int]] | bool:
        """Typed dice of the form: {name: [ints]}; False (error shown) if one is not whole numbers."""
        out, bad = read_rolls(values, names)
        if bad is not None:
            app.clear_errors(form)
            app.show_error(form, bad)
            return False
        return out

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """The odds of the attack as the form is set now (never rolls); a declaration's preview."""
        if form_name == "tr-declare":
            from fray.web.dom import data

            return declare_preview(app.enc, app.ruleset.all_tables(app.enc), data(form, "id") or "", values)
        if form_name != "tr-attack":
            return None
        from fray.games.tactical_round.odds import AttackOdds, attack_odds

        action, err = attack_action(values)
        return odds_html.open_ended_html(AttackOdds(error=err) if err else attack_odds(app.ruleset, app.enc, action))

    def attack(self, app: Any, form: Any, values: dict[str, Any]) -> None:
        action, err = attack_action(values)
        if err:
            app.clear_errors(form)
            app.show_error(form, InvalidAction("weapon", err))
            return
        rolls = self.rolls(app, form, values, ("attack",))  # blank: Fray rolls
        if rolls is False:
            return
        if rolls:
            action["rolls"] = rolls
        if app.dispatch(action, form):
            self.forget_attack(app)
            a = app.enc.get(action["id"])
            ws = a.data.get("weapons", []) if a is not None else []
            wi = action.get("weapon", a.data.get("wielding", 0) if a is not None else 0)
            if isinstance(wi, int) and 0 <= wi < len(ws) and ws[wi].get("kind") in ("missile", "thrown", "spell"):
                # the GM's answer for this pair: the next attack between them starts from it
                app.ui.part(self).los[f"{action['id']}>{action['target']}"] = bool(action["line_of_sight"])
            # the result goes in next: its Hits field takes the typing with no tap (issue 33), in
            # this attack's own box: the last Hits on the page was a critical's "Extra hits" once
            # this one's box was a fold-out past the first three (a GM's play-through)
            self.show_pending(app, f"A{app.enc.state.get('next_ref', 1) - 1}")

    @staticmethod
    def show_pending(app: Any, ref: str) -> None:
        """The waiting box of ``ref`` drawn (its fold-out opened if it is one), on screen below the
        sticky head, its Hits ("Extra hits" for a critical) focused with its text selected, so what
        the GM types next replaces the 0 in it; an attack the GM's table settled has no box: nothing."""
        from fray.web.dom import document, nil

        app.ui.folds[f"pending-{ref}"] = True
        app.render()
        box = nil(document.querySelector(f'article.tr-pending[data-ref="{ref}"]'))
        hits = nil(box.querySelector('input[name="hits"]')) if box is not None else None
        if hits is None:
            return
        hits.focus()
        hits.select()
        # the box is drawn above the attack form: with the GM scrolled down to its Attack button it
        # lay under the sticky head (a tablet), focused but unseen. With its section's heading when
        # both fit ("Awaiting the attack table" sat under the head, the box alone revealed: a GM's
        # play-through), as the other forms come with theirs
        import js

        sec = nil(box.closest(".tr-pending-list"))
        whole = sec is not None and \
            box.getBoundingClientRect().bottom - sec.getBoundingClientRect().top < js.window.innerHeight * 0.6
        app.reveal(sec if whole else box)

    def declare(self, app: Any, form: Any, values: dict[str, Any]) -> None:
        rows, acts = declared_rows(values)
        a = app.enc.get(values.get("id") or "")
        bad = weapon_missing(acts, rows, a.name if a is not None else "")
        if bad is not None:
            app.clear_errors(form)
            app.show_error(form, bad)
            app.keep_errors(form)
            return

        def field_map(f: str) -> str:
            parts = f.split(".")
            if len(parts) >= 2 and parts[0] == "actions" and parts[1].isdigit() and int(parts[1]) < len(rows):
                parts[1] = str(rows[int(parts[1])])
            return ".".join(parts)

        if app.dispatch({"type": "tr.declare", "id": values.get("id"), "actions": acts}, form, field_map):
            self.to_next_declaration(app, values.get("id") or "")
        else:
            # not declared: the refusal stands beside the form while the GM declares for the others
            app.keep_errors(form)

    def to_next_declaration(self, app: Any, after: str) -> None:
        """After a declaration, the next form of someone who has not declared takes the focus, its
        top just under the sticky round bar (and, on a tablet, the order strip) rather than under
        them (issue 33: "the sticky round bar covers the top of the declarations"). Folded forms
        (a crowd) are left shut."""
        import js

        from fray.web.dom import below_the_head, data, document, q

        declared = app.enc.state.get("declared", {})
        forms = [f for f in document.querySelectorAll('form[data-form="tr-declare"]')]
        ids = [data(f, "id") for f in forms]
        later = forms[ids.index(after) + 1:] + forms[:ids.index(after)] if after in ids else forms
        nxt = next((f for f in later if data(f, "id") not in declared and f.checkVisibility()), None)
        if nxt is None:
            return
        sel = q(nxt, '[name="actions.0.action"]')
        if sel is not None:
            sel.focus(js.Object.fromEntries([["preventScroll", True]]))
        below_the_head(nxt)


PANEL = TacticalPanel()  # found by the ruleset's ``panel = "fray.games.tactical_round.web.panel"``

__all__: list[str] = ["PANEL", "TacticalPanel", "panel_html", "card_html", "parse_dice", "add_fields_html", "add_extra",
                      "fold_weapons"]
