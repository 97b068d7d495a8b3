"""What the GM reads holds no developer words (issue 33, §4): a scan any end-to-end test can run on
the page it has reached.

``assert_gm_words(page)`` reads the page's visible text (``document.body.innerText``), the whole log
(its text, shown or folded away), any open dialog, what every shut fold-out holds and every
control's accessible name (``aria-label``, ``title``: what a screen reader says), and fails naming each offending piece with
the words around it: a combatant, action or prompt id (``c12``, ``a5``, ``p4``), an engine field
path (``weapons.0.type``, ``combatant.name``), a note for developers (``FACTS.md``, "excerpt"), or the
engine's rule tag ("(rule: Tactical Round Sequence)": the rules' heading is said as "see … in the rules").
A game's label for what the GM settles later ("A3", "R4", "P1") may stand in the log only marked
as one (``span.ref``, with a title saying what it is, as ``render.log_text`` writes it): a label
in a log line's plain text is a code the GM has no way to look up (issue 34).

A plain module (like gestures.py): ``from gm_words import assert_gm_words``.
"""

from __future__ import annotations

import re

# what the GM must never read, each with what it is
FORBIDDEN = (
    (re.compile(r"(?<![\w#./-])[acp]\d{1,4}(?![\w.%])"), "an internal id (c12, a5, p4)"),
    (re.compile(r"FACTS\.md|\bFACTS\b", re.I), "a developer note (FACTS.md)"),
    (re.compile(r"\bexcerpt\b", re.I), "a developer note (the excerpt)"),
    (re.compile(r"\b[a-z_]+\.\d+\.[a-z_]+\b"), "an engine field path (weapons.0.type)"),
    (re.compile(r"\b(?:combatant|changes|stats|position|rolls|defence)\.[a-zA-Z_]+"), "an engine field path"),
    (re.compile(r"\(rule:"), "the engine's rule tag ((rule: Tactical Round Sequence))"),
)

_READ = """() => {
    const parts = [document.body.innerText];
    const log = document.getElementById('log');
    if (log) parts.push(log.textContent);
    for (const d of document.querySelectorAll('dialog[open]')) parts.push(d.innerText);
    // what a fold-out shows when the GM opens it, and what a screen reader says of a control
    for (const d of document.querySelectorAll('details:not([open])')) parts.push(d.textContent);
    for (const el of document.querySelectorAll('[aria-label], [title]')) {
        parts.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
    }
    return parts.join('\\n');
}"""


# a game's label in a log line's own text: "A3", "R4", "P1"; not dice ("D100") nor "SR 7"
LABEL = re.compile(r"(?<![\w#./:-])(?!D\d)[A-Z]\d{1,4}(?![\w.%:-])")

_LOG_PLAIN = """() => {
    const out = [];
    for (const li of document.querySelectorAll('#log li')) {
        const copy = li.cloneNode(true);
        for (const el of copy.querySelectorAll('.r, .ref[title]')) el.remove();  // the round, a marked label
        out.push(copy.textContent);
    }
    return out;
}"""


def stray_labels(page) -> list[str]:
    """Each label the log says outside a marked one, with its line."""
    return [f"an unmarked label {m.group(0)!r} in the log: {line[:120]!r}"
            for line in page.evaluate(_LOG_PLAIN) for m in LABEL.finditer(line)]


def gm_text(page) -> str:
    """Everything the GM can read now: the visible page, the whole log, any open dialog."""
    return page.evaluate(_READ)


def offending(text: str) -> list[str]:
    """Each forbidden piece of ``text``: what it is, the piece, and the words around it."""
    out = []
    for pattern, what in FORBIDDEN:
        for m in pattern.finditer(text):
            around = text[max(0, m.start() - 50):m.end() + 50].replace("\n", " | ")
            out.append(f"{what}: {m.group(0)!r} in …{around}…")
    return out


def assert_gm_words(page, where: str = "") -> None:
    """Fail naming every id, field path or developer note the GM could read on ``page`` now."""
    bad = offending(gm_text(page)) + stray_labels(page)
    assert not bad, f"developer words on screen{' (' + where + ')' if where else ''}:\n" + "\n".join(bad[:20])
