"""Issue 34, "Markup that escapes by default": the strike-rank page (games/strike_rank/web/) is built
with fray.web.html, so a combatant's, a weapon's or a hit location's text typed by the GM (or from an
imported save) is text wherever it shows: in the panel, on the cards and in every form, never an
element or an attribute of its own."""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))

from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from fray.games.strike_rank.web.add_form import add_fields_html  # noqa: E402
from fray.games.strike_rank.web.ui import StrikeRankUi
from fray.games.strike_rank.web.card import card_html  # noqa: E402
from fray.games.strike_rank.web.panel import panel_html  # noqa: E402
from fray.games.strike_rank.web.parse import attack_action, declare_action  # noqa: E402
from fray.games.strike_rank.web.party import fields_html  # noqa: E402
from fray.games.strike_rank.web.questions import prompt_html  # noqa: E402
from html_checks import tags  # noqa: E402
from sr_helpers import RS, STATS  # noqa: E402

IMG = "<img src=x onerror=alert(1)>"
# what the page shows of it: text, every character a GM typed
SHOWN = "&lt;img src=x onerror=alert(1)&gt;"
NAME = f'"{IMG}</script>'  # a combatant's name that would also end an attribute and a script block

# a humanoid body of the GM's own, every hit location's name hostile (its id is the plain word)
BODY = [{"id": lid, "name": f"{IMG} {lid}", "type": typ, "side": side, "melee": rng, "hp": {"div": 3, "add": add}}
        for lid, typ, side, rng, add in (("rleg", "leg", "right", [1, 4], 1), ("lleg", "leg", "left", [5, 8], 1),
                                         ("abdomen", "abdomen", "", [9, 11], 1), ("chest", "chest", "", [12, 12], 2),
                                         ("rarm", "arm", "right", [13, 15], 0), ("larm", "arm", "left", [16, 18], 0),
                                         ("head", "head", "", [19, 20], 1))]
SPEAR = {"id": "spear", "name": f"{IMG} spear", "skill": 60, "damage": "1D8+1", "sr": 1, "hp": 10, "type": "impaling",
         "hafted": True, "spear": True, "hand": "both"}
SHIELD = {"id": "shield", "name": f"{IMG} shield", "skill": 50, "damage": "1D4", "sr": 3, "hp": 12, "type": "crushing",
          "shield": True, "shield_size": "medium", "hand": "left"}
BOW = {"id": "bow", "name": f"{IMG} bow", "skill": 60, "damage": "1D8+1", "hp": 6, "type": "impaling", "missile": True,
       "rate": "S/MR", "range": 60, "hand": "both"}


class Everything(dict):
    """Every fold-out open, so each form is drawn with its body."""

    def get(self, key, default=None):
        return True


class Drawn(set):
    def __contains__(self, key):
        return True


def fighter(name: str, side: str, x: int, *weapons: dict) -> dict:
    return {"name": name, "side": side, "stats": dict(STATS), "position": {"x": x, "y": 0},
            "weapons": [dict(w) for w in weapons], "body": BODY, "armour": 0}


def assert_inert(html: str, where: str) -> None:
    found = tags(html)
    assert not [t for t, _ in found if t in ("img", "script")], f"{where}: a hostile tag is live"
    assert not [a for _, attrs in found for a in attrs if a.startswith("on")], f"{where}: a hostile attribute is live"
    assert "</script" not in html.lower(), f"{where}: a script end is live"


def page(h: History, **ui) -> list[tuple[str, str]]:
    """Every part the page draws now, fold-outs open: the panel, each card, each question, each
    combatant's fields in the Party dialog, the add form's section with their weapons."""
    enc = h.present
    view = RS.view(enc)
    log = [(e.kind, e.text) for e in enc.log]
    ui = StrikeRankUi(open=Everything(), opened=Drawn(), **ui)
    out = [("panel", panel_html(view, ui, log)), ("panel, kept", panel_html(view, ui, log, {}))]
    names = {cid: c["name"] for cid, c in view["combatants"].items()}
    for cid in view["combatants"]:
        out.append((f"{cid}'s card", card_html(cid, view, ui)))
    for p in view.get("prompts", []):
        out.append((f"the question {p['kind']}", prompt_html(p, names)))
    for c in enc.combatants:
        locs = {l["id"]: {"hp": 1, "bleeding": True, "first_aid": True} for l in c.data["locations"]}
        stuck = [{"weapon": f"{IMG} spear", "location": "chest"}]
        out.append((f"{c.id} in the Party dialog", fields_html("ch1", {"locations": locs, "weapons": {"spear": 3},
                                                                      "stuck": stuck}, c, c.name)))
        out.append(("the add form", add_fields_html({"body": "humanoid", "weapons": c.data["weapons"],
                                                     "armour": {IMG: 2}})))
    return out


