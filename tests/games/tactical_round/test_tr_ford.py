"""A GM's play-through at the ford (tactical round): what the declarations said, and the log."""

from __future__ import annotations

from fray.games.tactical_round import rules
from fray.games.tactical_round.web.panel import DEFAULT_KINDS, panel_html
from tr_helpers import RS, SWORD, attack, declare, fight, fighter, to_phase


def _apart(x: float = 8.2):
    return fight(fighter("Lia", SWORD, side="party"), fighter("Orc 4", SWORD, x=x))


def test_a_melee_attack_declared_out_of_reach_with_no_move_is_told_at_declaration():
    """Melee Attacks: "Melee attacks are made against opponents who are adjacent to the attacker or within
    the reach of their weapon." Tactical Round Sequence (FACTS.md): "Assessment, Declaration, Move, ...,
    Melee": the rules take the declaration (a Move may yet bring them together), and the form says it
    while the GM can still declare a Move; a GM's play-through learnt it only in Melee, the Move over."""
    enc = declare(_apart(), "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    said = rules.reach_warnings(enc, RS.all_tables(enc))
    assert list(said) == ["c1"] and said["c1"].startswith("Orc 4 is 8.2 m from Lia")
    assert "declare a Move" in said["c1"]
    html = str(panel_html(RS.view(enc), {}, DEFAULT_KINDS, reach=said))
    assert 'class="tr-decl-reach"' in html and "Orc 4 is 8.2 m from Lia" in html
    # with a Move of its own, in reach, or engaged: nothing to say
    moved = declare(_apart(), "c1", {"action": "move"}, {"action": "melee_attack", "weapon": 0, "target": "c2"})
    assert rules.reach_warnings(moved, RS.all_tables(moved)) == {}
    near = declare(_apart(2.0), "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    assert rules.reach_warnings(near, RS.all_tables(near)) == {}
    assert "tr-decl-reach" not in str(panel_html(RS.view(near), {}, DEFAULT_KINDS, reach={}))


def test_next_says_nobody_acts_only_in_the_phases_where_nobody_did():
    """Reloading ("Other Actions (Disengage ends here; Stunned ends here)", FACTS.md: the Tactical Round
    Sequence): Archer 4's reload declared for Other Actions does itself as that phase begins, and the
    page's Next goes past it; the log said "nobody acts in Ranged B, Spell B, Other Actions" right after
    "Archer 4: Short bow loaded". Other Actions is said done, not empty."""
    from fray.reducer import apply
    from tr_helpers import BOW

    enc = fight(fighter("Archer 4", {**BOW, "loaded": False}), fighter("Lia", SWORD, side="party", x=20))
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = to_phase(enc, "melee")
    enc, events = apply(enc, {"type": "advance", "skip_empty": True, "ask": True, "go_on": True})
    lines = [e["text"] for e in events]
    phase = next(t for t in lines if t.startswith("Phase:"))
    assert "nobody acts in Ranged B, Spell B" in phase and "Other Actions" in phase
    assert "nobody acts in Ranged B, Spell B, Other Actions" not in phase
    assert phase == "Phase: Assessment (nobody acts in Ranged B, Spell B; all done in Other Actions)"
    assert lines.index(phase) > next(i for i, t in enumerate(lines) if "loaded" in t)


def test_a_parry_is_against_the_one_who_declared_an_attack_on_her_by_default():
    """Parrying: "A character can only Parry attacks from a single opponent per Round, and only attacks
    from the opponent they are facing." Lia's Parry "Against" starts on Orc 4, who declared his Melee
    attack on her, not on the first foe of the list (a GM's play-through)."""
    import re

    from fray.games.tactical_round.web.card import card_html

    enc = fight(fighter("Lia", SWORD, side="party"), fighter("Orc 2", SWORD, x=9), fighter("Orc 4", SWORD, x=2))
    enc = declare(enc, "c3", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    html = str(card_html(RS.view(enc), "c1"))
    chosen = re.search(r'name="against"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.search(r'<option value="c3" selected', chosen), chosen


def test_a_disengage_at_the_end_of_other_actions_is_one_line():
    """Disengaging: "The character stops being Engaged at the end of the Other Actions Phase." One event,
    one line: the log said "Lia disengages: no longer Engaged" and "Lia Disengages: free of melee at the
    end of Other Actions" in the same Next."""
    from fray.reducer import apply

    enc = fight(fighter("Lia", SWORD, side="party"), fighter("Orc 4", SWORD, x=1))
    enc = to_phase(enc, "melee")
    enc, _ = attack(enc, "c2", "c1", 20)
    enc = to_phase(enc, "declaration")
    enc = declare(enc, "c1", {"action": "disengage"})
    enc = to_phase(enc, "other")
    enc, events = apply(enc, {"type": "advance", "skip_empty": True, "ask": True, "go_on": True})
    lines = [e["text"] for e in events if "Lia" in e["text"] and "ngage" in e["text"]]
    assert lines == ["Lia disengages: no longer Engaged"], lines
    assert not rules.engaged_ids(enc, enc.get("c1"))


def test_a_move_declared_names_no_target():
    """Tactical Round Sequence (FACTS.md): "Assessment, Declaration, Move, ...": a Move is a Movement
    Action, made on the map in the Move phase, on no one (the rule text names no move toward someone).
    Bran's declaration switched from a Melee attack on Orc 4 to a Move logged "Bran declares: Move on
    Orc 4"; the target the form still held is not the Move's."""
    from fray.reducer import apply

    enc = to_phase(fight(fighter("Bran", SWORD, side="party"), fighter("Orc 4", SWORD, x=9)), "declaration")
    enc, events = apply(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": "move", "target": "c2"}]})
    assert [e["text"] for e in events if e["kind"] == "declare"] == ["Bran declares: Move (Move, half)"]
    assert enc.state["declared"]["c1"][0]["target"] is None
