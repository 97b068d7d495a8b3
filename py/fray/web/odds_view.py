"""The odds before rolling, beside a roll button: rendering, and the small bit of page glue that
keeps them current as the GM changes the options.

A panel puts ``slot()`` inside its attack form, calls ``refresh_soon(app)`` when it draws, and
answers ``odds(app, form_name, form, values)`` with the HTML for the options chosen right now
(built with the renderers here from its engine's odds). This module listens for ``input`` and
``change`` in any form holding a slot and asks the panel again. Nothing here changes the
encounter or rolls: the odds come from the engines' pure odds modules.

Rendering is pure (CPython tests call it) and escapes every piece of text; the bars are SVG
attributes, not inline styles (the page's Content-Security-Policy allows no inline style).
"""

from __future__ import annotations

from typing import Any

from ..chance import percent
from .render import esc

DEGREE_SHORT = {"critical": "crit", "special": "special", "success": "success", "failure": "fail", "fumble": "fumble",
                "none": "no roll"}
LANDING = {"none": "—", "normal": "hit", "special": "spec", "max_special": "max"}  # what the blow does
WOUND_ROWS = (("minor", "Minor wound"), ("serious", "Serious wound"), ("maimed", "Maimed"),
              ("mangled", "Mangled"))


def slot() -> str:
    """Where a form's odds go (filled by ``refresh``)."""
    return '<div class="odds" data-odds><p class="hint">Working out the odds…</p></div>'


def _pc(x: Any) -> str:
    return esc(percent(x))


def _bars(values: list[tuple[str, Any]], label: str, width: int = 220, height: int = 36) -> str:
    """A small histogram as SVG: one bar per (label, chance), tallest = full height."""
    if not values:
        return ""
    top = max(float(p) for _, p in values) or 1.0
    bw = width / len(values)
    rects = []
    for i, (name, p) in enumerate(values):
        h = max(0.0, float(p) / top * (height - 2))
        rects.append(f'<rect x="{i * bw + 0.5:.1f}" y="{height - h:.1f}" width="{max(bw - 1, 0.5):.1f}" '
                     f'height="{h:.1f}"><title>{esc(name)}: {_pc(p)}</title></rect>')
    return (f'<svg class="odds-bars" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
            f'role="img" aria-label="{esc(label)}">{"".join(rects)}</svg>')


def _degrees(deg: dict[str, Any]) -> str:
    return " · ".join(f"{esc(DEGREE_SHORT.get(k, k))} {_pc(v)}" for k, v in deg.items() if v)


# -- strike-rank style: an exchange against each defence ----------------------------------------------

def _as_rolled(skill: Any, text: str) -> str:
    """The skill as it will be rolled, with how it got there when anything changed it ("70% →
    ×0.5 into melee = 35%"): the odds beside a 70% weapon must not just say 35% (issue 33)."""
    return text if text and "→" in text else f"{skill}%"


