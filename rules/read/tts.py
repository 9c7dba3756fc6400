"""Tabletop Simulator arrays: `["Exported from ...", "BT1-010", "BT1-010", ...]`."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from rules.budget import Budget
from rules.numbers import is_number
from rules.read.lines import parse_line
from rules.read.model import (
    MAX_COUNT,
    MAX_LINE,
    Line,
    Parsed,
    items_at_most,
    json_value,
    one_card,
    over_budget,
)


def looks_like(stripped: str) -> bool:
    return stripped.startswith("[")


def read_tts(text: str, position: int = 1, budget: Budget | None = None) -> Parsed | None:
    """A Tabletop Simulator array: an `Exported from ...` header, then one id per copy.

    Non-id strings are read like text lines, so headers and a `Partner:` entry
    (which deckcheck's own export writes for DBE) keep their meaning. The first item, or
    an `Exported from ...` item, names the deck; any other string is kept as a line (a
    card named in words, or a problem reported), never dropped.
    """
    budget = budget or Budget()
    if text.endswith("]") and not budget.affords(items_at_most(text)):
        return over_budget(text, position, "tts")  # not even parsed: 15 MB of `[]` cost 2 s
    data = json_value(text)
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        return None
    if not budget.take_entries(len(data)):
        return over_budget(text, position, "tts")
    # A pretty-printed array spans lines: each card is placed on the line it first
    # stands on, so its problems name that line.
    where = _item_lines(text, position) if "\n" in text or "\r" in text else {}
    read = _TtsRead()
    # An id comes once per copy: each distinct item is read once (within this array).
    numbers: dict[str, str | None] = {}
    for index, item in enumerate(data):
        at = where.get(item, position)
        if item not in numbers:
            token = item[: MAX_LINE + 1]
            token = (token if token.isascii() else unicodedata.normalize("NFKC", token)).strip()
            numbers[item] = token if is_number(token) else None
            if numbers[item] is None:
                read.line(parse_line(at, token, read.section), index, token)
        number = numbers[item]
        if number is not None:
            read.card(number, at)
    if not read.counts and not read.partners:
        return None  # no card in it (`[]`): read as text, where the line is reported
    return read.parsed()


@dataclass
class _TtsRead:
    """What a TTS array has said so far: cards counted per (id, section), and lines."""

    name: str | None = None
    section: str | None = None
    partners: list[Line] = field(default_factory=list)
    others: list[Line] = field(default_factory=list)
    counts: dict[tuple[str, str | None], int] = field(default_factory=dict)
    first_at: dict[tuple[str, str | None], int] = field(default_factory=dict)

    def card(self, number: str, at: int) -> None:
        key = (number, self.section)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.first_at.setdefault(key, at)

    def line(self, line: Line | None, index: int, token: str) -> None:
        if line is None:
            return
        if line.kind == "header":
            self.section = line.section
        elif line.kind == "partner":
            self.partners.append(line)
        elif self.name is None and (index == 0 or token.startswith("Exported from")):
            self.name = token
        else:
            self.others.append(line)

    def parsed(self) -> Parsed:
        cards = [
            one_card(self.first_at[key], key[0], min(count, MAX_COUNT), key[0], key[1])
            for key, count in self.counts.items()
        ]
        lines = tuple(sorted([*cards, *self.others], key=lambda line: line.number))
        headers = self.section is not None
        return Parsed(lines, "tts", self.name, tuple(self.partners), headers)


def _item_lines(text: str, first: int) -> dict[str, int]:
    """The line each string of a pretty-printed array first stands on (one or more
    strings a line, the array's brackets on their own lines or beside them); a string
    not found here keeps the array's first line."""
    found: dict[str, int] = {}
    for offset, raw in enumerate(text.splitlines()):
        piece = raw.strip().rstrip(",").rstrip()
        if piece.startswith("["):
            piece = piece[1:].lstrip()
        # A closing bracket after the last string (not one inside it: `"Antiramon [Moon]"`).
        if piece.endswith("]") and (piece == "]" or piece[:-1].rstrip().endswith(('"', ","))):
            piece = piece[:-1].rstrip().rstrip(",")
        for value in json_value(f"[{piece}]") or ():
            if isinstance(value, str):
                found.setdefault(value, first + offset)
    return found
