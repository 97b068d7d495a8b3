"""Rolls to settle: a roll's specification before anyone rolls, the pending rolls with the GM's result or
Fray's roll, the notes that need no roll, and a form's live preview of the rolls it would leave."""

from __future__ import annotations

from typing import Any

from fray.chance import percent
from fray.web import odds_view
from fray.web.render import esc
from fray.games.range_band.web.common import _check, _general_err
from fray.web.widgets import act_button as _btn, err_slot as _err, field as _field, fold_open, names_in as _names, text_input as _input


def spec_html(spec: dict[str, Any]) -> str:
    """A roll specification before anyone rolls: die on stat, TN and its parts, Hindrance and
    Easing with their reasons, blunder, what success and failure do."""
    tn = spec.get("tn", {})
    tn_parts = "".join(f" {'+' if p['value'] >= 0 else '−'} {esc(p['reason'])} {abs(int(p['value']))}"
                       for p in tn.get("parts", []))
    rows = [f'<li class="rb-tn"><span class="k">TN</span> <strong class="rb-tn-value">{esc(tn.get("total"))}</strong>'
            f' = {esc(spec.get("stat"))} {esc(spec.get("stat_value"))}{tn_parts}</li>']
    for key, label in (("hindrance", "Hindrance"), ("easing", "Easing")):
        part = spec.get(key, {})
        reasons = ", ".join(f"+{int(p['count'])} {esc(p['reason'])}" for p in part.get("parts", []))
        rows.append(f'<li class="rb-{key}"><span class="k">{label}</span> '
                    f'<strong class="rb-{key}-value">{esc(part.get("total", 0))}</strong>'
                    + (f" ({reasons})" if reasons else "") + "</li>")
    rows.append(f'<li class="rb-blunder">{"can blunder" if spec.get("can_blunder") else "cannot blunder"}'
                + ("; a blind roll: the GM rolls it unseen" if spec.get("blind") else "") + "</li>")
    if spec.get("auto"):
        rows.append(f'<li class="rb-auto">{esc(spec["auto"].get("reason", ""))}</li>')
    if spec.get("success"):
        rows.append(f'<li class="rb-success"><span class="k">Success</span> {esc(spec["success"])}</li>')
    if spec.get("failure"):
        rows.append(f'<li class="rb-failure"><span class="k">Failure</span> {esc(spec["failure"])}</li>')
    rows += [f'<li class="rb-note">{esc(n)}</li>' for n in spec.get("notes", [])]
    return (f'<p class="rb-spec-head"><strong>{esc(spec.get("what", "Roll"))}</strong>: '
            f'<span class="rb-die">{esc(spec.get("die"))} on {esc(spec.get("stat"))}</span>'
            f' <span class="rule">({esc(spec.get("rule", ""))})</span></p>'
            f'<ul class="rb-spec" aria-label="Roll specification">{"".join(rows)}</ul>')


def pending_html(view: dict[str, Any]) -> str:
    names = _names(view)
    out = []
    for n, p in enumerate(view.get("pending", [])):
        ref = p["ref"]
        pre = f"rb-res-{ref}"
        who = names.get(p.get("combatant"), p.get("combatant", ""))
        prompt = p.get("prompt", "")
        head = prompt if prompt.startswith(who) else f"{who}: {prompt}"
        outcome = (f'<fieldset class="rb-outcome"><legend>The GM\'s result</legend>'
                   f'<label class="rb-check" for="{pre}-s"><input type="radio" id="{pre}-s" name="success" '
                   f'value="yes"> Success</label>'
                   f'<label class="rb-check" for="{pre}-f"><input type="radio" id="{pre}-f" name="success" '
                   f'value="no"> Failure</label>{_err("success")}</fieldset>'
                   + _field(f"{pre}-by", "by", "By how much", _input(f"{pre}-by", "by", "0"))
                   + _check(f"{pre}-bl", "blunder", "Blunder"))
        out.append(
            f'<form class="rb-pending rb-box" data-form="rb-resolve" data-ref="{esc(ref)}" novalidate '
            f'aria-label="Pending roll {esc(ref)}: {esc(p["spec"].get("what", ""))}">'
            f'<h4><span class="rb-ref">{esc(ref)}</span> {esc(head)}</h4>'
            f'{spec_html(p["spec"])}'
            f'<div class="rb-row">{outcome}</div>'
            f'<div class="rb-row rb-buttons"><button type="submit" class="primary">Apply result</button>'
            f'{_field(f"{pre}-dice", "rolls.roll", "Dice for Fray (blank = Fray rolls)", _input(f"{pre}-dice", "rolls.roll", "", placeholder="e.g. 7 12"), cls="rb-dice")}'
            f'{_btn("Let Fray roll (assumed default)", "rb-roll", "secondary", ref=ref)}'
            f'{_btn("Dismiss", "rb-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref)}</div>'
            f'{odds_view.slot()}'
            # said once, on the first roll to settle: every "Let Fray roll" button says "assumed" too
            + (ASSUMED_HINT if n == 0 else "") + f'{_general_err()}</form>')
    for p in view.get("prompts", []):
        if p.get("kind") in NOTE_KINDS:
            continue  # a note with no roll: one folded line (notes_html), never a box of its own
        ref = p["ref"]
        done = _btn("Done", "rb-dismiss", "secondary", aria=f"Done with {ref}", ref=ref)
        out.append(f'<div class="rb-prompt rb-box" role="note"><p><span class="rb-ref">{esc(ref)}</span> '
                   f'{esc(names.get(p.get("combatant"), ""))}: {esc(p.get("text", ""))}</p>{done}{_err("ref")}</div>')
    if not out:
        return ""
    return f'<section class="rb-rolls" aria-labelledby="rb-rolls-h"><h3 id="rb-rolls-h">Rolls to settle</h3>{"".join(out)}</section>'


