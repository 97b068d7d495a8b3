"""The history list: every point of the fight the GM can go back (or forward) to.

It is one undo stack shown whole: going to an earlier point is that many undos at once, and
Redo (or a later entry) walks forward again until the GM does something new. Labels are the
first log line of each action (``History.label``), so the list reads like the log.
"""

from __future__ import annotations

from typing import Any

from ..history import History
from .html import Markup, html
from .render import attrs, button, marked_labels

# entries shown at first; "Show earlier" adds this many more. A resumed history builds the states
# it labels on demand (replaying from the nearest checkpoint), so the list stays short at first.
PAGE = 30


def undo_title(history: History) -> tuple[str, str]:
    """The Undo and Redo buttons' titles: what each would change, when that is known cheaply
    (a state still to be replayed after a reload is not built just to say it)."""
    undo = redo = ""
    c = history.cursor
    known = history.known_label(c - 1) if c > 0 else None
    if known is not None:
        undo = f"Undo: {known}"
    if c < len(history.actions) and history.has_state(c + 1):
        redo = f"Redo: {history.label(c)}"
    return undo or "Undo the last change", redo or "Redo what was undone"


def _ref_words(ruleset_id: str) -> dict[str, str]:
    """The open game's word before each label ("Attack A3"); none for a game not installed."""
    from ..errors import FrayError
    from fray.games import get_ruleset

    try:
        return get_ruleset(ruleset_id).ref_words
    except FrayError:
        return {}


def history_html(history: History, shown: int = PAGE, enc_name: str = "") -> Markup:
    total = len(history.actions)
    lo = max(0, total - shown)
    items = []
    words = _ref_words(history.present.ruleset)
    for i in range(total, lo - 1, -1):
        now = i == history.cursor
        text = history.label(i - 1) if i > 0 else f"Start of {enc_name or 'the encounter'}"
        if now:
            ctl = _NOW
        elif i < history.cursor:
            ctl = button("Go back to here", "history-go", "secondary", title=f"Undo back to: {text}", point=i)
        else:
            ctl = button("Go forward to here", "history-go", "secondary", title=f"Redo up to: {text}", point=i)
        cls = "now" if now else ("undone" if i > history.cursor else "done")
        n = f"{i}." if i else ""
        items.append(html('<li class="{}"{}><span class="hist-n">{}</span><span class="hist-text">{}</span>{}</li>',
                          cls, attrs(aria_current="step" if now else None), n, marked_labels(text, words), ctl))
    more = ""
    if lo > 0:
        more = html("<p>{}</p>", button(f"Show earlier ({lo} more)", "history-more", "secondary", shown=shown + 100))
    undone = total - history.cursor
    hint = (f"{undone} undone change{'s' if undone != 1 else ''} can still be redone; doing something new "
            "drops them." if undone else "Going back is the same as pressing Undo that many times; Redo goes forward again.")
    return html('<div class="history"><h2 id="dlg-title">History</h2><p class="hint">{}</p>'
                '<ol class="hist-list" reversed>{}</ol>{}<div class="dlg-actions">{}</div></div>',
                hint, Markup("").join(items), more, button("Close", "close-dialog", "secondary"))


_NOW = html('<span class="hist-now">now</span>')
