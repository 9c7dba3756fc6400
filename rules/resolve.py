"""From what the player wrote to a deck of real cards.

Every input line ends up as a card in a section, a header, a comment, or one of
the contract's input problems (`unknown-card`, `ambiguous-card`, `unparsed-line`),
each with its line number; lines that name no card are kept in `Deck.unresolved`.

The parser gives each card line its readings; the reading in which name and number
agree with a real card wins (exact names before misspelt ones, natural readings
before ones that leave a count- or number-shaped token in the name). When the
best readings disagree, the line is `unparsed-line` saying what was unclear. When a
number decides against the name beside it, the report warns `name-mismatch`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, NamedTuple

from rules.games import GAMES, SIDE, game_name
from rules.model import Card, Deck, Entry, Unresolved, Violation
from rules.parse import Line, Parsed, Reading, card_readings
from rules.pool import CardIndex, name_key

POOL_RULE: Final = "{game} card list: every card in a deck must be a real card of the game"
INPUT_RULE: Final = "deckcheck decklist format (one card entry, header or comment per line)"
NAME_RULE: Final = (
    "deckcheck decklist format: when a line has a card number, the number decides "
    "and the name beside it is only a hint"
)
SUGGESTION_BUDGET: Final = 20  # unknown names per request that get near-match suggestions
_new: Final = tuple.__new__  # Resolved(...) without the named tuple's Python __new__
# (game, kind, level, header hint, has headers) -> section: `Game.route` is pure, and
# kinds, levels and hints come from the pools and the parser's fixed header words.
_ROUTES: Final[dict[tuple[str, str, str | None, str | None, bool], str]] = {}


class Resolved(NamedTuple):
    """A named tuple: built once a request (with `_new`), and a frozen dataclass's
    generated __init__ runs as interpreted Python even in the compiled build."""

    deck: Deck
    problems: tuple[Violation, ...]
    notes: tuple[Violation, ...]


class Ref(NamedTuple):
    """A reference to one card: its readings, where it was written, and how many copies."""

    readings: tuple[Reading, ...]
    where: str
    line: int | None = None
    text: str = ""


class Choice(NamedTuple):
    card: Card
    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    reading: Reading
    tier: str


def route(game: str, card: Card, hint: str | None, has_headers: bool) -> str:
    """The section a card from text input belongs to (the contract's rules)."""
    return GAMES[game].route(card.kind, card.level, hint, has_headers)


class Resolver:
    """Finds the card each reference names, keeping the problems and notes it meets.

    A plain class with its own __init__: compiled, it is built natively, where a
    dataclass's generated __init__ would run as interpreted Python once a request.
    """

    def __init__(self, index: CardIndex) -> None:
        self.index = index
        self.problems: list[Violation] = []
        self.notes: list[Violation] = []
        self.suggested = 0

    @property
    def game(self) -> str:
        return self.index.game

    def card(self, ref: Ref) -> Choice | None:
        """The card a reference names, or None after recording why not.

        Every reading that names a real card is found first (dictionary look-ups). If
        any agree exactly with their name, they must all give the same card and count,
        else the line is unclear. Only without one is a misspelt name (rapidfuzz)
        considered, then a number against its name: there the most natural reading wins.
        """
        readings = ref.readings
        first = readings[0] if readings else None
        if first is not None and first.number and first.strain == 0:
            card = self.index.by_number(first.number)
            if card is not None and self.index.agrees(card, first.name):
                for other in readings[1:]:
                    if self._exact_other(other, card, first.count):
                        break
                else:
                    return Choice(card, first.count, first, "exact")
        found: list[tuple[Reading, Card]] = []
        ambiguous: list[tuple[Reading, list[Card]]] = []
        for reading in readings:
            card = self._named(reading, ambiguous)
            if card is not None:
                found.append((reading, card))
        exact = [
            Choice(card, r.count, r, "exact")
            for r, card in found
            if r.number is None or self.index.agrees(card, r.name)
        ]
        if exact:
            if len({(c.card.number, c.count) for c in exact}) > 1:
                self._unclear(ref, exact)
                return None
            return exact[0]
        rest = [Choice(card, r.count, r, self.index.agreement(card, r.name)) for r, card in found]
        for tier in ("near", "other"):
            choices = [c for c in rest if c.tier == tier]
            if tier == "other":
                choices = [c for c in choices if not c.reading.spare_numbers]
            if not choices:
                continue
            least = min(c.reading.strain for c in choices)
            best = [c for c in choices if c.reading.strain == least]
            if len({(c.card.number, c.count) for c in best}) > 1:
                self._unclear(ref, best)
                return None
            if tier == "other":
                self._mismatch(ref, best[0])
            return best[0]
        if rest:
            self._several_numbers(ref, rest)
        elif ambiguous:
            self._ambiguous(ref, *ambiguous[0])
        else:
            self._unknown(ref)
        return None

    def quick(self, line: Line) -> Card | None:
        """The card of a common `count name number` line (`Line.tokens`), when its first
        reading agrees with a real card and no other reading names a card exactly with
        another card or count; else None, and the general `card` decides.

        Asks what `card` asks of the other readings without building them: on an ASCII
        line a name key is the keys of its tokens joined, so each reading's key is made
        of the first token's digits and the name's and number's keys (a property test
        holds this equal to the general path).
        """
        index = self.index
        tokens = line.tokens
        number = line.numbers[0]
        card = index.by_number(number)
        if tokens is None or card is None:
            return None
        name = line.name
        mid = name_key(name) if name else ""
        # `agrees`, asked only when the name's key is not simply one of the card's names.
        if name and mid not in index.names_of(card) and not index.agrees(card, name):
            return None
        first, last, count = tokens[0], tokens[-1], line.count
        middle = len(tokens) > 2  # markers only (`4 (DCG) BT1-010`) decline below
        if middle and not mid:
            return None
        if count != 1 and index.digit_led(card):
            return None  # `4 Name` could be the card's own name, read as 1 copy
        # Is the name with the number (and with the count) the name of one card? Then
        # that card is another reading of the line; a bracketed number may also be a
        # flip card's side, so the name without it is asked too. A number and a count
        # hold digits: such a name is asked for only when a name with a digit starts
        # as it would (most lines: none, and no key is built).
        with_number = index.starts_digit_name(mid)
        with_count = index.starts_digit_name(first)
        end = name_key(last) if with_number or with_count else ""
        tail = index.named_key(mid + end) if with_number else None
        whole = index.named_key(first + mid + end) if with_count else None
        if last[-1] in ")]":
            tail = tail or (index.named_key(mid) if middle else None)
            whole = whole or (index.named_key(first + mid) if with_count else None)
        if tail is not None and len(tail) == 1 and tail[0] is not card:
            return None  # the name alone, number included, names another card
        if whole is not None and len(whole) == 1 and (whole[0] is not card or count != 1):
            return None
        return card

    def number_only(self, line: Line) -> Card | None:
        """The card of a line whose one reading is a number without a name (deck codes,
        TTS arrays, deck links), else None and the general `card` decides: for such a
        reading `card` gives the card with the number, at the line's count."""
        if line.name is None and len(line.readings) == 1 and line.numbers:
            return self.index.by_number(line.numbers[0])
        return None

    def _exact_other(self, reading: Reading, card: Card, count: int) -> bool:
        """Does another reading name a card exactly, giving another card or count?

        The same question the general path asks, for the common line only.
        """
        if reading.number:
            other = self.index.by_number(reading.number)
            exact = other is not None and self.index.agrees(other, reading.name)
        else:
            other = self.index.only_card_named(reading.name or "")
            exact = other is not None
        return exact and (other is not card or reading.count != count)

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

    def _rule(self) -> str:
        return POOL_RULE.format(game=game_name(self.game))

    def _unknown(self, ref: Ref) -> None:
        game = game_name(self.game)
        first = ref.readings[0] if ref.readings else None
        what = (first.number or first.name or "") if first else ref.text
        if not len(self.index):
            message = (
                f"{ref.where}: no {game} cards are loaded in this service yet, so {what!r} "
                f"cannot be checked. Ask its administrator to import a card list "
                f"(cardpool import {self.game} ...)."
            )
            self.problems.append(Violation("unknown-card", message, self._rule(), line=ref.line))
            return
        message = f"{ref.where}: {what!r} is not a {game} card."
        labels: tuple[str, ...] = ()
        if self.suggested < SUGGESTION_BUDGET:
            self.suggested += 1
            hints = self.index.suggest(what)
            if first is not None and first.number and first.name:
                hints = self.index.by_name(first.name)[:3] + hints
            labels = tuple(dict.fromkeys(card.label for card in hints))
            if labels:
                message += f" Did you mean {' or '.join(labels[:3])}?"
            else:
                message += " Check the spelling or write the card number."
        else:
            message += (
                f" Check the spelling or write the card number (no suggestion looked for: "
                f"only the first {SUGGESTION_BUDGET} unknown names get one)."
            )
        self.problems.append(
            Violation("unknown-card", message, self._rule(), line=ref.line, suggestions=labels)
        )

    def _ambiguous(self, ref: Ref, reading: Reading, candidates: list[Card]) -> None:
        shown = ", ".join(card.label for card in candidates[:8])
        more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
        message = (
            f"{ref.where}: {reading.name!r} is the name of {len(candidates)} different cards "
            f"({shown}{more}). Write the card number to say which one."
        )
        self.problems.append(
            Violation(
                "ambiguous-card",
                message,
                self._rule(),
                cards=tuple(c.number for c in candidates),
                line=ref.line,
                suggestions=tuple(c.label for c in candidates),
            )
        )

    def _unclear(self, ref: Ref, best: list[Choice]) -> None:
        """Two readings fit equally well and give different cards or counts."""
        cards = list(dict.fromkeys(c.card.label for c in best))
        tokens = [c.reading.count_token for c in best if c.reading.count_token]
        if len({c.count for c in best}) > 1 and tokens:
            question = f"is {tokens[0]} the count or part of the name?"
        else:
            question = f"which card is meant: {' or '.join(cards)}?"
        message = (
            f"{ref.where}: {question} deckcheck could read {ref.text[:80]!r} more than one way "
            f"and counted none of it. Write it as `<count> <name> <card number>`."
        )
        self.problems.append(
            Violation("unparsed-line", message, INPUT_RULE, line=ref.line, cards=())
        )

    def _several_numbers(self, ref: Ref, found: list[Choice]) -> None:
        numbers = list(dict.fromkeys(c.card.number for c in found))
        message = (
            f"{ref.where}: {ref.text[:80]!r} holds several card numbers "
            f"({', '.join(numbers)}) in no shape deckcheck knows, so none was counted. "
            f"Put each card on its own line."
        )
        self.problems.append(Violation("unparsed-line", message, INPUT_RULE, line=ref.line))

    def _mismatch(self, ref: Ref, choice: Choice) -> None:
        card = choice.card
        message = (
            f"{ref.where} says {choice.reading.name}, but {card.number} is {card.name}. "
            f"deckcheck counted {card.label}, because the card number decides; "
            f"check that it is the card you meant."
        )
        self.notes.append(
            Violation(
                "name-mismatch",
                message,
                NAME_RULE,
                cards=(card.number,),
                line=ref.line,
                warning=True,
            )
        )


def resolve_text(parsed: Parsed, index: CardIndex) -> Resolved:
    resolver = Resolver(index)
    entries: list[Entry] = []
    side: list[Entry] = []
    unresolved: list[Unresolved] = []
    game = GAMES[index.game]
    headers = parsed.has_headers
    for line in parsed.lines:
        if line.kind == "unparsed":
            resolver.problems.append(_unparsed(line))
            unresolved.append(Unresolved(line.number, line.text, line.unread_count))
        if line.kind != "card":
            continue
        count = line.count
        card = resolver.quick(line) if line.tokens is not None else resolver.number_only(line)
        if card is None:
            ref = Ref(line.all_readings(), f"Line {line.number}", line.number, line.text)
            choice = resolver.card(ref)
            if choice is None:
                unresolved.append(Unresolved(line.number, line.text, _count_of(line)))
                continue
            card, count = choice.card, choice.count
        # The section depends on the game, kind, level, header and whether the list has
        # headers only: routed once per process for each (a few dozen at most).
        where = (game.id, card.kind, card.level, line.section, headers)
        section = _ROUTES.get(where)
        if section is None:
            section = _ROUTES[where] = game.route(card.kind, card.level, line.section, headers)
        entry = Entry(card, count, section, line.number)
        (side if section == SIDE else entries).append(entry)
    partner, more, partner_line = _partners(parsed.partners, resolver)
    deck = Deck(
        index.game, tuple(entries), partner, partner_line, parsed.name, tuple(unresolved), more
    )
    notes = (*_side_notes(side), *resolver.notes)
    return _new(Resolved, (deck, tuple(resolver.problems), notes))


def _count_of(line: Line) -> int | None:
    """The count an unread line gives, when all its readings agree on one."""
    readings = line.all_readings()
    counts = {r.count for r in readings if r.strain == readings[0].strain}
    return counts.pop() if len(counts) == 1 else None


def resolve_structured(
    sections: Mapping[str, Iterable[tuple[str, int]]], partner: str | None, index: CardIndex
) -> Resolved:
    """A structured deck: sections are taken as given."""
    resolver = Resolver(index)
    entries: list[Entry] = []
    unresolved: list[Unresolved] = []
    for section, items in sections.items():
        for position, (text, count) in enumerate(items, start=1):
            ref = structured_ref(text, f"{section} entry {position}", count)
            choice = resolver.card(ref)
            if choice is None:
                unresolved.append(Unresolved(None, text[:200], count))
            else:
                entries.append(Entry(choice.card, count, section))
    partner_card = None
    if partner:
        choice = resolver.card(structured_ref(partner, "partner", 1))
        partner_card = choice.card if choice else None
    deck = Deck(index.game, tuple(entries), partner_card, unresolved=tuple(unresolved))
    return Resolved(deck, tuple(resolver.problems), tuple(resolver.notes))


def structured_ref(text: str, where: str, count: int) -> Ref:
    """A structured `card` value read like a line without a count."""
    readings = tuple(r._replace(count=count) for r in card_readings(text.split(), counts=False))
    return Ref(readings, where, None, text)


def _partners(
    lines: tuple[Line, ...], resolver: Resolver
) -> tuple[Card | None, tuple[Card, ...], int | None]:
    """The declared partner, any further partners (a `partner` violation), its line."""
    if not lines:
        return None, (), None
    if resolver.game != "dbe":
        for line in lines:
            resolver.problems.append(
                Violation(
                    "unparsed-line",
                    f"Line {line.number}: only Digimon Battle Evolution decks declare a "
                    "partner. Delete this line.",
                    INPUT_RULE,
                    line=line.number,
                )
            )
        return None, (), None
    found: list[Card] = []
    for line in lines:
        for reading in line.readings or ():
            ref = Ref((reading,), f"Line {line.number} (partner)", line.number, line.text)
            choice = resolver.card(ref)
            if choice is not None and choice.card not in found:
                found.append(choice.card)
    if not found:
        return None, (), lines[0].number
    return found[0], tuple(found[1:]), lines[0].number


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
