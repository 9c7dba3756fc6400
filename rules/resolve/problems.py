"""What the resolver says of a line that names no card, or names one oddly.

Each function builds one of the contract's input problems (`unknown-card`,
`ambiguous-card`, `unparsed-line`) or the `name-mismatch` note from what the resolver
found; `where` names the line for the message ("Line 4", "main entry 2"), `line` is its
number in the report (None for a structured entry). Nothing here looks a card up but
the suggestions, which the request's budget bounds.
"""

from __future__ import annotations

from rules.budget import SUGGESTIONS, Budget
from rules.games import game_name
from rules.model import Card, Violation
from rules.pool import CardIndex, Found
from rules.read import Reading

POOL_RULE = "{game} card list: every card in a deck must be a real card of the game"
INPUT_RULE = "deckcheck decklist format (one card entry, header or comment per line)"
NAME_RULE = (
    "deckcheck decklist format: when a line has a card number, the number decides "
    "and the name beside it is only a hint"
)


def pool_rule(game: str) -> str:
    return POOL_RULE.format(game=game_name(game))


def unknown(
    index: CardIndex,
    budget: Budget,
    where: str,
    line: int | None,
    what: str,
    first: Reading | None,
    found: Found | None,
) -> Violation:
    """`unknown-card`: `what` (the first reading's number or name, else the line) is no
    card of the list; `found` is the index's answer for the first reading's number."""
    game = game_name(index.game)
    if not len(index):
        message = (
            f"{where}: no {game} cards are loaded in this service yet, so {what!r} "
            f"cannot be checked. Ask its administrator to import a card list "
            f"(cardpool import {index.game} ...)."
        )
        return Violation("unknown-card", message, pool_rule(index.game), line=line)
    newer = found.newer if found is not None else None
    if newer is not None:
        message = f"{where}: {what} is not in this card list yet: {newer}."
    else:
        message = f"{where}: {what!r} is not a {game} card."
    numbered = first is not None and bool(first.number)
    labels, advice = _suggestions(index, budget, what, numbered, found)
    return Violation(
        "unknown-card",
        message + advice,
        pool_rule(index.game),
        line=line,
        suggestions=labels,
        hint="newer-set" if newer is not None else None,
    )


def _suggestions(
    index: CardIndex, budget: Budget, what: str, numbered: bool, found: Found | None
) -> tuple[tuple[str, ...], str]:
    """The "Did you mean" labels of an unknown card and the sentence that ends its
    message (none for a number of a newer set: it is likely a real card)."""
    newer = found is not None and found.newer is not None
    # A player who wrote a number is asked to check it, not to write one.
    check = "Check the card number" if numbered else "Check the spelling or write the card number"
    if not budget.suggestion():
        if newer:
            return (), ""
        return (), (
            f" {check} (no suggestion looked for: "
            f"only the first {SUGGESTIONS} unknown names of a request get one)."
        )
    hints = [] if newer else index.suggest(what)
    if found is not None:
        hints = [*found.alternatives, *hints]
    labels = tuple(dict.fromkeys(card.label for card in hints))
    if labels:
        return labels, f" Did you mean {' or '.join(labels[:3])}?"
    return (), "" if newer else f" {check}."


def ambiguous_name(
    game: str, where: str, line: int | None, reading: Reading, candidates: list[Card]
) -> Violation:
    """`ambiguous-card`: a name several cards have, and no number to say which."""
    shown = ", ".join(card.label for card in candidates[:8])
    more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
    message = (
        f"{where}: {reading.name!r} is the name of {len(candidates)} different "
        f"cards ({shown}{more}). Write the card number to say which one."
    )
    return Violation(
        "ambiguous-card",
        message,
        pool_rule(game),
        cards=tuple(c.number for c in candidates),
        line=line,
        suggestions=tuple(c.label for c in candidates),
    )


def unclear(
    where: str, line: int | None, text: str, labels: list[str], counts: set[int], tokens: list
) -> Violation:
    """`unparsed-line`: two readings fit equally well and give different cards
    (`labels`) or counts (`counts`, read from the count tokens `tokens`)."""
    if len(counts) > 1 and tokens:
        question = f"is {tokens[0]} the count or part of the name?"
    else:
        question = f"which card is meant: {' or '.join(labels)}?"
    message = (
        f"{where}: {question} deckcheck could read {text[:80]!r} more than "
        f"one way and counted none of it. Write it as `<count> <name> <card number>`."
    )
    return Violation("unparsed-line", message, INPUT_RULE, line=line)


def several_numbers(where: str, line: int | None, text: str, numbers: list[str]) -> Violation:
    """`unparsed-line`: a line holding several card numbers in no known shape."""
    message = (
        f"{where}: {text[:80]!r} holds several card numbers "
        f"({', '.join(numbers)}) in no shape deckcheck knows, so none was counted. "
        f"Put each card on its own line."
    )
    return Violation("unparsed-line", message, INPUT_RULE, line=line)


def mismatch(where: str, line: int | None, written: str | None, card: Card) -> Violation:
    """The `name-mismatch` note: the number decided, against the name beside it."""
    message = (
        f"{where} says {written}, but {card.number} is {card.name}. "
        f"deckcheck counted {card.label}, because the card number decides; "
        f"check that it is the card you meant."
    )
    return Violation(
        "name-mismatch", message, NAME_RULE, cards=(card.number,), line=line, warning=True
    )
