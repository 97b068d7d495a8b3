"""The range-band panel (pure HTML and the handlers, no browser): escaping, control names (= the
engine's field paths, each with its error slot), roll specifications shown before rolling, and
bad input refused at its field with the encounter unchanged."""

from __future__ import annotations

import re
from dataclasses import asdict
from html import unescape

import pytest

from fray.errors import FrayError, InvalidAction
from fray.history import History
from fray.reducer import new_encounter
from fray.games import get_ruleset
from fray.web import panels
from fray.games.range_band.web.panel import (PANEL, RangeBandPanel, add_extra, add_fields_html, attack_action, card_html,
                                       move_action, panel_html, resolve_action, spec_html, zone_action)
from fray.web.uistate import UiState
from fray.games.range_band.web.ui import RangeBandUi
from html_checks import EVIL, tags

RS = get_ruleset("range-band")


def names_in(html: str) -> set[str]:
    return {a["name"] for t, a in tags(html) if t in ("input", "select", "textarea") and a.get("name")}


def preset(name: str) -> dict:
    return dict(next(p for p in RS.presets() if p["name"] == name))


def fight() -> History:
    h = History(new_encounter("range-band", "T"))
    for n in ("Human scout", "Rider", "Horse", "Winged flyer", "Amphibious swimmer"):
        h.do({"type": "add_combatant", "combatant": preset(n)})
    h.do({"type": "edit_combatant", "id": "c5", "changes": {"name": EVIL}})
    h.do({"type": "rb.mount", "id": "c2", "mount": "c3"})
    for i, cid in enumerate(("c1", "c3", "c4", "c5")):
        h.do({"type": "rb.turn_order", "id": cid, "value": 20 - i})
    return h


class FakeApp:
    """What a panel handler uses of the App: dispatch through History, errors recorded."""

    def __init__(self, h: History) -> None:
        self.history = h
        self.ui = UiState()
        self.errors: list[tuple[str, str]] = []

    @property
    def enc(self):
        return self.history.present

    @property
    def ruleset(self):
        return RS

    def dispatch(self, action, scope=None, field_map=None) -> bool:
        try:
            self.history.do(action)
        except FrayError as e:
            f = getattr(e, "field", "") or ""
            self.errors.append((field_map(f) if field_map and f else f, str(e)))
            return False
        return True

    def clear_errors(self, scope=None):
        pass

    def show_error(self, scope, e, field_map=None):
        self.errors.append((getattr(e, "field", ""), str(e)))


def test_found_by_the_ruleset_id():
    assert isinstance(panels.panel_for("range-band"), RangeBandPanel)
    assert RS.panel == "fray.games.range_band.web.panel"


def test_user_text_is_escaped_everywhere():
    h = fight()
    h.do({"type": "advance"})
    view = RS.view(h.present)
    html = panel_html(view, {}) + "".join(card_html(view, c.id) for c in h.present.combatants)
    assert EVIL not in html and "&lt;img" in html


def test_every_control_has_its_error_slot():
    h = fight()
    h.do({"type": "advance"})  # movement phase: the scout moves
    view = RS.view(h.present)
    html = panel_html(view, {}, {"c1": (0.0, 0.0, 0.0)})
    slots = {a["data-error-for"] for _, a in tags(html) if a.get("data-error-for")}
    for n in ("x", "y", "alt", "value", "light"):
        assert n in names_in(html) and n in slots


def test_zone_settings_and_round_view_in_setup():
    view = RS.view(fight().present)
    html = panel_html(view, {})
    assert {"light", "clutter", "flight_ceiling", "enclosed", "underwater", "narrow", "air"} <= names_in(html)
    assert "Movement phase" in html and "Turn order" in html
    assert "assumed" in html


def test_pending_roll_shows_its_specification_before_rolling():
    h = fight()
    h.do({"type": "rb.stealth", "id": "c1", "level": "high", "start": True})
    h.do({"type": "advance"})
    h.do({"type": "rb.move", "id": "c1", "x": 5, "y": 0, "alt": 0})
    view = RS.view(h.present)
    html = panel_html(view, {})
    p = view["pending"][0]
    assert p["spec"]["hindrance"]["total"] == 3
    assert "+3 staying in High Stealth" in html
    assert 'data-form="rb-resolve"' in html and "Let Fray roll (assumed default)" in html
    assert {"success", "by", "blunder", "rolls.roll"} <= names_in(html)


def test_spec_html_lists_every_reason():
    spec = {"what": "Offense", "die": "d20", "stat": "DEX", "stat_value": 12, "rule": "Back in Combat",
            "tn": {"total": 10, "parts": [{"reason": "50% WGT", "value": -2}]},
            "hindrance": {"total": 3, "parts": [{"reason": "mounted", "count": 1}, {"reason": "mount moved", "count": 2}]},
            "easing": {"total": 0, "parts": []}, "can_blunder": True, "success": "hits", "failure": "misses",
            "notes": ["incompetent attack"]}
    html = spec_html(spec)
    assert "+1 mounted, +2 mount moved" in html and "− 50% WGT 2" in html and "can blunder" in html


def test_card_shows_stealth_flight_mount_breath_and_sight():
    h = fight()
    view = RS.view(h.present)
    rider = card_html(view, "c2")
    assert "rides <strong>Horse</strong>" in rider and "+1 mounted" in rider
    assert "carries <strong>Rider</strong>" in card_html(view, "c3")
    flyer = card_html(view, "c4")
    assert "flying" in flyer and "rb-alt-band" in flyer and "flying SPD 14" in flyer
    assert "breathing" in card_html(view, "c1")
    assert {"level", "status", "rounds"} <= names_in(card_html(view, "c1"))


def test_resolve_action_reads_the_gm_result_or_lets_fray_roll():
    assert resolve_action("R1", {"success": "yes", "by": "4"}, roll=False) == \
        {"type": "rb.resolve", "ref": "R1", "success": True, "by": 4}
    assert resolve_action("R1", {"rolls.roll": "7 3"}, roll=True) == {"type": "rb.resolve", "ref": "R1",
                                                                      "rolls": {"roll": [7, 3]}}
    assert resolve_action("R1", {}, roll=True) == {"type": "rb.resolve", "ref": "R1"}
    with pytest.raises(InvalidAction) as e:
        resolve_action("R1", {}, roll=False)
    assert e.value.field == "success"
    with pytest.raises(InvalidAction) as e:
        resolve_action("R1", {"rolls.roll": "seven"}, roll=True)
    assert e.value.field == "rolls.roll"


def test_move_attack_zone_actions():
    assert move_action("c1", {"x": "5", "y": "0", "alt": "12.5", "rush": True}) == \
        {"type": "rb.move", "id": "c1", "x": 5, "y": 0, "alt": 12.5, "rush": True}
    a = attack_action("c1", {"target": "c2", "weapon": "1", "die": "d20", "stat": "DEX", "size": "major",
                             "warned_by": "", "unexpected": True})
    assert a == {"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 1, "die": "d20", "stat": "DEX",
                 "size": "major", "unexpected": True}
    z = {"light": "medium", "clutter": "medium", "flight_ceiling": "travel", "enclosed": False, "underwater": False,
         "narrow": False, "air": True}
    assert zone_action(z, {**z, "light": "low", "air": True}) == {"type": "rb.zone", "light": "low"}
    assert zone_action(z, {"light": "medium", "clutter": "medium", "flight_ceiling": "travel", "underwater": True,
                           "air": True}) == {"type": "rb.zone", "underwater": True}


