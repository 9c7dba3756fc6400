"""Saved decks in the events database (SQLite or PostgreSQL), over the
events store's engine: the same connections, durability and timeouts (a write returns
only once committed; SQLite in WAL with synchronous=FULL).

Every rule about who may change a deck (its token) is checked inside the transaction
that changes it, after its row is locked (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on
SQLite): two requests can never both pass a check only one of them should.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from sqlalchemy import bindparam, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from deckcheck.decks.collection_store import CollectionStore
from deckcheck.events.store import EventStore
from deckcheck.server.owners import Right, may_change
from deckcheck.server.packing import pack, unpack
from deckcheck.server.tables.decks import (
    deck_cards,
    deck_feed,
    deck_versions,
    deck_worlds,
    decks,
)
from deckcheck.server.tokens import now_utc, token_hash
from rules.verdict import verdict_of

# The deck's columns a read needs: everything but nothing long besides today's verdict.
_DECK = select(decks).where(decks.c.id == bindparam("d_id"))
_LOCK = select(decks.c.edit_hash, decks.c.owner, decks.c.version).where(
    decks.c.id == bindparam("d_id")
)
# The background pass's update, one statement for a batch (executemany).
_SAVE_JUDGED = (
    decks.update()
    .where(decks.c.id == bindparam("d_id"))
    .values(
        judged_world=bindparam("judged_world"),
        judged=bindparam("judged"),
        judged_legal=bindparam("judged_legal"),
        judged_changed=bindparam("judged_changed"),
    )
)
_VERSION = select(deck_versions).where(
    deck_versions.c.deck_id == bindparam("d_id"), deck_versions.c.version == bindparam("v")
)


# A part of the background pass: deck ids from the first (included) to the second (left
# out); None: no bound (deckcheck.decks.rejudge.parts).
Part = tuple[str | None, str | None]


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


@dataclass(frozen=True)
class FeedEntry:
    change: str  # a digest naming the change: the key that keeps it once per deck
    title: str
    body: str


class Stored(NamedTuple):
    """What a batch of the background pass stored: decks, and feed entries added."""

    decks: int
    entries: int


def position_key(change: str, position: int) -> str:
    """A feed entry's key: its change (deck, version, kind, problem) and how many entries
    the deck's feed held before it. The same problem coming back (banned, unbanned,
    banned again) is a new entry; two servers storing the same judging still store one
    (only the first passes the stored verdict's check, and both would write one key)."""
    text = f"{change}/{position}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]


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


class DeckStore:
    """Each method is one transaction."""

    def __init__(self, events: EventStore) -> None:
        self.engine = events.engine
        self._writer = events.engine.execution_options(write=True)
        self._insert = _insert(self.engine.dialect.name)
        # Worlds this process has stored (deck_worlds): each written once, not per save.
        self.kept: set[str] = set()
        # The collections, on the same engine (deckcheck.decks.collection_store).
        self.collections = CollectionStore(events, self._insert)

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

    def save_judged(
        self,
        deck_id: str,
        version: int,
        world: str,
        judged: dict,
        changed: bool,
        entries: Iterable[FeedEntry] = (),
        was_world: str | None = None,
    ) -> bool:
        """Store today's verdict of a version and its feed entries (each once per deck,
        whoever adds it first), if the deck is still at that version and in `was_world`,
        the world it was read in ("changed" was measured against the verdict last shown as
        read then: a read since may have shown another). False: the deck moved on
        meanwhile (nothing stored)."""
        values = {
            "judged_world": world,
            "judged": pack(judged),
            "judged_legal": judged["legal"],
            "judged_changed": changed,
        }
        with self._writer.begin() as conn:
            still = [decks.c.id == deck_id, decks.c.version == version]
            if was_world is not None:
                still.append(decks.c.judged_world == was_world)
            done = conn.execute(decks.update().where(*still).values(**values)).rowcount
            if done:
                self._add_entries(conn, {deck_id: list(entries)})
        return bool(done)

    def mark_shown(self, deck_id: str, version: int, world: str, view: dict) -> bool:
        """A reader was shown `view` (judged in `world`): the verdict the next "changed"
        is measured against. False: the deck moved on meanwhile (a new version, or judged
        in another world), and nothing is stored."""
        shown = {key: view[key] for key in ("violations", "warnings", "unresolved") if key in view}
        with self._writer.begin() as conn:
            done = conn.execute(
                decks.update()
                .where(
                    decks.c.id == deck_id,
                    decks.c.version == version,
                    decks.c.judged_world == world,
                )
                .values(legal=view["legal"], verdict=pack(shown), judged_changed=False)
            ).rowcount
        return bool(done)

    def save_judged_many(self, rows: list[dict]) -> Stored:
        """`save_judged` for a batch of the background pass, in one transaction: the decks
        still at the version and in the world they were read in (locked; a read since has
        judged them itself), their verdicts and their feed entries each written by one
        statement for the whole batch. Counts the decks stored and the entries added."""
        if not rows:
            return Stored(0, 0)
        ids = [row["id"] for row in rows]
        with self._writer.begin() as conn:
            found = select(decks.c.id, decks.c.version, decks.c.judged_world)
            current = {
                deck_id: (version, world)
                for deck_id, version, world in conn.execute(
                    found.where(decks.c.id.in_(ids)).with_for_update()
                )
            }
            kept = [r for r in rows if current.get(r["id"]) == (r["version"], r["was_world"])]
            if not kept:
                return Stored(0, 0)
            conn.execute(
                _SAVE_JUDGED,
                [
                    {
                        "d_id": row["id"],
                        "judged_world": row["world"],
                        "judged": pack(row["judged"]),
                        "judged_legal": row["judged"]["legal"],
                        "judged_changed": row["changed"],
                    }
                    for row in kept
                ],
            )
            added = self._add_entries(conn, {row["id"]: row["entries"] for row in kept})
        return Stored(len(kept), added)

    def _add_entries(self, conn: Connection, entries: dict[str, Sequence[FeedEntry]]) -> int:
        """The entries of each deck, keyed after the entries its feed holds already
        (position_key); how many were added (a key already there adds none)."""
        wanted = [deck_id for deck_id, found in entries.items() if found]
        if not wanted:
            return 0
        held: dict[str, int] = dict(
            conn.execute(
                select(deck_feed.c.deck_id, func.count())
                .where(deck_feed.c.deck_id.in_(wanted))
                .group_by(deck_feed.c.deck_id)
            ).all()
        )
        when = now_utc()
        rows = [
            {"deck_id": deck_id, "change": position_key(e.change, held.get(deck_id, 0)),
             "at": when, "title": e.title, "body": e.body}
            for deck_id in wanted
            for e in entries[deck_id]
        ]  # fmt: skip
        statement = self._insert(deck_feed).on_conflict_do_nothing()
        return len(conn.execute(statement.returning(deck_feed.c.change), rows).all())

    def feed(self, deck_id: str, limit: int = 100) -> list[dict]:
        query = (
            select(deck_feed)
            .where(deck_feed.c.deck_id == deck_id)
            .order_by(deck_feed.c.at.desc(), deck_feed.c.change)
            .limit(limit)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- worlds and the background pass ---------------------------------------

    def keep_world(self, world: str, format_id: str, rules: str, facts: dict[str, str]) -> None:
        packed = pack({"rules": rules, "facts": facts})
        row = {"world": world, "format": format_id, "facts": packed, "created_at": now_utc()}
        with self._writer.begin() as conn:
            conn.execute(self._insert(deck_worlds).on_conflict_do_nothing(), row)

    def world_facts(self, world: str) -> dict | None:
        """{"rules", "facts"} of a stored world; None when it is not stored."""
        query = select(deck_worlds.c.facts).where(deck_worlds.c.world == world)
        with self.engine.begin() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return unpack(found) if found is not None else None

    def formats(self) -> list[str]:
        with self.engine.begin() as conn:
            return list(conn.execute(select(decks.c.format).distinct()).scalars())

    def stale_worlds(self, format_id: str, world: str) -> list[str]:
        """The other worlds decks of this format were last judged in."""
        query = (
            select(decks.c.judged_world)
            .where(decks.c.format == format_id, decks.c.judged_world != world)
            .distinct()
        )
        with self.engine.begin() as conn:
            return list(conn.execute(query).scalars())

    def _in_part(self, part: Part) -> list:
        """The condition on deck ids of a part of the pass: ids from `lo` (included) to
        `hi` (left out), compared byte by byte on both databases (PostgreSQL's collation
        may order '-' and '_' otherwise)."""
        column = decks.c.id.collate("C") if self.engine.dialect.name == "postgresql" else decks.c.id
        found = []
        if part[0] is not None:
            found.append(column >= part[0])
        if part[1] is not None:
            found.append(column < part[1])
        return found

    def stale_page(
        self,
        format_id: str,
        old_world: str,
        after: str,
        limit: int,
        numbers: Sequence[str] | None = None,
        unknown_too: bool = False,
        part: Part = (None, None),
    ) -> list[dict]:
        """Up to `limit` decks of `format_id` judged in `old_world`, ids after `after` (in
        `part`), with their latest structured list; only those holding one of `numbers`
        (and, with `unknown_too`, those with lines that named no card) when numbers are
        given."""
        where = [
            decks.c.format == format_id,
            decks.c.judged_world == old_world,
            decks.c.id > after,
            *self._in_part(part),
        ]
        if numbers is not None:
            holding = select(deck_cards.c.deck_id).where(deck_cards.c.number.in_(list(numbers)))
            touched = decks.c.id.in_(holding)
            where.append(touched | decks.c.has_unknown.is_(True) if unknown_too else touched)
        query = (
            select(
                decks.c.id,
                decks.c.version,
                decks.c.legal,
                decks.c.verdict,
                decks.c.judged,
                decks.c.judged_world,
                deck_versions.c.structured,
            )
            .join(
                deck_versions,
                (deck_versions.c.deck_id == decks.c.id)
                & (deck_versions.c.version == decks.c.version),
            )
            .where(*where)
            .order_by(decks.c.id)
            .limit(limit)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def move_world(
        self,
        format_id: str,
        old_world: str,
        world: str,
        limit: int,
        since: str,
        part: Part = (None, None),
    ) -> int:
        """Up to `limit` decks judged in `old_world` that no change touched: their verdict
        holds in `world` too (one short transaction per batch: no long lock). Decks saved
        since the pass began (`since`) stay for the next pass: a server that had not yet
        seen the change may have judged them in the old world."""
        page = (
            select(decks.c.id)
            .where(
                decks.c.format == format_id,
                decks.c.judged_world == old_world,
                decks.c.updated_at < since,
                *self._in_part(part),
            )
            .limit(limit)
        )
        with self._writer.begin() as conn:
            ids = list(conn.execute(page).scalars())
            if ids:
                conn.execute(
                    decks.update()
                    .where(decks.c.id.in_(ids), decks.c.judged_world == old_world)
                    .values(judged_world=world)
                )
        return len(ids)

    def forget_worlds(self, keep: Sequence[str]) -> None:
        """Worlds no deck was judged in any more (and not `keep`)."""
        used = select(decks.c.judged_world).distinct()
        with self._writer.begin() as conn:
            conn.execute(
                deck_worlds.delete().where(
                    deck_worlds.c.world.not_in(used), deck_worlds.c.world.not_in(list(keep))
                )
            )

    def count(self) -> int:
        with self.engine.begin() as conn:
            return conn.execute(select(func.count()).select_from(decks)).scalar_one()


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


__all__ = ["BadToken", "DeckStore", "FeedEntry", "SavedList", "Stored"]
