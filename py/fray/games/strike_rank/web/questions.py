"""What the last exchange did, the end of the Melee Round, and the GM's questions (prompts) with
the dice their answers may roll."""

from __future__ import annotations

from typing import Any

from fray.web.blocks import Block
from fray.web.html import Markup, block, fragment, h, html
from fray.games.strike_rank.web.attack import _dice
from fray.games.strike_rank.web.common import PROMPT_ROLLS, _btn, _err, _field, _input, _names

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


def exchange_html(log: list[tuple[str, str]]) -> Markup:
    lines = last_exchange(log)
    if not lines:
        return Markup("")
    items = [html('<li class="sr-log-{}"><span class="k">{}</span> {}</li>', k, k.replace("_", " "), t)
             for k, t in lines]
    return html('<div class="sr-box sr-result" role="status"><h3>Last exchange</h3>'
                '<ul class="sr-exchange">{}</ul></div>', fragment(items))


def end_html(view: dict[str, Any], log: list[tuple[str, str]]) -> Block | Markup:
    """The GM's open questions and what the end of the Melee Round did. A Block (web/blocks.py),
    one child per question, so answering one removes its form and leaves the others on the page."""
    parts = []
    prompts = view.get("prompts", [])
    if prompts:
        parts.append(html("<h3>Questions for the GM</h3>"))
    names = _names(view)
    for p in prompts:
        parts.append(prompt_html(p, names))
    if view.get("phase") == "end":
        # what the round's end did: from the latest "End of Melee Round" entry on
        start = None
        for i in range(len(log) - 1, -1, -1):
            if log[i][0] == "round" and log[i][1].startswith("End of"):
                start = i
                break
        lines = log[start:] if start is not None else []
        if lines:
            parts.append(html('<h3>End of the Melee Round</h3>'))
            parts.append(h("ul", {"class": "sr-exchange"}, [h("li", {"class": f"sr-log-{k}"}, t) for k, t in lines]))
        parts.append(html('<p class="hint">Press <strong>Next</strong> to declare the next Melee Round.</p>'))
    return block("div", {"class": "sr-box sr-end"}, parts) if parts else Markup("")


# prompt id -> (the prompt, the names, its form) as last drawn: a fight that leaves questions
# open draws each of them again on every render (33 open at once in the bench's 30-combatant
# fight: a third of a strike-rank action's Python), though a question never changes once asked
_PROMPT_KEPT: dict[str, tuple[dict[str, Any], dict[str, str], Markup]] = {}
_PROMPT_KEPT_MAX = 2_000


def prompt_html(p: dict[str, Any], names: dict[str, str]) -> Markup:
    """One GM question: its options as buttons (``sr.answer``), with the dice the answer may roll
    (blank = Fray rolls) and the extra field some answers need. The same question with the same
    names is the same markup, so it is drawn once (``_PROMPT_KEPT``)."""
    pid = str(p.get("id", ""))
    held = _PROMPT_KEPT.get(pid)
    if held is not None and held[0] == p and held[1] == names:
        return held[2]
    form = _prompt_form(p, names)
    if len(_PROMPT_KEPT) >= _PROMPT_KEPT_MAX:
        _PROMPT_KEPT.clear()
    _PROMPT_KEPT[pid] = (p, dict(names), form)
    return form


def _prompt_form(p: dict[str, Any], names: dict[str, str]) -> Markup:
    pid = str(p.get("id", ""))
    pre = f"sr-prompt-{pid}"
    who = names.get(p.get("combatant", ""), "")
    twice = p.get("kind") == "fumble" and p.get("effect") == "roll_twice"
    opts = [_btn("Roll twice and apply both" if twice and o.get("value") == "keep" else o.get("label", o.get("value", "")),
                 "sr-answer", "small", None, prompt=pid, choice=o.get("value", "")) for o in p.get("options", [])]
    opts.append(_btn("Dismiss", "sr-answer", "small secondary", f"Dismiss the question about {who}" if who else "Dismiss",
                     prompt=pid, choice="dismiss"))
    extra = []
    kind = p.get("kind", "")
    if kind == "free_attack" and p.get("data", {}).get("fleeing"):
        # "an immediate melee attack": open the attack panel for that enemy, then answer
        fleeing = p["data"]["fleeing"]
        extra.append(h("div", {"class": "sr-row"}, [
            _btn(f'{o.get("label", "")} attacks now', "sr-free-attack", "small primary",
                 f'{o.get("label", "")} makes the free attack on {names.get(fleeing, fleeing)}',
                 prompt=pid, attacker=o.get("value", ""), target=fleeing)
            for o in p.get("options", [])]))
    if kind == "hard_cover":
        extra.append(h("div", {"class": "sr-row"}, _field(pre + "-amount", "amount", "Damage through the cover",
                                                          _input(pre + "-amount", "amount", "", "numeric"))))
    if kind == "collision":
        extra.append(h("div", {"class": "sr-row"}, _field(pre + "-with", "with", "Struck combatant",
                                                          _struck_select(pre + "-with", p, names))))
    if twice:
        # "Roll twice and apply both": its two rolls, typed or left to Fray (combat.FUMBLE_TWICE)
        extra.append(_dice(pre, (("fumble.first", "First roll d100"), ("fumble.second", "Second roll d100"),
                                 ("fumble", "Roll again d100"))))
    elif kind == "collision":
        # the DEX d100 is the struck one's: hidden while one who makes no DEX roll is chosen (style.css)
        extra.append(_collision_dice(pre))
    elif kind in PROMPT_ROLLS:
        extra.append(_dice(pre, PROMPT_ROLLS[kind]))
    return html('<form class="sr-prompt" data-form="sr-prompt" data-prompt="{}" novalidate '
                'aria-label="Question for the GM: {}"><p>{}</p>{}'
                '<div class="sr-options" role="group" aria-label="{}">{}</div>{}{}</form>',
                pid, str(p.get("kind", "")).replace("_", " "), p.get("text", ""), fragment(extra),
                p.get("text", ""), fragment(opts), _err("choice"), _err("sr"))


