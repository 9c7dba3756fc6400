"""The things deck rules talk about: cards, decks, violations.

Everything here is immutable (frozen dataclasses, named tuples) so that a parsed deck,
a card pool or a format can be shared between requests and threads without copying.
The values a request builds many of (entries, stacks, violations) are named tuples:
immutable and hashable, and built in half the time of a frozen dataclass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar, overload

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
    # DCG (Rule) "Card number: Also treated as [XX]": the number whose copy limit and
    # list entries this printing shares (RB1-004 Agumon counts as P-009).
    treated_as: str | None = None
    # False for an unconfirmed card (contract, "Verdicts deckcheck cannot confirm"): a
    # number of a known product the card list lacks yet, held in its section by its
    # number only (no name, no facts) so sizes, copy limits and the fingerprint count it.
    confirmed: bool = True
    # `number_key(number)`, worked out once: lists, limits and lookups key cards by it,
    # several times per card of every deck.
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", number_key(self.number))

    @property
    def label(self) -> str:
        """How a player sees the card in a message: number and name."""
        return f"{self.number} {self.name}" if self.name else self.number

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the card counts as for deck building (its own and its aliases)."""
        return (self.name, *self.aliases) if self.name else self.aliases

    @property
    def limit_key(self) -> str:
        """The number key this printing counts under for copy limits and lists: the
        number it is "also treated as", else its own."""
        return number_key(self.treated_as) if self.treated_as else self.key


class Entry(NamedTuple):
    """A card in a section as the player listed it; `line` is 1-based in text input.

    A named tuple, as every per-line value here: immutable, and cheap to build."""

    card: Card
    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    section: str
    line: int | None = None


class Stack(NamedTuple):
    """All copies of one card number in one section, however many lines listed them."""

    card: Card
    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
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
    count: int | None  # type: ignore[assignment]  # a field named count shadows tuple.count


D = TypeVar("D")
V = TypeVar("V")


class derived(Generic[D, V]):  # noqa: N801 - used as a decorator, like cached_property
    """A value worked out from an immutable object's fields on first use and kept in its
    `__dict__`: `functools.cached_property` without the one lock Python 3.11's takes for
    every instance (threads judging different decks would queue on it). Two threads
    asking at once only work it out twice."""

    def __init__(self, make: Callable[[D], V]) -> None:
        self.make = make
        self.name = make.__name__
        self.__doc__ = make.__doc__

    @overload
    def __get__(self, obj: None, owner: type) -> derived[D, V]: ...

    @overload
    def __get__(self, obj: D, owner: type) -> V: ...

    def __get__(self, obj: Any, owner: type) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.make(obj)
        return value


@dataclass(frozen=True)
class Deck:
    """A resolved deck: every entry names a real card of `game`.

    `unresolved` keeps the lines that named no card, so totals can say how many cards
    stand on them; `more_partners` holds any partner named after the first. What is
    derived from the entries (stacks, totals) is worked out on first use and kept
    (`derived` writes past the frozen fields: the value is pure in them).
    """

    game: str
    entries: tuple[Entry, ...] = ()
    partner: Card | None = None
    partner_line: int | None = None
    name: str | None = None
    unresolved: tuple[Unresolved, ...] = ()
    more_partners: tuple[Card, ...] = ()

    @derived
    def _sections(self) -> dict[str, tuple[Stack, ...]]:
        """Each section's stacks, in the order cards first appear (linear in the entries:
        a card on many lines gathers its entries before its one stack is built)."""
        return _group(self.entries)

    @derived
    def _all(self) -> tuple[Stack, ...]:
        return tuple(stack for stacks in self._sections.values() for stack in stacks)

    @derived
    def totals(self) -> tuple[Stack, ...]:
        """One stack per card number over every section (lists count both decks)."""
        return merged(self._all)

    @derived
    def by_key(self) -> dict[str, Stack]:
        """Every section's stacks by number key (a later section's stack wins a key)."""
        return {stack.card.key: stack for stack in self._all}

    @derived
    def has_reprints(self) -> bool:
        """Does the deck hold a printing "also treated as" another number? (Rarely.)"""
        return any(stack.card.treated_as is not None for stack in self.totals)

    def listed_in(self, table: Mapping[str, T]) -> tuple[tuple[Stack, T], ...]:
        """Each card (all sections together) whose number key `table` holds, with its entry.

        Kept for the last table asked (in `__dict__`, as `derived` keeps its values): the
        banned and the restricted checks both ask for the same day's list state."""
        kept = self.__dict__.get("_listed")
        if kept is None or kept[0] is not table:
            found = tuple(
                (stack, table[stack.card.key]) for stack in self.totals if stack.card.key in table
            )
            kept = self.__dict__["_listed"] = (table, found)
        return kept[1]

    def stacks(self, section: str | None = None) -> tuple[Stack, ...]:
        """Cards of a section (or of every section) with their counts added up."""
        if section is not None:
            return self._sections.get(section, ())
        return self._all

    def size(self, *sections: str) -> int:
        return sum(stack.count for section in sections for stack in self.stacks(section))

    def sections(self) -> tuple[str, ...]:
        return tuple(self._sections)


