"""Numbers as the map writes them: coordinates in its SVG markup (``fmt``: short and stable, so the
same drawing is the same text and a memo of markup finds it), and a range modifier in its words
(``signed``)."""

from __future__ import annotations


def fmt(v: float) -> str:
    """A coordinate for markup: short, stable, no exponent."""
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def signed(n: int) -> str:
    """A modifier as the tables print it: "+0", "+10", "−20" (a minus sign, not a hyphen)."""
    return f"+{n}" if n >= 0 else f"−{-n}"
