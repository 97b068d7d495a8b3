"""The map's rules: distances combined per game, range bands, rings, engagements (fray.maprules)."""

from __future__ import annotations

import math

import pytest

from fray import maprules
from fray.maprules import greater_band, map_view, measure
from fray.model import Position
from fray.reducer import apply, new_encounter
from fray.games import get_ruleset
from fray.games.strike_rank.maprule import move_delay_sr


def _enc(ruleset: str, *people: tuple[dict, float, float, float]):
    enc = new_encounter(ruleset, "map test")
    for body, x, y, alt in people:
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": y, "alt": alt}}})
    return enc


def _sr(name: str, side: str = "foes", **over):
    p = next(p for p in get_ruleset("strike-rank").presets() if p["name"] == name)
    return {**p, "name": over.pop("as_", name), "side": side, **over}


def _tr(name: str, side: str = "foes", as_: str | None = None):
    p = next(p for p in get_ruleset("tactical-round").presets() if p["name"] == name)
    return {**p, "name": as_ or name, "side": side}


def test_straight_line_through_the_air_for_metre_games():
    m, why = measure(Position(0, 0, 0), Position(3, 4, 12), "straight")
    assert m == pytest.approx(13.0)
    assert "√" in why


def test_range_band_game_takes_the_greater_of_horizontal_and_vertical_band():
    # "Range between two characters is the greater of the horizontal and the vertical band."
    bands = [{"label": "engaged", "max": 2}, {"label": "short", "max": 10}, {"label": "medium", "max": 50},
             {"label": "long", "max": 250}, {"label": "travel", "max": None}]
    assert greater_band(5, 0, bands)["label"] == "short"
    assert greater_band(5, 60, bands)["label"] == "long"      # high above: the vertical band wins
    assert greater_band(300, 1, bands)["label"] == "travel"   # far across: the horizontal band wins
    assert greater_band(1, 1, bands)["label"] == "engaged"
    # not the band of the straight line: 40 m across and 40 m up is 56.6 m (long) but both bands are medium
    assert math.hypot(40, 40) > 50 and greater_band(40, 40, bands)["label"] == "medium"


def test_each_ruleset_brings_its_own_map_rule():
    from fray.games.strike_rank.maprule import StrikeRankMap
    from fray.games.tactical_round.maprule import TacticalRoundMap

    assert isinstance(maprules.rule_for("strike-rank"), StrikeRankMap)
    assert isinstance(maprules.rule_for("tactical-round"), TacticalRoundMap)
    assert type(maprules.rule_for("freeform")) is maprules.MapRule
    assert type(maprules.rule_for("no-such-game")) is maprules.MapRule
    assert maprules.rule_for("strike-rank").combine == "straight"


def test_strike_rank_bands_rings_and_move_delay():
    enc = _enc("strike-rank", (_sr("Archer", "party"), 0, 0, 0), (_sr("Human warrior"), 10, 0, 0),
               (_sr("Human warrior", as_="Far"), 200, 0, 0), (_sr("Human warrior", as_="Near"), 2, 0, 0))
    v = map_view(enc, "c1")
    by = {t.name: t for t in v.targets}
    assert by["Near"].band.label == "engagement range"
    assert by["Human warrior"].band.label == "within range"
    assert by["Far"].band.label == "beyond range: skill halved"  # 120 m < 200 m <= 240 m
    # "Movement costs 1 SR per (Movement rate) metres": 10 m away, 7 m to engagement range at 3 m/SR
    assert by["Human warrior"].rule.startswith("move delay 3 SR")
    radii = {(r.kind, r.radius) for r in v.rings}
    assert ("range", 120) in radii and ("double", 240) in radii and ("move", 3) in radii and ("move", 9) in radii
    assert [t.name for t in v.targets] == ["Near", "Human warrior", "Far"]  # nearest first
    assert ("c1", "c4") in v.links  # adjacent enemies are engaged


