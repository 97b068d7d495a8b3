"""The screen at table density (issue 10, "The screen"), engine side: the GM settles ties among
equals only, Add ×N and Duplicate, and each game's state at a glance for the order strip.

Rules cited:
* FACTS.md, strike-rank, Strike ranks: "Ties on the same SR: higher DEX acts first; then the GM
  decides (the UI lets the GM drag to reorder)."
* FACTS.md, tactical-round: "Melee (longest weapon first; tie: higher CMB; equal: simultaneous)".
* FACTS.md, range-band: "an action phase in which each character takes one turn in turn order".
* FACTS.md, tactical-round: "Hit points: 0 or below → incapacitated; −50 or below → dying; below
  half → Bruised (−20)."
* Issue 10: "'Add ×N' numbers them (Goblin 1..N) with distinct token labels; duplicate a combatant".
"""

from __future__ import annotations

import os
import sys

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.reducer import MAX_COMBATANTS, apply, new_encounter
from fray.games import get_ruleset

sys.path[:0] = [os.path.join(os.path.dirname(__file__), "..", "games", d) for d in ("strike_rank", "tactical_round", "range_band")]
import rb_helpers as rb  # noqa: E402
import sr_helpers as sr  # noqa: E402
import tr_helpers as tr  # noqa: E402


def order_ids(enc) -> list[str]:
    return [s.combatant_id for s in get_ruleset(enc.ruleset).order_of_play(enc)]


# -- ties: strike-rank -----------------------------------------------------------------------------

def sr_three():
    """Ana and Bor: DEX 11, broadsword, SR 7 each; Cai: DEX 12 (still DEX SR 3), also SR 7."""
    enc = sr.fight(sr.fighter("Ana", side="party"), sr.fighter("Bor"), sr.fighter("Cai", DEX=12))
    enc = sr.to_phase(enc, "declare")
    for cid, target in (("c1", "c2"), ("c2", "c1"), ("c3", "c1")):
        enc, _ = sr.declare(enc, cid, kind="melee", weapon="broadsword", target=target)
    return sr.to_phase(enc, "resolve")


def test_sr_equals_at_the_same_sr_and_dex_are_the_gms_to_order():
    """"Ties on the same SR: higher DEX acts first; then the GM decides" (FACTS.md)."""
    enc = sr_three()
    labels = {s.combatant_id: s.label for s in sr.RS.order_of_play(enc)}
    assert labels == {"c1": "SR 7", "c2": "SR 7", "c3": "SR 7"}
    assert order_ids(enc) == ["c3", "c1", "c2"]  # higher DEX first: Cai
    enc, events = apply(enc, {"type": "settle_tie", "id": "c2", "before": "c1"})
    assert order_ids(enc) == ["c3", "c2", "c1"]
    assert "Bor acts before Ana" in events[0]["text"]


def test_sr_higher_dex_is_not_a_tie_the_gm_may_reverse():
    """Same SR, higher DEX: the rules order them ("higher DEX acts first"), so it is refused and
    the refusal names that rule."""
    enc = sr_three()
    with pytest.raises(RuleViolation) as e:
        apply(enc, {"type": "settle_tie", "id": "c1", "before": "c3"})
    assert "are not equals" in str(e.value) and "higher DEX acts first" in str(e.value)


def test_sr_different_strike_ranks_are_refused():
    enc = sr.fight(sr.fighter("Ana", side="party"), sr.fighter("Bor", sr.SPEAR))
    enc = sr.to_phase(enc, "declare")
    enc, _ = sr.declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = sr.declare(enc, "c2", kind="melee", weapon="spear", target="c1")
    enc = sr.to_phase(enc, "resolve")
    with pytest.raises(RuleViolation, match=r"Ana \(SR 7\) and Bor \(SR 6\) are not equals"):
        apply(enc, {"type": "settle_tie", "id": "c1", "before": "c2"})


# -- ties: tactical-round --------------------------------------------------------------------------

def tr_melee(cmb_c: int = 55):
    sword = {"name": "Sword", "cmb": 55, "kind": "melee", "length": 2}
    other = {"name": "Sword", "cmb": cmb_c, "kind": "melee", "length": 2}
    enc = tr.fight(tr.fighter("Ana", sword, side="party"), tr.fighter("Bor", sword), tr.fighter("Cai", other))
    for cid, target in (("c1", "c2"), ("c2", "c1"), ("c3", "c1")):
        enc = tr.declare(enc, cid, {"action": "melee_attack", "weapon": 0, "target": target})
    return tr.to_phase(enc, "melee")