def exchange_html(o: Any) -> str:
    """An exchange's odds (``strike_rank.odds.ExchangeOdds``): the alternatives side by side, then
    the chosen defence in detail (result table, damage spread, where it lands)."""
    if o.error:
        return f'<div class="odds-box"><p class="odds-none">No odds: {esc(o.error)}</p></div>'
    alts = o.alternatives
    mark = {a.key: (' class="chosen" aria-current="true"' if a.key == o.chosen else "") for a in alts}
    head = "".join(
        f'<th scope="col"{mark[a.key]}>{esc(a.label)}'
        + (f' <small>{esc(_as_rolled(a.skill, a.skill_text))}</small>' if a.skill is not None else "") + "</th>"
        for a in alts)

    def row(label: str, fn) -> str:
        cells = "".join(
            (f'<td{" class=chosen" if a.key == o.chosen else ""}>{fn(a)}</td>' if a.allowed else '<td class="odds-no">not allowed</td>') for a in alts)
        return f'<tr><th scope="row">{esc(label)}</th>{cells}</tr>'

    rows = [row("Blow lands", lambda a: _pc(a.lands))]
    if any(a.allowed and a.damage_spread for a in alts):
        rows.append(row("Damage through", lambda a: _pc(a.through) if a.damage_spread else "—"))
        rows.append(row("Average damage", lambda a: esc(f"{float(a.mean_taken):.1f}") if a.damage_spread else "—"))
        for k, label in WOUND_ROWS:
            rows.append(row(label, lambda a, k=k: _pc(a.wound.get(k, 0)) if a.damage_spread else "—"))
        rows.append(row("Killed", lambda a: _pc(a.killed) if a.damage_spread else "—"))
    # a special attack: what follows the blow, one row per outcome, in the order the engine met them
    effects = list(dict.fromkeys(k for a in alts if a.allowed for k in a.effect))
    for k in effects:
        rows.append(row(k, lambda a, k=k: _pc(a.effect.get(k, 0))))
    if any(a.allowed and a.weapon_damaged for a in alts):
        rows.append(row("Parry hits the weapon", lambda a: _pc(a.weapon_damaged)))
    why = "".join(f'<li>{esc(a.label)}: not allowed ({esc(a.why)})</li>' for a in alts if not a.allowed)
    chosen = o.alternative(o.chosen)
    notes = "".join(f"<li>{esc(n)}</li>" for n in o.notes)
    return (
        '<div class="odds-box">'
        f'<p class="odds-head"><strong>Odds before rolling</strong> <span class="odds-method" '
        f'title="{esc(o.method)}">exact</span></p>'
        + (f'<p class="odds-attack">{esc(o.attacker)} {esc(_as_rolled(o.skill, o.skill_text))}: '
           f'{_degrees(o.degrees)}</p>' if o.skill is not None else "")
        + f'<div class="odds-scroll" tabindex="0" role="region" aria-label="Odds for each defence">'
          f'<table class="odds-alts"><thead><tr><th scope="col">'
          f'<span class="visually-hidden">Defence</span></th>{head}</tr></thead>'
          f'<tbody>{"".join(rows)}</tbody></table></div>'
        + (f'<ul class="odds-notes">{why}{notes}</ul>' if why or notes else "")
        + (detail_html(chosen) if chosen is not None and chosen.allowed else "")
        + "</div>")


def detail_html(a: Any) -> str:
    """The chosen defence: attack result × defender result, damage spread, where damage lands."""
    defences = list(dict.fromkeys(c["defence"] for c in a.grid))
    attacks = list(dict.fromkeys(c["attack"] for c in a.grid))
    cells = {(c["attack"], c["defence"]): c for c in a.grid}
    thead = "".join(f'<th scope="col">{esc(DEGREE_SHORT.get(d, d))}</th>' for d in defences)
    body = ""
    for at in attacks:
        tds = ""
        for d in defences:
            c = cells[(at, d)]
            what = LANDING.get(c["damage"], c["damage"]) + ("·p" if c["parried"] and c["damage"] != "none" else "")
            tds += f'<td><span class="odds-p">{_pc(c["chance"])}</span> <small>{esc(what)}</small></td>'
        body += f'<tr><th scope="row">{esc(DEGREE_SHORT.get(at, at))}</th>{tds}</tr>'
    grid = (f'<table class="odds-grid"><caption>Attack (rows) × {esc(a.label.lower())} (columns). hit: normal '
            f'damage, spec: special, max: maximised special, ·p: parried (less the weapon\'s HP), —: no damage</caption>'
            f'<thead><tr><th scope="col"><span class="visually-hidden">Attack</span></th>{thead}</tr></thead>'
            f'<tbody>{body}</tbody></table>')
    spread = ""
    if a.damage_spread and a.taken:
        hurt = [(f"{v} damage", p) for v, p in a.taken.items() if v > 0]
        top = max((v for v in a.taken if v > 0), default=0)
        spread = (f'<p class="odds-spread">Damage through armour{" and parry" if a.parried else ""}: '
                  f'none {_pc(a.taken.get(0, 0))}'
                  + (f'; 1 to {top}: ' + _bars(hurt, "damage that gets through, 1 to " + str(top)) if hurt else "")
                  + "</p>")
        if a.locations:
            spread += ('<p class="odds-locs">Wounds land on: ' + " · ".join(
                f"{esc(k)} {_pc(v)}" for k, v in sorted(a.locations.items(), key=lambda kv: -kv[1])) + "</p>")
        if a.elsewhere:
            spread += '<p class="odds-locs">' + " · ".join(f"{esc(k)} {_pc(v)}" for k, v in a.elsewhere.items()) + "</p>"
    if a.effect:
        spread += ('<p class="odds-effect">What follows: ' + " · ".join(
            f"{esc(k)} {_pc(v)}" for k, v in a.effect.items()) + "</p>")
    if a.spread_label and any(v > 0 for v in a.spread):
        vals = sorted(v for v in a.spread if v > 0)
        lo, hi = vals[0], vals[-1]
        bars = [(f"{v} {a.spread_label}", a.spread.get(v, 0)) for v in range(lo, hi + 1)]
        spread += (f'<p class="odds-spread">{esc(a.spread_label[:1].upper() + a.spread_label[1:])}: none '
                   f'{_pc(a.spread.get(0, 0))}; {lo} to {hi}: '
                   + _bars(bars, f"{a.spread_label}, {lo} to {hi}") + "</p>")
    what = "what follows" if a.effect else "damage"
    return (f'<details class="odds-detail" data-odds-fold="detail"><summary>{esc(a.label)}: results and {what}'
            f'</summary><div class="odds-scroll" tabindex="0" role="region" aria-label="Odds by result">{grid}</div>{spread}</details>')


