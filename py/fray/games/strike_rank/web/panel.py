"""The strike-rank panel: declare (SR with its breakdown), resolve SR by SR with one attack
panel per exchange, the end-of-round prompts, and on each card total HP, a body diagram,
derived values, weapons, a GM damage control and First Aid.

The parts live in ``fray.games.strike_rank.web`` (see its docstring for which module draws what); this
module puts them together and is the ``PANEL`` the ruleset names.

Rendering is pure (``panel_html``, ``card_html`` take the ruleset's ``view()`` plus plain data
and return markup built by ``fray.web.html``, which escapes every piece of text). The handlers read a
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

from fray.web import odds_view
from fray.games.strike_rank.web import odds as odds_html
from fray.games.strike_rank.web.add_form import add_extra, add_fields_html, armour_problem, armour_text, parse_armour, parse_weapons, weapons_text
from fray.web.blocks import Block
from fray.web.html import Markup, block, html
from fray.web.panels import GamePanel
from fray.games.strike_rank.combat import MoreDice
from fray.games.strike_rank.web.attack import (attack_html, carried_over, current_parts, free_attack_html, change_costs,
                                               voluntary_cost)
from fray.games.strike_rank.web.card import body_html, card_html, location_cell, stuck_entries
from fray.games.strike_rank.web.common import INJURY_LABEL, PHASE_LABEL, _names, dead_ids
from fray.games.strike_rank.web.declare import change_html, declare_form, declare_html, next_to_declare, order_html
from fray.games.strike_rank.web.flow import nothing_left_html, open_attacks, not_declared, still_open_html, undeclared_html
from fray.games.strike_rank.web.ui import StrikeRankUi
from fray.games.strike_rank.web.parse import (_rolls, answer_action, attack_action, care_action, declare_action, parse_dice)
from fray.games.strike_rank.web.questions import bleed_html, end_html, exchange_html, last_exchange, prompt_html
from fray.web.widgets import as_int, fold_extra, open_add_section

__all__ = ["INJURY_LABEL", "PANEL", "StrikeRankPanel", "add_extra", "add_fields_html", "answer_action", "armour_text",
           "attack_action", "attack_html", "body_html", "card_html", "care_action", "declare_action", "declare_form",
           "last_exchange", "location_cell", "panel_html", "parse_armour", "parse_dice", "parse_weapons", "prompt_html",
           "stuck_entries", "weapons_text"]


# -- the panel above the cards ------------------------------------------------------------------

def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               log: list[tuple[str, str]] | None = None, kept: dict[str, Any] | None = None) -> Block | Markup:
    """The whole strike-rank section. ``log`` is the encounter's log as (kind, text) pairs.
    A Block (web/blocks.py) with one child per part, so the painter rewrites only the parts that
    changed; ``kept``: what ``declare_html`` reuses from the last render."""
    if not view or view.get("ruleset") != "strike-rank":
        return Markup("")
    ui = ui or StrikeRankUi()
    log = log or []
    phase = view.get("phase", "setup")
    head = PHASE_LABEL.get(phase, phase)
    if phase == "resolve":
        head = f"Resolve SR {view.get('sr', 0)}"
    parts = [html('<h2 class="sr-phase">Melee Round {}: <span>{}</span></h2>', view.get("round", 1), head),
             html('<p class="field-error sr-form-error" data-error-for="sr"></p>')]
    if phase == "setup":
        parts.append(html('<p class="hint">Add the combatants, then press <strong>Start the fight</strong> '
                          'to declare the first Melee Round.</p>'))
    if phase == "declare":
        if ui.undeclared == view.get("round"):
            parts.append(undeclared_html(view))
        parts.append(declare_html(view, ui, kept))
    if phase == "resolve":
        if ui.still_open == [view.get("round"), view.get("sr")]:
            parts.append(still_open_html(view))
        parts.append(order_html(view, ui))
        # what the exchange just did, above what it asks and the next attack's form: below them
        # it lay some 1,100 px down a tablet's page, the next attacker's form where the GM looked
        parts.append(exchange_html(log))
        if view.get("prompts"):
            # what the last exchange asks (a knockback's collision, a fumble, an impaling weapon
            # to free) before the next attack: after that attack's form, its odds and the last
            # exchange it was off a tablet's screen where the GM had just rolled
            parts.append(end_html(view, log))
        change = ui.change
        if change:
            parts.append(change_html(view, change, ui.retarget.get(change), ui.change_to.get(change)))
        parts.extend(current_parts(view, ui) or [nothing_left_html(view)])
        parts.append(bleed_html(view))
    if phase in ("end", "declare"):
        parts.append(exchange_html(log))
    if phase == "end" or (view.get("prompts") and phase != "resolve"):
        parts.append(end_html(view, log))
    free = ui.free
    if free and free.get("prompt") in {p.get("id") for p in view.get("prompts", [])}:
        parts.append(free_attack_html(view, free, ui))
    return block("section", {"class": "sr-panel", "aria-label": "Strike ranks"}, parts)



# the fold-outs drawn when they first open and kept drawn while on the page (games/strike_rank/web/*.py)
KEPT_ONCE_OPEN = ("attack-", "declare-", "more-", "care-", "fight-", "circ-")


def opened_keys(ui: dict[str, Any], is_open: dict[str, bool], drawn: Any = ()) -> set[str]:
    """The fold-outs to draw with their body (``ui.opened``): those kept from the last render,
    those open on the page now, and those whose body is on the page now (``drawn``: marked
    ``data-fold-drawn``); a key whose fold-out is gone is let go."""
    return {k for k in (ui.opened if ui else ()) if k in is_open} | {
        k for k, v in is_open.items() if (v or k in drawn) and k.startswith(KEPT_ONCE_OPEN)}


class StrikeRankPanel(GamePanel):
    ui_type = StrikeRankUi  # its part of the page's view state (fray.web.uistate)
    ACTS = ("sr-undeclare", "sr-resolve", "sr-answer", "sr-change-open", "sr-change-cancel", "add-combatant",
            "use-preset", "sr-free-attack", "sr-skip", "sr-show-attack", "sr-strike-fallen", "sr-go-on", "sr-go-on-cancel", "advance")
    FORMS = ("sr-bleed", "sr-declare", "sr-change", "sr-abort", "sr-attack", "sr-damage", "sr-protection", "sr-first-aid", "sr-heal",
             "sr-natural-healing", "sr-disengage", "sr-grapple", "sr-unstick", "sr-prompt", "add-combatant")

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        log = [(e.kind, e.text) for e in app.enc.log[-80:]]
        ui = app.ui.part(self)
        if ui.change and view.get("phase") != "resolve":
            ui.change = None
        # the fold-outs as the GM left them (the panel renders before the cards): kept open or shut
        from fray.web.dom import document


        ui.open = is_open = dict(app.ui.folds)
        # a waiting attack form (a declaration's "More", a card's care or grapple forms), once opened,
        # keeps its body when shut again (what the GM typed in it stays); the keys of fold-outs no
        # longer on the page are let go
        ui.opened = opened_keys(ui, is_open, app.ui.folds_drawn)
        odds_view.refresh_soon(app)
        # a forced change, or another target than declared in an attack form: what it costs, by the engine's own change
        if view.get("phase") != "resolve":
            ui.change_to = {}
        ui.retarget = change_costs(app.enc, view, ui.target, ui.change_to) if view.get("phase") == "resolve" else {}
        if ui.change and view.get("phase") == "resolve" and ui.change not in ui.retarget:
            # the voluntary Change…: what it costs before the GM confirms, as the forced change's box says it
            said = voluntary_cost(app.enc, view, ui.change, ui.change_to.get(ui.change))
            if said:
                ui.retarget[ui.change] = said
        more = ui.more
        if more:  # the extra dice of an exchange no longer at hand (skipped, undone, Next) are let go
            now = {o["ref"] or "free" for o in view.get("order", []) if o.get("current")} | {"free"}
            for k in [k for k in more if k not in now]:
                del more[k]
        if not getattr(self, "_listening", False):
            self._listening = True
            app._listen(document, "change", lambda e: self.on_change(app, e))
        return panel_html(view, ui, log, self.__dict__.setdefault("_declare_kept", {}))

    def on_change(self, app: Any, event: Any) -> None:
        """A new Target in an attack form: draw the form again for that defender (their parrying
        weapons, hit locations, shields), so nothing in it still names the first one's."""
        from fray.web.dom import data, document, nil
        from fray.web.forms import form_values, restore_values

        t = nil(event.target)
        if t is None:
            return
        name = str(getattr(t, "name", "") or "")
        declaring = nil(t.closest("form.sr-declare"))
        if declaring is not None and name == "kind" and str(t.value) in ("melee", "missile"):
            # an attack is made with a weapon: one left on "(none)" (a dodge changed) takes the one in hand
            pick = declaring.querySelector('select[name="weapon"]')
            hand = data(declaring, f"{t.value}-weapon") or ""
            shots = (data(declaring, "missile-weapons") or "").split()
            now = str(pick.value) if pick is not None else ""
            if hand and (not now or (now in shots) != (str(t.value) == "missile")):
                pick.value = hand  # nor a bow for a melee attack (a GM's play: the archer's Change… to melee)
        if declaring is not None and name == "kind":
            # "(self)" is a spell's target only (``declare._target_select``): shown as the Action becomes a spell
            me = nil(declaring.querySelector('select[name="target"] option[data-self]'))
            if me is not None:
                off = str(t.value) != "spell"
                me.hidden = off
                me.disabled = off
                pick = declaring.querySelector('select[name="target"]')
                if off and str(pick.value) == str(me.value):
                    pick.value = ""
        if declaring is not None and (name == "spell" or (name == "kind" and str(t.value) == "spell")):
            # a spell's Target starts on whom it is cast on (the assumed ``spells`` table), not on a foe
            spell = declaring.querySelector('select[name="spell"]')
            on = dict(x.split("=", 1) for x in (data(declaring, "spell-targets") or "").split() if "=" in x)
            pick = declaring.querySelector('select[name="target"]')
            if spell is not None and pick is not None and on.get(str(spell.value)):
                pick.value = on[str(spell.value)]
        # the forced change's box, and the voluntary Change…'s: the cost line and button follow what is set in it
        forced = nil(t.closest('form[data-form="sr-change"]'))
        if forced is not None and name in ("kind", "weapon", "target"):
            # the forced change's cost line and button follow what the GM picks in it (a GM's play: another
            # Target 13 m away, the line still named the first and the button said nothing of the loss)
            ref = data(forced, "ref") or ""
            typed = form_values(forced)
            kind = str(typed.get("kind") or "")
            hand = data(forced, f"{kind}-weapon") or "" if name == "kind" and kind in ("melee", "missile") else ""
            shots = (data(forced, "missile-weapons") or "").split()
            if hand and (not typed.get("weapon") or (typed["weapon"] in shots) != (kind == "missile")):
                # its Weapon lists only the weapons of the attack set (``declare.declare_form``): the one in hand
                # for the new kind of attack was not among them to be picked above
                typed["weapon"] = hand
            app.ui.part(self).change_to[ref] = {k: v for k, v in typed.items() if k in ("kind", "weapon", "target")}
            app.render()
            again = nil(document.querySelector(f'form[data-form="sr-change"][data-ref="{ref}"]'))
            if again is not None:
                restore_values(again, typed)
            return
        if name != "target":
            return
        form = nil(t.closest('form[data-form="sr-attack"]'))
        if form is None:
            return
        ref = data(form, "ref") or ""
        app.ui.part(self).target[ref or "free"] = str(t.value)
        app.ui.part(self).more.pop(ref or "free", None)  # another defender: another exchange
        # what is typed in the attack forms survives their redrawing: all of it in the other
        # forms, all that still applies in this one (issue 10: a new Target cleared the dice)
        typed = {data(f, "ref") or "": form_values(f) for f in document.querySelectorAll('form[data-form="sr-attack"]')}
        typed[ref] = carried_over(typed.get(ref, {}))
        app.render()
        for f in document.querySelectorAll('form[data-form="sr-attack"]'):
            restore_values(f, typed.get(data(f, "ref") or "", {}))

    def advance(self, app: Any, values: dict[str, Any], scope: Any, go_on: bool = False) -> None:
        """Next: when nothing at the end of the MR waits for the GM, straight on to the next MR's
        declarations (one Next, not two), with the bleeding CON tests the GM typed. First it says
        what is still open (``_asks_first``); ``go_on``: the GM chose to go on with some undeclared."""
        rolls, errors = _rolls(values)
        if _show_errors(app, scope, errors):
            return
        if not go_on and self._asks_first(app):
            return
        app.ui.part(self).still_open = None
        app.ui.part(self).undeclared = None
        a: dict[str, Any] = {"type": "advance", "skip_empty": True, "ask_open": True, "move_token": True}
        if rolls:
            a["rolls"] = rolls
        resolving = app.enc.phase == "resolve"
        app.dispatch(a, scope)
        if app.enc.phase == "resolve" and not resolving:
            # resolution begins: its first attack where the GM looks (a GM's play-through: the
            # declarations folded away under the page's scroll, which then stood on a card some
            # 1,300 px below the attack to roll)
            _show_first_attack()

    def _asks_first(self, app: Any) -> bool:
        """Before Next moves on (issue 32): attacks still open at this SR get "Resolve / Skip it",
        and resolution does not begin while some who could act have declared nothing, unless the GM
        goes on. True when the panel now asks (the box is drawn and takes the focus)."""
        from fray.games import get_ruleset

        # the painter's own reuse (web/painter.py): the next render gets this very view back
        view = get_ruleset(app.enc.ruleset).view_kept(app.enc, app._view_kept.setdefault(app.enc.ruleset, {}))
        if view.get("phase") == "resolve" and open_attacks(view):
            app.ui.part(self).still_open = [view.get("round"), view.get("sr")]
            box = ".sr-still-open"
        elif view.get("phase") == "declare" and not_declared(view) and view.get("combatants"):
            app.ui.part(self).undeclared = view.get("round")
            box = ".sr-undeclared"
        else:
            return False
        app.render()
        from fray.web.dom import document, nil

        el = nil(document.querySelector(box))
        if el is not None:
            el.focus()
        return True

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """The odds of the exchange as the attack form is set now, for each defence (never rolls)."""
        if form_name != "sr-attack":
            return None
        from fray.games.strike_rank.odds import exchange_odds
        from fray.web.dom import data

        a, _ = attack_action(data(form, "ref") or "", data(form, "attacker") or "", data(form, "weapon") or "", values)
        return odds_html.exchange_html(exchange_odds(app.ruleset, app.enc, a))

    def acting(self, app: Any, view: dict[str, Any], acting: Any) -> tuple[str, Any]:
        """Whom the essentials line beside the form is about, and in what word: while declaring, the
        first still to declare, whose form waits open ("Declaring"; issue 33: it said "Acting" of the
        first in the order, who was doing nothing), none once all have; while resolving, who acts at
        the SR being resolved: with no action left at it, nobody (the order of play's first slot is
        then an action at a later SR, which waits for Next)."""
        if view.get("phase") == "declare":
            up = next_to_declare(view)
            return "Declaring", app.enc.get(up) if up else None
        if view.get("phase") == "resolve":
            now = [o["combatant"] for o in view.get("order", []) if o.get("current")]
            if acting is None or acting.id not in now:
                return "Acting", app.enc.get(now[0]) if now else None
        return "Acting", acting

    def uses(self, app: Any, combatant_id: str, view: dict[str, Any]) -> list[str]:
        """What its actions at this SR use, for the essentials line ("Uses Shortbow", not every weapon
        it holds; issue 33); none while declaring."""
        c = view.get("combatants", {}).get(combatant_id) or {}
        names = {w["id"]: w["name"] for w in c.get("weapons", [])}
        names.update({x["id"]: x["name"] for x in c.get("spells", [])})
        out: list[str] = []
        for a in view.get("order", []):
            if a.get("current") and a.get("combatant") == combatant_id:
                name = names.get(a.get("spell") or a.get("weapon") or "")
                if name and name not in out:
                    out.append(name)
        return out

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        app.ui.part(self).aid_said[combatant_id] = _aid_said(app, combatant_id)
        return card_html(combatant_id, view, app.ui.part(self))

    def card_key(self, app: Any, combatant_id: str, view: dict[str, Any]) -> Any:
        """Everything ``card_extra`` reads, as one value to compare with the last render's
        (``App.card``): the combatant's view, every name (the healer and grapple lists, a stuck
        weapon's owner), the questions about them, the phase, and their fold-outs."""
        c = view.get("combatants", {}).get(combatant_id)
        if not c:
            return None
        held = getattr(self, "_names_of", None)
        if held is None or held[0] is not view:  # once per render, not once per card
            held = self._names_of = (view, _names(view), dead_ids(view))
        folds = app.ui.part(self).open
        opened = app.ui.part(self).opened
        return (c, held[1], held[2], [p for p in view.get("prompts", []) if p.get("combatant") == combatant_id],
                view.get("phase") in ("declare", "resolve"),
                tuple(folds.get(f"{k}-{combatant_id}") for k in ("care", "fight", "stuck")),
                tuple(f"{k}-{combatant_id}" in opened for k in ("care", "fight")), _aid_said(app, combatant_id))

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act == "advance":
            # Next, with the bleeding CON tests the GM may have typed in the panel's box
            from fray.web.dom import by_id, document, nil
            from fray.web.forms import form_values

            bleed = nil(document.querySelector('[data-form="sr-bleed"]'))
            if bleed is None:
                self.advance(app, {}, by_id("round-bar"))
            else:
                self.advance(app, form_values(bleed), bleed)
            return True
        if act not in self.ACTS:
            return False
        from fray.web.dom import by_id, data, nil

        if act in ("add-combatant", "use-preset"):
            # the generic dialog (its JSON box holds the ruleset's fields), then this ruleset's
            # compact body / armour / weapons section, filled from a ready-made combatant
            open_add_section(app, act, el, "sr-add", add_fields_html)
            return True
        scope = nil(el.closest("form, .sr-box, article, .sr-who")) or by_id("ruleset-panel")
        if act == "sr-undeclare":
            app.dispatch({"type": "sr.undeclare", "ref": data(el, "ref")}, scope)
        elif act == "sr-resolve":
            app.dispatch({"type": "sr.resolve", "ref": data(el, "ref"), "move_token": True}, scope)
        elif act == "sr-skip":
            app.dispatch({"type": "sr.skip", "ref": data(el, "ref")}, scope)
        elif act == "sr-show-attack":
            _show_attack(data(el, "ref") or "")
        elif act == "sr-strike-fallen":
            # the declared target, fallen, struck where they lie: the attack form on them, no change
            ref = data(el, "ref") or ""
            app.ui.part(self).target[ref or "free"] = data(el, "target") or ""
            app.render()
            _show_attack(ref)
        elif act == "sr-go-on":
            self.advance(app, {}, scope, go_on=True)
        elif act == "sr-go-on-cancel":
            app.ui.part(self).undeclared = None
            app.render()
            _show_first_undeclared(app)
        elif act == "sr-answer":
            from fray.web.forms import form_values

            form = nil(el.closest("form"))
            values = form_values(form) if form is not None else {}
            a, errors = answer_action(data(el, "prompt") or "", data(el, "choice") or "", values)
            if not _show_errors(app, scope, errors):
                app.dispatch(a, scope)
        elif act == "sr-free-attack":
            app.ui.part(self).free = {"attacker": data(el, "attacker") or "", "target": data(el, "target") or "",
                                 "prompt": data(el, "prompt") or ""}
            app.render()
        elif act == "sr-change-open":
            app.ui.part(self).change = data(el, "ref")
            app.render()
            _show_change(data(el, "ref") or "")
        elif act == "sr-change-cancel":
            app.ui.part(self).change_to.pop(app.ui.part(self).change or "", None)  # opened again: as declared
            app.ui.part(self).change = None
            app.render()
        return True

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        from fray.web.dom import data

        cid = data(form, "id") or ""
        if form_name == "add-combatant":
            bad = armour_problem(values.get("sr_armour", ""))
            if bad:
                _show_errors(app, form, {"combatant.armour": bad})
                return True  # nothing is added: the GM retypes the armour
            if "sr_weapons" in values:
                # fold the compact section into the generic JSON box the app sends (a box that is
                # not a JSON object is left for the app to name at its field)
                fold_extra(values, add_extra)
            return False  # the generic handler adds it (stats, name, side) with these fields
        if form_name == "sr-bleed":
            self.advance(app, values, form)
        elif form_name == "sr-declare":
            app.dispatch(declare_action(cid, values), form)
        elif form_name == "sr-change":
            a = declare_action(cid, values)
            a["type"] = "sr.change"
            a["ref"] = data(form, "ref")
            if app.dispatch(a, form):
                app.ui.part(self).change = None
                app.render()
        elif form_name == "sr-abort":
            a = declare_action(cid, values)
            a["type"] = "sr.abort"
            a["ref"] = data(form, "ref")
            app.dispatch(a, form)
        elif form_name == "sr-attack" and data(form, "retarget") and values.get("target"):
            # another target than declared: the change it is ("Changing your declared action during a MR delays
            # action by the combatant's DEX SR"), timed again and logged, not a blow at the old SR
            ref = data(form, "ref") or ""
            a = {"type": "sr.change", "id": data(form, "attacker") or "", "ref": ref, "kind": data(form, "kind") or "melee",
                 "weapon": data(form, "weapon") or "", "target": values["target"]}
            if app.dispatch(a, form):
                app.ui.part(self).target.pop(ref, None)
                app.render()
        elif form_name == "sr-attack":
            key = (data(form, "ref") or "") or "free"
            more = app.ui.part(self).more
            a, errors = attack_action(data(form, "ref") or "", data(form, "attacker") or "",
                                      data(form, "weapon") or "", values, more.get(key))
            if _show_errors(app, form, errors):
                return True
            asked = _questions()
            if app.dispatch(a, form):
                app.ui.part(self).target.pop(a.get("ref") or "free", None)
                if more.pop(key, None) is not None:
                    app.render()
                if not a.get("ref"):
                    app.ui.part(self).free = None  # the free attack is made; the GM answers its prompt
                    app.render()
                _exchange_into_view()
                _new_question_into_view(asked)
            elif isinstance(app.loop.last_error, MoreDice):
                _ask_more_dice(app, form, key, app.loop.last_error, values)
        elif form_name == "sr-prompt":
            pass  # the option buttons answer (data-act="sr-answer"); Enter in a dice box does nothing
        elif form_name in ("sr-heal", "sr-natural-healing", "sr-disengage", "sr-grapple", "sr-unstick"):
            a, errors = care_action(form_name, cid, values, data(form, "owner") or "", data(form, "weapon") or "")
            if not _show_errors(app, form, errors):
                app.dispatch(a, form)
        elif form_name == "sr-protection":
            app.dispatch({"type": "sr.protection", "target": cid, "points": as_int(values.get("points", "")),
                          "reason": str(values.get("reason") or "")}, form)
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
                # the form shows what this First Aid does: the log's lines after this point
                log = app.enc.log
                aid = app.ui.part(self).aid
                aid[cid] = (log[-1].seq if log else -1, None)
                if app.dispatch(a, form):  # its lines end here: later healing is not this First Aid's
                    aid[cid] = (aid[cid][0], app.enc.log[-1].seq if app.enc.log else -1)
        return True