def test_tr_melee_equals_same_length_and_cmb_are_the_gms_to_order():
    """"Melee (longest weapon first; tie: higher CMB; equal: simultaneous)" (FACTS.md): the
    simultaneous ones are shown in the GM's order."""
    enc = tr_melee()
    assert order_ids(enc) == ["c1", "c2", "c3"]
    enc, _ = apply(enc, {"type": "settle_tie", "id": "c3", "before": "c1"})
    assert order_ids(enc) == ["c3", "c1", "c2"]
    enc, _ = apply(enc, {"type": "settle_tie", "id": "c3", "after": "c2"})
    assert order_ids(enc) == ["c1", "c2", "c3"]


def test_tr_higher_cmb_is_refused():
    """"tie: higher CMB": a lower CMB cannot be put before a higher one."""
    enc = tr_melee(cmb_c=40)
    assert order_ids(enc)[-1] == "c3"
    with pytest.raises(RuleViolation, match="higher CMB"):
        apply(enc, {"type": "settle_tie", "id": "c3", "before": "c1"})


# -- ties: range-band ------------------------------------------------------------------------------

def test_rb_equal_turn_order_values_are_the_gms_to_order_others_refused():
    """"each character takes one turn in turn order" (FACTS.md, range-band): equal values are
    the GM's to order; a higher value goes first and is refused."""
    enc = rb.fight(rb.person("Ana"), rb.person("Bor", side="foes"), rb.person("Cai", side="foes"))
    for cid, v in (("c1", 12), ("c2", 12), ("c3", 15)):
        enc = rb.act(enc, "turn_order", id=cid, value=v)
    enc = rb.start(enc)
    assert order_ids(enc) == ["c3", "c1", "c2"]
    enc, _ = apply(enc, {"type": "settle_tie", "id": "c2", "before": "c1"})
    assert order_ids(enc) == ["c3", "c2", "c1"]
    with pytest.raises(RuleViolation, match="turn order"):
        apply(enc, {"type": "settle_tie", "id": "c1", "before": "c3"})


# -- ties: what cannot be read ---------------------------------------------------------------------

@pytest.mark.parametrize("action, field", [
    ({"type": "settle_tie", "before": "c1"}, "id"),
    ({"type": "settle_tie", "id": "c1"}, "after"),
    ({"type": "settle_tie", "id": "c1", "before": "c9"}, "before"),
    ({"type": "settle_tie", "id": "c1", "after": "c1"}, "after"),
])
def test_settle_tie_names_the_field_it_cannot_read(action, field):
    enc = sr_three()
    with pytest.raises(InvalidAction) as e:
        apply(enc, action)
    assert e.value.field == field


def test_settle_tie_outside_the_order_is_refused():
    enc = sr.fight(sr.fighter("Ana", side="party"), sr.fighter("Bor"))  # setup: nobody has a slot
    with pytest.raises(RuleViolation, match="no place in the order"):
        apply(enc, {"type": "settle_tie", "id": "c1", "before": "c2"})


def test_settle_tie_is_undone_with_one_undo():
    from fray.history import History

    h = History(sr_three())
    h.do({"type": "settle_tie", "id": "c2", "before": "c1"})
    assert order_ids(h.present) == ["c3", "c2", "c1"]
    h.undo()
    assert order_ids(h.present) == ["c3", "c1", "c2"]


# -- many of one kind ------------------------------------------------------------------------------

def add_many(enc, name: str, count, **fields):
    return apply(enc, {"type": "add_combatant", "combatant": {"name": name, "count": count, **fields}})


def test_add_many_numbers_them_from_one_as_one_action():
    """"'Add ×N' numbers them (Goblin 1..N)" (issue 10); each its own id. Issue 33: "Add ×N places
    copies 1 m apart in a row, so at the default zoom the tokens overlap ... place copies in a
    formation a token apart": rows of about √N, three metres apart."""
    enc, events = add_many(new_encounter("freeform"), "Goblin", 3, stats={"initiative": 10},
                           position={"x": 4, "y": 2})
    assert [c.name for c in enc.combatants] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert [c.id for c in enc.combatants] == ["c1", "c2", "c3"]
    assert [(c.position.x, c.position.y) for c in enc.combatants] == [(4, 2), (7, 2), (4, -1)]
    assert len(events) == 3
    # a second Add ×2 goes on from the highest number; a count of 1 keeps the name as typed
    enc, _ = add_many(enc, "Goblin", "2")
    enc, _ = add_many(enc, "Goblin chief", 1)
    assert [c.name for c in enc.combatants][3:] == ["Goblin 4", "Goblin 5", "Goblin chief"]


