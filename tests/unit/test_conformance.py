"""Every registered game conforms to the game interface (issue 34: "One declared interface a game
implements (engine side and page side), with conformance tests parametrised over every registered
game: the state machine, no-crash, hostile strings rendered inert, the plug-in checks, a scenario
replay"). The interface: ``fray.games.base`` (``MUST_SET``, ``MAY_SET``, ``MAY_OVERRIDE``) and
``fray.web.panels`` (``Panel``, ``PanelHooks``).

The games: ``all_rulesets()`` (the built-in ones, the plain tracker among them) and the example
fourth game (examples/fray-d20/), built as a wheel and installed as pip installs it
(``d20_installed``, conftest.py). Nothing here names a game's own rules: a new game passes or
fails these as it is registered.
"""

from __future__ import annotations

import copy
import inspect
import json
import random
import re
import sys
import types
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

from names import D20, D20_ID
from fray import maprules
from fray.errors import FrayError
from fray.history import History
from fray.reducer import CORE_ACTIONS, apply, new_encounter, prepare
from fray.games import BUILTIN, PLAIN, all_rulesets, get_ruleset
from fray.games.base import MAY_OVERRIDE, MAY_SET, MUST_SET, Ruleset, StatSpec
from fray.savefile import encounter_from_dict, state_text
from fray.web import panels
from fray.web import render as R
from fray.web.uistate import UiState
from html_checks import tags
from reducer_machine import JUNK, Spec, junk_action, machine_for
from shared_checks import play_scenario, scenario_dir

ROOT = Path(__file__).resolve().parents[2]
GAMES = [r.id for r in all_rulesets()] + ([D20_ID] if D20.is_dir() and D20_ID not in BUILTIN else [])
GAMES = list(dict.fromkeys(GAMES))


@pytest.fixture(params=GAMES)
def game(request) -> Ruleset:
    """One registered game's ruleset; the example game is installed first."""
    if request.param == D20_ID:
        request.getfixturevalue("d20_installed")
    return get_ruleset(request.param)


# -- what a test fight is made of, for any game ---------------------------------------------------

def plain_combatant(rs: Ruleset, name: str) -> dict[str, Any]:
    """A combatant the add form would accept from its stats alone: each stat's default, else an
    ordinary value of its kind (the free-form tracker: hit points as the GM types them)."""
    if rs.free_stats:
        return {"name": name, "stats": {"HP": "7/12"}}
    stats: dict[str, Any] = {}
    for s in rs.stats:
        if s.default is not None or not s.required:
            continue
        stats[s.key] = {"dice": "1D6", "choice": (s.choices or ("",))[0], "bool": False, "text": "x"}.get(
            s.kind, int(s.min if s.min is not None and s.min > 10 else min(10, s.max if s.max is not None else 10)))
    return {"name": name, "stats": stats}


def combatants(rs: Ruleset) -> list[dict[str, Any]]:
    """Three to fight: the game's ready-made combatants, else plain ones."""
    presets = rs.presets()
    return [copy.deepcopy(p) for p in presets[:3]] if presets else [plain_combatant(rs, n) for n in ("Bryn", "Goblin", "Wolf")]


def start(rs: Ruleset) -> Any:
    enc = new_encounter(rs.id, "Conformance")
    for i, c in enumerate(combatants(rs)):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**c, "position": {"x": 2 * i, "y": 0}}})
    return enc


# -- (a) the reducer state machine -------------------------------------------------------------------

IDS = ("c1", "c2", "c3", "c4", "c9")
FIELDS = ("id", "combatant", "changes", "x", "y", "alt", "condition", "on", "text", "name", "table", "value", "rolls",
          "before", "after", "attacker", "target", "weapon", "kind", "ref", "actions")