def test_strike_rank_move_delay_changes_when_the_token_moves():
    enc = _enc("strike-rank", (_sr("Human warrior", "party"), 0, 0, 0), (_sr("Human warrior", as_="B"), 9, 0, 0))
    assert map_view(enc, "c1").targets[0].rule.startswith("move delay 2 SR")
    enc, _ = apply(enc, {"type": "move", "id": "c2", "x": 30, "y": 0, "alt": 0})
    assert map_view(enc, "c1").targets[0].rule.startswith("move delay 9 SR")


def test_tactical_round_range_modifiers_from_the_table():
    enc = _enc("tactical-round", (_tr("Crossbowman", "party"), 0, 0, 0), (_tr("Orc warrior", as_="A"), 20, 0, 0),
               (_tr("Orc warrior", as_="B"), 0, 45, 0), (_tr("Orc warrior", as_="C"), 0, 0, 100),
               (_tr("Orc warrior", as_="D"), 130, 0, 0))
    v = map_view(enc, "c1")
    by = {t.name: t for t in v.targets}
    assert by["A"].band.modifier == 0 and by["A"].rule == "range modifier +0"
    assert by["B"].band.modifier == -25 and by["B"].rule == "range modifier −25"
    assert by["C"].band.modifier == -75  # 100 m straight up, Base Range 30 m: over 3x up to 4x
    assert not by["D"].band.reachable
    assert [(r.radius, r.label) for r in v.rings] == [(30, "×1 +0"), (60, "×2 −25"), (90, "×3 −50"),
                                                      (120, "×4 −75")]


def test_tactical_round_uses_the_gm_edited_range_table():
    enc = _enc("tactical-round", (_tr("Crossbowman", "party"), 0, 0, 0), (_tr("Orc warrior"), 45, 0, 0))
    table = {**get_ruleset("tactical-round").tables["range_bands"]}
    table["entries"] = [{"up_to_multiple": 2, "modifier": 0}, {"up_to_multiple": 4, "modifier": -40}]
    enc, _ = apply(enc, {"type": "set_table", "table": "range_bands", "value": table})
    assert map_view(enc, "c1").targets[0].band.modifier == 0


def test_tactical_round_engagement_links_come_from_engaged_with():
    enc = _enc("tactical-round", (_tr("Swordsman with shield", "party"), 0, 0, 0), (_tr("Orc warrior"), 1, 0, 0))
    assert map_view(enc, None).links == []
    enc.combatants[0].data["engaged_with"] = ["c2"]
    enc.combatants[1].data["engaged_with"] = ["c1"]
    v = map_view(enc, "c1")
    assert v.links == [("c1", "c2")]
    assert v.targets[0].band.label == "engaged"


def test_freeform_shows_distances_only():
    enc = _enc("freeform", ({"name": "A"}, 0, 0, 0), ({"name": "B"}, 3, 4, 0))
    v = map_view(enc, "c1")
    assert v.targets[0].metres == pytest.approx(5) and v.targets[0].band is None and v.rings == []


def test_missing_weapon_data_falls_back_to_distances():
    enc = _enc("strike-rank", (_sr("Human warrior", "party"), 0, 0, 0), (_sr("Human warrior", as_="B"), 9, 0, 0))
    enc.combatants[0].data["weapons"] = None
    v = map_view(enc, "c1")
    assert v.targets[0].metres == pytest.approx(9)
    assert all(r.kind == "move" for r in v.rings)


def test_move_delay_arithmetic():
    assert move_delay_sr(6, 3) == 2
    assert move_delay_sr(7, 3) == 3
    assert move_delay_sr(0, 3) == 0
    assert move_delay_sr(0.5, 3) == 1


def test_bodies_on_the_line_of_fire_are_flagged_for_the_gm():
    """Issue 5: "line-of-sight prompts come from the positions". tactical-round, Ranged Attacks:
    "the character must have a clear Line of Sight to the target": a body within 1 m of the line
    (in three dimensions, strictly between shooter and target) is put to the GM; one beside the
    line, behind the target or flying over it is not."""
    enc = _enc("freeform", ({"name": "Archer"}, 0, 0, 0), ({"name": "Orc"}, 20, 0, 0),
               ({"name": "Ally"}, 10, 0.8, 0), ({"name": "Aside"}, 10, 3, 0), ({"name": "Behind"}, 25, 0, 0),
               ({"name": "Bird"}, 5, 0, 4))
    v = map_view(enc, "c1")
    orc = next(t for t in v.targets if t.name == "Orc")
    assert orc.in_the_way == ["Ally"]
    behind = next(t for t in v.targets if t.name == "Behind")
    assert behind.in_the_way == ["Ally", "Orc"]
    aside = next(t for t in v.targets if t.name == "Aside")
    assert aside.in_the_way == []