def _struck_select(fid: str, p: dict[str, Any], names: dict[str, str]) -> Markup:
    """Whom the one knocked back strikes: the living, not himself (he is the one who strikes), the first
    in his way chosen. One who makes no DEX roll (Knockback: "The target needs to make a DEX×5% roll or
    fall prone"; the fallen and the prone make none) says so in the list, and choosing them hides the
    DEX d100 (``data-no-dex``)."""
    living, no_dex, chosen = p.get("strikable"), p.get("no_dex") or {}, p.get("in_path") or ""
    opts = [h("option", {"value": "", "selected": not chosen}, "(none)")]
    for k, n in names.items():
        if k == p.get("combatant") or (living is not None and k not in living):
            continue
        why = no_dex.get(k)
        opts.append(h("option", {"value": k, "selected": k == chosen, "data-no-dex": bool(why)},
                      f"{n} ({why}: no DEX roll)" if why else n))
    return h("select", {"id": fid, "name": "with"}, opts)


def _collision_dice(pre: str) -> Markup:
    """A collision's dice: the struck one's DEX d100 (its field hidden while one who makes no DEX roll is
    chosen), the collision dice and their hit location."""
    dex, *rest = PROMPT_ROLLS["collision"]
    fields = [_field(f"{pre}-r-{k}", f"rolls.{k}", label,
                     _input(f"{pre}-r-{k}", f"rolls.{k}", "", "numeric", "blank = roll"),
                     "sr-die sr-dex-roll" if (k, label) == dex else "sr-die")
              for k, label in (dex, *rest)]
    return html('<fieldset class="sr-dice"><legend>Dice (blank = Fray rolls)</legend><div class="sr-row">{}</div>'
                '</fieldset>', fragment(fields))


def ends_the_round(view: dict[str, Any]) -> bool:
    """The next Next ends the Melee Round: resolving, and no action waits at a later SR."""
    if view.get("phase") != "resolve":
        return False
    cur = view.get("sr", 0)
    return not any(o.get("sr", 0) > cur for o in view.get("order", []))


def bleed_html(view: dict[str, Any]) -> Markup:
    """The end of the MR's bleeding CON tests, one d100 each, typed like every other roll (blank =
    Fray rolls); they ride on the Next that ends the MR (``advance`` with ``rolls.bleed.<id>.<loc>``)."""
    tests = view.get("bleed_tests") or []
    if not tests or not ends_the_round(view):
        return Markup("")
    fields = [_field(f"sr-bleed-{t['combatant']}-{t['location']}", f"rolls.{t['roll']}",
                     f"{t['name']}, {t['location_name']}: CON {t['chance']}% d100",
                     _input(f"sr-bleed-{t['combatant']}-{t['location']}", f"rolls.{t['roll']}", "", "numeric",
                            "blank = roll"), "sr-die")
              for t in tests]
    return html('<form class="sr-box sr-bleed" data-form="sr-bleed" novalidate aria-label="Bleeding at the end of the MR">'
                '<h3>Bleeding: CON tests at the end of this Melee Round</h3>'
                '<p class="hint">A failure loses 1 HP; a special or critical stops the bleeding. '
                'Type your own d100 or leave it blank for Fray to roll, then end the round here or with Next.</p>'
                '<div class="sr-row">{}</div>'
                '<div class="sr-actions"><button type="submit" class="primary">End the Melee Round</button></div>'
                '{}</form>', fragment(fields), _err("sr"))
