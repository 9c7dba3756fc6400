"""Turn whatever a player sent into lines: card entries, headers, comments.

Accepted: the text styles of the contract and of the deck builders players use
(digimoncard.io / .dev / .app, DigimonMeta, Untap, forum text), Egman and DigimonMeta
deck links, Tabletop Simulator JSON arrays, Limitless objects, `DCG...` deck codes and
structured decks. Every one of them becomes the same `Line`s for the one resolver
(`rules.resolve`).

`SOURCES` is the one table of whole-text input sources, tried in order: the first whose
`looks_like` holds and whose `read` gives an answer wins, and plain text (which reads
anything) comes last. A source's `read` gives None when the text only looked like it
(`[` that is no TTS array is read as text, where the line is reported). Reading never
looks at the card pool, never raises, and costs time linear in the text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from rules import deckcode
from rules.budget import Budget
from rules.model import MAX_COUNT
from rules.read import limitless, tts
from rules.read.codes import read_deck_code
from rules.read.limitless import LIMITLESS_SECTIONS
from rules.read.lines import header_of, parse_line, parse_lines_of, read_text
from rules.read.model import MAX_LINE, Line, Parsed, Reading, count_lines, first_line
from rules.read.shapes import (
    COUNT,
    MARKER,
    NUMBER,
    POSITION,
    SHAPES,
    WORD,
    card_readings,
    shape_readings,
    token_kind,
)
from rules.read.structured import Entry, parse_structured

__all__ = [
    "COUNT",
    "LIMITLESS_SECTIONS",
    "MARKER",
    "MAX_COUNT",
    "MAX_LINE",
    "NUMBER",
    "POSITION",
    "SHAPES",
    "SOURCES",
    "WORD",
    "Entry",
    "Line",
    "Parsed",
    "Reading",
    "card_readings",
    "count_lines",
    "header_of",
    "parse",
    "parse_line",
    "parse_lines_of",
    "parse_structured",
    "shape_readings",
    "token_kind",
]


class Source(NamedTuple):
    """One input source: its id (a report's `style`), a cheap test of the stripped text,
    and its reader (the whole text, the line it starts on, the request's budget)."""

    id: str
    looks_like: Callable[[str], bool]
    read: Callable[[str, int, Budget], Parsed | None]


SOURCES: tuple[Source, ...] = (
    Source("deck-code", deckcode.looks_like_deck_code, read_deck_code),
    Source("tts", tts.looks_like, tts.read_tts),
    Source(
        "limitless", limitless.looks_like, lambda text, _at, budget: limitless.read(text, budget)
    ),
)


def parse(text: str, budget: Budget | None = None) -> Parsed:
    """`text` as lines, by the first source that reads it, else as plain text lines.
    `budget`: what the request may still spend (`rules.budget`); a fresh one if None."""
    budget = budget or Budget()
    stripped = text.strip()
    for source in SOURCES:
        if source.looks_like(stripped):
            parsed = source.read(stripped, first_line(text), budget)
            if parsed is not None:
                return parsed
    return read_text(text, budget)