def _submit(app, form_name, values, cid=None, ref=None):
    class Form:
        def getAttribute(self, k):
            return {"data-id": cid, "data-ref": ref}.get(k)
    import sys
    import types
    # the panel reads data-* through fray.web.dom.data, which needs js; stand in for it here
    fake = types.ModuleType("fray.web.dom")
    fake.data = lambda el, n: el.getAttribute("data-" + n)
    fake.nil = lambda v: v
    # and looks for the rolls a form left to settle on the page, to bring a new one into view
    fake.document = types.SimpleNamespace(querySelectorAll=lambda selector: [])
    fake.by_id = lambda element_id: None  # Next's scope for an error: the round bar
    saved = sys.modules.get("fray.web.dom")
    sys.modules["fray.web.dom"] = fake
    try:
        return PANEL.on_form(app, form_name, Form(), values)
    finally:
        if saved is not None:
            sys.modules["fray.web.dom"] = saved
        else:
            del sys.modules["fray.web.dom"]


@pytest.mark.parametrize("form_name,cid,values,field", [
    ("rb-mount", "c3", {"mount": "c3"}, "mount"),              # a mount that is its own rider
    ("rb-mount", "c2", {"mount": "c4"}, "mount"),              # a rider on two mounts
    ("rb-turn-order", "c1", {"value": "fast"}, "value"),
    ("rb-status", "c1", {"status": "blinded", "rounds": "two"}, "rounds"),
])
def test_bad_input_is_refused_at_its_field_and_changes_nothing(form_name, cid, values, field):
    h = fight()
    before = asdict(h.present)
    app = FakeApp(h)
    assert _submit(app, form_name, values, cid=cid) is True
    assert app.errors and app.errors[0][0] == field, app.errors
    assert asdict(h.present) == before


def test_good_input_goes_through_the_engine():
    h = fight()
    app = FakeApp(h)
    _submit(app, "rb-zone", {"light": "low", "clutter": "medium", "flight_ceiling": "travel", "air": True})
    assert h.present.state["zone"]["light"] == "low" and not app.errors
    _submit(app, "rb-stealth", {"level": "high", "start": True}, cid="c1")
    assert h.present.get("c1").data["stealth"] == "high"
    h.do({"type": "advance"})
    _submit(app, "rb-move", {"x": "5", "y": "0", "alt": "0"}, cid="c1")
    ref = h.present.state["pending"][0]["ref"]
    _submit(app, "rb-resolve", {"success": "yes", "by": "2"}, ref=ref)
    assert h.present.get("c1").position.x == 5 and not app.errors


def test_add_section_folds_into_the_json_box():
    html = add_fields_html({"kind": "animal", "stealth": "medium"}, [("c1", EVIL)])
    assert EVIL not in html and 'value="animal" selected' in html
    out = add_extra({"rb_kind": "animal", "rb_stealth": "low", "rb_carried": "3", "rb_riding": "c1",
                     "rb_flying": False}, {"weapons": []})
    assert out == {"weapons": [], "kind": "animal", "stealth": "low", "carried": 3, "riding": "c1"}
    assert re.search(r'name="rb_riding"', html)


def test_more_actions_are_forms_named_by_the_engine_fields():
    from fray.games.range_band.web.panel import more_action, more_html

    h = fight()
    view = RS.view(h.present)
    c = next(x for x in view["combatants"] if x["id"] == "c1")
    html = more_html(view, c)
    assert html.count('data-form="rb-more"') == 8
    assert {"target", "ally", "light", "audible", "precision", "range", "x", "y", "alt"} <= names_in(html)
    assert more_action("grapple", "c1", {"target": "c4"}) == {"type": "rb.grapple", "id": "c1", "target": "c4",
                                                                "mismatched_flying_ok": False}
    assert more_action("teleport", "c1", {"x": "3", "y": "", "alt": "0", "range": "short", "precision": "high",
                                          "size": "major"})["x"] == 3
    h.do(more_action("light", "c1", {"light": "moderate"}))
    assert h.present.get("c1").data["light"] == "moderate"
    with pytest.raises(InvalidAction):
        more_action("fly-to-the-moon", "c1", {})


# -- the controls of issue 9's gaps: areas, detection, act target, status end, battle length, teleport lists ------

def in_turn(h: History, who: str) -> History:
    for _ in range(30):
        v = RS.view(h.present)
        if v["phase"]["id"] == "actions" and v["current"] == who:
            return h
        h.do({"type": "advance"})
    raise AssertionError(who)


def test_new_controls_are_named_by_the_engine_fields_with_error_slots():
    h = in_turn(fight(), "c1")
    view = RS.view(h.present)
    html = panel_html(view, RangeBandUi(drawn={"rb-end", "rb-more-c1"})) + card_html(view, "c1")
    names = names_in(html)
    slots = {a["data-error-for"] for _, a in tags(html) if a.get("data-error-for")}
    for n in ("kind", "radius", "name", "die", "fatigue", "unwilling", "ends", "rounds", "observers", "bring",
              "attached"):
        assert n in slots, n
    assert {"observers.c4", "bring.c4", "attached.c4", "target", "unwilling", "fatigue", "ends", "rounds"} <= names
    assert "observers.c1" not in names, "nobody detects themselves"
    assert html.count('class="rb-preview"') >= 3, "attack, other action and detection carry a preview"


def test_more_actions_and_the_battle_end_are_drawn_when_they_first_open():
    """Issue 11, "one action (apply, autosave, re-render) at 30 combatants p95 <= 50 ms": the acting
    combatant's "More actions" (eight forms) and the battle's end (two lists per combatant) are
    shut fold-outs drawn again on every Next; they hold no field until they first open, and keep
    their forms once opened while they are on the page (what the GM typed stays)."""
    from fray.games.range_band.web.panel import lazy_keys

    h = in_turn(fight(), "c1")
    view = RS.view(h.present)
    shut = panel_html(view, {})
    for key in ("rb-more-c1", "rb-end"):
        fold = re.search(rf'<details [^>]*data-fold="{key}"[^>]*>.*?</details>', shut).group(0)
        assert "data-fold-lazy" in fold and f'id="fold-{key}"' in fold and "<form" not in fold
    assert 'data-form="rb-more"' not in shut and 'data-form="rb-end"' not in shut
    assert 'data-form="rb-attack"' in shut, "the turn's own forms are drawn"

    # opened on the page: drawn, open; then shut again: still drawn
    is_open, drawn = lazy_keys(view, set(), {"rb-more-c1"})
    assert (is_open, drawn) == ({"rb-more-c1"}, {"rb-more-c1"})
    opened = panel_html(view, RangeBandUi(open=is_open, drawn=drawn))
    assert opened.count('data-form="rb-more"') == 8 and 'data-form="rb-end"' not in opened
    assert re.search(r'data-fold="rb-more-c1" open>', opened)
    is_open, drawn = lazy_keys(view, drawn, set())
    assert drawn == {"rb-more-c1"} and not is_open
    again = panel_html(view, RangeBandUi(open=is_open, drawn=drawn))
    assert again.count('data-form="rb-more"') == 8 and "data-fold-lazy" in again  # the battle's end is not
    assert re.search(r'data-fold="rb-more-c1">', again)

    # the turn passes: the next combatant's "More actions" starts shut and empty
    h.do({"type": "advance"})
    nxt = RS.view(h.present)
    assert nxt["current"] != "c1"
    _, drawn = lazy_keys(nxt, drawn, set())
    assert drawn == set()
    # the battle's end, opened, is kept drawn until the battle is over; the setup phase has none
    assert lazy_keys(view, set(), {"rb-end"})[1] == {"rb-end"}
    assert lazy_keys(RS.view(fight().present), {"rb-end"}, {"rb-end"}) == (set(), set())


