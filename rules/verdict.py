"""The three-way verdict of a report: `legal`, `illegal` or `unconfirmed`.

Contract, "Verdicts deckcheck cannot confirm": `unconfirmed` when there is at least one
violation and every one is an `unknown-card` of an unconfirmed card (a number of a known
product whose facts the card list does not hold yet). `legal` keeps its meaning: true
exactly when there are no violations, so an unconfirmed deck is never `legal`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LEGAL = "legal"
ILLEGAL = "illegal"
UNCONFIRMED = "unconfirmed"
VERDICTS = (LEGAL, ILLEGAL, UNCONFIRMED)


def is_unconfirmed(violation: Any) -> bool:
    """True for an `unknown-card` of a known product (a Violation or its JSON dict)."""
    if isinstance(violation, Mapping):
        return violation.get("code") == "unknown-card" and bool(violation.get("product"))
    return violation.code == "unknown-card" and bool(violation.product)


def verdict_of(violations: Iterable[Any]) -> str:
    """`legal`, `illegal` or `unconfirmed` for a report's violations (warnings excluded)."""
    seen = False
    for violation in violations:
        seen = True
        if not is_unconfirmed(violation):
            return ILLEGAL
    return UNCONFIRMED if seen else LEGAL