def _aid_said(app: Any, cid: str) -> tuple[str, ...]:
    """The log's lines about ``cid`` from the GM's last First Aid on its card (the roll, its outcome,
    bleeding stopped, HP healed): gone once undone, as the lines are."""
    span = app.ui.part(PANEL).aid.get(cid)
    if span is None:
        return ()
    since, until = span
    said = []
    for e in reversed(app.enc.log):  # the newest lines only: the log can be long
        if e.seq <= since:
            break
        if (until is None or e.seq <= until) and e.kind in ("first_aid", "heal") and e.detail.get("id") == cid:
            said.append(e.text)
    return tuple(reversed(said))[:4]


def _ask_more_dice(app: Any, form: Any, key: str, err: Any, values: dict[str, Any]) -> None:
    """The damage typed for an ordinary blow and the blow came out special: the form asks for the
    extra dice only (its field focused), keeping what was typed and the exchange's own dice."""
    from fray.web.dom import data, document, nil
    from fray.web.forms import restore_values

    app.ui.part(PANEL).more[key] = err.pending()
    app.clear_errors(form)
    ref = data(form, "ref") or ""
    app.render()
    f = nil(document.querySelector(f'form[data-form="sr-attack"][data-ref="{ref}"]'))
    if f is not None:
        restore_values(f, values)
        box = nil(f.querySelector('[name="more.damage"]'))
        if box is not None:
            box.focus()


