"""d20 Skirmish's part of the page: whose turn it is, the attack form, and on each card the hit
points, Defence and initiative. The ruleset names this module (``Ruleset.panel =
"fray_d20.panel"``); Fray imports it when an encounter of this game opens.

It reads only the ruleset's ``view()`` and hands the page one ``d20.attack`` action; every
piece of text the GM typed goes through ``html.escape``. A roll box left empty is rolled by Fray;
a typed roll must be a whole number, else the box says so and nothing changes.
"""

from __future__ import annotations

from html import escape
from typing import Any

from fray.errors import InvalidAction

FORMS = ("d20-attack",)


def esc(v: Any) -> str:
    return escape(str(v), quote=True)


def _names(app: Any) -> dict[str, str]:
    return {c.id: c.name for c in app.enc.combatants}


def panel_html(view: dict[str, Any], names: dict[str, str]) -> str:
    if not view or view.get("phase") == "setup":
        return ('<section class="d20-panel" aria-label="d20 Skirmish"><h2>Before the fight</h2>'
                '<p class="hint">Press Next: everyone rolls initiative (a d20 plus their Initiative bonus) '
                'and the first round begins.</p></section>')
    turn = view.get("turn")
    who = names.get(turn, "")
    parts = [f'<section class="d20-panel" aria-label="d20 Skirmish"><h2>Round {esc(view.get("round", 1))}: '
             f'<span class="d20-turn">{esc(who) + "&#8217;s turn" if who else "nobody&#8217;s turn"}</span></h2>']
    me = view.get("combatants", {}).get(turn) if turn else None
    if me is None:
        parts.append('<p class="hint">Press Next for the next turn.</p>')
    elif me.get("attacked"):
        parts.append(f'<p class="hint">{esc(who)} has attacked this round. Press Next for the next turn.</p>')
    else:
        targets = [(cid, names.get(cid, "")) for cid, c in view["combatants"].items()
                   if cid != turn and not c.get("down")]
        if not targets:
            parts.append('<p class="hint">Nobody is left to attack.</p>')
        else:
            opts = "".join(f'<option value="{esc(cid)}">{esc(n)} (Defence {esc(view["combatants"][cid]["defence"])}, '
                           f'{esc(view["combatants"][cid]["hp"])} HP)</option>' for cid, n in targets)
            parts.append(
                f'<form class="form d20-attack" data-form="d20-attack" data-attacker="{esc(turn)}" novalidate>'
                '<p class="field-error form-error" data-error-for="attack"></p>'
                '<div class="field" data-field="target"><label for="d20-target">Target</label>'
                f'<select id="d20-target" name="target">{opts}</select>'
                '<p class="field-error" data-error-for="target"></p></div>'
                '<div class="field" data-field="rolls.attack"><label for="d20-roll">d20 (empty: Fray rolls)</label>'
                '<input id="d20-roll" name="rolls.attack" inputmode="numeric" autocomplete="off">'
                '<p class="field-error" data-error-for="rolls.attack"></p></div>'
                f'<div class="field" data-field="rolls.damage"><label for="d20-damage">Damage, {esc(me.get("damage", ""))}'
                ' (empty: Fray rolls)</label>'
                '<input id="d20-damage" name="rolls.damage" inputmode="numeric" autocomplete="off">'
                '<p class="field-error" data-error-for="rolls.damage"></p></div>'
                f'<div class="dlg-actions"><button type="submit" class="primary">Attack with {esc(who)}</button></div>'
                '</form>')
    parts.append('</section>')
    return "".join(parts)


def card_html(c: dict[str, Any] | None) -> str:
    if not c:
        return ""
    init = "not rolled" if c.get("init") is None else esc(c["init"])
    down = ' <strong class="d20-down">down</strong>' if c.get("down") else ""
    return (f'<p class="d20-card">HP <strong>{esc(c["hp"])}</strong>/{esc(c["max"])}{down} · '
            f'Defence {esc(c["defence"])} · Attack +{esc(c["attack"])} · Damage {esc(c["damage"])} · '
            f'Initiative {init}</p>')


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
