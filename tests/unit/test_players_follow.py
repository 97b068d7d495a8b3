"""Who writes the players' window, and in what order (issue 12: the players' view "follows every
change within a frame"; "a reload of either restores it"; "It never shows the GM's notes, dice
typed but not yet applied, or hidden combatants' positions").

The GM's window hands its drawing to the players' window it holds a handle on
(``frayPlayersDraw``, static/players.js), which writes it only when its stamp is newer than what is
there; the channel's drawings go through the same function. Which is newer is players.js's, and
is tested in that window (tests/e2e/test_players_follow.py); here, the GM's side."""

from __future__ import annotations

from fray import players
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web import players_follow as PF
from fray.web.players_render import players_html


class PlayersWindow:
    """A stand-in for the players' window as the GM's window sees it: its script's two functions,
    once that script has run."""

    def __init__(self, booted: bool = True, closed: bool = False, foreign: bool = False) -> None:
        self.closed = closed
        self.foreign = foreign
        self.drawn: list[tuple[str, str]] = []
        if booted:
            self.frayPlayersDraw = self._draw  # noqa: N815 - players.js's name
            self.frayPlayersPainted = lambda: self.drawn[-1][1] if self.drawn else None  # noqa: N815

    def _draw(self, html: str, seq: str) -> bool:
        self.drawn.append((html, seq))
        return True

    def __getattribute__(self, name: str):
        if name.startswith("fray") and object.__getattribute__(self, "foreign"):
            raise PermissionError("SecurityError: Blocked a frame from accessing a cross-origin frame")
        return object.__getattribute__(self, name)


def test_stamps_name_the_gm_page_and_its_count():
    assert PF.stamp(1000.5, 7) == "1000.500:7"


def test_the_gm_draws_only_into_a_players_view_whose_script_has_run():
    """The GM's window draws only where the players' window's script is there to write it: never
    into a page still booting, a closed window, or one gone to another origin."""
    win = PlayersWindow()
    draw = PF.drawer(win)
    assert draw is not None and draw("<p>x</p>", PF.stamp(1.0, 1)) is True and win.drawn == [("<p>x</p>", "1.000:1")]
    assert PF.painted(win) == "1.000:1"
    assert PF.drawer(None) is None
    assert PF.drawer(PlayersWindow(closed=True)) is None
    assert PF.drawer(PlayersWindow(booted=False)) is None
    assert PF.drawer(PlayersWindow(foreign=True)) is None
    assert PF.painted(PlayersWindow()) is None  # nothing the GM sent drawn yet
    assert PF.painted(PlayersWindow(booted=False)) is None and PF.painted(PlayersWindow(foreign=True)) is None


def test_what_the_gm_writes_is_the_projection_only():
    """"It never shows the GM's notes ... or hidden combatants' positions": what the GM's window
    sends the players' window is ``players_html`` of the projection, so a hidden combatant
    and a note are not in it."""
    h = History(new_encounter("freeform", "Bridge"))
    h.do({"type": "add_combatant", "combatant": {"name": "Bran", "side": "party", "stats": {"initiative": 14},
                                                  "notes": "GMSECRET the ferry", "position": {"x": 1.0, "y": 2.0}}})
    h.do({"type": "add_combatant", "combatant": {"name": "Ambusher", "side": "foes", "stats": {"initiative": 9},
                                                  "position": {"x": 41.0, "y": 77.0}}})
    h.do({"type": "players.hide", "id": "c2", "hidden": True})
    enc = h.present
    rs = get_ruleset(enc.ruleset)
    p = players.project(enc, rs.view(enc), rs.order_of_play(enc))
    html = players_html(p)
    assert "Bran" in html
    assert "Ambusher" not in html and 'data-id="c2"' not in html
    assert "GMSECRET" not in html
