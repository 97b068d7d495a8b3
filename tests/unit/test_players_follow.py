"""Who writes the players' window, and in what order (issue 12: the players' view "follows every
change within a frame"; "a reload of either restores it"; "It never shows the GM's notes, dice
typed but not yet applied, or hidden combatants' positions").

The GM's window writes straight into the players' window it holds a handle on, and the players'
window draws what the channel brings: ``players_follow`` keeps the two in order by stamp."""

from __future__ import annotations

from fray import players
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web import players_follow as PF
from fray.web.players_render import players_html


class Element:
    """A stand-in for the players' window's root: what the page's code reads and writes of it."""

    def __init__(self) -> None:
        self.innerHTML = '<p class="pv-wait">Waiting</p>'
        self.attrs: dict[str, str] = {}
        self.writes = 0

    def getAttribute(self, name: str):  # noqa: N802 - the DOM's name
        return self.attrs.get(name)

    def setAttribute(self, name: str, value: str) -> None:  # noqa: N802
        self.attrs[name] = value
        self.writes += 1


class DocumentElement:
    def __init__(self, view: str | None) -> None:
        self.view = view

    def getAttribute(self, name: str):  # noqa: N802
        return self.view if name == "data-view" else None


class Document:
    def __init__(self, view: str | None, root: Element | None) -> None:
        self.documentElement = DocumentElement(view)
        self.root = root

    def getElementById(self, i: str):  # noqa: N802
        return self.root if i == PF.ROOT_ID else None


class Window:
    def __init__(self, doc: Document | None, closed: bool = False) -> None:
        self._doc = doc
        self.closed = closed

    @property
    def document(self):
        if self._doc == "foreign":
            raise PermissionError("SecurityError: Blocked a frame from accessing a cross-origin frame")
        return self._doc


def test_a_later_drawing_of_the_same_gm_page_replaces_an_earlier_one_never_the_reverse():
    """"follows every change": each change is drawn; a late broadcast of an older one is not."""
    root = Element()
    assert PF.write(root, "<p>one</p>", PF.stamp(1000.5, 1))
    assert PF.write(root, "<p>two</p>", PF.stamp(1000.5, 2))
    assert not PF.write(root, "<p>one</p>", PF.stamp(1000.5, 1))  # the broadcast of change 1, late
    assert not PF.write(root, "<p>two</p>", PF.stamp(1000.5, 2))  # and change 2's, already written
    assert root.innerHTML == "<p>two</p>" and root.getAttribute(PF.SEQ_ATTR) == PF.stamp(1000.5, 2)


def test_counts_compare_as_numbers():
    root = Element()
    PF.write(root, "9", PF.stamp(5.0, 9))
    assert PF.write(root, "10", PF.stamp(5.0, 10))  # not "10" < "9" as text
    assert root.innerHTML == "10"


def test_a_reloaded_gm_page_is_heard_though_it_counts_from_one_again():
    """"a reload of either restores it": the GM's window reloaded counts its drawings from 1."""
    root = Element()
    PF.write(root, "old page", PF.stamp(1000.0, 57))
    assert PF.write(root, "new page", PF.stamp(2000.0, 1))
    assert root.innerHTML == "new page"


def test_anything_stamped_replaces_the_drawing_from_the_store_and_nothing_unstamped_does():
    """The players' window's own drawing from the saved encounter carries no stamp: whatever the GM
    sends is newer; a drawing without a stamp (or with a broken one) is never written over it."""
    root = Element()
    assert PF.painted(root) is None
    assert PF.newer(PF.stamp(1.0, 1), None)
    assert not PF.newer(None, None) and not PF.newer("garbage", None) and not PF.newer("1.0:x", None)
    assert PF.newer(PF.stamp(1.0, 1), "garbage")  # a root whose stamp is unreadable takes the GM's word
    assert not PF.write(root, "<p>unstamped</p>", None) and root.writes == 0


def test_players_root_is_found_only_in_a_players_view_that_has_drawn_its_root():
    """The GM's window writes only where the players' window has made its root: never into a page
    still booting (it still has the GM's layout), a closed window, or one gone to another origin."""
    root = Element()
    assert PF.players_root(Window(Document("players", root))) is root
    assert PF.players_root(None) is None
    assert PF.players_root(Window(Document("players", root), closed=True)) is None
    assert PF.players_root(Window(Document(None, root))) is None  # not (yet) the players' view
    assert PF.players_root(Window(Document("players", None))) is None  # booting: no root yet
    assert PF.players_root(Window("foreign")) is None
    assert PF.players_root(Window(None)) is None


def test_what_the_gm_writes_is_the_projection_only():
    """"It never shows the GM's notes ... or hidden combatants' positions": what the GM's window
    writes into the players' window is ``players_html`` of the projection, so a hidden combatant
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
    root = Element()
    assert PF.write(root, players_html(p), PF.stamp(3.0, 1))
    assert "Bran" in root.innerHTML
    assert "Ambusher" not in root.innerHTML and 'data-id="c2"' not in root.innerHTML
    assert "GMSECRET" not in root.innerHTML
