"""The things deck rules talk about: cards, decks, violations.

Everything here is immutable (frozen dataclasses, named tuples, `Final` fields of
plain classes) so that a parsed deck, a card pool or a format can be shared between requests
and threads without copying.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypeVar

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

    @property
    def label(self) -> str:
        """How a player sees the card in a message: number and name."""
        return f"{self.number} {self.name}" if self.name else self.number

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the card counts as for deck building (its own and its aliases)."""
        return (self.name, *self.aliases) if self.name else self.aliases


class Entry:
    """A card in a section as the player listed it; `line` is 1-based in text input.

    A plain class with `Final` fields, as `Deck`: the compiled build makes it a native
    class, built in a quarter of the time of a named tuple (whose `__new__` is Python
    code, or a generic call to tuple.__new__) and read without a generic attribute
    look-up. Every request builds one per line. Compared and hashed by its fields, as
    the named tuple it replaced was.
    """

    def __init__(self, card: Card, count: int, section: str, line: int | None = None) -> None:
        self.card: Final = card
        self.count: Final = count
        self.section: Final = section
        self.line: Final = line

    def _fields(self) -> tuple[Card, int, str, int | None]:
        return (self.card, self.count, self.section, self.line)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Entry):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Entry({self.card.number!r}, {self.count}, {self.section!r}, {self.line})"


class Stack:
    """All copies of one card number in one section, however many lines listed them.

    A plain class for the reason `Entry` gives: one per card per request.
    """

    def __init__(self, card: Card, count: int, lines: tuple[int, ...] = ()) -> None:
        self.card: Final = card
        self.count: Final = count
        self.lines: Final = lines

    @property
    def line(self) -> int | None:
        return self.lines[0] if self.lines else None

    def _fields(self) -> tuple[Card, int, tuple[int, ...]]:
        return (self.card, self.count, self.lines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stack):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Stack({self.card.number!r}, {self.count}, {self.lines})"


class Unresolved(NamedTuple):
    """A line (or structured entry, `line` None) that named no card: never silently dropped.

    `count` is the count the line gave, None when none could be read.
    """

    line: int | None
    text: str
    count: int | None  # type: ignore[assignment]  # a field named count shadows tuple.count


