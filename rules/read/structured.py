"""A structured deck (`{"main": [{"card", "count"}], ...}`): each `card` value read like a
text line without a count, in the section it is given in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict

from rules.cache import memo
from rules.read.model import Line, Parsed, Reading
from rules.read.shapes import card_readings


class Entry(TypedDict):
    """A structured deck's entry, as the contract writes it (and a request holds it)."""

    card: str
    count: int


def parse_structured(sections: Mapping[str, Iterable[Entry]], partner: str | None = None) -> Parsed:
    """A structured deck's entries as lines: each `card` value read like a line without a
    count (its count is the entry's), in the section it is given in. The entries are read
    as the request holds them: no copy of them is made first."""
    lines = []
    for section, items in sections.items():
        for position, item in enumerate(items, start=1):
            lines.append(_entry_line(position, item["card"], item["count"], section))
    partners = (_entry_line(1, partner, 1, None, "partner"),) if partner else ()
    return Parsed(tuple(lines), "structured", partners=partners, has_headers=True)


def _entry_line(
    position: int, text: str, count: int, section: str | None, kind: str = "card"
) -> Line:
    numbers, name, readings = _read_entry(text, count)
    return Line(position, text, kind, count, numbers, name, section, None, readings)


# Kept like a card line's reading (`lines._card_entry`), with the entry's count.
@memo(4096)
def _read_entry(text: str, count: int) -> tuple[tuple[str, ...], str | None, tuple[Reading, ...]]:
    """A structured entry's (numbers, name, readings): its `card` read like a line
    without a count, every reading given the entry's count."""
    readings = tuple(r._replace(count=count) for r in card_readings(text.split(), counts=False))
    best = readings[0] if readings else Reading(count, None, None)
    return ((best.number,) if best.number else ()), best.name, readings
