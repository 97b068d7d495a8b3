"""What the last exchange did, the end of the Melee Round, and the GM's questions (prompts) with
the dice their answers may roll."""

from __future__ import annotations

from typing import Any

from .attack import _dice
from .common import PROMPT_ROLLS, _btn, _err, _field, _input, _names, _select, esc

def last_exchange(log: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The log lines of the latest attack exchange (from its ``attack`` entry on)."""
    start = None
    for i in range(len(log) - 1, -1, -1):
        if log[i][0] == "attack":
            start = i
            break
        if log[i][0] == "round":
            return []
    if start is None:
        return []
    out = []
    for kind, text in log[start:]:
        if kind in ("round", "sr") or (out and kind == "attack"):
            break
        out.append((kind, text))
    return out


def exchange_html(log: list[tuple[str, str]]) -> str:
    lines = last_exchange(log)
    if not lines:
        return ""
    items = "".join(f'<li class="sr-log-{esc(k)}"><span class="k">{esc(k.replace("_", " "))}</span> {esc(t)}</li>'
                    for k, t in lines)
    return (f'<div class="sr-box sr-result" role="status"><h3>Last exchange</h3>'
            f'<ul class="sr-exchange">{items}</ul></div>')


def end_html(view: dict[str, Any], log: list[tuple[str, str]]) -> str:
    parts = ['<div class="sr-box sr-end">']
    prompts = view.get("prompts", [])
    if prompts:
        parts.append("<h3>Questions for the GM</h3>")
    for p in prompts:
        parts.append(prompt_html(p, _names(view)))
    if view.get("phase") == "end":
        # what the round's end did: from the latest "End of Melee Round" entry on
        start = None
        for i in range(len(log) - 1, -1, -1):
            if log[i][0] == "round" and log[i][1].startswith("End of"):
                start = i
                break
        lines = log[start:] if start is not None else []
        if lines:
            parts.append('<h3>End of the Melee Round</h3><ul class="sr-exchange">' + "".join(
                f'<li class="sr-log-{esc(k)}">{esc(t)}</li>' for k, t in lines) + "</ul>")
        parts.append('<p class="hint">Press <strong>Next</strong> to declare the next Melee Round.</p>')
    parts.append("</div>")
    return "".join(parts) if len(parts) > 2 else ""



def prompt_html(p: dict[str, Any], names: dict[str, str]) -> str:
    """One GM question: its options as buttons (``sr.answer``), with the dice the answer may roll
    (blank = Fray rolls) and the extra field some answers need."""
    pid = str(p.get("id", ""))
    pre = f"sr-prompt-{pid}"
    who = names.get(p.get("combatant", ""), "")
    opts = "".join(_btn(o.get("label", o.get("value", "")), "sr-answer", "small", None,
                        prompt=pid, choice=o.get("value", "")) for o in p.get("options", []))
    opts += _btn("Dismiss", "sr-answer", "small secondary", f"Dismiss the question about {who}" if who else "Dismiss",
                 prompt=pid, choice="dismiss")
    extra = ""
    kind = p.get("kind", "")
    if kind == "free_attack" and p.get("data", {}).get("fleeing"):
        # "an immediate melee attack": open the attack panel for that enemy, then answer
        fleeing = p["data"]["fleeing"]
        extra += '<div class="sr-row">' + "".join(
            _btn(f'{o.get("label", "")} attacks now', "sr-free-attack", "small primary",
                 f'{o.get("label", "")} makes the free attack on {names.get(fleeing, fleeing)}',
                 prompt=pid, attacker=o.get("value", ""), target=fleeing)
            for o in p.get("options", [])) + "</div>"
    if kind == "hard_cover":
        extra += ('<div class="sr-row">' + _field(pre + "-amount", "amount", "Damage through the cover",
                                                  _input(pre + "-amount", "amount", "", "numeric")) + "</div>")
    if kind == "collision":
        extra += ('<div class="sr-row">' + _field(pre + "-with", "with", "Struck combatant",
                                                  _select(pre + "-with", "with", [("", "(none)")] + list(names.items())))
                  + "</div>")
    if kind in PROMPT_ROLLS:
        extra += _dice(pre, PROMPT_ROLLS[kind])
    return (f'<form class="sr-prompt" data-form="sr-prompt" data-prompt="{esc(pid)}" novalidate '
            f'aria-label="Question {esc(pid)}"><p>{esc(p.get("text", ""))}</p>{extra}'
            f'<div class="sr-options" role="group" aria-label="{esc(p.get("text", ""))}">{opts}</div>'
            f'{_err("choice")}{_err("sr")}</form>')


def ends_the_round(view: dict[str, Any]) -> bool:
    """The next Next ends the Melee Round: resolving, and no action waits at a later SR."""
    if view.get("phase") != "resolve":
        return False
    cur = view.get("sr", 0)
    return not any(o.get("sr", 0) > cur for o in view.get("order", []))


def bleed_html(view: dict[str, Any]) -> str:
    """The end of the MR's bleeding CON tests, one d100 each, typed like every other roll (blank =
    Fray rolls); they ride on the Next that ends the MR (``advance`` with ``rolls.bleed.<id>.<loc>``)."""
    tests = view.get("bleed_tests") or []
    if not tests or not ends_the_round(view):
        return ""
    fields = "".join(
        _field(f"sr-bleed-{t['combatant']}-{t['location']}", f"rolls.{t['roll']}",
               f"{t['name']}, {t['location_name']}: CON {t['chance']}% d100",
               _input(f"sr-bleed-{t['combatant']}-{t['location']}", f"rolls.{t['roll']}", "", "numeric",
                      "blank = roll"), "sr-die")
        for t in tests)
    return ('<form class="sr-box sr-bleed" data-form="sr-bleed" novalidate aria-label="Bleeding at the end of the MR">'
            '<h3>Bleeding: CON tests at the end of this Melee Round</h3>'
            '<p class="hint">A failure loses 1 HP; a special or critical stops the bleeding. '
            'Type your own d100 or leave it blank for Fray to roll, then end the round here or with Next.</p>'
            f'<div class="sr-row">{fields}</div>'
            '<div class="sr-actions"><button type="submit" class="primary">End the Melee Round</button></div>'
            f'{_err("sr")}</form>')