def test_add_many_stands_a_dozen_a_token_apart_at_the_default_zoom():
    """Issue 33: "at the default zoom the tokens overlap and Orc 1 cannot be tapped without zooming in":
    at the fitted view every copy's token is drawn at full size, a token's width from its neighbours."""
    from fray.web.mapview import fit_view, token_radius

    enc, _ = add_many(new_encounter("freeform"), "Orc", 12, stats={"initiative": 10})
    view = fit_view(enc)
    r = token_radius(view, enc)
    assert r == view[2] / 24  # not shrunk to fit a gap
    pts = [(c.position.x, c.position.y) for c in enc.combatants]
    gaps = [((ax - bx) ** 2 + (ay - by) ** 2) ** .5 for i, (ax, ay) in enumerate(pts) for bx, by in pts[i + 1:]]
    assert min(gaps) >= 4 * r  # a token's width (2r) of free ground between two discs


def test_add_many_gives_each_its_own_ruleset_fields():
    """A wound on one copy is not on the others (each copy's body is its own)."""
    p = dict(sr.fighter("Orc"))
    enc, _ = apply(new_encounter("strike-rank"), {"type": "add_combatant", "combatant": {**p, "count": 2}})
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "chest", "amount": 3, "armour": False})
    assert sr.loc(enc, "c1", "chest")["hp"] == 3 and sr.loc(enc, "c2", "chest")["hp"] == 6


@pytest.mark.parametrize("count, said", [(0, "at least 1"), (201, "at most 200"), ("many", "whole number"),
                                         (2.5, "whole number"), (True, "whole number")])
def test_bad_counts_are_named_at_the_count_field(count, said):
    with pytest.raises(InvalidAction) as e:
        add_many(new_encounter("freeform"), "Goblin", count)
    assert e.value.field == "combatant.count" and said in str(e.value)


def test_count_over_the_encounter_gate_is_refused_and_nothing_is_added():
    enc, _ = add_many(new_encounter("freeform"), "Rat", MAX_COMBATANTS - 2)
    with pytest.raises(InvalidAction, match="at most 2: an encounter holds at most 200 combatants and this one has 198"):
        add_many(enc, "Rat", 3)
    enc, _ = add_many(enc, "Rat", 2)
    assert len(enc.combatants) == MAX_COMBATANTS and enc.combatants[-1].name == "Rat 200"


def test_duplicate_takes_the_next_number_and_leaves_the_originals_ties_behind():
    enc = rb.fight(rb.preset("Rider"), rb.preset("Horse"))
    enc = rb.act(enc, "mount", id="c1", mount="c2")
    enc, events = apply(enc, {"type": "duplicate_combatant", "id": "c1"})
    twin = enc.combatants[-1]
    assert twin.name == "Rider 2" and twin.id == "c3" and "a copy of Rider" in events[0]["text"]
    assert twin.data["mount"] is None and enc.get("c1").data["mount"] == "c2"
    assert twin.stats == enc.get("c1").stats and twin.position.x == enc.get("c1").position.x + 1
    enc, _ = apply(enc, {"type": "duplicate_combatant", "id": "c3"})
    assert enc.combatants[-1].name == "Rider 3"


def test_duplicate_in_tactical_round_is_engaged_with_no_one():
    sword = {"name": "Sword", "cmb": 55, "kind": "melee", "length": 2}
    enc = tr.fight(tr.fighter("Ana", sword, side="party"), tr.fighter("Bor", sword))
    enc.combatants[0].data["engaged_with"] = ["c2"]
    enc, _ = apply(enc, {"type": "duplicate_combatant", "id": "c1"})
    assert enc.combatants[-1].data["engaged_with"] == [] and enc.combatants[-1].name == "Ana 2"


def test_duplicate_at_the_gate_is_refused():
    enc, _ = add_many(new_encounter("freeform"), "Rat", MAX_COMBATANTS)
    with pytest.raises(RuleViolation, match="at most 200"):
        apply(enc, {"type": "duplicate_combatant", "id": "c1"})


