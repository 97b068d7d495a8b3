"""Drawing the page from the encounter: every region as one HTML string, written only when it changed.

``App`` (web/app.py) inherits this. A render builds each region's markup with the pure functions
of ``web/render.py`` and the ruleset's panel, and writes a region only when its markup differs
from what was last written there, so a half-typed entry in an untouched region survives and the
browser re-parses only what moved.

The combatant cards are most of the page (a strike-rank card holds the body diagram, weapons and
the GM's forms: some 40 KB of markup at 200 combatants), and one action changes one or two of
them. So each card's markup is kept with what it was made from: the combatant (the engine shares
an unchanged combatant between states, ``fray/sharing.py``, so ``is`` tells it is the same), whether
it acts now and is open, its status, and the panel's own inputs for that card
(``Panel.card_key``, when the panel has one; else the panel's markup itself). A card whose inputs
are the same is not built again.
"""

from __future__ import annotations

import traceback
from typing import Any, Callable

import js  # type: ignore[import-not-found]

from . import mapctl
from . import render as R
from . import history_view
from . import game_style
from .blocks import ascii_html, patch_region
from .writes import Node, Writes
from . import widgets
from .html import Markup, h
from .dom import by_id, nil, page_function
from .panels import hook, panel_for
from fray.games import game_installed

document = js.document


# A save of an earlier Fray whose rules now play some of its actions otherwise (savefile._other_edition)
EDITION_NOTE = ("This encounter was saved by an earlier version of Fray, whose rules played some of its actions "
                "differently. It opens as it was saved; Undo starts from here.")