def test_strike_rank_band_agrees_with_the_move_delay_beside_it():
    """A GM's play-through: with Knight 3 selected, the row for Gorp at 3.0 m showed Band "out of reach" and
    Rule "move delay 0 SR (within engagement range)" side by side, and every row said "out of reach". Rule
    (Strike Ranks): "For human-sized combatants, engagement range is about 3 meters or less"; "if a human
    (Movement 3m) must move 6m to get within melee range of an opponent, the attack will be delayed by 2 SR".
    The band and the rule read one figure (metres to go, to the centimetre, as a declared move does): within
    engagement range is within reach; beyond it a fighter who can move is a move away, not out of reach."""
    enc = _enc("strike-rank", (_sr("Human warrior", "party"), 0, 0, 0), (_sr("Human warrior", as_="Gorp"), 3.004, 0, 0),
               (_sr("Human warrior", as_="Bandit"), 4, 0, 0))
    by = {t.name: t for t in map_view(enc, "c1").targets}
    assert f"{by['Gorp'].metres:.1f} m" == "3.0 m"
    assert by["Gorp"].rule == "move delay 0 SR (within engagement range)"
    assert by["Gorp"].band.label == "engagement range" and by["Gorp"].band.reachable
    assert by["Bandit"].rule.startswith("move delay 1 SR")
    assert by["Bandit"].band.label == "beyond engagement range" and by["Bandit"].band.reachable
    for t in map_view(enc, "c1").targets:  # no row says "out of reach" beside a move delay
        assert not (t.band.label == "out of reach" and t.rule.startswith("move delay")), t
    # one who cannot move is out of reach beyond engagement range, and the rule says so
    enc.combatants[0].stats["move"] = 0
    by = {t.name: t for t in map_view(enc, "c1").targets}
    assert by["Bandit"].band.label == "out of reach" and not by["Bandit"].band.reachable
    assert by["Bandit"].rule == "cannot move"


# -- below the ground (a GM typed Altitude -5 for a walking knight: taken without a word) ------------------------

def _first(game: str, **over):
    presets = get_ruleset(game).presets()
    body = presets[0] if presets else {"name": "Knight", "stats": {}}
    return {**body, "side": "party", **over}


def test_a_walker_below_the_ground_is_refused_beside_altitude_in_every_game():
    """No game here burrows, and a walker stands on the ground (altitude 0 m): strike-rank and tactical-round
    have no rule that puts a walker under it, range-band only under water (Underwater Combat), free-form
    draws the ground at 0 m. The refusal names the Altitude field (``position.alt``) and says what to type;
    the encounter is unchanged. An add is refused only when the add form asks (the next test): a scenario
    (and a save's history) adds its swimmers before it marks the water they swim in."""
    from fray.errors import InvalidAction
    for game in ("strike-rank", "tactical-round", "range-band", "freeform"):
        enc = _enc(game, (_first(game), 0, 0, 0))
        with pytest.raises(InvalidAction) as e:
            apply(enc, {"type": "move", "id": "c1", "x": 0, "y": 0, "alt": -5})
        assert e.value.field == "position.alt", game
        assert "below the ground" in e.value.message and "Type 0 or more" in e.value.message, game
        assert enc.get("c1").position.alt == 0
        with pytest.raises(InvalidAction) as e:
            apply(enc, {"type": "edit_combatant", "id": "c1", "changes": {"position": {"x": 0, "y": 0, "alt": -1}}})
        assert e.value.field == "changes.position.alt", game
        up, _ = apply(enc, {"type": "move", "id": "c1", "x": 0, "y": 0, "alt": 4})  # a wall top: above is fine
        assert up.get("c1").position.alt == 4


