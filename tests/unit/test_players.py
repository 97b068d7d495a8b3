"""The players' view projection (issue 12, "The players' view").

Issue: "It shows the order of play and who acts now, names, the map with tokens, and wounds as the
GM chooses per encounter (exact HP, described states such as "badly hurt", or nothing). The GM can
hide any combatant from it (an ambusher not yet revealed); in range-band, combatants that no party
member can see (the engine's visibility projection) are hidden automatically, with the GM able to
override. It never shows the GM's notes, dice typed but not yet applied, or hidden combatants'
positions, and has no controls that change the encounter."
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fray import players
from fray.errors import InvalidAction
from fray.history import History
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "range_band"))
from rb_helpers import fight, person  # noqa: E402


def see(enc):
    rs = get_ruleset(enc.ruleset)
    return players.project(enc, rs.view(enc), rs.order_of_play(enc))


def free_fight():
    enc = new_encounter("freeform", "Bridge")
    for name, side, hp, notes, x in (("Bran", "party", 12, "owes the GM a favour", 3),
                                     ("Grak", "foes", 4, "secretly the duke", 40)):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {
            "name": name, "side": side, "stats": {"initiative": 10 if side == "party" else 5, "HP": hp,
                                                  "max HP": 12}, "notes": notes,
            "position": {"x": x, "y": 7, "alt": 0}}})
    enc, _ = apply(enc, {"type": "advance"})
    return enc


def test_shows_order_who_acts_names_and_positions():
    p = see(free_fight())
    assert [o["name"] for o in p["order"]] == ["Bran", "Grak"]
    assert p["current"] == "c1" and p["order"][0]["current"] is True
    assert {c["name"]: (c["x"], c["y"]) for c in p["combatants"]} == {"Bran": (3, 7), "Grak": (40, 7)}


def test_never_notes_stats_log_or_pending():
    enc = free_fight()
    enc, _ = apply(enc, {"type": "note", "text": "the bridge will collapse"})
    text = json.dumps(see(enc))
    for secret in ("owes the GM a favour", "secretly the duke", "bridge will collapse", "initiative"):
        assert secret not in text
    assert set(see(enc)) == {"name", "round", "phase", "phase_label", "wounds", "order", "current", "combatants",
                            "areas"}  # the scene's marked areas (smoke, darkness): seen by all


@pytest.mark.parametrize("mode,want", [("exact", {"Bran": "HP 12 / 12", "Grak": "HP 4 / 12"}),
                                       ("described", {"Bran": "unhurt", "Grak": "badly hurt"}),
                                       ("none", {"Bran": "", "Grak": ""})])
def test_wounds_as_the_gm_chooses(mode, want):
    """"wounds as the GM chooses per encounter (exact HP, described states such as "badly hurt", or nothing)" """
    enc, _ = apply(free_fight(), {"type": "players.wounds", "mode": mode})
    assert {c["name"]: c["wounds"] for c in see(enc)["combatants"]} == want
    assert see(enc)["wounds"] == mode


def test_described_states():
    assert [players.describe(c, 20) for c in (20, 15, 10, 1, 0, -3)] == [
        "unhurt", "hurt", "badly hurt", "badly hurt", "down", "down"]
    assert players.describe(5, None) == "standing"


def test_wounds_choice_is_an_action_with_undo():
    h = History(free_fight())
    h.do({"type": "players.wounds", "mode": "none"})
    assert players.settings(h.present)["wounds"] == "none"
    h.undo()
    assert players.settings(h.present)["wounds"] == players.DEFAULT_WOUNDS
    with pytest.raises(InvalidAction) as e:
        apply(h.present, {"type": "players.wounds", "mode": "all of it"})
    assert e.value.field == "mode"


def test_gm_hides_a_combatant_everywhere():
    """"The GM can hide any combatant from it (an ambusher not yet revealed)" and it never shows
    "hidden combatants' positions"."""
    enc, _ = apply(free_fight(), {"type": "players.hide", "id": "c2", "hidden": True})
    p = see(enc)
    text = json.dumps(p)
    assert "Grak" not in text and "c2" not in text and "40" not in text
    assert [o["id"] for o in p["order"]] == ["c1"]
    enc, _ = apply(enc, {"type": "players.hide", "id": "c2", "hidden": None})
    assert "Grak" in json.dumps(see(enc))
    with pytest.raises(InvalidAction):
        apply(enc, {"type": "players.hide", "id": "c9", "hidden": True})
    with pytest.raises(InvalidAction):
        apply(enc, {"type": "players.hide", "id": "c2", "hidden": "yes"})


def test_hidden_current_combatant_is_not_named_as_acting():
    enc, _ = apply(free_fight(), {"type": "advance"})
    assert see(enc)["current"] == "c2"
    enc, _ = apply(enc, {"type": "players.hide", "id": "c2", "hidden": True})
    assert see(enc)["current"] is None and "c2" not in json.dumps(see(enc))


def test_a_hidden_combatants_turn_is_not_named_in_the_phase():
    """The players' window shows "never ... hidden combatants": range-band's round bar says whose turn
    it is ("Movement phase: Sneak"), and the players' header read that name while Sneak, unseen by the
    party, was hidden everywhere else (a GM's play-through). On his turn the players see the phase alone."""
    enc = fight(person("Ana"), person("Sneak", side="foes", x=20, stealth="medium"), person("Brute", side="foes", x=5))
    enc, _ = apply(enc, {"type": "advance"})
    assert see(enc)["phase_label"] == "Movement phase: Ana"  # a seen combatant's turn is named
    enc, _ = apply(enc, {"type": "advance"})
    assert get_ruleset("range-band").view(enc)["phase_label"] == "Movement phase: Sneak"
    p = see(enc)
    assert p["phase_label"] == "Movement phase" and "Sneak" not in json.dumps(p)
    enc, _ = apply(enc, {"type": "players.hide", "id": "c2", "hidden": False})  # the GM reveals him
    assert see(enc)["phase_label"] == "Movement phase: Sneak"


def test_range_band_unseen_by_every_party_member_is_hidden_automatically():
    """"in range-band, combatants that no party member can see (the engine's visibility projection)
    are hidden automatically, with the GM able to override." (A Sneak in Medium Stealth at 20 m is
    unseen in medium light and clutter: tests/games/range_band/test_rb_sight.py.)"""
    enc = fight(person("Ana"), person("Sneak", side="foes", x=20, stealth="medium"),
                person("Brute", side="foes", x=5))
    assert get_ruleset("range-band").view(enc)["unseen"]["c1"] == ["c2"]
    assert [c["name"] for c in see(enc)["combatants"]] == ["Ana", "Brute"]
    enc, _ = apply(enc, {"type": "players.hide", "id": "c2", "hidden": False})  # the GM reveals it
    assert [c["name"] for c in see(enc)["combatants"]] == ["Ana", "Sneak", "Brute"]
    enc, _ = apply(enc, {"type": "players.hide", "id": "c3", "hidden": True})  # and hides a seen one
    assert [c["name"] for c in see(enc)["combatants"]] == ["Ana", "Sneak"]


def test_range_band_order_of_play_marks_the_fallen_down():
    """Statuses: "Incapacitated ... cannot act", and the dead are out of the fight. Range-band keeps no hit points,
    so the players' order of play listed "Broo 2" (dead), "Bandit Captain" (incapacitated) and "Bandit's Nag" (dead)
    plainly, while the map said "· down" and tactical-round's list "down". The fallen say "down" in the list too,
    unless the GM hides wounds; the standing say nothing (no hit points to describe)."""
    from fray.web.players_render import players_html
    enc = fight(person("Ana"), person("Broo", side="foes", x=5), person("Captain", side="foes", x=6),
                person("Bandit", side="foes", x=7))
    enc, _ = apply(enc, {"type": "rb.status", "id": "c2", "status": "dead"})
    enc, _ = apply(enc, {"type": "rb.status", "id": "c3", "status": "incapacitated"})
    p = see(enc)
    assert {c["name"]: c["wounds"] for c in p["combatants"]} == {"Ana": "", "Broo": "down", "Captain": "down",
                                                                  "Bandit": ""}
    assert players_html(p).count('<span class="pv-wound">down</span>') == 2
    enc, _ = apply(enc, {"type": "players.wounds", "mode": "none"})
    assert not any(c["wounds"] for c in see(enc)["combatants"])


def test_range_band_seen_by_one_party_member_is_shown():
    enc = fight(person("Ana"), person("Scout", x=18), person("Sneak", side="foes", x=20, stealth="medium"))
    assert "Sneak" in [c["name"] for c in see(enc)["combatants"]]


def test_range_band_with_no_party_hides_nobody():
    enc = fight(person("Sneak", side="foes", x=20, stealth="medium"), person("Guard", side="foes"))
    assert len(see(enc)["combatants"]) == 2


@pytest.mark.parametrize("ruleset", ["strike-rank", "tactical-round"])
def test_every_ruleset_projects(ruleset):
    rs = get_ruleset(ruleset)
    enc = new_encounter(ruleset, "Any")
    for p in rs.presets()[:2]:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    p = see(enc)
    assert len(p["combatants"]) == 2 and all(c["wounds"] for c in p["combatants"])
    json.dumps(p)


def test_strike_rank_declarations_show_everyone_in_the_order():
    """Strike-rank, Action Declaration & Resolution: every combatant declares before any acts. The order of play then
    holds only who has declared, and a GM's players' window read one name of three during declarations: it shows
    everyone in the fight, as the GM's strip does (those placed by their strike rank first, then the rest)."""
    rs = get_ruleset("strike-rank")
    enc = new_encounter("strike-rank", "Ford")
    for p in rs.presets()[:2]:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**rs.presets()[1], "name": "Wolf 2"}})
    enc, _ = apply(enc, {"type": "advance"})
    assert enc.phase == "declare"
    enc, _ = apply(enc, {"type": "sr.declare", "id": "c3", "kind": "melee", "weapon": "dagger", "target": "c1"})
    assert [s.combatant_id for s in rs.order_of_play(enc)] == ["c3"]  # the engine's order: the declared
    assert [o["id"] for o in see(enc)["order"]] == ["c3", "c1", "c2"]
    # and nobody acts yet: no one is "Now" while declaring, as on the GM's strip (Ruleset.still_to_act)
    order = rs.order_of_play(enc)
    p = players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))  # as web/players_view.projection
    assert p["current"] is None and not any(o["current"] for o in p["order"])


