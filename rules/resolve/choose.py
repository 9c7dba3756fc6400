"""Which card one line names: `Resolver.card` decides each line the same way, whatever
source it was read from (text, deck links, deck codes, TTS arrays, Limitless objects,
structured decks), and keeps the problems and notes it meets.

The card index answers each reading's number in one look (`CardIndex.look`: the card,
how the name agrees, and for a number that names no card the name's cards and the
newer-set hint), with the number key the reader put on the reading.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from rules.budget import Budget
from rules.cache import memo
from rules.model import Card, Violation
from rules.pool import CardIndex, Found
from rules.read import Line, Reading
from rules.resolve.problems import (
    ambiguous_name,
    mismatch,
    pool_rule,
    several_numbers,
    unclear,
    unknown,
)
from rules.unconfirmed import judged_out, placeholder, violation


class Choice(NamedTuple):
    card: Card
    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    reading: Reading
    tier: str  # "exact", "near" (a misspelt name) or "other" (a number against its name)


class Resolver:
    """Finds the card each line names, keeping the problems and notes it meets."""

    def __init__(
        self,
        index: CardIndex,
        budget: Budget,
        structured: bool = False,
        on: date | None = None,
        early: frozenset[str] = frozenset(),
    ) -> None:
        self.index = index
        self.budget = budget
        self.structured = structured
        self.on = on or date.today()
        self.early = early
        self.problems: list[Violation] = []
        self.notes: list[Violation] = []

    def card(self, line: Line, readings: tuple[Reading, ...] | None = None) -> Choice | None:
        """The card a line names (by `readings`, default all of its own), or None after
        recording why not. The decision, in order:

        1. Number first: the most natural reading names a card by its number, its name
           agrees, and no other reading names another card (or count) exactly: that card.
        2. Else every reading that names a card (by number, or a name only one card has):
           those whose name agrees exactly must give one card and count, else the line is
           unclear (`unparsed-line`).
        3. Else a misspelt name ("near"), then a number against its name ("other", with a
           `name-mismatch` warning): the most natural readings must agree, else unclear.
        4. Else the line names no card: several numbers, an ambiguous name, an
           unconfirmed card (a number of a known product the list lacks), or unknown.
        """
        readings = line.readings if readings is None else readings
        first = _number_first(self.index, readings) if readings else None
        if first is not None:
            return first
        ambiguous: list[tuple[Reading, list[Card]]] = []
        looks: list[Found] = []
        choices = [c for r in readings if (c := self._choice(r, ambiguous, looks)) is not None]
        exact = [c for c in choices if c.tier == "exact"]
        if exact:
            return self._one_of(line, exact)
        for tier in ("near", "other"):
            best = _most_natural(choices, tier)
            if best:
                chosen = self._one_of(line, best)
                if chosen is not None and tier == "other":
                    self._mismatch(line, chosen)
                return chosen
        # The first reading's answer, when it wrote a number (looked up first of all).
        found = looks[0] if looks and readings[0].number else None
        if not choices and not ambiguous and found is not None:
            held = self._unconfirmed(line, readings[0])
            if held is not None:
                return held
        self._none(line, readings, choices, ambiguous, found)
        return None

    def _choice(self, reading: Reading, ambiguous: list, looks: list[Found]) -> Choice | None:
        """The card a reading names, by its number (one look, kept in `looks`) or by a
        name only one card has (an exact choice by definition)."""
        if reading.number:
            found = self.index.look(reading)
            looks.append(found)
            if found.card is None:
                return None
            return Choice(found.card, reading.count, reading, found.tier)
        card = self._named(reading, ambiguous)
        return Choice(card, reading.count, reading, "exact") if card is not None else None

    def _unconfirmed(self, line: Line, first: Reading) -> Choice | None:
        """A placeholder for a number of a known product the list lacks; an `unknown-card`
        of it while the product is out (before, the release check judges it)."""
        found = placeholder(self.index, first.number or "")
        if found is None:
            return None
        card, product = found
        if judged_out(product, self.on, self.early):
            rule = pool_rule(self.index.game)
            where, number = self.where(line), self.line_number(line)
            self.problems.append(violation(self.index, card, product, where, rule, number))
        return Choice(card, first.count, first, "exact")

    def _named(self, reading: Reading, ambiguous: list) -> Card | None:
        candidates = self.index.by_name(reading.name or "")
        if not candidates and reading.name and reading.name[:2].lower() == "x ":
            candidates = self.index.by_name(reading.name[2:])
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            ambiguous.append((reading, candidates))
        return None

    def _one_of(self, line: Line, choices: list[Choice]) -> Choice | None:
        """The first choice, when all give the same card and count; else the line is unclear."""
        if len({(c.card.number, c.count) for c in choices}) > 1:
            labels = list(dict.fromkeys(c.card.label for c in choices))
            tokens = [c.reading.count_token for c in choices if c.reading.count_token]
            counts = {c.count for c in choices}
            self.problems.append(
                unclear(self.where(line), self.line_number(line), line.text, labels, counts, tokens)
            )
            return None
        return choices[0]

    def _none(
        self,
        line: Line,
        readings: tuple[Reading, ...],
        choices: list[Choice],
        ambiguous: list[tuple[Reading, list[Card]]],
        found: Found | None,
    ) -> None:
        """Why a line names no card: several numbers, an ambiguous name, or unknown."""
        where, number = self.where(line), self.line_number(line)
        if choices:
            numbers = list(dict.fromkeys(c.card.number for c in choices))
            problem = several_numbers(where, number, line.text, numbers)
        elif ambiguous:
            problem = ambiguous_name(self.index.game, where, number, *ambiguous[0])
        else:
            first = readings[0] if readings else None
            what = (first.number or first.name or "") if first else line.text
            problem = unknown(self.index, self.budget, where, number, what, first, found)
        self.problems.append(problem)

    def _mismatch(self, line: Line, choice: Choice) -> None:
        written = choice.reading.name
        self.notes.append(mismatch(self.where(line), self.line_number(line), written, choice.card))

    def where(self, line: Line) -> str:
        """How a message names the line: `Line 4`, or a structured deck's `main entry 2`."""
        if line.kind == "partner":
            return "partner" if self.structured else f"Line {line.number} (partner)"
        return f"{line.section} entry {line.number}" if self.structured else f"Line {line.number}"

    def line_number(self, line: Line) -> int | None:
        """The line number a report gives (none for a structured entry)."""
        return None if self.structured else line.number


