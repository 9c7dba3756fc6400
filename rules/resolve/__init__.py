"""From what the player wrote to a deck of real cards.

Every input line (or structured entry) ends up as a card in a section, a header, a
comment, or one of the contract's input problems (`unknown-card`, `ambiguous-card`,
`unparsed-line`), each with its line number; lines that name no card are kept in
`Deck.unresolved`. Text, deck links, deck codes, TTS arrays, Limitless objects and
structured decks all come here as the parser's `Line`s. This module builds the deck:
sections, partners, the side deck; `choose` decides which card each line names
(`Resolver.card`), and `problems` words what it finds wrong.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from rules.budget import Budget
from rules.cache import memo
from rules.games import GAMES, SIDE, Game
from rules.model import Card, Deck, Entry, Unresolved, Violation
from rules.pool import CardIndex
from rules.read import Line, Parsed
from rules.resolve.choose import Choice, Resolver
from rules.resolve.problems import INPUT_RULE

__all__ = ["Choice", "Resolved", "Resolver", "resolve"]


class Resolved(NamedTuple):
    deck: Deck
    problems: tuple[Violation, ...]
    notes: tuple[Violation, ...]


def resolve(
    parsed: Parsed,
    index: CardIndex,
    budget: Budget | None = None,
    on: date | None = None,
    early: frozenset[str] = frozenset(),
) -> Resolved:
    """Every line of a parsed list (text or structured) to entries, problems and notes;
    `on` (default today) and `early` decide whether an unconfirmed card's product is out."""
    structured = parsed.style == "structured"
    resolver = Resolver(index, budget or Budget(), structured, on, early)
    game = GAMES[index.game]
    entries: list[Entry] = []
    side: list[Entry] = []
    unresolved: list[Unresolved] = []
    for line in parsed.lines:
        if line.kind == "unparsed":
            resolver.problems.append(_unparsed(line))
            unresolved.append(Unresolved(line.number, line.text, line.unread_count))
        if line.kind != "card":
            continue
        choice = resolver.card(line)
        if choice is None:
            unresolved.append(_unread(line, structured))
            continue
        if structured:
            # A structured deck's sections are taken as given.
            entries.append(Entry(choice.card, choice.count, line.section or "main"))
            continue
        card = choice.card
        section = _section(game, card, line.section, parsed.has_headers)
        (side if section == SIDE else entries).append(
            Entry(card, choice.count, section, line.number)
        )
    partner, more, partner_line = _partners(parsed.partners, resolver, game.has_partner)
    deck = Deck(
        index.game, tuple(entries), partner, partner_line, parsed.name, tuple(unresolved), more
    )
    notes = (*_side_notes(side), *resolver.notes)
    return Resolved(deck, tuple(resolver.problems), notes)


def _section(game: Game, card: Card, header: str | None, has_headers: bool) -> str:
    """The section a card read from text goes to; an unconfirmed card's kind is not
    known, so it stays in the section it was written in."""
    if not card.confirmed:
        return header if header in (*game.sections, SIDE) else "main"
    return _route(game.id, card.kind, card.level, header, has_headers)


@memo()
def _route(game: str, kind: str, level: str | None, header: str | None, headers: bool) -> str:
    """The section a game routes a card to: `Game.route` is pure, and each request asks
    it once per card."""
    return GAMES[game].route(kind, level, header, headers)


def _unread(line: Line, structured: bool) -> Unresolved:
    """An entry that named no card, with the count it gave (when all its most natural
    readings agree on one)."""
    if structured:
        return Unresolved(None, line.text[:200], line.count)
    readings = line.readings
    counts = {r.count for r in readings if r.strain == readings[0].strain}
    return Unresolved(line.number, line.text, counts.pop() if len(counts) == 1 else None)


def _partners(
    lines: tuple[Line, ...], resolver: Resolver, has_partner: bool
) -> tuple[Card | None, tuple[Card, ...], int | None]:
    """The declared partner, any further partners (a `partner` violation), its line."""
    if not lines:
        return None, (), None
    if not has_partner and not resolver.structured:
        for line in lines:
            resolver.problems.append(
                Violation(
                    "unparsed-line",
                    f"Line {line.number}: only {_partner_games()} decks declare a partner. "
                    "Delete this line.",
                    INPUT_RULE,
                    line=line.number,
                )
            )
        return None, (), None
    found: list[Card] = []
    for line in lines:
        # A structured partner is one entry, read like one; each reading of a text
        # `Partner:` line names a partner of its own (`Partner: ACC-001 ACC-023`: two).
        groups = [line.readings] if resolver.structured else [(r,) for r in line.readings]
        for readings in groups:
            choice = resolver.card(line, readings)
            if choice is not None and choice.card not in found:
                found.append(choice.card)
    if not found:
        return None, (), resolver.line_number(lines[0])
    return found[0], tuple(found[1:]), resolver.line_number(lines[0])


def _partner_games() -> str:
    return " and ".join(g.name for g in GAMES.values() if g.has_partner)


def _unparsed(line: Line) -> Violation:
    if line.problem == "too long":
        message = (
            f"Line {line.number} is longer than 1,000 characters, so deckcheck did not read "
            f"it. A card entry is one short line: `<count> <name> <card number>`."
        )
    else:
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
