"""Deck lock: the one comparison of a registered list with the deck at the table.

Both deck checks (`/deck-check` and an event organizer's check against a stored list)
ask `compare_decks`, so they call the same decks the same and say it in the same words.
A deck is "the same" only when every card and section agree (the fingerprint) and no
line of either list went unread: a line that named no card is outside the fingerprint,
so an extra `2 Notacardmon Zzz` at the table must never pass as the same deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.fingerprint import fingerprint
from rules.model import Card, Deck, Unresolved

# The verdicts in the words both pages show (`Comparison.headline`).
HEADLINES = {
    "same": "✔ Same deck",
    "same-cards": "? Same cards where deckcheck could read them",
    "differ": "✘ The decks differ",
}
UNREAD_NOTE = (
    "Some lines named no card, so the fingerprint does not cover them: compare those lines by hand."
)


@dataclass(frozen=True)
class Difference:
    section: str
    card: Card
    registered: int
    presented: int

    @property
    def change(self) -> int:
        return self.presented - self.registered


@dataclass(frozen=True)
class Comparison:
    """What changed between two resolved lists of one game, and the verdict on it."""

    differences: tuple[Difference, ...]
    registered_unread: tuple[Unresolved, ...]
    presented_unread: tuple[Unresolved, ...]
    same_cards: bool  # the fingerprints agree: every card, count, section and partner

    @property
    def same(self) -> bool:
        return self.same_cards and not (self.registered_unread or self.presented_unread)

    @property
    def verdict(self) -> str:
        """`same`, `same-cards` (the readable cards agree, some lines went unread), `differ`."""
        if self.same:
            return "same"
        return "same-cards" if self.same_cards else "differ"

    @property
    def headline(self) -> str:
        return HEADLINES[self.verdict]

    @property
    def note(self) -> str | None:
        return UNREAD_NOTE if self.verdict == "same-cards" else None


def compare_decks(registered: Deck, presented: Deck) -> Comparison:
    """The one comparison both deck checks use (see the module's docstring)."""
    return Comparison(
        differences=tuple(compare(registered, presented)),
        registered_unread=registered.unresolved,
        presented_unread=presented.unresolved,
        same_cards=fingerprint(registered) == fingerprint(presented),
    )


def compare(registered: Deck, presented: Deck) -> list[Difference]:
    """Every card number whose count differs in some section, in section and number order
    (a partner counts as one card in a section of its own, `partner`)."""
    counts: dict[tuple[str, str], list] = {}
    for which, deck in enumerate((registered, presented)):
        for section, stacks in _sections(deck):
            for card, count in stacks:
                slot = counts.setdefault((section, card.number), [card, 0, 0])
                slot[1 + which] += count
    return [
        Difference(section, card, before, after)
        for (section, _), (card, before, after) in sorted(counts.items())
        if before != after
    ]


def _sections(deck: Deck) -> Iterator[tuple[str, Iterable[tuple[Card, int]]]]:
    for section in deck.sections():
        yield section, ((stack.card, stack.count) for stack in deck.stacks(section))
    if deck.partner is not None:
        yield "partner", ((deck.partner, 1),)