def generic_actions(rs: Ruleset) -> st.SearchStrategy:
    """What any game takes: Next, the core actions on real ids, and the game's own action types with
    plausible ids (the machine fills the rest with junk)."""
    ids = st.sampled_from(IDS)
    own = sorted(rs.actions)
    return st.one_of(
        st.just({"type": "advance"}), st.just({"type": "advance"}),
        st.builds(lambda c: {"type": "add_combatant", "combatant": c}, st.sampled_from(combatants(rs))),
        st.builds(lambda i, x, y: {"type": "move", "id": i, "x": x, "y": y}, ids, st.integers(-30, 30), st.integers(-30, 30)),
        st.builds(lambda i, c, on: {"type": "set_condition", "id": i, "condition": c, "on": on}, ids,
                  st.sampled_from(sorted(rs.conditions) or ["prone"]), st.booleans()),
        st.builds(lambda i: {"type": "remove_combatant", "id": i}, ids),
        st.builds(lambda i: {"type": "duplicate_combatant", "id": i}, ids),
        st.builds(lambda a, b: {"type": "settle_tie", "id": a, "before": b}, ids, ids),
        *([st.builds(lambda t, a, b: {"type": t, "id": a, "attacker": a, "target": b}, st.sampled_from(own), ids, ids)]
          if own else []),
    )


def test_the_reducer_state_machine_holds_for_every_game(game):
    """The reducer's contract (tests/unit/reducer_machine.py) on a fight of the game's own ready-made
    combatants: apply raises only the engine's errors, never edits its input, every state saves and
    loads, and undo reaches the start. A few sequences: the games' own machines (test_machines.py)
    run long with their own actions."""
    spec = Spec(ruleset=game.id, start=lambda: start(game), actions=generic_actions(game), fields=FIELDS, ids=IDS)
    run_state_machine_as_test(machine_for(spec), settings=settings(
        max_examples=6, stateful_step_count=12, deadline=None, database=None, suppress_health_check=list(HealthCheck)))


# -- (b) no crash, whatever comes in ------------------------------------------------------------------

def played(rs: Ruleset, nexts: int) -> Any:
    enc = start(rs)
    for _ in range(nexts):
        try:
            enc, _ = apply(enc, {"type": "advance"})
        except FrayError:
            break
    return enc


HOSTILE_VALUES = st.sampled_from(['"><img src=x onerror=alert(1)>', "</script>", "x" * 2001, "\x00", "c1\n",
                                  float("nan"), 10**400, [], {}, None, True, -1])


def check_no_crash(game: Ruleset, enc: Any, action: dict[str, Any], seed: int) -> None:
    before, sent = asdict(enc), copy.deepcopy(action)
    try:
        _, new, _ = prepare(enc, action, random.Random(seed))
    except FrayError:
        new = None
    except Exception as e:  # noqa: BLE001 - the contract under test
        raise AssertionError(f"{type(e).__name__}: {e} from {action!r}") from e
    assert asdict(enc) == before and action == sent, f"{action['type']} edited its input"
    if new is not None:
        assert asdict(encounter_from_dict(json.loads(state_text(new)))) == asdict(new)
        json.dumps(game.view(new), allow_nan=False)


