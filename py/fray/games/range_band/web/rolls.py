"""Rolls to settle: a roll's specification before anyone rolls, the pending rolls with the GM's result or
Fray's roll, the notes that need no roll, and a form's live preview of the rolls it would leave."""

from __future__ import annotations

from typing import Any

from fray.chance import percent
from fray.games.range_band.rolls import tn_part
from fray.games.range_band.web import odds as odds_html
from fray.web.html import Markup, fragment, h, html
from fray.web.widgets import names_in as _names
from fray.games.range_band.web.common import (ref_chip, _btn, _check, _err, _field, _fold_open, _general_err, _input,
                                              _odds_slot)


def _odds(o: Any) -> Markup:
    return odds_html.spec_html(o)


def spec_html(spec: dict[str, Any]) -> Markup:
    """A roll specification before anyone rolls: die on stat, TN and its parts, Hindrance and
    Easing with their reasons, blunder, what success and failure do."""
    tn = spec.get("tn", {})
    tn_parts = "".join(tn_part(p["reason"], int(p["value"])) for p in tn.get("parts", []))
    rows = [html('<li class="rb-tn"><span class="k">TN</span> <strong class="rb-tn-value">{}</strong> = {} {}{}</li>',
                 tn.get("total"), spec.get("stat"), spec.get("stat_value"), tn_parts)]
    for key, label in (("hindrance", "Hindrance"), ("easing", "Easing")):
        part = spec.get(key, {})
        reasons = ", ".join(f"+{int(p['count'])} {p['reason']}" for p in part.get("parts", []))
        rows.append(html('<li class="rb-{key}"><span class="k">{label}</span> <strong class="rb-{key}-value">{total}'
                         '</strong>{reasons}</li>', key=key, label=label, total=part.get("total", 0),
                         reasons=f" ({reasons})" if reasons else ""))
    rows.append(html('<li class="rb-blunder">{}{}</li>', "can blunder" if spec.get("can_blunder") else "cannot blunder",
                     "; a blind roll: the GM rolls it unseen" if spec.get("blind") else ""))
    if spec.get("auto"):
        rows.append(html('<li class="rb-auto">{}</li>', spec["auto"].get("reason", "")))
    if spec.get("success"):
        rows.append(html('<li class="rb-success"><span class="k">Success</span> {}</li>', spec["success"]))
    if spec.get("failure"):
        rows.append(html('<li class="rb-failure"><span class="k">Failure</span> {}</li>', spec["failure"]))
    rows += [html('<li class="rb-note">{}</li>', n) for n in spec.get("notes", [])]
    # a roll of the core rules (the ground movement roll, the offense roll) has no heading of the text to name
    rule = html(' <span class="rule">({})</span>', spec["rule"]) if spec.get("rule") else ""
    return html('<p class="rb-spec-head"><strong>{what}</strong>: <span class="rb-die">{die} on {stat}</span>'
                '{rule}</p><ul class="rb-spec" aria-label="Roll specification">{rows}</ul>',
                what=spec.get("what", "Roll"), die=spec.get("die"), stat=spec.get("stat"), rule=rule,
                rows=fragment(rows))


