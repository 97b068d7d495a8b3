"""The party's campaign kept in the browser's database beside the encounters (issue 35): one write
per step, refused when another tab kept a campaign since, and read through the campaign file's gate."""

from __future__ import annotations

import asyncio
import json

import pytest

from fray.errors import InvalidAction, SaveFileError
from fray.party import campaign, character
from fray.web.store import Library, MemoryBackend


def run(coro):
    return asyncio.run(coro)


def vasana(cid: str = "k1") -> dict:
    return character.new("strike-rank", {"name": "Vasana", "stats": {"STR": 13, "CON": 13, "SIZ": 13, "DEX": 13}}, cid)


def test_a_campaign_is_kept_read_back_and_a_second_tab_cannot_overwrite_it():
    lib = Library(MemoryBackend())
    camp, rev = run(lib.campaign())
    assert camp == campaign.empty() and rev == 0
    one = campaign.add_character(camp, vasana())
    rev1 = run(lib.save_campaign(one, rev))
    assert rev1 == 1 and run(lib.campaign()) == (one, 1)
    # another tab read revision 0 before this write: its write is refused, nothing changes
    other = campaign.add_character(camp, vasana("k7"))
    assert run(lib.save_campaign(other, 0)) is None
    assert run(lib.campaign()) == (one, 1)


def test_a_kept_campaign_that_fails_the_gate_is_refused_and_left_as_it_is():
    backend = MemoryBackend()
    lib = Library(backend)
    camp = campaign.add_character(campaign.empty(), vasana())
    camp["characters"][0]["carried"] = {"hp": 99}
    text = json.dumps({"rev": 3, "campaign": camp})
    backend.metas["campaign"] = text
    with pytest.raises(InvalidAction) as e:
        run(lib.campaign())
    assert e.value.field == "characters.0 (Vasana).carried.hp"
    assert backend.metas["campaign"] == text
    backend.metas["campaign"] = "junk"
    with pytest.raises(SaveFileError):
        run(lib.campaign())
    # the party said it could not be read; the GM's next change replaces it (revision -1)
    assert run(lib.save_campaign(campaign.empty(), 0)) is None
    assert run(lib.save_campaign(campaign.empty(), -1)) == 1 and run(lib.campaign()) == (campaign.empty(), 1)
