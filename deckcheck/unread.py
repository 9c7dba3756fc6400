"""Lines that named no card (`Deck.unresolved`), in the words pages and exports use.

The contract: every page that totals a section says how many cards stand on such
lines ("47 cards that deckcheck could read, and 2 more on line 13 that it could
not"), and an export lists what it left out in `warnings`.
"""

from __future__ import annotations

from rules.model import Deck, Unresolved, plural, unread_words
from rules.read import parse

MAIN = "main"


def where(item: Unresolved) -> str:
    return f"line {item.line}" if item.line is not None else "an entry"


def count_words(item: Unresolved) -> str:
    return (
        plural(item.count, "card") if item.count is not None else "a count deckcheck could not read"
    )


def by_section(deck: Deck, text: str | None = None) -> dict[str, tuple[Unresolved, ...]]:
    """Unread lines under the section header in force above them (from `text`).

    A line without a header above it could have been any section; it is counted with
    the main deck, as the deck-size message counts it.
    """
    if not deck.unresolved:
        return {}
    hints = _section_hints(text) if text else {}
    grouped: dict[str, list[Unresolved]] = {}
    for item in deck.unresolved:
        grouped.setdefault(hints.get(item.line, MAIN), []).append(item)
    return {section: tuple(items) for section, items in grouped.items()}


def _section_hints(text: str) -> dict[int | None, str]:
    return {
        line.number: line.section
        for line in parse(text).lines
        if line.section in ("main", "eggs", "destiny")
    }


def section_totals(deck: Deck, text: str | None = None) -> dict[str, str]:
    """Each section's total in words, with the cards standing on its unread lines."""
    unread_in = by_section(deck, text)
    names = [*deck.sections(), *(s for s in unread_in if s not in deck.sections())]
    return {name: total_words(deck.size(name), unread_in.get(name, ())) for name in names}


def total_words(read: int, items: tuple[Unresolved, ...]) -> str:
    """`47 cards that deckcheck could read, and 2 more on line 13 that it could not`."""
    if not items:
        return plural(read, "card")
    unread = unread_words(items)
    return f"{plural(read, 'card')} that deckcheck could read, and {unread} that it could not"


def warnings(deck: Deck) -> list[dict]:
    """What an export left out, one warning per unread line."""
    return [
        {
            "code": "left-out",
            "line": item.line,
            "text": item.text,
            "count": item.count,
            "message": (
                f"{where(item).capitalize()} (“{item.text}”, {count_words(item)}) named no card, "
                "so the export leaves it out: fix the line and export again."
            ),
        }
        for item in deck.unresolved
    ]


def header_value(deck: Deck) -> str:
    """The left-out lines for an HTTP header (ASCII only: numbers and counts, no text)."""
    return "; ".join(f"{where(item)} ({count_words(item)})" for item in deck.unresolved)
