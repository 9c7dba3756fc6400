from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.model import Context, Deck, Violation
from rules.releases import Releases, dcg_releases

RELEASE_SOURCE = (
    "A card can be played once its product is out: English release dates from "
    "world.digimoncard.com/products (deckcheck's release list)"
)


@dataclass(frozen=True)
class NotReleased:
    """No card that came out (in English) after the day the deck is checked for.

    What: looks up each card's first product (its set, or its promo pack) in the
    shipped release dates and compares that day with the check date.
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
        for stack in deck.totals:
            product = self.releases.of_card(stack.card.number)
            if product is None or product.released <= ctx.on:
                continue
            yield Violation(
                self.code,
                f"{stack.card.label} came out on {product.released} ({product.name}); "
                f"this deck is checked as of {ctx.on}, before that card existed. "
                f"Remove it, or check the deck for a later date.",
                self.rule,
                cards=(stack.card.number,),
                line=stack.line,
            )
