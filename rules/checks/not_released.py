from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.checks.words import labels
from rules.model import Context, Deck, Stack, Violation
from rules.releases import Product, Releases, dcg_releases

RELEASE_SOURCE = (
    "A card can be played once its product is out: English release dates from "
    "world.digimoncard.com/products (deckcheck's release list)"
)
# A message names at most this many cards of one product; `cards` lists them all.
_NAMED = 8


@dataclass(frozen=True)
class NotReleased:
    """No card that came out (in English) after the day the deck is checked for.

    What: looks up each card's first product (its set, or its promo pack) in the
    shipped release dates and compares that day with the check date; the cards of one
    product make one violation.
    Why: a deck checked "as of" a past event may only hold cards that existed then;
    without this, a 2022 check calls a deck of 2024 cards legal.
    A card whose release is not known (LM packs, unlisted promos) is not judged.
    Example: BT18-001 in a deck checked as of 2022-01-01 gets `not-released`
    ("BT18-001 came out on 2024-11-01").
    """

    rule: str = RELEASE_SOURCE
    releases: Releases = field(default_factory=dcg_releases)
    code: str = "not-released"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if ctx.on >= self.releases.newest:
            return  # every product is out by then (a check for today, most often)
        late: dict[Product, list[Stack]] = {}
        for stack in deck.totals:
            product = self.releases.of_card(stack.card.number)
            if product is not None and product.released > ctx.on:
                late.setdefault(product, []).append(stack)
        for product, stacks in sorted(late.items(), key=lambda item: item[0].released):
            yield self._violation(product, stacks, ctx)

    def _violation(self, product: Product, stacks: list[Stack], ctx: Context) -> Violation:
        shown = labels([s.card for s in stacks[:_NAMED]])
        if len(stacks) > _NAMED:
            shown += f" and {len(stacks) - _NAMED} more cards"
        one = len(stacks) == 1
        return Violation(
            self.code,
            f"{shown} came out on {product.released} ({product.name}); this deck is checked "
            f"as of {ctx.on}, before {'that card' if one else 'those cards'} existed. "
            f"Remove {'it' if one else 'them'}, or check the deck for a later date.",
            self.rule,
            cards=tuple(s.card.number for s in stacks),
            line=stacks[0].line,
        )
