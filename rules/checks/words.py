"""Small phrases the checks share, so every message reads the same way."""

from __future__ import annotations

from rules.games import section_words
from rules.model import Card, plural


def copies(count: int) -> str:
    return plural(count, "copy", "copies")


def cards(count: int) -> str:
    return plural(count, "card")


def section_name(section: str) -> str:
    return section_words(section)


def labels(items: list[Card] | tuple[Card, ...]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    names = [card.label for card in items]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