def test_settings_survive_a_save_round_trip():
    from fray import savefile
    h = History(free_fight())
    h.do({"type": "players.wounds", "mode": "exact"})
    h.do({"type": "players.hide", "id": "c2", "hidden": True})
    back = savefile.loads(savefile.dumps(h))
    assert see(back.present) == see(h.present)


@pytest.mark.parametrize("condition", ["unconscious", "incapacitated", "dead"])
def test_the_fallen_are_down_in_the_order_as_on_the_map(condition):
    """Strike-rank, Damage Equal to Location HP: "Head: CON test or fall unconscious"; the players cannot tell the
    unconscious from the dead ("down" on their map). A GM's players' window said "badly hurt" in its order list of a
    combatant its map showed down: described wounds say "down" of the fallen, whatever their hit points."""
    rs = get_ruleset("strike-rank")
    enc = new_encounter("strike-rank", "Ford")
    for p in rs.presets()[:2]:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    enc, _ = apply(enc, {"type": "sr.damage", "target": "c1", "location": "chest", "amount": 7, "armour": False,
                         "rolls": {"gm.con_shock": 1, "gm.con_head": 1}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": condition, "on": True})
    hurt = next(c for c in see(enc)["combatants"] if c["id"] == "c1")
    assert "down" in hurt["states"] and hurt["wounds"] == "down"
    standing = next(c for c in see(enc)["combatants"] if c["id"] == "c2")
    assert standing["wounds"] == "unhurt" and "down" not in standing["states"]


def test_range_band_a_companions_high_stealth_is_shown_a_foes_is_not():
    """Range-band, High Stealth: "Because of the impact on movement, the GM will not assume you are using High Stealth
    at all times, unless your party is willing to move very slowly": High Stealth is the players' own choice, so
    their window says it of a party member (the GM's map said "Kest high stealth", the players' window nothing).
    A foe's stealth stays the GM's to tell, even on a foe the GM shows them."""
    enc = fight(person("Kest", stealth="high"), person("Ana", x=2), person("Lurker", side="foes", x=4, stealth="high"))
    enc, _ = apply(enc, {"type": "players.hide", "id": "c3", "hidden": False})
    states = {c["name"]: c["states"] for c in see(enc)["combatants"]}
    assert states == {"Kest": ["high stealth"], "Ana": [], "Lurker": []}


def test_tactical_round_declaration_has_nobody_now():
    """Tactical Round Sequence (FACTS.md): "Assessment, Declaration, Move, ...": in the Declaration phase every
    combatant declares and nobody acts. A GM's players' window read "Now: Bran" during Declaration: it shows
    the phase, as the GM's round bar does, and nobody as acting; in the Move phase the one to move is Now."""
    rs = get_ruleset("tactical-round")
    enc = new_encounter("tactical-round", "Ford")
    for p in rs.presets()[:2]:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": p})
    while enc.phase != "declaration":
        enc, _ = apply(enc, {"type": "advance"})

    def projected(enc):
        order = rs.order_of_play(enc)
        return players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))

    p = projected(enc)
    assert p["current"] is None and not any(o["current"] for o in p["order"])
    assert p["phase_label"].startswith("Declaration")
    enc, _ = apply(enc, {"type": "tr.declare", "id": "c1", "actions": [{"action": "move"}]})
    while enc.phase != "move":
        enc, _ = apply(enc, {"type": "advance"})
    assert projected(enc)["current"] == "c1"
