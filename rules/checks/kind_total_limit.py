from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.filters import CardFilter
from rules.checks.words import cards, first_line, labels
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class KindTotalLimit:
    """At most `limit` cards matching `cards` in the deck, all numbers together.

    What: adds up every matching card of `sections` (DBE: 1 Ace, 3 Firewalls, 2 DATA
    cards "per deck": the main deck and the Destiny Zone together). Copies of one card
    alone are left to `copy-limit` unless `one_card` is set: in DBE a kind's total is
    also each such card's own copy limit, so two copies of one Ace break one rule, and
    one problem says so (contract: never the same problem twice).
    Why: some DBE kinds are limited per deck as well as per card number, and DMCG's
    Ultimate Battle regulation limits Ultimate-level Digimon (`level-total-limit`).
    Example: two different Aces get `kind-total-limit`; two copies of one Ace, `copy-limit`.
    """

    rule: str
    cards: CardFilter
    limit: int
    sections: tuple[str, ...] = ("main", "destiny")
    distinct: bool = False
    one_card: bool = False
    code: str = "kind-total-limit"
    # The sections in the player's words, for the message.
    where: str = "deck (main deck and Destiny Zone)"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        stacks = [
            s
            for section in self.sections
            for s in deck.stacks(section)
            if self.cards.matches(s.card)
        ]
        total = (
            len({s.card.number for s in stacks}) if self.distinct else sum(s.count for s in stacks)
        )
        unique = list({s.card.number: s.card for s in stacks}.values())
        if total <= self.limit or (len(unique) == 1 and not self.one_card):
            return
        what = f"{total} different" if self.distinct else f"{cards(total)} that are"
        message = (
            f"Your {self.where} has {what} {self.cards.label} "
            f"({labels(unique)}), but a deck may have at most {self.limit}. "
            f"Remove {total - self.limit}."
        )
        yield Violation(
            self.code,
            message,
            self.rule,
            section=None,
            cards=tuple(dict.fromkeys(s.card.number for s in stacks)),
            line=first_line(stacks),
        )