@given(data=st.data())
@settings(max_examples=20, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_no_action_crashes_any_game(game, data):
    """Every action type (the game's and the core's) with junk and hostile fields, at setup or a few
    Nexts in: the engine's own error (``InvalidAction`` / ``RuleViolation``) and nothing changed, or a
    state that saves and loads again; never another Python error (issue 8: "Nothing crashes")."""
    enc = played(game, data.draw(st.integers(0, 3), label="nexts"))
    types_ = sorted(set(game.actions) | set(CORE_ACTIONS))
    # the fields that name combatants name real ones, so the junk reaches past the first lookup; one
    # or two other fields hold junk or a hostile value (more, and the gate refuses nearly every one)
    real = st.sampled_from([c.id for c in enc.combatants] or ["c1"])
    junk_fields = st.dictionaries(st.sampled_from([f for f in FIELDS if f not in ("id", "attacker", "target")]),
                                  HOSTILE_VALUES | JUNK, min_size=1, max_size=2)
    for t in types_:
        a, b = data.draw(real), data.draw(real)
        check_no_crash(game, enc, {"type": t, "id": a, "attacker": a, "target": b, **data.draw(junk_fields)}, 0)
    check_no_crash(game, enc, data.draw(junk_action(types_, FIELDS, IDS), label="junk action"), 1)


# -- (c) hostile strings rendered inert ----------------------------------------------------------------

# A name (at most 60 characters) that would break out of an attribute and open a tag; a condition (at
# most 40) that would open one; both would end a script block.
EVIL_NAME = "\"' onmouseover=x() <img src=x onerror=alert(1)></script>"
EVIL_CONDITION = '"><img src=x onerror=alert(2)></script>'


class _Nothing:
    """A page object with nothing on it: every property is another, every call gives another, and
    it is empty and false (no fold-out is open, no helper script is there, no media query matches)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "frayFolds":
            raise AttributeError(name)
        return _Nothing()

    def __call__(self, *a: Any, **k: Any) -> Any:
        return _Nothing()

    def __iter__(self):
        return iter(())

    def __bool__(self) -> bool:
        return False


def empty_page(attr=lambda name: _Nothing()) -> dict[str, types.ModuleType]:
    """Stand-ins for ``js``, ``pyodide`` and ``pyodide.ffi`` (module name -> module), so the page's
    modules import in CPython: every attribute of ``js`` is ``attr(name)``, a proxy is the function."""
    js = types.ModuleType("js")
    js.__getattr__ = attr  # type: ignore[method-assign]
    ffi = types.ModuleType("pyodide.ffi")
    for n in ("create_proxy", "create_once_callable", "to_js"):
        setattr(ffi, n, lambda f, *a, **k: f)
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    return {"js": js, "pyodide": pyodide, "pyodide.ffi": ffi}


@pytest.fixture
def no_page(monkeypatch):
    """``js`` and ``pyodide.ffi`` as an empty page, so a panel draws in CPython; every module that
    was imported against them is forgotten after."""
    had = set(sys.modules)
    for name, m in empty_page().items():
        monkeypatch.setitem(sys.modules, name, m)
    yield
    for m in set(sys.modules) - had:
        sys.modules.pop(m, None)


class PageApp:
    """What a panel reads of the page's controller while drawing."""

    def __init__(self, rs: Ruleset, h: History) -> None:
        self.ruleset, self.history, self.ui = rs, h, UiState()

    @property
    def enc(self) -> Any:
        return self.history.present

    def _listen(self, *a: Any, **k: Any) -> None:
        pass


def hostile(rs: Ruleset, c: dict[str, Any]) -> dict[str, Any]:
    """``c`` with the hostile name in every text field the game accepts: its name and notes, and
    each text of its stats and ruleset fields (weapons, armour) that still adds (a choice does not)."""
    out = {**copy.deepcopy(c), "name": EVIL_NAME, "notes": EVIL_NAME}
    if rs.free_stats:
        out["stats"] = {**out.get("stats", {}), "Motto": EVIL_CONDITION}  # a stat name is letters; a text stat, 40

    def leaves(v: Any, path: tuple = ()):
        if isinstance(v, dict):
            for k, x in v.items():
                yield from leaves(x, path + (k,))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                yield from leaves(x, path + (i,))
        elif isinstance(v, str):
            yield path

    def adds(cand: dict[str, Any]) -> bool:
        try:
            apply(new_encounter(rs.id), {"type": "add_combatant", "combatant": cand})
            return True
        except FrayError:
            return False

    for n, path in enumerate(list(leaves(out))):
        if path[0] in ("name", "notes", "side"):
            continue
        # the shorter where a field is shorter than a name; numbered where names must differ (weapons)
        for evil in (EVIL_NAME, EVIL_CONDITION, EVIL_CONDITION.replace("(2)", f"({n})")):
            cand = copy.deepcopy(out)
            node = cand
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = evil
            if adds(cand):
                out = cand
                break
    assert adds(out), "the hostile combatant must be added"
    return out


def assert_inert(html: str, where: str) -> None:
    """No tag, attribute or script end came from the hostile text: it is all escaped."""
    found = tags(html)
    assert not [t for t, _ in found if t in ("img", "script")], f"{where}: a hostile tag is live"
    assert not [a for _, attrs in found for a in attrs if a.startswith("on")], f"{where}: a hostile attribute is live"
    assert "</script" not in html.lower(), f"{where}: a script end is live"
    # and escaped once only: text escaped by hand and then by the builder shows "&amp;#x27;" to the
    # GM, and the page's own markup passed as text shows its tags ("<span class=...>") on screen
    twice = re.findall(r"&amp;(?:amp|lt|gt|quot|#x27|#39);", html)
    assert not twice, f"{where}: text escaped twice: {twice[:3]}"
    shown = re.findall(r"&lt;/?(?:span|strong|b|em|div|p|small|form|input|label|button|li|ul|details|summary|br)\b",
                       html)
    assert not shown, f"{where}: the page's own markup is shown as text: {shown[:3]}"


def test_hostile_strings_are_rendered_inert_by_every_game(game, no_page):
    """A combatant named ``"' onmouseover=x() <img src=x onerror=alert(1)></script>``, with that in
    every text field, and a condition ``"><img ...></script>``, drawn by the game's panel and in every
    card (the core card around the game's part), from setup through a few Nexts: every piece of it
    comes out as text (STYLE 16: markup escapes)."""
    h = History(new_encounter(game.id, EVIL_NAME))
    for i, c in enumerate(combatants(game)):
        c = hostile(game, c) if i == 0 else c
        h.do({"type": "add_combatant", "combatant": {**c, "position": {"x": 2 * i, "y": 0}}}, random.Random(1))
    h.do({"type": "set_condition", "id": "c1", "condition": EVIL_CONDITION, "on": True})
    panel = panels.panel_for(game.id)
    app = PageApp(game, h)
    escaped = "&lt;img src=x onerror=alert(1)&gt;"
    seen_in_panel = False
    for step in range(5):
        enc = h.present
        view = game.view_kept(enc, {})
        order = game.order_of_play(enc)
        if panel is not None:
            html = panel.panel(app, view)
            assert_inert(html, f"the panel after {step} Nexts")
            seen_in_panel |= escaped in html
        for c in enc.combatants:
            extra = panel.card_extra(app, c.id, view) if panel is not None else ""
            assert_inert(extra, f"{c.id}'s card part after {step} Nexts")
            seen_in_panel |= escaped in extra
            card = R.combatant_card(enc, c, game, extra, c.id == "c1", True, game.status(enc, view, c.id))
            assert_inert(card, f"{c.id}'s card after {step} Nexts")
            if c.id == "c1":
                assert escaped in card, "the hostile name is on its card, as text"
        status = {c.id: game.status(enc, view, c.id) for c in enc.combatants}
        assert_inert(R.order_strip(R.strip_entries(enc, order, status, None, game.slot_label_is_phase, None)), "the strip")
        try:
            h.do({"type": "advance"}, random.Random(step))
        except FrayError:
            break
    assert panel is None or seen_in_panel, "the game's panel never showed the hostile name: nothing was checked"


# -- (d) the plug-in checks ------------------------------------------------------------------------------

def _binds(fn: Any, proto: Any) -> bool:
    """``fn`` takes the arguments the page passes to ``proto`` (a method of the declared protocol)."""
    params = list(inspect.signature(proto).parameters)[1:]
    try:
        inspect.signature(fn).bind(*params)
        return True
    except TypeError:
        return False


def test_every_game_declares_the_engine_side(game):
    """``MUST_SET`` is set; what it may set has the declared kind; its map rule is its own."""
    assert isinstance(game, Ruleset) and game.id in GAMES and get_ruleset(game.id) is game
    assert all(isinstance(getattr(game, a), str) and getattr(game, a) for a in MUST_SET)
    assert all(hasattr(game, a) for a in MAY_SET + MAY_OVERRIDE)
    assert all(isinstance(s, StatSpec) for s in game.stats)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in game.conditions.items())
    assert isinstance(game.map_rule, maprules.MapRule) and maprules.rule_for(game.id) is game.map_rule
    assert game.actions and all(callable(h) for h in game.actions.values()) or game.id == PLAIN
    json.dumps(game.describe(), allow_nan=False)