def test_form_builders_turn_controls_into_actions():
    app = FakeApp(in_turn(fight(), "c1"))
    p = RangeBandPanel()
    act = p.form_action(app, "rb-act", None, "c1", {"size": "major", "what": "Hex", "target": "c4", "unwilling": "on",
                                                    "fatigue": "2"})
    assert act == {"type": "rb.act", "id": "c1", "size": "major", "what": "Hex", "target": "c4", "fatigue": 2,
                   "unwilling": True}
    det = p.form_action(app, "rb-detect", None, "c1", {"die": "d12", "observers.c4": "on", "observers.c5": ""})
    assert det == {"type": "rb.detect", "id": "c1", "die": "d12", "observers": ["c4"]}
    st = p.form_action(app, "rb-status", None, "c1", {"status": "deafened", "rounds": "2", "ends": "after_turn"})
    assert st == {"type": "rb.status", "id": "c1", "status": "deafened", "rounds": 2, "ends": "after_turn"}
    end = p.form_action(app, "rb-end", None, None, {"rounds": "30", "activity.c1": "heavy"})
    assert end["rounds"] == 30 and end["activity"] == {"c1": "heavy"}
    area = p.form_action(app, "rb-area", None, None, {"kind": "smoke", "x": "5", "y": "1.5", "radius": "short",
                                                      "alt": "", "name": ""})
    assert area == {"type": "rb.area", "kind": "smoke", "radius": "short", "x": 5, "y": 1.5, "alt": 0}


@pytest.mark.parametrize("form, values, field", [
    ("rb-act", {"size": "major", "what": "Hex", "fatigue": "lots"}, "fatigue"),
    ("rb-act", {"size": "major", "what": "Shove", "unwilling": "on"}, "unwilling"),
    ("rb-status", {"status": "deafened", "rounds": "", "ends": "after_turn"}, "ends"),
    ("rb-end", {"rounds": "0", "activity.c1": "heavy"}, "rounds"),
    ("rb-area", {"kind": "smoke", "x": "far", "y": "0", "radius": "short"}, "x"),
])
def test_bad_input_in_the_new_controls_lands_at_its_field_and_changes_nothing(form, values, field):
    h = in_turn(fight(), "c1")
    app = FakeApp(h)
    before = asdict(h.present)
    _submit(app, form, dict(values), cid="c1")
    assert app.errors and app.errors[-1][0] == field, app.errors
    assert asdict(h.present) == before


def test_preview_shows_the_spec_before_anything_is_sent_and_changes_nothing():
    from fray.games.range_band.preview import preview
    from fray.games.range_band.web.panel import preview_html

    h = in_turn(fight(), "c2")
    enc = h.present
    before, n = asdict(enc), len(h.actions)
    p = preview(enc, {"type": "rb.attack", "id": "c2", "target": "c4", "kind": "ranged"})
    assert asdict(enc) == before and len(h.actions) == n and h.present is enc
    assert [q["kind"] for q in p["pending"]] == ["offense"] and p["error"] is None
    html = preview_html(p, RS.table(enc, "core_roll"), {c.id: c.name for c in enc.combatants})
    assert "+1 mounted" in html and "Odds" in html and "nothing is sent" in html
    bad = preview(enc, {"type": "rb.attack", "id": "c2", "target": "c2"})
    assert bad["error"]["field"] == "target" and not bad["pending"]
    assert "Would be refused" in preview_html(bad, RS.table(enc, "core_roll"), {})


def test_a_refusal_in_the_preview_is_in_the_gms_words():
    """The preview says why the action would be refused as the rest of the page says it: a rule as a
    pointer into the rules, a field as the form names it; a GM's play-through read "(rule: The round)"
    there, the engine's own words."""
    from fray.games.range_band.preview import preview
    from fray.games.range_band.web.panel import preview_html

    enc = in_turn(fight(), "c2").present
    ruled = preview(enc, {"type": "rb.move", "id": "c3", "to": "far"})
    assert ruled["error"]["rule"] == ""  # the round is FACTS.md's, no heading of the rule text: none named
    text = str(preview_html(ruled, RS.table(enc, "core_roll"), {}))
    assert "movement rolls happen in the movement phase" in text and "see “" not in text
    assert "(rule:" not in text
    headed = preview(enc, {"type": "rb.descend", "id": "c2", "alt": 0})
    text = str(preview_html(headed, RS.table(enc, "core_roll"), {}))
    assert "(see “Flight” in the rules)" in text and "(rule:" not in text, text
    fielded = str(preview_html({"error": {"field": "actions.0.target", "rule": None, "message": "is out of reach"}},
                               RS.table(enc, "core_roll"), {}))
    assert "actions.0.target" not in fielded and "(Action 1: target)" in fielded, fielded


