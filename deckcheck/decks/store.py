"""Saved decks in the server's database (SQLite or PostgreSQL, deckcheck.server.database:
its connections, durability and timeouts; a write returns only once committed).

Every rule about who may change a deck (its token) is checked inside the transaction
that changes it, after its row is locked (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on
SQLite): two requests can never both pass a check only one of them should. The store's
parts: the verdicts of today and feeds (judged_store.py), the worlds and the background
pass (pass_store.py), the collections (collection_store.py, `DeckStore.collections`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from deckcheck.decks.collection_store import CollectionStore
from deckcheck.decks.judged_store import FeedEntry, JudgedWrites, Stored
from deckcheck.decks.pass_store import Part, PassReads
from deckcheck.server.database import Database
from deckcheck.server.owners import Right, may_change
from deckcheck.server.packing import pack
from deckcheck.server.tables.decks import deck_cards, deck_feed, deck_versions, decks
from deckcheck.server.tokens import now_utc, token_hash
from rules.verdict import verdict_of

# The deck's columns a read needs: everything but nothing long besides today's verdict.
_DECK = select(decks).where(decks.c.id == bindparam("d_id"))
_LOCK = select(decks.c.edit_hash, decks.c.owner, decks.c.version).where(
    decks.c.id == bindparam("d_id")
)
_VERSION = select(deck_versions).where(
    deck_versions.c.deck_id == bindparam("d_id"), deck_versions.c.version == bindparam("v")
)


class BadToken(Exception):
    """The request proves no right to change this deck (or collection)."""


@dataclass(frozen=True)
class SavedList:
    """One version of a deck, judged, ready to store."""

    entry: dict  # what the player sent: {"decklist": text} or {"deck": {...}}
    structured: dict  # what it was read as (deckcheck.decks.judging.structured_of)
    numbers: frozenset[str]  # the card numbers it holds (deck_cards)
    has_unknown: bool
    fingerprint: str
    legal: bool
    verdict: dict  # {"violations", "warnings"[, "unresolved"]} as saved
    judged: dict  # today's view: verdict + "legal" + "deck" (sections)
    world: str


@cache
def _insert(dialect: str):
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


# A deck's lookup line (decks/core.summary): the lookup's and an account's list's columns.
SUMMARY_COLUMNS = (
    decks.c.id,
    decks.c.name,
    decks.c.format,
    decks.c.judged_legal,
    decks.c.judged,  # its violations: a deck not legal is illegal or unconfirmed
    decks.c.verdict,
    decks.c.judged_changed,
    decks.c.updated_at,
    decks.c.judged_world,
    decks.c.version,
)


class DeckStore(JudgedWrites, PassReads):
    """Each method is one transaction."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writer = database.writer
        self._insert = _insert(self.engine.dialect.name)
        # Worlds this process has stored (deck_worlds): each written once, not per save.
        self.kept: set[str] = set()
        # The collections, on the same database (deckcheck.decks.collection_store).
        self.collections = CollectionStore(database, self._insert)

    # -- decks ----------------------------------------------------------------

    def create(
        self,
        name: str,
        format_id: str,
        notes: str,
        saved: SavedList,
        client: str,
        owner: str | None = None,
    ) -> tuple[dict, str]:
        """A new deck at version 1 (owned by `owner`, an account, if given), and its edit
        token (only the hash is stored)."""
        token = secrets.token_urlsafe(24)
        when = now_utc()
        row = {
            "id": secrets.token_urlsafe(9),
            "name": name,
            "format": format_id,
            "notes": notes,
            "edit_hash": token_hash(token),
            "version": 1,
            "created_at": when,
            "updated_at": when,
            "client": client,
            "owner": owner,
            **_verdict_columns(saved),
        }
        with self._writer.begin() as conn:
            conn.execute(decks.insert(), row)
            self._add_version(conn, row["id"], 1, saved, when)
        return row, token

    def replace(
        self, deck_id: str, proof: Right, saved: SavedList, kept: int, **fields: str
    ) -> dict | None:
        """A new version (and maybe a new name or notes), keeping the newest `kept`
        versions (older ones are deleted with it); None: no such deck; BadToken."""
        when = now_utc()
        with self._writer.begin() as conn:
            found = conn.execute(_LOCK.with_for_update(), {"d_id": deck_id}).first()
            if found is None:
                return None
            if not may_change(found.edit_hash, found.owner, proof):
                raise BadToken(deck_id)
            version = found.version + 1
            values = {**fields, "version": version, "updated_at": when, **_verdict_columns(saved)}
            conn.execute(decks.update().where(decks.c.id == deck_id).values(**values))
            conn.execute(deck_cards.delete().where(deck_cards.c.deck_id == deck_id))
            self._add_version(conn, deck_id, version, saved, when)
            conn.execute(
                deck_versions.delete().where(
                    deck_versions.c.deck_id == deck_id, deck_versions.c.version <= version - kept
                )
            )
            return dict(conn.execute(_DECK, {"d_id": deck_id}).one()._mapping)

    @staticmethod
    def _add_version(conn: Connection, deck_id: str, version: int, saved: SavedList, when: str):
        conn.execute(
            deck_versions.insert(),
            {
                "deck_id": deck_id,
                "version": version,
                "entry": json.dumps(saved.entry, separators=(",", ":")),
                "structured": pack(saved.structured),
                "fingerprint": saved.fingerprint,
                "legal": saved.legal,
                "verdict": verdict_of(saved.verdict["violations"]),
                "saved_at": when,
            },
        )
        if saved.numbers:
            conn.execute(
                deck_cards.insert(), [{"deck_id": deck_id, "number": n} for n in saved.numbers]
            )

    def delete(self, deck_id: str, proof: Right) -> bool:
        """False: no such deck; BadToken: the request may not change it."""
        with self._writer.begin() as conn:
            found = conn.execute(_LOCK.with_for_update(), {"d_id": deck_id}).first()
            if found is None:
                return False
            if not may_change(found.edit_hash, found.owner, proof):
                raise BadToken(deck_id)
            _delete_decks(conn, [deck_id])
        return True

    def deck(self, deck_id: str) -> dict | None:
        with self.engine.begin() as conn:
            found = conn.execute(_DECK, {"d_id": deck_id}).first()
        return dict(found._mapping) if found is not None else None

    def version(self, deck_id: str, version: int) -> dict | None:
        with self.engine.begin() as conn:
            found = conn.execute(_VERSION, {"d_id": deck_id, "v": version}).first()
        return dict(found._mapping) if found is not None else None

    def versions(
        self, deck_id: str, after: int = 0, limit: int | None = None, newest: int | None = None
    ) -> list[dict]:
        """The versions after number `after`, oldest first, at most `limit`; with
        `newest`, the newest that many, newest first (the deck page's list)."""
        query = select(
            deck_versions.c.version,
            deck_versions.c.saved_at,
            deck_versions.c.fingerprint,
            deck_versions.c.legal,
            deck_versions.c.verdict,
        ).where(deck_versions.c.deck_id == deck_id, deck_versions.c.version > after)
        if newest is not None:
            query = query.order_by(deck_versions.c.version.desc()).limit(newest)
        else:
            query = query.order_by(deck_versions.c.version)
            if limit is not None:
                query = query.limit(limit)
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def summaries(self, ids: Sequence[str]) -> list[dict]:
        """The lookup's columns of these decks (no list)."""
        query = select(*SUMMARY_COLUMNS).where(decks.c.id.in_(list(ids)))
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- judged again ---------------------------------------------------------


def _delete_decks(conn: Connection, ids: list[str]) -> None:
    for table in (deck_feed, deck_cards, deck_versions):
        conn.execute(table.delete().where(table.c.deck_id.in_(ids)))
    conn.execute(decks.delete().where(decks.c.id.in_(ids)))


def _verdict_columns(saved: SavedList) -> dict:
    return {
        "has_unknown": saved.has_unknown,
        "fingerprint": saved.fingerprint,
        "legal": saved.legal,
        "verdict": pack(saved.verdict),
        "judged_world": saved.world,
        "judged": pack(saved.judged),
        "judged_legal": saved.judged["legal"],
        "judged_changed": False,
    }


__all__ = ["BadToken", "DeckStore", "FeedEntry", "Part", "SavedList", "Stored"]