ASSUMED_HINT = ('<p class="hint rb-assumed-once">Fray\'s rolls use the default mechanic of table core_roll, '
                '<span class="badge assumed">assumed</span>: not in the published rules. The log says so in full '
                'once, then "assumed mechanic" on each roll it made.</p>')

# the engine's notes of the moment (turns.MOMENT): no roll, so they never stand in the way of what happens now
NOTE_KINDS = ("warning", "detection", "noise")


def notes_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> str:
    """The notes that need no roll (a stealth attack's may-an-ally-warn paragraphs, a call for a detection roll), as
    one line: folded, with Done all; each still readable and Done on its own inside. Left open they expire at the
    end of their round, logged (issue 33: three of them pushed round 2's movement form off a tablet's screen)."""
    names = _names(view)
    notes = [p for p in view.get("prompts", []) if p.get("kind") in NOTE_KINDS]
    if not notes:
        return ""
    rows = "".join(
        f'<li class="rb-note-item"><p><span class="rb-ref">{esc(p["ref"])}</span> '
        f'{esc(names.get(p.get("combatant"), ""))}: {esc(p.get("text", ""))}</p>'
        + _btn("Done", "rb-dismiss", "small secondary", aria=f"Done with {p['ref']}", ref=p["ref"]) + "</li>"
        for p in notes)
    is_open = bool((ui or {}).get("rb_folds", {}).get("rb-notes"))
    what = {"warning": "warning", "detection": "detection call", "noise": "noise"}
    kinds = ", ".join(dict.fromkeys(what[p["kind"]] for p in notes))
    refs = " ".join(p["ref"] for p in notes)
    return (f'<div class="rb-gm-notes rb-box" role="note">'
            + fold_open("rb-notes-fold rb-keep", "rb-notes", is_open)
            + f'<summary>{len(notes)} note{"s" if len(notes) > 1 else ""} ({esc(kinds)}), no roll needed'
            '<span class="hint"> · they expire at the end of the round</span></summary>'
            f'<ul class="rb-note-list">{rows}</ul></details>'
            + _btn("Done all", "rb-dismiss-all", "small secondary", aria=f"Done with all {len(notes)} notes",
                   refs=refs)
            + f'{_err("refs")}</div>')


# -- the panel ---------------------------------------------------------------------------------------


def preview_html(p: dict[str, Any], core_roll: dict[str, Any], names: dict[str, str]) -> str:
    """The live preview: every roll the action would leave pending, as its specification with the odds under
    the assumed default mechanic, the prompts it would raise, or why it would be refused. Nothing is sent."""
    from fray.games.range_band.odds import spec_odds

    head = '<p class="rb-preview-head"><strong>Before you send it</strong> <span class="hint">(a preview: nothing ' \
           'is sent or rolled)</span></p>'
    if p.get("error"):
        e = p["error"]
        where = f' <span class="hint">({esc(e["field"])})</span>' if e.get("field") else ""
        return head + f'<p class="rb-preview-error" role="status">Would be refused: {esc(e["message"])}{where}</p>'
    out = [head]
    pending = p.get("pending", [])
    if len(pending) > PREVIEW_FULL:
        out.append(_preview_table(pending, core_roll, names))
    for q in pending if len(pending) <= PREVIEW_FULL else ():
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        out.append(f'<div class="rb-preview-spec"><p class="hint">{esc(who)}</p>{spec_html(q["spec"])}'
                   f'{odds_view.spec_html(spec_odds(q["spec"], core_roll))}</div>')
    for q in p.get("prompts", []):
        out.append(f'<p class="rb-preview-prompt" role="note">{esc(q.get("text", ""))}</p>')
    if not p.get("pending"):
        out.append('<p class="hint rb-preview-none">No roll: ' + esc("; ".join(p.get("events", [])) or "nothing to roll")
                   + "</p>")
    return "".join(out)


