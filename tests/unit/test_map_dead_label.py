"""The words beside a token on the map (web/mapview.label_lines): a GM's play-through read a dead wolf's label
as "bruised · incapacitated · dead"; the dead need only "dead"."""

from __future__ import annotations

import random

from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web.mapview import label_lines, token_label

RS = get_ruleset("tactical-round")


def test_a_dead_tokens_label_says_dead_only():
    wolf = next(p for p in RS.presets() if p["name"] == "Wolf")
    h = History(new_encounter("tactical-round", "T"))
    h.do({"type": "add_combatant", "combatant": dict(wolf)}, random.Random(1))
    h.do({"type": "add_combatant", "combatant": {**wolf, "name": "Wolf 2"}}, random.Random(1))
    for cond in ("bruised", "incapacitated", "dead"):
        h.do({"type": "set_condition", "id": "c1", "condition": cond, "on": True}, random.Random(1))
    h.do({"type": "set_condition", "id": "c2", "condition": "bruised", "on": True}, random.Random(1))
    dead, hurt = h.present.get("c1"), h.present.get("c2")
    assert "dead" in dead.conditions and "incapacitated" in dead.conditions
    assert label_lines(dead, None, None, "straight", 1.0)[0][1] == ("info", [("state", "dead")], 0.7)
    assert token_label(dead, False, None).endswith("altitude 0 m, dead")
    assert label_lines(hurt, None, None, "straight", 1.0)[0][1] == ("info", [("state", "bruised")], 0.7)


def _crowd_with_the_dead():
    """A GM's strike-rank ambush at the ford (tests/e2e/test_map_crowd_labels.py), six of them dead."""
    rs = get_ruleset("strike-rank")
    warrior = next(p for p in rs.presets() if p["name"] == "Human warrior")
    h = History(new_encounter("strike-rank", "Ford"))
    spots = [("Knight 1", 0, 0), ("Knight 2", 0, 2), ("Knight 3", -2, 1), ("Archer", -6, 0), ("Bandit 1", 2, 1),
             ("Bandit 2", 2, 3), ("Bandit 3", 2.5, -.5), ("Bandit 4", 3.5, 1.5), ("Great wolf", 1, -2),
             ("Gorp", -2, -2), ("Crossbowman", 8, 4), ("Bandit 5", 5, -3)]
    for i, (name, x, y) in enumerate(spots):
        h.do({"type": "add_combatant", "combatant": {**warrior, "name": name, "side": "party" if i < 4 else "foes",
                                                      "position": {"x": x, "y": y, "alt": 0}}}, random.Random(1))
    for cid in ("c1", "c5", "c6", "c7", "c8", "c9"):
        h.do({"type": "set_condition", "id": cid, "condition": "dead"}, random.Random(1))
    return h.present


def test_a_fallen_tokens_label_names_it_to_the_last():
    """A tablet's fitted map of a crowd, Bandit 5 selected: the dead Bandit 1 and Bandit 4 were labelled "B1"
    and "B4", the initials under their crosses, so no one could tell whose body lay where. Every form of a
    fallen token's label says its name (the shortest: the name and "dead"); a standing one's may still shrink
    to the initials its disc shows."""
    enc = _crowd_with_the_dead()
    for c in enc.combatants:
        variants = label_lines(c, None, None, "straight", 1.0, "X9")
        texts = [" ".join(t for line in v for _, spans, _ in [line] for _, t in spans) for v in variants]
        if "dead" in c.conditions:
            assert all(c.name in t for t in texts), (c.name, texts)
            assert texts[-1] == f"{c.name} dead"  # and says "dead" to the last (test_long_names_keep_their_words)
        else:
            assert texts[-1] == "X9"


def test_a_dying_tokens_label_says_dying_only():
    """FACTS.md (tactical-round): "Hit points: 0 or below → incapacitated; −50 or below → dying; below half →
    Bruised (−20)." Dying includes the other two, so the GM's map says "dying" beside Orc 2 (after a blow of
    100 hits on his 45 HP), as the strip does, not "bruised · incapacitated · dying"."""
    from fray.maprules import map_view
    orc = next(p for p in RS.presets() if p["name"] == "Orc warrior")
    h = History(new_encounter("tactical-round", "T"))
    h.do({"type": "add_combatant", "combatant": {**orc, "name": "Orc 2"}}, random.Random(1))
    h.do({"type": "tr.adjust_hp", "id": "c1", "hits": 100}, random.Random(1))
    orc2 = h.present.get("c1")
    assert {"bruised", "incapacitated", "dying"} <= set(orc2.conditions)
    unsaid = map_view(h.present, None).unsaid.get("c1", ())
    assert label_lines(orc2, None, None, "straight", 1.0, unsaid=unsaid)[0][1] == ("info", [("state", "dying")], 0.7)
    assert token_label(orc2, False, None, unsaid=unsaid).endswith("altitude 0 m, dying")
