"""Markup escapes by default (issue 34: "an element builder where every string child and attribute
value is escaped"): every form of every phase, the cards, the add form's weapons section and the
party fields, drawn for combatants and weapons named with markup, come out as ``Markup`` from the
builder, and no element or attribute on the page came from those names."""

from __future__ import annotations

from fray.web.blocks import Block
from fray.web.html import Markup
from fray.games.tactical_round.rules import map_ranges
from fray.games.tactical_round.web.ui import TacticalRoundUi
from fray.games.tactical_round.web import party
from fray.games.tactical_round.web.panel import DEFAULT_KINDS, add_fields_html, card_html, open_html, panel_html
from html_checks import tags
from tr_helpers import RS, do, fight, fighter, to_phase

HOSTILE = "<img src=x onerror=alert(1)>"
SEEN = "&lt;img src=x onerror=alert(1)&gt;"  # the name, escaped: shown as text


def bow(n: str = "") -> dict:
    return {"name": f"{HOSTILE}bow{n}", "cmb": 45, "kind": "missile", "base_range": 10, "reload": 1}


def blade(n: str = "", shield: int = 0) -> dict:
    return {"name": f"{HOSTILE}blade{n}", "cmb": 50, "kind": "melee", "length": 2, "shield": shield}


def knife() -> dict:
    return {"name": f"{HOSTILE}knife", "cmb": 35, "kind": "thrown", "base_range": 5}


def inert(markup: str) -> None:
    """Markup from the builder (or a Block of it, which the painter patches part by part), and
    nothing in it made by a name: no <img>, no onerror."""
    assert isinstance(markup, (Markup, Block)), type(markup)
    found = tags(markup)
    assert not [t for t, _ in found if t == "img"]
    assert not [a for _, a in found if "onerror" in a or "src" in a]


