"""Issue 33, the table screen: the acting combatant's essentials beside the panel's form
(``render.acting_line``), and the tactical-round strip naming its phase once."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fray.model import Combatant, Position
from fray.games import get_ruleset
from fray.web import render as R
from test_web_render import PAYLOADS, Parsed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402

HURT = {"hp": [7, 13], "fraction": 7 / 13, "word": "serious: abdomen, bleeding", "level": "bad", "chips": ["prone"]}


def test_the_essentials_say_hp_the_wound_conditions_what_it_holds_and_open_the_card():
    c = Combatant(id="c4", name="Hero 4", side="party", position=Position())
    p = Parsed(R.acting_line(c, HURT, ["Broadsword", "Medium shield"]))
    text = " ".join(p.all_text.split())
    for words in ("Acting", "Hero 4", "HP 7/13, serious: abdomen, bleeding", "prone", "Holds Broadsword, Medium shield",
                  "Full card"):
        assert words in text, (words, text)
    # the full card one tap away: the order strip's own act on this combatant
    assert ("data-act", "strip-open") in p.attrs and ("data-id", "c4") in p.attrs
    assert p.tags.count("svg") == 1  # the HP bar
    # nobody acts (setup, between phases): no line
    assert R.acting_line(None, None, []) == ""
    # a game without HP (range-band) and a combatant holding nothing: no bar, no "Holds"
    bare = Parsed(R.acting_line(c, {"hp": None, "fraction": None, "word": "", "level": "ok", "chips": []}, []))
    assert "Holds" not in bare.all_text and "HP" not in bare.all_text


@pytest.mark.parametrize("s", PAYLOADS)
def test_the_essentials_escape_what_the_gm_typed(s):
    c = Combatant(id="c1", name=s, side="foes", position=Position())
    p = Parsed(R.acting_line(c, {"hp": [1, 2], "fraction": .5, "word": s, "level": "bad", "chips": [s]}, [s]))
    assert "script" not in p.tags and "img" not in p.tags
    assert not [k for k, _ in p.attrs if k.startswith("on") or k == "autofocus"]
    assert p.all_text.count(s) >= 4  # name, word, chip, what it holds


def test_every_tactical_round_slot_is_labelled_with_its_phase_so_the_strip_names_it_once():
    """The strip's chips showed "Decla…" twelve times at 768 px (issue 33): each slot's label is the
    phase's title, so the ruleset says so (``slot_label_is_phase``) and the strip's heading carries it."""
    rs = get_ruleset("tactical-round")
    assert rs.slot_label_is_phase
    h = fights.fight("tactical-round", 12, 120)
    phases = set()
    for i in range(0, h.cursor + 1, 3):  # every third state of a played fight: each phase, many times
        enc = h.state_at(i)
        order = rs.order_of_play(enc)
        assert len({s.label for s in order}) <= 1, (enc.phase, [s.label for s in order])
        phases.add(enc.phase)
    assert len(phases) >= 3, phases
    entries = R.strip_entries(h.present, rs.order_of_play(h.present), {}, None, rs.slot_label_is_phase)
    assert all(e["label"] == "" for e in entries)
