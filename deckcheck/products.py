"""`GET /api/v1/formats/dcg/products`: every DCG product deckcheck knows, by its date.

Contract, "Verdicts deckcheck cannot confirm, and products by their dates": each product
with its English day (null when not known), whether that day is only announced, what it
rests on, its source, the numbers it holds and how many of them the card list holds.
"""

from __future__ import annotations

from collections import Counter

from rules.pool import CardIndex
from rules.products import Products, dcg_products

# The counts for the last index asked: one pass over the pool per card list, not per request.
_KNOWN: list[tuple[CardIndex, Counter[str]]] = []


def cards_known(index: CardIndex, products: Products) -> Counter[str]:
    """How many cards of each product the card list holds."""
    if _KNOWN and _KNOWN[0][0] is index:
        return _KNOWN[0][1]
    counts: Counter[str] = Counter()
    for number in index.cards:
        product = products.of_number(number)
        if product is not None:
            counts[product.code] += 1
    _KNOWN[:] = [(index, counts)]
    return counts


def products_json(index: CardIndex) -> dict:
    products = dcg_products()
    known = cards_known(index, products)
    return {
        "data": [
            {
                "code": p.code,
                "name": p.name,
                "label": p.label,
                "released": p.released.isoformat() if p.released else None,
                "announced": p.announced,
                "rests_on": p.rests_on,
                "when": p.when(),
                "source": p.source,
                "numbers": list(p.numbers),
                "cards_known": known.get(p.code, 0),
            }
            for p in products.items
        ]
    }
