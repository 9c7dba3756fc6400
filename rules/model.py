"""The things deck rules talk about: cards, decks, violations.

Everything here is frozen so that a parsed deck, a card pool or a format can be
shared between requests and threads without copying.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

from mypy_extensions import mypyc_attr

from rules.numbers import number_key

if TYPE_CHECKING:
    from rules.lists import ListHistory

T = TypeVar("T")


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


class Entry(NamedTuple):
    """A card in a section as the player listed it; `line` is 1-based in text input.

    A named tuple, not a frozen dataclass: every request builds one per line, and a
    named tuple is built in less than half the time (immutable all the same).
    """

    card: Card
    count: int  # type: ignore[assignment]  # shadows tuple.count
    section: str
    line: int | None = None


class Stack(NamedTuple):
    """All copies of one card number in one section, however many lines listed them.

    A named tuple for the same reason as `Entry`.
    """

    card: Card
    count: int  # type: ignore[assignment]  # shadows tuple.count
    lines: tuple[int, ...] = ()

    @property
    def line(self) -> int | None:
        return self.lines[0] if self.lines else None


class once:  # noqa: N801 (used as a decorator, like functools.cached_property)
    """`functools.cached_property` without its lock (Python 3.11 takes an RLock per read
    of an uncached value). A deck's derived values are pure, so two threads computing
    one at once only do the work twice; the value lands in the instance's __dict__,
    where later reads find it before this descriptor."""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func = func
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        # The name it is given in the class (a compiled function has no __name__).
        self.name = name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class Unresolved(NamedTuple):
    """A line (or structured entry, `line` None) that named no card: never silently dropped.

    `count` is the count the line gave, None when none could be read.
    """

    line: int | None
    text: str
    count: int | None  # type: ignore[assignment]  # a field named count shadows tuple.count


@mypyc_attr(native_class=False)  # `once` keeps values in the instance's __dict__
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

    @once
    def _stacks(self) -> dict[str, tuple[Stack, ...]]:
        grouped: dict[str, dict[str, Stack]] = {}
        new = tuple.__new__  # Stack(...) without the named tuple's Python-level __new__
        for card, count, section, line in self.entries:
            bucket = grouped.get(section)
            if bucket is None:
                bucket = grouped[section] = {}
            seen = bucket.get(card.number)
            lines = (line,) if line is not None else ()
            if seen is None:
                bucket[card.number] = new(Stack, (card, count, lines))
            else:
                bucket[card.number] = new(Stack, (card, seen[1] + count, seen[2] + lines))
        return {section: tuple(bucket.values()) for section, bucket in grouped.items()}

    @once
    def _all_stacks(self) -> tuple[Stack, ...]:
        return tuple(stack for stacks in self._stacks.values() for stack in stacks)

    @once
    def totals(self) -> tuple[Stack, ...]:
        """One stack per card number over every section (lists count both decks)."""
        merged: dict[str, Stack] = {}
        for stack in self._all_stacks:
            seen = merged.get(stack.card.number)
            if seen:
                stack = Stack(stack.card, seen.count + stack.count, seen.lines + stack.lines)
            merged[stack.card.number] = stack
        return tuple(merged.values())

    @once
    def keyed_totals(self) -> tuple[tuple[str, Stack], ...]:
        """`totals` with each card's number key (how lists name cards), made once per deck."""
        return tuple((number_key(stack.card.number), stack) for stack in self.totals)

    @once
    def by_key(self) -> dict[str, Stack]:
        """Every section's stacks by number key (a later section's stack wins a key)."""
        return {number_key(stack.card.number): stack for stack in self._all_stacks}

    def listed_in(self, table: Mapping[str, T]) -> tuple[tuple[Stack, T], ...]:
        """Each card (all sections together) whose number key `table` holds, with its entry.

        The answer for the last table asked is kept: the banned and restricted checks ask
        about the same day's list one after the other, and most cards are on no list.
        """
        last = self.__dict__.get("_listed_in")
        if last is not None and last[0] is table:
            return last[1]
        found = tuple((stack, table[key]) for key, stack in self.keyed_totals if key in table)
        self.__dict__["_listed_in"] = (table, found)  # as `once` stores its values
        return found

    def stacks(self, section: str | None = None) -> tuple[Stack, ...]:
        """Cards of a section (or of every section) with their counts added up."""
        if section is not None:
            return self._stacks.get(section, ())
        return self._all_stacks

    def size(self, *sections: str) -> int:
        return sum(stack.count for section in sections for stack in self.stacks(section))

    def sections(self) -> tuple[str, ...]:
        return tuple(self._stacks)


class Violation(NamedTuple):
    """One problem with a deck, in words a player can act on.

    `rule` says where the rule is written; `cards` holds card numbers;
    `suggestions` (unknown cards) and candidates (ambiguous names) are labels.
    Warnings use the same shape and never make a deck illegal. A named tuple for the
    reason `Resolved` (rules.resolve) gives: immutable and hashable all the same.
    """

    code: str
    message: str
    rule: str
    section: str | None = None
    cards: tuple[str, ...] = ()
    line: int | None = None
    suggestions: tuple[str, ...] = ()
    warning: bool = False


class Context(NamedTuple):
    """What a check may need besides the deck: the day and the lists in force.

    A named tuple for the reason `Resolved` (rules.resolve) gives."""

    on: date
    lists: ListHistory | None = None


class Check(Protocol):
    """A deck-construction rule: yields every violation of it in a deck."""

    @property
    def code(self) -> str: ...

    @property
    def rule(self) -> str: ...

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]: ...


class Report(NamedTuple):
    """The verdict on one deck in one format on one day (a named tuple, as `Violation`)."""

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