def test_a_preview_of_many_rolls_is_one_row_each():
    """FACTS (range-band): "Model the roll as a *roll specification* (die, stat, TN modifiers,
    Hindrance and Easing counts, whether it can blunder)", shown before anyone rolls (the preview).
    A detection by every opponent leaves one roll each: past
    PREVIEW_FULL the preview is a table, a row per roll with all of that and the odds; each roll is
    shown in full under Rolls to settle once sent."""
    from fray.games.range_band.odds import spec_odds
    from fray.chance import percent
    from fray.games.range_band.web.panel import PREVIEW_FULL, preview_html

    def pend(i, hind):
        return {"combatant": f"c{i}", "spec": {
            "what": f"Detection roll: does <b>{i}</b> see the scout?", "die": "d20", "stat": "INT", "stat_value": 4,
            "rule": "Detection", "tn": {"total": 5, "parts": [{"reason": "cover", "value": 1}]},
            "hindrance": {"total": hind, "parts": [{"reason": "darkness", "count": hind}] if hind else []},
            "easing": {"total": 0, "parts": []}, "net_hindrance": hind, "can_blunder": True}}

    enc = fight().present
    core = RS.table(enc, "core_roll")
    few = preview_html({"pending": [pend(i, 0) for i in range(PREVIEW_FULL)]}, core, {})
    assert few.count('class="rb-preview-spec"') == PREVIEW_FULL and "rb-preview-table" not in few
    many = [pend(i, i % 2) for i in range(PREVIEW_FULL + 4)]
    html = preview_html({"pending": many}, core, {f"c{i}": f"<i>Rider {i}</i>" for i in range(len(many))})
    assert "rb-preview-spec" not in html and "<b>" not in html and "<i>" not in html
    rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", html)
    assert len(rows) == len(many) and f"{len(many)} rolls" in html
    for q, row in zip(many, rows):
        who = q["combatant"][1:]
        assert f"&lt;i&gt;Rider {who}&lt;/i&gt;" in row and f"does &lt;b&gt;{who}&lt;/b&gt; see" in row  # the question
        assert "d20 on INT" in row and "TN <strong>5</strong>" in row and "+ cover 1" in row
        assert ("+1 darkness" in row) == bool(q["spec"]["hindrance"]["total"])
        assert f"<td>{percent(spec_odds(q['spec'], core).success)}, by 10 or more" in row
    # the elements drawn: a row is a handful, a specification in full with its odds a few dozen
    def elements(html):
        return html.count("<") - html.count("</")  # opening tags
    assert max(elements(r) for r in rows) * 2 < elements(few) / PREVIEW_FULL
    assert "with Fray\u2019s assumed roll" in html

    # what success and failure do, and the notes: once under the table when every roll says the
    # same, in each row when they differ; a roll that cannot blunder says so
    def said(q, success, note):
        q["spec"].update(success=success, failure="the scout stays hidden", notes=[note])
        return q
    same = [said(pend(i, 0), "spots the <scout>", "a blind roll in darkness") for i in range(PREVIEW_FULL + 2)]
    html = preview_html({"pending": same}, core, {})
    table, below = html.split("</table>")
    assert "What it does" not in table and "spots the" not in table
    assert below.count("<li>") == 3 and "spots the &lt;scout&gt;" in below and "a blind roll in darkness" in below
    differ = [said(pend(i, 0), f"spots scout {i}", "note") for i in range(PREVIEW_FULL + 2)]
    differ[0]["spec"]["can_blunder"] = False
    html = preview_html({"pending": differ}, core, {})
    rows = re.findall(r"<tr><th scope=\"row\".*?</tr>", html)
    assert "What it does" in html and all(f"spots scout {i}" in r and "stays hidden" in r for i, r in enumerate(rows))
    assert "cannot blunder" in rows[0] and "cannot blunder" not in rows[1]
    # every roll settled by the rules: no default mechanic is assumed
    auto = [pend(i, 0) for i in range(PREVIEW_FULL + 1)]
    for q in auto:
        q["spec"]["auto"] = {"success": True, "reason": "cannot fail: not hidden"}
    assert "settled by the rules" in preview_html({"pending": auto}, core, {})


def test_past_a_dozen_after_setup_one_form_sets_any_turn_order():
    """FACTS: "an action phase in which each character takes one turn in turn order"; the GM
    types each turn-order result. With a crowd, after setup, the rows say
    each value and one form under the list sets any combatant's; setup keeps a form per row (the
    GM types them all there), and a dozen or fewer keep theirs always."""
    from fray.games.range_band.web.panel import ONE_TURN_ORDER_FORM_FROM, round_html

    h = History(new_encounter("range-band", "T"))
    for i in range(ONE_TURN_ORDER_FORM_FROM):
        h.do({"type": "add_combatant", "combatant": dict(preset("Human scout"), name=f"Scout {i}")})
    for i, c in enumerate(h.present.combatants):
        h.do({"type": "rb.turn_order", "id": c.id, "value": 30 - i})
    setup = round_html(RS.view(h.present))
    assert len(re.findall(r'data-form="rb-turn-order" data-id=', setup)) == ONE_TURN_ORDER_FORM_FROM
    h.do({"type": "advance"})
    crowd = round_html(RS.view(h.present))
    assert len(re.findall(r'data-form="rb-turn-order"', crowd)) == 1
    one = re.search(r'<form class="rb-to rb-to-one".*?</form>', crowd).group(0)
    assert names_in(one) == {"id", "value"}
    assert 'data-error-for="id"' in one and 'data-error-for="value"' in one
    assert len(re.findall(r"<option ", one)) == ONE_TURN_ORDER_FORM_FROM
    assert "turn 30" in crowd and "turn 18" in crowd
    # the one form goes through the engine: the Combatant it names gets the value
    app = FakeApp(h)
    _submit(app, "rb-turn-order", {"id": "c4", "value": "99"})
    assert not app.errors
    assert RS.view(h.present)["turn_order"][0] == {**RS.view(h.present)["turn_order"][0], "id": "c4", "value": 99}
    _submit(app, "rb-turn-order", {"id": "c4", "value": "soon"})
    assert app.errors and app.errors[-1][0] == "value"
    # a dozen keep a form per row after setup
    h.do({"type": "remove_combatant", "id": "c13"})
    few = round_html(RS.view(h.present))
    assert len(re.findall(r'data-form="rb-turn-order" data-id=', few)) == ONE_TURN_ORDER_FORM_FROM - 1
    assert "rb-to-one" not in few


# -- issue 32: the fallen, the default target, what stops a Next, a movement's result ------------------

def _issue32() -> History:
    h = History(new_encounter("range-band", "Ford"))
    for n, side, x in (("Rider", "party", 0), ("Horse", "party", 0), ("Human scout", "foes", 30),
                       ("Human scout", "foes", 8), ("Winged flyer", "party", 2)):
        h.do({"type": "add_combatant", "combatant": {**preset(n), "side": side, "position": {"x": x, "y": 0, "alt": 0}}})
    h.do({"type": "rb.mount", "id": "c1", "mount": "c2"})
    return h


def test_the_default_target_is_the_nearest_enemy_in_the_fight_never_an_ally_or_ones_own_mount():
    """Kael's lance was offered "against Grey", his own horse: the first (default) target is the nearest enemy
    still in the fight; the own mount is named so; the fallen come last, named so."""
    from fray.games.range_band.web.panel import _targets
    h = _issue32()
    enc = h.present
    pos = {c.id: (c.position.x, c.position.y, c.position.alt) for c in enc.combatants}
    opts = _targets(RS.view(enc), "c1", pos)
    assert opts[0][0] == "c4" and opts[1][0] == "c3"  # the scout 8 m away, then the one 30 m away
    assert ("c2", "Horse (own mount)") in opts
    h.do({"type": "rb.status", "id": "c4", "status": "dead"})
    opts = _targets(RS.view(h.present), "c1", pos)
    assert opts[0][0] == "c3" and opts[-1] == ("c4", "Human scout (dead)")


def test_the_default_target_is_a_foe_the_attacker_can_see_before_a_nearer_unseen_one():
    """Stealth Attacks: "if the defender cannot see the attacker" and Sight & Visible Range: one in High Stealth is not
    seen beyond their visible range. A GM's play-through: Mark's attack form chose "Sneak" by default, whom the log said
    Mark cannot see, while Bandit 3 stood in plain view. The default is the nearest foe in the fight the attacker
    can see; the unseen come after the seen, then the fallen."""
    from fray.games.range_band.web.panel import _targets
    h = History(new_encounter("range-band", "Ford"))
    for n, side, x, more in (("Rider", "party", 0, {}), ("Human scout", "foes", 30, {"stealth": "low"}),
                             ("Human scout", "foes", 8, {"stealth": "high"})):
        h.do({"type": "add_combatant", "combatant": {**preset(n), "side": side, "position": {"x": x, "y": 0, "alt": 0},
                                                     **more}})
    view = RS.view(h.present)
    assert not view["visibility"]["c1"]["c3"]["sees"] and view["visibility"]["c1"]["c2"]["sees"]
    pos = {c.id: (c.position.x, c.position.y, c.position.alt) for c in h.present.combatants}
    opts = _targets(view, "c1", pos)
    assert [o[0] for o in opts] == ["c2", "c3"]  # the scout in plain view 30 m away, then the unseen one at 8 m


