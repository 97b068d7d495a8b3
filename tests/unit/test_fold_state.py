"""Rendering reads no page (issue 34: "UI state is typed, each panel owning its part; ... rendering
reads no DOM"): each fold-out's open or shut state is in the page's view state (``ui.folds``), kept
by the toggle listener and by each render, and the panels draw from it.
"""

from __future__ import annotations

import random

import pytest

from fray.errors import FrayError
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from test_conformance import PageApp, combatants, no_page  # noqa: F401 - no_page: a fixture

GAMES = ("strike-rank", "tactical-round", "range-band")


def fight(gid: str, nexts: int) -> History:
    rs = get_ruleset(gid)
    h = History(new_encounter(gid, "Folds"))
    for i, c in enumerate(combatants(rs)):
        h.do({"type": "add_combatant", "combatant": {**c, "position": {"x": 2 * i, "y": 0}}}, random.Random(1))
    for step in range(nexts):
        try:
            h.do({"type": "advance"}, random.Random(step))
        except FrayError:
            break
    return h


def draw(app: PageApp, panel) -> dict[str, tuple[bool, bool]]:
    """The panel and every open card drawn as the painter does: the fold-outs as drawn."""
    from fray.web import widgets

    drawn: dict[str, tuple[bool, bool]] = {}
    widgets.drawing(drawn)
    try:
        view = app.ruleset.view(app.enc)
        panel.panel(app, view)
        for c in app.enc.combatants:
            panel.card_extra(app, c.id, view)
    finally:
        widgets.drawing(None)
    app.ui.folds = {k: o for k, (o, _) in drawn.items()}  # as Painter.render keeps them
    app.ui.folds_drawn = {k for k, (_, d) in drawn.items() if d}
    return drawn


@pytest.mark.parametrize("gid", GAMES)
def test_the_panels_draw_each_fold_out_from_the_view_state_never_from_the_page(gid, no_page, monkeypatch):
    """Through a few Nexts of each game: the page is never read while drawing (``fold_states``
    refuses), every fold-out drawn shut that the GM opens (``ui.folds``, as the toggle listener
    keeps it) is drawn open by the next render, and shut again when the GM shuts it."""
    from fray.web import dom
    from fray.web.panels import panel_for
    from fray.web.uistate import UiState

    def refuse(selector: str) -> dict:
        raise AssertionError(f"the page was read while drawing: {selector}")

    monkeypatch.setattr(dom, "fold_states", refuse)
    panel = panel_for(gid)
    flipped = 0
    for nexts in range(4):
        app = PageApp(get_ruleset(gid), fight(gid, nexts))
        app.ui = UiState()
        shut = [k for k, (o, _) in draw(app, panel).items() if not o]
        for k in shut:
            app.ui.folds[k] = True  # the GM opened it (App.on_toggle)
        again = draw(app, panel)
        opened = [k for k in shut if again.get(k, (False,))[0]]
        flipped += len(opened)
        for k in opened:
            app.ui.folds[k] = False  # and shut it
        assert not [k for k in opened if draw(app, panel).get(k, (False,))[0]], "shut by the GM, drawn open"
    assert flipped, f"{gid}: no fold-out followed the view state"


def test_range_band_learns_the_screen_width_from_the_state_not_the_page(no_page, monkeypatch):
    """The range-band panel folds its turn order on a tablet. It used to ask the page
    (``window.matchMedia``) while drawing; the page now keeps the width in its state (``App.narrow``,
    learnt by a listener), and drawing reads that."""
    import sys

    from fray.web.panels import panel_for

    class Window:
        def __getattr__(self, name):
            raise AssertionError(f"the render read window.{name}")

    monkeypatch.setattr(sys.modules["js"], "window", Window(), raising=False)
    rs = get_ruleset("range-band")
    panel = panel_for("range-band")
    for narrow in (True, False):
        app = PageApp(rs, fight("range-band", 2))
        app.narrow = narrow
        panel.panel(app, rs.view(app.enc))
        assert app.ui.part(panel).narrow is narrow
