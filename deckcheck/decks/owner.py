"""Who may change a collection: the ONE check, asked inside the transaction that changes
it (after its row is locked), so that a new kind of proof is added here only.

Today a proof is the collection's edit token (`Authorization: Bearer`); accounts add
"or the session of the account that owns it" (contract "Accounts").
"""

from __future__ import annotations

from dataclasses import dataclass

from deckcheck.errors import ApiError
from deckcheck.events.store import token_matches


@dataclass(frozen=True)
class Proof:
    """What a request shows to change a collection."""

    token: str | None


def proof() -> Proof:
    """The proof the current request carries."""
    from deckcheck.events import core as events_core

    return Proof(token=events_core.bearer_token())


def allows(row: dict, shown: Proof) -> bool:
    """True when `shown` proves the right to change the collection `row` (compared in
    constant time against the stored hash)."""
    return token_matches(row.get("edit_hash"), shown.token)


def refused() -> ApiError:
    return ApiError(
        403,
        "bad-token",
        "This needs the collection's edit token: send Authorization: Bearer <token> (it is "
        'in the answer you got when you saved the collection, and in "Export my decks").',
    )
