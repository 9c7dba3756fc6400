"""The things deck rules talk about: cards, decks, violations.

Everything here is frozen so that a parsed deck, a card pool or a format can be
shared between requests and threads without copying.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from rules.lists import ListHistory


@dataclass(frozen=True, slots=True)
class Card:
    """One card number of one game, with the facts deck rules need."""

    game: str
    number: str
    name: str
    kind: str
    level: str | None = None
    types: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    evo_names: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    max_copies: int | None = None
    set: str | None = None
    name_ja: str | None = None
    colors: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How a player sees the card in a message: number and name."""
        return f"{self.number} {self.name}" if self.name else self.number

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the card counts as for deck building (its own and its aliases)."""
        return (self.name, *self.aliases) if self.name else self.aliases


@dataclass(frozen=True, slots=True)
class Entry:
    """A card in a section as the player listed it; `line` is 1-based in text input."""

    card: Card
    count: int
    section: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Stack:
    """All copies of one card number in one section, however many lines listed them."""

    card: Card
    count: int
    lines: tuple[int, ...] = ()

    @property
    def line(self) -> int | None:
        return self.lines[0] if self.lines else None


class Unresolved(NamedTuple):
    """A line (or structured entry, `line` None) that named no card: never silently dropped.

    `count` is the count the line gave, None when none could be read.
    """

    line: int | None
    text: str
    count: int | None


@dataclass(frozen=True)
class Deck:
    """A resolved deck: every entry names a real card of `game`.

    `unresolved` keeps the lines that named no card, so totals can say how many cards
    stand on them; `more_partners` holds any partner named after the first.
    """

    game: str
    entries: tuple[Entry, ...] = ()
    partner: Card | None = None
    partner_line: int | None = None
    name: str | None = None
    unresolved: tuple[Unresolved, ...] = ()
    more_partners: tuple[Card, ...] = ()

    @cached_property
    def _stacks(self) -> dict[str, tuple[Stack, ...]]:
        grouped: dict[str, dict[str, Stack]] = {}
        for entry in self.entries:
            bucket = grouped.get(entry.section)
            if bucket is None:
                bucket = grouped[entry.section] = {}
            seen = bucket.get(entry.card.number)
            lines = (entry.line,) if entry.line is not None else ()
            if seen is None:
                bucket[entry.card.number] = Stack(entry.card, entry.count, lines)
            else:
                bucket[entry.card.number] = Stack(
                    entry.card, seen.count + entry.count, seen.lines + lines
                )
        return {section: tuple(bucket.values()) for section, bucket in grouped.items()}

    @cached_property
    def _all_stacks(self) -> tuple[Stack, ...]:
        return tuple(stack for stacks in self._stacks.values() for stack in stacks)

    @cached_property
    def totals(self) -> tuple[Stack, ...]:
        """One stack per card number over every section (lists count both decks)."""
        merged: dict[str, Stack] = {}
        for stack in self._all_stacks:
            seen = merged.get(stack.card.number)
            if seen:
                stack = Stack(stack.card, seen.count + stack.count, seen.lines + stack.lines)
            merged[stack.card.number] = stack
        return tuple(merged.values())

    def stacks(self, section: str | None = None) -> tuple[Stack, ...]:
        """Cards of a section (or of every section) with their counts added up."""
        if section is not None:
            return self._stacks.get(section, ())
        return self._all_stacks

    def size(self, *sections: str) -> int:
        return sum(stack.count for section in sections for stack in self.stacks(section))

    def sections(self) -> tuple[str, ...]:
        return tuple(self._stacks)


@dataclass(frozen=True, slots=True)
class Violation:
    """One problem with a deck, in words a player can act on.

    `rule` says where the rule is written; `cards` holds card numbers;
    `suggestions` (unknown cards) and candidates (ambiguous names) are labels.
    Warnings use the same shape and never make a deck illegal.
    """

    code: str
    message: str
    rule: str
    section: str | None = None
    cards: tuple[str, ...] = ()
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    warning: bool = False


@dataclass(frozen=True)
class Context:
    """What a check may need besides the deck: the day and the lists in force."""

    on: date
    lists: ListHistory | None = None


class Check(Protocol):
    """A deck-construction rule: yields every violation of it in a deck."""

    @property
    def code(self) -> str: ...

    @property
    def rule(self) -> str: ...

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]: ...


@dataclass(frozen=True)
class Report:
    """The verdict on one deck in one format on one day."""

    format_id: str
    game: str
    on: date
    deck: Deck
    violations: tuple[Violation, ...] = ()
    warnings: tuple[Violation, ...] = ()
    fingerprint: str = ""
    style: str | None = None

    @property
    def legal(self) -> bool:
        return not self.violations


def unread_words(deck: Deck) -> str | None:
    """`2 more on line 13`, `line 13`: the cards deckcheck could not read, for messages."""
    if not deck.unresolved:
        return None
    lines = [u.line for u in deck.unresolved if u.line is not None]
    where = (
        (f"line {lines[0]}" if len(lines) == 1 else "lines " + ", ".join(map(str, lines)))
        if lines
        else plural(len(deck.unresolved), "entry", "entries")
    )
    counts = [u.count for u in deck.unresolved]
    if None in counts:
        return f"whatever stands on {where}"
    return f"{sum(c for c in counts if c)} more on {where}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 copy`, `3 copies`: messages read as sentences, not templates."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
