"""Engaged range: melee needs it, a sightless AoE is aimed at it, and a rider is not "engaged" with its own
mount (issue 32, item 4's range-band parts)."""

from __future__ import annotations

import pytest

from fray.errors import InvalidAction, RuleViolation
from fray.reducer import apply
from rb_helpers import act, fight, last_pending, person, preset


def test_melee_needs_engaged_range_unless_the_gm_allows_it_with_a_reason():
    """Range bands (FACTS.md): "engaged, short, medium, long (= one zone away), travel"; engaged is the band "that
    qualifies as a melee engagement" (Sight & Visible Range), and a flyer begins "at engagement altitude, which
    enables you to enter melee engagements" (Flight). A lance, a bite or a knife at 15 to 21 m (medium range) is
    refused, naming the band; the GM may allow it with a reason, which the log keeps; at engaged range, no reason."""
    enc = fight(preset("Rider"), person("Bear", side="foes", x=18))
    with pytest.raises(RuleViolation) as e:
        act(enc, "attack", id="c1", target="c2", weapon=0)
    assert "engaged range" in str(e.value) and "medium" in str(e.value)
    with pytest.raises(RuleViolation):
        act(enc, "attack", id="c2", target="c1", kind="melee", tags=["natural"])
    # the vertical band counts too: a flyer 8 m up is at short range
    up = fight(preset("Winged flyer", position={"x": 0, "y": 0, "alt": 8}), person("Foe", side="foes", x=1))
    with pytest.raises(RuleViolation):
        act(up, "attack", id="c2", target="c1", kind="melee")
    for bad in ("", "   ", 5, "x" * 121):
        with pytest.raises(InvalidAction) as e:
            act(enc, "attack", id="c1", target="c2", weapon=0, override=bad)
        assert e.value.field == "override"
    ok, events = apply(enc, {"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 0,
                             "override": "the bear  charged into the lance"})
    said = [x for x in events if x["kind"] == "override"]
    assert said and "medium range" in said[0]["text"] and said[0]["text"].endswith("the bear charged into the lance")
    assert "allowed by the GM: the bear charged into the lance" in " ".join(last_pending(ok, "offense")["spec"]["notes"])
    near, events = apply(fight(preset("Rider"), person("Bear", side="foes", x=1.5)),
                         {"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 0})
    assert last_pending(near, "offense") and not [x for x in events if x["kind"] == "override"]
    # ranged attacks are not melee: no engaged range needed
    act(enc, "attack", id="c1", target="c2", kind="ranged")


def test_without_sight_an_aoe_only_at_ones_own_engagement():
    """Lack of Sight: "If you are completely without sight (such as via the blinded status, total darkness, or
    blindfolding), you cannot make any ranged attacks, except for AoEs targeted at your own engagement with an
    automatically failed offense roll." An AoE at a target beyond engaged range is refused."""
    far = act(fight(preset("Human scout"), person("Foe", side="foes", x=30)), "status", id="c1", status="blinded")
    with pytest.raises(RuleViolation) as e:
        act(far, "attack", id="c1", target="c2", weapon=0, aoe=True)
    assert "own engagement" in str(e.value) and "medium" in str(e.value)
    near = act(fight(preset("Human scout"), person("Foe", side="foes", x=1)), "status", id="c1", status="blinded")
    _, events = apply(near, {"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 0, "aoe": True})
    assert events[-1]["detail"]["spec"]["auto"]["success"] is False


def test_a_rider_is_not_listed_as_engaged_with_its_own_mount():
    """Back in Combat: "Mount and rider together function as one character for the purposes of group defense"; the
    map's list of links names a rider on its mount as riding it, and a grapple as grappling, never as "Engaged"."""
    from fray.web import mapview
    from rb_helpers import rider_and_horse

    enc = act(rider_and_horse(), "grapple", id="c3", target="c2", override="the foe rushed in")
    info = mapview.map_parts(enc, None)["info"]
    assert "Mounted and grappling:" in info and "Engaged:" not in info
    assert "<li>Rider rides Horse</li>" in info and "<li>Horse and Foe are grappling</li>" in info


def test_a_grapple_needs_engaged_range_as_melee_does_unless_the_gm_allows_it():
    """Underwater Combat: "Competent melee attacks must add 3 Hindrance ... These restrictions are ignored for attacks
    made entirely with weapons that have the Precise tag, natural weapons of aquatic animals, and unarmed or grappling
    attacks from aquatic or amphibious characters": a grappling attack is a melee attack, and melee is fought at the
    band "that qualifies as a melee engagement" (Sight & Visible Range). A grapple at 18 m (medium range) is refused,
    naming the band; the GM may allow it with a reason the log keeps; at engaged range no reason is asked."""
    far = fight(person("Ana"), person("Bear", side="foes", x=18))
    with pytest.raises(RuleViolation) as e:
        act(far, "grapple", id="c1", target="c2")
    assert "a grapple needs engaged range" in str(e.value) and "medium" in str(e.value)
    assert "grappling" not in far.get("c1").data or not far.get("c1").data["grappling"]
    for bad in ("", "  ", 7, "x" * 121):
        with pytest.raises(InvalidAction) as e:
            act(far, "grapple", id="c1", target="c2", override=bad)
        assert e.value.field == "override"
    ok, events = apply(far, {"type": "rb.grapple", "id": "c1", "target": "c2", "override": "the bear  lunged at her"})
    said = [x for x in events if x["kind"] == "override"]
    assert said and "grapple on Bear at medium range" in said[0]["text"]
    assert said[0]["text"].endswith("the bear lunged at her")
    assert ok.get("c1").data["grappling"] == ["c2"]
    near, events = apply(fight(person("Ana"), person("Bear", side="foes", x=1.5)),
                         {"type": "rb.grapple", "id": "c1", "target": "c2"})
    assert near.get("c2").data["grappling"] == ["c1"] and not [x for x in events if x["kind"] == "override"]


def test_a_weapon_reaches_a_target_where_the_attack_with_it_would_not_be_refused():
    """Flight: "When considering your range to another character, use the greater of your horizontal or vertical
    range to them."; melee needs the band "that qualifies as a melee engagement" (Sight & Visible Range); Underwater
    Combat: "Ranged attacks are useless underwater, with the exceptions of thrown weapons with the Precise tag";
    Lack of Sight: "If you are completely without sight ..., you cannot make any ranged attacks". The attack form
    starts on a weapon that reaches (a GM's play: a flyer at 31 m was offered its Talons): ``out_of_reach`` says
    why a weapon does not, exactly where ``rb.attack`` with it is refused."""
    from fray.games.range_band.attacks import out_of_reach, weapon_reach
    from rb_helpers import RS
    knife = {"name": "Knife", "kind": "melee", "tags": ["precise"]}
    bow = {"name": "Shortbow", "kind": "ranged", "tags": []}
    for alt, foe_x, blind in ((31, 1, False), (0, 1, False), (0, 18, False), (0, 1, True), (8, 1, True)):
        enc = fight(person("Wren", alt=alt, weapons=[knife, bow], flying=alt > 0,
                           stats={"FSPD": 12}), person("Broo", side="foes", x=foe_x))
        if blind:
            enc = act(enc, "status", id="c1", status="blinded")
        t = RS.all_tables(enc)
        whys = weapon_reach(enc, enc.get("c1"), t)["c2"]
        assert whys == [out_of_reach(enc, enc.get("c1"), enc.get("c2"), w, t) for w in (knife, bow)]
        for i, why in enumerate(whys):
            try:
                act(enc, "attack", id="c1", target="c2", weapon=i)
                refused = ""
            except RuleViolation as e:
                refused = str(e)
            assert bool(why) == bool(refused), (alt, foe_x, blind, i, why, refused)
    aloft = fight(person("Wren", alt=31, weapons=[knife, bow], flying=True, stats={"FSPD": 12}),
                  person("Broo", side="foes", x=1))
    why = out_of_reach(aloft, aloft.get("c1"), aloft.get("c2"), knife, RS.all_tables(aloft))
    assert why.startswith("Knife is a melee weapon: Broo is at medium range (greater of horizontal engaged")
