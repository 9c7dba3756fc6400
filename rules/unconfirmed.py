"""Cards deckcheck cannot confirm: a number of a known product the card list lacks yet.

Contract, "Verdicts deckcheck cannot confirm": such a number is not a typo. It stays in
the section it was written in as a placeholder card (its canonical number, no name, no
kind: `Card.confirmed` False), counted by number toward the section's size and the
copy limit and written into the fingerprint like any card, so nothing moves when the
list catches up. While its product is out on the check date (or has no known day) it
gets an `unknown-card` violation naming the product and its day, and the report's
verdict is `unconfirmed` when nothing else is wrong; before that day the release
check calls it `not-released`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from rules.games import has_products
from rules.model import Card, Violation
from rules.pool import CardIndex
from rules.products import Product, Products, canonical, dcg_products
from rules.sets import set_of
from rules.verdict import is_unconfirmed

# The kind of a placeholder: no check that reads kinds matches it.
UNKNOWN_KIND = "unconfirmed"
ADVICE = (
    "deckcheck counts it by its number, but cannot check its facts until the card list "
    "holds it: check the card against the official card list, or ask this service's "
    "administrator to add the product (flask cardpool add dcg ...)."
)


def placeholder(
    index: CardIndex, number: str, products: Products | None = None
) -> tuple[Card, Product] | None:
    """The unconfirmed card a DCG number stands for, with its product; None when the
    number belongs to no known product, or to one the list already holds (then an
    unknown number of it is a typo, as before)."""
    if not has_products(index.game) or not len(index):
        return None
    product = (products or dcg_products()).of_number(number)
    if product is None:
        return None
    found = set_of(number)
    if found is not None and found.number is not None and index.newer_set(number) is None:
        return None  # the list holds this set (or a later one of its series)
    card = Card(index.game, canonical(number), "", UNKNOWN_KIND, set=product.code, confirmed=False)
    return card, product


def judged_out(product: Product, on: date, early: frozenset[str] = frozenset()) -> bool:
    """Is the product out on `on` for this check (or legal early in its format)?"""
    return product.code in early or product.out_on(on)


def violation(
    index: CardIndex, card: Card, product: Product, where: str, rule: str, line: int | None
) -> Violation:
    """The `unknown-card` of an unconfirmed card: `hint` newer-set, `product`, `released`."""
    found = set_of(card.number)
    newest = index.newest_set(found.series) if found is not None else None
    held = f"this card list ends at {newest}" if newest else "this card list does not hold it yet"
    day = f" (list updated {index.updated[:10]})" if index.updated else ""
    message = f"{where}: {card.number} is from {product.label}, {product.when()}; {held}{day}. "
    return Violation(
        "unknown-card",
        message + ADVICE,
        rule,
        cards=(card.number,),
        line=line,
        hint="newer-set",
        product=product.code,
        released=product.released.isoformat() if product.released else None,
    )


def summary(violations: Iterable[Any]) -> str | None:
    """ "Can't confirm: EX-13 came out 2026-10-02; this card list ends at EX12", for pages
    and feeds (Violations or their JSON dicts); None when no card is unconfirmed."""
    found = [v for v in violations if is_unconfirmed(v)]
    if not found:
        return None
    products = dcg_products()
    codes = dict.fromkeys(_field(v, "product") for v in found)
    said = [_came(products.by_code[c]) if c in products.by_code else c for c in codes]
    # The message's own words for the list ("this card list ends at EX12").
    held = _field(found[0], "message").partition("; ")[2].partition(" (list")[0]
    return f"Can't confirm: {', '.join(said)}; {held.partition('. ')[0].rstrip('.')}"


def _came(product: Product) -> str:
    if product.released is None:
        month = f" came out in {product.month}" if product.month else " has no English day yet"
        return product.label + month
    verb = "is announced for" if product.announced else "came out"
    return f"{product.label} {verb} {product.released.isoformat()}"


def _field(violation: Any, name: str) -> str:
    if isinstance(violation, Mapping):
        return str(violation.get(name) or "")
    return str(getattr(violation, name) or "")
