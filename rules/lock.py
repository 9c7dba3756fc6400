"""Deck lock: what changed between the registered list and the one at the table."""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Card, Deck


@dataclass(frozen=True)
class Difference:
    section: str
    card: Card
    registered: int
    presented: int

    @property
    def change(self) -> int:
        return self.presented - self.registered


def compare(registered: Deck, presented: Deck) -> list[Difference]:
    """Every card number whose count differs in some section, in section and number order."""
    counts: dict[tuple[str, str], list] = {}
    for which, deck in enumerate((registered, presented)):
        for section in deck.sections():
            for stack in deck.stacks(section):
                slot = counts.setdefault((section, stack.card.number), [stack.card, 0, 0])
                slot[1 + which] += stack.count
    return [
        Difference(section, card, before, after)
        for (section, _), (card, before, after) in sorted(counts.items())
        if before != after
    ]
