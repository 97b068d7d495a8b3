"""The Players' view dialog (a GM's play-through: "you cannot tell which Wounds choice is selected"): each
choice of a group (Wounds; Hide / Show / Automatic for each combatant) is a toggle button that says it is
pressed (``aria-pressed``), the chosen one drawn filled with a tick, the others plain.

``FRAY_SHOTS=DIR`` writes the dialog at a tablet's and a laptop's size there, to look at."""

from __future__ import annotations

import os

from playwright.sync_api import expect
from test_players_view import players_dialog, setup_fight

LOOK = """b => { const s = getComputedStyle(b), t = getComputedStyle(b, "::before");
  return [s.backgroundColor, s.color, t.content]; }"""


def chosen(group, name: str) -> None:
    """``name`` is the pressed one of ``group``'s buttons, and looks it: the others look alike and unlike it."""
    buttons = group.get_by_role("button")
    expect(group.get_by_role("button", name=name, pressed=True)).to_have_count(1)
    expect(group.get_by_role("button", pressed=True)).to_have_count(1)
    expect(group.get_by_role("button", pressed=False)).to_have_count(buttons.count() - 1)
    on = group.get_by_role("button", pressed=True).evaluate(LOOK)
    offs = [b.evaluate(LOOK) for b in group.get_by_role("button", pressed=False).all()]
    assert all(off[0] != on[0] and off[2] != on[2] for off in offs), (on, offs)
    assert "\u2713" in on[2]


def test_the_chosen_wounds_and_hiding_show_which(page, open_app):
    page.set_viewport_size({"width": 768, "height": 1024})
    open_app(page)
    setup_fight(page)
    dlg = players_dialog(page)
    wounds = dlg.get_by_role("group", name="Wounds")
    chosen(wounds, "Described (\u201cbadly hurt\u201d)")
    wounds.get_by_role("button", name="Exact HP").click()
    chosen(wounds, "Exact HP")
    row = dlg.locator('li[data-id="c2"]')
    chosen(row.get_by_role("group"), "Automatic")
    row.get_by_role("button", name="Hide").click()
    expect(row).to_contain_text("Hidden, by the GM")
    chosen(row.get_by_role("group"), "Hide")
    if os.environ.get("FRAY_SHOTS"):
        for w, h in ((768, 1024), (1366, 900)):
            page.set_viewport_size({"width": w, "height": h})
            page.screenshot(path=os.path.join(os.environ["FRAY_SHOTS"], f"players-settings-{w}.png"))
