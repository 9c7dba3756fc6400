"""From what the player wrote to a deck of real cards.

Every input line ends up as a card in a section, a header, a comment, or one of
the contract's input problems (`unknown-card`, `ambiguous-card`, `unparsed-line`),
each with its line number. A card number on a line decides; a name is used only
when the line has no number.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.games import GAMES, SIDE, game_name
from rules.model import Card, Deck, Entry, Violation
from rules.numbers import NUMBER_TOKEN, find_numbers
from rules.parse import Line, Parsed
from rules.pool import CardIndex

POOL_RULE = "{game} card list: every card in a deck must be a real card of the game"
INPUT_RULE = "deckcheck decklist format (one card entry, header or comment per line)"


@dataclass(frozen=True)
class Resolved:
    deck: Deck
    problems: tuple[Violation, ...]
    notes: tuple[Violation, ...]


@dataclass(frozen=True)
class Ref:
    """A reference to one card: the number-shaped tokens and the name beside them."""

    numbers: tuple[str, ...]
    name: str | None
    where: str
    line: int | None = None


def route(game: str, card: Card, hint: str | None, has_headers: bool) -> str:
    """The section a card from text input belongs to (the contract's rules)."""
    return GAMES[game].route(card.kind, card.level, hint, has_headers)


class Resolver:
    def __init__(self, index: CardIndex) -> None:
        self.index = index
        self.game = index.game
        self.problems: list[Violation] = []

    def card(self, ref: Ref) -> Card | None:
        """The card a reference names, or None after recording why not."""
        for number in ref.numbers:
            found = self.index.by_number(number)
            if found:
                return found
        if ref.numbers:
            self._unknown(ref, ref.numbers[0])
            return None
        candidates = self.index.by_name(ref.name or "")
        if not candidates and ref.name and ref.name[:2].lower() == "x ":
            candidates = self.index.by_name(ref.name[2:])
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            self._ambiguous(ref, candidates)
        else:
            self._unknown(ref, ref.name or "")
        return None

    def _unknown(self, ref: Ref, what: str) -> None:
        game = game_name(self.game)
        rule = POOL_RULE.format(game=game)
        if not len(self.index):
            message = (
                f"{ref.where}: no {game} cards are loaded in this service yet, so {what!r} "
                f"cannot be checked. Ask its administrator to import a card list "
                f"(cardpool import {self.game} ...)."
            )
            self.problems.append(Violation("unknown-card", message, rule, line=ref.line))
            return
        hints = self.index.suggest(what)
        if ref.numbers and ref.name:
            hints = self.index.by_name(ref.name)[:3] + hints
        labels = tuple(dict.fromkeys(card.label for card in hints))
        message = f"{ref.where}: {what!r} is not a {game} card."
        if labels:
            message += f" Did you mean {' or '.join(labels[:3])}?"
        else:
            message += " Check the spelling or write the card number."
        self.problems.append(
            Violation("unknown-card", message, rule, line=ref.line, suggestions=labels)
        )

    def _ambiguous(self, ref: Ref, candidates: list[Card]) -> None:
        shown = ", ".join(card.label for card in candidates[:8])
        more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        message = (
            f"{ref.where}: {ref.name!r} is the name of {len(candidates)} different cards "
            f"({shown}{more}). Write the card number to say which one."
        )
        rule = POOL_RULE.format(game=game_name(self.game))
        self.problems.append(
            Violation(
                "ambiguous-card",
                message,
                rule,
                cards=tuple(c.number for c in candidates),
                line=ref.line,
                suggestions=tuple(c.label for c in candidates),
            )
        )


def resolve_text(parsed: Parsed, index: CardIndex) -> Resolved:
    resolver = Resolver(index)
    entries: list[Entry] = []
    side: list[Entry] = []
    for line in parsed.lines:
        if line.kind == "unparsed":
            resolver.problems.append(_unparsed(line))
        if line.kind != "card":
            continue
        card = resolver.card(Ref(line.numbers, line.name, f"Line {line.number}", line.number))
        if card is None:
            continue
        section = route(index.game, card, line.section, parsed.has_headers)
        (side if section == SIDE else entries).append(Entry(card, line.count, section, line.number))
    partner, partner_line = _partner(parsed.partner, resolver)
    deck = Deck(index.game, tuple(entries), partner, partner_line, parsed.name)
    return Resolved(deck, tuple(resolver.problems), _side_notes(side))


def resolve_structured(
    sections: dict[str, Iterable[tuple[str, int]]], partner: str | None, index: CardIndex
) -> Resolved:
    """A structured deck: sections are taken as given."""
    resolver = Resolver(index)
    entries: list[Entry] = []
    for section, items in sections.items():
        for position, (text, count) in enumerate(items, start=1):
            ref = _ref_of(text, f"{section} entry {position}")
            card = resolver.card(ref)
            if card is not None:
                entries.append(Entry(card, count, section))
    partner_card = resolver.card(_ref_of(partner, "partner")) if partner else None
    deck = Deck(index.game, tuple(entries), partner_card)
    return Resolved(deck, tuple(resolver.problems), ())


def _ref_of(text: str, where: str) -> Ref:
    name = " ".join(NUMBER_TOKEN.sub(" ", text).split()).strip("()[] ")
    return Ref(tuple(find_numbers(text)), name or None, where)


def _partner(line: Line | None, resolver: Resolver) -> tuple[Card | None, int | None]:
    if line is None:
        return None, None
    if not GAMES[resolver.game].has_partner:
        resolver.problems.append(
            Violation(
                "unparsed-line",
                f"Line {line.number}: only Digimon Battle Evolution decks declare a partner. "
                "Delete this line.",
                INPUT_RULE,
                line=line.number,
            )
        )
        return None, None
    ref = Ref(line.numbers, line.name, f"Line {line.number} (partner)", line.number)
    return resolver.card(ref), line.number


def _unparsed(line: Line) -> Violation:
    message = (
        f"Line {line.number}: {line.text[:80]!r} is not a card entry, a section header or "
        f"a comment ({line.problem}). Fix the line, or start it with // to keep it as a note."
    )
    return Violation("unparsed-line", message, INPUT_RULE, line=line.number)


def _side_notes(side: list[Entry]) -> tuple[Violation, ...]:
    if not side:
        return ()
    total = sum(e.count for e in side)
    message = (
        f"This list has a side deck of {total} card{'s' if total != 1 else ''}; "
        "side decks are not part of the deck and were not checked."
    )
    return (
        Violation(
            "side-deck",
            message,
            INPUT_RULE,
            section=SIDE,
            cards=tuple(dict.fromkeys(e.card.number for e in side)),
            warning=True,
        ),
    )
