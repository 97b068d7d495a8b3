"""Games the GM added, managed (web/games_view.py, over ``fray.wheels``): a wheel of a package
already added upgrades it, is the same version (said, nothing changes) or an older one (asked
first); a removed game leaves the kept list and its encounters are found to say so; and an
encounter whose game is gone is known as such (``fray.games.game_installed``)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses

import pytest

from fray import games
from fray.games import game_installed
from fray.web.store import Library, MemoryBackend
from fray.wheels import (WheelInfo, encounters_of, inspect_wheel, kept_entry, plan_add, replace_kept,
                         same_package, version_key, without)


@pytest.mark.parametrize("older, newer", [
    ("0.1.0", "0.2.0"), ("0.9", "0.10"), ("1.0rc1", "1.0"), ("1.0a2", "1.0b1"), ("1.0.dev3", "1.0a1"),
    ("1.0", "1.0.post1"), ("1.2.3", "2"), ("0.1.0", "not-a-version"),
])
def test_versions_are_ordered_as_installers_order_them(older, newer):
    assert version_key(older) < version_key(newer)


def test_the_same_release_written_two_ways_is_the_same_version():
    assert version_key("1.0") == version_key("1.0.0") == version_key("v1.0")


def test_a_package_is_the_same_whatever_its_case_and_separators():
    assert same_package("fray-d20", "Fray_D20") and same_package("fray.d20", "fray--d20")
    assert not same_package("fray-d20", "fray-d200")


def _info(version: str, name: str = "fray-d20") -> WheelInfo:
    return WheelInfo(name, version, f"fray_d20-{version}-py3-none-any.whl", ("d20-skirmish",), ("fray_d20",))


def _kept(version: str, name: str = "fray-d20") -> dict:
    return {"name": name, "version": version, "games": ["d20-skirmish"], "wheel": "AAAA"}


def test_picking_a_wheel_is_new_an_upgrade_the_same_or_a_downgrade():
    kept = [_kept("0.1.0"), _kept("1.0", "fray-other")]
    assert plan_add([], _info("0.1.0")) == ("new", None)
    assert plan_add(kept, _info("0.2.0")) == ("upgrade", kept[0])
    assert plan_add(kept, _info("0.1")) == ("same", kept[0])
    assert plan_add(kept, _info("0.0.9")) == ("downgrade", kept[0])
    assert plan_add(kept, _info("0.2.0", "Fray_D20"))[0] == "upgrade"


def test_an_upgrade_replaces_the_kept_wheel_in_its_place_and_a_removal_keeps_the_others():
    kept = [_kept("0.1.0"), _kept("1.0", "fray-other")]
    data = b"new wheel bytes"
    after = replace_kept(kept, _info("0.2.0"), data)
    assert [(g["name"], g["version"]) for g in after] == [("fray-d20", "0.2.0"), ("fray-other", "1.0")]
    assert base64.b64decode(after[0]["wheel"]) == data
    assert kept_entry(after, "FRAY_D20")["version"] == "0.2.0"
    assert [g["name"] for g in without(after, "fray-d20")] == ["fray-other"]
    assert [g["name"] for g in replace_kept([], _info("0.1.0"), data)] == ["fray-d20"]


def test_removing_a_game_finds_its_saved_encounters_to_name_them():
    entries = [{"key": "a", "name": "Goblin ambush", "ruleset": "d20-skirmish"},
               {"key": "b", "name": "Ford", "ruleset": "freeform"},
               {"key": "c", "name": "Crypt", "ruleset": "d20-skirmish"}]
    assert [e["name"] for e in encounters_of(entries, ["d20-skirmish"])] == ["Goblin ambush", "Crypt"]
    assert encounters_of(entries, []) == []


def test_an_upgrade_and_a_removal_are_kept_in_the_library_as_the_next_boot_reads_them(d20_wheel):
    """The kept list round-trips through ``Library.games``: what the next boot installs."""
    data = d20_wheel.read_bytes()
    info = inspect_wheel(data)
    newer = dataclasses.replace(info, version="0.2.0")
    lib = Library(MemoryBackend(), "tab")

    async def run():
        await lib.save_games(replace_kept(await lib.games(), info, data))
        kind, old = plan_add(await lib.games(), newer)
        assert (kind, old["version"]) == ("upgrade", "0.1.0")
        await lib.save_games(replace_kept(await lib.games(), newer, data))
        assert [(g["name"], g["version"]) for g in await lib.games()] == [("fray-d20", "0.2.0")]
        assert plan_add(await lib.games(), info)[0] == "downgrade"
        await lib.save_games(without(await lib.games(), "fray-d20"))
        return await lib.games()
    assert asyncio.run(run()) == []


def test_an_encounter_whose_game_is_not_installed_is_known_as_such(monkeypatch):
    monkeypatch.delitem(games._REGISTRY, "d20-skirmish", raising=False)
    assert game_installed("strike-rank") and game_installed("freeform")
    assert not game_installed("d20-skirmish")
    assert game_installed(None), "an entry that names no game is not said to lack one"
    # an unreadable save listed by its key names no game ("", store.entry_from_save): not "game not installed"
    assert game_installed("")


def test_the_names_of_added_games_are_kept_after_one_is_removed():
    """An encounter of a removed game names the game to add again (``Library.game_names``)."""
    lib = Library(MemoryBackend(), "tab")

    async def run():
        assert await lib.game_names() == {}
        await lib.remember_game_names({"d20-skirmish": "d20 Skirmish"})
        await lib.remember_game_names({"other": "Other game"})
        await lib.save_games([])
        return await lib.game_names()
    assert asyncio.run(run()) == {"d20-skirmish": "d20 Skirmish", "other": "Other game"}


def test_an_unreadable_list_of_game_names_is_no_names():
    backend = MemoryBackend()
    lib = Library(backend, "tab")
    asyncio.run(backend.put_meta("game-names", "{not json"))
    assert asyncio.run(lib.game_names()) == {}
