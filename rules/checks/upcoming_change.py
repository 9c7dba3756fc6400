from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from rules.checks.choice_restriction import ChoiceRestrictionCheck
from rules.checks.limited_cards import LIST_SOURCE, BannedCards, RestrictedCards
from rules.model import Context, Deck, Violation

_LIST_CHECKS = (BannedCards(), RestrictedCards(), ChoiceRestrictionCheck())


def _list_violations(deck: Deck, ctx: Context) -> list[Violation]:
    return [v for check in _LIST_CHECKS for v in check.check(deck, ctx)]


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
        days = ctx.lists.upcoming(ctx.on) if ctx.lists is not None else []
        if not days:
            return
        now = {(v.code, v.cards) for v in _list_violations(deck, ctx)}
        for day in days:
            for later in _list_violations(deck, Context(day, ctx.lists)):
                if (later.code, later.cards) in now:
                    continue
                message = f"From {day}: {later.message} (announced, not yet in force)."
                yield replace(later, code=self.code, message=message, warning=True)