# past this many rolls a preview is one table, a row per roll (a detection by every opponent is one
# roll each: at 30 combatants some fifteen specifications, 420 elements, written on every turn)
PREVIEW_FULL = 3


def _preview_table(pending: list[dict[str, Any]], core_roll: dict[str, Any], names: dict[str, str]) -> str:
    """Many rolls at once, a row each: who rolls and the roll's question, die on stat and TN with
    its parts, Hindrance and Easing with their reasons, the odds (and whether it can blunder), and
    what success and failure do with the roll's notes: once under the table when every roll says
    the same (a detection by every opponent), else in the row. Each is shown in full under Rolls to
    settle once sent."""
    from fray.games.range_band.odds import spec_odds

    def parts(part: dict[str, Any]) -> str:
        why = ", ".join(f"+{int(x['count'])} {x['reason']}" for x in part.get("parts", []))
        return esc(part.get("total", 0)) + (f" ({esc(why)})" if why else "")

    def effects(spec: dict[str, Any]) -> list[str]:
        out = []
        if spec.get("success"):
            out.append(f'<span class="k">Success</span> {esc(spec["success"])}')
        if spec.get("failure"):
            out.append(f'<span class="k">Failure</span> {esc(spec["failure"])}')
        return out + [esc(n) for n in spec.get("notes", [])]

    said = [effects(q["spec"]) for q in pending]
    shared = said[0] if all(x == said[0] for x in said) else None
    rows = []
    for q, says in zip(pending, said):
        spec = q["spec"]
        tn = spec.get("tn", {})
        tn_parts = "".join(f" {'+' if x['value'] >= 0 else '−'} {x['reason']} {abs(int(x['value']))}"
                           for x in tn.get("parts", []))
        o = spec_odds(spec, core_roll)
        odds = (f"{esc(percent(o.success))}, by 10 or more {esc(percent(o.by_10))}"
                + (f", blunder {esc(percent(o.blunder))}" if o.blunder else
                   ("" if spec.get("can_blunder") else "; cannot blunder"))
                + (f" ({esc(spec['auto'].get('reason', ''))})" if spec.get("auto") else ""))
        who = names.get(q.get("combatant"), q.get("combatant", ""))
        does = "" if shared is not None else f'<td><ul class="rb-preview-does">{"".join(f"<li>{x}</li>" for x in says)}</ul></td>'
        rows.append(f'<tr><th scope="row">{esc(who)} <small class="rb-preview-what">{esc(spec.get("what", "Roll"))}</small></th>'
                    f'<td><span class="rb-die">{esc(spec.get("die"))} on {esc(spec.get("stat"))}</span>, TN '
                    f'<strong>{esc(tn.get("total"))}</strong> <small>(= {esc(spec.get("stat"))} '
                    f'{esc(spec.get("stat_value"))}{esc(tn_parts)}{"; blind" if spec.get("blind") else ""})</small></td>'
                    f'<td>{parts(spec.get("hindrance", {}))}</td><td>{parts(spec.get("easing", {}))}</td>'
                    f'<td>{odds}</td>{does}</tr>')
    rules = ", ".join(dict.fromkeys(q["spec"].get("rule", "") for q in pending if q["spec"].get("rule")))
    mechanic = ("settled by the rules" if all(q["spec"].get("auto") for q in pending)
                else "the odds of success under the assumed default mechanic")
    after = (f'<ul class="rb-preview-does" aria-label="What every one of these rolls does">'
             f'{"".join(f"<li>{x}</li>" for x in shared)}</ul>' if shared else "")
    return (f'<div class="rb-preview-scroll" tabindex="0" role="region" aria-label="The rolls it would leave">'
            f'<table class="rb-preview-table"><caption>{len(pending)} rolls{f" ({esc(rules)})" if rules else ""}: '
            f'{mechanic}; each roll in full under Rolls to settle once sent</caption><thead><tr>'
            f'<th scope="col">Who rolls</th><th scope="col">Roll</th><th scope="col">Hindrance</th>'
            f'<th scope="col">Easing</th><th scope="col">Success</th>'
            + ("" if shared is not None else '<th scope="col">What it does</th>')
            + f'</tr></thead><tbody>{"".join(rows)}</tbody></table>{after}</div>')
