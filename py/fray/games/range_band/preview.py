"""What an action would ask for, before the GM sends it: the live roll-specification preview.

The preview runs the action's own handler (``reducer.apply``, which works on a copy and never edits
the encounter it is given) and reports what the handler left behind that was not there before: the
pending rolls with their roll specifications (die, stat, TN parts, Hindrance and Easing with their
reasons, blunder, what success and failure do), the prompts, and the log lines; or the error the
action would be refused with. The result is thrown away, so nothing is sent, recorded or rolled
(the tray has no random source: an action that would need dice says so in ``error``).
"""

from __future__ import annotations

from typing import Any

from fray.errors import FrayError, InvalidAction, RuleViolation
from fray.model import Encounter


def preview(enc: Encounter, action: dict[str, Any]) -> dict[str, Any]:
    """``{pending: [...], prompts: [...], events: [text], error: None | {field, rule, message}}``."""
    from fray.reducer import apply

    had = {p["ref"] for key in ("pending", "prompts") for p in enc.state.get(key, [])}
    try:
        new, events = apply(enc, action)
    except FrayError as e:
        return {"pending": [], "prompts": [], "events": [], "error": {
            "field": e.field if isinstance(e, InvalidAction) else None,
            "rule": getattr(e, "rule", None) if isinstance(e, RuleViolation) else None,
            "message": e.message if isinstance(e, InvalidAction) else str(e)}}
    prompts = [p for p in new.state.get("prompts", []) if p["ref"] not in had]
    pending = [p for p in new.state.get("pending", []) if p["ref"] not in had]
    if action.get("type") == "rb.attack" and any(p["kind"] == "offense" for p in pending):
        # the warner is chosen in this form, so the stealth attack's question is asked here and only here (the
        # attack once sent leaves no note)
        from fray.games import get_ruleset
        from fray.games.range_band.attacks import warning_question
        ask = warning_question(enc, action, get_ruleset(enc.ruleset).all_tables(enc))
        if ask:
            prompts.append({"kind": "warning", "combatant": action.get("target"), "text": ask})
    return {"pending": pending, "prompts": prompts,
            "events": [ev["text"] for ev in events], "error": None}
