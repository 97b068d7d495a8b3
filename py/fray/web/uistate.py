"""The page's view state: what the GM opened, picked or is part-way through, never saved.

``UiState`` holds the page's own part (the cards the GM opened, the map's selection and view,
the history list's length, an import waiting for the GM's choice) and one part per game, which
the game's panel declares (``panel.ui_type``, a dataclass) and alone reads and writes
(``part``). A fresh one comes with every encounter opened; nothing in it outlives the tab.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class UiState:
    card_open: dict[str, bool] = field(default_factory=dict)  # the GM's open / folded cards (render.card_open)
    selected: str | None = None  # the map's selected token (web/mapctl.py)
    group: list[str] | None = None  # the tokens picked to move together
    several: bool = False  # "Select several" is on
    map_view: list[float] | None = None  # the GM's own pan and zoom
    map_fit: list[float] | None = None  # the fitted view kept while it shows everyone (mapview.view_for)
    history_shown: int | None = None  # entries of the history list shown (None: its first page)
    pending_import: tuple | None = None  # (history, key, verdict): an import waiting for the GM's choice
    # Each fold-out the page keeps open or shut (``data-fold``: its key) as the page shows it: as the
    # last render drew it, or as the GM has toggled it since (``App.on_toggle``). Rendering reads it
    # here, never from the page; ``folds_drawn``: those drawn with their body (``data-fold-drawn``).
    folds: dict[str, bool] = field(default_factory=dict)
    folds_drawn: set[str] = field(default_factory=set)
    game: Any = None  # the open game's own part (``part``)

    def part(self, panel: Any) -> Any:
        """``panel``'s own part of the state: an instance of its ``ui_type``, made on first use (and
        made anew when another game's part is held); None for a panel that declares none."""
        kind = getattr(panel, "ui_type", None)
        if kind is None:
            return None
        if not isinstance(self.game, kind):
            self.game = kind()
        return self.game
