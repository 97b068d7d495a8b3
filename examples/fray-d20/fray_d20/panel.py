"""d20 Skirmish's part of the page: whose turn it is, the attack form, and on each card the hit
points, Defence and initiative. The ruleset names this module (``Ruleset.panel =
"fray_d20.panel"``); Fray imports it when an encounter of this game opens.

It reads only the ruleset's ``view()`` and hands the page one ``d20.attack`` action; its markup
is built with Fray's builder (``fray.web.html``), which escapes every piece of text the GM typed. A roll box left empty is rolled by Fray;
a typed roll must be a whole number, else the box says so and nothing changes.
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction
from fray.web.html import Markup, h, html

FORMS = ("d20-attack",)


def _names(app: Any) -> dict[str, str]:
    return {c.id: c.name for c in app.enc.combatants}


def panel_html(view: dict[str, Any], names: dict[str, str]) -> Markup:
    if not view or view.get("phase") == "setup":
        return html('<section class="d20-panel" aria-label="d20 Skirmish"><h2>Before the fight</h2>'
                    '<p class="hint">Press Next: everyone rolls initiative (a d20 plus their Initiative bonus) '
                    'and the first round begins.</p></section>')
    turn = view.get("turn")
    who = names.get(turn, "")
    parts = [html('<h2>Round {}: <span class="d20-turn">{}</span></h2>', view.get("round", 1),
                  f"{who}\u2019s turn" if who else "nobody\u2019s turn")]
    me = view.get("combatants", {}).get(turn) if turn else None
    if me is None:
        parts.append(html('<p class="hint">Press Next for the next turn.</p>'))
    elif me.get("attacked"):
        parts.append(html('<p class="hint">{} has attacked this round. Press Next for the next turn.</p>', who))
    else:
        targets = [(cid, names.get(cid, "")) for cid, c in view["combatants"].items()
                   if cid != turn and not c.get("down")]
        if not targets:
            parts.append(html('<p class="hint">Nobody is left to attack.</p>'))
        else:
            cs = view["combatants"]
            opts = [h("option", {"value": cid}, f"{n} (Defence {cs[cid]['defence']}, {cs[cid]['hp']} HP)")
                    for cid, n in targets]
            parts.append(html(
                '<form class="form d20-attack" data-form="d20-attack" data-attacker="{}" novalidate>'
                '<p class="field-error form-error" data-error-for="attack"></p>'
                '<div class="field" data-field="target"><label for="d20-target">Target</label>'
                '<select id="d20-target" name="target">{}</select>'
                '<p class="field-error" data-error-for="target"></p></div>'
                '<div class="field" data-field="rolls.attack"><label for="d20-roll">d20 (empty: Fray rolls)</label>'
                '<input id="d20-roll" name="rolls.attack" inputmode="numeric" autocomplete="off">'
                '<p class="field-error" data-error-for="rolls.attack"></p></div>'
                '<div class="field" data-field="rolls.damage"><label for="d20-damage">Damage, {} (empty: Fray rolls)'
                '</label><input id="d20-damage" name="rolls.damage" inputmode="numeric" autocomplete="off">'
                '<p class="field-error" data-error-for="rolls.damage"></p></div>'
                '<div class="dlg-actions"><button type="submit" class="primary">Attack with {}</button></div>'
                '</form>', turn, Markup("").join(opts), me.get("damage", ""), who))
    return h("section", {"class": "d20-panel", "aria-label": "d20 Skirmish"}, parts)


def card_html(c: dict[str, Any] | None) -> Markup:
    if not c:
        return Markup("")
    init = "not rolled" if c.get("init") is None else c["init"]
    down = html(' <strong class="d20-down">down</strong>') if c.get("down") else ""
    return html('<p class="d20-card">HP <strong>{}</strong>/{}{} · Defence {} · Attack +{} · Damage {} · '
                'Initiative {}</p>', c["hp"], c["max"], down, c["defence"], c["attack"], c["damage"], init)


def attack_action(attacker: str, values: dict[str, Any]) -> dict[str, Any]:
    """The form as one ``d20.attack``; a typed roll that is not a whole number is refused at its
    box (``InvalidAction``) before anything is sent."""
    action: dict[str, Any] = {"type": "d20.attack", "attacker": attacker, "target": values.get("target", "")}
    rolls = {}
    for name, label in (("attack", "The d20"), ("damage", "The damage")):
        text = str(values.get(f"rolls.{name}", "") or "").strip()
        if not text:
            continue
        try:
            rolls[name] = int(text)
        except ValueError:
            raise InvalidAction(f"rolls.{name}", f"{label} is a whole number, such as 14, or empty for Fray to roll") from None
    if rolls:
        action["rolls"] = rolls
    return action


class D20Panel:
    def panel(self, app: Any, view: dict[str, Any]) -> str:
        return panel_html(view, _names(app))

    def card_extra(self, app: Any, combatant_id: str, view: dict[str, Any]) -> str:
        return card_html(view.get("combatants", {}).get(combatant_id))

    def on_act(self, app: Any, act: str, el: Any) -> bool:
        return False

    def on_form(self, app: Any, form_name: str, form: Any, values: dict[str, Any]) -> bool:
        if form_name not in FORMS:
            return False
        try:
            action = attack_action(str(form.getAttribute("data-attacker") or ""), values)
        except InvalidAction as e:
            app.clear_errors(form)
            app.show_error(form, e)
            return True
        app.dispatch(action, form)
        return True


PANEL = D20Panel()
