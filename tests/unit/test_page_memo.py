"""What the page skips redrawing (web/painter.py, web/mapctl.py): each memo's key must hold all
that the markup is made of, so a skipped card or map is exactly what drawing it again would give.

Checked on played fights (bench/fights.py: the rules build every state), action by action."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from fray.history import History
from fray.maprules import rule_for
from fray.games import get_ruleset
from fray.web import mapview
from fray.games.strike_rank.web.panel import StrikeRankPanel, card_html
from fray.web.uistate import UiState
from fray.games.tactical_round.web.ui import TacticalRoundUi

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "strike_rank"))
from sr_helpers import declare, duel, to_phase  # noqa: E402


class _App:
    def __init__(self, ui):
        self.ui = ui


def _states(ruleset: str, n: int, actions: int):
    whole = fights.fight(ruleset, n, actions, seed=5)
    h = History(whole.initial)
    for a in whole.actions:
        h.do(a)
        yield h.present


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round"])
def test_a_map_rule_that_reads_no_state_draws_the_same_map_whatever_the_state(ruleset):
    """``MapRule.state_keys = ()``: the map is not redrawn when only ``state`` changed, so its
    markup must not depend on it (tokens, rings, bands, engagements, the table)."""
    assert rule_for(ruleset).state_keys == ()
    for k, enc in enumerate(_states(ruleset, 6, 60)):
        if k % 7:
            continue
        for sel in (None, enc.combatants[0].id if enc.combatants else None):
            assert mapview.map_parts(enc, sel) == mapview.map_parts(replace(enc, state={}), sel)


def test_a_range_band_map_reads_the_state():
    """Range-band's sight reads the state (areas, light): its map is redrawn whenever it changes."""
    assert rule_for("range-band").state_keys is None


def _same(a, b) -> bool:
    return a[0] == b[0] and len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))


@pytest.mark.parametrize("ruleset", ["range-band", "strike-rank", "tactical-round"])
def test_a_note_leaves_the_maps_inputs_the_same_and_an_edit_of_what_it_reads_does_not(ruleset):
    """The map memo (``mapview.map_inputs``): a note changes nothing the map is drawn from, so
    the page skips the map; a change the map reads (a combatant moved, a new state value for a
    rule that reads the state, another selection or view) is a new key."""
    h = History(fights.fight(ruleset, 8, 60, seed=2).initial)
    for a in fights.fight(ruleset, 8, 60, seed=2).actions:
        h.do(a)
    v = [-10.0, -10.0, 20.0, 20.0]
    before = mapview.map_inputs(h.present, None, v)
    h.do({"type": "note", "text": "a note"})
    assert _same(before, mapview.map_inputs(h.present, None, v))
    assert not _same(before, mapview.map_inputs(h.present, h.present.combatants[0].id, v))
    assert not _same(before, mapview.map_inputs(h.present, None, [0.0, 0.0, 20.0, 20.0]))
    c = h.present.combatants[0]
    h.do({"type": "move", "id": c.id, "x": c.position.x + 5, "y": c.position.y})
    assert not _same(before, mapview.map_inputs(h.present, None, v))
    if rule_for(ruleset).state_keys is None:
        enc = h.present
        now = mapview.map_inputs(enc, None, v)
        edited = replace(enc, state={**enc.state, "areas": [*enc.state.get("areas", []), {}]})
        assert not _same(now, mapview.map_inputs(edited, None, v))


def test_a_strike_rank_card_with_the_same_key_has_the_same_markup():
    """``StrikeRankPanel.card_key``: from one state to the next, a card whose key is equal is drawn
    the same, fold-outs open or shut (``ui.open``)."""
    rs = get_ruleset("strike-rank")
    panel = StrikeRankPanel()
    rnd = random.Random(2)
    before: dict[str, tuple] = {}
    same = 0
    for enc in _states("strike-rank", 8, 150):
        view = rs.view(enc)
        folds = {f"{k}-{c.id}": rnd.random() < 0.3 for c in enc.combatants for k in ("care", "fight", "stuck")}
        app = _App(UiState())
        app.ui.part(panel).open = folds
        for c in enc.combatants:
            key = panel.card_key(app, c.id, view)
            html = card_html(c.id, view, app.ui.part(panel))
            if c.id in before and before[c.id][0] == key:
                same += 1
                assert before[c.id][1] == html
            before[c.id] = (key, html)
    assert same > 100  # most cards keep their key from one action to the next: the memo is used


# -- the strike-rank view's reuse (Ruleset.view_kept) --------------------------------------------------

