"""Where the page stands a combatant added without a position (fray.placing, issue 33 "The map at table
density": "place copies in a formation a token apart (and let the GM drag the group)")."""

from __future__ import annotations

import math

from fray.history import History
from fray.placing import beside, formation, free_spot, ridden
from fray.reducer import FORMATION_STEP, new_encounter
from fray.games import get_ruleset


def _add(h: History, ruleset: str, side: str, count: int, name: str, placed: bool = True) -> None:
    body = {**get_ruleset(ruleset).presets()[0], "name": name, "side": side, "count": count}
    body.pop("position", None)
    if placed:
        p = free_spot(h.present, side, count)
        body["position"] = {"x": p.x, "y": p.y, "alt": p.alt}
    h.do({"type": "add_combatant", "combatant": body})


def _closest(enc) -> float:
    cs = enc.combatants
    return min(math.hypot(a.position.x - b.position.x, a.position.y - b.position.y)
               for i, a in enumerate(cs) for b in cs[i + 1:])


def test_the_formation_is_the_reducers():
    """The offsets are Add ×N's own: rows of ceil(√N), FORMATION_STEP apart, east then south."""
    assert formation(1) == [(0, 0)]
    assert formation(6) == [(0, 0), (3, 0), (6, 0), (0, -3), (3, -3), (6, -3)]
    h = History(new_encounter("strike-rank"))
    _add(h, "strike-rank", "foes", 6, "Orc", placed=False)
    first = h.present.combatants[0].position
    assert [(c.position.x - first.x, c.position.y - first.y) for c in h.present.combatants] == formation(6)


def test_an_empty_map_starts_at_the_origin():
    assert free_spot(new_encounter("tactical-round"), "party", 6) == free_spot(new_encounter("range-band"), "foes")
    assert (free_spot(new_encounter("range-band"), "foes").x, free_spot(new_encounter("range-band"), "foes").y) == (0, 0)


def test_two_groups_of_six_stand_apart_and_opposite():
    """Heroes ×6 then foes ×6: without a spot, both stood on (0, 0); with it, no two tokens closer than
    the formation's step, and the foes stand to the east of the heroes, facing them, beyond the game's
    melee contact: a step (3 m) clears range-band's engaged band (2 m) and tactical-round has none (melee
    is declared); strike-rank's engagement range is 3 m, so a step beyond it."""
    for ruleset in ("strike-rank", "tactical-round", "range-band"):
        bare = History(new_encounter(ruleset))
        _add(bare, ruleset, "party", 6, "Hero", placed=False)
        _add(bare, ruleset, "foes", 6, "Foe", placed=False)
        # the engine alone: the second group passes over the first's spots (once, they stood on them)
        assert _closest(bare.present) >= FORMATION_STEP - 1e-9

        h = History(new_encounter(ruleset))
        _add(h, ruleset, "party", 6, "Hero")
        _add(h, ruleset, "foes", 6, "Foe")
        assert _closest(h.present) >= FORMATION_STEP - 1e-9, ruleset
        heroes = [c.position.x for c in h.present.combatants if c.side == "party"]
        foes = [c.position.x for c in h.present.combatants if c.side == "foes"]
        gap = {"strike-rank": 6, "tactical-round": 3, "range-band": 3}[ruleset]  # 3 m clears range-band's 2
        assert min(foes) - max(heroes) == gap  # beyond melee contact, not across the map


def test_a_side_the_gm_adds_does_not_start_the_fight_engaged():
    """Strike-rank: "For human-sized combatants, engagement range is about 3 meters or less", and
    engagement comes from where they stand: wolves added 3 m from the party were engaged before
    anyone moved (a GM's finding). Now nobody of one side is within engagement range of the other."""
    from fray.games.strike_rank import combat
    h = History(new_encounter("strike-rank"))
    _add(h, "strike-rank", "party", 6, "Hero")
    _add(h, "strike-rank", "foes", 6, "Wolf")
    _add(h, "strike-rank", "foes", 1, "Troll")
    assert [c.name for c in h.present.combatants if combat.engaged_with(h.present, c)] == []


def test_a_side_already_there_joins_its_own_and_the_party_comes_from_the_west():
    h = History(new_encounter("strike-rank"))
    _add(h, "strike-rank", "foes", 4, "Goblin")           # (0,0) (3,0) (0,-3) (3,-3)
    _add(h, "strike-rank", "party", 2, "Hero")            # a new side: west of everyone
    heroes = [c.position for c in h.present.combatants if c.side == "party"]
    assert max(p.x for p in heroes) == -2 * FORMATION_STEP  # a step beyond the 3 m engagement range
    _add(h, "strike-rank", "foes", 3, "Wolf")             # beside the goblins: south of them
    wolves = [c.position for c in h.present.combatants if c.name.startswith("Wolf")]
    assert min(p.x for p in wolves) == 0 and max(p.y for p in wolves) == -2 * FORMATION_STEP
    _add(h, "strike-rank", "neutral", 1, "Merchant")      # neither: east of everyone
    m = h.present.combatants[-1].position
    assert m.x == 3 + 2 * FORMATION_STEP
    assert _closest(h.present) >= FORMATION_STEP - 1e-9


