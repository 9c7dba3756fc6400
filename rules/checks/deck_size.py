from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import cards
from rules.model import Context, Deck, Violation, unread_words


@dataclass(frozen=True)
class DeckSize:
    """The cards in `sections` must add up to `exact` (or lie within `minimum`..`maximum`).

    What: counts the cards of the named sections together.
    Why: every format fixes its deck size (DCG 50 + 0-5 eggs, Digi-Battle and DMCG 30,
    DBE 50 with the Destiny Zone).
    Example: a DCG main deck of 49 cards gets `deck-size`.
    """

    rule: str
    sections: tuple[str, ...] = ("main",)
    exact: int | None = None
    minimum: int | None = None
    maximum: int | None = None
    what: str = "main deck"
    code: str = "deck-size"
    counts_unread: bool = True

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        size = deck.size(*self.sections)
        low = self.exact if self.exact is not None else self.minimum
        high = self.exact if self.exact is not None else self.maximum
        if low is not None and size < low:
            need = f"exactly {cards(low)}" if self.exact is not None else f"at least {cards(low)}"
            fix = f"Add {cards(low - size)}."
        elif high is not None and size > high:
            need = f"exactly {cards(high)}" if self.exact is not None else f"at most {cards(high)}"
            fix = f"Remove {cards(size - high)}."
        else:
            return
        unread = unread_words(deck.unresolved) if self.counts_unread else None
        if unread:
            # Follows from the unread lines: say so rather than give a count that lies.
            message = (
                f"Your {self.what} has {cards(size)} that deckcheck could read, and {unread} "
                f"that it could not. It must have {need}: fix the unread lines first, then "
                f"check the total again."
            )
        else:
            message = f"Your {self.what} has {cards(size)}, but it must have {need}. {fix}"
        yield Violation(self.code, message, self.rule, section=self.sections[0])
