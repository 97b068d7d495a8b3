"""Range band, a GM's last play-through (p5): Wren, flying at 31 m, was offered her Talons first, a melee weapon that
cannot reach anyone from there; a card's Ride list offered foes and people as mounts.

Every step waits on what the page shows (``expect``), never on time."""

from __future__ import annotations

import sys
from pathlib import Path

from gestures import card, import_history, photograph
from playwright.sync_api import expect
from test_range_band import advance

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "py") not in sys.path:
    sys.path.insert(0, str(ROOT / "py"))

from fray.history import History  # noqa: E402
from fray.reducer import new_encounter  # noqa: E402
from fray.games import get_ruleset  # noqa: E402

RS = get_ruleset("range-band")
TABLET = {"width": 768, "height": 1024}
TALONS = {"name": "Talons", "kind": "melee", "tags": ["natural"]}


def body(which: str, name: str, side: str, x: float, alt: float = 0, **over) -> dict:
    p = next(p for p in RS.presets() if p["name"] == which)
    return {**p, "name": name, "side": side, "position": {"x": x, "y": 0, "alt": alt}, **over}


def reed_ford(page, tmp_path) -> None:
    """Wren (Talons, Javelin) at 31 m above Broo; Kestrel (Talons alone) at 31 m beside the Harpy; Kael on foot
    with Grey, his side's horse, the foes' Nag and Mark, a person, about. The fight is at Wren's turn in round 1's
    action phase (a save file, as a GM brings one)."""
    h = History(new_encounter("range-band", "Reed ford"))
    for b in (body("Winged flyer", "Wren", "party", 0, 31), body("Winged flyer", "Kestrel", "party", 58, 31,
                                                                   weapons=[TALONS]),
              body("Human scout", "Broo", "foes", 1, stealth="low"), body("Winged flyer", "Harpy", "foes", 60, 31),
              body("Rider", "Kael", "party", -10), body("Horse", "Grey", "party", -10),
              body("Horse", "Nag", "foes", 40), body("Human scout", "Mark", "party", -12)):
        h.do({"type": "add_combatant", "combatant": b})
    for i, c in enumerate(h.present.combatants):
        h.do({"type": "rb.turn_order", "id": c.id, "value": 20 - i})
    while not (h.present.phase == "actions" and RS.view(h.present)["current"] == "c1"):
        h.do({"type": "advance"})
    import_history(page, tmp_path, h, 8, "reed-ford")
    expect(page.locator("#round-bar .phase")).to_contain_text("Action phase: Wren")


def test_the_weapon_reaches_the_target_or_the_form_says_none_does(page, open_app, tmp_path):
    """Flight: "When considering your range to another character, use the greater of your horizontal or vertical
    range to them." and Sight & Visible Range: engaged range is the one "that qualifies as a melee engagement".
    Wren, 31 m above Broo, is offered her Javelin against him, not her Talons. Kestrel, beside the Harpy, starts on
    her Talons; Broo chosen as her Target, the form says before any roll that none of her weapons reaches him (and
    the preview that the attack would be refused); the Harpy chosen again, the line goes."""
    page.set_viewport_size(TABLET)
    open_app(page)
    reed_ford(page, tmp_path)
    form = page.locator("form[data-form=rb-attack]")
    expect(form.get_by_label("Target", exact=True)).to_have_value("c3")     # Broo, the nearest foe
    expect(form.get_by_label("Weapon")).to_have_value("1")                  # the Javelin
    expect(form.locator("[data-reach-note]")).to_be_hidden()

    advance(page, "Action phase: Kestrel")
    form = page.locator('form[data-form=rb-attack][data-id="c2"]')
    target, note = form.get_by_label("Target", exact=True), form.locator("[data-reach-note]")
    expect(target).to_have_value("c4")                                       # the Harpy, 2 m off at her height
    expect(form.get_by_label("Weapon")).to_have_value("0")
    expect(note).to_be_hidden()
    target.select_option("c3")                                               # Broo, 31 m below
    expect(note).to_be_visible()
    expect(note).to_have_text("None of Kestrel's weapons can reach Broo from here: Talons is a melee weapon: Broo "
                              "is at long range (greater of horizontal long (57.0 m) and vertical medium (31.0 m))")
    expect(form.locator(".rb-preview-error")).to_contain_text("needs engaged range")
    photograph(page, "rb-none-reach", scroll_to="form[data-form=rb-attack]")
    target.select_option("c4")
    expect(note).to_be_hidden()


def test_ride_offers_only_a_free_animal_of_the_riders_side(page, open_app, tmp_path):
    """Falling Off Mounts: "If you are falling off an animal of at least 400 WGT ..." and Back in Combat: "Mounts
    cannot carry more than one character as a proper rider." Kael's Ride offers Grey, his side's horse: not the
    foes' Nag, not Mark nor anyone else who is a person."""
    page.set_viewport_size(TABLET)
    open_app(page)
    reed_ford(page, tmp_path)
    ride = card(page, "Kael").get_by_label("Ride", exact=True)
    expect(ride.locator("option")).to_have_text(["(choose a mount)", "Grey"])