def merged(stacks: tuple[Stack, ...]) -> tuple[Stack, ...]:
    """One stack per card number, in the order numbers first appear: the copies and lines
    of its stacks added up, linear however often a number comes back. Most numbers come
    once (a card listed on one line; a deck's totals, in one section): then the stacks
    are the answer, after one pass."""
    if len({stack.card.number for stack in stacks}) == len(stacks):
        return stacks
    by_number: dict[str, list[Stack]] = {}
    for stack in stacks:
        by_number.setdefault(stack.card.number, []).append(stack)
    return tuple(
        Stack(group[0].card, sum(s.count for s in group), tuple(n for s in group for n in s.lines))
        if len(group) > 1
        else group[0]
        for group in by_number.values()
    )


def _group(entries: tuple[Entry, ...]) -> dict[str, tuple[Stack, ...]]:
    """Each section's stacks, in the order cards first appear: a stack per entry, then
    the stacks of a card listed on several lines `merged`."""
    sections: dict[str, list[Stack]] = {}
    for entry in entries:
        stacks = sections.get(entry.section)
        if stacks is None:
            stacks = sections[entry.section] = []
        line = entry.line
        stacks.append(Stack(entry.card, entry.count, () if line is None else (line,)))
    return {section: merged(tuple(stacks)) for section, stacks in sections.items()}


class Violation(NamedTuple):
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
    hint: str | None = None  # `newer-set`: an unknown number of a set the pool lacks yet
    # An unconfirmed card (contract: "Verdicts deckcheck cannot confirm"): the product
    # code a number belongs to and its English day (ISO, or None when not known).
    product: str | None = None
    released: str | None = None


class Context(NamedTuple):
    """What a check may need besides the deck: the day and the lists in force."""

    on: date
    lists: ListHistory | None = None
    # Product codes whose cards count as released on this day (a pre-release event).
    early: frozenset[str] = frozenset()


class Check(Protocol):
    """A deck-construction rule: yields every violation of it in a deck."""

    @property
    def code(self) -> str: ...

    @property
    def rule(self) -> str: ...

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]: ...


class Report(NamedTuple):
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


# A message names at most this many unread lines, then says how many more there are.
_LINES_NAMED = 10


def unread_words(unresolved: tuple[Unresolved, ...]) -> str | None:
    """`2 more on line 13`, `line 13`: the cards on a deck's unread lines, for messages.
    Each line once (a TTS array's entries share its line), at most `_LINES_NAMED`."""
    if not unresolved:
        return None
    lines = list(dict.fromkeys(u.line for u in unresolved if u.line is not None))
    where = _lines_words(lines) if lines else plural(len(unresolved), "entry", "entries")
    counts = [u.count for u in unresolved]
    if None in counts:
        return f"whatever stands on {where}"
    return f"{sum(c for c in counts if c)} more on {where}"


def _lines_words(lines: list[int]) -> str:
    """`line 13`, `lines 4, 9`, `lines 1, 2, ..., 10 and 290 more`."""
    if len(lines) == 1:
        return f"line {lines[0]}"
    named = ", ".join(map(str, lines[:_LINES_NAMED]))
    more = len(lines) - _LINES_NAMED
    return f"lines {named}" + (f" and {more:,} more" if more > 0 else "")


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 copy`, `3 copies`: messages read as sentences, not templates."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
