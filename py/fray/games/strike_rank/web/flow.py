"""What Next asks before it moves on (issue 32, "A whole fight, played"): the attacks still open at
the SR being resolved (Resolve / Skip it), and, as resolution begins, who has not declared."""

from __future__ import annotations

from typing import Any

from fray.games.strike_rank.web.common import _btn
from fray.web.html import Markup, html


def open_attacks(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The attacks of the current SR whose combatant can still make them: Next waits for each."""
    cs = view.get("combatants", {})
    return [o for o in view.get("order", []) if o.get("current") and o.get("kind") in ("melee", "missile")
            and not cs.get(o["combatant"], {}).get("cannot_act") and not o.get("unable")]


def not_declared(view: dict[str, Any]) -> list[str]:
    """The names of those who could act this Melee Round and have declared nothing for it."""
    cs = view.get("combatants", {})
    return [cs[cid]["name"] for cid in not_declared_ids(view)]


def not_declared_ids(view: dict[str, Any]) -> list[str]:
    """The ids of those ``not_declared`` names, in the same order."""
    rnd = view.get("round")
    return [cid for cid, c in view.get("combatants", {}).items()
            if not c.get("cannot_act") and not any(a.get("round") == rnd and a.get("status") in ("declared", "done")
                                                   for a in c.get("declared", []))]


def still_open_html(view: dict[str, Any]) -> Markup:
    """"Broo 3's attack at SR 10 is not resolved: Resolve / Skip it", one line each (shown when Next
    was pressed with attacks open; the engine refuses that Next in the same words). An attack whose
    target has fallen says so, and offers another target or skipping it (issue 33)."""
    rows = Markup("").join(_open_row(view, o) for o in open_attacks(view))
    if not rows:
        return Markup("")
    return html('<div class="sr-box sr-still-open" role="alert" tabindex="-1"><h3>Still open at SR {}</h3>'
                '<ul class="sr-open-list">{}</ul>'
                '<p class="hint">Resolve each attack, or skip it (the log keeps your choice); then press '
                '<strong>Next</strong>.</p></div>', view.get("sr"), rows)


def _open_row(view: dict[str, Any], o: dict[str, Any]) -> Markup:
    cs = view.get("combatants", {})
    t = cs.get(o.get("target") or "", {})
    who = f'{o["name"]}\'s attack at SR {o["sr"]}'  # as the engine's refusal says it
    if t and t.get("status", "ok") != "ok":
        # the slot holds the forced change, set on the nearest standing enemy: "Change the attack" shows it
        return html('<li data-ref="{}">{}\'s attack at SR {} was at {}, who is {}: {} {}</li>', o["ref"], o["name"],
                    o["sr"], t.get("name", ""),
                    t.get("status"),
                    # the fallen force a change, delayed by DEX SR (Changing Actions): the slot offers it
                    _btn("Change the attack", "sr-show-attack", "small primary", f'Change the attack: {who}',
                         ref=o["ref"]),
                    _btn("Skip it", "sr-skip", "small secondary", f'Skip it: {who}', ref=o["ref"]))
    if o.get("held"):
        # the shot is refused while she stays engaged (the engine's words): say why, not "not resolved"
        # "change to a melee attack": the order row's own Change… is offered here too, where it is said
        return html('<li data-ref="{}">{}\'s shot at SR {} cannot be loosed: {} (unengaged characters can use '
                    'missile weapons). Disengage first, or change to a melee attack; or skip it. {} {} {}</li>',
                    o["ref"], o["name"], o["sr"], o["held"],
                    _btn("Change…", "sr-change-open", "small primary", f'Change the shot at SR {o["sr"]} of {o["name"]}',
                         ref=o["ref"], id=o["combatant"]),
                    _btn("Resolve", "sr-show-attack", "small secondary", f'Resolve: {o["name"]}\'s attack', ref=o["ref"]),
                    _btn("Skip it", "sr-skip", "small secondary", f'Skip it: {o["name"]}\'s attack', ref=o["ref"]))
    return html('<li data-ref="{}">{}\'s attack at SR {} is not resolved: {} {}</li>', o["ref"], o["name"], o["sr"],
                _btn("Resolve", "sr-show-attack", "small primary", f'Resolve: {o["name"]}\'s attack', ref=o["ref"]),
                _btn("Skip it", "sr-skip", "small secondary", f'Skip it: {o["name"]}\'s attack', ref=o["ref"]))


def nothing_left_html(view: dict[str, Any]) -> Markup:
    """Resolving, with no action left at this SR: say so, and what Next does (issue 33: the panel
    still said "Resolve SR 7" with nothing to resolve and no hint)."""
    cur = view.get("sr", 0)
    later = sorted({o.get("sr", 0) for o in view.get("order", []) if o.get("sr", 0) > cur})
    then = f"SR {later[0]}" if later else "the end of the Melee Round"
    return html('<p class="sr-box sr-nothing-left" role="status">No action is left at SR {}: press '
                '<strong>Next</strong> for {}.</p>', cur, then)


def undeclared_html(view: dict[str, Any]) -> Markup:
    """Who has not declared, and the GM's choice to go on (issue 32: "went to resolution with 2 of 13
    combatants declared without a word")."""
    names = not_declared(view)
    if not names:
        return Markup("")
    # of those who can still declare: the dead, unconscious and incapacitated are no part of the count (a GM's
    # play: "(5 of 12)" with four dead)
    n = sum(1 for c in view.get("combatants", {}).values() if not c.get("cannot_act"))
    return html('<div class="sr-box sr-undeclared" role="alert" tabindex="-1"><h3>Not everyone has declared</h3>'
                '<p>Not declared: {} ({} of {}). Undeclared, they can still parry or dodge, but take no action of '
                'their own this Melee Round.</p><div class="sr-actions">{} {}</div></div>',
                ", ".join(names), len(names), n, _btn("Go on to resolution", "sr-go-on", "primary", None),
                _btn("Keep declaring", "sr-go-on-cancel", "secondary", None))