# -- tactical-round style: an open-ended total against DEF ------------------------------------------

def open_ended_html(o: Any) -> str:
    """The open-ended total's spread (``tactical_round.odds.AttackOdds``) and the GM's bands."""
    if o.error:
        return f'<div class="odds-box"><p class="odds-none">No odds: {esc(o.error)}</p></div>'
    lo, med, hi = o.quantile(0.05), o.quantile(0.5), o.quantile(0.95)
    step = 10
    start, stop = (o.quantile(0.01) // step) * step, (o.quantile(0.99) // step + 1) * step
    buckets = []
    for b in range(start, stop, step):
        buckets.append((f"total {b} to {b + step - 1}", o.totals.chance(lambda v, b=b: b <= v < b + step)))
    sign = "+" if o.modifier >= 0 else "−"
    out = ('<div class="odds-box">'
           f'<p class="odds-head"><strong>Odds before rolling</strong> <span class="odds-method" '
           f'title="{esc(o.method)}">exact</span></p>'
           f'<p>Total = open-ended d100 {sign} {abs(o.modifier)} <small>({esc(o.breakdown)})</small></p>'
           f'<p>Middle 90%: <strong>{lo}</strong> to <strong>{hi}</strong>, half the time {med} or more · '
           f'total 1+: {_pc(o.at_least(1))} · 100+: {_pc(o.at_least(100))}</p>'
           + _bars(buckets, f"attack total from {start} to {stop - 1}, in steps of {step}", 240, 32)
           + f'<p class="odds-axis"><span>{start}</span><span>{stop - 1}</span></p>')
    if o.table_loaded:
        rows = "".join(
            f'<tr><td>{esc(_range(b["min"], b["max"]))}</td><td>{esc(b["hits"])} hits'
            + (f', critical {esc(b["critical"])}' if b.get("critical") else "") + f'</td><td>{_pc(b["chance"])}</td></tr>'
            for b in o.bands)
        if o.unmatched:
            rows += f'<tr><td>no row</td><td>the GM enters it</td><td>{_pc(o.unmatched)}</td></tr>'
        out += ('<table class="odds-bands"><caption>The GM\'s attack table</caption><thead><tr><th scope="col">Total'
                '</th><th scope="col">Result</th><th scope="col">Chance</th></tr></thead>'
                f'<tbody>{rows}</tbody></table>')
    else:
        out += '<p class="hint">No attack table loaded: the GM reads the total on their own table.</p>'
    if o.notes:
        out += '<ul class="odds-notes">' + "".join(f"<li>{esc(n)}</li>" for n in o.notes) + "</ul>"
    return out + "</div>"


def _range(lo: Any, hi: Any) -> str:
    if lo is None and hi is None:
        return "any"
    if lo is None:
        return f"{hi} or less"
    if hi is None:
        return f"{lo} or more"
    return f"{lo} to {hi}"


# -- range-band style: a roll specification under an assumed mechanic --------------------------------

def spec_html(o: Any) -> str:
    """A roll specification's odds (``range_band.odds.SpecOdds``)."""
    assumed = (' <span class="odds-assumed">assumed default mechanic</span>' if o.assumed else "")
    return ('<div class="odds-box odds-spec">'
            f'<p class="odds-head"><strong>Odds</strong>{assumed} <span class="odds-method" title="{esc(o.method)}">'
            f'exact</span></p>'
            f'<p>Success {_pc(o.success)} · by 10 or more {_pc(o.by_10)}'
            + (f' · blunder {_pc(o.blunder)}' if o.blunder else "")
            + (f' <small>({esc(o.dice)})</small>' if o.dice else "") + "</p></div>")


# -- page glue ----------------------------------------------------------------------------------------

_state: dict[str, Any] = {"installed": False}


def refresh_soon(app: Any) -> None:
    """After this render is painted, fill every odds slot on the page; listen for option changes.

    The odds wait for the frame after the render (requestAnimationFrame), then for the page to
    have drawn nothing for ``QUIET_MS``: the GM sees the action's result first, and working out a
    defender's four alternatives (10-25 ms in the page) never delays it, nor the next tap of a burst
    (Next, Next, Next through the strike ranks): a burst asks for one refresh, of the forms it
    stops at."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_once_callable  # type: ignore[import-not-found]

    if not _state["installed"]:
        _state["installed"] = True
        app._listen(js.document, "change", lambda e: _on_change(app, e))
        app._listen(js.document, "input", lambda e: _on_change(app, e))
        # a fold-out marked ``data-odds-lazy`` (a strike-rank attack waiting its turn at this SR):
        # its odds are worked out when it opens, not on every render while nobody can see them
        app._listen(js.document, "toggle", lambda e: _on_toggle(app, e), capture=True)
    _state["asked"] = js.performance.now()  # the last render: the quiet is counted from it
    if _state.get("soon"):
        return
    _state["soon"] = True

    ran = [False]

    def run(wait: bool = True) -> None:
        if ran[0]:
            return
        quiet = js.performance.now() - _state["asked"]
        if quiet < QUIET_MS:  # drawn again meanwhile: wait for the quiet after that render
            js.setTimeout(create_once_callable(lambda: run(wait)), QUIET_MS - quiet)
            return
        # The autosave's commit first: its callback would otherwise wait behind the odds, and the
        # header would say "Saving…" 20-50 ms longer. A write that takes longer than SAVE_FIRST_MS
        # (a busy disk, a blocked database) does not hold the odds back any further.
        writer = getattr(app, "_writer", None)
        if wait and writer is not None and not writer.done():
            writer.add_done_callback(lambda _f: js.setTimeout(create_once_callable(lambda: run(False)), 0))
            js.setTimeout(create_once_callable(lambda: run(False)), SAVE_FIRST_MS)
            return
        ran[0] = True
        _state["soon"] = False
        refresh(app)

    js.requestAnimationFrame(create_once_callable(lambda _t: js.setTimeout(create_once_callable(run), QUIET_MS)))


# how long the odds wait for the autosave's commit before they are worked out anyway (refresh_soon)
SAVE_FIRST_MS = 500
# How long the page must have drawn nothing before the odds are worked out (refresh_soon): longer
# than the gap between two taps of a burst, too short for a GM reading the new form to notice.
# With none, clicks made one right after another (30 strike-rank combatants, a Next and a note
# in turn) each waited behind the odds of the form before: a note's median 24.9 ms against 17.8
# with no odds at all (docs/performance.md, "Kept: the odds wait for a quiet page").
QUIET_MS = 120


def _on_change(app: Any, event: Any) -> None:
    from .dom import nil

    t = nil(event.target)
    if t is None or str(getattr(t, "name", "") or "").startswith("rolls."):
        return  # typed dice do not change the odds
    form = nil(t.closest("form")) if hasattr(t, "closest") else None
    if form is not None and nil(form.querySelector("[data-odds]")) is not None:
        refresh(app, form)


def _on_toggle(app: Any, event: Any) -> None:
    from .dom import nil

    d = nil(event.target)
    if (d is None or not getattr(d, "open", False) or not hasattr(d, "hasAttribute")
            or not d.hasAttribute("data-odds-lazy")):
        return
    for slot in d.querySelectorAll("form [data-odds]"):
        form = nil(slot.closest("form"))
        if form is not None and _shown(form):
            refresh(app, form)


def _shown(form: Any) -> bool:
    """Not inside a shut fold-out that says its odds wait until it opens (``_on_toggle``)."""
    from .dom import nil

    return nil(form.closest("details[data-odds-lazy]:not([open])")) is None


def _data_of(form: Any) -> tuple[tuple[str, str], ...]:
    """A form's ``data-*`` attributes (the attack they stand for: ref, attacker, weapon)."""
    return tuple((str(n), str(form.getAttribute(n))) for n in form.getAttributeNames() if str(n).startswith("data-"))


def refresh(app: Any, only: Any = None) -> None:
    """Work out and write the odds of each form with a slot (or of ``only``)."""
    import traceback

    from .dom import data, document, nil
    from .forms import form_values
    from .panels import hook, panel_for

    panel = panel_for(app.enc.ruleset)
    if hook(panel, "odds") is None:
        return
    # the slots, then their forms: not every form of the page (a strike-rank card holds six)
    # (and of a form in a shut fold-out marked data-odds-lazy, only once it opens)
    forms = [only] if only is not None else [f for f in (nil(s.closest("form")) for s in
                                                          document.querySelectorAll("form [data-odds]"))
                                             if f is not None and _shown(f)]
    enc = app.enc
    # what the odds are worked out from besides the form: the engine shares every combatant, table
    # and state entry an action left alone, so ``is`` tells that nothing the odds read has changed
    shared = (*enc.combatants, None, *enc.tables.values(), None, *enc.state.values())
    kept = _state.setdefault("odds", {})
    for form in forms:
        slot_el = nil(form.querySelector("[data-odds]")) if form is not None else None
        if slot_el is None:
            continue
        name, values = data(form, "form") or "", form_values(form)
        asked = (enc.ruleset, enc.round, enc.phase, enc.turn, name,
                 tuple(sorted((k, str(v)) for k, v in values.items())), _data_of(form))
        held = kept.get(asked)
        if held is not None and len(held[0]) == len(shared) and all(a is b for a, b in zip(held[0], shared)):
            html = held[1]
        else:
            try:
                html = panel.odds(app, name, form, values) or ""
            except Exception as e:  # noqa: BLE001 - the odds must never break the form they sit in
                traceback.print_exc()
                html = f'<p class="odds-none">No odds: {esc(e)}</p>'
            if len(kept) > 32:  # the forms on the page now, and a few before
                kept.clear()
            kept[asked] = (shared, html)
        opened = {d.getAttribute("data-odds-fold") for d in slot_el.querySelectorAll("details[open]")}
        for key in opened:
            html = html.replace(f'data-odds-fold="{key}"', f'data-odds-fold="{key}" open', 1)
        # compared with what was last written into this slot (kept on the element), not with its
        # innerHTML: the browser serialises markup its own way, so that never matched and every
        # render rewrote the odds table (215 nodes at a 30-combatant strike-rank note)
        if getattr(slot_el, "frayOdds", None) != html:
            slot_el.innerHTML = html
            slot_el.frayOdds = html