def test_a_cards_sight_names_no_fallen():
    """Statuses: the dead are out of the fight (the card of one says "out of the fight": the fallen see no one). A
    GM's play-through: Broo 2's card read "cannot see: Sly; unseen by Bandit's Nag", the Nag dead. Sight names only
    those in the fight, both ways."""
    from fray.games.range_band.web.panel import card_html
    h = History(new_encounter("range-band", "Ford"))
    for name, side, x in (("Broo", "foes", 0), ("Sly", "party", 30), ("Nag", "party", 40)):
        h.do({"type": "add_combatant", "combatant": {**preset("Human scout"), "name": name, "side": side,
                                                     "stealth": "high", "position": {"x": x, "y": 0, "alt": 0}}})
    assert '<dd class="rb-sight">cannot see: Sly, Nag; unseen by Sly, Nag</dd>' in card_html(RS.view(h.present), "c1")
    h.do({"type": "rb.status", "id": "c3", "status": "dead"})
    assert '<dd class="rb-sight">cannot see: Sly; unseen by Sly</dd>' in card_html(RS.view(h.present), "c1")


def test_a_riders_card_offers_dismount_not_ride():
    """Mounts: one rides one mount at a time. A GM's play-through: Kael's card read "rides Grey / Dismount" and still
    offered "Ride: (choose a mount)". A rider's card offers Dismount and Fall off, no Ride; one on foot, Ride."""
    from fray.games.range_band.web.panel import card_html
    h = fight()
    view = RS.view(h.present)
    rider = card_html(view, "c2")
    assert "rides <strong>Horse</strong>" in rider and 'data-act="rb-dismount"' in rider
    assert 'data-form="rb-mount"' not in rider and "choose a mount" not in rider
    assert 'data-form="rb-mount"' in card_html(view, "c1")


def test_the_fallen_stay_in_the_order_greyed_with_bring_back_and_remove_and_no_form():
    """The fallen: greyed in the order, with Bring back and Remove; no movement or turn form is theirs."""
    h = _issue32()
    for cid, v in (("c1", 20), ("c2", 20), ("c3", 15), ("c4", 10), ("c5", 5)):
        h.do({"type": "rb.turn_order", "id": cid, "value": v})
    h.do({"type": "advance"})
    h.do({"type": "rb.status", "id": "c2", "status": "incapacitated"})
    html = str(panel_html(RS.view(h.present)))
    row = re.search(r'<li class="rb-slot[^"]*fallen[^"]*" data-id="c2".*?</li>', html, re.S)
    assert row and "out of the fight: incapacitated" in row.group(0)
    assert 'data-act="rb-bring-back"' in row.group(0) and 'data-act="remove-combatant"' in row.group(0)
    assert 'data-form="rb-move" data-id="c2"' not in html


def test_a_failed_or_blundered_movement_roll_shows_in_the_panel():
    """A failed movement roll showed only in the log: the movement panel says it, with its margin."""
    h = _issue32()
    h.do({"type": "rb.turn_order", "id": "c2", "value": 20})
    h.do({"type": "advance"})
    h.do({"type": "rb.move", "id": "c2", "x": 5})
    h.do({"type": "rb.resolve", "ref": "R1", "success": False, "by": 3, "blunder": True})
    html = str(panel_html(RS.view(h.present)))
    assert "Movement roll BLUNDERED by 3: Horse stays put" in html


def test_a_next_with_rolls_open_or_turn_orders_missing_says_so():
    """Next never loses an action: with rolls open the panel lists them with Resolve, and offers Skip (logged);
    before the round, who has no turn order, with Roll turn order for all and Start anyway."""
    from fray.games.range_band.web.panel import hold_html
    h = _issue32()
    html = hold_html(RS.view(h.present), RangeBandUi(hold="order"))
    assert "No turn order yet for 5" in html and 'data-act="rb-roll-order"' in html and "Start anyway" in html
    assert "Roll turn order for all and start" in html  # the answer to Start: it starts (see below)
    assert 'data-form="rb-roll-order"' in str(panel_html(RS.view(h.present)))
    h.do({"type": "rb.roll_turn_order", "rolls": {f"turn.c{i}": [i] for i in range(1, 6)}})
    assert hold_html(RS.view(h.present), RangeBandUi(hold="order")) == ""
    h.do({"type": "advance"})
    cur = RS.view(h.present)["current"]
    h.do({"type": "rb.move", "id": cur, "x": 1})
    html = hold_html(RS.view(h.present), RangeBandUi(hold="open"))
    assert "Still open before Next" in html and 'data-ref="R1"' in html and "Skip them and go on" in html


def test_notes_with_no_roll_are_one_folded_line_with_done_all_and_a_fall_keeps_its_box():
    """Issue 33: round 1's notes (a stealth attack's may-an-ally-warn paragraphs) stood under "Rolls to settle",
    each needing its own Done. Notes that need no roll are one folded line with "Done all" (each still readable,
    with its own Done, inside); a fall prompt, which the GM must act on, keeps its box; Fray's assumed mechanic is
    said once, on the first roll to settle, not on each."""
    from fray.reducer import apply
    from fray.games.range_band.web.panel import panel_html

    h = History(new_encounter("range-band", "Notes"))
    for body in ({"name": "Sly", "side": "foes", "stealth": "high", "position": {"x": 0, "y": 0, "alt": 0}},
                 {"name": "Mark", "position": {"x": 20, "y": 0, "alt": 0}},
                 {"name": "Lookout", "position": {"x": 21, "y": 0, "alt": 0}},
                 {"name": "Wing", "flying": True, "stats": {"FSPD": 12}, "position": {"x": 5, "y": 0, "alt": 30}}):
        h.do({"type": "add_combatant", "combatant": {"stats": {"DEX": 12, "CON": 10, "INT": 10, "SPD": 10,
                                                               "WGT": 8, **body.pop("stats", {})}, **body}})
    for target in ("c2", "c3"):
        h.do({"type": "rb.attack", "id": "c1", "target": target, "kind": "ranged",
              "size": "major" if target == "c2" else "minor"})
    h.do({"type": "rb.status", "id": "c4", "status": "incapacitated"})
    # the warning notes a save of rules edition .27 or earlier carries (an attack sent now leaves none)
    h.present.state["prompts"] += [{"ref": f"P{i}", "kind": "warning", "combatant": cid, "round": 1,
                                    "text": "Stealth attack: may an ally warn them?"} for i, cid in ((2, "c2"), (3, "c3"))]
    html = panel_html(RS.view(h.present), {})
    kinds = sorted(p["kind"] for p in h.present.state["prompts"])
    assert kinds == ["fall", "warning", "warning"]
    notes = re.search(r'<div class="rb-gm-notes rb-box".*?</div>', html, re.S).group(0)
    assert "<summary>2 notes (warning), no roll needed" in notes
    assert 'data-act="rb-dismiss-all"' in notes and 'data-refs="P2 P3"' in notes
    assert notes.count('data-act="rb-dismiss"') == 2  # each still Done on its own, inside the fold
    assert html.count('class="rb-prompt rb-box"') == 1 and "Falling rules" in html.split("rb-gm-notes")[0]
    assert html.count("rb-assumed-once") == 1 and len(h.present.state["pending"]) == 2