def _most_natural(choices: list[Choice], tier: str) -> list[Choice]:
    """The choices of a tier with the least strain ("other": none that leaves a
    number-shaped token in the name)."""
    found = [c for c in choices if c.tier == tier]
    if tier == "other":
        found = [c for c in found if not c.reading.spare_numbers]
    least = min((c.reading.strain for c in found), default=0)
    return [c for c in found if c.reading.strain == least]


@memo(4096)
def _number_first(index: CardIndex, readings: tuple[Reading, ...]) -> Choice | None:
    """Step 1 of `Resolver.card`: pure in the pool and the readings, and asked for each
    line of each request (a text line's readings are the same on every request), so
    kept by the pool itself and the readings' values: a pool imported again is another
    key, and a line of a long name is worked out every time."""
    first = readings[0]
    if not first.number or first.strain:
        return None
    found = index.look(first)
    if found.card is None or found.tier != "exact":
        return None
    if any(_rival(index, r, found.card, first.count) for r in readings[1:]):
        return None
    return Choice(found.card, first.count, first, "exact")


def _rival(index: CardIndex, reading: Reading, card: Card, count: int) -> bool:
    """Does this reading name a card exactly, giving another card or count?"""
    if reading.number:
        found = index.look(reading)
        if found.card is card and reading.count == count:
            return False  # the same card and count: no rival, whatever its name
        other, exact = found.card, found.tier == "exact"
    else:
        other = index.only_card_named(reading.name or "")
        exact = other is not None
    return exact and (other is not card or reading.count != count)
