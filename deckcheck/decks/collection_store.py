"""Collections in the server's database: one row per card number (`collection_cards`), and
the last changes with the counts each overwrote (`collection_changes`), so that

- an edit writes only the numbers it touches (10 rows for 10 cards, whatever the size);
- every edit can be undone, the last first, up to HISTORY of them;
- who may change a collection is asked of deckcheck.decks.owner inside the transaction,
  after the collection's row is locked (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on
  SQLite): two requests never both pass a check only one of them should.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.engine import Connection

from deckcheck.decks import owner
from deckcheck.decks.collection_views import PLAYSET, set_code
from deckcheck.server.database import Database
from deckcheck.server.packing import pack, unpack
from deckcheck.server.tables.decks import collection_cards, collection_changes, collections
from deckcheck.server.tokens import now_utc, token_hash
from rules.numbers import number_key

HISTORY = 20
MAX_COPIES = 100_000
# Numbers per `IN (...)` list: well under SQLite's bound on variables in one statement.
CHUNK = 500

_ROW = select(collections).where(collections.c.id == bindparam("c_id"))
_CARDS = select(collection_cards.c.number, collection_cards.c.count).where(
    collection_cards.c.collection_id == bindparam("c_id")
)


class BadProof(Exception):
    """The request proves no right to change this collection."""


class NothingToUndo(Exception):
    """The collection has no change left to undo."""


@dataclass(frozen=True)
class Edit:
    """One change: `kind` is add, remove, set, replace, product or playset; `counts` per
    number (for set and replace the count to have; for the others how many)."""

    kind: str
    counts: dict[str, int]
    name: str | None = None


def targets(kind: str, counts: dict[str, int], before: dict[str, int]) -> dict[str, int]:
    """The count each touched number has after the edit."""
    if kind in ("add", "product", "playset"):
        return {n: min(MAX_COPIES, before.get(n, 0) + c) for n, c in counts.items()}
    if kind == "remove":
        return {n: max(0, before.get(n, 0) - c) for n, c in counts.items()}
    if kind == "set":
        return dict(counts)
    return {n: counts.get(n, 0) for n in {*before, *counts}}  # replace


class CollectionStore:
    """Each method is one transaction."""

    def __init__(self, database: Database, insert) -> None:
        self.engine = database.engine
        self._writer = database.writer
        self._insert = insert
        mark = "%s" if database.engine.dialect.name == "postgresql" else "?"
        self._cards_sql = f"SELECT number, count FROM collection_cards WHERE collection_id = {mark}"
        # Per set: the keys held (alternate arts of a number are one key) and those held
        # at least PLAYSET times.
        self._sets_sql = (
            f"SELECT set_code, COUNT(*), SUM(CASE WHEN held >= {PLAYSET} THEN 1 ELSE 0 END) "
            f'FROM (SELECT set_code, card_key, SUM("count") AS held FROM collection_cards '
            f"WHERE collection_id = {mark} GROUP BY set_code, card_key) AS keys "
            f"GROUP BY set_code"
        )

    def create(
        self, name: str, game: str, cards: dict[str, int], owner_id: str | None = None
    ) -> tuple[dict, str]:
        """A new collection; `owner_id`: the account it belongs to (saved signed in)."""
        token = secrets.token_urlsafe(24)
        when = now_utc()
        collection_id = secrets.token_urlsafe(9)
        row: dict = {
            "id": collection_id,
            "name": name,
            "game": game,
            "edit_hash": token_hash(token),
            "owner": owner_id,
            "entries": len(cards),
            "changes": 0,
            "created_at": when,
            "updated_at": when,
        }
        with self._writer.begin() as conn:
            conn.execute(collections.insert(), row)
            self._write(conn, collection_id, {}, cards)
        return row, token

    def row(self, collection_id: str) -> dict | None:
        with self.engine.begin() as conn:
            found = conn.execute(_ROW, {"c_id": collection_id}).first()
        return dict(found._mapping) if found is not None else None

    def cards(self, collection_id: str) -> dict[str, int]:
        # The driver's own cursor: 20,000 rows as plain tuples take a third of the time
        # SQLAlchemy's rows do, and every read of a collection (search, sets, buildable)
        # reads them all.
        with self.engine.begin() as conn:
            cursor = conn.connection.cursor()
            try:
                cursor.execute(self._cards_sql, (collection_id,))
                return dict(cursor.fetchall())
            finally:
                cursor.close()

    def key_counts(self, collection_id: str, keys: Iterable[str]) -> dict[str, int]:
        """Copies held per number key, of these keys only (a few hundred for 200 decks:
        the collection's other 20,000 rows are never sent to Python)."""
        wanted = sorted(keys)
        found: dict[str, int] = {}
        with self.engine.begin() as conn:
            for at in range(0, len(wanted), CHUNK):
                query = (
                    select(collection_cards.c.card_key, func.sum(collection_cards.c.count))
                    .where(
                        collection_cards.c.collection_id == collection_id,
                        collection_cards.c.card_key.in_(wanted[at : at + CHUNK]),
                    )
                    .group_by(collection_cards.c.card_key)
                )
                found.update((key, int(count)) for key, count in conn.execute(query))
        return found

    def set_counts(self, collection_id: str) -> dict[str, tuple[int, int]]:
        """Per set code: (card keys held, keys held at least a playset)."""
        with self.engine.begin() as conn:
            cursor = conn.connection.cursor()
            try:
                cursor.execute(self._sets_sql, (collection_id,))
                return {code: (int(held), int(full)) for code, held, full in cursor.fetchall()}
            finally:
                cursor.close()

    def edit(
        self, collection_id: str, shown: owner.Proof, change: Edit
    ) -> tuple[dict, dict[str, int]] | None:
        """(the collection's row after, the new count of each number that changed);
        None: no such collection; BadProof."""
        with self._writer.begin() as conn:
            row = self._locked(conn, collection_id, shown)
            if row is None:
                return None
            if change.kind == "replace":
                before = dict(conn.execute(_CARDS, {"c_id": collection_id}).all())
            else:
                before = self._counts(conn, collection_id, change.counts)
            after = targets(change.kind, change.counts, before)
            changed = {n: c for n, c in after.items() if c != before.get(n, 0)}
            if changed or change.name is not None:
                self._write(conn, collection_id, before, changed)
                self._remember(conn, row, change.kind, before, changed)
                row = self._touch(conn, row, _entries(before, changed), change.name, 1)
            return row, changed

    def undo(self, collection_id: str, shown: owner.Proof) -> dict | None:
        """Puts back the counts the last change overwrote, and forgets that change."""
        with self._writer.begin() as conn:
            row = self._locked(conn, collection_id, shown)
            if row is None:
                return None
            last = conn.execute(
                select(collection_changes.c.seq, collection_changes.c.before)
                .where(collection_changes.c.collection_id == collection_id)
                .order_by(collection_changes.c.seq.desc())
                .limit(1)
            ).first()
            if last is None:
                raise NothingToUndo(collection_id)
            restore = unpack(last.before)
            now = self._counts(conn, collection_id, restore)
            self._write(conn, collection_id, now, restore)
            conn.execute(
                delete(collection_changes).where(
                    collection_changes.c.collection_id == collection_id,
                    collection_changes.c.seq == last.seq,
                )
            )
            return self._touch(conn, row, _entries(now, restore), None)

    def history(self, collection_id: str) -> list[dict]:
        query = (
            select(
                collection_changes.c.change,
                collection_changes.c.at,
                collection_changes.c.added,
                collection_changes.c.removed,
            )
            .where(collection_changes.c.collection_id == collection_id)
            .order_by(collection_changes.c.seq.desc())
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- inside a transaction -------------------------------------------------

    @staticmethod
    def _locked(conn: Connection, collection_id: str, shown: owner.Proof) -> dict | None:
        found = conn.execute(_ROW.with_for_update(), {"c_id": collection_id}).first()
        if found is None:
            return None
        row = dict(found._mapping)
        if not owner.allows(row, shown):
            raise BadProof(collection_id)
        return row

    @staticmethod
    def _counts(conn: Connection, collection_id: str, numbers: Iterable[str]) -> dict[str, int]:
        wanted = list(numbers)
        found: dict[str, int] = {}
        for at in range(0, len(wanted), CHUNK):
            query = select(collection_cards.c.number, collection_cards.c.count).where(
                collection_cards.c.collection_id == collection_id,
                collection_cards.c.number.in_(wanted[at : at + CHUNK]),
            )
            found.update(conn.execute(query).all())
        return found

    def _write(
        self, conn: Connection, collection_id: str, before: dict[str, int], after: dict[str, int]
    ) -> None:
        """Rows for the numbers whose count is now above 0; the others' rows go."""
        kept = [
            {"collection_id": collection_id, "number": n, "count": c, "set_code": set_code(n),
             "card_key": number_key(n)}
            for n, c in after.items()
            if c > 0
        ]  # fmt: skip
        if kept:
            upsert = self._insert(collection_cards)
            conn.execute(
                upsert.on_conflict_do_update(
                    index_elements=["collection_id", "number"],
                    set_={"count": upsert.excluded["count"]},
                ),
                kept,
            )
        gone = [n for n, c in after.items() if c <= 0 and before.get(n, 0) > 0]
        for at in range(0, len(gone), CHUNK):
            conn.execute(
                delete(collection_cards).where(
                    collection_cards.c.collection_id == collection_id,
                    collection_cards.c.number.in_(gone[at : at + CHUNK]),
                )
            )

    @staticmethod
    def _remember(conn: Connection, row: dict, kind: str, before: dict, changed: dict) -> None:
        """The change, with the count each number had before it; only the last HISTORY."""
        collection_id, seq = row["id"], row["changes"] + 1
        was = {n: before.get(n, 0) for n in changed}
        conn.execute(
            collection_changes.insert(),
            {
                "collection_id": collection_id,
                "seq": seq,
                "change": kind,
                "at": now_utc(),
                "added": sum(max(0, c - was[n]) for n, c in changed.items()),
                "removed": sum(max(0, was[n] - c) for n, c in changed.items()),
                "before": pack(was),
            },
        )
        conn.execute(
            delete(collection_changes).where(
                collection_changes.c.collection_id == collection_id,
                collection_changes.c.seq <= seq - HISTORY,
            )
        )

    @staticmethod
    def _touch(
        conn: Connection, row: dict, entries: int, name: str | None, changes: int = 0
    ) -> dict:
        """The collection's row with its new number of entries (counted from the change,
        not by counting 20,000 rows), changes made, time and maybe name."""
        values = {
            "entries": row["entries"] + entries,
            "changes": row["changes"] + changes,
            "updated_at": now_utc(),
        }
        if name is not None:
            values["name"] = name
        conn.execute(collections.update().where(collections.c.id == row["id"]).values(values))
        return {**row, **values}


def _entries(before: dict[str, int], after: dict[str, int]) -> int:
    """How many numbers a change brings in (count from 0) less how many it takes away."""
    came = sum(1 for n, c in after.items() if c > 0 and before.get(n, 0) <= 0)
    went = sum(1 for n, c in after.items() if c <= 0 and before.get(n, 0) > 0)
    return came - went


__all__ = ["BadProof", "CollectionStore", "Edit", "NothingToUndo", "HISTORY"]
