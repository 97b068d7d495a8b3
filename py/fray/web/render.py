"""HTML for the tracker, as strings, from the encounter and its ruleset's view.

Pure functions (no ``js``), so CPython tests can check them. Every piece of user text goes
through ``esc`` (names full of HTML show as text, never as markup). Controls carry
``data-act`` / ``data-form`` attributes; one delegated listener in ``app.py`` turns a click or
a submit into an engine call, so rendering stays one ``innerHTML`` write per region.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable

from .. import timers
from ..model import Combatant, Encounter, LogEntry
from ..rulesets.base import Ruleset, Slot, StatSpec


def esc(value: Any) -> str:
    return escape(str(value), quote=True)


def attrs(**kw: Any) -> str:
    """``attrs(data_act="x", aria_label="y")`` → ` data-act="x" aria-label="y"`; False/None dropped."""
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        out.append(f" {name}" if v is True else f' {name}="{esc(v)}"')
    return "".join(out)


def button(label: str, act: str, cls: str = "", title: str | None = None, **data: Any) -> str:
    extra = "".join(f' data-{esc(k.replace("_", "-"))}="{esc(v)}"' for k, v in data.items())
    # A symbol (▲, ×) is not a name: a screen reader gets the title as the button's name.
    symbol = title and not any(ch.isalnum() for ch in label)
    return (f'<button type="button" data-act="{esc(act)}"'
            f'{attrs(class_=cls or None, title=title, aria_label=title if symbol else None)}'
            f"{extra}>{esc(label)}</button>")


SIDE_LABEL = {"party": "Party", "foes": "Foes", "neutral": "Neutral"}


def phase_label(enc: Encounter, view: dict[str, Any]) -> str:
    """The phase as the game names it: a view may give a label, a phase object with a title
    (tactical-round), or a strike rank being resolved (strike-rank)."""
    if view.get("phase_label"):
        return str(view["phase_label"])
    phase = view.get("phase")
    if isinstance(phase, dict) and phase.get("title"):
        return str(phase["title"])
    if enc.phase == "setup":
        return "Setting up"
    if enc.phase == "resolve" and view.get("sr"):
        return f"Resolve: SR {view['sr']}"
    return enc.phase.replace("_", " ").capitalize()


def round_bar(enc: Encounter, order: list[Slot], ruleset: Ruleset, view: dict[str, Any],
              turn_based: bool = True) -> str:
    phase = phase_label(enc, view)
    current = view.get("current_label", "")
    who = ""
    # "Now: X" only where the game moves one combatant at a time through ``enc.turn``; a game
    # that resolves a whole phase or strike rank shows who acts in its own panel.
    if turn_based and enc.phase != "setup" and order and 0 <= enc.turn < len(order):
        c = enc.get(order[enc.turn].combatant_id)
        who = f'<span class="now">Now: <strong>{esc(c.name) if c else "?"}</strong> {esc(order[enc.turn].label)}</span>'
    next_label = view.get("advance_label") or ("Start the fight" if enc.phase == "setup" else "Next")
    return (
        f'<div class="round-info"><span class="round">Round {enc.round}</span>'
        f'<span class="phase">{esc(phase)}</span>{esc(current)}{who}</div>'
        f'<div class="round-actions">'
        f'{button("Add combatant", "add-combatant", "secondary")}'
        f'{button(next_label, "advance", "primary")}</div>'
        f'<p class="field-error" data-error-for="advance"></p>'
    )


def order_list(enc: Encounter, order: list[Slot]) -> str:
    if not order:
        return ""
    items = []
    for i, s in enumerate(order):
        c = enc.get(s.combatant_id)
        if c is None:
            continue
        cur = enc.phase != "setup" and i == enc.turn
        items.append(
            f'<li class="{"current" if cur else ""}" data-id="{esc(c.id)}"{attrs(aria_current="step" if cur else None)}>'
            f'<span class="slot">{esc(s.label)}</span> <span class="who side-{esc(c.side)}">{esc(c.name)}</span>'
            f'<span class="why">{esc(s.explanation)}</span>'
            f'<span class="move">{button("▲", "order-up", "icon", title=f"Move {c.name} earlier among ties", id=c.id)}'
            f'{button("▼", "order-down", "icon", title=f"Move {c.name} later among ties", id=c.id)}</span></li>'
        )
    return f'<h2 class="visually-hidden">Order of play</h2><ol class="order" aria-label="Order of play">{"".join(items)}</ol>'


def stat_line(c: Combatant, ruleset: Ruleset) -> str:
    specs: Iterable[StatSpec] = ruleset.stats
    if ruleset.free_stats:
        pairs = list(c.stats.items())
    else:
        pairs = [(s.label, c.stats.get(s.key)) for s in specs if c.stats.get(s.key) is not None]
    return "".join(f'<span class="stat"><span class="k">{esc(k)}</span> <span class="v">{esc(v)}</span></span>'
                   for k, v in pairs)


def _timer_note(enc: Encounter, c: Combatant, cond: str, ruleset: Ruleset) -> str:
    t = timers.of_combatant(enc, c.id, cond)
    return f' <span class="cond-left">{esc(timers.describe(enc, t, ruleset.rounds_word))}</span>' if t else ""


def combatant_card(enc: Encounter, c: Combatant, ruleset: Ruleset, extra_html: str = "", current: bool = False) -> str:
    conds = "".join(
        f'<li class="cond">{esc(x)}{_timer_note(enc, c, x, ruleset)} '
        f'{button("×", "clear-condition", "icon", title=f"Remove {x} from {c.name}", id=c.id, condition=x)}</li>'
        for x in c.conditions)
    pos = c.position
    where = f"({pos.x:g}, {pos.y:g}) m" + (f", alt {pos.alt:g} m" if pos.alt else "")
    return (
        f'<article class="card side-{esc(c.side)}{" current" if current else ""}" data-id="{esc(c.id)}" '
        f'aria-label="{esc(c.name)}">'
        f'<header><h3 class="name">{esc(c.name)}</h3><span class="side">{esc(SIDE_LABEL.get(c.side, c.side))}</span>'
        f'<span class="where" title="Position on the map">{esc(where)}</span></header>'
        f'<div class="stats">{stat_line(c, ruleset)}</div>'
        f'{extra_html}'
        f'<ul class="conds" aria-label="Conditions of {esc(c.name)}">{conds}</ul>'
        f'{"<p class=notes>" + esc(c.notes) + "</p>" if c.notes else ""}'
        f'<div class="card-actions">'
        f'{button("Edit", "edit-combatant", "small", title=f"Edit {c.name}", id=c.id)}'
        f'{button("Condition…", "add-condition", "small", title=f"Add a condition to {c.name}", id=c.id)}'
        f'{button("Remove", "remove-combatant", "small danger", title=f"Remove {c.name}", id=c.id)}'
        f'</div><p class="field-error" data-error-for="card-{esc(c.id)}"></p></article>'
    )


def log_items(log: list[LogEntry], limit: int = 300) -> str:
    items = []
    for e in reversed(log[-limit:]):
        items.append(f'<li class="log-{esc(e.kind)}" value="{e.seq}"><span class="r">R{e.round}</span> {esc(e.text)}</li>')
    return "".join(items)


def empty_state(enc: Encounter) -> str:
    return ('<div class="empty"><p>No combatants yet.</p>'
            f'{button("Add the first combatant", "add-combatant", "primary")}</div>')


# -- forms ------------------------------------------------------------------------------------

def field_html(name: str, label: str, value: Any, kind: str = "text", help_text: str = "",
               choices: Iterable[str] = (), required: bool = False, min_: Any = None, max_: Any = None) -> str:
    fid = "f-" + name.replace(".", "-")
    err = f'<p class="field-error" id="{esc(fid)}-err" data-error-for="{esc(name)}"></p>'
    hint = f'<small class="hint">{esc(help_text)}</small>' if help_text else ""
    if kind == "choice":
        opts = "".join(f'<option value="{esc(c)}"{" selected" if str(value) == c else ""}>{esc(c)}</option>' for c in choices)
        ctl = f'<select id="{esc(fid)}" name="{esc(name)}" aria-describedby="{esc(fid)}-err">{opts}</select>'
    elif kind == "textarea":
        ctl = f'<textarea id="{esc(fid)}" name="{esc(name)}" rows="2" aria-describedby="{esc(fid)}-err">{esc(value or "")}</textarea>'
    else:
        itype = "text"
        mode = ' inputmode="numeric"' if kind in ("int", "percent") else (' inputmode="decimal"' if kind == "number" else "")
        ctl = (f'<input id="{esc(fid)}" name="{esc(name)}" type="{itype}"{mode} value="{esc("" if value is None else value)}"'
               f'{" required" if required else ""} aria-describedby="{esc(fid)}-err" autocomplete="off">')
    return f'<div class="field" data-field="{esc(name)}"><label for="{esc(fid)}">{esc(label)}</label>{ctl}{hint}{err}</div>'


def combatant_form(ruleset: Ruleset, c: Combatant | None, presets: list[dict[str, Any]],
                   templates: list[dict[str, Any]] | None = None) -> str:
    """The add/edit form. Field names are the action's field paths, so an engine error names
    the exact input to mark. ``templates``: the GM's own (fray.bestiary), this ruleset's only."""
    editing = c is not None
    title = f"Edit {c.name}" if editing else "Add a combatant"
    parts = [f'<form class="form" data-form="{"edit-combatant" if editing else "add-combatant"}"'
             f'{attrs(data_id=c.id if c else None)} novalidate>',
             f'<h2 id="dlg-title">{esc(title)}</h2>']
    templates = templates or []
    if not editing:
        if presets or templates:
            opts = "".join(f'<option value="{i}">{esc(p["name"])}</option>' for i, p in enumerate(presets))
            if presets and templates:
                opts = f'<optgroup label="{esc(ruleset.name)}">{opts}</optgroup>'
            if templates:
                opts += ('<optgroup label="My bestiary">' + "".join(
                    f'<option value="b{i}">{esc(t["combatant"].get("name", "?"))}</option>'
                    for i, t in enumerate(templates)) + "</optgroup>")
            parts.append(f'<div class="field"><label for="f-preset">Ready-made</label>'
                         f'<div class="row"><select id="f-preset" name="preset"><option value="">(none)</option>{opts}</select>'
                         f'{button("Use", "use-preset", "small")}'
                         f'{button("My bestiary…", "bestiary", "small secondary")}</div></div>')
        else:
            parts.append(f'<p>{button("My bestiary…", "bestiary", "small secondary")}</p>')
    parts.append('<fieldset class="grid"><legend>Who</legend>')
    parts.append(field_html("combatant.name", "Name", c.name if c else "", required=True))
    parts.append(field_html("combatant.side", "Side", c.side if c else "foes", "choice", choices=("party", "foes", "neutral")))
    parts.append("</fieldset>")
    if ruleset.free_stats:
        text = "\n".join(f"{k}: {v}" for k, v in (c.stats.items() if c else [("initiative", 10)]))
        parts.append('<fieldset><legend>Stats</legend>')
        parts.append(field_html("combatant.stats", "Stats, one per line as name: value", text, "textarea",
                                help_text="For example  initiative: 14  or  HP: 12"))
        parts.append("</fieldset>")
    else:
        parts.append('<fieldset class="grid stats-grid"><legend>Stats</legend>')
        for s in ruleset.stats:
            v = c.stats.get(s.key) if c else s.default
            parts.append(field_html(f"combatant.stats.{s.key}", s.label, v, s.kind, s.help, s.choices,
                                    s.required and s.default is None, s.min, s.max))
        parts.append("</fieldset>")
    pos = c.position if c else None
    parts.append('<fieldset class="grid"><legend>Position (metres)</legend>')
    parts.append(field_html("combatant.position.x", "East (x)", pos.x if pos else 0, "number"))
    parts.append(field_html("combatant.position.y", "North (y)", pos.y if pos else 0, "number"))
    parts.append(field_html("combatant.position.alt", "Altitude", pos.alt if pos else 0, "number"))
    parts.append("</fieldset>")
    if not editing and not ruleset.free_stats:
        parts.append(field_html("combatant.extra", "Weapons, armour, body (JSON)", "", "textarea",
                                help_text="Filled in by a ready-made combatant; edit the numbers as needed. "
                                          "Leave empty for an unarmed humanoid."))
    parts.append(field_html("combatant.notes", "Notes", c.notes if c else "", "textarea"))
    if not editing:
        parts.append('<label class="keep"><input type="checkbox" name="keep" value="yes"> Keep in my bestiary '
                     '(a template of this combatant, kept in this browser)</label>')
    parts.append('<p class="field-error form-error" data-error-for="combatant"></p>')
    parts.append(f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
                 f'<button type="submit" class="primary">{"Save" if editing else "Add"}</button></div></form>')
    return "".join(parts)


def new_encounter_form(rulesets: list[Ruleset]) -> str:
    opts = "".join(f'<option value="{esc(r.id)}">{esc(r.name)}: {esc(r.summary)}</option>' for r in rulesets)
    return (
        '<form class="form" data-form="new-encounter" novalidate><h2 id="dlg-title">New encounter</h2>'
        + field_html("name", "Name", "Encounter", required=True)
        + f'<div class="field" data-field="ruleset"><label for="f-ruleset">Rules</label>'
          f'<select id="f-ruleset" name="ruleset">{opts}</select>'
          f'<p class="field-error" data-error-for="ruleset"></p></div>'
        + '<p class="hint">The current encounter stays in the list; switch back to it at any time.</p>'
        + f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
          '<button type="submit" class="primary">Create</button></div></form>'
    )


def condition_form(c: Combatant, known: dict[str, str], enc: Encounter | None = None,
                   ruleset: Ruleset | None = None) -> str:
    """Put a condition on ``c``: the ruleset's own conditions first (with what each does), any
    other by name, and how long it lasts (fray.timers)."""
    fid = f"cond-{esc(c.id)}"
    picks = "".join(
        f'<label class="pick"><input type="radio" name="pick" value="{esc(k)}"{" disabled" if k in c.conditions else ""}>'
        f' <strong>{esc(k)}</strong><span class="hint">{esc(v)}{" (already on)" if k in c.conditions else ""}</span></label>'
        for k, v in known.items())
    known_html = (f'<fieldset class="field picks" data-field="pick"><legend>{esc(ruleset.name) if ruleset else "This game"}'
                  f"'s conditions</legend>{picks}</fieldset>") if known else ""
    has_turns = bool(ruleset and ruleset.has_turns)
    word = ruleset.rounds_word if ruleset else "round"
    lasts = [("", "until removed"), ("rounds", f"for a number of {word}s")]
    if has_turns:
        lasts += [("turn_start", "until the start of someone's next turn"),
                  ("turn_end", "until the end of someone's next turn")]
    lasts_opts = "".join(f'<option value="{v}">{esc(t)}</option>' for v, t in lasts)
    who = ""
    if has_turns and enc is not None:
        opts = "".join(f'<option value="{esc(x.id)}"{" selected" if x.id == c.id else ""}>{esc(x.name)}</option>'
                       for x in enc.combatants)
        who = (f'<div class="field" data-field="lasts.of"><label for="{fid}-of">Whose turn</label>'
               f'<select id="{fid}-of" name="of">{opts}</select><p class="field-error" data-error-for="lasts.of"></p></div>')
    return (
        f'<form class="form" data-form="add-condition" data-id="{esc(c.id)}" novalidate>'
        f'<h2 id="dlg-title">Condition on {esc(c.name)}</h2>'
        f'{known_html}'
        f'<div class="field" data-field="condition"><label for="f-condition">{"Or another condition" if known else "Condition"}</label>'
        f'<input id="f-condition" name="condition" autocomplete="off" maxlength="40">'
        f'<p class="field-error" data-error-for="condition"></p></div>'
        f'<div class="field-row"><div class="field" data-field="lasts.until"><label for="{fid}-lasts">Lasts</label>'
        f'<select id="{fid}-lasts" name="lasts">{lasts_opts}</select>'
        f'<p class="field-error" data-error-for="lasts.until"></p><p class="field-error" data-error-for="lasts"></p></div>'
        f'<div class="field" data-field="lasts.rounds"><label for="{fid}-rounds">{esc(word.capitalize())}s</label>'
        f'<input id="{fid}-rounds" name="rounds" inputmode="numeric" value="1" size="4">'
        f'<p class="field-error" data-error-for="lasts.rounds"></p></div>{who}</div>'
        f'<p class="hint">For a number of {esc(word)}s, the {esc(word)} it is put on counts as the first'
        + (" (it ends right before its holder's turn)" if ruleset and ruleset.round_durations_end == "before_own_turn"
           else f"; it ends as the {esc(word)} after the last begins") + '. Fray takes it off by itself and says so in the log; Undo puts it back.</p>'
        f'<div class="dlg-actions">{button("Cancel", "close-dialog", "secondary")}'
        '<button type="submit" class="primary">Add</button></div></form>'
    )


def condition_action(cid: str, values: dict[str, Any]) -> dict[str, Any]:
    """The ``set_condition`` action of the condition form's values (the engine checks them)."""
    name = str(values.get("condition", "")).strip() or str(values.get("pick", "") or "")
    action: dict[str, Any] = {"type": "set_condition", "id": cid, "condition": name, "on": True}
    kind = values.get("lasts") or ""
    if kind == "rounds":
        raw = str(values.get("rounds", "")).strip()
        try:
            n: Any = int(raw)
        except ValueError:
            n = raw  # the engine says what is wrong with it, at the field
        action["lasts"] = {"rounds": n}
    elif kind:
        action["lasts"] = {"until": kind, "of": values.get("of") or cid}
    return action


def parse_free_stats(text: str) -> dict[str, str]:
    """``initiative: 14`` lines → dict; the engine validates names and values."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        if ":" not in line:
            key, value = line.strip(), ""
        else:
            key, value = line.split(":", 1)
        out[key.strip()] = value.strip()
    return out