def _questions() -> set[str]:
    """The GM's questions on the page now (their prompt ids)."""
    from fray.web.dom import data, document

    return {data(f, "prompt") or "" for f in document.querySelectorAll('.sr-panel form[data-form="sr-prompt"]')}


def _exchange_into_view() -> None:
    """The exchange just rolled ("Last exchange") on screen below the head, when it is not: the GM
    reads what happened before the next attacker's form under it."""
    from fray.web.dom import below_the_head, document, nil

    below_the_head(nil(document.querySelector(".sr-panel .sr-result")), always=False)


def _new_question_into_view(before: set[str]) -> None:
    """A question the exchange just raised (not one of ``before``) on screen: it is drawn before
    the next attack (panel_html), above the screen when the GM had scrolled down to roll."""
    from fray.web.dom import below_the_head, data, document, nil

    new = [f for f in document.querySelectorAll('.sr-panel form[data-form="sr-prompt"]')
           if (data(f, "prompt") or "") not in before]
    if not new:
        return
    below_the_head(nil(new[0].closest(".sr-end")) or new[0], always=False)


def _show_first_undeclared(app: Any) -> None:
    """"Keep declaring": the first who has declared nothing, their declaration opened, in view and
    focused (with a dozen combatants it may be far down the page, the panel left at the top)."""
    from fray.web.dom import below_the_head, document, nil
    from fray.games import get_ruleset
    from fray.games.strike_rank.web.flow import not_declared_ids

    view = get_ruleset(app.enc.ruleset).view_kept(app.enc, app._view_kept.setdefault(app.enc.ruleset, {}))
    ids = not_declared_ids(view)
    if not ids:
        return
    who = nil(document.querySelector(f'.sr-who[data-id="{ids[0]}"]'))
    if who is None:
        return
    fold = nil(who.querySelector("details.sr-declare-fold"))
    if fold is not None and not fold.open:
        fold.open = True
        app.render()  # the panel reads the fold open and draws its form now, not at the toggle
    form = nil(document.querySelector(f'form[data-form="sr-declare"][data-id="{ids[0]}"]'))
    target = form if form is not None else nil(document.querySelector(f'.sr-who[data-id="{ids[0]}"]'))
    if target is not None:
        below_the_head(target)
    first = nil(form.querySelector("select, input, button")) if form is not None else None
    if first is not None:
        first.focus()


