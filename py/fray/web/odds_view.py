"""The odds before rolling, beside a roll button: rendering, and the small bit of page glue that
keeps them current as the GM changes the options.

A panel puts ``slot()`` inside its attack form, calls ``refresh_soon(app)`` when it draws, and
answers ``odds(app, form_name, form, values)`` (its ``PanelHooks.odds``) with the HTML for the
options chosen right now, drawn by its game's own renderer (``fray/games/<game>/web/odds.py``)
from its engine's odds with the shared pieces here (``head``, ``bars``, ``pc``, ``none_box``,
``notes``). This module listens for ``input`` and ``change`` in any form holding a slot and asks
the panel again. Nothing here names a game, changes the encounter or rolls.

Rendering is pure (CPython tests call it) and built with ``fray.web.html`` (every piece of text
escaped); the bars are SVG attributes, not inline styles (the page's Content-Security-Policy
allows no inline style).
"""

from __future__ import annotations

from typing import Any

from ..chance import percent
from .blocks import Block, ascii_html
from .html import Markup, block, h, html


def slot() -> Block:
    """Where a form's odds go (filled by ``refresh``). A Block: markup to the builder, and a plain
    string to a panel that still adds strings (``"..." + slot()`` would escape a Markup's left side)."""
    return block("div", {"class": "odds", "data-odds": True}, html('<p class="hint">Working out the odds…</p>'))


def pc(x: Any) -> str:
    """A chance as the odds write it ("12.5%"), as text (the builder escapes it where it goes)."""
    return percent(x)


def bars(values: list[tuple[str, Any]], label: str, width: int = 220, height: int = 36) -> Markup:
    """A small histogram as SVG: one bar per (label, chance), tallest = full height."""
    if not values:
        return Markup("")
    top = max(float(p) for _, p in values) or 1.0
    bw = width / len(values)
    rects = []
    for i, (name, p) in enumerate(values):
        tall = max(0.0, float(p) / top * (height - 2))
        rects.append(html('<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}"><title>{}: {}</title></rect>',
                          i * bw + 0.5, height - tall, max(bw - 1, 0.5), tall, name, pc(p)))
    return h("svg", {"class": "odds-bars", "viewBox": f"0 0 {width} {height}", "width": width, "height": height,
                     "role": "img", "aria-label": label}, rects)


def head(method: str, title: str = "Odds before rolling", beside: Markup | str = "") -> Markup:
    """The odds box's first line: its title, then how they were worked out (``method``, on hover)."""
    return html('<p class="odds-head"><strong>{}</strong>{} <span class="odds-method" title="{}">exact</span></p>',
                title, beside, method)


def none_box(why: Any) -> Markup:
    """No odds, and why (in the GM's words)."""
    return html('<div class="odds-box"><p class="odds-none">No odds: {}</p></div>', why)


def notes(items: Any) -> Markup:
    """What the odds assumed or left out, one item each ("" for none)."""
    items = list(items)
    return h("ul", {"class": "odds-notes"}, [h("li", None, n) for n in items]) if items else Markup("")


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
            markup = held[1]
        else:
            try:
                markup = panel.odds(app, name, form, values) or ""
            except Exception as e:  # noqa: BLE001 - the odds must never break the form they sit in
                traceback.print_exc()
                markup = html('<p class="odds-none">No odds: {}</p>', e)
            if len(kept) > 32:  # the forms on the page now, and a few before
                kept.clear()
            kept[asked] = (shared, markup)
        opened = {d.getAttribute("data-odds-fold") for d in slot_el.querySelectorAll("details[open]")}
        for key in opened:
            markup = markup.replace(f'data-odds-fold="{key}"', f'data-odds-fold="{key}" open', 1)
        # compared with what was last written into this slot (kept on the element), not with its
        # innerHTML: the browser serialises markup its own way, so that never matched and every
        # render rewrote the odds table (215 nodes at a 30-combatant strike-rank note)
        markup = ascii_html(markup)  # (as every write of markup: blocks.ascii_html)
        if getattr(slot_el, "frayOdds", None) != markup:
            slot_el.innerHTML = markup
            slot_el.frayOdds = markup