def test_the_turn_order_list_is_folded_on_a_tablet_and_open_on_a_laptop_during_the_fight():
    """Issue 33: on a tablet the order strip and the turn-order list showed the same 14 rows twice. After setup the
    list is a fold-out, shut on a tablet (the strip shows the order), open on a laptop; what the GM opened or shut
    stays so. In setup it is the plain list, where the turn orders are typed."""
    from fray.games.range_band.web.panel import round_html

    h = History(new_encounter("range-band", "Fold"))
    for n in ("Ana", "Bo"):
        h.do({"type": "add_combatant", "combatant": {"name": n, "stats": {"DEX": 12, "CON": 10, "INT": 10,
                                                                          "SPD": 10, "WGT": 8}}})
    assert "rb-order-fold" not in round_html(RS.view(h.present), RangeBandUi(narrow=True))
    h.do({"type": "advance"})
    view = RS.view(h.present)
    assert re.search(r'<details class="rb-order-fold rb-keep" data-fold="rb-order">', round_html(view, RangeBandUi(narrow=True)))
    assert re.search(r'<details class="rb-order-fold rb-keep" data-fold="rb-order" open>', round_html(view, {}))
    kept = round_html(view, RangeBandUi(narrow=True, folds={"rb-order": True}))
    assert 'data-fold="rb-order" open>' in kept


def _read(markup: str) -> str:
    """What the GM reads of some markup: its text, and the names and tooltips a reader or a hover says."""
    import html as html_lib
    said = [v for _, a in tags(markup) for k, v in a.items() if k in ("aria-label", "title") and v]
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", markup)) + " " + " ".join(said)


def test_statuses_read_in_the_rule_texts_words_wherever_they_are_written():
    """The rule text names the statuses in words: "If you are currently knocked down" (Falling Off
    Mounts: "you are also knocked down"), "gives you a minor stunned status for 1 round" (Flight), "out
    of breath" (Holding Breath). A GM's play-through found the card's Status list saying the names a save
    keeps ("knocked-down", "minor-stunned"): nothing internal reaches the screen, so the card, its status
    drop-down, the core card's conditions and picker, the strip's chips and the log say the words."""
    from fray.web import render

    h = fight()
    h.do({"type": "rb.status", "id": "c1", "status": "minor-stunned", "rounds": 1})
    h.do({"type": "rb.knockdown", "id": "c5"})
    h.do({"type": "set_condition", "id": "c1", "condition": "out-of-breath"})
    h.do({"type": "rb.status", "id": "c5", "status": "knocked-down", "on": False})
    enc = h.present
    view = RS.view(enc)
    ids = re.compile(r"knocked-down|minor-stunned|major-stunned|out-of-breath")
    card = _read(card_html(view, "c1"))
    assert "minor stunned" in card and "out of breath" in card and "knocked down" in card  # the drop-down too
    st = RS.status(enc, view, "c1")
    assert st["chips"] == ["minor stunned", "out of breath"]
    core = _read(render.combatant_card(enc, enc.get("c1"), RS, status=st))
    assert "minor stunned" in core and "Remove out of breath from" in core
    picker = _read(render.condition_form(enc.get("c1"), RS.conditions, enc, RS))
    assert "knocked down" in picker
    log = " ".join(e.text for e in enc.log)
    assert "is now minor stunned for 1 round" in log and "is now out of breath" in log
    assert "is no longer knocked down" in log
    for where, text in (("card", card), ("core card", core), ("picker", picker), ("log", log),
                        ("strip", " ".join(st["chips"]))):
        assert not ids.search(text), f"{where}: {ids.search(text).group(0)}"
    # and the names a save keeps still take the status off: the card's × sends the name, not the words
    assert 'data-status="minor-stunned"' in card_html(view, "c1")


class RollingApp(FakeApp):
    """The page's dispatch: the dice the GM did not type are rolled (``History.do`` with a random source)."""

    def dispatch(self, action, scope=None, field_map=None) -> bool:
        import random
        try:
            self.history.do(action, random.Random(7))
        except FrayError as e:
            self.errors.append((getattr(e, "field", "") or "", str(e)))
            return False
        return True


def test_rolling_the_missing_turn_orders_asked_for_by_start_starts_the_fight():
    """The round (FACTS.md): "a movement phase, then an action phase in which each character takes one turn in
    turn order". A GM's play-through: "Start the fight", asked who had no turn order, "Roll turn order for all",
    and the fight stayed in Setup with no word that Start had to be pressed again. Asked for by Start, the roll
    starts the fight; rolled from the setup panel alone, it only rolls (the GM starts when ready)."""
    from fray.games.range_band.web.panel import PANEL
    h = _issue32()
    app = RollingApp(h)
    _submit(app, "rb-roll-order", {"die": "d20", "stat": ""})
    assert h.present.phase == "setup" and all(c.data.get("turn_value") is not None for c in h.present.combatants)
    h = _issue32()
    app = RollingApp(h)
    app.ui.part(PANEL).hold = "order"  # "Start the fight" found turn orders missing and asked
    _submit(app, "rb-roll-order", {"die": "d20", "stat": ""})
    assert not app.errors and h.present.phase == "movement" and app.ui.part(PANEL).hold is None
    assert all(c.data.get("turn_value") is not None for c in h.present.combatants)
    assert [a["type"] for a in h.actions[-2:]] == ["rb.roll_turn_order", "advance"]  # each its own line and undo
    h = _issue32()
    app = RollingApp(h)
    app.ui.part(PANEL).hold = "order"
    _submit(app, "rb-roll-order", {"die": "d7", "stat": ""})  # refused at its field: nothing rolled, nothing started
    assert app.errors and h.present.phase == "setup" and app.ui.part(PANEL).hold == "order"


def test_the_dice_for_fray_are_their_own_form_so_enter_there_lets_fray_roll():
    """Core roll (FACTS.md): "the GM rolls and enters the result (success or failure, and by how much), or lets
    an *assumed*, documented default mechanic roll it". The two are two forms, so Enter in a field does its own
    form's action: in "Dice for Fray", Fray's roll with the typed die (it pressed "Apply result", a GM's
    play-through); in "By how much", the GM's result. tests/e2e/test_range_band.py presses Enter in the page."""
    from fray.games.range_band.web.rolls import pending_html
    h = fight()
    h.do({"type": "advance"})
    h.do({"type": "rb.move", "id": "c1", "x": 5})
    markup = str(pending_html(RS.view(h.present)))
    forms = re.findall(r'<form[^>]*data-form="([^"]+)"[^>]*>(.*?)</form>', markup, re.S)
    assert [f for f, _ in forms] == ["rb-resolve", "rb-roll"]
    gm, fray = (body for _, body in forms)
    assert {"success", "by", "blunder"} <= names_in(gm) and "rolls.roll" not in names_in(gm)
    assert names_in(fray) == {"rolls.roll"} and "Let Fray roll (assumed default)" in fray
    assert re.findall(r'<button type="submit"[^>]*>([^<]*)<', gm) == ["Apply result"]
    assert re.findall(r'<button type="submit"[^>]*>([^<]*)<', fray) == ["Let Fray roll (assumed default)"]
    app = FakeApp(h)
    _submit(app, "rb-roll", {"rolls.roll": "1"}, ref="R1")  # 1 on a d12 against SPD 10: a success
    assert not app.errors and not h.present.state.get("pending")
    assert h.actions[-1] == {"type": "rb.resolve", "ref": "R1", "rolls": {"roll": [1]}}
    assert h.present.get("c1").position.x == 5


