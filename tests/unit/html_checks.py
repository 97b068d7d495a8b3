"""What the panels' HTML tests share: markup that must come out escaped, and the start tags of a
piece of HTML with their attributes (to find controls by name and their error slots)."""

from __future__ import annotations

from html.parser import HTMLParser

EVIL = '<img src=x onerror="alert(1)">&'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    p = Tags()
    p.feed(html)
    return p.tags