class Deck:
    """A resolved deck: every entry names a real card of `game`.

    `unresolved` keeps the lines that named no card, so totals can say how many cards
    stand on them; `more_partners` holds any partner named after the first.

    A plain class with its own __init__, so the compiled build makes it a native class
    (built, read and called without Python's generic attribute and call paths). Its
    fields are set in __init__ and never again (`Final`: mypy refuses any assignment).
    What is derived from them (stacks, totals) is worked out on first use and kept: it
    is pure, so two threads asking at once only do the work twice.
    """

    def __init__(
        self,
        game: str,
        entries: tuple[Entry, ...] = (),
        partner: Card | None = None,
        partner_line: int | None = None,
        name: str | None = None,
        unresolved: tuple[Unresolved, ...] = (),
        more_partners: tuple[Card, ...] = (),
    ) -> None:
        self.game: Final = game
        self.entries: Final = entries
        self.partner: Final = partner
        self.partner_line: Final = partner_line
        self.name: Final = name
        self.unresolved: Final = unresolved
        self.more_partners: Final = more_partners
        self._sections: dict[str, tuple[Stack, ...]] | None = None
        self._all: tuple[Stack, ...] | None = None
        self._totals: tuple[Stack, ...] | None = None
        self._keyed: tuple[tuple[str, Stack], ...] | None = None
        self._by_key: dict[str, Stack] | None = None
        # The last table `listed_in` was asked about, and its answer.
        self._listed: tuple[object, tuple[tuple[Stack, Any], ...]] | None = None

    def _fields(self) -> tuple[object, ...]:
        return (
            self.game,
            self.entries,
            self.partner,
            self.partner_line,
            self.name,
            self.unresolved,
            self.more_partners,
        )

    def __eq__(self, other: object) -> bool:
        # Two decks are equal when what they were built from is (as a dataclass's are).
        if not isinstance(other, Deck):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Deck({self.game!r}, {len(self.entries)} entries, partner={self.partner!r})"

    def _stacks(self) -> dict[str, tuple[Stack, ...]]:
        if self._sections is not None:
            return self._sections
        grouped: dict[str, dict[str, Stack]] = {}
        for entry in self.entries:
            card, line = entry.card, entry.line
            bucket = grouped.get(entry.section)
            if bucket is None:
                bucket = grouped[entry.section] = {}
            seen = bucket.get(card.number)
            lines = (line,) if line is not None else ()
            if seen is None:
                bucket[card.number] = Stack(card, entry.count, lines)
            else:
                bucket[card.number] = Stack(card, seen.count + entry.count, seen.lines + lines)
        found = {section: tuple(bucket.values()) for section, bucket in grouped.items()}
        self._sections = found
        return found

    def _all_stacks(self) -> tuple[Stack, ...]:
        if self._all is None:
            self._all = tuple(stack for stacks in self._stacks().values() for stack in stacks)
        return self._all

    @property
    def totals(self) -> tuple[Stack, ...]:
        """One stack per card number over every section (lists count both decks)."""
        if self._totals is not None:
            return self._totals
        stacks = self._all_stacks()
        # Most decks list no card number in two sections: then the totals are the stacks.
        if len({stack.card.number for stack in stacks}) == len(stacks):
            self._totals = stacks
            return stacks
        merged: dict[str, Stack] = {}
        for stack in stacks:
            seen = merged.get(stack.card.number)
            if seen:
                stack = Stack(stack.card, seen.count + stack.count, seen.lines + stack.lines)
            merged[stack.card.number] = stack
        self._totals = tuple(merged.values())
        return self._totals

    @property
    def keyed_totals(self) -> tuple[tuple[str, Stack], ...]:
        """`totals` with each card's number key (how lists name cards), made once per deck."""
        if self._keyed is None:
            self._keyed = tuple((number_key(stack.card.number), stack) for stack in self.totals)
        return self._keyed

    @property
    def by_key(self) -> dict[str, Stack]:
        """Every section's stacks by number key (a later section's stack wins a key)."""
        if self._by_key is None:
            stacks = self._all_stacks()
            if self.totals is stacks:
                # The same stacks in the same order, their keys already made.
                self._by_key = {key: stack for key, stack in self.keyed_totals}
            else:
                self._by_key = {number_key(stack.card.number): stack for stack in stacks}
        return self._by_key

    def listed_in(self, table: Mapping[str, T]) -> tuple[tuple[Stack, T], ...]:
        """Each card (all sections together) whose number key `table` holds, with its entry.

        The answer for the last table asked is kept: the banned and restricted checks ask
        about the same day's list one after the other, and most cards are on no list.
        """
        last = self._listed
        if last is not None and last[0] is table:
            return last[1]
        found = tuple((stack, table[key]) for key, stack in self.keyed_totals if key in table)
        self._listed = (table, found)
        return found

    def stacks(self, section: str | None = None) -> tuple[Stack, ...]:
        """Cards of a section (or of every section) with their counts added up."""
        if section is not None:
            return self._stacks().get(section, ())
        return self._all_stacks()

    def size(self, *sections: str) -> int:
        return sum(stack.count for section in sections for stack in self.stacks(section))

    def sections(self) -> tuple[str, ...]:
        return tuple(self._stacks())


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


def unread_words(unresolved: tuple[Unresolved, ...]) -> str | None:
    """`2 more on line 13`, `line 13`: the cards on a deck's unread lines, for messages."""
    if not unresolved:
        return None
    lines = [u.line for u in unresolved if u.line is not None]
    where = (
        (f"line {lines[0]}" if len(lines) == 1 else "lines " + ", ".join(map(str, lines)))
        if lines
        else plural(len(unresolved), "entry", "entries")
    )
    counts = [u.count for u in unresolved]
    if None in counts:
        return f"whatever stands on {where}"
    return f"{sum(c for c in counts if c)} more on {where}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 copy`, `3 copies`: messages read as sentences, not templates."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
