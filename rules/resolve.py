"""From what the player wrote to a deck of real cards.

Every input line (or structured entry) ends up as a card in a section, a header, a
comment, or one of the contract's input problems (`unknown-card`, `ambiguous-card`,
`unparsed-line`), each with its line number; lines that name no card are kept in
`Deck.unresolved`. Text, deck links, deck codes, TTS arrays, Limitless objects and
structured decks all come here as the parser's `Line`s, and `Resolver.card` decides
each one the same way.
"""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from rules.budget import SUGGESTIONS, Budget
from rules.cache import memo
from rules.games import GAMES, SIDE, Game, game_name
from rules.model import Card, Deck, Entry, Unresolved, Violation
from rules.pool import CardIndex
from rules.read import Line, Parsed, Reading
from rules.unconfirmed import judged_out, placeholder, violation

POOL_RULE = "{game} card list: every card in a deck must be a real card of the game"
INPUT_RULE = "deckcheck decklist format (one card entry, header or comment per line)"
NAME_RULE = (
    "deckcheck decklist format: when a line has a card number, the number decides "
    "and the name beside it is only a hint"
)


class Resolved(NamedTuple):
    deck: Deck
    problems: tuple[Violation, ...]
    notes: tuple[Violation, ...]


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

    @property
    def game(self) -> str:
        return self.index.game

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
        choices = []
        for r in readings:
            card = self._named(r, ambiguous)
            if card is not None:
                # A card found by its name is that name's card: exact by definition.
                tier = "exact" if r.number is None else self.index.agreement(card, r.name)
                choices.append(Choice(card, r.count, r, tier))
        exact = [c for c in choices if c.tier == "exact"]
        if exact:
            return self._one_of(line, exact)
        for tier in ("near", "other"):
            best = self._most_natural(choices, tier)
            if best:
                chosen = self._one_of(line, best)
                if chosen is not None and tier == "other":
                    self._mismatch(line, chosen)
                return chosen
        if not choices and not ambiguous and readings and readings[0].number:
            held = self._unconfirmed(line, readings[0])
            if held is not None:
                return held
        self._none(line, readings, choices, ambiguous)
        return None

    def _unconfirmed(self, line: Line, first: Reading) -> Choice | None:
        """A placeholder for a number of a known product the list lacks; an `unknown-card`
        of it while the product is out (before, the release check judges it)."""
        found = placeholder(self.index, first.number or "")
        if found is None:
            return None
        card, product = found
        if judged_out(product, self.on, self.early):
            where, rule = self._where(line), self._rule()
            self.problems.append(
                violation(self.index, card, product, where, rule, self._line(line))
            )
        return Choice(card, first.count, first, "exact")

    def _named(self, reading: Reading, ambiguous: list) -> Card | None:
        if reading.number:
            return self.index.by_number(reading.number)
        candidates = self.index.by_name(reading.name or "")
        if not candidates and reading.name and reading.name[:2].lower() == "x ":
            candidates = self.index.by_name(reading.name[2:])
        if len(candidates) == 1:
            return candidates[0]
        if candidates:
            ambiguous.append((reading, candidates))
        return None

    @staticmethod
    def _most_natural(choices: list[Choice], tier: str) -> list[Choice]:
        """The choices of a tier with the least strain ("other": none that leaves a
        number-shaped token in the name)."""
        found = [c for c in choices if c.tier == tier]
        if tier == "other":
            found = [c for c in found if not c.reading.spare_numbers]
        least = min((c.reading.strain for c in found), default=0)
        return [c for c in found if c.reading.strain == least]

    def _one_of(self, line: Line, choices: list[Choice]) -> Choice | None:
        """The first choice, when all give the same card and count; else the line is unclear."""
        if len({(c.card.number, c.count) for c in choices}) > 1:
            self._unclear(line, choices)
            return None
        return choices[0]

    def _none(
        self,
        line: Line,
        readings: tuple[Reading, ...],
        choices: list[Choice],
        ambiguous: list[tuple[Reading, list[Card]]],
    ) -> None:
        if choices:
            self._several_numbers(line, choices)
        elif ambiguous:
            self._ambiguous(line, *ambiguous[0])
        else:
            self._unknown(line, readings[0] if readings else None)

    def _where(self, line: Line) -> str:
        if line.kind == "partner":
            return "partner" if self.structured else f"Line {line.number} (partner)"
        return f"{line.section} entry {line.number}" if self.structured else f"Line {line.number}"

    def _line(self, line: Line) -> int | None:
        return None if self.structured else line.number

    def _rule(self) -> str:
        return POOL_RULE.format(game=game_name(self.game))

    def _unknown(self, line: Line, first: Reading | None) -> None:
        game = game_name(self.game)
        what = (first.number or first.name or "") if first else line.text
        where = self._where(line)
        if not len(self.index):
            message = (
                f"{where}: no {game} cards are loaded in this service yet, so {what!r} "
                f"cannot be checked. Ask its administrator to import a card list "
                f"(cardpool import {self.game} ...)."
            )
            self._problem("unknown-card", message, self._rule(), line)
            return
        newer = self.index.newer_set(first.number) if first and first.number else None
        if newer is not None:
            message = f"{where}: {what} is not in this card list yet: {newer}."
        else:
            message = f"{where}: {what!r} is not a {game} card."
        labels: tuple[str, ...] = ()
        # A player who wrote a number is asked to check it, not to write one.
        check = (
            "Check the card number"
            if first and first.number
            else "Check the spelling or write the card number"
        )
        if self.budget.suggestion():
            hints = self.index.suggest(what) if newer is None else []
            if first is not None and first.number and first.name:
                hints = self.index.by_name(first.name)[:3] + hints
            labels = tuple(dict.fromkeys(card.label for card in hints))
            if labels:
                message += f" Did you mean {' or '.join(labels[:3])}?"
            elif newer is None:
                message += f" {check}."
        elif newer is None:
            message += (
                f" {check} (no suggestion looked for: "
                f"only the first {SUGGESTIONS} unknown names of a request get one)."
            )
        hint = "newer-set" if newer is not None else None
        self._problem("unknown-card", message, self._rule(), line, suggestions=labels, hint=hint)

    def _problem(
        self,
        code: str,
        message: str,
        rule: str,
        line: Line,
        cards: tuple[str, ...] = (),
        suggestions: tuple[str, ...] = (),
        hint: str | None = None,
    ) -> None:
        self.problems.append(
            Violation(
                code,
                message,
                rule,
                cards=cards,
                line=self._line(line),
                suggestions=suggestions,
                hint=hint,
            )
        )

    def _ambiguous(self, line: Line, reading: Reading, candidates: list[Card]) -> None:
        shown = ", ".join(card.label for card in candidates[:8])
        more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        message = (
            f"{self._where(line)}: {reading.name!r} is the name of {len(candidates)} different "
            f"cards ({shown}{more}). Write the card number to say which one."
        )
        self._problem(
            "ambiguous-card",
            message,
            self._rule(),
            line,
            cards=tuple(c.number for c in candidates),
            suggestions=tuple(c.label for c in candidates),
        )

    def _unclear(self, line: Line, best: list[Choice]) -> None:
        """Two readings fit equally well and give different cards or counts."""
        cards = list(dict.fromkeys(c.card.label for c in best))
        tokens = [c.reading.count_token for c in best if c.reading.count_token]
        if len({c.count for c in best}) > 1 and tokens:
            question = f"is {tokens[0]} the count or part of the name?"
        else:
            question = f"which card is meant: {' or '.join(cards)}?"
        message = (
            f"{self._where(line)}: {question} deckcheck could read {line.text[:80]!r} more than "
            f"one way and counted none of it. Write it as `<count> <name> <card number>`."
        )
        self._problem("unparsed-line", message, INPUT_RULE, line)

    def _several_numbers(self, line: Line, found: list[Choice]) -> None:
        numbers = list(dict.fromkeys(c.card.number for c in found))
        message = (
            f"{self._where(line)}: {line.text[:80]!r} holds several card numbers "
            f"({', '.join(numbers)}) in no shape deckcheck knows, so none was counted. "
            f"Put each card on its own line."
        )
        self._problem("unparsed-line", message, INPUT_RULE, line)

    def _mismatch(self, line: Line, choice: Choice) -> None:
        card = choice.card
        message = (
            f"{self._where(line)} says {choice.reading.name}, but {card.number} is {card.name}. "
            f"deckcheck counted {card.label}, because the card number decides; "
            f"check that it is the card you meant."
        )
        self.notes.append(
            Violation(
                "name-mismatch",
                message,
                NAME_RULE,
                cards=(card.number,),
                line=self._line(line),
                warning=True,
            )
        )


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


@memo(4096)
def _number_first(index: CardIndex, readings: tuple[Reading, ...]) -> Choice | None:
    """Step 1 of `Resolver.card`: pure in the pool and the readings, and asked for each
    line of each request (a text line's readings are the same on every request), so
    kept by the pool itself and the readings' values: a pool imported again is another
    key, and a line of a long name is worked out every time."""
    first = readings[0]
    if not first.number or first.strain:
        return None
    card = index.by_number(first.number)
    if card is None or not index.agrees(card, first.name):
        return None
    if any(_rival(index, r, card, first.count) for r in readings[1:]):
        return None
    return Choice(card, first.count, first, "exact")


def _rival(index: CardIndex, reading: Reading, card: Card, count: int) -> bool:
    """Does this reading name a card exactly, giving another card or count?"""
    if reading.number:
        other = index.by_number(reading.number)
        if other is card and reading.count == count:
            return False  # the same card and count: no rival, whatever its name
        exact = other is not None and index.agrees(other, reading.name)
    else:
        other = index.only_card_named(reading.name or "")
        exact = other is not None
    return exact and (other is not card or reading.count != count)


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
        return None, (), resolver._line(lines[0])
    return found[0], tuple(found[1:]), resolver._line(lines[0])


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
