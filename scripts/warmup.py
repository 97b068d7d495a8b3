"""Run the engine's hot paths once before the memory snapshot is taken (scripts/snapshot.mjs).

A build tool, not part of the engine: it names the games and their panels, and the snapshot
script loads it (with bench/fights.py) only for the warm-up and drops both before the snapshot.

The page boots from a snapshot of the interpreter's memory. Python specialises its bytecode as it
runs, in the code objects, and the snapshot keeps the code objects as they are. A snapshot taken
right after the imports has no specialised bytecode, so the page's first load and render run it
all cold: a first full render of a 12-combatant strike-rank fight took 48 ms, the same render
again 22 ms. So each game's played fight (bench/fights.py) is loaded, replayed and drawn here
once, with the pure functions the page's render calls, and the memos filled on the way are
emptied again: the snapshot keeps the warmed code and none of the warm-up's data.

Pure: no ``js``. ``warm()`` returns what it ran, for the build's log and the test.
"""

from __future__ import annotations

from typing import Any


def warm(combatants: int = 8, actions: int = 80) -> dict[str, int]:
    import fights
    from fray import savefile
    from fray.history import History
    from fray.rulesets import get_ruleset
    from fray.web import mapview
    from fray.web import range_band_panel as rb_panel
    from fray.web import render as R
    from fray.web import strike_rank_panel as sr_panel
    from fray.web import tactical_round_panel as tr_panel

    drawn: dict[str, int] = {}
    for rid in ("strike-rank", "tactical-round", "range-band"):
        rs = get_ruleset(rid)
        whole = fights.fight(rid, combatants, actions, seed=7)
        h = savefile.loads(savefile.dumps(whole), verify=False)  # the resume's load path
        replay = History(h.initial)
        kept: dict[str, Any] = {}
        n = 0
        for k, a in enumerate(h.actions):
            replay.do(a)
            if k % 4:
                continue
            enc = replay.present
            view = rs.view_kept(enc, kept)
            order = rs.order_of_play(enc)
            cur = order[enc.turn].combatant_id if enc.phase != "setup" and 0 <= enc.turn < len(order) else None
            status = {c.id: rs.status(enc, view, c.id) for c in enc.combatants}
            R.round_bar(enc, order, rs, view, turn_based=False)
            R.order_strip(R.strip_entries(enc, order, status, cur))
            R.log_entries(enc.log)
            if rid == "strike-rank":
                sr_panel.panel_html(view, {}, [(e.kind, e.text) for e in enc.log[-80:]])
                def extra(view: dict[str, Any], cid: str) -> str:
                    return sr_panel.card_html(cid, view, {})
            elif rid == "tactical-round":
                tr_panel.panel_html(view, {}, tr_panel.DEFAULT_KINDS)
                extra = tr_panel.card_html
            else:
                positions = {c.id: (c.position.x, c.position.y, c.position.alt) for c in enc.combatants}
                rb_panel.panel_html(view, {}, positions)
                extra = rb_panel.card_html
            for c in enc.combatants:
                R.combatant_card(enc, c, rs, extra(view, c.id), c.id == cur, True, status.get(c.id))
            mapview.map_parts(enc, cur)
            n += 1
        savefile.dumps(replay)  # the autosave's path
        drawn[rid] = n
    _forget()
    return drawn


def _forget() -> None:
    """Empty every memo the warm-up filled: the page starts with none of its data."""
    from fray import savefile
    from fray.rulesets import get_ruleset
    from fray.rulesets.range_band import rules as rb_rules
    from fray.web import render as R
    from fray.web import widgets

    savefile._PIECES.clear()
    R._ESCAPED.clear()
    R._STRIP_ENTRY.clear()
    widgets._OPTIONS.clear()
    rb_rules._MEMO.clear()
    for rid in ("strike-rank", "tactical-round", "range-band"):
        get_ruleset(rid).__dict__.pop("_status_memo", None)
