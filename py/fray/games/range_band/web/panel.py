"""The range-band panel: zone settings, the round (turn order, movement phase, turns), the current
combatant's movement or actions, every pending roll as its roll specification, and on each card
stealth, flight and altitude band, mount, breath, statuses and who this combatant cannot see.

Rendering is pure (``panel_html`` in ``web/markup.py``, drawn by its parts in ``rolls``, ``turn``,
``zone``, ``order`` and ``end``, and ``card_html`` in ``web/card.py`` take the ruleset's ``view()``);
the forms are read into actions by ``web/read.py``. This module keeps the panel's handlers: each
reads a form, builds one ``rb.*`` action and calls ``app.dispatch(action, form)``. Every control's ``name`` is the engine's field path for that
action (``level``, ``mount``, ``x``, ``by``) beside a ``data-error-for`` slot of the same name, so
an engine error lands beside the control and the encounter is unchanged.

Rolls are two steps, as the engine keeps them: an action that calls for a roll leaves a pending
roll whose specification (die, stat, TN with its parts, Hindrance and Easing with their reasons,
blunder, what success and failure do) is shown before anyone rolls. The GM enters the result of
their own dice (success or failure, by how much) or lets Fray roll it with the default mechanic,
which is *assumed* (table ``core_roll``) and marked so.
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.web import odds_view
from fray.games.range_band.web import odds as odds_html
from fray.web.panels import GamePanel
from fray.games.range_band.web.card import (ADD_KEYS, add_extra, add_fields_html, card_html,  # noqa: F401 - the card,
                                            mount_choices)  # the add form
from fray.games.range_band.web.common import checked_ids
from fray.games.range_band.web.end import lazy_keys
from fray.games.range_band.web.markup import panel_html
from fray.games.range_band.web.order import ONE_TURN_ORDER_FORM_FROM, hold_html, round_html  # noqa: F401 - tests read them here
from fray.games.range_band.web.read import (act_action, area_action, attack_action, more_action, move_action,  # noqa: F401
                              resolve_action, zone_action)
from fray.games.range_band.web.rolls import PREVIEW_FULL, preview_html, spec_html  # noqa: F401 - tests read them here
from fray.games.range_band.web.turn import _targets, more_html  # noqa: F401 - tests read them here
from fray.web.widgets import as_int, as_number, open_add_section, read_extra
from fray.games.range_band.web.ui import RangeBandUi


PREVIEW_FORMS = ("rb-move", "rb-attack", "rb-act", "rb-detect")


class RangeBandPanel(GamePanel):
    ui_type = RangeBandUi  # its part of the page's view state (fray.web.uistate)
    FORMS = ("rb-more", "rb-zone", "rb-turn-order", "rb-roll-order", "rb-move", "rb-descend", "rb-attack", "rb-act", "rb-resolve", "rb-roll", "rb-stealth",
             "rb-mount", "rb-status", "rb-end", "rb-area", "rb-detect", "add-combatant")
    ACTS = ("rb-fly", "rb-dismiss", "rb-stealth", "rb-maintain", "rb-ambush",
            "rb-catch-breath", "rb-dismount", "rb-fall-off", "rb-breath", "rb-status-off", "rb-knockdown", "add-combatant",
            "use-preset", "rb-clear-area", "advance", "rb-roll-order", "rb-next-anyway", "rb-next-skip", "rb-hold-cancel",
            "rb-hold-resolve", "rb-bring-back", "rb-dismiss-all", "rb-attack-roll")

    def next(self, app: Any, act: str, el: Any) -> None:
        """Next (issue 32): before the round starts with someone lacking a turn order, or while rolls are still
        open, say so and let the GM choose (``hold_html``); else on to the next slot."""
        from fray.web.dom import by_id, document

        enc = app.enc
        view = None
        if act == "advance":
            from fray.games.range_band.rules import OUT
            if enc.phase == "setup":
                if any(c.data.get("turn_value") is None and not any(x in c.conditions for x in OUT)
                       for c in enc.combatants):
                    view = "order"
            elif enc.phase in ("movement", "actions") and enc.state.get("pending"):
                view = "open"
        if view is not None:
            app.ui.part(self).hold = view
            app.render()
            box = document.getElementById("rb-hold")
            if box is not None:
                box.scrollIntoView({"block": "center"})  # "nearest" left it under the sticky round bar
                first = box.querySelector("button")
                if first is not None:
                    first.focus()
            return
        action: dict[str, Any] = {"type": "advance"}
        if act == "rb-next-skip":
            action["skip"] = [p["ref"] for p in enc.state.get("pending", [])]
        app.ui.part(self).hold = None
        app.dispatch(action, by_id("round-bar"))

    def panel(self, app: Any, view: dict[str, Any]) -> str:
        positions = {c.id: (c.position.x, c.position.y, c.position.alt) for c in app.enc.combatants}
        self.lazy_folds(app, view)
        app.ui.part(self).folds = dict(app.ui.folds)  # the notes, the turn-order list (rb-keep)
        app.ui.part(self).narrow = bool(getattr(app, "narrow", False))  # a tablet: the strip shows
        odds_view.refresh_soon(app)
        if not getattr(self, "_listening", False):
            from fray.web.dom import document
            self._listening = True
            app._listen(document, "change", lambda e: self.on_change(app, e))
        return panel_html(view, app.ui.part(self), positions)

    @staticmethod
    def on_change(app: Any, event: Any) -> None:
        """A Target chosen in the attack form: "Target warned by" becomes who may warn that target (its allies
        in the fight, ``turn.warners``), a warner chosen before staying if still one; the Weapon one that reaches
        it, if the chosen one does not (``turn.weapon_choice``); the Target is kept so a
        redraw draws the same form. The form is not drawn again (what else is chosen in it stays)."""
        from fray.web.blocks import ascii_html
        from fray.web.dom import data, nil, q
        from fray.web.html import fragment, h
        from fray.games.range_band.web.turn import warners, weapon_choice

        t = nil(event.target)
        if t is None or str(getattr(t, "name", "") or "") != "target":
            return
        form = nil(t.closest('form[data-form="rb-attack"]'))
        if form is None:
            return
        cid, target = data(form, "id") or "", str(t.value or "")
        app.ui.part(RangeBandPanel).targets[cid] = target
        view = app.ruleset.view(app.enc)
        sel = q(form, '[name="warned_by"]')
        if sel is not None:
            was = str(sel.value or "")
            opts = warners(view, cid, target)
            sel.innerHTML = ascii_html(fragment(h("option", {"value": v}, label) for v, label in opts))
            sel.value = was if was in {v for v, _ in opts} else ""
        # the Weapon follows to one that reaches the new Target, and the line under it says when none does
        weapon, note = q(form, '[name="weapon"]'), q(form, "[data-reach-note]")
        if weapon is not None:
            weapon.value, unreached = weapon_choice(view, cid, target, str(weapon.value or ""))
            if note is not None:
                note.textContent, note.hidden = unreached, not unreached
        odds_view.refresh(app, form)

    @staticmethod
    def map_mover(app: Any) -> str | None:
        """Whose movement a tap on the map's empty ground is for when no token is selected (issue 33: "or tap
        a destination"): the combatant of the movement form, in the movement phase; else nobody."""
        enc = app.enc
        if enc.phase != "movement":
            return None
        slots = app.ruleset.order_of_play(enc)
        return slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None

    @staticmethod
    def map_drop(app: Any, cid: str, x: float, y: float, alt: float) -> bool:
        """A token dropped on the map in the movement phase (issue 33): the mover's (or its rider's) drop is the
        target of their movement roll, sent with the movement form's options (rush, cautious ...), as typing
        the coordinates and pressing Movement roll would; a flyer's drop straight down (the side view) is its
        descent without a roll; any other drop is the GM placing a token (False)."""
        from fray.web.dom import document, nil
        from fray.web.forms import form_values

        enc = app.enc
        if enc.phase != "movement":
            return False
        slots = app.ruleset.order_of_play(enc)
        cur = slots[enc.turn].combatant_id if 0 <= enc.turn < len(slots) else None
        c = enc.get(cid)
        if cur is None or c is None or (cid != cur and c.data.get("mount") != cur):
            return False
        form = nil(document.querySelector(f'form[data-form="rb-move"][data-id="{cur}"]'))
        values = form_values(form) if form is not None else {}
        from fray.games.range_band import rules
        p = c.position
        if (rules.is_flying(enc, c) and not rules.underwater(enc, c) and alt < p.alt and x == p.x and y == p.y
                and not values.get("descent_roll")):
            # a flyer dragged straight down in the side view is a descent, "with or without a roll" (Flight): sent as
            # a movement roll it was refused (a descent alone needs none). Said beside Descend's field if refused.
            where = nil(document.querySelector(f'form[data-form="rb-descend"][data-id="{c.id}"]'))
            app.dispatch({"type": "rb.descend", "id": c.id, "alt": alt}, where if where is not None else form)
            return True
        values.update({"x": f"{x:g}", "y": f"{y:g}", "alt": f"{alt:g}"})
        if form is not None:
            for k in ("x", "y", "alt"):
                el = form.querySelector(f'[name="{k}"]')
                if el is not None:
                    el.value = values[k]
        app.dispatch(move_action(cur, values), form)
        return True

    @staticmethod
    def lazy_folds(app: Any, view: dict[str, Any]) -> None:
        """Which lazy fold-outs the page shows open now (one query, the open ones only), and which
        are drawn: once opened, while on the page. The acting combatant's "More actions" is let go
        when the turn passes, the battle's end once it is over."""
        ui = app.ui.part(PANEL)
        ui.open, ui.drawn = lazy_keys(view, ui.drawn, {k for k, v in app.ui.folds.items() if v})

    def odds(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> str | None:
        """A pending roll's odds under the assumed default mechanic (never rolls)."""
        from fray.games.range_band.odds import spec_odds
        from fray.web.dom import data

        if form_name in PREVIEW_FORMS:
            from fray.games.range_band.preview import preview
            try:
                action = self.form_action(app, form_name, form, data(form, "id"), values)
            except InvalidAction as e:
                p = {"error": {"field": e.field, "message": e.message}}
            else:
                p = preview(app.enc, action) if action else {"error": {"field": None, "message": "nothing to do"}}
            names = {c.id: c.name for c in app.enc.combatants}
            return preview_html(p, app.ruleset.table(app.enc, "core_roll"), names)
        if form_name != "rb-roll":  # the odds of Fray's roll, by the assumed mechanic
            return None

        ref = data(form, "ref")
        p = next((x for x in app.enc.state.get("pending", []) if x.get("ref") == ref), None)
        if p is None:
            return None
        return odds_html.spec_html(spec_odds(p["spec"], app.ruleset.table(app.enc, "core_roll")))

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        return card_html(view, combatant_id)

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        if act not in self.ACTS:
            return False
        if act in ("add-combatant", "use-preset"):
            from fray.games.range_band.rules import able
            # what ``mount_choices`` reads of the view, without drawing the whole view to open a dialog
            mounts = mount_choices({"combatants": [
                {"id": c.id, "name": c.name, "kind": c.data.get("kind"), "out": not able(c),
                 "rider": c.data.get("rider"), "mount": c.data.get("mount"), "side": c.side} for c in app.enc.peek()]})
            open_add_section(app, act, el, "rb-add", lambda extra: add_fields_html(extra, mounts))
            return True
        from fray.web.dom import data, nil

        if act in ("advance", "rb-next-anyway", "rb-next-skip"):
            self.next(app, act, el)
            return True
        if act == "rb-hold-cancel":
            app.ui.part(self).hold = None
            app.render()
            return True
        if act == "rb-hold-resolve":
            from fray.web.dom import document
            app.ui.part(self).hold = None
            app.render()
            f = nil(document.querySelector(f'.rb-pending[data-ref="{data(el, "ref") or ""}"]'))
            if f is not None:
                # below the sticky round bar, strip and acting line (a tablet): scrollIntoView put its top, with the
                # roll's name and specification, under them
                app.reveal(f)
                first = f.querySelector("input")
                if first is not None:
                    first.focus()
            return True
        if act == "rb-roll-order":
            from fray.web.dom import document
            form = nil(document.querySelector('form[data-form="rb-roll-order"]'))
            if form is not None:  # its die and what is added to it
                from fray.web.forms import form_values
                self.on_form(app, "rb-roll-order", form, form_values(form))
            else:
                self.roll_turn_orders(app, {"type": "rb.roll_turn_order"}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-bring-back":
            app.dispatch({"type": "rb.bring_back", "id": data(el, "id")}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-dismiss-all":
            refs = (data(el, "refs") or "").split()
            app.dispatch({"type": "rb.dismiss", "refs": refs}, nil(el.closest(".rb-box")))
            return True
        if act == "rb-attack-roll":
            form = nil(el.closest("form"))
            if form is not None:
                from fray.web.forms import form_values
                self.attack(app, form, data(el, "id") or "", form_values(form), roll=True)
            return True
        cid = data(el, "id")
        form = nil(el.closest("form"))
        scope = form if form is not None else nil(el.closest(".rb-box, .rb-card, article"))
        if act == "rb-fly":
            app.dispatch({"type": "rb.fly", "id": cid, "on": data(el, "on") == "true"}, scope)
        elif act == "rb-dismiss":
            app.dispatch({"type": "rb.dismiss", "ref": data(el, "ref")}, scope)
        elif act == "rb-stealth":
            app.dispatch({"type": "rb.stealth", "id": cid, "level": data(el, "level")}, scope)
        elif act == "rb-maintain":
            app.dispatch({"type": "rb.maintain_stealth", "id": cid}, scope)
        elif act == "rb-clear-area":
            app.dispatch({"type": "rb.clear_area", "area": data(el, "area")}, scope)
        elif act == "rb-ambush":
            app.dispatch({"type": "rb.ambush", "id": cid}, scope)
        elif act == "rb-catch-breath":
            app.dispatch({"type": "rb.catch_breath", "id": cid}, scope)
        elif act in ("rb-dismount", "rb-fall-off"):
            action: dict[str, Any] = {"type": "rb.dismount", "id": cid}
            if act == "rb-fall-off":
                action["fall"] = True
            app.dispatch(action, scope)
        elif act == "rb-breath":
            app.dispatch({"type": "rb.breath", "id": cid, "holding": data(el, "holding") == "true"}, scope)
        elif act == "rb-knockdown":
            app.dispatch({"type": "rb.knockdown", "id": cid}, scope)
        elif act == "rb-status-off":
            app.dispatch({"type": "rb.status", "id": cid, "status": data(el, "status"), "on": False}, scope)
        return True

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in self.FORMS:
            return False
        if form_name == "add-combatant":
            return self.add(app, form, values)
        from fray.web.dom import data

        cid = data(form, "id")
        try:
            action = self.form_action(app, form_name, form, cid, values)
        except InvalidAction as e:
            app.clear_errors(form)
            app.show_error(form, e)
            return True
        if action is None:
            return True
        before = _rolls_to_settle()
        if form_name == "rb-attack":
            self.attack(app, form, cid or "", values, roll=False)
            _new_roll_into_view(app, before)
            return True
        if form_name == "rb-roll-order":
            self.roll_turn_orders(app, action, form)
            return True
        if form_name == "rb-zone" and len(action) == 1:
            app.clear_errors(form)
            app.show_error(form, InvalidAction("light", "nothing changed: pick a different setting first"))
            return True
        if app.dispatch(action, form):
            _new_roll_into_view(app, before)
        return True

    def roll_turn_orders(self, app: Any, action: dict[str, Any], scope: Any) -> None:
        """Every missing turn order rolled. Asked for by "Start the fight" (the hold: who has none yet), the
        fight then starts: the GM pressed Start, and a GM's play-through was left in Setup with no word that
        Start had to be pressed again. Rolled from the setup panel alone, the GM starts when ready."""
        starting = app.ui.part(self).hold == "order"
        if app.dispatch(action, scope) and starting:
            app.ui.part(self).hold = None
            self.next(app, "rb-next-anyway", None)

    @staticmethod
    def attack(app: Any, form: Any, cid: str, values: dict[str, Any], roll: bool) -> None:
        """The attack form sent: with ``roll``, Fray rolls the offense at once (``rb.attack {roll}``, one tap).
        Refused for range (melee beyond engaged), the GM's reason field opens with the focus in it, so the
        reason is typed and the same button pressed again: no tap to open it, none to reach the field."""
        try:
            action = attack_action(cid, values)
        except InvalidAction as e:
            app.clear_errors(form)
            app.show_error(form, e)
            return
        if roll:
            action["roll"] = True
        # kept before the render the attack brings: the next attack of this attacker starts on it
        app.ui.part(RangeBandPanel).weapons[cid] = str(values.get("weapon") or "")
        if app.dispatch(action, form) or action.get("override"):
            return
        from fray.web.dom import nil
        fold = nil(form.querySelector("details.rb-override"))
        said = " ".join(str(e.textContent) for e in form.querySelectorAll("[data-error-for][role=alert]"))
        if fold is not None and "needs engaged range" in said:
            fold.open = True
            box = nil(fold.querySelector("input"))
            if box is not None:
                box.focus()

    def form_action(self, app: Any, form_name: str, form: Any, cid: str | None,
                    values: dict[str, Any]) -> dict[str, Any] | None:
        if form_name == "rb-zone":
            view = app.ruleset.view(app.enc)
            return zone_action(view.get("zone", {}), values)
        if form_name == "rb-more":
            from fray.web.dom import data
            return more_action(data(form, "kind") or "", cid or "", values)
        if form_name == "rb-turn-order":  # a row's own form (data-id), or the one form with its Combatant
            v = (values.get("value") or "").strip()
            return {"type": "rb.turn_order", "id": cid or values.get("id"), "value": as_int(v) if v else None}
        if form_name == "rb-roll-order":
            action = {"type": "rb.roll_turn_order", "die": values.get("die") or "d20"}
            if values.get("stat"):
                action["stat"] = values["stat"]
            return action
        if form_name == "rb-move":
            return move_action(cid or "", values)
        if form_name == "rb-descend":
            return {"type": "rb.descend", "id": cid, "alt": as_number(values.get("alt", ""))}
        if form_name == "rb-attack":
            return attack_action(cid or "", values)
        if form_name == "rb-act":
            action = {"type": "rb.act", "id": cid, "size": values.get("size"),
                      "what": (values.get("what") or "").strip() or f"{values.get('size')} action"}
            return act_action(cid or "", values)
        if form_name in ("rb-resolve", "rb-roll"):  # the GM's result, or Fray's roll with the dice typed
            return resolve_action(data_ref(form), values, roll=form_name == "rb-roll")
        if form_name == "rb-stealth":
            action = {"type": "rb.stealth", "id": cid, "level": values.get("level")}
            if values.get("start"):
                action["start"] = True
            return action
        if form_name == "rb-mount":
            if not values.get("mount"):
                raise InvalidAction("mount", "choose the mount")
            return {"type": "rb.mount", "id": cid, "mount": values.get("mount")}
        if form_name == "rb-status":
            action = {"type": "rb.status", "id": cid, "status": values.get("status")}
            r = (values.get("rounds") or "").strip()
            if r:
                action["rounds"] = as_int(r)
            if r or values.get("ends") == "after_turn":
                action["ends"] = values.get("ends") or "before_turn"
            return action
        if form_name == "rb-area":
            return area_action(values)
        if form_name == "rb-detect":
            action = {"type": "rb.detect", "id": cid, "die": values.get("die") or "d20",
                      "observers": checked_ids(values, "observers")}
            return action
        if form_name == "rb-end":
            acts = {k[len("activity."):]: v for k, v in values.items() if k.startswith("activity.")}
            invs = {k[len("involvement."):]: v for k, v in values.items() if k.startswith("involvement.")}
            action = {"type": "rb.end_battle", "activity": acts, "involvement": invs}
            if values.get("wave"):
                action["wave"] = True
            r = (values.get("rounds") or "").strip()
            if r:
                action["rounds"] = as_int(r)
            return action
        return None

    def add(self, app: Any, form: Any, values: dict[str, Any]) -> bool:
        """Fold the traits section into the JSON box and add; an error in a trait lands at its control."""
        import json

        if not any(k.startswith("rb_") for k in values):
            return False  # no section (it failed to open): the generic handler adds from the JSON box
        extra = read_extra(values.get("combatant.extra", ""))
        if extra is None:
            return False  # not a JSON object: the app names it at its box
        merged = add_extra(values, extra)
        body = app.combatant_payload(values)
        body.pop("extra", None)
        body = {**merged, **body}
        section = {f"combatant.{k}" for k in ADD_KEYS}
        known = ("combatant.name", "combatant.side", "combatant.stats", "combatant.notes", "combatant.position",
                 "combatant.count")

        def to_form_field(f: str) -> str:
            f = "combatant." + f.removeprefix("combatant.")
            if f.startswith(known) or f == "combatant":
                return f
            head = ".".join(f.split(".")[:2])
            return head if head in section else "combatant.extra"

        values["combatant.extra"] = json.dumps(merged, ensure_ascii=False)
        if app.dispatch({"type": "add_combatant", "combatant": body, "check_ground": True}, form, to_form_field):
            app.close_dialog()
        return True


def data_ref(form: Any) -> str:
    from fray.web.dom import data
    return data(form, "ref") or ""


PANEL = RangeBandPanel()  # found by the ruleset's ``panel = "fray.games.range_band.web.panel"``


def _rolls_to_settle() -> set[str]:
    """The refs of the rolls waiting for the GM on the page now."""
    from fray.web.dom import data, document

    return {data(f, "ref") or "" for f in document.querySelectorAll(".rb-pending")}


def _new_roll_into_view(app: Any, before: set[str]) -> None:
    """A roll the form just left to settle (a movement roll, an offense roll) on screen: its box is
    drawn under "Rolls to settle" above the form, and with the GM scrolled down to the form's button
    it lay under the sticky round bar, strip and acting line (a tablet), its Apply and Let Fray
    roll buttons unseen."""
    from fray.web.dom import data, document

    new = [f for f in document.querySelectorAll(".rb-pending") if (data(f, "ref") or "") not in before]
    if new:
        app.reveal(new[0])
