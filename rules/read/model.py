"""What every reader of a decklist gives the resolver: `Line`s, each with its readings.

Every input source (`rules.read.SOURCES`) turns what a player sent into these same
values, so one resolver (`rules.resolve`) judges them all. Named tuples: a request
builds one per line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple

from rules.budget import OVER_ENTRIES
from rules.cache import memo
from rules.numbers import number_key

MAX_LINE = 1000


class Reading(NamedTuple):
    """One way to read a card line: `count` copies of `number` (or of `name`).

    `strain` counts the count- or number-shaped tokens this reading leaves inside
    the name: the fewer, the more natural the reading. `spare` names them. `key` is
    the number's spelling-independent key (`rules.numbers.number_key`), worked out
    when the line is read, so the card index looks the number up without folding it
    again (`CardIndex.look`).
    """

    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    number: str | None
    name: str | None
    count_token: str | None = None
    strain: int = 0
    spare: tuple[str, ...] = ()
    spare_numbers: int = 0
    key: str | None = None


class Line(NamedTuple):
    """What one input line (or structured entry) says.

    `kind`: "card", "header", "comment", "partner" or "unparsed". `section` is the header
    in force above it (a hint), or a structured entry's section. `count`, `numbers` and
    `name` are the most natural reading; `readings` holds every reading, most natural
    first. A structured entry's `number` is its place in its section. A named tuple,
    as `Reading`: a request builds one per line.
    """

    number: int
    text: str
    kind: str
    count: int = 1  # type: ignore[assignment]  # a field named count shadows tuple.count
    numbers: tuple[str, ...] = ()
    name: str | None = None
    section: str | None = None
    problem: str | None = None
    readings: tuple[Reading, ...] = ()
    unread_count: int | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    """A whole decklist as lines; `style` says which input style was recognised
    ("structured": a structured deck, whose sections are taken as given)."""

    lines: tuple[Line, ...]
    style: str = "text"
    name: str | None = None
    partners: tuple[Line, ...] = ()
    has_headers: bool = False

    @property
    def partner(self) -> Line | None:
        return self.partners[0] if self.partners else None

    def cards(self) -> list[Line]:
        return [line for line in self.lines if line.kind == "card"]


def count_lines(text: str) -> int:
    """Non-empty lines, the unit of the contract's decklist length limit."""
    return sum(1 for line in text.splitlines() if line.strip())


def first_line(text: str) -> int:
    """The line a whole-text input (a deck code, a TTS array) starts on: blank lines and
    a lone carriage return before it are lines too, so a problem names the right one."""
    leading = text[: len(text) - len(text.lstrip())]
    return len((leading + "x").splitlines())


def json_value(text: str) -> Any:
    """The JSON value `text` holds; None when it is not JSON (or nests past the recursion
    limit)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def items_at_most(text: str) -> int:
    """The most items a JSON text can hold: one more than its commas (a count of the
    text, far cheaper than parsing what may be megabytes of it)."""
    return text.count(",") + 1


def over_budget(text: str, position: int, style: str) -> Parsed:
    """A deck code, TTS array or Limitless object holding more entries than the request
    has left to read (`rules.budget`): one problem, not one per entry, nothing read."""
    return Parsed((Line(position, text[:80], "unparsed", problem=OVER_ENTRIES),), style)


def one_card(position: int, text: str, count: int, number: str, section: str | None) -> Line:
    """A line that names exactly one card by number: one reading."""
    readings = one_reading(count, number, None)
    return Line(position, text, "card", count, (number,), None, section, None, readings)


@memo()
def one_reading(count: int, number: str | None, name: str | None) -> tuple[Reading, ...]:
    """The readings of an entry that says its count, number and name outright (TTS ids,
    deck codes, Limitless entries). Kept: a deck's entries come back on every request,
    and the same readings (the same object) are the resolver's number-first key."""
    key = number_key(number) if number else None
    return (Reading(count, number, name, key=key),)
