"""What a GM's play-through of the tactical round found on today's build, in the engine: one 30-hit blow
logged both "Gorbag is now bruised (HP -5)" and "Gorbag is now incapacitated (HP -5)"."""

from __future__ import annotations

from tr_helpers import SWORD, do, fight, fighter


def hp_lines(events) -> list[str]:
    return [e["text"] for e in events if e["kind"] == "condition"]


def test_one_blow_says_the_state_it_ends_in():
    """FACTS.md (tactical-round): "Hit points: 0 or below → incapacitated; −50 or below → dying; below half
    → Bruised (−20)." A blow that takes a fighter from whole to 0 or below ends in incapacitated: the log
    says that, not "bruised" first, as if the blow had left him on his feet; bruised alone is said when
    the blow ends there, and the worst state is said when a blow goes past two thresholds."""
    enc = fight(fighter("Gorbag", SWORD, HP=25), fighter("Mira", SWORD, side="party", x=1))
    down, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 30})
    assert hp_lines(ev) == ["Gorbag is now incapacitated (HP -5)"]
    assert {"bruised", "incapacitated"} <= set(down.get("c1").conditions)  # the state itself is as before
    _, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 20})
    assert hp_lines(ev) == ["Gorbag is now bruised (HP 5)"]
    _, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 80})
    assert hp_lines(ev) == ["Gorbag is now dying (HP -55)"]
    _, ev = do(down, {"type": "tr.adjust_hp", "id": "c1", "hits": 50})
    assert hp_lines(ev) == ["Gorbag is now dying (HP -55)"]