def pending_html(view: dict[str, Any]) -> Markup:
    names = _names(view)
    out = []
    for n, p in enumerate(view.get("pending", [])):
        ref = p["ref"]
        pre = f"rb-res-{ref}"
        who = names.get(p.get("combatant"), p.get("combatant", ""))
        prompt = p.get("prompt", "")
        head = prompt if prompt.startswith(who) else f"{who}: {prompt}"
        outcome = fragment(
            html('<fieldset class="rb-outcome"><legend>The GM\'s result</legend>'
                 '<label class="rb-check" for="{pre}-s"><input type="radio" id="{pre}-s" name="success" '
                 'value="yes"> Success</label>'
                 '<label class="rb-check" for="{pre}-f"><input type="radio" id="{pre}-f" name="success" '
                 'value="no"> Failure</label>{err}</fieldset>', pre=pre, err=_err("success")),
            _field(f"{pre}-by", "by", "By how much", _input(f"{pre}-by", "by", "0")),
            _check(f"{pre}-bl", "blunder", "Blunder"))
        dice = _field(f"{pre}-dice", "rolls.roll", "Dice for Fray (blank = Fray rolls)",
                      _input(f"{pre}-dice", "rolls.roll", "", placeholder="e.g. 7 12"), cls="rb-dice")
        # Two forms, so that Enter in a field does what its own form does: Enter in "Dice for Fray" lets Fray
        # roll with those dice; in the GM's result, applies it (one form pressed "Apply result" for typed dice:
        # a GM's play-through). The odds are the assumed mechanic's, so they sit with Fray's roll.
        out.append(html(
            '<div class="rb-pending rb-box" data-ref="{ref}" role="group" aria-label="Pending roll {ref}: {what}">'
            '<h4>{chip} {head}</h4>{spec}'
            '<form class="rb-gm-result" data-form="rb-resolve" data-ref="{ref}" novalidate '
            'aria-label="The GM\'s result for {ref}"><div class="rb-row">{outcome}</div>'
            '<div class="rb-row rb-buttons"><button type="submit" class="primary">Apply result</button></div>{err}</form>'
            '<form class="rb-fray-roll" data-form="rb-roll" data-ref="{ref}" novalidate aria-label="Fray\'s roll for {ref}">'
            '<div class="rb-row rb-buttons">{dice}'
            '<button type="submit" class="secondary">Let Fray roll (assumed default)</button>{dismiss}</div>'
            '{odds}{err}</form>{hint}</div>',
            ref=ref, chip=ref_chip(ref), what=p["spec"].get("what", ""), head=head, spec=spec_html(p["spec"]), outcome=outcome,
            dice=dice, dismiss=_btn("Dismiss", "rb-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref),
            odds=_odds_slot(),
            # said once, on the first roll to settle: every "Let Fray roll" button says "assumed" too
            hint=ASSUMED_HINT if n == 0 else "", err=_general_err()))
    for p in view.get("prompts", []):
        if p.get("kind") in NOTE_KINDS:
            continue  # a note with no roll: one folded line (notes_html), never a box of its own
        ref = p["ref"]
        done = _btn("Done", "rb-dismiss", "secondary", aria=f"Done with {ref}", ref=ref)
        out.append(html('<div class="rb-prompt rb-box" role="note"><p>{} {}: {}</p>{}{}</div>',
                        ref_chip(ref), names.get(p.get("combatant"), ""), p.get("text", ""), done, _err("ref")))
    if not out:
        return Markup("")
    return html('<section class="rb-rolls" aria-labelledby="rb-rolls-h"><h3 id="rb-rolls-h">Rolls to settle</h3>{}'
                '</section>', fragment(out))


# the table by the title the Tables dialog lists it under (its id, core_roll, is the engine's key, not the GM's word)
ASSUMED_HINT = html('<p class="hint rb-assumed-once">Fray\'s rolls use its Default roll mechanic, in Tables, '
                    '<span class="badge assumed">assumed</span>: not in the published rules. The log says so in full '
                    'once, then "assumed mechanic" on each roll it made.</p>')

# the engine's notes of the moment (turns.MOMENT): no roll, so they never stand in the way of what happens now
NOTE_KINDS = ("warning", "detection", "noise")


def notes_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """The notes that need no roll (a stealth attack's may-an-ally-warn paragraphs, a call for a detection roll), as
    one line: folded, with Done all; each still readable and Done on its own inside. Left open they expire at the
    end of their round, logged (issue 33: three of them pushed round 2's movement form off a tablet's screen)."""
    names = _names(view)
    notes = [p for p in view.get("prompts", []) if p.get("kind") in NOTE_KINDS]
    if not notes:
        return Markup("")
    rows = [html('<li class="rb-note-item"><p>{} {}: {}</p>{}</li>',
                 ref_chip(p["ref"]), names.get(p.get("combatant"), ""), p.get("text", ""),
                 _btn("Done", "rb-dismiss", "small secondary", aria=f"Done with {p['ref']}", ref=p["ref"]))
            for p in notes]
    is_open = bool(ui.folds.get("rb-notes")) if ui else False
    what = {"warning": "warning", "detection": "detection call", "noise": "noise"}
    kinds = ", ".join(dict.fromkeys(what[p["kind"]] for p in notes))
    refs = " ".join(p["ref"] for p in notes)
    return html('<div class="rb-gm-notes rb-box" role="note">{fold}<summary>{n} note{s} ({kinds}), no roll needed'
                '<span class="hint"> · they expire at the end of the round</span></summary>'
                '<ul class="rb-note-list">{rows}</ul></details>{all}{err}</div>',
                fold=_fold_open("rb-notes-fold rb-keep", "rb-notes", is_open), n=len(notes),
                s="s" if len(notes) > 1 else "", kinds=kinds, rows=fragment(rows),
                all=_btn("Done all", "rb-dismiss-all", "small secondary", aria=f"Done with all {len(notes)} notes",
                         refs=refs),
                err=_err("refs"))


def preview_html(p: dict[str, Any], core_roll: dict[str, Any], names: dict[str, str]) -> Markup:
    """The live preview: every roll the action would leave pending, as its specification with the odds under
    the assumed default mechanic, the prompts it would raise, or why it would be refused. Nothing is sent."""
    from fray.games.range_band.odds import spec_odds

    head = Markup('<p class="rb-preview-head"><strong>Before you send it</strong> <span class="hint">(a preview: '
                  'nothing is sent or rolled)</span></p>')
    if p.get("error"):
        from fray.web.words import path_words, rule_message
        e = p["error"]
        # in the GM's words: the rule as a pointer into the rules, the field as the form names it,
        # never the engine's "(rule: The round)" or a field's dotted path (a GM's play-through)
        message = rule_message(e["message"], e["rule"]) if e.get("rule") else e["message"]
        field = path_words(e["field"]) if e.get("field") else ""
        where = html(' <span class="hint">({})</span>', field) if field else ""
        return head + html('<p class="rb-preview-error" role="status">Would be refused: {}{}</p>', message, where)
    out = [head]
    pending = p.get("pending", [])
    if len(pending) > PREVIEW_FULL:
        out.append(_preview_table(pending, core_roll, names))
    for q in pending if len(pending) <= PREVIEW_FULL else ():
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        out.append(html('<div class="rb-preview-spec"><p class="hint">{}</p>{}{}</div>', who, spec_html(q["spec"]),
                        _odds(spec_odds(q["spec"], core_roll))))
    for q in p.get("prompts", []):
        out.append(html('<p class="rb-preview-prompt" role="note">{}</p>', q.get("text", "")))
    if not p.get("pending"):
        out.append(html('<p class="hint rb-preview-none">No roll: {}</p>',
                        "; ".join(p.get("events", [])) or "nothing to roll"))
    return fragment(out)


# past this many rolls a preview is one table, a row per roll (a detection by every opponent is one
# roll each: at 30 combatants some fifteen specifications, 420 elements, written on every turn)
PREVIEW_FULL = 3


def _preview_table(pending: list[dict[str, Any]], core_roll: dict[str, Any], names: dict[str, str]) -> Markup:
    """Many rolls at once, a row each: who rolls and the roll's question, die on stat and TN with
    its parts, Hindrance and Easing with their reasons, the odds (and whether it can blunder), and
    what success and failure do with the roll's notes: once under the table when every roll says
    the same (a detection by every opponent), else in the row. Each is shown in full under Rolls to
    settle once sent."""
    from fray.games.range_band.odds import spec_odds

    def parts(part: dict[str, Any]) -> Markup:
        why = ", ".join(f"+{int(x['count'])} {x['reason']}" for x in part.get("parts", []))
        return html("{}{}", part.get("total", 0), f" ({why})" if why else "")

    def effects(spec: dict[str, Any]) -> list[Markup]:
        out = []
        if spec.get("success"):
            out.append(html('<span class="k">Success</span> {}', spec["success"]))
        if spec.get("failure"):
            out.append(html('<span class="k">Failure</span> {}', spec["failure"]))
        return out + [html("{}", n) for n in spec.get("notes", [])]

    said = [effects(q["spec"]) for q in pending]
    shared = said[0] if all(x == said[0] for x in said) else None
    rows = []
    for q, says in zip(pending, said):
        spec = q["spec"]
        tn = spec.get("tn", {})
        tn_parts = "".join(tn_part(x["reason"], int(x["value"])) for x in tn.get("parts", []))
        o = spec_odds(spec, core_roll)
        odds = (f"{percent(o.success)}, by 10 or more {percent(o.by_10)}"
                + (f", blunder {percent(o.blunder)}" if o.blunder else
                   ("" if spec.get("can_blunder") else "; cannot blunder"))
                + (f" ({spec['auto'].get('reason', '')})" if spec.get("auto") else ""))
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        does = "" if shared is not None else html('<td><ul class="rb-preview-does">{}</ul></td>',
                                                  fragment(h("li", None, x) for x in says))
        rows.append(html('<tr><th scope="row">{who} <small class="rb-preview-what">{what}</small></th>'
                         '<td><span class="rb-die">{die} on {stat}</span>, TN <strong>{tn}</strong> <small>(= {stat} '
                         '{value}{parts}{blind})</small></td><td>{hindrance}</td><td>{easing}</td><td>{odds}</td>'
                         '{does}</tr>',
                         who=who, what=spec.get("what", "Roll"), die=spec.get("die"), stat=spec.get("stat"),
                         tn=tn.get("total"), value=spec.get("stat_value"), parts=tn_parts,
                         blind="; blind" if spec.get("blind") else "", hindrance=parts(spec.get("hindrance", {})),
                         easing=parts(spec.get("easing", {})), odds=odds, does=does))
    rules = ", ".join(dict.fromkeys(q["spec"].get("rule", "") for q in pending if q["spec"].get("rule")))
    mechanic = ("settled by the rules" if all(q["spec"].get("auto") for q in pending)
                else "the odds of success with Fray\u2019s assumed roll")
    after = html('<ul class="rb-preview-does" aria-label="What every one of these rolls does">{}</ul>',
                 fragment(h("li", None, x) for x in shared)) if shared else ""
    return html('<div class="rb-preview-scroll" tabindex="0" role="region" aria-label="The rolls it would leave">'
                '<table class="rb-preview-table"><caption>{n} rolls{rules}: {mechanic}; each roll in full under Rolls '
                'to settle once sent</caption><thead><tr><th scope="col">Who rolls</th><th scope="col">Roll</th>'
                '<th scope="col">Hindrance</th><th scope="col">Easing</th><th scope="col">Success</th>{does}'
                '</tr></thead><tbody>{rows}</tbody></table>{after}</div>',
                n=len(pending), rules=f" ({rules})" if rules else "", mechanic=mechanic,
                does="" if shared is not None else Markup('<th scope="col">What it does</th>'),
                rows=fragment(rows), after=after)
