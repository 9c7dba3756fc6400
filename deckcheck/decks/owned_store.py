"""The decks and collections of an account, in the events database: listing them,
claiming token decks for it, its feed, and handing them back when it is deleted.

Like every change in deckcheck.decks.store, a claim checks its right (the edit token)
inside the transaction that changes the row, after locking it.
"""

from __future__ import annotations

import secrets

from sqlalchemy import select

from deckcheck.decks.store import SUMMARY_COLUMNS, DeckStore, _delete_decks
from deckcheck.server.tables.decks import (
    collection_cards,
    collection_changes,
    collections,
    deck_feed,
    decks,
)
from deckcheck.server.tokens import token_hash, token_matches


def owned_decks(store: DeckStore, account: str) -> list[dict]:
    """The lookup's columns of the account's decks, the newest change first."""
    query = (
        select(*SUMMARY_COLUMNS).where(decks.c.owner == account).order_by(decks.c.updated_at.desc())
    )
    with store.engine.begin() as conn:
        return [dict(r._mapping) for r in conn.execute(query)]


def owned_collections(store: DeckStore, account: str) -> list[dict]:
    query = (
        select(collections)
        .where(collections.c.owner == account)
        .order_by(collections.c.updated_at.desc())
    )
    with store.engine.begin() as conn:
        return [dict(r._mapping) for r in conn.execute(query)]


def claim(store: DeckStore, table, item_id: str, token: str | None, account: str) -> str | None:
    """Make a token-owned deck (or collection) the account's; None when claimed, else
    why not: `not-found`, `bad-token`, `owned` (another account has it)."""
    with store._writer.begin() as conn:
        found = conn.execute(
            select(table.c.edit_hash, table.c.owner).where(table.c.id == item_id).with_for_update()
        ).first()
        if found is None:
            return "not-found"
        if not token_matches(found.edit_hash, token):
            return "bad-token"
        if found.owner not in (None, account):
            return "owned"
        conn.execute(table.update().where(table.c.id == item_id).values(owner=account))
    return None


def release(store: DeckStore, account: str, keep: bool) -> dict:
    """The account's decks and collections deleted, or (keep) handed back with a new
    edit token each: {"decks": [{"id", "edit_token"}], "collections": [...]}."""
    handed: dict[str, list[dict]] = {"decks": [], "collections": []}
    with store._writer.begin() as conn:
        for name, table in (("decks", decks), ("collections", collections)):
            ids = list(
                conn.execute(
                    select(table.c.id).where(table.c.owner == account).with_for_update()
                ).scalars()
            )
            if not keep and table is decks:
                _delete_decks(conn, ids)
            elif not keep:
                # A collection's cards and changes are rows of their own (no foreign key
                # deletes them with it).
                for rows in (collection_cards, collection_changes):
                    conn.execute(rows.delete().where(rows.c.collection_id.in_(ids)))
                conn.execute(table.delete().where(table.c.id.in_(ids)))
            for item_id in ids if keep else ():
                token = secrets.token_urlsafe(24)
                conn.execute(
                    table.update()
                    .where(table.c.id == item_id)
                    .values(owner=None, edit_hash=token_hash(token))
                )
                handed[name].append({"id": item_id, "edit_token": token})
    return handed if keep else {}


def account_feed(store: DeckStore, account: str, limit: int) -> list[dict]:
    """The newest feed entries of all the account's decks, with each deck's name."""
    query = (
        select(deck_feed, decks.c.name)
        .join(decks, decks.c.id == deck_feed.c.deck_id)
        .where(decks.c.owner == account)
        .order_by(deck_feed.c.at.desc(), deck_feed.c.change)
        .limit(limit)
    )
    with store.engine.begin() as conn:
        return [dict(r._mapping) for r in conn.execute(query)]
