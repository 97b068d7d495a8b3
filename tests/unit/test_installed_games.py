"""Issue 34, "The proof: a fourth game installed with micropip": installed games are found through
the entry point group ``fray.games`` (``fray.games``); a wheel is checked before it is
installed (``fray.wheels``); and in CPython, ``pip install`` of the example game's wheel
(examples/fray-d20/) makes it appear in the registry, where its own tests, scenario and Fray's
reducer state machine run on it."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fray import games
from fray.errors import InvalidAction
from fray.games import ENTRY_POINT_GROUP, all_rulesets, get_ruleset
from fray.web import panels
from fray.web.store import Library, MemoryBackend
from fray.wheels import inspect_wheel

ROOT = Path(__file__).resolve().parents[2]
D20 = ROOT / "examples" / "fray-d20"  # its wheel: the ``d20_wheel`` fixture (conftest.py)


# -- the registry: a game installed as a distribution --------------------------------------------

GAME_PY = '''
from fray.games.base import Ruleset

class Toy(Ruleset):
    id = "{id}"
    name = "Toy game"
    panel = "{panel}"

RULESET = Toy()
'''
PANEL_PY = '''
class P:
    def panel(self, app, view): return "<p>toy</p>"
    def card_extra(self, app, cid, view): return ""
    def on_act(self, app, act, el): return False
    def on_form(self, app, name, form, values): return False

PANEL = P()
'''


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """``installed(game_id, value=..., ruleset_id=..., broken=False)``: a distribution on sys.path
    (a package and its dist-info with an entry_points.txt), as pip leaves one; all forgotten after."""
    made: list[str] = []

    def make(name: str, entry: str, *, ruleset_id: str | None = None, broken: bool = False) -> None:
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text("raise RuntimeError('a bug in the game')" if broken else
                                         GAME_PY.format(id=ruleset_id or entry, panel=f"{name}.panel"))
        (pkg / "panel.py").write_text(PANEL_PY)
        info = tmp_path / f"{name}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry} = {name}:RULESET\n")
        made.append(name)

    monkeypatch.syspath_prepend(str(tmp_path))
    yield make
    for ruleset_id in [k for k in games._REGISTRY if k.startswith("toy")]:
        games._REGISTRY.pop(ruleset_id)
        panels._LOADED.pop(ruleset_id, None)
    for m in [m for m in sys.modules if m.split(".")[0] in made]:
        del sys.modules[m]


def test_an_installed_game_is_found_by_its_entry_point_and_brings_its_own_panel(installed):
    installed("toy_game", "toy-game")
    rs = get_ruleset("toy-game")
    assert rs.name == "Toy game"
    ids = [r.id for r in all_rulesets()]
    assert "toy-game" in ids and ids[-1] == "freeform"  # beside the built-in games, the plain tracker last
    assert ids.index("toy-game") > max(ids.index(b) for b in games.BUILTIN if b != "freeform")
    p = panels.panel_for("toy-game")
    assert type(p).__module__ == "toy_game.panel"  # a full module path, not a module of fray.web


def test_an_installed_game_cannot_take_a_built_in_id(installed):
    installed("toy_thief", "strike-rank")
    assert get_ruleset("strike-rank").name != "Toy game"
    assert "strike-rank" not in games.installed_entry_points()


def test_a_game_that_calls_itself_another_name_is_refused(installed):
    installed("toy_liar", "toy-liar", ruleset_id="toy-other")
    with pytest.raises(InvalidAction, match="the two names must be the same"):
        get_ruleset("toy-liar")
    assert "toy-liar" not in [r.id for r in all_rulesets()]


def test_a_game_that_fails_to_import_is_said_and_left_out_of_the_list(installed):
    installed("toy_broken", "toy-broken", broken=True)
    with pytest.raises(InvalidAction, match="could not be loaded: a bug in the game"):
        get_ruleset("toy-broken")
    assert "toy-broken" not in [r.id for r in all_rulesets()]


def test_an_unknown_id_is_still_refused_naming_the_known_games():
    with pytest.raises(InvalidAction, match="unknown ruleset 'no-such-game'"):
        get_ruleset("no-such-game")


# -- pip install of the example game's wheel ------------------------------------------------------

def test_pip_install_of_the_example_wheel_puts_the_game_in_the_registry_and_its_tests_run(d20_site, tmp_path):
    target = d20_site
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "py"), str(target), str(ROOT / "tests" / "unit")]),
           "FRAY_D20_INSTALLED": str(target), "FRAY_FUZZ_SEQUENCES": os.environ.get("FRAY_FUZZ_SEQUENCES", "50")}
    # the source folder is not on the path: only the installed copy can answer
    out = subprocess.run([sys.executable, "-m", "pytest", str(D20 / "tests"), "-q", "-p", "no:cacheprovider",
                          "--rootdir", str(D20)], env=env, cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert re.search(r"\b1[0-9] passed\b", out.stdout), out.stdout[-500:]


# -- the wheel checked before anything is installed ------------------------------------------------

def _rewrite(wheel: bytes, edit) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(wheel))
    files = {n: src.read(n) for n in src.namelist()}
    edit(files)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n, b in files.items():
            z.writestr(n, b)
    return out.getvalue()


def _record(files: dict) -> None:
    info = next(n.split("/")[0] for n in files if n.endswith(".dist-info/RECORD"))
    lines = [f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b'=').decode()},{len(b)}"
             for n, b in files.items() if not n.endswith("RECORD")]
    files[f"{info}/RECORD"] = ("\n".join(lines) + f"\n{info}/RECORD,,\n").encode()


def test_the_example_wheel_is_a_fray_game(d20_wheel):
    info = inspect_wheel(d20_wheel.read_bytes())
    assert (info.name, info.version, info.games, info.packages) == ("fray-d20", "0.1.0", ("d20-skirmish",), ("fray_d20",))
    assert info.filename == d20_wheel.name


@pytest.mark.parametrize("case, said", [
    ("random bytes", "not a game package"),
    ("empty", "empty"),
    ("no entry point", "not a Fray game"),
    ("a file altered", "damaged"),
    ("a file missing", "damaged"),
    ("a built-in id", "would replace the built-in game"),
    ("compiled code", "plain Python"),
])
def test_a_file_that_is_not_a_working_fray_game_is_refused_in_the_gms_words(d20_wheel, case, said):
    good = d20_wheel.read_bytes()
    ep = "fray_d20-0.1.0.dist-info/entry_points.txt"
    data = {
        "random bytes": os.urandom(3000),
        "empty": b"",
        "no entry point": _rewrite(good, lambda f: (f.pop(ep), _record(f))),
        "a file altered": _rewrite(good, lambda f: f.update({"fray_d20/__init__.py": b"import os\n"})),
        "a file missing": _rewrite(good, lambda f: f.pop("fray_d20/panel.py")),
        "a built-in id": _rewrite(good, lambda f: (f.update({ep: b"[fray.games]\nstrike-rank = fray_d20:RULESET\n"}),
                                                   _record(f))),
        "compiled code": _rewrite(good, lambda f: (f.update({"fray_d20-0.1.0.dist-info/WHEEL":
                                                             b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                                                             b"Tag: cp311-cp311-manylinux_2_17_x86_64\n"}), _record(f))),
    }[case]
    with pytest.raises(InvalidAction) as e:
        inspect_wheel(data)
    assert e.value.field == "wheel" and said in e.value.message
    assert "dist-info" not in e.value.message and "entry_points" not in e.value.message


# -- kept in the browser; micropip pinned once --------------------------------------------------------

def test_the_added_games_are_kept_in_the_library_and_none_is_an_empty_list():
    lib = Library(MemoryBackend(), "tab")
    assert asyncio.run(lib.games()) == []
    kept = [{"name": "fray-d20", "version": "0.1.0", "games": ["d20-skirmish"], "wheel": "UEsFBgAAAAA="}]
    asyncio.run(lib.save_games(kept))
    assert asyncio.run(lib.games()) == kept


def test_the_page_asks_for_the_micropip_that_make_vendors():
    vendor = (ROOT / "scripts" / "vendor.py").read_text(encoding="utf-8")
    page = (ROOT / "py" / "fray" / "web" / "games_view.py").read_text(encoding="utf-8")
    pinned = re.search(r'MICROPIP = \("([^"]+)", "([0-9a-f]{64})"\)', vendor)
    asked = re.search(r'MICROPIP_WHEEL = "([^"]+)"', page)
    assert pinned and asked and pinned.group(1) == asked.group(1)
