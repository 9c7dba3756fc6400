from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from rules.checks.choice_restriction import ChoiceRestrictionCheck
from rules.checks.limited_cards import LIST_SOURCE, BannedCards, RestrictedCards
from rules.checks.words import copies
from rules.model import Context, Deck, Stack, Violation

_LIST_CHECKS = (BannedCards(), RestrictedCards(), ChoiceRestrictionCheck())


def _list_violations(deck: Deck, ctx: Context) -> list[Violation]:
    return [v for check in _LIST_CHECKS for v in check.check(deck, ctx)]


def _future(found: Violation, day: date, stacks: dict[str, Stack]) -> str:
    """The change in the future tense: `From 2026-04-04, X will be restricted ...`."""
    stack = stacks.get(found.cards[0]) if found.cards else None
    label = stack.card.label if stack else ", ".join(found.cards)
    have = stack.count if stack else 0
    doubt = " (a date deckcheck is not certain of)" if "confidence)" in found.rule else ""
    start = f"From {day}{doubt},"
    if found.code == "banned":
        return (
            f"{start} {label} will be banned; you have {copies(have)}. "
            f"(Announced, not yet in force.)"
        )
    if found.code == "restricted":
        return (
            f"{start} {label} will be restricted to 1 copy; you have {have}. "
            f"(Announced, not yet in force.)"
        )
    return f"{start} this will apply: {found.message} (Announced, not yet in force.)"


@dataclass(frozen=True)
class UpcomingChange:
    """Warn about list changes already announced but not yet in force (never illegal).

    What: for each announced change taking effect after the day, checks the deck
    against the lists of that later day and warns about what it would newly break.
    Why: a player registering today for an event next month needs to know.
    Example: 4 BT3-092 on 2026-03-20 warn that it is restricted to 1 from 2026-04-04.
    """

    rule: str = LIST_SOURCE
    code: str = "upcoming-change"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        days = ctx.lists.upcoming(ctx.on) if ctx.lists is not None else ()
        if not days:
            return
        seen = {(v.code, v.cards) for v in _list_violations(deck, ctx)}
        stacks = {s.card.number: s for s in deck.totals}
        for day in days:
            for later in _list_violations(deck, Context(day, ctx.lists)):
                if (later.code, later.cards) in seen:
                    continue
                # Once per card and kind of change: a later list that repeats it adds nothing.
                seen.add((later.code, later.cards))
                message = _future(later, day, stacks)
                yield later._replace(code=self.code, message=message, warning=True)
