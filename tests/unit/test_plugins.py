"""A ruleset is one plug-in, found through one table (``fray.games.BUILTIN``).

Its package owns its engine, tables, presets and map rule; it names its page panel; the page
finds the panel by ruleset id; and no core module names a game, so adding one is one line.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path


from fray import maprules
from fray.games import BUILTIN, first_ruleset_id, get_ruleset
from fray.web import panels
from names import D20_ID

PY = Path(__file__).resolve().parents[2] / "py"


def test_unknown_ruleset_has_no_panel_and_measures_distances_only():
    assert panels.panel_for("no-such-game") is None
    assert type(maprules.rule_for("no-such-game")) is maprules.MapRule


def test_the_first_encounter_uses_the_first_builtin_ruleset():
    assert first_ruleset_id() == next(iter(BUILTIN))


def test_opening_one_game_loads_only_that_game():
    code = ("import sys; from fray.web.panels import panel_for; from fray.maprules import rule_for; "
            "panel_for('tactical-round'); rule_for('tactical-round'); "
            "print(sorted(m for m in sys.modules if m.startswith('fray.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(PY)}, cwd=PY).stdout
    assert "fray.games.tactical_round.web.panel" in out and "fray.games.tactical_round.maprule" in out
    assert "strike_rank" not in out and "range_band" not in out


def _plugin_files() -> set[Path]:
    """Every file of a game's own folder, py/fray/games/<its module>/: engine, tables and page."""
    out = set()
    for module in BUILTIN.values():
        out |= set((PY / "fray" / "games" / module).rglob("*.py"))
    return out


def test_a_game_is_one_folder_and_its_panel_lives_in_it():
    """Everything of a built-in game is under py/fray/games/<its module>/: the panel the ruleset
    names is a module of that folder, and no module outside it imports from inside it but the
    registry (which names it)."""
    for ruleset_id, module in BUILTIN.items():
        rs = get_ruleset(ruleset_id)
        assert not rs.panel or rs.panel.startswith(f"fray.games.{module}."), rs.panel
    inside = re.compile(r"^\s*(?:from|import)\s+fray\.games\.(" + "|".join(BUILTIN.values()) + r")\b", re.M)
    outside = [p for p in (PY / "fray").rglob("*.py") if p not in _plugin_files()]
    assert [str(p.relative_to(PY)) for p in outside if inside.search(p.read_text(encoding="utf-8"))] == []


def _code_strings(source: str):
    """Every string constant of a module's code, with its line: the pieces of f-strings too,
    but not docstrings (a module's, class's or function's first statement, a bare string)."""
    tree = ast.parse(source)
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            docs.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            yield node.lineno, node.value


def _names_a_game(text: str, ids: set[str]) -> bool:
    """An id as a word of its own anywhere in the text: "freeform", "a range-band fight", a
    pattern "(strike-rank|tactical-round)"; not "range-bands" or "sub-freeform"."""
    return any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text) for i in ids)


def test_the_guard_reads_every_id_whole():
    """The guard once stripped quote and prefix letters off a token's text, so "freeform" was
    read as "eeform" and "range-band" as "ange-band": neither could ever be caught."""
    ids = set(BUILTIN)
    src = "\n".join(f"x = new_encounter({i!r}, 'Fight')\ny = f'{i} {{x}}'\nz = r'\\(({i}|other)\\)'"
                    for i in sorted(ids))
    found = [text for _, text in _code_strings(src) if _names_a_game(text, ids)]
    assert len(found) == 3 * len(ids)


def test_no_core_module_names_a_game():
    """Only ``BUILTIN`` names a ruleset id in code: core modules (the reducer, the map, the page
    controller, rendering, storage) find a game through the registry. Comments and docstrings may
    mention a game as an example."""
    ids = set(BUILTIN) | {D20_ID}  # and the example game installed beside them
    plugins = _plugin_files() | {PY / "fray" / "games" / "__init__.py"}
    offenders = []
    for path in sorted((PY / "fray").rglob("*.py")):
        if path in plugins:
            continue
        for line, text in _code_strings(path.read_text(encoding="utf-8")):
            if _names_a_game(text, ids):
                offenders.append(f"{path.relative_to(PY)}:{line}: {text!r}")
    assert offenders == []