class Page:
    """Everything the tactical-round page draws of an encounter, checked as it is drawn."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def draw(self, enc, **ui) -> None:
        view = RS.view(enc)
        asked = {"asked": [view.get("round"), view["phase"]["id"]]}
        for who in [c.id for c in enc.combatants][:2]:
            ranges = map_ranges(enc, RS.all_tables(enc), who)
            for u in (TacticalRoundUi(**ui), TacticalRoundUi(**ui, **asked)):
                self.check(panel_html(view, u, DEFAULT_KINDS, ranges))
        self.check(open_html(view, TacticalRoundUi(**asked)))
        for c in enc.combatants:
            self.check(card_html(view, c.id))  # every fold-out drawn
            self.check(card_html(view, c.id, TacticalRoundUi()))  # drawn when opened
            self.check(add_fields_html({"weapons": c.data.get("weapons", [])}))

    def check(self, markup: str) -> None:
        inert(markup)
        self.drawn.append(markup)

    @property
    def all(self) -> str:
        return "".join(self.drawn)


def test_every_phase_form_and_card_shows_hostile_names_as_text():
    page = Page()
    enc = fight(fighter(f"{HOSTILE}A", bow(), blade(shield=15), side="party", x=0),
                fighter(f"{HOSTILE}B", blade("b", shield=10), side="foes", x=1),
                fighter(f"{HOSTILE}C", knife(), side="foes", x=12))
    a, b, c = (x.id for x in enc.combatants)
    page.draw(enc)  # setup
    enc, _ = do(enc, {"type": "tr.cover", "id": a, "cover": "partial", "against": c})
    enc = to_phase(enc, "declaration")
    page.draw(enc)  # nobody declared: the open box names them
    enc, _ = do(enc, {"type": "tr.declare", "id": a, "actions": [{"action": "ranged_attack", "weapon": 0, "target": c}]})
    enc, _ = do(enc, {"type": "tr.declare", "id": b, "actions": [{"action": "melee_attack", "weapon": 0, "target": a}]})
    enc, _ = do(enc, {"type": "tr.declare", "id": c, "actions": [{"action": "ranged_attack", "weapon": 0, "target": a}]})
    enc, _ = do(enc, {"type": "tr.parry", "id": a, "amount": 10, "against": [b]})
    page.draw(enc)
    for phase in ("move", "spell_a", "ranged_a"):
        enc = to_phase(enc, phase)
        page.draw(enc)  # what is still open, by name
    enc, _ = do(enc, {"type": "tr.attack", "id": a, "target": c, "weapon": 0, "line_of_sight": True}, attack=[60])
    page.draw(enc)  # the result awaiting the table
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 3, "critical": "A"}, critical=[50])
    page.draw(enc)  # the critical awaiting its effects
    enc, _ = do(enc, {"type": "tr.apply_critical", "ref": "A1", "hits": 0, "stunned_rounds": 1, "prone": False,
                      "text": HOSTILE})
    enc = to_phase(enc, "melee")
    enc, _ = do(enc, {"type": "tr.attack", "id": b, "target": a, "weapon": 0}, attack=[50])
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A2", "hits": 30, "critical": None})
    page.draw(enc)  # engaged: running away on the card; hurt: its badges
    html = page.all
    for part in ('id="tr-open"', 'data-form="tr-declare"', 'class="tr-declared"', 'data-form="tr-attack"',
                 'class="tr-ranges"', 'data-form="tr-result"', 'data-form="tr-critical"', 'data-form="tr-parry"',
                 'class="tr-against"', 'data-form="tr-cover"', 'data-form="tr-hp"', 'data-form="tr-run-away"',
                 'class="tr-conds"', 'name="tr_weapons"', "tr-badge hp-"):
        assert part in html, part  # every form was drawn, with the names in it
    assert html.count(SEEN) > 500


def test_folded_declarations_and_results_show_hostile_names_as_text():
    """Past ``FOLD_DECLARATIONS_FROM`` declarers each declaration is a fold-out named by its
    declarer; past ``PENDING_SHOWN`` results each is a fold-out naming attacker and target."""
    page = Page()
    enc = fight(*[fighter(f"{HOSTILE}{i}", blade(str(i)), side="party" if i % 2 else "foes", x=i) for i in range(14)])
    ids = [x.id for x in enc.combatants]
    enc = to_phase(enc, "declaration")
    for i in range(0, 8, 2):
        enc, _ = do(enc, {"type": "tr.declare", "id": ids[i],
                          "actions": [{"action": "melee_attack", "weapon": 0, "target": ids[i + 1]}]})
    page.draw(enc, decl_open={ids[0]}, decl_drawn={ids[0], ids[2]})
    enc = to_phase(enc, "melee")
    for i in range(0, 8, 2):
        enc, _ = do(enc, {"type": "tr.attack", "id": ids[i], "target": ids[i + 1], "weapon": 0}, attack=[40])
    page.draw(enc, pending_open={"A4"}, pending_drawn={"A4"})
    html = page.all
    for part in ("tr-decl-folded", 'data-fold="decl-', 'data-fold="pending-A4"', "tr-pending-fold", "tr-badge sim",
                 'data-act="order-up"'):
        assert part in html, part
    assert html.count(SEEN) > 500


def test_party_fields_show_lasting_criticals_as_text():
    out = party.fields_html(f'{HOSTILE}"', {"hits_taken": 3, "lasting": [HOSTILE, "</textarea><b>x</b>"]}, None,
                            HOSTILE)
    inert(out)
    assert [t for t, _ in tags(out)] == ["label", "input", "label", "textarea"]
    assert "&lt;/textarea&gt;&lt;b&gt;x&lt;/b&gt;" in out


def test_the_attack_form_starts_with_line_of_sight_from_the_map():
    """Issue 33 ("start it from what the map and the GM's last answer know"): the attack form's
    defaults. Once the panel's view state was typed, ``attack_defaults`` (a static method) asked for
    its part by ``self`` and raised, caught as "a default only": the form started unticked."""
    import random

    from fray.history import History
    from fray.reducer import new_encounter
    from fray.web.uistate import UiState
    from fray.games.tactical_round.web.panel import PANEL, TacticalPanel

    h = History(new_encounter("tactical-round", "Defaults"))
    for i, c in enumerate(RS.presets()[:2]):
        h.do({"type": "add_combatant", "combatant": {**c, "side": ("party", "foes")[i],
                                                      "position": {"x": 6 * i, "y": 0}}}, random.Random(1))

    class App:
        ruleset, history, ui = RS, h, UiState()
        enc = property(lambda self: self.history.present)

    app = App()
    app.ui.part(PANEL).attack = {"id": "c1", "weapon": 1, "target": "c2"}  # the swordsman's dagger, thrown
    pre = TacticalPanel.attack_defaults(app, RS.view(h.present))
    assert pre["nearest"] == "c2" and pre["line_of_sight"] is True  # nobody stands between them
    # his broadsword (the wielded one) needs no line of sight: a melee attack starts unticked (a GM's
    # play-through: the box carried from a missile attack into a melee one)
    app.ui.part(PANEL).attack = {"id": "c1", "target": "c2"}
    assert TacticalPanel.attack_defaults(app, RS.view(h.present))["line_of_sight"] is False
