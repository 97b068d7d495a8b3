"""The order strip and the folding card as markup (issue 10, "The screen"): who acts now and next,
state at a glance, ties marked for drag and keys, user text escaped, a card's fold from the GM's
choice or from who acts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from fray.model import Combatant, Encounter, Position
from fray.games import get_ruleset
from fray.games.base import Slot
from fray.web import render as R
from fray.web.mapview import initials_of
from fray.web.uistate import UiState
from test_web_render import PAYLOADS, Parsed

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import fights  # noqa: E402  (the bench's own fights, as test_blocks.py plays them)

OK = {"hp": [7, 12], "fraction": 7 / 12, "word": "bruised", "level": "hurt", "chips": ["prone"]}


def enc_of(*names: str, phase: str = "turns") -> Encounter:
    cs = [Combatant(id=f"c{i + 1}", name=n, side="foes" if i else "party", position=Position())
          for i, n in enumerate(names)]
    return Encounter(ruleset="freeform", combatants=cs, phase=phase)


def slots(*rows: tuple[str, str, tuple | None]) -> list[Slot]:
    return [Slot(cid, label, (i,), "", tie=tie) for i, (cid, label, tie) in enumerate(rows)]


def test_entries_follow_the_order_then_the_rest_with_now_next_and_ties():
    enc = enc_of("Aria", "Gob 1", "Gob 2", "Gob 3", "Idle")
    order = slots(("c1", "Init 15", (-15,)), ("c2", "Init 10", (-10,)), ("c3", "Init 10", (-10,)),
                  ("c4", "Init 10", (-10,)), ("c2", "Init 10", (-10,)))
    es = R.strip_entries(enc, order, {"c1": OK}, "c2")
    assert [e["id"] for e in es] == ["c1", "c2", "c3", "c4", "c5"]  # each once, the idle one last
    assert [e["current"] for e in es] == [False, True, False, False, False]
    assert [e["next"] for e in es] == [False, False, True, False, False]
    assert es[0]["group"] == "" and es[1]["group"] == es[2]["group"] == es[3]["group"] != ""
    assert (es[1]["up"], es[1]["down"]) == (None, "c3") and (es[3]["up"], es[3]["down"]) == ("c3", None)
    assert es[4]["in_order"] is False and es[4]["label"] == ""
    assert es[0]["status"] == OK and es[1]["status"]["level"] == "ok"


def test_no_tie_when_the_rules_leave_none():
    enc = enc_of("A", "B")
    es = R.strip_entries(enc, slots(("c1", "SR 3", None), ("c2", "SR 3", None)), {}, None)
    assert all(e["group"] == "" and e["up"] is None and e["down"] is None for e in es)
    assert es[0]["next"]  # nobody acts yet in a started fight: the first is next


def test_strip_markup_marks_the_current_one_and_names_every_entry():
    enc = enc_of("Aria", "Gob 1", "Gob 2")
    order = slots(("c1", "Init 15", (-15,)), ("c2", "Init 10", (-10,)), ("c3", "Init 10", (-10,)))
    p = Parsed(R.order_strip(R.strip_entries(enc, order, {"c1": OK}, "c1")))
    assert ("aria-current", "step") in p.attrs
    # each button is named by what it shows; equals are described by the keys that move them
    assert "Aria Init 15 now HP 7/12, bruised prone" in " ".join(p.all_text.split())
    assert "Gob 1 Init 10 next" in " ".join(p.all_text.split())
    assert [v for k, v in p.attrs if k == "aria-describedby"] == ["strip-tie-hint", "strip-tie-hint"]
    assert "Alt+Up or Alt+Down" in p.all_text
    assert [v for k, v in p.attrs if k == "data-drag"] == ["c2", "c3"]  # grips only on equals
    assert ("aria-keyshortcuts", "Alt+ArrowDown") in p.attrs and ("aria-keyshortcuts", "Alt+ArrowUp") in p.attrs
    assert p.tags.count("svg") == 1
    assert ("width", "58") in p.attrs  # 7/12 of the bar, as an attribute (no style under the policy)


@pytest.mark.parametrize("s", PAYLOADS)
def test_strip_escapes_names_labels_words_and_chips(s):
    enc = enc_of(s, "B")
    st = {"hp": [1, 2], "fraction": .5, "word": s, "level": "bad", "chips": [s]}
    p = Parsed(R.order_strip(R.strip_entries(enc, slots(("c1", s, (0,)), ("c2", s, (0,))), {"c1": st}, "c1")))
    assert p.tags.count("svg") == 1 and "script" not in p.tags and "img" not in p.tags
    assert not [k for k, _ in p.attrs if k.startswith("on") or k == "autofocus"]
    assert p.all_text.count(s) >= 4  # name, slot label, word, chip


def test_card_folds_from_the_gms_choice_else_from_who_acts():
    assert R.card_open(UiState(), "c1", True) is True and R.card_open(UiState(), "c1", False) is False
    ui = UiState(card_open={"c1": False, "c2": True})
    assert R.card_open(ui, "c1", True) is False and R.card_open(ui, "c2", False) is True


def test_a_folded_card_keeps_its_line_and_leaves_its_body_out():
    """Issue 10, "Cards fold: ... others are one line until opened"; issue 11: a folded card's body is not
    in the page at all (200 hidden bodies were 180,000 nodes the browser checked on every action)."""
    ff = get_ruleset("freeform")
    enc = enc_of("Aria")
    c = enc.combatants[0]
    html = R.combatant_card(enc, c, ff, "<div class=extra>panel</div>", False, False, OK)
    p = Parsed(html)
    assert ("data-open", "false") in p.attrs and ("aria-expanded", "false") in p.attrs and ("hidden", None) in p.attrs
    assert "HP 7/12, bruised" in p.all_text and "prone" in p.all_text  # the line's state and chips
    assert ("title", "Duplicate Aria") not in p.attrs and "panel" not in p.all_text
    assert ("id", "card-body-c1") in p.attrs  # aria-controls names an element that is there
    opened = Parsed(R.combatant_card(enc, c, ff, "<div class=extra>panel</div>", True, True, OK))
    assert ("aria-expanded", "true") in opened.attrs and ("hidden", None) not in opened.attrs
    assert ("title", "Duplicate Aria") in opened.attrs and "panel" in opened.all_text


def test_open_all_and_fold_cards_are_offered_as_they_apply():
    """Page view state: "Open all cards" while any is folded, "Fold cards" while more than the acting one is open."""
    enc = enc_of("Aria", "Bor", "Cai")
    assert R.cards_tools(enc_of("Aria"), UiState(), None) == ""
    tools = R.cards_tools(enc, UiState(), "c1")
    assert "Open all cards" in tools and "Fold cards" not in tools
    every = UiState(card_open={c.id: True for c in enc.combatants})
    tools = R.cards_tools(enc, every, "c1")
    assert "Open all cards" not in tools and "Fold cards" in tools


def test_add_form_asks_how_many_but_the_edit_form_does_not():
    ff = get_ruleset("freeform")
    assert 'name="combatant.count"' in R.combatant_form(ff, None, [])
    assert 'name="combatant.count"' not in R.combatant_form(ff, enc_of("A").combatants[0], [])


def test_numbered_tokens_stay_apart():
    """"distinct token labels" (issue 10): Goblin 1 and Goblin 12 are G1 and G12."""
    c = Combatant(id="c1", name="Goblin 12")
    assert initials_of(c) == "G12"
    assert initials_of(Combatant(id="c2", name="Goblin 1")) == "G1"
    assert initials_of(Combatant(id="c3", name="Great wolf")) == "GW"


def test_a_drop_goes_onto_the_place_dropped_on():
    order = ["c1", "c2", "c3", "c4"]
    assert R.drop_side(order, "c4", "c2") == "before" and R.drop_side(order, "c2", "c4") == "after"


def test_the_log_is_written_by_what_was_added_on_top():
    """The page writes only the lines an action added (painter.paint_log); anything else is written whole."""
    old = ["<li>3</li>", "<li>2</li>", "<li>1</li>"]
    assert R.log_added(None, old) is None
    assert R.log_added(old, old) == 0
    assert R.log_added(old, ["<li>5</li>", "<li>4</li>"] + old) == 2
    # at the limit the oldest line goes as a new one comes
    assert R.log_added(old, ["<li>4</li>", "<li>3</li>", "<li>2</li>"]) == 1
    # an undo took the top line away (log_taken: only it is removed), or a line changed: written whole
    assert R.log_added(old, old[1:]) is None
    assert R.log_taken(old, old[1:]) == (1, 0) and R.log_taken(old, ["<li>2</li>", "<li>1</li>", "<li>0</li>"]) == (1, 1)
    assert R.log_taken(old, old) is None and R.log_taken(old, ["<li>4</li>"] + old) is None
    assert R.log_added(old, ["<li>4</li>", "<li>3b</li>", "<li>2</li>", "<li>1</li>"]) is None


@pytest.mark.parametrize("name, head, number", [
    ("Great wolf (four-legged) 9", "Great wolf (four-legged)", "9"),
    ("Goblin 12", "Goblin", "12"),
    ("<b>Orc</b> 3", "<b>Orc</b>", "3"),
    ("Aria", None, None),
    ("7", None, None),  # a number alone is the name itself
    ("Wolf9", None, None),  # no space: not a numbered name
    ("Room 101 guard", None, None),
    ("Goblin\u00a012", "Goblin", "12"),  # any space before the number, as Add ×N reads it (reducer.NUMBERED_NAME)
])
def test_a_numbered_name_keeps_its_number_apart_in_the_strip(name, head, number):
    """Issue 10, the strip's "state at a glance" with "Add ×N numbers them (Goblin 1..N)": a narrow
    entry cut "Great wolf (four-legged) 4" and "... 9" alike to "Great wolf (fou…". A name that ends
    in a number is drawn as its head, which the page may cut, and the number, which it never cuts;
    its text is still the whole name, escaped."""
    p = Parsed(R.strip_name(name))
    assert p.all_text == name
    assert "b" not in p.tags  # user text escaped, never markup
    html = R.order_strip(R.strip_entries(enc_of(name, "B"), slots(("c1", "SR 1", (1,)), ("c2", "SR 2", (2,))), {}, "c1"))
    assert R.strip_name(name) in html
    if head is None:
        assert p.attrs == [("class", "strip-name")]
        return
    assert ("class", "strip-name numbered") in p.attrs
    assert p.text == [head, name[len(head):-len(number)], number]


def test_a_range_band_strip_names_the_phase_once_so_a_phase_change_rewrites_few_entries():
    """Range-band's slots are all labelled with the phase ("Movement", then "Turn"): the strip names it
    once, in its title, and no entry carries it (``Ruleset.slot_label_is_phase``), so a Next from the
    movement phase to the actions (or on to the next round) rewrites the entries that moved or changed,
    not all thirty (issue 11: 30-60 ms of a range-band Next at 200 combatants in the page)."""
    import random

    from fray import reducer
    from fray.web.blocks import _line_up, _writes

    rs = get_ruleset("range-band")
    assert rs.slot_label_is_phase and not get_ruleset("strike-rank").slot_label_is_phase
    enc = fights.fight("range-band", 30, 60).present
    rng = random.Random(2)

    def strip(e: Encounter, phase_label: bool) -> tuple[str, tuple[str, ...]]:
        view, order = rs.view(e), rs.order_of_play(e)
        status = {c.id: rs.status(e, view, c.id) for c in e.combatants}
        cur = order[e.turn].combatant_id if 0 <= e.turn < len(order) else None
        b = R.order_strip(R.strip_entries(e, order, status, cur, phase_label), R.strip_heading(order, phase_label))
        return b.children[0], b.children[1].children

    changes = 0
    for _ in range(80):
        action, _, _ = reducer.prepare(enc, {"type": "advance", "skip_empty": True}, rng)
        new, _ = reducer.apply(enc, action)
        if new.phase != enc.phase and {enc.phase, new.phase} == {"movement", "actions"}:
            changes += 1
            (_, old), (title, now) = strip(enc, True), strip(new, True)
            assert title == f'<h2 class="strip-title">Order · {"Movement" if new.phase == "movement" else "Turn"}</h2>'
            assert "strip-slot\"></span>" in now[0] and ">Turn<" not in "".join(now) and ">Movement<" not in "".join(now)
            assert _writes(_line_up(old, now), old, now) <= 6
            # labelled on every entry, the same Next rewrote every one of them
            (_, lold), (_, lnow) = strip(enc, False), strip(new, False)
            assert _writes(_line_up(lold, lnow), lold, lnow) == len(lnow) == 30
        enc = new
    assert changes >= 2


def test_a_chips_state_is_whole_parts_with_hp_its_own_span_and_everything_in_its_title():
    """Issue 33: at 768 px a chip a sixth of the screen wide cut "HP 15/40, bruised" and "engaged".
    The state is drawn as parts, each kept whole (the chip wraps between them), "HP" a span of its own
    that a tablet leaves to the bar, and the entry's title says everything, as its text does."""
    enc = enc_of("Foe 1")
    st = {"hp": [15, 40], "fraction": 15 / 40, "word": "serious: abdomen, bleeding", "level": "bad",
          "chips": ["engaged", "stunned"]}
    html = R.order_strip(R.strip_entries(enc, slots(("c1", "", (0,))), {"c1": st}, "c1"))
    p = Parsed(html)
    assert "Foe 1 now HP 15/40, serious: abdomen, bleeding engaged stunned" in " ".join(p.all_text.split())
    assert ("title", "Foe 1, HP 15/40, serious: abdomen, bleeding, engaged, stunned") in p.attrs
    parts = re.findall(r'<span class="strip-part">(.*?)</span>(?= |</span>)', html)
    assert parts == ['<span class="strip-k">HP </span>15/40,', "serious: abdomen,", "bleeding"], parts
