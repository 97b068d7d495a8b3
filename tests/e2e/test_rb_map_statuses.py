"""Range band, a GM playing whole fights: the statuses (knocked down, stunned, High Stealth) were drawn on no
token, on the GM's map or the players', where the other games' conditions (prone, stunned, dead) are. The
rule text (000_da34f120076854a0.txt), Falling Off Mounts: "If your mount is incapacitated or knocked down,
you are also knocked down"; Flight: "a minor stunned status until the end of your next turn"."""

from __future__ import annotations


from playwright.sync_api import expect

from gestures import import_history, photograph
from test_map import preset
from test_players_view import open_players


def load(page, tmp_path) -> None:
    """A scout knocked down at 0 m, a bear minor stunned 10 m east, a sneak in High Stealth 20 m east."""
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("range-band", "Statuses at the ford"))
    for body, x in ((preset("range-band", "Human scout"), 0), (preset("range-band", "Large creature", side="foes"), 10),
                    (preset("range-band", "Human scout", name="Sneak", stealth="high"), 20)):
        h.do({"type": "add_combatant", "combatant": {**body, "position": {"x": x, "y": 0, "alt": 0}}})
    h.do({"type": "rb.status", "id": "c1", "status": "knocked-down"})
    h.do({"type": "rb.status", "id": "c2", "status": "minor-stunned", "rounds": 1})
    import_history(page, tmp_path, h, 3, "statuses")


def test_the_statuses_are_on_the_tokens_of_both_maps(page, open_app, wait_ready, tmp_path):
    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    load(page, tmp_path)
    scout = page.locator("#tok-c1")
    expect(scout.locator("title")).to_contain_text("knocked down")
    expect(scout).to_have_class(__import__("re").compile(r"\bprone\b"))  # on the ground, flattened as prone is
    expect(page.locator("#lab-c1")).to_contain_text("knocked down")
    expect(page.locator("#lab-c2")).to_contain_text("minor stunned")
    expect(page.locator("#lab-c3")).to_contain_text("high stealth")
    photograph(page, "rb-map-statuses", scroll_to="#map-plan", map_tab=True)
    pv = open_players(page, wait_ready)
    token = pv.locator('.pv-token[data-id="c1"]')
    expect(token).to_have_class(__import__("re").compile(r"\bprone\b"))
    expect(token.locator("title")).to_contain_text("knocked down")
    expect(pv.locator('.pv-label-at[data-label-for="c1"]')).to_contain_text("knocked down")
    # a stun or a stealth level is the GM's to tell
    expect(pv.locator('.pv-token[data-id="c2"] title')).not_to_contain_text("stunned")
    photograph(pv, "rb-players-statuses")


def test_high_stealth_is_drawn_on_the_token_itself(page, open_app, wait_ready, tmp_path):
    """High Stealth: "In this state, you are actively using your environment, moving cautiously, and taking every
    opportunity to avoid detection". A GM's map showed the High Stealth token as its initials alone ("SB"), its
    band and "unseen" gone with its label where the label found no room: the token itself says it, as a knocked
    down token lies flat whatever its label, veiled (see-through, a dotted rim), and its title says "high stealth"."""
    import re

    page.set_viewport_size({"width": 1366, "height": 900})
    open_app(page)
    load(page, tmp_path)
    sneak, scout = page.locator("#tok-c3"), page.locator("#tok-c1")
    expect(sneak).to_have_class(re.compile(r"\bstate-high_stealth\b"))
    expect(sneak.locator("title")).to_contain_text("high stealth")
    expect(scout).not_to_have_class(re.compile(r"\bstate-high_stealth\b"))
    veil = sneak.locator(".disc").evaluate("d => [getComputedStyle(d).fillOpacity, getComputedStyle(d).strokeDasharray]")
    plain = scout.locator(".disc").evaluate("d => [getComputedStyle(d).fillOpacity, getComputedStyle(d).strokeDasharray]")
    assert float(veil[0]) < 1 and veil[1] not in ("none", ""), veil
    assert float(plain[0]) == 1 and plain[1] in ("none", ""), plain
    photograph(page, "rb-map-high-stealth", scroll_to="#map-plan", map_tab=True)