def test_a_kept_strike_rank_view_is_the_view_drawn_afresh_and_drawing_it_edits_nothing():
    """``view_kept``: action by action through a played fight, the view that reuses the last one's
    combatants equals the view made from nothing, and stays equal after the panel and every card
    are drawn from it (a drawing that edited a shared view would show the next render stale)."""
    panel = StrikeRankPanel()
    from fray.games.strike_rank.web.panel import panel_html

    def draw(enc, view):
        app = _App(UiState())
        panel_html(view, app.ui.part(panel), [(e.kind, e.text) for e in enc.log[-80:]])
        for c in enc.combatants:
            panel.card_key(app, c.id, view)
            card_html(c.id, view, app.ui.part(panel))

    reused = _kept_views_through_a_fight("strike-rank", draw, lambda view: view["combatants"].items())
    assert reused > 400  # most combatants are untouched by an action: their view is the last one


def _kept_views_through_a_fight(ruleset: str, draw, combatants_of) -> int:
    """Action by action through a played fight: ``view_kept`` equals ``view`` before and after ``draw``
    draws the page's parts from it. How many combatants' views were the last state's own."""
    rs = get_ruleset(ruleset)
    kept: dict = {}
    reused = 0
    for enc in _states(ruleset, 8, 150):
        before = dict(kept)
        view = rs.view_kept(enc, kept)
        assert view == rs.view(enc)
        reused += sum(1 for cid, cv in combatants_of(view) if cid in before and before[cid][1] is cv)
        draw(enc, view)
        assert view == rs.view(enc)
    return reused


def test_a_kept_view_shows_an_edited_dex_sr_table():
    """FACTS.md (strike-rank): "DEX SR: DEX 1-5 → 5, 6-8 → 4, 9-12 → 3, ...". The GM's edit of that
    table is a new table object, so no combatant's kept view survives it: DEX 11 reads the new row."""
    from fray.reducer import apply

    rs = get_ruleset("strike-rank")
    enc = duel()
    kept: dict = {}
    cid = enc.combatants[0].id
    assert rs.view_kept(enc, kept)["combatants"][cid]["derived"]["dex_sr"]["value"] == 3
    table = {**rs.table(enc, "dex_sr"), "entries": [{"min": 1, "max": None, "sr": 4}]}
    enc, _ = apply(enc, {"type": "set_table", "table": "dex_sr", "value": table})
    assert rs.view_kept(enc, kept)["combatants"][cid]["derived"]["dex_sr"]["value"] == 4


def test_a_kept_view_shows_a_new_declaration_and_drops_a_removed_combatant():
    """A declared action is the declarer's: their view lists it at once; the other's view is reused.
    A combatant who leaves is not kept."""
    from fray.reducer import apply

    rs = get_ruleset("strike-rank")
    enc = to_phase(duel(), "declare")
    a, b = (c.id for c in enc.combatants)
    kept: dict = {}
    first = rs.view_kept(enc, kept)
    enc, _ = declare(enc, a, kind="melee", weapon="broadsword", target=b)
    second = rs.view_kept(enc, kept)
    assert [d["target"] for d in second["combatants"][a]["declared"]] == [b]
    assert second["combatants"][b] is first["combatants"][b]
    enc, _ = apply(enc, {"type": "remove_combatant", "id": b})
    rs.view_kept(enc, kept)
    assert set(kept) == {a}


# -- the tactical-round view's reuse ------------------------------------------------------------------

def test_a_kept_tactical_round_view_is_the_view_drawn_afresh_and_drawing_it_edits_nothing():
    """``view_kept`` (tactical-round): action by action through a played fight (declarations, the
    phases of the Tactical Round Sequence, attacks, reloading), the view that reuses the last one's
    combatants equals the view made from nothing, and stays equal after the panel and every card are
    drawn from it. Issue 11: at 200 combatants the whole view took 4.5 ms of CPython a render."""
    from fray.games.tactical_round.web import panel as trp

    def draw(enc, view):
        trp.panel_html(view, TacticalRoundUi())
        for c in enc.combatants:
            trp.card_html(view, c.id, TacticalRoundUi())

    reused = _kept_views_through_a_fight("tactical-round", draw,
                                         lambda view: ((cv["id"], cv) for cv in view["combatants"]))
    assert reused > 400  # most combatants are untouched by an action: their view is the last one


