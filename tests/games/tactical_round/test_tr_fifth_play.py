"""What the fifth GM play-through of the tactical round left, in the engine: a bow without Quick Load
was told to declare its reload with the shot, which the rules then refused."""

from __future__ import annotations

import pytest

from fray.errors import RuleViolation

from tr_helpers import BOW, KNIFE, QUICK, SWORD, declare, fight, fighter, to_phase

def said(e: RuleViolation) -> str:
    """A refusal as the page says it, without the engine's "(rule: ...)"."""
    return str(e).removesuffix(f" (rule: {e.rule})")


def test_a_bow_without_quick_load_is_told_the_reload_is_the_rounds_full_action():
    """Reloading: "Reloading a missile weapon is a Full Action or a Multi-Round Action, depending on the weapon.
    Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character to attack in
    the same Round." Mira's Short bow (no Quick Load), empty, was told "declare the reload (Quick Load) or ready
    it too"; the GM declared Reload with the shot and was refused "at most one Full and one Half action"."""
    enc = to_phase(fight(fighter("Mira", {**BOW, "loaded": False}, side="party"), fighter("Orc 4", SWORD, x=9)),
                   "declaration")
    shot = {"action": "ranged_attack", "weapon": 0, "target": "c2"}
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", shot)
    told = said(e.value)
    assert told == ("Bow is not loaded: without Quick Load its reload is a Full Action, so the shot waits for "
                    "next round: declare Reload a missile weapon alone"), told
    with pytest.raises(RuleViolation) as e:  # the shot with it: the rule, not the count of actions
        declare(enc, "c1", {"action": "reload", "weapon": 0}, shot)
    assert e.value.rule == "Reloading" and "only Quick Load" in said(e.value)
    enc = declare(enc, "c1", {"action": "reload", "weapon": 0})  # what the hint says is taken
    assert [d["action"] for d in enc.state["declared"]["c1"]] == ["reload"]


@pytest.mark.parametrize("weapon, hint, with_it", [
    (QUICK, "Light crossbow is not loaded: declare Reload a missile weapon with the shot "
            "(Quick Load: a Half Action)", "reload"),
    (KNIFE, "Knife is not readied: declare Ready a thrown weapon with the throw (a Half Action)", "ready_thrown"),
])
def test_quick_load_and_thrown_are_told_to_declare_the_half_action_with_the_shot(weapon, hint, with_it):
    """Reloading: "Weapons with the Quick Load property can be reloaded as a Half Action, allowing the character
    to attack in the same Round. Readying a thrown weapon is always a Half Action." The hint is followed."""
    enc = to_phase(fight(fighter("Mira", {**weapon, "loaded": False}, side="party"),
                         fighter("Orc 4", SWORD, x=4)), "declaration")
    shot = {"action": "ranged_attack", "weapon": 0, "target": "c2"}
    with pytest.raises(RuleViolation) as e:
        declare(enc, "c1", shot)
    assert said(e.value) == hint
    declare(enc, "c1", {"action": with_it, "weapon": 0}, shot)
