"""The flow of a whole fight (issue 32, "A whole fight, played"): what Next does with the actions still
open at its SR, what becomes of the fallen's actions, and the fumble that rolls twice.

Every docstring quotes the phrase of the rule text (shared/rules/003_168d2c1d87c828e0.txt) it checks.
"""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation
from sr_helpers import RS, actions, attack, declare, do, fight, fighter, prompts, texts, to_phase

NEXT = {"type": "advance", "ask_open": True}  # the page's Next (issue 32); a bare advance is an old save's


def broos():
    """Ana against Broo 1 and Broo 3, all three with the same SR 7 (DEX 11, SIZ 13, broadsword)."""
    return fight(fighter("Ana", side="party", x=0), fighter("Broo 1", x=2), fighter("Broo 3", x=2, y=2))


def test_next_does_not_drop_a_standing_combatants_attack():
    """Action Declaration & Resolution: "Actions are resolved in SR order". Next leaves no standing
    combatant's declared attack unresolved without a word: it says what is open, and the GM resolves it or
    skips it (issue 32: "Broo 3's attack at SR 10 was not resolved: lost")."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    assert enc.state["sr"] == 7
    with pytest.raises(RuleViolation, match="Broo 1's attack at SR 7 is not resolved; Broo 3's attack at SR 7 is "
                                            "not resolved: resolve it or skip it"):
        do(enc, NEXT)
    enc, _ = attack(enc, "c2", "c1", ref="a1", rolls={"attack": 90})
    with pytest.raises(RuleViolation, match="Broo 3's attack at SR 7 is not resolved"):
        do(enc, NEXT)
    enc, ev = do(enc, {"type": "sr.skip", "ref": "a2"})
    assert "GM skips Broo 3's attack at SR 7: not resolved" in texts(ev)
    assert actions(enc, "c3")[0]["status"] == "skipped"
    enc, ev = do(enc, NEXT)
    assert enc.phase == "end" and "lost" not in texts(ev)
    with pytest.raises(RuleViolation, match="not pending"):
        do(enc, {"type": "sr.skip", "ref": "a2"})


def test_an_advance_saved_before_still_does_what_it_did():
    """Action Declaration & Resolution: an old save's bare ``advance`` replays as it was played (its open attack
    "was not resolved: lost", logged), so a fight saved before issue 32 loads as it was."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "advance"})
    assert "Broo 1's attack at SR 7 was not resolved: lost" in texts(ev) and enc.phase == "end"


def test_actions_without_a_roll_resolve_in_their_sr_by_themselves():
    """Movement / Ranged Combat: a move or a reload needs no roll; Next resolves it at its SR by itself."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c1", kind="move", metres=3)
    enc, _ = declare(enc, "c2", kind="other", label="Ready a sword", sr_cost=1)
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "advance"})
    enc, ev2 = do(enc, {"type": "advance"})
    assert "Ana finishes moving 3 m" in texts(ev + ev2) and "Broo 1: Ready a sword done" in texts(ev + ev2)
    assert {a["status"] for a in enc.state["actions"]} == {"done"}


def test_the_fallen_lose_their_pending_actions_by_themselves():
    """Action Declaration & Resolution: "Characters who become incapacitated generally lose actions that would
    have resolved after they are incapacitated." Killed at SR 7 before his own SR-7 attack, Broo 1 cannot make
    it: it would have resolved after, so it is lost at once, as an injury's is, in the same words (issue 33:
    "Broo 1's attack at SR 7 is lost: Broo 1 is dead"), and it does not hold Next up."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    enc = to_phase(enc, "resolve")
    enc, ev = do(enc, {"type": "sr.damage", "target": "c2", "location": "chest", "amount": 30, "armour": False})
    assert "dead" in enc.get("c2").conditions
    assert "Broo 1's attack at SR 7 is lost: Broo 1 is dead" in texts(ev)
    assert actions(enc, "c2")[0]["status"] == "lost"
    with pytest.raises(RuleViolation, match="Broo 1 is dead"):
        attack(enc, "c2", "c1", ref="a1", rolls={"attack": 10})
    with pytest.raises(RuleViolation, match="^Broo 3's attack at SR 7 is not resolved: resolve it or skip it"):
        do(enc, NEXT)  # Broo 1's own attack does not hold Next up
    enc, _ = do(enc, {"type": "sr.skip", "ref": "a2"})
    enc, ev = do(enc, NEXT)
    assert "is lost" not in texts(ev)  # said once, when it happened


def test_a_combatant_the_gm_marks_dead_loses_the_action_at_once():
    """"Characters who become incapacitated generally lose actions that would have resolved after they are
    incapacitated": marked dead or unconscious on the card (not by a blow), they lose theirs at once, as a
    blow's fallen do, each with a log line, and their attacks never hold Next up (until the final build's
    play-through they were lost only when Next came to them, timed again meanwhile)."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1")
    enc, ev = do(enc, {"type": "set_condition", "id": "c3", "condition": "unconscious"})
    assert "Broo 3's attack at SR 7 is lost: Broo 3 is unconscious" in texts(ev)
    enc, ev = do(enc, NEXT)
    assert "is lost" not in texts(ev)
    enc, ev = do(enc, {"type": "set_condition", "id": "c2", "condition": "dead"})
    assert "Broo 1's attack at SR 7 is lost: Broo 1 is dead" in texts(ev)
    enc, ev = do(enc, NEXT)
    assert enc.phase == "end"
    enc = to_phase(enc, "declare")
    with pytest.raises(RuleViolation, match="is dead"):
        declare(enc, "c2", kind="melee", weapon="broadsword", target="c1")


def test_fumble_roll_twice_and_apply_both():
    """Fumble Table: "Roll twice and apply both" — applying it rolls twice on the table and applies both
    results (issue 32: "Apply it" rolled nothing and logged "keep")."""
    enc = to_phase(broos(), "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc = to_phase(enc, "resolve")
    enc, ev = attack(enc, "c1", "c2", ref="a1", rolls={"attack": 100, "fumble_attack": 98})
    p = prompts(enc, "fumble")[0]
    from fray.games.strike_rank.web.questions import prompt_html

    page = prompt_html(next(q for q in RS.view(enc)["prompts"] if q["id"] == p["id"]), {})
    assert ">Roll twice and apply both</button>" in page and 'name="rolls.fumble.first"' in page
    assert "prone" not in enc.get("c1").conditions
    enc, ev = do(enc, {"type": "sr.answer", "prompt": p["id"], "choice": "keep", "apply": True,
                       "rolls": {"fumble.first": 35, "fumble.second": 5}})
    assert "Ana's fumble, rolled twice: 35 → Fall prone" in texts(ev)
    assert "Ana's fumble, rolled twice: 5 → Lose next parry or dodge this MR" in texts(ev)
    assert "prone" in enc.get("c1").conditions and enc.get("c1").data["round"]["lost_defence"]