class Painter:
    _painted: dict[str, Any]
    # cid -> (combatant, the rest of the card's inputs, its markup, its fold-outs as drawn): see the
    # module's docstring
    _card_memo: dict[str, tuple[Any, tuple, str, dict[str, tuple[bool, bool]]]]
    _view_kept: dict[str, dict[str, Any]]  # ruleset id -> what its view_kept reuses from the last render
    _keeping: bool  # App.start sets it: from then on each render is kept for the next first paint
    _props: dict[tuple[str, str], Any]  # (element id, property) -> the value last set (paint_prop)
    _writes: Writes | None = None  # a render's writes, recorded (web/writes.py); None: straight into the page
    _whole: dict[str, Callable[[], str]] = {}  # region -> its markup whole, for a region the page could not patch

    # -- rendering ------------------------------------------------------------------------------
    def render(self) -> None:
        """Draw every region. A region that fails to draw says so in the banner; the encounter
        (already saved) is not touched by drawing."""
        h = self.history
        if h.other_edition:  # told once, whichever way the save was opened (boot, list, import)
            h.other_edition = False
            self.banner(EDITION_NOTE)
        drawn: dict[str, tuple[bool, bool]] = {}
        widgets.drawing(drawn)  # each fold-out as this render draws it (a kept card's: as it was drawn)
        # the regions' writes recorded and made in one call (web/writes.py), where the page has it
        self._writes = Writes() if page_function("frayWrite") is not None else None
        self._whole = {}
        try:
            self._render()
        except Exception as e:  # noqa: BLE001 - a drawing bug must not blank the page
            traceback.print_exc()
            self.banner(f"Part of the page could not be drawn ({type(e).__name__}: {e}). "
                        "The encounter is saved; Undo, Export or switching encounters still work.")
        finally:
            widgets.drawing(None)
            self.flush_writes()  # what was drawn before a failure is on the page, as _painted says
        # the fold-outs as this render left the page (App.on_toggle: a toggle that differs is the
        # GM's); those no longer drawn are let go
        self.ui.folds = {k: o for k, (o, _) in drawn.items()}
        self.ui.folds_drawn = {k for k, (_, d) in drawn.items() if d}
        self.keep_paint()

    def keep_paint(self) -> None:
        """Keep what the page shows, for the next boot to show at once before Python is ready
        (static/first-paint.js). The script waits a moment after the last render, then for the
        browser to be idle, so a burst of clicks writes it once and never inside a click's frame;
        a page that is closed meanwhile writes it as it goes."""
        if not getattr(self, "_keeping", False):
            return
        try:
            js.globalThis.frayKeepPaintSoon(self.key)  # the drawing stays in JavaScript
        except Exception:  # noqa: BLE001 - no first-paint script: the next boot just paints later
            pass

    def _render(self) -> None:
        enc, rs = self.enc, self.ruleset
        try:
            # the views of combatants no action touched are the last render's (``Ruleset.view_kept``)
            view = rs.view_kept(enc, self._view_kept.setdefault(enc.ruleset, {}))
            order = rs.order_of_play(enc)
        except Exception:
            traceback.print_exc()
            view, order = {}, []
        panel = panel_for(enc.ruleset)
        game_style.use(rs)  # the game's stylesheet, before anything of the game is drawn
        active = nil(document.activeElement)
        focus_id = active.id if active is not None else ""
        self.paint_select()
        undo_title, redo_title = history_view.undo_title(self.history)
        self.paint_prop("ruleset-badge", "textContent", rs.name)
        self.paint_prop("btn-undo", "disabled", not self.history.can_undo)
        self.paint_prop("btn-redo", "disabled", not self.history.can_redo)
        self.paint_prop("btn-history", "disabled", not self.history.actions)
        self.paint_prop("btn-undo", "title", undo_title)
        self.paint_prop("btn-redo", "title", redo_title)
        self.paint("round-bar", R.round_bar(enc, order, rs, view, turn_based=panel is None))
        # A ruleset panel shows its own order of play (strike ranks, phases) with its tie controls.
        self.paint("ruleset-panel", panel.panel(self, view) if panel else R.order_list(enc, order))
        current_id = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
        waiting = rs.still_to_act(enc, order)  # a game of phases: "now" is who has yet to act (issue 33)
        if waiting is not None:
            current_id = waiting[0] if waiting else None
        status = {}
        for c in enc.combatants:
            try:
                status[c.id] = rs.status(enc, view, c.id)
            except Exception:  # a summary that cannot be drawn must not cost the card
                traceback.print_exc()
        acting = enc.get(current_id) if current_id else None
        tag = "Acting"
        said = hook(panel, "acting")
        if said is not None:  # the panel's own word on who the line is about (strike-rank: "Declaring")
            tag, acting = said(self, view, acting)
            # one answer for the line, the strip's NOW and the card open as acting: with no action left
            # at the SR being resolved, nobody (the order's first slot waits for Next at a later SR)
            current_id = acting.id if acting is not None else None
        phase_label = getattr(rs, "slot_label_is_phase", False)
        self.paint("order-strip", R.order_strip(R.strip_entries(enc, order, status, current_id, phase_label, waiting),
                                                R.strip_heading(order, phase_label)))
        uses = getattr(panel, "uses", None) if panel and acting else None
        used = uses(self, acting.id, view) if uses is not None else []
        self.paint("acting-line", R.acting_line(acting, status.get(acting.id if acting else ""),
                                                used or self.holds(panel, acting, view), tag,
                                                "Uses" if used else "Holds"))
        self.paint("cards-tools", R.cards_tools(enc, self.ui, current_id))
        self.paint_cards([(c.id, self.card(enc, c, rs, panel, view, c.id == current_id, status.get(c.id)))
                          for c in enc.combatants], R.empty_state(enc))
        self.paint_log(R.log_entries(enc.log, words=getattr(rs, "ref_words", None)))
        if not getattr(self, "map_later", False):  # the first render over the kept drawing: App.start
            mapctl.render(self)
        self.flush_writes()  # before the focus goes back to the field the GM was in
        if focus_id:
            el = by_id(focus_id)
            if el is not None:
                el.focus()

    def card(self, enc: Any, c: Any, rs: Any, panel: Any, view: dict[str, Any], current: bool,
             status: dict[str, Any] | None) -> str:
        """One combatant's card, built again only when something it is made of changed."""
        mark = widgets.drawn_mark()  # its fold-outs are those drawn from here
        open_ = R.card_open(self.ui, c.id, current)
        key_of = hook(panel, "card_key")
        extra = None
        if not open_:  # a folded card shows its header only (render.combatant_card): nothing of the panel's
            own = extra = ""
        elif key_of is not None:
            own = key_of(self, c.id, view)
        else:  # a panel that does not say what its part is made of: its markup is the key
            own = extra = panel.card_extra(self, c.id, view) if panel else ""
        inputs = (enc.ruleset, current, open_, status, R.card_timers(enc, c, rs), own)
        memo = self._card_memo.get(c.id)
        if memo is not None and memo[0] is c and memo[1] == inputs:
            widgets.drawn_again(memo[3])  # its fold-outs are on the page as they were drawn
            return memo[2]
        if extra is None:
            extra = panel.card_extra(self, c.id, view)
        html = R.combatant_card(enc, c, rs, extra, current, open_, status)
        self._card_memo[c.id] = (c, inputs, html, widgets.drawn_since(mark))
        return html

    def holds(self, panel: Any, c: Any, view: dict[str, Any]) -> list[str]:
        """What the acting combatant holds, for its essentials line: the panel's word when it has
        one (the tactical-round weapon in hand), else every weapon of its sheet."""
        if c is None:
            return []
        own = hook(panel, "holds")
        if own is not None:
            return own(self, c.id, view)
        return [str(w["name"]) for w in c.data.get("weapons", []) if isinstance(w, dict) and w.get("name")]

    def paint_select(self) -> None:
        """The library list. Always re-written: the GM's own pick in it may have been refused (an
        unreadable save). The open encounter is listed even before its first write commits."""
        entries = list(self.lib.cached)
        if self.key not in [e["key"] for e in entries]:
            entries.append({"key": self.key, "name": self.enc.name})
        html = Markup("").join(
            h("option", {"value": x["key"], "selected": x["key"] == self.key},
              self.enc.name if x["key"] == self.key else x.get("name", x["key"]),
              None if x["key"] == self.key or game_installed(x.get("ruleset")) else " (game not installed)")
            for x in entries)
        sel = by_id("encounter-select")
        # the same list with the open encounter picked is left alone (twice per action otherwise:
        # the render and the commit); a refused pick leaves the select on another value: rewritten
        if self._painted.get("encounter-select") == html and str(sel.value) == self.key:
            return
        sel.innerHTML = ascii_html(html)
        self._painted["encounter-select"] = html

    def paint_prop(self, el_id: str, name: str, value: Any) -> None:
        """Set a property of one of the page's fixed elements only when it differs from what was
        last set: each write is a crossing into the page, and in WebKit every crossing leaves garbage
        until the next full collection (docs/performance.md); the toolbar changes far less often than
        it is drawn. ``App.start`` forgets these when it sets the toolbar itself."""
        key = (el_id, name)
        if self._props.get(key, self) != value:
            setattr(by_id(el_id), name, value)
            self._props[key] = value

    def region(self, region: str, whole: Callable[[], str]) -> Any:
        """The region to write into: during a render, its recorded writes (``whole``: its markup
        whole, should the page not hold what was last written there); else the page's element."""
        if self._writes is None:
            return by_id(region)
        self._whole[region] = whole
        return self._writes.region(region)

    def flush_writes(self) -> None:
        """Make the render's recorded writes in one call; write whole each region the page could
        not patch as recorded (it no longer held what was last written there)."""
        writes, self._writes = self._writes, None
        if writes is None:
            return
        for region in writes.flush(page_function("frayWrite")):
            whole = self._whole.get(region)
            el = by_id(region)
            if whole is not None and el is not None:
                el.innerHTML = ascii_html(whole())
        self._whole = {}

    def paint(self, region: str, html: str) -> None:
        """Write a region only when its markup changed: a GM's half-typed entry in an untouched
        region survives, and the browser re-parses only what moved."""
        old = self._painted.get(region)
        if old != html:
            # markup made as a Block (web/blocks.py) is patched: only its changed parts are written
            patch_region(self.region(region, lambda: html), old, html)
            self._painted[region] = html

    def paint_log(self, items: list[str]) -> None:
        """The log, latest first. An action adds a few lines on top: only those are written (and the
        oldest dropped past the limit), not 300 lines parsed and styled again on every tap."""
        before = self._painted.get("log")
        taken = R.log_taken(before, items)  # first: log_added takes any log of the same length as all new
        k = R.log_added(before, items) if taken is None else 0
        if taken is not None and before is not None:
            # an undo: the lines it takes back go, as a redo's come (a whole write parsed 300 lines again),
            # and at the limit the oldest lines they had pushed out come back at the bottom
            gone, back = taken
            root = self.region("log", lambda: "".join(items))
            if isinstance(root, Node):
                root.expect(len(before))  # the page holds the lines last written, else all are written
            for _ in range(gone):
                root.firstElementChild.remove()
            if back:
                root.insertAdjacentHTML("beforeend", ascii_html("".join(items[len(items) - back:])))
        elif k is None or k:
            root = self.region("log", lambda: "".join(items))
            if k is None:
                root.innerHTML = ascii_html("".join(items))
            else:
                root.insertAdjacentHTML("afterbegin", ascii_html("".join(items[:k])))
                if isinstance(root, Node):
                    root.trim(len(items))  # past the limit: the oldest go
                else:
                    for _ in range(root.childElementCount - len(items)):
                        root.lastElementChild.remove()
        self._painted["log"] = items

    def paint_cards(self, cards: list[tuple[str, str]], empty: str) -> None:
        """The combatant cards, replacing only the cards that changed (a token dragged on the map
        changes one card of fifty)."""
        before = self._painted.get("cards")
        root = self.region("combatants", lambda: "".join(h for _, h in cards) if cards else empty)
        live = {cid for cid, _ in cards}
        for cid in [k for k in self._card_memo if k not in live]:
            del self._card_memo[cid]  # removed, or another encounter's: never kept for nothing
        if not cards:
            root.innerHTML = ascii_html(empty)
        elif before is None or [i for i, _ in before] != [i for i, _ in cards]:
            root.innerHTML = ascii_html("".join(h for _, h in cards))
        else:
            if isinstance(root, Node):
                root.expect(len(before))  # the page holds the cards last written, else all are written
            nodes = root.children
            for k, ((cid, html), (_, old)) in enumerate(zip(cards, before)):
                if html is not old and html != old:
                    nodes.item(k).outerHTML = ascii_html(html)
        self._painted["cards"] = cards
