"""Tactical-round fights built with the engine and opened in the page, as a GM imports a save: the
set-up the tactical-round page tests share (each wrote the same History by hand)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from gestures import import_history
from test_map import preset

ORC, SWORDSMAN = "Orc warrior", "Swordsman with shield"
TABLET, LAPTOP = {"width": 768, "height": 1024}, {"width": 1366, "height": 900}


def body(which: str, name: str, x: float, y: float, side: str = "foes") -> tuple[dict[str, Any], float, float]:
    """A preset of the tactical round, named and standing at (x, y) m."""
    return preset("tactical-round", which, name=name, side=side), x, y


def open_fight(page, tmp_path, title: str, bodies: list[tuple[dict[str, Any], float, float]],
               steps: list[Any] = (), file: str = "fight", open_app: Any = None,
               size: dict[str, int] | None = None) -> None:
    """``bodies`` added in order (c1, c2, ...) where they stand, then ``steps`` played: a phase id, to
    advance until that phase (through the next round's, once past it), or an action; opened in the
    page once its tokens are on the map. With ``open_app`` (the fixture), the page is first opened at
    ``size`` (a tablet's unless said)."""
    from fray.history import History

    if open_app is not None:
        page.set_viewport_size(size or TABLET)
        open_app(page)
    from fray.reducer import new_encounter

    h = History(new_encounter("tactical-round", title))
    for b, x, y in bodies:
        h.do({"type": "add_combatant", "combatant": {**b, "position": {"x": x, "y": y, "alt": 0}}})
    for step in steps:
        if not isinstance(step, str):
            h.do(step)
            continue
        for _ in range(20):
            if h.present.phase == step:
                break
            h.do({"type": "advance"})
        assert h.present.phase == step, step
    import_history(page, tmp_path, h, len(bodies), file)


def melee(cid: str, target: str, weapon: int = 0) -> dict[str, Any]:
    """``cid``'s declaration of one Melee attack on ``target``."""
    return {"type": "tr.declare", "id": cid,
            "actions": [{"action": "melee_attack", "weapon": weapon, "target": target}]}


def as_last_round(page, cid: str, said: str, values: dict[str, str]):
    """``cid``'s declaration form in Round 2, set as last round: its line says ``said`` and its fields hold
    ``values`` (field name -> value); the form, for the test to go on with."""
    expect(page.locator("#round-bar .round")).to_have_text("Round 2")
    form = page.locator(f'form[data-form=tr-declare][data-id="{cid}"]')
    expect(form.locator(".tr-decl-last")).to_have_text(said)
    for name, value in values.items():
        expect(form.locator(f'[name="{name}"]')).to_have_value(value)
    return form
