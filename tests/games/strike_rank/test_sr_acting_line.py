"""The essentials line beside the strike-rank panel (web/render.py's acting line, told whom it is about by
the panel's ``acting``): it names who acts at the SR being resolved, never one whose action waits at a
later SR."""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(__file__))

from fray.web import render as R  # noqa: E402
from fray.games.strike_rank.web.panel import PANEL, panel_html  # noqa: E402
from sr_helpers import RS, attack, declare, do, fight, fighter, to_phase  # noqa: E402


def line(enc) -> str:
    """The essentials line as the page draws it (web/painter.py): the order of play's current slot,
    then the panel's word on it."""
    order = RS.order_of_play(enc)
    now = enc.get(order[enc.turn].combatant_id) if 0 <= enc.turn < len(order) else None
    view = RS.view(enc)
    tag, who = PANEL.acting(SimpleNamespace(enc=enc), view, now)
    st = RS.status(enc, view, who.id) if who is not None else None
    return str(R.acting_line(who, st, [], tag))


def test_with_no_action_left_at_this_sr_the_line_names_nobody_acting():
    """Action Declaration & Resolution: "These actions are resolved in order of SR". At "No action is left at
    SR 7" the line already said "Acting Broo 2", whose attack waits at a later SR: nobody acts at SR 7 now,
    and Broo 2 is "Acting" once Next brings his SR."""
    enc = to_phase(fight(fighter("Ana", side="party"), fighter("Broo 1", x=2), fighter("Broo 2", x=2, y=2)),
                   "declare")
    enc, _ = declare(enc, "c1", kind="melee", weapon="broadsword", target="c2")
    enc, _ = declare(enc, "c3", kind="melee", weapon="broadsword", target="c1", metres=9)
    enc = to_phase(enc, "resolve")
    assert "Acting</span> <strong class=\"acting-name\">Ana</strong>" in line(enc)
    enc, _ = attack(enc, "c1", "c2", ref="a1", rolls={"attack": 90})
    view = RS.view(enc)
    assert "No action is left at SR 7" in str(panel_html(view, {}))
    assert line(enc) == "", line(enc)
    enc, _ = do(enc, {"type": "advance"})
    assert view["sr"] < RS.view(enc)["sr"]
    assert "Acting</span> <strong class=\"acting-name\">Broo 2</strong>" in line(enc)

