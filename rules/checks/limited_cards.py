from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from rules.checks.copy_limit import printing_words, shared_number, shared_numbers
from rules.checks.words import and_list, copies, stacks_violation
from rules.games import section_words
from rules.lists import BANNED, RESTRICTED, Change
from rules.model import Context, Deck, Stack, Violation

LIST_SOURCE = (
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
    return and_list(
        [
            f"{stack.count} in the {section_words(section)}"
            for section in deck.sections()
            for stack in deck.stacks(section)
            if stack.card.number == number
        ]
    )


def _limited(deck: Deck, ctx: Context, status: str) -> Iterator[tuple[Stack, Change]]:
    """Each card of the deck (all sections together) with `status` on the day."""
    if ctx.lists is None:
        return
    for stack, (listed, change) in deck.listed_in(ctx.lists.state_on(ctx.on)):
        if listed == status:
            yield stack, change


def _shared(deck: Deck, ctx: Context, status: str) -> list[tuple[str, list[Stack], Change]]:
    """Printings "also treated as" a listed number, with that number's own copies: each
    group with its number key. Only groups that hold such a printing: a listed card on
    its own is `_limited`'s.
    """
    if ctx.lists is None or not deck.has_reprints:
        return []
    state = ctx.lists.state_on(ctx.on)
    found = []
    for key, group in shared_numbers(deck.totals).items():
        listed = state.get(key)
        if listed and listed[0] == status:
            found.append((key, group, listed[1]))
    return found


def _is_shared(stack: Stack, groups: set[str]) -> bool:
    card = stack.card
    return bool(groups) and card.limit_key in groups


def _group_words(group: list[Stack]) -> str:
    """`2 RB1-004 Agumon (treated as P-009) and 1 P-009 Agumon`."""
    return and_list([printing_words(s) for s in group])


@dataclass(frozen=True)
class BannedCards:
    """No copy of a card banned on the day (DCG lists by date).

    What: looks every card number up in the list history for the requested date (a
    printing "also treated as" a banned number is banned with it).
    Why: banned cards may not be in the deck or the Digi-Egg deck at all.
    Example: BT5-109 in a deck dated 2022-03-01 gets `banned`.
    """

    rule: str = LIST_SOURCE
    code: str = "banned"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        groups = set()
        for key, group, change in _shared(deck, ctx, BANNED):
            groups.add(key)
            total = sum(s.count for s in group)
            message = (
                f"Card number {shared_number(group)} is banned{_since(change)}: no copies are "
                f"allowed, and a printing treated as {shared_number(group)} counts as it. "
                f"Remove {'all ' if total > 1 else ''}{copies(total)} "
                f"({_group_words(group)})."
            )
            yield stacks_violation(self.code, message, list_citation(change), group)
        for stack, change in _limited(deck, ctx, BANNED):
            if _is_shared(stack, groups):
                continue
            message = (
                f"{stack.card.label} is banned{_since(change)}: no copies are allowed. "
                f"Remove {'all ' if stack.count > 1 else ''}{copies(stack.count)}."
            )
            yield stacks_violation(self.code, message, list_citation(change), [stack])


@dataclass(frozen=True)
class RestrictedCards:
    """At most 1 copy, over both decks, of a card restricted on the day (DCG lists by date).

    What: adds the copies of a restricted card number in every section, with those of
    any printing "also treated as" that number (RB1-004 counts as P-009).
    Why: "restricted to 1" limits the whole deck, all printings together.
    Example: 4 BT2-047 in a deck dated 2021-05-01 get `restricted`.
    """

    rule: str = LIST_SOURCE
    code: str = "restricted"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        groups = set()
        for key, group, change in _shared(deck, ctx, RESTRICTED):
            groups.add(key)
            total = sum(s.count for s in group)
            if total <= 1:
                continue
            message = (
                f"Card number {shared_number(group)} is restricted to 1 copy over both decks"
                f"{_since(change)}, and a printing treated as {shared_number(group)} counts as it: "
                f"you have {total} ({_group_words(group)}). Remove {copies(total - 1)}."
            )
            yield stacks_violation(self.code, message, list_citation(change), group)
        for stack, change in _limited(deck, ctx, RESTRICTED):
            if _is_shared(stack, groups) or stack.count <= 1:
                continue
            message = (
                f"{stack.card.label} is restricted to 1 copy over both decks{_since(change)}, "
                f"and you have {stack.count} ({where(deck, stack.card.number)}). "
                f"Remove {copies(stack.count - 1)}."
            )
            yield stacks_violation(self.code, message, list_citation(change), [stack])
