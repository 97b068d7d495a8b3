"""The page's routes (``fray.web.routes``, issue 34: "listeners route ``data-act`` / ``data-form`` to
handlers from a table (core and game routes)"): every name the page draws has a route, and every
route is one the page draws.

The markup scanned is what the renderers draw through each game's scenarios, state by state (its
panel, every card, the strip, the round bar, the card tools), and the dialogs the page opens; plus
the controls the page marks outside rendering (the header's buttons, the banner's choices), read
from the source that marks them.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from fray.errors import FrayError
from fray.history import History
from fray.reducer import new_encounter
from fray.games import all_rulesets, get_ruleset
from shared_checks import run_scenario
from test_conformance import GAMES, PageApp, combatants, no_page, scenarios_of  # noqa: F401 - no_page: a fixture

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "py" / "fray" / "web"
ACT = re.compile(r'data-act="([^"]+)"')
FORM = re.compile(r'data-form="([^"]+)"')


def fights(rs: Any) -> list[History]:
    """The game's scenarios played (each state of each is drawn), and a fight of its ready-made
    combatants with a few Nexts."""
    out = []
    for path in scenarios_of(rs.id):
        data = json.loads(path.read_text(encoding="utf-8"))
        h, _ = run_scenario(data)
        out.append(h)
    h = History(new_encounter(rs.id, "Routes"))
    for i, c in enumerate(combatants(rs)):
        h.do({"type": "add_combatant", "combatant": {**c, "position": {"x": 2 * i, "y": 0}}}, random.Random(1))
    for step in range(4):
        try:
            h.do({"type": "advance"}, random.Random(step))
        except Exception:  # noqa: BLE001 - a game that stops to ask: drawn as it is
            break
    out.append(h)
    return out


def every_card_open(enc: Any) -> Any:
    """The page's view state with every card opened by the GM."""
    from fray.web.uistate import UiState

    return UiState(card_open={c.id: True for c in enc.combatants})


def drawn(rs: Any) -> str:
    """Everything the page draws for a game's fights, as one string of markup."""
    from fray.web import games_view, history_view, party_view, players_render
    from fray.web import render as R
    from fray.web.bestiary_view import bestiary_html
    from fray.web.import_view import duplicate_dialog
    from fray.web.mapview import map_svg
    from fray.web.panels import panel_for
    from fray.web.tables_view import tables_form

    panel = panel_for(rs.id)
    added = games_view._added[:]
    games_view._added[:] = [{"name": "fray_d20", "version": "0.1.0", "titles": ["d20 Skirmish"]}]
    try:
        with_one = games_view.add_game_html()  # an added game listed, with Upgrade and Remove
    finally:
        games_view._added[:] = added
    parts = [R.new_encounter_form(all_rulesets()), games_view.add_game_html(), with_one,
             duplicate_dialog("A fight", "a.json", "ahead", 3), party_view.make_html(rs.presets(), [], rs.name),
             bestiary_html([{"combatant": {"name": "Wolf"}, "ruleset": rs.id}], rs)]
    for h in fights(rs):
        app = PageApp(rs, h)
        for point in range(len(h.actions), -1, -1):
            h.go_to(point)
            enc = h.present
            view = rs.view_kept(enc, {})
            order = rs.order_of_play(enc)
            status = {c.id: rs.status(enc, view, c.id) for c in enc.combatants}
            current = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
            parts += [R.round_bar(enc, order, rs, view, turn_based=panel is None), R.order_list(enc, order),
                      R.order_strip(R.strip_entries(enc, order, status, current, rs.slot_label_is_phase, None)),
                      R.cards_tools(enc, app.ui, current), R.cards_tools(enc, every_card_open(enc), current), R.empty_state(enc), map_svg(enc, "c1")]
            if panel is not None:
                parts.append(panel.panel(app, view))
            for c in enc.combatants:
                extra = panel.card_extra(app, c.id, view) if panel is not None else ""
                parts.append(R.combatant_card(enc, c, rs, extra, c.id == current, True, status[c.id]))
            if point in (0, len(h.actions)):
                parts += [R.combatant_form(rs, None, rs.presets(), []), tables_form(rs, enc),
                          history_view.history_html(h, history_view.PAGE, enc.name),
                          players_render.settings_dialog(enc, view), party_view.end_html(enc)]
                for c in enc.combatants[:2]:
                    parts += [R.combatant_form(rs, c, []), R.condition_form(c, rs.conditions, enc, rs)]
    parts += party_dialogs(rs)
    return "".join(str(p) for p in parts)


def party_dialogs(rs: Any) -> list[str]:
    """The party's dialogs with one character kept from this game's fight, before and after it joins."""
    from fray.party import campaign, character
    from fray.reducer import apply
    from fray.web import party_view

    enc = fights(rs)[-1].present
    camp = campaign.empty()
    ch = None
    for c in enc.combatants:  # the first that can be kept (a party keeps what its sheet takes)
        try:
            ch = character.from_combatant(enc, c, campaign.next_id(camp))
            break
        except FrayError:
            continue
    if ch is None:  # none of this game's (tactical-round's ready-made: a reload of 0 is refused)
        return [party_view.party_html(camp, enc)]
    camp = campaign.add_character(camp, ch)
    joined, _ = apply(enc, campaign.join_action(camp, rs.id, [ch["id"]], {"x": 40, "y": 40, "alt": 0}))
    return [party_view.party_html(camp, enc), party_view.party_html(camp, joined, undo="Kept"),
            party_view.change_html(ch), party_view.time_html(camp, rs.id), party_view.end_html(joined)]


