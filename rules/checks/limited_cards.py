from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Final

from rules.checks.words import copies, section_name
from rules.lists import BANNED, RESTRICTED, Change
from rules.model import Context, Deck, Stack, Violation

LIST_SOURCE: Final = (
    "Digimon Card Game restricted and banned card list "
    "(world.digimoncard.com/rule/restriction_card)"
)


def list_citation(change: Change) -> str:
    """Where a list entry comes from, with any doubt about its date in plain sight."""
    if change.effective == date.min:
        return f"{', '.join(change.sources)} (this event's own list)"
    text = f"{LIST_SOURCE}, effective {change.effective}"
    if change.confidence:
        text += f" (date of {change.confidence} confidence)"
    return text


def doubt(change: Change) -> str:
    """` (the date is inferred, not announced)`: a date that is not certain says so."""
    if change.confidence and change.confidence not in ("high", "confirmed"):
        return f" (the date {change.effective} is {change.confidence}: not announced exactly)"
    return ""


def _since(change: Change) -> str:
    if change.effective == date.min:
        return ""
    return f" since {change.effective}{doubt(change)}"


def where(deck: Deck, number: str) -> str:
    """`3 in the main deck and 1 in the Digi-Egg deck`: which deck holds the copies."""
    parts = [
        f"{stack.count} in the {section_name(section)}"
        for section in deck.sections()
        for stack in deck.stacks(section)
        if stack.card.number == number
    ]
    if len(parts) <= 1:
        return parts[0] if parts else ""
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _limited(deck: Deck, ctx: Context, status: str) -> Iterator[tuple[Stack, Change]]:
    """Each card of the deck (all sections together) with `status` on the day."""
    if ctx.lists is None:
        return
    for stack, (listed, change) in deck.listed_in(ctx.lists.state_on(ctx.on)):
        if listed == status:
            yield stack, change


def _violation(code: str, stack: Stack, change: Change, message: str) -> Violation:
    return Violation(code, message, list_citation(change), None, (stack.card.number,), stack.line)


@dataclass(frozen=True)
class BannedCards:
    """No copy of a card banned on the day (DCG lists by date).

    What: looks every card number up in the list history for the requested date.
    Why: banned cards may not be in the deck or the Digi-Egg deck at all.
    Example: BT5-109 in a deck dated 2022-03-01 gets `banned`.
    """

    rule: str = LIST_SOURCE
    code: str = "banned"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        for stack, change in _limited(deck, ctx, BANNED):
            message = (
                f"{stack.card.label} is banned{_since(change)}: no copies are allowed. "
                f"Remove {'all ' if stack.count > 1 else ''}{copies(stack.count)}."
            )
            yield _violation(self.code, stack, change, message)


@dataclass(frozen=True)
class RestrictedCards:
    """At most 1 copy, over both decks, of a card restricted on the day (DCG lists by date).

    What: adds the copies of a restricted card number in every section.
    Why: "restricted to 1" limits the whole deck, all printings together.
    Example: 4 BT2-047 in a deck dated 2021-05-01 get `restricted`.
    """

    rule: str = LIST_SOURCE
    code: str = "restricted"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        for stack, change in _limited(deck, ctx, RESTRICTED):
            if stack.count <= 1:
                continue
            message = (
                f"{stack.card.label} is restricted to 1 copy over both decks{_since(change)}, "
                f"and you have {stack.count} ({where(deck, stack.card.number)}). "
                f"Remove {copies(stack.count - 1)}."
            )
            yield _violation(self.code, stack, change, message)