def test_every_games_tables_load_and_pass_its_own_check(game):
    """Each table file loads as ``{id, entries: [...]}`` under its own id, a fresh load is the same,
    and the game's own table check takes its default unchanged (the GM's edit starts from it)."""
    assert game.load_default_tables() == game.tables
    for table_id, table in game.tables.items():
        assert table.get("id", table_id) == table_id and isinstance(table.get("entries"), list), table_id
        json.dumps(table, allow_nan=False)
        assert game.check_table(table_id, copy.deepcopy(table)) == {**table, "id": table_id}


def test_every_games_presets_add_cleanly(game):
    """Each ready-made combatant adds (and once more as a copy: Add x2) to a new fight, and the view
    of them all can be drawn."""
    enc = new_encounter(game.id)
    for p in game.presets():
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**copy.deepcopy(p), "count": 2}})
    assert len(enc.combatants) == 2 * len(game.presets())
    json.dumps(game.view(enc), allow_nan=False)


def test_every_games_panel_conforms_to_the_page_side(game):
    """The module the ruleset names defines ``PANEL``, which has every ``Panel`` method taking what
    the page passes, and every ``PanelHooks`` method it has takes what the page passes too. A game
    with no panel (the plain tracker) names none."""
    panel = panels.panel_for(game.id)
    if not game.panel:
        assert panel is None
        return
    assert panel is not None and type(panel).__module__ == panels.panel_module(game.panel)
    assert panels.missing(panel) == []
    for m in panels.PANEL_METHODS:
        assert _binds(getattr(panel, m), getattr(panels.Panel, m)), m
    for m in panels.PANEL_HOOKS:
        if panels.hook(panel, m) is not None:
            assert _binds(panels.hook(panel, m), getattr(panels.PanelHooks, m)), m