def test_detection_rolls_are_offered_to_her_foes_only():
    """A GM's play-through: "Detection rolls against Tamsin 1" offered her ally Tamsin 2 in "Who rolls". The rule
    (Detection Rolls): "resolved by a detection roll by everyone who may or may not see the stealthy character";
    her allies know where she is, and the engine's own default is every able opponent. The list is her able
    foes: not herself, not her allies, not the fallen."""
    h = History(new_encounter("range-band", "T"))
    for name, side in (("Tamsin 1", "party"), ("Tamsin 2", "party"), ("Raider 1", "foes"), ("Raider 2", "foes")):
        h.do({"type": "add_combatant", "combatant": {**preset("Human scout"), "name": name, "side": side}})
    h.do({"type": "set_condition", "id": "c4", "condition": "dead", "on": True})
    for i, cid in enumerate(("c1", "c2", "c3")):
        h.do({"type": "rb.turn_order", "id": cid, "value": 20 - i})
    h = in_turn(h, "c1")
    view = RS.view(h.present)
    html = panel_html(view, RangeBandUi(drawn={"rb-more-c1"})) + card_html(view, "c1")
    form = re.search(r'<form data-form="rb-detect" data-id="c1".*?</form>', html, re.S).group(0)
    assert "Detection rolls against Tamsin 1" in form
    assert {n for n in names_in(form) if n.startswith("observers.")} == {"observers.c3"}


def test_an_attacks_result_shows_beside_the_attack_form_as_a_movement_rolls_does():
    """A GM's report: a movement roll's result shows beside its form, an attack's only in the log. The turn's
    attack form says what the latest settled offense roll came to (Attacking: "the attack succeeds on its
    offense roll" / misses), and nothing while a newer attack waits under Rolls."""
    from rb_helpers import act, last_pending, resolve, rider_and_horse, start, to_phase

    def attack_form(enc) -> str:
        html = str(panel_html(RS.view(enc), {}))
        return re.search(r'<form data-form="rb-attack".*?</form>', html, re.S).group(0)

    enc = to_phase(start(rider_and_horse()), "actions", "c1")
    assert "rb-result" not in attack_form(enc)
    enc = act(enc, "attack", id="c1", target="c3", weapon=1)
    what = last_pending(enc, "offense")["spec"]["what"].removeprefix("Offense roll: ")
    assert "rb-result" not in attack_form(enc)  # waiting under Rolls
    hit = resolve(enc, "offense", success=True, by=3)
    form = attack_form(hit)
    assert 'class="rb-result rb-result-ok" role="status"' in form
    assert f"{what}: offense roll succeeded by 3 — the attack succeeds on its offense roll" in form
    miss = resolve(enc, "offense", success=False, by=2)
    assert f"{what}: offense roll failed by 2 — the attack misses" in attack_form(miss)
    assert "rb-result" not in attack_form(act(hit, "attack", id="c1", target="c3", weapon=1, size="minor"))


def test_after_a_descent_without_a_roll_the_movement_box_asks_the_gm():
    """Flight: "During your movement phase, you may descend any distance equivalent to 1 zone (long range) with or
    without a roll." and "If vertical movement up or down is your only movement, it still counts as a movement
    phase". Whether a movement roll may follow a descent made without one the text leaves open: once the flyer
    has descended, its movement box says so, quotes both, and offers the GM the choice (a box to tick, read
    into ``rb.move {after_descent}``); it says the descent, not "Movement roll succeeded"."""
    h = fight()
    for _ in range(30):
        v = RS.view(h.present)
        if v["phase"]["id"] == "movement" and v["current"] == "c4":
            break
        h.do({"type": "advance"})
    if not RS.view(h.present)["combatants"][3].get("flying"):
        h.do({"type": "rb.fly", "id": "c4", "on": True})
    h.do({"type": "move", "id": "c4", "x": 0, "y": 0, "alt": 40})
    before = str(panel_html(RS.view(h.present), RangeBandUi()))
    assert "after_descent" not in before
    h.do({"type": "rb.descend", "id": "c4", "alt": 10})
    html = str(panel_html(RS.view(h.present), RangeBandUi()))
    box = html[html.index('class="rb-acting'):]
    assert "descended without a roll" in box and "Movement roll succeeded" not in box
    assert "with or without a roll" in box and "it still counts as a movement phase" in box
    assert 'name="after_descent"' in box and "after_descent" in names_in(box)
    assert move_action("c4", {"x": "3", "y": "0", "alt": "10", "after_descent": "on"})["after_descent"] is True
    assert "after_descent" not in move_action("c4", {"x": "3", "y": "0", "alt": "10"})


def test_target_warned_by_offers_the_targets_allies_in_the_fight_only():
    """Stealth Attacks: "The surprise advantage of stealth attacks can be mitigated if the defender is warned by one of
    their allies." and "Animals cannot warn others, nor can they be warned." A GM's play-through: "Target warned by"
    listed the target himself, the attacker's allies and the fallen. It lists the chosen target's allies still in
    the fight (no animal), and follows the Target the GM chose (kept in the panel's part of the page state)."""
    h = History(new_encounter("range-band", "T"))
    for name, side in (("Sneak", "foes"), ("Cutthroat", "foes"), ("Mark", "party"), ("Lookout", "party"),
                       ("Fallen", "party"), ("Hound", "party")):
        h.do({"type": "add_combatant", "combatant": {**preset("Human scout"), "name": name, "side": side,
                                                    **({"kind": "animal"} if name == "Hound" else {})}})
    h.do({"type": "set_condition", "id": "c5", "condition": "dead", "on": True})
    for i, cid in enumerate(("c1", "c2", "c3", "c4", "c6")):
        h.do({"type": "rb.turn_order", "id": cid, "value": 20 - i})
    h = in_turn(h, "c1")
    view = RS.view(h.present)

    def warn_options(ui: RangeBandUi) -> tuple[str, list[str]]:
        form = re.search(r'<form data-form="rb-attack" data-id="c1".*?</form>', panel_html(view, ui), re.S).group(0)
        target = re.search(r'<select[^>]*name="target".*?</select>', form, re.S).group(0)
        chosen = re.search(r'<option value="(c\d+)" selected', target).group(1)
        warn = re.search(r'<select[^>]*name="warned_by".*?</select>', form, re.S).group(0)
        return chosen, re.findall(r'<option value="[^"]*"[^>]*>([^<]*)</option>', warn)

    assert warn_options(RangeBandUi()) == ("c3", ["nobody", "Lookout"])
    assert warn_options(RangeBandUi(targets={"c1": "c4"})) == ("c4", ["nobody", "Mark"])
    assert warn_options(RangeBandUi(targets={"c1": "c6"})) == ("c6", ["nobody"])   # a hound cannot be warned
    assert warn_options(RangeBandUi(targets={"c1": "c2"})) == ("c2", ["nobody"])   # an unexpected attack on an ally


