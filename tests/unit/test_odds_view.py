"""web/odds_view: the odds as the page shows them (pure rendering, CPython): every piece of text
escaped, the chosen defence marked, an assumed mechanic said so, and no inline style (the page's
Content-Security-Policy runs none)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "strike_rank"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "tactical_round"))

from fray.games import get_ruleset  # noqa: E402
from fray.games.range_band import odds as rb_odds, rolls  # noqa: E402
from fray.games.strike_rank import odds as sr_odds  # noqa: E402
from fray.games.tactical_round import odds as tr_odds  # noqa: E402
from fray.web import odds_view  # noqa: E402


def test_exchange_odds_render_escaped_with_the_chosen_defence_marked():
    from sr_helpers import RS, duel, fighter, to_phase

    enc = to_phase(duel(fighter("<b>Ana</b>", side="party"), fighter("Bor")), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
                                        "defence": {"kind": "dodge"}})
    html = odds_view.exchange_html(o)
    assert "<b>Ana" not in html and "&lt;b&gt;Ana" in html
    assert '<th scope="col" class="chosen" aria-current="true">Dodge' in html
    assert "Parry with Shield" in html and "No defence" in html and "Serious wound" in html
    assert "style=" not in html


def test_no_odds_say_why():
    from sr_helpers import RS, duel, to_phase

    enc = to_phase(duel(), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c9", "weapon": "broadsword"})
    html = odds_view.exchange_html(o)
    assert "No odds" in html and "no longer in this encounter" in html and "c9" not in html  # said by name, no id


def test_open_ended_total_renders_its_spread():
    from tr_helpers import RS, SWORD, declare, fight, fighter, to_phase

    enc = fight(fighter("Ana", SWORD, side="party"), fighter("Bor", SWORD, DEF=30))
    enc = to_phase(declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"}), "melee")
    html = odds_view.open_ended_html(tr_odds.attack_odds(RS, enc, {"type": "tr.attack", "id": "c1", "target": "c2"}))
    assert "open-ended d100 + 20" in html and "Middle 90%" in html and "<svg" in html and "style=" not in html


def test_spec_odds_say_the_mechanic_is_assumed():
    core = get_ruleset("range-band").tables["core_roll"]
    spec = rolls.RollSpec("Stealth roll", "d20", "DEX", 10, "High Stealth").to_json()
    html = odds_view.spec_html(rb_odds.spec_odds(spec, core))
    assert "assumed default mechanic" in html and "Success 50%" in html


def test_special_attack_odds_show_what_follows_side_by_side():
    """A stun aimed at the head: one row per outcome for each defence, and the MR unconscious as bars."""
    from sr_helpers import RS, duel, to_phase

    enc = to_phase(duel(), "resolve")
    o = sr_odds.exchange_odds(RS, enc, {"type": "sr.attack", "attacker": "c1", "target": "c2", "weapon": "broadsword",
                                        "mode": "stun", "aim": "head", "defence": "none"})
    html = odds_view.exchange_html(o)
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
    html = odds_view.exchange_html(o)
    assert "Eurmal 70% → ×0.5 into melee = 35%" in html
    plain = sr_odds.ExchangeOdds("Ana", "Bor", "Sword", 65, "65", {}, "none", [sr_odds.Alternative("none", "No defence")])
    assert "Ana 65%:" in odds_view.exchange_html(plain)