def test_below_the_ground_where_the_game_allows_it():
    """range-band: Underwater Combat, "much more three-dimensional": in a water area a diver goes below its
    surface (to its bottom); strike-rank: the map has no water, and an aquatic creature swims where the GM
    puts it (Underwater Combat)."""
    from fray.errors import InvalidAction
    enc = _enc("range-band", (_first("range-band"), 0, 0, 0))
    enc, _ = apply(enc, {"type": "rb.area", "kind": "water", "x": 0, "y": 0, "radius": "medium", "depth": 4,
                         "name": "Pond"})
    down, _ = apply(enc, {"type": "move", "id": "c1", "x": 0, "y": 0, "alt": -3})
    assert down.get("c1").position.alt == -3
    with pytest.raises(InvalidAction, match="bottom of Pond"):
        apply(enc, {"type": "move", "id": "c1", "x": 0, "y": 0, "alt": -5})
    sr = _enc("strike-rank", (_first("strike-rank", aquatic=True, name="Merrow"), 0, 0, 0))
    assert apply(sr, {"type": "move", "id": "c1", "alt": -5})[0].get("c1").position.alt == -5


def test_a_walker_added_below_the_ground_is_refused_beside_altitude_when_the_form_asks():
    """The add form asks for the same check as a move (``check_ground``): a walker typed in at Altitude −3
    is refused at that field, in the game's words, and nothing is added; strike-rank's "Underwater Combat"
    lets an aquatic creature swim below it, range-band's a swimmer in a water area. An add without the
    question (a scenario, a save's history: they add their swimmers before they mark the water) is taken
    as before."""
    from fray.errors import InvalidAction
    why = {"strike-rank": "only an aquatic creature swims below it", "tactical-round": "",
           "range-band": "mark a water area first", "freeform": ""}
    for game in ("strike-rank", "tactical-round", "range-band", "freeform"):
        enc = new_encounter(game, "ground")
        body = {**_first(game), "name": "Walker", "position": {"x": 0, "y": 0, "alt": -3}}
        for count in ("1", "3"):
            with pytest.raises(InvalidAction) as e:
                apply(enc, {"type": "add_combatant", "combatant": {**body, "count": count}, "check_ground": True})
            assert e.value.field == "combatant.position.alt", game
            assert e.value.message.startswith("Walker") and "cannot go below the ground" in e.value.message, game
            assert why[game] in e.value.message and "Type 0 or more" in e.value.message, game
        assert enc.combatants == []
        assert apply(enc, {"type": "add_combatant", "combatant": body})[0].get("c1").position.alt == -3, game
        up = apply(enc, {"type": "add_combatant", "combatant": {**body, "position": {"x": 0, "y": 0, "alt": 2}},
                         "check_ground": True})[0]
        assert up.get("c1").position.alt == 2
    with pytest.raises(InvalidAction, match="true or false"):
        apply(new_encounter("freeform", "g"), {"type": "add_combatant", "combatant": {"name": "W"}, "check_ground": "yes"})
    merrow = {**_first("strike-rank", aquatic=True), "name": "Merrow", "position": {"x": 0, "y": 0, "alt": -5}}
    enc, _ = apply(new_encounter("strike-rank", "sea"), {"type": "add_combatant", "combatant": merrow, "check_ground": True})
    assert enc.get("c1").position.alt == -5
    pond = _enc("range-band", (_first("range-band"), 20, 0, 0))
    pond, _ = apply(pond, {"type": "rb.area", "kind": "water", "x": 0, "y": 0, "radius": "medium", "depth": 4, "name": "Pond"})
    swimmer = {**_first("range-band"), "name": "Swimmer", "position": {"x": 0, "y": 0, "alt": -3}}
    assert apply(pond, {"type": "add_combatant", "combatant": swimmer, "check_ground": True})[0].get("c2").position.alt == -3
    with pytest.raises(InvalidAction, match="bottom of Pond"):
        apply(pond, {"type": "add_combatant", "combatant": {**swimmer, "position": {"x": 0, "y": 0, "alt": -6}},
                     "check_ground": True})