def test_hostile_names_weapons_and_locations_are_text_in_every_strike_rank_form():
    """A fight whose combatants, weapons and hit locations are all named ``<img src=x onerror=alert(1)>…``,
    drawn while declaring (the declare, change and abort forms), resolving (the attack form with its
    circumstances, a special blow's extra dice, a free attack, what is still open), answering the GM's
    questions (a spear stuck in the body), on the cards (every GM form) and in the Party dialog: no
    element or attribute comes from the text, and the text is there to read."""
    rng = random.Random(7)
    h = History(new_encounter("strike-rank", NAME))
    h.do({"type": "add_combatant", "combatant": fighter(NAME, "party", 0, SPEAR, SHIELD, BOW)}, rng)
    h.do({"type": "add_combatant", "combatant": fighter(f"{IMG} wolf", "foes", 1, SPEAR, SHIELD)}, rng)
    h.do({"type": "advance"}, rng)  # declare
    drawn = page(h, undeclared=h.present.round)
    h.do(declare_action("c1", {"kind": "melee", "weapon": "spear", "target": "c2"}), rng)
    h.do(declare_action("c2", {"kind": "other", "label": IMG, "target": "c1"}), rng)
    drawn += page(h)
    h.do({"type": "advance"}, rng)  # resolve
    view = RS.view(h.present)
    order = view["order"]
    refs = [o["ref"] for o in order]
    attack_ref = next(o["ref"] for o in order if o["kind"] == "melee")
    other_ref = next(o["ref"] for o in order if o["kind"] == "other")
    more = {"said": [f"{IMG} rolled"], "need": "1D8", "typed": [3], "expr": "2D8+1", "why": IMG}
    drawn += page(h, change=other_ref)
    h.do({"type": "sr.resolve", "ref": other_ref}, rng)  # the Other action comes first (SR 3)
    while not any(o["current"] and o["ref"] == attack_ref for o in RS.view(h.present)["order"]):
        h.do({"type": "advance"}, rng)
    view = RS.view(h.present)
    drawn += page(h, still_open=[view["round"], view["sr"]], target={attack_ref: "c2"}, more={attack_ref: more})
    # the spear, a special (5) to the chest (12): it impales and sticks
    a, errors = attack_action(attack_ref, "c1", "spear", {"target": "c2", "defence.kind": "none", "mode": "normal",
                                                          "rolls.attack": "5", "rolls.location": "12",
                                                          "rolls.damage": "3 3 2"})
    assert errors == {}
    h.do(a, rng)
    view = RS.view(h.present)
    assert view["prompts"], "the stuck spear asks the GM"
    free = {"attacker": "c2", "target": "c1", "prompt": view["prompts"][0]["id"]}
    drawn += page(h, free=free)
    assert refs and len(drawn) > 20

    for where, html in drawn:
        assert_inert(html, where)
    every = "".join(html for _, html in drawn)
    for text in (f"{SHOWN} spear", f"{SHOWN} shield", f"{SHOWN} chest", f"{SHOWN} wolf",
                 "&quot;" + SHOWN + "&lt;/script&gt;", 'data-form="sr-declare"', 'data-form="sr-change"',
                 'data-form="sr-abort"', 'data-form="sr-attack"', "sr-circumstances", "sr-more-dice",
                 'data-form="sr-prompt"', 'data-form="sr-unstick"', 'data-form="sr-first-aid"',
                 'data-form="sr-grapple"', "sr-still-open", "sr-undeclared", "party-stuck", "sr-add"):
        assert text in every, f"nothing drew {text}: the test would check nothing there"
