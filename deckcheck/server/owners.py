"""Who may change a stored deck or collection: whoever holds its edit token, or the
session of the account that owns it. This is the one module the decks and collections
ask (who is signed in, which right a request brings, whether it may change a row: the
last inside the transaction that changes the row, after it is locked).

Deleting an account hands its things back or deletes them: each product registers how
(`on_release`), so the accounts code never reaches into another product's tables.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass

from flask import current_app

from deckcheck.server import sessions
from deckcheck.server.tokens import token_matches


@dataclass(frozen=True)
class Right:
    """What a request brings to prove it may change something."""

    token: str | None = None
    account: str | None = None


def account() -> str | None:
    """The account of this request's session, if it has one."""
    return sessions.account_id()


def signed_in() -> str:
    """The account of this request's session, or a 401 `not-signed-in`."""
    return sessions.required().account_id


def right(token: str | None) -> Right:
    """The request's right: its bearer token and the account of its session."""
    return Right(token, sessions.account_id())


def may_change(edit_hash: str | None, owner: str | None, proof: Right) -> bool:
    """The edit token matches (constant time), or the request's account owns the row."""
    if token_matches(edit_hash, proof.token):
        return True
    if not owner or not proof.account:
        return False
    return hmac.compare_digest(owner.encode(), proof.account.encode())


# A product's release: (account id, keep) -> what it hands back, e.g. {"decks": [...]}.
Release = Callable[[str, bool], dict]


def on_release(app, release: Release) -> None:
    app.extensions.setdefault("deckcheck.releases", []).append(release)


def release_all(account: str, keep: bool) -> dict:
    """Every product's things of `account`: deleted, or (keep) handed back as token-owned
    things; their new tokens by product."""
    handed: dict = {}
    for release in current_app.extensions.get("deckcheck.releases", []):
        handed.update(release(account, keep))
    return handed