def test_every_games_stylesheet_is_a_file_of_its_own_folder(game):
    """Issue 34: "The page finds a game's panel, stylesheet and odds renderer through the game
    object". A game with a page brings its stylesheet in its own folder, beside its panel (a built-in
    game's in the page's Python files, an installed game's in its wheel), and the page reads it
    through the ruleset (``fray.web.game_style``); the page's own files name no game's."""
    from fray.web import game_style

    if not game.panel:
        assert game_style.stylesheet_text(game) == ""
        return
    assert game.stylesheet, "a game with a page brings its stylesheet"
    path = Path(game_style.stylesheet_path(game))
    import importlib

    assert path.parent == Path(importlib.import_module(panels.panel_module(game.panel)).__file__).parent
    text = game_style.stylesheet_text(game)
    assert text.strip() and text.count("{") == text.count("}")
    assert "<" not in text  # CSS, never markup (the page applies it as a constructed stylesheet)
    if game.id in BUILTIN:
        assert path.is_relative_to(ROOT / "py" / "fray" / "games")
        toml = (ROOT / "pyscript.toml").read_text(encoding="utf-8")
        assert f'"./py/{path.relative_to(ROOT / "py").as_posix()}"' in toml  # shipped to the page


# -- (e) a scenario replay ------------------------------------------------------------------------------

def scenarios_of(ruleset_id: str) -> list[Path]:
    """tests/games/<game>/scenarios/ for a game of this repository; an example game's own tests/scenarios/."""
    own = sorted(scenario_dir(ruleset_id).glob("*.json"))
    examples = [p for p in sorted(ROOT.glob("examples/*/tests/scenarios/*.json"))
                if json.loads(p.read_text(encoding="utf-8")).get("ruleset") == ruleset_id]
    return own + examples


def test_every_game_replays_its_scenarios(game):
    """Each whole-fight scenario the game brings replays from its recorded dice to the values worked
    out by hand in its ``expect`` (and ``expect_view``, in the game's ``view``); every game brings one."""
    files = scenarios_of(game.id)
    assert files, f"{game.name} brings no scenario"
    for path in files:
        data, *_ = play_scenario(path, game.view)
        assert data["ruleset"] == game.id
