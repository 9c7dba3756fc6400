from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.filters import CardFilter
from rules.checks.words import cards, labels
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class KindTotalLimit:
    """At most `limit` cards matching `cards` in the main deck, all numbers together.

    What: adds up every matching card (DBE: 1 Ace, 3 Firewalls, 2 DATA cards).
    Why: some DBE kinds are limited per deck as well as per card number.
    Example: two different Aces get `kind-total-limit`.
    """

    rule: str
    cards: CardFilter
    limit: int
    code: str = "kind-total-limit"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        stacks = [s for s in deck.stacks("main") if self.cards.matches(s.card)]
        total = sum(s.count for s in stacks)
        if total <= self.limit:
            return
        message = (
            f"Your deck has {cards(total)} that are {self.cards.label} "
            f"({labels([s.card for s in stacks])}), but a deck may have at most {self.limit}. "
            f"Remove {cards(total - self.limit)}."
        )
        yield Violation(
            self.code,
            message,
            self.rule,
            section="main",
            cards=tuple(s.card.number for s in stacks),
            line=min((s.line for s in stacks if s.line), default=None),
        )
