"""Strike-rank's odds as the attack form shows them (games/strike_rank/web/odds.py, pure, CPython):
every piece of text escaped, the chosen defence marked, and no inline style (the page's
Content-Security-Policy runs none)."""

from __future__ import annotations

from fray.games.strike_rank import odds as sr_odds
from fray.games.strike_rank.web import odds as odds_html
from fray.web.html import Markup
from sr_helpers import RS, duel, fighter, to_phase


def test_exchange_odds_render_escaped_with_the_chosen_defence_marked():
    enc = to_phase(duel(fighter("<b>Ana</b>", side="party"), fighter("Bor")), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
                                        "defence": {"kind": "dodge"}})
    html = odds_html.exchange_html(o)
    assert isinstance(html, Markup)
    assert "<b>Ana" not in html and "&lt;b&gt;Ana" in html
    assert '<th scope="col" class="chosen" aria-current="true">Dodge' in html
    assert "Parry with Shield" in html and "No defence" in html and "Serious wound" in html
    assert "style=" not in html


def test_no_odds_say_why():
    enc = to_phase(duel(), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c9", "weapon": "broadsword"})
    html = odds_html.exchange_html(o)
    assert "No odds" in html and "no longer in this encounter" in html and "c9" not in html  # said by name, no id


def test_special_attack_odds_show_what_follows_side_by_side():
    """A stun aimed at the head: one row per outcome for each defence, and the MR unconscious as bars."""
    enc = to_phase(duel(), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
                                        "mode": "stun", "aim": "head", "defence": "none"})
    html = odds_html.exchange_html(o)
    row = html[html.index('<th scope="row">Unconscious</th>'):]
    row = row[:row.index("</tr>")]
    assert row.count("<td") == len(o.alternatives)  # parry with each weapon, dodge, none
    assert "results and what follows" in html and "MR unconscious: none" in html and "<svg" in html
    assert "Damage through" not in html and "style=" not in html


def test_the_odds_show_the_skill_as_it_will_be_rolled_with_the_reason():
    """Issue 33: the odds said "Eurmal 35%" while the weapon said 70%; the reason (shooting into
    melee halves it) was only under Circumstances. The odds line now shows the steps."""
    o = sr_odds.ExchangeOdds("Eurmal", "Broo", "Bow", 35, "70% → ×0.5 into melee = 35%", {}, "none",
                             [sr_odds.Alternative("none", "No defence")])
    html = odds_html.exchange_html(o)
    assert "Eurmal 70% → ×0.5 into melee = 35%" in html
    plain = sr_odds.ExchangeOdds("Ana", "Bor", "Sword", 65, "65", {}, "none", [sr_odds.Alternative("none", "No defence")])
    assert "Ana 65%:" in odds_html.exchange_html(plain)


def test_a_hostile_weapon_or_defence_name_stays_text_in_every_part():
    """Names the GM typed (a weapon, a defence, a note) reach the alternatives, the detail and the
    notes: none of them becomes an element."""
    bad = '<img src=x onerror="alert(1)">'
    enc = to_phase(duel(fighter(bad, side="party"), fighter(bad)), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
                                        "defence": {"kind": "dodge"}})
    o.notes.append(bad)
    html = odds_html.exchange_html(o)
    assert "<img" not in html and html.count("&lt;img src=x") >= 2