def outside_rendering() -> tuple[set[str], set[str]]:
    """The names the page marks without a renderer: index.html's, ``el.dataset.act = "..."`` (the
    header's buttons) and a banner's ``("Label", "name")`` choices."""
    page = (ROOT / "index.html").read_text(encoding="utf-8")
    acts, forms = set(ACT.findall(page)), set(FORM.findall(page))
    for path in WEB.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        acts |= set(re.findall(r'dataset\.act = "([^"]+)"', text))
        for block in re.findall(r"actions\s*=\s*\[(.*?)\]", text, re.S):
            acts |= set(re.findall(r'\("[^"]+", "([a-z-]+)"\)', block))
        acts |= set(re.findall(r'R\.button\("[^"]+", "([a-z-]+)"', text))
    return acts, forms


@pytest.fixture(scope="module")
def routes_and_drawn():
    """Each game's routes and what its fights draw (in CPython: an empty page stands in for ``js``)."""
    from test_conformance import empty_page

    had = set(sys.modules)
    saved = {n: sys.modules.get(n) for n in ("js", "pyodide", "pyodide.ffi")}
    sys.modules.update(empty_page())
    try:
        from fray.web import routes
        from fray.web.panels import panel_for

        out = {}
        for gid in GAMES:
            rs = get_ruleset(gid) if gid in [r.id for r in all_rulesets()] else None
            if rs is None:
                continue  # the example game: installed only for the conformance tests
            html = drawn(rs)
            out[gid] = (routes, panel_for(gid), html)
        yield out
    finally:
        for m in set(sys.modules) - had:
            sys.modules.pop(m, None)
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m


def test_every_name_the_page_draws_has_a_route(routes_and_drawn):
    """Each ``data-act`` / ``data-form`` name in what the page draws for each game's fights is the
    game's route or the page's; a name with none would be a dead button."""
    marked, marked_forms = outside_rendering()
    for gid, (routes, panel, html) in routes_and_drawn.items():
        acts = set(ACT.findall(html)) | marked
        forms = set(FORM.findall(html)) | marked_forms
        game_acts = set(routes.game_names(panel, "act") or ())
        game_forms = set(routes.game_names(panel, "form") or ())
        if panel is not None and routes.game_names(panel, "act") is None:
            game_acts = acts  # a panel that declares no names is offered every one (an installed game's)
        if panel is not None and routes.game_names(panel, "form") is None:
            game_forms = forms
        assert acts and forms, f"{gid}: nothing drawn"
        assert not acts - set(routes.ACTS) - game_acts, f"{gid}: buttons without a route"
        assert not forms - set(routes.FORMS) - game_forms - set(routes.OWN_LISTENER), f"{gid}: forms without a route"


def drawn_in_source(panel: Any, names: set[str]) -> set[str]:
    """Those of ``names`` a game's page code draws in a state the scan does not reach (a Next the
    panel held back to ask first, a fold-out drawn with its body only once opened, a declaration
    being changed): named in its web package other than where the panel declares or tests its routes
    (its ``ACTS`` / ``FORMS`` tuples, ``act == ...`` / ``form_name in ...``)."""
    if panel is None:
        return set()
    pkg = Path(importlib.util.find_spec(type(panel).__module__).origin).parent
    text = "".join(p.read_text(encoding="utf-8") for p in pkg.glob("*.py"))
    text = re.sub(r"\b(?:PREVIEW_)?(?:ACTS|FORMS) = \(.*?\)", "", text, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not re.search(r"\b(act|form_name) (==|in|not in) ", line))
    return {n for n in names if f'"{n}"' in text or f"'{n}'" in text}


def test_every_route_is_reachable(routes_and_drawn):
    """Each route's name is drawn somewhere: the page's in some game's fight (or marked outside
    rendering), a game's in that game's fight (or by a button call of its page code, for a state the
    fights do not reach). A route nothing draws is dead code."""
    marked, marked_forms = outside_rendering()
    all_acts: set[str] = set(marked)
    all_forms: set[str] = set(marked_forms)
    for gid, (routes, panel, html) in routes_and_drawn.items():
        declared = set(routes.game_names(panel, "act") or ()) | set(routes.game_names(panel, "form") or ())
        acts = set(ACT.findall(html)) | marked | drawn_in_source(panel, declared)
        forms = set(FORM.findall(html)) | drawn_in_source(panel, declared)
        all_acts |= acts
        all_forms |= forms
        assert not set(routes.game_names(panel, "act") or ()) - acts, f"{gid}: its buttons nothing draws: {sorted(set(routes.game_names(panel, 'act') or ()) - acts)}"
        assert not set(routes.game_names(panel, "form") or ()) - forms, f"{gid}: its forms nothing draws: {sorted(set(routes.game_names(panel, 'form') or ()) - forms)}"
    routes = next(iter(routes_and_drawn.values()))[0]
    assert not set(routes.ACTS) - all_acts, f"page buttons nothing draws: {sorted(set(routes.ACTS) - all_acts)}"
    assert not set(routes.FORMS) - all_forms, f"page forms nothing draws: {sorted(set(routes.FORMS) - all_forms)}"


def test_an_unknown_name_is_said_once_and_does_nothing(routes_and_drawn, capsys):
    """A name no route knows: one line in the console, however often it comes; no error."""
    routes = next(iter(routes_and_drawn.values()))[0]
    for _ in range(3):
        routes.act(object(), None, "no-such-button", None)
        routes.submit(object(), None, "no-such-form", None, {})
    said = capsys.readouterr().out
    assert said.count("no-such-button") == 1 and said.count("no-such-form") == 1
    # a form with a listener of its own (the map's Move) is heard there: nothing said here
    routes.submit(object(), None, "map-move", None, {})
    assert "map-move" not in capsys.readouterr().out
