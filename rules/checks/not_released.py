from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.checks.words import labels
from rules.model import Context, Deck, Stack, Violation
from rules.releases import Product, Releases, dcg_releases
from rules.sets import set_of

RELEASE_SOURCE = (
    "A card can be played once its product is out: English release dates from "
    "world.digimoncard.com/products (deckcheck's release list)"
)
# A message names at most this many cards of one product; `cards` lists them all.
_NAMED = 8


@dataclass(frozen=True)
class NotReleased:
    """No card that came out (in English) after the day the deck is checked for.

    What: looks up each card's first day (its set, the product that held it, or its
    promo: the earliest real tournament list that used it, or its pack's day) in the
    shipped release dates and compares that day with the check date; the cards of one
    product make one violation. A day that is only a guess (most promo packs: the day a
    product reprinted the card) makes the warning `release-unverified` instead.
    Why: a deck checked "as of" a past event may only hold cards that existed then;
    without this, a 2022 check calls a deck of 2024 cards legal. A guess is not a fact:
    it may not make a real deck illegal.
    A card whose release is not known (LM packs, unlisted promos) is not judged.
    Example: BT18-001 in a deck checked as of 2022-01-01 gets `not-released`
    ("BT18-001 came out on 2024-11-01").
    """

    rule: str = RELEASE_SOURCE
    releases: Releases = field(default_factory=dcg_releases)
    code: str = "not-released"
    unsure: str = "release-unverified"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if ctx.on >= self.releases.newest:
            return  # every product is out by then (a check for today, most often)
        late: dict[Product, list[Stack]] = {}
        for stack in deck.totals:
            product = self.releases.of_card(stack.card.number)
            if (
                product is not None
                and product.released > ctx.on
                and not _early(stack, product, ctx)
            ):
                late.setdefault(product, []).append(stack)
        for product, stacks in sorted(late.items(), key=lambda item: item[0].released):
            yield self._violation(product, stacks, ctx)

    def _violation(self, product: Product, stacks: list[Stack], ctx: Context) -> Violation:
        shown = labels([s.card for s in stacks[:_NAMED]])
        if len(stacks) > _NAMED:
            shown += f" and {len(stacks) - _NAMED} more cards"
        one = len(stacks) == 1
        it, they = ("it", "that card") if one else ("them", "those cards")
        if not product.verified:
            message = (
                f"{shown} may not have been out yet on {ctx.on}. deckcheck dates "
                f"{it} {product.released} ({product.name}), but that date is not sure: "
                f"{product.note}. If {they} came out after {ctx.on}, this deck cannot "
                f"use {it}."
            )
            return self._found(self.unsure, message, stacks, warning=True)
        if product.rests_on == "event":  # a real list shows it was out, not since when
            when = f"{'was' if one else 'were'} first played on {product.released}"
            before = f"the first day deckcheck knows {they} {'was' if one else 'were'} out"
        elif product.rests_on == "announced":  # the day a product is announced for
            when, before = f"{'comes' if one else 'come'} out on {product.released}", "then"
        else:
            when, before = f"came out on {product.released}", f"{they} existed"
        message = (
            f"{shown} {when} ({product.name}); this deck is checked as of {ctx.on}, "
            f"before {before}. Remove {it}, or check the deck for a later date."
        )
        return self._found(self.code, message, stacks)

    def _found(
        self, code: str, message: str, stacks: list[Stack], warning: bool = False
    ) -> Violation:
        cards = tuple(s.card.number for s in stacks)
        return Violation(
            code, message, self.rule, cards=cards, line=stacks[0].line, warning=warning
        )


def _early(stack: Stack, product: Product, ctx: Context) -> bool:
    """Is the card's product legal early in this format (a pre-release event)? A card of
    a set counts by its set's code too, whatever product first held it."""
    if not ctx.early:
        return False
    found = set_of(stack.card.number)
    return product.code in ctx.early or (found is not None and found.code in ctx.early)