# -- state at a glance -----------------------------------------------------------------------------

def status(enc, cid):
    rs = get_ruleset(enc.ruleset)
    return rs.status(enc, rs.view(enc), cid)


def test_sr_status_shows_total_hp_and_the_worst_wound():
    """A serious wound (location HP 0 or less) is badly hurt whatever the total HP says (issue 10:
    "HP 7/13 ok" while the abdomen has a serious bleeding wound)."""
    enc = sr.duel()
    assert status(enc, "c1") == {"hp": [13, 13], "fraction": 1.0, "word": "", "level": "ok", "chips": []}
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "abdomen", "amount": 6, "armour": False})
    s = status(enc, "c1")
    assert s["hp"] == [7, 13] and s["level"] == "bad" and s["word"].startswith("serious: Abdomen")


def test_tr_status_uses_the_hp_thresholds():
    """"below half → Bruised (−20)", "0 or below → incapacitated" (FACTS.md)."""
    sword = {"name": "Sword", "cmb": 55, "kind": "melee", "length": 2}
    enc = tr.fight(tr.fighter("Ana", sword, HP=40, side="party"), tr.fighter("Bor", sword))
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 10})
    assert status(enc, "c1")["level"] == "hurt" and status(enc, "c1")["hp"] == [30, 40]
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 15})
    s = status(enc, "c1")
    assert s["word"] == "bruised" and s["level"] == "bad" and "bruised" not in s["chips"]
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 20})
    assert status(enc, "c1")["level"] == "out" and status(enc, "c1")["word"] == "incapacitated"


def test_rb_status_is_its_statuses():
    enc = rb.fight(rb.person("Ana"))
    assert status(enc, "c1")["hp"] is None and status(enc, "c1")["level"] == "ok"
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "knocked-down"})
    assert status(enc, "c1")["level"] == "bad" and status(enc, "c1")["chips"] == ["knocked down"]
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "incapacitated"})
    assert status(enc, "c1")["level"] == "out" and status(enc, "c1")["word"] == "incapacitated"


def test_the_out_word_comes_first_in_every_game():
    """The strip strikes through everyone who is out: only the word says which, so it comes before the
    game's wound word (a GM's play-through: the shared status showed the wound *instead of* "dead").
    FACTS.md, tactical-round: "0 or below → incapacitated; −50 or below → dying; below half → Bruised";
    strike-rank keeps its own reading ("dead, mangled: Head", the dead no longer bleed)."""
    from fray.games.base import status_of
    assert status_of((0, 10), ["dead"], "bruised")["word"] == "dead, bruised"
    assert status_of(None, ["unconscious"], "")["word"] == "unconscious"
    sword = {"name": "Sword", "cmb": 55, "kind": "melee", "length": 2}
    enc = tr.fight(tr.fighter("Ana", sword, HP=40, side="party"), tr.fighter("Bor", sword))
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 25})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "dead"})
    s = status(enc, "c1")
    # the dead show no HP state beside "dead": a worse state includes the milder ones (bruised, and dying too)
    assert s["level"] == "out" and s["word"] == "dead" and "dead" not in s["chips"]
    enc, _ = apply(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 80})
    assert status(enc, "c1")["word"] == "dead"
    enc = sr.duel()
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "abdomen", "amount": 6, "armour": False})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "dead"})
    s = status(enc, "c1")
    assert s["level"] == "out" and s["word"].startswith("dead, serious: Abdomen") and "bleeding" not in s["word"]
    enc = rb.fight(rb.person("Ana"))
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "dead"})
    assert status(enc, "c1")["word"] == "dead"


@pytest.mark.parametrize("stats, hp, level", [
    ({"HP": "7/12"}, [7, 12], "hurt"), ({"hp": "5", "max HP": "12"}, [5, 12], "bad"),
    ({"HP": "12/12"}, [12, 12], "ok"), ({"initiative": "10"}, None, "ok"), ({"HP": "lots"}, None, "ok"),
])
def test_freeform_status_reads_what_the_gm_typed(stats, hp, level):
    enc, _ = apply(new_encounter("freeform"), {"type": "add_combatant", "combatant": {"name": "X", "stats": stats}})
    s = status(enc, "c1")
    assert s["hp"] == hp and s["level"] == level
