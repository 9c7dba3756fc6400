"""Who may change a collection: the ONE check, asked inside the transaction that changes
it (after its row is locked). A proof is the collection's edit token (`Authorization:
Bearer`) or the session of the account that owns it (contract "Accounts"): both are
weighed by the server layer (deckcheck.server.owners), as for decks.
"""

from __future__ import annotations

from deckcheck.errors import ApiError
from deckcheck.server import http, owners
from deckcheck.server.owners import Right as Proof

__all__ = ["Proof", "allows", "proof", "refused"]


def proof() -> Proof:
    """The proof the current request carries: its bearer token and its account."""
    return owners.right(http.bearer_token())


def allows(row: dict, shown: Proof) -> bool:
    """True when `shown` proves the right to change the collection `row` (the token
    compared in constant time against the stored hash, or the owning account)."""
    return owners.may_change(row.get("edit_hash"), row.get("owner"), shown)


def refused() -> ApiError:
    return ApiError(
        403,
        "bad-token",
        "This needs the collection's edit token: send Authorization: Bearer <token> (it is "
        'in the answer you got when you saved the collection, and in "Export my decks"), '
        "or the account that owns it signed in.",
    )
