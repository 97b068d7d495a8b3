"""Moves in the tracker that are not a form: an entry of the order strip opens its card and brings
it under the sticky head, and ▲ / ▼ (Alt+Arrow in the strip) swap equals in the order of play.
``App`` (web/app.py) inherits this.
"""

from __future__ import annotations

from typing import Any

import js  # type: ignore[import-not-found]

from .dom import by_id, q
from .messages import css_string as _css

document = js.document


class TrackerMoves:
    def nudge_order(self, cid: str, step: int, scope: Any = None) -> None:
        """▲ / ▼ (and Alt+Arrow in the order strip): swap with the neighbour in the order; the
        engine refuses, at ``scope``, unless the two are equals."""
        ids = []
        for s in self.ruleset.order_of_play(self.enc):
            if s.combatant_id not in ids:
                ids.append(s.combatant_id)
        if cid not in ids:
            return
        j = ids.index(cid) + step
        if not 0 <= j < len(ids):
            return
        self.settle_tie(cid, "before" if step < 0 else "after", ids[j], scope or by_id("ruleset-panel"))

    def settle_tie(self, cid: str, where: str, other: str, scope: Any = None) -> bool:
        return self.dispatch({"type": "settle_tie", "id": cid, where: other}, scope or by_id("order-strip"))

    def open_card(self, cid: str | None) -> None:
        """An entry of the order strip: open that combatant's card and bring it just under the
        sticky head, its name focused."""
        if not cid or self.enc.get(cid) is None:
            return
        self.ui.card_open[cid] = True
        self.render()
        card = q(document, f'#combatants article[data-id="{_css(cid)}"]')
        if card is None:
            return
        head = by_id("tracker-head")
        above = head.getBoundingClientRect().height if head is not None else 0
        if not above:  # on a laptop the head's parts stand in the grid: only the round bar sticks
            bar = by_id("round-bar")
            above = bar.getBoundingClientRect().height if bar is not None else 0
        top = card.getBoundingClientRect().top + js.window.scrollY - above - 8
        js.window.scrollTo(0, max(0, top))
        toggle = q(card, ".card-toggle")
        if toggle is not None:
            toggle.focus(js.Object.fromEntries([["preventScroll", True]]))