def test_ride_offers_neither_the_combatant_itself_nor_the_fallen():
    """Falling Off Mounts: "If your mount is incapacitated or knocked down, you are also knocked down; you are no
    longer considered mounted." A GM's play-through: a card's "Ride (choose a mount)" listed its own combatant
    and the fallen."""
    h = History(new_encounter("range-band", "T"))
    for n in ("Rider", "Horse", "Horse", "Human scout"):
        h.do({"type": "add_combatant", "combatant": preset(n)})
    h.do({"type": "set_condition", "id": "c3", "condition": "dead", "on": True})
    view = RS.view(h.present)
    form = re.search(r'<form class="rb-inline" data-form="rb-mount" data-id="c1".*?</form>', card_html(view, "c1"),
                     re.S).group(0)
    assert re.findall(r'<option value="(c\d+)"', form) == ["c2"]  # nor the scout, a person (no mount)


def test_the_strip_says_high_stealth_as_it_says_the_statuses():
    """High Stealth: "To take full advantage of stealth tactics, a character must enter High Stealth." The map draws
    a token in High Stealth; the order strip showed no tag for it. Its entry (and the acting line) carries a "High
    Stealth" chip beside the statuses; Medium Stealth and the fallen carry none."""
    from fray.web import render

    h = History(new_encounter("range-band", "T"))
    for name, stealth in (("Kest", "high"), ("Mira", "medium"), ("Orm", "high")):
        h.do({"type": "add_combatant", "combatant": {**preset("Human scout"), "name": name, "stealth": stealth}})
    h.do({"type": "rb.status", "id": "c1", "status": "minor-stunned", "rounds": 1})
    h.do({"type": "set_condition", "id": "c3", "condition": "dead", "on": True})
    enc = h.present
    view = RS.view(enc)
    status = {c.id: RS.status(enc, view, c.id) for c in enc.combatants}
    assert status["c1"]["chips"] == ["minor stunned", "High Stealth"]
    assert status["c2"]["chips"] == [] and "High Stealth" not in status["c3"]["chips"]
    strip = _read(str(render.order_strip(render.strip_entries(enc, RS.order_of_play(enc), status, None))))
    assert "Kest, minor stunned, High Stealth" in strip and "Mira, High Stealth" not in strip


def _weapon_form(h: History, cid: str, ui: RangeBandUi | None = None) -> tuple[str, str]:
    """The attack form of ``cid``'s turn: the Weapon selected, and the line saying no weapon reaches (or "")."""
    h = in_turn(h, cid)
    form = re.search(rf'<form data-form="rb-attack" data-id="{cid}".*?</form>',
                     panel_html(RS.view(h.present), ui or RangeBandUi()), re.S).group(0)
    weapon = re.search(r'<select[^>]*name="weapon".*?</select>', form, re.S).group(0)
    chosen = re.search(r'<option value="(\d+)" selected', weapon)
    note = re.search(r'<p class="rb-reach" data-reach-note role="status">([^<]*)</p>', form)
    return (chosen.group(1) if chosen else "0"), (unescape(note.group(1)) if note else "")


def test_a_flyer_aloft_is_offered_a_weapon_that_reaches_the_default_target_or_told_none_does():
    """Flight: "When considering your range to another character, use the greater of your horizontal or vertical
    range to them." and Sight & Visible Range: engaged is the range "that qualifies as a melee engagement". A GM's
    play: Wren, flying at 31 m, was offered her Talons first, a melee weapon that cannot reach anyone from there.
    The Weapon defaults to one that reaches the default Target (her Javelin); the Talons on the ground beside
    him; with only Talons aloft, the form says before the roll that none of her weapons reaches."""
    def wren(alt: float, weapons: list | None = None) -> History:
        h = History(new_encounter("range-band", "Ford"))
        flyer = {**preset("Winged flyer"), "name": "Wren", "side": "party", "position": {"x": 0, "y": 0, "alt": alt}}
        if weapons is not None:
            flyer["weapons"] = weapons
        h.do({"type": "add_combatant", "combatant": flyer})
        h.do({"type": "add_combatant", "combatant": {**preset("Human scout"), "name": "Broo", "side": "foes",
                                                    "stealth": "low", "position": {"x": 1, "y": 0, "alt": 0}}})
        for cid, v in (("c1", 20), ("c2", 10)):
            h.do({"type": "rb.turn_order", "id": cid, "value": v})
        return h

    assert _weapon_form(wren(31), "c1") == ("1", "")                          # the Javelin, not the Talons
    assert _weapon_form(wren(0), "c1") == ("0", "")                           # engaged: the Talons, first
    assert _weapon_form(wren(0), "c1", RangeBandUi(weapons={"c1": "1"})) == ("1", "")  # the GM's last one reaches
    chosen, note = _weapon_form(wren(31, [{"name": "Talons", "kind": "melee", "tags": ["natural"]}]), "c1")
    assert chosen == "0"
    assert note.startswith("None of Wren's weapons can reach Broo from here: Talons is a melee weapon: Broo is at ")
    assert "vertical" in note and "c2" not in note


def test_ride_offers_only_a_free_animal_of_the_riders_side():
    """Falling Off Mounts: "If you are falling off an animal of at least 400 WGT ..." (a mount is an animal: the
    game marks one by its kind), Back in Combat: "Mounts cannot carry more than one character as a proper rider."
    and "If your mount is incapacitated or knocked down ... you are no longer considered mounted." A GM's play: a
    card's Ride list offered foes and people. It offers the animals of the rider's side still in the fight and
    carrying no one; the add form's Riding the free animals in the fight."""
    h = History(new_encounter("range-band", "Ford"))
    for n, name, side in (("Rider", "Kael", "party"), ("Horse", "Grey", "party"), ("Horse", "Nag", "foes"),
                          ("Human scout", "Mark", "party"), ("Horse", "Bay", "party"), ("Rider", "Ana", "party"),
                          ("Horse", "Dun", "party")):
        h.do({"type": "add_combatant", "combatant": {**preset(n), "name": name, "side": side}})
    h.do({"type": "rb.mount", "id": "c6", "mount": "c5"})                # Bay carries Ana
    h.do({"type": "set_condition", "id": "c7", "condition": "dead", "on": True})
    # "Creatures with sufficiently high weight and carry factors can carry ...": the text does not make every
    # mount an animal; a tech steed is one too (a review: the list had come to offer animals only)
    h.do({"type": "add_combatant", "combatant": {**preset("Horse"), "name": "Strider", "kind": "tech", "side": "party"}})
    form = re.search(r'<form class="rb-inline" data-form="rb-mount" data-id="c1".*?</form>',
                     card_html(RS.view(h.present), "c1"), re.S).group(0)
    assert re.findall(r'<option value="(c\d+)"', form) == ["c2", "c8"]    # not Nag, Mark, Bay (ridden), Dun (dead)
    from fray.games.range_band.web.card import mount_choices
    assert [i for i, _ in mount_choices(RS.view(h.present))] == ["c2", "c3", "c8"]  # the add form: any side
