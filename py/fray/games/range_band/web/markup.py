"""The range-band panel's markup, its parts in order (``rolls``, ``turn``, ``zone``, ``order``, ``end``
draw them); the card is ``card.py``. Pure: the ruleset's ``view()`` in, markup out."""

from __future__ import annotations

from typing import Any

from fray.web.blocks import Block
from fray.web.html import Markup, block, h
from fray.games.range_band.web.end import battle_end_html
from fray.games.range_band.web.order import hold_html, round_html
from fray.games.range_band.web.rolls import notes_html, pending_html
from fray.games.range_band.web.turn import actions_html, movement_html
from fray.games.range_band.web.zone import areas_html, zone_html
from fray.web.widgets import combatant_in as _combatant
from fray.games.range_band.web.ui import RangeBandUi


def panel_html(view: dict[str, Any], ui: dict[str, Any] | None = None,
               positions: dict[str, tuple[float, float, float]] | None = None) -> Block:
    ui = ui or RangeBandUi()
    phase = view.get("phase", {}).get("id", "setup")
    cur = _combatant(view, view.get("current"))
    acting: Markup = Markup("")
    if cur is not None and phase == "movement":
        acting = movement_html(view, cur, (positions or {}).get(cur["id"], (0.0, 0.0, cur["altitude"]["metres"])))
    elif cur is not None and phase == "actions":
        acting = actions_html(view, cur, ui, positions)
    # a Block (web/blocks.py), one child per part: a move rewrites the acting form and the round,
    # not the zone's and the areas' forms. What happens now (the rolls to settle, the acting
    # form) comes first, on the first screen of a tablet (issue 33); the zone, the areas and the
    # turn order (twelve rows at 12 combatants) follow.
    return block("section", {"class": "rb-panel", "aria-labelledby": "rb-h"}, [
        _HEADING, hold_html(view, ui),
        pending_html(view), notes_html(view, ui), acting,
        zone_html(view, ui.zone_open or phase == "setup"),
        areas_html(view, ui.areas_open), round_html(view, ui),
        battle_end_html(view, ui)])


_HEADING = h("h2", {"id": "rb-h", "class": "visually-hidden"}, "Range-band round")