def test_a_kept_tactical_round_view_names_an_engaged_opponent_as_renamed_and_reloads_by_the_round():
    """FACTS.md (tactical-round): "Shooting into melee: engaged targets count as having Partial
    Cover", and "Disengage ends here" (Other Actions): the card names whom a combatant is engaged
    with, so renaming the opponent changes the view of one the edit did not touch; and "loaded this
    round" is by the round, so a new round is a new view."""
    from fray.reducer import apply, new_encounter

    rs = get_ruleset("tactical-round")
    enc = new_encounter("tactical-round", "Duel")
    for name, side in (("Ana", "party"), ("Orc", "foes")):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {"name": name, "side": side,
                                                                    "stats": {"DEF": 20, "HP": 30}}})
    a, b = (c.id for c in enc.combatants)
    ana = enc.combatants[0]
    enc = replace(enc, combatants=[replace(ana, data={**ana.data, "engaged_with": [b]}), enc.combatants[1]])
    kept: dict = {}
    first = rs.view_kept(enc, kept)
    assert first["combatants"][0]["engaged_with"] == [b]
    enc, _ = apply(enc, {"type": "edit_combatant", "id": b, "changes": {"name": "Grishnak"}})
    second = rs.view_kept(enc, kept)
    assert second == rs.view(enc)
    assert any("Grishnak" in x["text"] for x in second["combatants"][0]["conditions"])
    enc = replace(enc, round=enc.round + 1)
    third = rs.view_kept(enc, kept)
    assert third == rs.view(enc) and third["combatants"][0] is not second["combatants"][0]


def test_escaped_text_comes_from_the_memo_exactly_as_html_escape_gives_it():
    """The builder (``fray.web.html``) keeps what it escaped: the memo must give what ``html.escape``
    gives, for text, for values that are not text, and after it is cleared for being full; and a
    template's holes (a second memo, of plain strs) the same."""
    import html

    from fray.web import html as builder

    for v in ('<b onclick="x">Grr & co</b>', "O'Brien", 7, 7.0, True, None, "", "plain"):
        assert builder.escape(v) == html.escape(str(v), quote=True)
        assert builder.escape(v) == html.escape(str(v), quote=True)  # the second time from the memo
        assert builder.html("<i>{}</i>", v) == f"<i>{html.escape(str(v), quote=True)}</i>"
        assert builder.html("<i>{}</i>", v) == f"<i>{html.escape(str(v), quote=True)}</i>"
    was = builder._ESCAPED_MAX
    try:
        builder._ESCAPED_MAX = 3
        got = [builder.escape(f"<{i}>") for i in range(10)] + [builder.html("{}", f"<{i}>") for i in range(10)]
        assert got == [f"&lt;{i}&gt;" for i in range(10)] * 2
        assert len(builder._ESCAPED) <= 3 and len(builder._HOLES) <= 3
    finally:
        builder._ESCAPED_MAX = was


def test_a_drop_down_from_the_memo_is_the_one_built_afresh():
    """``widgets.select`` keeps each options list's markup: 1 and True (equal in Python) are
    different options, the selected one is marked in its own copy, and HTML in a label stays text."""
    from fray.web import widgets

    a = widgets.select("f", "n", [(1, "one"), ("x", "<b>X</b>")], 1)
    b = widgets.select("f", "n", [(True, "one"), ("x", "<b>X</b>")], 1)
    assert a == ('<select id="f" name="n"><option value="1" selected>one</option>'
                 '<option value="x">&lt;b&gt;X&lt;/b&gt;</option></select>')
    assert b == ('<select id="f" name="n"><option value="True">one</option>'
                 '<option value="x">&lt;b&gt;X&lt;/b&gt;</option></select>')
    c = widgets.select("g", "m", ((1, "one"), ("x", "<b>X</b>")), "x")
    assert c.count(" selected") == 1 and '<option value="x" selected>' in c and c.startswith('<select id="g" name="m">')
    assert widgets.select("f", "n", iter([("a", "A")])) == '<select id="f" name="n"><option value="a">A</option></select>'


def test_a_kept_status_and_strip_entry_are_the_ones_made_afresh_through_a_fight():
    """The strike-rank status of a combatant is kept while the combatant is the same object, and a
    strip entry's markup while its fields and status are the same: state by state through a played
    fight (wounds, bleeding, conditions, Next), what is kept is what drawing it afresh gives."""
    from fray.web import render as R

    h = fights.fight("strike-rank", 12, 120)
    rs = get_ruleset("strike-rank")
    checked, levels = 0, set()
    for i in range(0, len(h.actions) + 1, 3):
        enc = h.state_at(i)
        view = rs.view(enc)
        status = {c.id: rs.status(enc, view, c.id) for c in enc.combatants}
        for c in enc.combatants:
            if "hp" in c.data:
                assert status[c.id] == rs._status_of(c)
                levels.add(status[c.id]["level"])
        order = rs.order_of_play(enc)
        cur = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
        kept = R.order_strip(R.strip_entries(enc, order, status, cur))
        R._STRIP_ENTRY.clear()
        assert R.order_strip(R.strip_entries(enc, order, status, cur)) == kept
        checked += 1
    assert checked > 20 and levels - {"ok"}, levels  # the fight wounded someone
