"""Issue 34, "Markup that escapes by default": the range-band page builds its markup with
``fray.web.html``, so a name the GM types (a combatant, a weapon, an area, an action) is text
wherever it is drawn: the panel (rolls to settle with their specifications, notes, the acting
forms, the zone and areas, the turn order, the battle's end), the live preview, every card, the
add form and the Party dialog. Nothing typed ever becomes an element or an attribute."""

from __future__ import annotations

import pytest

from fray.games import get_ruleset
from fray.games.range_band.web.ui import RangeBandUi
from fray.history import History
from fray.reducer import new_encounter
from fray.games.range_band.preview import preview
from fray.games.range_band.web import party
from fray.games.range_band.web.panel import add_fields_html, card_html, panel_html, preview_html
from fray.games.range_band.web.rolls import notes_html, pending_html
from fray.web.blocks import Block
from fray.web.html import Markup
from html_checks import EVIL, tags

RS = get_ruleset("range-band")
HOSTILE = (EVIL, "<img src=x onerror=alert(1)>")


def preset(name: str) -> dict:
    return dict(next(p for p in RS.presets() if p["name"] == name))


def hostile_fight(evil: str) -> History:
    """A scout and a swimmer whose names and weapons are ``evil``, against a flyer and a rider on a horse,
    in a smoke area and a water area both named ``evil``."""
    h = History(new_encounter("range-band", "Ford"))
    scout = preset("Human scout")
    scout.update(name=evil, position={"x": 0, "y": 0, "alt": 0},
                 weapons=[{"name": evil, "kind": "ranged", "tags": []}, {"name": evil + "2", "kind": "melee",
                                                                        "tags": []}])
    h.do({"type": "add_combatant", "combatant": scout})                                      # c1
    h.do({"type": "add_combatant", "combatant": {**preset("Winged flyer"), "side": "foes",
                                                 "position": {"x": 20, "y": 0, "alt": 0}}})  # c2
    h.do({"type": "add_combatant", "combatant": {**preset("Rider"), "name": evil + " rider", "side": "foes",
                                                 "position": {"x": 10, "y": 0, "alt": 0}}})  # c3
    h.do({"type": "add_combatant", "combatant": {**preset("Horse"), "name": evil + " horse", "side": "foes",
                                                 "position": {"x": 10, "y": 0, "alt": 0}}})  # c4
    h.do({"type": "add_combatant", "combatant": {**preset("Amphibious swimmer"), "name": evil + " swims",
                                                 "position": {"x": 40, "y": 0, "alt": -2}}})  # c5
    h.do({"type": "rb.mount", "id": "c3", "mount": "c4"})
    h.do({"type": "rb.area", "kind": "smoke", "x": 20, "y": 0, "radius": "short", "alt": 0, "name": evil[:40]})
    h.do({"type": "rb.area", "kind": "water", "x": 40, "y": 0, "radius": "short", "alt": 0, "depth": 5,
          "name": evil[:40]})
    for i, cid in enumerate(("c1", "c2", "c3", "c4", "c5")):
        h.do({"type": "rb.turn_order", "id": cid, "value": 20 - i})
    return h


def elements(markup: str) -> list[tuple[str, dict]]:
    """Every start tag that came from the hostile text: an <img>, or any attribute that runs script."""
    return [(t, a) for t, a in tags(markup) if t == "img" or any(k.startswith("on") or k in ("src", "x")
                                                                    for k in a)]


def every_markup(h: History, evil: str) -> list[tuple[str, str]]:
    """What the page draws of this fight now, part by part, all drawn (no fold-out left lazy)."""
    enc = h.present
    view = RS.view(enc)
    pos = {c.id: (c.position.x, c.position.y, c.position.alt) for c in enc.combatants}
    keys = {"rb-end"} | ({f"rb-more-{view['current']}"} if view.get("current") else set())
    out = [("panel", panel_html(view, RangeBandUi(open=set(keys), drawn=set(keys), folds={"rb-notes": True}), pos)),
           ("panel, Next held", panel_html(view, RangeBandUi(hold="order" if enc.phase == "setup" else "open"), pos)),
           ("notes", notes_html(view, RangeBandUi())), ("pending", pending_html(view))]
    out += [(f"card {c.id}", card_html(view, c.id)) for c in enc.combatants]
    names = {c.id: c.name for c in enc.combatants}
    core = RS.table(enc, "core_roll")
    if view.get("current"):
        cur = view["current"]
        for a in ({"type": "rb.attack", "id": cur, "target": "c2", "weapon": 0},
                  {"type": "rb.detect", "id": cur, "die": "d20", "observers": []},
                  {"type": "rb.move", "id": cur, "x": 3, "y": 0, "alt": 0}):
            out.append((f"preview {a['type']}", preview_html(preview(enc, a), core, names)))
    out.append(("preview refused", preview_html({"error": {"field": evil, "message": evil}}, core, names)))
    out.append(("add form", add_fields_html({"riding": "c1"}, [(c.id, c.name) for c in enc.combatants])))
    out.append(("party", party.fields_html(evil, {"fatigue": 2}, None, evil)))
    return out


def played(evil: str):
    """The fight at each step a GM reaches: setup, the movement phase, the scout's turn with a pending attack
    and the stealth notes, and the battle's end."""
    h = hostile_fight(evil)
    yield "setup", h
    h.do({"type": "advance"})
    yield "movement", h
    while not (h.present.phase == "actions" and RS.view(h.present).get("current") == "c1"):
        h.do({"type": "advance"})
    h.do({"type": "rb.act", "id": "c1", "size": "minor", "what": evil})
    h.do({"type": "rb.attack", "id": "c1", "target": "c2", "weapon": 0, "die": "d20", "stat": "DEX", "size": "major"})
    h.do({"type": "rb.status", "id": "c2", "status": RS.view(h.present)["choices"]["statuses"][0]})
    yield "the scout's turn", h
    h.do({"type": "rb.end_battle", "activity": {}, "involvement": {}})
    yield "the battle's end", h


@pytest.mark.parametrize("evil", HOSTILE)
def test_names_weapons_areas_and_actions_typed_by_the_gm_never_become_elements(evil):
    drawn = {"name": False, "weapon": False, "area": False, "action": False, "pending": False, "notes": False, "end": False}
    for step, h in played(evil):
        for part, markup in every_markup(h, evil):
            assert isinstance(markup, (Markup, Block)), f"{step}, {part}: not built by fray.web.html"
            assert elements(markup) == [], f"{step}, {part}: an element or attribute came from typed text"
            assert "<img" not in markup, f"{step}, {part}"
        view = RS.view(h.present)
        page = "".join(m for _, m in every_markup(h, evil))
        text = evil.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        drawn["name"] |= f'<span class="who">{text}</span>' in page
        drawn["weapon"] |= any(f'<option value="0"{sel}>{text} (ranged)</option>' in page for sel in ("", " selected"))
        drawn["area"] |= f"<strong>{text}</strong>" in page and "surface of " + text in page
        drawn["action"] |= f"(minor: {text};" in page
        drawn["pending"] |= bool(view.get("pending")) and f"Offense roll: {text}" in page
        drawn["notes"] |= f"Allies who may warn: {text} rider" in page
        drawn["end"] |= bool(view.get("battle_end")) and 'class="rb-end rb-box"><h3>' in page
    assert all(drawn.values()), drawn  # each hostile text was drawn (as text) somewhere on the way
