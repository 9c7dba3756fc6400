from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.filters import CardFilter
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class RequiredCard:
    """The main deck must hold at least one card matching `cards`.

    What: looks for one matching card anywhere in the main deck.
    Why: a game has to start with something (Digi-Battle: a Rookie; DMCG: a Level III).
    Example: a Digi-Battle deck of Champions only gets `required-card`.
    """

    rule: str
    cards: CardFilter
    code: str = "required-card"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if any(self.cards.matches(s.card) for s in deck.stacks("main")):
            return
        message = (
            f"Your deck has no {self.cards.label}, and it needs at least one to start the game. "
            f"Add one."
        )
        yield Violation(self.code, message, self.rule, section="main")
