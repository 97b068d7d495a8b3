"""Range band, a GM playing whole fights: its statuses (knocked down, stunned, High Stealth, ...) were not
drawn on the map's tokens, where the other games' conditions (prone, stunned, dead) are: the map's own
list knew none of the game's hyphenated names. Each game's map rule says its tokens' states (``MapRule.states``)
and which lie on the ground (``MapRule.lying``); the GM's map and the players' map draw them."""

from __future__ import annotations

from fray import players
from fray.games import get_ruleset
from fray.reducer import apply, new_encounter
from fray.web import mapview
from fray.web.players_render import map_svg


def _fight():
    ps = {p["name"]: p for p in get_ruleset("range-band").presets()}
    enc = new_encounter("range-band", "statuses")
    for body, x in ((ps["Human scout"], 0), (ps["Large creature"], 10), ({**ps["Human scout"], "name": "Sneak",
                                                                          "stealth": "high"}, 20)):
        enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": 0, "alt": 0}}})
    enc, _ = apply(enc, {"type": "rb.status", "id": "c1", "status": "knocked-down"})
    enc, _ = apply(enc, {"type": "rb.status", "id": "c2", "status": "minor-stunned", "rounds": 1})
    return enc


def _token(plan: str, cid: str) -> str:
    at = plan.index(f'id="tok-{cid}"')
    return plan[plan.rfind("<g", 0, at):plan.index("</g>", at)]


def _label(plan: str, cid: str) -> str:
    at = plan.index(f'id="lab-{cid}"')
    return plan[at:plan.index("</g></g>", at)]


def test_the_gms_map_draws_the_range_band_statuses_in_the_games_words():
    """The range-band rule text (000_da34f120076854a0.txt), Falling Off Mounts: "If your mount is
    incapacitated or knocked down, you are also knocked down"; Flight: "a minor stunned status until the
    end of your next turn"; High Stealth: "In this state, you are actively using your environment ... to
    avoid detection". Each is said on its token, in the rule text's words, as prone or stunned are."""
    plan = mapview.map_parts(_fight(), None)["plan"]
    scout, bear, sneak = _token(plan, "c1"), _token(plan, "c2"), _token(plan, "c3")
    assert "knocked down" in scout and "knocked-down" not in scout
    assert "knocked down" in _label(plan, "c1")
    # on the ground, drawn as a prone token is: flattened
    assert 'class="token prone' in scout and '<ellipse class="disc"' in scout
    assert "minor stunned" in bear and "minor stunned" in _label(plan, "c2")
    assert "prone" not in bear
    assert "high stealth" in sneak and "high stealth" in _label(plan, "c3")


def test_the_players_map_shows_the_knocked_down_as_it_shows_the_prone():
    """The players see someone on the ground (knocked down), as in the other games they see the prone;
    what only the GM tracks (a stun, a foe's stealth) stays off their map."""
    enc = _fight()
    rs = get_ruleset(enc.ruleset)
    order = rs.order_of_play(enc)
    p = players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))
    by = {c["id"]: c for c in p["combatants"]}
    assert by["c1"]["states"] == ["knocked down"] and by["c1"]["lying"] is True
    assert by["c2"]["states"] == [] and by["c2"]["lying"] is False
    # prone, a condition the GM may set in any game, still lies flat here
    enc, _ = apply(enc, {"type": "set_condition", "id": "c3", "condition": "prone", "on": True})
    p = players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))
    assert next(c for c in p["combatants"] if c["id"] == "c3")["lying"] is True
    assert 'class="token prone' in mapview.map_parts(enc, None)["plan"].split('id="tok-c3"')[0].rsplit("<g", 1)[1]
    svg = map_svg(p)
    at = svg.index('data-id="c1"')
    token = svg[svg.rfind("<g", 0, at):svg.index("</g>", at)]
    assert " prone" in token and '<ellipse class="pv-disc"' in token and "knocked down" in token


def test_the_other_games_tokens_are_drawn_as_before():
    enc = new_encounter("tactical-round", "m")
    p = next(p for p in get_ruleset("tactical-round").presets() if p["name"] == "Orc warrior")
    enc, _ = apply(enc, {"type": "add_combatant", "combatant": {**p, "position": {"x": 0, "y": 0, "alt": 0}}})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "prone", "on": True})
    enc, _ = apply(enc, {"type": "set_condition", "id": "c1", "condition": "stunned", "on": True})
    plan = mapview.map_parts(enc, None)["plan"]
    assert 'class="token prone' in plan and "prone · stunned" in _label(plan, "c1")
    rs = get_ruleset(enc.ruleset)
    order = rs.order_of_play(enc)
    c = players.project(enc, rs.view(enc), order, rs.still_to_act(enc, order))["combatants"][0]
    assert c["states"] == ["prone"] and c["lying"] is True