def _show_first_attack() -> None:
    """The panel's first attack form (else the panel) in view below the sticky head, if it is not."""
    from fray.web.dom import below_the_head, document, nil

    target = nil(document.querySelector('.sr-panel form[data-form="sr-attack"]')) or nil(
        document.querySelector(".sr-panel"))
    if target is not None:
        below_the_head(target, always=False)


def _show_change(ref: str) -> None:
    """A Change… pressed (in the order of play, or in Still open far above it): its form in view and
    focused, where the GM looks for it."""
    from fray.web.dom import below_the_head, document, nil

    form = nil(document.querySelector(f'form[data-form="sr-change"][data-ref="{ref}"]'))
    if form is not None:
        below_the_head(form, always=False)
        first = nil(form.querySelector("select, input, button"))
        if first is not None:
            first.focus()


def _show_attack(ref: str) -> None:
    """"Resolve" beside an open attack: its form, opened if it waits folded, in view and focused."""
    from fray.web.dom import below_the_head, document, nil

    fold = nil(document.querySelector(f'details[data-fold="attack-{ref}"]'))
    if fold is not None and not fold.open:
        fold.open = True  # its toggle draws the form (App.on_toggle)
    # an attack whose target fell holds the forced change's form instead
    form = nil(document.querySelector(f'form[data-form="sr-attack"][data-ref="{ref}"], '
                                      f'form[data-form="sr-change"][data-ref="{ref}"]'))
    target = form if form is not None else fold
    if target is not None:
        below_the_head(target)
        first = nil(target.querySelector("select, input, button"))
        if first is not None:
            first.focus()


def _show_errors(app: Any, scope: Any, errors: dict[str, str]) -> bool:
    """Dice text that is not whole numbers: each message at its field; True when there were any."""
    if not errors:
        return False
    from fray.errors import InvalidAction

    app.clear_errors(scope)
    for field, msg in errors.items():
        app.show_error(scope, InvalidAction(field, msg))
    return True




PANEL = StrikeRankPanel()  # found by the ruleset's ``panel = "fray.games.strike_rank.web.panel"``