def test_crowded_ground_still_finds_free_spots():
    """Twelve single adds of mixed sides, and a group of nine into the crowd: nobody on anybody."""
    h = History(new_encounter("tactical-round"))
    for i in range(12):
        _add(h, "tactical-round", ("party", "foes", "neutral")[i % 3], 1, f"N{i}")
    _add(h, "tactical-round", "foes", 9, "Orc")
    assert len(h.present.combatants) == 21
    assert _closest(h.present) >= FORMATION_STEP - 1e-9
    xs = [c.position.x for c in h.present.combatants]
    ys = [c.position.y for c in h.present.combatants]
    assert max(xs) - min(xs) <= 30 and max(ys) - min(ys) <= 30  # a compact fight, not scattered


def test_a_duplicate_stands_beside_its_original_not_on_it():
    """Duplicate used to put the copy a metre east, under the original's token at the default zoom: the
    page sends the nearest free spot a formation step away (east first), which the action takes."""
    h = History(new_encounter("strike-rank"))
    _add(h, "strike-rank", "foes", 1, "Goblin")
    _add(h, "strike-rank", "party", 1, "Hero")            # west of the goblin
    p = beside(h.present, "c1")
    assert (p.x, p.y) == (FORMATION_STEP, 0)
    h.do({"type": "duplicate_combatant", "id": "c1", "position": {"x": p.x, "y": p.y, "alt": p.alt}})
    assert (h.present.combatants[-1].position.x, h.present.combatants[-1].position.y) == (FORMATION_STEP, 0)
    for _ in range(6):
        p = beside(h.present, "c1")
        h.do({"type": "duplicate_combatant", "id": "c1", "position": {"x": p.x, "y": p.y, "alt": p.alt}})
    assert _closest(h.present) >= FORMATION_STEP - 1e-9
    h.do({"type": "duplicate_combatant", "id": "c2"})   # an action without one: a metre east, as before
    assert h.present.combatants[-1].position.x == h.present.get("c2").position.x + 1


def test_a_rider_stands_where_its_mount_stands():
    """A rider added with its mount named (strike-rank ``mount``, range-band ``riding``) stands on it."""
    h = History(new_encounter("strike-rank"))
    _add(h, "strike-rank", "foes", 1, "Goblin")
    _add(h, "strike-rank", "party", 1, "Horse")
    horse = h.present.get("c2").position
    assert ridden(h.present, {"mount": "c2"}) == horse
    assert ridden(h.present, {"riding": "c2"}) == horse
    assert ridden(h.present, {"mount": "c9"}) is None and ridden(h.present, "junk") is None


def test_a_group_added_at_a_typed_spot_stands_no_one_on_an_occupied_spot():
    """A GM's play-through (tactical-round): "Orc warrior", How many 3, at (0, 3) with Sir Bors already at
    (0, 0): Orc 3 landed on (0, 0), Sir Bors hidden under it, 0.0 m apart. The formation passes over a spot
    someone stands on (within half a step), in any game; the rows stay straight and FORMATION_STEP apart."""
    for ruleset in ("tactical-round", "strike-rank", "range-band", "freeform"):
        h = History(new_encounter(ruleset))
        preset = get_ruleset(ruleset).presets()[0] if get_ruleset(ruleset).presets() else {"name": "x"}
        h.do({"type": "add_combatant", "combatant": {**preset, "name": "Sir Bors", "side": "party",
                                                      "position": {"x": 0, "y": 0, "alt": 0}}})
        h.do({"type": "add_combatant", "combatant": {**preset, "name": "Orc warrior", "side": "foes", "count": 3,
                                                      "position": {"x": 0, "y": 3, "alt": 0}}})
        spots = {c.name: (c.position.x, c.position.y) for c in h.present.combatants}
        assert spots["Sir Bors"] == (0, 0), ruleset
        assert spots["Orc warrior 1"] == (0, 3) and spots["Orc warrior 2"] == (3, 3), ruleset
        assert spots["Orc warrior 3"] == (3, 0), (ruleset, spots)  # past Sir Bors' spot, along the row
        assert _closest(h.present) >= FORMATION_STEP - 1e-9, ruleset


def test_a_card_says_zero_not_minus_zero():
    """A GM's play-through: a knockback straight along the x axis left the card saying "(10, -0) m"."""
    from fray.games import get_ruleset
    from fray.reducer import new_encounter
    from fray.history import History
    from fray.web.render import combatant_card
    h = History(new_encounter("freeform", "t"))
    h.do({"type": "add_combatant", "combatant": {"name": "Vasha", "side": "party", "position": {"x": 10.0, "y": -0.0}}})
    enc = h.present
    c = enc.combatants[0]
    assert c.position.y == 0 and str(c.position.y) in ("-0.0", "0.0")
    card = str(combatant_card(enc, c, get_ruleset("freeform"), open_=False))
    assert "(10, 0) m" in card and "-0" not in card
